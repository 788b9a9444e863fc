package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"unsafe"

	"github.com/svcui/svcui/internal/models"
)

// Answers are decoded as they arrive from the connection, so a large list is never
// held as bytes besides its decoded form. Lists are read one entry at a time: an
// entry without a name or one that cannot be read is skipped (and counted), not
// allowed to fail the whole list.

func encodeBody(in any) ([]byte, error) { return json.Marshal(in) }

// newAnswerDecoder is the JSON decoder of a success answer read from r.
func newAnswerDecoder(r io.Reader) *json.Decoder {
	return json.NewDecoder(&spaceLimiter{r: r})
}

// maxSpaceRun is the longest run of whitespace between tokens passed to the decoder;
// pretty-printed JSON indents by a few dozen bytes.
const maxSpaceRun = 4 << 10

// spaceLimiter drops whitespace between tokens beyond maxSpaceRun bytes in a row.
// json.Decoder looks for the next token without consuming the whitespace before it, so
// a long run arriving in small reads (32 KiB at a time from gzip) was scanned again at
// every read: 30 MiB of it took 8.9 s and a 1 GiB gzip bomb 17.5 s to reach the size
// cap. Whitespace inside strings is kept; offsets in errors shift only past such a run.
type spaceLimiter struct {
	r        io.Reader
	inString bool
	escaped  bool
	run      int
}

func (s *spaceLimiter) Read(p []byte) (int, error) {
	for {
		n, err := s.r.Read(p)
		n = s.filter(p[:n])
		if n > 0 || err != nil {
			return n, err
		}
	}
}

// filter compacts b in place and returns the length kept. Strings are passed over
// with IndexAny and moved with copy, so a large value costs no byte-by-byte loop.
func (s *spaceLimiter) filter(b []byte) int {
	w := 0
	keep := func(from, to int) { // b[from:to] stays, at w
		if w != from {
			copy(b[w:], b[from:to])
		}
		w += to - from
	}
	for i := 0; i < len(b); {
		switch c := b[i]; {
		case s.escaped:
			s.escaped = false
			keep(i, i+1)
			i++
		case s.inString:
			j := bytes.IndexAny(b[i:], `"\`)
			if j < 0 {
				keep(i, len(b))
				i = len(b)
				break
			}
			if b[i+j] == '"' {
				s.inString = false
			} else {
				s.escaped = true
			}
			keep(i, i+j+1)
			i += j + 1
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			s.run++
			if s.run <= maxSpaceRun {
				keep(i, i+1)
			}
			i++
		default:
			s.run = 0
			s.inString = c == '"'
			keep(i, i+1)
			i++
		}
	}
	return w
}

// answerDecoder reads a success answer's body. kind tells decoders apart in the
// collapse key, so identical GETs share a request only when they decode alike.
type answerDecoder struct {
	kind string
	// read decodes; size is the answer's length when the platform said it, else the
	// last whole answer's to the same GET (answerLengths), else -1.
	read func(ctx context.Context, dec *json.Decoder, size int64) (any, error)
}

// listAnswer is a decoded list with what was left out of it.
type listAnswer[T any] struct {
	items   []T
	skipped Skipped
}

// readList reads the array value at the decoder's position, entry by entry. name gives
// an entry's name; entries whose name is blank are dropped. A null list is empty. size
// is the answer's length when known (Content-Length), else -1.
//
// Only an entry that was read whole and does not fit its type is skipped. Anything
// else ends the list at once: a broken connection or the size cap (the decoder returns
// the same error for ever while More still sees the half-read entry: counting it as a
// bad entry and going on spun a core for good), a syntax error, or ctx ending.
func readList[T any](ctx context.Context, dec *json.Decoder, path string, name func(*T) string, sk *Skipped, size int64) ([]T, error) {
	return readListSettled(ctx, dec, path, name, sk, size, nil)
}

// readListSettled is readList, giving each entry kept to settle once it is read whole
// (nil: none).
func readListSettled[T any](ctx context.Context, dec *json.Decoder, path string, name func(*T) string, sk *Skipped, size int64, settle func(*T)) ([]T, error) {
	start := dec.InputOffset()
	tok, err := dec.Token()
	if err != nil {
		return nil, syntaxProblem(err, path, start)
	}
	if tok == nil {
		return nil, nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, &decodeError{Path: path, Found: tokenKind(tok), Want: "a list", Offset: start}
	}
	var items pages[T]
	strs := newInterner()
	for i := 0; dec.More(); i++ {
		at := dec.InputOffset()
		if i%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if i == sizeAfter {
			items.cur = presize(items.cur, i, at-start, size-start)
		}
		// Decoded in place: no entry is held twice. null leaves the zero value, which
		// has no name.
		v := items.next()
		if err := dec.Decode(v); err != nil {
			items.drop()
			entry := fmt.Sprintf("%s[%d]", path, i)
			de := elementProblem(err, entry, at)
			if de == nil {
				return nil, syntaxProblem(err, entry, at)
			}
			sk.add(false, de.Error())
			continue
		}
		if strings.TrimSpace(name(v)) == "" {
			items.drop()
			sk.add(true, fmt.Sprintf("%s[%d] has no name", path, i))
			continue
		}
		strs.entry(v)
		if settle != nil {
			settle(v)
		}
	}
	if _, err := dec.Token(); err != nil { // the closing bracket
		return nil, syntaxProblem(err, path, dec.InputOffset())
	}
	return items.slice(), nil
}

// pages collects a list of unknown length in pages of fixed size, then copies them
// once into a slice of the exact length. Growing one slice by append instead keeps
// each outgrown copy as garbage until the collector runs: a 23 MB chunked answer
// peaked at 3.6 times its size that way; in pages, with the collection after the
// copy, 2.1 (BenchmarkLargeProjectList), like an answer whose length presize knew.
type pages[T any] struct {
	full [][]T
	cur  []T
}

// pageBytes is the size of a page: small enough that the last one's unused room does
// not matter, large enough that a page is a few allocations among many entries.
const pageBytes = 256 << 10

// next adds a zero entry and returns it to be decoded into. The first page grows by
// append (a short list is one small slice); once it is a page long, or presize made
// it longer, a full page is kept and a new one started.
func (p *pages[T]) next() *T {
	var zero T
	if n := len(p.cur); n == cap(p.cur) && n >= pageLen[T]() {
		p.full = append(p.full, p.cur)
		p.cur = make([]T, 0, pageLen[T]())
	}
	p.cur = append(p.cur, zero)
	return &p.cur[len(p.cur)-1]
}

// drop takes back the entry next returned last.
func (p *pages[T]) drop() { p.cur = p.cur[:len(p.cur)-1] }

// slice returns the entries as one slice: the only page itself, or one exact copy.
func (p *pages[T]) slice() []T {
	if len(p.full) == 0 {
		return p.cur
	}
	n := len(p.cur)
	for _, pg := range p.full {
		n += len(pg)
	}
	out := make([]T, 0, n)
	for i, pg := range p.full {
		out = append(out, pg...)
		p.full[i] = nil // each page is garbage as soon as it is copied
	}
	out = append(out, p.cur...)
	large := len(p.full) >= collectAfterCopy
	p.full, p.cur = nil, nil
	if large {
		// The copy's allocation starts a collection while the pages are still live, so
		// the collector's next goal is twice the pages and the copy together, and the
		// rest of the answer (a project list's membership) filled it: a peak of 3.1
		// times the answer. One collection now, with the pages gone, sets the goal from
		// the list alone: 2.1 times.
		runtime.GC()
	}
	return out
}

// collectAfterCopy is how many full pages make a list worth a collection after its
// copy: 64 pages of pageBytes, 16 MB.
const collectAfterCopy = 64

func pageLen[T any]() int {
	var zero T
	return max(64, pageBytes/max(int(unsafe.Sizeof(zero)), 1))
}

// ctxEvery is how often, in entries, readList looks whether its context ended.
const ctxEvery = 256

// sizeAfter is how many entries of a large list are read before its length is
// estimated.
const sizeAfter = 256

// presize gives a large list, from the bytes its first n entries took, the capacity
// the rest of the answer will need (and 5 % more), so it is allocated once instead of
// growing by copies that would hold it twice. A small or unknown answer is left to
// append; the capacity never takes more memory than the answer's own length, whatever
// the platform claims.
func presize[T any](items []T, n int, used, rest int64) []T {
	if rest < 1<<20 || used <= 0 || n == 0 {
		return items
	}
	est := int64(n) * rest / used
	est += est / 20
	if limit := rest / max(int64(unsafe.Sizeof(items[0])), 1); est > limit {
		est = limit
	}
	if est <= int64(cap(items)) {
		return items
	}
	return slices.Grow(items, int(est)-len(items))
}

// readObject reads an object answer key by key: field reads the value of a key it
// wants and reports whether it did; the values of other keys are skipped unkept.
func readObject(dec *json.Decoder, field func(key string) (bool, error)) error {
	start := dec.InputOffset()
	tok, err := dec.Token()
	if err != nil {
		return syntaxProblem(err, "", start)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return &decodeError{Found: tokenKind(tok), Want: "an object", Offset: start}
	}
	for dec.More() {
		at := dec.InputOffset()
		kt, err := dec.Token()
		if err != nil {
			return syntaxProblem(err, "", at)
		}
		key, _ := kt.(string)
		handled, err := field(key)
		if err != nil {
			return err
		}
		if !handled {
			if err := skipValue(dec); err != nil {
				return syntaxProblem(err, key, dec.InputOffset())
			}
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace: a truncated answer fails here
		return syntaxProblem(err, "", dec.InputOffset())
	}
	return nil
}

// skipValue passes over one value token by token, so a large value is not buffered.
func skipValue(dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); ok {
		return skipRest(dec, d)
	}
	return nil
}

// readValue decodes the value at the decoder's position into a T. A null is an error
// unless nullOK.
func readValue[T any](dec *json.Decoder, path string, nullOK bool) (T, error) {
	var zero T
	at := dec.InputOffset()
	var v *T
	if err := dec.Decode(&v); err != nil {
		if de := elementProblem(err, path, at); de != nil {
			return zero, de
		}
		return zero, syntaxProblem(err, path, at)
	}
	if v == nil {
		if nullOK {
			return zero, nil
		}
		return zero, &decodeError{Path: path, Found: "null", Want: wantOf(zero), Offset: at}
	}
	return *v, nil
}

// listDecoder reads {key: [T...]}; missingOK accepts an answer without the key as an
// empty list.
func listDecoder[T any](key string, name func(*T) string, missingOK bool) answerDecoder {
	return answerDecoder{kind: "list " + key, read: func(ctx context.Context, dec *json.Decoder, size int64) (any, error) {
		res := &listAnswer[T]{}
		found := false
		err := readObject(dec, func(k string) (bool, error) {
			if k != key || found {
				return false, nil
			}
			found = true
			items, err := readList(ctx, dec, key, name, &res.skipped, size)
			res.items = items
			return true, err
		})
		if err != nil {
			return nil, err
		}
		if !found && !missingOK {
			return nil, &decodeError{Problem: fmt.Sprintf("it lacks the %q list", key)}
		}
		return res, nil
	}}
}

// objectDecoder reads {key: T}.
func objectDecoder[T any](key string) answerDecoder {
	return answerDecoder{kind: "object " + key, read: func(ctx context.Context, dec *json.Decoder, size int64) (any, error) {
		var v T
		found := false
		err := readObject(dec, func(k string) (bool, error) {
			if k != key || found {
				return false, nil
			}
			found = true
			var err error
			v, err = readValue[T](dec, key, false)
			return true, err
		})
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, &decodeError{Problem: fmt.Sprintf("it lacks %q", key)}
		}
		return v, nil
	}}
}

// flatDecoder reads an answer that is the object itself (connection info, estimate,
// credits).
func flatDecoder[T any]() answerDecoder {
	var zero T
	return answerDecoder{kind: fmt.Sprintf("flat %T", zero), read: func(ctx context.Context, dec *json.Decoder, size int64) (any, error) {
		return readValue[T](dec, "", false)
	}}
}

// getList performs a GET and returns the list under key, without entries that have no
// name or cannot be read; what was skipped goes to the debug log, the client's
// counters and the context's SkipReport.
func getList[T any](c *Client, ctx context.Context, path string, query url.Values, key string, name func(*T) string) ([]T, error) {
	resp, shared, err := c.call(ctx, http.MethodGet, path, query, nil, listDecoder(key, name, false))
	if err != nil {
		return nil, err
	}
	return c.listValue(ctx, http.MethodGet, path, resp, shared).([]T), nil
}

// listValue hands one caller its list: noted skips, and its own copy when the request
// was shared with other callers.
func (c *Client) listValue(ctx context.Context, method, path string, resp *rawResponse, shared bool) any {
	type lister interface {
		list(shared bool) (any, Skipped)
	}
	v, sk := resp.value.(lister).list(shared)
	c.noteSkipped(ctx, method, path, sk)
	return v
}

func (a *listAnswer[T]) list(shared bool) (any, Skipped) {
	if shared {
		return deepCopy(a.items), a.skipped
	}
	return a.items, a.skipped
}

// doObject performs a call and returns the object under key.
func doObject[T any](c *Client, ctx context.Context, method, path string, in any, key string) (T, error) {
	return doDecoded[T](c, ctx, method, path, in, objectDecoder[T](key))
}

// getFlat performs a GET whose answer is the object itself.
func getFlat[T any](c *Client, ctx context.Context, path string) (T, error) {
	return doDecoded[T](c, ctx, http.MethodGet, path, nil, flatDecoder[T]())
}

func doDecoded[T any](c *Client, ctx context.Context, method, path string, in any, d answerDecoder) (T, error) {
	resp, shared, err := c.call(ctx, method, path, nil, in, d)
	if err != nil {
		var zero T
		return zero, err
	}
	v := resp.value.(T)
	if shared {
		v = deepCopy(v).(T)
	}
	return v, nil
}

// doNoContent performs a call whose success answer carries nothing we need: an empty
// body, {"message": ...}, or anything else that is JSON. A non-JSON success body is
// still accepted for deletes (the spec promises an empty body; anything else is noise).
func doNoContent(c *Client, ctx context.Context, method, path string, in any) error {
	d := answerDecoder{kind: "any", read: func(ctx context.Context, dec *json.Decoder, size int64) (any, error) {
		if method == http.MethodDelete {
			return nil, nil
		}
		for {
			at := dec.InputOffset()
			if err := skipValue(dec); err != nil {
				if errors.Is(err, io.EOF) {
					return nil, nil
				}
				return nil, syntaxProblem(err, "", at)
			}
		}
	}}
	_, _, err := c.call(ctx, method, path, nil, in, d)
	return err
}

// projectListDecoder reads GET /v1/project in one pass: the projects (entry by entry)
// and the membership (entry by entry, optional: an answer without it still lists the
// projects, and a malformed one is dropped).
var projectListDecoder = answerDecoder{kind: "project list", read: func(ctx context.Context, dec *json.Decoder, size int64) (any, error) {
	res := &projectListAnswer{}
	found := false
	err := readObject(dec, func(k string) (bool, error) {
		var err error
		switch k {
		case "projects":
			found = true
			res.pl.Projects, err = readList(ctx, dec, k, projectName, &res.skipped, size)
			return true, err
		case "project_membership":
			res.pl.Membership, err = readMembership(dec)
			return true, err
		}
		return false, nil
	})
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, &decodeError{Problem: `it lacks the "projects" list`}
	}
	return res, nil
}}

// projectSummariesDecoder reads GET /v1/project as summaries: each project's other
// fields are passed over, never kept, and the role goes into the summary, written
// while the membership is read when it follows the projects (found by name in a
// sorted index: no 80,000-entry map beside the list).
//
// An entry that previous (the list read last) has unchanged is given again instead of
// a new copy, so a refresh that changed little holds little beside the list shown:
// 80,000 new summaries were 14 MB on top of it at every refresh's peak. Summaries are
// never changed once decoded: a reused one whose role changed is copied.
func projectSummariesDecoder(previous []*models.ProjectSummary) answerDecoder {
	return answerDecoder{kind: "project summaries", read: func(ctx context.Context, dec *json.Decoder, size int64) (any, error) {
		res := &projectsAnswer[models.ProjectSummaries]{}
		old := newSummaryIndex(previous)
		var items []*models.ProjectSummary
		var given []uint64 // bit i: the membership that followed the projects gave items[i]'s role
		var m map[string]models.Role
		// setRole gives items[i] role r; a previous summary is copied first.
		setRole := func(i int, r models.Role) {
			switch p := items[i]; {
			case p.Role == r:
			case old.has(p):
				c := *p
				c.Role = r
				items[i] = &c
			default:
				p.Role = r
			}
		}
		found := false
		err := readObject(dec, func(k string) (bool, error) {
			var err error
			switch k {
			case "projects":
				found = true
				items, err = readListSettled(ctx, dec, k, summaryName, &res.skipped, size, old.reuse)
				return true, err
			case "project_membership":
				if found {
					given = make([]uint64, (len(items)+63)/64)
					_, err = readRoles(dec, rolesInto(items, summaryName, func(i int, r models.Role) {
						given[i/64] |= 1 << (i % 64)
						setRole(i, r)
					}))
					return true, err
				}
				m, err = readMembership(dec)
				return true, err
			}
			return false, nil
		})
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, &decodeError{Problem: `it lacks the "projects" list`}
		}
		for i, p := range items {
			switch {
			case given == nil: // the membership came first, or not at all
				setRole(i, m[p.ProjectName])
			case given[i/64]&(1<<(i%64)) == 0: // not in the membership that followed
				setRole(i, "")
			}
		}
		res.pl = models.ProjectSummaries{Projects: items}
		return res, nil
	}}
}

// summaryIndex finds the previous list's summaries by name.
type summaryIndex struct {
	list   []*models.ProjectSummary
	byName []int32 // places in list, by name
}

func newSummaryIndex(list []*models.ProjectSummary) summaryIndex {
	x := summaryIndex{list: list, byName: make([]int32, len(list))}
	for i := range x.byName {
		x.byName[i] = int32(i)
	}
	slices.SortFunc(x.byName, func(a, b int32) int { return strings.Compare(list[a].ProjectName, list[b].ProjectName) })
	return x
}

// find is the previous summary named name, or nil.
func (x summaryIndex) find(name string) *models.ProjectSummary {
	k, ok := slices.BinarySearchFunc(x.byName, name, func(i int32, n string) int { return strings.Compare(x.list[i].ProjectName, n) })
	if !ok {
		return nil
	}
	return x.list[x.byName[k]]
}

// reuse puts the previous summary in *p's place when it says the same (its role aside:
// that is read later); a changed one shares the previous one's texts that did not
// change instead of holding them twice.
func (x summaryIndex) reuse(p **models.ProjectSummary) {
	o, n := x.find((*p).ProjectName), *p
	switch {
	case o == nil:
	case sameSummary(o, n):
		*p = o
	default:
		n.ProjectName = o.ProjectName
		if n.EstimatedBalance == o.EstimatedBalance {
			n.EstimatedBalance = o.EstimatedBalance
		}
	}
}

// has reports whether p is one of the previous list's summaries.
func (x summaryIndex) has(p *models.ProjectSummary) bool { return x.find(p.ProjectName) == p }

// sameSummary reports whether a and b say the same, their roles aside.
func sameSummary(a, b *models.ProjectSummary) bool {
	return a.ProjectName == b.ProjectName && a.AccountID == b.AccountID && a.DefaultCloud == b.DefaultCloud &&
		a.BillingCurrency == b.BillingCurrency && a.BillingGroupID == b.BillingGroupID && a.BillingGroupName == b.BillingGroupName &&
		a.EstimatedBalance == b.EstimatedBalance && a.AvailableCredits.Set == b.AvailableCredits.Set &&
		a.AvailableCredits.Value.Equal(b.AvailableCredits.Value) && a.AvailableCredits.Value.Exponent() == b.AvailableCredits.Value.Exponent()
}

// rolesInto gives set the place of every project named project.
func rolesInto[P any](items []P, name func(*P) string, set func(i int, r models.Role)) func(project string, r models.Role) {
	byName := make([]int32, len(items))
	for i := range byName {
		byName[i] = int32(i)
	}
	slices.SortFunc(byName, func(a, b int32) int { return strings.Compare(name(&items[a]), name(&items[b])) })
	return func(project string, r models.Role) {
		at, _ := slices.BinarySearchFunc(byName, project, func(i int32, p string) int { return strings.Compare(name(&items[i]), p) })
		for ; at < len(byName) && name(&items[byName[at]]) == project; at++ {
			set(int(byName[at]), r)
		}
	}
}

type projectsAnswer[L any] struct {
	pl      L
	skipped Skipped
}

type projectListAnswer = projectsAnswer[models.ProjectList]

func (a *projectsAnswer[L]) list(shared bool) (any, Skipped) {
	if shared {
		return deepCopy(a.pl), a.skipped
	}
	return a.pl, a.skipped
}

// readMembership reads {project: role}; entries of another shape are left out.
func readMembership(dec *json.Decoder) (map[string]models.Role, error) {
	m := map[string]models.Role{}
	found, err := readRoles(dec, func(project string, role models.Role) { m[project] = role })
	if !found {
		m = nil
	}
	return m, err
}

// readRoles reads {project: role}, giving each entry of the right shape to set; found
// is false when the value is not an object (null, a list, a scalar: no membership).
func readRoles(dec *json.Decoder, set func(project string, role models.Role)) (found bool, _ error) {
	at := dec.InputOffset()
	tok, err := dec.Token()
	if err != nil {
		return false, syntaxProblem(err, "project_membership", at)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		if ok {
			if err := skipRest(dec, d); err != nil {
				return false, syntaxProblem(err, "project_membership", dec.InputOffset())
			}
		}
		return false, nil
	}
	strs := newInterner()
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return false, syntaxProblem(err, "project_membership", dec.InputOffset())
		}
		vt, err := dec.Token()
		if err != nil {
			return false, syntaxProblem(err, "project_membership", dec.InputOffset())
		}
		if d, ok := vt.(json.Delim); ok {
			if err := skipRest(dec, d); err != nil {
				return false, syntaxProblem(err, "project_membership", dec.InputOffset())
			}
			continue
		}
		key, _ := kt.(string)
		role, ok := vt.(string)
		if ok && strings.TrimSpace(key) != "" {
			strs.str(&role)
			set(key, models.Role(role))
		}
	}
	if _, err := dec.Token(); err != nil {
		return false, syntaxProblem(err, "project_membership", dec.InputOffset())
	}
	return true, nil
}

// skipRest skips the rest of a value whose opening delimiter was read.
func skipRest(dec *json.Decoder, open json.Delim) error {
	if open != '{' && open != '[' {
		return nil
	}
	depth := 1
	for depth > 0 {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
	}
	return nil
}

// emptySegment marks a path segment built from a name that cannot be one; call
// refuses such a path before anything is sent. The marker holds the sentence to show.
const emptySegment = "\x00"

// seg escapes one path segment. A blank name, "." or ".." (which would address the
// collection or a parent instead: DELETE /v1/project/) becomes a refusal marker.
func seg(what, s string) string {
	switch strings.TrimSpace(s) {
	case "":
		return emptySegment + "the " + what + " is empty" + emptySegment
	case ".", "..":
		return emptySegment + fmt.Sprintf("the %s %q cannot be part of an address", what, s) + emptySegment
	}
	return url.PathEscape(s)
}

// pathRefusal is the sentence of a path holding a refusal marker, and the path cut
// before it; ok is false for a sound path.
func pathRefusal(path string) (reason, shown string, ok bool) {
	i := strings.Index(path, emptySegment)
	if i < 0 {
		return "", "", false
	}
	rest := path[i+1:]
	if j := strings.Index(rest, emptySegment); j >= 0 {
		rest = rest[:j]
	}
	return rest + "; nothing was sent", path[:i] + "…", true
}

// Names of list entries: an entry without one is dropped.
func projectName(p *models.Project) string         { return p.ProjectName }
func summaryName(p **models.ProjectSummary) string { return (*p).ProjectName }
func serviceName(s *models.Service) string         { return s.ServiceName }
func userName(u *models.ServiceUser) string        { return u.Username }
func topicName(t *models.Topic) string             { return t.TopicName }
func databaseName(d *models.Database) string       { return d.DatabaseName }
func billingGroupID(g *models.BillingGroup) string { return g.BillingGroupID }
func invoiceNumber(i *models.Invoice) string       { return i.InvoiceNumber }
func cloudName(c *models.Cloud) string             { return c.CloudName }
func serviceTypeName(t *models.ServiceType) string { return t.ServiceType }
func planName(p *models.Plan) string               { return p.PlanName }

// aclName: an entry needs a user and a topic to mean anything.
func aclName(a *models.ACL) string {
	if strings.TrimSpace(a.Topic) == "" {
		return ""
	}
	return a.Username
}
