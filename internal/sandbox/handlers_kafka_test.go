package sandbox

import (
	"strings"
	"testing"
	"time"
)

func TestKafkaACLs(t *testing.T) {
	e := newEnv(t, Options{})
	path := "/v1/project/acme-prod/service/kafka-events/acl"
	r := e.dev("GET", path, nil)
	expectStatus(t, r, 200)
	acls := get(t, r.json(t), "acl").([]any)
	if len(acls) < 3 {
		t.Fatalf("demo ACLs %v", acls)
	}
	a0 := acls[0].(map[string]any)
	if !strings.HasPrefix(a0["id"].(string), "acl") || a0["username"] == nil || a0["topic"] == nil || a0["permission"] == nil {
		t.Fatalf("ACL shape %v", a0)
	}
	r = e.dev("POST", path, map[string]any{"username": "orders_producer", "topic": "payments", "permission": "read"})
	expectStatus(t, r, 200)
	if n := len(get(t, r.json(t), "acl").([]any)); n != len(acls)+1 {
		t.Fatalf("POST answered %d entries, want the whole list of %d", n, len(acls)+1)
	}
	expectError(t, e.admin("POST", path, map[string]any{"username": "orders_producer", "topic": "payments", "permission": "read"}), 409, "already exists")
	expectError(t, e.admin("POST", path, map[string]any{"username": "x_user", "topic": "t", "permission": "superuser"}), 400, "permission")
	expectError(t, e.admin("POST", path, map[string]any{"username": "x_user", "topic": "bad topic!", "permission": "read"}), 400, "topic")
	expectError(t, e.admin("POST", path, map[string]any{"username": "x_user", "topic": "t"}), 400, `"permission"`)
	expectStatus(t, e.admin("POST", path, map[string]any{"username": "app_*", "topic": "logs-*", "permission": "readwrite"}), 200)
	expectError(t, e.admin("GET", "/v1/project/acme-prod/service/pg-main/acl", nil), 400, "pg-main", "kafka")
	expectError(t, e.admin("POST", "/v1/project/acme-prod/service/pg-main/acl", map[string]any{"username": "a_b", "topic": "t", "permission": "read"}), 400, "kafka")
}

func TestKafkaTopics(t *testing.T) {
	e := newEnv(t, Options{})
	path := "/v1/project/acme-prod/service/kafka-events/topic"
	r := e.admin("GET", path, nil)
	expectStatus(t, r, 200)
	if len(get(t, r.json(t), "topics").([]any)) < 3 {
		t.Fatal("demo topics missing")
	}
	r = e.dev("POST", path, map[string]any{"topic_name": "new-topic", "partitions": 6, "replication": 3})
	expectStatus(t, r, 200)
	if r.json(t)["message"] == nil {
		t.Fatalf("topic POST body %s", r.body)
	}
	topicState := func() string {
		for _, tp := range get(t, e.admin("GET", path, nil).json(t), "topics").([]any) {
			m := tp.(map[string]any)
			if m["topic_name"] == "new-topic" {
				if m["partitions"].(float64) != 6 || m["replication"].(float64) != 3 {
					t.Fatalf("topic %v", m)
				}
				return m["state"].(string)
			}
		}
		t.Fatal("new topic not listed")
		return ""
	}
	if s := topicState(); s != "CONFIGURING" {
		t.Fatalf("new topic %s", s)
	}
	e.clock.Advance(3 * time.Second)
	if s := topicState(); s != "ACTIVE" {
		t.Fatalf("topic after 3s %s", s)
	}
	expectError(t, e.admin("POST", path, map[string]any{"topic_name": "new-topic"}), 409, "already exists")
	expectError(t, e.admin("POST", path, map[string]any{"topic_name": "bad name"}), 400, "topic_name")
	expectError(t, e.admin("POST", path, map[string]any{"topic_name": "t2", "partitions": 5000}), 400, "partitions")
	expectError(t, e.admin("POST", path, map[string]any{"topic_name": "t2", "replication": 9}), 400, "replication")
	expectError(t, e.admin("POST", path, map[string]any{"partitions": 1}), 400, `"topic_name"`)
	expectError(t, e.admin("GET", "/v1/project/acme-prod/service/pg-main/topic", nil), 400, "kafka")
}

func TestDatabases(t *testing.T) {
	e := newEnv(t, Options{})
	path := "/v1/project/acme-prod/service/pg-main/database"
	r := e.dev("GET", path, nil)
	expectStatus(t, r, 200)
	dbs := get(t, r.json(t), "databases").([]any)
	if dbs[0].(map[string]any)["database_name"] != "defaultdb" {
		t.Fatalf("databases %v", dbs)
	}
	r = e.dev("POST", path, map[string]any{"database": "reports"})
	expectStatus(t, r, 200)
	if r.json(t)["message"] == nil {
		t.Fatalf("database POST body %s", r.body)
	}
	if !strings.Contains(string(e.admin("GET", path, nil).body), `"reports"`) {
		t.Fatal("new database not listed")
	}
	expectError(t, e.admin("POST", path, map[string]any{"database": "reports"}), 409, "already exists")
	expectError(t, e.admin("POST", path, map[string]any{"database": "1bad"}), 400, "database")
	expectError(t, e.admin("POST", path, map[string]any{"db": "x"}), 400, `"database"`)
	expectStatus(t, e.admin("POST", "/v1/project/acme-prod/service/mysql-orders-legacy/database", map[string]any{"database": "shop"}), 200)
	expectError(t, e.admin("GET", "/v1/project/acme-prod/service/kafka-events/database", nil), 400, "pg and mysql")
}

func TestDeveloperRoleLimits(t *testing.T) {
	e := newEnv(t, Options{})
	// The admin token is a developer in acme-analytics: it may read and manage access there…
	expectStatus(t, e.admin("GET", "/v1/project/acme-analytics/service", nil), 200)
	expectStatus(t, e.admin("POST", "/v1/project/acme-analytics/service/pg-analytics/user", map[string]any{"username": "dev_made"}), 200)
	expectStatus(t, e.admin("POST", "/v1/project/acme-analytics/service/pg-analytics/database", map[string]any{"database": "scratch"}), 200)
	// …but not change services or the project.
	expectError(t, e.admin("PUT", "/v1/project/acme-analytics/service/pg-analytics", map[string]any{"plan": "business-4"}), 403, "acme-analytics", "developer", "change services")
	expectError(t, e.admin("DELETE", "/v1/project/acme-analytics/service/grafana-analytics", nil), 403, "delete services")
	expectError(t, e.admin("PUT", "/v1/project/acme-analytics", map[string]any{"cloud": "do-ams"}), 403, "change project settings")
	expectError(t, e.admin("DELETE", "/v1/project/acme-analytics/service/pg-analytics/user/dev_made", nil), 403, "delete service users")
	// Developers may not touch billing groups.
	expectError(t, e.dev("POST", "/v1/account/"+e.sb.AccountID()+"/billing-group", map[string]any{"billing_group_name": "x"}), 403, "create billing groups")
}
