package api

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/sandbox"
	"github.com/svcui/svcui/internal/sandbox/sandboxtest"
)

// Contract tests: the client against the real sandbox over loopback HTTP.

const (
	demoProd      = "acme-prod"
	demoStaging   = "acme-staging"
	demoAnalytics = "acme-analytics"
	demoCloud     = "google-europe-north1"
)

type contractEnv struct {
	sb     *sandbox.Sandbox
	url    string
	clock  *sandboxtest.ManualClock
	admin  *Client
	dev    *Client
	sleeps *sleepRecorder

	mu        sync.Mutex
	fileAuths []string // Authorization headers seen on /files/ (invoice downloads)
}

func newContractEnv(t testing.TB, opts sandbox.Options, mod ...func(*Options)) *contractEnv {
	t.Helper()
	env := &contractEnv{clock: sandboxtest.NewManualClock(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)), sleeps: &sleepRecorder{}}
	if opts.Clock == nil {
		opts.Clock = env.clock
	}
	if opts.Seed == 0 {
		opts.Seed = 42
	}
	if opts.ProvisionDelay == 0 {
		opts.ProvisionDelay = time.Minute
	}
	sb, err := sandbox.New(opts)
	if err != nil {
		t.Fatalf("sandbox.New: %v", err)
	}
	h := sb.Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/files/") {
			env.mu.Lock()
			env.fileAuths = append(env.fileAuths, r.Header.Get("Authorization"))
			env.mu.Unlock()
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { srv.Close(); _ = sb.Close() })
	env.sb, env.url = sb, srv.URL
	env.admin = env.client(t, sb.AdminToken(), mod...)
	env.dev = env.client(t, sb.DeveloperToken(), mod...)
	return env
}

func (e *contractEnv) client(t testing.TB, token string, mod ...func(*Options)) *Client {
	t.Helper()
	opts := Options{BaseURL: e.url, Token: token, Sleep: e.sleeps.sleep, Timeout: 10 * time.Second, UserAgent: "svcui/contract-test"}
	for _, m := range mod {
		m(&opts)
	}
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// wantStatus fails unless err is an *Error with the status and a message containing substr.
func wantStatus(t *testing.T, what string, err error, status int, substr string) {
	t.Helper()
	var e *Error
	if !errorsAs(err, &e) || e.Status != status {
		t.Errorf("%s: err = %v, want status %d", what, err, status)
		return
	}
	if !strings.Contains(Message(err), substr) {
		t.Errorf("%s: message %q lacks %q", what, Message(err), substr)
	}
}

func must[T any](t *testing.T, what string) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return v
	}
}

func TestContractCatalog(t *testing.T) {
	env := newContractEnv(t, sandbox.Options{})
	ctx := ctxT(t)
	anon := env.client(t, "")
	clouds := must[[]models.Cloud](t, "ListClouds")(anon.ListClouds(ctx))
	if len(clouds) < 5 || clouds[0].CloudName == "" || clouds[0].GeoRegion == "" {
		t.Errorf("clouds %+v", clouds)
	}
	if _, err := anon.ListServiceTypes(ctx); !IsUnauthorized(err) {
		t.Errorf("service types without a token: %v", err)
	}
	types := must[[]models.ServiceType](t, "ListServiceTypes")(env.admin.ListServiceTypes(ctx))
	have := map[string]bool{}
	for _, st := range types {
		have[st.ServiceType] = true
	}
	for _, k := range models.KnownServiceTypes {
		if !have[k] {
			t.Errorf("service type %s missing", k)
		}
	}
	all := must[[]models.Plan](t, "ListPlans")(env.admin.ListPlans(ctx, demoProd, "pg", ""))
	inCloud := must[[]models.Plan](t, "ListPlans cloud")(env.admin.ListPlans(ctx, demoProd, "pg", "aws-eu-west-1"))
	if len(all) == 0 || len(inCloud) == 0 || !all[0].PriceUSD.Set || all[0].PlanName == "" {
		t.Errorf("plans %+v / %+v", all, inCloud)
	}
	_, err := env.admin.ListPlans(ctx, demoProd, "no-such-type", "")
	wantStatus(t, "plans of an unknown type", err, 404, "no-such-type")
	_, err = env.admin.ListPlans(ctx, demoProd, "pg", "mars-1")
	wantStatus(t, "plans in an unknown cloud", err, 400, "mars-1")
	_, err = env.admin.ListPlans(ctx, "no-such-project", "pg", "")
	wantStatus(t, "plans of an unknown project", err, 404, "no-such-project")
}

func TestContractAuthAndRoles(t *testing.T) {
	env := newContractEnv(t, sandbox.Options{})
	ctx := ctxT(t)
	bad := env.client(t, "not-a-real-token-0123456789")
	_, err := bad.ListProjects(ctx)
	wantStatus(t, "unknown token", err, 401, "")
	if strings.Contains(err.Error(), "not-a-real-token") {
		t.Errorf("error shows the token: %v", err)
	}
	_, err = env.client(t, "").ListProjects(ctx)
	wantStatus(t, "no token", err, 401, "")

	pl := must[models.ProjectList](t, "ListProjects admin")(env.admin.ListProjects(ctx))
	if pl.RoleOf(demoProd) != models.RoleAdmin || pl.RoleOf(demoStaging) != models.RoleAdmin || pl.RoleOf(demoAnalytics) != models.RoleDeveloper {
		t.Errorf("admin membership %+v", pl.Membership)
	}
	dl := must[models.ProjectList](t, "ListProjects dev")(env.dev.ListProjects(ctx))
	if dl.RoleOf(demoProd) != models.RoleDeveloper {
		t.Errorf("developer membership %+v", dl.Membership)
	}

	// A developer reads everything and manages access, but changes nothing else.
	must[[]models.Service](t, "dev ListServices")(env.dev.ListServices(ctx, demoProd))
	_, err = env.dev.UpdateProject(ctx, demoProd, models.UpdateProjectRequest{TechEmails: &[]string{"x@acme.example"}})
	wantStatus(t, "developer updates a project", err, 403, demoProd)
	_, err = env.dev.CreateService(ctx, demoProd, models.CreateServiceRequest{ServiceName: "pg-dev", ServiceType: "pg", Plan: "startup-4", Cloud: demoCloud})
	wantStatus(t, "developer creates a service", err, 403, "")
	_, err = env.dev.UpdateService(ctx, demoProd, "kafka-events", models.UpdateServiceRequest{Plan: models.Ptr("business-8")})
	wantStatus(t, "developer updates a service", err, 403, "")
	wantStatus(t, "developer deletes a service", env.dev.DeleteService(ctx, demoStaging, "grafana-ops"), 403, "")
	wantStatus(t, "developer deletes a project", env.dev.DeleteProject(ctx, demoStaging), 403, "")
	_, err = env.admin.UpdateService(ctx, demoAnalytics, "grafana-analytics", models.UpdateServiceRequest{Plan: models.Ptr("business-4")})
	wantStatus(t, "admin token as developer in acme-analytics", err, 403, "developer")

	u := must[models.ServiceUser](t, "dev CreateUser")(env.dev.CreateUser(ctx, demoProd, "pg-main", models.CreateUserRequest{Username: "dev_made"}))
	if !strings.HasPrefix(u.Password, "AVNS_") {
		t.Errorf("dev-created user %+v", u)
	}
	must[models.ServiceUser](t, "dev ResetCredentials")(env.dev.ResetCredentials(ctx, demoProd, "pg-main", "dev_made"))
	if err := env.dev.CreateTopic(ctx, demoProd, "kafka-events", models.CreateTopicRequest{TopicName: "dev-topic", Partitions: 1, Replication: 2}); err != nil {
		t.Errorf("dev CreateTopic: %v", err)
	}
	if err := env.dev.CreateDatabase(ctx, demoProd, "pg-main", "dev_db"); err != nil {
		t.Errorf("dev CreateDatabase: %v", err)
	}
	must[[]models.ACL](t, "dev CreateACL")(env.dev.CreateACL(ctx, demoProd, "kafka-events", models.CreateACLRequest{Username: "dev_made", Topic: "dev-topic", Permission: models.PermRead}))
}

func TestContractProjects(t *testing.T) {
	env := newContractEnv(t, sandbox.Options{})
	ctx := ctxT(t)
	c := env.admin
	p := must[models.Project](t, "GetProject")(c.GetProject(ctx, demoProd))
	if p.ProjectName != demoProd || p.AccountID != env.sb.AccountID() || p.BillingGroupID == "" || p.BillingGroupName == "" || !p.EstimatedBalance.Set {
		t.Errorf("project %+v", p)
	}
	_, err := c.GetProject(ctx, "no-such-project")
	wantStatus(t, "unknown project", err, 404, "no-such-project")

	np := must[models.Project](t, "CreateProject")(c.CreateProject(ctx, models.CreateProjectRequest{Project: "acme-new", Cloud: "aws-eu-west-1", CopyFromProject: demoProd}))
	if np.ProjectName != "acme-new" || np.DefaultCloud != "aws-eu-west-1" {
		t.Errorf("created %+v", np)
	}
	_, err = c.CreateProject(ctx, models.CreateProjectRequest{Project: "acme-new"})
	wantStatus(t, "duplicate project", err, 409, "acme-new")
	_, err = c.CreateProject(ctx, models.CreateProjectRequest{Project: "Bad_Name"})
	wantStatus(t, "invalid project name", err, 400, "project")
	_, err = c.CreateProject(ctx, models.CreateProjectRequest{Project: "acme-x", BillingGroupID: "no-such-group"})
	wantStatus(t, "unknown billing group", err, 404, "no-such-group")

	up := must[models.Project](t, "UpdateProject")(c.UpdateProject(ctx, "acme-new", models.UpdateProjectRequest{
		Cloud: models.Ptr(demoCloud), TechEmails: &[]string{"ops@acme.example"}, CountryCode: models.Ptr("FI")}))
	if up.DefaultCloud != demoCloud || len(up.TechEmails) != 1 || up.CountryCode != "FI" {
		t.Errorf("updated %+v", up)
	}
	_, err = c.UpdateProject(ctx, "acme-new", models.UpdateProjectRequest{Cloud: models.Ptr("mars-1")})
	wantStatus(t, "update with an unknown cloud", err, 400, "mars-1")

	wantStatus(t, "delete a project with services", c.DeleteProject(ctx, demoStaging), 409, "Project acme-staging has services; delete them first")
	if err := c.DeleteProject(ctx, "acme-new"); err != nil {
		t.Fatalf("DeleteProject: %v", err)
	}
	_, err = c.GetProject(ctx, "acme-new")
	wantStatus(t, "deleted project", err, 404, "acme-new")
	wantStatus(t, "delete an unknown project", c.DeleteProject(ctx, "acme-new"), 404, "acme-new")
}

func TestContractServiceLifecycle(t *testing.T) {
	env := newContractEnv(t, sandbox.Options{ProvisionDelay: time.Minute})
	ctx := ctxT(t)
	c := env.admin

	// The demo's just-created service becomes RUNNING once the delay has passed.
	if s := must[models.Service](t, "GetService pg-staging")(c.GetService(ctx, demoStaging, "pg-staging")); s.State != models.StateRebuilding {
		t.Errorf("pg-staging starts %s", s.State)
	}

	s := must[models.Service](t, "CreateService")(c.CreateService(ctx, demoStaging, models.CreateServiceRequest{
		ServiceName: "pg-contract", ServiceType: "pg", Plan: "startup-4", Cloud: demoCloud,
		UserConfig: models.UserConfig{"pg_version": "16", "ip_filter": []string{"10.0.0.0/8"}}}))
	if s.State != models.StateRebuilding || s.Plan != "startup-4" || s.CreateTime.IsZero() {
		t.Fatalf("created %+v", s)
	}
	_, err := c.CreateService(ctx, demoStaging, models.CreateServiceRequest{ServiceName: "pg-contract", ServiceType: "pg", Plan: "startup-4", Cloud: demoCloud})
	wantStatus(t, "duplicate service", err, 409, "pg-contract")
	_, err = c.CreateService(ctx, demoStaging, models.CreateServiceRequest{ServiceName: "x", ServiceType: "pg", Plan: "startup-4", Cloud: demoCloud})
	wantStatus(t, "short service name", err, 400, "service_name")
	_, err = c.CreateService(ctx, demoStaging, models.CreateServiceRequest{ServiceName: "pg-bad-plan", ServiceType: "pg", Plan: "gigantic-99", Cloud: demoCloud})
	wantStatus(t, "unknown plan", err, 400, "gigantic-99")
	_, err = c.CreateService(ctx, demoStaging, models.CreateServiceRequest{ServiceName: "pg-bad-cfg", ServiceType: "pg", Plan: "startup-4", Cloud: demoCloud, UserConfig: models.UserConfig{"kafka_rest": true}})
	wantStatus(t, "user_config of another type", err, 400, "kafka_rest")
	_, err = c.CreateService(ctx, "no-such-project", models.CreateServiceRequest{ServiceName: "pg-x", ServiceType: "pg", Plan: "startup-4", Cloud: demoCloud})
	wantStatus(t, "service in an unknown project", err, 404, "no-such-project")

	env.clock.Advance(61 * time.Second)
	s = must[models.Service](t, "GetService")(c.GetService(ctx, demoStaging, "pg-contract"))
	if s.State != models.StateRunning || s.ServiceURI == "" || len(s.ConnectionInfo) == 0 || s.UserConfig.PGVersion() != "16" {
		t.Errorf("after the delay %+v", s)
	}
	if st := must[models.Service](t, "GetService pg-staging")(c.GetService(ctx, demoStaging, "pg-staging")); st.State != models.StateRunning {
		t.Errorf("pg-staging after the delay: %s", st.State)
	}

	s = must[models.Service](t, "plan change")(c.UpdateService(ctx, demoStaging, "pg-contract", models.UpdateServiceRequest{Plan: models.Ptr("business-4")}))
	if s.State != models.StateRebalancing || s.Plan != "business-4" {
		t.Errorf("after plan change %+v", s)
	}
	env.clock.Advance(61 * time.Second)
	s = must[models.Service](t, "GetService")(c.GetService(ctx, demoStaging, "pg-contract"))
	if s.State != models.StateRunning {
		t.Errorf("after rebalancing: %s", s.State)
	}

	_, err = c.UpdateService(ctx, demoStaging, "pg-contract", models.UpdateServiceRequest{DiskSpaceMB: models.Ptr(s.DiskSpaceMB - 1024)})
	wantStatus(t, "disk decrease", err, 400, fmt.Sprint(s.DiskSpaceMB))
	s2 := must[models.Service](t, "disk increase")(c.UpdateService(ctx, demoStaging, "pg-contract", models.UpdateServiceRequest{DiskSpaceMB: models.Ptr(s.DiskSpaceMB + 10240)}))
	if s2.DiskSpaceMB != s.DiskSpaceMB+10240 {
		t.Errorf("disk %d", s2.DiskSpaceMB)
	}
	s2 = must[models.Service](t, "maintenance")(c.UpdateService(ctx, demoStaging, "pg-contract", models.UpdateServiceRequest{
		Maintenance: &models.Maintenance{DOW: "friday", Time: "01:30:00"}, UserConfig: models.UserConfig{"pg_version": "17"}}))
	if s2.Maintenance == nil || s2.Maintenance.DOW != "friday" || s2.UserConfig.PGVersion() != "17" {
		t.Errorf("maintenance %+v, user_config %+v", s2.Maintenance, s2.UserConfig)
	}
	_, err = c.UpdateService(ctx, demoStaging, "pg-contract", models.UpdateServiceRequest{Maintenance: &models.Maintenance{DOW: "someday"}})
	wantStatus(t, "bad maintenance", err, 400, "maintenance")

	s2 = must[models.Service](t, "power off")(c.UpdateService(ctx, demoStaging, "pg-contract", models.UpdateServiceRequest{Powered: models.Ptr(false)}))
	if s2.State != models.StatePowerOff {
		t.Errorf("powered off: %s", s2.State)
	}
	s2 = must[models.Service](t, "power on")(c.UpdateService(ctx, demoStaging, "pg-contract", models.UpdateServiceRequest{Powered: models.Ptr(true)}))
	if s2.State != models.StateRebuilding {
		t.Errorf("powered on: %s", s2.State)
	}
	env.clock.Advance(61 * time.Second)

	protectedMsg := "Service is protected against termination and shutdown. Remove termination protection first."
	s2 = must[models.Service](t, "protect")(c.UpdateService(ctx, demoStaging, "pg-contract", models.UpdateServiceRequest{TerminationProtection: models.Ptr(true)}))
	if !s2.TerminationProtection {
		t.Error("protection not set")
	}
	wantStatus(t, "delete protected", c.DeleteService(ctx, demoStaging, "pg-contract"), 403, protectedMsg)
	_, err = c.UpdateService(ctx, demoStaging, "pg-contract", models.UpdateServiceRequest{Powered: models.Ptr(false)})
	wantStatus(t, "power off protected", err, 403, protectedMsg)
	wantStatus(t, "delete demo pg-main (protected)", c.DeleteService(ctx, demoProd, "pg-main"), 403, protectedMsg)
	must[models.Service](t, "unprotect")(c.UpdateService(ctx, demoStaging, "pg-contract", models.UpdateServiceRequest{TerminationProtection: models.Ptr(false)}))
	if err := c.DeleteService(ctx, demoStaging, "pg-contract"); err != nil {
		t.Fatalf("DeleteService: %v", err)
	}
	_, err = c.GetService(ctx, demoStaging, "pg-contract")
	wantStatus(t, "deleted service", err, 404, "pg-contract")
	_, err = c.UpdateService(ctx, demoStaging, "pg-contract", models.UpdateServiceRequest{Plan: models.Ptr("startup-4")})
	wantStatus(t, "update deleted service", err, 404, "pg-contract")
	wantStatus(t, "delete unknown service", c.DeleteService(ctx, demoStaging, "pg-contract"), 404, "pg-contract")

	// Every demo service is listed, each with a known type and a state.
	svcs := must[[]models.Service](t, "ListServices")(c.ListServices(ctx, demoProd))
	if len(svcs) < 5 {
		t.Errorf("%d services in %s", len(svcs), demoProd)
	}
	for _, sv := range svcs {
		if sv.ServiceName == "" || sv.State == "" || sv.ServiceType == "" {
			t.Errorf("listed service %+v", sv)
		}
	}
	_, err = c.ListServices(ctx, "no-such-project")
	wantStatus(t, "services of an unknown project", err, 404, "no-such-project")
}

func TestContractUsersAndConnectionInfo(t *testing.T) {
	env := newContractEnv(t, sandbox.Options{})
	ctx := ctxT(t)
	c := env.admin
	users := must[[]models.ServiceUser](t, "ListUsers")(c.ListUsers(ctx, demoProd, "pg-main"))
	var primary string
	for _, u := range users {
		if u.Type == models.UserPrimary {
			primary = u.Username
		}
		if models.SecretAvailable(u.Password) {
			t.Errorf("list shows a password for %s", u.Username)
		}
	}
	if primary == "" {
		t.Fatalf("no primary user in %+v", users)
	}
	u := must[models.ServiceUser](t, "CreateUser")(c.CreateUser(ctx, demoProd, "pg-main", models.CreateUserRequest{Username: "report_ro", Authentication: "scram-sha-256"}))
	if u.Type != models.UserRegular || !strings.HasPrefix(u.Password, "AVNS_") {
		t.Errorf("created %+v", u)
	}
	_, err := c.CreateUser(ctx, demoProd, "pg-main", models.CreateUserRequest{Username: "report_ro"})
	wantStatus(t, "duplicate user", err, 409, "report_ro")
	_, err = c.CreateUser(ctx, demoProd, "pg-main", models.CreateUserRequest{Username: "bad-name!"})
	wantStatus(t, "invalid username", err, 400, "username")
	_, err = c.CreateUser(ctx, demoProd, "kafka-events", models.CreateUserRequest{Username: "k_user", Authentication: "scram-sha-256"})
	wantStatus(t, "authentication on kafka", err, 400, "authentication")
	r := must[models.ServiceUser](t, "ResetCredentials")(c.ResetCredentials(ctx, demoProd, "pg-main", "report_ro"))
	if r.Password == u.Password || !strings.HasPrefix(r.Password, "AVNS_") {
		t.Errorf("reset gave %q (was %q)", r.Password, u.Password)
	}
	_, err = c.ResetCredentials(ctx, demoProd, "pg-main", "nobody_here")
	wantStatus(t, "reset unknown user", err, 404, "nobody_here")
	wantStatus(t, "delete primary user", c.DeleteUser(ctx, demoProd, "pg-main", primary), 400, "The primary user of a service cannot be deleted")
	if err := c.DeleteUser(ctx, demoProd, "pg-main", "report_ro"); err != nil {
		t.Fatalf("DeleteUser: %v", err)
	}
	wantStatus(t, "delete deleted user", c.DeleteUser(ctx, demoProd, "pg-main", "report_ro"), 404, "report_ro")
	_, err = c.ListUsers(ctx, demoProd, "no-such-service")
	wantStatus(t, "users of an unknown service", err, 404, "no-such-service")

	ci := must[models.ConnectionInfo](t, "GetConnectionInfo")(c.GetConnectionInfo(ctx, demoProd, "pg-main"))
	if ci.Host == "" || ci.Port == 0 || ci.User == "" || !strings.Contains(ci.CACert, "BEGIN CERTIFICATE") || ci.URI == "" {
		t.Errorf("connection info %+v", ci)
	}
	if ci.CACert != env.sb.CACertPEM() {
		t.Error("the CA certificate differs from the sandbox's")
	}
	_, err = c.GetConnectionInfo(ctx, demoProd, "no-such-service")
	wantStatus(t, "connection info of an unknown service", err, 404, "no-such-service")
}

func TestContractKafkaAndDatabases(t *testing.T) {
	env := newContractEnv(t, sandbox.Options{})
	ctx := ctxT(t)
	c := env.admin
	before := must[[]models.ACL](t, "ListACLs")(c.ListACLs(ctx, demoProd, "kafka-events"))
	after := must[[]models.ACL](t, "CreateACL")(c.CreateACL(ctx, demoProd, "kafka-events", models.CreateACLRequest{Username: "orders_producer", Topic: "payments", Permission: models.PermRead}))
	if len(after) != len(before)+1 || after[len(after)-1].ID == "" {
		t.Errorf("ACLs %d → %d: %+v", len(before), len(after), after)
	}
	_, err := c.CreateACL(ctx, demoProd, "kafka-events", models.CreateACLRequest{Username: "orders_producer", Topic: "payments", Permission: models.PermRead})
	wantStatus(t, "duplicate ACL", err, 409, "already exists")
	_, err = c.CreateACL(ctx, demoProd, "kafka-events", models.CreateACLRequest{Username: "orders_producer", Topic: "payments", Permission: "superuser"})
	wantStatus(t, "unknown permission", err, 400, "permission")
	_, err = c.ListACLs(ctx, demoProd, "pg-main")
	wantStatus(t, "ACLs of a pg service", err, 400, "kafka")

	if err := c.CreateTopic(ctx, demoProd, "kafka-events", models.CreateTopicRequest{TopicName: "invoices", Partitions: 6, Replication: 3}); err != nil {
		t.Fatalf("CreateTopic: %v", err)
	}
	topicState := func() string {
		for _, tp := range must[[]models.Topic](t, "ListTopics")(c.ListTopics(ctx, demoProd, "kafka-events")) {
			if tp.TopicName == "invoices" {
				if tp.Partitions != 6 || tp.Replication != 3 {
					t.Errorf("topic %+v", tp)
				}
				return tp.State
			}
		}
		return "missing"
	}
	if st := topicState(); st != "CONFIGURING" {
		t.Errorf("new topic is %s", st)
	}
	env.clock.Advance(10 * time.Second)
	if st := topicState(); st != "ACTIVE" {
		t.Errorf("topic later is %s", st)
	}
	err = c.CreateTopic(ctx, demoProd, "kafka-events", models.CreateTopicRequest{TopicName: "invoices", Partitions: 1, Replication: 2})
	wantStatus(t, "duplicate topic", err, 409, "invoices")
	err = c.CreateTopic(ctx, demoProd, "kafka-events", models.CreateTopicRequest{TopicName: "wide", Partitions: 1, Replication: 9})
	wantStatus(t, "replication above nodes", err, 400, "replication")

	dbs := must[[]models.Database](t, "ListDatabases")(c.ListDatabases(ctx, demoProd, "pg-main"))
	if err := c.CreateDatabase(ctx, demoProd, "pg-main", "reports"); err != nil {
		t.Fatalf("CreateDatabase: %v", err)
	}
	dbs2 := must[[]models.Database](t, "ListDatabases")(c.ListDatabases(ctx, demoProd, "pg-main"))
	if len(dbs2) != len(dbs)+1 {
		t.Errorf("databases %d → %d", len(dbs), len(dbs2))
	}
	wantStatus(t, "duplicate database", c.CreateDatabase(ctx, demoProd, "pg-main", "reports"), 409, "reports")
	wantStatus(t, "database on kafka", c.CreateDatabase(ctx, demoProd, "kafka-events", "x_db"), 400, "databases")
	wantStatus(t, "invalid database name", c.CreateDatabase(ctx, demoProd, "pg-main", "9bad name"), 400, "database")
}

func TestContractBilling(t *testing.T) {
	env := newContractEnv(t, sandbox.Options{})
	ctx := ctxT(t)
	c := env.admin
	acct := env.sb.AccountID()
	groups := must[[]models.BillingGroup](t, "ListBillingGroups")(c.ListBillingGroups(ctx, acct))
	if len(groups) < 2 {
		t.Fatalf("groups %+v", groups)
	}
	g := must[models.BillingGroup](t, "GetBillingGroup")(c.GetBillingGroup(ctx, groups[0].BillingGroupID))
	if g.BillingGroupName == "" || len(g.Projects) == 0 {
		t.Errorf("group %+v", g)
	}
	var withCard bool
	for _, gg := range groups {
		full := must[models.BillingGroup](t, "GetBillingGroup")(c.GetBillingGroup(ctx, gg.BillingGroupID))
		withCard = withCard || (full.CardInfo != nil && full.CardInfo.Last4 != "")
	}
	if !withCard {
		t.Error("no billing group has card info")
	}
	_, err := c.GetBillingGroup(ctx, "no-such-group")
	wantStatus(t, "unknown billing group", err, 404, "no-such-group")
	_, err = c.ListInvoices(ctx, "no-such-group")
	wantStatus(t, "invoices of an unknown group", err, 404, "no-such-group")

	ng := must[models.BillingGroup](t, "CreateBillingGroup")(c.CreateBillingGroup(ctx, acct, models.BillingGroupRequest{
		BillingGroupName: models.Ptr("Research"), BillingCurrency: models.Ptr("EUR"), BillingEmail: &[]string{"research@acme.example"},
		CountryCode: models.Ptr("FI"), City: models.Ptr("Helsinki")}))
	if ng.BillingGroupID == "" || ng.BillingCurrency != "EUR" || ng.AccountID != acct {
		t.Errorf("created group %+v", ng)
	}
	_, err = c.CreateBillingGroup(ctx, acct, models.BillingGroupRequest{BillingGroupName: models.Ptr("Bad"), CountryCode: models.Ptr("Finland")})
	wantStatus(t, "invalid country code", err, 400, "country_code")
	_, err = c.CreateBillingGroup(ctx, acct, models.BillingGroupRequest{BillingGroupName: models.Ptr("Research")})
	wantStatus(t, "duplicate group name", err, 409, "Research")
	ug := must[models.BillingGroup](t, "UpdateBillingGroup")(c.UpdateBillingGroup(ctx, ng.BillingGroupID, models.BillingGroupRequest{Company: models.Ptr("Acme Research Oy")}))
	if ug.Company != "Acme Research Oy" || ug.BillingGroupName != "Research" {
		t.Errorf("updated group %+v", ug)
	}
	_, err = c.UpdateBillingGroup(ctx, "no-such-group", models.BillingGroupRequest{Company: models.Ptr("x")})
	wantStatus(t, "update unknown group", err, 404, "no-such-group")

	// Assignment shows on both sides.
	p := must[models.Project](t, "AssignBillingGroup")(c.AssignBillingGroup(ctx, demoStaging, ng.BillingGroupID))
	if p.BillingGroupID != ng.BillingGroupID || p.BillingGroupName != "Research" {
		t.Errorf("project after assignment %+v", p)
	}
	ng2 := must[models.BillingGroup](t, "GetBillingGroup")(c.GetBillingGroup(ctx, ng.BillingGroupID))
	if len(ng2.Projects) != 1 || ng2.Projects[0].ProjectName != demoStaging {
		t.Errorf("group projects %+v", ng2.Projects)
	}
	_, err = c.AssignBillingGroup(ctx, demoStaging, "no-such-group")
	wantStatus(t, "assign unknown group", err, 404, "no-such-group")
	_, err = env.dev.AssignBillingGroup(ctx, demoProd, ng.BillingGroupID)
	wantStatus(t, "developer assigns", err, 403, "")

	states := map[models.InvoiceState]bool{}
	var inv models.Invoice
	for _, gg := range groups {
		for _, i := range must[[]models.Invoice](t, "ListInvoices")(c.ListInvoices(ctx, gg.BillingGroupID)) {
			states[i.State] = true
			if i.DownloadURL != "" {
				inv = i
			}
		}
	}
	for _, s := range models.InvoiceStates {
		if !states[s] {
			t.Errorf("no invoice in state %s", s)
		}
	}
	if inv.DownloadURL == "" || inv.PeriodBegin.IsZero() || !inv.TotalIncVAT.Set {
		t.Fatalf("invoice %+v", inv)
	}
	var pdf bytes.Buffer
	n, err := c.Download(ctx, inv.DownloadURL, &pdf, nil)
	if err != nil || n == 0 || !bytes.HasPrefix(pdf.Bytes(), []byte("%PDF")) {
		t.Fatalf("Download: %d bytes, %v", n, err)
	}
	_, err = c.Download(ctx, inv.DownloadURL+"tampered", &bytes.Buffer{}, nil)
	wantStatus(t, "download with a wrong capability", err, 404, "")
	env.mu.Lock()
	for _, a := range env.fileAuths {
		if a != "" {
			t.Errorf("Authorization %q sent to the invoice file", a)
		}
	}
	if len(env.fileAuths) != 2 {
		t.Errorf("file requests %d", len(env.fileAuths))
	}
	env.mu.Unlock()

	est := must[models.Estimate](t, "GetEstimate")(c.GetEstimate(ctx, demoProd))
	if !est.EstimatedBalance.Set || est.BillingCurrency == "" || len(est.Services) == 0 {
		t.Errorf("estimate %+v", est)
	}
	_, err = c.GetEstimate(ctx, "no-such-project")
	wantStatus(t, "estimate of an unknown project", err, 404, "no-such-project")
	cr := must[models.Credits](t, "GetCredits")(c.GetCredits(ctx, acct))
	if !cr.AvailableCredits.Set || !cr.TotalCredits.Set || cr.Currency == "" {
		t.Errorf("credits %+v", cr)
	}
	_, err = c.GetCredits(ctx, "no-such-account")
	if err == nil || !(IsNotFound(err) || IsForbidden(err)) {
		t.Errorf("credits of an unknown account: %v", err)
	}
}

func TestContractAllServices(t *testing.T) {
	env := newContractEnv(t, sandbox.Options{})
	ctx := ctxT(t)
	svcs, errs := env.admin.ListServicesAcrossProjects(ctx, []string{demoStaging, demoProd, demoAnalytics, "no-such-project"})
	if len(errs) != 1 || errs[0].Project != "no-such-project" || !IsNotFound(errs[0].Err) {
		t.Errorf("errors %+v", errs)
	}
	projects := map[string]int{}
	for i, s := range svcs {
		projects[s.Project]++
		if i > 0 && (svcs[i-1].Project > s.Project || (svcs[i-1].Project == s.Project && svcs[i-1].Service.ServiceName > s.Service.ServiceName)) {
			t.Errorf("out of order at %d", i)
		}
	}
	if len(projects) != 3 {
		t.Errorf("services per project %v", projects)
	}
}

// Reads survive a platform that fails 30% of requests with 500.
func TestContractReadsRetriedUnder500s(t *testing.T) {
	env := newContractEnv(t, sandbox.Options{Faults: "seed=7,500=0.3"}, func(o *Options) { o.MaxRetries = 10 })
	ctx := ctxT(t)
	c := env.admin
	for i := range 30 {
		var err error
		switch i % 5 {
		case 0:
			_, err = c.ListProjects(ctx)
		case 1:
			_, err = c.ListServices(ctx, demoProd)
		case 2:
			_, err = c.GetService(ctx, demoProd, "pg-main")
		case 3:
			_, err = c.ListUsers(ctx, demoProd, "kafka-events")
		case 4:
			_, err = c.ListInvoices(ctx, must[models.Project](t, "GetProject")(c.GetProject(ctx, demoProd)).BillingGroupID)
		}
		if err != nil {
			t.Fatalf("read %d: %v", i, err)
		}
	}
	if st := c.Stats(); st.Retries == 0 {
		t.Fatalf("no retries under 500=0.3: %+v", st)
	}
	for _, d := range env.sleeps.all() {
		if d > backoffCap {
			t.Errorf("backoff %v above the cap", d)
		}
	}
}

// Injected 429s carry Retry-After: 1; reads and writes both wait it out and succeed.
func TestContract429RetryAfter(t *testing.T) {
	env := newContractEnv(t, sandbox.Options{Faults: "seed=3,429=0.3"}, func(o *Options) { o.MaxRetries = 10 })
	ctx := ctxT(t)
	c := env.admin
	for i := range 20 {
		if _, err := c.ListServices(ctx, demoProd); err != nil {
			t.Fatalf("read %d: %v", i, err)
		}
		if err := c.CreateDatabase(ctx, demoProd, "pg-main", fmt.Sprintf("db_%02d", i)); err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
	}
	waits := env.sleeps.all()
	if len(waits) == 0 {
		t.Fatal("no 429 was waited out")
	}
	for _, d := range waits {
		if d != time.Second {
			t.Errorf("wait %v, want the Retry-After of 1s", d)
		}
	}
	dbs := must[[]models.Database](t, "ListDatabases")(c.ListDatabases(ctx, demoProd, "pg-main"))
	n := 0
	for _, d := range dbs {
		if strings.HasPrefix(d.DatabaseName, "db_") {
			n++
		}
	}
	if n != 20 {
		t.Errorf("%d databases created, want 20", n)
	}
}

// The sandbox's own rate limit: the headers reach RateLimit(), and a 429 is waited out
// for exactly as long as Retry-After says (the test's sleep moves the sandbox clock).
func TestContractRateLimit(t *testing.T) {
	var env *contractEnv
	env = newContractEnv(t, sandbox.Options{RateLimit: 5}, func(o *Options) {
		o.Sleep = func(ctx context.Context, d time.Duration) error {
			env.sleeps.sleep(ctx, d)
			env.clock.Advance(d)
			return ctx.Err()
		}
	})
	// The deadline must outlast the 15s Retry-After, or the client rightly gives up at once.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := env.admin
	for range 5 {
		must[[]models.ServiceType](t, "ListServiceTypes")(c.ListServiceTypes(ctx))
	}
	rl := c.RateLimit()
	if !rl.Known || rl.Limit != 5 || rl.Remaining != 0 || rl.Reset.Before(rl.At) {
		t.Fatalf("rate limit %+v", rl)
	}
	env.clock.Advance(45 * time.Second)
	must[[]models.ServiceType](t, "ListServiceTypes after limit")(c.ListServiceTypes(ctx))
	if w := env.sleeps.all(); len(w) != 1 || w[0] != 15*time.Second {
		t.Fatalf("waits %v, want [15s]", w)
	}
	// A wait longer than the client sits through is handed back to the caller. The
	// retried call opened a new window: four more fill it.
	for range 4 {
		must[[]models.ServiceType](t, "ListServiceTypes")(c.ListServiceTypes(ctx))
	}
	_, err := c.ListServiceTypes(ctx)
	var e *Error
	if !IsRateLimited(err) || !errorsAs(err, &e) || e.RetryAfter < 50*time.Second || !strings.Contains(Message(err), "Rate limit 5 exceeded") {
		t.Fatalf("err = %v (%+v)", err, e)
	}
}

// Under dropped connections a POST is never executed twice: every create either
// succeeded once, or failed without a repeat; a repeat would show as a 409 or as a
// duplicate entry.
func TestContractWritesNeverRepeatedUnderDrops(t *testing.T) {
	env := newContractEnv(t, sandbox.Options{Faults: "seed=11,drop=0.3"}, func(o *Options) { o.MaxRetries = 12 })
	ctx := ctxT(t)
	c := env.admin
	const n = 40
	succeeded := map[string]bool{}
	failed := 0
	reqBefore := c.Stats().Requests
	for i := range n {
		topic := fmt.Sprintf("once-%02d", i)
		_, err := c.CreateACL(ctx, demoProd, "kafka-events", models.CreateACLRequest{Username: "audit_reader", Topic: topic, Permission: models.PermRead})
		switch {
		case err == nil:
			succeeded[topic] = true
		case IsConflict(err):
			t.Fatalf("create %s answered 409: it was sent twice", topic)
		case IsOutcomeUnknown(err):
			failed++
		default:
			t.Fatalf("create %s: %v", topic, err)
		}
	}
	if got := c.Stats().Requests - reqBefore; got != n {
		t.Fatalf("%d POST attempts for %d creates: a write was repeated", got, n)
	}
	if failed == 0 {
		t.Fatal("no connection was dropped; the test proves nothing with this seed")
	}
	// Read back (reads are retried through the drops).
	acl := must[[]models.ACL](t, "ListACLs")(c.ListACLs(ctx, demoProd, "kafka-events"))
	count := map[string]int{}
	for _, a := range acl {
		if strings.HasPrefix(a.Topic, "once-") {
			count[a.Topic]++
		}
	}
	executedButLost := 0
	for i := range n {
		topic := fmt.Sprintf("once-%02d", i)
		switch {
		case count[topic] > 1:
			t.Errorf("%s exists %d times", topic, count[topic])
		case succeeded[topic] && count[topic] != 1:
			t.Errorf("%s succeeded but exists %d times", topic, count[topic])
		case !succeeded[topic] && count[topic] == 1:
			executedButLost++ // executed, answer dropped, correctly not repeated
		}
	}
	t.Logf("%d created, %d failed (%d of them executed before the drop)", len(succeeded), failed, executedButLost)
}

// BenchmarkClientListServices250 lists 250 services (scale data: five projects of 50)
// through the client against the sandbox on loopback.
func BenchmarkClientListServices250(b *testing.B) {
	sb, err := sandbox.New(sandbox.Options{Data: "scale:250", Seed: 1, RateLimit: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(sb.Handler())
	defer func() { srv.Close(); _ = sb.Close() }()
	c, err := New(Options{BaseURL: srv.URL, Token: sb.AdminToken()})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	pl, err := c.ListProjects(ctx)
	if err != nil {
		b.Fatal(err)
	}
	var projects []string
	for _, p := range pl.Projects {
		projects = append(projects, p.ProjectName)
	}
	b.Run("across-projects", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			svcs, errs := c.ListServicesAcrossProjects(ctx, projects)
			if len(errs) > 0 || len(svcs) != 250 {
				b.Fatalf("%d services, errors %v", len(svcs), errs)
			}
		}
	})
	b.Run("one-project-50", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := c.ListServices(ctx, projects[0]); err != nil {
				b.Fatal(err)
			}
		}
	})
}
