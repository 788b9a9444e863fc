package search

import (
	"testing"

	"github.com/svcui/svcui/internal/jsonval"
)

// A nested value in a cell reads as the engine wrote it: < > & stay themselves (encoding/json
// would show \u003c), numbers keep their digits, key order is the document's.
func TestCellTextShowsNestedValuesAsWritten(t *testing.T) {
	v, err := jsonval.Decode([]byte(`{"tags":[{"b":"<em>","a":1.50}],"plain":["x",2,true,null]}`))
	if err != nil {
		t.Fatal(err)
	}
	o := v.(*jsonval.Object)
	if got, want := cellText(o.Value("tags")), `[{"b":"<em>","a":1.50}]`; got != want {
		t.Errorf("nested cell %s, want %s", got, want)
	}
	if got, want := cellText(o.Value("plain")), "x, 2, true, null"; got != want {
		t.Errorf("scalar list cell %q, want %q", got, want)
	}
}
