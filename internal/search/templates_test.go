package search

import (
	"strings"
	"testing"
)

func TestTemplatesParseAndValidate(t *testing.T) {
	tpls := Templates()
	seen := map[string]bool{}
	for _, tp := range tpls {
		if tp.Name == "" || tp.Description == "" || seen[tp.Name] {
			t.Fatalf("template %q: missing description or duplicate name", tp.Name)
		}
		seen[tp.Name] = true
		reqs := ParseBuffer(tp.Text)
		if len(reqs) != 1 {
			t.Fatalf("%s: %d requests", tp.Name, len(reqs))
		}
		p, err := Prepare(reqs[0])
		if err != nil {
			t.Fatalf("%s: %v", tp.Name, err)
		}
		if reqs[0].WantsNDJSON() != (p.ContentType == ContentTypeNDJSON) {
			t.Fatalf("%s: content type %s", tp.Name, p.ContentType)
		}
	}
	// Every shape named in the interface has a template.
	joined, all := "", ""
	for _, tp := range tpls {
		all += tp.Text
		joined += ParseBuffer(tp.Text)[0].Method + " " + ParseBuffer(tp.Text)[0].Base() + "\n"
	}
	for _, want := range []string{"PUT /logs-archive\n", "POST /logs-archive/_doc\n", "GET /logs-app/_search\n", "POST /_bulk\n", "POST /_reindex\n",
		"PUT /_index_template/", "PUT /_plugins/_ism/policies/", "POST /_plugins/_sql\n", "PUT /_plugins/_security/api/roles/",
		"GET /_cluster/health\n", "GET /_cat/indices\n", "GET /logs-app/_mapping\n", "DELETE /", "POST /_aliases\n", "GET /_alias\n",
		"GET /logs-app/_count\n"} {
		if !strings.Contains(joined, want) {
			t.Fatalf("no template for %q in\n%s", want, joined)
		}
	}
	for _, k := range []string{`"highlight"`, `"top_hits"`, `"percentiles"`, `"date_histogram": { "field": "@timestamp"`} {
		if !strings.Contains(all, k) {
			t.Fatalf("no template uses %s", k)
		}
	}
	var search string
	for _, tp := range tpls {
		if tp.Name == "Search (all options)" {
			search = tp.Text
		}
	}
	for _, k := range []string{`"query"`, `"aggs"`, `"size"`, `"from"`, `"sort"`, `"_source"`, `"track_total_hits"`} {
		if !strings.Contains(search, k) {
			t.Fatalf("search template lacks %s", k)
		}
	}
}

func TestTemplatesForAnIndexAndItsTimeField(t *testing.T) {
	m := Mapping{Indices: []IndexMapping{
		{Index: "web", Fields: []Field{{Path: "created", Type: "date"}, {Path: "time", Type: "date"}, {Path: "url", Type: "keyword"}}},
		{Index: "events", Fields: []Field{{Path: "b_at", Type: "date"}, {Path: "a_at", Type: "date_nanos"}}},
		{Index: "products", Fields: []Field{{Path: "name", Type: "text"}}},
		{Index: "logs", Fields: []Field{{Path: "@timestamp", Type: "date"}, {Path: "timestamp", Type: "date"}}},
	}}
	for idx, want := range map[string]string{"web": "time", "events": "a_at", "products": "", "logs": "@timestamp"} {
		if got := TimeField(m, idx); got != want {
			t.Errorf("%s: time field %q, want %q", idx, got, want)
		}
	}
	var latest, mapping, archive Template
	for _, tp := range TemplatesFor("web", "time") {
		switch tp.Name {
		case "Search: latest logs":
			latest = tp
		case "Mapping":
			mapping = tp
		case "Create index":
			archive = tp
		}
	}
	if !strings.HasPrefix(latest.Text, "GET /web/_search") || !strings.Contains(latest.Text, `{ "time": "desc" }`) || strings.Contains(latest.Text, "@timestamp") {
		t.Fatalf("latest logs:\n%s", latest.Text)
	}
	if mapping.Text != "GET /web/_mapping\n" || !strings.Contains(archive.Text, `"@timestamp": { "type": "date" }`) {
		t.Fatalf("mapping %q, archive:\n%s", mapping.Text, archive.Text)
	}
	for _, tp := range TemplatesFor("products", "") {
		if tp.Name == "Search: latest logs" && (!strings.Contains(tp.Description, "products has no date field") || !strings.HasPrefix(tp.Text, "GET /products/")) {
			t.Fatalf("no time field: %+v", tp)
		}
	}
}

func TestTimeFieldChoiceIsRemembered(t *testing.T) {
	dir := t.TempDir()
	if m, err := LoadTimeFields(dir); err != nil || len(m) != 0 {
		t.Fatalf("empty: %v %v", m, err)
	}
	if err := SaveTimeField(dir, "logs-*", "event.created"); err != nil {
		t.Fatal(err)
	}
	if err := SaveTimeField(dir, "web", "ts"); err != nil {
		t.Fatal(err)
	}
	if err := SaveTimeField(dir, "web", ""); err != nil {
		t.Fatal(err)
	}
	m, err := LoadTimeFields(dir)
	if err != nil || m["logs-*"] != "event.created" || len(m) != 1 {
		t.Fatalf("%v %v", m, err)
	}
}
