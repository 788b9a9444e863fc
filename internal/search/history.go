package search

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/svcui/svcui/internal/apilog"
)

// HistoryLimit is how many requests are kept per service.
const HistoryLimit = 500

// maxHistoryBody caps a stored body; larger bodies (bulk loads) are cut and flagged.
const maxHistoryBody = 256 << 10

// HistoryEntry is one request that was run. It never holds credentials: the
// connection's password is not part of a request, and secrets typed into one (a
// "password" member, a ?password= parameter) are stored masked.
type HistoryEntry struct {
	Time          time.Time `json:"time"`
	Method        string    `json:"method"`
	Path          string    `json:"path"`
	Body          string    `json:"body,omitempty"`
	BodyTruncated bool      `json:"body_truncated,omitempty"`
	Status        int       `json:"status"`
	TookMS        *int64    `json:"took_ms,omitempty"`
	RoundTripMS   int64     `json:"round_trip_ms"`
	// Runs counts identical runs in a row folded into this entry (0 and 1: once); Time
	// is the last of them.
	Runs int `json:"runs,omitempty"`
}

// NewHistoryEntry records a request and its answer (resp may be nil after a transport
// error), its secrets masked.
func NewHistoryEntry(req ParsedRequest, resp *Response, at time.Time) HistoryEntry {
	e := HistoryEntry{Time: at.UTC(), Method: req.Method, Path: apilog.MaskSecrets(req.Path), Body: apilog.MaskSecrets(req.Body)}
	if resp != nil {
		e.Status = resp.Status
		e.TookMS = resp.Took
		e.RoundTripMS = resp.RoundTrip.Milliseconds()
	}
	return e
}

// Times is how many runs the entry stands for.
func (e HistoryEntry) Times() int { return max(1, e.Runs) }

// sameRequest reports whether e and o are the same request (a run again folds).
func (e HistoryEntry) sameRequest(o HistoryEntry) bool {
	return e.Method == o.Method && e.Path == o.Path && e.Body == o.Body && e.BodyTruncated == o.BodyTruncated
}

// Excerpt is the body on one line, at most n characters: an SQL request's statement,
// else the body's text with its spaces collapsed.
func (e HistoryEntry) Excerpt(n int) string {
	text := e.Body
	var sql struct {
		Query string `json:"query"`
	}
	if strings.HasPrefix(e.Path, "/_plugins/_sql") && json.Unmarshal([]byte(e.Body), &sql) == nil && sql.Query != "" {
		text = sql.Query
	}
	text = strings.Join(strings.Fields(text), " ")
	if r := []rune(text); len(r) > n {
		text = string(r[:max(0, n-1)]) + "…"
	}
	return text
}

// Request turns the entry back into a runnable request.
func (e HistoryEntry) Request() ParsedRequest {
	return ParsedRequest{Method: e.Method, Path: e.Path, Body: e.Body}
}

// History is the request history of one service, kept as JSON lines in a file.
// Safe for concurrent use.
type History struct {
	mu      sync.Mutex
	path    string
	entries []HistoryEntry // oldest first
}

// historySubdir is the folder of history files inside the state directory (see
// stateFileName for their names).
const historySubdir = "history"

// OpenHistory loads the history of service (ServiceKey) from stateDir/history
// (stateDir is the program's state directory, e.g. config.StateDir()). Nothing is
// read from the environment here. A missing file is an empty history; unreadable
// lines are skipped.
func OpenHistory(stateDir, service string) (*History, error) {
	if strings.TrimSpace(stateDir) == "" {
		return nil, errors.New("history: no state directory was given, so requests cannot be remembered")
	}
	dir := filepath.Join(stateDir, historySubdir)
	name, err := stateFileName(dir, service, ".jsonl")
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	h := &History{path: filepath.Join(dir, name)}
	r, f, err := openTail(h.path, maxHistoryFile)
	if errors.Is(err, os.ErrNotExist) {
		return h, nil
	}
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 2*maxHistoryBody+4096)
	for sc.Scan() {
		var e HistoryEntry
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Method == "" {
			continue
		}
		// Kept by an earlier version: folded and masked as new entries are.
		e.Path, e.Body = apilog.MaskSecrets(e.Path), apilog.MaskSecrets(e.Body)
		if n := len(h.entries); n > 0 && h.entries[n-1].sameRequest(e) {
			e.Runs = h.entries[n-1].Times() + e.Times()
			h.entries[n-1] = e
			continue
		}
		h.entries = append(h.entries, e)
	}
	// A line longer than the buffer stops the scan; what was read is kept.
	if len(h.entries) > HistoryLimit {
		h.entries = h.entries[len(h.entries)-HistoryLimit:]
	}
	return h, nil
}

// Path is the history file.
func (h *History) Path() string { return h.path }

// Len is the number of entries.
func (h *History) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.entries)
}

// Add appends an entry and saves it. Beyond HistoryLimit the oldest are dropped and
// the file is rewritten.
func (h *History) Add(e HistoryEntry) error {
	if len(e.Body) > maxHistoryBody {
		e.Body = e.Body[:maxHistoryBody]
		e.BodyTruncated = true
	}
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(h.path), 0o700); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	// The same request run again folds into the last entry: a list of identical lines
	// says nothing.
	if n := len(h.entries); n > 0 && h.entries[n-1].sameRequest(e) {
		e.Runs = h.entries[n-1].Times() + 1
		h.entries[n-1] = e
		return h.rewrite()
	}
	h.entries = append(h.entries, e)
	if len(h.entries) > HistoryLimit {
		h.entries = h.entries[len(h.entries)-HistoryLimit:]
		return h.rewrite()
	}
	f, err := os.OpenFile(h.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	_, werr := f.Write(append(line, '\n'))
	cerr := f.Close()
	if werr != nil {
		return fmt.Errorf("history: %w", werr)
	}
	if cerr != nil {
		return fmt.Errorf("history: %w", cerr)
	}
	return nil
}

// rewrite replaces the file atomically with the current entries.
func (h *History) rewrite() error {
	err := writeFileAtomic(h.path, func(w io.Writer) error {
		for _, e := range h.entries {
			line, err := json.Marshal(e)
			if err != nil {
				continue
			}
			if _, err := w.Write(append(line, '\n')); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	return nil
}

// Entries returns all entries, newest first.
func (h *History) Entries() []HistoryEntry { return h.Search("") }

// Search returns the entries whose method, path or body contains sub (case-insensitive),
// newest first. An empty sub matches everything.
func (h *History) Search(sub string) []HistoryEntry {
	needle := strings.ToLower(sub)
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []HistoryEntry
	for i := len(h.entries) - 1; i >= 0; i-- {
		e := h.entries[i]
		if needle == "" || strings.Contains(strings.ToLower(e.Method+" "+e.Path+"\n"+e.Body), needle) {
			out = append(out, e)
		}
	}
	return out
}
