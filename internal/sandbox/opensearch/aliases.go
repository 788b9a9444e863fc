package opensearch

import (
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
	"github.com/svcui/svcui/internal/sandbox/opensearch/query"
	"github.com/svcui/svcui/internal/sandbox/opensearch/rest"
)

// parseAliasDef reads an alias body: filter, routing, index_routing, search_routing,
// is_write_index, is_hidden. Keys naming the index or the alias are the caller's business.
func parseAliasDef(m map[string]any, skip ...string) (*index.AliasDef, *apierr.Error) {
	a := &index.AliasDef{}
	for k, v := range m {
		switch k {
		case "filter":
			if v == nil {
				continue
			}
			q, err := query.Parse(v)
			if err != nil {
				return nil, err
			}
			a.FilterRaw, a.Filter = v, q
		case "routing":
			s, _ := jsonval.String(v)
			a.IndexRouting, a.SearchRouting = s, s
		case "index_routing":
			a.IndexRouting, _ = jsonval.String(v)
		case "search_routing":
			a.SearchRouting, _ = jsonval.String(v)
		case "is_write_index", "is_hidden":
			b, ok := jsonval.Bool(v)
			if !ok {
				return nil, apierr.Parsing("[%s] must be a boolean", k)
			}
			if k == "is_write_index" {
				a.IsWrite = &b
			} else {
				a.IsHidden = &b
			}
		default:
			if !slices.Contains(skip, k) {
				return nil, apierr.Parsing("[alias] unknown field [%s]", k)
			}
		}
	}
	return a, nil
}

func setAlias(ix *index.Index, name string, a *index.AliasDef) {
	if ix.Aliases == nil {
		ix.Aliases = map[string]*index.AliasDef{}
	}
	ix.Aliases[name] = a
}

// aliasIndices lists the indices an alias points to, sorted by name.
func (c *Cluster) aliasIndices(name string) []*index.Index {
	var out []*index.Index
	for _, ix := range c.sortedIndices() {
		if _, ok := ix.Aliases[name]; ok {
			out = append(out, ix)
		}
	}
	return out
}

func (c *Cluster) isAlias(name string) bool {
	for _, ix := range c.indices {
		if _, ok := ix.Aliases[name]; ok {
			return true
		}
	}
	return false
}

// aliasNamesMatching lists every alias name a pattern matches, sorted.
func (c *Cluster) aliasNamesMatching(pattern string) []string {
	seen := map[string]bool{}
	for _, ix := range c.indices {
		for n := range ix.Aliases {
			if aliasMatches(pattern, n) {
				seen[n] = true
			}
		}
	}
	return jsonval.SortedKeys(seen)
}

// writeIndexOf picks the index a write through an alias goes to: its only index, unless that
// one says is_write_index:false, or the one marked is_write_index among several.
func (c *Cluster) writeIndexOf(alias string) (*index.Index, *apierr.Error) {
	list := c.aliasIndices(alias)
	for _, ix := range list {
		if w := ix.Aliases[alias].IsWrite; w != nil && *w {
			return ix, nil
		}
	}
	if len(list) == 1 && list[0].Aliases[alias].IsWrite == nil {
		return list[0], nil
	}
	return nil, apierr.BadRequest("no write index is defined for alias [%s]. The write index may be explicitly disabled using is_write_index=false or the alias points to multiple indices without one being designated as a write index", alias)
}

// docTarget is the index a single-document request names: an index, or an alias with a write
// index; a closed one is index_closed_exception (strictSingleIndexNoExpandForbidClosed), and a data
// stream is no single index.
func (c *Cluster) docTarget(name string) (*index.Index, *apierr.Error) {
	ix, ok := c.indices[name]
	if !ok && c.isAlias(name) {
		var err *apierr.Error
		if ix, err = c.writeIndexOf(name); err != nil {
			return nil, err
		}
	} else if !ok && c.streams[name] != nil {
		return nil, apierr.BadRequest("The provided expression [%s] matches a data stream, specify the corresponding concrete indices instead.", name)
	} else if !ok {
		return nil, apierr.IndexNotFound(name)
	}
	if err := c.openForWrite(ix); err != nil {
		return ix, err
	}
	return ix, nil
}

// aliasFilters tells, for the indices an expression resolved to, which are reached only through
// filtered aliases, and the filter that then applies (several aliases: any of their filters).
// An index named directly, by a wildcard, or through an alias without a filter is not filtered.
func (c *Cluster) aliasFilters(expr string) map[string]query.Query {
	byIndex := map[string][]query.Query{}
	direct := map[string]bool{}
	for _, part := range strings.Split(expr, ",") {
		part = strings.TrimSpace(part)
		if part == "" || strings.HasPrefix(part, "-") {
			continue
		}
		if _, ok := c.indices[part]; ok || strings.ContainsAny(part, "*?") || part == "_all" {
			for n := range c.indices {
				if n == part || part == "_all" || rest.GlobMatch(part, n) {
					direct[n] = true
				}
			}
			if strings.ContainsAny(part, "*?") {
				continue
			}
		}
		for _, ix := range c.aliasIndices(part) {
			if f := ix.Aliases[part].Filter; f != nil {
				byIndex[ix.Name] = append(byIndex[ix.Name], f.(query.Query))
			} else {
				direct[ix.Name] = true
			}
		}
	}
	out := map[string]query.Query{}
	for n, fs := range byIndex {
		if direct[n] {
			continue
		}
		if len(fs) == 1 {
			out[n] = fs[0]
		} else {
			out[n] = &query.BoolQuery{Should: fs, Boost: 1}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// validateAliasName applies the index name rules to an alias, which must not name an index either.
func (c *Cluster) validateAliasName(name string) *apierr.Error {
	if err := validateIndexName(name); err != nil {
		return apierr.Errf(400, "invalid_alias_name_exception", "%s", strings.Replace(err.Reason, "Invalid index name", "Invalid alias name", 1))
	}
	if _, clash := c.indices[name]; clash {
		return apierr.Errf(400, "invalid_alias_name_exception", "Invalid alias name [%s], an index or data stream exists with the same name as the alias", name)
	}
	return nil
}

func aliasMatches(pattern, name string) bool {
	return pattern == "_all" || rest.GlobMatch(pattern, name)
}

func splitNames(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

type aliasRef struct {
	ix   *index.Index
	name string
}

// matchAliases finds the aliases of targets that patterns name, and the patterns that name none (sorted).
func matchAliases(targets []*index.Index, patterns []string) ([]aliasRef, []string) {
	var found []aliasRef
	var missing []string
	for _, p := range patterns {
		hit := false
		for _, ix := range targets {
			for _, n := range jsonval.SortedKeys(ix.Aliases) {
				if aliasMatches(p, n) {
					hit = true
					found = append(found, aliasRef{ix, n})
				}
			}
		}
		if !hit {
			missing = append(missing, p)
		}
	}
	sort.Strings(missing)
	return found, missing
}

// aliasesMissing is the 404 of a remove or delete naming aliases that do not exist.
func aliasesMissing(names []string) *apierr.Error {
	e := apierr.Errf(404, "aliases_not_found_exception", "aliases [%s] missing", strings.Join(names, ","))
	e.Extra = jsonout.Obj{{"resource.type", "aliases"}, {"resource.id", strings.Join(names, ",")}}
	return e
}

// --- actions ---

type aliasAction struct {
	op        string // add, remove, remove_index
	indices   []string
	aliases   []string
	def       *index.AliasDef
	mustExist *bool
}

func stringsOf(m map[string]any, one, many string) ([]string, *apierr.Error) {
	var out []string
	if v, ok := m[one]; ok {
		s, isStr := v.(string)
		if !isStr {
			return nil, apierr.Parsing("[%s] must be a string", one)
		}
		out = append(out, s)
	}
	if v, ok := m[many]; ok {
		for _, x := range jsonval.List(v) {
			s, isStr := x.(string)
			if !isStr {
				return nil, apierr.Parsing("[%s] entries must be strings", many)
			}
			out = append(out, s)
		}
		if len(out) == 0 {
			return nil, apierr.BadRequest("[%s] can't be empty", many)
		}
	}
	return out, nil
}

func parseAliasAction(op string, body any) (*aliasAction, *apierr.Error) {
	m, ok := jsonval.Map(body)
	if !ok {
		return nil, apierr.Parsing("[%s] must be an object", op)
	}
	a := &aliasAction{op: op}
	var err *apierr.Error
	if a.indices, err = stringsOf(m, "index", "indices"); err != nil {
		return nil, err
	}
	if op != "remove_index" {
		if a.aliases, err = stringsOf(m, "alias", "aliases"); err != nil {
			return nil, err
		}
	}
	if v, ok := m["must_exist"]; ok {
		b, _ := jsonval.Bool(v)
		a.mustExist = &b
	}
	var problems []string
	if len(a.indices) == 0 {
		problems = append(problems, "One of [index/indices] is required")
	}
	if op != "remove_index" && len(a.aliases) == 0 {
		problems = append(problems, "One of [alias/aliases] is required")
	}
	if len(problems) > 0 {
		return nil, validationFailed(problems)
	}
	if op == "add" {
		if a.def, err = parseAliasDef(m, "index", "indices", "alias", "aliases", "must_exist"); err != nil {
			return nil, err
		}
	}
	return a, nil
}

func validationFailed(problems []string) *apierr.Error {
	var b strings.Builder
	b.WriteString("Validation Failed: ")
	for i, p := range problems {
		b.WriteString(itoa(i+1) + ": " + p + ";")
	}
	return apierr.New(400, "action_request_validation_exception", b.String())
}

// applyAliasActions checks every action against the current state, then applies them all:
// one bad action changes nothing. The caller holds the write lock.
func (c *Cluster) applyAliasActions(actions []*aliasAction) *apierr.Error {
	type step func()
	var steps []step
	for _, a := range actions {
		targets, err := c.resolve(strings.Join(a.indices, ","), false)
		if err != nil {
			return err
		}
		switch a.op {
		case "add":
			for _, name := range a.aliases {
				if err := c.validateAliasName(name); err != nil {
					return err
				}
				for _, ix := range targets {
					ix, name, def := ix, name, *a.def
					steps = append(steps, func() { setAlias(ix, name, &def) })
				}
			}
		case "remove":
			found, missing := matchAliases(targets, a.aliases)
			for _, f := range found {
				steps = append(steps, func() { delete(f.ix.Aliases, f.name) })
			}
			// 2.x removes what exists and ignores the rest unless must_exist is true
			// (indices.update_aliases/40_remove_with_must_exist.yml).
			if len(missing) > 0 && a.mustExist != nil && *a.mustExist {
				return aliasesMissing(missing)
			}
		case "remove_index":
			for _, ix := range targets {
				name := ix.Name
				steps = append(steps, func() { delete(c.indices, name) })
			}
		}
	}
	for _, s := range steps {
		s()
	}
	return nil
}

// --- handlers ---

// handleUpdateAliases is POST /_aliases {"actions":[{"add":{...}},{"remove":{...}}]}.
func (c *Cluster) handleUpdateAliases(w http.ResponseWriter, r *http.Request, body []byte) {
	v, err := parseBody(body, true)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	m, _ := jsonval.Map(v)
	var actions []*aliasAction
	for k, x := range m {
		if k != "actions" {
			c.fail(w, r, apierr.Parsing("[aliases] unknown field [%s]", k))
			return
		}
		for _, item := range jsonval.List(x) {
			im, ok := jsonval.Map(item)
			if !ok || len(im) != 1 {
				c.fail(w, r, apierr.Parsing("[aliases] each action must be an object with exactly one of [add, remove, remove_index]"))
				return
			}
			for op, ab := range im {
				if op != "add" && op != "remove" && op != "remove_index" {
					c.fail(w, r, apierr.Parsing("[aliases] unknown field [%s]", op))
					return
				}
				a, err := parseAliasAction(op, ab)
				if err != nil {
					c.fail(w, r, err)
					return
				}
				actions = append(actions, a)
			}
		}
	}
	if len(actions) == 0 {
		c.fail(w, r, validationFailed([]string{"Must specify at least one alias action"}))
		return
	}
	c.mu.Lock()
	err = c.applyAliasActions(actions)
	c.mu.Unlock()
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.reply(w, r, 200, jsonout.Obj{{"acknowledged", true}})
}

// handlePutAlias is PUT /{index}/_alias/{name}; index or name may also come from the body
// (PUT /_alias/{name} {"index":...}, PUT /{index}/_alias {"alias":...}).
func (c *Cluster) handlePutAlias(w http.ResponseWriter, r *http.Request, indexExpr, name string, body []byte) {
	v, err := parseBody(body, false)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	m, _ := jsonval.Map(v)
	if m == nil {
		m = map[string]any{}
	}
	if indexExpr != "" {
		delete(m, "index")
		delete(m, "indices")
		m["index"] = indexExpr
	}
	if name != "" {
		delete(m, "alias")
		delete(m, "aliases")
		m["alias"] = name
	}
	a, err := parseAliasAction("add", m)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.mu.Lock()
	err = c.applyAliasActions([]*aliasAction{a})
	c.mu.Unlock()
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.reply(w, r, 200, jsonout.Obj{{"acknowledged", true}})
}

// handleDeleteAlias is DELETE /{index}/_alias/{name}: every name (or pattern) must match.
func (c *Cluster) handleDeleteAlias(w http.ResponseWriter, r *http.Request, indexExpr, names string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	targets, err := c.resolve(indexExpr, false)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	found, missing := matchAliases(targets, splitNames(names))
	if len(missing) > 0 {
		c.fail(w, r, aliasesMissing(missing))
		return
	}
	for _, f := range found {
		delete(f.ix.Aliases, f.name)
	}
	c.reply(w, r, 200, jsonout.Obj{{"acknowledged", true}})
}

// handleGetAlias is GET /_alias, /_alias/{name}, /{index}/_alias and /{index}/_alias/{name}.
// Without a name every selected index is listed, with {} when it has no alias; with names only
// indices holding a matching alias are. Names matching nothing give 404 with a plain-string
// error next to what was found: {"error":"alias [x] missing","status":404,...}.
func (c *Cluster) handleGetAlias(w http.ResponseWriter, r *http.Request, indexExpr, names string) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	targets, err := c.resolve(indexExpr, false)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	patterns := splitNames(names)
	found := map[string]bool{}
	out := jsonout.Obj{}
	for _, ix := range targets {
		entries := jsonout.Obj{}
		for _, n := range jsonval.SortedKeys(ix.Aliases) {
			keep := len(patterns) == 0
			for _, p := range patterns {
				if aliasMatches(p, n) {
					keep = true
					found[p] = true
				}
			}
			if keep {
				entries = append(entries, jsonout.KV{n, ix.Aliases[n].Render()})
			}
		}
		if len(entries) > 0 || len(patterns) == 0 {
			out = append(out, jsonout.KV{ix.Name, jsonout.Obj{{"aliases", entries}}})
		}
	}
	var missing []string
	for _, p := range patterns {
		if !found[p] && p != "_all" && !strings.ContainsAny(p, "*?") {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		msg := "alias [" + missing[0] + "] missing"
		if len(missing) > 1 {
			msg = "aliases [" + strings.Join(missing, ",") + "] missing"
		}
		c.reply(w, r, 404, append(jsonout.Obj{{"error", msg}, {"status", 404}}, out...))
		return
	}
	c.reply(w, r, 200, out)
}

// handleCatAliases is GET /_cat/aliases[/{name}]: alias, index, filter (* when set),
// routing.index, routing.search, is_write_index ("-" for anything unset).
func (c *Cluster) handleCatAliases(w http.ResponseWriter, r *http.Request, names string) {
	c.mu.RLock()
	t := catTable{cols: []string{"alias", "index", "filter", "routing.index", "routing.search", "is_write_index"}}
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	for _, ix := range c.sortedIndices() {
		for _, n := range jsonval.SortedKeys(ix.Aliases) {
			if names != "" && !matchesAny(strings.Split(names, ","), n) {
				continue
			}
			a := ix.Aliases[n]
			filter, write := "-", "-"
			if a.Filter != nil {
				filter = "*"
			}
			if a.IsWrite != nil {
				write = "false"
				if *a.IsWrite {
					write = "true"
				}
			}
			t.rows = append(t.rows, []string{n, ix.Name, filter, dash(a.IndexRouting), dash(a.SearchRouting), write})
		}
	}
	c.mu.RUnlock()
	sort.SliceStable(t.rows, func(i, j int) bool { return t.rows[i][0] < t.rows[j][0] })
	c.writeCat(w, r, t)
}

// createAliases adds the aliases of a create-index body or a template: {"name": {...}}.
func (c *Cluster) createAliases(ix *index.Index, v any) *apierr.Error {
	m, ok := jsonval.Map(v)
	if !ok {
		if v == nil {
			return nil
		}
		return apierr.Parsing("[aliases] must be an object")
	}
	for _, name := range jsonval.SortedKeys(m) {
		body, _ := jsonval.Map(m[name])
		a, err := parseAliasDef(body)
		if err != nil {
			return err
		}
		if name == ix.Name {
			return apierr.Errf(400, "invalid_alias_name_exception", "Invalid alias name [%s], an index or data stream exists with the same name as the alias", name)
		}
		if err := c.validateAliasName(name); err != nil {
			return err
		}
		setAlias(ix, name, a)
	}
	return nil
}

// renderAliases is the "aliases" member of GET /{index}.
func renderAliases(ix *index.Index) jsonout.Obj {
	o := jsonout.Obj{}
	for _, n := range jsonval.SortedKeys(ix.Aliases) {
		o = append(o, jsonout.KV{n, ix.Aliases[n].Render()})
	}
	return o
}

// applyAliasFilter narrows a match set to the alias filter of its index, if there is one.
func applyAliasFilter(qc *query.Context, m *query.Matches, filters map[string]query.Query) *apierr.Error {
	f := filters[qc.Index.Name]
	if f == nil {
		return nil
	}
	fm, err := f.Eval(qc)
	if err != nil {
		return err
	}
	for i := range m.Bits {
		if i < len(fm.Bits) {
			m.Bits[i] &= fm.Bits[i]
		} else {
			m.Bits[i] = 0
		}
	}
	return nil
}
