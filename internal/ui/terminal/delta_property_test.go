package terminal

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/charmbracelet/x/ansi"
)

// altRenderer writes frames byte for byte as Bubble Tea v1.3.10's standard renderer
// does in the alternate screen (standardRenderer.flush without queued lines or ignored
// lines, which the alternate screen does not use), so that the property below can run
// thousands of frames without the renderer's 60 fps ticker.
type altRenderer struct {
	w, h          int
	lastRender    string
	lastLines     []string
	linesRendered int
}

// flush is the bytes the renderer writes for view, or nil when it writes nothing.
func (r *altRenderer) flush(view string) []byte {
	if view == "" || view == r.lastRender {
		return nil
	}
	var buf bytes.Buffer
	buf.WriteString(ansi.CursorHomePosition)
	newLines := strings.Split(view, "\n")
	if r.h > 0 && len(newLines) > r.h {
		newLines = newLines[len(newLines)-r.h:]
	}
	for i := range newLines {
		if len(r.lastLines) > i && r.lastLines[i] == newLines[i] {
			if i < len(newLines)-1 {
				buf.WriteByte('\n')
			}
			continue
		}
		if i == 0 && r.lastRender == "" {
			buf.WriteByte('\r')
		}
		line := ansi.Truncate(newLines[i], r.w, "")
		if ansi.StringWidth(line) < r.w {
			line += ansi.EraseLineRight
		}
		buf.WriteString(line)
		if i < len(newLines)-1 {
			buf.WriteString("\r\n")
		}
	}
	if r.linesRendered > len(newLines) {
		buf.WriteString(ansi.EraseScreenBelow)
	}
	r.linesRendered = len(newLines)
	buf.WriteString(ansi.CursorPosition(0, len(newLines)))
	r.lastRender = view
	r.lastLines = newLines
	return buf.Bytes()
}

// repaint is what a resize, a clear or a return from an external program does: the
// next frame paints every line.
func (r *altRenderer) repaint() { r.lastRender, r.lastLines = "", nil }

// screenGen makes random screens shaped like the console's: styled runs (as lipgloss
// writes them, each closed by a reset), wide glyphs, combining marks, blank lines, a
// spinner that moves, screens that grow and shrink, and modals that replace all of it.
type screenGen struct {
	r     *rand.Rand
	w, h  int
	lines []string
}

var (
	genWords  = []string{"svc", "pg-prod", "RUNNING", "for 12s", "日本", "⛨", "◐", "⠋", "é", "e\u0301", "a\u0308b", "\u0301", "—", "│", " ", "  ", "x", "Services", "✓"}
	genStyles = []string{"\x1b[1m", "\x1b[2m", "\x1b[7m", "\x1b[4m", "\x1b[93m", "\x1b[38;5;245m", "\x1b[1;48;5;24m", "\x1b[38;2;10;20;30m", "\x1b[41m", "\x1b[3;9m"}
)

func (g *screenGen) text() string {
	var b strings.Builder
	for range g.r.IntN(8) {
		word := genWords[g.r.IntN(len(genWords))]
		if g.r.IntN(3) == 0 {
			b.WriteString(genStyles[g.r.IntN(len(genStyles))] + word + "\x1b[0m")
		} else {
			b.WriteString(word)
		}
	}
	if g.r.IntN(6) == 0 {
		b.WriteString(strings.Repeat("─", g.w)) // wider than the window: the renderer cuts it
	}
	if g.r.IntN(8) == 0 {
		b.WriteString(strings.Repeat("日", g.w)) // cut in the middle of a wide glyph, or not
	}
	return b.String()
}

// next changes the screen the way a console frame does.
func (g *screenGen) next() string {
	switch k := g.r.IntN(10); {
	case g.lines == nil || k == 0:
		// A new screen (tab switch), sometimes shorter or taller than the window.
		g.lines = make([]string, 1+g.r.IntN(g.h*3/2+2))
		for i := range g.lines {
			if g.r.IntN(3) > 0 {
				g.lines[i] = g.text()
			}
		}
	case k == 1:
		// A modal: blank screen but for a centred box.
		n := g.h
		if g.r.IntN(3) == 0 {
			n = 1 + g.r.IntN(g.h)
		}
		g.lines = make([]string, n)
		top, tall := g.r.IntN(n), 1+g.r.IntN(n)
		for i := top; i < min(n, top+tall); i++ {
			g.lines[i] = strings.Repeat(" ", g.r.IntN(g.w/2+1)) + "\x1b[1;48;5;236m│ " + g.text() + " │\x1b[0m"
		}
	case k == 2:
		// Lines come or go at the end.
		n := max(1, len(g.lines)+g.r.IntN(7)-3)
		for len(g.lines) < n {
			g.lines = append(g.lines, g.text())
		}
		g.lines = g.lines[:n]
	case k == 3:
		// A line becomes blank.
		g.lines[g.r.IntN(len(g.lines))] = ""
	default:
		// A few lines change: a spinner, a counter, a selection that moves.
		for range 1 + g.r.IntN(3) {
			i := g.r.IntN(len(g.lines))
			l := g.lines[i]
			switch g.r.IntN(3) {
			case 0:
				g.lines[i] = g.text()
			case 1:
				spin := []string{"◐", "◓", "◑", "◒", "⠋", "x", "日"}
				g.lines[i] = spin[g.r.IntN(len(spin))] + ansi.Cut(l, 1, 1<<20)
			default:
				g.lines[i] = l + genWords[g.r.IntN(len(genWords))]
			}
		}
	}
	return strings.Join(g.lines, "\n")
}

// Writes that are not frames, as the program and Bubble Tea make them between frames.
var between = []struct {
	bytes   string
	repaint bool // Bubble Tea repaints after it (its clear screen, alt screen re-entry)
}{
	{"\a", false},
	{"\x1b]0;svcui\a", false},
	{"\x1b]52;c;aGk=\a", false},
	{"\x1b]9;svcui: done\x1b\\", false},
	{"\x1bPtmux;\x1b\x1b]52;c;aGk=\a\x1b\\", false},
	{"\x1b[?25l", false},
	{"\x1b[?2004h", false},
	{"\x1b[?1004h", false},
	{ansi.EraseEntireScreen, true},
	{ansi.EraseEntireScreen + ansi.CursorHomePosition, true},
	{"\x1b[?1049l", false}, // exit alt screen ...
	{"\x1b[?1049h", true},  // ... and back, cleared
}

// Delta must leave on the terminal, after every write, exactly the screen the renderer's
// own bytes leave: for random frames of every shape the console makes, with writes
// that are not frames in between.
func TestDeltaLeavesTheRenderersScreenForAnyFrames(t *testing.T) {
	runs, frames := 400, 60
	if testing.Short() {
		runs = 60
	}
	var whole, cut int
	for seed := range runs {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		w, h := 8+r.IntN(40), 2+r.IntN(14)
		direct, through := newEmulator(w, h), newEmulator(w, h)
		var out bytes.Buffer
		d := NewDelta(nil, &out)
		ren := &altRenderer{w: w, h: h}
		gen := &screenGen{r: r, w: w, h: h}
		var log []string
		send := func(p []byte) {
			if len(p) == 0 {
				return
			}
			log = append(log, fmt.Sprintf("%q", p))
			_, _ = direct.Write(p)
			out.Reset()
			_, _ = d.Write(p)
			_, _ = through.Write(out.Bytes())
			whole += len(p)
			cut += out.Len()
		}
		send([]byte("\x1b[?1049h"))
		for range frames {
			if r.IntN(5) == 0 {
				b := between[r.IntN(len(between))]
				send([]byte(b.bytes))
				if b.repaint {
					ren.repaint()
				}
			}
			if r.IntN(25) == 0 {
				ren.repaint() // a resize to the same size: every line again
			}
			send(ren.flush(gen.next()))
			if diff := direct.diff(through); diff != "" {
				t.Fatalf("seed %d, %dx%d: through Delta the screen differs at %s\nwrites:\n%s\nrenderer's screen:\n%sthrough Delta:\n%s",
					seed, w, h, diff, strings.Join(log, "\n"), direct.text(), through.text())
			}
		}
		if u := append(direct.unknowns, through.unknowns...); len(u) > 0 {
			t.Fatalf("seed %d: sequences the test terminal does not know: %q", seed, u)
		}
	}
	t.Logf("renderer %d bytes, through Delta %d", whole, cut)
}

// shown is a program that shows whatever screen it is sent and runs the command with it.
type shown struct{ view string }

type show struct {
	view string
	cmd  tea.Cmd
}

func (m shown) Init() tea.Cmd { return nil }
func (m shown) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if s, ok := msg.(show); ok {
		m.view = s.view
		return m, s.cmd
	}
	return m, nil
}
func (m shown) View() string { return m.view }

// The same property with Bubble Tea's own renderer and program: random screens, and the
// program's own writes between frames (title, clear, alt screen off and on, cursor,
// a repaint on resize), with the renderer's ticker choosing which frames go out.
func TestDeltaLeavesTheRenderersScreenUnderBubbleTea(t *testing.T) {
	cmds := []tea.Cmd{
		tea.ClearScreen, tea.ExitAltScreen, tea.EnterAltScreen, tea.HideCursor, tea.ShowCursor,
		tea.SetWindowTitle("svcui"), tea.EnableBracketedPaste, tea.DisableReportFocus,
	}
	for seed := range 3 {
		r := rand.New(rand.NewPCG(uint64(seed), 11))
		w, h := 20+r.IntN(40), 4+r.IntN(12)
		direct, through := newEmulator(w, h), newEmulator(w, h)
		out := &tee{a: direct, b: NewDelta(nil, through)}
		p := tea.NewProgram(shown{}, tea.WithOutput(out), tea.WithInput(nil), tea.WithAltScreen(), tea.WithoutSignalHandler())
		done := make(chan struct{})
		go func() { _, _ = p.Run(); close(done) }()
		p.Send(tea.WindowSizeMsg{Width: w, Height: h})
		gen := &screenGen{r: r, w: w, h: h}
		for i := range 60 {
			var cmd tea.Cmd
			switch k := r.IntN(12); {
			case k == 0:
				cmd = cmds[r.IntN(len(cmds))]
			case k == 1:
				p.Send(tea.WindowSizeMsg{Width: w, Height: h})
			}
			p.Send(show{view: gen.next(), cmd: cmd})
			time.Sleep(time.Duration(r.IntN(12)) * time.Millisecond)
			out.mu.Lock()
			diff := direct.diff(through)
			out.mu.Unlock()
			if diff != "" {
				t.Fatalf("seed %d step %d, %dx%d: through Delta the screen differs at %s\nrenderer's screen:\n%sthrough Delta:\n%s", seed, i, w, h, diff, direct.text(), through.text())
			}
		}
		p.Quit()
		<-done
		if u := append(direct.unknowns, through.unknowns...); len(u) > 0 {
			t.Fatalf("seed %d: sequences the test terminal does not know: %q", seed, u)
		}
	}
}
