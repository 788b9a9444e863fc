package sandbox

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestAttachPointsConnectionDetailsAtAServer(t *testing.T) {
	// A real listener stands for the server: the details the sandbox answers must reach it.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	uri := "postgres://realuser:s3cret@127.0.0.1:" + strconv.Itoa(port) + "/realdb?sslmode=disable"
	e := newEnv(t, Options{Attach: map[string]string{"pg-main": uri}})

	svc := get(t, e.admin("GET", "/v1/project/acme-prod/service/pg-main", nil).json(t), "service").(map[string]any)
	if svc["service_uri"] != uri {
		t.Errorf("service_uri %v, want the attached URI", svc["service_uri"])
	}
	params := svc["service_uri_params"].(map[string]any)
	for k, want := range map[string]string{"host": "127.0.0.1", "port": strconv.Itoa(port), "user": "realuser", "password": "s3cret", "dbname": "realdb", "sslmode": "disable"} {
		if params[k] != want {
			t.Errorf("service_uri_params.%s = %v, want %s", k, params[k], want)
		}
	}
	ep := get(t, svc, "connection_info", "pg").([]any)[0].(map[string]any)
	if ep["host"] != "127.0.0.1" || ep["port"] != float64(port) || ep["dbname"] != "realdb" || ep["user"] != "realuser" {
		t.Errorf("connection_info.pg %v", ep)
	}

	ci := e.dev("GET", "/v1/project/acme-prod/service/pg-main/connection_info", nil).json(t)
	if ci["host"] != "127.0.0.1" || ci["port"] != float64(port) || ci["user"] != "realuser" || ci["password"] != "s3cret" ||
		ci["database"] != "realdb" || ci["uri"] != uri || ci["ca_cert"] != e.sb.CACertPEM() {
		t.Errorf("connection_info %v", ci)
	}
	conn, err := net.Dial("tcp", net.JoinHostPort(ci["host"].(string), strconv.Itoa(int(ci["port"].(float64)))))
	if err != nil {
		t.Fatalf("the attached details do not reach the server: %v", err)
	}
	conn.Close()

	// The primary user goes by the URI's name and keeps the server's password.
	users := get(t, e.admin("GET", "/v1/project/acme-prod/service/pg-main/user", nil).json(t), "users").([]any)
	first := users[0].(map[string]any)
	if first["username"] != "realuser" || first["type"] != "primary" {
		t.Errorf("primary user %v, want realuser", first)
	}
	expectError(t, e.admin("PUT", "/v1/project/acme-prod/service/pg-main/user/realuser", map[string]any{"operation": "reset-credentials"}), 400, "attached", "cannot be reset")
	expectError(t, e.admin("PUT", "/v1/project/acme-prod/service/pg-main/user/avnadmin", map[string]any{"operation": "reset-credentials"}), 404, "avnadmin")
	expectError(t, e.admin("DELETE", "/v1/project/acme-prod/service/pg-main/user/realuser", nil), 400, "primary")
	expectStatus(t, e.admin("PUT", "/v1/project/acme-prod/service/pg-main/user/app_rw", map[string]any{"operation": "reset-credentials"}), 200)

	// Other services keep the sandbox's own details.
	other := e.admin("GET", "/v1/project/acme-analytics/service/pg-analytics/connection_info", nil).json(t)
	if other["user"] != "avnadmin" || !strings.HasSuffix(other["host"].(string), ".svc.sandbox.test") {
		t.Errorf("an unattached service changed: %v", other)
	}
}

func TestAttachDefaultsEnvAndCA(t *testing.T) {
	ca := filepath.Join(t.TempDir(), "server-ca.pem")
	const pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
	if err := os.WriteFile(ca, []byte(pem), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SVCUI_TEST_PG_URI", "postgresql://app@db.internal?sslrootcert="+ca)
	e := newEnv(t, Options{Attach: map[string]string{"acme-prod/pg-main": "env:SVCUI_TEST_PG_URI"}})
	ci := e.admin("GET", "/v1/project/acme-prod/service/pg-main/connection_info", nil).json(t)
	if ci["host"] != "db.internal" || ci["port"] != float64(5432) || ci["user"] != "app" || ci["password"] != "" || ci["database"] != "defaultdb" || ci["ca_cert"] != pem {
		t.Errorf("connection_info %v", ci)
	}
	params := get(t, e.admin("GET", "/v1/project/acme-prod/service/pg-main", nil).json(t), "service", "service_uri_params").(map[string]any)
	if params["sslmode"] != "require" {
		t.Errorf("sslmode %v, want the default require", params["sslmode"])
	}
}

func TestAttachRefusals(t *testing.T) {
	t.Setenv("SVCUI_TEST_EMPTY", "")
	for key, c := range map[string]struct{ uri, want string }{
		"pg-nowhere":         {"postgres://u:p@127.0.0.1/db", "no project has a service pg-nowhere"},
		"acme-prod/pg-other": {"postgres://u:p@127.0.0.1/db", "project acme-prod has no service pg-other"},
		"nope/pg-main":       {"postgres://u:p@127.0.0.1/db", "there is no project nope"},
		"pg-main":            {"mysql://u:p@127.0.0.1/db", "needs a postgres or postgresql URI"},
		"pg-analytics":       {"postgres://127.0.0.1/db", "names no user"},
		"pg-staging":         {"postgres://u:p@127.0.0.1:99999/db", "not a port number"},
		"mysql-staging":      {"not a uri", "is not a URI"},
		"caching-reports":    {"env:SVCUI_TEST_EMPTY", "SVCUI_TEST_EMPTY"},
		"grafana-ops":        {"https://u:p@h/?sslrootcert=/nonexistent/ca.pem", "sslrootcert"},
	} {
		_, err := New(Options{Seed: 1, Attach: map[string]string{key: c.uri}})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), key) {
			t.Errorf("attach %s=%s: error %v, want one naming %s and saying %q", key, c.uri, err, key, c.want)
		}
	}
}

func TestRunAttachFlag(t *testing.T) {
	got, err := parseAttachArgs([]string{"pg-main=postgres://u:p@127.0.0.1/db?sslmode=disable", "acme-prod/kafka-events=kafka://u:p@h:9092"})
	if err != nil || got["pg-main"] != "postgres://u:p@127.0.0.1/db?sslmode=disable" || got["acme-prod/kafka-events"] != "kafka://u:p@h:9092" {
		t.Fatalf("parsed %v, %v", got, err)
	}
	if _, err := parseAttachArgs([]string{"a=x://h", "a=y://h"}); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("duplicate: %v", err)
	}
	// A forgotten SERVICE= is refused without repeating the password.
	var stderr bytes.Buffer
	err = Run(context.Background(), []string{"--addr", "127.0.0.1:0", "--attach", "postgres://u:hunter2@127.0.0.1/db?sslmode=disable"}, &bytes.Buffer{}, &stderr)
	if err == nil || !strings.Contains(stderr.String(), "SERVICE=URI") || strings.Contains(stderr.String(), "hunter2") {
		t.Errorf("err %v, stderr %q", err, stderr.String())
	}
}
