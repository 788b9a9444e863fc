package search

import (
	"strings"
)

// shellQuote wraps s in single quotes for POSIX shells.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// CurlCommand renders r as a curl command line for t. The password is never
// included: "-u 'user'" makes curl prompt for it. The CA is expected in ca.pem next to
// the command ("-k" instead when the target skips verification). Multi-line and NDJSON
// bodies go through a quoted here-document, so nothing in them is expanded.
func CurlCommand(t Target, r ParsedRequest) string {
	var b strings.Builder
	b.WriteString("curl -sS")
	if t.Username != "" {
		b.WriteString(" -u " + shellQuote(t.Username))
	}
	switch {
	case t.InsecureSkipVerify:
		b.WriteString(" -k")
	case strings.TrimSpace(t.CACertPEM) != "":
		b.WriteString(" --cacert ca.pem")
	}
	method := strings.ToUpper(r.Method)
	if method == "" {
		method = "GET"
	}
	if method == "HEAD" {
		b.WriteString(" -I") // "-X HEAD" would wait for a body that never comes
	} else {
		b.WriteString(" -X " + method)
	}
	path := r.Path
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	b.WriteString(" " + shellQuote(t.BaseURL()+path))

	body, contentType := curlBody(r)
	if body == "" {
		return b.String()
	}
	b.WriteString(" -H " + shellQuote("Content-Type: "+contentType))
	if !strings.Contains(body, "\n") {
		b.WriteString(" -d " + shellQuote(body))
		return b.String()
	}
	delim := "EOF"
	for n := 1; containsLine(body, delim); n++ {
		delim = "EOF_" + strings.Repeat("X", n)
	}
	b.WriteString(" --data-binary @- <<'" + delim + "'\n")
	b.WriteString(strings.TrimSuffix(body, "\n"))
	b.WriteString("\n" + delim)
	return b.String()
}

// curlBody is the body as it would be sent; an invalid body is exported as written.
func curlBody(r ParsedRequest) (string, string) {
	if p, err := Prepare(r); err == nil {
		if p.ContentType == ContentTypeNDJSON {
			return string(p.Body), p.ContentType // the trailing newline matters for _bulk
		}
		return strings.TrimSpace(r.Body), p.ContentType
	}
	ct := ContentTypeJSON
	if r.WantsNDJSON() {
		ct = ContentTypeNDJSON
	}
	return strings.TrimSpace(r.Body), ct
}

func containsLine(text, line string) bool {
	for _, l := range strings.Split(text, "\n") {
		if l == line {
			return true
		}
	}
	return false
}
