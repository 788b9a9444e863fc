package search

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// fakeBulk is a _bulk endpoint that rejects documents carrying "bad": true and
// records what it received.
type fakeBulk struct {
	mu        sync.Mutex
	requests  int
	docs      int
	maxBody   int
	status    []int // statuses to answer before succeeding (for retries)
	lastCT    string
	lastPath  string
	actionsIn []string
}

func (f *fakeBulk) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests++
	f.lastCT, f.lastPath = r.Header.Get("Content-Type"), r.URL.Path
	if len(f.status) > 0 {
		st := f.status[0]
		f.status = f.status[1:]
		w.WriteHeader(st)
		io.WriteString(w, `{"error":{"type":"x","reason":"try later"},"status":`+strconv.Itoa(st)+`}`)
		return
	}
	body, _ := io.ReadAll(r.Body)
	if len(body) > f.maxBody {
		f.maxBody = len(body)
	}
	if len(body) == 0 || body[len(body)-1] != '\n' {
		w.WriteHeader(400)
		io.WriteString(w, `{"error":{"type":"illegal_argument_exception","reason":"The bulk request must be terminated by a newline [\\n]"},"status":400}`)
		return
	}
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, 1<<20)
	var items []string
	errorsSeen := false
	for sc.Scan() {
		var action map[string]map[string]any
		if err := json.Unmarshal(sc.Bytes(), &action); err != nil {
			w.WriteHeader(400)
			io.WriteString(w, `{"error":{"type":"parse_exception","reason":"bad action"},"status":400}`)
			return
		}
		var op string
		for k := range action {
			op = k
		}
		f.actionsIn = append(f.actionsIn, op)
		if op == "delete" {
			items = append(items, `{"delete":{"_id":"d","status":404,"result":"not_found"}}`)
			continue
		}
		sc.Scan()
		var doc map[string]any
		json.Unmarshal(sc.Bytes(), &doc)
		f.docs++
		if doc["bad"] == true {
			errorsSeen = true
			items = append(items, `{"index":{"_id":"x`+strconv.Itoa(f.docs)+`","status":400,"error":{"type":"mapper_parsing_exception","reason":"failed to parse field [bad]"}}}`)
			continue
		}
		items = append(items, `{"index":{"_id":"`+strconv.Itoa(f.docs)+`","status":201,"result":"created"}}`)
	}
	fmt.Fprintf(w, `{"took":1,"errors":%v,"items":[%s]}`, errorsSeen, strings.Join(items, ","))
}

func newBulkClient(t *testing.T, h http.Handler) *Client {
	t.Helper()
	srv := startTLS(t, h)
	u, _ := url.Parse(srv.URL)
	port, _ := strconv.Atoi(u.Port())
	return newTestClient(t, Target{Host: u.Hostname(), Port: port, CACertPEM: serverCAPEM(srv)})
}

func TestBulkLoadPlainDocuments(t *testing.T) {
	fb := &fakeBulk{}
	c := newBulkClient(t, fb)
	var in strings.Builder
	for i := 1; i <= 25; i++ {
		switch i {
		case 5:
			in.WriteString("not json\n")
		case 7:
			in.WriteString(`{"n": 7, "bad": true}` + "\r\n")
		case 9:
			in.WriteString("\n")
		case 11:
			in.WriteString(`{"big":"` + strings.Repeat("x", 300) + `"}` + "\n")
		default:
			fmt.Fprintf(&in, `{"n": %d}`+"\n", i)
		}
	}
	in.WriteString(`{"last": true}`) // no final newline
	var progress []BulkProgress
	res, err := BulkLoad(ctxT(t), c, "logs", strings.NewReader(in.String()), BulkOptions{BatchDocs: 10, MaxLineBytes: 200}, func(p BulkProgress) { progress = append(progress, p) })
	if err != nil {
		t.Fatal(err)
	}
	// 26 lines, one blank: 25 documents; 2 fail locally, 1 rejected by the engine.
	if res.Docs != 25 || res.Succeeded != 22 || res.Failed != 3 || res.PairsInput {
		t.Fatalf("result = %+v", res)
	}
	if res.Batches != 3 || fb.requests != 3 || fb.docs != 23 {
		t.Fatalf("batches %d, requests %d, docs %d", res.Batches, fb.requests, fb.docs)
	}
	if fb.lastCT != ContentTypeNDJSON || fb.lastPath != "/logs/_bulk" {
		t.Fatalf("content type %q, path %q", fb.lastCT, fb.lastPath)
	}
	want := []BulkFailure{
		// Local failures are known at once; the engine's come with its answer to the batch.
		{Line: 5, Type: "parse_error", Reason: "the line is not a JSON object"},
		{Line: 11, Type: "line_too_long", Reason: "line longer than 200 bytes"},
		{Line: 7, ID: "x6", Status: 400, Type: "mapper_parsing_exception", Reason: "failed to parse field [bad]"},
	}
	if fmt.Sprint(res.Failures) != fmt.Sprint(want) {
		t.Fatalf("failures = %+v", res.Failures)
	}
	if int(res.BytesRead) != in.Len() {
		t.Fatalf("bytes read %d of %d", res.BytesRead, in.Len())
	}
	lastP := progress[len(progress)-1]
	if lastP.DocsSent != 23 || lastP.DocsFailed != 3 || lastP.Batches != 3 || lastP.BytesRead != res.BytesRead {
		t.Fatalf("progress = %+v", progress)
	}
}

func TestBulkLoadPairsInput(t *testing.T) {
	fb := &fakeBulk{}
	c := newBulkClient(t, fb)
	in := `{"index":{"_index":"other","_id":"1"}}
{"a":1}
{"delete":{"_id":"9"}}
{"create":{}}
{"a":2}
{"index":{}}
[1,2]
{"update":{"_id":"1"}}
`
	res, err := BulkLoad(ctxT(t), c, "logs", strings.NewReader(in), BulkOptions{BatchDocs: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.PairsInput || res.Docs != 5 || res.Succeeded != 3 || res.Failed != 2 {
		t.Fatalf("result = %+v", res)
	}
	if res.Failures[0].Line != 7 || res.Failures[0].Type != "parse_error" || res.Failures[1].Line != 8 || res.Failures[1].Type != "missing_document" {
		t.Fatalf("failures = %+v", res.Failures)
	}
	if strings.Join(fb.actionsIn, ",") != "index,delete,create" {
		t.Fatalf("actions sent = %v", fb.actionsIn)
	}
}

func TestBulkLoadBatchBytesBoundsRequests(t *testing.T) {
	fb := &fakeBulk{}
	c := newBulkClient(t, fb)
	var in strings.Builder
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&in, `{"i":%d,"pad":"%s"}`+"\n", i, strings.Repeat("p", 100))
	}
	res, err := BulkLoad(ctxT(t), c, "logs", strings.NewReader(in.String()), BulkOptions{BatchBytes: 2000}, nil)
	if err != nil || res.Succeeded != 200 {
		t.Fatalf("%+v %v", res, err)
	}
	if fb.maxBody > 2000 || res.Batches < 10 {
		t.Fatalf("largest body %d bytes over %d batches", fb.maxBody, res.Batches)
	}
}

func TestBulkLoadRetriesThenFails(t *testing.T) {
	fb := &fakeBulk{status: []int{429, 503}}
	c := newBulkClient(t, fb)
	res, err := BulkLoad(ctxT(t), c, "logs", strings.NewReader("{\"a\":1}\n"), BulkOptions{}, nil)
	if err != nil || res.Succeeded != 1 || fb.requests != 3 {
		t.Fatalf("retry: %+v %v (%d requests)", res, err, fb.requests)
	}
	fb = &fakeBulk{status: []int{403}}
	c = newBulkClient(t, fb)
	_, err = BulkLoad(ctxT(t), c, "logs", strings.NewReader("{\"a\":1}\n"), BulkOptions{}, nil)
	var ee *EngineError
	if !errors.As(err, &ee) || ee.Status != 403 || fb.requests != 1 {
		t.Fatalf("403: %v after %d requests", err, fb.requests)
	}
}

func TestBulkLoadCancel(t *testing.T) {
	fb := &fakeBulk{}
	c := newBulkClient(t, fb)
	ctx, cancel := context.WithCancel(context.Background())
	var in strings.Builder
	for i := 0; i < 100; i++ {
		in.WriteString("{\"a\":1}\n")
	}
	res, err := BulkLoad(ctx, c, "logs", strings.NewReader(in.String()), BulkOptions{BatchDocs: 10}, func(p BulkProgress) {
		if p.Batches == 2 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || res.Batches != 2 || fb.requests != 2 {
		t.Fatalf("cancel: %v, %d batches, %d requests", err, res.Batches, fb.requests)
	}
	if _, err := BulkLoad(context.Background(), c, " ", strings.NewReader(""), BulkOptions{}, nil); err == nil {
		t.Fatal("empty index accepted")
	}
}

func TestReadLimitedLine(t *testing.T) {
	br := bufio.NewReaderSize(strings.NewReader("short\n"+strings.Repeat("y", 100)+"\nend"), 16)
	l, n, long, err := readLimitedLine(br, nil, 10)
	if string(l) != "short" || n != 6 || long || err != nil {
		t.Fatalf("%q %d %v %v", l, n, long, err)
	}
	l, n, long, err = readLimitedLine(br, l[:0], 10)
	if len(l) != 0 || n != 101 || !long || err != nil {
		t.Fatalf("long: %q %d %v %v", l, n, long, err)
	}
	l, n, long, err = readLimitedLine(br, l[:0], 10)
	if string(l) != "end" || n != 3 || long || err != io.EOF {
		t.Fatalf("last: %q %d %v %v", l, n, long, err)
	}
}
