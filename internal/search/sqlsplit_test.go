package search

import (
	"strings"
	"testing"
)

func TestSplitSQLAtSemicolonsAndBlankLines(t *testing.T) {
	for text, want := range map[string]string{
		"SELECT 1":                              "SELECT 1",
		"SELECT 1;":                             "SELECT 1",
		"SELECT 1; SELECT 2;\n":                 "SELECT 1|SELECT 2",
		"SELECT *\nFROM logs-app\n\nSELECT 2\n": "SELECT *\nFROM logs-app|SELECT 2",
		"SELECT 'a;b' FROM x;\n  \n\nSELECT \"c\n\nd\"": "SELECT 'a;b' FROM x|SELECT \"c\n\nd\"",
		" ;\n\n;": "",
	} {
		if got := strings.Join(SplitSQL(text), "|"); got != want {
			t.Errorf("SplitSQL(%q) = %q, want %q", text, got, want)
		}
	}
}
