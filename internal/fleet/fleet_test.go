package fleet

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/svcui/svcui/internal/models"
)

// A kept plan is 0600 in a 0700 directory of its profile, lists newest first, skips
// what is not a plan, and is gone once removed.
func TestPlansAreKeptPrivatelyPerProfile(t *testing.T) {
	state := t.TempDir()
	dir := Dir(state, "../prod")
	if filepath.Dir(dir) != filepath.Join(state, "plans") {
		t.Fatalf("a profile name leaves the plans directory: %s", dir)
	}
	old := Plan{ID: NewID(time.Unix(100, 0)), Title: "old", Rows: []Row{{Op: OpServiceUpdate, State: StateDone}}}
	newer := Plan{ID: NewID(time.Unix(200, 0)), Title: "new", Rows: []Row{{Op: OpServiceUpdate, State: StatePending}}}
	for _, p := range []Plan{old, newer} {
		if err := Save(dir, p); err != nil {
			t.Fatal(err)
		}
	}
	_ = os.WriteFile(filepath.Join(dir, "junk.json"), []byte("{"), 0o600)
	st, _ := os.Stat(filepath.Join(dir, newer.ID+".json"))
	dst, _ := os.Stat(dir)
	if st.Mode().Perm() != 0o600 || dst.Mode().Perm() != 0o700 {
		t.Fatalf("modes %v %v", st.Mode(), dst.Mode())
	}
	ps, skipped, err := List(dir)
	if err != nil || len(ps) != 2 || ps[0].Title != "new" || len(skipped) != 1 || ps[0].Left() != 1 || ps[1].Left() != 0 {
		t.Fatalf("%v %v %v", ps, skipped, err)
	}
	if err := Remove(dir, "../x"); err == nil {
		t.Fatal("an id with a path was accepted")
	}
	_ = Remove(dir, old.ID)
	if ps, _, _ := List(dir); len(ps) != 1 {
		t.Fatal(len(ps))
	}
}

// The runbook quotes what the platform named, reads the token from the environment,
// and its check is the same test as ServiceHas.
func TestRunbookQuotesAndChecks(t *testing.T) {
	u := models.UpdateServiceRequest{TerminationProtection: models.Ptr(true), Maintenance: &models.Maintenance{DOW: "sunday", Time: "03:00"},
		UserConfig: models.UserConfig{models.UCIPFilter: []any{"10.0.0.0/8"}}}
	p := Plan{ID: "x", Title: "it's $(rm -rf ~)", Noun: "service", Rows: []Row{
		{Op: OpServiceUpdate, Project: "p'q", Service: "s b", Update: &u, State: StatePending},
		{Op: OpServiceDelete, Project: "p", Service: "old", Skip: "protected\nrm -rf /", State: StateSkipped},
	}}
	sh := Runbook(p, "https://api.example")
	if !strings.Contains(sh, `'/v1/project/p%27q/service/s%20b'`) || !strings.Contains(sh, `'p'\''q/s b'`) || strings.Contains(sh, "\nrm -rf /") || !strings.Contains(sh, "# skipped p/old") {
		t.Fatalf("quoting:\n%s", sh)
	}
	if _, err := exec.LookPath("sh"); err == nil {
		if out, err := exec.Command("sh", "-n", "-c", sh).CombinedOutput(); err != nil {
			t.Fatalf("not a valid script: %v %s", err, out)
		}
	}
	have := models.Service{TerminationProtection: true, Maintenance: &models.Maintenance{DOW: "sunday", Time: "03:00:00"},
		UserConfig: models.UserConfig{models.UCIPFilter: []any{map[string]any{"network": "10.0.0.0/8"}}}}
	if !ServiceHas(have, u) {
		t.Fatal("ServiceHas")
	}
	have.Maintenance.DOW = "monday"
	if ServiceHas(have, u) {
		t.Fatal("ServiceHas ignores the day")
	}
	if _, err := exec.LookPath("jq"); err == nil {
		for _, c := range []struct {
			json string
			want bool
		}{
			{`{"service":{"termination_protection":true,"maintenance":{"dow":"sunday","time":"03:00:00"},"user_config":{"ip_filter":[{"network":"10.0.0.0/8"}]}}}`, true},
			{`{"service":{"termination_protection":true,"maintenance":{"dow":"monday","time":"03:00:00"},"user_config":{"ip_filter":["10.0.0.0/8"]}}}`, false},
		} {
			cmd := exec.Command("jq", "-e", RunbookCheck(u))
			cmd.Stdin = strings.NewReader(c.json)
			if err := cmd.Run(); (err == nil) != c.want {
				t.Fatalf("jq check on %s: %v", c.json, err)
			}
		}
	}
}

// A CSV export writes a cell a spreadsheet would run as text; JSON keys by column.
func TestExportEncodings(t *testing.T) {
	tb := Table{Titles: []string{"Name", ""}, Rows: [][]string{{"=HYPERLINK(\"x\")", "-3"}}}
	b, _ := EncodeCSV(tb)
	if string(b) != "Name,\n\"'=HYPERLINK(\"\"x\"\")\",-3\n" {
		t.Fatalf("%q", b)
	}
	j, _ := EncodeJSON(tb)
	if !strings.Contains(string(j), `"column2": "-3"`) {
		t.Fatalf("%s", j)
	}
}
