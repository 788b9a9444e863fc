package ui

import (
	"testing"
	"time"

	"github.com/svcui/svcui/internal/sandbox"
	"github.com/svcui/svcui/internal/sandbox/sandboxtest"
)

// w on a service in transition watches it: the header says so, the footer tells when
// the platform has it RUNNING, and :watches lists it until w stops it.
func TestFlowWatchAServiceUntilItRuns(t *testing.T) {
	t.Parallel() // waits on the header's poll of the platform, not the CPU
	clock := sandboxtest.NewManualClock(time.Now())
	e := startSandboxWith(t, sandbox.Options{Clock: clock, ProvisionDelay: time.Minute})
	c := client(t, e.url, e.admin)
	s := start(t, settings(e, e.admin), c, 120, 40)
	s.waitFor("acme-prod", "as admin")
	s.keys("2")
	s.waitFor("mysql-orders-legacy", "REBALANCING")
	s.keys("/")
	s.typeText("mysql-orders")
	s.keys("enter")
	s.waitForLine(`1/1`, 5*time.Second)
	s.mark()
	s.keys("w")
	s.waitFor("Watching mysql-orders-legacy", "watching 1")

	clock.Advance(2 * time.Minute) // the platform finishes rebalancing
	s.mark()
	s.waitForLine(`mysql-orders-legacy is RUNNING`, 10*time.Second)

	s.keys(":")
	s.typeText("watches")
	s.keys("enter")
	s.waitFor("Watches", "mysql-orders-legacy", "● RUNNING")
	s.mark()
	s.keys("w")
	s.waitFor("Stopped watching mysql-orders-legacy", "Nothing watched")
}
