//go:build !unix

package config

import "os/exec"

// ownGroup leaves cmd as it is: only unix has process groups to kill.
func ownGroup(*exec.Cmd) {}
