package components

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/safe"
)

// RowState is where a plan's row stands.
type RowState int

const (
	RowPending RowState = iota
	RowDone
	RowRefused
	// RowUnknown: the answer was lost and a read-back could not confirm it; never resent.
	RowUnknown
	// RowSkipped: refused up front (protection on a delete, a disk downgrade); never sent.
	RowSkipped
)

// PlanRow is one resource of a plan.
type PlanRow struct {
	// Resource names it ("prod/pg-main").
	Resource string
	// Change is old → new of every field that changes ("protection off → on").
	Change string
	// Cost is the monthly cost difference ("+$12.41", "$0.00", "unknown").
	Cost string
	// Notes are what the change implies (power off loses Kafka topic data).
	Notes []string
	// Skip is why the row is refused up front; such rows are listed, never sent.
	Skip string
	// Hidden: marked, but the current filter does not show it.
	Hidden bool
}

// PlanSpec is what a plan shows and does; the plan knows no resource type.
type PlanSpec struct {
	ID    int64
	Title string
	Noun  string // "service", "user"
	Rows  []PlanRow
	// Total is the monthly cost difference of the whole plan ("" when not priced).
	Total string
	// Apply starts sending rows (indices into Rows); progress comes back as
	// PlanProgress and PlanFinished with this ID.
	Apply func(rows []int, checkFirst bool) tea.Cmd
	// Stop asks a running plan to send nothing more (requests in flight finish).
	Stop func()
	// Runbook saves the plan as a shell script and JSON (X).
	Runbook func() tea.Cmd
	// Resumed: a kept plan, whose rows are checked before they are sent.
	Resumed bool
}

// PlanProgress is one row's outcome.
type PlanProgress struct {
	ID    int64
	Index int
	State RowState
	Text  string
	// Secret is a new one-time password (a bulk reset): shown masked in the plan until
	// x, copied with y, never kept anywhere else.
	Secret string
	// Next waits for the run's next message.
	Next tea.Cmd
	// Also is what the row's result sets off (a watch of a service that moves).
	Also tea.Cmd
}

// PlanNote is a sentence for the plan's head (the runbook saved, and where): the footer
// is hidden behind the plan.
type PlanNote struct {
	ID   int64
	Text string
}

// PlanFinished says a run ended: every row sent, or stopped.
type PlanFinished struct {
	ID      int64
	Stopped bool
}

type planPhase int

const (
	phaseReview planPhase = iota
	phaseConfirm
	phaseRunning
	phaseFinished
)

// Plan is the review and the progress of one change to many resources: a row per
// resource with old → new, the monthly cost difference and what the change implies,
// the total, how many marked rows the filter hides; confirmed by typing the number of
// resources it sends to; then a progress bar and each row's result.
type Plan struct {
	closing
	ctx          *common.Context
	spec         PlanSpec
	state        []RowState
	result       []string
	secrets      []string
	lines        []string // one screen line per row, rebuilt when its row changes
	changeW      int      // the widest change, so short changes leave room for the notes
	implies      []string // what the rows' changes imply, each once with its count (summary)
	offset       int
	phase        planPhase
	typed        string
	note         string
	stopping     bool
	reveal       bool
	screenW, scH int
}

// NewPlan builds a plan from its rows.
func NewPlan(ctx *common.Context, spec PlanSpec) *Plan {
	p := &Plan{ctx: ctx, spec: spec, state: make([]RowState, len(spec.Rows)), result: make([]string, len(spec.Rows)),
		secrets: make([]string, len(spec.Rows)), lines: make([]string, len(spec.Rows))}
	for i, r := range spec.Rows {
		if r.Skip != "" {
			p.state[i] = RowSkipped
		}
		p.changeW = max(p.changeW, ansi.StringWidth(r.Change))
	}
	p.implies = implications(spec.Rows)
	for i := range spec.Rows {
		p.lines[i] = p.line(i)
	}
	return p
}

// maxImplied is how many distinct implications the summary lists; the rest are on
// their rows.
const maxImplied = 3

// implications are the rows' notes, each once with how many rows it concerns, in the
// order first met: the summary says them whole, since a row's own room for its notes
// is what a narrow screen cuts first.
func implications(rows []PlanRow) []string {
	count := map[string]int{}
	var order []string
	for _, r := range rows {
		if r.Skip != "" {
			continue
		}
		for _, n := range r.Notes {
			if count[n] == 0 {
				order = append(order, n)
			}
			count[n]++
		}
	}
	var out []string
	for i, n := range order {
		if i == maxImplied {
			out = append(out, fmt.Sprintf("and %d more: see each row", len(order)-maxImplied))
			break
		}
		out = append(out, fmt.Sprintf("%s (%d)", n, count[n]))
	}
	return out
}

// Sendable are the rows the plan sends (not skipped).
func (p *Plan) Sendable() int {
	n := 0
	for _, s := range p.state {
		if s != RowSkipped {
			n++
		}
	}
	return n
}

// Counts are the rows in each state.
func (p *Plan) Counts() map[RowState]int {
	out := map[RowState]int{}
	for _, s := range p.state {
		out[s]++
	}
	return out
}

// Hidden is how many of the plan's rows the current filter does not show.
func (p *Plan) Hidden() int {
	n := 0
	for _, r := range p.spec.Rows {
		if r.Hidden {
			n++
		}
	}
	return n
}

func (p *Plan) Init() tea.Cmd { return nil }

// SetSize lays the rows out again when the width changes.
func (p *Plan) SetSize(w, h int) {
	changed := w != p.screenW
	p.screenW, p.scH = w, h
	if changed {
		for i := range p.lines {
			p.lines[i] = p.line(i)
		}
	}
}

// costW fits "-$12,345.67/month".
const costW = 17

// widths are the name's and the change's columns: the change takes what the name,
// the cost and the notes leave.
func (p *Plan) widths() (name, change int) {
	w := max(60, p.screenW-12)
	name = min(34, w/4)
	change = min(max(12, p.changeW), max(24, w-name-2-costW-2-2-28))
	return name, change
}

func (p *Plan) bindings() []key.Binding {
	b := func(k, h string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, h)) }
	switch p.phase {
	case phaseReview:
		return []key.Binding{b("enter", "confirm"), p.ctx.Keys.Runbook, b("j/k", "scroll"), b("esc", "cancel: nothing is sent")}
	case phaseConfirm:
		return []key.Binding{b("enter", "apply"), b("esc", "back")}
	case phaseRunning:
		return []key.Binding{b("esc", "stop: send nothing more")}
	}
	out := []key.Binding{p.ctx.Keys.Runbook, b("esc", "close")}
	if p.retryable() != nil {
		out = append([]key.Binding{b("r", "check and retry the rows not done")}, out...)
	}
	if p.hasSecrets() {
		out = append([]key.Binding{b("x", "reveal/hide passwords"), b("y", "copy every password")}, out...)
	}
	return out
}

func (p *Plan) ShortHelp() []key.Binding  { return p.bindings() }
func (p *Plan) FullHelp() [][]key.Binding { return [][]key.Binding{p.bindings()} }

// Update takes keys and the run's progress.
func (p *Plan) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	switch msg := msg.(type) {
	case PlanProgress:
		if msg.ID == p.spec.ID && msg.Index >= 0 && msg.Index < len(p.state) {
			p.state[msg.Index], p.result[msg.Index] = msg.State, msg.Text
			if msg.Secret != "" {
				p.secrets[msg.Index] = msg.Secret
			}
			p.lines[msg.Index] = p.line(msg.Index)
		}
		return p, tea.Batch(msg.Next, msg.Also)
	case PlanNote:
		if msg.ID != p.spec.ID {
			return p, nil
		}
		p.note = msg.Text
		return p, common.Info(msg.Text) // for :messages

	case PlanFinished:
		if msg.ID == p.spec.ID {
			p.phase, p.stopping = phaseFinished, false
			if n := len(p.pending()); msg.Stopped && n > 0 {
				p.note = fmt.Sprintf("Stopped: %d not sent, kept for :plans; r sends them, reading each back first.", n)
			}
			// The table under the plan shows what changed.
			return p, common.Send(common.RefreshNow{})
		}
		return p, nil
	case tea.KeyMsg:
		return p, p.key(msg)
	}
	return p, nil
}

func (p *Plan) key(km tea.KeyMsg) tea.Cmd {
	if p.phase == phaseConfirm {
		switch km.Type {
		case tea.KeyEsc:
			p.phase, p.typed = phaseReview, ""
		case tea.KeyEnter:
			rows := p.toSend()
			if p.typed != strconv.Itoa(len(rows)) {
				return common.Warn("Type " + strconv.Itoa(len(rows)) + ", the number of " + p.spec.Noun + "s this plan sends to")
			}
			return p.start(rows, p.spec.Resumed)
		case tea.KeyBackspace:
			if p.typed != "" {
				p.typed = p.typed[:len(p.typed)-1]
			}
		case tea.KeyRunes:
			for _, r := range km.Runes {
				if r >= '0' && r <= '9' && len(p.typed) < 7 {
					p.typed += string(r)
				}
			}
		}
		return nil
	}
	switch km.String() {
	case "j", "down":
		p.scroll(1)
		return nil
	case "k", "up":
		p.scroll(-1)
		return nil
	case "pgdown", "ctrl+d":
		p.scroll(p.room() - 1)
		return nil
	case "pgup", "ctrl+u":
		p.scroll(-(p.room() - 1))
		return nil
	}
	if key.Matches(km, p.ctx.Keys.Runbook) && p.phase != phaseRunning && p.spec.Runbook != nil {
		return p.spec.Runbook()
	}
	switch p.phase {
	case phaseReview:
		switch km.Type {
		case tea.KeyEnter:
			if len(p.toSend()) == 0 {
				return common.Warn("Nothing left to send in this plan")
			}
			p.phase = phaseConfirm
		case tea.KeyEsc:
			return tea.Batch(p.close(), common.Info(p.spec.Title+": cancelled; nothing was sent"))
		}
	case phaseRunning:
		if km.Type == tea.KeyEsc && !p.stopping {
			p.stopping = true
			if p.spec.Stop != nil {
				p.spec.Stop()
			}
			return common.Warn(p.spec.Title + ": stopping; requests in flight finish, the rest are kept for :plans")
		}
	case phaseFinished:
		switch {
		case km.Type == tea.KeyEsc:
			return p.close()
		case km.String() == "r":
			if rows := p.retryable(); rows != nil {
				return p.start(rows, true)
			}
		case km.String() == "x" && p.hasSecrets():
			p.reveal = !p.reveal
			for i := range p.lines {
				p.lines[i] = p.line(i)
			}
		case km.String() == "y" && p.hasSecrets():
			return common.Send(common.CopyRequest{Label: "passwords", Value: p.allSecrets()})
		}
	}
	return nil
}

func (p *Plan) start(rows []int, checkFirst bool) tea.Cmd {
	p.phase, p.typed = phaseRunning, ""
	for _, i := range rows {
		p.state[i], p.result[i] = RowPending, ""
		p.lines[i] = p.line(i)
	}
	return p.spec.Apply(rows, checkFirst)
}

// toSend are the rows a confirmation sends: those not sent yet, and for a resumed plan
// also those refused or of unknown outcome (each read back before it is sent).
func (p *Plan) toSend() []int {
	if p.spec.Resumed {
		return p.retryable()
	}
	return p.pending()
}

// pending are the rows not yet sent.
func (p *Plan) pending() []int {
	var out []int
	for i, s := range p.state {
		if s == RowPending {
			out = append(out, i)
		}
	}
	return out
}

// retryable are the rows a finished run did not do: pending (stopped), refused, or of
// unknown outcome; a retry checks each before sending it.
func (p *Plan) retryable() []int {
	var out []int
	for i, s := range p.state {
		if s == RowPending || s == RowRefused || s == RowUnknown {
			out = append(out, i)
		}
	}
	return out
}

func (p *Plan) hasSecrets() bool {
	for _, s := range p.secrets {
		if s != "" {
			return true
		}
	}
	return false
}

func (p *Plan) allSecrets() string {
	var b strings.Builder
	for i, s := range p.secrets {
		if s != "" {
			b.WriteString(p.spec.Rows[i].Resource + " " + s + "\n")
		}
	}
	return b.String()
}

func (p *Plan) room() int { return max(3, p.scH-14-len(p.implies)) }

func (p *Plan) scroll(n int) { p.offset = max(0, min(p.offset+n, len(p.lines)-p.room())) }

var rowGlyph = map[RowState]string{RowPending: "·", RowDone: "✓", RowRefused: "✗", RowUnknown: "?", RowSkipped: "–"}

// line renders row i once; View only picks the lines in its window.
func (p *Plan) line(i int) string {
	st := p.ctx.Styles
	r := p.spec.Rows[i]
	glyph := rowGlyph[p.state[i]]
	switch p.state[i] {
	case RowDone:
		glyph = st.OK.Render(glyph)
	case RowRefused:
		glyph = st.Danger.Render(glyph)
	case RowUnknown:
		glyph = st.Warn.Render(glyph)
	}
	name := safe.Text(r.Resource)
	if r.Hidden {
		name += st.Muted.Render(" (not shown)")
	}
	nameW, changeW := p.widths()
	if r.Skip != "" {
		// A skipped row is read for why: the reason takes the change's and cost's room.
		return pad(glyph+" "+pad(name, nameW, false)+"  "+st.Muted.Render("skipped: "+safe.Text(r.Skip)), max(40, p.screenW-12), false)
	}
	tail := ""
	switch {
	case p.result[i] != "":
		tail = st.Muted.Render(safe.Text(p.result[i]))
	case len(r.Notes) > 0:
		tail = st.Warn.Render("! ") + st.Muted.Render(safe.Text(strings.Join(r.Notes, "; ")))
	}
	if s := p.secrets[i]; s != "" {
		shown := strings.Repeat("•", 12)
		if p.reveal {
			shown = safe.Text(s)
		}
		tail = "password " + st.Bold.Render(shown)
	}
	line := glyph + " " + pad(name, nameW, false) + "  " + pad(safe.Text(r.Change), changeW, false) + "  " + pad(safe.Text(r.Cost), costW, true) + "  " + tail
	return pad(line, max(40, p.screenW-12), false)
}

// summary is the plan's head: how many, how many hidden, the total, what is skipped.
func (p *Plan) summary() []string {
	st := p.ctx.Styles
	n, hidden := len(p.spec.Rows), p.Hidden()
	head := fmt.Sprintf("%s: %d", title(plural(n, p.spec.Noun)), n)
	if hidden > 0 {
		head += fmt.Sprintf(" (%d not shown)", hidden) +
			st.Warn.Render(fmt.Sprintf(" · %d marked %s the current filter hides %s in this plan", hidden, plural(hidden, p.spec.Noun), isAre(hidden)))
	}
	out := []string{head}
	if p.note != "" {
		out = append(out, st.Muted.Render(safe.Text(p.note)))
	}
	if p.spec.Total != "" {
		out = append(out, "Monthly cost difference in total: "+st.Bold.Render(p.spec.Total))
	}
	for _, n := range p.implies {
		out = append(out, ansi.Truncate(st.Warn.Render("! ")+st.Muted.Render(safe.Text(n)), max(40, p.screenW-12), "…"))
	}
	if c := p.Counts(); c[RowSkipped] > 0 {
		out = append(out, st.Warn.Render(fmt.Sprintf("%d skipped: refused before sending, see each row", c[RowSkipped])))
	}
	return out
}

// progress is the bar and the counts of a run.
func (p *Plan) progress(width int) string {
	c := p.Counts()
	total := p.Sendable()
	finished := c[RowDone] + c[RowRefused] + c[RowUnknown]
	barW := max(10, min(40, width-50))
	fill := 0
	if total > 0 {
		fill = finished * barW / total
	}
	bar := strings.Repeat("█", fill) + strings.Repeat("░", barW-fill)
	s := fmt.Sprintf("%s %d/%d · %d done · %d refused · %d unknown", bar, finished, total, c[RowDone], c[RowRefused], c[RowUnknown])
	if p.stopping {
		s += " · stopping"
	}
	return s
}

func (p *Plan) View() string {
	st := p.ctx.Styles
	width := max(40, p.screenW-8)
	lines := p.summary()
	switch p.phase {
	case phaseReview:
		lines = append(lines, st.Muted.Render("Nothing is sent until you confirm."))
	case phaseConfirm:
		lines = append(lines, fmt.Sprintf("Type %d (the number of %ss it sends to) and press enter: %s", len(p.toSend()), p.spec.Noun, st.Bold.Render(p.typed+"▏")))
	default:
		lines = append(lines, p.progress(width))
	}
	lines = append(lines, "")
	room := p.room()
	p.offset = max(0, min(p.offset, len(p.lines)-room))
	end := min(len(p.lines), p.offset+room)
	// Each line was cut to the width when it was built.
	lines = append(lines, p.lines[p.offset:end]...)
	if len(p.lines) > room {
		lines = append(lines, st.Muted.Render(fmt.Sprintf("rows %d–%d of %d · j/k pgdn/pgup scroll", p.offset+1, end, len(p.lines))))
	}
	help := make([]string, 0, 6)
	for _, b := range p.bindings() {
		help = append(help, b.Help().Key+": "+b.Help().Desc)
	}
	return Frame(p.ctx, p.spec.Title+": plan", strings.Join(lines, "\n"), strings.Join(help, "   "), p.screenW, p.scH)
}

func plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

func title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
