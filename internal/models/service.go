package models

import (
	"encoding/json"
	"time"
)

// Service is one managed service.
type Service struct {
	ServiceName           string            `json:"service_name"`
	ServiceType           string            `json:"service_type"`
	State                 ServiceState      `json:"state"`
	CloudName             string            `json:"cloud_name"`
	Plan                  string            `json:"plan"`
	ServiceURI            string            `json:"service_uri"`
	ServiceURIParams      map[string]string `json:"-"`
	ConnectionInfo        ConnectionInfoMap `json:"connection_info,omitempty"`
	CreateTime            time.Time         `json:"create_time"`
	UpdateTime            time.Time         `json:"update_time"`
	NodeCount             int               `json:"node_count"`
	DiskSpaceMB           int               `json:"disk_space_mb"`
	TerminationProtection bool              `json:"termination_protection"`
	ProjectVPCID          string            `json:"project_vpc_id,omitempty"`
	Maintenance           *Maintenance      `json:"maintenance,omitempty"`
	UserConfig            UserConfig        `json:"user_config,omitempty"`
}

// serviceWire carries the fields that need tolerant decoding.
type serviceWire struct {
	ServiceURIParams map[string]any `json:"service_uri_params"`
	CreateTime       string         `json:"create_time"`
	UpdateTime       string         `json:"update_time"`
	NodeCount        FlexInt        `json:"node_count"`
	DiskSpaceMB      FlexInt        `json:"disk_space_mb"`
}

// UnmarshalJSON decodes a service tolerantly: service_uri_params values of any scalar
// type become strings (ports arrive as numbers or strings), bad timestamps become zero.
func (s *Service) UnmarshalJSON(b []byte) error {
	type plain Service
	var p struct {
		plain
		CreateTime  json.RawMessage `json:"create_time"`
		UpdateTime  json.RawMessage `json:"update_time"`
		NodeCount   json.RawMessage `json:"node_count"`
		DiskSpaceMB json.RawMessage `json:"disk_space_mb"`
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	var w serviceWire
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*s = Service(p.plain)
	s.CreateTime = parseTime(w.CreateTime)
	s.UpdateTime = parseTime(w.UpdateTime)
	s.NodeCount = int(w.NodeCount)
	s.DiskSpaceMB = int(w.DiskSpaceMB)
	if w.ServiceURIParams != nil {
		s.ServiceURIParams = make(map[string]string, len(w.ServiceURIParams))
		for k, v := range w.ServiceURIParams {
			s.ServiceURIParams[k] = scalarString(v)
		}
	}
	return nil
}

// MarshalJSON writes the spec's shape (timestamps in UTC ISO 8601).
func (s Service) MarshalJSON() ([]byte, error) {
	type plain Service
	return json.Marshal(struct {
		plain
		ServiceURIParams map[string]string `json:"service_uri_params"`
		CreateTime       string            `json:"create_time"`
		UpdateTime       string            `json:"update_time"`
	}{plain(s), s.ServiceURIParams, formatTime(s.CreateTime), formatTime(s.UpdateTime)})
}

// DashboardsURI returns the opensearch dashboards address, if any.
func (s Service) DashboardsURI() string { return s.ServiceURIParams["dashboards_uri"] }

// Maintenance is a service's maintenance window: dow "monday".."sunday" (or "never"),
// time "HH:MM:SS" UTC.
type Maintenance struct {
	DOW  string `json:"dow,omitempty"`
	Time string `json:"time,omitempty"`
}

// CreateServiceRequest is the body of POST /v1/project/{project}/service.
type CreateServiceRequest struct {
	ServiceName           string     `json:"service_name"`
	ServiceType           string     `json:"service_type"`
	Plan                  string     `json:"plan"`
	Cloud                 string     `json:"cloud"`
	DiskSpaceMB           int        `json:"disk_space_mb,omitempty"`
	ProjectVPCID          string     `json:"project_vpc_id,omitempty"`
	TerminationProtection bool       `json:"termination_protection,omitempty"`
	UserConfig            UserConfig `json:"user_config,omitempty"`
}

// UpdateServiceRequest is the body of PUT /v1/project/{project}/service/{name}; nil
// fields are not sent.
type UpdateServiceRequest struct {
	Plan                  *string      `json:"plan,omitempty"`
	Cloud                 *string      `json:"cloud,omitempty"`
	DiskSpaceMB           *int         `json:"disk_space_mb,omitempty"`
	Powered               *bool        `json:"powered,omitempty"`
	TerminationProtection *bool        `json:"termination_protection,omitempty"`
	Maintenance           *Maintenance `json:"maintenance,omitempty"`
	UserConfig            UserConfig   `json:"user_config,omitempty"`
}

// UserConfig is the service-type-specific configuration, an open map. Accessors cover
// the keys the spec names; every other key is kept and shown as it comes.
type UserConfig map[string]any

// Known user_config keys.
const (
	UCKafkaConnect = "kafka_connect"
	UCKafkaRest    = "kafka_rest"
	UCPGVersion    = "pg_version"
	UCIPFilter     = "ip_filter"
)

// Bool returns a boolean key and whether it was present as a boolean.
func (u UserConfig) Bool(key string) (bool, bool) {
	v, ok := u[key].(bool)
	return v, ok
}

// String returns a string key (numbers are rendered, pg_version may come as 16).
func (u UserConfig) String(key string) (string, bool) {
	v, ok := u[key]
	if !ok || v == nil {
		return "", false
	}
	return scalarString(v), true
}

// KafkaConnect reports user_config.kafka_connect.
func (u UserConfig) KafkaConnect() bool { v, _ := u.Bool(UCKafkaConnect); return v }

// KafkaRest reports user_config.kafka_rest.
func (u UserConfig) KafkaRest() bool { v, _ := u.Bool(UCKafkaRest); return v }

// PGVersion returns user_config.pg_version ("" when absent).
func (u UserConfig) PGVersion() string { v, _ := u.String(UCPGVersion); return v }

// IPFilter returns user_config.ip_filter as CIDR strings. Entries may be strings or
// objects with a "network" key (the real platform accepts both).
func (u UserConfig) IPFilter() []string {
	raw, ok := u[UCIPFilter].([]any)
	if !ok {
		if ss, ok := u[UCIPFilter].([]string); ok {
			return ss
		}
		return nil
	}
	out := make([]string, 0, len(raw))
	for _, e := range raw {
		switch v := e.(type) {
		case string:
			out = append(out, v)
		case map[string]any:
			if n, ok := v["network"].(string); ok {
				out = append(out, n)
			}
		}
	}
	return out
}

func parseTime(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05Z07:00", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// FormatTime writes a timestamp as the platform does: UTC ISO 8601 ("" for zero).
func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05Z")
}
