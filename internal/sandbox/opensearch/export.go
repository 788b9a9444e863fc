package opensearch

import (
	"encoding/json"
	"fmt"

	"github.com/svcui/svcui/internal/jsonval"
)

const exportFormat = "svcui-opensearch-sandbox/1"

type exportState struct {
	Format    string           `json:"format"`
	Indices   []exportIndex    `json:"indices"`
	Templates []exportTemplate `json:"templates"`
	Policies  []exportPolicy   `json:"policies"`
	Roles     []exportRole     `json:"roles"`

	LegacyTemplates []exportTemplate  `json:"legacy_templates,omitempty"`
	Persistent      map[string]string `json:"cluster_settings,omitempty"` // persistent cluster settings
}

type exportIndex struct {
	Name     string            `json:"name"`
	UUID     string            `json:"uuid"`
	Created  int64             `json:"created"`
	Shards   int               `json:"number_of_shards"`
	Replicas int               `json:"number_of_replicas"`
	Settings map[string]string `json:"settings,omitempty"`
	Mappings json.RawMessage   `json:"mappings"`
	SeqNo    int64             `json:"seq_no"`
	Deleted  int               `json:"docs_deleted"`
	Docs     []exportDoc       `json:"docs"`
	ISM      string            `json:"ism_policy_id,omitempty"`
}

type exportDoc struct {
	ID      string          `json:"_id"`
	Version int64           `json:"_version"`
	SeqNo   int64           `json:"_seq_no"`
	Source  json.RawMessage `json:"_source"`
}

type exportTemplate struct {
	Name string          `json:"name"`
	Body json.RawMessage `json:"body"`
}

type exportPolicy struct {
	ID          string          `json:"id"`
	Version     int64           `json:"version"`
	SeqNo       int64           `json:"seq_no"`
	LastUpdated int64           `json:"last_updated_time"`
	Policy      json.RawMessage `json:"policy"`
}

type exportRole struct {
	Name string          `json:"name"`
	Body json.RawMessage `json:"body"`
}

// Export returns the whole state (indices with documents and mappings, templates, ISM policies
// and custom roles) as JSON that Import accepts.
func (c *Cluster) Export() ([]byte, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	st := exportState{Format: exportFormat, Indices: []exportIndex{}, Templates: []exportTemplate{},
		Policies: []exportPolicy{}, Roles: []exportRole{}}
	for _, ix := range c.sortedIndices() {
		ei := exportIndex{Name: ix.name, UUID: ix.uuid, Created: ix.created, Shards: ix.shards, Replicas: ix.replicas,
			Settings: map[string]string{}, Mappings: mustJSON(ix.mapping.render()), SeqNo: ix.seqNo, Deleted: ix.ndeleted,
			Docs: []exportDoc{}, ISM: ix.ismPolicy}
		for k, v := range ix.settings {
			s, _ := jsonval.String(v)
			ei.Settings[k] = s
		}
		for _, d := range ix.docs {
			if d != nil {
				ei.Docs = append(ei.Docs, exportDoc{ID: d.id, Version: d.version, SeqNo: d.seqNo, Source: d.raw})
			}
		}
		st.Indices = append(st.Indices, ei)
	}
	for _, n := range jsonval.SortedKeys(c.templates) {
		st.Templates = append(st.Templates, exportTemplate{Name: n, Body: mustJSON(c.templates[n].render())})
	}
	for _, n := range jsonval.SortedKeys(c.legacyTemplates) {
		st.LegacyTemplates = append(st.LegacyTemplates, exportTemplate{Name: n, Body: mustJSON(c.legacyTemplates[n].renderLegacy())})
	}
	if len(c.persistent) > 0 {
		st.Persistent = c.persistent
	}
	for _, n := range jsonval.SortedKeys(c.policies) {
		p := c.policies[n]
		st.Policies = append(st.Policies, exportPolicy{ID: p.id, Version: p.version, SeqNo: p.seqNo,
			LastUpdated: p.lastUpdated, Policy: mustJSON(p.policy)})
	}
	for _, n := range jsonval.SortedKeys(c.roles) {
		if r := c.roles[n]; !r.reserved {
			st.Roles = append(st.Roles, exportRole{Name: n, Body: mustJSON(r.body)})
		}
	}
	return json.Marshal(st)
}

// Import replaces the whole state with an Export result; on error nothing changes.
func (c *Cluster) Import(data []byte) error {
	var st exportState
	if err := json.Unmarshal(data, &st); err != nil {
		return fmt.Errorf("import: %w", err)
	}
	if st.Format != exportFormat {
		return fmt.Errorf("import: unsupported format %q", st.Format)
	}
	indices := map[string]*index{}
	for _, ei := range st.Indices {
		if err := validateIndexName(ei.Name); err != nil {
			return fmt.Errorf("import: %s", err.reason)
		}
		ix := newIndex(ei.Name, ei.UUID, ei.Created)
		ix.shards, ix.replicas = max(1, ei.Shards), max(0, ei.Replicas)
		for k, v := range ei.Settings {
			ix.settings[k] = v
		}
		mv, err := decodeJSON(ei.Mappings)
		if err != nil {
			return fmt.Errorf("import: index %s: bad mappings", ei.Name)
		}
		m, aerr := parseMappings(mv)
		if aerr != nil {
			return fmt.Errorf("import: index %s: %s", ei.Name, aerr.reason)
		}
		ix.mapping = m
		ix.fields = m.flatten()
		for _, d := range ei.Docs {
			src, aerr := parseSource(d.Source)
			if aerr != nil {
				return fmt.Errorf("import: index %s doc %s: %s", ei.Name, d.ID, aerr.reason)
			}
			leaves, aerr := ix.parse(d.ID, src, false)
			if aerr != nil {
				return fmt.Errorf("import: index %s doc %s: %s", ei.Name, d.ID, aerr.reason)
			}
			if _, dup := ix.ids[d.ID]; dup {
				return fmt.Errorf("import: index %s: duplicate id %s", ei.Name, d.ID)
			}
			ix.add(&document{id: d.ID, version: max(1, d.Version), seqNo: d.SeqNo, raw: []byte(d.Source), src: src}, leaves)
		}
		ix.seqNo, ix.ndeleted = ei.SeqNo, ei.Deleted
		ix.ismPolicy = ei.ISM
		indices[ei.Name] = ix
	}
	templates := map[string]*indexTemplate{}
	for _, et := range st.Templates {
		v, err := decodeJSON(et.Body)
		if err != nil {
			return fmt.Errorf("import: template %s: bad body", et.Name)
		}
		m, _ := asMap(v)
		t, aerr := parseTemplate(et.Name, m)
		if aerr != nil {
			return fmt.Errorf("import: template %s: %s", et.Name, aerr.reason)
		}
		templates[et.Name] = t
	}
	legacy := map[string]*indexTemplate{}
	for _, et := range st.LegacyTemplates {
		v, err := decodeJSON(et.Body)
		if err != nil {
			return fmt.Errorf("import: legacy template %s: bad body", et.Name)
		}
		m, _ := asMap(v)
		t, aerr := parseLegacyTemplate(et.Name, m)
		if aerr != nil {
			return fmt.Errorf("import: legacy template %s: %s", et.Name, aerr.reason)
		}
		legacy[et.Name] = t
	}
	persistent := map[string]string{}
	for k, v := range st.Persistent {
		persistent[k] = v
	}
	policies := map[string]*ismPolicy{}
	for _, ep := range st.Policies {
		v, err := decodeJSON(ep.Policy)
		if err != nil {
			return fmt.Errorf("import: policy %s: bad body", ep.ID)
		}
		inner, aerr := validatePolicy(map[string]any{"policy": v})
		if aerr != nil {
			return fmt.Errorf("import: policy %s: %s", ep.ID, aerr.reason)
		}
		policies[ep.ID] = &ismPolicy{id: ep.ID, version: ep.Version, seqNo: ep.SeqNo, lastUpdated: ep.LastUpdated, policy: inner}
	}
	roles := builtinRoles()
	for _, er := range st.Roles {
		v, err := decodeJSON(er.Body)
		if err != nil {
			return fmt.Errorf("import: role %s: bad body", er.Name)
		}
		m, _ := asMap(v)
		body, reason := validateRole(m)
		if reason != "" {
			return fmt.Errorf("import: role %s: %s", er.Name, reason)
		}
		if _, reserved := roles[er.Name]; !reserved {
			roles[er.Name] = &role{body: body}
		}
	}
	c.mu.Lock()
	c.indices, c.templates, c.policies, c.roles = indices, templates, policies, roles
	c.legacyTemplates, c.persistent, c.transient = legacy, persistent, map[string]string{}
	c.mu.Unlock()
	return nil
}
