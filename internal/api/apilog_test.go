package api

import (
	"net/http"
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
