package sandbox

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// serveHTTP is the front door: injected faults, routing (404/405), authentication, rate
// limiting, then the handler under the store lock (shared for reads, exclusive for writes).
func (s *Sandbox) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/files/") {
		s.serveFile(w, r)
		return
	}
	var fd faultDecision
	if s.faults != nil && strings.HasPrefix(r.URL.Path, "/v1/") {
		fd = s.faults.decide(isWrite(r.Method))
		if fd.delay > 0 {
			t := time.NewTimer(fd.delay)
			select {
			case <-t.C:
			case <-r.Context().Done():
				t.Stop()
				return
			}
		}
		switch fd.kind {
		case faultDrop:
			abortConnection(w)
			return
		case fault500:
			writeError(w, http.StatusInternalServerError, "Internal server error, please try again later (injected fault)")
			return
		case fault429:
			w.Header().Set("Retry-After", "1")
			writeError(w, http.StatusTooManyRequests, "Rate limit exceeded - try again in 1s (injected fault)")
			return
		}
	}

	rt, params, allowed, ok := s.router.match(r)
	if !ok {
		if len(allowed) > 0 {
			w.Header().Set("Allow", strings.Join(allowed, ", "))
			writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("Method %s is not allowed on %s (allowed: %s)", r.Method, r.URL.Path, strings.Join(allowed, ", ")))
			return
		}
		writeError(w, http.StatusNotFound, fmt.Sprintf("No such endpoint: %s %s", r.Method, r.URL.Path))
		return
	}

	c := &call{s: s, r: r, params: params}
	if !rt.public {
		who, err := s.authenticate(r)
		if err != nil {
			writeResult(w, nil, err)
			return
		}
		c.who = who
		if ok, wait := s.limiter.allow(w, who, s.clock.Now()); !ok {
			writeError(w, http.StatusTooManyRequests, fmt.Sprintf("Rate limit %d exceeded - try again in %ds", s.limiter.limit, wait))
			return
		}
	}
	body, err := readBody(r)
	if err != nil {
		writeResult(w, nil, err)
		return
	}
	c.body = body
	if err := s.hostileRefusal(r.Method, body); err != nil {
		writeResult(w, nil, err)
		return
	}

	write := isWrite(r.Method)
	if write {
		s.mu.Lock()
	} else {
		s.mu.RLock()
	}
	c.now = s.clock.Now().UTC()
	res, err := rt.h(c)
	if write {
		s.mu.Unlock()
		if err == nil {
			s.changed()
		}
	} else {
		s.mu.RUnlock()
	}
	if fd.kind == faultDropAfter {
		// The write happened; the caller never learns it did.
		abortConnection(w)
		return
	}
	writeResult(w, res, err)
}

// abortConnection closes the connection without an answer.
func abortConnection(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			_ = conn.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}
