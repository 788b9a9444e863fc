package components

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/safe"
	"github.com/svcui/svcui/internal/ui/theme"
)

// LiveState is what the header's live indicator shows.
type LiveState struct {
	// Interval is the current refresh interval; 0 when the view is not live.
	Interval time.Duration
	LastOK   time.Time
	Failures int
	Paused   bool
	// RetryAt is when the rate limit lets the view refresh again (zero: no wait).
	RetryAt time.Time
}

// clock is a refresh time as the user's wall clock shows it ("never" before the first).
func clock(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return t.Format("15:04:05")
}

// Header renders the one-line header: profile, role, breadcrumb, live indicator,
// rate limit, READ-ONLY. It is cut to width, dropping the least important parts first.
// room is the width its gap keeps free for what the background parts put there (the
// watches, the journal's notice): a healthy rate limit and the breadcrumb's leading
// levels give way for it, the current view's name does not.
func Header(ctx *common.Context, crumbs []string, live LiveState, width, room int) string {
	st := ctx.Styles
	left := st.Title.Render("svcui")
	if ctx.Profile != "" {
		left += " " + st.Muted.Render("["+safe.Text(ctx.Profile)+"]")
	}
	if ctx.Project() != "" && ctx.Role() != "" {
		left += " " + st.Muted.Render("as ") + safe.Text(string(ctx.Role()))
	}
	// Each crumb is sanitized once here, so every shortened form below is built from
	// sanitized text.
	crumbs = sanitized(crumbs)
	crumb := ""
	if len(crumbs) > 0 {
		crumb = st.Breadcrumb.Render(strings.Join(crumbs, " › "))
	}
	var right []string
	if live.Interval > 0 {
		// The clock time of the last good refresh, not its age: an age would need the
		// header to tick every second to stay true, and an idle console should not.
		switch {
		case live.Paused:
			right = append(right, st.Muted.Render("⏸ paused · "+clock(live.LastOK)))
		case !live.RetryAt.IsZero():
			right = append(right, st.Warn.Render("↻ rate limited · retry "+clock(live.RetryAt)+" · last ok "+clock(live.LastOK)))
		case live.Failures > 0:
			right = append(right, st.Warn.Render(fmt.Sprintf("↻ stale · failing (%d) · last ok %s", live.Failures, clock(live.LastOK))))
		case live.LastOK.IsZero():
			// Nothing has succeeded yet here: no time is shown as if it had.
			right = append(right, st.Muted.Render(fmt.Sprintf("↻ %s · not loaded yet", shortDuration(live.Interval))))
		default:
			right = append(right, st.Muted.Render(fmt.Sprintf("↻ %s · %s", shortDuration(live.Interval), clock(live.LastOK))))
		}
	}
	// A healthy rate limit is the first thing to give way when the line is short.
	spareRate := -1
	if ctx.Platform.RateLimit != nil {
		if rl := ctx.Platform.RateLimit(); rl.Known {
			s := fmt.Sprintf("API %d/%d", rl.Remaining, rl.Limit)
			if rl.Limit > 0 && rl.Remaining*10 < rl.Limit {
				right = append(right, st.Warn.Render(s))
			} else {
				spareRate = len(right)
				right = append(right, st.Muted.Render(s))
			}
		}
	}
	if ctx.Demo {
		right = append(right, st.ReadOnlyBadge.Render(" DEMO DATA "))
	}
	if ctx.ReadOnly {
		right = append(right, st.ReadOnlyBadge.Render(" READ-ONLY "))
	}
	r := strings.Join(right, "  ")
	l := left
	if crumb != "" {
		l += "  " + crumb
	}
	lw, rw := ansi.StringWidth(l), ansi.StringWidth(r)
	if lw+rw+1+room > width && spareRate >= 0 {
		r = strings.Join(append(right[:spareRate:spareRate], right[spareRate+1:]...), "  ")
		rw = ansi.StringWidth(r)
	}
	// Then the breadcrumb loses its leading levels, so the current view keeps its name.
	for n := 1; lw+rw+1+room > width && n < len(crumbs); n++ {
		l = left + "  " + st.Breadcrumb.Render("… › "+strings.Join(crumbs[n:], " › "))
		lw = ansi.StringWidth(l)
	}
	if lw+rw+1 > width {
		l = ansi.Truncate(l, max(0, width-rw-1), "…")
		lw = ansi.StringWidth(l)
	}
	if lw+rw+1 > width {
		return ansi.Truncate(l+" "+r, width, "…")
	}
	return l + strings.Repeat(" ", width-lw-rw) + r
}

func shortDuration(d time.Duration) string {
	if d%time.Minute == 0 && d >= time.Minute {
		return fmt.Sprintf("%dm", int(d/time.Minute))
	}
	return fmt.Sprintf("%ds", int(d.Round(time.Second)/time.Second))
}

// Tabs renders "1 Projects  2 Services  3 Users  4 Billing  5 Search" with the active one
// marked (style, plus brackets so it shows without colour).
func Tabs(ctx *common.Context, names []string, active, width int) string {
	st := ctx.Styles
	parts := make([]string, len(names))
	for i, n := range names {
		label := fmt.Sprintf("%d %s", i+1, n)
		if i == active {
			parts[i] = st.TabActive.Render("[" + label + "]")
		} else {
			parts[i] = st.TabInactive.Render(" " + label + " ")
		}
	}
	return ansi.Truncate(strings.Join(parts, " "), width, "…")
}

// Footer renders the latest message (glyph + level colour) on the first line and the
// focused view's short help on the second; both cut to width.
func Footer(ctx *common.Context, level theme.Level, message string, help []key.Binding, width int) string {
	st := ctx.Styles
	msg := ""
	if message != "" {
		msg = st.LevelStyle(level).Render(theme.LevelGlyph(level) + " " + safe.Text(message))
	}
	// Whole entries only: one that does not fit is left out (the help overlay lists it)
	// rather than cut mid-word; shorter ones after it, like "? help", still get their place.
	// Room for "? help" is kept, since it is the way to every other binding.
	entryWidth := func(b key.Binding) int {
		return ansi.StringWidth(b.Help().Key) + 1 + ansi.StringWidth(b.Help().Desc)
	}
	reserved := 0
	for _, b := range help {
		if b.Enabled() && b.Help().Key == "?" {
			reserved = entryWidth(b) + 2
		}
	}
	line, used := "", 0
	for _, b := range help {
		if !b.Enabled() || b.Help().Key == "" {
			continue
		}
		w := entryWidth(b)
		sep := 0
		if used > 0 {
			sep = 2
		}
		if b.Help().Key == "?" {
			reserved = 0
		}
		if used+sep+w+reserved > width {
			continue
		}
		if sep > 0 {
			line += "  "
		}
		line += st.HelpKey.Render(b.Help().Key) + " " + st.HelpDesc.Render(b.Help().Desc)
		used += sep + w
	}
	return ansi.Truncate(msg, width, "…") + "\n" + line
}

func sanitized(texts []string) []string {
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i] = safe.Text(t)
	}
	return out
}
