package sandbox

import (
	"testing"
)

func TestCloudsArePublicAndCoverRegions(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.do("GET", "/v1/clouds", "", nil)
	expectStatus(t, r, 200)
	list := get(t, r.json(t), "clouds").([]any)
	if len(list) < 12 {
		t.Fatalf("only %d clouds", len(list))
	}
	regions := map[string]bool{}
	for _, c := range list {
		m := c.(map[string]any)
		regions[m["geo_region"].(string)] = true
		for _, k := range []string{"cloud_name", "cloud_description", "geo_latitude", "geo_longitude"} {
			if _, ok := m[k]; !ok {
				t.Fatalf("cloud without %s: %v", k, m)
			}
		}
	}
	for _, g := range []string{"europe", "north-america", "asia-pacific", "south-america", "africa", "middle-east"} {
		if !regions[g] {
			t.Errorf("no cloud in %s", g)
		}
	}
}

func TestServiceTypesNeedToken(t *testing.T) {
	e := newEnv(t, Options{})
	expectError(t, e.do("GET", "/v1/service_types", "", nil), 401, "svcv1")
	r := e.dev("GET", "/v1/service_types", nil)
	expectStatus(t, r, 200)
	types := map[string]bool{}
	for _, st := range get(t, r.json(t), "service_types").([]any) {
		m := st.(map[string]any)
		types[m["service_type"].(string)] = true
		if m["description"] == "" || m["latest_available_version"] == "" {
			t.Errorf("incomplete service type %v", m)
		}
	}
	for _, want := range []string{"pg", "mysql", "kafka", "opensearch", "caching", "clickhouse", "grafana"} {
		if !types[want] {
			t.Errorf("service type %s missing", want)
		}
	}
}

func TestPlansWithCloudFilter(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.admin("GET", "/v1/project/acme-prod/service_types/pg/plans", nil)
	expectStatus(t, r, 200)
	all := get(t, r.json(t), "plans").([]any)
	names := map[string]map[string]any{}
	for _, p := range all {
		m := p.(map[string]any)
		names[m["plan_name"].(string)] = m
	}
	for _, want := range []string{"hobbyist", "startup-4", "startup-8", "business-4", "business-8", "premium-8"} {
		if names[want] == nil {
			t.Fatalf("plan %s missing from %v", want, names)
		}
	}
	if price, ok := names["startup-4"]["price_usd"].(string); !ok || price != "0.1370" {
		t.Errorf("startup-4 price_usd = %v, want the decimal string 0.1370", names["startup-4"]["price_usd"])
	}
	if names["hobbyist"]["node_count"].(float64) != 1 || names["business-4"]["node_count"].(float64) != 3 {
		t.Errorf("node counts wrong: %v", names)
	}

	r = e.admin("GET", "/v1/project/acme-prod/service_types/pg/plans?cloud=do-ams", nil)
	expectStatus(t, r, 200)
	for _, p := range get(t, r.json(t), "plans").([]any) {
		m := p.(map[string]any)
		if m["plan_name"] == "premium-8" {
			t.Errorf("premium-8 is not offered in do-ams but was listed")
		}
		if cn := m["cloud_names"].([]any); len(cn) != 1 || cn[0] != "do-ams" {
			t.Errorf("cloud_names %v, want [do-ams]", cn)
		}
	}
	if len(get(t, r.json(t), "plans").([]any)) != len(all)-1 {
		t.Errorf("cloud filter removed the wrong number of plans")
	}
	// Kafka has no hobbyist plan.
	r = e.admin("GET", "/v1/project/acme-prod/service_types/kafka/plans", nil)
	for _, p := range get(t, r.json(t), "plans").([]any) {
		if p.(map[string]any)["plan_name"] == "hobbyist" {
			t.Error("kafka offers hobbyist")
		}
	}
	expectError(t, e.admin("GET", "/v1/project/acme-prod/service_types/nosuch/plans", nil), 404, "nosuch")
	expectError(t, e.admin("GET", "/v1/project/acme-prod/service_types/pg/plans?cloud=mars-1", nil), 400, "mars-1")
	expectError(t, e.admin("GET", "/v1/project/nope/service_types/pg/plans", nil), 404, "nope")
}
