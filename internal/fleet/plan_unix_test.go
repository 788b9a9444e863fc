//go:build unix

package fleet

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO or a symlink to /dev/zero among the kept plans is named as skipped at once:
// reading one hung the list for good or filled the memory.
func TestPlanListSkipsWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.json"), 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.json")); err != nil {
		t.Fatal(err)
	}
	done := make(chan []string, 1)
	go func() {
		_, skipped, _ := List(dir)
		done <- skipped
	}()
	select {
	case skipped := <-done:
		if len(skipped) != 2 {
			t.Fatalf("skipped %v", skipped)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("List blocked on a FIFO")
	}
}
