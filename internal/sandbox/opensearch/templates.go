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

// indexTemplate is a composable index template.
type indexTemplate struct {
	name     string
	patterns []string
	settings map[string]any // as given under template.settings
	mappings *index.Mapping
	aliases  any
	priority int
	version  any
	meta     any

	dataStream string // the data_stream's timestamp field; "" when the template makes indices
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

func parseTemplate(name string, body map[string]any) (*indexTemplate, *apierr.Error) {
	t := &indexTemplate{name: name}
	for k, v := range body {
		switch k {
		case "index_patterns":
			for _, p := range jsonval.List(v) {
				s, ok := p.(string)
				if !ok || s == "" {
					return nil, apierr.BadRequest("index_patterns must be strings")
				}
				t.patterns = append(t.patterns, s)
			}
		case "template":
			tm, ok := jsonval.Map(v)
			if !ok && v != nil {
				return nil, apierr.Parsing("[index_template] template doesn't support values of type: VALUE_STRING")
			}
			for tk, tv := range tm {
				switch tk {
				case "settings":
					if _, err := flattenSettings(tv); err != nil {
						return nil, err
					}
					probe := index.NewIndex("probe", "", 0)
					if err := applySettings(probe, tv); err != nil {
						return nil, err
					}
					t.settings, _ = tv.(map[string]any)
				case "mappings":
					m, err := index.ParseMappings(tv)
					if err != nil {
						return nil, err
					}
					t.mappings = m
				case "aliases":
					t.aliases = tv
				default:
					return nil, apierr.Parsing("[template] unknown field [%s]", tk)
				}
			}
		case "priority":
			n, ok := jsonval.Int(v)
			if !ok || n < 0 {
				return nil, apierr.BadRequest("index template priority must be >= 0")
			}
			t.priority = n
		case "version":
			t.version = v
		case "_meta":
			t.meta = v
		case "data_stream":
			f, err := parseDataStreamTemplate(v)
			if err != nil {
				return nil, err
			}
			t.dataStream = f
		case "composed_of":
		default:
			return nil, apierr.Parsing("[index_template] unknown field [%s]", k)
		}
	}
	if len(t.patterns) == 0 {
		return nil, apierr.Errf(400, "action_request_validation_exception", "Validation Failed: 1: index patterns are missing;")
	}
	return t, nil
}

func (t *indexTemplate) render() jsonout.Obj {
	inner := jsonout.Obj{}
	if t.settings != nil {
		flat, _ := flattenSettings(t.settings)
		inner = append(inner, jsonout.KV{"settings", nestSettings(flat)})
	}
	if t.mappings != nil {
		inner = append(inner, jsonout.KV{"mappings", t.mappings.Render()})
	}
	if t.aliases != nil {
		inner = append(inner, jsonout.KV{"aliases", t.aliases})
	}
	o := jsonout.Obj{{"index_patterns", t.patterns}, {"template", inner}, {"composed_of", []string{}}, {"priority", t.priority}}
	if t.version != nil {
		o = append(o, jsonout.KV{"version", t.version})
	}
	if t.meta != nil {
		o = append(o, jsonout.KV{"_meta", t.meta})
	}
	if t.dataStream != "" {
		o = append(o, jsonout.KV{"data_stream", jsonout.Obj{{"timestamp_field", jsonout.Obj{{"name", t.dataStream}}}}})
	}
	return o
}

func (c *Cluster) putTemplate(w http.ResponseWriter, r *http.Request, name string, body []byte) {
	v, err := parseBody(body, true)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	m, _ := jsonval.Map(v)
	t, err := parseTemplate(name, m)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.mu.Lock()
	c.templates[name] = t
	c.mu.Unlock()
	c.reply(w, r, 200, jsonout.Obj{{"acknowledged", true}})
}

func (c *Cluster) getTemplates(w http.ResponseWriter, r *http.Request, name string) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var list []jsonout.Obj
	names := jsonval.SortedKeys(c.templates)
	sort.Strings(names)
	for _, n := range names {
		if name == "" || rest.GlobMatch(name, n) {
			list = append(list, jsonout.Obj{{"name", n}, {"index_template", c.templates[n].render()}})
		}
	}
	if name != "" && len(list) == 0 {
		c.fail(w, r, apierr.Errf(404, "resource_not_found_exception", "index template matching [%s] not found", name))
		return
	}
	if list == nil {
		list = []jsonout.Obj{}
	}
	c.reply(w, r, 200, jsonout.Obj{{"index_templates", list}})
}

func (c *Cluster) deleteTemplate(w http.ResponseWriter, r *http.Request, name string) {
	c.mu.Lock()
	_, ok := c.templates[name]
	var users []string // the data streams made from it (MetadataIndexTemplateService.removeIndexTemplateV2)
	for _, n := range jsonval.SortedKeys(c.streams) {
		if c.streams[n].template == name {
			users = append(users, n)
		}
	}
	if len(users) == 0 {
		delete(c.templates, name)
	}
	c.mu.Unlock()
	if len(users) > 0 {
		c.fail(w, r, apierr.BadRequest("unable to remove composable templates [%s] as they are in use by a data streams [%s]", name, strings.Join(users, ", ")))
		return
	}
	if !ok {
		c.fail(w, r, apierr.Errf(404, "index_template_missing_exception", "index_template [%s] missing", name))
		return
	}
	c.reply(w, r, 200, jsonout.Obj{{"acknowledged", true}})
}
