package opensearch

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
	"github.com/svcui/svcui/internal/sandbox/opensearch/painless"
)

const maxIDBytes = 512

// parseSource checks a document body; failures are the engine's mapper_parsing_exception.
func parseSource(raw []byte) (map[string]any, *apierr.Error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, apierr.Errf(400, "action_request_validation_exception", "Validation Failed: 1: source is missing;")
	}
	v, err := apierr.DecodeJSON(raw)
	if err != nil {
		e := apierr.Errf(400, "mapper_parsing_exception", "failed to parse")
		if ae, ok := err.(*apierr.Error); ok {
			e.CausedBy = ae
		}
		return nil, e
	}
	m, ok := v.(map[string]any)
	if !ok {
		e := apierr.Errf(400, "mapper_parsing_exception", "failed to parse")
		e.CausedBy = apierr.Errf(400, "not_x_content_exception", "Compressor detection can only be called on some xcontent bytes or compressed xcontent bytes")
		return nil, e
	}
	return m, nil
}

func validateID(id string) *apierr.Error {
	if len(id) > maxIDBytes {
		return apierr.Errf(400, "action_request_validation_exception",
			"Validation Failed: 1: id [%s] is too long, must be no longer than 512 bytes but was: %d;", id, len(id))
	}
	if id == "" {
		return apierr.Errf(400, "action_request_validation_exception", "Validation Failed: 1: an id must be provided if version type or value are set;")
	}
	return nil
}

func (c *Cluster) shardsFor(ix *index.Index) jsonout.Obj {
	return jsonout.Obj{{"total", 1 + ix.Replicas}, {"successful", 1 + c.assignedReplicas(ix)}, {"failed", 0}}
}

func (c *Cluster) writeBody(ix *index.Index, res index.WriteResult) jsonout.Obj {
	shards := c.shardsFor(ix)
	if res.Result == "noop" {
		shards = jsonout.Obj{{"total", 0}, {"successful", 0}, {"failed", 0}}
	}
	return jsonout.Obj{{"_index", ix.Name}, {"_id", res.ID}, {"_version", res.Version}, {"result", res.Result},
		{"_shards", shards}, {"_seq_no", res.SeqNo}, {"_primary_term", 1}}
}

// indexDoc writes one document; the caller holds the write lock.
func (c *Cluster) indexDoc(indexName, id string, raw []byte, create bool) (index.WriteResult, *index.Index, *apierr.Error) {
	if err := validateIndexName(indexName); err != nil {
		return index.WriteResult{}, nil, err
	}
	src, err := parseSource(raw)
	if err != nil {
		return index.WriteResult{}, nil, err
	}
	return c.indexParsed(indexName, id, raw, src, create)
}

// indexParsed is indexDoc once the source is parsed: src is raw parsed by parseSource.
func (c *Cluster) indexParsed(indexName, id string, raw []byte, src map[string]any, create bool) (index.WriteResult, *index.Index, *apierr.Error) {
	if id == "" {
		id = newDocID()
	} else if err := validateID(id); err != nil {
		return index.WriteResult{}, nil, err
	}
	ds, err := c.streamForWrite(indexName, create)
	if err != nil {
		return index.WriteResult{}, nil, err
	}
	var ix *index.Index
	if ds != nil {
		ix = ds.indices[len(ds.indices)-1]
		if err := ds.checkTimestamp(src); err != nil {
			return index.WriteResult{}, ix, err
		}
	} else if ix, err = c.indexForWrite(indexName); err != nil {
		return index.WriteResult{}, nil, err
	}
	if err := c.openForWrite(ix); err != nil {
		return index.WriteResult{}, ix, err
	}
	res, err := ix.Put(id, bytes.TrimSpace(raw), src, create)
	if err != nil {
		if err.Index == "" && err.Status == 409 {
			err.Index = ix.Name
		}
		return index.WriteResult{}, ix, err
	}
	return res, ix, nil
}

func (c *Cluster) handleIndexDoc(w http.ResponseWriter, r *http.Request, indexName, id string, body []byte, create bool) {
	forced, ferr := forcedRefresh(r)
	if ferr != nil {
		c.fail(w, r, ferr)
		return
	}
	c.mu.Lock()
	if sq := r.URL.Query().Get("if_seq_no"); sq != "" {
		if ix, ok := c.indices[indexName]; ok {
			want, _ := strconv.ParseInt(sq, 10, 64)
			d := ix.Get(id)
			if d == nil || d.SeqNo != want {
				cur := "document does not exist"
				if d != nil {
					cur = "current document has seqNo [" + itoa64(d.SeqNo) + "] and primary term [1]"
				}
				c.mu.Unlock()
				e := apierr.Errf(409, "version_conflict_engine_exception", "[%s]: version conflict, required seqNo [%d], primary term [1]. %s", id, want, cur)
				c.fail(w, r, e.InIndex(ix.Name, ix.UUID))
				return
			}
		}
	}
	var res index.WriteResult
	var ix *index.Index
	err := c.backingWriteErr(indexName, create, r.URL.Query().Has("if_seq_no"))
	if err == nil {
		res, ix, err = c.indexDoc(indexName, id, body, create)
	}
	var out jsonout.Obj
	if err == nil {
		out = c.writeBody(ix, res)
		if forced {
			out = withForcedRefresh(out)
		}
	}
	c.mu.Unlock()
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.reply(w, r, res.Status, out)
}

func (c *Cluster) handleGetDoc(w http.ResponseWriter, r *http.Request, indexName, id string, sourceOnly bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	ix, err := c.docTarget(indexName)
	if err != nil {
		if err.Type == "index_not_found_exception" {
			err = apierr.IndexExprNotFound(indexName)
		}
		c.fail(w, r, err)
		return
	}
	indexName = ix.Name
	d := ix.Get(id)
	if d == nil {
		if sourceOnly {
			e := apierr.Errf(404, "resource_not_found_exception", "Document not found [%s]/[%s]", indexName, id)
			c.fail(w, r, e)
			return
		}
		c.reply(w, r, 404, jsonout.Obj{{"_index", indexName}, {"_id", id}, {"found", false}})
		return
	}
	if sourceOnly {
		c.reply(w, r, 200, json.RawMessage(d.Raw))
		return
	}
	filter, ferr := parseSourceFilter(sourceParamFromQuery(r))
	if ferr != nil {
		c.fail(w, r, ferr)
		return
	}
	c.reply(w, r, 200, getView(ix, d, filter))
}

// sourceParamFromQuery reads _source, _source_includes and _source_excludes URL parameters.
func sourceParamFromQuery(r *http.Request) any {
	q := r.URL.Query()
	inc, exc := q.Get("_source_includes"), q.Get("_source_excludes")
	if inc != "" || exc != "" {
		m := map[string]any{}
		if inc != "" {
			m["includes"] = splitList(inc)
		}
		if exc != "" {
			m["excludes"] = splitList(exc)
		}
		return m
	}
	if q.Has("_source") {
		s := q.Get("_source")
		switch s {
		case "true", "":
			return true
		case "false":
			return false
		}
		return splitList(s)
	}
	return nil
}

func splitList(s string) []any {
	var out []any
	for _, p := range bytes.Split([]byte(s), []byte(",")) {
		if t := string(bytes.TrimSpace(p)); t != "" {
			out = append(out, t)
		}
	}
	return out
}

func (c *Cluster) handleDeleteDoc(w http.ResponseWriter, r *http.Request, indexName, id string) {
	forced, ferr := forcedRefresh(r)
	if ferr != nil {
		c.fail(w, r, ferr)
		return
	}
	c.mu.Lock()
	err := c.streamWriteErr(indexName)
	var ix *index.Index
	if err == nil {
		ix, err = c.docTarget(indexName)
	}
	if err != nil {
		c.mu.Unlock()
		c.fail(w, r, err)
		return
	}
	res := ix.Remove(id)
	out := c.writeBody(ix, res)
	c.mu.Unlock()
	if forced {
		out = withForcedRefresh(out)
	}
	c.reply(w, r, res.Status, out)
}

// updateDoc applies a partial update (doc, doc_as_upsert, upsert); raw is the update body as sent,
// so stored sources keep the key order the client wrote. The caller holds the write lock.
func (c *Cluster) updateDoc(indexName, id string, body map[string]any, raw []byte) (index.WriteResult, *index.Index, *apierr.Error) {
	for k := range body {
		switch k {
		case "doc", "doc_as_upsert", "upsert", "detect_noop", "_source", "scripted_upsert", "script":
		default:
			return index.WriteResult{}, nil, apierr.Parsing("[UpdateRequest] unknown field [%s]", k)
		}
	}
	if sv, ok := body["script"]; ok {
		if _, both := body["doc"]; both {
			return index.WriteResult{}, nil, apierr.Errf(400, "action_request_validation_exception", "Validation Failed: 1: can't provide both script and doc;")
		}
		sc, err := parseScript(sv)
		if err != nil {
			return index.WriteResult{}, nil, err
		}
		return c.scriptUpdate(indexName, id, sc, body)
	}
	doc, hasDoc := body["doc"].(map[string]any)
	if _, present := body["doc"]; present && !hasDoc {
		return index.WriteResult{}, nil, apierr.Parsing("[UpdateRequest] doc doesn't support values of type: VALUE_STRING")
	}
	upsertAsDoc, _ := jsonval.Bool(body["doc_as_upsert"])
	upsert, hasUpsert := body["upsert"].(map[string]any)
	if !hasDoc && !hasUpsert {
		return index.WriteResult{}, nil, apierr.Errf(400, "action_request_validation_exception", "Validation Failed: 1: script or doc is missing;")
	}
	indexName, ix, current, err := c.updateTarget(indexName, id)
	if err != nil {
		return index.WriteResult{}, ix, err
	}
	exists := ix != nil
	if current == nil {
		var src map[string]any
		var srcKey string
		switch {
		case upsertAsDoc && hasDoc:
			src, srcKey = doc, "doc"
		case hasUpsert:
			src, srcKey = upsert, "upsert"
		case !exists:
			return index.WriteResult{}, nil, apierr.IndexNotFound(indexName)
		default:
			e := apierr.Errf(404, "document_missing_exception", "[%s]: document missing", id)
			return index.WriteResult{}, ix, e.InIndex(ix.Name, ix.UUID)
		}
		srcRaw := jsonval.RawMember(raw, srcKey)
		if srcRaw == nil {
			srcRaw = jsonout.Marshal(src)
		}
		return c.indexDoc(indexName, id, srcRaw, false)
	}
	merged := current.SourceCopy()
	deepMerge(merged, doc)
	noop := true
	if v, ok := jsonval.Bool(body["detect_noop"]); ok {
		noop = v
	}
	if noop && bytes.Equal(jsonout.Marshal(jsonval.Plain(merged)), jsonout.Marshal(jsonval.Plain(current.Src))) {
		return index.WriteResult{ID: id, Version: current.Version, SeqNo: current.SeqNo, Result: "noop", Status: 200}, ix, nil
	}
	mergedRaw := jsonout.Marshal(merged)
	if docRaw := jsonval.RawMember(raw, "doc"); docRaw != nil {
		mergedRaw = jsonval.MergeRaw(current.Raw, docRaw)
	}
	res, err := ix.Put(id, mergedRaw, merged, false)
	return res, ix, err
}

// deepMerge merges src into dst the way partial updates do: objects recursively, the rest replaced.
func deepMerge(dst, src map[string]any) {
	for k, v := range src {
		if sm, ok := v.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				deepMerge(dm, sm)
				continue
			}
		}
		dst[k] = v
	}
}

func (c *Cluster) handleUpdate(w http.ResponseWriter, r *http.Request, indexName, id string, body []byte) {
	forced, err := forcedRefresh(r)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	v, err := parseBody(body, true)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	m, _ := jsonval.Map(v)
	c.mu.Lock()
	res, ix, err := c.updateDoc(indexName, id, m, body)
	var out jsonout.Obj
	if err == nil {
		out = c.writeBody(ix, res)
		// A noop writes nothing, so there is nothing to refresh.
		if forced && res.Result != "noop" {
			out = withForcedRefresh(out)
		}
	}
	c.mu.Unlock()
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.reply(w, r, res.Status, out)
}

// updateTarget resolves where an update of id in name writes: a data stream refuses updates
// through its name, an alias writes to its write index, a closed index refuses. ix is nil
// when the index does not exist yet (an upsert creates it); current is the document, if any.
// The caller holds the write lock.
func (c *Cluster) updateTarget(name, id string) (string, *index.Index, *index.Document, *apierr.Error) {
	if err := c.streamWriteErr(name); err != nil {
		return name, nil, nil, err
	}
	ix, exists := c.indices[name]
	if !exists && c.isAlias(name) {
		var err *apierr.Error
		if ix, err = c.writeIndexOf(name); err != nil {
			return name, nil, nil, err
		}
		name, exists = ix.Name, true
	}
	if !exists {
		return name, nil, nil, nil
	}
	if err := c.openForWrite(ix); err != nil {
		return name, ix, nil, err
	}
	return name, ix, ix.Get(id), nil
}

// scriptUpdate runs an update script on a document (or its upsert); ctx.op may turn the update
// into a noop or a delete. The caller holds the write lock.
func (c *Cluster) scriptUpdate(indexName, id string, sc *painless.Script, body map[string]any) (index.WriteResult, *index.Index, *apierr.Error) {
	indexName, ix, current, err := c.updateTarget(indexName, id)
	if err != nil {
		return index.WriteResult{}, ix, err
	}
	exists := ix != nil
	if current == nil {
		upsert, hasUpsert := body["upsert"].(map[string]any)
		if !hasUpsert {
			if !exists {
				return index.WriteResult{}, nil, apierr.IndexNotFound(indexName)
			}
			e := apierr.Errf(404, "document_missing_exception", "[%s]: document missing", id)
			return index.WriteResult{}, ix, e.InIndex(ix.Name, ix.UUID)
		}
		if scripted, _ := jsonval.Bool(body["scripted_upsert"]); scripted {
			op, err := runScript(sc, upsert)
			if err != nil {
				return index.WriteResult{}, ix, err
			}
			if op != "index" {
				return index.WriteResult{ID: id, Version: 0, Result: "noop", Status: 200}, ix, nil
			}
		}
		return c.indexDoc(indexName, id, jsonout.Marshal(upsert), false)
	}
	return applyScript(ix, current, sc)
}

// applyScript runs a script on a stored document and writes the result.
func applyScript(ix *index.Index, d *index.Document, sc *painless.Script) (index.WriteResult, *index.Index, *apierr.Error) {
	src := d.SourceCopy()
	op, err := runScript(sc, src)
	if err != nil {
		return index.WriteResult{}, ix, err
	}
	switch op {
	case "noop":
		return index.WriteResult{ID: d.ID, Version: d.Version, SeqNo: d.SeqNo, Result: "noop", Status: 200}, ix, nil
	case "delete":
		return ix.Remove(d.ID), ix, nil
	}
	res, perr := ix.Put(d.ID, jsonout.Marshal(src), src, false)
	return res, ix, perr
}
