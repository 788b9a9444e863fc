package search

import "strings"

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
		t.Text = strings.ReplaceAll(t.Text, demoIndex, index)
		if strings.Contains(t.Text, `"`+demoTimeField+`"`) {
			if timeField == "" {
				t.Description += " (" + index + " has no date field: pick an index with one)"
			} else {
				t.Text = strings.ReplaceAll(t.Text, `"`+demoTimeField+`"`, `"`+timeField+`"`)
			}
		}
		tpls[i] = t
	}
	return tpls
}
