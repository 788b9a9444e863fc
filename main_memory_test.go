//go:build linux

package main

import (
	"bytes"
	"fmt"
	"github.com/svcui/svcui/internal/sandbox/sandboxtest"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// projectsAnswer is a GET /v1/project answer of n projects shaped like the platform's.
func projectsAnswer(n int) []byte {
	var buf bytes.Buffer
	sandboxtest.WriteProjectList(&buf, n)
	return buf.Bytes()
}

// statusMB reads a field of /proc/PID/status (VmRSS, VmHWM) in MB.
func statusMB(pid int, field string) float64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(l, field+":"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 64)
			return kb / 1000
		}
	}
	return 0
}

// BenchmarkConsoleRSSOn80000Projects runs the built console, as a person does, on an
// account of 80,000 projects (a 24.5 MB answer from a server in this process) with a
// refresh every 4 s, and reads the console process's resident memory: its peak (VmHWM)
// over the first load and 5 refreshes, and its steady size (the median VmRSS over the
// next 8 s, refreshes going on), in MB and as multiples of the answer. The account's
// answer is the same at every read ("unchanged"), or every project's balance differs
// from the last read's ("all-changed", the most a refresh can hold beside the list
// shown). This is the README's figure.
func BenchmarkConsoleRSSOn80000Projects(b *testing.B) {
	const n = 80_000
	same := projectsAnswer(n)
	for _, changing := range []bool{false, true} {
		name := "unchanged"
		if changing {
			name = "all-changed"
		}
		b.Run(name, func(b *testing.B) {
			consoleRSS(b, float64(len(same))/1e6, func(w io.Writer, round int) {
				if changing {
					sandboxtest.WriteProjectListAt(w, n, round)
					return
				}
				_, _ = w.Write(same)
			})
		})
	}
}

// consoleRSS measures the console on the project list answer writes for the round-th
// read (an answer of about mb MB).
func consoleRSS(b *testing.B, mb float64, answer func(w io.Writer, round int)) {
	bin := releaseBinary(b)
	var lists atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/v1/project" {
			answer(w, int(lists.Add(1)))
			return
		}
		_, _ = io.WriteString(w, `{"services":[],"users":[],"billing_groups":[],"invoices":[],"clouds":[],"service_types":[],"acl":[],"topics":[],"databases":[]}`)
	}))
	defer srv.Close()
	for b.Loop() {
		env, _ := testEnv(b)
		env = append(env, "SVCUI_API_URL="+srv.URL, "SVCUI_TOKEN=tok_memory_benchmark")
		start := lists.Load()
		c := startConsole(b, bin, env, "--refresh", "4s")
		c.waitFor(b, "project-0000", time.Minute)
		deadline := time.Now().Add(2 * time.Minute)
		for lists.Load()-start < 6 {
			if time.Now().After(deadline) {
				b.Fatalf("%d lists served in 2 minutes", lists.Load()-start)
			}
			time.Sleep(50 * time.Millisecond)
		}
		var samples []float64
		for range 80 {
			time.Sleep(100 * time.Millisecond)
			samples = append(samples, statusMB(c.cmd.Process.Pid, "VmRSS"))
		}
		peak := statusMB(c.cmd.Process.Pid, "VmHWM")
		slices.Sort(samples)
		steady := samples[len(samples)/2]
		b.ReportMetric(mb, "answer-MB")
		b.ReportMetric(peak, "peak-rss-MB")
		b.ReportMetric(steady, "steady-rss-MB")
		b.ReportMetric(peak/mb, "x-peak")
		b.ReportMetric(steady/mb, "x-steady")
		_ = c.cmd.Process.Kill()
	}
}

var (
	releaseOnce sync.Once
	releasePath string
	releaseErr  error
)

// releaseBinary is the console built as it ships (no -race, HTTP/2 left out): resident
// memory is measured on what operators run. It is built once per test binary.
func releaseBinary(b *testing.B) string {
	b.Helper()
	releaseOnce.Do(func() {
		dir, err := runDir("svcui-release-")
		if err != nil {
			releaseErr = err
			return
		}
		releasePath = filepath.Join(dir, "svcui")
		out, err := exec.Command("go", "build", "-trimpath", "-tags", "nethttpomithttp2", "-o", releasePath, ".").CombinedOutput()
		if err != nil {
			releaseErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if releaseErr != nil {
		b.Fatal(releaseErr)
	}
	return releasePath
}
