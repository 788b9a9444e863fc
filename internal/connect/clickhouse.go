package connect

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// buildClickHouse: clickhouse client over the secure native port; password and TLS
// settings in a configuration file (--config-file).
func buildClickHouse(s *Session, d *details) error {
	ca, cert, key, err := s.tlsFiles(d)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	el := func(name, v string) {
		b.WriteString("<" + name + ">")
		escapeXML(&b, v)
		b.WriteString("</" + name + ">\n")
	}
	b.WriteString("<config>\n")
	if d.password != "" {
		el("password", d.password)
	}
	b.WriteString("<openSSL><client>\n")
	if ca != "" {
		el("caConfig", ca)
		el("verificationMode", "strict")
		el("extendedVerification", strconv.FormatBool(d.tls == tlsVerifyFull)) // host name check
	}
	if cert != "" {
		el("certificateFile", cert)
		el("privateKeyFile", key)
	}
	b.WriteString("<invalidCertificateHandler><name>RejectCertificateHandler</name></invalidCertificateHandler>\n")
	b.WriteString("</client></openSSL>\n</config>\n")
	f, err := s.file("clickhouse-client.xml", b.String())
	if err != nil {
		return err
	}
	s.args = []string{"--config-file=" + f, "--host=" + d.host, "--port=" + strconv.Itoa(d.port), "--secure", "--user=" + d.user}
	if d.database != "" {
		s.args = append(s.args, "--database="+d.database)
	}
	if d.password != "" {
		s.notes = append([]string{"password of " + d.user + " from a temporary configuration file"}, s.notes...)
	}
	return nil
}

// escapeXML writes v as XML character data, as encoding/xml's EscapeText does: markup
// and quotes as references, tab and line ends as character references, and characters
// XML cannot hold as U+FFFD. (The package would be linked for this one call.)
func escapeXML(b *bytes.Buffer, v string) {
	for _, r := range v {
		switch r {
		case '"':
			b.WriteString("&#34;")
		case '\'':
			b.WriteString("&#39;")
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '\t':
			b.WriteString("&#x9;")
		case '\n':
			b.WriteString("&#xA;")
		case '\r':
			b.WriteString("&#xD;")
		default:
			if !xmlChar(r) {
				r = utf8.RuneError
			}
			b.WriteRune(r)
		}
	}
}

// xmlChar reports whether r may stand in an XML document (XML 1.0, section 2.2).
func xmlChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}
