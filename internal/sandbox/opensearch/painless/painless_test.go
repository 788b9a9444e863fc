package painless

import (
	"encoding/json"
	"strings"
	"testing"
)

// The painless subset (update scripts). Each case is a script from the OpenSearch docs' update
// examples or opensearch-api-specification tests/default/indices/update_by_query.yaml
// ("ctx._source.year += params.century").
func TestPainlessSubset(t *testing.T) {
	cases := []struct {
		script string
		params string
		src    string
		want   string
		op     string
	}{
		{"ctx._source.year += params.century", `{"century":1900}`, `{"year":60}`, `{"year":1960}`, "index"},
		{"ctx._source.title = params.t; ctx._source.n++", `{"t":"x"}`, `{"title":"a","n":1}`, `{"n":2,"title":"x"}`, "index"},
		{"ctx._source.remove('tmp')", ``, `{"tmp":1,"k":2}`, `{"k":2}`, "index"},
		{"ctx._source['a'] = ctx._source.b + ' suffix'", ``, `{"b":"v"}`, `{"a":"v suffix","b":"v"}`, "index"},
		{"ctx._source.tags.add(params.tag)", `{"tag":"new"}`, `{"tags":["old"]}`, `{"tags":["old","new"]}`, "index"},
		{"ctx._source.price -= 0.5", ``, `{"price":2}`, `{"price":1.5}`, "index"},
		{"ctx._source.meta.seen = true", ``, `{}`, `{"meta":{"seen":true}}`, "index"},
		{"ctx.op = 'delete'", ``, `{"a":1}`, `{"a":1}`, "delete"},
		{"ctx.op = \"noop\"", ``, `{"a":1}`, `{"a":1}`, "noop"},
	}
	for _, c := range cases {
		body := map[string]any{"source": c.script}
		if c.params != "" {
			var p map[string]any
			json.Unmarshal([]byte(c.params), &p)
			body["params"] = p
		}
		s, err := Parse(body)
		if err != nil {
			t.Fatalf("%s: %v", c.script, err)
		}
		var src map[string]any
		dec := json.NewDecoder(strings.NewReader(c.src))
		dec.UseNumber()
		dec.Decode(&src)
		op, err := s.Run(src)
		if err != nil {
			t.Fatalf("%s: %v", c.script, err)
		}
		if got := string(toJSON(src)); got != c.want || op != c.op {
			t.Errorf("%s: %s op %s, want %s op %s", c.script, got, op, c.want, c.op)
		}
	}
	for _, bad := range []string{"if (ctx._source.a > 1) { ctx._source.b = 2 }", "ctx._source.a = Math.max(1, 2)", "for (x in y) {}"} {
		_, err := Parse(bad)
		if err == nil || err.Type != "script_exception" || err.Reason != "compile error" || err.Status != 400 {
			t.Errorf("%q: %v, want a script_exception compile error", bad, err)
		}
	}
	s, _ := Parse("ctx._source.missing += 1")
	if _, err := s.Run(map[string]any{}); err == nil || err.Reason != "runtime error" || err.CauseType != "null_pointer_exception" {
		t.Errorf("+= on a missing field: %v", err)
	}
}
