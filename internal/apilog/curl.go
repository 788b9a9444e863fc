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
// secret is ever in it. A body longer than the log keeps is left out (ok false). The
// method is written whenever it is not what curl would pick (a GET with a body, as a
// search is, would be sent as a POST by --data-raw); a service verified against its
// own CA gets --cacert ca.pem, the file its CA is kept in by the Search tab's copy too.
func (e Entry) Curl() (cmd string, ok bool) {
	var b strings.Builder
	b.WriteString("curl")
	switch {
	case e.Insecure:
		b.WriteString(" -k")
	case e.OwnCA:
		b.WriteString(" --cacert ca.pem")
	}
	if e.Method != http.MethodGet || e.ReqBody != "" {
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
