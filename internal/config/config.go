package config

import (
	"fmt"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Defaults and limits of the settings.
const (
	DefaultRefresh   = 10 * time.Second
	MinRefresh       = time.Second
	DefaultTheme     = "auto"
	DefaultClipboard = "auto"
)

// Accepted values of the theme and clipboard settings, in the order they are documented.
var (
	themes         = []string{"auto", "dark", "light"}
	clipboardModes = []string{"auto", "native", "osc52", "off"}
	timeZones      = []string{"UTC", "local"}
)

// DefaultProfileName is used when nothing names a profile and the file has none:
// the welcome screen saves the first profile under this name.
const DefaultProfileName = "default"

// Config is the content of config.yaml.
type Config struct {
	// DefaultProfile is the profile used when neither --profile nor SVCUI_PROFILE names one.
	DefaultProfile string             `yaml:"profile,omitempty"`
	Profiles       map[string]Profile `yaml:"profiles,omitempty"`
	Refresh        Duration           `yaml:"refresh,omitempty"`
	Theme          string             `yaml:"theme,omitempty"`
	Clipboard      string             `yaml:"clipboard,omitempty"`
	// Motion false turns spinners and ticking times off (as --no-motion does).
	Motion *bool `yaml:"motion,omitempty"`
	// TimeZone is the zone search results show and take times in: UTC (default) or local.
	TimeZone string `yaml:"time_zone,omitempty"`
	// Keys overrides key bindings: action name → keys (an empty list unbinds the action).
	Keys Bindings `yaml:"keys,omitempty"`

	// Warnings are problems that do not stop svcui, such as a config file other users can read.
	Warnings []string `yaml:"-"`
}

// Profile is one platform account: where it is and how to authenticate.
type Profile struct {
	APIURL string `yaml:"api_url,omitempty"`
	Token  string `yaml:"token,omitempty"`
	// TokenCommand is run with `sh -c`; its trimmed standard output is the token.
	TokenCommand   string `yaml:"token_command,omitempty"`
	ReadOnly       bool   `yaml:"read_only,omitempty"`
	DefaultProject string `yaml:"default_project,omitempty"`
	AccountID      string `yaml:"account_id,omitempty"`
	// SearchInsecureSkipVerify turns off TLS verification of opensearch services' search
	// interface (a private CA the platform does not return, say); the Search tab says so
	// on screen for as long as it is on.
	SearchInsecureSkipVerify bool `yaml:"search_insecure_skip_verify,omitempty"`
}

// Duration is a time.Duration written in YAML as a Go duration string ("10s", "1m30s").
type Duration time.Duration

// Std returns the value as a time.Duration.
func (d Duration) Std() time.Duration { return time.Duration(d) }

func (d Duration) String() string { return time.Duration(d).String() }

// UnmarshalYAML accepts only duration strings with a unit: a bare number is ambiguous.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: a duration must be a single value such as 10s", n.Line)}}
	}
	v, err := time.ParseDuration(strings.TrimSpace(n.Value))
	if err != nil {
		return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: %q is not a duration (write it with a unit, e.g. 10s or 1m)", n.Line, truncate(n.Value, 40))}}
	}
	*d = Duration(v)
	return nil
}

// MarshalYAML writes the duration string form.
func (d Duration) MarshalYAML() (any, error) { return time.Duration(d).String(), nil }

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
