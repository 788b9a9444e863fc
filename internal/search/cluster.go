package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// ClusterHealth is the answer of GET /_cluster/health (the fields the UI shows).
type ClusterHealth struct {
	ClusterName         string  `json:"cluster_name"`
	Status              string  `json:"status"`
	TimedOut            bool    `json:"timed_out"`
	NumberOfNodes       int     `json:"number_of_nodes"`
	NumberOfDataNodes   int     `json:"number_of_data_nodes"`
	ActivePrimaryShards int     `json:"active_primary_shards"`
	ActiveShards        int     `json:"active_shards"`
	RelocatingShards    int     `json:"relocating_shards"`
	InitializingShards  int     `json:"initializing_shards"`
	UnassignedShards    int     `json:"unassigned_shards"`
	ActiveShardsPercent float64 `json:"active_shards_percent_as_number"`
}

// Health fetches GET /_cluster/health.
func (c *Client) Health(ctx context.Context) (*ClusterHealth, error) {
	resp, err := c.Read(ctx, Get(PathOf("_cluster", "health")))
	if err != nil {
		return nil, err
	}
	if err := resp.Err(); err != nil {
		return nil, err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(resp.Body, &raw); err != nil {
		return nil, answerError("the cluster health", resp, err)
	}
	h := &ClusterHealth{
		ClusterName:         flexString(raw["cluster_name"]),
		Status:              flexString(raw["status"]),
		TimedOut:            flexString(raw["timed_out"]) == "true",
		NumberOfNodes:       int(flexInt(raw["number_of_nodes"])),
		NumberOfDataNodes:   int(flexInt(raw["number_of_data_nodes"])),
		ActivePrimaryShards: int(flexInt(raw["active_primary_shards"])),
		ActiveShards:        int(flexInt(raw["active_shards"])),
		RelocatingShards:    int(flexInt(raw["relocating_shards"])),
		InitializingShards:  int(flexInt(raw["initializing_shards"])),
		UnassignedShards:    int(flexInt(raw["unassigned_shards"])),
	}
	h.ActiveShardsPercent, _ = strconv.ParseFloat(flexString(raw["active_shards_percent_as_number"]), 64)
	return h, nil
}

// IndexInfo is one row of GET /_cat/indices?format=json.
type IndexInfo struct {
	Health    string
	Status    string
	Index     string
	DocsCount int64
	// Size is the store size as the engine wrote it (e.g. "12.3kb" or a byte count).
	Size string
}

// Closed reports a closed index: it keeps its data but answers no search, get or write,
// and the engine gives no document count or size for it.
func (ix IndexInfo) Closed() bool { return ix.Status == "close" }

// CatIndices lists indices sorted by name. Numbers given as strings or numbers are both read.
func (c *Client) CatIndices(ctx context.Context) ([]IndexInfo, error) {
	resp, err := c.Read(ctx, Get(PathOf("_cat", "indices").With(url.Values{"format": {"json"}})))
	if err != nil {
		return nil, err
	}
	if err := resp.Err(); err != nil {
		return nil, err
	}
	out, err := ParseCatIndices(resp.Body)
	if err != nil {
		return nil, answerError("the index list", resp, errors.Unwrap(err))
	}
	return out, nil
}

// ParseCatIndices decodes a _cat/indices JSON answer.
func ParseCatIndices(body []byte) ([]IndexInfo, error) {
	var rows []map[string]json.RawMessage
	if err := json.Unmarshal(body, &rows); err != nil {
		return nil, fmt.Errorf("cat indices: unexpected body: %w", err)
	}
	out := make([]IndexInfo, 0, len(rows))
	for _, r := range rows {
		out = append(out, IndexInfo{
			Health:    flexString(r["health"]),
			Status:    flexString(r["status"]),
			Index:     flexString(r["index"]),
			DocsCount: flexInt(firstPresent(r, "docs.count", "docsCount", "dc")),
			Size:      flexString(firstPresent(r, "store.size", "storeSize", "ss")),
		})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Index < out[j].Index })
	return out, nil
}

// Mapping fetches and parses GET /{index}/_mapping.
func (c *Client) Mapping(ctx context.Context, index string) (Mapping, error) {
	index = strings.TrimSpace(index)
	if index == "" {
		return Mapping{}, fmt.Errorf("mapping: no index name")
	}
	resp, err := c.Read(ctx, Get(PathOf(index, "_mapping")))
	if err != nil {
		return Mapping{}, err
	}
	if err := resp.Err(); err != nil {
		return Mapping{}, err
	}
	m, err := ParseMapping(resp.Body)
	if err != nil {
		return Mapping{}, answerError("the mapping of "+index, resp, errors.Unwrap(err))
	}
	return m, nil
}

func firstPresent(m map[string]json.RawMessage, keys ...string) json.RawMessage {
	for _, k := range keys {
		if v, ok := m[k]; ok {
			return v
		}
	}
	return nil
}

// flexString renders a JSON scalar as text: strings unquoted, numbers and booleans as written.
func flexString(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	t := strings.TrimSpace(string(raw))
	if t == "null" {
		return ""
	}
	return t
}

// flexInt reads an integer given as a number or a string; anything else is 0.
func flexInt(raw json.RawMessage) int64 {
	s := flexString(raw)
	if s == "" {
		return 0
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return int64(f)
	}
	return 0
}
