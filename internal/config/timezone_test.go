package config

import (
	"strings"
	"testing"
)

func TestTimeZoneSetting(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{{"", "UTC"}, {"time_zone: local\n", "local"}, {"time_zone: UTC\n", "UTC"}} {
		cfg, err := Parse([]byte(c.yaml))
		if err != nil {
			t.Fatalf("%q: %v", c.yaml, err)
		}
		s, err := Resolve(Flags{}, func(string) string { return "" }, cfg)
		if err != nil || s.TimeZone != c.want {
			t.Fatalf("%q: %q %v", c.yaml, s.TimeZone, err)
		}
	}
	if _, err := Parse([]byte("time_zone: Mars/Olympus\n")); err == nil || !strings.Contains(err.Error(), "UTC, local") {
		t.Fatalf("bad zone: %v", err)
	}
}
