package services

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/uitest/fake"
)

// loadedList builds a list holding n services, as after a load (a few in progress, so
// the spinner path is measured too).
func loadedList(tb testing.TB, n int) *List {
	tb.Helper()
	es := make([]entry, n)
	for i := range es {
		state := "RUNNING"
		switch i % 500 {
		case 7:
			state = "REBUILDING"
		case 11:
			state = "POWEROFF"
		}
		s := svc(fmt.Sprintf("service-%06d", i), state)
		s.UserConfig = models.UserConfig{models.UCPGVersion: "16"}
		es[i] = entry{"acme-prod", s}
	}
	ctx := testCtx(fake.New())
	l := New(ctx).(*List)
	l.SetSize(160, 46)
	l.show(es)
	return l
}

func benchView(b *testing.B, n int, spinning bool) {
	l := loadedList(b, n)
	if !strings.Contains(l.View(), "service-000000") {
		b.Fatal("first row not shown")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if spinning {
			// A spinner frame: in-progress rows get a new state cell.
			l.Ctx.SpinnerFrame++
			l.Update(common.SpinnerTick{})
		}
		_ = l.View()
	}
}

func BenchmarkServicesView100(b *testing.B)    { benchView(b, 100, false) }
func BenchmarkServicesView10000(b *testing.B)  { benchView(b, 10000, false) }
func BenchmarkServicesView100000(b *testing.B) { benchView(b, 100000, false) }

// Spinner frames: one in 500 services in progress (20 rows at 10,000) re-rendered.
func BenchmarkServicesViewSpinning100(b *testing.B)   { benchView(b, 100, true) }
func BenchmarkServicesViewSpinning10000(b *testing.B) { benchView(b, 10000, true) }

func BenchmarkServicesKeyPress10000(b *testing.B) {
	l := loadedList(b, 10000)
	down, up := tea.KeyMsg{Type: tea.KeyDown}, tea.KeyMsg{Type: tea.KeyUp}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := down
		if i%2 == 1 {
			k = up
		}
		l.Update(k)
	}
}

// BenchmarkMemory10000Services reports the heap in use with 10,000 services loaded in
// the pane (rows, sort and filter index, and the services themselves).
func BenchmarkMemory10000Services(b *testing.B) {
	var keep *List
	for i := 0; i < b.N; i++ {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		keep = loadedList(b, 10000)
		_ = keep.View()
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapInuse)/(1<<20), "MB-heap-total")
		b.ReportMetric(float64(int64(after.HeapInuse)-int64(before.HeapInuse))/(1<<20), "MB-heap-pane")
	}
	runtime.KeepAlive(keep)
}
