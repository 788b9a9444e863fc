package search

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// demoIndex and demoTimeField are the index and time field the templates are written
// for; TemplatesFor puts the chosen index and its time field in their place.
const (
	demoIndex     = "logs-app"
	demoTimeField = "@timestamp"
)

// preferredTimeFields are tried first, in order, when an index has several date fields.
var preferredTimeFields = [...]string{"@timestamp", "timestamp", "time"}

// TimeField is the time field of the indices pattern names: the first date field among
// @timestamp, timestamp and time, else the first date field by name; "" when none.
func TimeField(m Mapping, pattern string) string {
	var dates []string
	for _, f := range FieldsFor(m, pattern) {
		if f.Type == "date" || f.Type == "date_nanos" {
			dates = append(dates, f.Path)
		}
	}
	for _, want := range preferredTimeFields {
		for _, d := range dates {
			if d == want {
				return d
			}
		}
	}
	if len(dates) > 0 {
		return dates[0]
	}
	return ""
}

// TemplatesFor is Templates for an index: the searches, counts and aggregations read
// index and sort or bucket on timeField. With no time field the templates that need
// one say so in their description. An empty index keeps the demo's.
func TemplatesFor(index, timeField string) []Template {
	tpls := Templates()
	if index == "" || index == demoIndex && timeField == demoTimeField {
		return tpls
	}
	for i, t := range tpls {
		if !strings.Contains(t.Text, demoIndex) {
			continue // writes to the demo's archive indices, cluster-wide requests
		}
		// In a path the name is one escaped segment; elsewhere (JSON strings, SQL in one) escaped as JSON.
		t.Text = strings.ReplaceAll(t.Text, "/"+demoIndex+"/", "/"+PathName(index)+"/")
		t.Text = strings.ReplaceAll(t.Text, demoIndex, JSONInner(index))
		if strings.Contains(t.Text, `"`+demoTimeField+`"`) {
			if timeField == "" {
				t.Description += " (" + index + " has no date field: pick an index with one)"
			} else {
				t.Text = strings.ReplaceAll(t.Text, `"`+demoTimeField+`"`, JSONQuote(timeField))
			}
		}
		tpls[i] = t
	}
	return tpls
}

// timeFieldsFile keeps the time field a person picked per index pattern.
const timeFieldsFile = "timefields.json"

type timeFieldsDoc struct {
	Version  int               `json:"version"`
	Patterns map[string]string `json:"patterns"`
}

// LoadTimeFields returns the time fields picked per index pattern (an empty map when
// none were; a damaged file is no choice, not an error).
func LoadTimeFields(stateDir string) (map[string]string, error) {
	out := map[string]string{}
	if strings.TrimSpace(stateDir) == "" {
		return out, errors.New("time fields: no state directory was given")
	}
	data, err := readState(filepath.Join(stateDir, stateSubdir, timeFieldsFile))
	if errors.Is(err, os.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, fmt.Errorf("time fields: %w", err)
	}
	var doc timeFieldsDoc
	if json.Unmarshal(data, &doc) == nil && doc.Patterns != nil {
		out = doc.Patterns
	}
	return out, nil
}

// SaveTimeField remembers field as pattern's time field ("" forgets the choice).
func SaveTimeField(stateDir, pattern, field string) error {
	if strings.TrimSpace(pattern) == "" {
		return errors.New("time field: no index pattern to remember it for")
	}
	all, err := LoadTimeFields(stateDir)
	if err != nil {
		return err
	}
	if field == "" {
		delete(all, pattern)
	} else {
		all[pattern] = field
	}
	data, err := json.Marshal(timeFieldsDoc{Version: stateVersion, Patterns: all})
	if err != nil {
		return fmt.Errorf("time field: %w", err)
	}
	if err := writeBytesAtomic(filepath.Join(stateDir, stateSubdir, timeFieldsFile), data); err != nil {
		return fmt.Errorf("time field: %w", err)
	}
	return nil
}

// DateFields are the date fields of the indices pattern names, by name.
func DateFields(m Mapping, pattern string) []string {
	var out []string
	for _, f := range FieldsFor(m, pattern) {
		if f.Type == "date" || f.Type == "date_nanos" {
			out = append(out, f.Path)
		}
	}
	return out
}
