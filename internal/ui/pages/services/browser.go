package services

import (
	"context"
	"os/exec"
	"runtime"
	"time"
)

// browserOpener returns a func that opens a URL with the desktop's opener (xdg-open on
// Linux and BSDs, open on macOS), or nil when there is none (a server over SSH).
func browserOpener() func(string) error {
	name := "xdg-open"
	if runtime.GOOS == "darwin" {
		name = "open"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return nil
	}
	return func(url string) error {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		// The opener's output would draw over the UI; it is discarded.
		return exec.CommandContext(ctx, path, url).Run()
	}
}
