package sandbox

import (
	"net/url"
	"path/filepath"
	"strings"
	"testing"
)

// answerStrings walks every read of the API as the given token and returns each string
// (values and object keys) the answers carry, decoded.
func answerStrings(t *testing.T, e *env, token string) map[string]bool {
	t.Helper()
	seen := map[string]bool{}
	var collect func(v any)
	collect = func(v any) {
		switch x := v.(type) {
		case string:
			seen[x] = true
		case []any:
			for _, y := range x {
				collect(y)
			}
		case map[string]any:
			for k, y := range x {
				seen[k] = true
				collect(y)
			}
		}
	}
	read := func(path string) map[string]any {
		r := e.do("GET", path, token, nil)
		expectStatus(t, r, 200)
		m := r.json(t)
		collect(m)
		return m
	}
	read("/v1/clouds")
	read("/v1/service_types")
	acct := "/v1/account/" + e.sb.AccountID()
	read(acct + "/credits")
	for _, g := range read(acct + "/billing-group")["billing_groups"].([]any) {
		id := g.(map[string]any)["billing_group_id"].(string)
		read("/v1/billing-group/" + id)
		read("/v1/billing-group/" + id + "/invoice")
	}
	for _, p := range read("/v1/project")["projects"].([]any) {
		pp := "/v1/project/" + url.PathEscape(p.(map[string]any)["project_name"].(string))
		read(pp)
		read(pp + "/estimate")
		for _, sv := range read(pp + "/service")["services"].([]any) {
			m := sv.(map[string]any)
			sp := pp + "/service/" + url.PathEscape(m["service_name"].(string))
			read(sp)
			read(sp + "/user")
			read(sp + "/connection_info")
			switch m["service_type"] {
			case "kafka":
				read(sp + "/topic")
				read(sp + "/acl")
			case "pg", "mysql":
				read(sp + "/database")
			}
		}
	}
	return seen
}

func TestHostileDataCarriesEveryText(t *testing.T) {
	e := newEnv(t, Options{Data: "hostile"})
	seen := answerStrings(t, e, e.sb.AdminToken())
	for s := range answerStrings(t, e, e.sb.DeveloperToken()) {
		seen[s] = true
	}
	r := e.admin("POST", "/v1/project/hostile-lab/service/pg-hostile/user", map[string]any{"username": "evil_one"})
	expectStatus(t, r, 400)
	seen[r.message(t)] = true
	for _, h := range HostileTexts {
		if !seen[h.Text] {
			t.Errorf("%s: %q is in no answer", h.Where, h.Text)
		}
	}
	// Only creates named evil… are refused.
	expectStatus(t, e.admin("POST", "/v1/project/hostile-lab/service/pg-hostile/user", map[string]any{"username": "fine_one"}), 200)
	// Every kind of control the sanitizer must handle is present somewhere.
	all := ""
	for _, h := range HostileTexts {
		all += h.Text
	}
	for _, c := range []string{"\x00", "\b", "\t", "\n", "\x0b", "\x0c", "\r", "\x0e", "\x0f", "\x07", "\x1b[", "\x1b]", "\x1bP", "\x1b\\", "\x1b(", "\x7f", "\u0080", "\u0085", "\u0090", "\u009b", "\u009c", "\u009d"} {
		if !strings.Contains(all, c) {
			t.Errorf("no hostile text holds %q", c)
		}
	}
}

// The demo data is untouched by the hostile set: no answer holds a control character.
func TestDemoDataHasNoControls(t *testing.T) {
	e := newEnv(t, Options{})
	for s := range answerStrings(t, e, e.sb.AdminToken()) {
		if strings.ContainsFunc(s, func(r rune) bool { return (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) }) {
			t.Errorf("demo answer text %q holds a control character", s)
		}
	}
	// Names beginning with evil are refused only in the hostile set.
	expectStatus(t, e.admin("POST", "/v1/project/acme-prod/service/pg-main/user", map[string]any{"username": "evil_one"}), 200)
}

// The hostile set survives a restart from its state file (catalogue, topic states, refusals).
func TestHostileDataSurvivesStateFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	sb, err := New(Options{Data: "hostile", StateFile: path, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := sb.Close(); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, Options{StateFile: path})
	seen := answerStrings(t, e, e.sb.AdminToken())
	for _, want := range []string{HostileCloudDesc, HostileTopicState, HostileServiceState} {
		if !seen[want] {
			t.Errorf("%q lost in the state file", want)
		}
	}
	expectError(t, e.admin("POST", "/v1/project", map[string]any{"project": "evil-again"}), 400, HostileRefusal)
}
