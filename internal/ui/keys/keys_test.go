package keys

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

func press(s string) tea.KeyMsg {
	switch s {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "ctrl+r":
		return tea.KeyMsg{Type: tea.KeyCtrlR}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func TestDefaultsFollowUX(t *testing.T) {
	k, errs := New(nil, false)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	cases := map[string]key.Binding{"?": k.Help, ":": k.Palette, "/": k.Filter, "s": k.Sort, "S": k.SortReverse,
		"c": k.Create, "e": k.Edit, "d": k.Delete, "R": k.Reset, "x": k.Reveal, "y": k.Copy, "q": k.Quit,
		"a": k.ToggleAll, "j": k.Down, "k": k.Up, "G": k.Bottom, "g": k.Top, "1": k.Tab1, "5": k.Tab5,
		"enter": k.Open, "esc": k.Back, "ctrl+r": k.Refresh}
	for s, b := range cases {
		if !key.Matches(press(s), b) {
			t.Errorf("%q does not trigger %q", s, b.Help().Desc)
		}
	}
	for _, b := range []key.Binding{k.Create, k.Edit, k.Delete, k.Reset} {
		for _, ks := range b.Keys() {
			if strings.HasPrefix(ks, "ctrl+") {
				t.Errorf("mutating binding on a control chord: %s", ks)
			}
		}
	}
}

func TestOverrides(t *testing.T) {
	k, errs := New(map[string][]string{"Delete": {"X"}, "quit": {"Q", "ctrl+q"}, "nosuch": {"z"}, "help": nil}, false)
	if len(errs) != 2 {
		t.Fatalf("want 2 errors (unknown action, empty keys), got %v", errs)
	}
	if key.Matches(press("d"), k.Delete) || !key.Matches(press("X"), k.Delete) {
		t.Error("delete override not applied")
	}
	if !key.Matches(press("Q"), k.Quit) || key.Matches(press("q"), k.Quit) {
		t.Error("quit override not applied")
	}
	if !key.Matches(press("?"), k.Help) {
		t.Error("empty override must keep the default")
	}
	if k.Delete.Help().Key != "X" {
		t.Errorf("help should show the override, got %q", k.Delete.Help().Key)
	}
}

func TestReadOnlyDisablesMutating(t *testing.T) {
	k, _ := New(map[string][]string{"edit": {"E"}}, true)
	for _, b := range []key.Binding{k.Create, k.Edit, k.Delete, k.Reset} {
		if b.Enabled() {
			t.Errorf("%s enabled in read-only mode", b.Help().Desc)
		}
	}
	if key.Matches(press("c"), k.Create) {
		t.Error("disabled binding must not match")
	}
	if got := k.MutatingAction(press("c")); got != "create" {
		t.Errorf("MutatingAction(c) = %q", got)
	}
	if got := k.MutatingAction(press("E")); got != "edit" {
		t.Errorf("MutatingAction(E) = %q (override)", got)
	}
	if got := k.MutatingAction(press("j")); got != "" {
		t.Errorf("MutatingAction(j) = %q", got)
	}
	if n := len(Enabled(k.Create, k.Copy)); n != 1 {
		t.Errorf("Enabled kept %d", n)
	}
	if !k.Copy.Enabled() || !k.Reveal.Enabled() {
		t.Error("copy/reveal are not mutating")
	}
}
