// Package search is the client of an opensearch service's HTTP interface and the
// query-editor logic that has no UI: console-syntax parsing ("METHOD /path" plus a
// JSON or NDJSON body), body validation with buffer positions, result shaping into
// tables and series, paging, field-name completion from mappings, request templates,
// per-service history on disk, curl export without the password, and a streaming
// bulk loader.
//
// Everything here is UI-agnostic: functions take bytes or strings and return plain
// values, so the Search tab (and tests) can drive them directly. A typical run of
// the request under the cursor:
//
//	req, ok := search.RequestAt(buffer, cursorLine)    // which request
//	hr, err := req.HTTPRequest()                        // *ValidationError: line, column
//	resp, err := client.Do(ctx, hr)                     // transport errors only
//	if err := resp.Err(); err != nil { ... }            // *EngineError for non-2xx
//	hits, _ := search.ShapeHits(resp.Body)              // table of hits
//	aggs, _ := search.ShapeAggs(resp.Body)              // tables and bar series
//	next, err := search.NextPage(req, hits)             // ErrNoMorePages at the end
//	history.Add(search.NewHistoryEntry(req, resp, time.Now()))
//
// For the log-reading tab: FlattenHit (document view), PlanColumns (hits table
// layout within a width), Suggest (editor completions by context), Describe (error
// sentences and their debug detail), and small state files (LoadColumns,
// SaveColumns, LoadEditorText, SaveEditorText) kept in the state directory the
// caller passes. WithReauth lets a client recover from a password changed elsewhere.
//
// Nothing in this package logs, reads the environment, or touches the disk unless
// called; no error or export carries the password.
package search
