#!/usr/bin/env bash
# End-to-end tests as a person would run them: the built binary in tmux against
# `svcui sandbox`, driven with send-keys and read with capture-pane.
#
# Each flow is a file in scripts/e2e.d/ (run in name order) defining one function named
# after the file (01-projects.sh → flow_projects). Flows use the helpers below and fail
# by returning non-zero. The script prints "N passed, N failed" and exits non-zero on any
# failure. Usage: scripts/e2e.sh [flow-name-substring]
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
BIN=${SVCUI_BIN:-$root/bin/svcui}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/svcui-e2e.XXXXXX")
TMUX_SOCKET="svcui-e2e-$$"
SANDBOX_PIDS=()
export TERM=${TERM:-xterm-256color}
[ "$TERM" = dumb ] && export TERM=xterm-256color

tm() { tmux -L "$TMUX_SOCKET" -f /dev/null "$@"; }

# pane_processes [SESSION]: the process of every pane (of SESSION's, when given) and the
# processes under it (the consoles).
pane_processes() {
	local roots
	if [ $# -gt 0 ]; then
		roots=$(tm list-panes -s -t "$1" -F '#{pane_pid}' 2>/dev/null) || return 0
	else
		roots=$(tm list-panes -a -F '#{pane_pid}' 2>/dev/null) || return 0
	fi
	ps -e -o pid=,ppid= | awk -v roots="$roots" '
		BEGIN { n = split(roots, r, " "); for (i = 1; i <= n; i++) keep[r[i]] = 1 }
		{ parent[$1] = $2 }
		END {
			for (grew = 1; grew; ) { grew = 0; for (p in parent) if (!(p in keep) && (parent[p] in keep)) { keep[p] = 1; grew = 1 } }
			for (p in keep) print p
		}'
}

# wait_ended PID...: waits (10 s at most) until each has ended. A console saves its state
# into $WORK as it leaves: removing $WORK under it fails ("Directory not empty").
wait_ended() {
	local pid i
	for pid in "$@"; do
		for i in $(seq 1 100); do
			ps -o stat= -p "$pid" 2>/dev/null | grep -qv '^Z' || break
			sleep 0.1
		done
	done
}

# end_consoles: ends the tmux server and waits for the consoles under it to leave.
end_consoles() {
	local pids
	pids=$(pane_processes)
	tm kill-server >/dev/null 2>&1 || true
	# shellcheck disable=SC2086 # one process id a word
	wait_ended $pids
}

cleanup() {
	end_consoles
	for pid in "${SANDBOX_PIDS[@]}"; do kill "$pid" >/dev/null 2>&1 || true; done
	wait >/dev/null 2>&1 || true
	rm -rf "$WORK"
}
trap cleanup EXIT

log() { printf '  %s\n' "$*"; }

# start_sandbox [sandbox flags...]: starts `svcui sandbox` on a free port and sets
# SANDBOX_URL, ADMIN_TOKEN and DEV_TOKEN from its four-line banner (URL, two tokens,
# account id).
start_sandbox() {
	local out="$WORK/sandbox.$RANDOM.out"
	"$BIN" sandbox --addr 127.0.0.1:0 "$@" >"$out" 2>"$out.err" &
	SANDBOX_PIDS+=($!)
	local i
	for i in $(seq 1 100); do
		if [ "$(wc -l <"$out")" -ge 4 ]; then break; fi
		sleep 0.1
	done
	SANDBOX_URL=$(sed -n 's/^svcui sandbox listening on //p' "$out")
	ADMIN_TOKEN=$(sed -n 's/^admin token: //p' "$out")
	DEV_TOKEN=$(sed -n 's/^developer token: //p' "$out")
	if [ -z "$SANDBOX_URL" ] || [ -z "$ADMIN_TOKEN" ] || [ -z "$DEV_TOKEN" ]; then
		echo "sandbox did not print its banner:"; cat "$out" "$out.err"; return 1
	fi
	grep -q '^account id: ' "$out" || { echo "sandbox banner has no account id:"; cat "$out"; return 1; }
	[ "$(wc -l <"$out")" -eq 4 ] || { echo "sandbox banner is not exactly four lines:"; cat "$out"; return 1; }
}

# start_ui SESSION WIDTH HEIGHT TOKEN [svcui flags...]: runs the TUI in a detached tmux
# session against $SANDBOX_URL with a private config dir.
start_ui() {
	local s=$1 w=$2 h=$3 token=$4; shift 4
	local cfg="$WORK/config-$s"
	mkdir -p "$cfg"
	# The token goes into the private config (0600), never onto a command line that `ps`
	# shows: the same rule the console keeps for every secret.
	(umask 077; printf 'profiles:\n  e2e:\n    api_url: %s\n    token: %s\n' "$SANDBOX_URL" "$token" >"$cfg/config.yaml")
	local cmd
	cmd=$(printf '%q ' env SVCUI_CONFIG_DIR="$cfg" XDG_STATE_HOME="$WORK/state-$s" SVCUI_CLIPBOARD=osc52 "$BIN" --profile e2e --log-file "$WORK/$s.log" "$@")
	tm new-session -d -s "$s" -x "$w" -y "$h" "$cmd; sleep 30"
}

screen() { tm capture-pane -p -t "$1"; }

send() { local s=$1; shift; tm send-keys -t "$s" "$@"; }

# type_text SESSION TEXT: types literal text.
type_text() { tm send-keys -t "$1" -l "$2"; }

# wait_for SESSION REGEX [SECONDS]: polls the screen until REGEX (grep -E) matches.
wait_for() {
	local s=$1 re=$2 secs=${3:-10} i
	for i in $(seq 1 $((secs * 10))); do
		if screen "$s" | grep -Eq -- "$re"; then return 0; fi
		sleep 0.1
	done
	echo "    timed out after ${secs}s waiting for /$re/ on screen:"
	screen "$s" | sed 's/^/    | /'
	return 1
}

# wait_gone SESSION REGEX [SECONDS]: polls until REGEX no longer matches.
wait_gone() {
	local s=$1 re=$2 secs=${3:-10} i
	for i in $(seq 1 $((secs * 10))); do
		if ! screen "$s" | grep -Eq -- "$re"; then return 0; fi
		sleep 0.1
	done
	echo "    timed out after ${secs}s waiting for /$re/ to go away:"
	screen "$s" | sed 's/^/    | /'
	return 1
}

# assert_screen SESSION REGEX / refute_screen SESSION REGEX: check the screen now.
assert_screen() {
	screen "$1" | grep -Eq -- "$2" && return 0
	echo "    expected /$2/ on screen:"; screen "$1" | sed 's/^/    | /'; return 1
}
refute_screen() {
	screen "$1" | grep -Eq -- "$2" || return 0
	echo "    did not expect /$2/ on screen:"; screen "$1" | sed 's/^/    | /'; return 1
}

# assert_fits SESSION: nothing on screen wrapped past the pane's width (capture-pane -J
# joins wrapped lines back, so a joined line wider than the pane is an overflow).
assert_fits() {
	local w bad=0 line n
	w=$(tm display-message -p -t "$1" '#{pane_width}')
	while IFS= read -r line; do
		n=$(printf '%s' "$line" | LC_ALL=C.UTF-8 wc -L)
		if [ "$n" -gt "$w" ]; then echo "    line wider than $w ($n): $line"; bad=1; fi
	done < <(tm capture-pane -p -J -t "$1")
	return $bad
}

# advance SESSION TITLE [KEY...]: sends the keys (default Enter) and waits until the
# form's focus is on the field titled TITLE (huh marks it with a thick bar), so the
# next keys reach that field.
advance() {
	local s=$1 title=$2; shift 2
	[ $# -gt 0 ] || set -- Enter
	send "$s" "$@"
	wait_for "$s" "┃ $title" 5
}

# filter_to SESSION TEXT: applies the table filter TEXT and waits until it is in force.
filter_to() {
	send "$1" '/'; wait_for "$1" '^/' 5 || return 1
	type_text "$1" "$2"; send "$1" Enter
	wait_for "$1" "filter “$2”" 5
}

# stop_ui SESSION: ends the session and waits for its console to leave.
stop_ui() {
	local pids
	pids=$(pane_processes "$1")
	tm kill-session -t "$1" >/dev/null 2>&1 || true
	# shellcheck disable=SC2086 # one process id a word
	wait_ended $pids
}

[ -x "$BIN" ] || { echo "e2e: $BIN is missing; run make build first"; exit 2; }
command -v tmux >/dev/null || { echo "e2e: tmux is required (apt-get install -y tmux)"; exit 2; }

filter=${1:-}
passed=0 failed=0 names=()
for f in "$here"/e2e.d/*.sh; do
	[ -e "$f" ] || continue
	name=$(basename "$f" .sh); name=${name#*-}
	[ -n "$filter" ] && [[ "$name" != *"$filter"* ]] && continue
	# shellcheck source=/dev/null
	source "$f"
	echo "e2e: $name"
	start=$SECONDS
	if "flow_${name//-/_}"; then
		passed=$((passed + 1)); echo "  ok ($((SECONDS - start))s)"
	else
		failed=$((failed + 1)); names+=("$name"); echo "  FAILED ($((SECONDS - start))s)"
		for l in "$WORK"/*.log; do [ -s "$l" ] && { echo "  log $l:"; tail -n 20 "$l" | sed 's/^/    /'; }; done
	fi
	end_consoles
	for pid in "${SANDBOX_PIDS[@]}"; do kill "$pid" >/dev/null 2>&1 || true; done
	SANDBOX_PIDS=()
done
echo "e2e: $passed passed, $failed failed"
[ "$failed" -eq 0 ] || { echo "e2e: failed flows: ${names[*]}"; exit 1; }
