package config

import (
	"errors"
	"reflect"
	"testing"
)

// FuzzLoad feeds arbitrary bytes to the loader: it must never panic, and whatever it accepts
// must survive SaveProfile's rewrite (under any valid profile name) and load again to the
// same settings, apart from the profile saved and a default profile the file lacked.
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
		"{theme: dark, refresh: 20s, clipboard: off, keys: {quit: [q, ctrl+c], help: []}, profiles: {a: {read_only: true, token: x}}}\n",
		"profiles:\n  base: &b {api_url: 'http://h', read_only: true}\n  b2: {<<: *b, token: x}\n  b3: {<<: [*b], read_only: false}\n",
		"keys:\n  quit:\n    - q\n  help: &h ['?']\n  palette: *h\nprofiles:\n  a: &p\n    api_url: http://h\n  b:\n    <<: *p\n",
	} {
		f.Add([]byte(seed), "fuzz")
	}
	f.Fuzz(func(t *testing.T, data []byte, name string) {
		cfg, err := Parse(data)
		if err != nil {
			if cfg != nil {
				t.Fatal("a config returned together with an error")
			}
			return
		}
		if validateProfileName(name) != nil {
			return // SaveProfile refuses it before touching the file
		}
		saved := Profile{APIURL: "https://fuzz.example.net", Token: "t"}
		out, err := withProfile(data, name, saved)
		if errors.Is(err, errUsesAnchors) {
			return // refused on purpose rather than risk breaking an alias
		}
		if err != nil {
			t.Fatalf("accepted config could not be edited: %v\ninput %q", err, data)
		}
		again, err := Parse(out)
		if err != nil {
			t.Fatalf("edited config does not load: %v\ninput %q\noutput %q", err, data, out)
		}
		if diff := roundTripDiff(cfg, again, name, saved); diff != "" {
			t.Fatalf("%s changed by saving profile %q:\ninput  %q\noutput %q", diff, name, data, out)
		}
	})
}

// roundTripDiff names the first setting that differs between before and after saving
// profile p under name, or returns "".
func roundTripDiff(before, after *Config, name string, p Profile) string {
	if after.Profiles[name] != p {
		return "the saved profile"
	}
	wantDefault := before.DefaultProfile
	if wantDefault == "" {
		wantDefault = name
	}
	if after.DefaultProfile != wantDefault {
		return "the default profile"
	}
	for n, prof := range before.Profiles {
		if got, ok := after.Profiles[n]; n != name && (!ok || got != prof) {
			return "profile " + n
		}
	}
	if len(after.Profiles) != len(before.Profiles)+1 {
		if _, replaced := before.Profiles[name]; !replaced || len(after.Profiles) != len(before.Profiles) {
			return "the set of profiles"
		}
	}
	b, a := *before, *after
	b.DefaultProfile, a.DefaultProfile = "", ""
	b.Profiles, a.Profiles = nil, nil
	if !reflect.DeepEqual(b, a) {
		return "a setting"
	}
	return ""
}
