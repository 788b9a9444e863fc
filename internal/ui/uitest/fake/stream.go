package fake

import (
	"context"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
)

// Stream is the fake with the client's streaming fan-out (common.ServicesStreamer):
// each project answers when the test says so with Answer, in the order it chooses.
// Without a Stream the fake does not stream, so the fan-out is one answer.
type Stream struct {
	*API
	gate chan string
}

var _ interface {
	common.Client
	common.ServicesStreamer
} = (*Stream)(nil)

// Streaming is f with a streaming fan-out; up to 64 answers may be told ahead.
func (f *API) Streaming() *Stream { return &Stream{API: f, gate: make(chan string, 64)} }

// Answer lets the projects' answers go, in order.
func (s *Stream) Answer(projects ...string) {
	for _, p := range projects {
		s.gate <- p
	}
}

// StreamServicesAcrossProjects hands each project's services to each when Answer names
// it; a cancelled context ends the projects not answered yet with its error.
func (s *Stream) StreamServicesAcrossProjects(ctx context.Context, projects []string, each func(string, []models.Service, error)) {
	s.enter(StreamServicesAcrossProjects, projects...)
	left := map[string]bool{}
	for _, p := range projects {
		left[p] = true
	}
	for len(left) > 0 {
		select {
		case p := <-s.gate:
			if !left[p] {
				continue
			}
			delete(left, p)
			svcs, err := s.answerOf(p)
			each(p, svcs, err)
		case <-ctx.Done():
			for p := range left {
				each(p, nil, ctx.Err())
			}
			return
		}
	}
}
