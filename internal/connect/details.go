package connect

import (
	"encoding/pem"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/svcui/svcui/internal/models"
)

// tlsLevel is how much of the server's certificate the client checks. Every level
// requires TLS.
type tlsLevel int

const (
	tlsRequire    tlsLevel = iota // encrypted; the certificate is not checked against the service CA
	tlsVerifyCA                   // the chain leads to the service CA
	tlsVerifyFull                 // the chain leads to the service CA and names the host
)

// details is everything a client needs, taken from the service, its connection
// information and the chosen user.
type details struct {
	service  string
	host     string
	port     int
	database string
	user     string
	primary  bool
	password string
	caPEM    string
	certPEM  string // client certificate and key, when the user has them
	keyPEM   string
	tls      tlsLevel
}

// redacted is how the platform may hide a password it will not return.
const redacted = "<redacted>"

// resolve reads the connection details of t. Connection information (t.Conn) comes first,
// then the service's connection_info, service_uri_params and service_uri, as the detail
// view does.
func resolve(t Target, database string) (*details, error) {
	s := t.Service
	p := s.ServiceURIParams
	var ep models.ConnectionEndpoint
	if eps := s.ConnectionInfo[s.ServiceType]; len(eps) > 0 {
		ep = eps[0]
	}
	uri, _ := url.Parse(s.ServiceURI)
	if uri == nil {
		uri = &url.URL{}
	}
	uriPassword, _ := uri.User.Password()

	d := &details{service: s.ServiceName, host: first(t.Conn.Host, ep.Host, p["host"], uri.Hostname())}
	if d.host == "" {
		return nil, fmt.Errorf("svcui does not know where %s listens yet (its connection information is unavailable); try again when it is RUNNING", s.ServiceName)
	}
	port := ""
	if t.Conn.Port > 0 {
		port = strconv.Itoa(int(t.Conn.Port))
	} else if ep.Port > 0 {
		port = strconv.Itoa(int(ep.Port))
	}
	port = first(port, p["port"], uri.Port())
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 {
		return nil, fmt.Errorf("svcui does not know which port %s listens on (its connection information names none)", s.ServiceName)
	}
	d.port = n
	d.database = first(database, t.Conn.Database, ep.DBName, p["dbname"], strings.TrimPrefix(uri.Path, "/"))
	if d.database == "" && models.HasDatabases(s.ServiceType) {
		d.database = "defaultdb"
	}

	primaryUser := first(t.Conn.User, p["user"], ep.User, uri.User.Username())
	primaryPassword := first(known(t.Conn.Password), known(p["password"]), known(uriPassword))
	d.user = t.User.Username
	d.primary = d.user == "" || d.user == primaryUser || t.User.Type == models.UserPrimary
	if d.user == "" {
		d.user = primaryUser
	}
	if d.user == "" {
		return nil, fmt.Errorf("svcui does not know the user name of %s's primary user; choose a user in the service's users", s.ServiceName)
	}
	d.password = t.User.Password
	if d.password == "" && d.primary {
		d.password = primaryPassword
	}
	if t.User.AccessCert != "" && t.User.AccessKey != "" {
		d.certPEM, d.keyPEM = t.User.AccessCert, t.User.AccessKey
	}
	if d.password == "" && d.certPEM == "" {
		return nil, &NeedCredentialsError{Service: s.ServiceName, User: d.user, Primary: d.primary}
	}

	d.caPEM = strings.TrimSpace(t.Conn.CACert)
	if d.caPEM != "" {
		if b, _ := pem.Decode([]byte(d.caPEM)); b == nil || b.Type != "CERTIFICATE" {
			return nil, fmt.Errorf("the CA certificate of %s is not a PEM certificate, so svcui cannot verify the server with it", s.ServiceName)
		}
		d.caPEM += "\n"
	}
	d.tls = chooseTLS(d.caPEM != "", first(p["sslmode"], uri.Query().Get("sslmode"), uri.Query().Get("ssl-mode")))
	return d, d.check()
}

// chooseTLS verifies the full certificate against the service CA when there is one,
// except that a service which itself asks only for verify-ca (e.g. a server with a
// self-signed certificate that does not name its address) gets verify-ca. Without a CA,
// TLS is still required; weaker modes the service states (disable, prefer) are raised.
func chooseTLS(haveCA bool, stated string) tlsLevel {
	if !haveCA {
		return tlsRequire
	}
	if m := strings.ToLower(strings.ReplaceAll(stated, "_", "-")); m == "verify-ca" {
		return tlsVerifyCA
	}
	return tlsVerifyFull
}

// check refuses values that could not be handed to a client safely: a control character
// in a user name could add lines to a configuration file.
func (d *details) check() error {
	for _, f := range []struct{ what, v string }{
		{"address", d.host}, {"database name", d.database}, {"user name", d.user}, {"password", d.password},
	} {
		if strings.ContainsFunc(f.v, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return fmt.Errorf("the %s for %s contains control characters; svcui will not pass it to a client", f.what, d.service)
		}
	}
	if strings.ContainsAny(d.host, " /") || strings.HasPrefix(d.host, "-") {
		return errors.New("the address of " + d.service + " (" + d.host + ") is not a host name")
	}
	return nil
}

// known is a password unless the platform hid it.
func known(password string) string {
	if password == redacted {
		return ""
	}
	return password
}

func first(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
