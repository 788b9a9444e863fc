// Package apilog is the :log view: this session's HTTP requests (management API and
// search services) from internal/apilog, newest first; enter shows one request's
// headers and bodies, y copies it as a curl command that reads the token from
// $SVCUI_TOKEN. Everything shown was masked when it was recorded.
package apilog

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/apilog"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// refresh is how often the open log shows new requests (it reads memory, not the API).
const refresh = time.Second

// Commands is the palette's :log.
func Commands(log *apilog.Log) []common.Command {
	return []common.Command{
		{Name: "log", Help: "this session's API and search requests (enter: headers and body, y: copy as curl)",
			Run: func(ctx *common.Context, _ string) tea.Cmd {
				return ctx.Push(New(ctx, log))
			}},
	}
}

// List is the requests table.
type List struct{ *base.List[apilog.Entry] }

// New builds the :log view of log.
func New(ctx *common.Context, log *apilog.Log) *List {
	return newList(ctx, log, "API log", func() ([]apilog.Entry, error) { return log.Entries(), nil })
}

// newFanOut lists the requests of the fan-out entry seq.
func newFanOut(ctx *common.Context, log *apilog.Log, seq uint64) *List {
	return newList(ctx, log, "fan-out "+strconv.FormatUint(seq, 10), func() ([]apilog.Entry, error) {
		rs, ok := log.Requests(seq)
		if !ok {
			return nil, fmt.Errorf("fan-out %d is no longer in the log (it keeps the last %d entries)", seq, apilog.Capacity)
		}
		return rs, nil
	})
}

// open shows a request's headers and bodies, or a fan-out's requests.
func open(ctx *common.Context, log *apilog.Log, e apilog.Entry) tea.Cmd {
	if e.Requests > 0 {
		return ctx.Push(newFanOut(ctx, log, e.Seq))
	}
	return ctx.Push(NewDetail(ctx, log, e.Seq))
}

func newList(ctx *common.Context, log *apilog.Log, title string, entries func() ([]apilog.Entry, error)) *List {
	v := &List{}
	v.List = base.NewList(ctx, base.ListSpec[apilog.Entry]{
		Title: title,
		Noun:  "request",
		Columns: []components.Column{
			{Title: "Time", Max: 12},
			{Title: "Src", Max: 6, Optional: true},
			{Title: "Method", Max: 7},
			{Title: "Path", Flex: true, Width: 12},
			{Title: "Status", Max: 7},
			{Title: "Latency", Right: true, Numeric: true, Max: 9, Width: 7},
			{Title: "Size", Right: true, Numeric: true, Max: 9, Width: 7},
			// Source and retry give way below 120 columns, so path and size stay readable.
			{Title: "Retry", Right: true, Numeric: true, Max: 5, Optional: true},
		},
		Empty: "No requests yet in this session.",
		Load: func() (base.Fetcher[apilog.Entry], string) {
			return func(context.Context) ([]apilog.Entry, error) { return entries() }, ""
		},
		Key: func(e apilog.Entry) string { return strconv.FormatUint(e.Seq, 10) },
		Row: row,
		Actions: []base.Action[apilog.Entry]{
			{Key: ctx.Keys.Open, Help: "headers and body", Run: func(e apilog.Entry) tea.Cmd { return open(ctx, log, e) }},
			{Key: ctx.Keys.Copy, Help: "copy as curl", Run: copyCurl},
		},
		Interval: func() time.Duration { return refresh },
	})
	return v
}

func (v *List) Update(msg tea.Msg) (common.View, tea.Cmd) { return v, v.Handle(msg) }

func row(e apilog.Entry) components.Row {
	path := e.Path
	if e.Requests > 0 {
		path += " · " + strconv.Itoa(e.Requests) + " requests"
	}
	return components.Row{Cells: []string{
		e.Start.Format("15:04:05.000"), e.Source, e.Method, path, status(e),
		latency(e), size(e), strconv.Itoa(e.Attempt),
	}}
}

func status(e apilog.Entry) string {
	switch {
	case e.Requests > 0 && !e.Done:
		return "…"
	case e.Requests > 0 && e.Failed > 0:
		return strconv.Itoa(e.Failed) + " failed"
	case e.Requests > 0:
		return strconv.Itoa(e.Status)
	case e.Status != 0:
		return strconv.Itoa(e.Status)
	case e.Err != "":
		return "failed"
	}
	return "…"
}

func latency(e apilog.Entry) string {
	if e.Status == 0 && e.Err == "" {
		return ""
	}
	return strconv.FormatInt(e.Latency.Milliseconds(), 10) + " ms"
}

func size(e apilog.Entry) string {
	if e.Status == 0 {
		return ""
	}
	switch n := e.Size; {
	case n < 1000:
		return strconv.FormatInt(n, 10) + " B"
	case n < 1000*1000:
		return fmt.Sprintf("%.1f kB", float64(n)/1000)
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
}

// copyCurl copies the request as curl; the footer says where the token comes from,
// and the copy's own report says what it lacks (the body, masked values), since that
// report comes last.
func copyCurl(e apilog.Entry) tea.Cmd {
	if e.Requests > 0 {
		return common.Warn("A fan-out is many requests: open it (enter) and copy one of them")
	}
	cmd, whole := e.Curl()
	copyIt := common.Send(common.CopyRequest{Label: curlLabel(e, whole), Value: cmd})
	switch {
	case !whole:
		return tea.Batch(copyIt, common.Warn("The request body was longer than the log keeps: the curl command has none"))
	case strings.EqualFold(e.Auth, "basic"):
		return tea.Batch(copyIt, common.Info("curl will ask for "+e.User+"'s password"))
	case e.Auth != "":
		return tea.Batch(copyIt, common.Info("The curl command reads the token from $"+apilog.TokenEnv))
	}
	return copyIt
}

// curlLabel names the curl copy: it says when the copy has no body, or values masked
// as *** that the person must put back before running it.
func curlLabel(e apilog.Entry, whole bool) string {
	switch {
	case !whole:
		return "curl command without its body (longer than the log keeps)"
	case e.ReqMasked:
		return "curl command with masked values (***: put the real ones in before running it)"
	}
	return "curl command"
}

// Detail is one request: the curl command, what came back, the headers and bodies.
type Detail struct{ *base.Detail[apilog.Entry] }

// NewDetail shows the entry seq of log.
func NewDetail(ctx *common.Context, log *apilog.Log, seq uint64) *Detail {
	d := &Detail{}
	d.Detail = base.NewDetail(ctx, base.DetailSpec[apilog.Entry]{
		Title: "request " + strconv.FormatUint(seq, 10),
		Load: func() func(context.Context) (apilog.Entry, error) {
			return func(context.Context) (apilog.Entry, error) {
				e, ok := log.Get(seq)
				if !ok {
					return e, fmt.Errorf("request %d is no longer in the log (it keeps the last %d)", seq, apilog.Capacity)
				}
				return e, nil
			}
		},
		Sections: sections,
		Interval: func() time.Duration { return refresh },
	})
	return d
}

func (d *Detail) Update(msg tea.Msg) (common.View, tea.Cmd) { return d, d.Handle(msg) }

func sections(e apilog.Entry) []components.Section {
	curl, whole := e.Curl()
	label := "curl"
	switch {
	case !whole:
		label = "curl (no body)"
	case e.ReqMasked:
		label = "curl (masked values: fill in ***)"
	}
	req := components.Section{Title: "Request", Fields: []components.Field{
		{Label: label, Value: curl},
		{Label: "Method", Value: e.Method},
		{Label: "URL", Value: e.URL},
		{Label: "Sent", Value: e.Start.Format("2006-01-02 15:04:05.000 MST")},
		{Label: "Attempt", Value: attempt(e.Attempt)},
	}}
	ans := components.Section{Title: "Answer", Fields: []components.Field{
		{Label: "Status", Value: status(e)},
		{Label: "Latency", Value: latency(e)},
		{Label: "Size", Value: size(e)},
	}}
	if e.Err != "" {
		ans.Fields = append(ans.Fields, components.Field{Label: "Error", Value: e.Err})
	}
	out := []components.Section{req, ans, headers("Request headers", e.ReqHeader)}
	if e.ReqBody != "" {
		out = append(out, body("Request body", e.ReqBody, e.ReqCut))
	}
	out = append(out, headers("Answer headers", e.RespHeader))
	if e.RespBody != "" {
		out = append(out, body("Answer body", e.RespBody, e.RespCut))
	}
	return out
}

func attempt(n int) string {
	if n == 0 {
		return "first"
	}
	return "retry " + strconv.Itoa(n)
}

func headers(title string, h http.Header) components.Section {
	s := components.Section{Title: title}
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		s.Fields = append(s.Fields, components.Field{Label: k, Value: strings.Join(h[k], ", ")})
	}
	if len(s.Fields) == 0 {
		s.Fields = []components.Field{{Label: "(none)"}}
	}
	return s
}

func body(title, text string, cut bool) components.Section {
	var pretty bytes.Buffer
	if json.Indent(&pretty, []byte(text), "", "  ") == nil {
		text = pretty.String()
	} else if !strings.Contains(text, "\n") {
		text = wrap(text, 100) // shown on lines of its own rather than cut at the edge
	}
	label := "Body"
	if cut {
		label = fmt.Sprintf("Body (first %d kB)", apilog.MaxBody/1024)
	}
	return components.Section{Title: title, Fields: []components.Field{{Label: label, Value: text, Multiline: true}}}
}

// wrap breaks a line of text into lines of at most n bytes (at rune boundaries).
func wrap(text string, n int) string {
	var b strings.Builder
	line := 0
	for _, r := range text {
		if line >= n {
			b.WriteByte('\n')
			line = 0
		}
		b.WriteRune(r)
		line += utf8.RuneLen(r)
	}
	return b.String()
}
