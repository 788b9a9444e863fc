package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/svcui/svcui/internal/models"
)

// Error is a failed API call: either an HTTP answer outside 2xx (Status set), or a call
// that got no usable answer (Status 0, Err holds the cause: a connection error, a
// timeout, a cancellation, a refused redirect). Every text in it has been scrubbed of the
// token and of anything that looks like a password.
type Error struct {
	Method string
	Path   string // escaped path, without the query
	Status int
	// Messages are the platform's messages, first one first.
	Messages []string
	// RetryAfter is how long the platform asked to wait (429 answers), 0 when unknown.
	RetryAfter time.Duration
	// RetryAt is when to try again: the 429's RetryAfter from its arrival, or the
	// reset of the budget that held a background request back (RateLimited).
	RetryAt time.Time
	// Body is the first 512 bytes of a non-JSON error body, scrubbed.
	Body string
	// Host is the host that could not be reached (connection errors).
	Host string
	// Timeout is how long the call ran before its deadline, for timeouts.
	Timeout time.Duration
	// Err is the underlying cause when there is no HTTP answer (or the answer was
	// unreadable); errors.Is(err, context.Canceled) and the like work through it.
	Err error
	// ContentType is the answer's Content-Type, for unreadable answers.
	ContentType string
	// OutcomeUnknown is set for a write (POST, PUT, DELETE) that was sent but whose
	// answer never came or could not be used (the connection dropped, the time ran
	// out, a gateway answered 502 or 504, the answer was unreadable): it may have taken
	// effect. It was not sent again; read the resource back (FindService, …).
	OutcomeUnknown bool

	reason string       // scrubbed text of the cause, for Error and Message
	decode *decodeError // what was unreadable, for Detail
}

// Error renders "GET /v1/project/acme-prod/service/x: 404 Service x does not exist".
func (e *Error) Error() string {
	var sb strings.Builder
	sb.WriteString(e.Method)
	sb.WriteByte(' ')
	sb.WriteString(e.Path)
	sb.WriteString(": ")
	sb.WriteString(e.detail())
	return sb.String()
}

func (e *Error) detail() string {
	if e.Status == 0 {
		return e.reasonText()
	}
	return fmt.Sprintf("%d %s", e.Status, e.statusMessage())
}

// unknownOutcome ends the sentence of a write that may have taken effect.
const unknownOutcome = ", so whether it took effect is unknown"

// statusMessage is the platform's first message, or the status text with a short
// plain-text body when the platform sent no message.
func (e *Error) statusMessage() string {
	if e.OutcomeUnknown && e.decode == nil {
		return e.statusText() + unknownOutcome
	}
	return e.statusText()
}

func (e *Error) statusText() string {
	if len(e.Messages) > 0 {
		return e.Messages[0]
	}
	text := http.StatusText(e.Status)
	if text == "" {
		text = "unexpected answer"
	}
	if snippet := bodySnippet(e.Body); snippet != "" {
		return text + ": " + snippet
	}
	return text
}

func (e *Error) reasonText() string {
	if e.OutcomeUnknown {
		return e.unknownText()
	}
	switch {
	case errors.Is(e.Err, context.DeadlineExceeded):
		return "timed out after " + roundDuration(e.Timeout)
	case errors.Is(e.Err, context.Canceled):
		return "cancelled"
	case e.Host != "":
		return "cannot reach " + e.Host + ": " + e.reason
	case e.reason != "":
		return e.reason
	}
	return "request failed"
}

// unknownText is the sentence of a write sent without an answer: never "cannot
// reach", since the platform was reached.
func (e *Error) unknownText() string {
	switch {
	case errors.Is(e.Err, context.DeadlineExceeded):
		return "the request was sent but no answer came within " + roundDuration(e.Timeout) + unknownOutcome
	case errors.Is(e.Err, context.Canceled):
		return "cancelled after the request was sent" + unknownOutcome
	case e.reason != "":
		return "the request was sent but the answer was lost (" + e.reason + ")" + unknownOutcome
	}
	return "the request was sent but no answer came" + unknownOutcome
}

// Unwrap exposes the cause.
func (e *Error) Unwrap() error { return e.Err }

func roundDuration(d time.Duration) string {
	if d <= 0 {
		return "the time allowed"
	}
	if d >= time.Second {
		return d.Round(time.Second).String()
	}
	return d.Round(time.Millisecond).String()
}

// bodySnippet is a one-line excerpt of a plain-text body worth showing; HTML pages
// (proxies, load balancers) are not.
func bodySnippet(body string) string {
	body = strings.TrimSpace(body)
	if body == "" || strings.HasPrefix(body, "<") {
		return ""
	}
	if i := strings.IndexAny(body, "\r\n"); i >= 0 {
		body = body[:i]
	}
	if len(body) > 200 {
		body = body[:200] + "…"
	}
	return body
}

func statusIs(err error, status int) bool {
	var e *Error
	return errors.As(err, &e) && e.Status == status
}

// IsNotFound reports a 404 answer.
func IsNotFound(err error) bool { return statusIs(err, http.StatusNotFound) }

// IsUnauthorized reports a 401 answer (missing or invalid token).
func IsUnauthorized(err error) bool { return statusIs(err, http.StatusUnauthorized) }

// IsForbidden reports a 403 answer (the role does not allow it, or a protection refused it).
func IsForbidden(err error) bool { return statusIs(err, http.StatusForbidden) }

// IsConflict reports a 409 answer.
func IsConflict(err error) bool { return statusIs(err, http.StatusConflict) }

// IsOutcomeUnknown reports a write that was sent but whose answer never came or could
// not be used: it may have taken effect. The client never sends it again by itself;
// the caller reads the resource back (FindProject, FindService, FindUser, …) and
// reports what is there.
func IsOutcomeUnknown(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.OutcomeUnknown
}

// Message returns the sentence to show a person: the platform's first message; for
// connection errors "cannot reach <host>: <reason>"; for deadlines "timed out after Ns".
func Message(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		if e.Status == 0 {
			return e.reasonText()
		}
		if len(e.Messages) > 0 {
			return e.statusMessage()
		}
		return fmt.Sprintf("The platform answered %d %s", e.Status, e.statusMessage())
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "timed out"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	}
	return scrub(err.Error(), "")
}

// Detail is the full account of an error for the debug log: method and path, status,
// content type, the platform's messages, what in an answer was unreadable (JSON path,
// type found and expected, byte), whether a write's outcome is unknown, and the cause.
// It never holds the token or a password; it is not meant for the screen (Message is).
func Detail(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if !errors.As(err, &e) {
		return scrub(err.Error(), "")
	}
	return e.Detail()
}

// Detail is the full account of e; see the package function Detail.
func (e *Error) Detail() string {
	parts := []string{e.Method + " " + e.Path}
	if e.Status != 0 {
		parts = append(parts, fmt.Sprintf("status %d", e.Status))
	}
	if e.ContentType != "" {
		parts = append(parts, "content type "+e.ContentType)
	}
	switch {
	case e.decode != nil:
		parts = append(parts, "unreadable answer: "+e.decode.detail(""))
	case e.Status != 0:
		parts = append(parts, "answer: "+e.statusText())
		if len(e.Messages) > 1 {
			parts = append(parts, "further messages: "+strings.Join(e.Messages[1:], " | "))
		}
		if e.Body != "" && len(e.Messages) == 0 {
			parts = append(parts, fmt.Sprintf("body: %q", e.Body))
		}
	default:
		parts = append(parts, e.reasonText())
	}
	if e.RetryAfter > 0 {
		parts = append(parts, "retry after "+roundDuration(e.RetryAfter))
	}
	if e.OutcomeUnknown {
		parts = append(parts, "outcome unknown: the write was sent and not repeated")
	}
	if e.Err != nil && e.decode == nil && e.reason == "" {
		parts = append(parts, "cause: "+scrub(e.Err.Error(), ""))
	}
	return strings.Join(parts, "; ")
}

// httpError builds the error of a non-2xx answer.
func (c *Client) httpError(method, path string, resp *rawResponse) *Error {
	e := &Error{Method: method, Path: path, Status: resp.status}
	var body models.ErrorBody
	if json.Unmarshal(resp.body, &body) == nil {
		for _, it := range body.Errors {
			if m := strings.TrimSpace(it.Message); m != "" {
				e.Messages = append(e.Messages, scrub(m, c.token))
			}
		}
		if len(e.Messages) == 0 && strings.TrimSpace(body.Message) != "" {
			e.Messages = append(e.Messages, scrub(strings.TrimSpace(body.Message), c.token))
		}
	} else {
		e.Body = bodyExcerpt(resp.body, c.token)
	}
	now := time.Now()
	if d, ok := parseRetryAfter(resp.header.Get("Retry-After"), now); ok {
		e.RetryAfter = d
	} else if resp.status == http.StatusTooManyRequests {
		if d, ok := parseReset(resp.header.Get("X-RateLimit-Reset"), now); ok {
			e.RetryAfter = d
		}
	}
	if resp.status == http.StatusTooManyRequests && e.RetryAfter > 0 {
		e.RetryAt = now.Add(e.RetryAfter)
	}
	return e
}

// transportError builds the error of an attempt that got no HTTP answer.
func (c *Client) transportError(method, path string, err error) *Error {
	e := &Error{Method: method, Path: path, Err: err}
	switch {
	case errors.Is(err, ErrRedirectRefused):
		e.reason = scrub(redirectReason(err), c.token)
	case errors.Is(err, errResponseTooLarge):
		e.reason = errResponseTooLarge.Error()
	case errors.Is(err, errTooManyRedirects):
		e.reason = errTooManyRedirects.Error()
	case errors.Is(err, context.DeadlineExceeded):
		e.Timeout = c.timeout
	default:
		e.Host = c.host
		e.reason = scrub(connReason(err), c.token)
	}
	return e
}

func contextError(method, path string, err error, elapsed time.Duration) *Error {
	return &Error{Method: method, Path: path, Err: err, Timeout: elapsed}
}

// connReason turns a transport error into a short reason: "connection refused",
// "no such host", "connection reset", "connection closed".
func connReason(err error) string {
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &dnsErr):
		if dnsErr.IsNotFound {
			return "no such host"
		}
		return "name lookup failed"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "network unreachable"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed by the server"
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err.Error()
	}
	return err.Error()
}

// bodyExcerpt is the first 512 bytes of a body, scrubbed before it is cut so that no
// part of a secret survives at the cut.
func bodyExcerpt(body []byte, token string) string {
	const keep = 512
	if len(body) > 64<<10 {
		body = body[:64<<10]
	}
	s := scrub(strings.ToValidUTF8(string(body), "�"), token)
	if len(s) <= keep {
		return s
	}
	cut := keep
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}
