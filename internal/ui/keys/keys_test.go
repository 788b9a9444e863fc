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
	k, errs := New(nil)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	cases := map[string]key.Binding{"?": k.Help, ":": k.Palette, "/": k.Filter, "s": k.Sort, "S": k.SortReverse,
		"c": k.Create, "e": k.Edit, "d": k.Delete, "R": k.Reset, "x": k.Reveal, "y": k.Copy, "q": k.Quit,
		"a": k.ToggleAll, "j": k.Down, "k": k.Up, "G": k.Bottom, "g": k.Top, "1": k.Tab(1, "Projects"), "5": k.Tab(5, "Search"),
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
	k, errs := New(map[string][]string{"Delete": {"X"}, "quit": {"Q", "ctrl+q"}, "nosuch": {"z"}, "help": nil, "tab2": {"F2"}, "tab10": {"0"}})
	if len(errs) != 2 {
		t.Fatalf("want 2 errors (unknown action, no tenth tab), got %v", errs)
	}
	if tab := k.Tab(2, "Services"); !key.Matches(press("F2"), tab) || key.Matches(press("2"), tab) || tab.Help().Desc != "services" {
		t.Errorf("tab2 override not applied: %v %q", tab.Keys(), tab.Help().Desc)
	}
	if tab := k.Tab(3, "Users"); !key.Matches(press("3"), tab) {
		t.Error("a tab's place is its key")
	}
	if key.Matches(press("d"), k.Delete) || !key.Matches(press("X"), k.Delete) {
		t.Error("delete override not applied")
	}
	if !key.Matches(press("Q"), k.Quit) || key.Matches(press("q"), k.Quit) {
		t.Error("quit override not applied")
	}
	// [] unbinds, as the config file says.
	if key.Matches(press("?"), k.Help) || k.Help.Enabled() || len(Actions{{Binding: k.Help}}.Help(false)) != 0 {
		t.Error("an empty override must unbind the action")
	}
	if k2, _ := New(map[string][]string{"tab3": {}}); k2.Tab(3, "Users").Enabled() {
		t.Error("an empty tab override must unbind the tab's key")
	}
	if k.Delete.Help().Key != "X" {
		t.Errorf("help should show the override, got %q", k.Delete.Help().Key)
	}
}

func TestReadOnlyDropsOnlyTheViewsMutatingActions(t *testing.T) {
	k, _ := New(map[string][]string{"edit": {"E"}})
	group := Actions{{Binding: k.Edit, Mutating: true}, {Binding: k.Assign, Mutating: true}, {Binding: k.Copy}}
	results := Actions{{Binding: k.PrevPage}, {Binding: k.NextPage}}
	if n := len(group.Usable(true)); n != 1 || group.Usable(true).Find(press("y")) != 0 {
		t.Fatalf("read-only kept %d actions of the group", n)
	}
	if got := group.Refusal(press("p"), true); got != "Read-only mode: assign a project is disabled" {
		t.Errorf("refusal of p in the group: %q", got)
	}
	if got := group.Refusal(press("E"), true); got != "Read-only mode: edit is disabled" {
		t.Errorf("refusal of E (override): %q", got)
	}
	// The same key in a view without a mutating action is that view's own.
	if got := results.Refusal(press("p"), true); got != "" {
		t.Errorf("p in the results refused: %q", got)
	}
	if i := results.Usable(true).Find(press("p")); i != 0 {
		t.Errorf("p in the results finds %d", i)
	}
	if got := group.Refusal(press("p"), false); got != "" {
		t.Errorf("refused outside read-only: %q", got)
	}
	if help := group.Usable(true).Help(false); len(help) != 1 || help[0].Help().Desc != "copy" {
		t.Errorf("read-only help lists %v", help)
	}
}

// The bindings whose action changes the platform are known as such, overridden too.
func TestMutatingBindings(t *testing.T) {
	k, _ := New(map[string][]string{"delete": {"X"}})
	for _, b := range []key.Binding{k.Create, k.Edit, k.Delete, k.Reset, k.Assign, k.BulkLoad} {
		if !k.Mutates(b) {
			t.Errorf("%s does not mutate", b.Help().Desc)
		}
	}
	for _, b := range []key.Binding{k.Copy, k.Reveal, k.PrevPage, k.Watch, key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "delete"))} {
		if k.Mutates(b) {
			t.Errorf("%q mutates", b.Help().Desc)
		}
	}
}

func TestClashesNameSharedKeys(t *testing.T) {
	k, _ := New(nil)
	global := k.Global([]string{"Projects", "Services"})
	if c := Clashes(global); len(c) != 0 {
		t.Fatalf("the global set clashes with itself: %v", c)
	}
	view := Actions{{Binding: k.Users}, {Binding: k.CopyURI}, {Binding: k.Refresh, Help: "reload"}}
	got := Clashes(view, global)
	want := []string{"ctrl+r: reload, refresh", "u: users, copy URI"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("clashes %q, want %q", got, want)
	}
	if c := Clashes(Actions{{Binding: k.Refresh}}, global); len(c) != 0 {
		t.Fatalf("one action listed twice is no clash: %v", c)
	}
}
