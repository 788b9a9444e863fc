package opensearch

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// apiError is an engine error; it renders as {"error":{"root_cause":[...],"type","reason",...},"status"}.
type apiError struct {
	status   int
	typ      string
	reason   string
	index    string // adds "index" and "index_uuid" members when set
	shard    string // adds "shard" (between index and index_uuid) when set
	uuid     string // the index_uuid shown; "_na_" when unset
	extra    obj    // further members of the error object
	root     *apiError
	causedBy *apiError
}

func (e *apiError) Error() string { return e.typ + ": " + e.reason }

func newErr(status int, typ, reason string) *apiError {
	return &apiError{status: status, typ: typ, reason: reason}
}

func errf(status int, typ, format string, args ...any) *apiError {
	return newErr(status, typ, fmt.Sprintf(format, args...))
}

func badRequest(format string, args ...any) *apiError {
	return errf(400, "illegal_argument_exception", format, args...)
}

func parsingErr(format string, args ...any) *apiError {
	return errf(400, "parsing_exception", format, args...)
}

// indexExprNotFound is the missing index of a single-index request (get, mget): the resolver
// names the resource an index_expression there.
func indexExprNotFound(name string) *apiError {
	e := indexNotFound(name)
	e.extra = obj{{"resource.type", "index_expression"}, {"resource.id", name}}
	return e
}

func indexNotFound(name string) *apiError {
	e := errf(404, "index_not_found_exception", "no such index [%s]", name)
	e.index = name
	e.extra = obj{{"resource.type", "index_or_alias"}, {"resource.id", name}}
	return e
}

// shardFailure wraps a per-shard failure the way a search reports it: search_phase_execution_exception
// on top, the real cause as root_cause and caused_by.
func shardFailure(cause *apiError, index string) *apiError {
	top := newErr(cause.status, "search_phase_execution_exception", "all shards failed")
	inner := *cause
	if inner.index == "" {
		inner.index = index
	}
	top.root = &inner
	top.causedBy = cause
	top.extra = obj{
		{"phase", "query"},
		{"grouped", true},
		{"failed_shards", []obj{{{"shard", 0}, {"index", index}, {"node", nodeID}, {"reason", cause.body()}}}},
	}
	return top
}

func (e *apiError) body() obj {
	o := obj{{"type", e.typ}, {"reason", e.reason}}
	o = e.appendIndex(o)
	o = append(o, e.extra...)
	if e.causedBy != nil {
		o = append(o, kv{"caused_by", e.causedBy.body()})
	}
	return o
}

func (e *apiError) appendIndex(o obj) obj {
	if e.index == "" {
		return o
	}
	o = append(o, kv{"index", e.index})
	if e.shard != "" {
		o = append(o, kv{"shard", e.shard})
	}
	uuid := e.uuid
	if uuid == "" {
		uuid = "_na_"
	}
	return append(o, kv{"index_uuid", uuid})
}

// inIndex names the index (and its uuid, shard 0) an error happened in, as engine errors do.
func (e *apiError) inIndex(ix *index) *apiError {
	e.index, e.uuid, e.shard = ix.name, ix.uuid, "0"
	return e
}

func (e *apiError) rootBody() obj {
	r := e
	if e.root != nil {
		r = e.root
	}
	o := obj{{"type", r.typ}, {"reason", r.reason}}
	o = r.appendIndex(o)
	if r == e {
		for _, m := range e.extra {
			if m.k == "resource.type" || m.k == "resource.id" || m.k == "line" || m.k == "col" {
				o = append(o, m)
			}
		}
	}
	return o
}

func (e *apiError) response() obj {
	inner := obj{{"root_cause", []obj{e.rootBody()}}}
	inner = append(inner, e.body()...)
	status := e.status
	if status == 0 {
		status = 500
	}
	return obj{{"error", inner}, {"status", status}}
}

// withLocation adds "line" and "col" to a parsing_exception, as the XContent parser reports them:
// where the value of the member the reason names (its last [...]) starts in the request body.
func withLocation(e *apiError, body []byte) *apiError {
	if e == nil || e.typ != "parsing_exception" {
		return e
	}
	for _, m := range e.extra {
		if m.k == "line" {
			return e
		}
	}
	line, col := 1, 1
	if i := strings.LastIndexByte(e.reason, '['); i >= 0 {
		if j := strings.IndexByte(e.reason[i:], ']'); j > 0 {
			if off := valueOffset(body, e.reason[i+1:i+j]); off >= 0 {
				line, col = lineCol(body, int64(off))
			}
		}
	}
	e.extra = append(obj{{"line", line}, {"col", col}}, e.extra...)
	return e
}

// valueOffset is the offset of the first value of member key in a JSON body, or -1.
func valueOffset(body []byte, key string) int {
	pat := []byte(strconv.Quote(key))
	for from := 0; from < len(body); {
		i := bytes.Index(body[from:], pat)
		if i < 0 {
			return -1
		}
		j := from + i + len(pat)
		for j < len(body) && (body[j] == ' ' || body[j] == '\t' || body[j] == '\n' || body[j] == '\r') {
			j++
		}
		if j < len(body) && body[j] == ':' {
			j++
			for j < len(body) && (body[j] == ' ' || body[j] == '\t' || body[j] == '\n' || body[j] == '\r') {
				j++
			}
			return j
		}
		from = j
	}
	return -1
}
