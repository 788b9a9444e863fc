package changes

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/journal"
	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// The reader's reads are background work: half the interval's share of the platform's
// limit at most, spread over what is left of the window, none from the half the
// budget owner keeps for key presses.
func TestTheReaderSpendsNoMoreThanTheBudgetLeavesIt(t *testing.T) {
	ctx := testCtx(journal.New())
	ctx.Refresh = 2 * time.Second
	now := t0
	ctx.Now = func() time.Time { return now }
	r := NewReader(ctx, journal.NewHere(time.Now))
	for _, c := range []struct {
		name            string
		remaining       int
		reset           time.Duration
		want            int
		limit, interval int
	}{
		{"a fresh window: half the interval's share (1200/min × 2 s / 2)", 1200, time.Minute, 20, 1200, 2},
		{"a large limit: no more than maxPerRound", 100000, time.Minute, maxPerRound, 100000, 2},
		{"the last half is the person's", 600, 30 * time.Second, 0, 1200, 2},
		{"what is left above the half, spread to the reset", 700, 40 * time.Second, 5, 1200, 2},
	} {
		ctx.Refresh = time.Duration(c.interval) * time.Second
		ctx.Platform.RateLimit = func() common.RateLimit {
			return common.RateLimit{Limit: c.limit, Remaining: c.remaining, Reset: now.Add(c.reset), Known: true}
		}
		if got := r.allowance(); got != c.want {
			t.Errorf("%s: %d reads, want %d", c.name, got, c.want)
		}
	}
}

// What changed while the console was closed is announced once the account has been read
// again; an estimate that grew by itself in the meantime is listed, not counted (it
// grows between any two starts, so counted, the notice would always be there).
func TestTheNoticeCountsWhatSomeoneChangedWhileClosed(t *testing.T) {
	estimate := func(balance string) []journal.Item {
		amount, err := models.ParseAmount(balance)
		if err != nil {
			t.Fatal(err)
		}
		return journal.FromEstimate(models.Estimate{EstimatedBalance: amount, BillingCurrency: "EUR"})
	}
	users := func(names ...string) []journal.Item {
		var out []journal.Item
		for _, n := range names {
			out = append(out, journal.FromUser(models.ServiceUser{Username: n}))
		}
		return out
	}
	path := filepath.Join(t.TempDir(), "journal.json")
	last := journal.New()
	last.Observe(journal.EstimateOf("acme"), estimate("906.90"), t0)
	last.Observe(journal.UsersOf("acme", "pg-main"), users("avnadmin", "carol"), t0)
	if err := last.Save(path, t0); err != nil {
		t.Fatal(err)
	}

	opened := t0.Add(time.Hour)
	j, err := journal.Load(path, opened)
	if err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(j)
	r := NewReader(ctx, journal.NewHere(time.Now))
	r.Init()
	r.Update(loaded{gen: r.gen, j: j})
	found := append(j.Observe(journal.EstimateOf("acme"), estimate("906.91"), opened),
		j.Observe(journal.UsersOf("acme", "pg-main"), users("avnadmin"), opened)...)
	if len(found) != 2 || !found[0].Away || !found[1].Away {
		t.Fatalf("the first reads found %+v, want the estimate and carol, both while closed", found)
	}
	r.Update(round{gen: r.gen, found: found, cycled: true})
	if want := "since you last looked (1 change)"; r.notice != want {
		t.Errorf("the notice is %q, want %q", r.notice, want)
	}
	// At 80 columns too, where the header is full: it keeps the notice's room.
	ctx.Profile = "production-eu"
	ctx.Platform.RateLimit = func() common.RateLimit { return common.RateLimit{Known: true, Remaining: 1027, Limit: 1200} }
	header := components.Header(ctx, []string{"acme-prod", "Projects"}, components.LiveState{Interval: 2 * time.Second, LastOK: opened}, 80, r.HeaderRoom())
	if h := ansi.Strip(r.IntoHeader(header)); !strings.Contains(h, "(1 change)") || !strings.Contains(h, "Projects") {
		t.Errorf("the 80-column header has no notice: %q", h)
	}
	v := NewView(ctx)
	v.SetSize(140, 20)
	load(t, v)
	if got, want := v.Title(), "Changes (since you last looked: 1 change)"; got != want {
		t.Errorf("the view's title is %q, want %q", got, want)
	}
	if out := v.View(); !strings.Contains(out, "906.90 EUR → 906.91 EUR") || !strings.Contains(out, "carol") {
		t.Errorf("the view does not list both changes:\n%s", out)
	}
}
