package sandbox

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"
)

type benchClient struct {
	b     *testing.B
	base  string
	token string
	c     *http.Client
}

func newBenchSandbox(b *testing.B) *benchClient {
	b.Helper()
	sb, err := New(Options{Data: "empty", RateLimit: 1 << 30, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	base, err := sb.Start("127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { sb.Close() })
	tr := &http.Transport{MaxIdleConnsPerHost: 64}
	return &benchClient{b: b, base: base, token: sb.AdminToken(), c: &http.Client{Transport: tr, Timeout: 10 * time.Second}}
}

func (bc *benchClient) do(method, path string, body []byte) int {
	req, err := http.NewRequest(method, bc.base+path, bytes.NewReader(body))
	if err != nil {
		bc.b.Fatal(err)
	}
	req.Header.Set("Authorization", "svcv1 "+bc.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := bc.c.Do(req)
	if err != nil {
		bc.b.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

// BenchmarkListServices100 measures GET .../service over loopback HTTP for a project of
// 100 services, from parallel clients.
func BenchmarkListServices100(b *testing.B) {
	bc := newBenchSandbox(b)
	for i := 0; i < 100; i++ {
		body := fmt.Sprintf(`{"service_name":"svc-%03d","service_type":"pg","plan":"startup-4","cloud":"aws-eu-west-1"}`, i)
		if st := bc.do("POST", "/v1/project/my-project/service", []byte(body)); st != 200 {
			b.Fatalf("create: %d", st)
		}
	}
	b.ReportAllocs()
	b.SetParallelism(4) // 8 clients on 2 cores keep the server busy while others wait on the network
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if st := bc.do("GET", "/v1/project/my-project/service", nil); st != 200 {
				b.Errorf("list: %d", st)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "req/s")
}

// BenchmarkCreateGetService measures a create and a get of a service over loopback HTTP.
func BenchmarkCreateGetService(b *testing.B) {
	bc := newBenchSandbox(b)
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		name := fmt.Sprintf("svc-%07d", i)
		body := `{"service_name":"` + name + `","service_type":"pg","plan":"startup-4","cloud":"aws-eu-west-1"}`
		if st := bc.do("POST", "/v1/project/my-project/service", []byte(body)); st != 200 {
			b.Fatalf("create: %d", st)
		}
		if st := bc.do("GET", "/v1/project/my-project/service/"+name, nil); st != 200 {
			b.Fatalf("get: %d", st)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "pairs/s")
}

// BenchmarkBuildScale100k measures generating the scale:100000 data set.
func BenchmarkBuildScale100k(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sb, err := New(Options{Data: "scale:100000", Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		sb.Close()
	}
}
