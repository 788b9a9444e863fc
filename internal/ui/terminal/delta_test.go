package terminal

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// vt is as much of a terminal as Bubble Tea's renderer and Delta use: text, CR/LF,
// cursor position, erase in line and display, SGR (kept per cell as the sequences in
// effect since the last reset). Two streams that leave the same vt screen look the same.
type vt struct {
	w, h     int
	x, y     int
	pen      string
	cells    [][]vtCell
	wrote    int
	unknowns []string
}

type vtCell struct{ text, style string }

func newVT(w, h int) *vt {
	t := &vt{w: w, h: h}
	t.clear(0)
	return t
}

func (t *vt) clear(from int) {
	if t.cells == nil {
		t.cells = make([][]vtCell, t.h)
	}
	for y := from; y < t.h; y++ {
		t.cells[y] = make([]vtCell, t.w)
		for x := range t.cells[y] {
			t.cells[y][x] = vtCell{text: " "}
		}
	}
}

func (t *vt) eraseRight() {
	for x := t.x; x < t.w; x++ {
		t.cells[t.y][x] = vtCell{text: " "}
	}
}

func (t *vt) Write(p []byte) (int, error) {
	t.wrote += len(p)
	s := string(p)
	var state byte
	for len(s) > 0 {
		seq, w, n, ns := ansi.DecodeSequence(s, state, nil)
		state = ns
		s = s[n:]
		switch {
		case seq == "\r":
			t.x = 0
		case seq == "\n":
			t.y = min(t.y+1, t.h-1)
		case strings.HasPrefix(seq, "\x1b[") && strings.HasSuffix(seq, "m"):
			if seq == "\x1b[m" || seq == "\x1b[0m" {
				t.pen = ""
			} else {
				t.pen += seq
			}
		case strings.HasPrefix(seq, "\x1b[") && strings.HasSuffix(seq, "H"):
			r, c, _ := strings.Cut(seq[2:len(seq)-1], ";")
			row, col := 1, 1
			if r != "" {
				row, _ = strconv.Atoi(r)
			}
			if c != "" {
				col, _ = strconv.Atoi(c)
			}
			t.y, t.x = min(row, t.h)-1, min(col, t.w)-1
		case seq == ansi.EraseLineRight:
			t.eraseRight()
		case seq == ansi.EraseEntireLine:
			x := t.x
			t.x = 0
			t.eraseRight()
			t.x = x
		case seq == ansi.EraseScreenBelow:
			t.eraseRight()
			t.clear(t.y + 1)
		case seq == ansi.EraseEntireScreen:
			t.clear(0)
		case strings.HasPrefix(seq, "\x1b[?"):
			// Modes (alternate screen, cursor, focus): nothing on screen.
		case w > 0:
			if t.x+w <= t.w {
				t.cells[t.y][t.x] = vtCell{text: seq, style: t.pen}
				for i := 1; i < w; i++ {
					t.cells[t.y][t.x+i] = vtCell{}
				}
			}
			t.x += w
		default:
			t.unknowns = append(t.unknowns, seq)
		}
	}
	return len(p), nil
}

func (t *vt) screen() string {
	var b strings.Builder
	for _, row := range t.cells {
		for _, c := range row {
			b.WriteString(c.style + c.text + "|")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// tee hands each write to both writers, as one write each.
type tee struct {
	mu   sync.Mutex
	a, b interface{ Write([]byte) (int, error) }
}

func (t *tee) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, _ = t.a.Write(p)
	return t.b.Write(p)
}

// busy is a screen like the console's Services view: coloured rows, some of them with a
// time that moves, one spinner, a line that grows and shrinks.
type busy struct{ n int }

type step struct{}

func (m busy) Init() tea.Cmd { return nil }
func (m busy) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(step); ok {
		m.n++
	}
	return m, nil
}

func (m busy) View() string {
	warn := lipgloss.NewStyle().Foreground(lipgloss.Color("11"))
	muted := lipgloss.NewStyle().Foreground(lipgloss.Color("245"))
	sel := lipgloss.NewStyle().Bold(true).Background(lipgloss.Color("24"))
	frames := []string{"⠋", "⠙", "⠹", "⠸"}
	lines := []string{"header " + muted.Render(fmt.Sprintf("12:00:%02d", m.n/8)) + strings.Repeat(" ", 10) + warn.Render(frames[m.n%4]) + " in progress"}
	for i := range 10 {
		row := fmt.Sprintf("  spin-%02d  pg  ", i) + warn.Render("◐ REBUILDING") + " " + muted.Render(fmt.Sprintf("for %ds", 5+m.n/8))
		if i == m.n/8%10 {
			row = sel.Render(row)
		}
		lines = append(lines, row)
	}
	lines = append(lines, strings.Repeat("日本", m.n%3)+"end", []string{"日x", "ab日", "xy日"}[m.n%3]+"same width")
	return strings.Join(lines, "\n")
}

// Bubble Tea's renderer through Delta leaves, after every frame, the screen its own
// frames leave: styles, wide characters, lines that grow and shrink, a repaint.
func TestDeltaDrawsTheScreenTheRendererWould(t *testing.T) {
	prev := lipgloss.ColorProfile()
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(prev)

	const w, h = 60, 15
	whole, cut := newVT(w, h), newVT(w, h)
	out := &tee{a: whole, b: NewDelta(nil, cut)}
	p := tea.NewProgram(busy{}, tea.WithOutput(out), tea.WithInput(nil), tea.WithAltScreen(), tea.WithoutSignalHandler())
	done := make(chan struct{})
	go func() { _, _ = p.Run(); close(done) }()
	p.Send(tea.WindowSizeMsg{Width: w, Height: h})
	for i := range 40 {
		p.Send(step{})
		time.Sleep(20 * time.Millisecond) // a renderer tick (60 fps) between steps
		if i == 20 {
			p.Send(tea.WindowSizeMsg{Width: w, Height: h}) // a repaint of every line
		}
		out.mu.Lock()
		same := whole.screen() == cut.screen()
		out.mu.Unlock()
		if !same {
			t.Fatalf("step %d: the screens differ\nrenderer:\n%s\ndelta:\n%s", i, whole.screen(), cut.screen())
		}
	}
	p.Quit()
	<-done
	if len(whole.unknowns)+len(cut.unknowns) > 0 {
		t.Errorf("sequences the test terminal does not know: %q %q", whole.unknowns, cut.unknowns)
	}
	t.Logf("renderer %d bytes, through Delta %d", whole.wrote, cut.wrote)
}

func TestDeltaSendsOnlyTheChangedCells(t *testing.T) {
	var out bytes.Buffer
	d := NewDelta(nil, &out)
	first := "\x1b[H\r" + "\x1b[93m⠋\x1b[0m spin-01 \x1b[38;5;245mfor 5s\x1b[0m\x1b[K\r\n" + "row two\x1b[K\x1b[2;H"
	_, _ = d.Write([]byte(first))
	if out.String() != first {
		t.Fatalf("the first frame must go out as it is: %q", out.String())
	}
	out.Reset()
	// The renderer repaints line 1 whole; the spinner and one digit changed.
	_, _ = d.Write([]byte("\x1b[H" + "\x1b[93m⠙\x1b[0m spin-01 \x1b[38;5;245mfor 6s\x1b[0m\x1b[K\r\n" + "\x1b[2;H"))
	got := out.String()
	if strings.Contains(got, "spin-01") || !strings.Contains(got, "⠙") || !strings.Contains(got, "\x1b[38;5;245m6") {
		t.Fatalf("patch %q", got)
	}
	// Anything that is not a frame goes out as it is and makes Delta forget the
	// screen: the next line goes out whole.
	out.Reset()
	_, _ = d.Write([]byte(ansi.EraseEntireScreen))
	_, _ = d.Write([]byte("\x1b[H" + "\x1b[93m⠹\x1b[0m spin-01 \x1b[38;5;245mfor 6s\x1b[0m\x1b[K\r\n" + "\x1b[2;H"))
	if !strings.Contains(out.String(), "spin-01") {
		t.Fatalf("after a clear the line must be redrawn whole: %q", out.String())
	}
}
