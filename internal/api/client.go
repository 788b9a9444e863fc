package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/svcui/svcui/internal/apilog"
)

// Defaults of Options.
const (
	DefaultUserAgent     = "svcui/dev"
	DefaultMaxConcurrent = 8
	DefaultMaxRetries    = 4
	DefaultTimeout       = 30 * time.Second

	// MaxResponseBytes caps a management API answer; nothing in the spec comes close.
	MaxResponseBytes = 32 << 20
)

// Options configure a Client. Only BaseURL is required.
type Options struct {
	// BaseURL is e.g. https://api.example or http://127.0.0.1:8080, with or without a
	// trailing slash; the client adds "/v1".
	BaseURL string
	// Token is the personal API token, sent as "Authorization: svcv1 <token>".
	Token string
	// UserAgent defaults to "svcui/dev"; main passes "svcui/<version>".
	UserAgent string
	// HTTPClient is optional; the client works on a copy with its own redirect rules.
	HTTPClient *http.Client
	// MaxConcurrent bounds the HTTP requests in flight across all calls (default 8).
	MaxConcurrent int
	// MaxRetries is the number of retries after the first attempt (default 4; a
	// negative value disables retries).
	MaxRetries int
	// Timeout bounds one attempt when the caller's context has no deadline (default 30s).
	Timeout time.Duration
	// Logger receives one debug line per attempt; it never sees tokens, passwords or bodies.
	Logger *slog.Logger
	// Sleep waits between attempts; tests replace it to capture the waits.
	Sleep func(ctx context.Context, d time.Duration) error
	// WrapTransport, when set, wraps the transport every request goes through (the
	// session's API log); each request's context says which attempt it is
	// (apilog.WithAttempt).
	WrapTransport func(http.RoundTripper) http.RoundTripper
}

// Client is the management API client. It is safe for concurrent use.
type Client struct {
	root      string // scheme://host[/prefix], no trailing slash, without /v1
	host      string // host[:port] of root, the only host that ever sees the token
	baseURL   string
	token     string
	authValue string
	userAgent string
	http      *http.Client
	download  *http.Client
	// downloadCap is MaxDownloadBytes and responseCap MaxResponseBytes; fields so
	// tests can lower them.
	downloadCap int64
	responseCap int64
	limiter     *limiter
	fan         *fanWindow // fan-outs' requests (fanout.go)
	maxRetries  int
	timeout     time.Duration
	log         *slog.Logger
	sleep       func(ctx context.Context, d time.Duration) error
	flights     collapser
	lengths     answerLengths // of the last answers, for lists of unsaid length
	rate        rateLimitState
	budget      *Budget // who may spend the rate budget (budget.go)

	requests  atomic.Int64
	retries   atomic.Int64
	collapsed atomic.Int64
	skipped   atomic.Int64
}

// Stats are counters of the client's work since New.
type Stats struct {
	Requests  int64 // HTTP attempts sent
	Retries   int64 // attempts that were repeats of an earlier one
	Collapsed int64 // calls answered by another identical call's request
	Skipped   int64 // list entries left out: without a name, or unreadable
}

// New validates the options and builds a client. It refuses to send a token over plain
// http unless the host is a loopback address.
func New(opts Options) (*Client, error) {
	root, u, err := parseBaseURL(opts.BaseURL)
	if err != nil {
		return nil, err
	}
	if opts.Token != "" && u.Scheme == "http" && !isLoopbackHost(u.Hostname()) {
		return nil, fmt.Errorf("refusing to send the API token over plain http to %s: use https (plain http is allowed only for loopback addresses such as 127.0.0.1 or localhost)", u.Host)
	}
	if strings.ContainsAny(opts.Token, "\r\n") {
		return nil, errors.New("the API token contains a line break; paste it again")
	}
	c := &Client{
		root:       root,
		host:       u.Host,
		baseURL:    root,
		token:      opts.Token,
		userAgent:  opts.UserAgent,
		maxRetries: opts.MaxRetries,
		timeout:    opts.Timeout,
		log:        opts.Logger,
		sleep:      opts.Sleep,

		downloadCap: MaxDownloadBytes,
		responseCap: MaxResponseBytes,
	}
	if opts.Token != "" {
		c.authValue = "svcv1 " + opts.Token
	}
	if c.userAgent == "" {
		c.userAgent = DefaultUserAgent
	}
	if c.maxRetries == 0 {
		c.maxRetries = DefaultMaxRetries
	} else if c.maxRetries < 0 {
		c.maxRetries = 0
	}
	if c.timeout <= 0 {
		c.timeout = DefaultTimeout
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	if c.sleep == nil {
		c.sleep = sleepContext
	}
	maxConc := opts.MaxConcurrent
	if maxConc <= 0 {
		maxConc = DefaultMaxConcurrent
	}
	c.limiter = newLimiter(maxConc)
	c.budget = newBudget(&c.rate)
	c.fan = newFanWindow(maxConc, c.rateBudget, func() int { return len(c.limiter.slots) })
	c.http, c.download = buildHTTPClients(opts.HTTPClient, maxConc, opts.WrapTransport)
	return c, nil
}

// BaseURL is the API root the client talks to (without /v1).
func (c *Client) BaseURL() string { return c.baseURL }

// Stats returns the client's counters.
func (c *Client) Stats() Stats {
	return Stats{Requests: c.requests.Load(), Retries: c.retries.Load(), Collapsed: c.collapsed.Load(), Skipped: c.skipped.Load()}
}

// parseBaseURL normalises the base URL: scheme http or https, a host, no query, and no
// trailing "/" or "/v1" (the client adds "/v1" itself).
func parseBaseURL(raw string) (string, *url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", nil, errors.New("no API address given")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", nil, fmt.Errorf("the API address %q is not a URL", raw)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", nil, fmt.Errorf("the API address %q must start with https:// (or http:// for a local sandbox)", raw)
	}
	if u.Host == "" || u.Hostname() == "" {
		return "", nil, fmt.Errorf("the API address %q has no host", raw)
	}
	if u.User != nil {
		return "", nil, errors.New("the API address must not contain a user or password; give the token separately")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "", nil, fmt.Errorf("the API address %q must not have a query or fragment", raw)
	}
	path := strings.TrimRight(u.EscapedPath(), "/")
	path = strings.TrimSuffix(path, "/v1")
	return u.Scheme + "://" + u.Host + path, u, nil
}

// rawResponse is one HTTP answer: an error answer's body, or a success answer's decoded
// value. It is shared between collapsed callers and therefore never modified after it
// is built; callers that share it copy the value before handing it on.
type rawResponse struct {
	status int
	header http.Header
	body   []byte // error answers, and success answers read without a decoder
	value  any    // what the decoder made of a success answer
	// decodeErr is why a success answer could not be decoded.
	decodeErr error
}

// call performs one API call: it encodes in (when not nil), runs the request with
// retries (collapsing identical GETs) and returns the successful answer, decoded by dec
// as it arrives. shared reports that the answer also went to other callers.
func (c *Client) call(ctx context.Context, method, path string, query url.Values, in any, dec answerDecoder) (_ *rawResponse, shared bool, _ error) {
	if reason, shown, refused := pathRefusal(path); refused {
		return nil, false, &Error{Method: method, Path: shown, reason: reason}
	}
	auth := path != pathClouds
	rawQuery := ""
	if len(query) > 0 {
		rawQuery = query.Encode()
	}
	var body []byte
	if in != nil {
		b, err := encodeBody(in)
		if err != nil {
			return nil, false, &Error{Method: method, Path: path, reason: "could not encode the request: " + err.Error(), Err: err}
		}
		body = b
	}
	if method != http.MethodGet {
		resp, err := c.execute(ctx, method, path, rawQuery, body, auth, dec)
		return resp, false, err
	}
	key := dec.kind + " " + path + "?" + rawQuery
	if !auth {
		key = "noauth " + key
	}
	start := time.Now()
	if dl, ok := ctx.Deadline(); ok {
		// The shared request runs without the caller's deadline; it still must not
		// sit through a Retry-After that outlasts it.
		ctx = context.WithValue(ctx, deadlineHintKey{}, dl)
	}
	resp, shared, err := c.flights.do(ctx, key, &c.collapsed, func(sctx context.Context) (*rawResponse, error) {
		return c.execute(sctx, method, path, rawQuery, nil, auth, dec)
	})
	if err != nil && ctx.Err() != nil && !isAPIError(err) {
		return nil, false, contextError(method, path, ctx.Err(), time.Since(start))
	}
	return resp, shared, err
}

type deadlineHintKey struct{}

// deadlineOf is the context's deadline, or the deadline of the caller that started a
// collapsed request.
func deadlineOf(ctx context.Context) (time.Time, bool) {
	if dl, ok := ctx.Deadline(); ok {
		return dl, true
	}
	dl, ok := ctx.Value(deadlineHintKey{}).(time.Time)
	return dl, ok
}

func isAPIError(err error) bool {
	var e *Error
	return errors.As(err, &e)
}

// execute runs the attempts of one call under the retry policy of docs/platform.md.
func (c *Client) execute(ctx context.Context, method, path, rawQuery string, body []byte, auth bool, dec answerDecoder) (*rawResponse, error) {
	idempotent := method == http.MethodGet
	start := time.Now()
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			c.retries.Add(1)
		}
		resp, sent, err := c.attempt(ctx, method, path, rawQuery, body, auth, attempt, dec)
		if held, ok := errors.AsType[*Error](err); ok && errors.Is(held.Err, ErrBudgetHeld) {
			// Not sent: the budget keeps it for key presses until RetryAt.
			held.Method, held.Path = method, path
			return nil, held
		}
		if err != nil {
			// A write that reached the server may have run: its outcome is unknown,
			// and it is never sent again. A refused redirect was the server's answer.
			unknown := !idempotent && sent && !errors.Is(err, ErrRedirectRefused)
			if ctx.Err() != nil {
				e := contextError(method, path, ctx.Err(), time.Since(start))
				e.OutcomeUnknown = unknown
				return nil, e
			}
			apiErr := c.transportError(method, path, err)
			apiErr.OutcomeUnknown = unknown
			if apiErr.Timeout > 0 {
				apiErr.Timeout = time.Since(start)
			}
			if errors.Is(err, ErrRedirectRefused) || errors.Is(err, errTooManyRedirects) || errors.Is(err, errResponseTooLarge) {
				return nil, apiErr
			}
			if dl, ok := deadlineOf(ctx); ok && !time.Now().Before(dl) {
				return nil, apiErr
			}
			// A write is repeated only when the server cannot have seen any of it.
			if (!idempotent && sent) || attempt >= c.maxRetries {
				return nil, apiErr
			}
			if err := c.wait(ctx, c.backoff(attempt)); err != nil {
				return nil, contextError(method, path, err, time.Since(start))
			}
			continue
		}
		if resp.status >= 200 && resp.status < 300 {
			if resp.decodeErr != nil {
				return nil, c.unreadable(method, path, resp, resp.decodeErr)
			}
			return resp, nil
		}
		apiErr := c.httpError(method, path, resp)
		// A gateway that gave up on the platform cannot say whether a write ran.
		apiErr.OutcomeUnknown = !idempotent && (resp.status == http.StatusBadGateway || resp.status == http.StatusGatewayTimeout)
		retryable := resp.status == http.StatusTooManyRequests ||
			(idempotent && resp.status >= 500 && resp.status != http.StatusNotImplemented)
		if !retryable || attempt >= c.maxRetries {
			return nil, apiErr
		}
		if resp.status == http.StatusTooManyRequests && ctx.Value(fanoutKey{}) != nil {
			// A fan-out's project asked to slow down is not asked again at once by each
			// of its requests: the view reads it again when the platform said.
			return nil, apiErr
		}
		d := c.retryDelay(resp, attempt)
		if d > maxHonouredWait {
			return nil, apiErr // the console shows "try again in …" instead of hanging
		}
		if dl, ok := deadlineOf(ctx); ok && time.Until(dl) < d {
			return nil, apiErr
		}
		if err := c.wait(ctx, d); err != nil {
			return nil, contextError(method, path, err, time.Since(start))
		}
	}
}

func (c *Client) wait(ctx context.Context, d time.Duration) error {
	if err := c.sleep(ctx, d); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	return ctx.Err()
}

// attempt sends one HTTP request and reads the answer: an error answer as bytes, a
// success answer through dec as it arrives. sent reports whether any part of the
// request may have reached the server.
func (c *Client) attempt(ctx context.Context, method, path, rawQuery string, body []byte, auth bool, n int, dec answerDecoder) (_ *rawResponse, sent bool, _ error) {
	done, err := c.admit(ctx)
	if err != nil {
		return nil, false, err
	}
	status, latency := 0, time.Duration(0)
	defer func() { done(status, latency) }()

	actx := ctx
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		if dl, ok := deadlineOf(ctx); ok {
			// A collapsed request lives as long as the caller that started it would.
			actx, cancel = context.WithDeadline(ctx, dl)
		} else {
			actx, cancel = context.WithTimeout(ctx, c.timeout)
		}
		defer cancel()
	}
	// Whether a request was (even partly) written decides if a write may be repeated;
	// reads are always repeatable, so they skip the tracing.
	var wrote atomic.Bool
	if method != http.MethodGet {
		actx = httptrace.WithClientTrace(actx, &httptrace.ClientTrace{
			WroteHeaderField: func(string, []string) { wrote.Store(true) },
			WroteHeaders:     func() { wrote.Store(true) },
			WroteRequest:     func(httptrace.WroteRequestInfo) { wrote.Store(true) },
		})
	}

	target := c.root + path
	if rawQuery != "" {
		target += "?" + rawQuery
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(apilog.WithAttempt(actx, n), method, target, rd)
	if err != nil {
		return nil, false, err
	}
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if auth && c.authValue != "" {
		req.Header.Set("Authorization", c.authValue)
	}

	c.requests.Add(1)
	began := time.Now()
	res, err := c.http.Do(req)
	latency = time.Since(began)
	if err != nil {
		c.log.Debug("api request failed", "method", method, "path", path, "attempt", n+1,
			"duration", time.Since(began), "error", scrub(err.Error(), c.token))
		return nil, wrote.Load(), err
	}
	defer res.Body.Close()
	status = res.StatusCode
	now := time.Now()
	c.rate.observe(res.Header, now)
	var retryAt time.Time
	if res.StatusCode == http.StatusTooManyRequests {
		if d, ok := parseRetryAfter(res.Header.Get("Retry-After"), now); ok {
			retryAt = now.Add(d)
		} else if d, ok := parseReset(res.Header.Get("X-RateLimit-Reset"), now); ok {
			retryAt = now.Add(d)
		}
	}
	c.budget.observed(res.StatusCode, retryAt)
	resp := &rawResponse{status: res.StatusCode, header: res.Header}
	br := &bodyReader{r: res.Body, limit: c.responseCap}
	if res.StatusCode >= 200 && res.StatusCode < 300 && dec.read != nil {
		size := res.ContentLength
		if method == http.MethodGet {
			size = c.lengths.guess(target, size)
		}
		resp.value, resp.decodeErr = dec.read(actx, newAnswerDecoder(br), size)
		if method == http.MethodGet && resp.decodeErr == nil && br.err == nil {
			c.lengths.remember(target, br.n)
		}
		if resp.decodeErr != nil && br.err == nil && actx.Err() != nil {
			return nil, true, actx.Err() // the decoder stopped because its context ended
		}
		if br.err == nil {
			_, _ = io.Copy(io.Discard, io.LimitReader(br, 64<<10)) // lets the connection be reused
		}
	} else {
		resp.body, _ = io.ReadAll(br)
	}
	// A failure of the connection (or the cap) is the transport's, not the decoder's.
	if br.err != nil {
		return nil, true, br.err
	}
	c.log.Debug("api request", "method", method, "path", path, "attempt", n+1,
		"status", res.StatusCode, "duration", time.Since(began), "bytes", br.n)
	return resp, true, nil
}

var errResponseTooLarge = fmt.Errorf("the answer is larger than %d MiB", MaxResponseBytes>>20)

// bodyReader passes an answer through, counting its bytes, stopping at the cap and
// keeping the first read error, so that a decoder's failure is told from the
// connection's. The decoder sees such an error as a bodyError, so that it ends the
// answer instead of taking it for one bad entry.
type bodyReader struct {
	r     io.Reader
	n     int64
	limit int64
	err   error
}

func (b *bodyReader) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, bodyError{b.err}
	}
	n, err := b.r.Read(p)
	b.n += int64(n)
	switch {
	case b.n > b.limit:
		b.err = errResponseTooLarge
		return 0, bodyError{b.err}
	case err != nil && err != io.EOF:
		b.err = err
		return n, bodyError{err}
	}
	return n, err
}

// bodyError is a failure to read the answer (the connection, the cap), as the decoder
// sees it.
type bodyError struct{ err error }

func (e bodyError) Error() string { return e.err.Error() }
func (e bodyError) Unwrap() error { return e.err }

func sleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
