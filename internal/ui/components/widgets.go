package components

import (
	"fmt"
	"math"
	"strings"

	"github.com/svcui/svcui/internal/ui/common"
)

// Badge renders a service state: glyph + word always (a still glyph for in-progress
// states; the root draws the screen's one spinner).
func Badge(ctx *common.Context, state string) string {
	return ctx.Styles.StateBadge(state)
}

// Bar renders a horizontal bar of value/max in width cells with eighth-block precision
// (used for estimates and aggregations). It never exceeds width.
func Bar(value, maxValue float64, width int) string {
	if width <= 0 {
		return ""
	}
	if maxValue <= 0 || value <= 0 || math.IsNaN(value) || math.IsNaN(maxValue) {
		return strings.Repeat(" ", width)
	}
	frac := math.Min(1, value/maxValue)
	eighths := int(math.Round(frac * float64(width*8)))
	full := eighths / 8
	rem := eighths % 8
	parts := []string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}
	s := strings.Repeat("█", full)
	if rem > 0 && full < width {
		s += parts[rem]
		full++
	}
	return s + strings.Repeat(" ", width-full)
}

// Gauge renders "[██████░░░░] 60%" for used/total (credits left of total).
func Gauge(ctx *common.Context, part, total float64, width int) string {
	if total <= 0 || math.IsNaN(part) || math.IsNaN(total) {
		return ctx.Styles.Muted.Render("—")
	}
	frac := math.Max(0, math.Min(1, part/total))
	inner := max(4, width-7)
	filled := int(math.Round(frac * float64(inner)))
	bar := strings.Repeat("█", filled) + strings.Repeat("░", inner-filled)
	style := ctx.Styles.OK
	switch {
	case frac < 0.1:
		style = ctx.Styles.Danger
	case frac < 0.25:
		style = ctx.Styles.Warn
	}
	return "[" + style.Render(bar) + "]" + fmt.Sprintf("%4.0f%%", frac*100)
}
