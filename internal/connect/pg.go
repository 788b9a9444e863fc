package connect

import (
	"strconv"
	"strings"
)

var pgSSLMode = map[tlsLevel]string{tlsRequire: "require", tlsVerifyCA: "verify-ca", tlsVerifyFull: "verify-full"}

// buildPG: psql with one connection string; the password in a passfile (PGPASSFILE).
func buildPG(s *Session, d *details) error {
	ca, cert, key, err := s.tlsFiles(d)
	if err != nil {
		return err
	}
	kv := []string{"host", d.host, "port", strconv.Itoa(d.port), "dbname", d.database, "user", d.user, "sslmode", pgSSLMode[d.tls]}
	if ca != "" {
		kv = append(kv, "sslrootcert", ca)
	}
	if cert != "" {
		kv = append(kv, "sslcert", cert, "sslkey", key)
	}
	kv = append(kv, "application_name", "svcui")
	parts := make([]string, 0, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		parts = append(parts, kv[i]+"="+pgQuote(kv[i+1]))
	}
	s.args = []string{strings.Join(parts, " ")}
	if d.password == "" {
		return nil
	}
	// host:port:database:user:password, any database so that \c keeps working.
	line := pgpassEscape(d.host) + ":" + strconv.Itoa(d.port) + ":*:" + pgpassEscape(d.user) + ":" + pgpassEscape(d.password) + "\n"
	f, err := s.file("pgpass", line)
	if err != nil {
		return err
	}
	s.setenv("PGPASSFILE", f)
	s.notes = append([]string{"password of " + d.user + " from a temporary file (PGPASSFILE)"}, s.notes...)
	return nil
}

// pgQuote quotes a connection-string value when it needs it (libpq's rules).
func pgQuote(v string) string {
	if v != "" && !strings.ContainsAny(v, " '\\\t") {
		return v
	}
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(v) + "'"
}

func pgpassEscape(v string) string {
	return strings.NewReplacer(`\`, `\\`, `:`, `\:`).Replace(v)
}
