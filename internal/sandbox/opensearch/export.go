package opensearch

import (
	"encoding/json"
	"fmt"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

const exportFormat = "svcui-opensearch-sandbox/1"

type exportState struct {
	Format    string           `json:"format"`
	Indices   []exportIndex    `json:"indices"`
	Templates []exportTemplate `json:"templates"`
	Policies  []exportPolicy   `json:"policies"`
	Roles     []exportRole     `json:"roles"`

	LegacyTemplates []exportTemplate  `json:"legacy_templates,omitempty"`
	DataStreams     []exportStream    `json:"data_streams,omitempty"`
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
	Closed   bool              `json:"closed,omitempty"`
}

// exportStream is a data stream: its backing indices by name, oldest first.
type exportStream struct {
	Name       string   `json:"name"`
	Timestamp  string   `json:"timestamp_field"`
	Template   string   `json:"template"`
	Generation int      `json:"generation"`
	Indices    []string `json:"indices"`
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
		ei := exportIndex{Name: ix.Name, UUID: ix.UUID, Created: ix.Created, Shards: ix.Shards, Replicas: ix.Replicas,
			Settings: map[string]string{}, Mappings: jsonout.Marshal(ix.Mapping.Render()), SeqNo: ix.SeqNo, Deleted: ix.Deleted,
			Docs: []exportDoc{}, ISM: ix.ISMPolicy, Closed: c.closed[ix]}
		for k, v := range ix.Settings {
			s, _ := jsonval.String(v)
			ei.Settings[k] = s
		}
		for _, d := range ix.Docs {
			if d != nil {
				ei.Docs = append(ei.Docs, exportDoc{ID: d.ID, Version: d.Version, SeqNo: d.SeqNo, Source: d.Raw})
			}
		}
		st.Indices = append(st.Indices, ei)
	}
	for _, n := range jsonval.SortedKeys(c.streams) {
		ds := c.streams[n]
		es := exportStream{Name: n, Timestamp: ds.timestamp, Template: ds.template, Generation: ds.generation}
		for _, ix := range ds.indices {
			es.Indices = append(es.Indices, ix.Name)
		}
		st.DataStreams = append(st.DataStreams, es)
	}
	for _, n := range jsonval.SortedKeys(c.templates) {
		st.Templates = append(st.Templates, exportTemplate{Name: n, Body: jsonout.Marshal(c.templates[n].render())})
	}
	for _, n := range jsonval.SortedKeys(c.legacyTemplates) {
		st.LegacyTemplates = append(st.LegacyTemplates, exportTemplate{Name: n, Body: jsonout.Marshal(c.legacyTemplates[n].renderLegacy())})
	}
	if len(c.persistent) > 0 {
		st.Persistent = c.persistent
	}
	for _, n := range jsonval.SortedKeys(c.policies) {
		p := c.policies[n]
		st.Policies = append(st.Policies, exportPolicy{ID: p.id, Version: p.version, SeqNo: p.seqNo,
			LastUpdated: p.lastUpdated, Policy: jsonout.Marshal(p.policy)})
	}
	for _, n := range jsonval.SortedKeys(c.roles) {
		if r := c.roles[n]; !r.reserved {
			st.Roles = append(st.Roles, exportRole{Name: n, Body: jsonout.Marshal(r.body)})
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
	indices := map[string]*index.Index{}
	closed := map[*index.Index]bool{}
	for _, ei := range st.Indices {
		if err := validateIndexName(ei.Name); err != nil {
			return fmt.Errorf("import: %s", err.Reason)
		}
		ix := index.NewIndex(ei.Name, ei.UUID, ei.Created)
		ix.Shards, ix.Replicas = max(1, ei.Shards), max(0, ei.Replicas)
		for k, v := range ei.Settings {
			ix.Settings[k] = v
		}
		mv, err := apierr.DecodeJSON(ei.Mappings)
		if err != nil {
			return fmt.Errorf("import: index %s: bad mappings", ei.Name)
		}
		m, aerr := index.ParseMappings(mv)
		if aerr != nil {
			return fmt.Errorf("import: index %s: %s", ei.Name, aerr.Reason)
		}
		ix.Mapping = m
		ix.Fields = m.Flatten()
		for _, d := range ei.Docs {
			src, aerr := parseSource(d.Source)
			if aerr != nil {
				return fmt.Errorf("import: index %s doc %s: %s", ei.Name, d.ID, aerr.Reason)
			}
			leaves, aerr := ix.Parse(d.ID, src, false)
			if aerr != nil {
				return fmt.Errorf("import: index %s doc %s: %s", ei.Name, d.ID, aerr.Reason)
			}
			if _, dup := ix.IDs[d.ID]; dup {
				return fmt.Errorf("import: index %s: duplicate id %s", ei.Name, d.ID)
			}
			ix.Add(&index.Document{ID: d.ID, Version: max(1, d.Version), SeqNo: d.SeqNo, Raw: []byte(d.Source), Src: src}, leaves)
		}
		ix.SeqNo, ix.Deleted = ei.SeqNo, ei.Deleted
		ix.ISMPolicy = ei.ISM
		indices[ei.Name] = ix
		if ei.Closed {
			closed[ix] = true
		}
	}
	streams := map[string]*dataStream{}
	for _, es := range st.DataStreams {
		ds := &dataStream{name: es.Name, timestamp: es.Timestamp, template: es.Template, generation: es.Generation}
		for _, n := range es.Indices {
			ix := indices[n]
			if ix == nil {
				return fmt.Errorf("import: data stream %s: no backing index %s", es.Name, n)
			}
			ds.indices = append(ds.indices, ix)
		}
		if len(ds.indices) == 0 || ds.timestamp == "" {
			return fmt.Errorf("import: data stream %s: no backing index or timestamp field", es.Name)
		}
		streams[es.Name] = ds
	}
	templates := map[string]*indexTemplate{}
	for _, et := range st.Templates {
		v, err := apierr.DecodeJSON(et.Body)
		if err != nil {
			return fmt.Errorf("import: template %s: bad body", et.Name)
		}
		m, _ := jsonval.Map(v)
		t, aerr := parseTemplate(et.Name, m)
		if aerr != nil {
			return fmt.Errorf("import: template %s: %s", et.Name, aerr.Reason)
		}
		templates[et.Name] = t
	}
	legacy := map[string]*indexTemplate{}
	for _, et := range st.LegacyTemplates {
		v, err := apierr.DecodeJSON(et.Body)
		if err != nil {
			return fmt.Errorf("import: legacy template %s: bad body", et.Name)
		}
		m, _ := jsonval.Map(v)
		t, aerr := parseLegacyTemplate(et.Name, m)
		if aerr != nil {
			return fmt.Errorf("import: legacy template %s: %s", et.Name, aerr.Reason)
		}
		legacy[et.Name] = t
	}
	persistent := map[string]string{}
	for k, v := range st.Persistent {
		persistent[k] = v
	}
	policies := map[string]*ismPolicy{}
	for _, ep := range st.Policies {
		v, err := apierr.DecodeJSON(ep.Policy)
		if err != nil {
			return fmt.Errorf("import: policy %s: bad body", ep.ID)
		}
		inner, aerr := validatePolicy(map[string]any{"policy": v})
		if aerr != nil {
			return fmt.Errorf("import: policy %s: %s", ep.ID, aerr.Reason)
		}
		policies[ep.ID] = &ismPolicy{id: ep.ID, version: ep.Version, seqNo: ep.SeqNo, lastUpdated: ep.LastUpdated, policy: inner}
	}
	roles := builtinRoles()
	for _, er := range st.Roles {
		v, err := apierr.DecodeJSON(er.Body)
		if err != nil {
			return fmt.Errorf("import: role %s: bad body", er.Name)
		}
		m, _ := jsonval.Map(v)
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
	c.closed, c.streams = closed, streams
	c.legacyTemplates, c.persistent, c.transient = legacy, persistent, map[string]string{}
	c.mu.Unlock()
	return nil
}
