package apilog

import (
	"bytes"
	"encoding/base64"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Wrap returns next wrapped so that every request through it is logged under source
// ("api", "search").
func (l *Log) Wrap(source string, next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	t := &transport{log: l, source: source, next: next}
	if h, ok := next.(*http.Transport); ok && h.TLSClientConfig != nil {
		t.ownCA, t.insecure = h.TLSClientConfig.RootCAs != nil, h.TLSClientConfig.InsecureSkipVerify
	}
	return t
}

type transport struct {
	log             *Log
	source          string
	next            http.RoundTripper
	ownCA, insecure bool
}

// CloseIdleConnections passes on to the wrapped transport.
func (t *transport) CloseIdleConnections() {
	if c, ok := t.next.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	e := &Entry{Source: t.source, Start: time.Now(), Method: req.Method, OwnCA: t.ownCA, Insecure: t.insecure}
	if n, ok := req.Context().Value(attemptKey{}).(int); ok {
		e.Attempt = n
	}
	if auth := req.Header.Get("Authorization"); auth != "" {
		scheme, cred, _ := strings.Cut(auth, " ")
		e.Auth = scheme
		secrets := []string{cred}
		if strings.EqualFold(scheme, "basic") {
			if raw, err := base64.StdEncoding.DecodeString(cred); err == nil {
				user, pass, _ := strings.Cut(string(raw), ":")
				e.User = user
				secrets = append(secrets, pass, string(raw))
			}
		}
		t.log.remember(secrets...)
	}
	if u := req.URL.User; u != nil {
		if p, ok := u.Password(); ok {
			t.log.remember(p)
		}
	}
	known := t.log.known()

	var body []byte
	cut := false
	if req.Body != nil && req.Body != http.NoBody {
		if req.GetBody != nil {
			if rc, err := req.GetBody(); err == nil {
				body, cut = readCapped(rc)
				rc.Close()
			}
		} else {
			// A body that cannot be read twice: read it all, send a copy.
			all, err := io.ReadAll(req.Body)
			req.Body.Close()
			if err != nil {
				return nil, err
			}
			req = req.Clone(req.Context())
			req.Body = io.NopCloser(bytes.NewReader(all))
			body, cut = all[:min(len(all), MaxBody)], len(all) > MaxBody
		}
	}
	u := *req.URL
	u.User = nil
	e.URL = maskText(u.String(), known)
	e.Path = maskText(u.RequestURI(), known)
	e.ReqHeader = maskHeader(req.Header, known)
	e.ReqBody, e.ReqCut = maskText(string(body), known), cut
	e.ReqMasked = e.URL != u.String() || e.ReqBody != string(body)
	g, grouped := req.Context().Value(groupKey{}).(*group)
	if grouped {
		t.log.addTo(g, e)
	} else {
		t.log.add(e)
	}

	res, err := t.next.RoundTrip(req)
	latency := time.Since(e.Start)
	if err != nil {
		t.log.update(e, func(e *Entry) {
			e.Latency, e.Err, e.Done = latency, maskText(err.Error(), known), true
		}, true)
		return nil, err
	}
	t.log.update(e, func(e *Entry) {
		e.Latency, e.Status, e.RespHeader = latency, res.StatusCode, maskHeader(res.Header, known)
	}, false)
	// A fan-out's successful answers are on screen already: their bodies are not kept.
	keep := MaxBody
	if grouped && res.StatusCode < 300 {
		keep = 0
	}
	res.Body = &recorder{rc: res.Body, log: t.log, e: e, known: known, keep: keep}
	return res, nil
}

func readCapped(r io.Reader) ([]byte, bool) {
	b, _ := io.ReadAll(io.LimitReader(r, MaxBody+1))
	if len(b) > MaxBody {
		return b[:MaxBody], true
	}
	return b, false
}

// recorder passes an answer's body through, keeping its first MaxBody bytes and
// counting the rest; at its end (or close) the entry is finished.
type recorder struct {
	rc    io.ReadCloser
	log   *Log
	e     *Entry
	known []string
	keep  int // how much of the body to keep

	mu   sync.Mutex
	buf  []byte
	n    int64
	done bool
}

func (r *recorder) Read(p []byte) (int, error) {
	n, err := r.rc.Read(p)
	r.mu.Lock()
	r.n += int64(n)
	if room := r.keep - len(r.buf); room > 0 {
		r.buf = append(r.buf, p[:min(n, room)]...)
	}
	r.mu.Unlock()
	if err != nil {
		r.finish(err)
	} else {
		r.log.update(r.e, func(e *Entry) { e.Size = r.n }, false)
	}
	return n, err
}

func (r *recorder) Close() error {
	err := r.rc.Close()
	r.finish(nil)
	return err
}

func (r *recorder) finish(err error) {
	r.mu.Lock()
	if r.done {
		r.mu.Unlock()
		return
	}
	r.done = true
	body, n, cut := string(r.buf), r.n, r.keep > 0 && r.n > int64(len(r.buf))
	r.mu.Unlock()
	msg := ""
	if err != nil && err != io.EOF {
		msg = maskText(err.Error(), r.known)
	}
	body = maskText(body, r.known)
	r.log.update(r.e, func(e *Entry) {
		e.Size, e.RespBody, e.RespCut, e.Done = n, body, cut, true
		if msg != "" && e.Err == "" {
			e.Err = msg
		}
	}, true)
}
