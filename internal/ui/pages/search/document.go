package search

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/keys"
	"github.com/svcui/svcui/internal/ui/safe"
)

// hitSource is where the document view finds hits and tells the cursor to follow.
type hitSource interface {
	hitCount() int
	hitAt(i int) (json.RawMessage, bool)
	selectHit(i int)
}

// docLine is one screen line of the fields view: a part of a field's name and value.
type docLine struct {
	field int
	text  string // styled for an unselected field
	plain string // the same without styling, for the selection bar
}

// docView shows one hit: _index, _id, _score, then every _source field (dotted
// names, arrays joined, long values wrapped, never cut), highlight matches marked; or
// its raw JSON. y copies the field under the cursor, the CopyCurl key the document,
// NextPage and NextPane move to the next or previous hit; esc goes back to the results
// with their cursor on the hit shown last.
type docView struct {
	ctx       *common.Context
	req       *common.Requests
	src       hitSource
	pos       int
	raw       json.RawMessage
	fields    []search.DocField
	err       string
	pre, post string
	rawMode   bool

	lines    []docLine
	rawLines []string
	cursor   int // field under the cursor
	offset   int // first line shown
	w, h     int
}

func newDocView(ctx *common.Context, src hitSource, pos int, pre, post string) *docView {
	d := &docView{ctx: ctx, req: common.NewRequests(), src: src, pre: pre, post: post}
	d.show(pos)
	return d
}

// show loads hit i of the source.
func (d *docView) show(i int) {
	raw, ok := d.src.hitAt(i)
	if !ok {
		return
	}
	d.pos, d.raw, d.err = i, raw, ""
	fs, err := search.FlattenHit(raw)
	if err != nil {
		d.err = err.Error()
	}
	d.fields = fs
	d.cursor, d.offset = 0, 0
	d.src.selectHit(i)
	d.render()
}

func (d *docView) ID() int64     { return d.req.ID }
func (d *docView) Init() tea.Cmd { return nil }
func (d *docView) Title() string { return "Hit " + strconv.Itoa(d.pos+1) }
func (d *docView) Capturing() bool {
	return false
}

func (d *docView) SetSize(w, h int) {
	if w == d.w && h == d.h {
		return
	}
	d.w, d.h = w, h
	d.render()
}

// render lays every field out for the width once; View only picks the lines shown.
func (d *docView) render() {
	d.rawLines = strings.Split(strings.TrimRight(colourJSON(d.ctx.Styles, search.PrettyJSON(d.raw)), "\n"), "\n")
	d.lines = d.lines[:0]
	if d.w <= 0 {
		return
	}
	st := d.ctx.Styles
	labelW := 0
	for _, f := range d.fields {
		labelW = max(labelW, ansi.StringWidth(safe.Text(f.Name)))
	}
	labelW = max(8, min(labelW, d.w/3))
	valueW := max(10, d.w-labelW-tableMarker-2)
	mark := matchStyle(d.ctx)
	for fi, f := range d.fields {
		names := hardWrap(safe.Text(f.Name), labelW)
		values := d.valueLines(f, valueW, mark)
		for i := range max(len(names), len(values)) {
			name, value := "", ""
			if i < len(names) {
				name = names[i]
			}
			if i < len(values) {
				value = values[i]
			}
			pad := strings.Repeat(" ", labelW-ansi.StringWidth(name))
			d.lines = append(d.lines, docLine{
				field: fi,
				text:  "  " + st.Muted.Render(name) + pad + "  " + value,
				plain: "› " + name + pad + "  " + ansi.Strip(value),
			})
		}
	}
}

// valueLines is a field's value wrapped to w, matches marked; a highlighted field the
// source lacks shows its fragments (their tags become marks).
func (d *docView) valueLines(f search.DocField, w int, mark lipgloss.Style) []string {
	var out []string
	for _, line := range strings.Split(f.Value, "\n") {
		var text string
		switch {
		case len(f.Highlights) > 0 && strings.Contains(line, tagOr(d.pre, search.DefaultPreTag)):
			var b strings.Builder
			for _, sp := range search.SplitHighlight(line, d.pre, d.post) {
				if sp.Match {
					b.WriteString(mark.Render(safe.Text(sp.Text)))
				} else {
					b.WriteString(safe.Text(sp.Text))
				}
			}
			text = b.String()
		case len(f.Highlights) > 0:
			text = markTerms(safe.Text(line), fragmentTerms(f.Highlights, d.pre, d.post), mark)
		default:
			text = safe.Text(line)
		}
		out = append(out, hardWrap(text, w)...)
	}
	return out
}

func tagOr(tag, def string) string {
	if tag == "" {
		return def
	}
	return tag
}

// fragmentTerms are the marked words of one field's fragments, lower case.
func fragmentTerms(frags []string, pre, post string) []string {
	var out []string
	for _, f := range frags {
		for _, sp := range search.SplitHighlight(f, pre, post) {
			if w := strings.ToLower(strings.TrimSpace(sp.Text)); sp.Match && w != "" {
				out = append(out, w)
			}
		}
	}
	return out
}

// hardWrap wraps at spaces where it can and inside words where it must (a long URL or
// stack frame), so nothing is cut.
func hardWrap(s string, w int) []string {
	if ansi.StringWidth(s) <= w {
		return []string{s}
	}
	return strings.Split(ansi.Wrap(s, w, " "), "\n")
}

// fieldLines are the first and last line of the field under the cursor.
func (d *docView) fieldLines() (first, last int) {
	first, last = -1, -1
	for i, l := range d.lines {
		if l.field == d.cursor {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	return first, last
}

func (d *docView) bodyHeight() int { return max(1, d.h-1) }

func (d *docView) Update(msg tea.Msg) (common.View, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return d, nil
	}
	k := d.ctx.Keys
	switch {
	case key.Matches(km, k.ViewMode):
		d.rawMode = !d.rawMode
		d.offset = 0
		return d, nil
	case key.Matches(km, k.NextPage):
		return d, d.step(1)
	case key.Matches(km, k.PrevHit):
		return d, d.step(-1)
	case key.Matches(km, k.NextPane):
		// The binding's first key goes forward, its others (shift+tab) back.
		if km.String() == k.NextPane.Keys()[0] {
			return d, d.step(1)
		}
		return d, d.step(-1)
	case key.Matches(km, k.CopyDocument):
		return d, copyJSON("document", d.raw)
	case key.Matches(km, k.Copy):
		if d.rawMode {
			return d, copyJSON("document", d.raw)
		}
		if d.cursor >= len(d.fields) {
			return d, common.Warn("Nothing to copy here")
		}
		f := d.fields[d.cursor]
		return d, common.Send(common.CopyRequest{Label: "field " + safe.Text(f.Name), Value: f.Value})
	}
	if d.rawMode {
		d.scrollRaw(km)
	} else {
		d.move(km)
	}
	return d, nil
}

// step shows the next (1) or previous (-1) hit without going back.
func (d *docView) step(delta int) tea.Cmd {
	n := d.src.hitCount()
	next := d.pos + delta
	switch {
	case next >= n:
		return common.Info("That is the last hit shown; go back and press " + d.ctx.Keys.NextPage.Help().Key + " for the next page")
	case next < 0:
		return common.Info("That is the first hit")
	}
	d.show(next)
	return nil
}

func (d *docView) move(km tea.KeyMsg) {
	k := d.ctx.Keys
	n := len(d.fields)
	page := max(1, d.bodyHeight()/2)
	switch {
	case key.Matches(km, k.Down):
		d.cursor = min(n-1, d.cursor+1)
	case key.Matches(km, k.Up):
		d.cursor = max(0, d.cursor-1)
	case key.Matches(km, k.Top):
		d.cursor = 0
	case key.Matches(km, k.Bottom):
		d.cursor = n - 1
	case key.Matches(km, k.PgDn):
		d.cursor = min(n-1, d.cursor+page)
	case key.Matches(km, k.PgUp):
		d.cursor = max(0, d.cursor-page)
	default:
		return
	}
	d.cursor = max(0, d.cursor)
	// Keep the whole field in view when it fits, its first line otherwise.
	first, last := d.fieldLines()
	h := d.bodyHeight()
	if first < d.offset {
		d.offset = first
	}
	if last >= d.offset+h {
		d.offset = max(first, last-h+1)
		if last-first+1 > h {
			d.offset = first
		}
	}
	d.offset = max(0, d.offset)
}

func (d *docView) scrollRaw(km tea.KeyMsg) {
	d.offset = scrolled(d.ctx.Keys, km, d.offset, len(d.rawLines), d.bodyHeight())
}

// View shows the title line and the lines in the window; its cost does not depend on
// the number of fields.
func (d *docView) View() string {
	st := d.ctx.Styles
	mode := "fields"
	if d.rawMode {
		mode = "raw JSON"
	}
	head := st.Title.Render("Hit "+strconv.Itoa(d.pos+1)+" of "+strconv.Itoa(d.src.hitCount())) +
		st.Muted.Render(" · "+mode+" · "+strconv.Itoa(len(d.fields))+" fields")
	out := make([]string, 0, d.h)
	out = append(out, ansi.Truncate(head, d.w, "…"))
	h := d.bodyHeight()
	switch {
	case d.err != "":
		out = append(out, st.Danger.Render(ansi.Truncate(safe.Text(d.err), d.w, "…")))
	case d.rawMode:
		end := min(len(d.rawLines), d.offset+h)
		for _, l := range d.rawLines[min(d.offset, end):end] {
			out = append(out, ansi.Truncate(l, d.w, "…"))
		}
	default:
		end := min(len(d.lines), d.offset+h)
		for _, l := range d.lines[min(d.offset, end):end] {
			if l.field == d.cursor {
				out = append(out, st.Selected.Render(ansi.Truncate(l.plain, d.w, "…")))
				continue
			}
			out = append(out, ansi.Truncate(l.text, d.w, "…"))
		}
	}
	return strings.Join(out, "\n")
}

// Keys are the document's keys (tab and shift+tab step through the hits too; the
// movement keys scroll).
func (d *docView) Keys() keys.Actions {
	k := d.ctx.Keys
	return append(keys.Actions{{Binding: k.Copy, Help: "copy field"}, {Binding: k.CopyDocument}, {Binding: k.ViewMode, Help: "fields / raw JSON"},
		{Binding: k.NextPage, Help: "next hit"}, {Binding: k.PrevHit}, {Binding: k.NextPane, Help: "next / previous hit", Hidden: true}},
		keys.Bindings(k.Movement()...)...)
}

func (d *docView) ShortHelp() []key.Binding {
	return d.Keys()[:5].Help(true)
}

func (d *docView) FullHelp() [][]key.Binding {
	return [][]key.Binding{d.ShortHelp(), d.ctx.Keys.Movement()}
}

// copyJSON copies JSON text indented, the characters the clipboard would strip written
// as JSON escapes: the copy equals the data. Other text (an SQL answer as text) is
// copied as it is.
func copyJSON(label string, raw []byte) tea.Cmd {
	text := search.PrettyJSON(raw)
	if json.Valid(bytes.TrimSpace(raw)) {
		text = safe.JSON(text)
	}
	return common.Send(common.CopyRequest{Label: label, Value: text})
}
