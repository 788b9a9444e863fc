package sandbox

import (
	"crypto/x509"
	"encoding/pem"
	"net/url"
	"strings"
	"testing"
)

func TestServiceListAndGetShapes(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.admin("GET", "/v1/project/acme-prod/service", nil)
	expectStatus(t, r, 200)
	list := get(t, r.json(t), "services").([]any)
	if len(list) < 5 {
		t.Fatalf("%d services in acme-prod", len(list))
	}
	for _, s := range list {
		m := s.(map[string]any)
		if _, has := m["connection_info"]; has {
			t.Errorf("list carries connection_info for %v", m["service_name"])
		}
		for _, k := range []string{"service_name", "service_type", "state", "cloud_name", "plan", "service_uri", "service_uri_params", "create_time", "update_time", "node_count", "disk_space_mb", "termination_protection"} {
			if _, ok := m[k]; !ok {
				t.Errorf("service %v lacks %s", m["service_name"], k)
			}
		}
	}
	r = e.admin("GET", "/v1/project/acme-prod/service/pg-main", nil)
	expectStatus(t, r, 200)
	svc := get(t, r.json(t), "service").(map[string]any)
	ci := get(t, svc, "connection_info", "pg").([]any)[0].(map[string]any)
	if ci["host"] != "pg-main-acme-prod.svc.sandbox.test" || ci["port"].(float64) != 5432 || ci["dbname"] != "defaultdb" || ci["user"] != "avnadmin" {
		t.Fatalf("connection_info %v", ci)
	}
	u, err := url.Parse(svc["service_uri"].(string))
	if err != nil || u.Scheme != "postgres" || u.User.Username() != "avnadmin" {
		t.Fatalf("service_uri %v", svc["service_uri"])
	}
	pw, _ := u.User.Password()
	if !strings.HasPrefix(pw, "AVNS_") || len(pw) != 25 {
		t.Fatalf("password %q does not look like AVNS_ + 20", pw)
	}
	if svc["termination_protection"] != true || get(t, svc, "user_config", "pg_version") != "16" {
		t.Errorf("demo pg-main: %v", svc)
	}
	if get(t, svc, "maintenance", "dow") != "sunday" {
		t.Errorf("maintenance %v", svc["maintenance"])
	}
	expectError(t, e.admin("GET", "/v1/project/acme-prod/service/nope", nil), 404, "Service nope does not exist")
	expectError(t, e.admin("GET", "/v1/project/nope/service", nil), 404, "Project nope")
}

func TestDemoHasEveryTypeAndState(t *testing.T) {
	e := newEnv(t, Options{})
	types, states := map[string]bool{}, map[string]bool{}
	protected := false
	for _, p := range []string{"acme-prod", "acme-staging", "acme-analytics"} {
		for _, s := range get(t, e.admin("GET", "/v1/project/"+p+"/service", nil).json(t), "services").([]any) {
			m := s.(map[string]any)
			types[m["service_type"].(string)] = true
			states[m["state"].(string)] = true
			protected = protected || m["termination_protection"] == true
		}
	}
	for _, want := range []string{"pg", "mysql", "kafka", "opensearch", "caching", "clickhouse", "grafana"} {
		if !types[want] {
			t.Errorf("no %s service in the demo", want)
		}
	}
	for _, want := range []string{"RUNNING", "REBUILDING", "REBALANCING", "POWEROFF"} {
		if !states[want] {
			t.Errorf("no %s service in the demo", want)
		}
	}
	if !protected {
		t.Error("no protected service in the demo")
	}
}

func TestServiceCreateValidation(t *testing.T) {
	e := newEnv(t, Options{})
	path := "/v1/project/acme-prod/service"
	base := func(mod map[string]any) map[string]any {
		m := map[string]any{"service_name": "pg-new", "service_type": "pg", "plan": "startup-4", "cloud": "aws-eu-west-1"}
		for k, v := range mod {
			m[k] = v
		}
		return m
	}
	cases := []struct {
		mod  map[string]any
		want string
	}{
		{map[string]any{"service_name": "x"}, "service_name"},
		{map[string]any{"service_name": "Has_Caps"}, "service_name"},
		{map[string]any{"service_type": "oracle"}, "service_type"},
		{map[string]any{"plan": "huge-99"}, "plan"},
		{map[string]any{"cloud": "mars-1"}, "cloud"},
		{map[string]any{"plan": "premium-8", "cloud": "do-ams"}, "not offered in do-ams"},
		{map[string]any{"disk_space_mb": 10}, "disk_space_mb"},
		{map[string]any{"project_vpc_id": "bad id!"}, "project_vpc_id"},
		{map[string]any{"user_config": map[string]any{"ip_filter": []any{"10.0.0.1/8"}}}, "user_config.ip_filter"},
		{map[string]any{"user_config": map[string]any{"ip_filter": "10.0.0.0/8"}}, "user_config.ip_filter"},
		{map[string]any{"user_config": map[string]any{"pg_version": "9"}}, "pg_version"},
		{map[string]any{"user_config": map[string]any{"kafka_rest": true}}, "kafka_rest"},
		{map[string]any{"user_config": map[string]any{"turbo": true}}, "user_config.turbo"},
		{map[string]any{"service_type": "kafka", "plan": "hobbyist"}, "plan"},
	}
	for _, c := range cases {
		expectError(t, e.admin("POST", path, base(c.mod)), 400, c.want)
	}
	expectError(t, e.admin("POST", path, base(map[string]any{"service_name": "pg-main"})), 409, "already exists")
	expectError(t, e.dev("POST", path, base(nil)), 403, "developer", "create services")
	expectError(t, e.admin("POST", "/v1/project/acme-analytics/service", base(nil)), 403, "developer")

	r := e.admin("POST", path, base(map[string]any{
		"disk_space_mb": 102400, "termination_protection": true,
		"user_config": map[string]any{"pg_version": "15", "ip_filter": []any{"10.1.0.0/16", map[string]any{"network": "192.168.0.0/24"}}},
	}))
	expectStatus(t, r, 200)
	svc := get(t, r.json(t), "service").(map[string]any)
	if svc["state"] != "REBUILDING" || svc["disk_space_mb"].(float64) != 102400 || svc["termination_protection"] != true || svc["node_count"].(float64) != 2 {
		t.Fatalf("created service %v", svc)
	}
	if svc["create_time"] != "2026-03-17T10:30:00Z" {
		t.Errorf("create_time %v", svc["create_time"])
	}
}

func TestServiceUpdateAndDelete(t *testing.T) {
	e := newEnv(t, Options{})
	svc := "/v1/project/acme-prod/service/caching-sessions"
	expectError(t, e.admin("PUT", svc, map[string]any{"disk_space_mb": 1000}), 400, "disk_space_mb", "81920")
	expectError(t, e.admin("PUT", svc, map[string]any{"maintenance": map[string]any{"dow": "someday"}}), 400, "maintenance")
	expectError(t, e.admin("PUT", svc, map[string]any{"maintenance": map[string]any{"time": "25:00"}}), 400, "maintenance")
	expectError(t, e.admin("PUT", svc, map[string]any{"plan": "nope"}), 400, "plan")
	expectError(t, e.admin("PUT", svc, map[string]any{"cloud": "nope"}), 400, "cloud")
	expectError(t, e.admin("PUT", svc, map[string]any{"user_config": map[string]any{"ip_filter": []any{"300.0.0.0/8"}}}), 400, "ip_filter")
	expectError(t, e.dev("PUT", svc, map[string]any{"termination_protection": true}), 403, "developer")
	expectError(t, e.admin("PUT", "/v1/project/acme-prod/service/nope", map[string]any{}), 404, "nope")

	r := e.admin("PUT", svc, map[string]any{
		"disk_space_mb": 90000, "maintenance": map[string]any{"dow": "Friday", "time": "01:15"},
		"user_config": map[string]any{"ip_filter": []any{"10.2.0.0/16"}},
	})
	expectStatus(t, r, 200)
	s := get(t, r.json(t), "service").(map[string]any)
	if s["disk_space_mb"].(float64) != 90000 || get(t, s, "maintenance", "dow") != "friday" || get(t, s, "maintenance", "time") != "01:15:00" {
		t.Fatalf("update not applied: %v", s)
	}
	if s["state"] != "RUNNING" || s["update_time"] != "2026-03-17T10:30:00Z" {
		t.Errorf("disk/maintenance change: state %v update_time %v", s["state"], s["update_time"])
	}
	// Null removes a user_config key.
	r = e.admin("PUT", svc, map[string]any{"user_config": map[string]any{"ip_filter": nil}})
	if uc, _ := get(t, r.json(t), "service").(map[string]any)["user_config"].(map[string]any); uc["ip_filter"] != nil {
		t.Error("null did not remove ip_filter")
	}

	// Termination protection refuses delete and power off with the platform's message.
	prot := "/v1/project/acme-prod/service/pg-main"
	const msg = "Service is protected against termination and shutdown. Remove termination protection first."
	expectError(t, e.admin("DELETE", prot, nil), 403, msg)
	expectError(t, e.admin("PUT", prot, map[string]any{"powered": false}), 403, msg)
	expectStatus(t, e.admin("PUT", prot, map[string]any{"termination_protection": false}), 200)

	expectError(t, e.dev("DELETE", svc, nil), 403, "delete services")
	r = e.admin("DELETE", svc, nil)
	expectStatus(t, r, 200)
	if len(r.body) != 0 {
		t.Fatalf("delete body %q", r.body)
	}
	expectError(t, e.admin("GET", svc, nil), 404, "caching-sessions")
	expectError(t, e.admin("DELETE", svc, nil), 404, "caching-sessions")
}

func TestConnectionInfo(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.dev("GET", "/v1/project/acme-prod/service/pg-main/connection_info", nil)
	expectStatus(t, r, 200)
	m := r.json(t)
	if m["host"] != "pg-main-acme-prod.svc.sandbox.test" || m["port"].(float64) != 5432 || m["user"] != "avnadmin" || m["database"] != "defaultdb" {
		t.Fatalf("connection info %v", m)
	}
	if !strings.Contains(m["uri"].(string), m["password"].(string)) {
		t.Error("uri does not carry the password")
	}
	block, _ := pem.Decode([]byte(m["ca_cert"].(string)))
	if block == nil {
		t.Fatal("ca_cert is not PEM")
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil || !cert.IsCA {
		t.Fatalf("ca_cert is not a CA certificate: %v", err)
	}
	r = e.admin("GET", "/v1/project/acme-prod/service/kafka-events/connection_info", nil)
	if m := r.json(t); m["port"].(float64) != 9093 {
		t.Errorf("kafka port %v", m["port"])
	}
	if _, has := r.json(t)["database"]; has {
		t.Error("kafka connection info has a database")
	}
	expectError(t, e.admin("GET", "/v1/project/acme-prod/service/nope/connection_info", nil), 404, "nope")
}
