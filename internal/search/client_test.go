package search

import (
	"context"
	"encoding/pem"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

const (
	testUser = "avnadmin"
	testPass = "s3cr3t-Pa55w0rd"
)

// newFakeEngine starts a TLS server that demands basic auth and answers a few paths.
func newFakeEngine(t *testing.T) (*httptest.Server, Target) {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/_cluster/health", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"cluster_name":"demo","status":"yellow","timed_out":false,"number_of_nodes":"3","number_of_data_nodes":3,"active_primary_shards":5,"active_shards":10,"relocating_shards":0,"initializing_shards":0,"unassigned_shards":2,"active_shards_percent_as_number":83.3}`)
	})
	mux.HandleFunc("/_cat/indices", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("format") != "json" {
			http.Error(w, "want format=json", 400)
			return
		}
		io.WriteString(w, `[{"health":"green","status":"open","index":"logs","docs.count":"42","store.size":"12kb"},{"health":"yellow","status":"open","index":"apps","docs.count":7,"store.size":1024}]`)
	})
	mux.HandleFunc("/logs/_mapping", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"logs":{"mappings":{"properties":{"msg":{"type":"text","fields":{"keyword":{"type":"keyword","ignore_above":256}}},"host":{"properties":{"name":{"type":"keyword"}}}}}}}`)
	})
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Method", r.Method)
		w.Header().Set("X-Content-Type", r.Header.Get("Content-Type"))
		w.Header().Set("X-Query", r.URL.RawQuery)
		w.Header().Set("X-User-Agent", r.UserAgent())
		w.Header().Set("X-Proto", r.Proto)
		io.WriteString(w, `{"took":7,"echo":`+strconv.Quote(string(b))+`}`)
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Write(make([]byte, 4096))
	})
	mux.HandleFunc("/redirect-away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://example.invalid/x", http.StatusFound)
	})
	mux.HandleFunc("/redirect-home", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/echo?from=redirect", http.StatusFound)
	})
	// /slow ignores the request context on purpose: a cancelled client must give up by itself.
	stop := make(chan struct{})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-stop:
		case <-time.After(5 * time.Second):
		}
	})
	auth := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, p, ok := r.BasicAuth()
		if !ok || u != testUser || p != testPass {
			w.Header().Set("WWW-Authenticate", `Basic realm="OpenSearch Security"`)
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, "Unauthorized")
			return
		}
		mux.ServeHTTP(w, r)
	})
	srv := startTLS(t, auth)
	t.Cleanup(func() { close(stop) }) // runs before srv.Close
	u, _ := url.Parse(srv.URL)
	port, _ := strconv.Atoi(u.Port())
	return srv, Target{Host: u.Hostname(), Port: port, Username: testUser, Password: testPass, CACertPEM: serverCAPEM(srv), ServiceName: "demo-os"}
}

// startTLS starts a loopback TLS server whose handshake-failure logs are silenced
// (several tests fail handshakes on purpose).
func startTLS(t testing.TB, h http.Handler) *httptest.Server {
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.EnableHTTP2 = true // as OpenSearch's hosts may: the client still speaks HTTP/1.1
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv
}

func serverCAPEM(srv *httptest.Server) string {
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}))
}

func newTestClient(t *testing.T, tg Target, opts ...Option) *Client {
	t.Helper()
	c, err := NewClient(tg, opts...)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	return c
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestClientDoVerifiesCAAndSendsAuth(t *testing.T) {
	_, tg := newFakeEngine(t)
	c := newTestClient(t, tg)
	if c.Insecure() {
		t.Fatal("client reports insecure without being asked")
	}
	resp, err := c.Do(ctxT(t), Request{Method: "post", Path: typedPath("echo?x=1"), Body: []byte(`{"a":1}`)})
	if err != nil {
		t.Fatalf("Do: %v", err)
	}
	if resp.Status != 200 || resp.Header.Get("X-Method") != "POST" || resp.Header.Get("X-Query") != "x=1" {
		t.Fatalf("unexpected answer: %d %v", resp.Status, resp.Header)
	}
	if resp.Header.Get("X-Content-Type") != "application/json" {
		t.Fatalf("default content type = %q", resp.Header.Get("X-Content-Type"))
	}
	if resp.Took == nil || *resp.Took != 7 {
		t.Fatalf("took = %v", resp.Took)
	}
	if resp.RoundTrip <= 0 {
		t.Fatal("round trip not measured")
	}
	if !strings.Contains(string(resp.Body), `{\"a\":1}`) {
		t.Fatalf("body not echoed: %s", resp.Body)
	}
	if c.Target().Password != "" {
		t.Fatal("Target() leaks the password")
	}
}

func TestClientRefusesWrongCA(t *testing.T) {
	_, tg := newFakeEngine(t)
	// httptest servers share one built-in certificate, so make a distinct CA.
	tg.CACertPEM = otherCAPEM(t)
	c := newTestClient(t, tg)
	_, err := c.Do(ctxT(t), Request{Method: "GET", Path: typedPath("/_cluster/health")})
	if err == nil {
		t.Fatal("request succeeded with a CA that did not sign the server certificate")
	}
	if !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("error does not mention the certificate: %v", err)
	}
	if strings.Contains(err.Error(), testPass) {
		t.Fatal("error contains the password")
	}
}

func TestClientSystemRootsRefuseTestCert(t *testing.T) {
	_, tg := newFakeEngine(t)
	tg.CACertPEM = ""
	c := newTestClient(t, tg)
	if _, err := c.Do(ctxT(t), Request{Method: "GET", Path: typedPath("/")}); err == nil {
		t.Fatal("self-signed test certificate accepted against system roots")
	}
	tg.InsecureSkipVerify = true
	c = newTestClient(t, tg)
	if !c.Insecure() {
		t.Fatal("Insecure() = false with InsecureSkipVerify")
	}
	resp, err := c.Do(ctxT(t), Request{Method: "GET", Path: typedPath("/_cluster/health")})
	if err != nil || resp.Status != 200 {
		t.Fatalf("insecure request: %v", err)
	}
}

func TestClientBadCAPEM(t *testing.T) {
	_, err := NewClient(Target{Host: "h", Port: 1, CACertPEM: "not a pem"})
	if err == nil {
		t.Fatal("garbage CA accepted")
	}
	if _, err := NewClient(Target{}); err == nil {
		t.Fatal("empty host accepted")
	}
}

func TestClient401Shaped(t *testing.T) {
	_, tg := newFakeEngine(t)
	tg.Password = "wrong-password"
	c := newTestClient(t, tg)
	resp, err := c.Do(ctxT(t), Request{Method: "GET", Path: typedPath("/_cluster/health")})
	if err != nil {
		t.Fatalf("Do: %v", err)
	}
	if resp.Status != 401 {
		t.Fatalf("status %d", resp.Status)
	}
	ee := ShapeError(resp.Status, resp.Body)
	if ee.Reason != "Unauthorized" || ee.Status != 401 {
		t.Fatalf("shaped 401 = %+v", ee)
	}
	_, err = c.Health(ctxT(t))
	var target *EngineError
	if !errors.As(err, &target) || target.Status != 401 {
		t.Fatalf("Health error = %v", err)
	}
	if strings.Contains(err.Error(), "wrong-password") {
		t.Fatal("error contains the password")
	}
}

func TestClientResponseCap(t *testing.T) {
	_, tg := newFakeEngine(t)
	c := newTestClient(t, tg, WithMaxResponseBytes(1024))
	_, err := c.Do(ctxT(t), Request{Method: "GET", Path: typedPath("/big")})
	if !errors.Is(err, ErrResponseTooLarge) || !strings.Contains(err.Error(), "over the 1 KiB limit") {
		t.Fatalf("err = %v, want ErrResponseTooLarge", err)
	}
	if byteSize(64<<20) != "64 MiB" || byteSize(12) != "12 bytes" {
		t.Fatal("byteSize")
	}
}

func TestClientRedirects(t *testing.T) {
	_, tg := newFakeEngine(t)
	c := newTestClient(t, tg)
	_, err := c.Do(ctxT(t), Request{Method: "GET", Path: typedPath("/redirect-away")})
	if err == nil || !strings.Contains(err.Error(), "redirect to another host") {
		t.Fatalf("redirect away: err = %v", err)
	}
	resp, err := c.Do(ctxT(t), Request{Method: "GET", Path: typedPath("/redirect-home")})
	if err != nil || resp.Status != 200 || resp.Header.Get("X-Query") != "from=redirect" {
		t.Fatalf("same-host redirect: %v %v", err, resp)
	}
}

func TestClientContextTimeout(t *testing.T) {
	_, tg := newFakeEngine(t)
	c := newTestClient(t, tg)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	resp, err := c.Do(ctx, Request{Method: "GET", Path: typedPath("/slow")})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v (%+v), want deadline exceeded", err, resp)
	}
	c = newTestClient(t, tg, WithDefaultTimeout(100*time.Millisecond))
	if _, err := c.Do(context.Background(), Request{Method: "GET", Path: typedPath("/slow")}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("default timeout: err = %v", err)
	}
}

func TestClientPathStaysOnHost(t *testing.T) {
	_, tg := newFakeEngine(t)
	c := newTestClient(t, tg)
	u, err := c.resolve("//evil.example/x?y=1")
	if err == nil && u.Host != c.base.Host {
		t.Fatalf("path escaped to host %q", u.Host)
	}
}

func TestClientRedactsPassword(t *testing.T) {
	err := redact(errors.New("dial https://u:"+testPass+"@h: "+context.Canceled.Error()), testPass)
	if strings.Contains(err.Error(), testPass) {
		t.Fatalf("not redacted: %v", err)
	}
	wrapped := redact(&wrapErr{msg: "x " + testPass, err: context.Canceled}, testPass)
	if !errors.Is(wrapped, context.Canceled) || strings.Contains(wrapped.Error(), testPass) {
		t.Fatalf("redacted error lost its cause or kept the password: %v", wrapped)
	}
}

type wrapErr struct {
	msg string
	err error
}

func (w *wrapErr) Error() string { return w.msg }
func (w *wrapErr) Unwrap() error { return w.err }

func TestHealthCatIndicesMapping(t *testing.T) {
	_, tg := newFakeEngine(t)
	c := newTestClient(t, tg)
	h, err := c.Health(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	if h.Status != "yellow" || h.NumberOfNodes != 3 || h.UnassignedShards != 2 || h.ActiveShardsPercent != 83.3 {
		t.Fatalf("health = %+v", h)
	}
	idx, err := c.CatIndices(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(idx) != 2 || idx[0].Index != "apps" || idx[0].DocsCount != 7 || idx[0].Size != "1024" || idx[1].DocsCount != 42 || idx[1].Health != "green" {
		t.Fatalf("indices = %+v", idx)
	}
	m, err := c.Mapping(ctxT(t), "logs")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(FieldNames(m), ",")
	if got != "host,host.name,msg,msg.keyword" {
		t.Fatalf("fields = %s", got)
	}
	if _, err := c.Mapping(ctxT(t), " "); err == nil {
		t.Fatal("empty index accepted")
	}
}

// otherCAPEM makes a self-signed CA unrelated to the httptest certificate.
func otherCAPEM(t *testing.T) string { return newTestCA(t, "other test CA").pem }
