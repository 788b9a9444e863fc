package api

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func TestDownloadNeverSendsAuthorization(t *testing.T) {
	pdf := bytes.Repeat([]byte("%PDF-1.7 invoice "), 4000)
	cdn := &authRecorder{}
	cdnSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cdn.record(r)
		if r.Header.Get("Cookie") != "" {
			t.Errorf("cookie sent to the CDN")
		}
		w.Header().Set("Content-Type", "application/pdf")
		w.Header().Set("Content-Length", strconv.Itoa(len(pdf)))
		_, _ = w.Write(pdf)
	}))
	defer cdnSrv.Close()
	api := &authRecorder{}
	c, _, apiSrv := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		api.record(r)
		// The API host itself hands out a capability URL that redirects elsewhere.
		http.Redirect(w, r, cdnSrv.URL+"/files/INV-1.pdf?sig=abc", http.StatusFound)
	}))

	var mu sync.Mutex
	var calls int
	var lastDone, lastTotal int64
	var buf bytes.Buffer
	// user:password in the URL would make net/http send basic auth; it must not.
	u := strings.Replace(apiSrv.URL, "http://", "http://someone:pw@", 1) + "/invoices/INV-1.pdf?capability=xyz"
	n, err := c.Download(ctxT(t), u, &buf, func(done, total int64) {
		mu.Lock()
		calls++
		lastDone, lastTotal = done, total
		mu.Unlock()
	})
	if err != nil {
		t.Fatalf("Download: %v", err)
	}
	if n != int64(len(pdf)) || !bytes.Equal(buf.Bytes(), pdf) {
		t.Fatalf("downloaded %d bytes, want %d", n, len(pdf))
	}
	if calls == 0 || lastDone != n || lastTotal != n {
		t.Errorf("progress: %d calls, last %d/%d", calls, lastDone, lastTotal)
	}
	for _, h := range append(api.all(), cdn.all()...) {
		if h != "" {
			t.Errorf("Authorization %q sent during a download", h)
		}
	}
	if len(api.all()) != 1 || len(cdn.all()) != 1 {
		t.Errorf("api saw %d, cdn saw %d requests", len(api.all()), len(cdn.all()))
	}
}

func TestDownloadErrors(t *testing.T) {
	c, _, srv := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/gone":
			w.WriteHeader(404)
			_, _ = w.Write([]byte("no such invoice"))
		case "/short":
			w.Header().Set("Content-Length", "100")
			_, _ = w.Write([]byte("only a few bytes"))
		case "/big":
			_, _ = w.Write(make([]byte, 2048))
		}
	}))
	ctx := ctxT(t)
	var buf bytes.Buffer
	if _, err := c.Download(ctx, srv.URL+"/gone?sig=secret", &buf, nil); !IsNotFound(err) || strings.Contains(err.Error(), "secret") {
		t.Errorf("404: %v", err)
	}
	if _, err := c.Download(ctx, srv.URL+"/short", &buf, nil); err == nil {
		t.Error("a truncated download succeeded")
	}
	for _, bad := range []string{"", "ftp://x/y", "/relative", "http://"} {
		if _, err := c.Download(ctx, bad, &buf, nil); err == nil {
			t.Errorf("Download(%q) accepted", bad)
		}
	}
	if _, err := c.Download(ctx, srv.URL+"/x?t="+testToken, &buf, nil); err == nil || strings.Contains(err.Error(), testToken) {
		t.Errorf("URL with the token: %v", err)
	}
	c.downloadCap = 1024
	if n, err := c.Download(ctx, srv.URL+"/big", &buf, nil); err == nil || n > 1024 {
		t.Errorf("oversized download: %d, %v", n, err)
	}
	c.downloadCap = MaxDownloadBytes
	if _, err := c.Download(ctx, srv.URL+"/big", failingWriter{}, nil); err == nil || !strings.Contains(Message(err), "could not save the file") {
		t.Errorf("write failure: %v", err)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }
