package sandbox

import (
	"net/http"
	"time"
)

// TEMPORARY until package opensearch builds: replaced by the real engine.
type pendingEngine struct{}

func (pendingEngine) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "search engine not built yet", http.StatusNotImplemented)
	})
}
func (pendingEngine) Export() ([]byte, error) { return []byte("{}"), nil }
func (pendingEngine) Import([]byte) error     { return nil }
func (pendingEngine) LoadDemo(int64) error    { return nil }

func newSearchEngine(name string, now func() time.Time) searchEngine { return pendingEngine{} }

func authWrapper(next http.Handler, check func(user, password string) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, p, ok := r.BasicAuth()
		if !ok || !check(u, p) {
			w.Header().Set("WWW-Authenticate", `Basic realm="OpenSearch Security"`)
			http.Error(w, "Unauthorized", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}
