package opensearch

import "fmt"

// apiError is an engine error; it renders as {"error":{"root_cause":[...],"type","reason",...},"status"}.
type apiError struct {
	status   int
	typ      string
	reason   string
	index    string // adds "index" and "index_uuid" members when set
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
	if e.index != "" {
		o = append(o, kv{"index", e.index}, kv{"index_uuid", "_na_"})
	}
	return append(o, e.extra...)
}

func (e *apiError) rootBody() obj {
	r := e
	if e.root != nil {
		r = e.root
	}
	o := obj{{"type", r.typ}, {"reason", r.reason}}
	if r.index != "" {
		o = append(o, kv{"index", r.index}, kv{"index_uuid", "_na_"})
	}
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
	if e.causedBy != nil {
		inner = append(inner, kv{"caused_by", e.causedBy.body()})
	}
	status := e.status
	if status == 0 {
		status = 500
	}
	return obj{{"error", inner}, {"status", status}}
}
