package connect

import "strconv"

// buildCaching: valkey-cli or redis-cli; the password in REDISCLI_AUTH (valkey-cli reads
// it too, after VALKEYCLI_AUTH, which is scrubbed from the environment).
func buildCaching(s *Session, d *details) error {
	ca, cert, key, err := s.tlsFiles(d)
	if err != nil {
		return err
	}
	s.args = []string{"-h", d.host, "-p", strconv.Itoa(d.port)}
	// "default" is the implicit user; leaving it out keeps servers without ACLs working.
	if d.user != "default" {
		s.args = append(s.args, "--user", d.user)
	}
	s.args = append(s.args, "--tls")
	if ca != "" {
		s.args = append(s.args, "--cacert", ca)
	}
	if cert != "" {
		s.args = append(s.args, "--cert", cert, "--key", key)
	}
	if d.password != "" {
		s.setenv("REDISCLI_AUTH", d.password)
		s.notes = append([]string{"password of " + d.user + " in the client's environment (REDISCLI_AUTH)"}, s.notes...)
	}
	return nil
}
