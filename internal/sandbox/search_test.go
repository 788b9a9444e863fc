package sandbox

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// searchClient trusts only the CA of connection info, as the search client does.
func searchClient(t *testing.T, caPEM string) *http.Client {
	t.Helper()
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM([]byte(caPEM)) {
		t.Fatal("ca_cert does not parse")
	}
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12},
	}}
}

func searchGet(t *testing.T, c *http.Client, url, user, password string) (int, string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	req.SetBasicAuth(user, password)
	res, err := c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b), nil
}

func TestSearchListener(t *testing.T) {
	e := newEnv(t, Options{Search: true, ProvisionDelay: 10 * time.Second})
	svc := "/v1/project/acme-prod/service/opensearch-logs"
	ci := e.admin("GET", svc+"/connection_info", nil).json(t)
	if ci["host"] != "127.0.0.1" {
		t.Fatalf("opensearch host %v, want the loopback listener", ci["host"])
	}
	base := fmt.Sprintf("https://127.0.0.1:%d", int(ci["port"].(float64)))
	if !strings.HasPrefix(ci["uri"].(string), "https://avnadmin:") {
		t.Errorf("uri %v", ci["uri"])
	}
	s := get(t, e.admin("GET", svc, nil).json(t), "service").(map[string]any)
	if d := get(t, s, "service_uri_params", "dashboards_uri"); d != "https://opensearch-logs-acme-prod.svc.sandbox.test:443" {
		t.Errorf("dashboards_uri %v", d)
	}
	c := searchClient(t, ci["ca_cert"].(string))
	pw := ci["password"].(string)

	st, body, err := searchGet(t, c, base+"/_cluster/health", "avnadmin", pw)
	if err != nil || st != 200 || !strings.Contains(body, "opensearch-logs") {
		t.Fatalf("health: %d %v %s", st, err, body)
	}
	// The demo indices are loaded.
	st, body, _ = searchGet(t, c, base+"/_cat/indices?format=json", "avnadmin", pw)
	if st != 200 || !strings.Contains(body, "logs") {
		t.Fatalf("cat indices: %d %s", st, body)
	}
	if st, _, _ := searchGet(t, c, base+"/_cluster/health", "avnadmin", "wrong"); st != 401 {
		t.Fatalf("wrong password: %d", st)
	}
	// "localhost" is in the certificate too.
	if st, _, err := searchGet(t, c, strings.Replace(base, "127.0.0.1", "localhost", 1)+"/_cluster/health", "avnadmin", pw); err != nil || st != 200 {
		t.Fatalf("via localhost: %d %v", st, err)
	}

	// A reset changes the password that works here.
	r := e.dev("PUT", svc+"/user/avnadmin", map[string]any{"operation": "reset-credentials"})
	expectStatus(t, r, 200)
	newPW := get(t, r.json(t), "user", "password").(string)
	if st, _, _ := searchGet(t, c, base+"/_cluster/health", "avnadmin", pw); st != 401 {
		t.Fatalf("old password after reset: %d", st)
	}
	if st, _, _ := searchGet(t, c, base+"/_cluster/health", "avnadmin", newPW); st != 200 {
		t.Fatalf("new password after reset: %d", st)
	}
	// A regular user works as well.
	u := e.admin("POST", svc+"/user", map[string]any{"username": "reader_one"})
	if st, _, _ := searchGet(t, c, base+"/_cluster/health", "reader_one", get(t, u.json(t), "user", "password").(string)); st != 200 {
		t.Fatalf("regular user: %d", st)
	}

	// Power off refuses connections; power on listens again and answers once RUNNING.
	expectStatus(t, e.admin("PUT", svc, map[string]any{"powered": false}), 200)
	c.CloseIdleConnections()
	if _, _, err := searchGet(t, c, base+"/_cluster/health", "avnadmin", newPW); err == nil {
		t.Fatal("powered-off service still answers")
	}
	expectStatus(t, e.admin("PUT", svc, map[string]any{"powered": true}), 200)
	if st, _, err := searchGet(t, c, base+"/_cluster/health", "avnadmin", newPW); err != nil || st != 503 {
		t.Fatalf("rebuilding: %d %v", st, err)
	}
	e.clock.Advance(10 * time.Second)
	if st, body, _ := searchGet(t, c, base+"/_cat/indices?format=json", "avnadmin", newPW); st != 200 || !strings.Contains(body, "logs") {
		t.Fatalf("after power on: %d %s (data must survive power off)", st, body)
	}

	// A plan change keeps serving while REBALANCING.
	expectStatus(t, e.admin("PUT", svc, map[string]any{"plan": "business-4"}), 200)
	if st, _, err := searchGet(t, c, base+"/_cluster/health", "avnadmin", newPW); err != nil || st != 200 {
		t.Fatalf("rebalancing: %d %v", st, err)
	}

	// Deleting the service stops its listener.
	expectStatus(t, e.admin("DELETE", svc, nil), 200)
	c.CloseIdleConnections()
	if _, _, err := searchGet(t, c, base+"/_cluster/health", "avnadmin", newPW); err == nil {
		t.Fatal("deleted service still answers")
	}
}

func TestSearchForCreatedService(t *testing.T) {
	e := newEnv(t, Options{Search: true, ProvisionDelay: time.Second})
	r := e.admin("POST", "/v1/project/acme-staging/service", map[string]any{
		"service_name": "os-new", "service_type": "opensearch", "plan": "startup-4", "cloud": "aws-eu-west-1",
	})
	expectStatus(t, r, 200)
	ci := e.admin("GET", "/v1/project/acme-staging/service/os-new/connection_info", nil).json(t)
	if ci["host"] != "127.0.0.1" {
		t.Fatalf("host %v", ci["host"])
	}
	e.clock.Advance(time.Second)
	c := searchClient(t, ci["ca_cert"].(string))
	url := fmt.Sprintf("https://127.0.0.1:%d/_cluster/health", int(ci["port"].(float64)))
	if st, _, err := searchGet(t, c, url, "avnadmin", ci["password"].(string)); err != nil || st != 200 {
		t.Fatalf("new service: %d %v", st, err)
	}
	// Without search the host stays synthetic.
	e2 := newEnv(t, Options{})
	ci = e2.admin("GET", "/v1/project/acme-prod/service/opensearch-logs/connection_info", nil).json(t)
	if ci["host"] != "opensearch-logs-acme-prod.svc.sandbox.test" || ci["port"].(float64) != 9200 {
		t.Fatalf("search off: %v:%v", ci["host"], ci["port"])
	}
}
