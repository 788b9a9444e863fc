package components

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/theme"
)

// pump feeds msg to the modal and every message its commands produce (except the
// ones it sends to the root), like the program loop would.
func pump(m common.Modal, msg tea.Msg) (common.Modal, []tea.Msg) {
	var out []tea.Msg
	queue := []tea.Msg{msg}
	for steps := 0; len(queue) > 0 && steps < 100; steps++ {
		next := queue[0]
		queue = queue[1:]
		var cmd tea.Cmd
		m, cmd = m.Update(next)
		for _, r := range runAll(cmd) {
			switch r.(type) {
			case common.OpenModal, common.CloseModal, common.Notify, submitted:
				out = append(out, r)
			default:
				queue = append(queue, r)
			}
		}
	}
	return m, out
}

// runAll runs a command and the batches it returns. huh moves focus through commands
// that answer at once; its cursor blinks are timers, which are the commands that do
// not answer within a moment and are left out (nothing here waits on them).
func runAll(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-done:
	case <-time.After(50 * time.Millisecond):
		return nil
	}
	switch m := msg.(type) {
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range m {
			out = append(out, runAll(c)...)
		}
		return out
	case nil:
		return nil
	}
	return []tea.Msg{msg}
}

type submitted struct{ size string }

func typeInto(m common.Modal, s string) common.Modal {
	for _, r := range s {
		m, _ = pump(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	return m
}

func TestRefusedFormComesBackWithEverythingTypedAndTheMessageAtItsField(t *testing.T) {
	ctx := testCtx()
	var size string
	sends := 0
	f := NewForm(ctx, "Edit service pg-main", func() tea.Cmd {
		sends++
		v := size
		return func() tea.Msg { return submitted{v} }
	}, huh.NewGroup(huh.NewInput().Title("Disk (GB)").Value(&size))).
		Names("plan", "Plan", nil).
		Names("disk_space_mb", "Disk (GB)", func(string) string { return "the form counts in GB: 92160 MB is 90 GB" })
	f.SetSize(100, 40)
	var m common.Modal = f
	m.Init()
	m = typeInto(m, "80")
	m, out := pump(m, tea.KeyMsg{Type: tea.KeyEnter})
	if sends != 1 || !containsMsg(out, submitted{"80"}) {
		t.Fatalf("enter did not send: %d %v", sends, out)
	}
	// The platform refuses: the view hands the message back to the form.
	if v := ansi.Strip(f.View()); strings.Contains(v, "send again") {
		t.Fatal("a form never sent offers to send again")
	}
	// The message names the disk first (and the plan later): it belongs at the disk.
	reopen := f.Refused("disk_space_mb: must be at least 92160 MB for plan startup-4")
	open, ok := reopen().(common.OpenModal)
	if !ok || open.Modal != f {
		t.Fatalf("Refused should reopen the same form, got %#v", open)
	}
	m = open.Modal
	m.Init()
	view := ansi.Strip(m.View())
	if !strings.Contains(view, "80") {
		t.Fatalf("typed value lost:\n%s", view)
	}
	lines := strings.Split(view, "\n")
	at := -1
	for i, l := range lines {
		if strings.Contains(l, "Disk (GB)") {
			at = i
		}
	}
	below := ""
	if at >= 0 && at+2 < len(lines) {
		below = strings.Join(strings.Fields(lines[at+1]+" "+lines[at+2]), " ")
	}
	if !strings.Contains(below, "must be at least 92160 MB") || !strings.Contains(below, "90 GB") || !strings.Contains(view, "send again") {
		t.Fatalf("message not at its field:\n%s", view)
	}
	m = typeInto(m, "0")
	_, out = pump(m, tea.KeyMsg{Type: tea.KeyEnter})
	if sends != 2 || !containsMsg(out, submitted{"800"}) {
		t.Fatalf("enter should send again with the corrected value: %d %v", sends, out)
	}
}

func TestRefusalNamingNoFieldShowsOnTop(t *testing.T) {
	f := NewForm(testCtx(), "Create topic", func() tea.Cmd { return nil }, huh.NewGroup(huh.NewInput().Title("Name")))
	f.SetSize(100, 40)
	f.Refused("Rate limit 120 exceeded - try again in 28s")
	if v := ansi.Strip(f.View()); !strings.Contains(v, "refused this: Rate limit 120 exceeded") {
		t.Fatalf("message not on top:\n%s", v)
	}
	if mentions("size_mb: too big", "disk_space_mb") >= 0 || mentions("user_config.pg_version: unknown", "user_config.pg_version") != 0 ||
		mentions("xdisk_space_mb", "disk_space_mb") >= 0 {
		t.Fatal("mentions matched wrongly")
	}
}

func containsMsg(msgs []tea.Msg, want tea.Msg) bool {
	for _, m := range msgs {
		if m == want {
			return true
		}
	}
	return false
}

func TestFormsCarryNoColourUnderNoColor(t *testing.T) {
	// A terminal that shows colour: what NO_COLOR must hold against.
	prev := lipgloss.ColorProfile()
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(prev)
	ctx := testCtx()
	ctx.Styles = theme.New(theme.Dark, true)
	var name string
	f := NewForm(ctx, "Create topic", func() tea.Cmd { return nil },
		huh.NewGroup(huh.NewInput().Title("Name").Description("1-249 characters").Placeholder("events").Value(&name),
			huh.NewSelect[string]().Title("Cleanup").Options(huh.NewOptions("delete", "compact")...)))
	f.SetSize(100, 40)
	f.Init()
	out := f.View()
	// SGR parameters that set a colour: 30–37, 38;…, 40–47, 48;…, 90–97, 100–107.
	for _, seq := range regexp.MustCompile(`\x1b\[([0-9;]*)m`).FindAllStringSubmatch(out, -1) {
		for _, p := range strings.Split(seq[1], ";") {
			if n, err := strconv.Atoi(p); err == nil && (n >= 30 && n <= 49 || n >= 90 && n <= 107) {
				t.Fatalf("colour %q in a NO_COLOR form:\n%q", seq[0], out)
			}
		}
	}
}

func TestCurrentFirstPutsTheCurrentOptionOnTopAndKeepsTheRestInOrder(t *testing.T) {
	opts := huh.NewOptions("USD", "EUR", "GBP", "SGD")
	got := CurrentFirst(opts, "SGD")
	var vals []string
	for _, o := range got {
		vals = append(vals, o.Value)
	}
	if strings.Join(vals, " ") != "SGD USD EUR GBP" {
		t.Fatalf("got %v", vals)
	}
	if got := CurrentFirst(opts, "JPY"); len(got) != 4 || got[0].Value != "USD" {
		t.Fatalf("an unknown current value changed the order: %v", got)
	}
	if opts[0].Value != "USD" {
		t.Fatal("the caller's options were reordered in place")
	}
}
