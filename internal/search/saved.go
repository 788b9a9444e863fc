package search

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/svcui/svcui/internal/apilog"
)

// Saved searches are plain files a person can read, edit and copy: one YAML file per
// search in <config dir>/searches, mode 0600, named from the search's name. Every
// console of the user on the host reads the same folder, so a search saved in one is
// listed by :saved in another.

// SavedSubdir is the folder of saved searches inside the config directory.
const SavedSubdir = "searches"

// maxSavedFile bounds one saved search read back.
const maxSavedFile = 256 << 10

// SavedSearch is one saved search.
type SavedSearch struct {
	Name    string `yaml:"name"`
	Service string `yaml:"service,omitempty"` // the service it was saved from ("" any)
	Method  string `yaml:"method"`
	Path    string `yaml:"path"`
	Body    string `yaml:"body,omitempty"`
	// Range is a quick range ("24h"); From and To an absolute window; none: all time.
	Range string    `yaml:"range,omitempty"`
	From  time.Time `yaml:"from,omitempty"`
	To    time.Time `yaml:"to,omitempty"`
	Saved time.Time `yaml:"saved"`
	// File is where it was read from (not stored).
	File string `yaml:"-"`
}

// Request is the saved request, ready to put in the editor.
func (s SavedSearch) Request() ParsedRequest {
	return ParsedRequest{Method: s.Method, Path: s.Path, Body: s.Body}
}

// TimeRange is the saved window.
func (s SavedSearch) TimeRange() TimeRange { return TimeRange{Quick: s.Range, From: s.From, To: s.To} }

// SavedFileName derives a file name from a search name: lower-case letters, digits,
// '-' and '_' kept, anything else one '-', at most 48 of them; a name that had to be
// changed gets a short hash of itself, so two names never share a file ("a/b" and
// "a?b"), and no name can climb out of the folder or overflow a file name.
func SavedFileName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", errors.New("a saved search needs a name")
	}
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-'
		switch {
		case ok:
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	base := strings.Trim(b.String(), "-")
	if len(base) > 48 {
		base = strings.Trim(base[:48], "-")
	}
	if base != name {
		sum := sha256.Sum256([]byte(name))
		if base != "" {
			base += "-"
		}
		base += hex.EncodeToString(sum[:])[:8]
	}
	return base + ".yaml", nil
}

// SaveSearch writes s (its secrets masked, as in the history) to dir/searches/,
// 0600, replacing a search of the same name; it returns the file written.
func SaveSearch(configDir string, s SavedSearch) (string, error) {
	if strings.TrimSpace(configDir) == "" {
		return "", errors.New("no config directory to save searches in")
	}
	file, err := SavedFileName(s.Name)
	if err != nil {
		return "", err
	}
	if s.Method == "" || s.Path == "" {
		return "", errors.New("a saved search needs a request: put the cursor in one")
	}
	s.Name = strings.TrimSpace(s.Name)
	s.Path, s.Body = apilog.MaskSecrets(s.Path), apilog.MaskSecrets(s.Body)
	data, err := yaml.Marshal(s)
	if err != nil {
		return "", fmt.Errorf("saved search: %w", err)
	}
	path := filepath.Join(configDir, SavedSubdir, file)
	if err := writeBytesAtomic(path, data); err != nil {
		return "", fmt.Errorf("saved search: %w", err)
	}
	return path, nil
}

// ListSaved reads every saved search in configDir/searches, by name; files that are
// not regular, too large or not a saved search are left out and named in skipped.
func ListSaved(configDir string) (searches []SavedSearch, skipped []string, err error) {
	dir := filepath.Join(configDir, SavedSubdir)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("saved searches: %w", err)
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || !(strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")) {
			continue
		}
		path := filepath.Join(dir, name)
		data, err := readState(path)
		if err == nil && len(data) > maxSavedFile {
			err = fmt.Errorf("larger than %d KiB", maxSavedFile>>10)
		}
		var s SavedSearch
		if err == nil {
			err = yaml.Unmarshal(data, &s)
		}
		if err == nil && (s.Method == "" || s.Path == "") {
			err = errors.New("no method and path")
		}
		if err != nil {
			skipped = append(skipped, name)
			continue
		}
		if strings.TrimSpace(s.Name) == "" {
			s.Name = strings.TrimSuffix(strings.TrimSuffix(name, ".yaml"), ".yml")
		}
		s.Method = strings.ToUpper(s.Method)
		s.File = path
		searches = append(searches, s)
	}
	sort.Slice(searches, func(i, j int) bool { return strings.ToLower(searches[i].Name) < strings.ToLower(searches[j].Name) })
	return searches, skipped, nil
}
