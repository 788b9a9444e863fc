package search

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// readOnlyPOSTs are the endpoints where POST only reads (a path ending with one, or
// naming one as a segment: "_explain/{id}", "_search/scroll").
var readOnlyPOSTs = [...]string{"_search", "_count", "_msearch", "_mget", "_explain", "_field_caps",
	"_validate", "_analyze", "_plugins/_sql", "_sql/_explain", "_search/scroll", "_validate/query"}

// ReadOnlyRequest reports requests that change nothing on the service: GET and HEAD,
// and the POSTs that only read (_search, _count, _msearch, _mget, SQL and its _explain,
// _analyze, _validate).
func ReadOnlyRequest(r ParsedRequest) bool {
	switch r.Method {
	case "GET", "HEAD":
		return true
	case "POST":
	default:
		return false
	}
	base := strings.TrimRight(r.Base(), "/")
	for _, s := range readOnlyPOSTs {
		if strings.HasSuffix(base, "/"+s) || base == "/"+s {
			return true
		}
	}
	for _, seg := range strings.Split(base, "/") {
		if seg == "_explain" || seg == "_search" || seg == "_validate" {
			return true
		}
	}
	return false
}

// WritePlan is what the editor must do before sending a request that changes data.
type WritePlan struct {
	// Refuse is the sentence saying why the request is never sent (a wildcard delete).
	Refuse string
	// Targets are the index expressions the request writes to, as written (names,
	// aliases, comma lists or patterns), without repeats.
	Targets []string
	// Confirm is the text to type before sending ("" when a review is enough): the
	// index expression an index delete or a delete by query names.
	Confirm string
	// DeletesIndex is set for DELETE /{index} (and _aliases remove_index).
	DeletesIndex bool
	// DeletesDocs is set for _delete_by_query.
	DeletesDocs bool
	// Closes is set for POST /{index}/_close: nothing is deleted, but the index answers
	// no search, get or write until it is opened again.
	Closes bool
}

// wildcardExpr reports an index expression that matches by pattern: *, ?, _all.
func wildcardExpr(expr string) bool {
	for _, part := range strings.Split(expr, ",") {
		part = strings.TrimSpace(part)
		if part == "_all" || part == "*" || strings.ContainsAny(part, "*?") {
			return true
		}
	}
	return false
}

// PlanWrite classifies a request that changes data (see ReadOnlyRequest): the indices
// it touches, whether a typed name is needed, or why it is refused.
func PlanWrite(r ParsedRequest) WritePlan {
	var p WritePlan
	base := strings.Trim(r.Base(), "/")
	segs := strings.Split(base, "/")
	if base == "" {
		segs = nil
	}
	first := ""
	if len(segs) > 0 {
		first, _ = url.PathUnescape(segs[0])
		if first == "" {
			first = segs[0]
		}
	}
	add := func(expr string) {
		expr = strings.TrimSpace(expr)
		if expr == "" {
			return
		}
		for _, t := range p.Targets {
			if t == expr {
				return
			}
		}
		p.Targets = append(p.Targets, expr)
	}
	// DELETE / or DELETE /{expr}: an index delete.
	if r.Method == "DELETE" && len(segs) <= 1 && (first == "" || first == "_all" || !strings.HasPrefix(first, "_") || strings.ContainsAny(first, "*?")) {
		if first == "" || wildcardExpr(first) {
			shown := "/" + first
			p.Refuse = "DELETE " + shown + " was not sent: a delete through a wildcard or _all could remove indices you did not mean to. Name each index: DELETE /my-index."
			return p
		}
		add(first)
		p.DeletesIndex, p.Confirm = true, first
		return p
	}
	// DELETE /_data_stream/{name}: the stream and every backing index go.
	if r.Method == "DELETE" && len(segs) == 2 && first == "_data_stream" {
		name, _ := url.PathUnescape(segs[1])
		if wildcardExpr(name) {
			p.Refuse = "DELETE /_data_stream/" + name + " was not sent: a delete through a wildcard or _all could remove data streams you did not mean to. Name each stream."
			return p
		}
		add(name)
		p.DeletesIndex, p.Confirm = true, name
		return p
	}
	if first != "" && !strings.HasPrefix(first, "_") {
		add(first)
	}
	last := segs[len(segs)-1:]
	switch {
	case len(last) == 1 && last[0] == "_delete_by_query" && first != "" && !strings.HasPrefix(first, "_"):
		p.DeletesDocs, p.Confirm = true, first
	case len(segs) == 2 && last[0] == "_close" && r.Method == "POST":
		if first == "" || strings.HasPrefix(first, "_") && first != "_all" {
			break
		}
		if wildcardExpr(first) {
			p.Targets = nil
			p.Refuse = "POST /" + first + "/_close was not sent: a close through a wildcard or _all could take indices offline you did not mean to. Name each index."
			return p
		}
		p.Closes, p.Confirm = true, first
	case len(segs) > 0 && segs[len(segs)-1] == "_bulk":
		for _, line := range strings.Split(r.Body, "\n") {
			var action map[string]struct {
				Index string `json:"_index"`
			}
			if json.Unmarshal([]byte(strings.TrimSpace(line)), &action) != nil || len(action) != 1 {
				continue
			}
			for verb, a := range action {
				switch verb {
				case "index", "create", "update", "delete":
					add(a.Index)
				}
			}
		}
	case first == "_reindex":
		var body struct {
			Dest struct {
				Index string `json:"index"`
			} `json:"dest"`
		}
		if json.Unmarshal([]byte(r.Body), &body) == nil {
			add(body.Dest.Index)
		}
	case first == "_aliases":
		var body struct {
			Actions []map[string]struct {
				Index   string   `json:"index"`
				Indices []string `json:"indices"`
			} `json:"actions"`
		}
		if json.Unmarshal([]byte(r.Body), &body) == nil {
			for _, act := range body.Actions {
				for verb, a := range act {
					names := append([]string{a.Index}, a.Indices...)
					for _, n := range names {
						if n == "" {
							continue
						}
						add(n)
						if verb == "remove_index" {
							if wildcardExpr(n) {
								p.Refuse = "POST /_aliases was not sent: remove_index through a wildcard could remove indices you did not mean to. Name each index."
								return p
							}
							p.DeletesIndex = true
							if p.Confirm == "" {
								p.Confirm = n
							} else if p.Confirm != n {
								p.Confirm += "," + n
							}
						}
					}
				}
			}
		}
	}
	return p
}

// CatIndicesOf lists the indices an expression (name, alias, comma list or pattern)
// resolves to; a missing index is an empty list, not an error.
func (c *Client) CatIndicesOf(ctx context.Context, expr string) ([]IndexInfo, error) {
	resp, err := c.Read(ctx, Get(PathOf("_cat", "indices", expr).With(url.Values{"format": {"json"}})))
	if err != nil {
		return nil, err
	}
	if resp.Status == http.StatusNotFound {
		return nil, nil
	}
	if err := resp.Err(); err != nil {
		return nil, err
	}
	out, err := ParseCatIndices(resp.Body)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Index < out[j].Index })
	return out, nil
}
