package search

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// testCA is a certificate authority made for one test.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pem  string
}

func newTestCA(t *testing.T, name string) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	return &testCA{cert: cert, key: key, pem: string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))}
}

// leaf issues a server certificate for names (IP addresses or DNS names) valid in [from, until).
func (ca *testCA) leaf(t *testing.T, from, until time.Time, names ...string) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: names[0]},
		NotBefore: from, NotAfter: until,
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	for _, n := range names {
		if ip := net.ParseIP(n); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, n)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// serveWith starts a TLS server presenting cert and returns a target for it (no CA set).
func serveWith(t *testing.T, cert tls.Certificate, h http.Handler) Target {
	t.Helper()
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return targetOf(t, srv.URL)
}

func targetOf(t *testing.T, raw string) Target {
	u, _ := url.Parse(raw)
	port, _ := strconv.Atoi(u.Port())
	return Target{Host: u.Hostname(), Port: port, Username: testUser, Password: testPass, ServiceName: "os"}
}

var okHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `[]`) })

// describeDo sends GET /_cat/indices through CatIndices and describes the error.
func describeDo(t *testing.T, tg Target, opts ...Option) (short, detail string) {
	t.Helper()
	c := newTestClient(t, tg, opts...)
	_, err := c.CatIndices(ctxT(t))
	if err == nil {
		t.Fatal("request succeeded")
	}
	short, detail = Describe(err)
	if strings.Contains(short+detail, testPass) {
		t.Fatalf("password in %q / %q", short, detail)
	}
	if strings.HasPrefix(short, "GET ") {
		t.Fatalf("short is the raw error: %s", short)
	}
	return short, detail
}

func wantIn(t *testing.T, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Fatalf("%q lacks %q", got, w)
		}
	}
}

func TestDescribeTLSFailures(t *testing.T) {
	now := time.Now()
	ca := newTestCA(t, "service CA")
	other := newTestCA(t, "someone else's CA")

	tg := serveWith(t, ca.leaf(t, now.Add(-time.Hour), now.Add(time.Hour), "127.0.0.1"), okHandler)
	tg.CACertPEM = ca.pem
	if _, err := newTestClient(t, tg).CatIndices(ctxT(t)); err != nil {
		t.Fatalf("the right CA and host fail: %v", err)
	}

	tg.CACertPEM = other.pem
	short, detail := describeDo(t, tg)
	wantIn(t, short, "TLS check failed for 127.0.0.1:", "the service's CA did not sign the certificate", "Reconnect with :search")
	wantIn(t, detail, "GET /_cat/indices", `issuer "CN=service CA"`, "names 127.0.0.1")

	tg.CACertPEM = ""
	short, _ = describeDo(t, tg)
	wantIn(t, short, "not signed by any CA this system trusts", "search_insecure_skip_verify")

	wrongHost := serveWith(t, ca.leaf(t, now.Add(-time.Hour), now.Add(time.Hour), "os-other.example.com"), okHandler)
	wrongHost.CACertPEM = ca.pem
	short, detail = describeDo(t, wrongHost)
	wantIn(t, short, "the certificate it presented is for os-other.example.com, not for 127.0.0.1", "service URI")
	wantIn(t, detail, "valid ")

	expired := serveWith(t, ca.leaf(t, now.Add(-48*time.Hour), now.Add(-24*time.Hour), "127.0.0.1"), okHandler)
	expired.CACertPEM = ca.pem
	short, _ = describeDo(t, expired)
	wantIn(t, short, "its certificate expired on "+now.Add(-24*time.Hour).UTC().Format("2006-01-02"), "clock")

	future := serveWith(t, ca.leaf(t, now.Add(24*time.Hour), now.Add(48*time.Hour), "127.0.0.1"), okHandler)
	future.CACertPEM = ca.pem
	short, _ = describeDo(t, future)
	wantIn(t, short, "valid only from", "clock")
}

func TestDescribeConnectionFailures(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	short, _ := describeDo(t, targetOf(t, "https://"+addr))
	wantIn(t, short, "Nothing accepts connections at "+addr, "Services tab")

	hang := make(chan struct{})
	slowSrv := startTLS(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-hang }))
	t.Cleanup(func() { close(hang) }) // before the server's Close, which waits for handlers
	slow := targetOf(t, slowSrv.URL)
	slow.CACertPEM = serverCAPEM(slowSrv)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = newTestClient(t, slow).CatIndices(ctx)
	short, _ = Describe(err)
	wantIn(t, short, "did not answer within the time limit")

	plain := httptest.NewServer(okHandler)
	t.Cleanup(plain.Close)
	short, _ = describeDo(t, targetOf(t, strings.Replace(plain.URL, "http:", "https:", 1)))
	wantIn(t, short, "answered in plain HTTP, not TLS", "port")

	loop := startTLS(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Path, http.StatusFound)
	}))
	lt := targetOf(t, loop.URL)
	lt.CACertPEM = serverCAPEM(loop)
	short, _ = describeDo(t, lt)
	wantIn(t, short, "redirected the request in a loop; it was not sent again")
}

func TestDescribeAnswers(t *testing.T) {
	answer := func(status int, ct, body string) Target {
		srv := startTLS(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if ct != "" {
				w.Header().Set("Content-Type", ct)
			}
			w.WriteHeader(status)
			io.WriteString(w, body)
		}))
		tg := targetOf(t, srv.URL)
		tg.CACertPEM = serverCAPEM(srv)
		return tg
	}
	for _, tc := range []struct {
		name              string
		status            int
		ct, body          string
		short, wantDetail []string
	}{
		{"401 empty", 401, "", "", []string{"refused the user name or password of avnadmin (401 Unauthorized)", "reconnect with :search"}, []string{"body: (empty)", "no content type"}},
		{"401 html", 401, "text/html", "<html>Login</html>", []string{"refused the user name or password of avnadmin"}, []string{"body: <html>Login</html>", "text/html"}},
		{"403", 403, "application/json", `{"error":{"root_cause":[{"type":"security_exception","reason":"no permissions for [indices:monitor]"}],"type":"security_exception","reason":"no permissions"},"status":403}`,
			[]string{"avnadmin may not do this (403 Forbidden: security_exception: no permissions for [indices:monitor])", "role"}, []string{"root cause: security_exception"}},
		{"502 html", 502, "text/html; charset=utf-8", "<html><body>Bad gateway</body></html>", []string{"answered 502 Bad Gateway with text/html; charset=utf-8 instead of JSON", "proxy"}, nil},
		{"500 json", 500, "application/json", `{"error":{"type":"x","reason":"boom"},"status":500}`, []string{"The service failed (500 Internal Server Error: x: boom)"}, nil},
		{"200 html", 200, "text/html", "<html>captive portal</html>", []string{"answered 200 OK with text/html instead of the index list in JSON", "captive portal"}, []string{"body: <html>captive portal</html>"}},
		{"200 wrong shape", 200, "application/json", `{"logs":{}}`, []string{"the index list in a shape svcui cannot read: at the top level it found object"}, nil},
		{"200 empty", 200, "application/json", "", []string{"empty answer instead of the index list"}, nil},
		{"200 bad json", 200, "application/json", `[{"index":`, []string{"not valid JSON (200 OK, application/json)"}, nil},
	} {
		short, detail := describeDo(t, answer(tc.status, tc.ct, tc.body))
		wantIn(t, short, tc.short...)
		wantIn(t, detail, tc.wantDetail...)
	}
}

func TestDescribeOthers(t *testing.T) {
	if s, d := Describe(nil); s != "" || d != "" {
		t.Fatal("nil error described")
	}
	_, err := ParseBuffer("GET /x/_search\n{\"a\" 1}")[0].HTTPRequest()
	if s, _ := Describe(err); !strings.Contains(s, "line 2, column 6") || !strings.Contains(s, "nothing was sent") {
		t.Fatalf("validation: %s", s)
	}
	if s, _ := Describe(errors.New("something odd")); s != "Something odd." {
		t.Fatalf("plain: %q", s)
	}
	if s, _ := Describe(context.Canceled); s != "The request was cancelled." {
		t.Fatalf("cancel: %q", s)
	}
	_, uerr := TargetFromServiceURI("http://h", "")
	if s, _ := Describe(uerr); !strings.Contains(s, "service URI") {
		t.Fatalf("uri: %q", s)
	}
	_, tg := newFakeEngine(t)
	_, err = newTestClient(t, tg, WithMaxResponseBytes(1024)).Do(ctxT(t), Request{Path: typedPath("/big")})
	if s, _ := Describe(err); !strings.Contains(s, "larger than svcui reads (over the 1 KiB limit)") {
		t.Fatalf("too large: %q", s)
	}
}
