package connect

import (
	"bytes"
	"encoding/xml"
	"strconv"
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
		_ = xml.EscapeText(&b, []byte(v))
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
