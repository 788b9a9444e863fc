package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// stateFileVersion changes when the file's layout does.
const stateFileVersion = 1

// stateFile is everything a restart needs: tokens, the CA, the store (with passwords) and
// the search engines' data.
type stateFile struct {
	Version int            `json:"version"`
	Tokens  tokenPair      `json:"tokens"`
	CA      *certAuthority `json:"ca"`
	Store   *store         `json:"store"`
}

// maxStateFile bounds the state file read back: the demo's is a few megabytes, a
// scale:80000 account with search data a few hundred.
const maxStateFile = 1 << 30

// loadState reads the state file; (false, nil) when it does not exist yet. It must be a
// regular file (a FIFO hung the sandbox for good, /dev/zero took gigabytes) of at most
// maxStateFile bytes; one readable by other users is made 0600 and said so (it holds
// the admin token and the CA key).
func (s *Sandbox) loadState(path string) (bool, error) {
	b, err := readStateFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading state file: %w", err)
	}
	if warning, err := private(path); err != nil {
		return false, fmt.Errorf("state file %s: %w", path, err)
	} else if warning != "" {
		s.warnings = append(s.warnings, warning)
	}
	var sf stateFile
	if err := json.Unmarshal(b, &sf); err != nil {
		return false, fmt.Errorf("state file %s is not a sandbox state file: %v", path, err)
	}
	if sf.Version != stateFileVersion {
		return false, fmt.Errorf("state file %s has version %d; this sandbox reads version %d", path, sf.Version, stateFileVersion)
	}
	if sf.Store == nil || sf.CA == nil || sf.Tokens.Admin == "" || sf.Tokens.Developer == "" {
		return false, fmt.Errorf("state file %s is incomplete (store, CA or tokens missing)", path)
	}
	if err := sf.CA.parse(); err != nil {
		return false, fmt.Errorf("state file %s: %v", path, err)
	}
	st := sf.Store
	if key := nullEntry(st); key != "" {
		return false, fmt.Errorf("state file %s: %s is null", path, key)
	}
	if st.Projects == nil {
		st.Projects = map[string]*project{}
	}
	if st.Groups == nil {
		st.Groups = map[string]*billingGroup{}
	}
	for _, p := range st.Projects {
		if p.Services == nil {
			p.Services = map[string]*service{}
		}
		for _, sv := range p.Services {
			if sv.UserConfig == nil {
				sv.UserConfig = map[string]any{}
			}
		}
	}
	s.st, s.tokens, s.ca = st, sf.Tokens, sf.CA
	return true, nil
}

// readStateFile reads path when it is a regular file of at most maxStateFile bytes,
// refusing anything else before opening it: opening a FIFO waits for a writer.
func readStateFile(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", path, info.Mode().Type())
	}
	if info.Size() > maxStateFile {
		return nil, fmt.Errorf("%s is larger than %d MiB", path, maxStateFile>>20)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if opened, err := f.Stat(); err != nil || !os.SameFile(info, opened) {
		return nil, fmt.Errorf("%s changed while being opened", path)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxStateFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxStateFile {
		return nil, fmt.Errorf("%s is larger than %d MiB", path, maxStateFile>>20)
	}
	return b, nil
}

// private makes path 0600 when other users may read it, and says so.
func private(path string) (string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if info.Mode().Perm()&0o077 == 0 {
		return "", nil
	}
	if err := os.Chmod(path, 0o600); err != nil {
		return "", fmt.Errorf("it is readable by other users (%04o) and could not be made private: %w", info.Mode().Perm(), err)
	}
	return fmt.Sprintf("warning: state file %s was readable by other users (%04o); it holds the admin token and the CA key, and is now 0600", path, info.Mode().Perm()), nil
}

// nullEntry names the first entry of st that is null ("projects.p"), "" when none is.
func nullEntry(st *store) string {
	for _, name := range slices.Sorted(maps.Keys(st.Projects)) {
		p := st.Projects[name]
		if p == nil {
			return "projects." + name
		}
		for _, sn := range slices.Sorted(maps.Keys(p.Services)) {
			sv := p.Services[sn]
			at := "projects." + name + ".services." + sn
			if sv == nil {
				return at
			}
			for i, u := range sv.Users {
				if u == nil {
					return fmt.Sprintf("%s.users[%d]", at, i)
				}
			}
			for i, t := range sv.Topics {
				if t == nil {
					return fmt.Sprintf("%s.topics[%d]", at, i)
				}
			}
		}
	}
	for _, id := range slices.Sorted(maps.Keys(st.Groups)) {
		g := st.Groups[id]
		if g == nil {
			return "billing_groups." + id
		}
		for i, inv := range g.Invoices {
			if inv == nil {
				return fmt.Sprintf("billing_groups.%s.invoices[%d]", id, i)
			}
		}
	}
	return ""
}

// persister saves the state file shortly after changes (coalescing bursts) and on close.
type persister struct {
	s    *Sandbox
	path string

	saveMu sync.Mutex // one save at a time

	mu      sync.Mutex
	timer   *time.Timer
	closed  bool
	lastErr error
}

// saveDelay coalesces the saves of a burst of changes.
const saveDelay = 200 * time.Millisecond

func newPersister(s *Sandbox, path string) *persister { return &persister{s: s, path: path} }

func (p *persister) schedule() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || p.timer != nil {
		return
	}
	p.timer = time.AfterFunc(saveDelay, func() {
		p.mu.Lock()
		p.timer = nil
		p.mu.Unlock()
		err := p.saveNow()
		p.mu.Lock()
		p.lastErr = err
		p.mu.Unlock()
	})
}

// close stops scheduled saves and saves one last time.
func (p *persister) close() error {
	p.mu.Lock()
	p.closed = true
	if p.timer != nil {
		p.timer.Stop()
		p.timer = nil
	}
	p.mu.Unlock()
	return p.saveNow()
}

func (p *persister) saveNow() error {
	p.saveMu.Lock()
	defer p.saveMu.Unlock()
	b, err := p.s.snapshot()
	if err != nil {
		return err
	}
	return writeFileAtomic(p.path, b)
}

// snapshot encodes the state under the write lock (search data is put into the services
// for the encoding only).
func (s *Sandbox) snapshot() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	data, err := s.search.export()
	if err != nil {
		return nil, err
	}
	var filled []*service
	for key, b := range data {
		pn, sn := splitKey(key)
		if p := s.st.Projects[pn]; p != nil {
			if sv := p.Services[sn]; sv != nil {
				sv.SearchData = b
				filled = append(filled, sv)
			}
		}
	}
	defer func() {
		for _, sv := range filled {
			sv.SearchData = nil
		}
	}()
	return json.Marshal(stateFile{Version: stateFileVersion, Tokens: s.tokens, CA: s.ca, Store: s.st})
}

// writeFileAtomic writes a 0600 file by renaming a complete temporary file over it, so a
// crash never leaves half a state file.
func writeFileAtomic(path string, b []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, ".svcui-sandbox-state-*")
	if err != nil {
		return fmt.Errorf("saving state: %w", err)
	}
	name := tmp.Name()
	defer os.Remove(name)
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("saving state: %w", err)
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("saving state: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("saving state: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("saving state: %w", err)
	}
	if err := os.Rename(name, path); err != nil {
		return fmt.Errorf("saving state: %w", err)
	}
	return nil
}
