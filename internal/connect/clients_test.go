//go:build unix

package connect

import (
	"os"
	"strings"
	"testing"

	"github.com/svcui/svcui/internal/models"
)

func TestPsqlGetsPasswordThroughPassfileAndVerifiesTLS(t *testing.T) {
	ca := newTestCA(t, "pg.example.com")
	r := newRig(t, "psql")
	s := r.plan(service(models.TypePG, ca.certPEM))
	if s.Kind != KindExec || s.Client != "psql" || s.User != "avnadmin" {
		t.Fatalf("session = %+v", s)
	}
	if s.Cmd.Stdin != nil || s.Cmd.Stdout != nil || s.Cmd.Stderr != nil {
		t.Error("Cmd must leave Stdin, Stdout and Stderr to tea.ExecProcess")
	}
	dir := s.privateDir()
	if _, err := run(t, s); err != nil {
		t.Fatal(err)
	}
	rec := r.record()
	rec.noSecrets(t, secret)
	if len(rec.args) != 1 {
		t.Fatalf("psql gets one connection string, got %q", rec.args)
	}
	ci := rec.args[0]
	for _, w := range []string{"host=pg.example.com", "port=1234", "dbname=defaultdb", "user=avnadmin", "sslmode=verify-full", "sslrootcert=" + dir + "/ca.pem"} {
		if !strings.Contains(ci, w) {
			t.Errorf("connection string %q lacks %s", ci, w)
		}
	}
	if got := rec.env["PGPASSFILE"]; got != dir+"/pgpass" {
		t.Errorf("PGPASSFILE = %q, want the passfile in the private directory", got)
	}
	if _, ok := rec.env["PGPASSWORD"]; ok {
		t.Error("an inherited PGPASSWORD would override the passfile")
	}
	if got, want := rec.files["pgpass"].content, `pg.example.com:1234:*:avnadmin:s3cr3t\:Pa\\ss"w'rd#`+"\n"; got != want {
		t.Errorf("passfile = %q, want %q", got, want)
	}
	if rec.files["ca.pem"].content != ca.certPEM {
		t.Error("the CA file does not hold the service CA")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the private directory outlived the client: %v", err)
	}
	if d := s.Describe(); strings.Contains(d, secret) || !strings.Contains(d, "psql 'host=pg.example.com") || !strings.Contains(d, "PGPASSFILE") {
		t.Errorf("Describe = %q", d)
	}
}

func TestClientsPerServiceType(t *testing.T) {
	ca := newTestCA(t, "x.example.com")
	certUser := models.ServiceUser{Username: "alice", Password: "alice-pw", AccessCert: "CERT PEM\n", AccessKey: "KEY PEM\n"}
	tests := []struct {
		name     string
		clients  []string
		typ      string
		user     models.ServiceUser
		env      []string
		password string
		prog     string
		args     func(dir string) []string
		envWant  map[string]string
		files    map[string]string // base name → substring of its content
		absent   []string          // arguments that must not appear
	}{
		{name: "mysql", clients: []string{"mysql", "mariadb"}, typ: models.TypeMySQL, env: []string{"STANDIN_VERSION=mysql  Ver 8.0.36 for Linux on x86_64 (MySQL Community Server - GPL)"},
			password: secret, prog: "mysql",
			args: func(d string) []string {
				return []string{"--defaults-file=" + d + "/my.cnf", "--host=mysql.example.com", "--port=1234", "--user=avnadmin",
					"--ssl-mode=VERIFY_IDENTITY", "--ssl-ca=" + d + "/ca.pem", "--database=defaultdb"}
			},
			files: map[string]string{"my.cnf": "[client]\npassword=\"s3cr3t:Pa\\\\ss\\\"w'rd#\"\n"}},
		{name: "mysql that is MariaDB", clients: []string{"mysql"}, typ: models.TypeMySQL, env: []string{"STANDIN_VERSION=mysql  Ver 15.1 Distrib 10.11.6-MariaDB, for debian-linux-gnu"},
			password: secret, prog: "mysql",
			args: func(d string) []string {
				return []string{"--defaults-file=" + d + "/my.cnf", "--ssl", "--ssl-ca=" + d + "/ca.pem", "--ssl-verify-server-cert"}
			},
			absent: []string{"--ssl-mode=VERIFY_IDENTITY"}},
		{name: "mariadb", clients: []string{"mariadb"}, typ: models.TypeMySQL, password: secret, prog: "mariadb",
			args: func(d string) []string { return []string{"--ssl", "--ssl-verify-server-cert"} }},
		{name: "valkey", clients: []string{"valkey-cli", "redis-cli"}, typ: models.TypeCaching, password: secret, prog: "valkey-cli",
			args: func(d string) []string {
				return []string{"-h", "caching.example.com", "-p", "1234", "--user", "avnadmin", "--tls", "--cacert", d + "/ca.pem"}
			},
			envWant: map[string]string{"REDISCLI_AUTH": secret}},
		{name: "redis as default user", clients: []string{"redis-cli"}, typ: models.TypeCaching,
			user: models.ServiceUser{Username: "default", Password: "default-pw"}, password: "default-pw", prog: "redis-cli",
			args:    func(d string) []string { return []string{"--tls"} },
			envWant: map[string]string{"REDISCLI_AUTH": "default-pw"}, absent: []string{"--user"}},
		{name: "clickhouse", clients: []string{"clickhouse", "clickhouse-client"}, typ: models.TypeClickHouse, password: secret, prog: "clickhouse",
			args: func(d string) []string {
				return []string{"client", "--config-file=" + d + "/clickhouse-client.xml", "--host=clickhouse.example.com", "--port=1234", "--secure", "--user=avnadmin"}
			},
			files: map[string]string{"clickhouse-client.xml": "<password>s3cr3t:Pa\\ss&#34;w&#39;rd#</password>\n<openSSL><client>\n<caConfig>"}},
		{name: "clickhouse-client", clients: []string{"clickhouse-client"}, typ: models.TypeClickHouse, password: secret, prog: "clickhouse-client",
			args: func(d string) []string { return []string{"--secure"} }, absent: []string{"client"}},
		{name: "kafka with a password", clients: []string{"kcat"}, typ: models.TypeKafka, password: secret, prog: "kcat",
			args: func(d string) []string { return []string{"-F", d + "/kcat.conf", "-b", "kafka.example.com:1234", "-L"} },
			files: map[string]string{"kcat.conf": "security.protocol=sasl_ssl\nsasl.mechanisms=SCRAM-SHA-256\nsasl.username=avnadmin\nsasl.password=" + secret +
				"\nssl.ca.location="}},
		{name: "kafka with an access certificate", clients: []string{"kafkacat"}, typ: models.TypeKafka, user: certUser, password: "alice-pw", prog: "kafkacat",
			args:  func(d string) []string { return []string{"-L"} },
			files: map[string]string{"kcat.conf": "security.protocol=ssl\nssl.certificate.location=", "client.crt": "CERT PEM", "client.key": "KEY PEM"}},
		{name: "psql with a client certificate", clients: []string{"psql"}, typ: models.TypePG, user: certUser, password: "alice-pw", prog: "psql",
			args:  func(d string) []string { return nil },
			files: map[string]string{"pgpass": ":alice:alice-pw", "client.key": "KEY PEM"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, tc.clients...)
			tg := service(tc.typ, ca.certPEM)
			tg.User = tc.user
			s := r.plan(tg, tc.env...)
			dir := s.privateDir()
			out, err := run(t, s)
			if err != nil {
				t.Fatal(err)
			}
			rec := r.record()
			rec.noSecrets(t, tc.password)
			if rec.prog != tc.prog {
				t.Errorf("ran %s, want %s", rec.prog, tc.prog)
			}
			rec.hasArgs(t, tc.args(dir)...)
			for _, a := range tc.absent {
				if strings.Contains("\x00"+rec.joined()+"\x00", "\x00"+a+"\x00") {
					t.Errorf("argument %q should not be there: %q", a, rec.args)
				}
			}
			for k, v := range tc.envWant {
				if rec.env[k] != v {
					t.Errorf("%s = %q, want %q", k, rec.env[k], v)
				}
			}
			for name, want := range tc.files {
				if got := rec.files[name].content; !strings.Contains(got, want) {
					t.Errorf("%s = %q, want it to contain %q", name, got, want)
				}
			}
			if tc.typ == models.TypeKafka && !strings.Contains(out, "Press Enter") {
				t.Errorf("kcat -L prints and exits: the console should wait for Enter; output %q", out)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("the private directory outlived the client: %v", err)
			}
			if strings.Contains(s.Describe(), tc.password) {
				t.Errorf("Describe shows the password: %q", s.Describe())
			}
		})
	}
}

func TestTLSLevel(t *testing.T) {
	ca := newTestCA(t, "pg.example.com")
	tests := []struct {
		name, ca, stated string
		want             []string
		not              string
	}{
		{"no CA still requires TLS", "", "", []string{"sslmode=require"}, "sslrootcert"},
		{"a disabling service is raised", "", "disable", []string{"sslmode=require"}, "sslrootcert"},
		{"a CA means verify-full", ca.certPEM, "require", []string{"sslmode=verify-full", "sslrootcert="}, ""},
		{"prefer with a CA is verify-full", ca.certPEM, "prefer", []string{"sslmode=verify-full"}, ""},
		{"the service's verify-ca is kept", ca.certPEM, "verify-ca", []string{"sslmode=verify-ca", "sslrootcert="}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, "psql")
			tg := service(models.TypePG, tc.ca)
			tg.Service.ServiceURIParams = map[string]string{"sslmode": tc.stated}
			s := r.plan(tg)
			if _, err := run(t, s); err != nil {
				t.Fatal(err)
			}
			ci := r.record().args[0]
			for _, w := range tc.want {
				if !strings.Contains(ci, w) {
					t.Errorf("%q lacks %s", ci, w)
				}
			}
			if tc.not != "" && strings.Contains(ci, tc.not) {
				t.Errorf("%q has %s", ci, tc.not)
			}
		})
	}
}

func TestFailingClientHoldsTheScreen(t *testing.T) {
	r := newRig(t, "psql")
	ok, err := run(t, r.plan(service(models.TypePG, "")))
	if err != nil || ok != "" {
		t.Errorf("a client that exits 0 returns at once: output %q, err %v", ok, err)
	}
	out, err := run(t, r.plan(service(models.TypePG, ""), "STANDIN_EXIT=3"))
	if err == nil || !strings.Contains(err.Error(), "psql: exit status 3") {
		t.Errorf("err = %v", err)
	}
	if !strings.Contains(out, "psql ended: exit status 3. Press Enter to return to svcui.") {
		t.Errorf("output = %q", out)
	}
}
