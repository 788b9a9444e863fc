//go:build unix

package faultrun

import (
	"bytes"
	"compress/gzip"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/svcui/svcui/internal/api"
)

// cpuTime is the process's user and system CPU time so far.
func cpuTime(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// gzipBomb inflates to about mib MiB of spaces inside the project list.
func gzipBomb(mib int) []byte {
	member := func(b []byte) []byte {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		_, _ = zw.Write(b)
		_ = zw.Close()
		return buf.Bytes()
	}
	spaces := member(bytes.Repeat([]byte(" "), 1<<20))
	var out bytes.Buffer
	out.Write(member([]byte(`{"projects":[`)))
	for range mib {
		out.Write(spaces)
	}
	out.Write(member([]byte(`]}`)))
	return out.Bytes()
}

// TestFaultRunBrokenLists serves GET /v1/project broken three ways (one 40 MiB entry,
// part of an entry then a connection reset, a 1 GiB gzip bomb), refreshes it as the
// console does, and checks that every refresh ends with an error and that the process
// then falls back to idle. A broken list once spun one core per refresh for good
// (103-109 % CPU after the first).
func TestFaultRunBrokenLists(t *testing.T) {
	if os.Getenv("SVCUI_FAULTRUN") != "1" {
		t.Skip("the fault run runs with SVCUI_FAULTRUN=1 (CI sets it)")
	}
	bomb := gzipBomb(1024)
	kinds := map[string]http.HandlerFunc{
		"a 40 MiB entry": func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(200)
			_, _ = w.Write([]byte(`{"projects":[{"project_name":"a"},{"project_name":"b","pad":"`))
			chunk := bytes.Repeat([]byte("x"), 1<<20)
			for range 40 {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
			_, _ = w.Write([]byte(`"}]}`))
		},
		"part of an entry, then a reset": func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(200)
			_, _ = w.Write([]byte(`{"projects":[{"project_name":"a"},{"project_name":"b","account_name":"Ac`))
			w.(http.Flusher).Flush()
			conn, _, err := w.(http.Hijacker).Hijack()
			if err != nil {
				return
			}
			if tc, ok := conn.(*net.TCPConn); ok {
				_ = tc.SetLinger(0)
			}
			_ = conn.Close()
		},
		"a 1 GiB gzip bomb": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "gzip")
			w.WriteHeader(200)
			_, _ = w.Write(bomb)
		},
	}
	var served atomic.Int64
	clients := map[string]*api.Client{}
	for kind, h := range kinds {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			served.Add(1)
			w.Header().Set("Content-Type", "application/json")
			h(w, r)
		}))
		t.Cleanup(srv.Close)
		c, err := api.New(api.Options{BaseURL: srv.URL, Token: "tok_faultrun_broken", Sleep: shortSleep})
		if err != nil {
			t.Fatal(err)
		}
		clients[kind] = c
	}

	// Three refreshes of each broken list, with the console's 15 s request timeout;
	// a refresh ends before the next starts, as the console's timer does.
	const rounds = 3
	var ended atomic.Int64
	for round := range rounds {
		var wg sync.WaitGroup
		var mu sync.Mutex
		for kind, c := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
				defer cancel()
				start := time.Now()
				_, err := c.ListProjects(ctx)
				ended.Add(1)
				mu.Lock()
				defer mu.Unlock()
				if err == nil {
					t.Errorf("%s: accepted", kind)
					return
				}
				t.Logf("refresh %d, %s: %s after %s", round+1, kind, api.Message(err), time.Since(start).Round(time.Millisecond))
			}()
		}
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Errorf("refresh %d of the broken lists has not ended after 20 s", round+1)
		}
	}
	if got, want := ended.Load(), int64(rounds*len(kinds)); got != want {
		t.Errorf("%d of %d refreshes ended", got, want)
	}

	// Then the process must be idle: the sandbox server and the client wait, nothing
	// spins. Idle is about 1 % of one core; a spinning decoder is 100 % each.
	runtime.GC()
	const window = 2 * time.Second
	cpu0, wall0 := cpuTime(t), time.Now()
	time.Sleep(window)
	cpu, wall := cpuTime(t)-cpu0, time.Since(wall0)
	share := float64(cpu) / float64(wall)
	t.Logf("CPU after the broken lists: %.1f %% of one core over %s (%d requests served)", 100*share, wall.Round(time.Millisecond), served.Load())
	if share > 0.25 {
		t.Errorf("the process used %.0f %% of a core over %s after the broken lists; want it idle", 100*share, wall.Round(time.Millisecond))
	}
}
