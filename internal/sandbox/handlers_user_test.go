package sandbox

import (
	"strings"
	"testing"
)

func TestUsers(t *testing.T) {
	e := newEnv(t, Options{})
	path := "/v1/project/acme-prod/service/pg-main/user"
	r := e.dev("GET", path, nil)
	expectStatus(t, r, 200)
	users := get(t, r.json(t), "users").([]any)
	if len(users) < 2 {
		t.Fatalf("users %v", users)
	}
	for _, u := range users {
		m := u.(map[string]any)
		if len(m) != 2 || m["username"] == nil || m["type"] == nil {
			t.Fatalf("list must carry username and type only: %v", m)
		}
	}
	if users[0].(map[string]any)["username"] != "avnadmin" || users[0].(map[string]any)["type"] != "primary" {
		t.Fatalf("primary user %v", users[0])
	}

	// Developers may create users.
	r = e.dev("POST", path, map[string]any{"username": "new_user", "authentication": "scram-sha-256"})
	expectStatus(t, r, 200)
	u := get(t, r.json(t), "user").(map[string]any)
	pw := u["password"].(string)
	if u["username"] != "new_user" || u["type"] != "regular" || !strings.HasPrefix(pw, "AVNS_") || len(pw) != 25 {
		t.Fatalf("created user %v", u)
	}
	expectError(t, e.admin("POST", path, map[string]any{"username": "new_user"}), 409, "already exists")
	expectError(t, e.admin("POST", path, map[string]any{"username": "no"}), 400, "username")
	expectError(t, e.admin("POST", path, map[string]any{"username": "bad-dash"}), 400, "username")
	expectError(t, e.admin("POST", path, map[string]any{"username": "u_mysql_auth", "authentication": "caching_sha2_password"}), 400, "authentication", "scram-sha-256")
	expectError(t, e.admin("POST", "/v1/project/acme-prod/service/kafka-events/user", map[string]any{"username": "u_auth", "authentication": "scram-sha-256"}), 400, "authentication")
	expectStatus(t, e.admin("POST", "/v1/project/acme-prod/service/mysql-orders-legacy/user", map[string]any{"username": "u_my", "authentication": "caching_sha2_password"}), 200)
	expectError(t, e.admin("POST", path, map[string]any{}), 400, `"username"`)

	// Kafka users get a client certificate.
	r = e.admin("POST", "/v1/project/acme-prod/service/kafka-events/user", map[string]any{"username": "cert_user"})
	ku := get(t, r.json(t), "user").(map[string]any)
	if !strings.Contains(ku["access_cert"].(string), "BEGIN CERTIFICATE") || !strings.Contains(ku["access_key"].(string), "PRIVATE KEY") {
		t.Fatalf("kafka user without certificate: %v", ku)
	}

	// Reset: a new password, only in this answer; the list still shows none.
	r = e.dev("PUT", path+"/new_user", map[string]any{"operation": "reset-credentials"})
	expectStatus(t, r, 200)
	pw2 := get(t, r.json(t), "user", "password").(string)
	if pw2 == pw || !strings.HasPrefix(pw2, "AVNS_") {
		t.Fatalf("reset gave %q (old %q)", pw2, pw)
	}
	if strings.Contains(string(e.admin("GET", path, nil).body), "AVNS_") {
		t.Fatal("user list leaks a password")
	}
	expectError(t, e.admin("PUT", path+"/new_user", map[string]any{"operation": "rotate"}), 400, "operation", "reset-credentials")
	expectError(t, e.admin("PUT", path+"/new_user", map[string]any{}), 400, `"operation"`)
	expectError(t, e.admin("PUT", path+"/ghost", map[string]any{"operation": "reset-credentials"}), 404, "ghost")

	// Primary user reset changes connection info's password.
	r = e.admin("PUT", path+"/avnadmin", map[string]any{"operation": "reset-credentials"})
	np := get(t, r.json(t), "user", "password").(string)
	ci := e.admin("GET", "/v1/project/acme-prod/service/pg-main/connection_info", nil).json(t)
	if ci["password"] != np || !strings.Contains(ci["uri"].(string), np) {
		t.Fatal("connection info does not carry the reset primary password")
	}

	// Delete: admin only, never the primary user.
	expectError(t, e.dev("DELETE", path+"/new_user", nil), 403, "delete service users")
	expectError(t, e.admin("DELETE", path+"/avnadmin", nil), 400, "The primary user of a service cannot be deleted")
	expectError(t, e.admin("DELETE", path+"/ghost", nil), 404, "ghost")
	r = e.admin("DELETE", path+"/new_user", nil)
	expectStatus(t, r, 200)
	if len(r.body) != 0 {
		t.Fatalf("delete body %q", r.body)
	}
	if strings.Contains(string(e.admin("GET", path, nil).body), "new_user") {
		t.Fatal("deleted user still listed")
	}
}
