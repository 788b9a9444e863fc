package components

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/theme"
	"github.com/svcui/svcui/internal/ui/uitest"
)

// pump feeds msg to the modal and every message its commands produce (except the
// ones it sends to the root), like the program loop would.
func pump(m common.Modal, msg tea.Msg) (common.Modal, []tea.Msg) {
	update := func(msg tea.Msg) tea.Cmd {
		var cmd tea.Cmd
		m, cmd = m.Update(msg)
		return cmd
	}
	out := uitest.PumpForm(update(msg), update, func(msg tea.Msg) bool {
		switch msg.(type) {
		case common.OpenModal, common.Notify, submitted:
			return false
		}
		return true
	})
	if m.Closed() {
		out = append(out, closedMsg{})
	}
	return m, out
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
	_, out := pump(m, tea.KeyMsg{Type: tea.KeyEnter})
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

func threeFieldForm(t *testing.T, sends *int) (*Form, *string) {
	t.Helper()
	var name, plan, disk string
	plan = "hobbyist"
	f := NewForm(testCtx(), "Create service", func() tea.Cmd { *sends++; return nil },
		huh.NewGroup(
			huh.NewInput().Title("Name").Value(&name),
			huh.NewSelect[string]().Title("Plan").Options(
				huh.NewOption("hobbyist", "hobbyist"), huh.NewOption("startup-4", "startup-4"), huh.NewOption("business-4", "business-4")).Value(&plan),
			huh.NewInput().Title("Disk (GB)").Value(&disk),
		)).Names("disk_space_mb", "Disk (GB)", nil)
	f.SetSize(100, 40)
	f.Init()
	return f, &name
}

// After a refusal the focus is on the field the message names, not where enter was
// pressed, and the old message goes as soon as the person edits.
func TestRefusedFormFocusesTheNamedFieldAndForgetsTheMessageOnEdit(t *testing.T) {
	sends := 0
	f, _ := threeFieldForm(t, &sends)
	var m common.Modal = f
	m = typeInto(m, "pg1")
	m, _ = pump(m, tea.KeyMsg{Type: tea.KeyEnter}) // name → plan
	m, _ = pump(m, tea.KeyMsg{Type: tea.KeyEnter}) // plan → disk
	pump(m, tea.KeyMsg{Type: tea.KeyEnter})        // submit
	if sends != 1 {
		t.Fatalf("sends = %d", sends)
	}
	f.Refused("disk_space_mb: must be at least 92160 MB")
	focused := ansi.Strip(f.Huh().GetFocusedField().View())
	if !strings.Contains(focused, "Disk (GB)") {
		t.Fatalf("focus is not on the refused field: %q", focused)
	}
	f.Refused("disk_space_mb: must be at least 92160 MB")
	// Focus on the plan (the first field): back to it, then the refusal is named there.
	f.names = append(f.names[:0], fieldName{api: "service_name", title: "Name"})
	f.Refused("service_name: already exists")
	if focused := ansi.Strip(f.Huh().GetFocusedField().View()); !strings.Contains(focused, "Name") {
		t.Fatalf("focus is not on Name: %q", focused)
	}
	m = typeInto(f, "x")
	if v := ansi.Strip(m.View()); strings.Contains(v, "already exists") {
		t.Fatalf("the old refusal still shows after an edit:\n%s", v)
	}
}

// esc inside a select's filter ends the filter, not the form; esc on a form with
// changes asks before dropping them.
func TestEscInAFilterKeepsTheFormAndEscOnChangesAsks(t *testing.T) {
	sends := 0
	f, name := threeFieldForm(t, &sends)
	var m common.Modal = f
	m = typeInto(m, "pg1")
	m, _ = pump(m, tea.KeyMsg{Type: tea.KeyEnter}) // to the plan select
	m = typeInto(m, "/st")
	m, out := pump(m, tea.KeyMsg{Type: tea.KeyEsc})
	if f.Closed() || containsClose(out) {
		t.Fatalf("esc in the filter closed the form: %v", out)
	}
	if !strings.Contains(ansi.Strip(m.View()), "hobbyist") {
		t.Fatalf("form not shown after esc in the filter:\n%s", ansi.Strip(m.View()))
	}
	// Out of the filter now; esc again is about the form, which has a name typed.
	for i := 0; i < 3 && !f.discarding; i++ {
		m, out = pump(m, tea.KeyMsg{Type: tea.KeyEsc})
		if containsClose(out) {
			t.Fatalf("esc on a changed form closed it without asking: %v", out)
		}
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "Discard changes?") {
		t.Fatalf("no question:\n%s", v)
	}
	m, _ = pump(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("n")})
	if f.Closed() || *name != "pg1" || strings.Contains(ansi.Strip(m.View()), "Discard") {
		t.Fatalf("n should go back to the form as typed (closed %v, name %q)", f.Closed(), *name)
	}
	m, _ = pump(m, tea.KeyMsg{Type: tea.KeyEsc})
	_, out = pump(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")})
	if !containsClose(out) {
		t.Fatalf("y should discard and close: %v", out)
	}
	// An untouched form closes on the first esc.
	g, _ := threeFieldForm(t, &sends)
	if _, out := pump(g, tea.KeyMsg{Type: tea.KeyEsc}); !containsClose(out) {
		t.Fatalf("esc on an untouched form should close it: %v", out)
	}
}

func containsClose(out []tea.Msg) bool {
	for _, m := range out {
		if _, ok := m.(closedMsg); ok {
			return true
		}
	}
	return false
}

// A review longer than the screen scrolls, and says where it is; nothing is cut above.
func TestReviewScrollsAndKeepsItsFirstLines(t *testing.T) {
	var facts []Fact
	for i := 0; i < 30; i++ {
		facts = append(facts, Fact{Label: "Fact " + strconv.Itoa(i), Value: "v" + strconv.Itoa(i)})
	}
	r := NewReview(testCtx(), "Create pg-x", []Change{{Field: "Plan", Old: "a", New: "b"}}, func() tea.Cmd { return nil }, nil).WithFacts(facts...)
	r.SetSize(80, 24)
	v := ansi.Strip(r.View())
	if !strings.Contains(v, "Fact 0 ") || strings.Contains(v, "Fact 29") || !strings.Contains(v, "j/k pgdn/pgup scroll") {
		t.Fatalf("first screen:\n%s", v)
	}
	for i := 0; i < 3; i++ {
		r.Update(tea.KeyMsg{Type: tea.KeyPgDown})
	}
	v = ansi.Strip(r.View())
	if !strings.Contains(v, "Fact 29") || !strings.Contains(v, "a → b") || strings.Contains(v, "Fact 0 ") {
		t.Fatalf("after pgdn:\n%s", v)
	}
	r.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("g")})
	if v = ansi.Strip(r.View()); !strings.Contains(v, "Fact 0 ") {
		t.Fatalf("after g:\n%s", v)
	}
}

// The discard question names the form, whose title may hold a platform name.
func TestDiscardQuestionEscapesTheTitle(t *testing.T) {
	f := NewForm(testCtx(), "Edit project evil\x1b[31m\x1b[8m", func() tea.Cmd { return nil }, huh.NewGroup(huh.NewInput().Title("Name")))
	f.SetSize(200, 60)
	f.discarding = true
	if v := f.View(); strings.Contains(v, "\x1b[31m\x1b[8m") || !strings.Contains(v, `What you typed in Edit project evil\x1b[31m`) {
		t.Fatalf("discard question:\n%q", v)
	}
}
