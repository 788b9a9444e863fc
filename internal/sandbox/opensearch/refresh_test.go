package opensearch

import (
	"strings"
	"testing"
)

// Shapes checked against OpenSearch's YAML REST tests (rest-api-spec/src/main/resources/rest-api-spec/test):
// index/60_refresh.yml, update/60_refresh.yml, delete/50_refresh.yml: refresh=true and refresh=""
// give forced_refresh:true, refresh=wait_for does not (is_false); the field is WriteResponseBase's
// forced_refresh in opensearch-api-specification spec/schemas/_common.yaml, written after "result"
// (DocWriteResponse.innerToXContent).
func TestRefreshParameterAnswersForcedRefresh(t *testing.T) {
	_, h := loadFixture(t)
	cases := []struct {
		method, path, body string
		forced             bool
	}{
		{"PUT", "/docs/_doc/r1?refresh=true", `{"title":"r"}`, true},
		{"PUT", "/docs/_doc/r2?refresh", `{"title":"r"}`, true},
		{"PUT", "/docs/_doc/r3?refresh=wait_for", `{"title":"r"}`, false},
		{"PUT", "/docs/_doc/r4?refresh=false", `{"title":"r"}`, false},
		{"PUT", "/docs/_doc/r5", `{"title":"r"}`, false},
		{"POST", "/docs/_doc?refresh=true", `{"title":"auto"}`, true},
		{"POST", "/docs/_update/r1?refresh=true", `{"doc":{"title":"changed"}}`, true},
		{"POST", "/docs/_update/r2?refresh=", `{"doc":{"title":"changed"}}`, true},
		{"POST", "/docs/_update/r3?refresh=wait_for", `{"doc":{"title":"changed"}}`, false},
		{"DELETE", "/docs/_doc/r1?refresh=true", ``, true},
		{"DELETE", "/docs/_doc/r2?refresh=wait_for", ``, false},
		{"DELETE", "/docs/_doc/r3?refresh", ``, true},
	}
	for _, tc := range cases {
		code, raw := do(t, h, tc.method, tc.path, tc.body)
		if code >= 300 {
			t.Fatalf("%s %s: %d %s", tc.method, tc.path, code, raw)
		}
		has := strings.Contains(string(raw), `"forced_refresh":true`)
		if has != tc.forced {
			t.Errorf("%s %s: forced_refresh present = %v, want %v: %s", tc.method, tc.path, has, tc.forced, raw)
		}
		if has && !strings.Contains(string(raw), `","forced_refresh":true,"_shards"`) {
			t.Errorf("%s %s: forced_refresh should follow result: %s", tc.method, tc.path, raw)
		}
	}
	code, m := doJSON(t, h, "PUT", "/docs/_doc/r9?refresh=soon", `{"title":"r"}`)
	mustStatus(t, 400, code, m)
	if get(m, "error.reason") != "Unknown value for refresh: [soon]." {
		t.Fatalf("bad refresh value: %v", m)
	}
}

// bulk/50_refresh.yml runs bulk with refresh=true; each item response is a DocWriteResponse, so it
// carries forced_refresh (ResponseItem.forced_refresh in spec/schemas/_core.bulk.yaml).
func TestBulkRefreshMarksItems(t *testing.T) {
	_, h := loadFixture(t)
	code, m := doJSON(t, h, "POST", "/docs/_bulk?refresh=true", `{"index":{"_id":"b1"}}`+"\n"+`{"title":"b"}`+"\n")
	mustStatus(t, 200, code, m)
	if get(m, "items.0.index.forced_refresh") != true {
		t.Fatalf("bulk item without forced_refresh: %v", m)
	}
	_, m = doJSON(t, h, "POST", "/docs/_bulk?refresh=wait_for", `{"index":{"_id":"b2"}}`+"\n"+`{"title":"b"}`+"\n")
	if get(m, "items.0.index.forced_refresh") != nil {
		t.Fatalf("wait_for should not force a refresh: %v", m)
	}
}

// bulk/10_basic.yml "Empty _id" and "Empty _id with op_type create": an item whose _id is ""
// fails alone with 400 illegal_argument_exception "if _id is specified it must not be empty",
// errors is true, the other items (an absent _id is generated) are created.
func TestBulkEmptyIDFailsThatItem(t *testing.T) {
	c := newTestCluster(t)
	h := c.Handler()
	body := strings.Join([]string{
		`{"index":{"_index":"test","_id":""}}`, `{"f":1}`,
		`{"index":{"_index":"test","_id":"id"}}`, `{"f":2}`,
		`{"index":{"_index":"test"}}`, `{"f":3}`,
		`{"create":{"_index":"test"}}`, `{"f":4}`,
		`{"index":{"_index":"test","op_type":"create"}}`, `{"f":5}`,
	}, "\n") + "\n"
	code, m := doJSON(t, h, "POST", "/_bulk?refresh=true", body)
	mustStatus(t, 200, code, m)
	if m["errors"] != true {
		t.Fatalf("errors should be true: %v", m)
	}
	if get(m, "items.0.index.status") != 400.0 || get(m, "items.0.index.error.type") != "illegal_argument_exception" ||
		get(m, "items.0.index.error.reason") != "if _id is specified it must not be empty" {
		t.Fatalf("empty _id item: %v", get(m, "items.0"))
	}
	if get(m, "items.0.index.forced_refresh") != nil {
		t.Fatalf("a failed item has no forced_refresh: %v", get(m, "items.0"))
	}
	for i, want := range []string{"index", "index", "create", "create"} {
		if got := get(m, "items."+itoa(i+1)+"."+want+".result"); got != "created" {
			t.Fatalf("item %d: %v", i+1, get(m, "items."+itoa(i+1)))
		}
	}
	_, m = doJSON(t, h, "GET", "/test/_count", ``)
	if m["count"] != 4.0 {
		t.Fatalf("count = %v, want 4", m["count"])
	}
}
