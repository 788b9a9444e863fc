package config

import (
	"context"
	"flag"
	"strings"
	"testing"
	"time"
)

// twoProfiles is a file config with a default profile (work) and a second one (lab).
func twoProfiles() *Config {
	return &Config{
		DefaultProfile: "work",
		Refresh:        Duration(30 * time.Second),
		Theme:          "light",
		Clipboard:      "native",
		Keys:           map[string][]string{"quit": {"Q"}},
		Profiles: map[string]Profile{
			"work": {APIURL: "https://work.example.net/", Token: "work-token", DefaultProject: "payments", AccountID: "acc1"},
			"lab":  {APIURL: "http://127.0.0.1:8080", Token: "lab-token", ReadOnly: true},
		},
	}
}

func TestResolvePrecedence(t *testing.T) {
	cases := []struct {
		name  string
		flags Flags
		env   map[string]string
		file  *Config
		check func(t *testing.T, s Settings)
	}{
		{"defaults with nothing at all", Flags{}, nil, nil, func(t *testing.T, s Settings) {
			want := Settings{ProfileName: "default", Refresh: 10 * time.Second, Theme: "auto", Clipboard: "auto"}
			if s.String() != want.String() {
				t.Errorf("got  %s\nwant %s", s, want)
			}
			if s.APIURL != "" || s.Configured() {
				t.Error("no API URL may be invented: the UI must show the welcome screen")
			}
		}},
		{"file gives everything", Flags{}, nil, twoProfiles(), func(t *testing.T, s Settings) {
			if s.ProfileName != "work" || !s.ProfileFound || s.APIURL != "https://work.example.net" ||
				s.Token != "work-token" || s.TokenSource != TokenFromProfile || s.DefaultProject != "payments" ||
				s.AccountID != "acc1" || s.Refresh != 30*time.Second || s.Theme != "light" || s.Clipboard != "native" ||
				s.Keys["quit"][0] != "Q" || s.ReadOnly || !s.Configured() {
				t.Errorf("got %s", s)
			}
		}},
		{"env overrides file", Flags{}, map[string]string{
			"SVCUI_PROFILE": "lab", "SVCUI_API_URL": "https://env.example.net", "SVCUI_TOKEN": " env-token\n",
			"SVCUI_CLIPBOARD": "off", "NO_COLOR": "1",
		}, twoProfiles(), func(t *testing.T, s Settings) {
			if s.ProfileName != "lab" || s.APIURL != "https://env.example.net" || s.Token != "env-token" ||
				s.TokenSource != TokenFromEnv || s.Clipboard != "off" || !s.NoColor || !s.ReadOnly {
				t.Errorf("got %s", s)
			}
		}},
		{"flags override env and file", Flags{Profile: "work", APIURL: "https://flag.example.net", Theme: "dark", Refresh: 5 * time.Second},
			map[string]string{"SVCUI_PROFILE": "lab", "SVCUI_API_URL": "https://env.example.net"}, twoProfiles(),
			func(t *testing.T, s Settings) {
				if s.ProfileName != "work" || s.APIURL != "https://flag.example.net" || s.Theme != "dark" || s.Refresh != 5*time.Second {
					t.Errorf("got %s", s)
				}
			}},
		{"read-only from the flag", Flags{ReadOnly: true}, nil, twoProfiles(), func(t *testing.T, s Settings) {
			if !s.ReadOnly {
				t.Error("--read-only ignored")
			}
		}},
		{"a false read-only flag cannot loosen a read-only profile", func() Flags {
			f := Flags{Profile: "lab"}
			f.MarkSet(FlagReadOnly)
			return f
		}(), nil, twoProfiles(), func(t *testing.T, s Settings) {
			if !s.ReadOnly {
				t.Error("profile read_only lost")
			}
		}},
		{"empty NO_COLOR does not count", Flags{}, map[string]string{"NO_COLOR": ""}, nil, func(t *testing.T, s Settings) {
			if s.NoColor {
				t.Error("NO_COLOR= (empty) must not disable colour")
			}
		}},
		{"only profile is chosen without a default", Flags{}, nil, &Config{Profiles: map[string]Profile{"solo": {APIURL: "https://h"}}},
			func(t *testing.T, s Settings) {
				if s.ProfileName != "solo" || s.APIURL != "https://h" || s.Token != "" || s.Configured() {
					t.Errorf("got %s", s)
				}
			}},
		{"profile named default wins among several", Flags{}, nil, &Config{Profiles: map[string]Profile{"default": {APIURL: "https://d"}, "b": {}}},
			func(t *testing.T, s Settings) {
				if s.ProfileName != "default" || s.APIURL != "https://d" {
					t.Errorf("got %s", s)
				}
			}},
		{"first run: a named profile that does not exist yet", Flags{Profile: "new"}, nil, nil, func(t *testing.T, s Settings) {
			if s.ProfileName != "new" || s.ProfileFound {
				t.Errorf("got %s", s)
			}
		}},
		{"debug logs to the default file under XDG_STATE_HOME", Flags{Debug: true}, map[string]string{"XDG_STATE_HOME": "/st"}, nil,
			func(t *testing.T, s Settings) {
				if !s.Debug || s.LogFile != "/st/svcui/svcui.log" {
					t.Errorf("got %s", s)
				}
			}},
		{"log-file flag wins", Flags{Debug: true, LogFile: "/tmp/x.log"}, nil, nil, func(t *testing.T, s Settings) {
			if s.LogFile != "/tmp/x.log" {
				t.Errorf("got %s", s)
			}
		}},
		{"no log without debug or log-file", Flags{}, nil, nil, func(t *testing.T, s Settings) {
			if s.LogFile != "" || s.Debug {
				t.Errorf("got %s", s)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Resolve(tc.flags, MapEnv(tc.env), tc.file)
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, s)
		})
	}
}

func TestResolveErrors(t *testing.T) {
	explicitZeroRefresh := Flags{}
	explicitZeroRefresh.MarkSet(FlagRefresh)
	cases := []struct {
		name  string
		flags Flags
		env   map[string]string
		file  *Config
		want  string
	}{
		{"unknown profile from flag", Flags{Profile: "prdo"}, nil, twoProfiles(), `profile "prdo" (from --profile) is not defined in the config file (defined: lab, work)`},
		{"unknown profile from env", Flags{}, map[string]string{"SVCUI_PROFILE": "x"}, twoProfiles(), "from SVCUI_PROFILE"},
		{"several profiles and none chosen", Flags{}, nil, &Config{Profiles: map[string]Profile{"a": {}, "b": {}}}, "none is chosen"},
		{"bad api-url flag", Flags{APIURL: "api.example.net"}, nil, nil, "--api-url must start with http"},
		{"bad SVCUI_API_URL", Flags{}, map[string]string{"SVCUI_API_URL": "https://u:p@h"}, nil, "SVCUI_API_URL must not contain a user"},
		{"bad theme flag", Flags{Theme: "solarized"}, nil, nil, `--theme "solarized" is not one of auto, dark, light`},
		{"refresh flag too small", Flags{Refresh: 100 * time.Millisecond}, nil, nil, "--refresh 100ms is below the minimum of 1s"},
		{"refresh flag given as zero", explicitZeroRefresh, nil, nil, "--refresh 0s is below the minimum"},
		{"bad SVCUI_CLIPBOARD", Flags{}, map[string]string{"SVCUI_CLIPBOARD": "pbcopy"}, nil, `SVCUI_CLIPBOARD "pbcopy" is not one of auto, native, osc52, off`},
		{"failing token_command", Flags{}, nil, &Config{Profiles: map[string]Profile{"p": {TokenCommand: "echo nope >&2; exit 4"}}},
			`profile "p": token_command failed (exit status 4): nope`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			requireShell(t)
			_, err := Resolve(tc.flags, MapEnv(tc.env), tc.file)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestResolveTokenSources(t *testing.T) {
	requireShell(t)
	file := &Config{Profiles: map[string]Profile{"p": {APIURL: "https://h", TokenCommand: "printf 'cmd-token\\n'"}}}

	s, err := Resolve(Flags{}, nil, file)
	if err != nil || s.Token != "cmd-token" || s.TokenSource != TokenFromCommand {
		t.Fatalf("token_command: %s, %v", s, err)
	}
	// The environment wins, and the command is not even run.
	file.Profiles["p"] = Profile{TokenCommand: "exit 1"}
	s, err = Resolve(Flags{}, MapEnv(map[string]string{"SVCUI_TOKEN": "env-token"}), file)
	if err != nil || s.Token != "env-token" || s.TokenSource != TokenFromEnv {
		t.Fatalf("env over token_command: %s, %v", s, err)
	}
}

func TestFlagsCaptureTracksGivenFlags(t *testing.T) {
	var f Flags
	fs := flag.NewFlagSet("svcui", flag.ContinueOnError)
	f.Register(fs)
	if err := fs.Parse([]string{"--theme", "dark", "--refresh", "0s", "--read-only"}); err != nil {
		t.Fatal(err)
	}
	f.Capture(fs)
	for name, want := range map[string]bool{FlagTheme: true, FlagRefresh: true, FlagReadOnly: true, FlagProfile: false, FlagAPIURL: false, FlagDebug: false, FlagLogFile: false} {
		if f.IsSet(name) != want {
			t.Errorf("IsSet(%q) = %v, want %v", name, f.IsSet(name), want)
		}
	}
	// --refresh 0s was given explicitly: it must be refused, not silently replaced by the default.
	if _, err := Resolve(f, nil, nil); err == nil || !strings.Contains(err.Error(), "--refresh") {
		t.Errorf("explicit --refresh 0s: err = %v", err)
	}
}

func TestSearchInsecureComesFromTheProfileOnly(t *testing.T) {
	cfg, err := Parse([]byte("profiles:\n  lab:\n    api_url: https://api.example.net\n    token: t\n    search_insecure_skip_verify: true\n  work:\n    api_url: https://api.example.net\n    token: t\n"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Resolve(Flags{Profile: "lab"}, MapEnv(nil), cfg)
	if err != nil || !s.SearchInsecure {
		t.Fatalf("lab: %v %v", s.SearchInsecure, err)
	}
	s, err = Resolve(Flags{Profile: "work"}, MapEnv(nil), cfg)
	if err != nil || s.SearchInsecure {
		t.Fatalf("work: %v %v", s.SearchInsecure, err)
	}
}

// Resolve is ResolveContext without a deadline, for tests. It merges flags, environment and file (nil for none) with the precedence
// flags > environment > config file > defaults, and fetches the token, running the
// profile's token_command when that is where the token comes from.
func Resolve(flags Flags, getenv Getenv, file *Config) (Settings, error) {
	return ResolveContext(context.Background(), flags, getenv, file)
}
