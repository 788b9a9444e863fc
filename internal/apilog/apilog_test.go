package apilog

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

const (
	token    = "tok3n/SeCrEt+value=="
	password = "pAss-w0rd-9f8e"
)

// secretServer answers with bodies that carry secrets, as the platform does on a
// reset of credentials and in connection info.
func secretServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Set-Cookie", "session="+password)
		w.Header().Set("X-RateLimit-Remaining", "99")
		if r.URL.Path == "/fail" {
			w.WriteHeader(429)
		}
		_, _ = io.WriteString(w, `{"user":{"username":"avnadmin","password":"`+password+`"},`+
			`"service_uri":"postgres://avnadmin:`+password+`@pg.example:5432/defaultdb",`+
			`"service_uri_params":{"password":"`+password+`","host":"pg.example"},"echo":"`+token+`"}`)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func do(t *testing.T, c *http.Client, req *http.Request) {
	t.Helper()
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.ReadAll(res.Body)
	res.Body.Close()
}

func record(t *testing.T, l *Log) *httptest.Server {
	srv := secretServer(t)
	api := &http.Client{Transport: l.Wrap("api", nil)}
	search := &http.Client{Transport: l.Wrap("search", nil)}

	req, _ := http.NewRequest("PUT", srv.URL+"/v1/project/p/service/s/user/avnadmin", strings.NewReader(`{"operation":"reset-credentials","password":"`+password+`"}`))
	req.Header.Set("Authorization", "svcv1 "+token)
	req.Header.Set("Content-Type", "application/json")
	do(t, api, WithAttemptReq(req, 2))

	req, _ = http.NewRequest("GET", srv.URL+"/fail", nil)
	req.Header.Set("Authorization", "svcv1 "+token)
	do(t, api, req)

	req, _ = http.NewRequest("POST", srv.URL+"/logs/_search", strings.NewReader(`{"query":{"match_all":{}}}`))
	req.SetBasicAuth("avnadmin", password)
	do(t, search, req)
	return srv
}

func WithAttemptReq(r *http.Request, n int) *http.Request {
	return r.WithContext(WithAttempt(context.Background(), n))
}

// everything is all the text an entry holds, as the debug sink would write it.
func everything(e Entry) string {
	var b strings.Builder
	b.WriteString(e.URL + e.Path + e.Auth + e.User + e.Err + e.ReqBody + e.RespBody)
	for _, h := range []http.Header{e.ReqHeader, e.RespHeader} {
		for k, vs := range h {
			b.WriteString(k + strings.Join(vs, ","))
		}
	}
	c, _ := e.Curl()
	return b.String() + c
}

func assertNoSecret(t *testing.T, where, text string) {
	t.Helper()
	for _, s := range []string{token, password, base64.StdEncoding.EncodeToString([]byte("avnadmin:" + password))} {
		if strings.Contains(text, s) {
			t.Fatalf("%s contains the secret %q:\n%s", where, s, text)
		}
	}
}

func TestEntriesHoldNoSecretButWhatHappened(t *testing.T) {
	l := New(10)
	var sunk []Entry
	l.SetSink(func(e Entry) { sunk = append(sunk, e) })
	record(t, l)
	es := l.Entries()
	if len(es) != 3 || len(sunk) != 3 {
		t.Fatalf("%d entries, %d sunk", len(es), len(sunk))
	}
	for _, e := range append(es, sunk...) {
		assertNoSecret(t, "entry "+e.Method+" "+e.Path, everything(e))
	}
	put, fail, search := es[2], es[1], es[0]
	if put.Method != "PUT" || put.Status != 200 || put.Attempt != 2 || put.Source != "api" || put.Size == 0 || !put.Done {
		t.Fatalf("put entry %+v", put)
	}
	if got := put.ReqHeader.Get("Authorization"); got != "svcv1 ***" {
		t.Fatalf("authorization shown as %q", got)
	}
	if !strings.Contains(put.RespBody, `"username":"avnadmin"`) || !strings.Contains(put.RespBody, `postgres://avnadmin:***@pg.example`) {
		t.Fatalf("answer body masked beyond its secrets: %s", put.RespBody)
	}
	if fail.Status != 429 || fail.Attempt != 0 {
		t.Fatalf("429 entry %+v", fail)
	}
	if search.Source != "search" || search.User != "avnadmin" || search.ReqHeader.Get("Authorization") != "Basic ***" {
		t.Fatalf("search entry %+v", search)
	}
}

func TestCurlReadsTheTokenFromTheEnvironment(t *testing.T) {
	l := New(10)
	srv := record(t, l)
	es := l.Entries()
	put, _ := es[2].Curl()
	want := `curl -X PUT '` + srv.URL + `/v1/project/p/service/s/user/avnadmin' -H "Authorization: svcv1 $SVCUI_TOKEN" -H 'Content-Type: application/json' --data-raw '{"operation":"reset-credentials","password":"***"}'`
	if put != want {
		t.Fatalf("curl\n got %s\nwant %s", put, want)
	}
	search, _ := es[0].Curl()
	if !strings.Contains(search, "-X POST '"+srv.URL+"/logs/_search' -u 'avnadmin' ") {
		t.Fatalf("search curl %s", search)
	}
	e := Entry{Method: "POST", URL: "https://x/it's", ReqBody: "a'b"}
	if got, _ := e.Curl(); got != `curl -X POST 'https://x/it'\''s' --data-raw 'a'\''b'` {
		t.Fatalf("quoting: %s", got)
	}
	if _, ok := (Entry{Method: "POST", URL: "https://x", ReqBody: "{", ReqCut: true}).Curl(); ok {
		t.Fatal("a cut body made a whole curl command")
	}
}

func TestTheRingKeepsTheLastN(t *testing.T) {
	l := New(3)
	for range 7 {
		l.add(&Entry{})
	}
	es := l.Entries()
	if len(es) != 3 || es[0].Seq != 7 || es[2].Seq != 5 {
		t.Fatalf("entries %+v", es)
	}
	if _, ok := l.Get(4); ok {
		t.Fatal("an entry past the ring is still there")
	}
	if e, ok := l.Get(6); !ok || e.Seq != 6 {
		t.Fatal("entry 6 lost")
	}
}

func TestMaskSecretFields(t *testing.T) {
	for in, want := range map[string]string{
		`{"password":"a\"b","x":"y"}`:               `{"password":"***","x":"y"}`,
		`{"access_key": "k", "security":"open"}`:    `{"access_key": "***", "security":"open"}`,
		`{"service_uri":"https://u:p@h"}`:           `{"service_uri":"https://u:***@h"}`,
		`https://h/x?sslpassword=abc&mode=1`:        `https://h/x?sslpassword=***&mode=1`,
		`["postgres://u:secretpw@h:5432/db"]`:       `["postgres://u:***@h:5432/db"]`,
		`{"token":"unterminated`:                    `{"token":"***`,
		`plain text with no secret`:                 `plain text with no secret`,
		`{"PASSWORD":"X","nested":{"api_key":"z"}}`: `{"PASSWORD":"***","nested":{"api_key":"***"}}`,
	} {
		if got := maskText(in, nil); got != want {
			t.Errorf("mask(%s) = %s, want %s", in, got, want)
		}
	}
}

// A search copied from :log is what ran: a GET with a body keeps -X GET (--data-raw
// alone makes curl POST it) and a service verified against its own CA gets --cacert.
func TestCurlKeepsTheMethodAndTheCA(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{RootCAs: pool}
	l := New(10)
	c := &http.Client{Transport: l.Wrap("search", tr)}
	req, _ := http.NewRequest("GET", srv.URL+"/logs-app/_search", strings.NewReader(`{"size":1}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	got, _ := l.Entries()[0].Curl()
	want := `curl --cacert ca.pem -X GET '` + srv.URL + `/logs-app/_search' -H 'Content-Type: application/json' --data-raw '{"size":1}'`
	if got != want {
		t.Fatalf("curl\n got %s\nwant %s", got, want)
	}
	if got, _ := (Entry{Method: "GET", URL: "https://x/_cat/indices"}).Curl(); got != `curl 'https://x/_cat/indices'` {
		t.Fatalf("a bare GET: %s", got)
	}
	if got, _ := (Entry{Method: "GET", URL: "https://x/", Insecure: true}).Curl(); got != `curl -k 'https://x/'` {
		t.Fatalf("unverified: %s", got)
	}
}

// BenchmarkMaskSecretsLongBody masks a 64 KiB request body that holds no secret, as
// opening a long Search history does for each of its entries.
func BenchmarkMaskSecretsLongBody(b *testing.B) {
	body := `{"query":{"match":{"message":"` + strings.Repeat("favicon ", 8<<10) + `"}}}`
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if MaskSecrets(body) != body {
			b.Fatal("a body without secrets was changed")
		}
	}
}
