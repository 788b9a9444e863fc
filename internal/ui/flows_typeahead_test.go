package ui

import "testing"

// Keys typed right after the one that opens a detail or switches tabs reach the view it
// brought up. Each key below is its own message, sent without waiting, as keys read
// before a command's answer comes back: the detail and the tab came as command messages,
// after those keys, so "c" went to the list under the detail (its create form opened)
// or to the detail the tab switch left.

func TestFlowKeysTypedAfterEnterReachTheProjectsDetail(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	s := start(t, settings(e, e.admin), client(t, e.url, e.admin), 120, 40)
	s.waitFor("acme-prod", "as admin")
	s.mark()
	s.keys("enter", "c") // c: the list's create; nothing in the detail
	s.waitFor("does nothing in acme-prod")
	s.never("Create project")
}

// The race with the detail's message is lost only now and then on a machine that
// keeps up, so the keys go three times.
func TestFlowKeysTypedAfterEnterReachTheServicesDetail(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	s := start(t, settings(e, e.admin), client(t, e.url, e.admin), 120, 40)
	s.waitFor("acme-prod", "as admin")
	s.servicesFilteredTo("pg-main")
	for range 3 {
		s.mark()
		s.keys("enter", "c")
		s.waitFor("does nothing in pg-main")
		s.never("Create service")
		s.mark()
		s.keys("esc")
		s.waitFor("Disk GB")
	}
}

// u on a service's detail shows its users in the Users tab; the c typed right after it
// creates a user there.
func TestFlowKeysTypedAfterATabSwitchReachTheNewTab(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	s := start(t, settings(e, e.admin), client(t, e.url, e.admin), 120, 40)
	s.waitFor("acme-prod", "as admin")
	s.servicesFilteredTo("pg-main")
	s.mark()
	s.keys("enter")
	s.waitFor("Overview", "Connection")
	s.mark()
	s.keys("u", "c")
	s.waitFor("Create user on pg-main")
	s.never("does nothing in pg-main")
}
