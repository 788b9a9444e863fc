package api

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

const benchClouds = `{"clouds":[{"cloud_name":"aws-eu-west-1","cloud_description":"Europe, Ireland","geo_latitude":53.3,"geo_longitude":-6.2,"geo_region":"europe"}]}`

// BenchmarkClientOverhead compares one client call with a raw http.Get of the same
// answer against a trivial handler; the difference is the client's per-call cost
// (limiter, collapse bookkeeping, tracing, headers, error and JSON handling).
func BenchmarkClientOverhead(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, benchClouds)
	}))
	defer srv.Close()

	b.Run("client", func(b *testing.B) {
		c, err := New(Options{BaseURL: srv.URL, Token: testToken})
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		b.ReportAllocs()
		for b.Loop() {
			if _, err := c.ListClouds(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("raw-http-get", func(b *testing.B) {
		hc := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
		b.ReportAllocs()
		for b.Loop() {
			res, err := hc.Get(srv.URL + "/v1/clouds")
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.ReadAll(res.Body)
			res.Body.Close()
		}
	})
}
