// Package index is the emulation's stored data: documents by slot, the inverted index of text
// fields with the statistics BM25 needs, doc-value columns of the other fields, the mapping and
// the parsing of documents against it, side indices of nested objects, and what points in time
// keep of retired documents. Queries, aggregations and the REST layer all read it; it imports
// none of them.
package index

import (
	"math/bits"
	"sync/atomic"

	"github.com/svcui/svcui/internal/sandbox/opensearch/analysis"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
)

// Document is one stored document.
type Document struct {
	ID      string
	Version int64
	SeqNo   int64
	Raw     []byte         // _source as sent
	Src     map[string]any // parsed _source (numbers as json.Number)
}

// Segment is the matching slots of one index: what a search hands its aggregations.
type Segment struct {
	Index *Index
	Slots []int32
}

// Posting is one document's occurrence count of a term.
type Posting struct {
	Slot int32
	TF   int32
}

// TextIndex is the inverted index of one text field, with the statistics BM25 needs.
type TextIndex struct {
	Postings map[string][]Posting // may still list deleted slots; readers check liveness
	DocFreq  map[string]int32     // live document frequency per term
	DocLen   []int32              // token count per slot
	Has      []bool               // slot has a value for the field
	DocCount int64                // live docs with the field
	SumLen   int64                // total tokens over live docs
}

// Column holds doc values of a keyword, numeric, date or boolean field, by slot.
type Column struct {
	Kind Kind
	Strs [][]string
	Nums [][]float64

	// Keyword ordinals, so a terms aggregation counts in an array instead of hashing every
	// value: ords[slot] indexes terms when the slot has exactly one value, else it is -1;
	// multi tells whether any slot ever had several. The dictionary keeps values of deleted
	// documents until the index is rebuilt.
	Ords  []int32
	dict  map[string]int32
	Terms []string
	Multi bool
}

// setOrd records the ordinal of a keyword slot's values.
func (c *Column) setOrd(slot int32, vals []string) {
	for len(c.Ords) <= int(slot) {
		c.Ords = append(c.Ords, -1)
	}
	c.Ords[slot] = -1
	switch {
	case len(vals) > 1:
		c.Multi = true
	case len(vals) == 1:
		o, ok := c.dict[vals[0]]
		if !ok {
			if c.dict == nil {
				c.dict = map[string]int32{}
			}
			o = int32(len(c.Terms))
			c.dict[vals[0]] = o
			c.Terms = append(c.Terms, vals[0])
		}
		c.Ords[slot] = o
	}
}

// StrAt is a keyword slot's values, none past the column's end.
func (c *Column) StrAt(slot int32) []string {
	if int(slot) < len(c.Strs) {
		return c.Strs[slot]
	}
	return nil
}

// NumAt is a numeric slot's values, none past the column's end.
func (c *Column) NumAt(slot int32) []float64 {
	if int(slot) < len(c.Nums) {
		return c.Nums[slot]
	}
	return nil
}

// Has tells whether the slot has a value in the column.
func (c *Column) Has(slot int32) bool {
	if c.Kind == KindKeyword {
		return len(c.StrAt(slot)) > 0
	}
	return len(c.NumAt(slot)) > 0
}

// Index is one index: mapping, documents by slot, inverted indexes and doc values.
type Index struct {
	Name     string
	UUID     string
	Created  int64
	Shards   int
	Replicas int
	Settings map[string]any // other index settings, keyed without the "index." prefix
	Mapping  *Mapping
	Fields   map[string]*FieldDef

	Docs    []*Document // by slot; nil once deleted
	IDs     map[string]int32
	tombs   map[string]int64 // last version of deleted ids
	Live    []uint64
	nlive   int
	Deleted int
	SeqNo   int64
	Gen     uint64 // bumped on every write; invalidates derived caches (SQL)

	Texts   map[string]*TextIndex
	Columns map[string]*Column
	tf      map[string]int32 // scratch for term counting

	Aliases map[string]*AliasDef // by alias name; nil until the first alias

	// Counters for _stats: writes happen under the cluster's write lock, searches under its
	// read lock (hence atomic).
	IndexTotal  int64
	DeleteTotal int64
	QueryTotal  atomic.Int64

	nested nestedCache // side indices of nested objects, by path

	ISMPolicy string // the ISM policy managing the index (_plugins/_ism/add), "" when none

	Pins pinSet // open points in time

	nestedSide bool // the side index of nested objects (nested.go): their fields are its own
}

// NewIndex is an empty index with the engine's defaults (one shard, one replica, dynamic mapping).
func NewIndex(name, uuid string, created int64) *Index {
	return &Index{
		Name: name, UUID: uuid, Created: created, Shards: 1, Replicas: 1,
		Settings: map[string]any{},
		Mapping:  newMapping(),
		Fields:   map[string]*FieldDef{},
		IDs:      map[string]int32{},
		tombs:    map[string]int64{},
		Texts:    map[string]*TextIndex{},
		Columns:  map[string]*Column{},
		tf:       map[string]int32{},
	}
}

// IsLive tells whether a slot holds a document not deleted since.
func (ix *Index) IsLive(slot int32) bool {
	w := int(slot) >> 6
	return w < len(ix.Live) && ix.Live[w]&(1<<(uint(slot)&63)) != 0
}

// LiveCount is the number of documents a search sees.
func (ix *Index) LiveCount() int { return ix.nlive }

// StoreSize approximates store.size_in_bytes from the stored sources.
func (ix *Index) StoreSize() int64 {
	var n int64
	for _, d := range ix.Docs {
		if d != nil {
			n += int64(len(d.Raw)) + 64
		}
	}
	return n + 208
}

// Parse checks a document against the mapping (adding dynamic fields unless noDynamic).
func (ix *Index) Parse(id string, src map[string]any, noDynamic bool) ([]Leaf, *apierr.Error) {
	// About a leaf per field (plus multi-fields): growing the slice from empty allocated
	// a quarter of a bulk load's bytes.
	p := &docParser{id: id, noDynamic: noDynamic, leaves: make([]Leaf, 0, len(src)+2)}
	if err := p.walk(ix.Mapping.props, "", ix.Mapping.dynamic, src); err != nil {
		p.rollback()
		return nil, err
	}
	if len(p.added) > 0 {
		ix.Fields = ix.Mapping.Flatten()
	}
	if !ix.nestedSide {
		return dropNested(ix.Fields, p.leaves), nil
	}
	return p.leaves, nil
}

// WriteResult is what a write operation reports.
type WriteResult struct {
	ID      string
	Version int64
	SeqNo   int64
	Result  string // created, updated, deleted, not_found, noop
	Status  int
}

// Put indexes a document; create refuses an existing id.
func (ix *Index) Put(id string, raw []byte, src map[string]any, create bool) (WriteResult, *apierr.Error) {
	old, exists := ix.IDs[id]
	if exists && create {
		e := apierr.Errf(409, "version_conflict_engine_exception",
			"[%s]: version conflict, document already exists (current version [%d])", id, ix.Docs[old].Version)
		return WriteResult{}, e.InIndex(ix.Name, ix.UUID)
	}
	leaves, err := ix.Parse(id, src, false)
	if err != nil {
		return WriteResult{}, err
	}
	version := ix.tombs[id] + 1
	result, status := "created", 201
	if exists {
		version = ix.Docs[old].Version + 1
		ix.unindex(old)
		result, status = "updated", 200
	}
	delete(ix.tombs, id)
	ix.SeqNo++
	ix.IndexTotal++
	doc := &Document{ID: id, Version: version, SeqNo: ix.SeqNo - 1, Raw: raw, Src: src}
	ix.Add(doc, leaves)
	ix.Gen++
	ix.maybeCompact()
	return WriteResult{ID: id, Version: version, SeqNo: doc.SeqNo, Result: result, Status: status}, nil
}

// Remove deletes a document by id.
func (ix *Index) Remove(id string) WriteResult {
	ix.SeqNo++
	slot, ok := ix.IDs[id]
	if !ok {
		return WriteResult{ID: id, Version: ix.tombs[id] + 1, SeqNo: ix.SeqNo - 1, Result: "not_found", Status: 404}
	}
	version := ix.Docs[slot].Version + 1
	ix.DeleteTotal++
	ix.unindex(slot)
	ix.tombs[id] = version
	ix.Deleted++
	ix.Gen++
	ix.maybeCompact()
	return WriteResult{ID: id, Version: version, SeqNo: ix.SeqNo - 1, Result: "deleted", Status: 200}
}

// Get is the current document of an id, or nil.
func (ix *Index) Get(id string) *Document {
	if slot, ok := ix.IDs[id]; ok {
		return ix.Docs[slot]
	}
	return nil
}

// Add stores a parsed document in a new slot.
func (ix *Index) Add(doc *Document, leaves []Leaf) {
	slot := int32(len(ix.Docs))
	ix.Docs = append(ix.Docs, doc)
	ix.IDs[doc.ID] = slot
	for int(slot)>>6 >= len(ix.Live) {
		ix.Live = append(ix.Live, 0)
	}
	ix.Live[slot>>6] |= 1 << (uint(slot) & 63)
	ix.nlive++
	for i := range leaves {
		lf := &leaves[i]
		switch lf.kind {
		case KindText:
			ix.indexText(slot, lf)
		case KindKeyword:
			c := ix.column(lf.path, lf.kind)
			for len(c.Strs) <= int(slot) {
				c.Strs = append(c.Strs, nil)
			}
			c.Strs[slot] = lf.strs
			c.setOrd(slot, lf.strs)
		default:
			c := ix.column(lf.path, lf.kind)
			for len(c.Nums) <= int(slot) {
				c.Nums = append(c.Nums, nil)
			}
			c.Nums[slot] = lf.nums
		}
	}
}

func (ix *Index) column(path string, k Kind) *Column {
	c := ix.Columns[path]
	if c == nil {
		c = &Column{Kind: k}
		ix.Columns[path] = c
	}
	return c
}

func (ix *Index) textIndex(path string) *TextIndex {
	t := ix.Texts[path]
	if t == nil {
		t = &TextIndex{Postings: map[string][]Posting{}, DocFreq: map[string]int32{}}
		ix.Texts[path] = t
	}
	return t
}

func (ix *Index) indexText(slot int32, lf *Leaf) {
	t := ix.textIndex(lf.path)
	clear(ix.tf)
	n := 0
	for _, s := range lf.strs {
		for _, tok := range analysis.Standard(s) {
			ix.tf[tok]++
			n++
		}
	}
	for tok, c := range ix.tf {
		t.Postings[tok] = append(t.Postings[tok], Posting{slot, c})
		t.DocFreq[tok]++
	}
	for len(t.DocLen) <= int(slot) {
		t.DocLen = append(t.DocLen, 0)
		t.Has = append(t.Has, false)
	}
	t.DocLen[slot] = int32(n)
	t.Has[slot] = true
	t.DocCount++
	t.SumLen += int64(n)
}

// unindex retires a slot: statistics are corrected now, postings are skipped until compaction.
func (ix *Index) unindex(slot int32) {
	doc := ix.Docs[slot]
	ix.retire(doc)
	leaves, _ := ix.Parse(doc.ID, doc.Src, true)
	for i := range leaves {
		lf := &leaves[i]
		switch lf.kind {
		case KindText:
			t := ix.Texts[lf.path]
			if t == nil || int(slot) >= len(t.Has) || !t.Has[slot] {
				continue
			}
			clear(ix.tf)
			for _, s := range lf.strs {
				for _, tok := range analysis.Standard(s) {
					ix.tf[tok]++
				}
			}
			for tok := range ix.tf {
				if t.DocFreq[tok]--; t.DocFreq[tok] <= 0 {
					delete(t.DocFreq, tok)
				}
			}
			t.DocCount--
			t.SumLen -= int64(t.DocLen[slot])
			t.DocLen[slot] = 0
			t.Has[slot] = false
		case KindKeyword:
			if c := ix.Columns[lf.path]; c != nil && int(slot) < len(c.Strs) {
				c.Strs[slot] = nil
				c.setOrd(slot, nil)
			}
		default:
			if c := ix.Columns[lf.path]; c != nil && int(slot) < len(c.Nums) {
				c.Nums[slot] = nil
			}
		}
	}
	delete(ix.IDs, doc.ID)
	ix.Docs[slot] = nil
	ix.Live[slot>>6] &^= 1 << (uint(slot) & 63)
	ix.nlive--
}

// maybeCompact rebuilds the slot space once most slots are dead, dropping stale postings.
func (ix *Index) maybeCompact() {
	dead := len(ix.Docs) - ix.nlive
	if dead < 1024 || dead < ix.nlive {
		return
	}
	ix.Rebuild()
}

// Rebuild re-indexes the live documents into fresh slots (after a mapping change, or to drop stale postings).
func (ix *Index) Rebuild() {
	docs := ix.Docs
	ix.Docs = nil
	ix.IDs = map[string]int32{}
	ix.Live = nil
	ix.nlive = 0
	ix.Texts = map[string]*TextIndex{}
	ix.Columns = map[string]*Column{}
	for _, d := range docs {
		if d == nil {
			continue
		}
		leaves, _ := ix.Parse(d.ID, d.Src, true)
		ix.Add(d, leaves)
	}
}

// ForEach calls f for every set bit in bs, in slot order.
func ForEach(bs []uint64, f func(slot int32)) {
	for w, word := range bs {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			f(int32(w<<6 | b))
			word &= word - 1
		}
	}
}

// Popcount is how many bits of a slot set are set.
func Popcount(bs []uint64) int {
	n := 0
	for _, w := range bs {
		n += bits.OnesCount64(w)
	}
	return n
}

// SourceCopy re-parses a stored source so callers may modify it.
func (d *Document) SourceCopy() map[string]any {
	v, err := apierr.DecodeJSON(d.Raw)
	if err != nil {
		return map[string]any{}
	}
	m, _ := v.(map[string]any)
	return m
}

// CountSlots is how many slots the segments hold together.
func CountSlots(segs []Segment) int {
	n := 0
	for _, s := range segs {
		n += len(s.Slots)
	}
	return n
}
