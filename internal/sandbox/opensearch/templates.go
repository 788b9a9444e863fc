package opensearch

import (
	"net/http"
	"sort"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/rest"
)

// indexTemplate is a composable index template.
type indexTemplate struct {
	name     string
	patterns []string
	settings map[string]any // as given under template.settings
	mappings *mapping
	aliases  any
	priority int
	version  any
	meta     any
}

func (c *Cluster) matchTemplate(index string) *indexTemplate {
	var best *indexTemplate
	for _, name := range jsonval.SortedKeys(c.templates) {
		t := c.templates[name]
		for _, p := range t.patterns {
			if rest.GlobMatch(p, index) {
				if best == nil || t.priority > best.priority {
					best = t
				}
				break
			}
		}
	}
	return best
}

func parseTemplate(name string, body map[string]any) (*indexTemplate, *apiError) {
	t := &indexTemplate{name: name}
	for k, v := range body {
		switch k {
		case "index_patterns":
			for _, p := range asList(v) {
				s, ok := p.(string)
				if !ok || s == "" {
					return nil, badRequest("index_patterns must be strings")
				}
				t.patterns = append(t.patterns, s)
			}
		case "template":
			tm, ok := asMap(v)
			if !ok && v != nil {
				return nil, parsingErr("[index_template] template doesn't support values of type: VALUE_STRING")
			}
			for tk, tv := range tm {
				switch tk {
				case "settings":
					if _, err := flattenSettings(tv); err != nil {
						return nil, err
					}
					probe := newIndex("probe", "", 0)
					if err := applySettings(probe, tv); err != nil {
						return nil, err
					}
					t.settings, _ = tv.(map[string]any)
				case "mappings":
					m, err := parseMappings(tv)
					if err != nil {
						return nil, err
					}
					t.mappings = m
				case "aliases":
					t.aliases = tv
				default:
					return nil, parsingErr("[template] unknown field [%s]", tk)
				}
			}
		case "priority":
			n, ok := asInt(v)
			if !ok || n < 0 {
				return nil, badRequest("index template priority must be >= 0")
			}
			t.priority = n
		case "version":
			t.version = v
		case "_meta":
			t.meta = v
		case "composed_of", "data_stream":
		default:
			return nil, parsingErr("[index_template] unknown field [%s]", k)
		}
	}
	if len(t.patterns) == 0 {
		return nil, errf(400, "action_request_validation_exception", "Validation Failed: 1: index patterns are missing;")
	}
	return t, nil
}

func (t *indexTemplate) render() obj {
	inner := obj{}
	if t.settings != nil {
		flat, _ := flattenSettings(t.settings)
		inner = append(inner, kv{"settings", nestSettings(flat)})
	}
	if t.mappings != nil {
		inner = append(inner, kv{"mappings", t.mappings.render()})
	}
	if t.aliases != nil {
		inner = append(inner, kv{"aliases", t.aliases})
	}
	o := obj{{"index_patterns", t.patterns}, {"template", inner}, {"composed_of", []string{}}, {"priority", t.priority}}
	if t.version != nil {
		o = append(o, kv{"version", t.version})
	}
	if t.meta != nil {
		o = append(o, kv{"_meta", t.meta})
	}
	return o
}

func (c *Cluster) putTemplate(w http.ResponseWriter, r *http.Request, name string, body []byte) {
	v, err := parseBody(body, true)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	m, _ := asMap(v)
	t, err := parseTemplate(name, m)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.mu.Lock()
	c.templates[name] = t
	c.mu.Unlock()
	c.reply(w, r, 200, obj{{"acknowledged", true}})
}

func (c *Cluster) getTemplates(w http.ResponseWriter, r *http.Request, name string) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var list []obj
	names := jsonval.SortedKeys(c.templates)
	sort.Strings(names)
	for _, n := range names {
		if name == "" || rest.GlobMatch(name, n) {
			list = append(list, obj{{"name", n}, {"index_template", c.templates[n].render()}})
		}
	}
	if name != "" && len(list) == 0 {
		c.fail(w, r, errf(404, "resource_not_found_exception", "index template matching [%s] not found", name))
		return
	}
	if list == nil {
		list = []obj{}
	}
	c.reply(w, r, 200, obj{{"index_templates", list}})
}

func (c *Cluster) deleteTemplate(w http.ResponseWriter, r *http.Request, name string) {
	c.mu.Lock()
	_, ok := c.templates[name]
	delete(c.templates, name)
	c.mu.Unlock()
	if !ok {
		c.fail(w, r, errf(404, "index_template_missing_exception", "index_template [%s] missing", name))
		return
	}
	c.reply(w, r, 200, obj{{"acknowledged", true}})
}
