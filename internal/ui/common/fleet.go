package common

// Unmark clears the marks of the focused table (":unmark").
type Unmark struct{}

// Export asks the focused table to write every row its filter shows to File (":export
// csv FILE", ":export json FILE").
type Export struct {
	Format ExportFormat
	File   string
}

// ExportFormat is what an export writes.
type ExportFormat string

const (
	ExportCSV  ExportFormat = "csv"
	ExportJSON ExportFormat = "json"
)

// Tabular is a view whose table :export and :unmark act on (a list, Search's results).
// The root answers those commands on any other view with a sentence, not silence.
type Tabular interface{ HoldsTable() }
