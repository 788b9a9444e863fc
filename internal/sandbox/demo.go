package sandbox

import (
	"fmt"
	"time"

	"github.com/svcui/svcui/internal/models"
)

// The demo data set: one account, three projects (the admin token is admin in two and
// developer in the third; the developer token is developer in all), services of every
// type in every state, users, Kafka ACLs and topics, databases, billing.

const (
	demoAccountName = "Acme Corp"
	projectProd     = "acme-prod"
	projectStaging  = "acme-staging"
	projectAnalytic = "acme-analytics"
)

func (s *Sandbox) newAccount() {
	s.st.AccountID = fmt.Sprintf("a%011x", s.rng.Uint64()&0xfffffffffff)
	s.st.AccountName = demoAccountName
}

func (s *Sandbox) addProject(name, cloud, groupID string, adminRole models.Role) *project {
	p := &project{
		Name:           name,
		DefaultCloud:   cloud,
		BillingGroupID: groupID,
		Members:        map[principal]models.Role{principalAdmin: adminRole, principalDeveloper: models.RoleDeveloper},
		Services:       map[string]*service{},
	}
	if g := s.st.Groups[groupID]; g != nil {
		p.CountryCode, p.VATID = g.Group.CountryCode, g.Group.VATID
	}
	s.st.Projects[name] = p
	return p
}

// demoService adds a RUNNING service created age ago.
func (s *Sandbox) demoService(p *project, name, serviceType, plan, cloud string, now time.Time, age time.Duration) *service {
	d, ok := findPlan(serviceType, plan)
	if !ok {
		panic("sandbox demo: plan " + plan + " is not offered for " + serviceType)
	}
	created := now.Add(-age).Truncate(time.Minute)
	sv := s.newService(p, name, serviceType, d, cloud, created)
	sv.UpdateTime = created.Add(age / 3).Truncate(time.Second)
	p.Services[name] = sv
	return sv
}

func (s *Sandbox) demoUser(sv *service, name, auth string) {
	sv.Users = append(sv.Users, &serviceUser{Username: name, Type: models.UserRegular, Password: s.newPassword(), Authentication: auth})
}

func (s *Sandbox) buildDemo(now time.Time) {
	s.newAccount()
	eur, usd := s.demoBilling(now)
	day := 24 * time.Hour

	prod := s.addProject(projectProd, "google-europe-north1", eur, models.RoleAdmin)
	prod.BillingEmails = []string{"billing@acme.example"}
	prod.TechEmails = []string{"platform-team@acme.example", "oncall@acme.example"}

	pg := s.demoService(prod, "pg-main", models.TypePG, "business-4", "google-europe-north1", now, 412*day)
	pg.Protected = true
	pg.Maintenance = models.Maintenance{DOW: "sunday", Time: "03:00:00"}
	pg.UserConfig = map[string]any{models.UCPGVersion: "16", models.UCIPFilter: []any{"10.0.0.0/8", "192.168.10.0/24"}}
	s.demoUser(pg, "app_rw", "scram-sha-256")
	s.demoUser(pg, "app_ro", "scram-sha-256")
	s.demoUser(pg, "metabase", "")
	pg.Databases = append(pg.Databases, "orders", "inventory", "customers")

	kafka := s.demoService(prod, "kafka-events", models.TypeKafka, "business-4", "google-europe-north1", now, 301*day)
	kafka.Maintenance = models.Maintenance{DOW: "tuesday", Time: "02:30:00"}
	kafka.UserConfig = map[string]any{models.UCKafkaConnect: true, models.UCKafkaRest: true, models.UCIPFilter: []any{"10.0.0.0/8"}}
	for _, u := range []string{"orders_producer", "payments_producer", "analytics_consumer", "audit_reader"} {
		s.demoUser(kafka, u, "")
	}
	for _, t := range []struct {
		name    string
		parts   int
		created time.Duration
	}{{"orders", 12, 300 * day}, {"payments", 6, 290 * day}, {"audit-log", 3, 200 * day}, {"clickstream", 24, 120 * day}, {"orders-dlq", 1, 45 * day}} {
		kafka.Topics = append(kafka.Topics, &topic{Name: t.name, Partitions: t.parts, Replication: 3, Created: now.Add(-t.created)})
	}
	for _, a := range []models.ACL{
		{Username: "avnadmin", Topic: "*", Permission: models.PermAdmin},
		{Username: "orders_producer", Topic: "orders", Permission: models.PermWrite},
		{Username: "payments_producer", Topic: "payments", Permission: models.PermWrite},
		{Username: "analytics_consumer", Topic: "*", Permission: models.PermRead},
		{Username: "audit_reader", Topic: "audit-log", Permission: models.PermRead},
		{Username: "orders_producer", Topic: "orders-dlq", Permission: models.PermReadWrite},
	} {
		a.ID = s.newACLID()
		kafka.ACLs = append(kafka.ACLs, a)
	}

	logs := s.demoService(prod, "opensearch-logs", models.TypeOpenSearch, "startup-4", "google-europe-north1", now, 180*day)
	logs.Maintenance = models.Maintenance{DOW: "wednesday", Time: "04:00:00"}
	logs.SearchDemo = true
	s.demoUser(logs, "log_shipper", "")
	s.demoUser(logs, "dashboards_ro", "")

	cache := s.demoService(prod, "caching-sessions", models.TypeCaching, "startup-4", "google-europe-north1", now, 220*day)
	cache.UserConfig = map[string]any{models.UCIPFilter: []any{"10.0.0.0/8"}}

	mysql := s.demoService(prod, "mysql-orders-legacy", models.TypeMySQL, "startup-8", "aws-eu-west-1", now, 700*day)
	s.demoUser(mysql, "legacy_app", "caching_sha2_password")
	mysql.Databases = append(mysql.Databases, "orders_v1")
	s.startTransition(mysql, models.StateRebalancing, now) // a plan upgrade in progress

	staging := s.addProject(projectStaging, "google-europe-north1", eur, models.RoleAdmin)
	staging.TechEmails = []string{"platform-team@acme.example"}

	pgs := s.newService(staging, "pg-staging", models.TypePG, mustPlan(models.TypePG, "startup-4"), "google-europe-north1", now)
	pgs.UserConfig = map[string]any{models.UCPGVersion: "17"}
	s.startTransition(pgs, models.StateRebuilding, now) // just created: RUNNING after the delay
	staging.Services[pgs.Name] = pgs

	ks := s.demoService(staging, "kafka-staging", models.TypeKafka, "startup-4", "google-europe-north1", now, 95*day)
	ks.Topics = []*topic{{Name: "orders", Partitions: 3, Replication: 2, Created: now.Add(-90 * day)}}
	ks.ACLs = []models.ACL{{ID: s.newACLID(), Username: "avnadmin", Topic: "*", Permission: models.PermAdmin}}
	off := now.Add(-3 * day).Truncate(time.Minute)
	ks.Phase, ks.PoweredOff, ks.UpdateTime = models.StatePowerOff, off, off

	graf := s.demoService(staging, "grafana-ops", models.TypeGrafana, "hobbyist", "google-europe-north1", now, 150*day)
	graf.UserConfig = map[string]any{models.UCIPFilter: []any{"0.0.0.0/0"}}
	s.demoService(staging, "mysql-staging", models.TypeMySQL, "hobbyist", "do-ams", now, 60*day)

	analytics := s.addProject(projectAnalytic, "aws-us-east-1", usd, models.RoleDeveloper)
	analytics.TechEmails = []string{"data-team@acme.example"}
	ch := s.demoService(analytics, "clickhouse-warehouse", models.TypeClickHouse, "business-8", "aws-us-east-1", now, 260*day)
	ch.Protected = true
	s.demoUser(ch, "dbt_runner", "")
	s.demoUser(ch, "looker", "")
	s.demoService(analytics, "grafana-analytics", models.TypeGrafana, "startup-4", "aws-us-east-1", now, 240*day)
	rep := s.demoService(analytics, "pg-analytics", models.TypePG, "business-8", "aws-us-east-1", now, 330*day)
	rep.UserConfig = map[string]any{models.UCPGVersion: "17"}
	rep.Databases = append(rep.Databases, "warehouse_staging")
	s.demoUser(rep, "etl", "scram-sha-256")
	s.demoService(analytics, "caching-reports", models.TypeCaching, "hobbyist", "azure-eastus", now, 40*day)
}

func mustPlan(serviceType, name string) planDef {
	d, ok := findPlan(serviceType, name)
	if !ok {
		panic("sandbox: plan " + name + " is not offered for " + serviceType)
	}
	return d
}

// buildEmpty: the catalogue, the account, one billing group and one empty project.
func (s *Sandbox) buildEmpty(now time.Time) {
	s.newAccount()
	g := &billingGroup{Group: models.BillingGroup{
		BillingGroupID:   s.newUUID(),
		BillingGroupName: "Default billing group",
		AccountID:        s.st.AccountID,
		BillingCurrency:  "USD",
		BillingEmail:     models.EmailList{},
		AddressLines:     []string{},
		PaymentMethod:    models.PaymentCard,
	}}
	s.st.Groups[g.Group.BillingGroupID] = g
	s.st.Credits = credits{Available: "0.00", Total: "0.00", Currency: "USD"}
	s.addProject("my-project", "google-europe-north1", g.Group.BillingGroupID, models.RoleAdmin)
}
