package sandbox

import (
	"fmt"
	"sync"
	"testing"
)

// Many clients reading and writing at once: run with -race.
func TestConcurrentClients(t *testing.T) {
	e := newEnv(t, Options{})
	var wg sync.WaitGroup
	for w := 0; w < 6; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 15; i++ {
				name := fmt.Sprintf("c%d-svc-%02d", w, i)
				r := e.admin("POST", "/v1/project/acme-staging/service", map[string]any{
					"service_name": name, "service_type": "kafka", "plan": "startup-4", "cloud": "aws-eu-west-1",
				})
				if r.status != 200 {
					t.Errorf("create %s: %d %s", name, r.status, r.body)
					return
				}
				e.admin("POST", "/v1/project/acme-staging/service/"+name+"/topic", map[string]any{"topic_name": "t1"})
				e.dev("GET", "/v1/project/acme-staging/service", nil)
				e.dev("GET", "/v1/project", nil)
				e.admin("PUT", "/v1/project/acme-staging/service/"+name, map[string]any{"plan": "business-4"})
				e.clock.Advance(1)
				if r := e.admin("DELETE", "/v1/project/acme-staging/service/"+name, nil); r.status != 200 {
					t.Errorf("delete %s: %d", name, r.status)
				}
			}
		}(w)
	}
	wg.Wait()
	if n := len(get(t, e.admin("GET", "/v1/project/acme-staging/service", nil).json(t), "services").([]any)); n != 4 {
		t.Fatalf("%d services left, want the 4 of the demo", n)
	}
}

func TestSeedDeterminesDemoData(t *testing.T) {
	a := newEnv(t, Options{Seed: 11})
	b := newEnv(t, Options{Seed: 11})
	c := newEnv(t, Options{Seed: 12})
	pw := func(e *env) string {
		return e.admin("GET", "/v1/project/acme-prod/service/pg-main/connection_info", nil).json(t)["password"].(string)
	}
	if pw(a) != pw(b) || a.sb.AccountID() != b.sb.AccountID() {
		t.Fatal("same seed, different demo data")
	}
	if pw(a) == pw(c) {
		t.Fatal("different seeds, same password")
	}
	inv := func(e *env) string {
		g := groupsByCurrency(t, e)["EUR"]["billing_group_id"].(string)
		first := get(t, e.admin("GET", "/v1/billing-group/"+g+"/invoice", nil).json(t), "invoices").([]any)[0].(map[string]any)
		return first["invoice_number"].(string) + " " + first["total_inc_vat"].(string)
	}
	if inv(a) != inv(b) {
		t.Fatal("same seed, different invoices")
	}
}
