package opensearch

import (
	"bytes"
	"mime"
	"net/http"
	"time"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

// bulkOp is one parsed action (and its document line).
type bulkOp struct {
	action string // index, create, update, delete
	index  string
	id     string
	source []byte         // index/create document line
	update map[string]any // update body (its line is kept in source)
	// emptyID: "_id" was given as "", which the engine refuses per item (an absent _id is generated).
	emptyID bool
}

var bulkActions = map[string]bool{"index": true, "create": true, "update": true, "delete": true}

var bulkMetaKeys = map[string]bool{"_index": true, "_id": true, "routing": true, "_routing": true, "if_seq_no": true,
	"if_primary_term": true, "require_alias": true, "retry_on_conflict": true, "pipeline": true, "version": true,
	"version_type": true, "_source": true, "dynamic_templates": true, "_type": true, "op_type": true}

// parseBulk reads the whole NDJSON body first, so a malformed action line fails the request
// before anything is written, as the engine does.
func parseBulk(body []byte, defaultIndex string) ([]bulkOp, *apierr.Error) {
	if len(body) == 0 {
		return nil, apierr.Errf(400, "parse_exception", "request body is required")
	}
	if body[len(body)-1] != '\n' {
		return nil, apierr.BadRequest("The bulk request must be terminated by a newline [\\n]")
	}
	lines := bytes.Split(body[:len(body)-1], []byte("\n"))
	var ops []bulkOp
	var missing []string
	for i := 0; i < len(lines); i++ {
		line := bytes.TrimSpace(lines[i])
		if len(line) == 0 {
			continue
		}
		lineNo := i + 1
		v, err := apierr.DecodeJSON(line)
		if err != nil {
			ae, _ := err.(*apierr.Error)
			if ae == nil {
				ae = apierr.BadRequest("Malformed action/metadata line [%d]", lineNo)
			}
			return nil, ae
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, apierr.BadRequest("Malformed action/metadata line [%d], expected START_OBJECT or END_OBJECT but found [VALUE_STRING]", lineNo)
		}
		if len(m) != 1 {
			return nil, apierr.BadRequest("Malformed action/metadata line [%d], expected a simple value for field [%s] but found [START_OBJECT]", lineNo, firstKey(m))
		}
		var op bulkOp
		var meta map[string]any
		for k, x := range m {
			if !bulkActions[k] {
				return nil, apierr.BadRequest("Malformed action/metadata line [%d], expected one of [create, delete, index, update] but found [%s]", lineNo, k)
			}
			op.action = k
			meta, ok = x.(map[string]any)
			if !ok {
				return nil, apierr.BadRequest("Malformed action/metadata line [%d], expected START_OBJECT but found [%s]", lineNo, tokenName(x))
			}
		}
		for k, x := range meta {
			if !bulkMetaKeys[k] {
				return nil, apierr.BadRequest("Action/metadata line [%d] contains an unknown parameter [%s]", lineNo, k)
			}
			switch k {
			case "_index":
				op.index, _ = jsonval.String(x)
			case "_id":
				op.id, _ = jsonval.String(x)
				op.emptyID = x != nil && op.id == ""
			case "op_type":
				// An index action with op_type create is a create, and is answered as one.
				if s, _ := jsonval.String(x); s == "create" && op.action == "index" {
					op.action = "create"
				}
			}
		}
		if op.index == "" {
			op.index = defaultIndex
		}
		if op.index == "" {
			missing = append(missing, "index is missing")
		}
		if (op.action == "update" || op.action == "delete") && op.id == "" {
			missing = append(missing, "id is missing")
		}
		if op.action != "delete" {
			i++
			if i >= len(lines) {
				missing = append(missing, "source is missing")
				ops = append(ops, op)
				break
			}
			doc := bytes.TrimSpace(lines[i])
			if op.action == "update" {
				v, err := apierr.DecodeJSON(doc)
				if err != nil {
					ae, _ := err.(*apierr.Error)
					if ae == nil {
						ae = apierr.BadRequest("Malformed update line [%d]", i+1)
					}
					return nil, ae
				}
				um, ok := v.(map[string]any)
				if !ok {
					return nil, apierr.BadRequest("Malformed update request line [%d], expected START_OBJECT", i+1)
				}
				op.update = um
			}
			op.source = doc
		}
		ops = append(ops, op)
	}
	if len(missing) > 0 {
		reason := "Validation Failed: "
		for i, m := range missing {
			reason += itoa(i+1) + ": " + m + ";"
		}
		return nil, apierr.New(400, "action_request_validation_exception", reason)
	}
	return ops, nil
}

func firstKey(m map[string]any) string {
	keys := jsonval.SortedKeys(m)
	if len(keys) == 0 {
		return ""
	}
	return keys[1%len(keys)]
}

func tokenName(v any) string {
	switch v.(type) {
	case []any:
		return "START_ARRAY"
	case nil:
		return "VALUE_NULL"
	case bool:
		return "VALUE_BOOLEAN"
	case string:
		return "VALUE_STRING"
	}
	return "VALUE_NUMBER"
}

func checkNDJSON(r *http.Request) *apierr.Error {
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if ct == "" || err != nil || (mt != "application/x-ndjson" && mt != "application/json") {
		if ct == "" {
			return apierr.Errf(406, "illegal_argument_exception", "Content-Type header is missing")
		}
		return apierr.Errf(406, "illegal_argument_exception", "Content-Type header [%s] is not supported", ct)
	}
	return nil
}

func (c *Cluster) handleBulk(w http.ResponseWriter, r *http.Request, defaultIndex string, body []byte) {
	start := time.Now()
	if err := checkNDJSON(r); err != nil {
		c.fail(w, r, err)
		return
	}
	ops, err := parseBulk(body, defaultIndex)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	forced, err := forcedRefresh(r)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.mu.Lock()
	items, anyErr := c.execBulk(ops)
	c.mu.Unlock()
	if forced {
		for _, it := range items {
			if res, ok := it[0].V.(jsonout.Obj); ok {
				it[0].V = withForcedRefresh(res)
			}
		}
	}
	c.reply(w, r, 200, jsonout.Obj{{"took", time.Since(start).Milliseconds()}, {"errors", anyErr}, {"items", items}})
}

// execBulk applies parsed operations in order; the caller holds the write lock.
func (c *Cluster) execBulk(ops []bulkOp) ([]jsonout.Obj, bool) {
	items := make([]jsonout.Obj, 0, len(ops))
	anyErr := false
	for _, op := range ops {
		var res index.WriteResult
		var ix *index.Index
		var err *apierr.Error
		switch op.action {
		case "index", "create":
			if op.emptyID {
				// Checked per item by the engine (bulk/10_basic.yml "Empty _id"): this item fails, the rest run.
				err = apierr.BadRequest("if _id is specified it must not be empty")
				break
			}
			if err = c.backingWriteErr(op.index, op.action == "create", false); err == nil {
				res, ix, err = c.indexDoc(op.index, op.id, op.source, op.action == "create")
			}
			if err == nil && op.id == "" {
				op.id = res.ID
			}
		case "update":
			if verr := validateIndexName(op.index); verr != nil {
				err = verr
			} else {
				res, ix, err = c.updateDoc(op.index, op.id, op.update, op.source)
			}
		case "delete":
			if err = c.streamWriteErr(op.index); err != nil {
				break
			}
			if existing, derr := c.docTarget(op.index); derr == nil {
				ix = existing
				res = ix.Remove(op.id)
			} else if existing != nil {
				ix, err = existing, derr
			} else {
				res = index.WriteResult{ID: op.id, Version: 1, Result: "not_found", Status: 404}
			}
		}
		if ix != nil {
			op.index = ix.Name // a write through an alias reports the index it went to
		}
		var item jsonout.Obj
		if err != nil {
			anyErr = true
			e := jsonout.Obj{{"type", err.Type}, {"reason", err.Reason}}
			if err.Type == "index_closed_exception" { // IndexClosedException names the index, no shard
				e = err.Body()
			} else if err.Index != "" || ix != nil {
				uuid := "_na_"
				if ix != nil {
					uuid = ix.UUID
				}
				e = append(e, jsonout.KV{"index", op.index}, jsonout.KV{"shard", "0"}, jsonout.KV{"index_uuid", uuid})
			}
			if err.CausedBy != nil {
				e = append(e, jsonout.KV{"caused_by", err.CausedBy.Body()})
			}
			item = jsonout.Obj{{"_index", op.index}, {"_id", op.id}, {"status", err.Status}, {"error", e}}
		} else {
			shards := jsonout.Obj{{"total", 2}, {"successful", 1}, {"failed", 0}}
			if ix != nil {
				shards = c.shardsFor(ix)
			}
			if res.Result == "noop" || (ix == nil && res.Result == "not_found") {
				shards = jsonout.Obj{{"total", 0}, {"successful", 0}, {"failed", 0}}
			}
			item = jsonout.Obj{{"_index", op.index}, {"_id", res.ID}, {"_version", res.Version}, {"result", res.Result},
				{"_shards", shards}, {"_seq_no", res.SeqNo}, {"_primary_term", 1}, {"status", res.Status}}
		}
		items = append(items, jsonout.Obj{{op.action, item}})
	}
	return items, anyErr
}
