package sandbox

import (
	"net/http"
	"time"

	"github.com/svcui/svcui/internal/sandbox/opensearch"
)

// newSearchEngine makes the OpenSearch emulation of one service.
func newSearchEngine(name string, now func() time.Time, nodes int) searchEngine {
	return opensearch.New(opensearch.Options{Name: name, Clock: now, Nodes: nodes})
}

// authWrapper guards the engine with basic auth against the service's users.
func authWrapper(next http.Handler, check func(user, password string) bool) http.Handler {
	return opensearch.BasicAuth(next, check)
}
