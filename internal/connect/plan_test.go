//go:build unix

package connect

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/svcui/svcui/internal/models"
)

func TestMissingClientNamesItsPackage(t *testing.T) {
	tests := []struct{ typ, want string }{
		{models.TypePG, "psql is not installed here (not found on PATH); install the Debian package postgresql-client, then connect again"},
		{models.TypeMySQL, "Neither mysql nor mariadb is installed here (none is on PATH); install the Debian package default-mysql-client or mariadb-client"},
		{models.TypeCaching, "Neither valkey-cli nor redis-cli is installed here"},
		{models.TypeClickHouse, "Neither clickhouse nor clickhouse-client is installed here (none is on PATH); install the Debian package clickhouse-client"},
		{models.TypeKafka, "Neither kcat nor kafkacat is installed here (none is on PATH); install the Debian package kcat"},
	}
	for _, tc := range tests {
		r := newRig(t) // an empty PATH
		_, err := Plan(service(tc.typ, ""), r.opts())
		var missing *MissingClientError
		if !errors.As(err, &missing) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want a MissingClientError saying %q", tc.typ, err, tc.want)
		}
		if entries, _ := os.ReadDir(r.parent); len(entries) != 0 {
			t.Errorf("%s: a failed Plan left %d entries behind", tc.typ, len(entries))
		}
	}
}

func TestWhichUser(t *testing.T) {
	r := newRig(t, "psql")

	// A user made in this session: its own password.
	tg := service(models.TypePG, "")
	tg.User = models.ServiceUser{Username: "bob", Type: models.UserRegular, Password: "bob-pw"}
	s := r.plan(tg)
	if _, err := run(t, s); err != nil {
		t.Fatal(err)
	}
	if rec := r.record(); !strings.Contains(rec.args[0], "user=bob") || !strings.HasSuffix(rec.files["pgpass"].content, ":bob:bob-pw\n") {
		t.Errorf("connected as %q with passfile %q", rec.args[0], rec.files["pgpass"].content)
	}

	// A user whose password this session never saw.
	tg.User = models.ServiceUser{Username: "carol", Type: models.UserRegular}
	_, err := Plan(tg, r.opts())
	var need *NeedCredentialsError
	if !errors.As(err, &need) || need.Primary || need.User != "carol" ||
		!strings.Contains(err.Error(), "reset carol's credentials with R") || !strings.Contains(err.Error(), "create a user with c") {
		t.Errorf("err = %v", err)
	}

	// The primary user chosen by name gets the connection information's password.
	tg.User = models.ServiceUser{Username: "avnadmin", Type: models.UserPrimary}
	s = r.plan(tg)
	if s.User != "avnadmin" {
		t.Errorf("user = %q", s.User)
	}

	// The primary user when the platform hid its password everywhere.
	tg = service(models.TypePG, "")
	tg.Conn.Password = redacted
	tg.Service.ServiceURI = "postgres://avnadmin@pg.example.com:1234/defaultdb"
	_, err = Plan(tg, r.opts())
	if !errors.As(err, &need) || !need.Primary || !strings.Contains(err.Error(), "applications using the current password will stop working") {
		t.Errorf("err = %v", err)
	}
}

func TestDetailsFallBackToTheServiceRead(t *testing.T) {
	r := newRig(t, "psql")
	// No connection_info read: host and port from service_uri_params, password from the URI.
	tg := Target{Service: models.Service{ServiceName: "pg-b", ServiceType: models.TypePG, State: models.StateRunning,
		ServiceURI:       "postgres://avnadmin:uri-pw@ignored.example.com:9/appdb?sslmode=require",
		ServiceURIParams: map[string]string{"host": "params.example.com", "port": "5433", "user": "avnadmin"}}}
	s := r.plan(tg)
	if _, err := run(t, s); err != nil {
		t.Fatal(err)
	}
	rec := r.record()
	if want := "host=params.example.com port=5433 dbname=appdb user=avnadmin sslmode=require"; !strings.HasPrefix(rec.args[0], want) {
		t.Errorf("connection string %q, want it to start %q", rec.args[0], want)
	}
	if !strings.HasSuffix(rec.files["pgpass"].content, ":avnadmin:uri-pw\n") {
		t.Errorf("passfile %q", rec.files["pgpass"].content)
	}
}

func TestNonProcessKinds(t *testing.T) {
	r := newRig(t)
	s, err := Plan(service(models.TypeOpenSearch, ""), r.opts())
	if err != nil || s.Kind != KindSearchTab || s.Cmd != nil || !strings.Contains(s.Describe(), "Search tab") {
		t.Errorf("opensearch: %+v, %v", s, err)
	}

	g := service(models.TypeGrafana, "")
	g.Conn.URI = "https://avnadmin:grafana-pw@grafana.example.com:443"
	s, err = Plan(g, r.opts())
	if err != nil || s.Kind != KindOpenURI || s.URI != "https://grafana.example.com:443" || s.User != "avnadmin" {
		t.Fatalf("grafana: %+v, %v", s, err)
	}
	if s.Describe() != "open https://grafana.example.com:443 and log in as avnadmin" {
		t.Errorf("grafana Describe = %q", s.Describe())
	}
	if err := s.Cleanup(); err != nil {
		t.Errorf("Cleanup of a session without files: %v", err)
	}

	_, err = Plan(service("quantum", ""), r.opts())
	var un *UnsupportedError
	if !errors.As(err, &un) || !strings.Contains(err.Error(), "copy its connection URI instead") || strings.Contains(err.Error(), "uri-password") {
		t.Errorf("unknown type: %v", err)
	}

	off := service(models.TypePG, "")
	off.Service.State = models.StatePowerOff
	if _, err := Plan(off, r.opts()); err == nil || !strings.Contains(err.Error(), "powered off") {
		t.Errorf("powered off: %v", err)
	}
}

func TestHostileValuesAreRefused(t *testing.T) {
	r := newRig(t, "kcat", "psql")
	tg := service(models.TypeKafka, "")
	tg.User = models.ServiceUser{Username: "eve\nssl.ca.location=/tmp/evil", Password: "pw"}
	if _, err := Plan(tg, r.opts()); err == nil || !strings.Contains(err.Error(), "control characters") {
		t.Errorf("a user name with a newline: %v", err)
	}
	tg = service(models.TypePG, "")
	tg.Conn.Host = "-oProxyCommand=x"
	if _, err := Plan(tg, r.opts()); err == nil || !strings.Contains(err.Error(), "is not a host name") {
		t.Errorf("an option for a host: %v", err)
	}
	tg = service(models.TypePG, "not a certificate")
	if _, err := Plan(tg, r.opts()); err == nil || !strings.Contains(err.Error(), "not a PEM certificate") {
		t.Errorf("a broken CA: %v", err)
	}
}
