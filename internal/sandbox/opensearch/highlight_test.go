package opensearch

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// searchHighlight runs a search and returns the "highlight" of the hit with the given id.
func searchHighlight(t *testing.T, c *Cluster, path, body, id string) map[string][]string {
	t.Helper()
	code, m := doJSON(t, c.Handler(), "POST", path, body)
	mustStatus(t, 200, code, m)
	for _, x := range get(m, "hits.hits").([]any) {
		hit := x.(map[string]any)
		if hit["_id"] != id {
			continue
		}
		hl, ok := hit["highlight"]
		if !ok {
			return nil
		}
		var out map[string][]string
		b, _ := json.Marshal(hl)
		_ = json.Unmarshal(b, &out)
		return out
	}
	t.Fatalf("hit %s not found: %v", id, m)
	return nil
}

// Checked against search.highlight/10_unified.yml "Basic" (OpenSearch YAML REST tests): a
// multi_match over text* highlighted with fields "*" wraps each term, also in the multi-fields.
func TestHighlightLikeTheUnifiedHighlighter(t *testing.T) {
	c := newTestCluster(t)
	h := c.Handler()
	code, m := doJSON(t, h, "PUT", "/test", `{"mappings":{"properties":{"text":{"type":"text","fields":{
		"fvh":{"type":"text","term_vector":"with_positions_offsets"},"postings":{"type":"text","index_options":"offsets"}}}}}}`)
	mustStatus(t, 200, code, m)
	do(t, h, "PUT", "/test/_doc/1?refresh=true", `{"text":"The quick brown fox is brown."}`)
	got := searchHighlight(t, c, "/test/_search",
		`{"query":{"multi_match":{"query":"quick brown fox","fields":["text*"]}},"highlight":{"type":"unified","fields":{"*":{}}}}`, "1")
	want := "The <em>quick</em> <em>brown</em> <em>fox</em> is <em>brown</em>."
	for _, f := range []string{"text", "text.fvh", "text.postings"} {
		if len(got[f]) != 1 || got[f][0] != want {
			t.Errorf("highlight.%s = %q, want [%q]", f, got[f], want)
		}
	}
}

func TestHighlightQueriesAndOptions(t *testing.T) {
	c, _ := loadFixture(t)
	cases := []struct {
		name, body, id string
		want           map[string][]string
	}{
		{"match, default tags", `{"query":{"match":{"body":"fox"}},"highlight":{"fields":{"body":{}}}}`, "1",
			map[string][]string{"body": {"the quick brown <em>fox</em> jumps over the lazy dog"}}},
		{"custom tags", `{"query":{"match":{"body":"lazy"}},"highlight":{"pre_tags":["<b>"],"post_tags":["</b>"],"fields":{"body":{}}}}`, "2",
			map[string][]string{"body": {"a <b>lazy</b> dog sleeps all day long"}}},
		{"phrase marks only the phrase", `{"query":{"match_phrase":{"body":"brown fox"}},"highlight":{"fields":{"body":{}}}}`, "1",
			map[string][]string{"body": {"the quick <em>brown</em> <em>fox</em> jumps over the lazy dog"}}},
		{"phrase elsewhere in the text is not marked", `{"query":{"match_phrase":{"body":"lazy dog"}},"highlight":{"fields":{"body":{}}}}`, "2",
			map[string][]string{"body": {"a <em>lazy</em> <em>dog</em> sleeps all day long"}}},
		{"query_string over every field", `{"query":{"query_string":{"query":"fox"}},"highlight":{"fields":{"*":{}}}}`, "3",
			map[string][]string{"body": {"<em>fox</em> <em>fox</em> <em>fox</em> reporting live"}, "title": {"<em>Fox</em> news"}}},
		{"term on a keyword marks the value", `{"query":{"term":{"category":"news"}},"highlight":{"fields":{"category":{}}}}`, "3",
			map[string][]string{"category": {"<em>news</em>"}}},
		{"require_field_match keeps other fields out", `{"query":{"match":{"title":"butter"}},"highlight":{"fields":{"body":{}}}}`, "4", nil},
		{"require_field_match false", `{"query":{"match":{"title":"butter"}},"highlight":{"require_field_match":false,"fields":{"body":{}}}}`, "4",
			map[string][]string{"body": {"<em>butter</em> makes everything better"}}},
		{"bool filter clauses highlight, must_not ones do not", `{"query":{"bool":{"filter":[{"match":{"body":"butter"}}],"must_not":[{"match":{"body":"makes"}}]}},"highlight":{"fields":{"body":{}}}}`, "5",
			map[string][]string{"body": {"brown bread recipe with <em>butter</em>"}}},
		{"highlight_query", `{"query":{"match":{"body":"bread"}},"highlight":{"fields":{"body":{"highlight_query":{"match":{"body":"recipe"}}}}}}`, "5",
			map[string][]string{"body": {"brown bread <em>recipe</em> with butter"}}},
		{"prefix", `{"query":{"prefix":{"body":"rep"}},"highlight":{"fields":{"body":{}}}}`, "3",
			map[string][]string{"body": {"fox fox fox <em>reporting</em> live"}}},
		{"no match and no_match_size", `{"query":{"match":{"body":"butter"}},"highlight":{"fields":{"title":{"no_match_size":7}}}}`, "4",
			map[string][]string{"title": {"Cooking"}}},
	}
	for _, tc := range cases {
		got := searchHighlight(t, c, "/docs/_search", tc.body, tc.id)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: highlight = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// Fragments: the sentence holding a match, grown by the next sentences up to fragment_size; the
// best number_of_fragments in text order; number_of_fragments:0 gives the whole value.
func TestHighlightFragments(t *testing.T) {
	c := newTestCluster(t)
	h := c.Handler()
	msg := "Payment gateway timeout for order 42. Retrying in 5 seconds. The retry failed again with a timeout. " +
		"Giving up after three attempts and notifying the on-call engineer about the payment outage in the eu-west region."
	do(t, h, "PUT", "/logs/_doc/1?refresh=true", `{"message":`+mustQuote(msg)+`}`)
	frag := func(body string) []string {
		return searchHighlight(t, c, "/logs/_search", body, "1")["message"]
	}
	got := frag(`{"query":{"match":{"message":"timeout"}},"highlight":{"fields":{"message":{"fragment_size":70}}}}`)
	want := []string{"Payment gateway <em>timeout</em> for order 42. Retrying in 5 seconds.",
		"The retry failed again with a <em>timeout</em>."}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fragment_size 70:\n got %q\nwant %q", got, want)
	}
	got = frag(`{"query":{"match":{"message":"timeout payment"}},"highlight":{"fields":{"message":{"fragment_size":70,"number_of_fragments":1}}}}`)
	want = []string{"<em>Payment</em> gateway <em>timeout</em> for order 42. Retrying in 5 seconds."}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("one fragment, the one with most terms:\n got %q\nwant %q", got, want)
	}
	got = frag(`{"query":{"match":{"message":"engineer"}},"highlight":{"fields":{"message":{"fragment_size":30}}}}`)
	if len(got) != 1 || !strings.Contains(got[0], "<em>engineer</em>") || len(got[0]) > 30+len("<em></em>")+20 || strings.HasPrefix(got[0], "Giving") {
		t.Errorf("a long sentence is cut around the match: %q", got)
	}
	got = frag(`{"query":{"match":{"message":"timeout"}},"highlight":{"number_of_fragments":0,"fields":{"message":{}}}}`)
	if len(got) != 1 || got[0] != strings.ReplaceAll(msg, "timeout", "<em>timeout</em>") {
		t.Errorf("number_of_fragments 0: %q", got)
	}
	do(t, h, "PUT", "/logs/_doc/2?refresh=true", `{"message":"a <b> tag & a timeout"}`)
	got = searchHighlight(t, c, "/logs/_search", `{"query":{"match":{"message":"tag"}},"highlight":{"encoder":"html","fields":{"message":{}}}}`, "2")["message"]
	if len(got) != 1 || got[0] != "a &lt;b&gt; <em>tag</em> &amp; a timeout" {
		t.Errorf("encoder html: %q", got)
	}
}

func mustQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
