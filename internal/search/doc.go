// Package search is the client of an opensearch service's HTTP interface and the
// query-editor logic that has no UI: console-syntax parsing ("METHOD /path" plus a
// JSON or NDJSON body), body validation with buffer positions, result shaping into
// tables and series, paging, field-name completion from mappings, request templates,
// per-service history on disk, curl export without the password, and a streaming
// bulk loader.
//
// Everything here is UI-agnostic: functions take bytes or strings and return plain
// values, so the Search tab (and tests) can drive them directly.
package search
