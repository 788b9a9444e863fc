// Package keys names every key binding of the UI in one place (docs/interaction.md's
// table) and lets the config override any of them by action name. Which keys a view
// answers is the view's own declaration: an Actions set (action.go), from which
// read-only mode drops the mutating ones.
package keys

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
)

// KeyMap holds all bindings. Field names are the action names used in the config's key
// overrides, in lower case (see Names).
type KeyMap struct {
	Help, Palette                     key.Binding
	Filter, Open, Back                key.Binding
	Up, Down, Top, Bottom, PgUp, PgDn key.Binding
	Sort, SortReverse, ToggleAll      key.Binding
	// Marks on any table, and saving a plan as a runbook (docs/interaction.md, "Fleets").
	Mark, MarkAll, Runbook             key.Binding
	Refresh, Run                       key.Binding
	Create, Edit, Delete, Reset        key.Binding
	Reveal, Copy, CopyURI              key.Binding
	Quit, ForceQuit, Confirm, Complete key.Binding

	// Pane keys: a service's detail.
	Users, ACL, Topics, Databases, SearchTab, Launch key.Binding
	// Watch a service (list or detail; in :watches, stop watching).
	Watch key.Binding
	// Pane keys: billing.
	Invoices, Estimates, Credits, Assign, Download, StateFilter, Chart key.Binding
	// Pane keys: the Search tab.
	NextPane, ViewMode, NextPage, CopyCurl, SearchUser, Templates, History, SQLMode, BulkLoad, ExternalEditor key.Binding
	PrevHit, CopyDocument, Zoom, Columns                                                                      key.Binding
	// Pane keys: the Search tab's results as a log reader.
	TimeRange, PrevPage, Tail, Surround, More, Fewer, FieldStats, Exclude key.Binding
	// The histogram over the hits: choose a bar (enter narrows the range to it).
	BarPrev, BarNext key.Binding

	// mutating are the bindings whose action changes the platform, as built.
	mutating []key.Binding
	// tabs are the keys overridden for tabs by place (1-based): "tab2" in the config.
	// A tab's default key is its place; its name comes from the tab registry (Tab).
	tabs map[int][]string
}

// entry describes one action: its config name, default keys, help and whether it
// changes anything on the platform (a view's action on it is mutating: Mutates).
type entry struct {
	name     string
	keys     []string
	help     string
	desc     string
	mutating bool
	field    func(*KeyMap) *key.Binding
}

var table = []entry{
	// f1 too: in a text editor "?" is text.
	{"help", []string{"?", "f1"}, "?", "help", false, func(k *KeyMap) *key.Binding { return &k.Help }},
	{"palette", []string{":"}, ":", "command", false, func(k *KeyMap) *key.Binding { return &k.Palette }},
	{"filter", []string{"/"}, "/", "filter", false, func(k *KeyMap) *key.Binding { return &k.Filter }},
	{"open", []string{"enter"}, "enter", "open", false, func(k *KeyMap) *key.Binding { return &k.Open }},
	{"back", []string{"esc"}, "esc", "back", false, func(k *KeyMap) *key.Binding { return &k.Back }},
	{"up", []string{"up", "k"}, "↑/k", "up", false, func(k *KeyMap) *key.Binding { return &k.Up }},
	{"down", []string{"down", "j"}, "↓/j", "down", false, func(k *KeyMap) *key.Binding { return &k.Down }},
	{"top", []string{"g", "home"}, "g", "top", false, func(k *KeyMap) *key.Binding { return &k.Top }},
	{"bottom", []string{"G", "end"}, "G", "bottom", false, func(k *KeyMap) *key.Binding { return &k.Bottom }},
	{"pageup", []string{"pgup"}, "pgup", "page up", false, func(k *KeyMap) *key.Binding { return &k.PgUp }},
	{"pagedown", []string{"pgdown"}, "pgdn", "page down", false, func(k *KeyMap) *key.Binding { return &k.PgDn }},
	{"sort", []string{"s"}, "s", "sort by next column", false, func(k *KeyMap) *key.Binding { return &k.Sort }},
	{"sortreverse", []string{"S"}, "S", "reverse order", false, func(k *KeyMap) *key.Binding { return &k.SortReverse }},
	{"toggleall", []string{"a"}, "a", "this project / all", false, func(k *KeyMap) *key.Binding { return &k.ToggleAll }},
	{"mark", []string{" "}, "space", "mark / unmark", false, func(k *KeyMap) *key.Binding { return &k.Mark }},
	{"markall", []string{"ctrl+a"}, "ctrl+a", "mark every shown row", false, func(k *KeyMap) *key.Binding { return &k.MarkAll }},
	{"runbook", []string{"X"}, "X", "save as a runbook", false, func(k *KeyMap) *key.Binding { return &k.Runbook }},
	{"refresh", []string{"ctrl+r"}, "ctrl+r", "refresh", false, func(k *KeyMap) *key.Binding { return &k.Refresh }},
	{"run", []string{"ctrl+r", "f5", "alt+enter"}, "ctrl+r/f5", "run", false, func(k *KeyMap) *key.Binding { return &k.Run }},
	{"create", []string{"c"}, "c", "create", true, func(k *KeyMap) *key.Binding { return &k.Create }},
	{"edit", []string{"e"}, "e", "edit", true, func(k *KeyMap) *key.Binding { return &k.Edit }},
	{"delete", []string{"d"}, "d", "delete", true, func(k *KeyMap) *key.Binding { return &k.Delete }},
	{"reset", []string{"R"}, "R", "reset credentials", true, func(k *KeyMap) *key.Binding { return &k.Reset }},
	{"reveal", []string{"x"}, "x", "reveal/hide secrets", false, func(k *KeyMap) *key.Binding { return &k.Reveal }},
	{"copy", []string{"y"}, "y", "copy", false, func(k *KeyMap) *key.Binding { return &k.Copy }},
	{"copyuri", []string{"u"}, "u", "copy URI", false, func(k *KeyMap) *key.Binding { return &k.CopyURI }},
	{"quit", []string{"q"}, "q", "quit", false, func(k *KeyMap) *key.Binding { return &k.Quit }},
	{"forcequit", []string{"ctrl+c"}, "ctrl+c", "quit", false, func(k *KeyMap) *key.Binding { return &k.ForceQuit }},
	{"confirm", []string{"enter"}, "enter", "confirm", false, func(k *KeyMap) *key.Binding { return &k.Confirm }},
	{"complete", []string{"tab"}, "tab", "complete", false, func(k *KeyMap) *key.Binding { return &k.Complete }},

	{"users", []string{"u"}, "u", "users", false, func(k *KeyMap) *key.Binding { return &k.Users }},
	{"acl", []string{"A"}, "A", "ACL", false, func(k *KeyMap) *key.Binding { return &k.ACL }},
	{"topics", []string{"t"}, "t", "topics", false, func(k *KeyMap) *key.Binding { return &k.Topics }},
	{"databases", []string{"b"}, "b", "databases", false, func(k *KeyMap) *key.Binding { return &k.Databases }},
	{"searchtab", []string{"f"}, "f", "search tab", false, func(k *KeyMap) *key.Binding { return &k.SearchTab }},
	{"launch", []string{"o"}, "o", "open in its client", false, func(k *KeyMap) *key.Binding { return &k.Launch }},

	{"watch", []string{"w"}, "w", "watch", false, func(k *KeyMap) *key.Binding { return &k.Watch }},
	{"invoices", []string{"i"}, "i", "invoices", false, func(k *KeyMap) *key.Binding { return &k.Invoices }},
	{"estimates", []string{"E"}, "E", "estimates", false, func(k *KeyMap) *key.Binding { return &k.Estimates }},
	{"credits", []string{"C"}, "C", "credits", false, func(k *KeyMap) *key.Binding { return &k.Credits }},
	{"assign", []string{"p"}, "p", "assign a project", true, func(k *KeyMap) *key.Binding { return &k.Assign }},
	{"download", []string{"D"}, "D", "download PDF", false, func(k *KeyMap) *key.Binding { return &k.Download }},
	{"statefilter", []string{"f"}, "f", "cycle state filter", false, func(k *KeyMap) *key.Binding { return &k.StateFilter }},
	{"chart", []string{"m"}, "m", "totals per month", false, func(k *KeyMap) *key.Binding { return &k.Chart }},

	{"nextpane", []string{"tab", "shift+tab"}, "tab", "next pane", false, func(k *KeyMap) *key.Binding { return &k.NextPane }},
	{"viewmode", []string{"v"}, "v", "view", false, func(k *KeyMap) *key.Binding { return &k.ViewMode }},
	{"nextpage", []string{"n"}, "n", "next page", false, func(k *KeyMap) *key.Binding { return &k.NextPage }},
	// Y, not C: C is the log reader's surrounding documents (docs/interaction.md).
	{"copycurl", []string{"Y"}, "Y", "copy as curl", false, func(k *KeyMap) *key.Binding { return &k.CopyCurl }},
	{"searchuser", []string{"U"}, "U", "user", false, func(k *KeyMap) *key.Binding { return &k.SearchUser }},
	{"templates", []string{"ctrl+t"}, "ctrl+t", "templates", false, func(k *KeyMap) *key.Binding { return &k.Templates }},
	// ctrl+h is backspace on many terminals; ctrl+p is the key that always works.
	{"history", []string{"ctrl+p", "ctrl+h"}, "ctrl+p", "history", false, func(k *KeyMap) *key.Binding { return &k.History }},
	{"sqlmode", []string{"ctrl+s"}, "ctrl+s", "SQL mode", false, func(k *KeyMap) *key.Binding { return &k.SQLMode }},
	// Not ctrl+b: that is tmux's default prefix, so tmux users could never press it.
	{"bulkload", []string{"ctrl+o"}, "ctrl+o", "bulk load a file", true, func(k *KeyMap) *key.Binding { return &k.BulkLoad }},
	{"externaleditor", []string{"ctrl+e"}, "ctrl+e", "$EDITOR", false, func(k *KeyMap) *key.Binding { return &k.ExternalEditor }},
	{"prevhit", []string{"N"}, "N", "previous hit", false, func(k *KeyMap) *key.Binding { return &k.PrevHit }},
	{"copydocument", []string{"Y"}, "Y", "copy document", false, func(k *KeyMap) *key.Binding { return &k.CopyDocument }},
	{"zoom", []string{"z"}, "z", "results full screen", false, func(k *KeyMap) *key.Binding { return &k.Zoom }},
	{"columns", []string{"f"}, "f", "choose columns", false, func(k *KeyMap) *key.Binding { return &k.Columns }},
	// The Search tab's results as a log reader (docs/interaction.md: "Search tab as a log reader").
	{"timerange", []string{"T"}, "T", "time range", false, func(k *KeyMap) *key.Binding { return &k.TimeRange }},
	{"prevpage", []string{"p"}, "p", "previous page", false, func(k *KeyMap) *key.Binding { return &k.PrevPage }},
	{"tail", []string{"t"}, "t", "live tail", false, func(k *KeyMap) *key.Binding { return &k.Tail }},
	{"surround", []string{"C"}, "C", "surrounding documents", false, func(k *KeyMap) *key.Binding { return &k.Surround }},
	{"more", []string{"+", "="}, "+", "more", false, func(k *KeyMap) *key.Binding { return &k.More }},
	{"fewer", []string{"-"}, "-", "fewer", false, func(k *KeyMap) *key.Binding { return &k.Fewer }},
	{"fieldstats", []string{"F"}, "F", "field stats", false, func(k *KeyMap) *key.Binding { return &k.FieldStats }},
	{"exclude", []string{"-"}, "-", "exclude", false, func(k *KeyMap) *key.Binding { return &k.Exclude }},
	{"barprev", []string{"left"}, "←", "histogram bar before", false, func(k *KeyMap) *key.Binding { return &k.BarPrev }},
	{"barnext", []string{"right"}, "→", "histogram bar after (enter zooms)", false, func(k *KeyMap) *key.Binding { return &k.BarNext }},
}

// maxTabs is how many tab places the config may name ("tab1" … "tab9").
const maxTabs = 9

// Names lists the action names accepted in key overrides, sorted.
func Names() []string {
	out := make([]string, 0, len(table)+maxTabs)
	for _, e := range table {
		out = append(out, e.name)
	}
	for i := 1; i <= maxTabs; i++ {
		out = append(out, "tab"+strconv.Itoa(i))
	}
	sort.Strings(out)
	return out
}

// New builds the key map: defaults, then overrides (action name → keys; names are
// case-insensitive; no keys unbinds the action). Unknown action names are reported as
// errors and otherwise ignored, so a typo in the config never breaks the UI.
func New(overrides map[string][]string) (*KeyMap, []error) {
	k := &KeyMap{tabs: map[int][]string{}}
	byName := map[string]entry{}
	for _, e := range table {
		byName[e.name] = e
		*e.field(k) = key.NewBinding(key.WithKeys(e.keys...), key.WithHelp(e.help, e.desc))
	}
	var errs []error
	names := make([]string, 0, len(overrides))
	for n := range overrides {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		name := strings.ToLower(strings.ReplaceAll(n, "_", ""))
		e, ok := byName[name]
		tab := tabPlace(name)
		if !ok && tab == 0 {
			errs = append(errs, fmt.Errorf("keys: unknown action %q (known: %s)", n, strings.Join(Names(), ", ")))
			continue
		}
		ks := overrides[n]
		if tab > 0 {
			k.tabs[tab] = ks
			continue
		}
		*e.field(k) = bind(ks, e.desc)
	}
	for _, e := range table {
		if e.mutating {
			k.mutating = append(k.mutating, *e.field(k))
		}
	}
	return k, errs
}

// Mutates reports whether b is one of the bindings whose action changes the platform
// (create, edit, delete, reset, assign, bulk load): a view's action on it is mutating
// whether or not the view says so, so read-only mode drops it.
func (k *KeyMap) Mutates(b key.Binding) bool {
	for _, m := range k.mutating {
		if m.Help() == b.Help() && slices.Equal(m.Keys(), b.Keys()) {
			return true
		}
	}
	return false
}

// bind is an overridden binding; no keys ([] in the config) unbinds the action.
func bind(ks []string, desc string) key.Binding {
	if len(ks) == 0 {
		return key.NewBinding(key.WithDisabled(), key.WithHelp("", desc))
	}
	return key.NewBinding(key.WithKeys(ks...), key.WithHelp(strings.Join(ks, "/"), desc))
}

// tabPlace is n for "tabN" (1 ≤ n ≤ maxTabs), else 0.
func tabPlace(name string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(name, "tab"))
	if !strings.HasPrefix(name, "tab") || err != nil || n < 1 || n > maxTabs {
		return 0
	}
	return n
}

// Tab is the binding of the tab at place (1-based) named name in the tab registry: its
// place is its key unless the config overrides "tabN".
func (k *KeyMap) Tab(place int, name string) key.Binding {
	ks, ok := k.tabs[place]
	if !ok {
		ks = []string{strconv.Itoa(place)}
	}
	return bind(ks, strings.ToLower(name))
}

// Global are the keys that work in every view, for the root's routing and for help:
// one per tab of the registry (tabs are their names in order), then the palette,
// help, refresh, back and quit. No view may declare one of their keys (see Clashes).
func (k *KeyMap) Global(tabs []string) Actions {
	out := make(Actions, 0, len(tabs)+6)
	for i, name := range tabs {
		out = append(out, Action{Binding: k.Tab(i+1, name)})
	}
	for _, b := range []key.Binding{k.Palette, k.Help, k.Refresh, k.Back, k.Quit, k.ForceQuit} {
		out = append(out, Action{Binding: b})
	}
	return out
}

// Movement are the bindings of any list.
func (k *KeyMap) Movement() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Top, k.Bottom, k.PgUp, k.PgDn}
}

// Table are the bindings of any table view (movement, filter, sort).
func (k *KeyMap) Table() []key.Binding {
	return append(k.Movement(), k.Filter, k.Sort, k.SortReverse)
}

// Enabled filters out disabled bindings (help shows only what works).
func Enabled(bs ...key.Binding) []key.Binding {
	out := make([]key.Binding, 0, len(bs))
	for _, b := range bs {
		if b.Enabled() {
			out = append(out, b)
		}
	}
	return out
}
