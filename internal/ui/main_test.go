package ui

import (
	"flag"
	"os"
	"testing"
)

// flowParallel is how many parallel flows run at once unless -test.parallel says: they
// wait on clocks (refresh intervals, the sandbox's latency, a client's retries), not on
// the CPU, so more of them wait together than the machine has cores.
const flowParallel = "4"

func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", flowParallel)
	}
	os.Exit(m.Run())
}
