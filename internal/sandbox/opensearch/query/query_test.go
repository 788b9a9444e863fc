package query_test

import (
	"math"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index/indextest"
	"github.com/svcui/svcui/internal/sandbox/opensearch/query"
)

var now = time.Date(2024, 3, 15, 12, 0, 0, 0, time.UTC)

const mapping = `{"properties":{"body":{"type":"text"},"tag":{"type":"keyword"},"n":{"type":"long"},"at":{"type":"date"}}}`

// newIndex is five small documents: ids 1 to 5.
func newIndex(t *testing.T) *index.Index {
	return indextest.New(t, mapping,
		`{"body":"the quick brown fox","tag":"animal","n":1,"at":"2024-03-01"}`,
		`{"body":"fox fox fox","tag":"animal","n":5,"at":"2024-03-10"}`,
		`{"body":"a lazy brown dog sleeps all day long","tag":"animal","n":10,"at":"2024-03-14"}`,
		`{"body":"brown bread","tag":"food","n":20}`,
		`{"tag":["food","news"]}`,
	)
}

// run parses a query and evaluates it over ix: the matching ids in slot order and their scores.
func run(t *testing.T, ix *index.Index, q string) ([]string, map[string]float32) {
	t.Helper()
	parsed, err := query.Parse(indextest.Decode(t, q))
	if err != nil {
		t.Fatalf("%s: %s %s", q, err.Type, err.Reason)
	}
	m, err := parsed.Eval(&query.Context{Index: ix, Now: now})
	if err != nil {
		t.Fatalf("%s: %s %s", q, err.Type, err.Reason)
	}
	ids := []string{}
	scores := map[string]float32{}
	index.ForEach(query.AndBits(m.Bits, ix.Live), func(s int32) {
		id := ix.Docs[s].ID
		ids = append(ids, id)
		scores[id] = m.ScoreOf(s)
	})
	return ids, scores
}

func TestQueriesMatch(t *testing.T) {
	ix := newIndex(t)
	cases := []struct {
		q    string
		want []string
	}{
		{`{}`, []string{"1", "2", "3", "4", "5"}},
		{`{"match_all":{}}`, []string{"1", "2", "3", "4", "5"}},
		{`{"match_none":{}}`, []string{}},
		{`{"match":{"body":"fox"}}`, []string{"1", "2"}},
		{`{"match":{"body":"Brown DOG"}}`, []string{"1", "3", "4"}},
		{`{"match":{"body":{"query":"brown dog","operator":"and"}}}`, []string{"3"}},
		{`{"match_phrase":{"body":"brown fox"}}`, []string{"1"}},
		{`{"term":{"tag":"food"}}`, []string{"4", "5"}},
		{`{"term":{"tag":"Food"}}`, []string{}},
		{`{"terms":{"tag":["news","animal"]}}`, []string{"1", "2", "3", "5"}},
		{`{"range":{"n":{"gte":5,"lt":20}}}`, []string{"2", "3"}},
		{`{"range":{"at":{"gte":"now-7d/d"}}}`, []string{"2", "3"}},
		{`{"exists":{"field":"body"}}`, []string{"1", "2", "3", "4"}},
		{`{"ids":{"values":["4","2","9"]}}`, []string{"2", "4"}},
		{`{"prefix":{"tag":"ani"}}`, []string{"1", "2", "3"}},
		{`{"wildcard":{"tag":"*o*"}}`, []string{"4", "5"}},
		{`{"bool":{"must":[{"match":{"body":"brown"}}],"must_not":[{"term":{"tag":"food"}}]}}`, []string{"1", "3"}},
		{`{"bool":{"should":[{"term":{"n":1}},{"term":{"n":20}}]}}`, []string{"1", "4"}},
		{`{"bool":{"filter":[{"term":{"tag":"animal"}}],"should":[{"match":{"body":"fox"}}],"minimum_should_match":1}}`, []string{"1", "2"}},
		{`{"query_string":{"query":"body:fox AND tag:animal"}}`, []string{"1", "2"}},
		{`{"fuzzy":{"body":{"value":"brwn"}}}`, []string{"1", "3", "4"}},
	}
	for _, tc := range cases {
		if got, _ := run(t, ix, tc.q); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s matched %v, want %v", tc.q, got, tc.want)
		}
	}
}

func TestParseRefusals(t *testing.T) {
	cases := []struct{ q, typ, reason string }{
		{`{"bogus":{}}`, "parsing_exception", "unknown query [bogus]"},
		{`{"term":{"tag":"a"},"match":{"body":"b"}}`, "parsing_exception", "[match] malformed query, expected [END_OBJECT] but found [FIELD_NAME]"},
		{`[1]`, "parsing_exception", "[_na] query malformed, must start with start_object"},
	}
	for _, tc := range cases {
		_, err := query.Parse(indextest.Decode(t, tc.q))
		if err == nil || err.Type != tc.typ || err.Reason != tc.reason {
			t.Errorf("%s: error = %+v, want %s %q", tc.q, err, tc.typ, tc.reason)
		}
	}
}

// Scores are Lucene's BM25 (k1 1.2, b 0.75, no (k1+1) factor): a rarer term and a shorter field
// score higher, and repeated terms raise the score with diminishing returns.
func TestBM25Scores(t *testing.T) {
	ix := newIndex(t)
	_, scores := run(t, ix, `{"match":{"body":"brown"}}`)
	// "brown" is in 3 of the 4 documents with a body; lengths 4, 8, 2 (average 17/4).
	bm25 := func(tf, dl, df float64) float32 {
		idf := math.Log(1 + (4-df+0.5)/(df+0.5))
		return float32(idf * tf / (tf + 1.2*(1-0.75+0.75*dl/(17.0/4))))
	}
	want := map[string]float32{"1": bm25(1, 4, 3), "3": bm25(1, 8, 3), "4": bm25(1, 2, 3)}
	for id, w := range want {
		if math.Abs(float64(scores[id]-w)) > 1e-6 {
			t.Errorf("score of %s = %v, want %v", id, scores[id], w)
		}
	}
	ids := make([]string, 0, len(scores))
	for id := range scores {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return scores[ids[i]] > scores[ids[j]] })
	if !reflect.DeepEqual(ids, []string{"4", "1", "3"}) {
		t.Errorf("order by score = %v, want the shortest body first", ids)
	}
	_, fox := run(t, ix, `{"match":{"body":"fox"}}`)
	if !(fox["2"] > fox["1"]) || fox["2"] > 3*fox["1"] {
		t.Errorf("fox scores %v: three occurrences in a short body must beat one, by less than three times", fox)
	}
	_, both := run(t, ix, `{"match":{"body":"brown fox"}}`)
	if math.Abs(float64(both["1"]-(scores["1"]+fox["1"]))) > 1e-5 {
		t.Errorf("a two-term match scores %v for doc 1, want the sum of its terms' %v", both["1"], scores["1"]+fox["1"])
	}
	_, boosted := run(t, ix, `{"match":{"body":{"query":"brown","boost":2}}}`)
	if math.Abs(float64(boosted["4"]-2*scores["4"])) > 1e-6 {
		t.Errorf("boost 2 scores %v, want twice %v", boosted["4"], scores["4"])
	}
	_, filtered := run(t, ix, `{"bool":{"filter":[{"match":{"body":"brown"}}]}}`)
	if filtered["4"] != 0 {
		t.Errorf("a filter clause scores %v, want 0", filtered["4"])
	}
}
