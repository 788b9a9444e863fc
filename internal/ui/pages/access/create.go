package access

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// creation is a create in flight: what it makes (for sentences: "user app_x"), how to
// find it in a list, and the form that sent it (brought back when the platform refuses).
type creation[T any] struct {
	what string
	find func(T) bool
	form *components.Form
}

// made is a create's answer: the new item's key (the cursor goes there), the sentence
// to show, and for a user its one-time credentials.
type made struct {
	key  string
	text string
	cred *credentials
}

// readBack is the answer of reading a list back after a create of unknown outcome.
type readBack[T any] struct {
	items []T
	item  T
	found bool
}

// creator runs a view's creates: a refusal brings the form back with everything typed;
// an unknown outcome (the connection dropped after the request was sent) is never sent
// again: the list is read back and what is there is said.
type creator[T any] struct {
	ctx  *common.Context
	l    *base.List[T]
	last creation[T]
	// made runs after a create succeeded (a user's secret); found after a read-back
	// found the item (a user's password is lost: offer a reset). Both may be nil.
	made  func(made) tea.Cmd
	found func(T) tea.Cmd
}

// send starts a create; fn makes the request (inside a command).
func (c *creator[T]) send(cr creation[T], fn func(ctx context.Context) (made, error)) tea.Cmd {
	c.last = cr
	// In a tea.Batch a fast answer could arrive first and be overwritten by "Creating…".
	return tea.Sequence(common.Info("Creating "+cr.what+"…"), common.Fetch(c.l.Req, "create", fn))
}

// handle processes the answers of creates and read-backs; handled is false for other
// messages.
func (c *creator[T]) handle(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case common.Result[made]:
		if msg.Kind != "create" {
			return nil, false
		}
		if !c.l.Req.Current(msg.Addr) {
			return nil, true
		}
		return c.answered(msg.Value, msg.Err), true
	case common.Result[readBack[T]]:
		if !c.l.Req.Current(msg.Addr) {
			return nil, true
		}
		return c.readAnswered(msg.Value, msg.Err), true
	}
	return nil, false
}

func (c *creator[T]) answered(m made, err error) tea.Cmd {
	switch {
	case c.ctx.OutcomeUnknown(err):
		return c.readBack()
	case err != nil:
		text := c.ctx.ErrorText(err)
		if c.last.form == nil {
			return common.Error(text)
		}
		// In the footer too: it stays readable in :messages once the form is closed.
		return tea.Batch(common.Error(text), c.last.form.Refused(text))
	}
	c.l.SelectLater(m.key)
	cmds := []tea.Cmd{common.Success(m.text)}
	if c.made != nil {
		cmds = append(cmds, c.made(m))
	}
	return tea.Sequence(append(cmds, c.l.Load())...)
}

// readBack lists again to find out whether the create happened.
func (c *creator[T]) readBack() tea.Cmd {
	what, find := c.last.what, c.last.find
	f, _ := c.l.Spec.Load()
	if f == nil || find == nil {
		return common.Warn("The connection dropped after the request was sent, so whether " + what + " was created is unknown; press ctrl+r to see")
	}
	return tea.Sequence(common.Info("The connection dropped after the request was sent; checking whether "+what+" was created…"),
		common.Fetch(c.l.Req, "read-back", func(ctx context.Context) (readBack[T], error) {
			items, err := f(ctx)
			rb := readBack[T]{items: items}
			if err != nil {
				return rb, err
			}
			for _, it := range items {
				if find(it) {
					rb.item, rb.found = it, true
					break
				}
			}
			return rb, nil
		}))
}

func (c *creator[T]) readAnswered(rb readBack[T], err error) tea.Cmd {
	what := upperFirst(c.last.what)
	if err != nil {
		return common.Error(fmt.Sprintf("The connection dropped after the request was sent, and reading the list back failed too (%s); "+
			"whether %s was created is unknown: press ctrl+r to see. Nothing was sent again.", c.ctx.ErrorText(err), c.last.what))
	}
	c.l.SetItems(rb.items)
	if !rb.found {
		return common.Warn(what + " does not exist: nothing was created. Press c to create it.")
	}
	c.l.SelectLater(c.l.Spec.Key(rb.item))
	if c.found != nil {
		return c.found(rb.item)
	}
	return common.Success(what + " exists: it was created")
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// nameCheck validates a new name as typed: the rule, then the names already listed
// (taken when the form opens: huh runs validators off the program's goroutine, so they
// read only what they are given and what does not change).
func nameCheck[T any](l *base.List[T], what, service string, rule func(string) error) func(string) error {
	taken := map[string]bool{}
	for _, it := range l.Items() {
		taken[l.Spec.Key(it)] = true
	}
	return func(v string) error {
		if v == "" {
			return nil
		}
		if err := rule(v); err != nil {
			return err
		}
		if taken[v] {
			return fmt.Errorf("%s %s already exists on %s", what, v, service)
		}
		return nil
	}
}

// required refuses an empty value, then checks it.
func required(check func(string) error, what string) func(string) error {
	return func(v string) error {
		if strings.TrimSpace(v) == "" {
			return fmt.Errorf("%s is required", what)
		}
		return check(v)
	}
}

// intCheck validates a number field.
func intCheck(what string, rule func(int) error) func(string) error {
	return func(v string) error {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return fmt.Errorf("%s must be a whole number", what)
		}
		return rule(n)
	}
}

// live adapts a check to Form.Live, which runs on the program's goroutine and reads the
// variable the field is bound to.
func live(check func(string) error, v *string) func() error {
	return func() error { return check(*v) }
}

// unnamed refuses to send a create whose name is empty (the form's validation should
// have stopped it; a request must never be built from an empty name).
func unnamed(what, name string) tea.Cmd {
	if strings.TrimSpace(name) != "" {
		return nil
	}
	return common.Error("A " + what + " needs a name; nothing was sent")
}
