// Package watch keeps the services the person watches (w on a service; create, plan,
// cloud and power changes watch by themselves) and tells them when one reaches RUNNING
// or POWEROFF, disappears, or a watched change fails: in the footer and :messages, with
// the terminal's bell, tmux's display-message inside tmux and OSC 9 where the terminal
// is known to show it. The root holds one Model, hands it every message first, and puts
// its summary in the header; :watches lists them.
package watch

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/safe"
	"github.com/svcui/svcui/internal/ui/theme"
)

// Poll intervals: while a watched service is in transition, and otherwise.
const (
	FastPoll = 3 * time.Second
	SlowPoll = 15 * time.Second
)

// Toggle watches a service, or stops watching it (w). State is what the sender shows.
type Toggle struct {
	Project, Service string
	State            models.ServiceState
}

// Start watches a service after a change that moves it (create, plan, cloud, power);
// Reason names the change ("plan change"), Target the state it leads to (when not set:
// POWEROFF for a power off, RUNNING for the other changes Reason names). Watching already (w), the watch becomes the
// change's. A watch ends when its target is reached, whoever reached it: the change's
// own answer may already be there (a power off answers POWEROFF).
type Start struct {
	Project, Service, Reason string
	State, Target            models.ServiceState
}

// Failed reports that a change of a service failed (Reason as in Start, Text the
// platform's message): said like a transition, with the bell.
type Failed struct {
	Project, Service, Reason, Text string
}

// ShowList opens the :watches list.
type ShowList struct{}

type pollTick struct{ gen int }

type polled struct {
	gen     int
	answers []answer
}

type answer struct {
	project  string
	services []models.Service
	err      error
}

// Watched is one watched service.
type Watched struct {
	Project, Service string
	State            models.ServiceState // as last seen; "" before the first look
	Reason           string              // the change that started it; "" for w
	Target           models.ServiceState // where the change leads; "" for w
	Since            time.Time
}

func (w Watched) key() string { return w.Project + "/" + w.Service }

// Model is the root's watch list.
type Model struct {
	ctx   *common.Context
	list  []*Watched
	gen   int
	armed bool
	// Ring alerts the person outside the screen (bell, tmux, OSC 9); it runs in a
	// command. nil rings nothing: the console sets it to Ring (ui.Run), tests do not.
	Ring func(text string)
}

// New returns an empty watch list; it rings once Ring is set.
func New(ctx *common.Context) *Model { return &Model{ctx: ctx} }

// Commands is the palette's :watches.
func Commands() []common.Command {
	return []common.Command{{Name: "watches", Help: "the services you watch (w on a service watches it; w here stops)",
		Run: func(*common.Context, string) tea.Cmd { return common.Send(ShowList{}) }}}
}

// List returns copies of the watched services in the order they were watched.
func (m *Model) List() []Watched {
	out := make([]Watched, len(m.list))
	for i, w := range m.list {
		out[i] = *w
	}
	return out
}

func (m *Model) find(project, service string) int {
	for i, w := range m.list {
		if w.Project == project && w.Service == service {
			return i
		}
	}
	return -1
}

// Update takes the watch messages (handled reports that msg was one).
func (m *Model) Update(msg tea.Msg) (cmd tea.Cmd, handled bool) {
	switch msg := msg.(type) {
	case Toggle:
		if i := m.find(msg.Project, msg.Service); i >= 0 {
			m.list = append(m.list[:i], m.list[i+1:]...)
			return common.Info("Stopped watching " + msg.Service), true
		}
		m.add(msg.Project, msg.Service, msg.State, "")
		text := "Watching " + msg.Service + ": you will hear when it is RUNNING or POWEROFF, or gone"
		return tea.Batch(common.Info(text), m.arm()), true
	case Start:
		target := msg.Target
		if target == "" {
			target = targetOf(msg.Reason)
		}
		i := m.find(msg.Project, msg.Service)
		if i < 0 {
			m.add(msg.Project, msg.Service, msg.State, msg.Reason)
			i = len(m.list) - 1
		}
		w := m.list[i]
		w.Reason, w.Target = msg.Reason, target
		if msg.State != "" {
			w.State = msg.State
		}
		if target != "" && w.State == target { // the answer is the target: no transition will be seen
			m.list = append(m.list[:i], m.list[i+1:]...)
			return m.reached(w), true
		}
		return m.arm(), true
	case Failed:
		text := capital(msg.Reason) + " of " + msg.Service + " failed: " + msg.Text
		if msg.Reason == "" {
			text = "A change of " + msg.Service + " failed: " + msg.Text
		}
		return m.alert(theme.LevelError, text), true
	case ShowList:
		return m.ctx.Push(newListView(m.ctx, m)), true
	case pollTick:
		if msg.gen != m.gen {
			return nil, true
		}
		m.armed = false
		if len(m.list) == 0 {
			return nil, true
		}
		return m.poll(), true
	case polled:
		if msg.gen != m.gen {
			return nil, true
		}
		m.armed = false
		return tea.Batch(m.take(msg.answers), m.arm()), true
	}
	return nil, false
}

func (m *Model) add(project, service string, state models.ServiceState, reason string) {
	m.list = append(m.list, &Watched{Project: project, Service: service, State: state, Reason: reason, Since: m.ctx.Now()})
}

// arm schedules the next look, unless one is scheduled.
func (m *Model) arm() tea.Cmd {
	if m.armed || len(m.list) == 0 {
		return nil
	}
	m.armed = true
	m.gen++
	d := SlowPoll
	for _, w := range m.list {
		if w.State == "" || w.State.InProgress() || w.Reason != "" {
			d = FastPoll
		}
	}
	return m.ctx.After(d, pollTick{m.gen})
}

// poll reads the services of each project with a watched service (one request per
// project), in a command.
func (m *Model) poll() tea.Cmd {
	seen := map[string]bool{}
	var projects []string
	for _, w := range m.list {
		if !seen[w.Project] {
			seen[w.Project] = true
			projects = append(projects, w.Project)
		}
	}
	api, gen := m.ctx.API, m.gen
	m.armed = true // the answer arms the next look
	return func() tea.Msg {
		out := polled{gen: gen}
		for _, p := range projects {
			ctx, cancel := context.WithTimeout(common.Background(context.Background()), common.RequestTimeout)
			svcs, err := api.ListServices(ctx, p)
			cancel()
			out.answers = append(out.answers, answer{p, svcs, err})
		}
		return out
	}
}

// take compares what the platform says with what was seen: each transition to RUNNING
// or POWEROFF, and each disappearance, is told once. A watch that a change started ends
// with its transition; one started with w stays until w again.
func (m *Model) take(answers []answer) tea.Cmd {
	var cmds []tea.Cmd
	keep := m.list[:0]
	byProject := map[string]answer{}
	for _, a := range answers {
		byProject[a.project] = a
	}
	for _, w := range m.list {
		a, ok := byProject[w.Project]
		if !ok || a.err != nil {
			keep = append(keep, w) // no news: unchanged
			continue
		}
		var now *models.Service
		for i := range a.services {
			if a.services[i].ServiceName == w.Service {
				now = &a.services[i]
				break
			}
		}
		if now == nil {
			cmds = append(cmds, m.alert(theme.LevelWarn, w.Service+" in "+w.Project+" is gone"))
			continue
		}
		prev := w.State
		w.State = now.State
		reached := w.Target != "" && now.State == w.Target
		// A first look at a service watched with w is where it stands, not a transition;
		// after a change, RUNNING or POWEROFF at the first look is the change done, and
		// its target ends the watch whoever reached it.
		if !reached && (prev == "" && w.Reason == "" || prev == now.State || (now.State != models.StateRunning && now.State != models.StatePowerOff)) {
			keep = append(keep, w)
			continue
		}
		cmds = append(cmds, m.reached(w))
		if w.Reason == "" {
			keep = append(keep, w)
		}
	}
	for i := len(keep); i < len(m.list); i++ {
		m.list[i] = nil
	}
	m.list = keep
	return tea.Batch(cmds...)
}

// reached tells that w is at its state (after its change, when one started it).
func (m *Model) reached(w *Watched) tea.Cmd {
	text := w.Service + " is " + string(w.State)
	if w.Reason != "" {
		text += " after its " + w.Reason
	}
	level := theme.LevelSuccess
	if w.State == models.StatePowerOff {
		level = theme.LevelInfo
	}
	return m.alert(level, text)
}

// alert says text in the footer and :messages, and rings (in a command).
func (m *Model) alert(level theme.Level, text string) tea.Cmd {
	ring := m.Ring
	return tea.Batch(common.Send(common.Notify{Level: level, Text: text}), func() tea.Msg {
		if ring != nil {
			ring(text)
		}
		return nil
	})
}

// Header is the header's summary at a level of detail: 2 "watching 2 · pg-main ●
// RUNNING · kafka ⠋ REBUILDING", 1 "watching 2 ● ⠋" (each state's glyph), 0 "watching
// 2"; "" when nothing is watched.
func (m *Model) Header(detail int) string {
	if len(m.list) == 0 {
		return ""
	}
	st := m.ctx.Styles
	s := st.Accent.Render("watching " + strconv.Itoa(len(m.list)))
	for _, w := range m.list {
		state := st.Muted.Render("…")
		if w.State != "" {
			state = components.Badge(m.ctx, string(w.State))
		}
		switch detail {
		case 2:
			s += st.Muted.Render(" · ") + safe.Text(w.Service) + " " + state
		case 1:
			// The badge's glyph alone: its first cell, colour and all.
			s += " " + ansi.Truncate(state, 1, "") + ansi.ResetStyle
		}
	}
	return s
}

// HeaderRoom is what the count alone needs in the header's gap (IntoGap's margins
// included): 0 while nothing is watched.
func (m *Model) HeaderRoom() int {
	if len(m.list) == 0 {
		return 0
	}
	return GapRoom(m.Header(0))
}

// gapMargins is the room IntoGap keeps around what it puts in a gap.
const gapMargins = 4

// GapRoom is the room s needs in a header's gap: its width and IntoGap's margins.
func GapRoom(s string) int { return ansi.StringWidth(s) + gapMargins }

// IntoHeader puts the summary into the header line's gap (its widest run of spaces),
// the states too when they fit, else only the count, else nothing: the header's own
// parts keep their places.
func (m *Model) IntoHeader(header string) string {
	if len(m.list) == 0 {
		return header
	}
	start, n := widestGap(header)
	for detail := 2; detail >= 0; detail-- {
		s := m.Header(detail)
		if GapRoom(s) <= n {
			return header[:start] + strings.Repeat(" ", n-ansi.StringWidth(s)-2) + s + "  " + header[start+n:]
		}
	}
	return header
}

// IntoGap puts s into the header line's widest gap, right-aligned in it, when it fits
// with room to spare (the journal's "since you last looked" uses it too).
func IntoGap(header, s string) string {
	start, n := widestGap(header)
	if w := ansi.StringWidth(s); w+gapMargins <= n {
		return header[:start] + strings.Repeat(" ", n-w-2) + s + "  " + header[start+n:]
	}
	return header
}

// widestGap finds the longest run of plain spaces (the header's padding).
func widestGap(s string) (start, n int) {
	for i := 0; i < len(s); {
		if s[i] != ' ' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == ' ' {
			j++
		}
		if j-i > n {
			start, n = i, j-i
		}
		i = j
	}
	return start, n
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// sorted returns the watched services by project then name (the :watches list).
func sorted(ws []Watched) []Watched {
	sort.SliceStable(ws, func(i, j int) bool { return ws[i].key() < ws[j].key() })
	return ws
}
