package opensearch

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/svcui/svcui/internal/jsonval"
)

// These tests compare raw response bytes: decoding into a map would hide the key order under test.

// rawField digs a raw JSON value out of a response by object keys and array indices, leaving it
// byte-for-byte as the server wrote it.
func rawField(t *testing.T, raw []byte, path ...any) string {
	t.Helper()
	cur := json.RawMessage(raw)
	for _, p := range path {
		switch k := p.(type) {
		case string:
			var m map[string]json.RawMessage
			if err := json.Unmarshal(cur, &m); err != nil {
				t.Fatalf("%v: not an object at %q: %s", path, k, cur)
			}
			cur = m[k]
		case int:
			var l []json.RawMessage
			if err := json.Unmarshal(cur, &l); err != nil || k >= len(l) {
				t.Fatalf("%v: no element %d: %s", path, k, cur)
			}
			cur = l[k]
		}
	}
	return string(cur)
}

const orderedDoc = `{"zeta":1,"alpha":{"y":"<b>&amp;</b>","x":2},"mid":[{"q":1,"p":2},{"p":3}],"beta":"b","a.dotted":true}`

func TestSourceKeepsDocumentKeyOrder(t *testing.T) {
	c := newTestCluster(t)
	h := c.Handler()
	code, body := do(t, h, "PUT", "/ordered/_doc/1?refresh=true", orderedDoc)
	mustStatus(t, 201, code, string(body))

	cases := []struct {
		source string
		want   string
	}{
		{`true`, orderedDoc},
		{`"beta"`, `{"beta":"b"}`},
		{`"a.dotted"`, `{"a.dotted":true}`},
		{`["zeta","al*"]`, `{"zeta":1,"alpha":{"y":"<b>&amp;</b>","x":2}}`},
		{`["beta","zeta","mid"]`, `{"zeta":1,"mid":[{"q":1,"p":2},{"p":3}],"beta":"b"}`},
		{`{"includes":["mid.p","beta","zeta"]}`, `{"zeta":1,"mid":[{"p":2},{"p":3}],"beta":"b"}`},
		{`{"excludes":["alpha.y","mid"]}`, `{"zeta":1,"alpha":{"x":2},"beta":"b","a.dotted":true}`},
		{`{"includes":["alpha.*","mid"],"excludes":["mid.q"]}`, `{"alpha":{"y":"<b>&amp;</b>","x":2},"mid":[{"p":2},{"p":3}]}`},
		{`{"includes":["nothing"]}`, `{}`},
	}
	for _, tc := range cases {
		code, raw := do(t, h, "POST", "/ordered/_search", `{"_source":`+tc.source+`}`)
		mustStatus(t, 200, code, string(raw))
		if got := rawField(t, raw, "hits", "hits", 0, "_source"); got != tc.want {
			t.Errorf("_source %s:\n got %s\nwant %s", tc.source, got, tc.want)
		}
	}

	code, raw := do(t, h, "GET", "/ordered/_doc/1?_source_includes=mid,zeta", "")
	mustStatus(t, 200, code, string(raw))
	if got, want := rawField(t, raw, "_source"), `{"zeta":1,"mid":[{"q":1,"p":2},{"p":3}]}`; got != want {
		t.Errorf("get with _source_includes:\n got %s\nwant %s", got, want)
	}
	code, raw = do(t, h, "GET", "/ordered/_source/1", "")
	mustStatus(t, 200, code, string(raw))
	if string(raw) != orderedDoc {
		t.Errorf("_source endpoint:\n got %s\nwant %s", raw, orderedDoc)
	}

	code, raw = do(t, h, "POST", "/_reindex?refresh=true", `{"source":{"index":"ordered","_source":{"excludes":["alpha"]}},"dest":{"index":"copy"}}`)
	mustStatus(t, 200, code, string(raw))
	code, raw = do(t, h, "GET", "/copy/_source/1", "")
	mustStatus(t, 200, code, string(raw))
	if want := `{"zeta":1,"mid":[{"q":1,"p":2},{"p":3}],"beta":"b","a.dotted":true}`; string(raw) != want {
		t.Errorf("reindexed filtered source:\n got %s\nwant %s", raw, want)
	}
}

func TestAggregationsKeepRequestOrder(t *testing.T) {
	_, h := loadFixture(t)
	code, raw := do(t, h, "POST", "/docs/_search", `{"size":0,"aggs":{
	  "zz":{"terms":{"field":"category","size":1},"aggs":{"s":{"sum":{"field":"qty"}},"a":{"max":{"field":"qty"}}}},
	  "mm":{"filter":{"term":{"category":"food"}},"aggregations":{
	    "y":{"min":{"field":"qty"}},
	    "t":{"terms":{"field":"category"},"aggs":{"q":{"value_count":{"field":"qty"}},"c":{"cardinality":{"field":"qty"}}}}}},
	  "aa":{"max":{"field":"price"}}}}`)
	mustStatus(t, 200, code, string(raw))
	want := `{"zz":{"doc_count_error_upper_bound":0,"sum_other_doc_count":3,"buckets":[{"key":"animals","doc_count":2,"s":{"value":6.0},"a":{"value":5.0}}]},` +
		`"mm":{"doc_count":2,"y":{"value":3.0},"t":{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[{"key":"food","doc_count":2,"q":{"value":2},"c":{"value":2}}]}},` +
		`"aa":{"value":150.0}}`
	if got := rawField(t, raw, "aggregations"); got != want {
		t.Errorf("aggregations:\n got %s\nwant %s", got, want)
	}

	// The reverse request order must give the reverse answer order, so neither can be an accident.
	code, raw = do(t, h, "POST", "/docs/_search", `{"size":0,"aggregations":{"b":{"min":{"field":"qty"}},"a":{"max":{"field":"qty"}}}}`)
	mustStatus(t, 200, code, string(raw))
	if got, want := rawField(t, raw, "aggregations"), `{"b":{"value":1.0},"a":{"value":9.0}}`; got != want {
		t.Errorf("aggregations:\n got %s\nwant %s", got, want)
	}
}

func TestAppendJSONStringMatchesJSONWithoutHTMLEscapes(t *testing.T) {
	cases := []string{"", "plain", `<b>&"q"\</b>`, "tab\tnl\ncr\r\x00\x1f\x7f", "ünïcödé ✓ 𝄞", "bad\xffutf8\xc3"}
	for _, s := range cases {
		var b bytes.Buffer
		jsonval.AppendString(&b, s)
		var back string
		if err := json.Unmarshal(b.Bytes(), &back); err != nil {
			t.Fatalf("%q rendered as invalid JSON %s: %v", s, b.Bytes(), err)
		}
		if want := strings.ToValidUTF8(s, "\uFFFD"); back != want {
			t.Errorf("%q round-tripped to %q", s, back)
		}
		if strings.ContainsAny(s, "<>&") && bytes.Contains(b.Bytes(), []byte(`\u00`)) && !strings.ContainsAny(s, "\x00\x1f") {
			t.Errorf("%q: HTML characters escaped: %s", s, b.Bytes())
		}
	}
}

func TestUpdatesKeepSourceKeyOrder(t *testing.T) {
	c := newTestCluster(t)
	h := c.Handler()
	code, body := do(t, h, "PUT", "/u/_doc/1", `{"zeta":1,"alpha":{"y":1,"x":2},"beta":"b"}`)
	mustStatus(t, 201, code, string(body))

	steps := []struct {
		method, path, body string
		id, want           string
	}{
		// Replaced values stay in place, objects merge, new keys follow in the update's order.
		{"POST", "/u/_update/1", `{"doc":{"new2":true,"alpha":{"w":0,"x":3},"zeta":7,"beta":"<&>","new1":[1,2]}}`,
			"1", `{"zeta":7,"alpha":{"y":1,"x":3,"w":0},"beta":"<&>","new2":true,"new1":[1,2]}`},
		{"POST", "/u/_update/2", `{"upsert":{"b":1,"a":2},"doc":{"c":3}}`, "2", `{"b":1,"a":2}`},
		{"POST", "/u/_update/3", `{"doc":{"z":1,"q":{"d":1,"c":2}},"doc_as_upsert":true}`, "3", `{"z":1,"q":{"d":1,"c":2}}`},
		{"POST", "/_bulk", `{"update":{"_index":"u","_id":"3"}}` + "\n" + `{"doc":{"k":true,"q":{"b":0}}}` + "\n",
			"3", `{"z":1,"q":{"d":1,"c":2,"b":0},"k":true}`},
	}
	for _, st := range steps {
		code, raw := do(t, h, st.method, st.path, st.body)
		if code != 200 && code != 201 {
			t.Fatalf("%s %s: %d %s", st.method, st.path, code, raw)
		}
		code, raw = do(t, h, "GET", "/u/_source/"+st.id, "")
		mustStatus(t, 200, code, string(raw))
		if string(raw) != st.want {
			t.Errorf("after %s %s:\n got %s\nwant %s", st.method, st.body, raw, st.want)
		}
	}

	// A repeated update changes nothing and is still detected as a noop.
	_, m := doJSON(t, h, "POST", "/u/_update/3", `{"doc":{"k":true}}`)
	if m["result"] != "noop" {
		t.Fatalf("repeated update: %v", m)
	}
}
