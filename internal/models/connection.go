package models

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strconv"
)

// ConnectionInfo is the flat answer of GET .../connection_info.
type ConnectionInfo struct {
	Host     string  `json:"host"`
	Port     FlexInt `json:"port"`
	User     string  `json:"user"`
	Password string  `json:"password"`
	Database string  `json:"database,omitempty"`
	URI      string  `json:"uri"`
	CACert   string  `json:"ca_cert"`
}

// ConnectionEndpoint is one entry of a service's connection_info: host, port, dbname,
// user, and the URI it came from when the platform sent a URI string instead.
type ConnectionEndpoint struct {
	Host   string  `json:"host"`
	Port   FlexInt `json:"port"`
	DBName string  `json:"dbname,omitempty"`
	User   string  `json:"user,omitempty"`
	URI    string  `json:"-"`
}

// ConnectionInfoMap is a service's connection_info: keyed by service kind (e.g. "pg").
type ConnectionInfoMap map[string][]ConnectionEndpoint

// UnmarshalJSON accepts, per key, an array of objects, an array of URI strings, a single
// object or a single URI string; values of other shapes (booleans, numbers, nested
// objects of another kind) are skipped rather than failing the whole service.
func (m *ConnectionInfoMap) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		*m = nil
		return nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		// A connection_info of a shape we do not know is not worth losing the service for.
		*m = nil
		return nil
	}
	out := ConnectionInfoMap{}
	for k, v := range raw {
		if eps := decodeEndpoints(v); len(eps) > 0 {
			out[k] = eps
		}
	}
	*m = out
	return nil
}

func decodeEndpoints(v json.RawMessage) []ConnectionEndpoint {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return nil
	}
	switch v[0] {
	case '[':
		var items []json.RawMessage
		if json.Unmarshal(v, &items) != nil {
			return nil
		}
		var out []ConnectionEndpoint
		for _, it := range items {
			if ep, ok := decodeEndpoint(it); ok {
				out = append(out, ep)
			}
		}
		return out
	default:
		if ep, ok := decodeEndpoint(v); ok {
			return []ConnectionEndpoint{ep}
		}
	}
	return nil
}

func decodeEndpoint(v json.RawMessage) (ConnectionEndpoint, bool) {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return ConnectionEndpoint{}, false
	}
	switch v[0] {
	case '{':
		var ep ConnectionEndpoint
		if json.Unmarshal(v, &ep) != nil || ep.Host == "" {
			return ConnectionEndpoint{}, false
		}
		return ep, true
	case '"':
		var s string
		if json.Unmarshal(v, &s) != nil || s == "" {
			return ConnectionEndpoint{}, false
		}
		return EndpointFromURI(s)
	}
	return ConnectionEndpoint{}, false
}

// EndpointFromURI reads host, port, user and database out of a connection URI. The
// password in the URI is not kept in the endpoint's fields (only in URI, which is secret).
func EndpointFromURI(s string) (ConnectionEndpoint, bool) {
	u, err := url.Parse(s)
	if err != nil || u.Hostname() == "" {
		return ConnectionEndpoint{}, false
	}
	ep := ConnectionEndpoint{Host: u.Hostname(), URI: s}
	if p, err := strconv.Atoi(u.Port()); err == nil {
		ep.Port = FlexInt(p)
	}
	if u.User != nil {
		ep.User = u.User.Username()
	}
	if len(u.Path) > 1 {
		ep.DBName = u.Path[1:]
	}
	return ep, true
}

// MaskURI replaces the password of a URI with dots, for display before reveal.
func MaskURI(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	if _, has := u.User.Password(); !has {
		return s
	}
	u.User = url.UserPassword(u.User.Username(), "xxxxx")
	return replaceOnce(u.String(), "xxxxx", "••••••••")
}

// URIWithCredentials returns uri with the user and password replaced, for a new user's
// full connection string.
func URIWithCredentials(uri, user, password string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Host == "" {
		return ""
	}
	u.User = url.UserPassword(user, password)
	return u.String()
}

func replaceOnce(s, old, new string) string {
	i := bytes.Index([]byte(s), []byte(old))
	if i < 0 {
		return s
	}
	return s[:i] + new + s[i+len(old):]
}
