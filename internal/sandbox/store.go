package sandbox

import (
	"sort"
	"time"

	"github.com/svcui/svcui/internal/models"
)

// principal is who a token belongs to. The sandbox has two people: the account owner
// (admin token) and a colleague (developer token).
type principal string

const (
	principalAdmin     principal = "admin"
	principalDeveloper principal = "developer"
)

// store is the whole platform state. Every field is exported so that the state file is
// the store itself, encoded as JSON. One mutex in Sandbox guards all of it.
type store struct {
	AccountID   string                   `json:"account_id"`
	AccountName string                   `json:"account_name"`
	Projects    map[string]*project      `json:"projects"`
	Groups      map[string]*billingGroup `json:"billing_groups"`
	Credits     credits                  `json:"credits"`
	Hostile     bool                     `json:"hostile,omitempty"` // the hostile data set: see hostile.go
}

type credits struct {
	Available string `json:"available"`
	Total     string `json:"total"`
	Currency  string `json:"currency"`
}

type project struct {
	Name           string                    `json:"name"`
	DefaultCloud   string                    `json:"default_cloud"`
	BillingGroupID string                    `json:"billing_group_id"`
	Currency       string                    `json:"currency,omitempty"` // set by PUT billing_currency; else the group's
	CountryCode    string                    `json:"country_code"`
	VATID          string                    `json:"vat_id"`
	BillingAddress string                    `json:"billing_address,omitempty"`
	BillingEmails  []string                  `json:"billing_emails,omitempty"`
	TechEmails     []string                  `json:"tech_emails,omitempty"`
	Members        map[principal]models.Role `json:"members"`
	Services       map[string]*service       `json:"services"`
}

// service is one managed service. Phase is the last state set by an operation; while it
// is transitional, the state callers see becomes RUNNING once the clock passes Until.
type service struct {
	Name        string              `json:"name"`
	Type        string              `json:"type"`
	Plan        string              `json:"plan"`
	Cloud       string              `json:"cloud"`
	DiskMB      int                 `json:"disk_mb"`
	NodeCount   int                 `json:"node_count"`
	Protected   bool                `json:"protected"`
	VPCID       string              `json:"vpc_id,omitempty"`
	Maintenance models.Maintenance  `json:"maintenance"`
	UserConfig  map[string]any      `json:"user_config,omitempty"`
	CreateTime  time.Time           `json:"create_time"`
	UpdateTime  time.Time           `json:"update_time"`
	Phase       models.ServiceState `json:"phase"`
	Until       time.Time           `json:"until"`
	PoweredOff  time.Time           `json:"powered_off,omitempty"`
	Host        string              `json:"host"`
	Port        int                 `json:"port"`
	Users       []*serviceUser      `json:"users"`
	ACLs        []models.ACL        `json:"acls,omitempty"`
	Topics      []*topic            `json:"topics,omitempty"`
	Databases   []string            `json:"databases,omitempty"`
	// Search: whether this service serves the search interface, the port it last had
	// (reused after a restart when free), and its engine data in the state file.
	Search     bool   `json:"search,omitempty"`
	SearchPort int    `json:"search_port,omitempty"`
	SearchData []byte `json:"search_data,omitempty"`
	SearchDemo bool   `json:"search_demo,omitempty"` // load the demo indices when the engine starts
}

type serviceUser struct {
	Username       string          `json:"username"`
	Type           models.UserType `json:"type"`
	Password       string          `json:"password"`
	Authentication string          `json:"authentication,omitempty"`
	AccessCert     string          `json:"access_cert,omitempty"`
	AccessKey      string          `json:"access_key,omitempty"`
}

type topic struct {
	Name        string    `json:"name"`
	Partitions  int       `json:"partitions"`
	Replication int       `json:"replication"`
	Created     time.Time `json:"created"`
	State       string    `json:"state,omitempty"` // answered instead of the computed state (hostile data)
}

type billingGroup struct {
	Group    models.BillingGroup `json:"group"`
	Invoices []*invoice          `json:"invoices,omitempty"` // newest first
}

// invoice keeps the capability that its download link carries; the link itself is
// built per request from the address the caller used.
type invoice struct {
	Invoice    models.Invoice `json:"invoice"`
	Capability string         `json:"capability"`
}

func newStore() *store {
	return &store{Projects: map[string]*project{}, Groups: map[string]*billingGroup{}}
}

// state is what a caller sees at now.
func (sv *service) state(now time.Time) models.ServiceState {
	if sv.Phase.InProgress() && !now.Before(sv.Until) {
		return models.StateRunning
	}
	return sv.Phase
}

// updateTime moves to the end of a finished transition: that was a change too.
func (sv *service) updateTime(now time.Time) time.Time {
	if sv.Phase.InProgress() && !now.Before(sv.Until) && sv.Until.After(sv.UpdateTime) {
		return sv.Until
	}
	return sv.UpdateTime
}

// settle records a finished transition before an operation changes the service.
func (sv *service) settle(now time.Time) {
	if sv.Phase.InProgress() && !now.Before(sv.Until) {
		sv.UpdateTime = sv.updateTime(now)
		sv.Phase = models.StateRunning
		sv.Until = time.Time{}
	}
}

func (sv *service) user(name string) *serviceUser {
	for _, u := range sv.Users {
		if u.Username == name {
			return u
		}
	}
	return nil
}

func (sv *service) primary() *serviceUser {
	for _, u := range sv.Users {
		if u.Type == models.UserPrimary {
			return u
		}
	}
	if len(sv.Users) > 0 {
		return sv.Users[0]
	}
	return &serviceUser{Username: "avnadmin", Type: models.UserPrimary}
}

func (p *project) sortedServices() []*service {
	out := make([]*service, 0, len(p.Services))
	for _, sv := range p.Services {
		out = append(out, sv)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func (st *store) sortedProjects() []*project {
	out := make([]*project, 0, len(st.Projects))
	for _, p := range st.Projects {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func (st *store) sortedGroups() []*billingGroup {
	out := make([]*billingGroup, 0, len(st.Groups))
	for _, g := range st.Groups {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Group.BillingGroupName < out[j].Group.BillingGroupName })
	return out
}
