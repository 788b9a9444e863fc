package search

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"time"
)

// Describe turns an error of this package into a sentence for the screen, saying
// which check failed and what to do, and a detail for the debug log (the whole
// chain, certificate names and dates, status, content type and body start). Neither
// carries a password. Short is never cut: wrapping it is the UI's job.
func Describe(err error) (short, detail string) {
	if err == nil {
		return "", ""
	}
	detail = err.Error()
	var (
		re *RequestError
		ee *EngineError
		ae *AnswerError
		ve *ValidationError
		ra *ReauthError
	)
	switch {
	case errors.As(err, &ra):
		return fmt.Sprintf("The service refused the password of %s, and reading the connection details again failed: %v. Reconnect with :search.", ra.User, ra.Err), detail
	case errors.As(err, &re):
		short, extra := describeTransport(re)
		if extra != "" {
			detail += "\n" + extra
		}
		return short, detail
	case errors.As(err, &ee):
		return describeEngine(ee), engineDetail(ee)
	case errors.As(err, &ae):
		return describeAnswer(ae), detail + answerDetail(ae)
	case errors.As(err, &ve):
		return "The request body has a mistake at " + ve.Error() + "; nothing was sent.", detail
	case errors.Is(err, ErrInvalidServiceURI):
		return "The service URI in the connection details is not usable (" + detail + "): check the service in the Services tab.", detail
	case errors.Is(err, context.Canceled):
		return "The request was cancelled.", detail
	case errors.Is(err, context.DeadlineExceeded):
		return "The service did not answer within the time limit: try again, or ask for less (a smaller size or a narrower query).", detail
	}
	return sentence(detail), detail
}

// describeTransport explains a request that got no answer. extra is certificate
// detail for the log.
func describeTransport(re *RequestError) (short, extra string) {
	host := re.Host
	err := re.Err
	var (
		ua  x509.UnknownAuthorityError
		he  x509.HostnameError
		ci  x509.CertificateInvalidError
		rhe tls.RecordHeaderError
		ae  tls.AlertError
		rd  *redirectError
		dns *net.DNSError
		ne  net.Error
	)
	switch {
	case errors.As(err, &ua):
		extra = certDetail(ua.Cert)
		if re.PinnedCA {
			return "TLS check failed for " + host + ": the service's CA did not sign the certificate it presented. " +
				"Reconnect with :search to read the CA again; if that does not help, something between you and the service is answering in its place.", extra
		}
		return "TLS check failed for " + host + ": its certificate is not signed by any CA this system trusts, and the connection details carry no CA for the service. " +
			"Check that the host is the service's; skip verification (search_insecure_skip_verify in the profile) only on a network you trust.", extra
	case errors.As(err, &he):
		extra = certDetail(he.Certificate)
		return "TLS check failed for " + host + ": the certificate it presented is for " + certNames(he.Certificate) + ", not for " + he.Host + ". " +
			"Check that the service URI names the service's own host, not an address or alias in between.", extra
	case errors.As(err, &ci):
		extra = certDetail(ci.Cert)
		if ci.Reason == x509.Expired && ci.Cert != nil {
			now := time.Now()
			if now.Before(ci.Cert.NotBefore) {
				return "TLS check failed for " + host + ": its certificate is valid only from " + day(ci.Cert.NotBefore) + ". " +
					"Check this computer's clock and time zone.", extra
			}
			return "TLS check failed for " + host + ": its certificate expired on " + day(ci.Cert.NotAfter) + ". " +
				"Check this computer's clock; if it is right, the service's certificate needs renewing (contact support).", extra
		}
		return "TLS check failed for " + host + ": its certificate cannot be used for this connection (" + ci.Error() + "). Contact support with the debug log.", extra
	case errors.As(err, &rhe), strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"):
		return host + " answered in plain HTTP, not TLS: check the port in the service URI.", ""
	case errors.As(err, &ae):
		return "The TLS handshake with " + host + " failed: the service refused it (" + ae.Error() + "). Check that the port is the service's search interface.", ""
	case errors.As(err, &rd):
		if rd.loop {
			return host + " redirected the request in a loop; it was not sent again. The service URI may point at a proxy rather than the service.", ""
		}
		return host + " redirected the request to another host (" + rd.to + "); it was not followed, so the password stays with the service.", ""
	case errors.Is(err, ErrResponseTooLarge):
		return "The answer is larger than svcui reads (" + strings.TrimPrefix(err.Error(), ErrResponseTooLarge.Error()+": ") +
			"): ask for fewer hits (size) or fewer fields (_source).", ""
	case errors.Is(err, context.Canceled):
		return "The request was cancelled.", ""
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return host + " did not answer within the time limit: the service may be busy or the network slow. Try again, or ask for less (a smaller size or a narrower query).", ""
	case errors.Is(err, syscall.ECONNREFUSED):
		return "Nothing accepts connections at " + host + " (connection refused): the service may be stopped, restarting or powered off. Check its state in the Services tab.", ""
	case errors.As(err, &dns):
		if dns.IsNotFound {
			return "The host name of the service (" + dns.Name + ") does not resolve: the service may have been deleted or renamed. Reconnect with :search.", ""
		}
		return "The host name of the service (" + dns.Name + ") could not be looked up: check the network and DNS.", ""
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return "The connection to " + host + " closed before an answer came: the service may be restarting. Try again; a write may or may not have run, so check before repeating it.", ""
	}
	return "Cannot reach " + host + ": " + rootCause(err) + ".", ""
}

// describeEngine explains an error answer.
func describeEngine(e *EngineError) string {
	status := fmt.Sprintf("%d %s", e.Status, http.StatusText(e.Status))
	user := e.User
	if user == "" {
		user = "the service user"
	}
	what := engineWhat(e)
	switch {
	case e.Status == http.StatusUnauthorized && e.Reauth != nil && e.Reauth.Unchanged:
		return "The service refused the password of " + user + " (" + status + "), and the connection details still give that password: check the user in the service's Users tab, or reset its password."
	case e.Status == http.StatusUnauthorized && e.Reauth != nil:
		return "The service refused " + user + " again (" + status + ") after svcui read the connection details anew: check the user in the service's Users tab, or reset its password."
	case e.Status == http.StatusUnauthorized:
		return "The service refused the user name or password of " + user + " (" + status + "). The password may have changed elsewhere: reconnect with :search."
	case e.Status == http.StatusForbidden:
		return user + " may not do this (" + status + what + "): give the user a role that allows it."
	case e.Type == "index_not_found_exception":
		return "No such index (" + status + what + "). GET /_cat/indices lists the indices."
	case e.Status == http.StatusTooManyRequests:
		return "The service is too busy (" + status + what + "): wait a moment and try again."
	case nonJSON(e):
		return "The service answered " + status + " with " + contentTypeOrNone(e.ContentType) + " instead of JSON" + rawStart(e.Raw) + ": something between you and the service (a proxy or load balancer) may have answered."
	case e.Status >= 500:
		return "The service failed (" + status + what + "). Try again; if it persists, check the service's state in the Services tab."
	}
	return "The service refused the request (" + status + what + ")."
}

// engineWhat is ": type: reason (details)" or "".
func engineWhat(e *EngineError) string {
	var parts []string
	if e.Type != "" {
		parts = append(parts, e.Type)
	}
	if e.Reason != "" && e.Reason != http.StatusText(e.Status) {
		parts = append(parts, e.Reason)
	}
	s := strings.Join(parts, ": ")
	if e.Details != "" && e.Details != e.Reason {
		s += " (" + e.Details + ")"
	}
	if s == "" {
		return ""
	}
	return ": " + s
}

func engineDetail(e *EngineError) string {
	var b strings.Builder
	b.WriteString(e.Error())
	fmt.Fprintf(&b, "\ncontent type: %s", contentTypeOrNone(e.ContentType))
	if e.User != "" {
		b.WriteString("\nuser: " + e.User)
	}
	if e.Reauth != nil {
		b.WriteString("\nre-authentication: " + e.Reauth.Sentence())
	}
	for _, rc := range e.RootCauses {
		fmt.Fprintf(&b, "\nroot cause: %s: %s", rc.Type, rc.Reason)
		if rc.Index != "" {
			b.WriteString(" (index " + rc.Index + ")")
		}
	}
	switch {
	case e.Raw != "":
		b.WriteString("\nbody: " + e.Raw)
	case e.Type == "" && e.Reason == http.StatusText(e.Status):
		b.WriteString("\nbody: (empty)")
	}
	return b.String()
}

// nonJSON reports an error answer that was neither a JSON error nor plain short text.
func nonJSON(e *EngineError) bool {
	ct := strings.ToLower(e.ContentType)
	return e.Raw != "" && !strings.Contains(ct, "json") && !strings.HasPrefix(ct, "text/plain")
}

func describeAnswer(a *AnswerError) string {
	status := fmt.Sprintf("%d %s", a.Status, http.StatusText(a.Status))
	ct := strings.ToLower(a.ContentType)
	if ct != "" && !strings.Contains(ct, "json") {
		return "The service answered " + status + " with " + a.ContentType + " instead of " + a.What + " in JSON" + rawStart(a.Body) +
			": something between you and the service (a proxy or login page) may have answered."
	}
	switch {
	case a.Found != "":
		return "The service sent " + a.What + " in a shape svcui cannot read: at " + orDollar(a.JSONPath) + " it found " + a.Found + " (" + status + ")."
	case strings.TrimSpace(a.Body) == "":
		return "The service sent an empty answer instead of " + a.What + " (" + status + "): try again."
	}
	return "The service sent " + a.What + " that is not valid JSON (" + status + ", " + contentTypeOrNone(a.ContentType) + ")" + rawStart(a.Body) + "."
}

func answerDetail(a *AnswerError) string {
	s := "\ncontent type: " + contentTypeOrNone(a.ContentType)
	if a.Offset > 0 {
		s += fmt.Sprintf("\nsyntax error at byte %d", a.Offset)
	}
	return s + "\nbody: " + a.Body
}

func contentTypeOrNone(ct string) string {
	if ct == "" {
		return "no content type"
	}
	return ct
}

// rawStart quotes the first line of a body, briefly, for a sentence.
func rawStart(raw string) string {
	l := firstLine(raw)
	if l == "" {
		return ""
	}
	return " (“" + truncate(l, 60) + "”)"
}

// certDetail describes a certificate for the debug log.
func certDetail(c *x509.Certificate) string {
	if c == nil {
		return ""
	}
	return fmt.Sprintf("certificate: subject %q, issuer %q, valid %s to %s, names %s",
		c.Subject.String(), c.Issuer.String(), c.NotBefore.UTC().Format(time.RFC3339), c.NotAfter.UTC().Format(time.RFC3339), certNames(c))
}

// certNames lists the names a certificate is valid for.
func certNames(c *x509.Certificate) string {
	if c == nil {
		return "another host"
	}
	var names []string
	names = append(names, c.DNSNames...)
	for _, ip := range c.IPAddresses {
		names = append(names, ip.String())
	}
	if len(names) == 0 && c.Subject.CommonName != "" {
		names = append(names, c.Subject.CommonName)
	}
	if len(names) == 0 {
		return "no host name"
	}
	if len(names) > 4 {
		names = append(names[:4], fmt.Sprintf("%d more", len(names)-4))
	}
	return strings.Join(names, ", ")
}

func day(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// rootCause is the innermost message of an error chain.
func rootCause(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err.Error()
		}
		err = next
	}
}

// sentence makes a bare message start with a capital and end with a full stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	if c := s[0]; c >= 'a' && c <= 'z' {
		s = string(c-'a'+'A') + s[1:]
	}
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}
