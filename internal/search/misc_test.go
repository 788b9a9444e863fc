package search

import (
	"net/http"
	"strings"
	"testing"
)

func TestClientOptions(t *testing.T) {
	_, tg := newFakeEngine(t)
	tr := &http.Transport{MaxIdleConnsPerHost: 3}
	c := newTestClient(t, tg, WithUserAgent("svcui-test/1"), WithTransport(tr))
	// (Clone lets net/http add HTTP/2 defaults to the original; our CA must not leak into it.)
	if tr.TLSClientConfig != nil && (tr.TLSClientConfig.RootCAs != nil || tr.TLSClientConfig.ServerName != "") {
		t.Fatal("caller's transport got the target's TLS settings")
	}
	resp, err := c.Do(ctxT(t), Request{Method: "GET", Path: typedPath("/echo")})
	if err != nil || resp.Status != 200 || resp.Header.Get("X-User-Agent") != "svcui-test/1" {
		t.Fatalf("%v %v", resp, err)
	}
}

// The client speaks HTTP/1.1 to a host that offers HTTP/2 too: the release binary is
// built without HTTP/2, and every build talks as it does.
func TestClientSpeaksHTTP11(t *testing.T) {
	_, tg := newFakeEngine(t)
	for _, c := range []*Client{newTestClient(t, tg), newTestClient(t, tg, WithTransport(&http.Transport{}))} {
		resp, err := c.Do(ctxT(t), Request{Method: "GET", Path: typedPath("/echo")})
		if err != nil || resp.Header.Get("X-Proto") != "HTTP/1.1" {
			t.Fatalf("protocol %q (%v)", resp.Header.Get("X-Proto"), err)
		}
	}
}

func TestTookOf(t *testing.T) {
	if n := tookOf([]byte(`{"took": 12.7}`)); n == nil || *n != 12 {
		t.Fatalf("float took = %v", n)
	}
	for _, b := range []string{``, `[1]`, `{"took":"x"}`, `{"a":1}`, `{bad`} {
		if tookOf([]byte(b)) != nil {
			t.Fatalf("took from %q", b)
		}
	}
}

func TestFlexNumbers(t *testing.T) {
	if flexInt([]byte(`"12.9"`)) != 12 || flexInt([]byte(`"x"`)) != 0 || flexInt(nil) != 0 || flexInt([]byte(`null`)) != 0 {
		t.Fatal("flexInt")
	}
}

func TestParsedRequestString(t *testing.T) {
	r := ParseBuffer("put /x\n{\"a\": 1}\n")[0]
	if r.String() != "PUT /x\n{\"a\": 1}" || (ParsedRequest{Method: "GET", Path: "/"}).String() != "GET /" {
		t.Fatalf("%q", r.String())
	}
}

func TestShapeAggsSubStatsAndNestedBuckets(t *testing.T) {
	tabs, err := ShapeAggs([]byte(`{"aggregations":{"t":{"buckets":[{"key":"a","doc_count":2,
	  "s":{"count":2,"min":1,"max":3},"d":{"value":5,"value_as_string":"five"},
	  "x":{"buckets":[{"key":1,"doc_count":1}]},"y":{"buckets":[{"key":2,"doc_count":1}]},
	  "f":{"doc_count":1,"m":{"value":9}},"score":0.5}]},
	  "th":{"hits":{"total":{"value":1},"hits":[{"_id":"1"}]}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(tabs[0].Columns, ",")
	if got != "key,doc_count,s.count,s.min,s.max,d,x.key,x.doc_count,y,f.doc_count,f.m.value,score" {
		t.Fatalf("columns = %s", got)
	}
	row := strings.Join(tabs[0].Rows[0], "|")
	if row != `a|2|2|1|3|five|1|1|{"buckets":[{"key":2,"doc_count":1}]}|1|9|0.5` {
		t.Fatalf("row = %s", row)
	}
	if tabs[1].Kind != AggGeneric {
		t.Fatalf("top_hits kind = %s", tabs[1].Kind)
	}
}

func TestErrorFirstLine(t *testing.T) {
	e := ShapeError(502, []byte("<html>\nBad gateway\n</html>"))
	if e.Reason != "<html>" || !strings.Contains(e.Raw, "Bad gateway") {
		t.Fatalf("%+v", e)
	}
}
