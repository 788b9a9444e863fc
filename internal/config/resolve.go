package config

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Where a token came from; shown by the UI so a user knows what to change.
const (
	TokenFromEnv     = "env"
	TokenFromProfile = "profile"
	TokenFromCommand = "token_command"
)

// Settings are the effective values after merging flags, environment, file and defaults.
type Settings struct {
	ProfileName string
	// ProfileFound is false when the profile does not exist in the file yet (a first run);
	// the welcome screen saves under ProfileName.
	ProfileFound bool

	APIURL string // empty when nothing gives one: the UI shows the welcome screen
	Token  string
	// TokenSource is TokenFromEnv, TokenFromProfile, TokenFromCommand, or "" without a token.
	TokenSource string

	ReadOnly       bool
	DefaultProject string
	AccountID      string
	// SearchInsecure is the profile's search_insecure_skip_verify.
	SearchInsecure bool

	Refresh   time.Duration
	Theme     string // auto, dark or light
	Clipboard string // auto, native, osc52 or off
	TimeZone  string // UTC or local: where search results show times
	NoColor   bool
	// NoMotion turns spinners and ticking times off (--no-motion, or motion: false).
	NoMotion bool
	Keys     map[string][]string

	Debug   bool
	LogFile string // empty: no log at all
}

// Configured reports whether there is enough to talk to the platform; without it the
// console opens the welcome screen.
func (s Settings) Configured() bool { return s.APIURL != "" && s.Token != "" }

// ResolveContext merges flags, environment and file (nil for none) with the precedence
// flags > environment > config file > defaults, and fetches the token, running the
// profile's token_command (bounded by ctx) when that is where the token comes from.
func ResolveContext(ctx context.Context, flags Flags, getenv Getenv, file *Config) (Settings, error) {
	if getenv == nil {
		getenv = MapEnv(nil)
	}
	if file == nil {
		file = &Config{}
	}
	env := func(k string) string { return strings.TrimSpace(getenv(k)) }

	s := Settings{
		Refresh:   DefaultRefresh,
		Theme:     DefaultTheme,
		Clipboard: DefaultClipboard,
		Debug:     flags.Debug,
		NoColor:   getenv("NO_COLOR") != "", // no-color.org: present and not empty
		NoMotion:  flags.NoMotion || file.Motion != nil && !*file.Motion,
	}

	name, err := chooseProfile(flags, env, file)
	if err != nil {
		return Settings{}, err
	}
	s.ProfileName = name
	prof, found := file.Profiles[name]
	s.ProfileFound = found
	s.ReadOnly = prof.ReadOnly || flags.ReadOnly // either one makes it read-only; a flag cannot loosen a profile
	s.DefaultProject = prof.DefaultProject
	s.AccountID = prof.AccountID
	s.SearchInsecure = prof.SearchInsecureSkipVerify

	switch {
	case flags.IsSet(FlagAPIURL):
		if err := ValidateAPIURL(flags.APIURL); err != nil {
			return Settings{}, fmt.Errorf("--api-url %v", err)
		}
		s.APIURL = NormalizeAPIURL(flags.APIURL)
	case env("SVCUI_API_URL") != "":
		if err := ValidateAPIURL(env("SVCUI_API_URL")); err != nil {
			return Settings{}, fmt.Errorf("SVCUI_API_URL %v", err)
		}
		s.APIURL = NormalizeAPIURL(env("SVCUI_API_URL"))
	case prof.APIURL != "":
		s.APIURL = NormalizeAPIURL(prof.APIURL)
	}

	switch {
	case flags.IsSet(FlagRefresh):
		if flags.Refresh < MinRefresh {
			return Settings{}, fmt.Errorf("--refresh %s is below the minimum of %s", flags.Refresh, MinRefresh)
		}
		s.Refresh = flags.Refresh
	case file.Refresh != 0:
		s.Refresh = file.Refresh.Std()
	}

	switch {
	case flags.IsSet(FlagTheme):
		if !oneOf(flags.Theme, themes) {
			return Settings{}, fmt.Errorf("--theme %q is not one of %s", truncate(flags.Theme, 40), strings.Join(themes, ", "))
		}
		s.Theme = flags.Theme
	case file.Theme != "":
		s.Theme = file.Theme
	}

	switch v := env("SVCUI_CLIPBOARD"); {
	case v != "":
		if !oneOf(v, clipboardModes) {
			return Settings{}, fmt.Errorf("SVCUI_CLIPBOARD %q is not one of %s", truncate(v, 40), strings.Join(clipboardModes, ", "))
		}
		s.Clipboard = v
	case file.Clipboard != "":
		s.Clipboard = file.Clipboard
	}
	s.TimeZone = "UTC"
	if file.TimeZone != "" {
		s.TimeZone = file.TimeZone
	}

	if len(file.Keys) > 0 {
		s.Keys = make(map[string][]string, len(file.Keys))
		for action, keys := range file.Keys {
			s.Keys[action] = append([]string{}, keys...)
		}
	}

	switch {
	case flags.IsSet(FlagLogFile):
		s.LogFile = flags.LogFile
	case flags.Debug:
		s.LogFile = joinState(getenv, "svcui.log")
	}

	// The token last: token_command may take a while, and an error above should not wait for it.
	switch {
	case env("SVCUI_TOKEN") != "":
		s.Token, s.TokenSource = env("SVCUI_TOKEN"), TokenFromEnv
	case prof.Token != "":
		s.Token, s.TokenSource = strings.TrimSpace(prof.Token), TokenFromProfile
	case prof.TokenCommand != "":
		tok, err := RunTokenCommand(ctx, prof.TokenCommand)
		if err != nil {
			return Settings{}, fmt.Errorf("profile %q: %w", name, err)
		}
		s.Token, s.TokenSource = tok, TokenFromCommand
	}
	return s, nil
}

// chooseProfile picks the profile name: --profile, then SVCUI_PROFILE, then the file's
// `profile`, then the only profile, then "default".
func chooseProfile(flags Flags, env Getenv, file *Config) (string, error) {
	var name, from string
	switch {
	case flags.IsSet(FlagProfile):
		name, from = flags.Profile, "--profile"
	case env("SVCUI_PROFILE") != "":
		name, from = env("SVCUI_PROFILE"), "SVCUI_PROFILE"
	case file.DefaultProfile != "":
		name, from = file.DefaultProfile, "the config file's profile setting"
	}
	if from != "" {
		if err := validateProfileName(name); err != nil {
			return "", fmt.Errorf("%s: %w", from, err)
		}
		// With no profiles at all this is a first run: the welcome screen will create it.
		if _, ok := file.Profiles[name]; !ok && len(file.Profiles) > 0 {
			return "", fmt.Errorf("profile %q (from %s) is not defined in the config file%s",
				truncate(name, 40), from, available(file.Profiles))
		}
		return name, nil
	}
	switch len(file.Profiles) {
	case 0:
		return DefaultProfileName, nil
	case 1:
		return profileNames(file.Profiles)[0], nil
	}
	if _, ok := file.Profiles[DefaultProfileName]; ok {
		return DefaultProfileName, nil
	}
	return "", fmt.Errorf("the config file has several profiles%s and none is chosen: set `profile: NAME` in it, or use --profile or SVCUI_PROFILE",
		available(file.Profiles))
}
