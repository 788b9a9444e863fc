//go:build race

package search

// raceEnabled says the race detector is on: tests that only measure size or time on one
// goroutine run without it (the Makefile runs them in its run without -race).
const raceEnabled = true
