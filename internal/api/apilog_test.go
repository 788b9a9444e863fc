package api

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/svcui/svcui/internal/apilog"
)

// The session log sees every attempt, retries numbered, through WrapTransport.
func TestTheAPILogSeesEveryAttempt(t *testing.T) {
	log := apilog.New(10)
	var calls atomic.Int32
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			writeErr(w, 503, "busy")
			return
		}
		writeJSON(w, 200, `{"services":[]}`)
	}), func(o *Options) {
		o.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { return log.Wrap("api", rt) }
	})
	if _, err := c.ListServices(ctxT(t), "p"); err != nil {
		t.Fatal(err)
	}
	es := log.Entries()
	if len(es) != 2 || es[1].Status != 503 || es[1].Attempt != 0 || es[0].Status != 200 || es[0].Attempt != 1 {
		t.Fatalf("entries %+v", es)
	}
	if es[0].Path != "/v1/project/p/service" || es[0].ReqHeader.Get("Authorization") != "svcv1 ***" {
		t.Fatalf("entry %+v", es[0])
	}
}

// A fan-out of 200 requests is one entry of the log that opens to its requests, so a
// ring of 100 keeps the requests before it; its successful answers keep no body.
func TestTheAPILogKeepsAFanOutAsOneEntry(t *testing.T) {
	log := apilog.New(100)
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/project/p-007/service" {
			writeErr(w, 404, "Project does not exist")
			return
		}
		writeJSON(w, 200, `{"services":[{"service_name":"pg","service_type":"pg","state":"RUNNING"}]}`)
	}), func(o *Options) {
		o.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { return log.Wrap("api", rt) }
	})
	if _, err := c.ListServices(ctxT(t), "before"); err != nil {
		t.Fatal(err)
	}
	projects := make([]string, 200)
	for i := range projects {
		projects[i] = fmt.Sprintf("p-%03d", i)
	}
	c.ListServicesAcrossProjects(ctxT(t), projects)
	es := log.Entries()
	if len(es) != 2 || es[1].Path != "/v1/project/before/service" {
		t.Fatalf("%d entries, want the request before and the fan-out: %+v", len(es), es)
	}
	fan := es[0]
	if fan.Requests != 200 || fan.Failed != 1 || fan.Status != 404 || !fan.Done || fan.Path != "/v1/project/*/service (200 projects)" {
		t.Fatalf("fan-out entry %+v", fan)
	}
	reqs, ok := log.Requests(fan.Seq)
	if !ok || len(reqs) != 200 {
		t.Fatalf("the fan-out opens to %d requests", len(reqs))
	}
	for _, r := range reqs {
		if r.Status == 200 && r.RespBody != "" {
			t.Fatalf("a fan-out's successful answer kept its body: %q", r.RespBody)
		}
		if r.Status == 404 && !strings.Contains(r.RespBody, "does not exist") {
			t.Fatalf("a fan-out's failed answer lost its body: %+v", r)
		}
	}
	if one, ok := log.Get(reqs[0].Seq); !ok || one.Path != reqs[0].Path {
		t.Fatalf("one of the fan-out's requests is not found by its number")
	}
}
