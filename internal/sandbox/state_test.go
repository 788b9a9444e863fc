package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/svcui/svcui/internal/sandbox/sandboxtest"
)

func TestStateFileRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	clock := sandboxtest.NewManualClock(testEpoch)
	sb, err := New(Options{StateFile: path, Clock: clock, Seed: 5, Search: true})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sb.Handler())
	e := &env{t: t, sb: sb, clock: clock, srv: srv}
	expectStatus(t, e.admin("POST", "/v1/project", map[string]any{"project": "kept-proj"}), 200)
	expectStatus(t, e.admin("POST", "/v1/project/kept-proj/service", map[string]any{"service_name": "pg-kept", "service_type": "pg", "plan": "hobbyist", "cloud": "do-ams"}), 200)
	pw := get(t, e.admin("POST", "/v1/project/kept-proj/service/pg-kept/user", map[string]any{"username": "kept_user"}).json(t), "user", "password").(string)
	ci := e.admin("GET", "/v1/project/acme-prod/service/opensearch-logs/connection_info", nil).json(t)
	// Put a document into the search engine; it must survive the restart.
	c := searchClient(t, ci["ca_cert"].(string))
	url := fmt.Sprintf("https://127.0.0.1:%d/kept-index/_doc", int(ci["port"].(float64)))
	req, _ := http.NewRequest("POST", url, bytes.NewReader([]byte(`{"msg":"hello"}`)))
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth("avnadmin", ci["password"].(string))
	res, err := c.Do(req)
	if err != nil || res.StatusCode != 201 {
		t.Fatalf("index doc: %v %v", err, res)
	}
	res.Body.Close()
	admin, dev, ca, acct := sb.AdminToken(), sb.DeveloperToken(), sb.CACertPEM(), sb.AccountID()
	srv.Close()
	if err := sb.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("state file %v mode %v", err, st.Mode())
	}
	raw, _ := os.ReadFile(path)
	if !bytes.Contains(raw, []byte(pw)) {
		t.Fatal("state file lacks the user password")
	}

	sb2, err := New(Options{StateFile: path, Clock: clock, Search: true, Data: "empty"})
	if err != nil {
		t.Fatal(err)
	}
	srv2 := httptest.NewServer(sb2.Handler())
	t.Cleanup(func() { srv2.Close(); sb2.Close() })
	e2 := &env{t: t, sb: sb2, clock: clock, srv: srv2}
	if sb2.AdminToken() != admin || sb2.DeveloperToken() != dev || sb2.CACertPEM() != ca || sb2.AccountID() != acct {
		t.Fatal("tokens, CA or account changed across the restart")
	}
	expectStatus(t, e2.admin("GET", "/v1/project/kept-proj/service/pg-kept", nil), 200)
	if !strings.Contains(string(e2.admin("GET", "/v1/project/kept-proj/service/pg-kept/user", nil).body), "kept_user") {
		t.Fatal("user lost")
	}
	ci2 := e2.admin("GET", "/v1/project/acme-prod/service/opensearch-logs/connection_info", nil).json(t)
	c2 := searchClient(t, ci2["ca_cert"].(string))
	st2, body, err := searchGet(t, c2, fmt.Sprintf("https://127.0.0.1:%d/kept-index/_search", int(ci2["port"].(float64))), "avnadmin", ci["password"].(string))
	if err != nil || st2 != 200 || !strings.Contains(body, "hello") {
		t.Fatalf("search data after restart: %d %v %s", st2, err, body)
	}
}

func TestStateSavedAfterChanges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	e := newEnv(t, Options{StateFile: path, Data: "empty"})
	expectStatus(t, e.admin("POST", "/v1/project", map[string]any{"project": "saved-soon"}), 200)
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		b, _ := os.ReadFile(path)
		if bytes.Contains(b, []byte("saved-soon")) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("change not saved within 3s")
}

func TestBadStateFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(path, []byte("not json"), 0o600)
	if _, err := New(Options{StateFile: path}); err == nil || !strings.Contains(err.Error(), "not a sandbox state file") {
		t.Fatalf("bad state file: %v", err)
	}
}

func TestEmptyAndScaleData(t *testing.T) {
	e := newEnv(t, Options{Data: "empty"})
	m := e.admin("GET", "/v1/project", nil).json(t)
	projects := get(t, m, "projects").([]any)
	if len(projects) != 1 {
		t.Fatalf("empty data: %d projects", len(projects))
	}
	name := projects[0].(map[string]any)["project_name"].(string)
	if n := len(get(t, e.admin("GET", "/v1/project/"+name+"/service", nil).json(t), "services").([]any)); n != 0 {
		t.Fatalf("empty project has %d services", n)
	}
	expectStatus(t, e.do("GET", "/v1/clouds", "", nil), 200)

	e = newEnv(t, Options{Data: "scale:120"})
	m = e.admin("GET", "/v1/project", nil).json(t)
	total := 0
	for _, p := range get(t, m, "projects").([]any) {
		total += len(get(t, e.admin("GET", "/v1/project/"+p.(map[string]any)["project_name"].(string)+"/service", nil).json(t), "services").([]any))
	}
	if total != 120 || len(get(t, m, "projects").([]any)) != 5 {
		t.Fatalf("scale:120 gave %d services in %d projects", total, len(get(t, m, "projects").([]any)))
	}
	for _, bad := range []string{"scale:0", "scale:x", "lots"} {
		if _, err := New(Options{Data: bad}); err == nil {
			t.Errorf("data %q accepted", bad)
		}
	}
}

func TestScaleIsFast(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 100,000 services")
	}
	start := time.Now()
	sb, err := New(Options{Data: "scale:100000", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("scale:100000 took %s", d)
	}
	n := 0
	for _, p := range sb.st.Projects {
		n += len(p.Services)
	}
	if n != 100000 || len(sb.st.Projects) != 2000 {
		t.Fatalf("%d services in %d projects", n, len(sb.st.Projects))
	}
}

// lockedBuffer is a concurrency-safe stdout for Run.
type lockedBuffer struct {
	mu chan struct{}
	b  bytes.Buffer
}

func newLockedBuffer() *lockedBuffer { return &lockedBuffer{mu: make(chan struct{}, 1)} }

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu <- struct{}{}
	defer func() { <-l.mu }()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu <- struct{}{}
	defer func() { <-l.mu }()
	return l.b.String()
}

func TestRunBanner(t *testing.T) {
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	ctx, cancel := context.WithCancel(context.Background())
	out, errOut := newLockedBuffer(), newLockedBuffer()
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, []string{"--addr", "127.0.0.1:0", "--data", "empty", "--seed", "3", "--ca-cert", caFile}, out, errOut)
	}()
	deadline := time.Now().Add(5 * time.Second)
	for strings.Count(out.String(), "\n") < 4 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "svcui sandbox listening on http://127.0.0.1:") || strings.HasSuffix(lines[0], ":0") ||
		!strings.HasPrefix(lines[1], "admin token: ") || !strings.HasPrefix(lines[2], "developer token: ") || !strings.HasPrefix(lines[3], "account id: ") {
		cancel()
		t.Fatalf("banner %q (stderr %q)", out.String(), errOut.String())
	}
	if pem, err := os.ReadFile(caFile); err != nil || !strings.Contains(string(pem), "BEGIN CERTIFICATE") {
		cancel()
		t.Fatalf("--ca-cert wrote %q (%v)", pem, err)
	}
	base := strings.TrimPrefix(lines[0], "svcui sandbox listening on ")
	req, _ := http.NewRequest("GET", base+"/v1/project", nil)
	req.Header.Set("Authorization", "svcv1 "+strings.TrimPrefix(lines[1], "admin token: "))
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != 200 {
		cancel()
		t.Fatalf("banner URL and token do not work: %v %v", err, res)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
	if _, err := http.Get(base + "/v1/clouds"); err == nil {
		t.Fatal("still serving after Run returned")
	}
	if errOut.String() != "" {
		t.Fatalf("stderr %q", errOut.String())
	}
}

func TestRunErrors(t *testing.T) {
	ctx := context.Background()
	for _, args := range [][]string{
		{"--bogus"},
		{"--addr", "0.0.0.0:0"},
		{"--data", "weird"},
		{"--faults", "500=7"},
		{"--provision-delay", "-1s"},
		{"extra"},
	} {
		var out, errOut bytes.Buffer
		err := Run(ctx, args, &out, &errOut)
		if err == nil || out.Len() != 0 || strings.Count(errOut.String(), "\n") != 1 || !strings.HasPrefix(errOut.String(), "svcui sandbox: ") {
			t.Errorf("args %v: err %v, stdout %q, stderr %q", args, err, out.String(), errOut.String())
		}
	}
	// Port in use.
	sb, err := New(Options{Data: "empty"})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	base, err := sb.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if err := Run(ctx, []string{"--addr", strings.TrimPrefix(base, "http://"), "--data", "empty"}, &out, &errOut); err == nil || !strings.Contains(errOut.String(), "cannot listen") {
		t.Fatalf("port in use: %v %q", err, errOut.String())
	}
	if _, err := sb.Start("192.0.2.1:80"); err == nil {
		t.Fatal("Start accepted a non-loopback address")
	}
}
