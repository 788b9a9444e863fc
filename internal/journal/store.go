package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/svcui/svcui/internal/config"
)

// MaxFile bounds a journal file read back: a week of entries is at most ~2 MB and the
// snapshot of a 10,000-service account a few more.
const MaxFile = 32 << 20

const fileVersion = 1

// Path is the journal file of a profile and its API address under the state
// directory: a profile pointed at another platform starts a journal of its own instead
// of reporting the difference between two platforms as changes.
func Path(stateDir, profile, apiURL string) string {
	h := fnv.New32a()
	h.Write([]byte(apiURL))
	return filepath.Join(stateDir, "journal", fmt.Sprintf("%s-%08x.json", fileName(profile), h.Sum32()))
}

// fileName keeps a profile name a plain file name (no separators, no dot files).
func fileName(profile string) string {
	var b strings.Builder
	for _, r := range profile {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, "%%%02x", r)
		}
	}
	if b.Len() == 0 {
		return "default"
	}
	return b.String()
}

// The file's shape. Items are written as [name, values...]: the same fields the From*
// functions copied, so the file holds what the snapshot holds and nothing else.
type file struct {
	Version int         `json:"version"`
	Saved   time.Time   `json:"saved"`
	Began   time.Time   `json:"began"`
	Scopes  []fileScope `json:"scopes"`
	Entries []Entry     `json:"entries"`
	Ledger  []fileLine  `json:"ledger"`
}

type fileLine struct {
	Project string      `json:"project"`
	Service string      `json:"service"`
	Months  []monthCost `json:"months"`
}

// The file is written a scope at a time (Encode) in the shape file reads.

type fileScope struct {
	Kind    Kind       `json:"kind"`
	Project string     `json:"project,omitempty"`
	Service string     `json:"service,omitempty"`
	Owner   string     `json:"owner,omitempty"`
	At      time.Time  `json:"at"`
	Items   [][]string `json:"items"`
}

// Encode writes the journal as its file holds it, a scope at a time: a whole
// 10,000-service account is never a second time in memory as one document. The reads
// are taken under the lock (they are never changed once made), the writing is not.
func (j *Journal) Encode(w io.Writer, saved time.Time) (version int, err error) {
	j.mu.Lock()
	scopes := make([]Scope, 0, len(j.snap))
	sets := make([]*Set, 0, len(j.snap))
	for s, set := range j.snap {
		scopes, sets = append(scopes, s), append(sets, set)
	}
	entries := slices.Clone(j.entries)
	ledger := make([]fileLine, 0, len(j.ledger))
	for k, months := range j.ledger {
		ledger = append(ledger, fileLine{k.project, k.service, slices.Clone(months)})
	}
	began := j.began
	version = j.version
	j.mu.Unlock()

	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	head, _ := json.Marshal(struct {
		Version int       `json:"version"`
		Saved   time.Time `json:"saved"`
		Began   time.Time `json:"began"`
	}{fileVersion, saved, began})
	bw.Write(head[:len(head)-1])
	bw.WriteString(`,"scopes":[`)
	for i, s := range scopes {
		if i > 0 {
			bw.WriteByte(',')
		}
		set := sets[i]
		fs := fileScope{Kind: s.Kind, Project: s.Project, Service: s.Service, Owner: s.Owner, At: set.At, Items: make([][]string, 0, set.Len())}
		for _, it := range set.items {
			fs.Items = append(fs.Items, append([]string{it.name}, it.vals...))
		}
		if err := enc.Encode(fs); err != nil {
			return version, err
		}
	}
	bw.WriteString(`],"entries":`)
	if err := enc.Encode(entries); err != nil {
		return version, err
	}
	bw.WriteString(`,"ledger":`)
	if err := enc.Encode(ledger); err != nil {
		return version, err
	}
	bw.WriteString("}\n")
	return version, bw.Flush()
}

// Save writes the journal to path (0600, its directory 0700), replacing the file whole.
func (j *Journal) Save(path string, now time.Time) error {
	var version int
	err := config.WriteStateFileWith(path, func(w io.Writer) (err error) {
		version, err = j.Encode(w, now)
		return err
	})
	if err != nil {
		return err
	}
	j.mu.Lock()
	j.saved = max(j.saved, version)
	j.mu.Unlock()
	return nil
}

// Unsaved reports entries added since the last Save.
func (j *Journal) Unsaved() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.version != j.saved
}

// Load reads a profile's journal from path: a missing file is an empty journal; a file
// that is not a regular one, too large or unreadable is an error (and an empty journal,
// so the console carries on). Every scope read from it counts as kept by an earlier
// run: what differs at the next read happened while the console was closed.
func Load(path string, now time.Time) (*Journal, error) {
	j := New()
	j.opened = now
	f, err := config.OpenStateFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return j, nil
	}
	if err != nil {
		return j, fmt.Errorf("journal %s: %w", filepath.Base(path), err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFile+1))
	if err != nil {
		return j, fmt.Errorf("journal %s: %w", filepath.Base(path), err)
	}
	if len(data) > MaxFile {
		return j, fmt.Errorf("journal %s is larger than %d MiB; starting a new one", filepath.Base(path), MaxFile>>20)
	}
	var fl file
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&fl); err != nil || fl.Version != fileVersion {
		if err == nil {
			err = fmt.Errorf("version %d", fl.Version)
		}
		return j, fmt.Errorf("journal %s cannot be read (%v); starting a new one", filepath.Base(path), err)
	}
	j.began = fl.Began
	for _, s := range fl.Scopes {
		if s.Kind == 0 || s.Kind >= kindEnd {
			continue
		}
		scope := Scope{Kind: s.Kind, Project: s.Project, Service: s.Service, Owner: s.Owner}
		n := len(s.Kind.Fields())
		items := make([]Item, 0, len(s.Items))
		for _, raw := range s.Items {
			if len(raw) == 0 {
				continue
			}
			vals := make([]string, n)
			copy(vals, raw[1:])
			items = append(items, item(raw[0], vals...))
		}
		j.snap[scope] = NewSet(s.At, items)
		j.fromDisk[scope] = true
	}
	for _, e := range fl.Entries {
		if e.Kind == 0 || e.Kind >= kindEnd || e.Change == 0 || e.Change > Changed {
			continue
		}
		if e.Drifted() {
			if j.drift == nil {
				j.drift = map[driftKey]int{}
			}
			j.drift[driftKey{e.Scope(), e.Name, e.Field}] = len(j.entries)
		}
		j.entries = append(j.entries, e)
	}
	for _, l := range fl.Ledger {
		if len(l.Months) > LedgerMonths {
			l.Months = l.Months[len(l.Months)-LedgerMonths:]
		}
		if j.ledger == nil {
			j.ledger = map[ledgerKey][]monthCost{}
		}
		j.ledger[ledgerKey{l.Project, l.Service}] = l.Months
	}
	j.prune(now)
	return j, nil
}
