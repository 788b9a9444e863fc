package search

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// Bulk loader defaults.
const (
	DefaultBulkBatchDocs  = 1000
	DefaultBulkBatchBytes = 5 << 20
	DefaultBulkMaxLine    = 10 << 20
	maxBulkFailures       = 20
	bulkRetries           = 3
)

// BulkOptions tunes BulkLoad. Zero values take the defaults.
type BulkOptions struct {
	BatchDocs    int // documents per _bulk request (default 1000)
	BatchBytes   int // body bytes per _bulk request (default 5 MiB)
	MaxLineBytes int // longer input lines fail as items (default 10 MiB)
}

// BulkProgress is reported after every batch.
type BulkProgress struct {
	BytesRead  int64
	DocsSent   int
	DocsFailed int
	Batches    int
}

// BulkFailure is one document that was not indexed.
type BulkFailure struct {
	Line   int    // input line of the document (or of its action line)
	ID     string // _id when the engine gave one
	Status int    // item status; 0 when the document never left this machine
	Type   string
	Reason string
}

// BulkResult sums up a load.
type BulkResult struct {
	Docs      int // documents read
	Succeeded int
	Failed    int
	Batches   int
	BytesRead int64
	// PairsInput is true when the input already was action/document pairs.
	PairsInput bool
	Failures   []BulkFailure // the first 20
	Elapsed    time.Duration
}

type bulkItem struct{ line int }

type bulkLoader struct {
	ctx      context.Context
	c        *Client
	path     Path
	opts     BulkOptions
	progress func(BulkProgress)
	res      BulkResult
	buf      bytes.Buffer // complete items of the current batch
	items    []bulkItem
	sent     int
	start    time.Time
	// Pairs input: an action line waiting for its document line.
	pending     []byte
	pendingLine int
}

// BulkLoad streams r into index through _bulk requests. The input is NDJSON with one
// plain document per line, or (detected from the first line) action/document pairs
// as _bulk takes them, where actions without "_index" go to index. Memory stays
// bounded by one batch and one line; blank lines are skipped; lines that are not JSON
// objects or are longer than MaxLineBytes become failed items. Rejected items are
// counted with their reasons; an answer that fails the whole request (authentication,
// a missing permission, a malformed request) stops the load with an error, after
// retries for 429 and 502-504. Cancelling ctx stops between and during requests.
func BulkLoad(ctx context.Context, c *Client, index string, r io.Reader, opts BulkOptions, progress func(BulkProgress)) (BulkResult, error) {
	if opts.BatchDocs <= 0 {
		opts.BatchDocs = DefaultBulkBatchDocs
	}
	if opts.BatchBytes <= 0 {
		opts.BatchBytes = DefaultBulkBatchBytes
	}
	if opts.MaxLineBytes <= 0 {
		opts.MaxLineBytes = DefaultBulkMaxLine
	}
	index = strings.TrimSpace(index)
	if index == "" {
		return BulkResult{}, errors.New("bulk load: no index name")
	}
	if c == nil {
		return BulkResult{}, errors.New("bulk load: no client")
	}
	l := &bulkLoader{ctx: ctx, c: c, path: PathOf(index, "_bulk"), opts: opts, progress: progress, start: time.Now()}
	err := l.run(bufio.NewReaderSize(r, 64<<10))
	l.res.Elapsed = time.Since(l.start)
	return l.res, err
}

// plainAction is the action line given to plain documents (without its newline).
const plainAction = `{"index":{}}`

// isBulkAction reports the action names of a _bulk action line.
func isBulkAction(k string) bool {
	switch k {
	case "index", "create", "update", "delete":
		return true
	}
	return false
}

func (l *bulkLoader) run(br *bufio.Reader) error {
	var line []byte
	lineNo := 0
	detected := false
	for {
		if err := l.ctx.Err(); err != nil {
			return err
		}
		var tooLong bool
		var n int
		var err error
		line, n, tooLong, err = readLimitedLine(br, line[:0], l.opts.MaxLineBytes)
		if n > 0 {
			lineNo++
		}
		l.res.BytesRead += int64(n)
		if err != nil && err != io.EOF {
			return fmt.Errorf("bulk load: reading line %d: %w", lineNo, err)
		}
		trimmed := bytes.TrimSpace(line)
		switch {
		case tooLong:
			l.res.Docs++
			l.fail(BulkFailure{Line: lineNo, Type: "line_too_long", Reason: fmt.Sprintf("line longer than %d bytes", l.opts.MaxLineBytes)})
			l.pending = l.pending[:0] // a pending action lost its document
		case len(trimmed) == 0:
			// blank line
		default:
			if !detected {
				detected = true
				l.res.PairsInput = isActionLine(trimmed)
			}
			if ferr := l.add(trimmed, lineNo); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			break
		}
	}
	if len(l.pending) > 0 {
		l.res.Docs++
		l.fail(BulkFailure{Line: l.pendingLine, Type: "missing_document", Reason: "action line without a document line"})
	}
	return l.flush()
}

func isActionLine(b []byte) bool {
	if len(b) == 0 || b[0] != '{' {
		return false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil || len(m) != 1 {
		return false
	}
	for k, v := range m {
		v = bytes.TrimSpace(v)
		return isBulkAction(k) && len(v) > 0 && v[0] == '{'
	}
	return false
}

func isDeleteAction(b []byte) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return false
	}
	_, ok := m["delete"]
	return ok
}

func (l *bulkLoader) add(doc []byte, lineNo int) error {
	validObject := doc[0] == '{' && json.Valid(doc)
	if !l.res.PairsInput {
		l.res.Docs++
		if !validObject {
			l.fail(BulkFailure{Line: lineNo, Type: "parse_error", Reason: "the line is not a JSON object"})
			return nil
		}
		return l.append(lineNo, []byte(plainAction), doc)
	}
	if len(l.pending) == 0 {
		if !isActionLine(doc) {
			l.res.Docs++
			l.fail(BulkFailure{Line: lineNo, Type: "invalid_action", Reason: `expected an action line such as {"index":{}}`})
			return nil
		}
		if isDeleteAction(doc) {
			l.res.Docs++
			return l.append(lineNo, doc, nil)
		}
		l.pending = append(l.pending[:0], doc...)
		l.pendingLine = lineNo
		return nil
	}
	l.res.Docs++
	action := l.pendingLine
	if !validObject {
		l.pending = l.pending[:0]
		l.fail(BulkFailure{Line: lineNo, Type: "parse_error", Reason: "the document line is not a JSON object"})
		return nil
	}
	err := l.append(action, l.pending, doc)
	l.pending = l.pending[:0]
	return err
}

// append adds one item (action line, optional document line) to the batch, sending
// the batch first when the item would overflow it, and after when it is full.
func (l *bulkLoader) append(lineNo int, action, doc []byte) error {
	size := len(action) + 1
	if doc != nil {
		size += len(doc) + 1
	}
	if len(l.items) > 0 && l.buf.Len()+size > l.opts.BatchBytes {
		if err := l.flush(); err != nil {
			return err
		}
	}
	l.buf.Write(action)
	l.buf.WriteByte('\n')
	if doc != nil {
		l.buf.Write(doc)
		l.buf.WriteByte('\n')
	}
	l.items = append(l.items, bulkItem{line: lineNo})
	if len(l.items) >= l.opts.BatchDocs || l.buf.Len() >= l.opts.BatchBytes {
		return l.flush()
	}
	return nil
}

func (l *bulkLoader) fail(f BulkFailure) {
	l.res.Failed++
	if len(l.res.Failures) < maxBulkFailures {
		l.res.Failures = append(l.res.Failures, f)
	}
}

func (l *bulkLoader) report() {
	if l.progress != nil {
		l.progress(BulkProgress{BytesRead: l.res.BytesRead, DocsSent: l.sent, DocsFailed: l.res.Failed, Batches: l.res.Batches})
	}
}

// flush sends the current batch, if any, and reports progress.
func (l *bulkLoader) flush() error {
	if len(l.items) == 0 {
		l.report()
		return nil
	}
	resp, err := l.send(l.buf.Bytes())
	if err != nil {
		return err
	}
	l.res.Batches++
	l.sent += len(l.items)
	l.account(resp.Body)
	l.buf.Reset()
	l.items = l.items[:0]
	l.report()
	return nil
}

func (l *bulkLoader) send(body []byte) (*Response, error) {
	backoff := 200 * time.Millisecond
	for attempt := 0; ; attempt++ {
		resp, err := l.c.Do(l.ctx, Request{Method: "POST", Path: l.path, Body: body, ContentType: ContentTypeNDJSON})
		if err != nil {
			return nil, fmt.Errorf("bulk load: batch %d: %w", l.res.Batches+1, err)
		}
		if resp.OK() {
			return resp, nil
		}
		retryable := resp.Status == 429 || resp.Status == 502 || resp.Status == 503 || resp.Status == 504
		if !retryable || attempt >= bulkRetries {
			return nil, fmt.Errorf("bulk load: batch %d: %w", l.res.Batches+1, resp.Err())
		}
		select {
		case <-l.ctx.Done():
			return nil, l.ctx.Err()
		case <-time.After(backoff):
		}
		backoff *= 2
	}
}

type bulkAnswer struct {
	Errors bool                         `json:"errors"`
	Items  []map[string]bulkItemOutcome `json:"items"`
}

type bulkItemOutcome struct {
	ID     string `json:"_id"`
	Status int    `json:"status"`
	Error  *struct {
		Type   string `json:"type"`
		Reason string `json:"reason"`
	} `json:"error"`
}

// account counts the outcome of every item of the batch just sent.
func (l *bulkLoader) account(body []byte) {
	var ans bulkAnswer
	if err := json.Unmarshal(body, &ans); err != nil {
		for _, it := range l.items {
			l.fail(BulkFailure{Line: it.line, Type: "bad_answer", Reason: "the _bulk answer could not be read"})
		}
		return
	}
	for i, it := range l.items {
		if i >= len(ans.Items) {
			l.fail(BulkFailure{Line: it.line, Type: "missing_item", Reason: "the _bulk answer has no item for this document"})
			continue
		}
		var out bulkItemOutcome
		for _, o := range ans.Items[i] {
			out = o
		}
		if out.Error != nil || out.Status >= 300 && out.Status != 404 {
			f := BulkFailure{Line: it.line, ID: out.ID, Status: out.Status}
			if out.Error != nil {
				f.Type, f.Reason = out.Error.Type, out.Error.Reason
			}
			l.fail(f)
			continue
		}
		l.res.Succeeded++
	}
}

// readLimitedLine appends one line (without its newline) to dst and reports the bytes
// consumed. A line longer than max is consumed to its end but not kept: tooLong says so.
func readLimitedLine(br *bufio.Reader, dst []byte, max int) (line []byte, n int, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		n += len(chunk)
		if !tooLong {
			if len(dst)+len(chunk) > max+1 { // +1: the newline itself
				tooLong = true
				dst = dst[:0]
			} else {
				dst = append(dst, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		dst = bytes.TrimSuffix(dst, []byte("\n"))
		dst = bytes.TrimSuffix(dst, []byte("\r"))
		return dst, n, tooLong, err
	}
}

// CountBulkDocuments reads r to its end and says how many documents a bulk load of it
// sends (plain documents: one a non-blank line; action/document pairs: one an action)
// and how many bytes it holds: what the review of a load says before anything is sent.
func CountBulkDocuments(r io.Reader) (docs int, size int64, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	detected, pairs := false, false
	var line []byte
	for {
		var n int
		var tooLong bool
		line, n, tooLong, err = readLimitedLine(br, line[:0], 1<<20)
		size += int64(n)
		if err != nil && err != io.EOF {
			return docs, size, err
		}
		trimmed := bytes.TrimSpace(line)
		switch {
		case tooLong:
			docs++
		case len(trimmed) == 0:
		default:
			if !detected {
				detected, pairs = true, isActionLine(trimmed)
			}
			if !pairs || isActionLine(trimmed) {
				docs++
			}
		}
		if err == io.EOF {
			return docs, size, nil
		}
	}
}
