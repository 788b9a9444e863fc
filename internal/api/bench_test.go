package api

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/svcui/svcui/internal/models"
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
	// The same with the JSON decoding the client does, to tell HTTP from decoding costs.
	b.Run("raw-http-get+json", func(b *testing.B) {
		hc := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
		b.ReportAllocs()
		for b.Loop() {
			res, err := hc.Get(srv.URL + "/v1/clouds")
			if err != nil {
				b.Fatal(err)
			}
			var out struct {
				Clouds []models.Cloud `json:"clouds"`
			}
			err = json.NewDecoder(res.Body).Decode(&out)
			res.Body.Close()
			if err != nil || len(out.Clouds) != 1 {
				b.Fatal(err)
			}
		}
	})
}
