package common_test

import (
	"reflect"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/uitest"
)

// Without a root (a view's own test) the moves are the messages, in order; under one
// they are taken at once, in order, and no command is left to run.
func TestMovesAreMessagesWithoutARootAndTakenUnderOne(t *testing.T) {
	moves := []common.Move{common.SelectProject{Name: "p"}, common.SwitchTab{Tab: common.TabServices}, common.PopView{}}
	ctx := common.NewContext()
	want := []tea.Msg{moves[0], moves[1], moves[2]}
	if got := uitest.Run(ctx.Go(moves...)); !reflect.DeepEqual(got, want) {
		t.Fatalf("without a root: %#v, want %#v", got, want)
	}
	if msg := ctx.Pop()(); msg != (common.PopView{}) {
		t.Fatalf("one move is its message: %#v", msg)
	}

	var taken []common.Move
	ctx.TakesMoves(func(m common.Move) { taken = append(taken, m) })
	if cmd := ctx.Go(moves...); cmd != nil || !reflect.DeepEqual(taken, moves) {
		t.Fatalf("under a root: cmd %v, taken %#v", cmd != nil, taken)
	}
}
