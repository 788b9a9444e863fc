package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"gopkg.in/yaml.v3"
)

// SaveProfile writes profile p under name into the config file at path (ConfigPath() when
// empty), keeping every other profile, setting and comment. When the file names no default
// profile, name becomes the default. The file is replaced atomically (temp file + rename)
// with mode 0600; a directory it has to create gets mode 0700. A file that does not load
// cleanly is left alone: rewriting it could lose what the user meant.
func SaveProfile(path, name string, p Profile) error {
	if path == "" {
		path = ConfigPath()
	}
	if err := validateProfileName(name); err != nil {
		return err
	}
	if err := p.Validate(); err != nil {
		return fmt.Errorf("profile %q: %w", name, err)
	}
	// Dotfile managers link config.yaml elsewhere; replace the target, not the link.
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	dir := filepath.Dir(path)
	if err := ensurePrivateDir(dir); err != nil {
		return err
	}

	data, err := readRegular(path, maxFileSize)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("config %s: %w", path, err)
	}
	if _, err := Parse(data); err != nil {
		return fmt.Errorf("config %s: not saving the profile until this is fixed: %w", path, err)
	}
	out, err := withProfile(data, name, p)
	if err != nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	if _, err := Parse(out); err != nil { // never write what Load would refuse
		return fmt.Errorf("config %s: the updated file would not load: %w", path, err)
	}
	if err := writeFileAtomic(path, out, 0o600); err != nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	return nil
}

// withProfile edits the YAML node tree rather than re-encoding a Config, so comments, key
// order and keys of other profiles survive.
func withProfile(data []byte, name string, p Profile) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		// Empty, comments only, or a bare null: start a fresh mapping, keeping the comments.
		head := doc.HeadComment
		doc = yaml.Node{Kind: yaml.DocumentNode, HeadComment: head,
			Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}
	}
	top := doc.Content[0]

	var profNode yaml.Node
	if err := profNode.Encode(p); err != nil {
		return nil, err
	}

	profiles := mappingValue(top, "profiles")
	switch {
	case profiles == nil:
		profiles = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		top.Content = append(top.Content, strNode("profiles"), profiles)
	case !plain(profiles):
		return nil, errUsesAnchors
	case profiles.Kind == yaml.ScalarNode && profiles.Tag == "!!null": // `profiles:` with nothing under it
		*profiles = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	case profiles.Kind != yaml.MappingNode:
		return nil, errors.New("profiles is not a mapping")
	}
	profiles.Style &^= yaml.FlowStyle // `profiles: {}` grows into a block, one profile per line
	if old := mappingValue(profiles, name); old != nil {
		if !plain(old) {
			return nil, errUsesAnchors
		}
		profNode.HeadComment, profNode.LineComment, profNode.FootComment = old.HeadComment, old.LineComment, old.FootComment
		*old = profNode
	} else {
		profiles.Content = append(profiles.Content, strNode(name), &profNode)
	}

	if def := mappingValue(top, "profile"); def == nil {
		// Put `profile:` first so it reads as the file's headline.
		top.Content = append([]*yaml.Node{strNode("profile"), strNode(name)}, top.Content...)
	} else if def.Kind == yaml.ScalarNode && (def.Value == "" || def.Tag == "!!null") {
		if !plain(def) {
			return nil, errUsesAnchors
		}
		*def = *strNode(name)
	}

	explicitFlowNulls(&doc, false)

	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// explicitFlowNulls writes an empty null inside a flow collection ({theme}, [a, ]) as ~.
// The encoder cannot write an empty plain scalar there and quotes it as ”, which reads
// back as text: `{refresh}` (not set) would come back as `{refresh: ”}` (not a duration).
func explicitFlowNulls(n *yaml.Node, inFlow bool) {
	if n.Kind == yaml.ScalarNode && inFlow && n.Value == "" && n.ShortTag() == "!!null" && n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) == 0 {
		n.Value = "~"
		return
	}
	if n.Kind == yaml.AliasNode {
		return // the anchored node is visited where it is defined
	}
	inFlow = inFlow || n.Style&yaml.FlowStyle != 0
	for _, c := range n.Content {
		explicitFlowNulls(c, inFlow)
	}
}

// errUsesAnchors stops an edit that would change or break what an alias (*name) refers to.
var errUsesAnchors = errors.New("the profiles use YAML anchors or aliases here; edit the file by hand")

// plain reports whether n can be replaced in place without touching what aliases refer to.
func plain(n *yaml.Node) bool { return n.Anchor == "" && n.Kind != yaml.AliasNode }

func strNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if s == "<<" {
		// yaml.v3 writes it plain, and a plain << as a key reads back as a merge key.
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// mappingValue returns the value node of key in mapping m, or nil.
func mappingValue(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// ensurePrivateDir creates dir with mode 0700 when missing; an existing directory is left
// as the user set it.
func ensurePrivateDir(dir string) error {
	info, err := os.Stat(dir)
	if err == nil {
		if !info.IsDir() {
			return fmt.Errorf("%s is not a directory", dir)
		}
		return nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return os.Chmod(dir, 0o700) // MkdirAll's mode passes through the umask
}

// writeFileAtomic writes data to a temporary file in the same directory and renames it over
// path, so a reader sees the old file or the new one, never half of one.
func writeFileAtomic(path string, data []byte, mode os.FileMode) error {
	return writeAtomicWith(path, mode, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// writeAtomicWith is writeFileAtomic for content written as a stream (never whole in
// memory): a temporary file beside path with mode, synced, renamed over path.
func writeAtomicWith(path string, mode os.FileMode, write func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = tmp.Chmod(mode); err != nil {
		return err
	}
	if err = write(tmp); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	if runtime.GOOS != "windows" {
		// Make the rename itself durable; failure here leaves a correct file, so it is ignored.
		if d, derr := os.Open(filepath.Dir(path)); derr == nil {
			_ = d.Sync()
			d.Close()
		}
	}
	return nil
}
