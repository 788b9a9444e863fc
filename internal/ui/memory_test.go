package ui

import (
	"fmt"
	"github.com/svcui/svcui/internal/sandbox/sandboxtest"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/api"
	"github.com/svcui/svcui/internal/config"
	"github.com/svcui/svcui/internal/ui/theme"
	"github.com/svcui/svcui/internal/ui/uitest"
)

func writeProjects(w io.Writer, n int) { sandboxtest.WriteProjectList(w, n) }

type byteCounter struct{ n int64 }

func (c *byteCounter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// heapPeak samples the heap (live and not yet collected objects) while f runs.
func heapPeak(f func()) uint64 {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	peak := liveHeap()
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(500 * time.Microsecond)
		defer t.Stop()
		for {
			if h := liveHeap(); h > peak {
				peak = h
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	f()
	close(stop)
	wg.Wait()
	return max(peak, liveHeap())
}

func rssMB() float64 { return procStatusMB("VmRSS:") }

// peakRSSMB is the process's highest resident set so far (VmHWM).
func peakRSSMB() float64 { return procStatusMB("VmHWM:") }

func procStatusMB(field string) float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, field); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 64)
			return kb / 1024
		}
	}
	return 0
}

// consoleMemory runs the whole console (the root model, every pane it opens) on an
// answer of n projects, then refreshes times live refreshes, and returns the answer's
// size and, in MB, the heap the console holds after the first load and after the
// refreshes, and the highest peak of a load or refresh. With changing, every read
// gives every project another balance than the last (nothing a refresh can reuse).
func consoleMemory(t testing.TB, n, refreshes int, changing bool) (answer, first, after, peak float64) {
	var size byteCounter
	writeProjects(&size, n)
	var mu sync.Mutex
	var lists int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/v1/project" {
			mu.Lock()
			lists++
			round := lists
			mu.Unlock()
			if !changing {
				round = 0
			}
			sandboxtest.WriteProjectListAt(w, n, round)
			return
		}
		// Every other list the panes ask for is empty.
		_, _ = io.WriteString(w, `{"services":[],"users":[],"billing_groups":[],"invoices":[],"clouds":[],"service_types":[],"acl":[],"topics":[],"databases":[]}`)
	}))
	defer srv.Close()
	c, err := api.New(api.Options{BaseURL: srv.URL, Token: "tok_memory_test"})
	if err != nil {
		t.Fatal(err)
	}
	clock := uitest.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	// Signed: what other tests left in the heap may be collected meanwhile.
	mb := func(b uint64) float64 { return float64(int64(b)) / (1 << 20) }
	runtime.GC()
	debug.FreeOSMemory()
	base := liveHeap()
	var root *safeModel
	var d *uitest.Driver
	p := heapPeak(func() {
		root = newRoot(config.Settings{ProfileName: "mem", APIURL: srv.URL, Token: "tok_memory_test", Refresh: 10 * time.Second},
			theme.New(theme.Dark, true), slog.New(slog.DiscardHandler), c, nil)
		ctx := root.inner.Context()
		ctx.Now, ctx.After, ctx.StateDir = clock.Now, clock.After, t.TempDir()
		d = &uitest.Driver{Model: root, Clock: clock, Skip: func(msg tea.Msg) bool { _, q := msg.(tea.QuitMsg); return q }}
		d.Send(tea.WindowSizeMsg{Width: 160, Height: 40})
		d.Send(uitest.Run(root.Init())...)
	})
	peak = mb(p - base)
	if !strings.Contains(root.View(), "project-000000") {
		t.Fatalf("the projects did not load: %s", root.View())
	}
	runtime.GC()
	first = mb(liveHeap() - base)
	for range refreshes {
		p := heapPeak(func() { d.Advance(10 * time.Second) })
		peak = max(peak, mb(p-base))
	}
	runtime.GC()
	after = mb(liveHeap() - base)

	mu.Lock()
	if lists != refreshes+1 {
		t.Errorf("%d project lists served, want %d (the first load and each refresh)", lists, refreshes+1)
	}
	mu.Unlock()
	runtime.KeepAlive(root)
	return float64(size.n) / (1 << 20), first, after, peak
}

// BenchmarkConsoleLargeProjectList measures the whole console on an answer of 80,000
// projects (23 MB): the heap it keeps after the first load and after 6 live refreshes,
// and the peak of a load, as MB and as multiples of the answer (the API client alone
// keeps 2.2 times it). Its rss figures are this test process's (the server writing
// the answers included), not the console's: BenchmarkConsoleRSSOn80000Projects in the
// main package measures the console process.
func BenchmarkConsoleLargeProjectList(b *testing.B) {
	for b.Loop() {
		answer, first, after, peak := consoleMemory(b, 80_000, 6, false)
		b.ReportMetric(answer, "answer-MB")
		b.ReportMetric(first/answer, "x-kept-first")
		b.ReportMetric(after/answer, "x-kept-refreshed")
		b.ReportMetric(peak/answer, "x-peak")
		b.ReportMetric(rssMB(), "rss-MB")
		b.ReportMetric(peakRSSMB(), "rss-peak-MB")
	}
}

// The console's heap keeps at most 3 times an answer of 80,000 projects across
// refreshes, so that with the collector's room and the runtime the process stays
// under 4 times it resident (BenchmarkConsoleRSSOn80000Projects in the main package
// measures that). It kept 3.5: the projects pane copied every project, and the table
// kept a second copy of every cell and of their lower case.
func TestConsoleKeepsAtMostFourTimesALargeProjectList(t *testing.T) {
	t.Parallel() // measures in a process of its own (inOwnProcess)
	if testing.Short() || raceEnabled {
		t.Skip("measures the heap of 80,000 projects: not with -short or -race")
	}
	f, child := inOwnProcess(t, func() []float64 {
		answer, first, after, peak := consoleMemory(t, 80_000, 2, false)
		return []float64{answer, first, after, peak}
	})
	if child {
		return
	}
	answer, first, after, peak := f[0], f[1], f[2], f[3]
	t.Logf("answer %.1f MB: kept %.2fx after the first load, %.2fx after refreshes; peak %.1fx", answer, first/answer, after/answer, peak/answer)
	if after > 3*answer {
		t.Errorf("the console keeps %.1f MB (%.2fx) of a %.1f MB answer", after, after/answer, answer)
	}
}

// With the console's collector setting, an account of 80,000 projects is held at most
// twice over between refreshes, and the heap at a load's or a refresh's highest point
// (what is not collected yet included) stays under 3.5 times the answer, whether the
// refreshes repeat the list or change every project: with the runtime and the
// program's own pages the process then stays under 4 times the answer resident
// (BenchmarkConsoleRSSOn80000Projects in the main package measures that). It held 2.2
// times and peaked at 4.1: the table kept a Row and an index entry per row, the context
// two maps of every project's role and account, and a refresh decoded a second copy of
// every project beside the one shown.
func TestConsolePeaksUnderFourTimesALargeProjectList(t *testing.T) {
	t.Parallel() // measures in a process of its own (inOwnProcess)
	if testing.Short() || raceEnabled {
		t.Skip("measures the heap of 80,000 projects: not with -short or -race")
	}
	f, child := inOwnProcess(t, func() []float64 {
		debug.SetGCPercent(consoleGCPercent)
		var figures []float64
		for _, changing := range []bool{false, true} {
			answer, _, after, peak := consoleMemory(t, 80_000, 2, changing)
			figures = append(figures, after/answer, peak/answer)
		}
		return figures
	})
	if child {
		return
	}
	unchangedKept, unchangedPeak, changedKept, changedPeak := f[0], f[1], f[2], f[3]
	t.Logf("times the answer: unchanged kept %.2f, peak %.2f; every project changing kept %.2f, peak %.2f", unchangedKept, unchangedPeak, changedKept, changedPeak)
	if max(unchangedKept, changedKept) > 2 || max(unchangedPeak, changedPeak) > 3.5 {
		t.Errorf("the console keeps up to %.2f times the answer and peaks at %.2f", max(unchangedKept, changedKept), max(unchangedPeak, changedPeak))
	}
}

// inOwnProcess runs the test t in a process of its own, where measure gives its figures
// (child is true there: the test ends), and returns them. The heap is the whole
// process's: beside the package's other tests, what they left and what the collector
// took of it meanwhile moved the figures by more than they measure (a peak of 4.2
// times instead of 3.2; a heap kept after refreshes below the one before the load).
func inOwnProcess(t *testing.T, measure func() []float64) (figures []float64, child bool) {
	const childEnv = "SVCUI_TEST_MEMORY_FIGURES"
	if out := os.Getenv(childEnv); out != "" {
		if err := os.WriteFile(out, []byte(fmt.Sprint(measure())), 0o600); err != nil {
			t.Fatal(err)
		}
		return nil, true
	}
	out := filepath.Join(t.TempDir(), "figures")
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"="+out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range strings.Fields(strings.Trim(string(b), "[]")) {
		v, err := strconv.ParseFloat(w, 64)
		if err != nil {
			t.Fatalf("figures %q: %v", b, err)
		}
		figures = append(figures, v)
	}
	return figures, false
}
