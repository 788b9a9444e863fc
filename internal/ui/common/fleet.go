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
