package connect

import (
	"fmt"
	"net"
	"strconv"
	"strings"
)

// buildKafka: kcat listing the cluster's metadata (-L), every setting in a configuration
// file (-F). A user with an access certificate and key authenticates with them over TLS;
// otherwise with its password over SASL (SCRAM-SHA-256) on TLS.
func buildKafka(s *Session, d *details) error {
	if d.certPEM == "" && strings.TrimSpace(d.password) != d.password {
		return fmt.Errorf("the password of %s begins or ends with a space, which kcat's configuration file cannot hold", d.user)
	}
	ca, cert, key, err := s.tlsFiles(d)
	if err != nil {
		return err
	}
	var conf []string
	if cert != "" {
		conf = append(conf, "security.protocol=ssl", "ssl.certificate.location="+cert, "ssl.key.location="+key)
	} else {
		conf = append(conf, "security.protocol=sasl_ssl", "sasl.mechanisms=SCRAM-SHA-256",
			"sasl.username="+d.user, "sasl.password="+d.password)
		s.notes = append([]string{"password of " + d.user + " from a temporary configuration file (SASL SCRAM-SHA-256)"}, s.notes...)
	}
	if ca != "" {
		check := "https" // librdkafka's name for checking the broker's host name
		if d.tls == tlsVerifyCA {
			check = "none"
		}
		conf = append(conf, "ssl.ca.location="+ca, "ssl.endpoint.identification.algorithm="+check)
	}
	f, err := s.file("kcat.conf", strings.Join(conf, "\n")+"\n")
	if err != nil {
		return err
	}
	s.args = []string{"-F", f, "-b", net.JoinHostPort(d.host, strconv.Itoa(d.port)), "-L"}
	return nil
}
