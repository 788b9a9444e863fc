package opensearch

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/painless"
)

const maxIDBytes = 512

// parseSource checks a document body; failures are the engine's mapper_parsing_exception.
func parseSource(raw []byte) (map[string]any, *apiError) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, errf(400, "action_request_validation_exception", "Validation Failed: 1: source is missing;")
	}
	v, err := decodeJSON(raw)
	if err != nil {
		e := errf(400, "mapper_parsing_exception", "failed to parse")
		if ae, ok := err.(*apiError); ok {
			e.causedBy = ae
		}
		return nil, e
	}
	m, ok := v.(map[string]any)
	if !ok {
		e := errf(400, "mapper_parsing_exception", "failed to parse")
		e.causedBy = errf(400, "not_x_content_exception", "Compressor detection can only be called on some xcontent bytes or compressed xcontent bytes")
		return nil, e
	}
	return m, nil
}

func validateID(id string) *apiError {
	if len(id) > maxIDBytes {
		return errf(400, "action_request_validation_exception",
			"Validation Failed: 1: id [%s] is too long, must be no longer than 512 bytes but was: %d;", id, len(id))
	}
	if id == "" {
		return errf(400, "action_request_validation_exception", "Validation Failed: 1: an id must be provided if version type or value are set;")
	}
	return nil
}

func (c *Cluster) shardsFor(ix *index) obj {
	return obj{{"total", 1 + ix.replicas}, {"successful", 1 + c.assignedReplicas(ix)}, {"failed", 0}}
}

func (c *Cluster) writeBody(ix *index, res writeResult) obj {
	shards := c.shardsFor(ix)
	if res.result == "noop" {
		shards = obj{{"total", 0}, {"successful", 0}, {"failed", 0}}
	}
	return obj{{"_index", ix.name}, {"_id", res.id}, {"_version", res.version}, {"result", res.result},
		{"_shards", shards}, {"_seq_no", res.seqNo}, {"_primary_term", 1}}
}

// indexDoc writes one document; the caller holds the write lock.
func (c *Cluster) indexDoc(indexName, id string, raw []byte, create bool) (writeResult, *index, *apiError) {
	if err := validateIndexName(indexName); err != nil {
		return writeResult{}, nil, err
	}
	src, err := parseSource(raw)
	if err != nil {
		return writeResult{}, nil, err
	}
	if id == "" {
		id = newDocID()
	} else if err := validateID(id); err != nil {
		return writeResult{}, nil, err
	}
	ix, err := c.indexForWrite(indexName)
	if err != nil {
		return writeResult{}, nil, err
	}
	res, err := ix.put(id, bytes.TrimSpace(raw), src, create)
	if err != nil {
		if err.index == "" && err.status == 409 {
			err.index = ix.name
		}
		return writeResult{}, ix, err
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
			d := ix.get(id)
			if d == nil || d.seqNo != want {
				cur := "document does not exist"
				if d != nil {
					cur = "current document has seqNo [" + itoa64(d.seqNo) + "] and primary term [1]"
				}
				c.mu.Unlock()
				e := errf(409, "version_conflict_engine_exception", "[%s]: version conflict, required seqNo [%d], primary term [1]. %s", id, want, cur)
				c.fail(w, r, e.inIndex(ix))
				return
			}
		}
	}
	res, ix, err := c.indexDoc(indexName, id, body, create)
	var out obj
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
	c.reply(w, r, res.status, out)
}

func (c *Cluster) handleGetDoc(w http.ResponseWriter, r *http.Request, indexName, id string, sourceOnly bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	ix, err := c.docTarget(indexName)
	if err != nil {
		if err.typ == "index_not_found_exception" {
			err = indexExprNotFound(indexName)
		}
		c.fail(w, r, err)
		return
	}
	indexName = ix.name
	d := ix.get(id)
	if d == nil {
		if sourceOnly {
			e := errf(404, "resource_not_found_exception", "Document not found [%s]/[%s]", indexName, id)
			c.fail(w, r, e)
			return
		}
		c.reply(w, r, 404, obj{{"_index", indexName}, {"_id", id}, {"found", false}})
		return
	}
	if sourceOnly {
		c.reply(w, r, 200, json.RawMessage(d.raw))
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
	ix, err := c.docTarget(indexName)
	if err != nil {
		c.mu.Unlock()
		c.fail(w, r, err)
		return
	}
	res := ix.remove(id)
	out := c.writeBody(ix, res)
	c.mu.Unlock()
	if forced {
		out = withForcedRefresh(out)
	}
	c.reply(w, r, res.status, out)
}

// updateDoc applies a partial update (doc, doc_as_upsert, upsert); raw is the update body as sent,
// so stored sources keep the key order the client wrote. The caller holds the write lock.
func (c *Cluster) updateDoc(indexName, id string, body map[string]any, raw []byte) (writeResult, *index, *apiError) {
	for k := range body {
		switch k {
		case "doc", "doc_as_upsert", "upsert", "detect_noop", "_source", "scripted_upsert", "script":
		default:
			return writeResult{}, nil, parsingErr("[UpdateRequest] unknown field [%s]", k)
		}
	}
	if sv, ok := body["script"]; ok {
		if _, both := body["doc"]; both {
			return writeResult{}, nil, errf(400, "action_request_validation_exception", "Validation Failed: 1: can't provide both script and doc;")
		}
		sc, err := parseScript(sv)
		if err != nil {
			return writeResult{}, nil, err
		}
		return c.scriptUpdate(indexName, id, sc, body)
	}
	doc, hasDoc := body["doc"].(map[string]any)
	if _, present := body["doc"]; present && !hasDoc {
		return writeResult{}, nil, parsingErr("[UpdateRequest] doc doesn't support values of type: VALUE_STRING")
	}
	upsertAsDoc, _ := jsonval.Bool(body["doc_as_upsert"])
	upsert, hasUpsert := body["upsert"].(map[string]any)
	if !hasDoc && !hasUpsert {
		return writeResult{}, nil, errf(400, "action_request_validation_exception", "Validation Failed: 1: script or doc is missing;")
	}
	ix, exists := c.indices[indexName]
	if !exists && c.isAlias(indexName) {
		var err *apiError
		if ix, err = c.writeIndexOf(indexName); err != nil {
			return writeResult{}, nil, err
		}
		indexName, exists = ix.name, true
	}
	var current *document
	if exists {
		current = ix.get(id)
	}
	if current == nil {
		var src map[string]any
		var srcKey string
		switch {
		case upsertAsDoc && hasDoc:
			src, srcKey = doc, "doc"
		case hasUpsert:
			src, srcKey = upsert, "upsert"
		case !exists:
			return writeResult{}, nil, indexNotFound(indexName)
		default:
			e := errf(404, "document_missing_exception", "[%s]: document missing", id)
			return writeResult{}, ix, e.inIndex(ix)
		}
		srcRaw := rawMember(raw, srcKey)
		if srcRaw == nil {
			srcRaw = mustJSON(src)
		}
		return c.indexDoc(indexName, id, srcRaw, false)
	}
	merged := current.sourceCopy()
	deepMerge(merged, doc)
	noop := true
	if v, ok := jsonval.Bool(body["detect_noop"]); ok {
		noop = v
	}
	if noop && bytes.Equal(mustJSON(jsonval.Plain(merged)), mustJSON(jsonval.Plain(current.src))) {
		return writeResult{id: id, version: current.version, seqNo: current.seqNo, result: "noop", status: 200}, ix, nil
	}
	mergedRaw := mustJSON(merged)
	if docRaw := rawMember(raw, "doc"); docRaw != nil {
		mergedRaw = mergeRaw(current.raw, docRaw)
	}
	res, err := ix.put(id, mergedRaw, merged, false)
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
	m, _ := asMap(v)
	c.mu.Lock()
	res, ix, err := c.updateDoc(indexName, id, m, body)
	var out obj
	if err == nil {
		out = c.writeBody(ix, res)
		// A noop writes nothing, so there is nothing to refresh.
		if forced && res.result != "noop" {
			out = withForcedRefresh(out)
		}
	}
	c.mu.Unlock()
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.reply(w, r, res.status, out)
}

// scriptUpdate runs an update script on a document (or its upsert); ctx.op may turn the update
// into a noop or a delete. The caller holds the write lock.
func (c *Cluster) scriptUpdate(indexName, id string, sc *painless.Script, body map[string]any) (writeResult, *index, *apiError) {
	ix, exists := c.indices[indexName]
	if !exists && c.isAlias(indexName) {
		var err *apiError
		if ix, err = c.writeIndexOf(indexName); err != nil {
			return writeResult{}, nil, err
		}
		indexName, exists = ix.name, true
	}
	var current *document
	if exists {
		current = ix.get(id)
	}
	if current == nil {
		upsert, hasUpsert := body["upsert"].(map[string]any)
		if !hasUpsert {
			if !exists {
				return writeResult{}, nil, indexNotFound(indexName)
			}
			e := errf(404, "document_missing_exception", "[%s]: document missing", id)
			return writeResult{}, ix, e.inIndex(ix)
		}
		if scripted, _ := jsonval.Bool(body["scripted_upsert"]); scripted {
			op, err := runScript(sc, upsert)
			if err != nil {
				return writeResult{}, ix, err
			}
			if op != "index" {
				return writeResult{id: id, version: 0, result: "noop", status: 200}, ix, nil
			}
		}
		return c.indexDoc(indexName, id, mustJSON(upsert), false)
	}
	return applyScript(ix, current, sc)
}

// applyScript runs a script on a stored document and writes the result.
func applyScript(ix *index, d *document, sc *painless.Script) (writeResult, *index, *apiError) {
	src := d.sourceCopy()
	op, err := runScript(sc, src)
	if err != nil {
		return writeResult{}, ix, err
	}
	switch op {
	case "noop":
		return writeResult{id: d.id, version: d.version, seqNo: d.seqNo, result: "noop", status: 200}, ix, nil
	case "delete":
		return ix.remove(d.id), ix, nil
	}
	res, perr := ix.put(d.id, mustJSON(src), src, false)
	return res, ix, perr
}
