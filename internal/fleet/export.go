// Package fleet holds what fleet operations keep outside the screen: a table written
// as CSV or JSON, a plan kept on disk while it is applied (so an interrupted one can be
// resumed), and a plan saved as a runbook. Nothing here knows the UI.
package fleet

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Table is what an export writes: the column titles and the rows' plain cells.
type Table struct {
	Titles []string
	Rows   [][]string
}

// EncodeCSV is the table as CSV, a header line first.
func EncodeCSV(t Table) ([]byte, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.Write(t.Titles); err != nil {
		return nil, err
	}
	for _, r := range t.Rows {
		if err := w.Write(guardFormula(r)); err != nil {
			return nil, err
		}
	}
	w.Flush()
	return b.Bytes(), w.Error()
}

// guardFormula keeps a spreadsheet from running a cell as a formula: platform text that
// starts with = + - @ gets a leading apostrophe (OWASP's CSV injection advice).
func guardFormula(r []string) []string {
	out := r
	for i, c := range r {
		if c != "" && strings.ContainsRune("=+-@\t\r", rune(c[0])) && !isNumber(c) {
			if &out[0] == &r[0] {
				out = append([]string(nil), r...)
			}
			out[i] = "'" + c
		}
	}
	return out
}

func isNumber(s string) bool {
	var f float64
	_, err := fmt.Sscan(s, &f)
	return err == nil
}

// EncodeJSON is the table as a JSON array of objects keyed by column title.
func EncodeJSON(t Table) ([]byte, error) {
	out := make([]map[string]string, len(t.Rows))
	for i, r := range t.Rows {
		m := make(map[string]string, len(t.Titles))
		for c, title := range t.Titles {
			key := title
			if key == "" {
				key = fmt.Sprintf("column%d", c+1)
			}
			if c < len(r) {
				m[key] = r[c]
			}
		}
		out[i] = m
	}
	b, err := json.MarshalIndent(out, "", "  ")
	return append(b, '\n'), err
}

// WritePrivate writes data to path with mode 0600, whether or not the file existed
// (a new file in the same directory renamed over it, so a failure leaves the old one).
func WritePrivate(path string, data []byte) error {
	path = ExpandHome(path)
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := firstErr(werr, cerr, os.Chmod(tmp, 0o600)); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return nil
}

// ExpandHome reads a leading ~/ as the home directory, as a shell would.
func ExpandHome(path string) string {
	if rest, ok := strings.CutPrefix(path, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return path
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
