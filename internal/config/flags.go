package config

import (
	"flag"
	"time"
)

// Names of the command-line flags that feed Settings.
const (
	FlagProfile  = "profile"
	FlagAPIURL   = "api-url"
	FlagReadOnly = "read-only"
	FlagTheme    = "theme"
	FlagRefresh  = "refresh"
	FlagDebug    = "debug"
	FlagLogFile  = "log-file"
	FlagNoMotion = "no-motion"
)

// Flags are the command-line values. A flag overrides the environment and the file only
// when it was given: Capture records that after parsing, and MarkSet does it by hand.
// A non-zero value also counts as given, so a literal Flags{Theme: "dark"} works as expected.
type Flags struct {
	Profile  string
	APIURL   string
	ReadOnly bool
	Theme    string
	Refresh  time.Duration
	Debug    bool
	LogFile  string
	NoMotion bool

	set map[string]bool
}

// Register defines the flags on fs, bound to f's fields.
func (f *Flags) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.Profile, FlagProfile, "", "profile of the config file to use (env SVCUI_PROFILE)")
	fs.StringVar(&f.APIURL, FlagAPIURL, "", "platform API URL (env SVCUI_API_URL)")
	fs.BoolVar(&f.ReadOnly, FlagReadOnly, false, "hide and refuse every mutating action")
	fs.StringVar(&f.Theme, FlagTheme, "", "colour theme: auto, dark or light (default auto: asks the terminal, and tmux; GNU screen cannot be asked, so say light there on a light background)")
	fs.DurationVar(&f.Refresh, FlagRefresh, 0, "live refresh interval, at least 1s (default 10s)")
	fs.BoolVar(&f.Debug, FlagDebug, false, "write a debug log (default file under $XDG_STATE_HOME/svcui/)")
	fs.StringVar(&f.LogFile, FlagLogFile, "", "write the log to this file")
	fs.BoolVar(&f.NoMotion, FlagNoMotion, false, "no spinners or ticking times: a static glyph, for slow links (config motion: false)")
}

// Capture records which of the flags were given on the command line; call it after fs.Parse.
func (f *Flags) Capture(fs *flag.FlagSet) {
	fs.Visit(func(fl *flag.Flag) { f.MarkSet(fl.Name) })
}

// MarkSet records that the flag called name was given.
func (f *Flags) MarkSet(name string) {
	if f.set == nil {
		f.set = map[string]bool{}
	}
	f.set[name] = true
}

// IsSet reports whether the flag called name was given (or has a non-zero value).
func (f Flags) IsSet(name string) bool {
	if f.set[name] {
		return true
	}
	switch name {
	case FlagProfile:
		return f.Profile != ""
	case FlagAPIURL:
		return f.APIURL != ""
	case FlagReadOnly:
		return f.ReadOnly
	case FlagTheme:
		return f.Theme != ""
	case FlagRefresh:
		return f.Refresh != 0
	case FlagDebug:
		return f.Debug
	case FlagLogFile:
		return f.LogFile != ""
	case FlagNoMotion:
		return f.NoMotion
	}
	return false
}
