package opensearch

import (
	"net/http"
	"strings"

	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

// expand is what wildcards and _all expand to (expand_wildcards): open indices, closed ones,
// hidden ones.
type expand struct{ open, closed, hidden bool }

var (
	expandOpen       = expand{open: true}
	expandOpenClosed = expand{open: true, closed: true}
	expandAll        = expand{open: true, closed: true, hidden: true}
)

// resolveOpts are a request's IndicesOptions.
type resolveOpts struct {
	ignoreUnavailable bool
	wildcards         expand
	forbidClosed      bool // a closed index answers index_closed_exception (searches, stats)
	noStreams         bool // data stream names are not resolved (deleting indices)
}

// parseExpand reads expand_wildcards (IndicesOptions.WildcardStates.parseParameter); def when absent.
func parseExpand(v string, def expand) (expand, *apierr.Error) {
	if v == "" {
		return def, nil
	}
	var e expand
	for _, s := range strings.Split(v, ",") {
		switch strings.TrimSpace(s) {
		case "open":
			e.open = true
		case "closed":
			e.closed = true
		case "hidden":
			e.hidden = true
		case "all":
			e = expandAll
		case "none":
		default:
			return e, apierr.BadRequest("No valid expand wildcard value [%s]", s)
		}
	}
	return e, nil
}

// resolveReq resolves an index expression under a request's ignore_unavailable and
// expand_wildcards, def giving the endpoint's defaults.
func (c *Cluster) resolveReq(r *http.Request, expr string, def resolveOpts) ([]*index.Index, *apierr.Error) {
	q := r.URL.Query()
	if q.Get("ignore_unavailable") == "true" {
		def.ignoreUnavailable = true
	}
	if f := q.Get("forbid_closed_indices"); f != "" {
		def.forbidClosed = f == "true"
	}
	var err *apierr.Error
	if def.wildcards, err = parseExpand(q.Get("expand_wildcards"), def.wildcards); err != nil {
		return nil, err
	}
	return c.resolveWith(expr, def)
}

// expands tells whether a wildcard expands to an index: its state must be one expand_wildcards
// admits, and a hidden index is reached only by a pattern starting with a dot or under
// expand_wildcards=hidden.
func (c *Cluster) expands(ix *index.Index, pattern string, e expand) bool {
	if c.closed[ix] && !e.closed || !c.closed[ix] && !e.open {
		return false
	}
	return e.hidden || !isHidden(ix) || strings.HasPrefix(pattern, ".")
}

// isHidden tells whether an index has index.hidden set (backing indices of data streams do).
func isHidden(ix *index.Index) bool {
	v, _ := ix.Settings["hidden"].(string)
	return v == "true"
}

// indexClosed is IndexClosedException: 400, reason "closed", naming the index.
func indexClosed(ix *index.Index) *apierr.Error {
	e := apierr.New(400, "index_closed_exception", "closed")
	e.Index, e.UUID = ix.Name, ix.UUID
	return e
}

// openForWrite refuses a write to a closed index, as the bulk action does before routing an item.
func (c *Cluster) openForWrite(ix *index.Index) *apierr.Error {
	if c.closed[ix] {
		return indexClosed(ix)
	}
	return nil
}

// handleClose closes indices (indices/close.yaml): wildcards expand to open indices, a closed
// index stays closed, and the answer lists each index closed
// ({"acknowledged":true,"shards_acknowledged":true,"indices":{"name":{"closed":true}}}).
// Backing indices cannot be closed while they are a data stream's write index.
func (c *Cluster) handleClose(w http.ResponseWriter, r *http.Request, expr string) {
	c.mu.Lock()
	list, err := c.resolveReq(r, expr, resolveOpts{wildcards: expandOpen})
	if err == nil {
		for _, ix := range list {
			if c.streamOfWriteIndex(ix) != nil {
				err = apierr.BadRequest("cannot close the following data stream write indices [%s]", ix.Name)
				break
			}
		}
	}
	per := jsonout.Obj{}
	if err == nil {
		for _, ix := range list {
			c.closed[ix] = true
			ix.Settings["verified_before_close"] = "true"
			per = append(per, jsonout.KV{ix.Name, jsonout.Obj{{"closed", true}}})
		}
	}
	c.mu.Unlock()
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.reply(w, r, 200, jsonout.Obj{{"acknowledged", true}, {"shards_acknowledged", true}, {"indices", per}})
}

// handleOpen opens closed indices (indices/open.yaml): wildcards expand to closed indices
// (OpenIndexRequest's default options), an open index is left as it is, and the answer is
// {"acknowledged":true,"shards_acknowledged":true}.
func (c *Cluster) handleOpen(w http.ResponseWriter, r *http.Request, expr string) {
	c.mu.Lock()
	list, err := c.resolveReq(r, expr, resolveOpts{wildcards: expand{closed: true}})
	if err == nil {
		for _, ix := range list {
			delete(c.closed, ix)
			delete(ix.Settings, "verified_before_close")
		}
	}
	c.mu.Unlock()
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.reply(w, r, 200, jsonout.Obj{{"acknowledged", true}, {"shards_acknowledged", true}})
}
