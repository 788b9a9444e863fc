package connect

import (
	"context"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

var mysqlSSLMode = map[tlsLevel]string{tlsRequire: "REQUIRED", tlsVerifyCA: "VERIFY_CA", tlsVerifyFull: "VERIFY_IDENTITY"}

// buildMySQL: mysql or mariadb with an option file for the password. The file is given
// with --defaults-file, not --defaults-extra-file: a password in the user's ~/.my.cnf is
// read after an extra file and would win over this one.
func buildMySQL(s *Session, d *details) error {
	maria := isMariaDB(s.prog, s.env)
	ca, cert, key, err := s.tlsFiles(d)
	if err != nil {
		return err
	}
	conf := "[client]\n"
	if d.password != "" {
		conf += "password=\"" + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(d.password) + "\"\n"
	}
	f, err := s.file("my.cnf", conf)
	if err != nil {
		return err
	}
	// --defaults-file must come first.
	s.args = []string{"--defaults-file=" + f, "--host=" + d.host, "--port=" + strconv.Itoa(d.port), "--user=" + d.user}
	if maria {
		// MariaDB spells TLS differently and has no VERIFY_CA: it checks the host name
		// whenever it verifies.
		s.args = append(s.args, "--ssl")
		if ca != "" {
			s.args = append(s.args, "--ssl-ca="+ca, "--ssl-verify-server-cert")
		}
	} else {
		s.args = append(s.args, "--ssl-mode="+mysqlSSLMode[d.tls])
		if ca != "" {
			s.args = append(s.args, "--ssl-ca="+ca)
		}
	}
	if cert != "" {
		s.args = append(s.args, "--ssl-cert="+cert, "--ssl-key="+key)
	}
	if d.database != "" {
		s.args = append(s.args, "--database="+d.database)
	}
	if d.password != "" {
		s.notes = append([]string{"password of " + d.user + " from a temporary option file"}, s.notes...)
	}
	return nil
}

// isMariaDB tells MariaDB's client from MySQL's: Debian's mysql is often MariaDB's.
func isMariaDB(p program, env []string) bool {
	if p.name == "mariadb" {
		return true
	}
	if real, err := filepath.EvalSymlinks(p.path); err == nil && strings.Contains(filepath.Base(real), "mariadb") {
		return true
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.path, "--version")
	cmd.Env = env
	out, _ := cmd.Output()
	return strings.Contains(string(out), "MariaDB")
}
