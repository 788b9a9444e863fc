package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// MaxDownloadBytes caps an invoice download.
const MaxDownloadBytes = 64 << 20

// minDownloadTimeout bounds a download when the caller's context has no deadline; a PDF
// over a slow link may need longer than one API attempt.
const minDownloadTimeout = 2 * time.Minute

// Download fetches a capability URL (an invoice's download_url) into dst and returns the
// bytes written. It uses a separate HTTP client that never sends the token or any
// Authorization header, to any host, and follows redirects. progress, when not nil, is
// called as bytes arrive with the total from Content-Length (-1 when unknown).
func (c *Client) Download(ctx context.Context, rawURL string, dst io.Writer, progress func(done, total int64)) (int64, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return 0, &Error{Method: http.MethodGet, Path: "download", reason: "the download address is not an http(s) URL"}
	}
	shown := u.Scheme + "://" + u.Host + u.EscapedPath() // never the query: it may be the capability
	if c.token != "" && strings.Contains(rawURL, c.token) {
		return 0, &Error{Method: http.MethodGet, Path: scrub(shown, c.token), reason: "refusing a download address that contains the API token"}
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, max(c.timeout, minDownloadTimeout))
		defer cancel()
	}
	if err := c.limiter.acquire(ctx); err != nil {
		return 0, contextError(http.MethodGet, shown, err, 0)
	}
	defer c.limiter.release()

	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return 0, &Error{Method: http.MethodGet, Path: shown, reason: "the download address is not valid"}
	}
	req.Header.Set("User-Agent", c.userAgent)
	start := time.Now()
	c.requests.Add(1)
	res, err := c.download.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return 0, contextError(http.MethodGet, shown, ctx.Err(), time.Since(start))
		}
		return 0, &Error{Method: http.MethodGet, Path: shown, Host: u.Host, Err: err, reason: scrub(connReason(err), c.token)}
	}
	defer res.Body.Close()
	if res.StatusCode < 200 || res.StatusCode > 299 {
		body, _ := io.ReadAll(io.LimitReader(res.Body, 512))
		e := &Error{Method: http.MethodGet, Path: shown, Status: res.StatusCode}
		if !strings.HasPrefix(strings.TrimSpace(string(body)), "{") {
			e.Body = bodyExcerpt(body, c.token)
		}
		return 0, e
	}
	total := res.ContentLength
	tooLarge := &Error{Method: http.MethodGet, Path: shown, reason: fmt.Sprintf("the file is larger than the %s allowed", byteSize(c.downloadCap))}
	if total > c.downloadCap {
		return 0, tooLarge
	}
	// Stop at the cap: the writer sees at most downloadCap bytes.
	w := &progressWriter{dst: dst, total: total, progress: progress, limit: c.downloadCap}
	n, err := io.Copy(w, res.Body)
	if errors.Is(err, errDownloadCap) {
		return n, tooLarge
	}
	if err != nil {
		if ctx.Err() != nil {
			return n, contextError(http.MethodGet, shown, ctx.Err(), time.Since(start))
		}
		var we *writeError
		if errors.As(err, &we) {
			return n, &Error{Method: http.MethodGet, Path: shown, Err: we.err, reason: "could not save the file: " + we.err.Error()}
		}
		return n, &Error{Method: http.MethodGet, Path: shown, Host: u.Host, Err: err, reason: scrub(connReason(err), c.token)}
	}
	if total >= 0 && n != total {
		return n, &Error{Method: http.MethodGet, Path: shown, Host: u.Host, reason: fmt.Sprintf("the download stopped after %d of %d bytes", n, total)}
	}
	return n, nil
}

// progressWriter reports progress and tells write failures apart from read failures.
type progressWriter struct {
	dst      io.Writer
	done     int64
	total    int64
	progress func(done, total int64)
	limit    int64
}

var errDownloadCap = errors.New("download cap reached")

func byteSize(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

type writeError struct{ err error }

func (e *writeError) Error() string { return e.err.Error() }

func (w *progressWriter) Write(p []byte) (int, error) {
	capped := false
	if rest := w.limit - w.done; int64(len(p)) > rest {
		p, capped = p[:rest], true
	}
	n, err := w.dst.Write(p)
	w.done += int64(n)
	if w.progress != nil && n > 0 {
		w.progress(w.done, w.total)
	}
	if err != nil {
		return n, &writeError{err}
	}
	if capped {
		return n, errDownloadCap
	}
	return n, nil
}
