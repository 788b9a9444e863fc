package fake

import (
	"slices"
	"sync"
)

// Rule is what the fake does to the calls of one method whose arguments begin with
// given ones, instead of (or before) answering as the platform would. A rule stays
// until cleared; the latest rule that matches a call decides.
type Rule struct {
	f      *API
	method Method
	args   []string
	fail   error // answered without doing anything
	lose   error // answered after doing the write
	gate   *Gate
}

// On is the rule for calls of m whose arguments begin with args (every call of m
// without args): the one set before for the same, or a new one that changes nothing.
func (f *API) On(m Method, args ...string) *Rule {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.rules {
		if r.method == m && slices.Equal(r.args, args) {
			return r
		}
	}
	r := &Rule{f: f, method: m, args: slices.Clone(args)}
	f.rules = append(f.rules, r)
	return r
}

// Fail makes the calls answer err and change nothing (a refusal, or a request that
// never arrived).
func (r *Rule) Fail(err error) *Rule {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	r.fail, r.lose = err, nil
	return r
}

// Lose makes the calls happen and answer err instead of their result: the write landed
// and its answer was lost (err is usually ErrLost).
func (r *Rule) Lose(err error) *Rule {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	r.fail, r.lose = nil, err
	return r
}

// Hold makes the calls wait at a new gate until it is released; then they go on as the
// rest of the rule says. The call's context is not watched: a held write lands when
// released, as a request already on the wire does.
func (r *Rule) Hold() *Gate {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	r.gate = &Gate{open: make(chan struct{}), arrived: make(chan struct{})}
	return r.gate
}

// Clear removes the rule: the calls are answered as the platform would.
func (r *Rule) Clear() {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	r.f.rules = slices.DeleteFunc(r.f.rules, func(x *Rule) bool { return x == r })
}

func (r *Rule) matches(m Method, args []string) bool {
	return r.method == m && len(args) >= len(r.args) && slices.Equal(args[:len(r.args)], r.args)
}

// Gate holds calls until released.
type Gate struct {
	open    chan struct{}
	release sync.Once
	mu      sync.Mutex
	held    int
	arrived chan struct{} // closed and replaced when a call arrives
}

// Release lets every held call, and every later one, through.
func (g *Gate) Release() { g.release.Do(func() { close(g.open) }) }

// WaitHeld blocks until n calls have reached the gate (held now, or let through since).
func (g *Gate) WaitHeld(n int) {
	for {
		g.mu.Lock()
		if g.held >= n {
			g.mu.Unlock()
			return
		}
		ch := g.arrived
		g.mu.Unlock()
		<-ch
	}
}

func (g *Gate) wait() {
	g.mu.Lock()
	g.held++
	close(g.arrived)
	g.arrived = make(chan struct{})
	g.mu.Unlock()
	<-g.open
}

// outcome is what the rules make of one call.
type outcome struct{ fail, lose error }

// enter logs a call, waits at its gate if a rule holds it, and says what the rules make
// of it.
func (f *API) enter(m Method, args ...string) outcome {
	f.mu.Lock()
	f.calls = append(f.calls, Call{Method: m, Args: args})
	var rule *Rule
	for i := len(f.rules) - 1; i >= 0; i-- {
		if f.rules[i].matches(m, args) {
			rule = f.rules[i]
			break
		}
	}
	var o outcome
	var gate *Gate
	if rule != nil {
		o, gate = outcome{rule.fail, rule.lose}, rule.gate
	}
	f.mu.Unlock()
	if gate != nil {
		gate.wait()
	}
	return o
}

// answer is a write's result as the rule has it: the value, or the lost answer's error.
func answer[T any](v T, o outcome) (T, error) {
	if o.lose != nil {
		var zero T
		return zero, o.lose
	}
	return v, nil
}
