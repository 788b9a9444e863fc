package search

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcui/svcui/internal/ui/common"
)

// :export on the Search tab writes the hits the results hold (every row, the columns
// shown), mode 0600, and says how many; with nothing run yet it says why nothing was
// written instead of doing nothing.
func TestExportWritesTheHitsOfTheResults(t *testing.T) {
	t.Parallel()
	p, _ := enginePane(t)
	file := filepath.Join(t.TempDir(), "hits.csv")
	_, msgs := deliver(t, p, p.export(common.Export{Format: common.ExportCSV, File: file}))
	if got := notes(msgs); !strings.Contains(got, "Nothing to export") {
		t.Fatalf("before a search: %q", got)
	}
	if _, err := os.Stat(file); err == nil {
		t.Fatal("a file was written with nothing to export")
	}
	runLine(t, p, "GET /logs-app/_search\n{\"size\": 25, \"query\": {\"match_all\": {}}}\n")
	p.setFocus(focusResults)
	_, msgs = deliver(t, p, p.export(common.Export{Format: common.ExportCSV, File: file}))
	if got := notes(msgs); !strings.Contains(got, "Exported 25 hits to "+file) {
		t.Fatalf("export said %q", got)
	}
	st, err := os.Stat(file)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("file: %v %v", st, err)
	}
	f, _ := os.Open(file)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) != 26 {
		t.Fatalf("%d rows (want a header and 25 hits): %v", len(rows), err)
	}
	if want := p.reader.res.table.Titles(); strings.Join(rows[0], ",") != strings.Join(want, ",") {
		t.Fatalf("header %q, want %q", rows[0], want)
	}
}
