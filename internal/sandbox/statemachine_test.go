package sandbox

import (
	"testing"
	"time"
)

func stateOf(t *testing.T, e *env, path string) (string, string) {
	t.Helper()
	r := e.admin("GET", path, nil)
	expectStatus(t, r, 200)
	s := get(t, r.json(t), "service").(map[string]any)
	return s["state"].(string), s["update_time"].(string)
}

func TestStateMachine(t *testing.T) {
	e := newEnv(t, Options{ProvisionDelay: 20 * time.Second})
	path := "/v1/project/acme-prod/service/pg-sm"
	expectStatus(t, e.admin("POST", "/v1/project/acme-prod/service", map[string]any{
		"service_name": "pg-sm", "service_type": "pg", "plan": "startup-4", "cloud": "aws-eu-west-1",
	}), 200)
	if st, _ := stateOf(t, e, path); st != "REBUILDING" {
		t.Fatalf("after create: %s", st)
	}
	e.clock.Advance(19 * time.Second)
	if st, _ := stateOf(t, e, path); st != "REBUILDING" {
		t.Fatalf("before the delay: %s", st)
	}
	e.clock.Advance(time.Second)
	st, ut := stateOf(t, e, path)
	if st != "RUNNING" || ut != "2026-03-17T10:30:20Z" {
		t.Fatalf("after the delay: %s, update_time %s", st, ut)
	}

	// Plan change → REBALANCING → RUNNING.
	r := e.admin("PUT", path, map[string]any{"plan": "business-4"})
	s := get(t, r.json(t), "service").(map[string]any)
	if s["state"] != "REBALANCING" || s["plan"] != "business-4" || s["node_count"].(float64) != 3 || s["disk_space_mb"].(float64) != 163840 {
		t.Fatalf("plan change: %v", s)
	}
	e.clock.Advance(20 * time.Second)
	if st, _ := stateOf(t, e, path); st != "RUNNING" {
		t.Fatalf("after rebalancing: %s", st)
	}

	// Cloud change → REBALANCING.
	r = e.admin("PUT", path, map[string]any{"cloud": "google-europe-north1"})
	if s := get(t, r.json(t), "service").(map[string]any); s["state"] != "REBALANCING" || s["cloud_name"] != "google-europe-north1" {
		t.Fatalf("cloud change: %v", s)
	}
	e.clock.Advance(25 * time.Second)

	// Power off → POWEROFF; power on → REBUILDING → RUNNING.
	r = e.admin("PUT", path, map[string]any{"powered": false})
	if s := get(t, r.json(t), "service").(map[string]any); s["state"] != "POWEROFF" {
		t.Fatalf("power off: %v", s["state"])
	}
	e.clock.Advance(time.Hour)
	if st, _ := stateOf(t, e, path); st != "POWEROFF" {
		t.Fatalf("powered off stays: %s", st)
	}
	// A plan change while powered off stays POWEROFF.
	r = e.admin("PUT", path, map[string]any{"plan": "startup-8"})
	if s := get(t, r.json(t), "service").(map[string]any); s["state"] != "POWEROFF" {
		t.Fatalf("plan change while off: %v", s["state"])
	}
	r = e.admin("PUT", path, map[string]any{"powered": true})
	s = get(t, r.json(t), "service").(map[string]any)
	if s["state"] != "REBUILDING" || s["update_time"] != e.clock.Now().Format("2006-01-02T15:04:05Z") {
		t.Fatalf("power on: %v %v", s["state"], s["update_time"])
	}
	e.clock.Advance(20 * time.Second)
	if st, _ := stateOf(t, e, path); st != "RUNNING" {
		t.Fatalf("after power on: %s", st)
	}
	// powered:true on a running service changes nothing.
	_, before := stateOf(t, e, path)
	e.clock.Advance(time.Minute)
	r = e.admin("PUT", path, map[string]any{"powered": true})
	if s := get(t, r.json(t), "service").(map[string]any); s["state"] != "RUNNING" || s["update_time"] != before {
		t.Fatalf("no-op power on: %v %v (before %s)", s["state"], s["update_time"], before)
	}
}

func TestDemoTransitionsFinishAfterDelay(t *testing.T) {
	e := newEnv(t, Options{ProvisionDelay: 5 * time.Second})
	reb := "/v1/project/acme-staging/service/pg-staging"
	bal := "/v1/project/acme-prod/service/mysql-orders-legacy"
	if st, _ := stateOf(t, e, reb); st != "REBUILDING" {
		t.Fatalf("demo pg-staging %s", st)
	}
	if st, _ := stateOf(t, e, bal); st != "REBALANCING" {
		t.Fatalf("demo mysql-orders-legacy %s", st)
	}
	e.clock.Advance(5 * time.Second)
	for _, p := range []string{reb, bal} {
		if st, _ := stateOf(t, e, p); st != "RUNNING" {
			t.Fatalf("%s still %s after the delay", p, st)
		}
	}
	if st, _ := stateOf(t, e, "/v1/project/acme-staging/service/kafka-staging"); st != "POWEROFF" {
		t.Fatalf("kafka-staging %s", st)
	}
}
