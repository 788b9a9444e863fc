package apilog

import (
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/api"
	"github.com/svcui/svcui/internal/apilog"
	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/sandbox"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/uitest"
)

// session runs a few requests that carry secrets both ways through a log: the API
// client against the sandbox (token; a reset of credentials and connection info,
// whose answers hold passwords), and a search request with basic auth. It returns the
// log and every secret that went by.
func session(t *testing.T) (*apilog.Log, []string) {
	t.Helper()
	log := apilog.New(apilog.Capacity)
	sb, err := sandbox.New(sandbox.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sb.Handler())
	t.Cleanup(func() { srv.Close(); _ = sb.Close() })
	c, err := api.New(api.Options{BaseURL: srv.URL, Token: sb.AdminToken(),
		WrapTransport: func(rt http.RoundTripper) http.RoundTripper { return log.Wrap("api", rt) }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	secrets := []string{sb.AdminToken()}
	pl, err := c.ListProjects(ctx)
	if err != nil {
		t.Fatal(err)
	}
	project := pl.Projects[0].ProjectName
	svcs, err := c.ListServices(ctx, project)
	if err != nil {
		t.Fatal(err)
	}
	var reset int
	for _, s := range svcs {
		if s.State != models.StateRunning {
			continue
		}
		if ci, err := c.GetConnectionInfo(ctx, project, s.ServiceName); err == nil && ci.Password != "" {
			secrets = append(secrets, ci.Password)
		}
		users, _ := c.ListUsers(ctx, project, s.ServiceName)
		for _, u := range users {
			if u.Password != "" {
				secrets = append(secrets, u.Password)
			}
			if nu, err := c.ResetCredentials(ctx, project, s.ServiceName, u.Username); err == nil && nu.Password != "" {
				secrets = append(secrets, nu.Password)
				reset++
			}
		}
	}
	if reset == 0 || len(secrets) < 3 {
		t.Fatalf("the session saw too few secrets to test with (%d resets, %d secrets)", reset, len(secrets))
	}

	const password = "s3arch-Pa55word"
	search := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"hits":{"hits":[]}}`)
	}))
	t.Cleanup(search.Close)
	req, _ := http.NewRequest("POST", search.URL+"/logs/_search", strings.NewReader(`{"size":1}`))
	req.SetBasicAuth("avnadmin", password)
	res, err := (&http.Client{Transport: log.Wrap("search", nil)}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.ReadAll(res.Body)
	res.Body.Close()
	secrets = append(secrets, password, base64.StdEncoding.EncodeToString([]byte("avnadmin:"+password)))
	return log, secrets
}

func testCtx() *common.Context {
	ctx := common.NewContext()
	ctx.Width, ctx.Height, ctx.ScreenWidth, ctx.ScreenHeight = 240, 2000, 240, 2004
	return ctx
}

// copied runs a command and returns what it asked the root to copy.
func copied(t *testing.T, cmd tea.Cmd) string {
	t.Helper()
	for _, m := range uitest.Run(cmd) {
		if c, ok := m.(common.CopyRequest); ok {
			return c.Value
		}
	}
	t.Fatal("nothing copied")
	return ""
}

// Every line of the log, every request's detail and every curl copy, with the
// secrets that went by in both directions: none of them is there.
func TestTheLogNeverShowsATokenOrPassword(t *testing.T) {
	log, secrets := session(t)
	ctx := testCtx()
	l := New(ctx, log)
	l.SetSize(240, 2000)
	for _, m := range uitest.Run(l.Init()) {
		l.Update(m)
	}
	n := len(log.Entries())
	if n < 6 {
		t.Fatalf("%d entries", n)
	}
	var screens strings.Builder
	screens.WriteString(l.View())
	var curls []string
	for i := range n {
		e, ok := l.Selected()
		if !ok {
			t.Fatalf("nothing selected at row %d", i)
		}
		_, cmd := l.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")})
		curl := copied(t, cmd)
		curls = append(curls, curl)
		d := NewDetail(ctx, log, e.Seq)
		d.SetSize(240, 2000)
		for _, m := range uitest.Run(d.Init()) {
			d.Update(m)
		}
		d.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")}) // reveal: nothing to reveal
		screens.WriteString(d.View())
		_, cmd = d.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")}) // the curl field
		curls = append(curls, copied(t, cmd))
		l.Update(tea.KeyMsg{Type: tea.KeyDown})
	}
	all := screens.String() + strings.Join(curls, "\n")
	for _, s := range secrets {
		if strings.Contains(all, s) {
			t.Fatalf("the log shows the secret %q", s)
		}
	}
	for _, want := range []string{"svcv1 ***", "Basic ***", `"password": "***"`, "PUT", "reset-credentials"} {
		if !strings.Contains(all, want) {
			t.Errorf("the log lacks %q", want)
		}
	}
	var api, search int
	for _, c := range curls {
		switch {
		case strings.Contains(c, `-H "Authorization: svcv1 $SVCUI_TOKEN"`):
			api++
		case strings.Contains(c, "-u 'avnadmin'"):
			search++
		}
	}
	if api != 2*(n-1) || search != 2 {
		t.Fatalf("curl copies: %d read the token from $SVCUI_TOKEN, %d ask for the search password:\n%s", api, search, strings.Join(curls, "\n"))
	}
}

// A request whose body held a password is logged with "***": y on it copies the curl
// command and says, in the copy's own report, that it has masked values; a replay of
// it would set the password to ***.
func TestCurlCopyOfAMaskedRequestSaysSo(t *testing.T) {
	log := apilog.New(10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "{}") }))
	t.Cleanup(srv.Close)
	client := &http.Client{Transport: log.Wrap("search", nil)}
	for _, body := range []string{`{"password": "hunter2-secret"}`, `{"size": 1}`} {
		req, _ := http.NewRequest("PUT", srv.URL+"/_plugins/_security/api/internalusers/bob", strings.NewReader(body))
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.ReadAll(res.Body)
		res.Body.Close()
	}
	es := log.Entries()
	plain, masked := es[0], es[1]
	if !masked.ReqMasked || plain.ReqMasked {
		t.Fatalf("masked %v, plain %v", masked.ReqMasked, plain.ReqMasked)
	}
	label := func(e apilog.Entry) (string, string) {
		for _, m := range uitest.Run(copyCurl(e)) {
			if c, ok := m.(common.CopyRequest); ok {
				return c.Label, c.Value
			}
		}
		t.Fatal("nothing copied")
		return "", ""
	}
	if l, v := label(masked); !strings.Contains(l, "masked values") || !strings.Contains(v, `"password": "***"`) {
		t.Fatalf("copy of the masked request: label %q, value %s", l, v)
	}
	if l, _ := label(plain); strings.Contains(l, "masked") {
		t.Fatalf("copy of a plain request: label %q", l)
	}
	ctx := testCtx()
	d := NewDetail(ctx, log, masked.Seq)
	d.SetSize(240, 200)
	for _, m := range uitest.Run(d.Init()) {
		d.Update(m)
	}
	_, cmd := d.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")})
	for _, m := range uitest.Run(cmd) {
		if c, ok := m.(common.CopyRequest); ok && !strings.Contains(c.Label, "masked") {
			t.Fatalf("the detail's copy is labelled %q", c.Label)
		}
	}
}

// A fan-out is one line of :log ("· 80 requests") that enter opens to its requests,
// each of which opens to its headers; the ring is not flooded by it.
func TestTheLogShowsAFanOutAsOneEntryThatOpens(t *testing.T) {
	log := apilog.New(apilog.Capacity)
	sb, err := sandbox.New(sandbox.Options{Seed: 1, Data: "scale:4000"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sb.Handler())
	t.Cleanup(func() { srv.Close(); _ = sb.Close() })
	c, err := api.New(api.Options{BaseURL: srv.URL, Token: sb.AdminToken(),
		WrapTransport: func(rt http.RoundTripper) http.RoundTripper { return log.Wrap("api", rt) }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	pl, err := c.ListProjects(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range pl.Projects {
		names = append(names, p.ProjectName)
	}
	c.ListServicesAcrossProjects(ctx, names)
	if n := len(log.Entries()); n != 2 {
		t.Fatalf("%d entries for the project list and a fan-out of %d projects, want 2", n, len(names))
	}
	uctx := testCtx()
	l := New(uctx, log)
	l.SetSize(240, 2000)
	for _, m := range uitest.Run(l.Init()) {
		l.Update(m)
	}
	if !strings.Contains(l.View(), "/v1/project/*/service (80 projects) · 80 requests") {
		t.Fatalf("the fan-out's line is missing:\n%s", l.View())
	}
	_, cmd := l.Update(tea.KeyMsg{Type: tea.KeyEnter})
	var fan *List
	for _, m := range uitest.Run(cmd) {
		if p, ok := m.(common.PushView); ok {
			fan, _ = p.View.(*List)
		}
	}
	if fan == nil {
		t.Fatal("enter on the fan-out opened no list of its requests")
	}
	fan.SetSize(240, 2000)
	for _, m := range uitest.Run(fan.Init()) {
		fan.Update(m)
	}
	if got := strings.Count(fan.View(), "/v1/project/scale-"); got != 80 {
		t.Fatalf("the fan-out opens to %d requests, want 80:\n%s", got, fan.View())
	}
	_, cmd = fan.Update(tea.KeyMsg{Type: tea.KeyEnter})
	for _, m := range uitest.Run(cmd) {
		if p, ok := m.(common.PushView); ok {
			if _, ok := p.View.(*Detail); ok {
				return
			}
		}
	}
	t.Fatal("enter on one of the fan-out's requests opened no detail")
}
