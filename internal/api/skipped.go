package api

import (
	"context"
	"fmt"
	"sync"
)

// Skipped is what list calls left out of their answers.
type Skipped struct {
	// Unnamed counts entries without a name: null, {}, or a blank name. Nothing can be
	// done with them (a path cannot be built from an empty name).
	Unnamed int
	// Malformed counts entries that could not be read (a field of the wrong type).
	Malformed int
	// Details has one line per skipped entry, the first maxSkipDetails of them, such
	// as "services[3].node_count is a string, not an integer"; for the debug log.
	Details []string
}

const maxSkipDetails = 20

// Total is the number of entries left out.
func (s Skipped) Total() int { return s.Unnamed + s.Malformed }

// Sentence says what was left out, for a person ("" when nothing was).
func (s Skipped) Sentence() string {
	switch {
	case s.Total() == 0:
		return ""
	case s.Malformed == 0:
		return plural(s.Unnamed, "entry without a name was", "entries without a name were") + " left out"
	case s.Unnamed == 0:
		return plural(s.Malformed, "entry could not be read and was", "entries could not be read and were") + " left out"
	}
	return fmt.Sprintf("%s and %s were left out", plural(s.Malformed, "entry that could not be read", "entries that could not be read"),
		plural(s.Unnamed, "entry without a name", "entries without a name"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func (s *Skipped) add(unnamed bool, detail string) {
	if unnamed {
		s.Unnamed++
	} else {
		s.Malformed++
	}
	if len(s.Details) < maxSkipDetails {
		s.Details = append(s.Details, detail)
	}
}

func (s *Skipped) merge(o Skipped) {
	s.Unnamed += o.Unnamed
	s.Malformed += o.Malformed
	for _, d := range o.Details {
		if len(s.Details) < maxSkipDetails {
			s.Details = append(s.Details, d)
		}
	}
}

// SkipReport collects what the list calls made under one context left out; see
// WithSkipReport. It is safe for concurrent use.
type SkipReport struct {
	mu sync.Mutex
	s  Skipped
}

// Skipped returns what was left out so far.
func (r *SkipReport) Skipped() Skipped {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.s
	s.Details = append([]string(nil), r.s.Details...)
	return s
}

type skipReportKey struct{}

// WithSkipReport returns a context under which every list call (ListServices,
// ListProjects, …) adds the entries it left out to the returned report, so the caller
// can say "2 entries could not be read and were left out" beside the list.
func WithSkipReport(ctx context.Context) (context.Context, *SkipReport) {
	r := &SkipReport{}
	return context.WithValue(ctx, skipReportKey{}, r), r
}

// noteSkipped records one answer's left-out entries: one debug line each (what and
// where, never a value), the client's counter and the context's report.
func (c *Client) noteSkipped(ctx context.Context, method, path string, s Skipped) {
	if s.Total() == 0 {
		return
	}
	c.skipped.Add(int64(s.Total()))
	for _, d := range s.Details {
		c.log.Debug("api list entry left out", "method", method, "path", path, "entry", d)
	}
	if r, ok := ctx.Value(skipReportKey{}).(*SkipReport); ok {
		r.mu.Lock()
		r.s.merge(s)
		r.mu.Unlock()
	}
}
