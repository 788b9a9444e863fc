package opensearch

import (
	"bytes"
	"mime"
	"net/http"
	"time"

	"github.com/svcui/svcui/internal/jsonval"
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
func parseBulk(body []byte, defaultIndex string) ([]bulkOp, *apiError) {
	if len(body) == 0 {
		return nil, errf(400, "parse_exception", "request body is required")
	}
	if body[len(body)-1] != '\n' {
		return nil, badRequest("The bulk request must be terminated by a newline [\\n]")
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
		v, err := decodeJSON(line)
		if err != nil {
			ae, _ := err.(*apiError)
			if ae == nil {
				ae = badRequest("Malformed action/metadata line [%d]", lineNo)
			}
			return nil, ae
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, badRequest("Malformed action/metadata line [%d], expected START_OBJECT or END_OBJECT but found [VALUE_STRING]", lineNo)
		}
		if len(m) != 1 {
			return nil, badRequest("Malformed action/metadata line [%d], expected a simple value for field [%s] but found [START_OBJECT]", lineNo, firstKey(m))
		}
		var op bulkOp
		var meta map[string]any
		for k, x := range m {
			if !bulkActions[k] {
				return nil, badRequest("Malformed action/metadata line [%d], expected one of [create, delete, index, update] but found [%s]", lineNo, k)
			}
			op.action = k
			meta, ok = x.(map[string]any)
			if !ok {
				return nil, badRequest("Malformed action/metadata line [%d], expected START_OBJECT but found [%s]", lineNo, tokenName(x))
			}
		}
		for k, x := range meta {
			if !bulkMetaKeys[k] {
				return nil, badRequest("Action/metadata line [%d] contains an unknown parameter [%s]", lineNo, k)
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
				v, err := decodeJSON(doc)
				if err != nil {
					ae, _ := err.(*apiError)
					if ae == nil {
						ae = badRequest("Malformed update line [%d]", i+1)
					}
					return nil, ae
				}
				um, ok := v.(map[string]any)
				if !ok {
					return nil, badRequest("Malformed update request line [%d], expected START_OBJECT", i+1)
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
		return nil, newErr(400, "action_request_validation_exception", reason)
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

func checkNDJSON(r *http.Request) *apiError {
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if ct == "" || err != nil || (mt != "application/x-ndjson" && mt != "application/json") {
		if ct == "" {
			return errf(406, "illegal_argument_exception", "Content-Type header is missing")
		}
		return errf(406, "illegal_argument_exception", "Content-Type header [%s] is not supported", ct)
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
			if res, ok := it[0].v.(obj); ok {
				it[0].v = withForcedRefresh(res)
			}
		}
	}
	c.reply(w, r, 200, obj{{"took", time.Since(start).Milliseconds()}, {"errors", anyErr}, {"items", items}})
}

// execBulk applies parsed operations in order; the caller holds the write lock.
func (c *Cluster) execBulk(ops []bulkOp) ([]obj, bool) {
	items := make([]obj, 0, len(ops))
	anyErr := false
	for _, op := range ops {
		var res writeResult
		var ix *index
		var err *apiError
		switch op.action {
		case "index", "create":
			if op.emptyID {
				// Checked per item by the engine (bulk/10_basic.yml "Empty _id"): this item fails, the rest run.
				err = badRequest("if _id is specified it must not be empty")
				break
			}
			res, ix, err = c.indexDoc(op.index, op.id, op.source, op.action == "create")
			if err == nil && op.id == "" {
				op.id = res.id
			}
		case "update":
			if verr := validateIndexName(op.index); verr != nil {
				err = verr
			} else {
				res, ix, err = c.updateDoc(op.index, op.id, op.update, op.source)
			}
		case "delete":
			if existing, derr := c.docTarget(op.index); derr == nil {
				ix = existing
				res = ix.remove(op.id)
			} else {
				res = writeResult{id: op.id, version: 1, result: "not_found", status: 404}
			}
		}
		if ix != nil {
			op.index = ix.name // a write through an alias reports the index it went to
		}
		var item obj
		if err != nil {
			anyErr = true
			e := obj{{"type", err.typ}, {"reason", err.reason}}
			if err.index != "" || ix != nil {
				uuid := "_na_"
				if ix != nil {
					uuid = ix.uuid
				}
				e = append(e, kv{"index", op.index}, kv{"shard", "0"}, kv{"index_uuid", uuid})
			}
			if err.causedBy != nil {
				e = append(e, kv{"caused_by", err.causedBy.body()})
			}
			item = obj{{"_index", op.index}, {"_id", op.id}, {"status", err.status}, {"error", e}}
		} else {
			shards := obj{{"total", 2}, {"successful", 1}, {"failed", 0}}
			if ix != nil {
				shards = c.shardsFor(ix)
			}
			if res.result == "noop" || (ix == nil && res.result == "not_found") {
				shards = obj{{"total", 0}, {"successful", 0}, {"failed", 0}}
			}
			item = obj{{"_index", op.index}, {"_id", res.id}, {"_version", res.version}, {"result", res.result},
				{"_shards", shards}, {"_seq_no", res.seqNo}, {"_primary_term", 1}, {"status", res.status}}
		}
		items = append(items, obj{{op.action, item}})
	}
	return items, anyErr
}
