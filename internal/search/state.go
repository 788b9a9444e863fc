package search

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/svcui/svcui/internal/apilog"
)

// Files of the Search tab inside the state directory (config.StateDir()). Every
// function takes that directory: nothing is read or written until one is called.
const (
	stateSubdir     = "search"
	columnsFile     = "columns.json"
	editorSubdir    = "editor"
	stateVersion    = 1
	maxColumnSets   = 200     // index patterns remembered; the least recently saved go first
	MaxEditorText   = 1 << 20 // the most editor text kept between sessions
	maxColumnChoice = 200     // columns in one choice
)

type columnsDoc struct {
	Version  int                    `json:"version"`
	Patterns map[string]columnEntry `json:"patterns"`
}

type columnEntry struct {
	Columns []string  `json:"columns"`
	Saved   time.Time `json:"saved"`
}

// LoadColumns returns the columns chosen for indexPattern (see IndexPattern), in
// order; nil when none were saved. A missing or unreadable file is no choice, not an
// error, so a damaged file never blocks the tab; err reports I/O failures only.
func LoadColumns(stateDir, indexPattern string) ([]string, error) {
	doc, err := readColumns(stateDir)
	if err != nil {
		return nil, err
	}
	return doc.Patterns[indexPattern].Columns, nil
}

// SaveColumns remembers cols for indexPattern; an empty cols forgets the choice.
func SaveColumns(stateDir, indexPattern string, cols []string) error {
	if strings.TrimSpace(indexPattern) == "" {
		return errors.New("columns: no index pattern to remember them for")
	}
	if len(cols) > maxColumnChoice {
		cols = cols[:maxColumnChoice]
	}
	doc, err := readColumns(stateDir)
	if err != nil {
		return err
	}
	if len(cols) == 0 {
		delete(doc.Patterns, indexPattern)
	} else {
		doc.Patterns[indexPattern] = columnEntry{Columns: append([]string(nil), cols...), Saved: time.Now().UTC()}
	}
	for len(doc.Patterns) > maxColumnSets {
		oldest := ""
		for k, e := range doc.Patterns {
			if oldest == "" || e.Saved.Before(doc.Patterns[oldest].Saved) || e.Saved.Equal(doc.Patterns[oldest].Saved) && k < oldest {
				oldest = k
			}
		}
		delete(doc.Patterns, oldest)
	}
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return fmt.Errorf("columns: %w", err)
	}
	if err := writeBytesAtomic(filepath.Join(stateDir, stateSubdir, columnsFile), data); err != nil {
		return fmt.Errorf("columns: %w", err)
	}
	return nil
}

func readColumns(stateDir string) (columnsDoc, error) {
	doc := columnsDoc{Version: stateVersion, Patterns: map[string]columnEntry{}}
	if strings.TrimSpace(stateDir) == "" {
		return doc, errors.New("columns: no state directory was given")
	}
	data, err := readState(filepath.Join(stateDir, stateSubdir, columnsFile))
	if errors.Is(err, os.ErrNotExist) {
		return doc, nil
	}
	if err != nil {
		return doc, fmt.Errorf("columns: %w", err)
	}
	var got columnsDoc
	if json.Unmarshal(data, &got) == nil && got.Patterns != nil {
		doc.Patterns = got.Patterns
	}
	return doc, nil
}

type editorDoc struct {
	Version int       `json:"version"`
	Service string    `json:"service"`
	Text    string    `json:"text"`
	Saved   time.Time `json:"saved"`
}

// LoadEditorText returns the editor text saved for service ("project-service", as
// for history); ok is false when none was saved or the file is unreadable.
func LoadEditorText(stateDir, service string) (text string, ok bool, err error) {
	path, err := editorPath(stateDir, service)
	if err != nil {
		return "", false, err
	}
	data, err := readState(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("editor text: %w", err)
	}
	var doc editorDoc
	if json.Unmarshal(data, &doc) != nil {
		return "", false, nil
	}
	return doc.Text, true, nil
}

// SaveEditorText keeps text for service, its secrets masked. Text over MaxEditorText is refused with a
// sentence, so a pasted bulk load does not fill the disk at each keystroke.
func SaveEditorText(stateDir, service, text string) error {
	if len(text) > MaxEditorText {
		return fmt.Errorf("editor text: %s is more than the %s kept between sessions; it was not saved", byteSize(int64(len(text))), byteSize(MaxEditorText))
	}
	path, err := editorPath(stateDir, service)
	if err != nil {
		return err
	}
	// Secrets typed into a request are kept masked, as in the history.
	data, err := json.Marshal(editorDoc{Version: stateVersion, Service: service, Text: apilog.MaskSecrets(text), Saved: time.Now().UTC()})
	if err != nil {
		return fmt.Errorf("editor text: %w", err)
	}
	if err := writeBytesAtomic(path, data); err != nil {
		return fmt.Errorf("editor text: %w", err)
	}
	return nil
}

func editorPath(stateDir, service string) (string, error) {
	if strings.TrimSpace(stateDir) == "" {
		return "", errors.New("editor text: no state directory was given")
	}
	dir := filepath.Join(stateDir, stateSubdir, editorSubdir)
	name, err := stateFileName(dir, service, ".json")
	if err != nil {
		return "", fmt.Errorf("editor text: %w", err)
	}
	return filepath.Join(dir, name), nil
}

// ServiceKey names one service's state (history, editor text): the project and the
// service joined so that no two pairs share a key ("a-b" and "c", "a" and "b-c").
func ServiceKey(project, service string) string { return project + keySep + service }

// keySep is in no project or service name.
const keySep = "\x00"

// maxReadable bounds the readable part of a state file name: with the hash the name
// stays far below the 255 bytes a file name may have.
const maxReadable = 80

// stateFileName is the file of key in dir: its readable part ("project-service", cut
// to maxReadable bytes, other characters than letters, digits, - _ . as _) and a hash
// of the whole key, so names cannot collide or grow too long:
// "acme-logs.3f2a9c0e1b7d4a66.jsonl". A file kept under the name of earlier versions
// ("acme-logs.jsonl") is renamed to it the first time.
func stateFileName(dir, key, ext string) (string, error) {
	readable := readableName(strings.ReplaceAll(key, keySep, "-"))
	if readable == "" {
		return "", errors.New("no service name")
	}
	sum := sha256.Sum256([]byte(key))
	cut := readable
	if len(cut) > maxReadable {
		cut = cut[:maxReadable]
	}
	name := cut + "." + hex.EncodeToString(sum[:8]) + ext
	migrate(filepath.Join(dir, readable+ext), filepath.Join(dir, name))
	return name, nil
}

// readableName keeps letters, digits, - _ and . of s (others become _), without dots
// at either end.
func readableName(s string) string {
	var b strings.Builder
	for _, r := range strings.TrimSpace(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return strings.Trim(b.String(), ".")
}

// migrate renames the file of an earlier version to its new name, unless a file has
// the new name already (or the old name was too long to exist).
func migrate(old, current string) {
	if len(filepath.Base(old)) > 255 {
		return
	}
	if _, err := os.Lstat(current); !errors.Is(err, os.ErrNotExist) {
		return
	}
	if info, err := os.Lstat(old); err == nil && info.Mode().IsRegular() {
		_ = os.Rename(old, current)
	}
}

// IndexPattern is the index part of a request path, names sorted
// ("/logs-*,audit/_search?q=x" → "audit,logs-*"): the key column choices are kept
// under. "" when the path names no index ("/_search", "/_cat/indices").
func IndexPattern(path string) string {
	p, _, _ := strings.Cut(path, "?")
	p = strings.TrimPrefix(strings.TrimSpace(p), "/")
	first, _, _ := strings.Cut(p, "/")
	if first == "" || strings.HasPrefix(first, "_") {
		return ""
	}
	parts := strings.Split(first, ",")
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// writeBytesAtomic writes data and a newline with writeFileAtomic.
func writeBytesAtomic(path string, data []byte) error {
	return writeFileAtomic(path, func(w io.Writer) error {
		_, err := w.Write(append(data, '\n'))
		return err
	})
}

// writeFileAtomic writes path through a temporary file in the same directory and a
// rename, mode 0600 (directories 0700), so a crash leaves the old or the new file.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriter(tmp)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = tmp.Chmod(0o600)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// maxStateFile bounds a state file read back: the editor's text, the column choices
// and the time fields are a few kilobytes.
const maxStateFile = 4 << 20

// maxHistoryFile bounds how much of a history file is read: its last 32 MiB, where
// its newest entries are (500 entries of a few kilobytes each, typically).
const maxHistoryFile = 32 << 20

// openTail opens a regular file and reads from its last max bytes, from the start of
// a line: a larger file (a symlink to a huge log) is read in bounded time and memory.
func openTail(path string, max int64) (io.Reader, io.Closer, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, nil, err
	}
	if info.Size() <= max {
		return io.LimitReader(f, max), f, nil
	}
	if _, err := f.Seek(info.Size()-max, io.SeekStart); err != nil {
		_ = f.Close()
		return nil, nil, err
	}
	r := bufio.NewReader(io.LimitReader(f, max))
	_, _ = r.ReadBytes('\n') // the rest of a line that began before
	return r, f, nil
}

// readState reads a state file: a regular one of at most maxStateFile bytes.
func readState(path string) ([]byte, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxStateFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxStateFile {
		return nil, fmt.Errorf("%s is larger than %d MiB", filepath.Base(path), maxStateFile>>20)
	}
	return data, nil
}

// openRegular opens a regular file and refuses anything else before opening it:
// opening a FIFO blocks until something writes to it, and a device never ends.
func openRegular(path string) (*os.File, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", filepath.Base(path), info.Mode().Type())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if opened, err := f.Stat(); err != nil || !os.SameFile(info, opened) {
		_ = f.Close()
		return nil, fmt.Errorf("%s changed while being opened", filepath.Base(path))
	}
	return f, nil
}
