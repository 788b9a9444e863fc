package sandbox

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestParseFaults(t *testing.T) {
	f, err := parseFaults("seed=7,500=0.1,429=0.05,latency=0.2:300ms,drop=0.02")
	if err != nil {
		t.Fatal(err)
	}
	if f.Seed != 7 || f.Rate500 != 0.1 || f.Rate429 != 0.05 || f.RateLatency != 0.2 || f.Latency != 300*time.Millisecond || f.RateDrop != 0.02 {
		t.Fatalf("parsed %+v", f)
	}
	for spec, part := range map[string]string{
		"500=2":             "500=2",
		"500":               "500",
		"latency=0.1":       "latency=0.1",
		"latency=0.1:soon":  "soon",
		"seed=x":            "seed=x",
		"boom=0.1":          "boom",
		"drop=0.1,drop=0.2": "drop",
		"429=-0.1":          "429=-0.1",
	} {
		_, err := parseFaults(spec)
		if err == nil || !strings.Contains(err.Error(), part) {
			t.Errorf("spec %q: error %v does not name %q", spec, err, part)
		}
	}
	if _, err := New(Options{Faults: "oops"}); err == nil {
		t.Error("New accepted a bad fault spec")
	}
}

// faultSequence sends n GETs, each on a fresh connection (so the transport never retries
// on its own), and records what happened.
func faultSequence(t *testing.T, spec string, n int) []string {
	t.Helper()
	e := newEnv(t, Options{Faults: spec, Seed: 99})
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	var out []string
	for i := 0; i < n; i++ {
		res, err := client.Get(e.srv.URL + "/v1/clouds")
		if err != nil {
			out = append(out, "drop")
			continue
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		out = append(out, fmt.Sprint(res.StatusCode, res.Header.Get("Retry-After")))
	}
	return out
}

func TestFaultsAreDeterministic(t *testing.T) {
	spec := "seed=7,500=0.2,429=0.2,drop=0.2"
	a := faultSequence(t, spec, 60)
	b := faultSequence(t, spec, 60)
	if strings.Join(a, ",") != strings.Join(b, ",") {
		t.Fatalf("same seed, different faults:\n%v\n%v", a, b)
	}
	seen := map[string]int{}
	for _, x := range a {
		seen[x]++
	}
	for _, want := range []string{"200", "500", "4291", "drop"} {
		if seen[want] == 0 {
			t.Errorf("no %q in %v", want, seen)
		}
	}
	c := faultSequence(t, "seed=8,500=0.2,429=0.2,drop=0.2", 60)
	if strings.Join(a, ",") == strings.Join(c, ",") {
		t.Error("another seed gave the same faults")
	}
}

func TestFaultErrorBodiesAndLatency(t *testing.T) {
	e := newEnv(t, Options{Faults: "seed=1,500=1"})
	expectError(t, e.admin("GET", "/v1/project", nil), 500, "injected")
	e = newEnv(t, Options{Faults: "seed=1,429=1"})
	r := e.admin("GET", "/v1/project", nil)
	expectError(t, r, 429, "try again")
	if r.header.Get("Retry-After") != "1" {
		t.Fatalf("Retry-After %q", r.header.Get("Retry-After"))
	}
	e = newEnv(t, Options{Faults: "seed=1,latency=1:60ms"})
	start := time.Now()
	expectStatus(t, e.admin("GET", "/v1/project", nil), 200)
	if d := time.Since(start); d < 60*time.Millisecond {
		t.Fatalf("latency fault took only %s", d)
	}
	// Invoice files are not subject to faults (the capability URL is another host's).
	e = newEnv(t, Options{Faults: "seed=1,500=1"})
	if r := e.do("GET", "/files/invoices/x.pdf", "", nil); r.status != 404 {
		t.Fatalf("files under faults: %d", r.status)
	}
}

// A dropped write is sometimes executed first: a client that retried writes blindly would
// create things twice, which is what the client's contract tests prove it never does.
func TestDropAfterExecute(t *testing.T) {
	e := newEnv(t, Options{Faults: "seed=3,drop=1"})
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	const n = 24
	for i := 0; i < n; i++ {
		body := fmt.Sprintf(`{"project":"dropped-%02d"}`, i)
		req, _ := http.NewRequest("POST", e.srv.URL+"/v1/project", bytes.NewReader([]byte(body)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "svcv1 "+e.sb.AdminToken())
		res, err := client.Do(req)
		if err == nil {
			res.Body.Close()
			t.Fatalf("request %d answered %d; every request should drop", i, res.StatusCode)
		}
	}
	e.sb.mu.RLock()
	created := 0
	for i := 0; i < n; i++ {
		if e.sb.st.Projects[fmt.Sprintf("dropped-%02d", i)] != nil {
			created++
		}
	}
	e.sb.mu.RUnlock()
	if created == 0 || created == n {
		t.Fatalf("%d of %d dropped writes were executed; want some but not all", created, n)
	}
}

// drop-after executes every chosen write and then closes the connection: the services
// and users a client "failed" to create exist, and reads are never dropped.
func TestDropAfterOnlyWrites(t *testing.T) {
	f, err := parseFaults("drop-after=0.25")
	if err != nil || f.RateDropAfter != 0.25 || !f.active() {
		t.Fatalf("parsed %+v, %v", f, err)
	}
	e := newEnv(t, Options{Faults: "seed=5,drop-after=1", ProvisionDelay: time.Millisecond})
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	send := func(method, path, body string) (int, error) {
		var rd io.Reader
		if body != "" {
			rd = strings.NewReader(body)
		}
		req, _ := http.NewRequest(method, e.srv.URL+path, rd)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "svcv1 "+e.sb.AdminToken())
		res, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		res.Body.Close()
		return res.StatusCode, nil
	}
	const n = 5
	for i := 0; i < n; i++ {
		svc := fmt.Sprintf(`{"service_name":"pg-after-%d","service_type":"pg","plan":"startup-4","cloud":"aws-eu-west-1"}`, i)
		user := fmt.Sprintf(`{"username":"after_%d"}`, i)
		for _, w := range [][2]string{{"/v1/project/acme-prod/service", svc}, {"/v1/project/acme-prod/service/pg-main/user", user}} {
			if status, err := send("POST", w[0], w[1]); err == nil {
				t.Fatalf("POST %s answered %d; drop-after=1 closes every write", w[0], status)
			}
		}
		if status, err := send("GET", "/v1/project/acme-prod/service/pg-main/user", ""); err != nil || status != 200 {
			t.Fatalf("a read under drop-after: %d, %v", status, err)
		}
	}
	if status, err := send("DELETE", "/v1/project/acme-prod/service/pg-after-0", ""); err == nil {
		t.Fatalf("DELETE answered %d", status)
	}
	e.sb.mu.RLock()
	defer e.sb.mu.RUnlock()
	p := e.sb.st.Projects["acme-prod"]
	for i := 0; i < n; i++ {
		if p.Services[fmt.Sprintf("pg-after-%d", i)] == nil && i > 0 {
			t.Errorf("service pg-after-%d was not created before the drop", i)
		}
		if p.Services["pg-main"].user(fmt.Sprintf("after_%d", i)) == nil {
			t.Errorf("user after_%d was not created before the drop", i)
		}
	}
	if p.Services["pg-after-0"] != nil {
		t.Error("the dropped DELETE was not executed")
	}
}
