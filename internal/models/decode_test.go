package models

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestServiceTolerantDecode(t *testing.T) {
	body := `{
	  "service_name":"pg-main","service_type":"pg","state":"SOMETHING_NEW","cloud_name":"aws-eu-west-1",
	  "plan":"startup-4","service_uri":"postgres://avnadmin:secret@pg-main.example:5432/defaultdb",
	  "service_uri_params":{"host":"pg-main.example","port":5432,"user":"avnadmin","dashboards_uri":"https://d"},
	  "connection_info":{"pg":["postgres://avnadmin:secret@pg-main.example:5432/defaultdb"],
	                     "replica":[{"host":"r.example","port":"6543","dbname":"defaultdb","user":"u"}],
	                     "flag":true,"pgbouncer":""},
	  "create_time":"2026-01-02T03:04:05Z","update_time":"garbage","node_count":"3","disk_space_mb":81920,
	  "termination_protection":true,"user_config":{"pg_version":16,"ip_filter":["10.0.0.0/8",{"network":"192.168.0.0/16"}]},
	  "unknown_field":{"x":1}
	}`
	var s Service
	if err := json.Unmarshal([]byte(body), &s); err != nil {
		t.Fatal(err)
	}
	if s.State != "SOMETHING_NEW" || s.State.Known() {
		t.Errorf("unknown state must be kept: %q", s.State)
	}
	if s.ServiceURIParams["port"] != "5432" || s.DashboardsURI() != "https://d" {
		t.Errorf("params %v", s.ServiceURIParams)
	}
	pg := s.ConnectionInfo["pg"]
	if len(pg) != 1 || pg[0].Host != "pg-main.example" || pg[0].Port != 5432 || pg[0].DBName != "defaultdb" || pg[0].User != "avnadmin" {
		t.Errorf("pg endpoint %+v", pg)
	}
	if r := s.ConnectionInfo["replica"]; len(r) != 1 || r[0].Port != 6543 {
		t.Errorf("replica %+v", r)
	}
	if _, ok := s.ConnectionInfo["flag"]; ok {
		t.Error("a boolean connection_info value must be skipped")
	}
	if !s.CreateTime.Equal(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)) || !s.UpdateTime.IsZero() {
		t.Errorf("times %v %v", s.CreateTime, s.UpdateTime)
	}
	if s.NodeCount != 3 || s.DiskSpaceMB != 81920 {
		t.Errorf("counts %d %d", s.NodeCount, s.DiskSpaceMB)
	}
	if s.UserConfig.PGVersion() != "16" {
		t.Errorf("pg_version %q", s.UserConfig.PGVersion())
	}
	if f := s.UserConfig.IPFilter(); len(f) != 2 || f[1] != "192.168.0.0/16" {
		t.Errorf("ip_filter %v", f)
	}
	// Round trip keeps the spec's shape.
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	_ = json.Unmarshal(b, &back)
	if back["create_time"] != "2026-01-02T03:04:05Z" || back["service_uri_params"] == nil {
		t.Errorf("marshal %s", b)
	}
}

func TestConnectionInfoPortAsString(t *testing.T) {
	var c ConnectionInfo
	if err := json.Unmarshal([]byte(`{"host":"h","port":"12345","password":"<redacted>"}`), &c); err != nil {
		t.Fatal(err)
	}
	if c.Port != 12345 || SecretAvailable(c.Password) {
		t.Fatalf("%+v", c)
	}
}

func TestEmailListShapes(t *testing.T) {
	var p Project
	if err := json.Unmarshal([]byte(`{"project_name":"x","billing_emails":[{"email":"a@b.io"}],"tech_emails":["c@d.io"],"estimated_balance":"1.5"}`), &p); err != nil {
		t.Fatal(err)
	}
	if len(p.BillingEmails) != 1 || p.BillingEmails[0] != "a@b.io" || p.TechEmails[0] != "c@d.io" {
		t.Fatalf("%+v", p)
	}
	if p.EstimatedBalance.FormatNumber() != "1.50" {
		t.Fatal(p.EstimatedBalance)
	}
}

func TestCardInfoKeepsUnknownKeys(t *testing.T) {
	var c CardInfo
	if err := json.Unmarshal([]byte(`{"brand":"Visa","last4":"4242","exp_month":"9","exp_year":2027,"country":"FI"}`), &c); err != nil {
		t.Fatal(err)
	}
	if c.Summary() != "Visa •••• 4242, expires 09/2027" || c.Extra["country"] != "FI" {
		t.Fatalf("%+v %q", c, c.Summary())
	}
}

func TestInvoicePeriod(t *testing.T) {
	inv := Invoice{PeriodBegin: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), PeriodEnd: time.Date(2026, 3, 31, 23, 59, 59, 0, time.UTC)}
	if inv.Period() != "Mar 2026" {
		t.Errorf("whole month: %q", inv.Period())
	}
	inv.PeriodEnd = time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	if inv.Period() != "Mar 2026" {
		t.Errorf("exclusive end: %q", inv.Period())
	}
	inv = Invoice{PeriodBegin: time.Date(2026, 3, 3, 0, 0, 0, 0, time.UTC), PeriodEnd: time.Date(2026, 3, 17, 0, 0, 0, 0, time.UTC)}
	if inv.Period() != "3 Mar – 17 Mar 2026" {
		t.Errorf("partial: %q", inv.Period())
	}
}

func TestMaskURI(t *testing.T) {
	got := MaskURI("postgres://avnadmin:s3cr3t@h:5432/db?sslmode=require")
	if got != "postgres://avnadmin:••••••••@h:5432/db?sslmode=require" {
		t.Fatal(got)
	}
	if full := URIWithCredentials("postgres://a:b@h:5432/db", "bob", "p@ss"); full != "postgres://bob:p%40ss@h:5432/db" {
		t.Fatal(full)
	}
}

func TestErrorBodyStatusAsString(t *testing.T) {
	var e ErrorBody
	if err := json.Unmarshal([]byte(`{"errors":[{"message":"Service x does not exist","status":"404"}]}`), &e); err != nil {
		t.Fatal(err)
	}
	if e.FirstMessage() != "Service x does not exist" || e.Errors[0].Status != 404 {
		t.Fatalf("%+v", e)
	}
}

// A number or amount of the wrong shape is a type error, so encoding/json names the
// field; the value itself is never in the error.
func TestTypeErrorsNameTheField(t *testing.T) {
	cases := []struct {
		json, field string
		into        any
	}{
		{`{"service_name":"a","node_count":"many"}`, "node_count", &Service{}},
		{`{"project_name":"p","estimated_balance":"12,5"}`, "estimated_balance", &Project{}},
		{`{"topic_name":"t","partitions":true}`, "partitions", &Topic{}},
		{`{"host":"h","port":"55x55"}`, "port", &ConnectionInfo{}},
	}
	for _, tc := range cases {
		err := json.Unmarshal([]byte(tc.json), tc.into)
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) || te.Field != tc.field {
			t.Errorf("%s: err %v (%#v), want a type error at %q", tc.json, err, err, tc.field)
			continue
		}
		for _, v := range []string{"many", "12,5", "55x55"} {
			if strings.Contains(err.Error(), v) {
				t.Errorf("%s: the error shows the value: %v", tc.json, err)
			}
		}
	}
}
