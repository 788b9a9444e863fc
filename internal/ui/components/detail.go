package components

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/safe"
)

// Field is one key/value line of a Detail.
type Field struct {
	_     [0]func() // never compared (see Column)
	Label string
	Value string
	// Secret values are masked until revealed with x; Copy still copies the real value.
	Secret bool
	// Masked, when set, is what a secret value shows before it is revealed (a URI with
	// only its password hidden) instead of dots for the whole value.
	Masked string
	// Multiline values (certificates) are shown on following lines.
	Multiline bool
	// Styled values carry the UI's own styling (a state badge, a gauge) built from
	// platform text that went through safe.Text first; other values are escaped here.
	Styled bool
}

// Section groups fields under a heading.
type Section struct {
	Title  string
	Fields []Field
}

// Detail is a scrolling key/value view with sections, a cursor over fields, x to
// reveal secrets and y to copy the value under the cursor.
type Detail struct {
	ctx           *common.Context
	sections      []Section
	flat          []flatField
	cursor        int
	offset        int
	width, height int
	revealed      bool
}

type flatField struct {
	section int
	field   Field
}

// NewDetail builds an empty detail view.
func NewDetail(ctx *common.Context) *Detail { return &Detail{ctx: ctx} }

// SetSections replaces the content, keeping the cursor on the same label when present.
func (d *Detail) SetSections(s []Section) {
	var label string
	if d.cursor < len(d.flat) {
		label = d.flat[d.cursor].field.Label
	}
	d.sections = s
	d.flat = d.flat[:0]
	for i, sec := range s {
		for _, f := range sec.Fields {
			d.flat = append(d.flat, flatField{i, f})
		}
	}
	d.cursor = 0
	for i, f := range d.flat {
		if f.field.Label == label {
			d.cursor = i
		}
	}
}

// Revealed reports whether secrets are shown.
func (d *Detail) Revealed() bool { return d.revealed }

// Selected returns the field under the cursor.
func (d *Detail) Selected() (Field, bool) {
	if d.cursor < len(d.flat) {
		return d.flat[d.cursor].field, true
	}
	return Field{}, false
}

// SetSize gives the view its area.
func (d *Detail) SetSize(w, h int) { d.width, d.height = w, h }

// Update handles movement, x and y; it reports whether the key was used.
func (d *Detail) Update(msg tea.Msg) (bool, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return false, nil
	}
	k := d.ctx.Keys
	switch {
	case key.Matches(km, k.Up):
		d.cursor = max(0, d.cursor-1)
	case key.Matches(km, k.Down):
		d.cursor = max(0, min(len(d.flat)-1, d.cursor+1))
	case key.Matches(km, k.Top):
		d.cursor = 0
	case key.Matches(km, k.Bottom):
		d.cursor = max(0, len(d.flat)-1)
	case key.Matches(km, k.PgUp):
		d.cursor = max(0, d.cursor-d.height/2)
	case key.Matches(km, k.PgDn):
		d.cursor = max(0, min(len(d.flat)-1, d.cursor+d.height/2))
	case key.Matches(km, k.Reveal):
		d.revealed = !d.revealed
	case key.Matches(km, k.Copy):
		f, ok := d.Selected()
		if !ok || f.Value == "" {
			return true, common.Warn("Nothing to copy here")
		}
		return true, common.Send(common.CopyRequest{Label: strings.ToLower(f.Label), Value: f.Value})
	default:
		return false, nil
	}
	return true, nil
}

// HelpBindings are the detail's bindings for help.
func (d *Detail) HelpBindings() []key.Binding {
	k := d.ctx.Keys
	return []key.Binding{k.Up, k.Down, k.Reveal, k.Copy}
}

// Mask hides a secret, keeping a hint of its length class.
func Mask(s string) string {
	if s == "" {
		return ""
	}
	return "•••••••• (x to reveal)"
}

// View renders the lines around the cursor; never more than height lines.
func (d *Detail) View() string {
	st := d.ctx.Styles
	labelW := 0
	for _, f := range d.flat {
		labelW = max(labelW, ansi.StringWidth(f.field.Label))
	}
	labelW = min(labelW, 28)
	var lines []string
	cursorLine := 0
	fi := 0
	for si, sec := range d.sections {
		if sec.Title != "" {
			if si > 0 {
				lines = append(lines, "")
			}
			lines = append(lines, st.HelpGroup.Render(safe.Text(sec.Title)))
		}
		for _, f := range sec.Fields {
			val := f.Value
			if !f.Styled {
				val = safe.Text(val)
			}
			if f.Secret && !d.revealed {
				if f.Masked != "" {
					val = safe.Text(f.Masked) + st.Secret.Render(" (x to reveal)")
				} else {
					val = st.Secret.Render(Mask(val))
				}
			}
			if val == "" {
				val = st.Muted.Render("—")
			}
			marker := "  "
			selected := fi == d.cursor
			if selected {
				marker = "› "
				cursorLine = len(lines)
			}
			label := pad(safe.Text(f.Label), labelW, false)
			if f.Multiline && (!f.Secret || d.revealed) && strings.Contains(f.Value, "\n") {
				line := marker + st.Muted.Render(label) + "  "
				if selected {
					line = st.Selected.Render(marker+label) + "  "
				}
				lines = append(lines, line+"(multi-line, y copies)")
				for _, l := range strings.Split(strings.TrimRight(safe.Block(f.Value), "\n"), "\n") {
					lines = append(lines, "    "+st.Muted.Render(l))
				}
			} else {
				var line string
				if selected {
					line = st.Selected.Render(marker+label) + "  " + val
				} else {
					line = marker + st.Muted.Render(label) + "  " + val
				}
				lines = append(lines, line)
			}
			fi++
		}
	}
	h := max(1, d.height)
	if cursorLine < d.offset {
		d.offset = cursorLine
	}
	if cursorLine >= d.offset+h {
		d.offset = cursorLine - h + 1
	}
	d.offset = max(0, min(d.offset, len(lines)-h))
	end := min(len(lines), d.offset+h)
	out := lines[d.offset:end]
	for i, l := range out {
		out[i] = ansi.Truncate(l, d.width, "…")
	}
	return strings.Join(out, "\n")
}
