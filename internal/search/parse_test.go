package search

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

const sampleBuffer = `# a console buffer
GET /logs/_search
{
  "query": {"match_all": {}},

  "size": 2
}

// index one document
post logs/_doc
{"msg": "hello"}

GET /_cluster/health?pretty
# trailing comment
`

func TestParseBuffer(t *testing.T) {
	reqs := ParseBuffer(sampleBuffer)
	if len(reqs) != 3 {
		t.Fatalf("got %d requests: %+v", len(reqs), reqs)
	}
	r := reqs[0]
	if r.Method != "GET" || r.Path != "/logs/_search" || r.StartLine != 2 || r.BodyLine != 3 || r.EndLine != 7 {
		t.Fatalf("first = %+v", r)
	}
	if !strings.Contains(r.Body, "\n\n  \"size\": 2") {
		t.Fatalf("blank line inside the body lost: %q", r.Body)
	}
	r = reqs[1]
	if r.Method != "POST" || r.Path != "/logs/_doc" || r.StartLine != 10 || r.BodyLine != 11 || r.EndLine != 11 || r.Body != `{"msg": "hello"}` {
		t.Fatalf("second = %+v", r)
	}
	r = reqs[2]
	if r.Path != "/_cluster/health?pretty" || r.Body != "" || r.BodyLine != 0 || r.EndLine != 13 || r.Base() != "/_cluster/health" || r.Query() != "pretty" {
		t.Fatalf("third = %+v", r)
	}
}

func TestParseBufferCommentsInsideBodyKeepLines(t *testing.T) {
	text := "PUT /x\n{\n# the settings\n  \"settings\": {}\n}"
	r := ParseBuffer(text)[0]
	if r.Body != "{\n\n  \"settings\": {}\n}" || r.BodyLine != 2 || r.EndLine != 5 {
		t.Fatalf("%+v", r)
	}
	if _, err := Prepare(r); err != nil {
		t.Fatalf("comment inside body broke validation: %v", err)
	}
}

func TestParseBufferIgnoresJunkAndCRLF(t *testing.T) {
	reqs := ParseBuffer("hello there\r\nFETCH /x\r\nDelete  my-index \r\n")
	if len(reqs) != 1 || reqs[0].Method != "DELETE" || reqs[0].Path != "/my-index" || reqs[0].StartLine != 3 {
		t.Fatalf("%+v", reqs)
	}
	if len(ParseBuffer("")) != 0 || len(ParseBuffer("GET")) != 0 {
		t.Fatal("empty or bare method parsed as a request")
	}
}

func TestRequestAt(t *testing.T) {
	cases := map[int]string{1: "", 2: "/logs/_search", 5: "/logs/_search", 8: "/logs/_search", 9: "/logs/_search", 10: "/logs/_doc", 12: "/logs/_doc", 13: "/_cluster/health?pretty", 99: "/_cluster/health?pretty"}
	for line, want := range cases {
		r, ok := RequestAt(sampleBuffer, line)
		if want == "" {
			if ok {
				t.Fatalf("line %d selected %+v", line, r)
			}
			continue
		}
		if !ok || r.Path != want {
			t.Fatalf("line %d: got %q, want %q", line, r.Path, want)
		}
	}
}

func TestWantsNDJSON(t *testing.T) {
	for path, want := range map[string]bool{"/_bulk": true, "/logs/_bulk?refresh=true": true, "/_msearch": true, "/logs/_search": false, "/_bulkx": false} {
		if got := (ParsedRequest{Path: path}).WantsNDJSON(); got != want {
			t.Fatalf("%s: %v", path, got)
		}
	}
}

func TestValidationPositions(t *testing.T) {
	cases := []struct {
		body      string
		line, col int
		msg       string
	}{
		{"{\n  \"a\": 1\n  \"b\": 2\n}", 4, 3, "expected ',' or '}' after object value"},
		{"{\"a\": [1, 2 3]}", 2, 13, "expected ',' or ']' after array element"},
		{"{\"a\": 1,}", 2, 8, "trailing comma before '}'"},
		{"{query: {}}", 2, 2, "expected a double-quoted object key"},
		{"{'a': 1}", 2, 2, "single quotes"},
		{"{\"a\" 1}", 2, 6, "expected ':' after object key"},
		{"{\"a\": tru}", 2, 7, "unexpected word \"tru\""},
		{"{\"a\": 01}", 2, 7, "leading zeros"},
		{"{\"a\": \"x\n\"}", 2, 9, "strings cannot span lines"},
		{"{\"a\": \"\\q\"}", 2, 8, "invalid escape"},
		{"{\"é\": ]}", 2, 7, "unexpected ']', expected a value"},
		{"{\"a\": {\"b\": 1}", 2, 15, "object opened at line 2, column 1 is missing its '}'"},
	}
	for _, c := range cases {
		r := ParsedRequest{Method: "POST", Path: "/x/_search", Body: c.body, BodyLine: 2}
		_, err := Prepare(r)
		var ve *ValidationError
		if !errors.As(err, &ve) {
			t.Fatalf("%q: err = %v", c.body, err)
		}
		if ve.Line != c.line || ve.Col != c.col || !strings.Contains(ve.Msg, c.msg) {
			t.Fatalf("%q: got %v, want line %d, column %d: %s", c.body, ve, c.line, c.col, c.msg)
		}
		if !strings.HasPrefix(ve.Error(), "line ") {
			t.Fatalf("message is not a sentence with its position: %q", ve.Error())
		}
	}
}

func TestValidationPositionInBuffer(t *testing.T) {
	buf := "GET /a/_search\n{}\n\nPOST /logs/_search\n{\n  \"query\": {\n    \"match\": {\"msg\": \"x\"}\n  \n  }\n  \"size\": 3\n}\n"
	r, ok := RequestAt(buf, 5)
	if !ok {
		t.Fatal("no request at line 5")
	}
	_, err := Prepare(r)
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Line != 10 || ve.Col != 3 {
		t.Fatalf("err = %v, want line 10, column 3", err)
	}
}

func TestPrepareSingleDocument(t *testing.T) {
	p, err := Prepare(ParsedRequest{Method: "POST", Path: "/x/_search", Body: "  {\"size\": 1}\n", BodyLine: 2})
	if err != nil || string(p.Body) != `{"size": 1}` || p.ContentType != ContentTypeJSON || p.Docs != 1 {
		t.Fatalf("%+v %v", p, err)
	}
	_, err = Prepare(ParsedRequest{Method: "POST", Path: "/x/_doc", Body: "{}\n{}", BodyLine: 5})
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Line != 6 || !strings.Contains(ve.Msg, "only one JSON document") {
		t.Fatalf("two documents for _doc: %v", err)
	}
	p, err = Prepare(ParsedRequest{Method: "GET", Path: "/_cluster/health"})
	if err != nil || p.Body != nil || p.ContentType != "" {
		t.Fatalf("no body: %+v %v", p, err)
	}
}

func TestPrepareNDJSON(t *testing.T) {
	body := "{\"index\": {\"_index\": \"logs\"}}\n{\n  \"msg\": \"a b\",\n  \"n\": 1\n}\n\n{\"delete\": {\"_index\": \"logs\", \"_id\": \"9\"}}"
	r := ParsedRequest{Method: "POST", Path: "/_bulk", Body: body, BodyLine: 2}
	p, err := Prepare(r)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\"index\":{\"_index\":\"logs\"}}\n{\"msg\":\"a b\",\"n\":1}\n{\"delete\":{\"_index\":\"logs\",\"_id\":\"9\"}}\n"
	if string(p.Body) != want || p.ContentType != ContentTypeNDJSON || p.Docs != 3 {
		t.Fatalf("got %q (%s, %d)", p.Body, p.ContentType, p.Docs)
	}
	r.Body = "{\"index\": {}}\n{\"msg\": \"a\",}"
	_, err = Prepare(r)
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Line != 3 || ve.Col != 12 {
		t.Fatalf("bad second line: %v", err)
	}
	hr, err := ParsedRequest{Method: "POST", Path: "/_bulk", Body: "{\"index\":{}}\n{}"}.HTTPRequest()
	if err != nil || hr.ContentType != ContentTypeNDJSON || !strings.HasSuffix(string(hr.Body), "\n") {
		t.Fatalf("HTTPRequest: %+v %v", hr, err)
	}
}

func TestValidateJSON(t *testing.T) {
	good := []string{`{}`, `[]`, `"x"`, `-1.5e+3`, `{"a":[true,false,null,{"b":"\u00e9\n"}]}`, " 0 "}
	for _, g := range good {
		if err := ValidateJSON(g); err != nil {
			t.Fatalf("%q: %v", g, err)
		}
	}
	bad := []string{``, `{} {}`, `[1,]`, `{"a":1`, `"abc`, `1.`, `-`, `1e`, `.5`, `{"a":1}}`, "\"\t\"", `nul`}
	for _, b := range bad {
		if err := ValidateJSON(b); err == nil {
			t.Fatalf("%q accepted", b)
		}
	}
	deep := strings.Repeat("[", maxJSONDepth+1) + strings.Repeat("]", maxJSONDepth+1)
	if err := ValidateJSON(deep); err == nil || !strings.Contains(err.Error(), "too deep") {
		t.Fatalf("deep nesting: %v", err)
	}
}

func FuzzParseBuffer(f *testing.F) {
	f.Add(sampleBuffer)
	f.Add("POST /_bulk\n{\"index\":{}}\n{}\n")
	f.Add("get x\r\n{\n\n}\n# c\nPUT /y\n")
	f.Add("GET /\n{\"a\": [1, 2,]}\nDELETE /z")
	f.Fuzz(func(t *testing.T, text string) {
		reqs := ParseBuffer(text)
		n := len(splitLines(text))
		prevEnd := 0
		for _, r := range reqs {
			if r.StartLine < 1 || r.EndLine < r.StartLine || r.EndLine > n || r.StartLine <= prevEnd {
				t.Fatalf("bad range %d-%d (previous end %d, %d lines)", r.StartLine, r.EndLine, prevEnd, n)
			}
			if r.Body != "" && (r.BodyLine <= r.StartLine || r.BodyLine > r.EndLine) {
				t.Fatalf("body line %d outside %d-%d", r.BodyLine, r.StartLine, r.EndLine)
			}
			if !isConsoleMethod(r.Method) || !strings.HasPrefix(r.Path, "/") {
				t.Fatalf("bad request line %q %q", r.Method, r.Path)
			}
			prevEnd = r.EndLine
			at, ok := RequestAt(text, r.StartLine)
			if !ok || at.StartLine != r.StartLine {
				t.Fatalf("RequestAt(%d) = %+v", r.StartLine, at)
			}
			p, err := Prepare(r)
			var ve *ValidationError
			if err != nil && (!errors.As(err, &ve) || ve.Line < r.BodyLine || ve.Line > r.EndLine || ve.Col < 1) {
				t.Fatalf("validation error %v outside body lines %d-%d", err, r.BodyLine, r.EndLine)
			}
			if err == nil && p.ContentType == ContentTypeNDJSON && !strings.HasSuffix(string(p.Body), "\n") {
				t.Fatal("NDJSON body without final newline")
			}
		}
	})
}

func FuzzValidateJSON(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,2,{"b":null}]}`, `[1,]`, `"\u12`, `-0.5e-7`, "{\"a\":\n1}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := ValidateJSON(s)
		// Agreement with encoding/json on single documents (it also rejects invalid UTF-8 only loosely).
		std := jsonValid(s)
		if err == nil && !std {
			t.Fatalf("accepted %q which encoding/json rejects", s)
		}
		if err != nil && std && strings.TrimSpace(s) != "" {
			t.Fatalf("rejected %q which encoding/json accepts: %v", s, err)
		}
	})
}

func jsonValid(s string) bool { return json.Valid([]byte(s)) }
