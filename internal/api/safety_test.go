package api

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

func TestNewRefusesTokenOverPlainHTTPToRemoteHosts(t *testing.T) {
	refused := []string{"http://api.example.com", "http://10.0.0.5:8080", "http://[2001:db8::1]:80/", "http://localhost.evil.example"}
	for _, base := range refused {
		_, err := New(Options{BaseURL: base, Token: testToken})
		if err == nil || !strings.Contains(err.Error(), "plain http") {
			t.Errorf("New(%s) = %v, want a refusal", base, err)
		}
		if err != nil && strings.Contains(err.Error(), testToken) {
			t.Errorf("refusal mentions the token: %v", err)
		}
	}
	allowed := []string{"http://127.0.0.1:8080", "http://127.8.9.10", "http://localhost:9000/", "http://LOCALHOST", "http://[::1]:8080", "https://api.example.com", "https://api.example.com/v1/"}
	for _, base := range allowed {
		if _, err := New(Options{BaseURL: base, Token: testToken}); err != nil {
			t.Errorf("New(%s): %v", base, err)
		}
	}
	// Without a token nothing secret travels: the catalogue may be read over http.
	if _, err := New(Options{BaseURL: "http://api.example.com"}); err != nil {
		t.Errorf("tokenless http: %v", err)
	}
}

func TestNewRejectsBadBaseURLs(t *testing.T) {
	for _, base := range []string{"", "api.example.com", "ftp://api.example.com", "https://", "https://user:pw@api.example.com", "https://api.example.com/?x=1"} {
		if _, err := New(Options{BaseURL: base, Token: testToken}); err == nil {
			t.Errorf("New(%q) accepted", base)
		}
	}
	if _, err := New(Options{BaseURL: "https://api.example.com", Token: "abc\r\nX-Evil: 1"}); err == nil {
		t.Error("a token with a line break was accepted")
	}
}

func TestBaseURLNormalised(t *testing.T) {
	for in, want := range map[string]string{
		"https://api.example.com":          "https://api.example.com",
		"https://api.example.com/":         "https://api.example.com",
		"https://api.example.com/v1":       "https://api.example.com",
		"https://api.example.com/v1/":      "https://api.example.com",
		"https://gw.example.com/platform/": "https://gw.example.com/platform",
		"http://127.0.0.1:8080":            "http://127.0.0.1:8080",
	} {
		c, err := New(Options{BaseURL: in, Token: testToken})
		if err != nil {
			t.Fatal(err)
		}
		if c.BaseURL() != want {
			t.Errorf("BaseURL(%s) = %s, want %s", in, c.BaseURL(), want)
		}
	}
}

func TestLoopbackHosts(t *testing.T) {
	for host, want := range map[string]bool{"127.0.0.1": true, "127.255.0.1": true, "::1": true, "localhost": true, "localhost.": true,
		"128.0.0.1": false, "0.0.0.0": false, "example.com": false, "::": false, "10.0.0.1": false, "": false} {
		if got := isLoopbackHost(host); got != want {
			t.Errorf("isLoopbackHost(%q) = %v", host, got)
		}
	}
}

// authRecorder records the Authorization header of every request it serves.
type authRecorder struct {
	mu   sync.Mutex
	seen []string
}

func (a *authRecorder) record(r *http.Request) {
	a.mu.Lock()
	a.seen = append(a.seen, r.Header.Get("Authorization"))
	a.mu.Unlock()
}

func (a *authRecorder) all() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.seen...)
}

func TestCrossHostRedirectRefusedAndTokenKept(t *testing.T) {
	other := &authRecorder{}
	otherSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		other.record(r)
		writeJSON(w, 200, `{"project":{"project_name":"stolen"}}`)
	}))
	defer otherSrv.Close()
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, otherSrv.URL+r.URL.Path, http.StatusFound)
	}))
	_, err := c.GetProject(ctxT(t), "acme-prod")
	if !errors.Is(err, ErrRedirectRefused) {
		t.Fatalf("err = %v, want a refused redirect", err)
	}
	if got := other.all(); len(got) != 0 {
		t.Fatalf("the other host was contacted: %q", got)
	}
	if strings.Contains(err.Error(), testToken) || !strings.Contains(Message(err), "redirected") {
		t.Errorf("error = %q / %q", err.Error(), Message(err))
	}
	if c.Stats().Retries != 0 {
		t.Error("a refused redirect was retried")
	}
}

func TestSameHostRedirectFollowedWithToken(t *testing.T) {
	rec := &authRecorder{}
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.record(r)
		if r.URL.Path == "/v1/project/old" {
			http.Redirect(w, r, "/v1/project/acme-prod", http.StatusMovedPermanently)
			return
		}
		writeJSON(w, 200, projectOK)
	}))
	p, err := c.GetProject(ctxT(t), "old")
	if err != nil || p.ProjectName != "acme-prod" {
		t.Fatalf("GetProject = %+v, %v", p, err)
	}
	for _, a := range rec.all() {
		if a != "svcv1 "+testToken {
			t.Errorf("Authorization = %q", a)
		}
	}
}

func TestRedirectRulesDirectly(t *testing.T) {
	mk := func(u string) *http.Request {
		r, _ := http.NewRequest(http.MethodGet, u, nil)
		r.Header.Set("Authorization", "svcv1 x")
		return r
	}
	if err := sameHostRedirectsOnly(mk("http://api.example.com/b"), []*http.Request{mk("https://api.example.com/a")}); !errors.Is(err, ErrRedirectRefused) {
		t.Errorf("https→http downgrade: %v", err)
	}
	next := mk("https://evil.example.com/b")
	if err := sameHostRedirectsOnly(next, []*http.Request{mk("https://api.example.com/a")}); !errors.Is(err, ErrRedirectRefused) || next.Header.Get("Authorization") != "" {
		t.Errorf("cross-host: %v, auth %q", err, next.Header.Get("Authorization"))
	}
	if err := sameHostRedirectsOnly(mk("https://api.example.com/b"), []*http.Request{mk("https://api.example.com/a")}); err != nil {
		t.Errorf("same host: %v", err)
	}
	via := make([]*http.Request, maxRedirects)
	for i := range via {
		via[i] = mk("https://api.example.com/a")
	}
	if err := sameHostRedirectsOnly(mk("https://api.example.com/b"), via); err == nil {
		t.Error("redirect loop not stopped")
	}
}

func TestCallerHTTPClientNotModified(t *testing.T) {
	hc := &http.Client{}
	if _, err := New(Options{BaseURL: "https://api.example.com", Token: testToken, HTTPClient: hc}); err != nil {
		t.Fatal(err)
	}
	if hc.CheckRedirect != nil || hc.Transport != nil {
		t.Error("New changed the caller's http.Client")
	}
}

func TestScrub(t *testing.T) {
	cases := map[string]string{
		"Authorization: svcv1 abcdefghijkl":                  "svcv1 ***",
		`postgres://avnadmin:AVNS_s3cr3t@pg.example:5432/db`: "postgres://avnadmin:***@pg.example:5432/db",
		`{"password":"AVNS_s3cr3t","username":"u"}`:          `"password":***`,
		"password=AVNS_s3cr3t&user=u":                        "password=***",
		"Bearer eyJhbGciOi":                                  "Bearer ***",
		"token " + testToken + " was sent":                   "token *** was sent",
		"nothing secret here, just Service x does not exist": "nothing secret here, just Service x does not exist",
	}
	for in, want := range cases {
		got := scrub(in, testToken)
		if !strings.Contains(got, want) {
			t.Errorf("scrub(%q) = %q, want it to contain %q", in, got, want)
		}
		for _, secret := range []string{"AVNS_s3cr3t", testToken, "abcdefghijkl", "eyJhbGciOi"} {
			if strings.Contains(got, secret) {
				t.Errorf("scrub(%q) = %q still holds %q", in, got, secret)
			}
		}
	}
	// A token made of the mask characters cannot survive either.
	for _, tok := range []string{"***", "*#~^_.", "a*#~^_.b"} {
		if got := scrub("x"+tok+tok+"y", tok); strings.Contains(got, tok) {
			t.Errorf("scrub with token %q = %q", tok, got)
		}
	}
}

func FuzzScrubRemovesToken(f *testing.F) {
	f.Add("Service x does not exist "+testToken, testToken)
	f.Add("aaaa", "aa")
	f.Add("svcv1 ***", "***")
	f.Fuzz(func(t *testing.T, text, token string) {
		if token == "" {
			return
		}
		if got := scrub(text, token); strings.Contains(got, token) {
			t.Fatalf("scrub(%q, %q) = %q", text, token, got)
		}
	})
}

func TestLoggerNeverSeesSecrets(t *testing.T) {
	var buf bytes.Buffer
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, `{"user":{"username":"app","type":"regular","password":"AVNS_s3cr3t"}}`)
	}), func(o *Options) { o.Logger = newDebugLogger(&buf) })
	u, err := c.ResetCredentials(ctxT(t), "acme-prod", "pg-main", "app")
	if err != nil || u.Password != "AVNS_s3cr3t" {
		t.Fatalf("ResetCredentials = %+v, %v", u, err)
	}
	log := buf.String()
	if !strings.Contains(log, "/v1/project/acme-prod/service/pg-main/user/app") {
		t.Fatalf("no request logged: %q", log)
	}
	if strings.Contains(log, testToken) || strings.Contains(log, "AVNS_s3cr3t") {
		t.Fatalf("log holds a secret: %q", log)
	}
}

// The client's own transport speaks HTTP/1.1 only: the release binary is built without
// HTTP/2, and every build talks to the platform as it does.
func TestOwnTransportSpeaksHTTP11Only(t *testing.T) {
	c, _ := buildHTTPClients(nil, 4, nil)
	tr, ok := c.Transport.(*http.Transport)
	if !ok || tr.Protocols == nil || !tr.Protocols.HTTP1() || tr.Protocols.HTTP2() || tr.Protocols.UnencryptedHTTP2() {
		t.Fatalf("transport protocols: %v", tr.Protocols)
	}
}
