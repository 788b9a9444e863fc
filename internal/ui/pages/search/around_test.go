package search

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/uitest"
)

// C on a hit shows the documents around it in time, in its index, whatever the query
// filtered: n before and after (documents sharing its millisecond in index order), the
// hit marked and under the cursor; + shows more; enter opens one.
func TestSurroundingDocuments(t *testing.T) {
	t.Parallel()
	p, _, _ := writingPane(t, "products")
	c := p.link.conn.client
	do(t, c, "PUT", "/around", `{"mappings":{"properties":{"ts":{"type":"date"},"n":{"type":"long"},"level":{"type":"keyword"}}}}`, search.ContentTypeJSON)
	base := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	var bulk strings.Builder
	for n := range 40 {
		ms := n
		if n >= 20 && n <= 22 {
			ms = 20 // three documents share the anchor's millisecond
		}
		level := "INFO"
		if n == 21 {
			level = "ERROR"
		}
		fmt.Fprintf(&bulk, "{\"index\":{\"_index\":\"around\",\"_id\":\"d-%02d\"}}\n{\"ts\":%q,\"n\":%d,\"level\":%q}\n", n, base.Add(time.Duration(ms)*time.Millisecond).Format(time.RFC3339Nano), n, level)
	}
	do(t, c, "POST", "/_bulk?refresh=true", bulk.String(), search.ContentTypeNDJSON)
	deliver(t, p, p.indices.list.Load())
	runLine(t, p, "GET /around/_search\n{\"query\": {\"term\": {\"level\": \"ERROR\"}}}\n")
	if h := p.reader.res.ans.hits; h == nil || len(h.Rows) != 1 {
		t.Fatalf("search: %+v", p.reader.res.ans)
	}
	p.setFocus(focusResults)
	_, cmd := p.Update(runes("C"))
	var v *aroundView
	for _, m := range uitest.Run(cmd) {
		if pv, ok := m.(common.PushView); ok {
			v, _ = pv.View.(*aroundView)
		}
	}
	if v == nil {
		t.Fatal("C pushed no view")
	}
	v.SetSize(120, 30)
	ns := func() []string {
		var out []string
		for _, k := range v.res.ans.keys {
			out = append(out, strings.TrimPrefix(k, "around/d-"))
		}
		return out
	}
	var vv common.View = v
	vv, _ = deliver(t, vv, v.Init())
	if got := strings.Join(ns(), ","); got != "16,17,18,19,20,21,22,23,24,25,26" {
		t.Fatalf("around: %s", got)
	}
	if v.res.table.SelectedKey() != "around/d-21" {
		t.Fatalf("cursor on %q", v.res.table.SelectedKey())
	}
	view := ansi.Strip(v.View())
	lines := strings.Split(view, "\n")
	marked := 0
	for _, l := range lines[1:] {
		if strings.Contains(l, "◆") {
			marked++
			if !strings.Contains(l, "10:00:00.020") {
				t.Fatalf("the mark is not on the hit: %q", l)
			}
		}
	}
	if marked != 1 {
		t.Fatalf("%d marks:\n%s", marked, view)
	}
	_, cmd = v.Update(runes("+"))
	deliver(t, vv, cmd)
	if got := len(ns()); got != 21 || v.n != 10 {
		t.Fatalf("+: %d rows, n %d", got, v.n)
	}
	_, cmd = v.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if m := uitest.Run(cmd); len(m) != 1 {
		t.Fatalf("enter: %#v", m)
	} else if pv, ok := m[0].(common.PushView); !ok || !strings.Contains(pv.View.Title(), "Hit 11") {
		t.Fatalf("enter opened %#v", m[0])
	}
}

// asTyped is a request as if the user had typed it in the editor.
func asTyped(t testing.TB, method, path, body string) search.Request {
	t.Helper()
	r, err := search.ParsedRequest{Method: method, Path: path, Body: body}.HTTPRequest()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A hostile or intercepted answer names the hit's index "logs-web/_close#": C reads
// the documents around it from that index name as one escaped segment, so nothing but
// _search reaches the engine and logs-web stays open.
func TestSurroundingDocumentsOfAHostileIndexOnlyRead(t *testing.T) {
	t.Parallel()
	p, rl, _ := writingPane(t, "logs-web")
	runLine(t, p, "GET /logs-web/_search\n{\"size\": 1}\n")
	a := p.reader.res.ans
	if a == nil || a.hits == nil || len(a.hits.Hits) != 1 {
		t.Fatalf("search: %+v", a)
	}
	for _, hostile := range []string{"logs-web/_close#", "logs-web/_delete_by_query?refresh=true&x="} {
		quoted, _ := jsonString(hostile)
		a.hits.Hits[0] = json.RawMessage(strings.Replace(string(a.hits.Hits[0]), `"logs-web"`, quoted, 1))
		p.setFocus(focusResults)
		_, cmd := p.Update(runes("C"))
		var v *aroundView
		for _, m := range uitest.Run(cmd) {
			if pv, ok := m.(common.PushView); ok {
				v, _ = pv.View.(*aroundView)
			}
		}
		if v == nil {
			t.Fatalf("%s: C pushed no view", hostile)
		}
		v.SetSize(120, 30)
		deliver(t, v, v.Init())
		a.hits.Hits[0] = json.RawMessage(strings.Replace(string(a.hits.Hits[0]), quoted, `"logs-web"`, 1))
	}
	sent := 0
	for _, s := range rl.all() {
		m, path, _ := strings.Cut(s, " ")
		if strings.HasPrefix(path, "/logs-web/_") && path != "/logs-web/_search" && path != "/logs-web/_mapping" {
			sent++
			if m != "GET" && !strings.HasSuffix(path, "/_search") {
				t.Errorf("the console sent %s", s)
			}
		}
	}
	if sent == 0 {
		t.Fatal("C sent nothing: the test proves nothing")
	}
	runLine(t, p, "GET /logs-web/_count\n")
	if p.reader.res.ans.errText != "" || p.reader.res.ans.status != 200 {
		t.Fatalf("logs-web after C: %d %s", p.reader.res.ans.status, p.reader.res.ans.errText)
	}
}
