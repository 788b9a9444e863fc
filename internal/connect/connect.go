package connect

import (
	"fmt"
	"net/url"

	"github.com/svcui/svcui/internal/models"
)

// Kind is what a Session asks the caller to do.
type Kind int

const (
	// KindExec: run Session.Cmd (tea.Exec(session, …) or tea.ExecProcess(session.Cmd, …)).
	KindExec Kind = iota
	// KindSearchTab: switch to the Search tab for this service.
	KindSearchTab
	// KindOpenURI: open Session.URI in a browser, or offer to copy it when none exists.
	KindOpenURI
)

// Target is what to connect to, and as whom.
type Target struct {
	// Service is the single-service read (type, name, state, service_uri and its
	// params, connection_info).
	Service models.Service
	// Conn is GET .../connection_info (host, port, primary user and password, database,
	// CA certificate); the zero value when that read failed.
	Conn models.ConnectionInfo
	// User is whom to connect as; an empty Username means the primary user. Password,
	// AccessCert and AccessKey are what this session of svcui knows (from the answer to
	// a create or a credentials reset); an empty Password for the primary user falls
	// back to the connection information's.
	User models.ServiceUser
}

// Options adjust Plan; the zero value is right for the console.
type Options struct {
	// Database overrides the service's default database (pg, mysql, clickhouse).
	Database string
	// TempDir is where the private directory is made; "" means $XDG_RUNTIME_DIR when it
	// is set, else the system temporary directory.
	TempDir string
	// Env is the environment the client starts from; nil means os.Environ(). svcui's
	// own token and other clients' credential variables are always removed from it.
	Env []string
}

// Plan prepares the session that opens t's service in its own client. It looks clients
// up on PATH, may run `mysql --version`, and writes files: call it inside a tea.Cmd.
//
// Errors are sentences for the footer; the typed ones (*MissingClientError,
// *NeedCredentialsError, *UnsupportedError) let the caller offer what comes next.
func Plan(t Target, opts Options) (*Session, error) {
	s := t.Service
	switch s.ServiceType {
	case models.TypeOpenSearch:
		return &Session{Kind: KindSearchTab, Service: s.ServiceName,
			describe: s.ServiceName + " is an opensearch service: its indices are queried in the Search tab"}, nil
	case models.TypeGrafana:
		return planURI(t)
	}
	c, ok := clients[s.ServiceType]
	if !ok {
		return nil, &UnsupportedError{Service: s.ServiceName, Type: s.ServiceType}
	}
	if s.State == models.StatePowerOff {
		return nil, fmt.Errorf("%s is powered off; power it on (e on the service) before connecting", s.ServiceName)
	}
	d, err := resolve(t, opts.Database)
	if err != nil {
		return nil, err
	}
	prog, err := c.find()
	if err != nil {
		return nil, err
	}
	sess, err := newSession(opts, d, prog)
	if err != nil {
		return nil, err
	}
	if err := c.build(sess, d); err != nil {
		_ = sess.Cleanup()
		return nil, err
	}
	sess.finish(c.oneShot)
	return sess, nil
}

// planURI opens a grafana service's web address. The address given to the opener
// carries no credentials (an opener's argv is as visible as any other).
func planURI(t Target) (*Session, error) {
	s := t.Service
	u, err := url.Parse(first(t.Conn.URI, s.ServiceURI))
	if err != nil || u.Hostname() == "" {
		host, port := first(t.Conn.Host, s.ServiceURIParams["host"]), s.ServiceURIParams["port"]
		if t.Conn.Port > 0 {
			port = fmt.Sprint(int(t.Conn.Port))
		}
		if host == "" {
			return nil, fmt.Errorf("svcui does not know the web address of %s yet (its connection information is unavailable)", s.ServiceName)
		}
		u = &url.URL{Host: host}
		if port != "" {
			u.Host += ":" + port
		}
	}
	user := first(t.Conn.User, u.User.Username(), s.ServiceURIParams["user"])
	u.User = nil
	if u.Scheme == "" {
		u.Scheme = "https"
	}
	out := &Session{Kind: KindOpenURI, Service: s.ServiceName, URI: u.String(), User: user}
	out.describe = "open " + out.URI
	if user != "" {
		out.describe += " and log in as " + user
	}
	return out, nil
}
