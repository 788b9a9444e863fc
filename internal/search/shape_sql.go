package search

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"

	"github.com/svcui/svcui/internal/jsonval"
)

// Table is a plain result table (SQL answers).
type Table struct {
	Columns []string
	// Types are the column types from the SQL schema ("keyword", "long", ...); may be empty.
	Types []string
	Rows  [][]string
	// Total is the engine's "total" when given.
	Total *int64
	// Text is the answer verbatim when it was text (format=csv or raw); shown as is.
	Text string
}

// ShapeSQL reads an SQL plugin answer. The jdbc format (schema + datarows) becomes a
// typed table. A text answer (csv, raw) is passed through in Text; CSV with a header
// line is also split into columns and rows when it parses.
func ShapeSQL(body []byte) (*Table, error) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		return shapeJDBC(trimmed)
	}
	t := &Table{Text: string(body)}
	if len(trimmed) == 0 {
		return t, nil
	}
	r := csv.NewReader(bytes.NewReader(trimmed))
	r.FieldsPerRecord = -1
	var records [][]string
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return t, nil // not CSV: the text alone is the answer
		}
		records = append(records, rec)
	}
	if len(records) > 0 && len(records[0]) > 1 {
		t.Columns = records[0]
		for _, rec := range records[1:] {
			row := make([]string, len(t.Columns))
			copy(row, rec)
			t.Rows = append(t.Rows, row)
		}
	}
	return t, nil
}

func shapeJDBC(body []byte) (*Table, error) {
	v, err := jsonval.Decode(body)
	if err != nil {
		return nil, fmt.Errorf("SQL answer is not JSON: %v", err)
	}
	top := v.(*jsonval.Object)
	schemaV, hasSchema := top.Get("schema")
	if !hasSchema {
		if _, isErr := top.Get("error"); isErr {
			return nil, ShapeError(statusOf(top), body)
		}
		return nil, errors.New("SQL answer has no schema")
	}
	t := &Table{}
	schema, _ := schemaV.([]any)
	for _, c := range schema {
		co, _ := c.(*jsonval.Object)
		name, _ := co.Get("name")
		if alias, ok := co.Get("alias"); ok && alias != nil {
			name = alias
		}
		typ, _ := co.Get("type")
		t.Columns = append(t.Columns, textOrEmpty(name))
		t.Types = append(t.Types, textOrEmpty(typ))
	}
	rowsV, _ := top.Get("datarows")
	rows, _ := rowsV.([]any)
	for _, r := range rows {
		cells, _ := r.([]any)
		row := make([]string, len(t.Columns))
		for i, c := range cells {
			if i >= len(row) {
				break
			}
			row[i] = cellText(c)
		}
		t.Rows = append(t.Rows, row)
	}
	if tot, ok := top.Get("total"); ok {
		if n, ok := jsonval.Int64(tot); ok {
			t.Total = &n
		}
	}
	return t, nil
}

func textOrEmpty(v any) string {
	if v == nil {
		return ""
	}
	return cellText(v)
}

func statusOf(o *jsonval.Object) int {
	if s, ok := o.Get("status"); ok {
		if n, ok := jsonval.Int64(s); ok {
			return int(n)
		}
	}
	return 400
}
