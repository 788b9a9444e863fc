//go:build unix

package config

import (
	"os/exec"
	"syscall"
)

// ownGroup runs cmd in a process group of its own and, when its context ends, kills
// the whole group: killing sh alone left what it started (sleep 1000) running.
// Its standard input is not the terminal, so it is not the terminal's job either.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
