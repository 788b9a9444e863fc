package apilog

import (
	"net/http"
	"sort"
	"strings"
)

// TokenEnv is the variable a copied curl command reads the API token from.
const TokenEnv = "SVCUI_TOKEN"

// Curl is the request as a curl command a person can run: the API token comes from
// $SVCUI_TOKEN, a search user's password is asked for by curl itself (-u USER), and no
// secret is ever in it. A body longer than the log keeps is left out (ok false).
func (e Entry) Curl() (cmd string, ok bool) {
	var b strings.Builder
	b.WriteString("curl")
	if e.Method != http.MethodGet {
		b.WriteString(" -X " + e.Method)
	}
	b.WriteString(" " + shellQuote(e.URL))
	switch {
	case strings.EqualFold(e.Auth, "basic"):
		b.WriteString(" -u " + shellQuote(e.User))
	case e.Auth != "":
		b.WriteString(` -H "Authorization: ` + e.Auth + ` $` + TokenEnv + `"`)
	}
	names := make([]string, 0, len(e.ReqHeader))
	for k := range e.ReqHeader {
		switch k {
		case "Authorization", "User-Agent", "Accept-Encoding", "Cookie", "Proxy-Authorization":
			continue
		}
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		for _, v := range e.ReqHeader[k] {
			b.WriteString(" -H " + shellQuote(k+": "+v))
		}
	}
	ok = !e.ReqCut
	if e.ReqBody != "" && ok {
		b.WriteString(" --data-raw " + shellQuote(e.ReqBody))
	}
	return b.String(), ok
}

// shellQuote quotes s for a POSIX shell: nothing in it is expanded.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
