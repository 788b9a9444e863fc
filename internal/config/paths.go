package config

import (
	"os"
	"path/filepath"

	"github.com/adrg/xdg"
)

// FileName is the name of the config file inside the config directory.
const FileName = "config.yaml"

// Getenv looks up an environment variable; os.Getenv in the program, a map in tests.
type Getenv func(string) string

// MapEnv returns a Getenv reading from m (nil means an empty environment).
func MapEnv(m map[string]string) Getenv {
	return func(k string) string { return m[k] }
}

// ConfigDir is $SVCUI_CONFIG_DIR if set, else $XDG_CONFIG_HOME/svcui, else the platform's
// config home (from adrg/xdg). The environment is read at each call, not cached.
func ConfigDir() string { return configDir(os.Getenv) }

// ConfigPath is ConfigDir()/config.yaml.
func ConfigPath() string { return filepath.Join(ConfigDir(), FileName) }

// StateDir is $XDG_STATE_HOME/svcui (logs, query history), else the platform's state home.
func StateDir() string { return stateDir(os.Getenv) }

// DefaultLogFile is StateDir()/svcui.log, used by --debug when --log-file is not given.
func DefaultLogFile() string { return filepath.Join(StateDir(), "svcui.log") }

func configDir(getenv Getenv) string {
	if d := getenv("SVCUI_CONFIG_DIR"); d != "" {
		return filepath.Clean(d)
	}
	return filepath.Join(xdgBase(getenv, "XDG_CONFIG_HOME", xdg.ConfigHome), "svcui")
}

func stateDir(getenv Getenv) string {
	return filepath.Join(xdgBase(getenv, "XDG_STATE_HOME", xdg.StateHome), "svcui")
}

// xdgBase prefers the variable's current value; adrg/xdg caches its values at start-up, so
// its value is only the fallback (it carries the platform default: ~/.config, ~/Library/...).
// The XDG spec says relative paths are invalid and must be ignored.
func xdgBase(getenv Getenv, name, fallback string) string {
	if v := getenv(name); v != "" && filepath.IsAbs(v) {
		return v
	}
	return fallback
}

func joinState(getenv Getenv, name string) string { return filepath.Join(stateDir(getenv), name) }
