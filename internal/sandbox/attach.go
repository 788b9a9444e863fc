package sandbox

import (
	"fmt"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/svcui/svcui/internal/models"
)

// connDetails is what a client needs to reach a service.
//
// An attachment (connDetails too) points one service's connection details at a real server
// (Options.Attach, `svcui sandbox --attach SERVICE=URI`), so that a client opened from the
// console really connects: psql against a real PostgreSQL, say.
//
// Taken from the URI, and answered in the service read (service_uri, service_uri_params,
// connection_info) and in connection_info:
//   - host, and port (the service type's usual port when the URI has none);
//   - user and password (the userinfo; the password may be absent);
//   - dbname: the path without its slash (the type's default database when empty);
//   - sslmode: the query's sslmode ("require", the sandbox's own, when absent);
//   - service_uri and connection_info's uri: the URI exactly as given;
//   - ca_cert: the PEM file named by the query's sslrootcert, when there is one (for a
//     server with a self-signed certificate); otherwise the sandbox CA.
//
// Everything else (state, plan, other users, databases) stays the sandbox's. The primary
// user appears under the URI's user name everywhere, and its credentials cannot be reset
// here, since the real server's password would not change. Attachments live in Options
// only: the state file never records them.
type connDetails struct {
	host     string
	port     int
	user     string
	password string
	dbname   string
	sslmode  string
	uri      string
	caPEM    string
}

// attachSchemes are the URI schemes that fit each service type; types not listed take any.
var attachSchemes = map[string][]string{
	models.TypePG:      {"postgres", "postgresql"},
	models.TypeMySQL:   {"mysql"},
	models.TypeCaching: {"redis", "rediss"},
	models.TypeKafka:   {"kafka", "kafka+ssl"},
}

// parseAttachURI reads one attachment's URI. "env:NAME" reads the URI from the
// environment variable NAME, so a real password need not appear in a command line.
func parseAttachURI(serviceType, raw string) (*connDetails, error) {
	if name, ok := strings.CutPrefix(raw, "env:"); ok {
		raw = os.Getenv(name)
		if raw == "" {
			return nil, fmt.Errorf("the environment variable %s that should hold the URI is empty or unset", name)
		}
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Hostname() == "" {
		return nil, fmt.Errorf("%q is not a URI like postgres://user:password@127.0.0.1:5432/db?sslmode=disable", redactURI(raw))
	}
	if schemes, ok := attachSchemes[serviceType]; ok && !contains(schemes, u.Scheme) {
		return nil, fmt.Errorf("a %s service needs a %s URI, not %s://", serviceType, strings.Join(schemes, " or "), u.Scheme)
	}
	if u.User == nil || u.User.Username() == "" {
		return nil, fmt.Errorf("%s names no user; write %s://USER:PASSWORD@%s", redactURI(raw), u.Scheme, u.Host)
	}
	a := &connDetails{host: u.Hostname(), port: defaultPort(serviceType), user: u.User.Username(), uri: raw}
	a.password, _ = u.User.Password()
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("port %q of %s is not a port number", p, redactURI(raw))
		}
		a.port = n
	}
	a.dbname = strings.TrimPrefix(u.Path, "/")
	if a.dbname == "" {
		a.dbname = defaultDatabase(serviceType)
	}
	q := u.Query()
	a.sslmode = q.Get("sslmode")
	if a.sslmode == "" && a.dbname != "" {
		a.sslmode = "require"
	}
	if ca := q.Get("sslrootcert"); ca != "" {
		b, err := os.ReadFile(ca)
		if err != nil {
			return nil, fmt.Errorf("cannot read the CA certificate named by sslrootcert: %w", err)
		}
		a.caPEM = string(b)
	}
	return a, nil
}

// redactURI hides a URI's password for error messages.
func redactURI(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		if at := strings.LastIndex(raw, "@"); at >= 0 {
			return "…" + raw[at:]
		}
		return raw
	}
	return u.Redacted()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// resolveAttachments finds the service of each Options.Attach key ("SERVICE", unique in
// the data, or "PROJECT/SERVICE") and reads its URI. It runs once in New.
func (s *Sandbox) resolveAttachments(spec map[string]string) error {
	keys := make([]string, 0, len(spec))
	for k := range spec {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	s.attached = map[string]*connDetails{}
	for _, k := range keys {
		p, sv, err := s.findAttached(k)
		if err != nil {
			return fmt.Errorf("attach %s: %w", k, err)
		}
		a, err := parseAttachURI(sv.Type, spec[k])
		if err != nil {
			return fmt.Errorf("attach %s: %w", k, err)
		}
		key := searchKey(p.Name, sv.Name)
		if s.attached[key] != nil {
			return fmt.Errorf("attach %s: service %s is attached twice", k, key)
		}
		if a.caPEM == "" {
			a.caPEM = s.ca.CertPEM
		}
		s.attached[key] = a
	}
	return nil
}

func (s *Sandbox) findAttached(key string) (*project, *service, error) {
	if pn, sn, ok := strings.Cut(key, "/"); ok {
		p := s.st.Projects[pn]
		if p == nil {
			return nil, nil, fmt.Errorf("there is no project %s", pn)
		}
		if sv := p.Services[sn]; sv != nil {
			return p, sv, nil
		}
		return nil, nil, fmt.Errorf("project %s has no service %s", pn, sn)
	}
	var found []*project
	for _, p := range s.st.sortedProjects() {
		if p.Services[key] != nil {
			found = append(found, p)
		}
	}
	switch len(found) {
	case 0:
		return nil, nil, fmt.Errorf("no project has a service %s", key)
	case 1:
		return found[0], found[0].Services[key], nil
	}
	names := make([]string, len(found))
	for i, p := range found {
		names[i] = p.Name + "/" + key
	}
	return nil, nil, fmt.Errorf("several projects have a service %s; name one of %s", key, strings.Join(names, ", "))
}

// attachmentOf is a service's attachment, or nil.
func (s *Sandbox) attachmentOf(p *project, sv *service) *connDetails {
	return s.attached[searchKey(p.Name, sv.Name)]
}

// connection is a service's connection details: the sandbox's own, or its attachment's.
func (s *Sandbox) connection(p *project, sv *service) connDetails {
	if a := s.attachmentOf(p, sv); a != nil {
		return *a
	}
	host, port := s.endpoint(p, sv)
	pu := sv.primary()
	d := connDetails{host: host, port: port, user: pu.Username, password: pu.Password, dbname: defaultDatabase(sv.Type), caPEM: s.ca.CertPEM}
	if d.dbname != "" {
		d.sslmode = "require"
	}
	d.uri = serviceURI(sv.Type, d.user, d.password, host, port, d.dbname)
	return d
}

// userName is how a stored user is called: the primary of an attached service goes by
// the attachment's user.
func (s *Sandbox) userName(p *project, sv *service, u *serviceUser) string {
	if a := s.attachmentOf(p, sv); a != nil && u == sv.primary() {
		return a.user
	}
	return u.Username
}

// findUser finds a user by the name callers see (see userName).
func (s *Sandbox) findUser(p *project, sv *service, name string) *serviceUser {
	if a := s.attachmentOf(p, sv); a != nil {
		if name == a.user {
			return sv.primary()
		}
		if pu := sv.primary(); name == pu.Username {
			return nil // known only by the attachment's name
		}
	}
	return sv.user(name)
}
