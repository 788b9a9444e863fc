package sandbox

import (
	"net/url"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcui/svcui/internal/models"
)

// amountOf turns a stored decimal string into an Amount ("" stays unset).
func amountOf(s string) models.Amount {
	a, err := models.ParseAmount(s)
	if err != nil {
		return models.Amount{}
	}
	return a
}

// money2 is an amount with exactly two decimals.
func money2(d decimal.Decimal) models.Amount {
	return models.MustAmount(d.StringFixed(2)) // a decimal's own text always parses
}

func (s *Sandbox) projectCurrency(p *project) string {
	if p.Currency != "" {
		return p.Currency
	}
	if g := s.st.Groups[p.BillingGroupID]; g != nil && g.Group.BillingCurrency != "" {
		return g.Group.BillingCurrency
	}
	return "USD"
}

// estimate is the month-to-date cost of a project's current services: each service's
// hourly plan price for the hours it ran this month (billing stops at power off),
// converted into the project's currency.
func (s *Sandbox) estimate(p *project, now time.Time) models.Estimate {
	cur := s.projectCurrency(p)
	monthStart := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	total := decimal.Zero
	out := models.Estimate{BillingCurrency: cur, Services: []models.EstimateService{}}
	for _, sv := range p.sortedServices() {
		start := sv.CreateTime
		if start.Before(monthStart) {
			start = monthStart
		}
		end := now
		if sv.Phase == models.StatePowerOff && !sv.PoweredOff.IsZero() {
			end = sv.PoweredOff
		}
		cost := decimal.Zero
		if end.After(start) {
			if d, ok := findPlan(sv.Type, sv.Plan); ok {
				hours := decimal.NewFromInt(int64(end.Sub(start) / time.Minute)).Div(decimal.NewFromInt(60))
				cost = toCurrency(planPrice(sv.Type, d, sv.Cloud).Mul(hours), cur).Round(2)
			}
		}
		total = total.Add(cost)
		out.Services = append(out.Services, models.EstimateService{ServiceName: sv.Name, ServiceType: sv.Type, EstimatedCost: money2(cost)})
	}
	out.EstimatedBalance = money2(total)
	return out
}

func (s *Sandbox) projectEstimate(c *call) (any, error) {
	p, err := c.project(c.param("project"), accessRead, "read estimates")
	if err != nil {
		return nil, err
	}
	return s.estimate(p, c.now), nil
}

func (s *Sandbox) accountCredits(c *call) (any, error) {
	if err := c.account(c.param("account"), accessRead, "read credits"); err != nil {
		return nil, err
	}
	cr := s.st.Credits
	return models.Credits{AvailableCredits: amountOf(cr.Available), TotalCredits: amountOf(cr.Total), Currency: cr.Currency}, nil
}

// creditsIn is the account's available credits expressed in a project's billing
// currency. The credits are held in their own currency (the credits read says which);
// a project's available_credits is an amount of its billing_currency like every other
// amount of the project, so it is converted, never relabelled.
func (s *Sandbox) creditsIn(currency string) models.Amount {
	cr := s.st.Credits
	a, err := decimal.NewFromString(cr.Available)
	if err != nil {
		return models.Amount{}
	}
	return money2(convertCurrency(a, cr.Currency, currency).Round(2))
}

// renderGroup copies a group; detail adds its projects and card.
func (s *Sandbox) renderGroup(g *billingGroup, now time.Time, detail bool) models.BillingGroup {
	out := g.Group
	out.BillingEmail = append(models.EmailList{}, g.Group.BillingEmail...)
	out.AddressLines = append([]string{}, g.Group.AddressLines...)
	out.Projects = nil
	out.CardInfo = nil
	if detail {
		out.Projects = []models.Project{}
		for _, p := range s.st.sortedProjects() {
			if p.BillingGroupID == g.Group.BillingGroupID {
				out.Projects = append(out.Projects, s.renderProject(p, now))
			}
		}
		if g.Group.CardInfo != nil {
			ci := *g.Group.CardInfo
			out.CardInfo = &ci
		}
	}
	return out
}

func (s *Sandbox) listBillingGroups(c *call) (any, error) {
	if err := c.account(c.param("account"), accessRead, "read billing groups"); err != nil {
		return nil, err
	}
	out := []models.BillingGroup{}
	for _, g := range s.st.sortedGroups() {
		out = append(out, s.renderGroup(g, c.now, false))
	}
	return map[string]any{"billing_groups": out}, nil
}

// group finds a billing group of the caller's account.
func (c *call) group(need access, what string) (*billingGroup, error) {
	id := c.param("group")
	g := c.s.st.Groups[id]
	if g == nil {
		return nil, notFound("Billing group %s does not exist", id)
	}
	if err := c.account(g.Group.AccountID, need, what); err != nil {
		return nil, err
	}
	return g, nil
}

func (s *Sandbox) getBillingGroup(c *call) (any, error) {
	g, err := c.group(accessRead, "read billing groups")
	if err != nil {
		return nil, err
	}
	bg := s.renderGroup(g, c.now, true) // Projects is never nil here
	return map[string]any{"billing_group": groupDetail{BillingGroup: bg, Projects: bg.Projects}}, nil
}

// groupDetail is the single-group read: it always carries projects, an empty array when
// none are assigned (the model omits an empty list, which the list read relies on).
type groupDetail struct {
	models.BillingGroup
	Projects []models.Project `json:"projects"` // shadows the embedded, omitempty field
}

// validateGroupRequest checks every field a billing group request carries.
func validateGroupRequest(req *models.BillingGroupRequest) error {
	if req.BillingGroupName != nil {
		if err := models.ValidateBillingGroupName(*req.BillingGroupName); err != nil {
			return fieldError("billing_group_name", err)
		}
	}
	if req.BillingCurrency != nil {
		if err := models.ValidateCurrency(*req.BillingCurrency); err != nil {
			return fieldError("billing_currency", err)
		}
	}
	if req.CountryCode != nil {
		if err := models.ValidateCountryCode(*req.CountryCode); err != nil {
			return fieldError("country_code", err)
		}
	}
	if req.BillingEmail != nil {
		for _, e := range *req.BillingEmail {
			if err := models.ValidateEmail(e); err != nil {
				return fieldError("billing_email", err)
			}
		}
	}
	return nil
}

func applyGroupRequest(g *models.BillingGroup, req *models.BillingGroupRequest) {
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&g.BillingGroupName, req.BillingGroupName)
	if req.BillingCurrency != nil && *req.BillingCurrency != "" {
		g.BillingCurrency = *req.BillingCurrency
	}
	set(&g.Company, req.Company)
	set(&g.City, req.City)
	set(&g.State, req.State)
	set(&g.ZipCode, req.ZipCode)
	set(&g.VATID, req.VATID)
	if req.CountryCode != nil {
		g.CountryCode = strings.ToUpper(*req.CountryCode)
	}
	if req.BillingEmail != nil {
		g.BillingEmail = append(models.EmailList{}, *req.BillingEmail...)
	}
	if req.AddressLines != nil {
		g.AddressLines = append([]string{}, *req.AddressLines...)
	}
}

func (s *Sandbox) groupNameTaken(name, exceptID string) bool {
	for _, g := range s.st.Groups {
		if g.Group.BillingGroupName == name && g.Group.BillingGroupID != exceptID {
			return true
		}
	}
	return false
}

func (s *Sandbox) createBillingGroup(c *call) (any, error) {
	var req models.BillingGroupRequest
	if err := c.decode(&req, "billing_group_name"); err != nil {
		return nil, err
	}
	if err := c.account(c.param("account"), accessAdmin, "create billing groups"); err != nil {
		return nil, err
	}
	if err := validateGroupRequest(&req); err != nil {
		return nil, err
	}
	if s.groupNameTaken(*req.BillingGroupName, "") {
		return nil, conflict("Billing group %s already exists", *req.BillingGroupName)
	}
	g := &billingGroup{Group: models.BillingGroup{
		BillingGroupID:  s.newUUID(),
		AccountID:       s.st.AccountID,
		BillingCurrency: "USD",
		BillingEmail:    models.EmailList{},
		AddressLines:    []string{},
		PaymentMethod:   models.PaymentCard,
	}}
	applyGroupRequest(&g.Group, &req)
	s.st.Groups[g.Group.BillingGroupID] = g
	return map[string]any{"billing_group": s.renderGroup(g, c.now, false)}, nil
}

func (s *Sandbox) updateBillingGroup(c *call) (any, error) {
	var req models.BillingGroupRequest
	if err := c.decode(&req); err != nil {
		return nil, err
	}
	g, err := c.group(accessAdmin, "change billing groups")
	if err != nil {
		return nil, err
	}
	if err := validateGroupRequest(&req); err != nil {
		return nil, err
	}
	if req.BillingGroupName != nil && s.groupNameTaken(*req.BillingGroupName, g.Group.BillingGroupID) {
		return nil, conflict("Billing group %s already exists", *req.BillingGroupName)
	}
	applyGroupRequest(&g.Group, &req)
	return map[string]any{"billing_group": s.renderGroup(g, c.now, false)}, nil
}

func (s *Sandbox) listInvoices(c *call) (any, error) {
	g, err := c.group(accessRead, "read invoices")
	if err != nil {
		return nil, err
	}
	base := requestBase(c)
	out := make([]models.Invoice, 0, len(g.Invoices))
	for _, inv := range g.Invoices {
		m := inv.Invoice
		m.DownloadURL = base + "/files/invoices/" + url.PathEscape(m.InvoiceNumber) + ".pdf?token=" + url.QueryEscape(inv.Capability)
		out = append(out, m)
	}
	return map[string]any{"invoices": out}, nil
}

// requestBase is the address the caller used to reach the sandbox.
func requestBase(c *call) string {
	scheme := "http"
	if c.r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + c.r.Host
}

// newUUID returns a random UUID (version 4 layout). Callers hold the write lock.
func (s *Sandbox) newUUID() string {
	var b [16]byte
	for i := range b {
		b[i] = byte(s.rng.IntN(256))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	const hexd = "0123456789abcdef"
	var sb strings.Builder
	for i, x := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			sb.WriteByte('-')
		}
		sb.WriteByte(hexd[x>>4])
		sb.WriteByte(hexd[x&0xf])
	}
	return sb.String()
}
