package opensearch

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
	"github.com/svcui/svcui/internal/sandbox/opensearch/rest"
)

// dataStream is a data stream: a name standing for its backing indices (.ds-{name}-{generation}),
// oldest first; writes go to the last one, the write index.
type dataStream struct {
	name       string
	timestamp  string // the template's data_stream.timestamp_field.name, @timestamp by default
	template   string
	generation int
	indices    []*index.Index
}

// parseDataStreamTemplate reads an index template's data_stream object ({} or
// {"timestamp_field":{"name":…}}) into the timestamp field it names.
func parseDataStreamTemplate(v any) (string, *apierr.Error) {
	m, ok := jsonval.Map(v)
	if !ok {
		return "", apierr.Parsing("[index_template] data_stream doesn't support values of type: %s", tokenName(v))
	}
	field := "@timestamp"
	for k, x := range m {
		if k != "timestamp_field" {
			return "", apierr.Parsing("[data_stream_template] unknown field [%s]", k)
		}
		tm, _ := jsonval.Map(x)
		name, _ := tm["name"].(string)
		if name == "" {
			return "", apierr.Parsing("[timestamp_field] name is missing")
		}
		field = name
	}
	return field, nil
}

func backingName(stream string, gen int) string { return fmt.Sprintf(".ds-%s-%06d", stream, gen) }

// streamsMatching lists the data streams a wildcard matches, by name.
func (c *Cluster) streamsMatching(pattern string) []*dataStream {
	var out []*dataStream
	for _, n := range jsonval.SortedKeys(c.streams) {
		if pattern == "_all" || rest.GlobMatch(pattern, n) {
			out = append(out, c.streams[n])
		}
	}
	return out
}

// streamOf is the data stream an index backs, nil for an ordinary index.
func (c *Cluster) streamOf(ix *index.Index) *dataStream {
	for _, ds := range c.streams {
		for _, b := range ds.indices {
			if b == ix {
				return ds
			}
		}
	}
	return nil
}

// streamOfWriteIndex is the data stream whose write index ix is, nil when it is none's.
func (c *Cluster) streamOfWriteIndex(ix *index.Index) *dataStream {
	if ds := c.streamOf(ix); ds != nil && ds.indices[len(ds.indices)-1] == ix {
		return ds
	}
	return nil
}

// createDataStream makes a stream and its first backing index from the matching index template,
// which must have data_stream (MetadataCreateDataStreamService); the caller holds the write lock.
func (c *Cluster) createDataStream(name string) (*dataStream, *apierr.Error) {
	if err := validateIndexName(name); err != nil {
		return nil, err
	}
	if _, ok := c.streams[name]; ok {
		return nil, apierr.Errf(400, "resource_already_exists_exception", "data_stream [%s] already exists", name)
	}
	if _, ok := c.indices[name]; ok || c.isAlias(name) {
		return nil, apierr.Errf(400, "resource_already_exists_exception", "data_stream [%s] conflicts with existing index or alias", name)
	}
	t := c.matchTemplate(name)
	if t == nil {
		return nil, apierr.BadRequest("no matching index template found for data stream [%s]", name)
	}
	if t.dataStream == "" {
		return nil, apierr.BadRequest("matching index template [%s] for data stream [%s] has no data stream template", t.name, name)
	}
	ds := &dataStream{name: name, timestamp: t.dataStream, template: t.name}
	if _, err := c.rollStream(ds); err != nil {
		return nil, err
	}
	c.streams[name] = ds
	return ds, nil
}

// rollStream adds the stream's next generation of backing index, made from its template's
// settings and mappings, hidden, with the timestamp field mapped as a date.
func (c *Cluster) rollStream(ds *dataStream) (*index.Index, *apierr.Error) {
	var ts any = map[string]any{"type": "date"}
	parts := strings.Split(ds.timestamp, ".")
	for i := len(parts) - 1; i > 0; i-- {
		ts = map[string]any{"properties": map[string]any{parts[i]: ts}}
	}
	ix, err := c.createIndex(backingName(ds.name, ds.generation+1), map[string]any{
		"settings": map[string]any{"index.hidden": "true"},
		"mappings": map[string]any{"properties": map[string]any{parts[0]: ts}},
	})
	if err != nil {
		return nil, err
	}
	if t := c.templates[ds.template]; t != nil {
		if err := applySettings(ix, t.settings); err != nil {
			delete(c.indices, ix.Name)
			return nil, err
		}
		if t.mappings != nil {
			if err := ix.Mapping.Merge(t.mappings.Clone()); err != nil {
				delete(c.indices, ix.Name)
				return nil, err
			}
		}
		ix.Fields = ix.Mapping.Flatten()
	}
	ds.generation++
	ds.indices = append(ds.indices, ix)
	return ix, nil
}

// streamForWrite is the data stream a write to name goes to, created on the first write when an
// index template with data_stream matches a name that is nothing yet; nil when name is no stream.
// Only op_type=create reaches a stream (TransportBulkAction).
func (c *Cluster) streamForWrite(name string, create bool) (*dataStream, *apierr.Error) {
	ds := c.streams[name]
	if ds == nil {
		if _, ok := c.indices[name]; ok || c.isAlias(name) {
			return nil, nil
		}
		if t := c.matchTemplate(name); t == nil || t.dataStream == "" {
			return nil, nil
		}
		var err *apierr.Error
		if ds, err = c.createDataStream(name); err != nil {
			return nil, err
		}
	}
	if !create {
		return nil, apierr.BadRequest("only write ops with an op_type of create are allowed in data streams")
	}
	return ds, nil
}

// backingWriteErr refuses a write naming a backing index instead of its stream, as
// TransportBulkAction.prohibitAppendWritesInBackingIndices does: a create always, an index unless
// it is conditional (if_seq_no), as an update's rewrite is.
func (c *Cluster) backingWriteErr(name string, create, conditional bool) *apierr.Error {
	ix := c.indices[name]
	if ix == nil {
		return nil
	}
	ds := c.streamOf(ix)
	switch {
	case ds == nil:
		return nil
	case create:
		return apierr.BadRequest("index request with op_type=create targeting backing indices is disallowed, target corresponding data stream [%s] instead", ds.name)
	case !conditional:
		return apierr.BadRequest("index request with op_type=index and no if_primary_term and if_seq_no set targeting backing indices is disallowed, target corresponding data stream [%s] instead", ds.name)
	}
	return nil
}

// streamWriteErr refuses an update or a delete naming a data stream: only creates reach one.
func (c *Cluster) streamWriteErr(name string) *apierr.Error {
	if c.streams[name] != nil {
		return apierr.BadRequest("only write ops with an op_type of create are allowed in data streams")
	}
	return nil
}

// checkTimestamp refuses a document without exactly one value of the stream's timestamp field
// (DataStreamFieldMapper.postParse), as mapper_parsing_exception caused by illegal_argument_exception.
func (ds *dataStream) checkTimestamp(src map[string]any) *apierr.Error {
	var v any = src
	if x, ok := src[ds.timestamp]; ok {
		v = x
	} else {
		for _, p := range strings.Split(ds.timestamp, ".") {
			m, _ := jsonval.Map(v)
			v = m[p]
		}
	}
	switch v.(type) {
	case string, json.Number:
		return nil
	}
	e := apierr.Errf(400, "mapper_parsing_exception", "failed to parse")
	e.CausedBy = apierr.BadRequest("documents must contain a single-valued timestamp field '%s' of date type", ds.timestamp)
	return e
}

func (c *Cluster) renderStream(ds *dataStream) jsonout.Obj {
	indices := make([]jsonout.Obj, 0, len(ds.indices))
	status := "GREEN"
	for _, ix := range ds.indices {
		indices = append(indices, jsonout.Obj{{"index_name", ix.Name}, {"index_uuid", ix.UUID}})
		if c.indexHealth(ix) == "yellow" {
			status = "YELLOW"
		}
	}
	return jsonout.Obj{{"name", ds.name}, {"timestamp_field", jsonout.Obj{{"name", ds.timestamp}}}, {"indices", indices},
		{"generation", ds.generation}, {"status", status}, {"template", ds.template}}
}

// streamsNamed resolves the names of a data stream request: a comma list of names and wildcards,
// empty or _all for every stream. A name that is no stream is resource_not_found_exception.
func (c *Cluster) streamsNamed(names string) ([]*dataStream, *apierr.Error) {
	if names == "" {
		names = "*"
	}
	seen := map[string]*dataStream{}
	for _, n := range splitNames(names) {
		if n == "_all" || strings.ContainsAny(n, "*?") {
			for _, ds := range c.streamsMatching(n) {
				seen[ds.name] = ds
			}
			continue
		}
		ds := c.streams[n]
		if ds == nil {
			return nil, apierr.Errf(404, "resource_not_found_exception", "data_stream matching [%s] not found", n)
		}
		seen[n] = ds
	}
	out := make([]*dataStream, 0, len(seen))
	for _, n := range jsonval.SortedKeys(seen) {
		out = append(out, seen[n])
	}
	return out, nil
}

// handlePutDataStream creates a data stream (indices/data_stream/data_stream.yaml).
func (c *Cluster) handlePutDataStream(w http.ResponseWriter, r *http.Request, name string) {
	c.mu.Lock()
	_, err := c.createDataStream(name)
	c.mu.Unlock()
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.reply(w, r, 200, jsonout.Obj{{"acknowledged", true}})
}

// handleGetDataStream lists data streams (GetDataStreamAction.Response): name, timestamp field,
// backing indices, generation, health and template.
func (c *Cluster) handleGetDataStream(w http.ResponseWriter, r *http.Request, names string) {
	c.replyStreams(w, r, names, func(list []*dataStream) jsonout.Obj {
		out := make([]jsonout.Obj, 0, len(list))
		for _, ds := range list {
			out = append(out, c.renderStream(ds))
		}
		return jsonout.Obj{{"data_streams", out}}
	})
}

// replyStreams answers a read of the data streams names resolves to, rendered under the read lock.
func (c *Cluster) replyStreams(w http.ResponseWriter, r *http.Request, names string, render func([]*dataStream) jsonout.Obj) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	list, err := c.streamsNamed(names)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.reply(w, r, 200, render(list))
}

// handleDeleteDataStream deletes streams with their backing indices (indices/data_stream/data_stream.yaml).
func (c *Cluster) handleDeleteDataStream(w http.ResponseWriter, r *http.Request, names string) {
	c.mu.Lock()
	list, err := c.streamsNamed(names)
	if err == nil {
		for _, ds := range list {
			for _, ix := range ds.indices {
				delete(c.indices, ix.Name)
				delete(c.closed, ix)
			}
			delete(c.streams, ds.name)
		}
	}
	c.mu.Unlock()
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.reply(w, r, 200, jsonout.Obj{{"acknowledged", true}})
}

// handleDataStreamStats answers GET /_data_stream[/{name}]/_stats (DataStreamsStatsAction,
// indices/data_stream/stats.yaml): backing indices, store size and the newest timestamp per stream.
func (c *Cluster) handleDataStreamStats(w http.ResponseWriter, r *http.Request, names string) {
	c.replyStreams(w, r, names, func(list []*dataStream) jsonout.Obj {
		shards, ok, backing := 0, 0, 0
		var total int64
		per := make([]jsonout.Obj, 0, len(list))
		for _, ds := range list {
			var size int64
			var maxTS float64
			for _, ix := range ds.indices {
				shards += ix.Shards * (1 + ix.Replicas)
				ok += ix.Shards * (1 + c.assignedReplicas(ix))
				size += ix.StoreSize()
				maxTS = max(maxTS, newestTimestamp(ix, ds.timestamp))
			}
			backing += len(ds.indices)
			total += size
			per = append(per, jsonout.Obj{{"data_stream", ds.name}, {"backing_indices", len(ds.indices)},
				{"store_size_bytes", size}, {"maximum_timestamp", int64(maxTS)}})
		}
		return jsonout.Obj{{"_shards", jsonout.Obj{{"total", shards}, {"successful", ok}, {"failed", 0}}},
			{"data_stream_count", len(list)}, {"backing_indices", backing}, {"total_store_size_bytes", total}, {"data_streams", per}}
	})
}

// newestTimestamp is the largest value of a date field over an index's live documents (epoch
// millis), 0 when none has it.
func newestTimestamp(ix *index.Index, field string) float64 {
	col := ix.Columns[field]
	var newest float64
	if col == nil {
		return 0
	}
	for slot := range ix.Docs {
		if ix.IsLive(int32(slot)) {
			for _, n := range col.NumAt(int32(slot)) {
				newest = max(newest, n)
			}
		}
	}
	return newest
}

// renderMapping is an index's mapping as GET /{index}/_mapping shows it: a backing index's
// begins with the _data_stream_timestamp meta field (DataStreamFieldMapper) naming its timestamp.
func (c *Cluster) renderMapping(ix *index.Index) jsonout.Obj {
	m := ix.Mapping.Render()
	if ds := c.streamOf(ix); ds != nil {
		meta := jsonout.Obj{{"enabled", true}, {"timestamp_field", jsonout.Obj{{"name", ds.timestamp}}}}
		m = append(jsonout.Obj{{"_data_stream_timestamp", meta}}, m...)
	}
	return m
}
