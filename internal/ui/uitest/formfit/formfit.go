// Package formfit checks that a form can be filled in at every screen size the house
// supports: each field, focused in turn, shows its title with the focus bar, huh's key
// help and the modal's way out, within the screen. Pane tests hand it their create and
// edit forms (it lives apart from uitest, which the components' own tests use).
package formfit

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// Sizes are the screens every form is tried at, from the smallest the UI accepts.
var Sizes = [][2]int{{80, 24}, {100, 30}, {120, 40}, {160, 50}}

// Misses walks the form of each modal build makes (a Form, a modal built on one, or a
// Flow on its form) at every size from its first field to its last and returns, per
// focused field, what the screen does not show. It only moves the focus: nothing is
// submitted. build makes a fresh modal for each size.
func Misses(build func() common.Modal) []string {
	var out []string
	for _, s := range Sizes {
		out = append(out, missesAt(build(), s[0], s[1])...)
	}
	return out
}

// huhOf is the huh form inside m: a Form, a modal built on one, or a Flow's form.
func huhOf(m common.Modal) *huh.Form {
	switch f := m.(type) {
	case *components.Flow:
		return f.Form().Huh()
	case interface{ Huh() *huh.Form }:
		return f.Huh()
	}
	return nil
}

func missesAt(m common.Modal, w, h int) []string {
	if huhOf(m) == nil {
		return []string{fmt.Sprintf("%T is not a form", m)}
	}
	m.SetSize(w, h)
	m.Init()
	var out []string
	for seen := 0; seen < 64; seen++ {
		field := huhOf(m).GetFocusedField()
		if field == nil {
			break
		}
		out = append(out, missing(m.View(), huhOf(m), field, w, h)...)
		m.Update(huh.NextField())
		if huhOf(m).GetFocusedField() != field {
			continue
		}
		// The group's last field: huh asked for the next group (not run, so nothing is
		// sent); move there ourselves, or stop after the last (a group whose fields do
		// not validate yet keeps the focus too).
		huhOf(m).NextGroup()
		if huhOf(m).GetFocusedField() == field {
			break
		}
		m.Update(struct{}{}) // huh's group move arrives as a message in the program
	}
	return out
}

// missing is what a person focused on field cannot see on the screen view.
func missing(view string, form *huh.Form, field huh.Field, w, h int) []string {
	screen := ansi.Strip(view)
	title := strings.TrimSpace(strings.SplitN(ansi.Strip(field.View()), "\n", 2)[0])
	at := fmt.Sprintf("%d×%d, %q", w, h, title)
	var out []string
	if n := strings.Count(view, "\n") + 1; n > h {
		out = append(out, fmt.Sprintf("%s: %d lines on a %d-line screen", at, n, h))
	}
	if !strings.Contains(screen, title) || !strings.Contains(title, "┃") {
		out = append(out, at+": the focused field is not on screen with its focus bar")
	}
	// Under the fields huh shows the key help, or in its place the fields' errors (a
	// field left empty that must not be).
	if errs := form.Errors(); len(errs) > 0 {
		if first := strings.SplitN(errs[0].Error(), " ", 4); !strings.Contains(screen, strings.Join(first[:min(3, len(first))], " ")) {
			out = append(out, fmt.Sprintf("%s: the error %q is not on screen", at, errs[0]))
		}
		return append(out, wayOut(screen, at)...)
	}
	for _, b := range field.KeyBinds() {
		if b.Enabled() && b.Help().Key != "" {
			if help := b.Help().Key + " " + b.Help().Desc; !strings.Contains(screen, help) {
				out = append(out, fmt.Sprintf("%s: the key help %q is not on screen", at, help))
			}
			break
		}
	}
	return append(out, wayOut(screen, at)...)
}

func wayOut(screen, at string) []string {
	if !strings.Contains(screen, "esc: cancel") {
		return []string{at + ": the way out (esc: cancel) is not on screen"}
	}
	return nil
}
