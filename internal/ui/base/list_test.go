package base

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/api"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/theme"
	"github.com/svcui/svcui/internal/ui/uitest"
)

type item struct{ name string }

func newTestList(ctx *common.Context) *List[item] {
	return NewList(ctx, ListSpec[item]{
		Title: "Things", Noun: "thing", Columns: []components.Column{{Title: "Name", Flex: true}},
		Load: func() (Fetcher[item], string) {
			return func(context.Context) ([]item, error) { return []item{{"a"}, {"b"}}, nil }, ""
		},
		Key: func(i item) string { return i.name },
		Row: func(i item) components.Row { return components.Row{Cells: []string{i.name}} },
	})
}

// A list the client read only in part shows what it could read and says what it left out.
func TestListSaysWhatTheClientLeftOut(t *testing.T) {
	ctx := common.NewContext()
	ctx.Styles = theme.New(theme.Dark, true)
	ctx.Platform.SkipReport = func(c context.Context) (context.Context, func() string) {
		return c, func() string { return "1 entry could not be read and was left out" }
	}
	l := newTestList(ctx)
	l.SetSize(80, 10)
	var warned []string
	for _, msg := range uitest.Run(l.Init()) {
		if n, ok := msg.(common.Notify); ok {
			warned = append(warned, n.Text)
		}
		for _, m := range uitest.Run(l.Handle(msg)) {
			if n, ok := m.(common.Notify); ok {
				warned = append(warned, n.Text)
			}
		}
	}
	view := ansi.Strip(l.View())
	if len(l.Items()) != 2 || !strings.Contains(view, "left out") || len(warned) != 1 {
		t.Fatalf("items %d, warned %v, view:\n%s", len(l.Items()), warned, view)
	}
}

// A key that does nothing in a view says so (y on a list with nothing to copy), while
// the table's own keys and the view's actions stay silent.
func TestAKeyWithNoActionSaysWhy(t *testing.T) {
	ctx := common.NewContext()
	l := newTestList(ctx)
	l.SetSize(80, 10)
	for _, msg := range uitest.Run(l.Init()) {
		uitest.Run(l.Handle(msg))
	}
	said := func(k string) string {
		for _, m := range uitest.Run(l.Handle(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)})) {
			if n, ok := m.(common.Notify); ok {
				return n.Text
			}
		}
		return ""
	}
	if got := said("y"); !strings.Contains(got, "“y” (copy) does nothing in Things") {
		t.Fatalf("y said %q", got)
	}
	if got := said("j"); got != "" {
		t.Fatalf("j (the table's) said %q", got)
	}
}

// A live refresh is background work; when the rate limit stops it, the list keeps its
// rows, says "rate limited by the platform; retrying at …" (also to :messages), and
// tells the root when to try again instead of failing.
func TestRateLimitedRefreshKeepsTheRows(t *testing.T) {
	ctx := common.NewContext()
	ctx.Styles = theme.New(theme.Dark, true)
	retry := time.Date(2026, 11, 27, 16, 4, 5, 0, time.UTC)
	limited := errors.New("429")
	ctx.Platform.RateLimited = func(err error) (time.Time, bool, bool) { return retry, true, errors.Is(err, limited) }
	ctx.Now = func() time.Time { return retry.Add(-time.Minute) }
	var background []bool
	fail := false
	l := NewList(ctx, ListSpec[item]{
		Title: "Things", Columns: []components.Column{{Title: "Name", Flex: true}},
		Load: func() (Fetcher[item], string) {
			return func(c context.Context) ([]item, error) {
				background = append(background, api.ClassOf(c) == api.Background)
				if fail {
					return nil, limited
				}
				return []item{{"a"}, {"b"}}, nil
			}, ""
		},
		Key: func(i item) string { return i.name },
		Row: func(i item) components.Row { return components.Row{Cells: []string{i.name}} },
	})
	l.SetSize(80, 10)
	for _, msg := range uitest.Run(l.Init()) {
		uitest.Run(l.Handle(msg))
	}
	fail = true
	var done common.RefreshDone
	var said []string
	for _, msg := range uitest.Run(l.Refresh()) {
		for _, m := range uitest.Run(l.Handle(msg)) {
			switch m := m.(type) {
			case common.RefreshDone:
				done = m
			case common.Notify:
				said = append(said, m.Text)
			}
		}
	}
	want := "rate limited by the platform; retrying at 16:04:05"
	view := ansi.Strip(l.View())
	if len(l.Items()) != 2 || !strings.Contains(view, want) {
		t.Fatalf("rows %d, view:\n%s", len(l.Items()), view)
	}
	if !done.RetryAt.Equal(retry) || len(said) != 1 || said[0] != want {
		t.Errorf("RefreshDone %+v, said %q", done, said)
	}
	if len(background) != 2 || background[0] || !background[1] {
		t.Errorf("first load foreground, refresh background: %v", background)
	}
}

// Read-only mode drops a view's mutating actions: their key is refused with a sentence
// naming the action, help leaves them out; the view's other actions run.
func TestReadOnlyDropsTheMutatingActions(t *testing.T) {
	ctx := common.NewContext()
	ctx.ReadOnly = true
	ran := ""
	l := newTestList(ctx)
	// assign mutates by its binding; "w" here by the view's word.
	l.Spec.Actions = []Action[item]{
		{Key: ctx.Keys.Assign, NoSelection: true, Run: func(item) tea.Cmd { ran += "assign "; return nil }},
		{Key: ctx.Keys.Invoices, NoSelection: true, Run: func(item) tea.Cmd { ran += "invoices "; return nil }},
		{Key: ctx.Keys.Watch, Help: "wipe", Mutating: true, NoSelection: true, Run: func(item) tea.Cmd { ran += "wipe "; return nil }},
	}
	var said []string
	for _, k := range []string{"p", "i", "w"} {
		for _, m := range uitest.Run(l.Handle(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)})) {
			if n, ok := m.(common.Notify); ok {
				said = append(said, n.Text)
			}
		}
	}
	if ran != "invoices " || strings.Join(said, "|") != "Read-only mode: assign a project is disabled|Read-only mode: wipe is disabled" {
		t.Fatalf("ran %q, said %q", ran, said)
	}
	for _, b := range append(l.ShortHelp(), l.FullHelp()[0]...) {
		if b.Help().Desc == "assign a project" {
			t.Fatal("help lists a mutating action in read-only mode")
		}
	}
	if l.Keys().Find(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("p")}) >= 0 {
		t.Fatal("the key set keeps a mutating action in read-only mode")
	}
}

// A result of a kind no part of the view handles is logged with its kind, not lost
// without a trace.
func TestAResultOfAnUnhandledKindIsLogged(t *testing.T) {
	ctx := common.NewContext()
	ctx.Styles = theme.New(theme.Dark, true)
	var logged strings.Builder
	ctx.Log = slog.New(slog.NewTextHandler(&logged, nil))
	l := newTestList(ctx)
	l.Handle(common.Result[[]item]{Addr: common.Addr{View: l.ID(), Kind: common.NewKind("stray-read")}})
	l.Handle(common.Result[int]{Addr: common.Addr{View: l.ID(), Kind: common.NewKind("stray-count")}})
	if s := logged.String(); strings.Count(s, "result dropped") != 2 || !strings.Contains(s, "kind=stray-read") || !strings.Contains(s, "kind=stray-count") {
		t.Fatalf("log: %q", s)
	}
}
