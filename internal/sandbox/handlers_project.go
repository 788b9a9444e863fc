package sandbox

import (
	"strings"
	"time"

	"github.com/svcui/svcui/internal/models"
)

// fieldError is a 400 that names the field and says what rule it broke.
func fieldError(field string, err error) error {
	return badRequest("Invalid %s: %s", field, err.Error())
}

func (s *Sandbox) renderProject(p *project, now time.Time) models.Project {
	g := s.st.Groups[p.BillingGroupID]
	out := models.Project{
		ProjectName:      p.Name,
		AccountID:        s.st.AccountID,
		AccountName:      s.st.AccountName,
		DefaultCloud:     p.DefaultCloud,
		BillingGroupID:   p.BillingGroupID,
		BillingCurrency:  s.projectCurrency(p),
		EstimatedBalance: s.estimate(p, now).EstimatedBalance,
		AvailableCredits: s.creditsIn(s.projectCurrency(p)),
		CountryCode:      p.CountryCode,
		VATID:            p.VATID,
		BillingAddress:   p.BillingAddress,
		BillingEmails:    append(models.EmailList(nil), p.BillingEmails...),
		TechEmails:       append(models.EmailList(nil), p.TechEmails...),
	}
	if g != nil {
		out.BillingGroupName = g.Group.BillingGroupName
		out.PaymentMethod = string(g.Group.PaymentMethod)
	}
	return out
}

func (s *Sandbox) listProjects(c *call) (any, error) {
	list := models.ProjectList{Projects: []models.Project{}, Membership: map[string]models.Role{}}
	for _, p := range s.st.sortedProjects() {
		role := p.Members[c.who]
		if role == "" {
			continue
		}
		list.Projects = append(list.Projects, s.renderProject(p, c.now))
		list.Membership[p.Name] = role
	}
	return list, nil
}

func (s *Sandbox) getProject(c *call) (any, error) {
	p, err := c.project(c.param("project"), accessRead, "read the project")
	if err != nil {
		return nil, err
	}
	return map[string]any{"project": s.renderProject(p, c.now)}, nil
}

func (s *Sandbox) createProject(c *call) (any, error) {
	var req models.CreateProjectRequest
	if err := c.decode(&req, "project"); err != nil {
		return nil, err
	}
	if err := models.ValidateProjectName(req.Project); err != nil {
		return nil, fieldError("project", err)
	}
	accountID := req.AccountID
	if accountID == "" {
		accountID = s.st.AccountID
	}
	if err := c.account(accountID, accessAdmin, "create projects"); err != nil {
		return nil, err
	}
	if s.st.Projects[req.Project] != nil {
		return nil, conflict("Project %s already exists", req.Project)
	}
	p := &project{
		Name:         req.Project,
		DefaultCloud: "google-europe-north1",
		// The creator is the only member: nobody else sees a project until invited.
		Members:  map[principal]models.Role{c.who: models.RoleAdmin},
		Services: map[string]*service{},
	}
	if req.CopyFromProject != "" {
		src := s.st.Projects[req.CopyFromProject]
		if src == nil || src.Members[c.who] == "" {
			return nil, notFound("Project %s does not exist (copy_from_project)", req.CopyFromProject)
		}
		p.DefaultCloud = src.DefaultCloud
		p.BillingGroupID = src.BillingGroupID
		p.Currency = src.Currency
		p.CountryCode = src.CountryCode
		p.VATID = src.VATID
		p.BillingAddress = src.BillingAddress
		p.BillingEmails = append([]string(nil), src.BillingEmails...)
		p.TechEmails = append([]string(nil), src.TechEmails...)
	}
	if req.BillingGroupID != "" {
		if s.st.Groups[req.BillingGroupID] == nil {
			return nil, notFound("Billing group %s does not exist", req.BillingGroupID)
		}
		p.BillingGroupID = req.BillingGroupID
		p.Currency = ""
	}
	if p.BillingGroupID == "" {
		if gs := s.st.sortedGroups(); len(gs) > 0 {
			p.BillingGroupID = gs[0].Group.BillingGroupID
		}
	}
	if g := s.st.Groups[p.BillingGroupID]; g != nil && p.CountryCode == "" {
		p.CountryCode = g.Group.CountryCode
		p.VATID = g.Group.VATID
	}
	if req.Cloud != "" {
		if !knownCloud(req.Cloud) {
			return nil, badRequest("Invalid cloud: %q is not a cloud region; see GET /v1/clouds", req.Cloud)
		}
		p.DefaultCloud = req.Cloud
	}
	s.st.Projects[p.Name] = p
	return map[string]any{"project": s.renderProject(p, c.now)}, nil
}

func (s *Sandbox) updateProject(c *call) (any, error) {
	var req models.UpdateProjectRequest
	if err := c.decode(&req); err != nil {
		return nil, err
	}
	p, err := c.project(c.param("project"), accessAdmin, "change project settings")
	if err != nil {
		return nil, err
	}
	// Validate everything before changing anything.
	if req.AccountID != nil && *req.AccountID != s.st.AccountID {
		return nil, notFound("Account %s does not exist", *req.AccountID)
	}
	if req.BillingGroupID != nil && s.st.Groups[*req.BillingGroupID] == nil {
		return nil, notFound("Billing group %s does not exist", *req.BillingGroupID)
	}
	if req.Cloud != nil && !knownCloud(*req.Cloud) {
		return nil, badRequest("Invalid cloud: %q is not a cloud region; see GET /v1/clouds", *req.Cloud)
	}
	if req.BillingCurrency != nil {
		if *req.BillingCurrency == "" {
			return nil, badRequest("Invalid billing_currency: it must not be empty")
		}
		if err := models.ValidateCurrency(*req.BillingCurrency); err != nil {
			return nil, fieldError("billing_currency", err)
		}
	}
	for field, list := range map[string]*[]string{"billing_emails": req.BillingEmails, "tech_emails": req.TechEmails} {
		if list == nil {
			continue
		}
		for _, e := range *list {
			if err := models.ValidateEmail(e); err != nil {
				return nil, fieldError(field, err)
			}
		}
	}
	if req.CountryCode != nil {
		if err := models.ValidateCountryCode(*req.CountryCode); err != nil {
			return nil, fieldError("country_code", err)
		}
	}
	if req.BillingGroupID != nil {
		p.BillingGroupID = *req.BillingGroupID
		p.Currency = ""
	}
	if req.Cloud != nil {
		p.DefaultCloud = *req.Cloud
	}
	if req.BillingCurrency != nil {
		p.Currency = *req.BillingCurrency
	}
	if req.BillingAddress != nil {
		p.BillingAddress = *req.BillingAddress
	}
	if req.BillingEmails != nil {
		p.BillingEmails = append([]string{}, *req.BillingEmails...)
	}
	if req.TechEmails != nil {
		p.TechEmails = append([]string{}, *req.TechEmails...)
	}
	if req.CountryCode != nil {
		p.CountryCode = strings.ToUpper(*req.CountryCode)
	}
	return map[string]any{"project": s.renderProject(p, c.now)}, nil
}

func (s *Sandbox) deleteProject(c *call) (any, error) {
	p, err := c.project(c.param("project"), accessAdmin, "delete the project")
	if err != nil {
		return nil, err
	}
	if len(p.Services) > 0 {
		return nil, conflict("Project %s has services; delete them first", p.Name)
	}
	delete(s.st.Projects, p.Name)
	return emptyBody{}, nil
}
