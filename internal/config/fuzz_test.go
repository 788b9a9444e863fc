package config

import (
	"errors"
	"strings"
	"testing"
)

// FuzzLoad feeds arbitrary bytes to the loader: it must never panic, and whatever it accepts
// must survive SaveProfile's rewrite and load again with the other settings intact.
func FuzzLoad(f *testing.F) {
	for _, seed := range []string{
		fullExample,
		"",
		"# comment only\n",
		"profile: a\nprofiles:\n  a: {api_url: 'https://h'}\n",
		"profiles:\n  a:\n    api_url: [\n",
		"refresh: 1m\ntheme: light\nclipboard: off\n",
		"keys: {quit: [q], help: ['?']}\n",
		"a: &x [*x]\n",
		"profiles: {}\n",
		"- 1\n- 2\n",
		"profile: ~\nprofiles: ~\n",
		"theme: dark\n---\ntheme: light\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse(data)
		if err != nil {
			if cfg != nil {
				t.Fatal("a config returned together with an error")
			}
			return
		}
		out, err := withProfile(data, "fuzz", Profile{APIURL: "https://fuzz.example.net", Token: "t"})
		if errors.Is(err, errUsesAnchors) {
			return // refused on purpose rather than risk breaking an alias
		}
		if err != nil {
			t.Fatalf("accepted config could not be edited: %v\n%q", err, data)
		}
		again, err := Parse(out)
		if err != nil {
			t.Fatalf("edited config does not load: %v\ninput %q\noutput %q", err, data, out)
		}
		if again.Theme != cfg.Theme || again.Clipboard != cfg.Clipboard || again.Refresh != cfg.Refresh {
			t.Fatalf("settings changed by the edit:\ninput %q\noutput %q", data, out)
		}
		for name := range cfg.Profiles {
			if name != "fuzz" && again.Profiles[name] != cfg.Profiles[name] {
				t.Fatalf("profile %q changed by the edit:\ninput %q\noutput %q", name, data, out)
			}
		}
		if got := again.Profiles["fuzz"]; got.APIURL != "https://fuzz.example.net" {
			t.Fatalf("saved profile missing: %q", out)
		}
		if cfg.DefaultProfile != "" && again.DefaultProfile != cfg.DefaultProfile && !strings.Contains(string(data), "fuzz") {
			t.Fatalf("default profile changed from %q to %q", cfg.DefaultProfile, again.DefaultProfile)
		}
	})
}
