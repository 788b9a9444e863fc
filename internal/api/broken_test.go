package api

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"
)

// listWithin runs ListProjects with a timeout of d and fails the test when it has not
// returned 5 s after (readList once spun on a broken answer for ever, whatever its
// context; the test must not hang with it).
func listWithin(t *testing.T, c *Client, d time.Duration) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	done := make(chan error, 1)
	go func() {
		_, err := c.ListProjects(ctx)
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(d + 5*time.Second):
		t.Fatalf("ListProjects has not returned after %s: the decoder loops on a broken answer", d)
		return nil
	}
}

// An entry larger than the cap ends the list at once with the cap's sentence, and is
// not retried: it used to count as one unreadable entry, and Decode returned the same
// error for ever while More stayed true.
func TestBrokenListTooLargeEntryEndsAtOnce(t *testing.T) {
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(200)
		_, _ = w.Write([]byte(`{"projects":[{"project_name":"a"},{"project_name":"b","pad":"`))
		chunk := bytes.Repeat([]byte("x"), 1<<20)
		for range 5 {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
		_, _ = w.Write([]byte(`"}]}`))
	}))
	c.responseCap = 2 << 20
	start := time.Now()
	err := listWithin(t, c, 5*time.Second)
	if err == nil || !errorsIs(err, errResponseTooLarge) {
		t.Fatalf("err = %v, want the answer refused as too large", err)
	}
	if c.Stats().Retries != 0 {
		t.Errorf("a too-large answer was retried: %+v", c.Stats())
	}
	if !strings.Contains(err.Error(), "larger than") {
		t.Errorf("error %q does not say the answer is too large", err)
	}
	t.Logf("refused after %s: %v", time.Since(start).Round(time.Millisecond), err)
}

// Part of an entry, then a connection reset: a transport error, retried like any other
// (the recorded sleeps return at once), then said; never a loop.
func TestBrokenListConnectionResetEndsAtOnce(t *testing.T) {
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(200)
		_, _ = w.Write([]byte(`{"projects":[{"project_name":"a"},{"project_name":"b","account_name":"Acme`))
		w.(http.Flusher).Flush()
		resetConn(t, w)
	}))
	err := listWithin(t, c, 5*time.Second)
	if err == nil {
		t.Fatal("a list cut by a reset was accepted")
	}
	if got := c.Stats(); got.Skipped != 0 {
		t.Errorf("the broken entry was counted as skipped (%+v); the answer is broken, not the entry", got)
	}
	if got := c.Stats().Requests; got != int64(DefaultMaxRetries+1) {
		t.Errorf("%d attempts, want %d (a reset GET is retried)", got, DefaultMaxRetries+1)
	}
}

// gzipOfSpaces is a gzip stream that inflates to n MiB of spaces between prefix and
// suffix, made of repeated members (gzip.Reader reads concatenated members as one
// stream), so building a 1 GiB bomb costs only one MiB of compression.
func gzipOfSpaces(t *testing.T, prefix string, mib int, suffix string) []byte {
	t.Helper()
	member := func(b []byte) []byte {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		_, _ = zw.Write(b)
		_ = zw.Close()
		return buf.Bytes()
	}
	spaces := member(bytes.Repeat([]byte(" "), 1<<20))
	var out bytes.Buffer
	out.Write(member([]byte(prefix)))
	for range mib {
		out.Write(spaces)
	}
	out.Write(member([]byte(suffix)))
	return out.Bytes()
}

// A gzip bomb (1 GiB of whitespace inside the list) is refused at the cap, at once:
// it took 17.5 s and 117 MiB when json.Decoder rescanned the growing whitespace.
func TestGzipBombRefusedAtTheCap(t *testing.T) {
	bomb := gzipOfSpaces(t, `{"projects":[`, 1024, `]}`)
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Encoding", "gzip")
		w.WriteHeader(200)
		_, _ = w.Write(bomb)
	}))
	runtime.GC()
	base := heapObjects()
	mem := startMemSampler()
	start := time.Now()
	err := listWithin(t, c, raceSlack*30*time.Second)
	took := time.Since(start)
	peak := float64(max(mem.finish(), base)-base) / mb
	if err == nil || !errorsIs(err, errResponseTooLarge) {
		t.Fatalf("err = %v, want the bomb refused at the cap", err)
	}
	// The decoder's buffer once grew to hold the whitespace: 117 MiB.
	if peak > 48 {
		t.Errorf("the heap grew by %.0f MiB while refusing the bomb", peak)
	}
	// Generous for a shared machine: the fixed decoder takes about 0.1 s (3.7 s with
	// the race detector); it took 17.5 s.
	if took > raceSlack*3*time.Second {
		t.Errorf("refused after %s, want within a few seconds of reaching the cap", took)
	}
	t.Logf("1 GiB gzip bomb (%d KiB compressed) refused after %s, heap +%.1f MiB", len(bomb)>>10, took.Round(time.Millisecond), peak)
}

// smallReads hands over its content n bytes at a time, as a decompressor does.
type smallReads struct {
	b []byte
	n int
}

func (r *smallReads) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), r.n)], r.b)
	r.b = r.b[k:]
	return k, nil
}

// Whitespace between tokens, arriving 4 KiB at a time, is read in linear time; the
// decoder rescanned the run at every read (16 MiB: minutes). Whitespace inside a string
// is kept whole.
func TestSpaceRunsInSmallReads(t *testing.T) {
	name := "a" + strings.Repeat(" ", 5000) + "b"
	body := `{"projects":[` + strings.Repeat(" ", 16<<20) + `{"project_name":"` + name + `"},` +
		strings.Repeat("\n\t", 1<<20) + `{"project_name":"c\" ` + strings.Repeat(" ", 5000) + `"}]}`
	done := make(chan struct{})
	var v any
	var err error
	start := time.Now()
	go func() {
		defer close(done)
		v, err = projectListDecoder.read(ctxT(t), newAnswerDecoder(&smallReads{b: []byte(body), n: 4 << 10}), -1)
	}()
	select {
	case <-done:
	case <-time.After(raceSlack * 20 * time.Second):
		t.Fatal("18 MiB of whitespace in 4 KiB reads not read after 20 s")
	}
	if err != nil {
		t.Fatal(err)
	}
	ps := v.(*projectListAnswer).pl.Projects
	if len(ps) != 2 || ps[0].ProjectName != name || ps[1].ProjectName != `c" `+strings.Repeat(" ", 5000) {
		t.Fatalf("%d projects; whitespace inside names was not kept", len(ps))
	}
	if took := time.Since(start); took > raceSlack*3*time.Second {
		t.Errorf("took %s", took)
	}
}

// A list whose context ends while it is read stops there.
func TestListStopsWhenItsContextEnds(t *testing.T) {
	var body strings.Builder
	body.WriteString(`{"projects":[`)
	for i := range 10 * ctxEvery {
		if i > 0 {
			body.WriteByte(',')
		}
		body.WriteString(`{"project_name":"p"}`)
	}
	body.WriteString(`]}`)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := projectListDecoder.read(ctx, newAnswerDecoder(strings.NewReader(body.String())), -1)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want the list stopped by its context", err)
	}
}

// The whitespace limiter leaves JSON whose runs are short as it is, whatever the reads'
// sizes (a string or an escape split between reads), and leaves long runs' JSON with
// the same meaning.
func TestSpaceLimiterKeepsJSON(t *testing.T) {
	docs := []string{
		`{"a":"x\\","b":"\"  \"","c":[1, 2,	3],"d":"\\\\\"}{"}`,
		"{\n  \"projects\": [\n    {\"project_name\": \"a b\\\\\"},\n    null\n  ]\n}\n",
		`"` + strings.Repeat(`\"`, 100) + strings.Repeat(" ", 9000) + `"`,
	}
	for _, doc := range docs {
		for _, n := range []int{1, 2, 3, 7, 64, 1 << 20} {
			out, err := io.ReadAll(&spaceLimiter{r: &smallReads{b: []byte(doc), n: n}})
			if err != nil || string(out) != doc {
				t.Errorf("reads of %d: %q became %q (%v)", n, doc, out, err)
			}
		}
	}
	long := `{"a":` + strings.Repeat(" \n", 10000) + `"x  y",` + strings.Repeat("\t", 10000) + `"b":[` + strings.Repeat(" ", 5000) + `1]}`
	for _, n := range []int{1, 5, 4096} {
		out, err := io.ReadAll(&spaceLimiter{r: &smallReads{b: []byte(long), n: n}})
		var got, want any
		if err != nil || len(out) > len(long)-20000 || json.Unmarshal(out, &got) != nil || json.Unmarshal([]byte(long), &want) != nil ||
			fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("reads of %d: %d bytes, %v: %v", n, len(out), err, got)
		}
	}
}
