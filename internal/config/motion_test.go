package config

import (
	"strings"
	"testing"
)

// motion: false in the file and --no-motion both stop motion; the flag cannot turn it on
// again (there is no such flag), and a value that is not a boolean is an error with its line.
func TestMotionSetting(t *testing.T) {
	for _, c := range []struct {
		yaml  string
		flags Flags
		want  bool
	}{
		{"", Flags{}, false},
		{"motion: true\n", Flags{}, false},
		{"motion: false\n", Flags{}, true},
		{"", Flags{NoMotion: true}, true},
		{"motion: true\n", Flags{NoMotion: true}, true},
	} {
		cfg, err := Parse([]byte(c.yaml))
		if err != nil {
			t.Fatalf("%q: %v", c.yaml, err)
		}
		s, err := Resolve(c.flags, func(string) string { return "" }, cfg)
		if err != nil || s.NoMotion != c.want {
			t.Errorf("%q %+v: no motion %t, want %t (%v)", c.yaml, c.flags.NoMotion, s.NoMotion, c.want, err)
		}
	}
	if _, err := Parse([]byte("motion: slow\n")); err == nil || !strings.Contains(err.Error(), "line 1: expected true or false") {
		t.Fatalf("motion: slow: %v", err)
	}
}
