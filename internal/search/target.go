package search

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// Target is where and how to reach one opensearch service.
type Target struct {
	Host     string
	Port     int
	Username string
	Password string
	// CACertPEM is the service CA. When set it is the only trusted root.
	CACertPEM string
	// InsecureSkipVerify turns certificate verification off. Only when the user asks.
	InsecureSkipVerify bool
	// ServiceName names the service (used for history files and display).
	ServiceName string
}

// DefaultPort is used when a service URI names no port.
const DefaultPort = 443

// BaseURL is "https://host:port" without credentials.
func (t Target) BaseURL() string {
	return "https://" + t.hostPort()
}

func (t Target) hostPort() string {
	port := t.Port
	if port == 0 {
		port = DefaultPort
	}
	return net.JoinHostPort(t.Host, strconv.Itoa(port))
}

// String describes the target without its password, so it is safe to log or show.
func (t Target) String() string {
	if t.Username == "" {
		return t.BaseURL()
	}
	return "https://" + t.Username + "@" + t.hostPort()
}

// ErrInvalidServiceURI is wrapped by every TargetFromServiceURI error.
var ErrInvalidServiceURI = errors.New("invalid service URI")

// TargetFromServiceURI parses a service URI such as "https://user:pass@host:port".
// Tolerated: no scheme, no user or no password, no port (443). Other schemes are
// refused because the interface requires TLS. Errors never repeat the URI, which
// carries the password.
func TargetFromServiceURI(uri, caPEM string) (Target, error) {
	s := strings.TrimSpace(uri)
	if s == "" {
		return Target{}, fmt.Errorf("%w: empty", ErrInvalidServiceURI)
	}
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		// url.Parse errors quote the input, password included: do not wrap them.
		return Target{}, fmt.Errorf("%w: cannot be parsed", ErrInvalidServiceURI)
	}
	if !strings.EqualFold(u.Scheme, "https") {
		return Target{}, fmt.Errorf("%w: scheme %q is not https (TLS is required)", ErrInvalidServiceURI, u.Scheme)
	}
	host := u.Hostname()
	if host == "" {
		return Target{}, fmt.Errorf("%w: no host", ErrInvalidServiceURI)
	}
	port := DefaultPort
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return Target{}, fmt.Errorf("%w: port %q out of range", ErrInvalidServiceURI, p)
		}
		port = n
	}
	t := Target{Host: host, Port: port, CACertPEM: caPEM}
	if u.User != nil {
		t.Username = u.User.Username()
		t.Password, _ = u.User.Password()
	}
	return t, nil
}
