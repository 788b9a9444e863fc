package config

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func writeConfig(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

const fullExample = `# svcui settings
profile: work
refresh: 30s
theme: dark
clipboard: osc52
keys:
  quit: [q, ctrl+q]
  refresh: []
profiles:
  work:
    api_url: https://api.example.net
    token_command: pass show platform/work | head -n1
    default_project: payments-prod
    account_id: a1b2c3
  lab:
    api_url: http://127.0.0.1:8080/
    token: svcv1-lab-token
    read_only: true
`

func TestLoadFullExample(t *testing.T) {
	cfg, err := Load(writeConfig(t, fullExample))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.DefaultProfile != "work" || cfg.Refresh.Std() != 30*time.Second || cfg.Theme != "dark" || cfg.Clipboard != "osc52" {
		t.Errorf("top-level settings: %+v", cfg)
	}
	if got := cfg.Keys["quit"]; len(got) != 2 || got[0] != "q" || got[1] != "ctrl+q" {
		t.Errorf("keys.quit = %q", got)
	}
	if got, ok := cfg.Keys["refresh"]; !ok || len(got) != 0 {
		t.Errorf("keys.refresh should be present and empty (unbound), got %q, %v", got, ok)
	}
	work := cfg.Profiles["work"]
	if work.APIURL != "https://api.example.net" || work.TokenCommand == "" || work.DefaultProject != "payments-prod" || work.AccountID != "a1b2c3" {
		t.Errorf("work profile: %+v", work.Redacted())
	}
	lab := cfg.Profiles["lab"]
	if !lab.ReadOnly || lab.Token != "svcv1-lab-token" {
		t.Errorf("lab profile: read_only=%v token set=%v", lab.ReadOnly, lab.Token != "")
	}
	if len(cfg.Warnings) != 0 {
		t.Errorf("unexpected warnings: %q", cfg.Warnings)
	}
}

func TestLoadMissingAndEmptyFiles(t *testing.T) {
	cfg, err := Load(filepath.Join(t.TempDir(), "nope", FileName))
	if err != nil || cfg == nil || len(cfg.Profiles) != 0 {
		t.Fatalf("missing file: cfg=%+v err=%v", cfg, err)
	}
	for _, content := range []string{"", "\n\n", "# only a comment\n", "---\n", "~\n"} {
		cfg, err := Load(writeConfig(t, content))
		if err != nil || cfg == nil || cfg.DefaultProfile != "" || len(cfg.Profiles) != 0 {
			t.Errorf("content %q: cfg=%+v err=%v", content, cfg, err)
		}
	}
}

func TestLoadErrorsNameLineAndKey(t *testing.T) {
	cases := []struct {
		name, content string
		want          []string // all must appear in the error
	}{
		{"syntax", "profile: a\nprofiles:\n  a:\n    api_url: [unclosed\n", []string{"line 4", FileName}},
		{"bad indentation", "profiles:\n  a:\n    api_url: https://h\n   token: x\n", []string{"line 4"}},
		{"unknown top-level key", "theme: dark\ncolour: red\n", []string{"line 2", `unknown key "colour"`, "known keys here: profile, profiles"}},
		{"unknown profile key", "profiles:\n  a:\n    api_url: https://h\n    apiurl: https://h\n", []string{"line 4", `unknown key "apiurl"`, "api_url, token"}},
		{"wrong type", "profiles:\n  a:\n    read_only: sometimes\n", []string{"line 3", "expected true or false"}},
		{"list where mapping", "profiles:\n  - a\n", []string{"line 2", "expected a mapping, found a list"}},
		{"top level not a mapping", "- a\n- b\n", []string{"line 1", "mapping of settings"}},
		{"duration without unit", "refresh: 10\n", []string{"line 1", `"10" is not a duration`}},
		{"refresh too short", "refresh: 200ms\n", []string{"line 1", "below the minimum of 1s"}},
		{"theme", "\ntheme: blue\n", []string{"line 2", `theme "blue" is not one of auto, dark, light`}},
		{"clipboard", "clipboard: xclip\n", []string{"line 1", "auto, native, osc52, off"}},
		{"api_url scheme", "profiles:\n  a:\n    api_url: ftp://h\n", []string{"line 3", `profile "a": api_url must start with http:// or https://`}},
		{"api_url relative", "profiles:\n  a:\n    api_url: api.example.net\n", []string{"line 3", "http://"}},
		{"api_url no host", "profiles:\n  a:\n    api_url: https://\n", []string{"line 3", "has no host"}},
		{"api_url query", "profiles:\n  a:\n    api_url: https://h/?x=1\n", []string{"line 3", "query"}},
		{"token and command", "profiles:\n  a:\n    token: t\n    token_command: echo t\n", []string{"line 4", "either token or token_command"}},
		{"empty profile name", "profiles:\n  \"\":\n    api_url: https://h\n", []string{"line 2", "profile name is empty"}},
		{"default profile undefined", "profile: prod\nprofiles:\n  dev: {}\n", []string{"line 1", `profile "prod" is not defined`, "defined: dev"}},
		{"empty key binding", "keys:\n  quit: [\"\"]\n", []string{"line 2", "empty key"}},
		{"key binding without a list, flow", "theme: dark\nkeys: {quit}\n", []string{"line 2", "keys.quit needs a list of keys, e.g. [q]"}},
		{"key binding without a list, numeric action", "keys: {0}\n", []string{"line 1", "keys.0 needs a list of keys"}},
		{"key binding without a list, block", "keys:\n  help: [h]\n  quit:\n", []string{"line 3", "keys.quit needs a list of keys", "[] to unbind"}},
		{"null key in a binding", "keys:\n  quit: [q, ~]\n", []string{"line 2", "keys.quit has an empty key"}},
		{"binding name with control characters", "keys: {\"\\e]0;x\": [q]}\n", []string{"line 1", "control characters"}},
		{"top-level merge", "theme: dark\n<<: {profile: x}\nprofiles: {x: {}}\n", []string{"line 2", "merge key (<<) cannot be used at the top level"}},
		{"alias as key", "profile: &k profiles\n*k : {profiles: {}}\n", []string{"line 2", "alias (*k) cannot be used as a key"}},
		{"duplicate key", "theme: dark\ntheme: light\n", []string{"line 2", "already defined"}},
		{"second document", "theme: dark\n---\ntheme: light\n", []string{"second YAML document"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(writeConfig(t, tc.content))
			if err == nil {
				t.Fatalf("no error for %q", tc.content)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestLoadReportsEveryProblemInLineOrder(t *testing.T) {
	_, err := Load(writeConfig(t, "theme: blue\nclipboard: nope\nrefresh: 1ms\n"))
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	i1, i2, i3 := strings.Index(msg, "line 1"), strings.Index(msg, "line 2"), strings.Index(msg, "line 3")
	if i1 < 0 || i2 < i1 || i3 < i2 {
		t.Errorf("want all three problems in line order, got %q", msg)
	}
}

func TestLoadErrorsNeverQuoteSecrets(t *testing.T) {
	cases := []string{
		"profiles:\n  a:\n    api_url: https://user:hunter2secret@h\n",
		"profiles:\n  a:\n    api_url: \"https://h/%zz?hunter2secret\"\n",
		"profiles:\n  a:\n    token: \"hunter2secret with space\"\n",
		"profiles:\n  a:\n    token: hunter2secret\n    token_command: echo hunter2secret\n",
	}
	for _, c := range cases {
		_, err := Load(writeConfig(t, c))
		if err == nil {
			t.Fatalf("no error for %q", c)
		}
		if strings.Contains(err.Error(), "hunter2secret") {
			t.Errorf("error quotes a secret: %q", err)
		}
	}
}

func TestLoadWarnsWhenOthersCanRead(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("file modes do not apply")
	}
	path := writeConfig(t, "theme: dark\n")
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0], "chmod 600") {
		t.Errorf("warnings = %q", cfg.Warnings)
	}
}

func TestLoadRejectsDirectoryAndHugeFile(t *testing.T) {
	if _, err := Load(t.TempDir()); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("directory: err = %v", err)
	}
	huge := "# " + strings.Repeat("x", maxFileSize) + "\n"
	if _, err := Load(writeConfig(t, huge)); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("huge file: err = %v", err)
	}
}

func TestLoadDefaultPathFollowsEnvironment(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("SVCUI_CONFIG_DIR", dir)
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte("theme: light\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load("")
	if err != nil || cfg.Theme != "light" {
		t.Fatalf("cfg=%+v err=%v", cfg, err)
	}
}

func TestLoadKeepsWhatYAMLSharingMeans(t *testing.T) {
	cfg, err := Load(writeConfig(t, "keys:\n  help: &h ['?', f1]\n  palette: *h\n  refresh: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Keys["palette"]; len(got) != 2 || got[1] != "f1" {
		t.Errorf("keys.palette through an alias = %q", got)
	}
	if got, ok := cfg.Keys["refresh"]; !ok || got == nil || len(got) != 0 {
		t.Errorf("keys.refresh: [] must stay present and empty (unbound), got %#v", got)
	}
}
