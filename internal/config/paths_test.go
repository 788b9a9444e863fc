package config

import (
	"path/filepath"
	"testing"
)

func TestPathsFollowEnvironmentAtCallTime(t *testing.T) {
	t.Setenv("SVCUI_CONFIG_DIR", "")
	t.Setenv("XDG_CONFIG_HOME", "/tmp/xdg-config")
	t.Setenv("XDG_STATE_HOME", "/tmp/xdg-state")
	if got := ConfigPath(); got != filepath.Join("/tmp/xdg-config", "svcui", FileName) {
		t.Errorf("ConfigPath = %q", got)
	}
	if got := StateDir(); got != filepath.Join("/tmp/xdg-state", "svcui") {
		t.Errorf("StateDir = %q", got)
	}
	if got := DefaultLogFile(); got != filepath.Join("/tmp/xdg-state", "svcui", "svcui.log") {
		t.Errorf("DefaultLogFile = %q", got)
	}
	t.Setenv("SVCUI_CONFIG_DIR", "/tmp/own-dir/")
	if got := ConfigDir(); got != filepath.Clean("/tmp/own-dir") {
		t.Errorf("ConfigDir with SVCUI_CONFIG_DIR = %q", got)
	}
}

func TestRelativeXDGValuesAreIgnored(t *testing.T) {
	// The XDG spec makes relative values invalid; the platform default is used instead.
	env := MapEnv(map[string]string{"XDG_CONFIG_HOME": "relative/dir", "XDG_STATE_HOME": "rel"})
	if got := configDir(env); got == filepath.Join("relative/dir", "svcui") {
		t.Errorf("relative XDG_CONFIG_HOME used: %q", got)
	}
	if got := stateDir(env); got == filepath.Join("rel", "svcui") {
		t.Errorf("relative XDG_STATE_HOME used: %q", got)
	}
}
