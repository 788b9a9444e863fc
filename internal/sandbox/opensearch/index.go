package opensearch

import (
	"encoding/json"
	"math/bits"
	"sync/atomic"

	"github.com/svcui/svcui/internal/sandbox/opensearch/analysis"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
)

// document is one stored document.
type document struct {
	id      string
	version int64
	seqNo   int64
	raw     []byte         // _source as sent
	src     map[string]any // parsed _source (numbers as json.Number)
}

// posting is one document's occurrence count of a term.
type posting struct {
	slot int32
	tf   int32
}

// textIndex is the inverted index of one text field, with the statistics BM25 needs.
type textIndex struct {
	postings map[string][]posting // may still list deleted slots; readers check liveness
	df       map[string]int32     // live document frequency per term
	dl       []int32              // token count per slot
	has      []bool               // slot has a value for the field
	docCount int64                // live docs with the field
	sumLen   int64                // total tokens over live docs
}

// column holds doc values of a keyword, numeric, date or boolean field, by slot.
type column struct {
	kind kind
	strs [][]string
	nums [][]float64

	// Keyword ordinals, so a terms aggregation counts in an array instead of hashing every
	// value: ords[slot] indexes terms when the slot has exactly one value, else it is -1;
	// multi tells whether any slot ever had several. The dictionary keeps values of deleted
	// documents until the index is rebuilt.
	ords  []int32
	dict  map[string]int32
	terms []string
	multi bool
}

// setOrd records the ordinal of a keyword slot's values.
func (c *column) setOrd(slot int32, vals []string) {
	for len(c.ords) <= int(slot) {
		c.ords = append(c.ords, -1)
	}
	c.ords[slot] = -1
	switch {
	case len(vals) > 1:
		c.multi = true
	case len(vals) == 1:
		o, ok := c.dict[vals[0]]
		if !ok {
			if c.dict == nil {
				c.dict = map[string]int32{}
			}
			o = int32(len(c.terms))
			c.dict[vals[0]] = o
			c.terms = append(c.terms, vals[0])
		}
		c.ords[slot] = o
	}
}

func (c *column) strAt(slot int32) []string {
	if int(slot) < len(c.strs) {
		return c.strs[slot]
	}
	return nil
}

func (c *column) numAt(slot int32) []float64 {
	if int(slot) < len(c.nums) {
		return c.nums[slot]
	}
	return nil
}

func (c *column) has(slot int32) bool {
	if c.kind == kindKeyword {
		return len(c.strAt(slot)) > 0
	}
	return len(c.numAt(slot)) > 0
}

// index is one index: mapping, documents by slot, inverted indexes and doc values.
type index struct {
	name     string
	uuid     string
	created  int64
	shards   int
	replicas int
	settings map[string]any // other index settings, keyed without the "index." prefix
	mapping  *mapping
	fields   map[string]*fieldDef

	docs     []*document // by slot; nil once deleted
	ids      map[string]int32
	tombs    map[string]int64 // last version of deleted ids
	live     []uint64
	nlive    int
	ndeleted int
	seqNo    int64
	gen      uint64 // bumped on every write; invalidates derived caches (SQL)

	texts map[string]*textIndex
	cols  map[string]*column
	tf    map[string]int32 // scratch for term counting

	aliases map[string]*aliasDef // by alias name; nil until the first alias

	// Counters for _stats: writes happen under the cluster's write lock, searches under its
	// read lock (hence atomic).
	indexTotal  int64
	deleteTotal int64
	queryTotal  atomic.Int64

	nested nestedCache // side indices of nested objects, by path

	ismPolicy string // the ISM policy managing the index (_plugins/_ism/add), "" when none

	pins pinSet // open points in time

	nestedSide bool // the side index of nested objects (nested.go): their fields are its own
}

func newIndex(name, uuid string, created int64) *index {
	return &index{
		name: name, uuid: uuid, created: created, shards: 1, replicas: 1,
		settings: map[string]any{},
		mapping:  newMapping(),
		fields:   map[string]*fieldDef{},
		ids:      map[string]int32{},
		tombs:    map[string]int64{},
		texts:    map[string]*textIndex{},
		cols:     map[string]*column{},
		tf:       map[string]int32{},
	}
}

func (ix *index) isLive(slot int32) bool {
	w := int(slot) >> 6
	return w < len(ix.live) && ix.live[w]&(1<<(uint(slot)&63)) != 0
}

func (ix *index) liveCount() int { return ix.nlive }

func (ix *index) storeSize() int64 {
	var n int64
	for _, d := range ix.docs {
		if d != nil {
			n += int64(len(d.raw)) + 64
		}
	}
	return n + 208
}

// parse checks a document against the mapping (adding dynamic fields unless noDynamic).
func (ix *index) parse(id string, src map[string]any, noDynamic bool) ([]leaf, *apierr.Error) {
	p := &docParser{id: id, noDynamic: noDynamic}
	if err := p.walk(ix.mapping.props, "", ix.mapping.dynamic, src); err != nil {
		p.rollback()
		return nil, err
	}
	if len(p.added) > 0 {
		ix.fields = ix.mapping.flatten()
	}
	if !ix.nestedSide {
		return dropNested(ix.fields, p.leaves), nil
	}
	return p.leaves, nil
}

// writeResult is what a write operation reports.
type writeResult struct {
	id      string
	version int64
	seqNo   int64
	result  string // created, updated, deleted, not_found, noop
	status  int
}

// put indexes a document; create refuses an existing id.
func (ix *index) put(id string, raw []byte, src map[string]any, create bool) (writeResult, *apierr.Error) {
	old, exists := ix.ids[id]
	if exists && create {
		e := apierr.Errf(409, "version_conflict_engine_exception",
			"[%s]: version conflict, document already exists (current version [%d])", id, ix.docs[old].version)
		return writeResult{}, e.InIndex(ix.name, ix.uuid)
	}
	leaves, err := ix.parse(id, src, false)
	if err != nil {
		return writeResult{}, err
	}
	version := ix.tombs[id] + 1
	result, status := "created", 201
	if exists {
		version = ix.docs[old].version + 1
		ix.unindex(old)
		result, status = "updated", 200
	}
	delete(ix.tombs, id)
	ix.seqNo++
	ix.indexTotal++
	doc := &document{id: id, version: version, seqNo: ix.seqNo - 1, raw: raw, src: src}
	ix.add(doc, leaves)
	ix.gen++
	ix.maybeCompact()
	return writeResult{id: id, version: version, seqNo: doc.seqNo, result: result, status: status}, nil
}

// remove deletes a document by id.
func (ix *index) remove(id string) writeResult {
	ix.seqNo++
	slot, ok := ix.ids[id]
	if !ok {
		return writeResult{id: id, version: ix.tombs[id] + 1, seqNo: ix.seqNo - 1, result: "not_found", status: 404}
	}
	version := ix.docs[slot].version + 1
	ix.deleteTotal++
	ix.unindex(slot)
	ix.tombs[id] = version
	ix.ndeleted++
	ix.gen++
	ix.maybeCompact()
	return writeResult{id: id, version: version, seqNo: ix.seqNo - 1, result: "deleted", status: 200}
}

func (ix *index) get(id string) *document {
	if slot, ok := ix.ids[id]; ok {
		return ix.docs[slot]
	}
	return nil
}

// add stores a parsed document in a new slot.
func (ix *index) add(doc *document, leaves []leaf) {
	slot := int32(len(ix.docs))
	ix.docs = append(ix.docs, doc)
	ix.ids[doc.id] = slot
	for int(slot)>>6 >= len(ix.live) {
		ix.live = append(ix.live, 0)
	}
	ix.live[slot>>6] |= 1 << (uint(slot) & 63)
	ix.nlive++
	for i := range leaves {
		lf := &leaves[i]
		switch lf.kind {
		case kindText:
			ix.indexText(slot, lf)
		case kindKeyword:
			c := ix.column(lf.path, lf.kind)
			for len(c.strs) <= int(slot) {
				c.strs = append(c.strs, nil)
			}
			c.strs[slot] = lf.strs
			c.setOrd(slot, lf.strs)
		default:
			c := ix.column(lf.path, lf.kind)
			for len(c.nums) <= int(slot) {
				c.nums = append(c.nums, nil)
			}
			c.nums[slot] = lf.nums
		}
	}
}

func (ix *index) column(path string, k kind) *column {
	c := ix.cols[path]
	if c == nil {
		c = &column{kind: k}
		ix.cols[path] = c
	}
	return c
}

func (ix *index) textIndex(path string) *textIndex {
	t := ix.texts[path]
	if t == nil {
		t = &textIndex{postings: map[string][]posting{}, df: map[string]int32{}}
		ix.texts[path] = t
	}
	return t
}

func (ix *index) indexText(slot int32, lf *leaf) {
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
		t.postings[tok] = append(t.postings[tok], posting{slot, c})
		t.df[tok]++
	}
	for len(t.dl) <= int(slot) {
		t.dl = append(t.dl, 0)
		t.has = append(t.has, false)
	}
	t.dl[slot] = int32(n)
	t.has[slot] = true
	t.docCount++
	t.sumLen += int64(n)
}

// unindex retires a slot: statistics are corrected now, postings are skipped until compaction.
func (ix *index) unindex(slot int32) {
	doc := ix.docs[slot]
	ix.retire(doc)
	leaves, _ := ix.parse(doc.id, doc.src, true)
	for i := range leaves {
		lf := &leaves[i]
		switch lf.kind {
		case kindText:
			t := ix.texts[lf.path]
			if t == nil || int(slot) >= len(t.has) || !t.has[slot] {
				continue
			}
			clear(ix.tf)
			for _, s := range lf.strs {
				for _, tok := range analysis.Standard(s) {
					ix.tf[tok]++
				}
			}
			for tok := range ix.tf {
				if t.df[tok]--; t.df[tok] <= 0 {
					delete(t.df, tok)
				}
			}
			t.docCount--
			t.sumLen -= int64(t.dl[slot])
			t.dl[slot] = 0
			t.has[slot] = false
		case kindKeyword:
			if c := ix.cols[lf.path]; c != nil && int(slot) < len(c.strs) {
				c.strs[slot] = nil
				c.setOrd(slot, nil)
			}
		default:
			if c := ix.cols[lf.path]; c != nil && int(slot) < len(c.nums) {
				c.nums[slot] = nil
			}
		}
	}
	delete(ix.ids, doc.id)
	ix.docs[slot] = nil
	ix.live[slot>>6] &^= 1 << (uint(slot) & 63)
	ix.nlive--
}

// maybeCompact rebuilds the slot space once most slots are dead, dropping stale postings.
func (ix *index) maybeCompact() {
	dead := len(ix.docs) - ix.nlive
	if dead < 1024 || dead < ix.nlive {
		return
	}
	ix.rebuild()
}

func (ix *index) rebuild() {
	docs := ix.docs
	ix.docs = nil
	ix.ids = map[string]int32{}
	ix.live = nil
	ix.nlive = 0
	ix.texts = map[string]*textIndex{}
	ix.cols = map[string]*column{}
	for _, d := range docs {
		if d == nil {
			continue
		}
		leaves, _ := ix.parse(d.id, d.src, true)
		ix.add(d, leaves)
	}
}

// forEach calls f for every set bit in bs, in slot order.
func forEach(bs []uint64, f func(slot int32)) {
	for w, word := range bs {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			f(int32(w<<6 | b))
			word &= word - 1
		}
	}
}

func popcount(bs []uint64) int {
	n := 0
	for _, w := range bs {
		n += bits.OnesCount64(w)
	}
	return n
}

// sourceCopy re-parses a stored source so callers may modify it.
func (d *document) sourceCopy() map[string]any {
	v, err := apierr.DecodeJSON(d.raw)
	if err != nil {
		return map[string]any{}
	}
	m, _ := v.(map[string]any)
	return m
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte("null")
	}
	return b
}
