package config

import (
	"fmt"
	"log/slog"
	"sort"
	"strings"
)

// Mask replaces a secret in every printable form of Settings and Profile.
const Mask = "<redacted>"

func mask(secret string) string {
	if secret == "" {
		return ""
	}
	return Mask
}

// Redacted returns a copy of s whose token is masked, safe to print or log.
func (s Settings) Redacted() Settings {
	s.Token = mask(s.Token)
	return s
}

// String describes s without its token.
func (s Settings) String() string {
	keys := make([]string, 0, len(s.Keys))
	for k := range s.Keys {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return fmt.Sprintf("profile=%q found=%t api_url=%q token=%q token_source=%q read_only=%t default_project=%q account_id=%q refresh=%s theme=%s clipboard=%s no_color=%t no_motion=%t keys=[%s] debug=%t log_file=%q",
		s.ProfileName, s.ProfileFound, s.APIURL, mask(s.Token), s.TokenSource, s.ReadOnly, s.DefaultProject, s.AccountID,
		s.Refresh, s.Theme, s.Clipboard, s.NoColor, s.NoMotion, strings.Join(keys, " "), s.Debug, s.LogFile)
}

// GoString keeps %#v from printing the token.
func (s Settings) GoString() string { return "config.Settings{" + s.String() + "}" }

// LogValue keeps slog from printing the token.
func (s Settings) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("profile", s.ProfileName),
		slog.String("api_url", s.APIURL),
		slog.String("token", mask(s.Token)),
		slog.String("token_source", s.TokenSource),
		slog.Bool("read_only", s.ReadOnly),
		slog.String("default_project", s.DefaultProject),
		slog.Duration("refresh", s.Refresh),
		slog.String("theme", s.Theme),
		slog.String("clipboard", s.Clipboard),
		slog.Bool("no_color", s.NoColor),
		slog.Bool("no_motion", s.NoMotion),
	)
}

// Redacted returns a copy of p whose token and token_command are masked; a command may
// embed a secret (`echo TOKEN`), so it is treated as one.
func (p Profile) Redacted() Profile {
	p.Token = mask(p.Token)
	p.TokenCommand = mask(p.TokenCommand)
	return p
}

// String describes p without its secrets.
func (p Profile) String() string {
	r := p.Redacted()
	return fmt.Sprintf("api_url=%q token=%q token_command=%q read_only=%t default_project=%q account_id=%q",
		r.APIURL, r.Token, r.TokenCommand, r.ReadOnly, r.DefaultProject, r.AccountID)
}

// GoString keeps %#v from printing the token.
func (p Profile) GoString() string { return "config.Profile{" + p.String() + "}" }

// LogValue keeps slog from printing the token.
func (p Profile) LogValue() slog.Value {
	r := p.Redacted()
	return slog.GroupValue(
		slog.String("api_url", r.APIURL),
		slog.String("token", r.Token),
		slog.String("token_command", r.TokenCommand),
		slog.Bool("read_only", r.ReadOnly),
		slog.String("default_project", r.DefaultProject),
	)
}
