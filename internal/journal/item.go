// Package journal answers "what changed, and was it this console?" for a platform that
// publishes no events: it keeps a snapshot of what the console read for a profile and
// compares each new read with it. Every difference becomes an Entry (when it was first
// seen, the resource, before → after, and whether this console made it). The package
// has no UI: the console's background reader feeds it, its :changes view reads it, and
// Store keeps it on disk between runs.
//
// A snapshot holds no secret by construction: an Item is built only from the
// platform's types by the From* functions, which copy the fields listed in this file
// (names, states, plans, sizes, amounts) and nothing else, so a password, a token or a
// connection URI has no way in.
package journal

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/svcui/svcui/internal/models"
)

// Kind is the kind of resource an item is.
type Kind uint8

const (
	KindProject Kind = iota + 1
	KindService
	KindUser
	KindACL
	KindTopic
	KindDatabase
	KindBillingGroup
	KindInvoice
	KindCredits
	KindEstimate
	kindEnd
)

var kindNames = [...]string{"", "project", "service", "user", "acl", "topic", "database", "billing group", "invoice", "credits", "estimate"}

// fields names each kind's compared attributes, in the order an Item holds them.
var fields = [...][]string{
	KindProject:      {"billing group", "account", "default cloud"},
	KindService:      {"type", "state", "plan", "cloud", "disk", "nodes", "protection", "maintenance", "ip filter", "version"},
	KindUser:         {"type", "authentication"},
	KindACL:          {},
	KindTopic:        {"partitions", "replication", "state"},
	KindDatabase:     {},
	KindBillingGroup: {"name", "currency", "payment"},
	KindInvoice:      {"state", "total", "period"},
	KindCredits:      {"available", "total"},
	KindEstimate:     {"cost"},
}

// String is the kind's name ("billing group").
func (k Kind) String() string {
	if k == 0 || k >= kindEnd {
		return "kind " + strconv.Itoa(int(k))
	}
	return kindNames[k]
}

// Fields are the kind's compared attribute names.
func (k Kind) Fields() []string {
	if k == 0 || k >= kindEnd {
		return nil
	}
	return fields[k]
}

// Item is one resource as the console last read it: its name within its scope and its
// compared attributes. Only the From* functions make one, so nothing else gets in.
type Item struct {
	name string
	vals []string
}

// Name is the item's name within its scope (a service's name, a user's name).
func (it Item) Name() string { return it.name }

// Value is the named attribute ("" when the kind has no such field).
func (it Item) Value(kind Kind, field string) string {
	if i := slices.Index(kind.Fields(), field); i >= 0 && i < len(it.vals) {
		return it.vals[i]
	}
	return ""
}

func item(name string, vals ...string) Item {
	for i, v := range vals {
		vals[i] = values.share(v)
	}
	return Item{name: name, vals: vals}
}

// values makes the items share the values that repeat across an account (states,
// plans, clouds, "on", "8192 MB"): 10,000 services then hold one "RUNNING", not the
// 10,000 each answer decoded. Bounded, so unique values cost at most maxShared entries.
var values = sharer{m: map[string]string{}}

const maxShared = 8192

type sharer struct {
	mu sync.Mutex
	m  map[string]string
}

func (s *sharer) share(v string) string {
	if v == "" || len(v) > 64 {
		return v
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if w, ok := s.m[v]; ok {
		return w
	}
	if len(s.m) < maxShared {
		s.m[v] = v
	}
	return v
}

// FromProject is a project as the journal compares it.
func FromProject(p models.Project) Item {
	return item(p.ProjectName, p.BillingGroupID, p.AccountID, p.DefaultCloud)
}

// FromService is a service as the journal compares it: no URI, no connection info, no
// user_config beyond the IP filter and the version.
func FromService(s models.Service) Item {
	maint := ""
	if s.Maintenance != nil && (s.Maintenance.DOW != "" || s.Maintenance.Time != "") {
		maint = strings.TrimSpace(s.Maintenance.DOW + " " + s.Maintenance.Time)
	}
	disk := ""
	if s.DiskSpaceMB > 0 {
		disk = strconv.Itoa(s.DiskSpaceMB) + " MB"
	}
	nodes := ""
	if s.NodeCount > 0 {
		nodes = strconv.Itoa(s.NodeCount)
	}
	return item(s.ServiceName, s.ServiceType, string(s.State), s.Plan, s.CloudName, disk, nodes,
		onOff(s.TerminationProtection), maint, strings.Join(s.UserConfig.IPFilter(), ", "), version(s))
}

// version is the service's major version as its user_config names it.
func version(s models.Service) string {
	for _, k := range []string{models.UCPGVersion, "mysql_version", "kafka_version", "opensearch_version", "redis_version", "clickhouse_version", "grafana_version"} {
		if v, ok := s.UserConfig.String(k); ok {
			return v
		}
	}
	return ""
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// FromUser is a service user without its password, certificate or key.
func FromUser(u models.ServiceUser) Item {
	return item(u.Username, string(u.Type), u.Authentication)
}

// FromACL is a Kafka ACL entry; who may do what on which topic is its identity.
func FromACL(a models.ACL) Item {
	return item(a.Username + " " + string(a.Permission) + " " + a.Topic)
}

// FromTopic is a Kafka topic.
func FromTopic(t models.Topic) Item {
	return item(t.TopicName, strconv.Itoa(int(t.Partitions)), strconv.Itoa(int(t.Replication)), t.State)
}

// FromDatabase is a database of a service.
func FromDatabase(d models.Database) Item { return item(d.DatabaseName) }

// FromBillingGroup is a billing group without its address, emails or card.
func FromBillingGroup(g models.BillingGroup) Item {
	return item(g.BillingGroupID, g.BillingGroupName, g.BillingCurrency, string(g.PaymentMethod))
}

// FromInvoice is an invoice without its download link (which carries a token).
func FromInvoice(inv models.Invoice) Item {
	period := ""
	if !inv.PeriodBegin.IsZero() {
		period = inv.PeriodBegin.Format("2006-01-02") + " – " + inv.PeriodEnd.Format("2006-01-02")
	}
	return item(inv.InvoiceNumber, string(inv.State), money(inv.TotalIncVAT, inv.Currency), period)
}

// FromCredits is an account's credits, named by the account.
func FromCredits(account string, c models.Credits) Item {
	return item(account, money(c.AvailableCredits, c.Currency), money(c.TotalCredits, c.Currency))
}

// EstimateTotal names the line of a project's estimate that is its whole balance.
const EstimateTotal = "(total)"

// FromEstimate is a project's estimate: a line per service and one for the whole
// balance (named EstimateTotal).
func FromEstimate(e models.Estimate) []Item {
	out := make([]Item, 0, len(e.Services)+1)
	out = append(out, item(EstimateTotal, money(e.EstimatedBalance, e.BillingCurrency)))
	for _, s := range e.Services {
		out = append(out, item(s.ServiceName, money(s.EstimatedCost, e.BillingCurrency)))
	}
	return out
}

func money(a models.Amount, currency string) string {
	if currency == "" {
		return a.String()
	}
	return a.String() + " " + currency
}
