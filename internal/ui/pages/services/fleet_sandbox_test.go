package services

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/api"
	"github.com/svcui/svcui/internal/fleet"
	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/sandbox"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/plans"
	"github.com/svcui/svcui/internal/ui/uitest"
)

// requestLog records, per PUT path, how many writes the sandbox executed: answered 2xx,
// or executed and then cut off (drop-after hijacks the connection).
type requestLog struct {
	mu       sync.Mutex
	executed map[string]int
	lost     int // writes executed whose answer the sandbox cut off
}

type loggedWriter struct {
	http.ResponseWriter
	status   int
	hijacked bool
}

func (w *loggedWriter) WriteHeader(c int) { w.status = c; w.ResponseWriter.WriteHeader(c) }
func (w *loggedWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}
func (w *loggedWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	w.hijacked = true
	return w.ResponseWriter.(http.Hijacker).Hijack()
}

func (l *requestLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		lw := &loggedWriter{ResponseWriter: w}
		defer func() {
			if r.Method == http.MethodPut && (lw.hijacked || lw.status/100 == 2) {
				l.mu.Lock()
				l.executed[r.URL.Path]++
				if lw.hijacked {
					l.lost++
				}
				l.mu.Unlock()
			}
		}()
		h.ServeHTTP(lw, r)
	})
}

// plainAPI hides the client's streaming fan-out, so the all-projects list loads in one
// answer that the test's synchronous driver can wait for.
type plainAPI struct{ common.Client }

func startSandbox(t *testing.T, faults string, log *requestLog) (*httptest.Server, *sandbox.Sandbox) {
	t.Helper()
	sb, err := sandbox.New(sandbox.Options{Data: "scale:200", Seed: 7, Faults: faults, RateLimit: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	h := sb.Handler()
	if log != nil {
		h = log.wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); _ = sb.Close() })
	return srv, sb
}

// The measure: against a sandbox failing 10% of requests with a 500 and losing
// 5% of the answers to writes after doing them, mark 50 services in 5 projects, hide 20
// of them with a filter, set protection and a Sunday maintenance window on all: the
// plan says "50 (20 not shown)", every service reads back as planned, no write is
// executed twice, and the runbook run against a fresh sandbox reaches the same state
// (and changes nothing when run again).
func TestFleetPlanAgainstAFaultySandbox(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a sandbox")
	}
	log := &requestLog{executed: map[string]int{}}
	srv, sb := startSandbox(t, "seed=7,500=0.1,drop-after=0.05", log)
	client, err := api.New(api.Options{BaseURL: srv.URL, Token: sb.AdminToken(), Sleep: func(context.Context, time.Duration) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := uitest.NewContext()
	ctx.Connect(plainAPI{client})
	ctx.APIURL = srv.URL
	ctx.StateDir = t.TempDir()
	ctx.Profile = "sandbox"
	ctx.Platform = common.Platform{Message: api.Message, IsOutcomeUnknown: api.IsOutcomeUnknown, IsNotFound: api.IsNotFound,
		RateLimit: func() common.RateLimit {
			rl := client.RateLimit()
			return common.RateLimit{Limit: rl.Limit, Remaining: rl.Remaining, Reset: rl.Reset, Known: rl.Known}
		}}
	roles := map[string]models.Role{}
	for i := 1; i <= 5; i++ {
		roles[fmt.Sprintf("scale-%05d", i)] = models.RoleAdmin
	}
	uitest.Roles(ctx, roles)
	uitest.Session(ctx).SetProject(ctx.ProjectNames[0])
	ctx.Width, ctx.Height, ctx.ScreenWidth, ctx.ScreenHeight = 160, 44, 160, 50

	l := New(ctx).(*List)
	l.SetSize(160, 44)
	for _, m := range run(l.Init()) {
		drive(l, m)
	}
	drive(l, showAll(true))
	if len(l.Items()) != 200 {
		t.Fatalf("the list has %d services", len(l.Items()))
	}
	// In each project 6 services on a business plan and 4 on another: the filter
	// "business" then hides 20 marked ones.
	per := map[string][2]int{}
	var marked []entry
	for _, e := range l.Items() {
		n := per[e.Project]
		biz := strings.HasPrefix(e.Service.Plan, "business")
		switch {
		case biz && n[0] < 6:
			n[0]++
		case !biz && n[1] < 4:
			n[1]++
		default:
			continue
		}
		per[e.Project] = n
		marked = append(marked, e)
		if !l.Table.Select(l.key(e)) {
			t.Fatalf("%s not shown", l.key(e))
		}
		drive(l, tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
	}
	l.Table.SetFilter("business")
	m := l.Marked()
	if len(m.Items) != 50 || m.HiddenCount() != 20 || !strings.Contains(l.Title(), "50 marked") {
		t.Fatalf("marked %d, hidden %d, title %q", len(m.Items), m.HiddenCount(), l.Title())
	}

	var prep bulkPrep
	for _, msg := range run(l.acts.startBulk(m, false)) {
		if r, ok := msg.(common.Result[bulkPrep]); ok {
			if r.Err != nil {
				t.Fatal(r.Err)
			}
			prep = r.Value
		}
	}
	p := planEdit(prep, bulkValues{Protect: "on", DOW: "sunday"}, time.Now)
	plan, why := plans.NewModal(ctx, p, prep.Marked.Hidden, false)
	if plan == nil {
		t.Fatal(why)
	}
	plan.SetSize(160, 50)
	if v := ansi.Strip(plan.View()); !strings.Contains(v, "Services: 50 (20 not shown)") {
		t.Fatalf("the plan does not say how many are hidden:\n%s", v)
	}
	if plan.Sendable() != 50 {
		t.Fatalf("%d rows to send", plan.Sendable())
	}
	pump := func(cmd tea.Cmd) {
		uitest.Pump(cmd, func(msg tea.Msg) tea.Cmd { _, c := plan.Update(msg); return c }, func(msg tea.Msg) bool {
			switch msg.(type) {
			case components.PlanProgress, components.PlanFinished:
				return true
			}
			return false
		})
	}
	key := func(k tea.KeyMsg) tea.Cmd { _, c := plan.Update(k); return c }
	key(tea.KeyMsg{Type: tea.KeyEnter})
	key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("50")})
	pump(key(tea.KeyMsg{Type: tea.KeyEnter}))

	dir := fleet.Dir(ctx.StateDir, ctx.Profile)
	t.Logf("first pass: %d done, %d refused, %d unknown", plan.Counts()[components.RowDone], plan.Counts()[components.RowRefused], plan.Counts()[components.RowUnknown])
	for pass := 0; plan.Counts()[components.RowDone] < 50; pass++ {
		if pass == 0 {
			// Rows the platform refused are kept on disk, 0600, without the token.
			kept, _, err := fleet.List(dir)
			if err != nil || len(kept) != 1 {
				t.Fatalf("kept %d plans: %v", len(kept), err)
			}
			path := filepath.Join(dir, kept[0].ID+".json")
			st, _ := os.Stat(path)
			b, _ := os.ReadFile(path)
			if st.Mode().Perm() != 0o600 || strings.Contains(string(b), sb.AdminToken()) {
				t.Fatalf("kept plan mode %v", st.Mode())
			}
		}
		if pass > 6 {
			t.Fatalf("after %d retries: %v", pass, plan.Counts())
		}
		pump(key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("r")}))
	}
	if kept, _, _ := fleet.List(dir); len(kept) != 0 {
		t.Fatalf("a finished plan is still kept: %d", len(kept))
	}

	// Every service reads back as planned; no write was executed twice.
	for _, e := range marked {
		s, err := client.GetService(context.Background(), e.Project, e.Service.ServiceName)
		if err != nil {
			t.Fatal(err)
		}
		if !s.TerminationProtection || s.Maintenance == nil || s.Maintenance.DOW != "sunday" {
			t.Fatalf("%s/%s reads back as %v %+v", e.Project, s.ServiceName, s.TerminationProtection, s.Maintenance)
		}
	}
	t.Logf("%d services written, %d answers lost after the write (read back, not resent)", len(log.executed), log.lost)
	for path, n := range log.executed {
		if n > 1 {
			t.Errorf("%s was written %d times", path, n)
		}
	}

	// The runbook reaches the same state on a fresh sandbox, and changes nothing the
	// second time.
	for _, tool := range []string{"sh", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s to run the runbook", tool)
		}
	}
	work := t.TempDir()
	script := filepath.Join(work, "plan.sh")
	if err := os.WriteFile(script, []byte(fleet.Runbook(p, srv.URL)), 0o700); err != nil {
		t.Fatal(err)
	}
	fresh, fsb := startSandbox(t, "", nil)
	runScript := func() string {
		cmd := exec.Command("sh", script)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "SVCUI_TOKEN="+fsb.AdminToken(), "SVCUI_API="+fresh.URL)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("runbook: %v\n%s", err, out)
		}
		if strings.Contains(string(out), fsb.AdminToken()) {
			t.Fatal("the runbook printed the token")
		}
		return string(out)
	}
	if out := runScript(); strings.Count(out, "changed ") != 50 {
		t.Fatalf("first run:\n%s", out)
	}
	if out := runScript(); strings.Count(out, "already so") != 50 {
		t.Fatalf("second run:\n%s", out)
	}
	if b, _ := os.ReadFile(script); strings.Contains(string(b), sb.AdminToken()) {
		t.Fatal("the runbook holds the token")
	}
	fc, _ := api.New(api.Options{BaseURL: fresh.URL, Token: fsb.AdminToken()})
	for _, e := range marked {
		a, _ := client.GetService(context.Background(), e.Project, e.Service.ServiceName)
		b, err := fc.GetService(context.Background(), e.Project, e.Service.ServiceName)
		if err != nil || a.TerminationProtection != b.TerminationProtection || fmt.Sprint(a.Maintenance) != fmt.Sprint(b.Maintenance) {
			t.Fatalf("%s: %v %+v here, %v %+v after the runbook (%v)", e.Service.ServiceName, a.TerminationProtection, a.Maintenance,
				b.TerminationProtection, b.Maintenance, err)
		}
	}
}
