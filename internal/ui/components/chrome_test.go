package components

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/theme"
	"github.com/svcui/svcui/internal/ui/uitest"
)

func TestFooterKeepsWholeEntriesAndHelp(t *testing.T) {
	bind := func(k, desc string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, desc)) }
	help := []key.Binding{
		bind("enter", "open"), bind("c", "create"), bind("e", "edit"), bind("d", "delete"),
		bind("a", "this project / all"), bind("/", "filter"), bind(":", "command"), bind("?", "help"), bind("q", "quit"),
	}
	out := Footer(testCtx(), theme.LevelInfo, "", help, 80)
	line := ansi.Strip(strings.Split(out, "\n")[1])
	if ansi.StringWidth(line) > 80 {
		t.Fatalf("footer wider than 80: %q", line)
	}
	if strings.Contains(line, "…") || !strings.Contains(line, "? help") || !strings.HasPrefix(line, "enter open") {
		t.Fatalf("footer should hold whole entries and keep ? help: %q", line)
	}
	wide := ansi.Strip(strings.Split(Footer(testCtx(), theme.LevelInfo, "", help, 160), "\n")[1])
	if !strings.Contains(wide, ": command  ? help  q quit") {
		t.Fatalf("wide footer lost entries: %q", wide)
	}
}

func TestHeaderGivesUpRateLimitThenLeadingCrumbs(t *testing.T) {
	ctx := testCtx()
	ctx.Profile = "sandbox"
	uitest.Session(ctx).SetProject("acme-prod")
	uitest.Roles(ctx, map[string]models.Role{"acme-prod": models.RoleAdmin})
	ctx.Platform.RateLimit = func() common.RateLimit { return common.RateLimit{Known: true, Remaining: 1190, Limit: 1200} }
	live := LiveState{Interval: 10 * time.Second, LastOK: ctx.Now()}
	crumbs := []string{"acme-prod", "Services", "caching-sessions"}

	wide := ansi.Strip(Header(ctx, crumbs, live, 160, 0))
	if !strings.Contains(wide, "acme-prod › Services › caching-sessions") || !strings.Contains(wide, "API 1190/1200") {
		t.Fatalf("wide header: %q", wide)
	}
	narrow := ansi.Strip(Header(ctx, crumbs, live, 80, 0))
	if ansi.StringWidth(narrow) != 80 || strings.Contains(narrow, "API") || !strings.Contains(narrow, "… › Services › caching-sessions") {
		t.Fatalf("narrow header should drop the rate limit and the leading crumb, keeping the view's name whole: %q", narrow)
	}
	// Room kept for a background part's notice: the same parts give way for it, in the
	// same order, and never the view's name.
	two := []string{"acme-prod", "Projects"}
	if h := ansi.Strip(Header(ctx, two, live, 80, 0)); !strings.Contains(h, "API 1190/1200") || !strings.Contains(h, "acme-prod › Projects") {
		t.Fatalf("an 80-column header with no room kept: %q", h)
	}
	h := ansi.Strip(Header(ctx, two, live, 80, 15))
	if ansi.StringWidth(h) != 80 || strings.Contains(h, "API") || !strings.Contains(h, "acme-prod › Projects") || !strings.Contains(h, strings.Repeat(" ", 15)) {
		t.Fatalf("15 columns kept: the rate limit should give way first: %q", h)
	}
	h = ansi.Strip(Header(ctx, two, live, 80, 20))
	if ansi.StringWidth(h) != 80 || !strings.Contains(h, "… › Projects") || !strings.Contains(h, strings.Repeat(" ", 20)) {
		t.Fatalf("20 columns kept: then the leading crumb: %q", h)
	}
	if h := ansi.Strip(Header(ctx, two, live, 80, 200)); ansi.StringWidth(h) != 80 || !strings.Contains(h, "Projects") {
		t.Fatalf("more room than there is: the view keeps its name: %q", h)
	}
}
