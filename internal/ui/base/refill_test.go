package base

import (
	"testing"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/theme"
)

// A refresh builds the new rows in the previous rows' storage, not beside them (two
// sets of rows of a large list were the peak of its memory), and the cursor stays on
// the item it was on, wherever that item is now.
func TestRefreshBuildsRowsInThePreviousRowsPlace(t *testing.T) {
	ctx := common.NewContext()
	ctx.Styles = theme.New(theme.Dark, true)
	l := newTestList(ctx)
	l.SetSize(80, 10)
	l.SetItems([]item{{"a"}, {"b"}, {"c"}, {"d"}})
	l.Table.Select("b")
	before := &l.Table.Rows()[0]
	l.SetItems([]item{{"d"}, {"c"}, {"b"}, {"a"}})
	if after := &l.Table.Rows()[0]; after != before {
		t.Fatal("the rows of the refresh were made in new storage beside the previous ones")
	}
	if it, ok := l.Selected(); !ok || it.name != "b" {
		t.Fatalf("selected %v %v after the refresh, want b", it, ok)
	}
	for i, want := range []string{"d", "c", "b", "a"} {
		if r := l.Table.Rows()[i]; r.Key != want || r.Cells[0] != want {
			t.Fatalf("row %d is %+v, want %s", i, r, want)
		}
	}
	l.SetItems([]item{{"e"}, {"b"}})
	if it, ok := l.Selected(); !ok || it.name != "b" || len(l.Table.Rows()) != 2 {
		t.Fatalf("selected %v %v of %d rows after a shorter refresh, want b of 2", it, ok, len(l.Table.Rows()))
	}
}
