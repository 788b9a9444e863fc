package base

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/uitest"
)

// markList is a list whose answer the test changes between loads.
func markList(ctx *common.Context, names *[]string) *List[item] {
	return NewList(ctx, ListSpec[item]{
		Title: "Things", Noun: "thing", Columns: []components.Column{{Title: "Name", Flex: true}, {Title: "Note"}},
		Load: func() (Fetcher[item], string) {
			ns := append([]string(nil), (*names)...)
			return func(context.Context) ([]item, error) {
				out := make([]item, len(ns))
				for i, n := range ns {
					out[i] = item{n}
				}
				return out, nil
			}, ""
		},
		Key:     func(i item) string { return i.name },
		Row:     func(i item) components.Row { return components.Row{Cells: []string{i.name, "=1+1"}} },
		Actions: []Action[item]{{Key: ctx.Keys.Delete, Run: func(i item) tea.Cmd { return common.Info("deleted " + i.name) }}},
	})
}

// feed runs cmd and hands every message back to the list, returning the footer texts.
func feed(l *List[item], cmd tea.Cmd) []string {
	var said []string
	for _, m := range uitest.Run(cmd) {
		if n, ok := m.(common.Notify); ok {
			said = append(said, n.Text)
			continue
		}
		said = append(said, feed(l, l.Handle(m))...)
	}
	return said
}

func press(l *List[item], k tea.KeyMsg) []string { return feed(l, l.Handle(k)) }

var (
	space = tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	ctrlA = tea.KeyMsg{Type: tea.KeyCtrlA}
)

// Marks are kept by key through filters, sorts and refreshes; the title counts them;
// ctrl+a marks what the filter shows; a marked item that is gone leaves the marks with a
// sentence; :unmark clears them.
func TestMarksSurviveFiltersSortsAndRefreshes(t *testing.T) {
	ctx := common.NewContext()
	names := []string{"alpha", "beta", "gamma", "delta"}
	l := markList(ctx, &names)
	l.SetSize(80, 10)
	feed(l, l.Init())

	press(l, space) // alpha, cursor moves to beta
	press(l, space) // beta
	if got := l.Title(); got != "Things · 2 marked" {
		t.Fatalf("title %q", got)
	}
	if v := ansi.Strip(l.View()); !strings.Contains(v, " *alpha") || !strings.Contains(v, " *beta") || !strings.Contains(v, "› gamma") {
		t.Fatalf("marks not drawn:\n%s", v)
	}
	l.Table.SetFilter("ta") // beta, delta
	l.Table.SortBy(0, true)
	if m := l.Marked(); len(m.Items) != 2 || m.HiddenCount() != 1 || m.Items[0].name != "alpha" {
		t.Fatalf("marked %+v", m)
	}
	press(l, ctrlA) // marks beta and delta
	l.Table.SetFilter("")
	feed(l, l.Load())
	if m := l.Marked(); len(m.Items) != 3 || m.HiddenCount() != 0 {
		t.Fatalf("after ctrl+a and a refresh: %+v", m)
	}

	names = []string{"alpha", "gamma", "delta"} // beta deleted elsewhere
	said := feed(l, l.Load())
	if l.MarkCount() != 2 || !strings.Contains(strings.Join(said, "|"), "Marked thing beta no longer exists and was unmarked; 2 marked now") {
		t.Fatalf("count %d, said %q", l.MarkCount(), said)
	}
	// A mutating key with marks and no bulk action is refused, never run on one row.
	if said := press(l, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("d")}); len(said) != 1 || !strings.Contains(said[0], "does not apply to marked things") {
		t.Fatalf("d with marks said %q", said)
	}
	if said := feed(l, l.Handle(common.Unmark{})); l.MarkCount() != 0 || said[0] != "Unmarked 2 things" || l.Title() != "Things" {
		t.Fatalf("unmark: %d %q", l.MarkCount(), said)
	}
}

// An export writes every row the filter shows (not only the window's), 0600, and says
// how many; a cell a spreadsheet would run as a formula is written as text.
func TestExportWritesEveryShownRow(t *testing.T) {
	ctx := common.NewContext()
	var names []string
	for i := 0; i < 300; i++ {
		names = append(names, "svc-"+strings.Repeat("x", i%3)+string(rune('a'+i%26)))
	}
	l := markList(ctx, &names)
	l.SetSize(80, 10) // 8 rows in the window
	feed(l, l.Init())
	l.Table.SetFilter("xx")
	if l.Table.Len() < 50 {
		t.Fatalf("the filter shows %d rows", l.Table.Len())
	}
	file := filepath.Join(t.TempDir(), "out.csv")
	if err := os.WriteFile(file, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	said := feed(l, l.Handle(common.Export{Format: common.ExportCSV, File: file}))
	if len(said) != 1 || !strings.HasPrefix(said[0], fmt.Sprintf("Exported %d things to %s", l.Table.Len(), file)) {
		t.Fatalf("said %q", said)
	}
	st, err := os.Stat(file)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v", st.Mode(), err)
	}
	f, _ := os.Open(file)
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(recs) != l.Table.Len()+1 || recs[0][0] != "Name" || recs[1][1] != "'=1+1" {
		t.Fatalf("%d records (%v): %q", len(recs), err, recs[:2])
	}
}
