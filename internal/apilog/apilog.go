// Package apilog keeps this session's HTTP requests, to the management API and to
// search services, for the console's :log: method, address, status, latency, size,
// retries, headers and bodies (bounded), with every credential masked before it is
// stored. It hooks in as an http.RoundTripper that both clients' transports are
// wrapped in. Nothing is written anywhere unless a sink is set (--debug).
package apilog

import (
	"context"
	"encoding/base64"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Capacity is how many requests the session log keeps (the oldest go first).
const Capacity = 1000

// MaxBody is how much of each request and answer body an entry keeps.
const MaxBody = 8 << 10

// Mask replaces every secret in stored text.
const Mask = "***"

// Entry is one HTTP request and what came of it. Everything in it has been masked.
type Entry struct {
	Seq    uint64
	Source string // "api" or "search"
	Start  time.Time
	Method string
	URL    string // scheme://host/path?query
	Path   string // path?query
	// Auth is the Authorization scheme sent ("svcv1", "Basic", another word, or "");
	// User the basic-auth user name (search), which is not a secret.
	Auth, User string
	Attempt    int // 0 for the first attempt, n for the nth retry
	Status     int // 0 until the answer's headers came, and when none came
	Err        string
	Latency    time.Duration // until the answer's headers
	Size       int64         // bytes of the answer read so far
	Done       bool          // the answer was read to its end (or abandoned)

	ReqHeader, RespHeader http.Header
	ReqBody, RespBody     string
	// ReqCut and RespCut say a body was longer than MaxBody.
	ReqCut, RespCut bool
	// ReqMasked says values of the request's address or body were masked as ***: a
	// replay of what the entry holds would send *** (set a password to ***).
	ReqMasked bool

	// Requests is how many requests a fan-out's entry stands for (0 for one request):
	// its Path is the fan-out's label, Status the highest status among them, Failed
	// how many failed, Latency from the first sent to the last answered, Size their
	// sum. Log.Requests lists them.
	Requests, Failed int

	// children are a fan-out's requests (at most MaxGroup are kept).
	children []*Entry

	// OwnCA says the connection trusted only a CA of the service's own (its copied curl
	// needs --cacert); Insecure that it verified nothing.
	OwnCA, Insecure bool
}

// MaxGroup is how many of a fan-out's requests its entry keeps; the rest are counted.
const MaxGroup = 1000

// Log is a bounded ring of entries, safe for concurrent use.
type Log struct {
	mu      sync.Mutex
	ring    []*Entry
	next    int
	seq     uint64
	cap     int
	secrets map[string]bool
	sink    func(Entry)
}

// New returns a log keeping the last n entries.
func New(n int) *Log {
	return &Log{cap: max(1, n), secrets: map[string]bool{}}
}

// Session is the console's log, shared by every client of the process.
var Session = New(Capacity)

// SetSink hands every finished entry to fn as well (the debug log file); nil stops it.
func (l *Log) SetSink(fn func(Entry)) {
	l.mu.Lock()
	l.sink = fn
	l.mu.Unlock()
}

// Entries returns copies of the entries, newest first; a fan-out is one entry.
func (l *Log) Entries() []Entry {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Entry, 0, len(l.ring))
	for _, e := range l.ring {
		out = append(out, copyEntry(e))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq > out[j].Seq })
	return out
}

// Requests returns copies of the requests of the fan-out entry seq, newest first.
func (l *Log) Requests(seq uint64) ([]Entry, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, e := range l.ring {
		if e.Seq == seq && e.Requests > 0 {
			out := make([]Entry, 0, len(e.children))
			for _, c := range e.children {
				out = append(out, copyEntry(c))
			}
			sort.Slice(out, func(i, j int) bool { return out[i].Seq > out[j].Seq })
			return out, true
		}
	}
	return nil, false
}

// Get returns a copy of the entry seq (one of a fan-out's requests too), if it is
// still kept.
func (l *Log) Get(seq uint64) (Entry, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, e := range l.ring {
		if e.Seq == seq {
			return copyEntry(e), true
		}
		for _, c := range e.children {
			if c.Seq == seq {
				return copyEntry(c), true
			}
		}
	}
	return Entry{}, false
}

// copyEntry copies e; a fan-out's entry is summed up from its requests. The caller
// holds mu.
func copyEntry(e *Entry) Entry {
	c := *e
	c.children = nil
	c.ReqHeader, c.RespHeader = e.ReqHeader.Clone(), e.RespHeader.Clone()
	if len(e.children) > 0 {
		c.Status, c.Failed, c.Size, c.Done, c.Attempt = 0, 0, 0, true, 0
		end := e.Start
		for _, r := range e.children {
			c.Status = max(c.Status, r.Status)
			c.Size += r.Size
			c.Done = c.Done && r.Done
			if r.Attempt > 0 {
				c.Attempt++
			}
			if r.Err != "" || r.Status >= 400 {
				c.Failed++
			}
			if t := r.Start.Add(r.Latency); t.After(end) {
				end = t
			}
		}
		c.Latency = end.Sub(e.Start)
		if c.Failed > 0 {
			c.Err = strconv.Itoa(c.Failed) + " of " + strconv.Itoa(c.Requests) + " failed"
		}
	}
	return c
}

type groupKey struct{}

// group is a fan-out: its requests are logged under one entry.
type group struct {
	label string
	entry *Entry
}

// WithGroup makes ctx's requests one entry of the log, labelled label (a fan-out's
// 200 requests would otherwise push 200 entries out of the ring).
func WithGroup(ctx context.Context, label string) context.Context {
	return context.WithValue(ctx, groupKey{}, &group{label: label})
}

// addTo stores e as one of g's requests: g's entry is made with its first request and
// made again if the ring has dropped it. A fan-out's successful answers keep no body
// (the caller drops it), so a large fan-out costs the log little.
func (l *Log) addTo(g *group, e *Entry) {
	l.mu.Lock()
	l.seq++
	e.Seq = l.seq
	if g.entry == nil || !slices.Contains(l.ring, g.entry) {
		g.entry = &Entry{Source: e.Source, Start: e.Start, Method: e.Method, URL: e.URL, Path: g.label, Auth: e.Auth, User: e.User}
		l.seq++
		g.entry.Seq = l.seq
		l.addLocked(g.entry)
	}
	g.entry.Requests++
	if len(g.entry.children) < MaxGroup {
		g.entry.children = append(g.entry.children, e)
	}
	l.mu.Unlock()
}

// add stores e (its Seq assigned).
func (l *Log) add(e *Entry) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seq++
	e.Seq = l.seq
	l.addLocked(e)
}

// addLocked puts e in the ring. The caller holds mu.
func (l *Log) addLocked(e *Entry) {
	if len(l.ring) < l.cap {
		l.ring = append(l.ring, e)
		return
	}
	l.ring[l.next] = e
	l.next = (l.next + 1) % l.cap
}

// update changes a stored entry under the lock; done hands it to the sink.
func (l *Log) update(e *Entry, fn func(*Entry), done bool) {
	l.mu.Lock()
	fn(e)
	sink := l.sink
	var c Entry
	if done && sink != nil {
		c = copyEntry(e)
	}
	l.mu.Unlock()
	if done && sink != nil {
		sink(c)
	}
}

// remember adds secrets seen in a request, so they are masked wherever they appear.
func (l *Log) remember(secrets ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, s := range secrets {
		if len(s) >= 4 {
			l.secrets[s] = true
		}
	}
}

func (l *Log) known() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]string, 0, len(l.secrets))
	for s := range l.secrets {
		out = append(out, s)
	}
	// Longest first, so a secret containing another is masked whole.
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// secretField matches a JSON member whose name says it holds a secret, up to the
// start of its string value; the value follows.
var secretField = regexp.MustCompile(`(?i)"[a-z0-9_.-]*(?:password|passwd|secret|token|access_key|private_key|api_key|apikey|credential|authorization)[a-z0-9_.-]*"\s*:\s*"`)

// urlUserinfo matches the password of user:password@ in a URL (service_uri), and
// secretParam a secret-looking query parameter's value.
var (
	urlUserinfo = regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.-]*://[^/@\s:"']*):[^/@\s"']*@`)
	secretParam = regexp.MustCompile(`(?i)([?&][a-z_]*(?:password|passwd|secret|token|key)=)[^&\s"'#]*`)
)

// maskText masks everything that may be a secret in text: the known secrets (and
// their base64 forms), string values of members named like secrets, and URL passwords.
func maskText(text string, known []string) string {
	if text == "" {
		return text
	}
	for _, s := range known {
		text = strings.ReplaceAll(text, s, Mask)
		text = strings.ReplaceAll(text, base64.StdEncoding.EncodeToString([]byte(s)), Mask)
	}
	text = maskSecretFields(text)
	// Both patterns begin with a character class, which the regexp engine tries at every
	// byte; the literals each needs are looked for first, so a long body without them
	// (a history of search requests) is not walked twice more.
	if strings.Contains(text, "=") && strings.ContainsAny(text, "?&") {
		text = secretParam.ReplaceAllString(text, "${1}"+Mask)
	}
	if strings.Contains(text, "://") {
		text = urlUserinfo.ReplaceAllString(text, "${1}:"+Mask+"@")
	}
	return text
}

// MaskSecrets masks what may be a secret in text that is about to be kept (a request
// in the Search history or the saved editor text): string values of members named like
// secrets ("password": "…"), secret-looking query parameters (?password=…) and URL
// passwords, each as Mask — the same rules the log applies to what it shows.
func MaskSecrets(text string) string { return maskText(text, nil) }

// maskSecretFields replaces the string value after each secretField match.
func maskSecretFields(text string) string {
	locs := secretField.FindAllStringIndex(text, -1)
	if len(locs) == 0 {
		return text
	}
	var b strings.Builder
	last := 0
	for _, loc := range locs {
		if loc[0] < last {
			continue
		}
		start := loc[1] // just after the value's opening quote
		end := start
		for end < len(text) && text[end] != '"' {
			if text[end] == '\\' {
				end++
			}
			end++
		}
		end = min(end, len(text))
		b.WriteString(text[last:start])
		b.WriteString(Mask)
		last = end
	}
	b.WriteString(text[last:])
	return b.String()
}

// maskHeader copies h with credentials masked: Authorization keeps only its scheme
// word, cookies go, every value loses the known secrets.
func maskHeader(h http.Header, known []string) http.Header {
	out := make(http.Header, len(h))
	for k, vs := range h {
		ck := http.CanonicalHeaderKey(k)
		for _, v := range vs {
			switch ck {
			case "Authorization", "Proxy-Authorization":
				scheme, _, _ := strings.Cut(v, " ")
				v = scheme + " " + Mask
			case "Cookie", "Set-Cookie":
				v = Mask
			default:
				v = maskText(v, known)
			}
			out[ck] = append(out[ck], v)
		}
	}
	return out
}

type attemptKey struct{}

// WithAttempt tells the log which attempt of a call a request is (0 first, n the nth
// retry); the API client sets it.
func WithAttempt(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, attemptKey{}, n)
}
