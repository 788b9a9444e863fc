package api

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/sandbox"
)

// A write sent without a usable answer is of unknown outcome: said so (never "cannot
// reach"), never sent again. A write the platform refused, and every read, is not.
func TestWriteOfUnknownOutcome(t *testing.T) {
	var tt *testing.T
	reset := func(w http.ResponseWriter, _ *http.Request) { resetConn(tt, w) }
	hang := func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }
	cases := []struct {
		name    string
		method  string
		fail    func(http.ResponseWriter, *http.Request)
		unknown bool
		want    string
		calls   int64
	}{
		{"POST reset", http.MethodPost, reset, true, "the request was sent but the answer was lost (connection reset), so whether it took effect is unknown", 1},
		{"DELETE reset", http.MethodDelete, reset, true, "whether it took effect is unknown", 1},
		{"PUT without an answer in time", http.MethodPut, hang, true, "the request was sent but no answer came within", 1},
		{"POST 504 from a gateway", http.MethodPost, status(504), true, "injected Gateway Timeout, so whether it took effect is unknown", 1},
		{"POST 502 from a gateway", http.MethodPost, status(502), true, "whether it took effect is unknown", 1},
		{"POST unreadable 200", http.MethodPost, func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, `{"project":`) }, true, "The platform sent an unreadable answer: it ends early", 1},
		{"POST 500", http.MethodPost, status(500), false, "injected Internal Server Error", 1},
		{"POST 409", http.MethodPost, status(409), false, "injected Conflict", 1},
		{"GET reset is retried", http.MethodGet, reset, false, "", 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tt = t
			h, calls := failThenOK(1, tc.fail, projectOK)
			c, _, _ := newTestClient(t, h, func(o *Options) { o.Timeout = 300 * time.Millisecond })
			ctx := context.Background()
			err := projectCall(ctx, c, tc.method)
			if got := calls.Load(); got != tc.calls {
				t.Errorf("server saw %d requests, want %d", got, tc.calls)
			}
			if IsOutcomeUnknown(err) != tc.unknown {
				t.Errorf("IsOutcomeUnknown = %v, want %v (err %v)", !tc.unknown, tc.unknown, err)
			}
			if tc.want == "" {
				if err != nil {
					t.Errorf("err %v", err)
				}
				return
			}
			msg := Message(err)
			if !strings.Contains(msg, tc.want) || strings.Contains(msg, "cannot reach") {
				t.Errorf("message %q, want %q", msg, tc.want)
			}
			if tc.unknown && (IsConnection(err) || !strings.Contains(Detail(err), "outcome unknown")) {
				t.Errorf("IsConnection %v, detail %q", IsConnection(err), Detail(err))
			}
		})
	}
}

// A caller that gives up after the write was sent does not know what happened either.
func TestWriteCancelledAfterSendingIsOfUnknownOutcome(t *testing.T) {
	received := make(chan struct{})
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body) // the server notices the closed connection only then
		close(received)
		<-r.Context().Done()
	}))
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-received; cancel() }()
	_, err := c.CreateProject(ctx, models.CreateProjectRequest{Project: "acme-prod"})
	if !IsOutcomeUnknown(err) || !strings.Contains(Message(err), "cancelled after the request was sent") {
		t.Fatalf("err %v", err)
	}
}

// Against a sandbox that executes every write and then drops the connection, every
// create is of unknown outcome, and the Find helpers find what each one made.
func TestContractFindAfterUnknownOutcome(t *testing.T) {
	env := newContractEnv(t, sandbox.Options{Faults: "drop-after=1"})
	ctx := ctxT(t)
	c := env.admin
	unknown := func(what string, err error) {
		t.Helper()
		if !IsOutcomeUnknown(err) {
			t.Fatalf("%s: err %v, want an unknown outcome", what, err)
		}
	}
	_, err := c.CreateProject(ctx, models.CreateProjectRequest{Project: "found-later"})
	unknown("CreateProject", err)
	if p, ok, err := c.FindProject(ctx, "found-later"); err != nil || !ok || p.ProjectName != "found-later" {
		t.Errorf("FindProject: %+v %v %v", p, ok, err)
	}
	_, err = c.CreateService(ctx, demoProd, models.CreateServiceRequest{ServiceName: "pg-found", ServiceType: "pg", Plan: "startup-4", Cloud: demoCloud})
	unknown("CreateService", err)
	if s, ok, err := c.FindService(ctx, demoProd, "pg-found"); err != nil || !ok || s.ServiceName != "pg-found" {
		t.Errorf("FindService: %+v %v %v", s, ok, err)
	}
	_, err = c.CreateUser(ctx, demoProd, "pg-main", models.CreateUserRequest{Username: "found_user"})
	unknown("CreateUser", err)
	if u, ok, err := c.FindUser(ctx, demoProd, "pg-main", "found_user"); err != nil || !ok || u.Username != "found_user" || models.SecretAvailable(u.Password) {
		t.Errorf("FindUser: %+v %v %v", u, ok, err)
	}
	_, err = c.CreateBillingGroup(ctx, env.sb.AccountID(), models.BillingGroupRequest{BillingGroupName: models.Ptr("Found group")})
	unknown("CreateBillingGroup", err)
	if g, ok, err := c.FindBillingGroup(ctx, env.sb.AccountID(), "Found group"); err != nil || !ok || g.BillingGroupID == "" {
		t.Errorf("FindBillingGroup: %+v %v %v", g, ok, err)
	}
	unknown("CreateTopic", c.CreateTopic(ctx, demoProd, "kafka-events", models.CreateTopicRequest{TopicName: "found-topic", Partitions: 1, Replication: 2}))
	if tp, ok, err := c.FindTopic(ctx, demoProd, "kafka-events", "found-topic"); err != nil || !ok || tp.TopicName != "found-topic" {
		t.Errorf("FindTopic: %+v %v %v", tp, ok, err)
	}
	unknown("CreateDatabase", c.CreateDatabase(ctx, demoProd, "pg-main", "found_db"))
	if d, ok, err := c.FindDatabase(ctx, demoProd, "pg-main", "found_db"); err != nil || !ok || d.DatabaseName != "found_db" {
		t.Errorf("FindDatabase: %+v %v %v", d, ok, err)
	}
	_, err = c.CreateACL(ctx, demoProd, "kafka-events", models.CreateACLRequest{Username: "found_user", Topic: "found-topic", Permission: models.PermWrite})
	unknown("CreateACL", err)
	if a, ok, err := c.FindACL(ctx, demoProd, "kafka-events", "found_user", "found-topic", models.PermWrite); err != nil || !ok || a.Topic != "found-topic" {
		t.Errorf("FindACL: %+v %v %v", a, ok, err)
	}

	// What is not there is not found, without an error, down to a missing parent.
	notFound := func(what string, ok bool, err error) {
		t.Helper()
		if ok || err != nil {
			t.Errorf("%s: found %v, err %v", what, ok, err)
		}
	}
	_, ok, err := c.FindProject(ctx, "never-made")
	notFound("project", ok, err)
	_, ok, err = c.FindService(ctx, demoProd, "never-made")
	notFound("service", ok, err)
	_, ok, err = c.FindService(ctx, "never-made", "pg-main")
	notFound("service of a missing project", ok, err)
	_, ok, err = c.FindUser(ctx, demoProd, "pg-main", "never_made")
	notFound("user", ok, err)
	_, ok, err = c.FindUser(ctx, demoProd, "never-made", "found_user")
	notFound("user of a missing service", ok, err)
	_, ok, err = c.FindBillingGroup(ctx, env.sb.AccountID(), "Never made")
	notFound("billing group", ok, err)
	_, ok, err = c.FindTopic(ctx, demoProd, "kafka-events", "never-made")
	notFound("topic", ok, err)
	_, ok, err = c.FindDatabase(ctx, demoProd, "pg-main", "never_made")
	notFound("database", ok, err)
	_, ok, err = c.FindACL(ctx, demoProd, "kafka-events", "found_user", "found-topic", models.PermRead)
	notFound("ACL of another permission", ok, err)

	// A failure other than 404 is returned: nothing is known yet.
	_, ok, err = c.FindTopic(ctx, demoProd, "pg-main", "x")
	if ok || err == nil {
		t.Errorf("topics of a pg service: found %v, err %v", ok, err)
	}
}
