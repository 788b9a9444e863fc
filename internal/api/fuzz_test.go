package api

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/svcui/svcui/internal/models"
)

// cannedTransport answers every request with one status and body, without a network.
type cannedTransport struct {
	status int
	body   []byte
	header http.Header
}

func (t cannedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		_ = r.Body.Close()
	}
	h := t.header.Clone()
	if h == nil {
		h = http.Header{}
	}
	return &http.Response{StatusCode: t.status, Header: h, Body: io.NopCloser(bytes.NewReader(t.body)),
		ContentLength: int64(len(t.body)), Request: r}, nil
}

// FuzzResponseDecoders feeds arbitrary bytes as the answer of every endpoint, as a
// success and as an error, with arbitrary rate-limit headers: nothing may panic, and a
// success answer is either decoded or reported as unreadable.
func FuzzResponseDecoders(f *testing.F) {
	for _, seed := range []string{
		`{"services":[{"service_name":"a","node_count":"3","service_uri_params":{"port":1},"connection_info":{"pg":["postgres://u:p@h:1/d"]}}]}`,
		`{"project":{"project_name":"p","billing_emails":[{"email":"a@b"}]},"projects":[],"project_membership":{"p":"admin"}}`,
		`{"billing_group":{"card_info":{"exp_month":"x"}},"invoices":[{"period_begin":"bad"}]}`,
		`{"errors":[{"message":"m","status":"404"}],"message":7}`,
		`{"host":"h","port":"x"}`, `{"acl":null}`, `[]`, `null`, "\xff\xfe", "",
	} {
		f.Add([]byte(seed), 200, "1")
		f.Add([]byte(seed), 429, "Tue, 01 Jan 2030 00:00:00 GMT")
	}
	f.Fuzz(func(t *testing.T, body []byte, status int, retryAfter string) {
		if status < 100 || status > 999 {
			status = 200 + abs(status)%400
		}
		if status >= 300 && status < 400 {
			status = 200 // a redirect without Location is the transport's business
		}
		h := http.Header{"Retry-After": {retryAfter}, "X-RateLimit-Limit": {retryAfter}, "X-RateLimit-Remaining": {strconv.Itoa(status)}, "X-RateLimit-Reset": {retryAfter}}
		c, err := New(Options{BaseURL: "https://api.example.com", Token: testToken, MaxRetries: -1,
			HTTPClient: &http.Client{Transport: cannedTransport{status: status, body: body, header: h}},
			Sleep:      func(context.Context, time.Duration) error { return nil }})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		var errs []error
		record := func(err error) { errs = append(errs, err) }
		_, err = c.ListClouds(ctx)
		record(err)
		_, err = c.ListServiceTypes(ctx)
		record(err)
		_, err = c.ListPlans(ctx, "p", "pg", "c")
		record(err)
		_, err = c.ListProjects(ctx)
		record(err)
		_, err = c.GetProject(ctx, "p")
		record(err)
		_, err = c.ListServices(ctx, "p")
		record(err)
		_, err = c.GetService(ctx, "p", "s")
		record(err)
		_, err = c.CreateService(ctx, "p", models.CreateServiceRequest{ServiceName: "s"})
		record(err)
		record(c.DeleteService(ctx, "p", "s"))
		_, err = c.ListUsers(ctx, "p", "s")
		record(err)
		_, err = c.ResetCredentials(ctx, "p", "s", "u")
		record(err)
		_, err = c.GetConnectionInfo(ctx, "p", "s")
		record(err)
		_, err = c.ListACLs(ctx, "p", "s")
		record(err)
		_, err = c.CreateACL(ctx, "p", "s", models.CreateACLRequest{})
		record(err)
		_, err = c.ListTopics(ctx, "p", "s")
		record(err)
		record(c.CreateTopic(ctx, "p", "s", models.CreateTopicRequest{}))
		_, err = c.ListDatabases(ctx, "p", "s")
		record(err)
		_, err = c.ListBillingGroups(ctx, "a")
		record(err)
		_, err = c.GetBillingGroup(ctx, "b")
		record(err)
		_, err = c.ListInvoices(ctx, "b")
		record(err)
		_, err = c.GetEstimate(ctx, "p")
		record(err)
		_, err = c.GetCredits(ctx, "a")
		record(err)
		_ = c.RateLimit()
		for _, err := range errs {
			if err == nil {
				if status >= 300 {
					t.Fatalf("status %d gave no error", status)
				}
				continue
			}
			_ = Message(err)
			if bytes.Contains([]byte(err.Error()), []byte(testToken)) {
				t.Fatalf("token in %q", err.Error())
			}
		}
	})
}
