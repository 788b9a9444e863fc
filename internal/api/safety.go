package api

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strings"
)

// ErrRedirectRefused is the cause of an API call that was redirected to another host or
// from https to http; the client never follows such a redirect, so the token stays with
// the configured host.
var ErrRedirectRefused = errors.New("redirect refused")

// errTooManyRedirects ends a redirect loop; like a refused redirect it is the
// platform's answer, not a connection failure, so it is not retried.
var errTooManyRedirects = fmt.Errorf("the platform redirected the request more than %d times (a redirect loop?); stopped following it", maxRedirects)

type redirectError struct{ from, to string }

func (e *redirectError) Error() string {
	return fmt.Sprintf("the platform redirected the request from %s to %s; refused, so the token is not sent elsewhere", e.from, e.to)
}

func (e *redirectError) Unwrap() error { return ErrRedirectRefused }

func redirectReason(err error) string {
	var re *redirectError
	if errors.As(err, &re) {
		return re.Error()
	}
	return ErrRedirectRefused.Error()
}

// isLoopbackHost reports 127.0.0.0/8, ::1 and localhost.
func isLoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// buildHTTPClients derives the API client (same-host redirects only) and the download
// client (never any Authorization) from the caller's client, or from a fresh transport
// sized for the limiter.
func buildHTTPClients(base *http.Client, maxConc int, wrap func(http.RoundTripper) http.RoundTripper) (apiClient, downloadClient *http.Client) {
	var transport http.RoundTripper
	apiClient = &http.Client{}
	if base != nil {
		*apiClient = *base // a copy: the caller's client keeps its own rules
		transport = base.Transport
	}
	if transport == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		// Keep as many idle connections as the limiter (or a fan-out's window) lets requests run, so a burst
		// of calls reuses connections instead of dialling again.
		t.MaxIdleConnsPerHost = max(maxConc, fanMax)
		// HTTP/1.1, which the release binary is built to speak only (README, "Binary
		// size"): every build then talks to the platform as the release does.
		t.Protocols = new(http.Protocols)
		t.Protocols.SetHTTP1(true)
		transport = t
	}
	if wrap != nil {
		transport = wrap(transport)
	}
	apiClient.Transport = transport
	apiClient.Timeout = 0 // per-attempt deadlines come from contexts
	apiClient.CheckRedirect = sameHostRedirectsOnly

	downloadClient = &http.Client{
		Transport:     stripAuthTransport{next: transport},
		CheckRedirect: stripAuthOnRedirect,
	}
	return apiClient, downloadClient
}

const maxRedirects = 10

// sameHostRedirectsOnly follows redirects within the API host and refuses any other
// (another host, another port, or a downgrade from https to http).
func sameHostRedirectsOnly(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return errTooManyRedirects
	}
	first := via[0].URL
	if !strings.EqualFold(req.URL.Host, first.Host) || (first.Scheme == "https" && req.URL.Scheme != "https") {
		req.Header.Del("Authorization")
		return &redirectError{from: first.Scheme + "://" + first.Host, to: req.URL.Scheme + "://" + req.URL.Host}
	}
	return nil
}

func stripAuthOnRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return fmt.Errorf("stopped after %d redirects", maxRedirects)
	}
	req.Header.Del("Authorization")
	req.Header.Del("Cookie")
	return nil
}

// stripAuthTransport removes credentials from every request it carries, including the
// basic-auth header net/http derives from user:password in a URL.
type stripAuthTransport struct{ next http.RoundTripper }

func (t stripAuthTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("Authorization") != "" || req.Header.Get("Proxy-Authorization") != "" || req.Header.Get("Cookie") != "" {
		req = req.Clone(req.Context())
		req.Header.Del("Authorization")
		req.Header.Del("Proxy-Authorization")
		req.Header.Del("Cookie")
	}
	return t.next.RoundTrip(req)
}

var (
	// "svcv1 <token>" and "Bearer <token>" anywhere in a text.
	authPattern = regexp.MustCompile(`(?i)\b(svcv1|bearer|basic)\s+[^\s"',;]+`)
	// user:password@ in URIs.
	uriCredPattern = regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.-]*://[^:/@\s"']*):[^@\s"'/]*@`)
	// "password": "..." and password=... in JSON or query-like text.
	passwordPattern = regexp.MustCompile(`(?i)("?(?:password|passwd|secret|access_key|token)"?\s*[:=]\s*)("[^"]*"|[^\s,;&}"]+)`)
)

// scrub removes the token and anything shaped like a credential from a text.
func scrub(s, token string) string {
	if token != "" && strings.Contains(s, token) {
		s = strings.ReplaceAll(s, token, maskFor(token))
	}
	s = authPattern.ReplaceAllString(s, "$1 "+redactedMark)
	s = uriCredPattern.ReplaceAllString(s, "$1:"+redactedMark+"@")
	s = passwordPattern.ReplaceAllString(s, "${1}"+redactedMark)
	if token != "" && strings.Contains(s, token) {
		// The token is made of characters the masks use; fall back to saying nothing.
		return "[details withheld: they contained the API token]"
	}
	return s
}

const redactedMark = "***"

// maskFor returns a run of one character the token does not contain, so replacing
// the token can never form a new occurrence of it.
func maskFor(token string) string {
	for _, c := range []string{"*", "#", "~", "^", "_", "."} {
		if !strings.Contains(token, c) {
			return strings.Repeat(c, 3)
		}
	}
	return ""
}
