package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// maxFileSize bounds what Load reads: a config file is a few hundred bytes.
const maxFileSize = 1 << 20

// Load reads the config file at path (ConfigPath() when path is empty). A missing file gives
// an empty Config and no error. Syntax errors, unknown keys and invalid values are reported
// with their line numbers, all at once.
func Load(path string) (*Config, error) {
	if path == "" {
		path = ConfigPath()
	}
	f, info, err := openRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Config{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("config %s: larger than %d bytes; this is not a svcui config file", path, maxFileSize)
	}
	cfg, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	if runtime.GOOS != "windows" && info.Mode().Perm()&0o077 != 0 {
		cfg.Warnings = append(cfg.Warnings, fmt.Sprintf(
			"%s can be read by other users (mode %04o); run: chmod 600 %s", path, info.Mode().Perm(), path))
	}
	return cfg, nil
}

// openRegular opens a regular file for reading and refuses anything else before
// opening it: opening a FIFO blocks until something writes to it (config.yaml as a FIFO
// hung the console on a blank screen), and a device never ends.
func openRegular(path string) (*os.File, fs.FileInfo, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if err := notRegular(info); err != nil {
		return nil, nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	opened, err := f.Stat()
	if err == nil && !os.SameFile(info, opened) {
		err = errors.New("it changed while being opened")
	}
	if err != nil {
		_ = f.Close()
		return nil, nil, err
	}
	return f, opened, nil
}

// notRegular says what a file that is not a regular one is.
func notRegular(info fs.FileInfo) error {
	m := info.Mode()
	switch {
	case m.IsRegular():
		return nil
	case m.IsDir():
		return errors.New("is a directory")
	case m&fs.ModeNamedPipe != 0:
		return errors.New("is a named pipe (FIFO), not a regular file; svcui reads its config only from a regular file")
	case m&fs.ModeSocket != 0:
		return errors.New("is a socket, not a regular file")
	case m&fs.ModeDevice != 0:
		return errors.New("is a device, not a regular file")
	}
	return errors.New("is not a regular file")
}

// readRegular reads a regular file of at most limit bytes (see openRegular).
func readRegular(path string, limit int64) ([]byte, error) {
	f, _, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("larger than %d bytes; this is not a svcui config file", limit)
	}
	return data, nil
}

// Parse decodes and validates the content of a config file. Empty content is an empty Config.
func Parse(data []byte) (*Config, error) {
	cfg := &Config{}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(cfg); err != nil {
		if errors.Is(err, io.EOF) { // empty file or only comments
			return &Config{}, nil
		}
		return nil, describeSyntaxOrTypeError(data, err)
	}
	// A second document would be silently ignored by the decoder; say so instead.
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, fmt.Errorf("line %d: a second YAML document (---) is not allowed", extra.Line)
	}

	// The node tree only serves to put line numbers on validation errors.
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, describeSyntaxOrTypeError(data, err)
	}
	if err := keyProblem(&root); err != nil {
		return nil, err
	}
	// SaveProfile writes profile: and profiles: as keys of their own, which would override
	// what a top-level merge supplies; refuse here rather than lose settings at the save.
	if line := topMergeLine(&root); line > 0 {
		return nil, fmt.Errorf("line %d: a merge key (<<) cannot be used at the top level of the file; write the settings it brings in directly", line)
	}
	if problems := cfg.validate(&root); len(problems) > 0 {
		return nil, errors.New(strings.Join(problems, "; "))
	}
	return cfg, nil
}

var (
	syntaxRE       = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
	unknownFieldRE = regexp.MustCompile(`^line (\d+): field (.*) not found in type (\S+)$`)
	cannotRE       = regexp.MustCompile(`^line (\d+): cannot unmarshal (!!\w+)(?: ` + "`" + `(.*)` + "`" + `)? into (\S+)$`)
)

// knownKeys lists, per Go type, the keys a user may write there; used in unknown-key errors.
var knownKeys = map[string]string{
	"config.Config":  "profile, profiles, refresh, theme, clipboard, motion, time_zone, keys",
	"config.Profile": "api_url, token, token_command, read_only, default_project, account_id, search_insecure_skip_verify",
}

// maxLinesToLocate bounds the prefix scan of locateSyntaxError (quadratic in the lines).
const maxLinesToLocate = 400

func describeSyntaxOrTypeError(data []byte, err error) error {
	g := syntaxRE.FindStringSubmatch(err.Error())
	if g == nil {
		return describeYAMLError(err)
	}
	line, _ := strconv.Atoi(g[1])
	if at := locateSyntaxError(data); at > line {
		line = at
	}
	return fmt.Errorf("line %d: %s", line, g[2])
}

// locateSyntaxError returns the first line whose addition makes the document unparsable.
// yaml.v3 reports the line where the enclosing block starts, which for a mis-indented key
// deep in a profile is the first line of the file; this finds the line a person must fix.
// It returns 0 when it cannot tell.
func locateSyntaxError(data []byte) int {
	lines := bytes.SplitAfter(data, []byte("\n"))
	if len(lines) > maxLinesToLocate {
		return 0
	}
	var prefix []byte
	for i, l := range lines {
		prefix = append(prefix, l...)
		var n yaml.Node
		if err := yaml.Unmarshal(prefix, &n); err != nil {
			return i + 1
		}
	}
	return 0
}

// describeYAMLError turns yaml.v3's messages, which name Go types, into ones naming keys.
func describeYAMLError(err error) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		// Syntax errors already read "yaml: line N: ...".
		return errors.New(strings.TrimPrefix(err.Error(), "yaml: "))
	}
	msgs := make([]string, 0, len(te.Errors))
	for _, m := range te.Errors {
		msgs = append(msgs, rewriteTypeError(m))
	}
	return errors.New(strings.Join(msgs, "; "))
}

func rewriteTypeError(m string) string {
	if g := unknownFieldRE.FindStringSubmatch(m); g != nil {
		msg := fmt.Sprintf("line %s: unknown key %q", g[1], truncate(g[2], 60))
		if known, ok := knownKeys[g[3]]; ok {
			msg += " (known keys here: " + known + ")"
		}
		return msg
	}
	if g := cannotRE.FindStringSubmatch(m); g != nil {
		return fmt.Sprintf("line %s: expected %s, found %s", g[1], describeGoType(g[4]), describeYAMLTag(g[2]))
	}
	return m
}

func describeGoType(t string) string {
	switch {
	case t == "config.Config":
		return "a mapping of settings (key: value)"
	case t == "config.Profile":
		return "a profile (a mapping with api_url, token, ...)"
	case strings.HasPrefix(t, "map["):
		return "a mapping"
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case t == "bool":
		return "true or false"
	case t == "string":
		return "a text value"
	}
	return t
}

func describeYAMLTag(tag string) string {
	switch tag {
	case "!!seq":
		return "a list"
	case "!!map":
		return "a mapping"
	case "!!str":
		return "a text value"
	case "!!int", "!!float":
		return "a number"
	case "!!bool":
		return "a boolean"
	case "!!null":
		return "nothing"
	}
	return tag
}

// validate checks the values the decoder cannot, and returns one message per problem,
// ordered by line.
func (c *Config) validate(root *yaml.Node) []string {
	type problem struct {
		line int
		msg  string
	}
	var ps []problem
	add := func(line int, format string, args ...any) {
		ps = append(ps, problem{line, fmt.Sprintf(format, args...)})
	}

	if c.Theme != "" && !oneOf(c.Theme, themes) {
		add(valueLine(root, "theme"), "theme %q is not one of %s", truncate(c.Theme, 40), strings.Join(themes, ", "))
	}
	if c.Clipboard != "" && !oneOf(c.Clipboard, clipboardModes) {
		add(valueLine(root, "clipboard"), "clipboard %q is not one of %s", truncate(c.Clipboard, 40), strings.Join(clipboardModes, ", "))
	}
	if c.TimeZone != "" && !oneOf(c.TimeZone, timeZones) {
		add(valueLine(root, "time_zone"), "time_zone %q is not one of %s", truncate(c.TimeZone, 40), strings.Join(timeZones, ", "))
	}
	if c.Refresh != 0 && c.Refresh.Std() < MinRefresh {
		add(valueLine(root, "refresh"), "refresh %s is below the minimum of %s", c.Refresh, MinRefresh)
	}
	for name, p := range c.Profiles {
		if err := validateProfileName(name); err != nil {
			add(keyLine(root, "profiles", name), "%v", err)
			continue
		}
		for _, e := range p.problems() {
			add(valueLine(root, "profiles", name, e.key), "profile %q: %s", name, e.msg)
		}
	}
	if c.DefaultProfile != "" {
		if _, ok := c.Profiles[c.DefaultProfile]; !ok {
			add(valueLine(root, "profile"), "profile %q is not defined under profiles%s",
				truncate(c.DefaultProfile, 40), available(c.Profiles))
		}
	}

	sort.SliceStable(ps, func(i, j int) bool { return ps[i].line < ps[j].line })
	out := make([]string, len(ps))
	for i, p := range ps {
		if p.line > 0 {
			out[i] = "line " + strconv.Itoa(p.line) + ": " + p.msg
		} else {
			out[i] = p.msg
		}
	}
	return out
}

func oneOf(v string, set []string) bool {
	for _, s := range set {
		if v == s {
			return true
		}
	}
	return false
}

func available(profiles map[string]Profile) string {
	if len(profiles) == 0 {
		return " (there are none)"
	}
	return " (defined: " + strings.Join(profileNames(profiles), ", ") + ")"
}

func profileNames(profiles map[string]Profile) []string {
	names := make([]string, 0, len(profiles))
	for n := range profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// keyProblem refuses mapping keys that do not say which setting they are. The decoder
// skips an entry whose key is empty or null, which hides typos such as "  : value". A key
// that is an alias (*name) reads as the anchored text, but SaveProfile looks keys up by
// what is written and would add a second profiles: (or profile) beside it.
func keyProblem(n *yaml.Node) error {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			switch k := n.Content[i]; {
			case k.Kind == yaml.ScalarNode && k.Tag == "!!null":
				return fmt.Errorf("line %d: a key is empty or null", k.Line)
			case k.Kind == yaml.AliasNode:
				return fmt.Errorf("line %d: an alias (*%s) cannot be used as a key; write the key itself", k.Line, truncate(k.Value, 40))
			}
		}
	}
	for _, c := range n.Content {
		if err := keyProblem(c); err != nil {
			return err
		}
	}
	return nil
}

// topMergeLine returns the line of a merge key (<<) in the top-level mapping, or 0.
func topMergeLine(root *yaml.Node) int {
	if root.Kind != yaml.DocumentNode || len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return 0
	}
	top := root.Content[0]
	for i := 0; i+1 < len(top.Content); i += 2 {
		if k := top.Content[i]; k.ShortTag() == "!!merge" {
			return k.Line
		}
	}
	return 0
}

// lookup walks mapping keys from the document root and returns the key and value nodes
// of the last one, or nils when the path is absent.
func lookup(root *yaml.Node, path ...string) (key, val *yaml.Node) {
	n := root
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	for _, p := range path {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil, nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == p {
				key, next = n.Content[i], n.Content[i+1]
			}
		}
		if next == nil {
			return nil, nil
		}
		n = next
	}
	return key, n
}

func keyLine(root *yaml.Node, path ...string) int {
	if k, _ := lookup(root, path...); k != nil {
		return k.Line
	}
	return 0
}

func valueLine(root *yaml.Node, path ...string) int {
	if _, v := lookup(root, path...); v != nil {
		return v.Line
	}
	if len(path) < 2 {
		return 0
	}
	return keyLine(root, path[:len(path)-1]...)
}
