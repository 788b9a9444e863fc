package api

import (
	"bufio"
	"context"
	"github.com/svcui/svcui/internal/sandbox/sandboxtest"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func writeProjectList(w io.Writer, n int) { sandboxtest.WriteProjectList(w, n) }

type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// memSampler records the peak of the Go heap (live and not yet collected objects)
// while a call runs, sampling runtime/metrics without stopping the world.
type memSampler struct {
	stop chan struct{}
	done sync.WaitGroup
	peak uint64
}

const heapObjectsMetric = "/memory/classes/heap/objects:bytes"

func heapObjects() uint64 {
	s := []metrics.Sample{{Name: heapObjectsMetric}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func startMemSampler() *memSampler {
	m := &memSampler{stop: make(chan struct{}), peak: heapObjects()}
	m.done.Add(1)
	go func() {
		defer m.done.Done()
		t := time.NewTicker(200 * time.Microsecond)
		defer t.Stop()
		for {
			if h := heapObjects(); h > m.peak {
				m.peak = h
			}
			select {
			case <-m.stop:
				return
			case <-t.C:
			}
		}
	}()
	return m
}

func (m *memSampler) finish() uint64 {
	close(m.stop)
	m.done.Wait()
	if h := heapObjects(); h > m.peak {
		m.peak = h
	}
	return m.peak
}

// procStatusKB reads one kB field (VmRSS, VmHWM) of /proc/self/status; 0 when there is
// no such file (not Linux).
func procStatusKB(field string) uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			n, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return n
		}
	}
	return 0
}

// resetPeakRSS makes VmHWM start again from the current RSS (Linux 4.0+); false when
// the kernel does not allow it, and the peak RSS is then not reported.
func resetPeakRSS() bool {
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

const mb = 1 << 20

// BenchmarkLargeProjectList measures memory while ListProjects reads a valid list of
// 80,000 projects served by httptest, with a Content-Length (as the sandbox and most
// servers send) and chunked: peak-heap-MB is the heap's growth over the call (decoded
// and not yet collected objects), retained-MB what the answer keeps after a
// collection, peak-rss-MB the growth of the process's resident set, and x-answer the
// peak heap as a multiple of the answer's size.
func BenchmarkLargeProjectList(b *testing.B) {
	const n = 80_000
	var size countingWriter
	writeProjectList(&size, n)
	for _, withLength := range []bool{true, false} {
		name := "content-length"
		if !withLength {
			name = "chunked"
		}
		b.Run(name, func(b *testing.B) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				if withLength {
					w.Header().Set("Content-Length", strconv.FormatInt(size.n, 10))
				}
				writeProjectList(w, n)
			}))
			defer srv.Close()
			benchListMemory(b, srv.URL, n, float64(size.n)/mb)
		})
	}
}

func benchListMemory(b *testing.B, url string, n int, answer float64) {
	c, err := New(Options{BaseURL: url, Token: testToken})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var peakHeap, retained, peakRSS float64
	rssKnown := true
	for b.Loop() {
		runtime.GC()
		debug.FreeOSMemory()
		base := heapObjects()
		rssKnown = rssKnown && resetPeakRSS()
		baseRSS := procStatusKB("VmRSS")
		s := startMemSampler()
		pl, err := c.ListProjects(ctx)
		peak := s.finish()
		hwm := procStatusKB("VmHWM")
		if err != nil || len(pl.Projects) != n || len(pl.Membership) != n {
			b.Fatalf("%d projects, %d roles, err %v", len(pl.Projects), len(pl.Membership), err)
		}
		runtime.GC()
		kept := heapObjects()
		runtime.KeepAlive(pl)
		peakHeap = max(peakHeap, float64(peak-base)/mb)
		retained = max(retained, float64(int64(kept)-int64(base))/mb)
		if hwm > baseRSS {
			peakRSS = max(peakRSS, float64(hwm-baseRSS)/1024)
		}
	}
	b.ReportMetric(answer, "answer-MB")
	b.ReportMetric(peakHeap, "peak-heap-MB")
	b.ReportMetric(retained, "retained-MB")
	b.ReportMetric(peakHeap/answer, "x-answer")
	if rssKnown {
		b.ReportMetric(peakRSS, "peak-rss-MB")
	}
}
