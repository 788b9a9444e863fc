package index_test

import (
	"reflect"
	"testing"

	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index/indextest"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

const testMapping = `{"dynamic":"strict","properties":{
	"title":{"type":"text","fields":{"raw":{"type":"keyword"}}},
	"n":{"type":"long"},"f":{"type":"float"},"d":{"type":"date","format":"yyyy-MM-dd"},
	"k":{"type":"keyword","ignore_above":3},"b":{"type":"boolean"},
	"o":{"properties":{"x":{"type":"integer"}}}}}`

// A mapping flattens into one field per path, multi-fields and object children included, each
// with the kind its type is indexed as.
func TestParseMappingsFlattensFieldsByKind(t *testing.T) {
	m, err := index.ParseMappings(indextest.Decode(t, testMapping))
	if err != nil {
		t.Fatal(err.Reason)
	}
	want := map[string]index.Kind{"title": index.KindText, "title.raw": index.KindKeyword, "n": index.KindLong,
		"f": index.KindFloat, "d": index.KindDate, "k": index.KindKeyword, "b": index.KindBool,
		"o": index.KindObject, "o.x": index.KindLong}
	got := map[string]index.Kind{}
	for path, fd := range m.Flatten() {
		got[path] = fd.Kind
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fields = %v, want %v", got, want)
	}
	if fd := m.Flatten()["d"]; fd.Mapping.Format != "yyyy-MM-dd" {
		t.Errorf("d format = %q", fd.Mapping.Format)
	}
	if fd := m.Flatten()["k"]; fd.Mapping.IgnoreAbove != 3 {
		t.Errorf("k ignore_above = %d", fd.Mapping.IgnoreAbove)
	}
}

func TestParseMappingsRefusals(t *testing.T) {
	for body, reason := range map[string]string{
		`{"properties":{"a":{"type":"nope"}}}`: "No handler for type [nope] declared on field [a]",
		`{"properties":3}`:                     "Failed to parse mapping: properties must be an object",
		`{"dynamic":"maybe"}`:                  "Failed to parse mapping: Could not convert [dynamic] to boolean",
		`3`:                                    "Failed to parse mapping: mappings must be an object",
	} {
		_, err := index.ParseMappings(indextest.Decode(t, body))
		if err == nil || err.Type != "mapper_parsing_exception" || err.Reason != reason {
			t.Errorf("%s: error = %+v, want mapper_parsing_exception %q", body, err, reason)
		}
	}
}

// The legacy {"_doc":{...}} wrapper is read as the mapping it wraps.
func TestParseMappingsLegacyDocWrapper(t *testing.T) {
	m, err := index.ParseMappings(indextest.Decode(t, `{"_doc":{"properties":{"a":{"type":"keyword"}}}}`))
	if err != nil {
		t.Fatal(err.Reason)
	}
	if got := string(jsonout.Marshal(m.Render())); got != `{"properties":{"a":{"type":"keyword"}}}` {
		t.Errorf("rendered = %s", got)
	}
}

func TestDocumentParsingErrors(t *testing.T) {
	ix := indextest.New(t, testMapping)
	cases := []struct{ doc, typ, reason, cause string }{
		{`{"n":"abc"}`, "mapper_parsing_exception", "failed to parse field [n] of type [long] in document with id 'x'. Preview of field's value: 'abc'", `For input string: "abc"`},
		{`{"n":{"x":1}}`, "mapper_parsing_exception", "failed to parse field [n] of type [long] in document with id 'x'. Preview of field's value: '{x=1}'", "Can't get text on a START_OBJECT at 1:1"},
		{`{"d":"yesterday"}`, "mapper_parsing_exception", "failed to parse field [d] of type [date] in document with id 'x'. Preview of field's value: 'yesterday'", "failed to parse date field [yesterday] with format [yyyy-MM-dd]"},
		{`{"b":"maybe"}`, "mapper_parsing_exception", "failed to parse field [b] of type [boolean] in document with id 'x'. Preview of field's value: 'maybe'", "Failed to parse value [maybe] as only [true] or [false] are allowed."},
		{`{"zz":1}`, "strict_dynamic_mapping_exception", "mapping set to strict, dynamic introduction of [zz] within [_doc] is not allowed", ""},
	}
	for _, tc := range cases {
		src, _ := indextest.Decode(t, tc.doc).(map[string]any)
		_, err := ix.Put("x", []byte(tc.doc), src, false)
		if err == nil {
			t.Errorf("%s: accepted", tc.doc)
			continue
		}
		if err.Status != 400 || err.Type != tc.typ || err.Reason != tc.reason {
			t.Errorf("%s: error = %d %s %q, want 400 %s %q", tc.doc, err.Status, err.Type, err.Reason, tc.typ, tc.reason)
		}
		cause := ""
		if err.CausedBy != nil {
			cause = err.CausedBy.Reason
		}
		if cause != tc.cause {
			t.Errorf("%s: caused by %q, want %q", tc.doc, cause, tc.cause)
		}
	}
	if ix.Get("x") != nil || ix.LiveCount() != 0 {
		t.Errorf("a refused document was stored")
	}
}

// A document refused by the mapping leaves no dynamic field behind, even one it would have added
// before the field that failed.
func TestRefusedDocumentRollsBackDynamicFields(t *testing.T) {
	ix := indextest.New(t, `{"properties":{"n":{"type":"long"}}}`)
	src, _ := indextest.Decode(t, `{"a_new":"x","n":"abc"}`).(map[string]any)
	if _, err := ix.Put("1", nil, src, false); err == nil {
		t.Fatal("accepted")
	}
	if ix.Fields["a_new"] != nil {
		t.Errorf("field a_new was added by a refused document")
	}
	if got := string(jsonout.Marshal(ix.Mapping.Render())); got != `{"properties":{"n":{"type":"long"}}}` {
		t.Errorf("mapping = %s", got)
	}
}

func TestDynamicMappingInfersTypes(t *testing.T) {
	ix := indextest.New(t, "", `{"s":"hello world","i":3,"f":1.5,"t":true,"dt":"2024-01-01T00:00:00Z","o":{"x":"y"}}`)
	want := `{"properties":{"dt":{"type":"date"},"f":{"type":"float"},"i":{"type":"long"},` +
		`"o":{"properties":{"x":{"type":"text","fields":{"keyword":{"type":"keyword","ignore_above":256}}}}},` +
		`"s":{"type":"text","fields":{"keyword":{"type":"keyword","ignore_above":256}}},"t":{"type":"boolean"}}}`
	if got := string(jsonout.Marshal(ix.Mapping.Render())); got != want {
		t.Errorf("mapping = %s\nwant %s", got, want)
	}
	if fd := ix.Fields["o.x.keyword"]; fd == nil || fd.Kind != index.KindKeyword {
		t.Errorf("o.x.keyword = %+v", fd)
	}
}

// Doc values: dates as epoch millis, booleans as 0/1, every value of a list, keywords longer than
// ignore_above left out.
func TestDocValues(t *testing.T) {
	ix := indextest.New(t, testMapping, `{"k":"abcdef","n":[2,1],"d":"2024-01-02","b":true,"title":"Hi there"}`, `{"k":"ab","f":0.5}`)
	first, second := ix.IDs["1"], ix.IDs["2"]
	check := func(name string, got, want any) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	check("n", ix.Columns["n"].NumAt(first), []float64{2, 1})
	check("d", ix.Columns["d"].NumAt(first), []float64{1704153600000})
	check("b", ix.Columns["b"].NumAt(first), []float64{1})
	check("k of doc 1 (over ignore_above)", ix.Columns["k"].Has(first), false)
	check("k of doc 2", ix.Columns["k"].StrAt(second), []string{"ab"})
	check("title.raw", ix.Columns["title.raw"].StrAt(first), []string{"Hi there"})
	check("f of doc 1", ix.Columns["f"].Has(first), false)
	check("f of doc 2", ix.Columns["f"].NumAt(second), []float64{0.5})
}

// Writes report created, updated, deleted and not_found with versions and sequence numbers as
// the engine does; create refuses an existing id.
func TestPutRemoveVersions(t *testing.T) {
	ix := indextest.New(t, "")
	put := func(id, doc string, create bool) (index.WriteResult, *apierr.Error) {
		src, _ := indextest.Decode(t, doc).(map[string]any)
		return ix.Put(id, []byte(doc), src, create)
	}
	r, _ := put("a", `{"v":1}`, false)
	if r.Result != "created" || r.Version != 1 || r.SeqNo != 0 || r.Status != 201 {
		t.Errorf("first put = %+v", r)
	}
	r, _ = put("a", `{"v":2}`, false)
	if r.Result != "updated" || r.Version != 2 || r.SeqNo != 1 || r.Status != 200 {
		t.Errorf("second put = %+v", r)
	}
	if _, err := put("a", `{"v":3}`, true); err == nil || err.Status != 409 || err.Type != "version_conflict_engine_exception" {
		t.Errorf("create over an existing id = %+v", err)
	}
	if got := string(ix.Get("a").Raw); got != `{"v":2}` {
		t.Errorf("stored source = %s", got)
	}
	if r := ix.Remove("a"); r.Result != "deleted" || r.Version != 3 || r.Status != 200 {
		t.Errorf("remove = %+v", r)
	}
	if r := ix.Remove("a"); r.Result != "not_found" || r.Status != 404 {
		t.Errorf("second remove = %+v", r)
	}
	if r, _ := put("a", `{"v":4}`, true); r.Result != "created" || r.Version != 4 {
		t.Errorf("put after delete = %+v, want version 4, following the delete's", r)
	}
	if ix.LiveCount() != 1 {
		t.Errorf("live = %d, want 1", ix.LiveCount())
	}
}
