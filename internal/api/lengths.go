package api

import "sync"

// answerLengths remembers how long the last whole answer of each GET was, for answers
// whose length the platform does not say (chunked, or compressed on the way). A list's
// decoder presizes from it instead of collecting pages and copying them into one slice:
// on a refresh of 80,000 projects that copy was a second 22 MB list beside the one on
// screen, the highest point of the console's memory.
type answerLengths struct {
	mu sync.Mutex
	n  map[string]int64
}

// maxRemembered bounds how many paths are remembered; past it the memory starts over.
const maxRemembered = 256

// guess is the length to decode an answer of target with: the platform's when it
// said one (known >= 0), else the last whole answer's, else -1.
func (a *answerLengths) guess(target string, known int64) int64 {
	if known >= 0 {
		return known
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if n, ok := a.n[target]; ok {
		return n
	}
	return -1
}

// remember records the length of a whole answer of target.
func (a *answerLengths) remember(target string, n int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.n == nil || len(a.n) >= maxRemembered {
		a.n = map[string]int64{}
	}
	a.n[target] = n
}
