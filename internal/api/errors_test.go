package api

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/svcui/svcui/internal/models"
)

func TestErrorFormatAndHelpers(t *testing.T) {
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/project/acme-prod/service/x":
			writeErr(w, 404, "Service x does not exist")
		case "/v1/project/acme-prod":
			writeErr(w, 403, "Not allowed for role developer")
		case "/v1/project/new":
			writeErr(w, 409, "Project new has services; delete them first")
		default:
			writeErr(w, 401, "Invalid token")
		}
	}))
	ctx := ctxT(t)
	_, err := c.GetService(ctx, "acme-prod", "x")
	if got := err.Error(); got != "GET /v1/project/acme-prod/service/x: 404 Service x does not exist" {
		t.Errorf("Error() = %q", got)
	}
	if Message(err) != "Service x does not exist" || !IsNotFound(err) || IsForbidden(err) {
		t.Errorf("Message = %q, IsNotFound %v", Message(err), IsNotFound(err))
	}
	_, err = c.UpdateProject(ctx, "acme-prod", models.UpdateProjectRequest{Cloud: models.Ptr("aws-eu-west-1")})
	if !IsForbidden(err) || !strings.HasPrefix(err.Error(), "PUT /v1/project/acme-prod: 403 ") {
		t.Errorf("forbidden: %v", err)
	}
	if err := c.DeleteProject(ctx, "new"); !IsConflict(err) {
		t.Errorf("conflict: %v", err)
	}
	if _, err := c.ListProjects(ctx); !IsUnauthorized(err) || IsRateLimited(err) || IsBadRequest(err) {
		t.Errorf("unauthorized: %v", err)
	}
	wrapped := fmt.Errorf("loading services: %w", &Error{Status: 400, Messages: []string{"bad"}})
	if !IsBadRequest(wrapped) || Message(wrapped) != "bad" {
		t.Errorf("wrapped: %v %q", IsBadRequest(wrapped), Message(wrapped))
	}
	if IsNotFound(nil) || Message(nil) != "" || IsNotFound(errors.New("x")) {
		t.Error("helpers on nil or foreign errors")
	}
}

func TestNonJSONErrorBodies(t *testing.T) {
	html := "<html><body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>"
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/project/html":
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(502)
			_, _ = w.Write([]byte(html))
		case "/v1/project/plain":
			w.WriteHeader(400)
			_, _ = w.Write([]byte("upstream said no: Authorization svcv1 " + testToken + "\nsecond line"))
		case "/v1/project/big":
			w.WriteHeader(400)
			_, _ = w.Write([]byte(strings.Repeat("x", 5000)))
		case "/v1/project/empty":
			w.WriteHeader(418)
		case "/v1/project/jsonnomsg":
			writeJSON(w, 400, `{"detail":"something"}`)
		case "/v1/project/toplevel":
			writeJSON(w, 400, `{"message":"only the top-level message"}`)
		}
	}), func(o *Options) { o.MaxRetries = -1 })
	ctx := ctxT(t)

	_, err := c.GetProject(ctx, "html")
	var e *Error
	if !errors.As(err, &e) || e.Status != 502 || e.Body != html {
		t.Fatalf("html: %#v", err)
	}
	if err.Error() != "GET /v1/project/html: 502 Bad Gateway" || Message(err) != "The platform answered 502 Bad Gateway" {
		t.Errorf("html: %q / %q", err.Error(), Message(err))
	}

	_, err = c.GetProject(ctx, "plain")
	if got := Message(err); got != "The platform answered 400 Bad Request: upstream said no: Authorization svcv1 ***" {
		t.Errorf("plain: %q", got)
	}
	if strings.Contains(err.Error(), testToken) || errors.As(err, &e) && strings.Contains(e.Body, testToken) {
		t.Errorf("token leaked: %q", err.Error())
	}

	_, err = c.GetProject(ctx, "big")
	if errors.As(err, &e) && len(e.Body) != 512 {
		t.Errorf("big body kept %d bytes, want 512", len(e.Body))
	}
	if len(err.Error()) > 400 {
		t.Errorf("Error() of a big body is %d bytes long", len(err.Error()))
	}

	if _, err = c.GetProject(ctx, "empty"); err == nil || err.Error() != "GET /v1/project/empty: 418 I'm a teapot" {
		t.Errorf("empty: %v", err)
	}
	if _, err = c.GetProject(ctx, "jsonnomsg"); Message(err) != "The platform answered 400 Bad Request" {
		t.Errorf("json without message: %q", Message(err))
	}
	if _, err = c.GetProject(ctx, "toplevel"); Message(err) != "only the top-level message" {
		t.Errorf("top-level message: %q", Message(err))
	}
}

func TestConnectionRefusedMessage(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	rec := &sleepRecorder{}
	c, err := New(Options{BaseURL: "http://" + addr, Token: testToken, Sleep: rec.sleep, MaxRetries: 2})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListProjects(ctxT(t))
	if got, want := Message(err), "cannot reach "+addr+": connection refused"; got != want {
		t.Errorf("Message = %q, want %q", got, want)
	}
	if !IsConnection(err) || len(rec.all()) != 2 {
		t.Errorf("IsConnection %v, sleeps %v", IsConnection(err), rec.all())
	}
	if !strings.HasPrefix(err.Error(), "GET /v1/project: cannot reach ") {
		t.Errorf("Error() = %q", err.Error())
	}
}

func TestUnknownHostMessage(t *testing.T) {
	c, err := New(Options{BaseURL: "https://no-such-host.invalid", Token: testToken, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListProjects(ctxT(t))
	if got := Message(err); !strings.HasPrefix(got, "cannot reach no-such-host.invalid: ") {
		t.Errorf("Message = %q", got)
	}
}

func TestTimeoutMessages(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-block:
		case <-r.Context().Done():
		}
	}), func(o *Options) { o.Timeout = 50 * time.Millisecond; o.MaxRetries = 1 })

	// The caller's deadline.
	ctx, cancel := context.WithTimeout(context.Background(), 1200*time.Millisecond)
	defer cancel()
	_, err := c.ListProjects(ctx)
	if !errors.Is(err, context.DeadlineExceeded) || Message(err) != "timed out after 1s" {
		t.Errorf("caller deadline: %v / %q", err, Message(err))
	}
	// The per-attempt timeout, when the caller has no deadline: a GET is retried once.
	_, err = c.ListServiceTypes(context.Background())
	if !errors.Is(err, context.DeadlineExceeded) || !strings.HasPrefix(Message(err), "timed out after ") {
		t.Errorf("attempt timeout: %v / %q", err, Message(err))
	}
	if st := c.Stats(); st.Retries < 1 {
		t.Errorf("attempt timeout not retried: %+v", st)
	}
	// A write whose request reached the server is not repeated after a timeout.
	before := c.Stats().Requests
	err = c.CreateTopic(context.Background(), "acme-prod", "kafka-events", models.CreateTopicRequest{TopicName: "orders", Partitions: 3, Replication: 2})
	if !errors.Is(err, context.DeadlineExceeded) || c.Stats().Requests-before != 1 {
		t.Errorf("write timeout: %v after %d requests", err, c.Stats().Requests-before)
	}
}

// FuzzErrorNeverContainsToken has the server echo the request's Authorization header
// and arbitrary text in every form of error answer.
func FuzzErrorNeverContainsToken(f *testing.F) {
	f.Add("tok_Z9xq3Lw7Pk2Vn8Rb5Ty1", "bad token %s", 401, true)
	f.Add("AVNS-aaaaaaaa", "%s", 500, false)
	f.Add("abc.def.ghi-jkl", "password=%s", 403, true)
	f.Fuzz(func(t *testing.T, token, msg string, status int, asJSON bool) {
		if len(token) < 8 || strings.ContainsAny(token, "\r\n\x00") || !isPrintableASCII(token) {
			return // real tokens are long printable strings; New refuses line breaks
		}
		if status < 400 || status > 599 {
			status = 400 + (abs(status) % 200)
		}
		text := strings.ReplaceAll(msg, "%s", "")
		srv := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			echo := text + " " + r.Header.Get("Authorization") + " " + strings.TrimPrefix(r.Header.Get("Authorization"), "svcv1 ")
			if asJSON {
				writeJSON(w, status, fmt.Sprintf(`{"errors":[{"message":%q,"status":%d}]}`, echo, status))
				return
			}
			w.WriteHeader(status)
			_, _ = w.Write([]byte(echo))
		})
		c, _, _ := newTestClient(t, srv, func(o *Options) { o.Token = token; o.MaxRetries = -1 })
		_, err := c.GetService(context.Background(), "p", "s")
		if err == nil {
			return
		}
		for _, s := range []string{err.Error(), Message(err), fmt.Sprintf("%v", err)} {
			if strings.Contains(s, token) {
				t.Fatalf("token %q in %q", token, s)
			}
		}
		var e *Error
		if errors.As(err, &e) {
			for _, m := range append(e.Messages, e.Body) {
				if strings.Contains(m, token) {
					t.Fatalf("token %q in field %q", token, m)
				}
			}
		}
	})
}

func isPrintableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
