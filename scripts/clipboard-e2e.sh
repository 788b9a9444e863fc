#!/usr/bin/env bash
# End-to-end check that a copy reaches the person's terminal, wherever svcui runs.
#
# Runs TestEndToEnd in internal/ui/clipboard: for each environment it starts a private tmux
# server (`-f /dev/null`, so tmux's defaults) or GNU screen, attaches a client through
# script(1) with TERM=xterm-256color, runs a probe inside that copies a known value through
# the clipboard package exactly as svcui does, then decodes the OSC 52 found in the
# typescript (what the client's terminal received) and compares. Environments: tmux with
# default options, set-clipboard on and off; a tmux before 3.2 (a shim reporting 3.1c)
# with defaults and set-clipboard on; tmux and screen across SSH; GNU screen; plain SSH.
#
# Needs go, tmux, screen and script(1) (Debian: apt-get install tmux screen bsdutils).
# Unlike `go test ./...`, which skips what is not installed, a missing tool fails here.
# Usage: scripts/clipboard-e2e.sh [go test flags], e.g. -run 'TestEndToEnd/screen'
set -euo pipefail
cd "$(dirname "$0")/.."
SVCUI_CLIPBOARD_E2E=1 exec go test -count=1 -run '^TestEndToEnd$' -v "$@" ./internal/ui/clipboard/
