package services

import (
	"strconv"
	"strings"
	"time"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// row builds one table row; the sort values make nodes, disk and age sort as numbers
// and the state sort by its word, not its glyph.
func (l *List) row(e entry) components.Row {
	s, now := e.Service, l.Ctx.Now()
	ageSort := "0"
	if !s.CreateTime.IsZero() {
		ageSort = strconv.FormatInt(int64(now.Sub(s.CreateTime)/time.Second), 10)
	}
	cells := []string{
		s.ServiceName, dash(s.ServiceType), dash(s.Plan), dash(s.CloudName),
		stateCell(l.Ctx, s, now), strconv.Itoa(s.NodeCount), diskGB(s.DiskSpaceMB),
		age(l.Ctx, now, s.CreateTime), protectionMark(l.Ctx, s.TerminationProtection),
	}
	sorts := []string{
		s.ServiceName, s.ServiceType, s.Plan, s.CloudName, string(s.State),
		cells[colNodes], cells[colDisk], ageSort, cells[colProtect],
	}
	if l.all {
		cells = append([]string{e.Project}, cells...)
		sorts = append([]string{e.Project}, sorts...)
	}
	return components.Row{Cells: cells, Sort: sorts}
}

// stateCell is the badge, with the time in state for transitional services.
func stateCell(ctx *common.Context, s models.Service, now time.Time) string {
	return components.Badge(ctx, string(s.State)) + forText(ctx, s, now)
}

// forText is " for 2m 10s" for transitional services, "" otherwise.
//
// In the compact layout (below 120 columns) it drops "for": at 80 columns the state column
// cut "REBUILDING for…" before the time, which is the point.
func forText(ctx *common.Context, s models.Service, now time.Time) string {
	if f := timeInState(ctx, s, now); f != "" {
		if ctx.Compact() {
			f = strings.TrimPrefix(f, "for ")
		}
		return " " + ctx.Styles.Muted.Render(f)
	}
	return ""
}

// timeInState is "for 2m 10s" while a service is in a transitional state, "" otherwise.
// update_time is when the service last changed: while it rebuilds, that change is
// what started the state; once it runs, any edit (a maintenance window) moves it, so
// "RUNNING for 0s" after an edit would not be true.
func timeInState(ctx *common.Context, s models.Service, now time.Time) string {
	if !s.State.InProgress() || s.UpdateTime.IsZero() {
		return ""
	}
	if ctx.NoMotion {
		return common.ForMinutes(now.Sub(s.UpdateTime))
	}
	return common.For(now.Sub(s.UpdateTime))
}

// age is the Age cell; without motion a new service is "<1m" rather than seconds that
// change at every refresh.
func age(ctx *common.Context, now, t time.Time) string {
	if ctx.NoMotion && !t.IsZero() && now.Sub(t) < time.Minute {
		return "<1m"
	}
	return common.Age(now, t)
}

// protectionMark is a glyph and a word so it reads without colour.
func protectionMark(ctx *common.Context, on bool) string {
	if on {
		return ctx.Styles.OK.Render("⛨ on")
	}
	return ctx.Styles.Muted.Render("· off")
}

// diskGB renders megabytes as gigabytes (binary, as plans are sized), one decimal at most.
func diskGB(mb int) string {
	if mb <= 0 {
		return "—"
	}
	if mb%1024 == 0 {
		return strconv.Itoa(mb / 1024)
	}
	return strconv.FormatFloat(float64(mb)/1024, 'f', 1, 64)
}

func dash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
