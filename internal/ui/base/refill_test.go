package base

import (
	"testing"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/theme"
)

// A refresh shows the new items' rows, and the cursor stays on the item it was on,
// wherever that item is now (the table keeps them in the previous rows' storage:
// components' TestRefillKeepsRowsInThePreviousRowsPlace).
func TestRefreshKeepsTheCursorOnItsItem(t *testing.T) {
	ctx := common.NewContext()
	ctx.Styles = theme.New(theme.Dark, true)
	l := newTestList(ctx)
	l.SetSize(80, 10)
	l.SetItems([]item{{"a"}, {"b"}, {"c"}, {"d"}})
	l.Table.Select("b")
	l.SetItems([]item{{"d"}, {"c"}, {"b"}, {"a"}})
	if it, ok := l.Selected(); !ok || it.name != "b" {
		t.Fatalf("selected %v %v after the refresh, want b", it, ok)
	}
	keys, cells := l.Table.ShownKeys(), l.Table.ShownCells()
	for i, want := range []string{"d", "c", "b", "a"} {
		if keys[i] != want || cells[i][0] != want {
			t.Fatalf("row %d is %s %v, want %s", i, keys[i], cells[i], want)
		}
	}
	l.SetItems([]item{{"e"}, {"b"}})
	if it, ok := l.Selected(); !ok || it.name != "b" || len(l.Table.ShownKeys()) != 2 {
		t.Fatalf("selected %v %v of %d rows after a shorter refresh, want b of 2", it, ok, len(l.Table.ShownKeys()))
	}
}
