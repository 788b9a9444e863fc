package opensearch

import (
	"net/http"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/analysis"
)

// handleAnalyze answers GET/POST /_analyze and /{index}/_analyze (text, analyzer or field or
// tokenizer and filter), as TransportAnalyzeAction: positions and offsets continue across the
// values of a text array (gaps 100 and 1).
func (c *Cluster) handleAnalyze(w http.ResponseWriter, r *http.Request, indexName string, body []byte) {
	v, err := parseBody(body, true)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	m, _ := asMap(v)
	var texts []string
	analyzer, field, tokenizer := "", "", ""
	var filters []string
	for k, x := range m {
		switch k {
		case "text":
			for _, e := range asList(x) {
				s, ok := e.(string)
				if !ok {
					c.fail(w, r, parsingErr("[analyze_request] text must be a string or an array of strings"))
					return
				}
				texts = append(texts, s)
			}
		case "analyzer":
			analyzer, _ = jsonval.String(x)
		case "field":
			field, _ = jsonval.String(x)
		case "tokenizer":
			tokenizer, _ = jsonval.String(x)
		case "filter", "token_filter":
			for _, e := range asList(x) {
				s, ok := e.(string)
				if !ok {
					c.fail(w, r, badRequest("custom token filters are not supported by this emulation"))
					return
				}
				filters = append(filters, s)
			}
		case "char_filter", "normalizer", "explain", "attributes":
			if k == "explain" {
				if b, _ := jsonval.Bool(x); !b {
					continue
				}
			}
			c.fail(w, r, badRequest("[%s] is not supported by this emulation's _analyze", k))
			return
		default:
			c.fail(w, r, withLocation(parsingErr("[analyze_request] unknown field [%s]", k), body))
			return
		}
	}
	if len(texts) == 0 {
		c.fail(w, r, errf(400, "action_request_validation_exception", "Validation Failed: 1: text is missing;"))
		return
	}
	if field != "" {
		if indexName == "" {
			c.fail(w, r, badRequest("analyzer [%s] not found for field [%s]", analyzer, field))
			return
		}
		c.mu.RLock()
		ix, err := c.docTarget(indexName)
		var fd *fieldDef
		if err == nil {
			fd = ix.fields[field]
		}
		c.mu.RUnlock()
		if err != nil {
			c.fail(w, r, err)
			return
		}
		if analyzer == "" {
			analyzer = "standard"
			if fd != nil && fd.kind != kindText {
				analyzer = "keyword"
			}
		}
	}
	if tokenizer == "" {
		if analyzer == "" {
			analyzer = "standard"
		}
		a, ok := analysis.Analyzers[analyzer]
		if !ok {
			c.fail(w, r, badRequest("failed to find global analyzer [%s]", analyzer))
			return
		}
		tokenizer, filters = a.Tokenizer, append(append([]string(nil), a.Filters...), filters...)
	} else if _, ok := map[string]bool{"standard": true, "whitespace": true, "letter": true, "keyword": true}[tokenizer]; !ok {
		c.fail(w, r, badRequest("failed to find global tokenizer under [%s]", tokenizer))
		return
	}
	out := []obj{}
	pos, off := 0, 0
	for i, text := range texts {
		toks := analysis.Tokenize(tokenizer, text)
		for _, f := range filters {
			var ferr error
			if toks, ferr = analysis.Filter(f, toks); ferr != nil {
				c.fail(w, r, badRequest("failed to find global token filter under [%s]", f))
				return
			}
		}
		if i > 0 {
			pos += 100
		}
		last := -1
		for _, t := range toks {
			out = append(out, obj{{"token", t.Text}, {"start_offset", off + analysis.UTF16Len(text[:t.Start])}, {"end_offset", off + analysis.UTF16Len(text[:t.End])},
				{"type", t.Type}, {"position", pos + t.Position}})
			last = t.Position
		}
		pos += last + 1
		off += analysis.UTF16Len(text) + 1
	}
	c.reply(w, r, 200, obj{{"tokens", out}})
}
