package opensearch

import (
	"net/http"
	"sort"
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/rest"
)

// Legacy index templates (/_template): deprecated in favour of composable templates, still used by
// older clients and tools. An index gets them only when no composable template matches
// (MetadataIndexTemplateService.findV2Template first, then findV1Templates), all matching ones
// merged by ascending order so a higher order wins.

func parseLegacyTemplate(name string, body map[string]any) (*indexTemplate, *apiError) {
	t := &indexTemplate{name: name}
	for k, v := range body {
		switch k {
		case "index_patterns", "template":
			for _, p := range asList(v) {
				s, ok := p.(string)
				if !ok || s == "" {
					return nil, badRequest("index_patterns must be strings")
				}
				t.patterns = append(t.patterns, s)
			}
		case "order":
			n, ok := asInt(v)
			if !ok {
				return nil, parsingErr("[order] must be a number")
			}
			t.priority = n
		case "version":
			t.version = v
		case "settings":
			probe := newIndex("probe", "", 0)
			if err := applySettings(probe, v); err != nil {
				return nil, err
			}
			t.settings, _ = v.(map[string]any)
		case "mappings":
			m, err := parseMappings(v)
			if err != nil {
				return nil, err
			}
			t.mappings = m
		case "aliases":
			t.aliases = v
		default:
			return nil, errf(400, "illegal_argument_exception", "unknown key [%s] in the template ", k)
		}
	}
	if len(t.patterns) == 0 {
		return nil, errf(400, "action_request_validation_exception", "Validation Failed: 1: index patterns are missing;")
	}
	return t, nil
}

func (t *indexTemplate) renderLegacy() obj {
	o := obj{{"order", t.priority}}
	if t.version != nil {
		o = append(o, kv{"version", t.version})
	}
	o = append(o, kv{"index_patterns", t.patterns})
	settings := obj{}
	if t.settings != nil {
		flat, _ := flattenSettings(t.settings)
		settings = nestSettings(flat)
	}
	mappings := any(obj{})
	if t.mappings != nil {
		mappings = t.mappings.render()
	}
	aliases := t.aliases
	if aliases == nil {
		aliases = obj{}
	}
	return append(o, kv{"settings", settings}, kv{"mappings", mappings}, kv{"aliases", aliases})
}

// matchLegacyTemplates lists the legacy templates an index name matches, lowest order first.
func (c *Cluster) matchLegacyTemplates(index string) []*indexTemplate {
	var out []*indexTemplate
	for _, t := range c.legacyTemplates {
		for _, p := range t.patterns {
			if rest.GlobMatch(p, index) {
				out = append(out, t)
				break
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].priority != out[j].priority {
			return out[i].priority < out[j].priority
		}
		return out[i].name < out[j].name
	})
	return out
}

func (c *Cluster) putLegacyTemplate(w http.ResponseWriter, r *http.Request, name string, body []byte) {
	v, err := parseBody(body, true)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	m, _ := asMap(v)
	t, err := parseLegacyTemplate(name, m)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, exists := c.legacyTemplates[name]; exists && r.URL.Query().Get("create") == "true" {
		c.fail(w, r, badRequest("index_template [%s] already exists", name))
		return
	}
	c.legacyTemplates[name] = t
	c.reply(w, r, 200, obj{{"acknowledged", true}})
}

func (c *Cluster) getLegacyTemplates(w http.ResponseWriter, r *http.Request, names string) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	keys := jsonval.SortedKeys(c.legacyTemplates)
	sort.Strings(keys)
	out := obj{}
	for _, n := range keys {
		match := names == ""
		for _, p := range strings.Split(names, ",") {
			match = match || rest.GlobMatch(p, n)
		}
		if match {
			out = append(out, kv{n, c.legacyTemplates[n].renderLegacy()})
		}
	}
	if names != "" && len(out) == 0 {
		if r.Method == http.MethodHead {
			writeText(w, r, 404, "text/plain; charset=UTF-8", "")
			return
		}
		c.reply(w, r, 404, obj{})
		return
	}
	c.reply(w, r, 200, out)
}

func (c *Cluster) deleteLegacyTemplate(w http.ResponseWriter, r *http.Request, name string) {
	c.mu.Lock()
	_, ok := c.legacyTemplates[name]
	delete(c.legacyTemplates, name)
	c.mu.Unlock()
	if !ok {
		c.fail(w, r, errf(404, "index_template_missing_exception", "index_template [%s] missing", name))
		return
	}
	c.reply(w, r, 200, obj{{"acknowledged", true}})
}
