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
	noun, name string
	find       func(T) bool
	form       *components.Form
}

// made is a create's answer: the new item's key (the cursor goes there), the sentence
// to show, and for a user its one-time credentials. A read-back that found the item
// has item set instead of the sentence and credentials.
type made struct {
	key  string
	text string
	cred *credentials
	item any
}

// creator runs a view's creates through the console's write protocol (base.Write): a
// refusal brings the form back with everything typed; an unknown outcome (the
// connection dropped after the request was sent) is never sent again: the list is read
// back and what is there is said.
type creator[T any] struct {
	ctx *common.Context
	l   *base.List[T]
	// made runs after a create succeeded (a user's secret); found after a read-back
	// found the item (a user's password is lost: offer a reset). Both may be nil.
	made  func(made) tea.Cmd
	found func(T) tea.Cmd
}

// send starts a create; fn makes the request (inside a command).
func (c *creator[T]) send(cr creation[T], fn func(ctx context.Context, wr common.Writer) (made, error)) tea.Cmd {
	key := c.l.Spec.Key
	w := &base.Write[made]{Verb: base.Create, Noun: cr.noun, Name: cr.name, Send: fn, Reload: c.l.Load,
		Done: func(m made) tea.Cmd {
			c.l.SelectLater(m.key)
			var cmds []tea.Cmd
			if m.text != "" {
				cmds = append(cmds, common.Success(m.text))
			}
			if it, ok := m.item.(T); ok {
				if c.found != nil {
					cmds = append(cmds, c.found(it))
				}
			} else if c.made != nil {
				cmds = append(cmds, c.made(m))
			}
			return tea.Sequence(cmds...)
		},
	}
	if cr.form != nil {
		w.Form = cr.form
	}
	if load, _ := c.l.Spec.Load(); load != nil && cr.find != nil {
		w.Find = func(ctx context.Context) (made, bool, error) {
			items, err := load(ctx)
			if err != nil {
				return made{}, false, err
			}
			for _, it := range items {
				if cr.find(it) {
					return made{key: key(it), item: it}, true, nil
				}
			}
			return made{}, false, nil
		}
	}
	return base.SendWrite(c.l.Ctx, c.l.Req, w)
}

// handle processes the answers of creates and read-backs; handled is false for other
// messages.
func (c *creator[T]) handle(msg tea.Msg) (tea.Cmd, bool) {
	return base.HandleWrite[made](c.ctx, c.l.Req, msg)
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
