package opensearch

import (
	"net/http"
	"sort"
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
	"github.com/svcui/svcui/internal/sandbox/opensearch/rest"
)

// Legacy index templates (/_template): deprecated in favour of composable templates, still used by
// older clients and tools. An index gets them only when no composable template matches
// (MetadataIndexTemplateService.findV2Template first, then findV1Templates), all matching ones
// merged by ascending order so a higher order wins.

func parseLegacyTemplate(name string, body map[string]any) (*indexTemplate, *apierr.Error) {
	t := &indexTemplate{name: name}
	for k, v := range body {
		switch k {
		case "index_patterns", "template":
			for _, p := range jsonval.List(v) {
				s, ok := p.(string)
				if !ok || s == "" {
					return nil, apierr.BadRequest("index_patterns must be strings")
				}
				t.patterns = append(t.patterns, s)
			}
		case "order":
			n, ok := jsonval.Int(v)
			if !ok {
				return nil, apierr.Parsing("[order] must be a number")
			}
			t.priority = n
		case "version":
			t.version = v
		case "settings":
			probe := index.NewIndex("probe", "", 0)
			if err := applySettings(probe, v); err != nil {
				return nil, err
			}
			t.settings, _ = v.(map[string]any)
		case "mappings":
			m, err := index.ParseMappings(v)
			if err != nil {
				return nil, err
			}
			t.mappings = m
		case "aliases":
			t.aliases = v
		default:
			return nil, apierr.Errf(400, "illegal_argument_exception", "unknown key [%s] in the template ", k)
		}
	}
	if len(t.patterns) == 0 {
		return nil, apierr.Errf(400, "action_request_validation_exception", "Validation Failed: 1: index patterns are missing;")
	}
	return t, nil
}

func (t *indexTemplate) renderLegacy() jsonout.Obj {
	o := jsonout.Obj{{"order", t.priority}}
	if t.version != nil {
		o = append(o, jsonout.KV{"version", t.version})
	}
	o = append(o, jsonout.KV{"index_patterns", t.patterns})
	settings := jsonout.Obj{}
	if t.settings != nil {
		flat, _ := flattenSettings(t.settings)
		settings = nestSettings(flat)
	}
	mappings := any(jsonout.Obj{})
	if t.mappings != nil {
		mappings = t.mappings.Render()
	}
	aliases := t.aliases
	if aliases == nil {
		aliases = jsonout.Obj{}
	}
	return append(o, jsonout.KV{"settings", settings}, jsonout.KV{"mappings", mappings}, jsonout.KV{"aliases", aliases})
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
	m, _ := jsonval.Map(v)
	t, err := parseLegacyTemplate(name, m)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, exists := c.legacyTemplates[name]; exists && r.URL.Query().Get("create") == "true" {
		c.fail(w, r, apierr.BadRequest("index_template [%s] already exists", name))
		return
	}
	c.legacyTemplates[name] = t
	c.reply(w, r, 200, jsonout.Obj{{"acknowledged", true}})
}

func (c *Cluster) getLegacyTemplates(w http.ResponseWriter, r *http.Request, names string) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	keys := jsonval.SortedKeys(c.legacyTemplates)
	sort.Strings(keys)
	out := jsonout.Obj{}
	for _, n := range keys {
		match := names == ""
		for _, p := range strings.Split(names, ",") {
			match = match || rest.GlobMatch(p, n)
		}
		if match {
			out = append(out, jsonout.KV{n, c.legacyTemplates[n].renderLegacy()})
		}
	}
	if names != "" && len(out) == 0 {
		if r.Method == http.MethodHead {
			writeText(w, r, 404, "text/plain; charset=UTF-8", "")
			return
		}
		c.reply(w, r, 404, jsonout.Obj{})
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
		c.fail(w, r, apierr.Errf(404, "index_template_missing_exception", "index_template [%s] missing", name))
		return
	}
	c.reply(w, r, 200, jsonout.Obj{{"acknowledged", true}})
}
