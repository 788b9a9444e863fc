// Package jsonval holds what the console and the sandbox's search engine both know about
// loosely typed JSON: reading values decoded with json.Number (as text, number or bool),
// objects that keep their key order, and a writer that escapes strings as OpenSearch does
// (control characters, quotes and backslashes only, never < > &). One place, so what the
// engine writes and what the console reads and shows agree.
package jsonval
