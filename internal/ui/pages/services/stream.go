package services

import (
	"context"
	"sort"
	"strconv"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
)

// Streaming the all-projects list (issue 18): the client hands each project's services
// over as they arrive; the list inserts them in order (project, then name) as they
// come, the cursor staying on its row, and the breadcrumb counts the projects answered
// ("37/200 projects") until the load's own result ends it with everything.

// streamingAPI is the client's fan-out that hands over each project's answer as it
// arrives (*api.Client has it); an API without it loads the list in one piece.
type streamingAPI = common.ServicesStreamer

// stream is one all-projects load on its way: the fetcher (a goroutine) queues the
// answers, the view takes them in batches through next.
type stream struct {
	id uint64

	mu    sync.Mutex
	queue []projectAnswer
	total int // projects asked about; 0 until known
	ended bool
	wake  chan struct{} // one token: something changed

	// View side only.
	draining bool
	answered int
	of       int // total, as the last message said
}

type projectAnswer struct {
	project  string
	services []models.Service
	err      error
}

// streamMsg carries the answers queued since the last one to the view.
type streamMsg struct {
	view    int64
	id      uint64
	answers []projectAnswer
	total   int
	ended   bool
}

// Target implements common.Addressed: the root hands it to the view wherever it is.
func (m streamMsg) Target() int64 { return m.view }

var streamIDs struct {
	sync.Mutex
	n uint64
}

func newStream() *stream {
	streamIDs.Lock()
	streamIDs.n++
	id := streamIDs.n
	streamIDs.Unlock()
	return &stream{id: id, wake: make(chan struct{}, 1)}
}

func (s *stream) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *stream) setTotal(n int) {
	s.mu.Lock()
	s.total = n
	s.mu.Unlock()
	s.signal()
}

func (s *stream) push(a projectAnswer) {
	s.mu.Lock()
	s.queue = append(s.queue, a)
	s.mu.Unlock()
	s.signal()
}

func (s *stream) end() {
	s.mu.Lock()
	s.ended = true
	s.mu.Unlock()
	s.signal()
}

// streamBatch is how long the view lets answers gather after the first of a batch:
// each batch rebuilds the table's rows, so taking every project's answer on its own
// would rebuild 10,000 rows 200 times.
const streamBatch = 100 * time.Millisecond

// next waits for something new and takes everything queued.
func (s *stream) next(view int64) tea.Cmd {
	return func() tea.Msg {
		<-s.wake
		s.mu.Lock()
		ended := s.ended
		s.mu.Unlock()
		if !ended {
			time.Sleep(streamBatch)
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		m := streamMsg{view: view, id: s.id, answers: s.queue, total: s.total, ended: s.ended}
		s.queue = nil
		return m
	}
}

// streamAll lists every project's services through the streaming fan-out, handing
// each answer to s as well; it answers what the one-piece fan-out would.
func streamAll(ctx context.Context, sa streamingAPI, projects []string, s *stream) ([]entry, []projectAnswer) {
	unique := make([]string, 0, len(projects))
	seen := map[string]bool{}
	for _, p := range projects {
		if !seen[p] {
			seen[p] = true
			unique = append(unique, p)
		}
	}
	s.setTotal(len(unique))
	var out []entry
	var fails []projectAnswer
	sa.StreamServicesAcrossProjects(ctx, unique, func(project string, svcs []models.Service, err error) {
		s.push(projectAnswer{project, svcs, err})
		if err != nil {
			fails = append(fails, projectAnswer{project: project, err: err})
			return
		}
		for _, sv := range svcs {
			out = append(out, listed(project, sv))
		}
	})
	sortEntries(out)
	sort.Slice(fails, func(i, j int) bool { return fails[i].project < fails[j].project })
	return out, fails
}

func sortEntries(es []entry) {
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].Project != es[j].Project {
			return es[i].Project < es[j].Project
		}
		return es[i].Service.ServiceName < es[j].Service.ServiceName
	})
}

// startStream makes the load being built a streaming one when the API can stream.
func (l *List) startStream() *stream {
	if _, ok := l.Ctx.API.(streamingAPI); !ok {
		l.stream = nil
		return nil
	}
	l.stream = newStream()
	return l.stream
}

// streamCmd starts taking a new stream's answers (once per stream).
func (l *List) streamCmd() tea.Cmd {
	s := l.stream
	if s == nil || s.draining {
		return nil
	}
	s.draining = true
	return s.next(l.ID())
}

// handleStream takes a stream's answers into the table; the load's own result ends the
// stream (it has everything) and goes on to the base list.
func (l *List) handleStream(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case streamMsg:
		s := l.stream
		if s == nil || msg.id != s.id {
			return nil, true // an earlier load's, or after the result
		}
		if len(msg.answers) > 0 {
			now := l.Ctx.Now()
			fresh := make(map[string][]models.Service, len(msg.answers))
			for _, a := range msg.answers {
				l.roll.note(a.project, a.err == nil, now)
				if a.err == nil {
					fresh[a.project] = a.services
				}
			}
			// One copy of the list per batch, not one per project answered.
			es := mergeProjects(l.Items(), fresh)
			s.answered += len(msg.answers)
			l.show(es)
			if len(es) == 0 {
				l.Table.Loading = true // nothing to show yet is not "no services"
			}
		}
		s.of = msg.total
		if msg.ended {
			return nil, true
		}
		return s.next(l.ID()), true
	case common.Result[[]entry]:
		if msg.Kind == base.KindList && l.Req.Current(msg.Addr) {
			l.stream = nil
			if l.all && (msg.Err == nil || isPartial(msg.Err)) {
				// Read whole: the rolling refresh's shares start from here.
				l.noteWhole(msg.Value, msg.Err == nil)
			}
		}
	}
	return nil, false
}

// progress is the breadcrumb's count while a stream is on its way.
func (l *List) progress() string {
	s := l.stream
	if s == nil || s.of == 0 {
		return ""
	}
	return " · " + strconv.Itoa(s.answered) + "/" + strconv.Itoa(s.of) + " projects"
}
