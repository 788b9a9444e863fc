package base

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/common"
)

// The write protocol lives in common (common/write.go), the only package that holds
// the platform's write methods; base names it for the panes.
type (
	Verb         = common.Verb
	Refusable    = common.Refusable
	Write[T any] = common.Write[T]
)

const (
	Create = common.Create
	Update = common.Update
	Delete = common.Delete
	Reset  = common.Reset
)

// The kinds of request the bases send: a list's load, a detail's load.
var (
	KindList   = common.NewKind("list")
	KindDetail = common.NewKind("detail")
)

// SendWrite sends w once through the pipeline (common.SendWrite).
func SendWrite[T any](ctx *common.Context, req *common.Requests, w *Write[T]) tea.Cmd {
	return common.SendWrite(ctx, req, w)
}

// HandleWrite runs the rest of the protocol for the answers of SendWrite; handled
// reports that msg was one.
func HandleWrite[T any](ctx *common.Context, req *common.Requests, msg tea.Msg) (cmd tea.Cmd, handled bool) {
	return common.HandleWrite[T](ctx, req, msg)
}

// dropped logs a result no part of the view handles: a kind sent under one name and
// handled under another would otherwise vanish without a trace.
func dropped(ctx *common.Context, msg common.Addressed) {
	if ctx.Log == nil {
		return
	}
	kind := "?"
	if a, _, ok := common.Reply(msg); ok {
		kind = a.Kind.String()
	}
	ctx.Log.Warn("result dropped: no handler for its kind", "kind", kind, "type", fmt.Sprintf("%T", msg))
}

// noAction says why an action key does nothing in a view ("y does nothing in
// Services"), where before nothing happened and nothing was said. Movement, sorting and
// the filter are the table's and are not action keys.
func noAction(ctx *common.Context, msg tea.KeyMsg, title string) tea.Cmd {
	k := ctx.Keys
	for _, b := range []key.Binding{k.Open, k.Create, k.Edit, k.Delete, k.Reset, k.Reveal, k.Copy, k.CopyURI,
		k.Users, k.ACL, k.Topics, k.Databases, k.SearchTab, k.Launch,
		k.Invoices, k.Estimates, k.Credits, k.Assign, k.Download, k.Chart} {
		if key.Matches(msg, b) {
			what := b.Help().Desc
			if what == "" {
				what = "that"
			}
			return common.Info("“" + msg.String() + "” (" + what + ") does nothing in " + title + "; press ? for its keys")
		}
	}
	return nil
}
