package opensearch

import (
	"strings"
	"testing"
)

// Gaps the official Python and JavaScript clients found (clients_contract_test.go), each
// following OpenSearch's own code or a REST story of opensearch-api-specification.

// A path no handler answers gets RestController.handleBadRequest's answer: 400 and the bare object
// {"error": "no handler found for uri [PATH] and method [METHOD]"}, the path without its query
// string, and no root_cause, type or status. Elasticsearch-only routes meet it, such as
// elasticsearch-py 7.17's open_point_in_time (POST /{index}/_pit); the client then raises
// RequestError whose error is that text. A known path with another method stays a 405 with the
// usual error object (handleUnsupportedHttpMethod).
func TestNoHandlerFoundIsBare(t *testing.T) {
	h := logsFixture(t)
	code, body := do(t, h, "POST", "/logs/_pit?keep_alive=1m", "")
	if code != 400 || strings.TrimSpace(string(body)) != `{"error":"no handler found for uri [/logs/_pit] and method [POST]"}` {
		t.Fatalf("no handler: %d %s", code, body)
	}
	code, m := doJSON(t, h, "DELETE", "/logs/_search", "")
	mustStatus(t, 405, code, m)
	if get(m, "error.type") != "illegal_argument_exception" || get(m, "status") != 405.0 {
		t.Fatalf("wrong method: %v", m)
	}
}
