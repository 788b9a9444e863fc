package search

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// DefaultMaxResponseBytes caps how much of a response body is read.
const DefaultMaxResponseBytes = 64 << 20

// DefaultTimeout applies to a request whose context carries no deadline.
const DefaultTimeout = 60 * time.Second

// ErrResponseTooLarge is returned when a body exceeds the client's cap.
var ErrResponseTooLarge = errors.New("response body too large")

// Request is one HTTP request to the service. Path includes the query string.
type Request struct {
	Method      string
	Path        Path
	Body        []byte
	ContentType string
}

// Response is a complete answer from the service.
type Response struct {
	Status    int
	Header    http.Header
	Body      []byte
	RoundTrip time.Duration
	// Took is the server's own "took" (milliseconds) when the body is a JSON object carrying it.
	Took *int64
	// User is the service user the request was sent as.
	User string
	// Reauth is set when a 401 made the client ask for the credentials again (WithReauth).
	Reauth *ReauthEvent
}

// OK reports a 2xx status.
func (r *Response) OK() bool { return r.Status >= 200 && r.Status < 300 }

// Err is the engine error for a non-2xx response, nil otherwise.
func (r *Response) Err() error {
	if r.OK() {
		return nil
	}
	e := ShapeError(r.Status, r.Body)
	e.ContentType = r.Header.Get("Content-Type")
	e.User = r.User
	e.Reauth = r.Reauth
	return e
}

// Option adjusts a Client.
type Option func(*clientConfig)

type clientConfig struct {
	maxBody        int64
	defaultTimeout time.Duration
	userAgent      string
	transport      *http.Transport
	reauth         ReauthFunc
}

// WithUserAgent sets the User-Agent header.
func WithUserAgent(ua string) Option { return func(c *clientConfig) { c.userAgent = ua } }

// transportWrap wraps the transport of every client built after it is set.
var transportWrap atomic.Pointer[func(http.RoundTripper) http.RoundTripper]

// WrapTransports makes every client built from now on send its requests through
// wrap(transport): the console's API log (internal/apilog) sets it once at start.
func WrapTransports(wrap func(http.RoundTripper) http.RoundTripper) {
	transportWrap.Store(&wrap)
}

// Client talks to one opensearch service over TLS with basic auth. Safe for concurrent use.
type Client struct {
	target Target // its Username and Password are the initial credentials; see creds
	base   *url.URL
	http   *http.Client
	cfg    clientConfig
	creds  credentials
}

// NewClient builds a client for t. With t.CACertPEM the CA is the only trusted root;
// without it the system roots are used. Verification is skipped only when
// t.InsecureSkipVerify is set.
func NewClient(t Target, opts ...Option) (*Client, error) {
	if strings.TrimSpace(t.Host) == "" {
		return nil, errors.New("search client: no host")
	}
	if t.Port < 0 || t.Port > 65535 {
		return nil, fmt.Errorf("search client: port %d out of range", t.Port)
	}
	cfg := clientConfig{maxBody: DefaultMaxResponseBytes, defaultTimeout: DefaultTimeout, userAgent: "svcui"}
	for _, o := range opts {
		o(&cfg)
	}
	tlsCfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: t.Host}
	if strings.TrimSpace(t.CACertPEM) != "" {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM([]byte(t.CACertPEM)) {
			return nil, errors.New("search client: CA certificate: no PEM certificate found")
		}
		tlsCfg.RootCAs = pool
	}
	if t.InsecureSkipVerify {
		tlsCfg.InsecureSkipVerify = true
	}
	var tr *http.Transport
	if cfg.transport != nil {
		tr = cfg.transport.Clone()
	} else {
		tr = http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConnsPerHost = 8
	}
	tr.TLSClientConfig = tlsCfg
	// HTTP/1.1, which the release binary is built to speak only (README, "Binary size"),
	// and what OpenSearch's own clients speak: every build talks as the release does.
	tr.Protocols = new(http.Protocols)
	tr.Protocols.SetHTTP1(true)
	base, err := url.Parse(t.BaseURL())
	if err != nil {
		return nil, errors.New("search client: bad host")
	}
	c := &Client{target: t, base: base, cfg: cfg}
	c.creds.set(t.Username, t.Password)
	var rt http.RoundTripper = tr
	if w := transportWrap.Load(); w != nil && *w != nil {
		rt = (*w)(rt)
	}
	c.http = &http.Client{Transport: rt, CheckRedirect: c.checkRedirect}
	return c, nil
}

// checkRedirect follows redirects only within the service's own scheme, host and port,
// so credentials never travel elsewhere.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 5 {
		return &redirectError{loop: true}
	}
	if req.URL.Scheme != c.base.Scheme || !strings.EqualFold(req.URL.Host, c.base.Host) {
		return &redirectError{to: req.URL.Host}
	}
	// The credentials of the original request, which may be newer than the target's.
	if a := via[0].Header.Get("Authorization"); a != "" {
		req.Header.Set("Authorization", a)
	}
	return nil
}

// Insecure reports that certificate verification is off, so the UI can say so.
func (c *Client) Insecure() bool { return c.target.InsecureSkipVerify }

// Target returns the target with the password removed; Username is the user requests
// are sent as now (it changes when a re-authentication gives another user).
func (c *Client) Target() Target {
	t := c.target
	t.Username, _, _ = c.creds.get()
	t.Password = ""
	return t
}

// Do sends r and reads the whole response (up to the size cap). A non-2xx status is
// not an error here: callers inspect Status, or call Response.Err. A request that got
// no answer fails with a *RequestError (see Describe). With WithReauth, a 401 makes
// the client ask for the credentials once and, when they changed, send r once more
// with them; the response then carries Reauth.
func (c *Client) Do(ctx context.Context, r Request) (*Response, error) {
	method := strings.ToUpper(strings.TrimSpace(r.Method))
	if method == "" {
		method = http.MethodGet
	}
	u, err := c.resolve(r.Path.String())
	if err != nil {
		return nil, err
	}
	if _, has := ctx.Deadline(); !has && c.cfg.defaultTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.cfg.defaultTimeout)
		defer cancel()
	}
	user, password, gen := c.creds.get()
	resp, err := c.send(ctx, method, u, r, user, password)
	if err != nil || resp.Status != http.StatusUnauthorized || c.cfg.reauth == nil {
		return resp, err
	}
	ev, newUser, newPassword, err := c.reauthenticate(ctx, user, password, gen)
	if err != nil {
		return nil, err
	}
	if ev.Unchanged {
		resp.Reauth = ev
		return resp, nil
	}
	// Exactly one retry: a second 401 is the answer, never another round.
	again, err := c.send(ctx, method, u, r, newUser, newPassword)
	if err != nil {
		return nil, err
	}
	again.Reauth = ev
	return again, nil
}

// send makes one HTTP exchange as user.
func (c *Client) send(ctx context.Context, method string, u *url.URL, r Request, user, password string) (*Response, error) {
	fail := func(err error) error {
		return &RequestError{Method: method, Path: u.Path, Host: u.Host, PinnedCA: c.pinnedCA(), Err: redact(err, password)}
	}
	var body io.Reader
	if len(r.Body) > 0 {
		body = bytes.NewReader(r.Body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), body)
	if err != nil {
		return nil, fail(err)
	}
	if user != "" || password != "" {
		req.SetBasicAuth(user, password)
	}
	if len(r.Body) > 0 {
		ct := r.ContentType
		if ct == "" {
			ct = "application/json"
		}
		req.Header.Set("Content-Type", ct)
	}
	req.Header.Set("Accept", "application/json, text/plain;q=0.9, */*;q=0.5")
	if c.cfg.userAgent != "" {
		req.Header.Set("User-Agent", c.cfg.userAgent)
	}
	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fail(err)
	}
	defer resp.Body.Close()
	data, err := readCapped(resp.Body, c.cfg.maxBody)
	rt := time.Since(start)
	if err != nil {
		return nil, fail(err)
	}
	out := &Response{Status: resp.StatusCode, Header: resp.Header, Body: data, RoundTrip: rt, User: user}
	out.Took = tookOf(data)
	return out, nil
}

// pinnedCA reports that the service's own CA is the only trusted root.
func (c *Client) pinnedCA() bool { return strings.TrimSpace(c.target.CACertPEM) != "" }

// resolve joins a console path ("/i/_search?q=x" or "i/_search") onto the base URL.
func (c *Client) resolve(path string) (*url.URL, error) {
	p := strings.TrimSpace(path)
	if p == "" {
		p = "/"
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	// Paths such as "//evil.example/x" would parse as a host: keep them relative.
	ref, err := url.Parse("https://placeholder" + p)
	if err != nil || ref.Host != "placeholder" {
		return nil, fmt.Errorf("invalid path %q", truncate(p, 80))
	}
	u := *c.base
	u.Path = ref.Path
	u.RawPath = ref.RawPath
	u.RawQuery = ref.RawQuery
	return &u, nil
}

func readCapped(r io.Reader, max int64) ([]byte, error) {
	if max <= 0 {
		return io.ReadAll(r)
	}
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, fmt.Errorf("reading response: %w", err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%w: over the %s limit", ErrResponseTooLarge, byteSize(max))
	}
	return data, nil
}

// tookOf reads a top-level "took" from a JSON object body.
func tookOf(body []byte) *int64 {
	b := bytes.TrimSpace(body)
	if len(b) == 0 || b[0] != '{' {
		return nil
	}
	var v struct {
		Took *json.Number `json:"took"`
	}
	if json.Unmarshal(b, &v) != nil || v.Took == nil {
		return nil
	}
	n, err := v.Took.Int64()
	if err != nil {
		f, ferr := v.Took.Float64()
		if ferr != nil {
			return nil
		}
		n = int64(f)
	}
	return &n
}

// redact removes the password from an error message, should any layer ever echo it.
func redact(err error, password string) error {
	if err == nil || password == "" {
		return err
	}
	msg := err.Error()
	if !strings.Contains(msg, password) {
		return err
	}
	return &redactedError{msg: strings.ReplaceAll(msg, password, "****"), cause: errors.Unwrap(err)}
}

type redactedError struct {
	msg   string
	cause error
}

func (e *redactedError) Error() string { return e.msg }

// Is keeps errors.Is working (context.DeadlineExceeded and the like) without exposing
// the unredacted chain through Unwrap.
func (e *redactedError) Is(target error) bool { return errors.Is(e.cause, target) }

// truncate shortens s to at most n bytes on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// byteSize renders n bytes for messages ("64 MiB", "1.5 KiB", "12 bytes").
func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', -1, 64) + " MiB"
	case n >= 1<<10:
		return strconv.FormatFloat(float64(n)/(1<<10), 'f', -1, 64) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
