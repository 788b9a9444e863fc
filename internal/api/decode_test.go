package api

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/svcui/svcui/internal/models"
)

// A list longer than several pages, with entries left out at and around the page
// boundaries, comes back whole and in order: chunked (collected in pages, then
// copied once) and with a Content-Length (presized past the first page).
func TestLongListsKeepEveryEntryInOrder(t *testing.T) {
	per := pageLen[models.Service]()
	n := max(3*per, 16_000) + per/2 // past several pages and over 1 MB, so presize works too
	var body strings.Builder
	body.WriteString(`{"services":[`)
	var want []string
	for i := range n {
		if i > 0 {
			body.WriteByte(',')
		}
		switch {
		case i%per == per-1 || i%per == 0 || i%97 == 5:
			body.WriteString(`{"service_name":""}`) // dropped, unnamed
		case i%101 == 7:
			body.WriteString(`{"service_name":"bad","node_count":"many"}`) // dropped, malformed
		default:
			name := fmt.Sprintf("svc-%06d", i)
			want = append(want, name)
			fmt.Fprintf(&body, `{"service_name":%q,"plan":"business-4","cloud_name":"aws-eu-west-1"}`, name)
		}
	}
	body.WriteString(`]}`)
	answer := body.String()
	if len(answer) < 1<<20 {
		t.Fatalf("answer of %d bytes is too small to be presized; the test would not reach that path", len(answer))
	}

	for _, withLength := range []bool{false, true} {
		t.Run(fmt.Sprintf("content-length=%v", withLength), func(t *testing.T) {
			c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				if withLength {
					w.Header().Set("Content-Length", strconv.Itoa(len(answer)))
				}
				// Written in pieces so that, without a length, the answer is chunked.
				for rest := answer; rest != ""; {
					k := min(len(rest), 8<<10)
					_, _ = w.Write([]byte(rest[:k]))
					rest = rest[k:]
				}
			}))
			svcs, err := c.ListServices(ctxT(t), "p")
			if err != nil {
				t.Fatal(err)
			}
			if len(svcs) != len(want) {
				t.Fatalf("%d services, want %d", len(svcs), len(want))
			}
			for i, s := range svcs {
				if s.ServiceName != want[i] || s.Plan != "business-4" {
					t.Fatalf("entry %d is %q (plan %q), want %q", i, s.ServiceName, s.Plan, want[i])
				}
			}
		})
	}
}
