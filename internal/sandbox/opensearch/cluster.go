// Package opensearch is an in-memory emulation of the OpenSearch HTTP interface used by the
// embedded sandbox: indices with mappings, full-text search with BM25, aggregations, bulk,
// reindex, index templates, ISM policies, security roles, SQL (translated to query DSL and run by the engine, as the SQL plugin does) and cluster
// health, answering with the engine's own shapes.
package opensearch

import (
	"crypto/rand"
	"encoding/base64"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/dates"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
	"github.com/svcui/svcui/internal/sandbox/opensearch/rest"
)

const (
	nodeID          = "sandbox-node-1"
	engineVersion   = "2.17.1"
	luceneVersion   = "9.11.1"
	maxResultWindow = 10000
)

// Options configure a Cluster.
type Options struct {
	Name  string           // cluster_name shown in _cluster/health
	Clock func() time.Time // injectable; nil = time.Now
	Nodes int              // number_of_nodes (default 1); replicas>0 with 1 node => yellow health
	// MaxContentLength is http.max_content_length in bytes (default 100mb): a request body
	// longer than this, once inflated, is answered 413.
	MaxContentLength int
}

// Cluster is the whole emulated engine. It is safe for concurrent use.
type Cluster struct {
	mu        sync.RWMutex
	name      string
	clock     func() time.Time
	nodes     int
	maxBody   int // http.max_content_length
	uuid      string
	indices   map[string]*index.Index
	closed    map[*index.Index]bool  // closed indices (POST /{index}/_close)
	streams   map[string]*dataStream // data streams by name
	templates map[string]*indexTemplate
	policies  map[string]*ismPolicy
	roles     map[string]*role
	ctxs      contexts // open scrolls and points in time

	legacyTemplates map[string]*indexTemplate // _template (legacy, before composable templates)
	persistent      map[string]string         // _cluster/settings, flat keys
	transient       map[string]string
	tasks           taskStore // requests run with wait_for_completion=false
}

// New returns an empty cluster.
func New(opts Options) *Cluster {
	c := &Cluster{
		name:    opts.Name,
		clock:   opts.Clock,
		nodes:   opts.Nodes,
		maxBody: opts.MaxContentLength,
	}
	if c.name == "" {
		c.name = "opensearch-sandbox"
	}
	if c.clock == nil {
		c.clock = time.Now
	}
	if c.nodes <= 0 {
		c.nodes = 1
	}
	if c.maxBody <= 0 {
		c.maxBody = defaultMaxContentLength
	}
	c.uuid = randomID(16)
	c.reset()
	return c
}

func (c *Cluster) reset() {
	c.indices = map[string]*index.Index{}
	c.closed = map[*index.Index]bool{}
	c.streams = map[string]*dataStream{}
	c.templates = map[string]*indexTemplate{}
	c.policies = map[string]*ismPolicy{}
	c.roles = builtinRoles()
	c.legacyTemplates = map[string]*indexTemplate{}
	c.persistent = map[string]string{}
	c.transient = map[string]string{}
	c.ctxs.mu.Lock()
	c.ctxs.scrolls = map[string]*scrollCtx{}
	c.ctxs.pits = map[string]*pitCtx{}
	c.ctxs.hits = 0
	c.ctxs.mu.Unlock()
}

func (c *Cluster) now() time.Time { return c.clock() }

// randomID is a base64url identifier like the engine's (15 bytes → 20 characters).
func randomID(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func newDocID() string { return randomID(15) }

// validateIndexName applies the engine's index name rules.
func validateIndexName(name string) *apierr.Error {
	bad := func(reason string) *apierr.Error {
		e := apierr.Errf(400, "invalid_index_name_exception", "Invalid index name [%s], %s", name, reason)
		e.Index = name
		return e
	}
	switch {
	case name == "":
		return bad("must not be empty")
	case name == "." || name == "..":
		return bad("must not be '.' or '..'")
	case strings.ToLower(name) != name:
		return bad("must be lowercase")
	case strings.ContainsAny(name, "\\/*?\"<>| ,#:"):
		return bad(`must not contain the following characters [ , ", *, \, <, |, ,, >, /, ?]`)
	case strings.HasPrefix(name, "_") || strings.HasPrefix(name, "-") || strings.HasPrefix(name, "+"):
		return bad("must not start with '_', '-', or '+'")
	case len(name) > 255:
		return bad("index name is too long, (" + itoa(len(name)) + " > 255)")
	}
	return nil
}

// resolve turns an index expression ("a,b", "logs-*", "_all") into indices, sorted by name, with
// wildcards expanding to open indices and a closed index named directly kept (strictExpandOpen).
func (c *Cluster) resolve(expr string, ignoreUnavailable bool) ([]*index.Index, *apierr.Error) {
	return c.resolveWith(expr, resolveOpts{ignoreUnavailable: ignoreUnavailable, wildcards: expandOpen})
}

// resolveWith resolves an index expression as IndexNameExpressionResolver does under the given
// options: names of indices, aliases and data streams (a stream stands for its backing indices),
// wildcards and _all expanding to the states the options admit, hidden indices only to patterns
// starting with a dot or under expand_wildcards=hidden, and a closed index refused
// (index_closed_exception) where the request forbids closed indices, or skipped under
// ignore_unavailable.
func (c *Cluster) resolveWith(expr string, o resolveOpts) ([]*index.Index, *apierr.Error) {
	expr = strings.TrimSpace(expr)
	if expr == "" || expr == "*" {
		expr = "_all"
	}
	chosen := map[string]*index.Index{}
	for _, part := range strings.Split(expr, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if strings.HasPrefix(part, "-") && len(chosen) > 0 {
			for n := range chosen {
				if rest.GlobMatch(part[1:], n) {
					delete(chosen, n)
				}
			}
			continue
		}
		if part == "_all" || strings.ContainsAny(part, "*?") {
			for n, ix := range c.indices {
				if (part == "_all" || rest.GlobMatch(part, n)) && c.expands(ix, part, o.wildcards) {
					chosen[n] = ix
				}
			}
			// Wildcards reach the indices of matching aliases and data streams too.
			for _, a := range c.aliasNamesMatching(part) {
				for _, ix := range c.aliasIndices(a) {
					if c.expands(ix, ".", o.wildcards) {
						chosen[ix.Name] = ix
					}
				}
			}
			for _, ds := range c.streamsMatching(part) {
				if o.noStreams {
					break
				}
				for _, ix := range ds.indices {
					if c.expands(ix, ".", o.wildcards) {
						chosen[ix.Name] = ix
					}
				}
			}
			continue
		}
		named := []*index.Index{c.indices[part]}
		if named[0] == nil {
			named = c.aliasIndices(part)
			if len(named) == 0 {
				if ds := c.streams[part]; ds != nil && !o.noStreams {
					named = ds.indices
				}
			}
		}
		if len(named) == 0 {
			if o.ignoreUnavailable {
				continue
			}
			return nil, apierr.IndexNotFound(part)
		}
		for _, ix := range named {
			chosen[ix.Name] = ix
		}
	}
	out := make([]*index.Index, 0, len(chosen))
	for _, ix := range chosen {
		if o.forbidClosed && c.closed[ix] {
			if o.ignoreUnavailable {
				continue
			}
			return nil, indexClosed(ix)
		}
		out = append(out, ix)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func (c *Cluster) sortedIndices() []*index.Index {
	out := make([]*index.Index, 0, len(c.indices))
	for _, ix := range c.indices {
		out = append(out, ix)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// createIndex makes an index from a create-index body (may be nil), applying matching templates.
func (c *Cluster) createIndex(name string, body map[string]any) (*index.Index, *apierr.Error) {
	if err := validateIndexName(name); err != nil {
		return nil, err
	}
	if ix, ok := c.indices[name]; ok {
		e := apierr.Errf(400, "resource_already_exists_exception", "index [%s/%s] already exists", name, ix.UUID)
		e.Index = name
		return nil, e
	}
	if c.isAlias(name) {
		e := apierr.Errf(400, "invalid_index_name_exception", "Invalid index name [%s], already exists as alias", name)
		e.Index = name
		return nil, e
	}
	ix := index.NewIndex(name, randomID(16), c.now().UnixMilli())
	var aliases []any // the template's, then the body's
	templates := c.matchLegacyTemplates(name)
	if t := c.matchTemplate(name); t != nil {
		templates = []*indexTemplate{t}
	}
	for _, t := range templates {
		aliases = append(aliases, t.aliases)
		if err := applySettings(ix, t.settings); err != nil {
			return nil, err
		}
		if t.mappings != nil {
			if err := ix.Mapping.Merge(t.mappings.Clone()); err != nil {
				return nil, err
			}
		}
	}
	for k, v := range body {
		switch k {
		case "settings":
			if err := applySettings(ix, v); err != nil {
				return nil, err
			}
		case "mappings":
			m, err := index.ParseMappings(v)
			if err != nil {
				return nil, err
			}
			if err := ix.Mapping.Merge(m); err != nil {
				return nil, err
			}
		case "aliases":
			aliases = append(aliases, v)
		default:
			return nil, apierr.Errf(400, "parse_exception", "unknown key [%s] for create index", k)
		}
	}
	for _, a := range aliases {
		if err := c.createAliases(ix, a); err != nil {
			return nil, err
		}
	}
	ix.Fields = ix.Mapping.Flatten()
	c.indices[name] = ix
	return ix, nil
}

// indexForWrite returns an index (or an alias's write index), creating it (with templates and
// dynamic mapping) when missing.
func (c *Cluster) indexForWrite(name string) (*index.Index, *apierr.Error) {
	if ix, ok := c.indices[name]; ok {
		return ix, nil
	}
	if c.isAlias(name) {
		return c.writeIndexOf(name)
	}
	return c.createIndex(name, nil)
}

// flattenSettings turns nested or dotted settings into "key" → string without the "index." prefix.
func flattenSettings(v any) (map[string]string, *apierr.Error) {
	out := map[string]string{}
	var walk func(prefix string, v any) *apierr.Error
	walk = func(prefix string, v any) *apierr.Error {
		switch t := v.(type) {
		case map[string]any:
			for k, x := range t {
				if err := walk(prefix+k+".", x); err != nil {
					return err
				}
			}
		case nil:
		case []any:
			parts := make([]string, 0, len(t))
			for _, x := range t {
				s, _ := jsonval.String(x)
				parts = append(parts, s)
			}
			out[strings.TrimSuffix(prefix, ".")] = strings.Join(parts, ",")
		default:
			s, _ := jsonval.String(v)
			out[strings.TrimSuffix(prefix, ".")] = s
		}
		return nil
	}
	if v != nil {
		if _, ok := v.(map[string]any); !ok {
			return nil, apierr.Errf(400, "settings_exception", "Failed to load settings from [%s]", index.PreviewValue(v))
		}
	}
	if err := walk("", v); err != nil {
		return nil, err
	}
	norm := make(map[string]string, len(out))
	for k, s := range out {
		norm[strings.TrimPrefix(k, "index.")] = s
	}
	return norm, nil
}

func applySettings(ix *index.Index, v any) *apierr.Error {
	flat, err := flattenSettings(v)
	if err != nil {
		return err
	}
	for k, s := range flat {
		switch k {
		case "number_of_shards":
			n, ok := jsonval.Int(s)
			if !ok || n < 1 || n > 1024 {
				return apierr.BadRequest("Failed to parse value [%s] for setting [index.number_of_shards] must be >= 1", s)
			}
			ix.Shards = n
		case "number_of_replicas":
			n, ok := jsonval.Int(s)
			if !ok || n < 0 {
				return apierr.BadRequest("Failed to parse value [%s] for setting [index.number_of_replicas] must be >= 0", s)
			}
			ix.Replicas = n
		default:
			ix.Settings[k] = s
		}
	}
	return nil
}

// nestSettings renders flat settings as the engine does: {"index":{"a":{"b":"v"}}}.
func nestSettings(flat map[string]string) jsonout.Obj {
	root := map[string]any{}
	for k, v := range flat {
		m := root
		parts := strings.Split(k, ".")
		for _, p := range parts[:len(parts)-1] {
			next, ok := m[p].(map[string]any)
			if !ok {
				next = map[string]any{}
				m[p] = next
			}
			m = next
		}
		m[parts[len(parts)-1]] = v
	}
	var toObj func(m map[string]any) jsonout.Obj
	toObj = func(m map[string]any) jsonout.Obj {
		o := jsonout.Obj{}
		for _, k := range jsonval.SortedKeys(m) {
			if sub, ok := m[k].(map[string]any); ok {
				o = append(o, jsonout.KV{k, toObj(sub)})
			} else {
				o = append(o, jsonout.KV{k, m[k]})
			}
		}
		return o
	}
	if len(root) == 0 {
		return jsonout.Obj{}
	}
	return jsonout.Obj{{"index", toObj(root)}}
}

func settingsView(ix *index.Index) jsonout.Obj {
	flat := map[string]string{}
	for k, v := range ix.Settings {
		s, _ := jsonval.String(v)
		flat[k] = s
	}
	flat["number_of_shards"] = itoa(ix.Shards)
	flat["number_of_replicas"] = itoa(ix.Replicas)
	flat["creation_date"] = itoa64(ix.Created)
	flat["uuid"] = ix.UUID
	flat["provided_name"] = ix.Name
	flat["version.created"] = "136377827"
	return nestSettings(flat)
}

// isoMillis is the engine's default date rendering (2024-03-15T12:00:00.000Z).
const isoMillis = dates.ISOMillis
