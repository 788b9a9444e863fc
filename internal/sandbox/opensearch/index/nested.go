package index

import (
	"strings"
	"sync"

	"github.com/svcui/svcui/internal/jsonval"
)

// Nested documents: each object under a "nested" field is its own hidden document, so a nested
// query matches fields of one object together. The emulation keeps, per index and nested path,
// a side index of those objects (built on first use and rebuilt after writes) and the parent of
// each.

// NestedView is the side index of one nested path: the objects as documents of their own, and
// the parent slot of each.
type NestedView struct {
	gen    uint64
	Sub    *Index
	Parent []int32 // side slot → parent slot
}

type nestedCache struct {
	mu    sync.Mutex
	views map[string]*NestedView
}

// NestedDocs returns the side index of the objects under a nested path; the caller holds the
// cluster lock (read or write), so the index does not change meanwhile.
func (ix *Index) NestedDocs(path string) *NestedView {
	ix.nested.mu.Lock()
	defer ix.nested.mu.Unlock()
	if v := ix.nested.views[path]; v != nil && v.gen == ix.Gen {
		return v
	}
	sub := NewIndex(ix.Name, ix.UUID, ix.Created)
	sub.nestedSide = true
	sub.Mapping = ix.Mapping.Clone()
	sub.Fields = sub.Mapping.Flatten()
	v := &NestedView{gen: ix.Gen, Sub: sub}
	parts := strings.Split(path, ".")
	for slot, d := range ix.Docs {
		if d == nil || !ix.IsLive(int32(slot)) {
			continue
		}
		for _, x := range jsonval.SourceValues(d.Src, path) {
			o, ok := x.(map[string]any)
			if !ok {
				continue
			}
			var wrapped any = o
			for i := len(parts) - 1; i >= 0; i-- {
				wrapped = map[string]any{parts[i]: wrapped}
			}
			src := wrapped.(map[string]any)
			leaves, err := sub.Parse(d.ID, src, true)
			if err != nil {
				continue
			}
			sub.Add(&Document{ID: d.ID, Version: d.Version, SeqNo: d.SeqNo, Raw: d.Raw, Src: src}, leaves)
			v.Parent = append(v.Parent, int32(slot))
		}
	}
	if ix.nested.views == nil {
		ix.nested.views = map[string]*NestedView{}
	}
	ix.nested.views[path] = v
	return v
}

// dropNested leaves out the fields under nested paths: they belong to the nested documents, not
// to their parent (unless the mapping sets include_in_parent or include_in_root).
func dropNested(fields map[string]*FieldDef, leaves []Leaf) []Leaf {
	var nested []string
	for path, fd := range fields {
		if fd.Type != "nested" || fd.Mapping == nil {
			continue
		}
		if b, _ := jsonval.Bool(fd.Mapping.params["include_in_parent"]); b {
			continue
		}
		if b, _ := jsonval.Bool(fd.Mapping.params["include_in_root"]); b {
			continue
		}
		nested = append(nested, path+".")
	}
	if len(nested) == 0 {
		return leaves
	}
	kept := leaves[:0]
	for _, lf := range leaves {
		under := false
		for _, n := range nested {
			under = under || strings.HasPrefix(lf.path, n)
		}
		if !under {
			kept = append(kept, lf)
		}
	}
	return kept
}

// IsNestedPath tells whether path is mapped as nested in ix.
func IsNestedPath(ix *Index, path string) bool {
	fd := ix.Fields[path]
	return fd != nil && fd.Type == "nested"
}
