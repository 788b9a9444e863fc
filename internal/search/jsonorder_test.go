package search

import (
	"encoding/json"
	"strings"
	"testing"
)

// A document's key with a control character stays valid JSON when re-encoded in order
// (Go's quoting would write \a, which JSON does not have).
func TestOrderedJSONQuotesKeysAsJSON(t *testing.T) {
	v, err := decodeOrdered([]byte(`{"ok":1,"bell\u0007key":2}`))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	encodeOrdered(&b, v)
	if !json.Valid([]byte(b.String())) {
		t.Fatalf("not JSON: %s", b.String())
	}
}
