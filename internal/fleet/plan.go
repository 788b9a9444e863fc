package fleet

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/svcui/svcui/internal/models"
)

// Op is what a plan's row does.
type Op string

const (
	// OpServiceUpdate changes a service (PUT .../service/NAME with Update).
	OpServiceUpdate Op = "service-update"
	// OpServiceDelete deletes a service.
	OpServiceDelete Op = "service-delete"
	// OpUserReset resets a service user's credentials; the new password is never kept.
	OpUserReset Op = "user-reset"
)

// Row states as kept.
const (
	StatePending = "pending"
	StateDone    = "done"
	StateRefused = "refused"
	StateUnknown = "unknown"
	StateSkipped = "skipped"
)

// Row is one resource of a kept plan. It holds what to send and where it stands, and
// never a secret.
type Row struct {
	Op      Op                           `json:"op"`
	Project string                       `json:"project"`
	Service string                       `json:"service"`
	User    string                       `json:"user,omitempty"`
	Update  *models.UpdateServiceRequest `json:"update,omitempty"`
	// Change, Cost and Notes are the plan's own words for the row, shown again on resume.
	Change string   `json:"change,omitempty"`
	Cost   string   `json:"cost,omitempty"`
	Notes  []string `json:"notes,omitempty"`
	Skip   string   `json:"skip,omitempty"`
	State  string   `json:"state"`
	Result string   `json:"result,omitempty"`
}

// Resource names the row's resource: project/service or project/service/user.
func (r Row) Resource() string {
	s := r.Project + "/" + r.Service
	if r.User != "" {
		s += "/" + r.User
	}
	return s
}

// Plan is one change to many resources, as kept on disk while it is applied.
type Plan struct {
	ID      string    `json:"id"`
	Title   string    `json:"title"`
	Noun    string    `json:"noun"`
	Created time.Time `json:"created"`
	Total   string    `json:"total,omitempty"`
	Rows    []Row     `json:"rows"`
}

// Left is how many rows are not done (pending, refused, unknown).
func (p Plan) Left() int {
	n := 0
	for _, r := range p.Rows {
		if r.State != StateDone && r.State != StateSkipped {
			n++
		}
	}
	return n
}

// NewID names a plan by when it was made, which also orders the list.
func NewID(now time.Time) string { return now.UTC().Format("20060102-150405.000000") }

// Dir is where a state directory keeps a profile's plans: a plan resumed under another
// profile would change another account.
func Dir(stateDir, profile string) string {
	if profile == "" {
		profile = "default"
	}
	name := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 || r == '.' {
			return '_'
		}
		return r
	}, profile)
	return filepath.Join(stateDir, "plans", name)
}

func file(dir, id string) (string, error) {
	if id == "" || strings.ContainsAny(id, `/\`) || strings.HasPrefix(id, ".") {
		return "", fmt.Errorf("bad plan id %q", id)
	}
	return filepath.Join(dir, id+".json"), nil
}

// Save keeps p in dir (0700), mode 0600.
func Save(dir string, p Plan) error {
	path, err := file(dir, p.ID)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	return WritePrivate(path, append(b, '\n'))
}

// Remove forgets a plan (done, or dismissed); a plan already gone is not an error.
func Remove(dir, id string) error {
	path, err := file(dir, id)
	if err != nil {
		return err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// maxPlanFile bounds a plan file read back (a plan of 10,000 rows is a few MB).
const maxPlanFile = 64 << 20

// readPlanFile reads a regular file of at most maxPlanFile bytes: a FIFO would block
// the list for good and a symlink to /dev/zero would fill the memory.
func readPlanFile(dir string, e fs.DirEntry) ([]byte, error) {
	if !e.Type().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	f, err := os.Open(filepath.Join(dir, e.Name()))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxPlanFile+1))
	if err == nil && len(b) > maxPlanFile {
		err = errors.New("too large")
	}
	return b, err
}

// List reads every kept plan, newest first; a file that does not read as a plan is
// named in skipped, never a reason to fail the list.
func List(dir string) (plans []Plan, skipped []string, err error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		b, err := readPlanFile(dir, e)
		var p Plan
		if err == nil {
			err = json.Unmarshal(b, &p)
		}
		if err != nil || p.ID+".json" != e.Name() {
			skipped = append(skipped, e.Name())
			continue
		}
		plans = append(plans, p)
	}
	sort.Slice(plans, func(i, j int) bool { return plans[i].ID > plans[j].ID })
	return plans, skipped, nil
}
