package services

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/uitest/fake"
)

func keysOf(es []entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Project + "/" + e.Service.ServiceName
	}
	return out
}

// Under any order of arrival and batching, the streamed rows are every arrived
// project's services in order (project, then name), and the cursor stays on the row
// it was on, wherever the user moved it in between.
func TestStreamingInsertKeepsOrderAndCursor(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 18))
		nProjects := 1 + rng.IntN(12)
		f := fake.New()
		var projects []string
		for p := range nProjects {
			name := fmt.Sprintf("proj-%02d", rng.IntN(40)) // unordered, maybe repeated
			if slices.Contains(projects, name) {
				continue
			}
			projects = append(projects, name)
			for s := range rng.IntN(5) { // some projects have none
				f.AddServices(name, svc(fmt.Sprintf("svc-%d-%d", p, rng.IntN(9)*10+s), "RUNNING"))
			}
		}
		ctx := testCtx(f.Streaming())
		ctx.ProjectNames = projects
		l := New(ctx).(*List)
		l.SetSize(120, 30)
		l.setAll(true) // its commands are not run: the test plays the stream
		s := l.stream
		if s == nil {
			t.Fatal("no stream for an API that streams")
		}
		// Filter and sort work meanwhile.
		filter := ""
		if rng.IntN(3) == 0 {
			l.Table.SortBy(colName+1, rng.IntN(2) == 0)
		}
		if rng.IntN(3) == 0 {
			filter = "svc-" + strconv.Itoa(rng.IntN(10))
			l.Table.SetFilter(filter)
		}
		order := slices.Clone(projects)
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var arrived []entry
		for len(order) > 0 {
			n := 1 + rng.IntN(len(order))
			var batch []projectAnswer
			for _, p := range order[:n] {
				svcs := f.Services(p)
				rng.Shuffle(len(svcs), func(i, j int) { svcs[i], svcs[j] = svcs[j], svcs[i] })
				batch = append(batch, projectAnswer{project: p, services: svcs})
				for _, sv := range svcs {
					arrived = append(arrived, entry{p, sv})
				}
			}
			order = order[n:]
			// The user moves somewhere first.
			for range rng.IntN(4) {
				l.Update(press("j"))
			}
			before, had := l.Selected()
			l.Update(streamMsg{view: l.ID(), id: s.id, answers: batch, total: len(projects)})

			want := slices.Clone(arrived)
			sortEntries(want)
			if got := keysOf(l.Items()); !slices.Equal(got, keysOf(want)) {
				t.Fatalf("seed %d: rows %v, want %v", seed, got, keysOf(want))
			}
			if after, ok := l.Selected(); had && (!ok || l.key(after) != l.key(before)) {
				t.Fatalf("seed %d: cursor moved from %s to %s", seed, l.key(before), l.key(after))
			}
			shown := 0
			for _, e := range want {
				if strings.Contains(e.Service.ServiceName, filter) {
					shown++
				}
			}
			if l.Table.Len() != shown {
				t.Fatalf("seed %d: %d rows shown under the filter %q, want %d", seed, l.Table.Len(), filter, shown)
			}
			wantProgress := fmt.Sprintf("%d/%d projects", len(projects)-len(order), len(projects))
			if !strings.Contains(l.Title(), wantProgress) {
				t.Fatalf("seed %d: title %q, want %q", seed, l.Title(), wantProgress)
			}
		}
	}
}

// Against the streaming fan-out, the first project's rows are on screen while the
// others are still on their way; the load's result then replaces the progress with
// the usual count, and a late answer of that stream changes nothing.
func TestAllProjectsListShowsRowsAsTheyArrive(t *testing.T) {
	f := withServices(map[string][]models.Service{
		"alpha": {svc("pg-a", "RUNNING")},
		"beta":  {svc("pg-b1", "RUNNING"), svc("pg-b2", "REBUILDING")},
		"gamma": {svc("pg-g", "RUNNING")},
	})
	stream := f.Streaming()
	ctx := testCtx(stream)
	ctx.ProjectNames = []string{"alpha", "beta", "gamma"}
	l := New(ctx).(*List)
	l.SetSize(120, 30)
	_, cmd := l.Update(showAll(true))
	// The batch holds the load (blocks until every project answered) and the stream's
	// first take (blocks until something arrives): run the load aside.
	var load, take tea.Cmd
	for _, c := range cmd().(tea.BatchMsg) {
		if c == nil {
			continue
		}
		if load == nil {
			load = c
		} else {
			take = c
		}
	}
	result := make(chan tea.Msg, 1)
	go func() { result <- load() }()

	stream.Answer("beta")
	msg := take()
	for msg.(streamMsg).total == 0 || len(msg.(streamMsg).answers) == 0 {
		_, next := l.Update(msg)
		msg = next()
	}
	_, next := l.Update(msg)
	out := ansi.Strip(l.View())
	if !strings.Contains(out, "pg-b1") || strings.Contains(out, "pg-a") {
		t.Fatalf("after beta answered:\n%s", out)
	}
	if !strings.Contains(l.Title(), "1/3 projects") {
		t.Fatalf("title %q", l.Title())
	}
	if next == nil {
		t.Fatal("the stream stopped being read before it ended")
	}
	stream.Answer("gamma", "alpha")
	res := <-result
	l.Update(res)
	if got := strings.Join(keysOf(l.Items()), " "); got != "alpha/pg-a beta/pg-b1 beta/pg-b2 gamma/pg-g" {
		t.Fatalf("rows %s", got)
	}
	if strings.Contains(l.Title(), "/3 projects") {
		t.Fatalf("progress still shown after the result: %q", l.Title())
	}
	// What the stream still had queued is dropped.
	l.Update(next())
	if len(l.Items()) != 4 {
		t.Fatalf("a late stream answer changed the rows: %v", keysOf(l.Items()))
	}
	// The usual count, the cursor still on the first row that arrived (now the second).
	if !strings.Contains(ansi.Strip(l.View()), "2/4") {
		t.Fatalf("no usual count, or the cursor moved:\n%s", ansi.Strip(l.View()))
	}
}

var _ common.Addressed = streamMsg{}
