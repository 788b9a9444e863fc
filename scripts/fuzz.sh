#!/usr/bin/env bash
# Runs every Fuzz target of every package for FUZZTIME each (default 10s). A failing target
# does not stop the others: the script ends with a summary of every failure (target, package,
# the input that failed) and exits 1 if there was any.
#
# Environment: GO (default go), FUZZTIME (default 10s), FUZZMINIMIZETIME (default 5s; Go's
# own default of 60s can spend a short FUZZTIME minimizing instead of fuzzing).
# Usage: scripts/fuzz.sh [package-pattern ...]   (default ./...)
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-10s}
FUZZMINIMIZETIME=${FUZZMINIMIZETIME:-5s}
logs=$(mktemp -d "${TMPDIR:-/tmp}/svcui-fuzz.XXXXXX")

ran=0
failures=()

summary() {
	echo
	echo "fuzz: $ran targets run, $FUZZTIME each, ${#failures[@]} failed (logs in $logs)"
	local f
	for f in "${failures[@]}"; do
		echo "  FAIL $f"
	done
}
trap 'echo; echo "fuzz: interrupted"; summary; exit 130' INT TERM

# failing_input prints where the input that made target fail lives, relative to the
# repository: the file the fuzzer wrote, or the seed corpus entry that failed.
failing_input() { # log dir target
	local log=$1 dir=$2 target=$3 written seed
	written=$(sed -n 's/^.*Failing input written to \(testdata\/fuzz\/[^ ]*\).*$/\1/p' "$log" | tail -n1)
	if [ -n "$written" ]; then
		echo "${dir#"$root"/}/$written"
		return
	fi
	seed=$(sed -n "s/^failure while testing seed corpus entry: $target\/\(.*\)\$/\1/p" "$log" | head -n1)
	if [ -n "$seed" ] && [ -f "$dir/testdata/fuzz/$target/$seed" ]; then
		echo "${dir#"$root"/}/testdata/fuzz/$target/$seed"
	elif [ -n "$seed" ]; then
		echo "$seed (an f.Add seed in the test)"
	elif grep -qE '\[build failed\]|^vet: ' "$log"; then
		echo "none: the tests did not build or go vet failed"
	else
		echo "none recorded"
	fi
}

[ $# -gt 0 ] || set -- ./...
packages=$("$GO" list -f '{{.ImportPath}} {{.Dir}}' "$@") || { echo "fuzz: go list failed" >&2; exit 1; }

while read -r pkg dir; do
	# Only packages whose tests define a Fuzz function; listing compiles the test binary.
	grep -qs '^func Fuzz' "$dir"/*_test.go || continue
	if ! targets=$("$GO" test -list '^Fuzz' "$pkg" 2>"$logs/list.err" </dev/null); then
		cp "$logs/list.err" "$logs/${pkg//\//_}.list.log"
		failures+=("(listing) $pkg: the tests do not build; log: $logs/${pkg//\//_}.list.log")
		echo "== $pkg: the tests do not build" >&2
		continue
	fi
	for target in $(grep '^Fuzz' <<<"$targets"); do
		ran=$((ran + 1))
		log="$logs/${pkg//\//_}.$target.log"
		echo "== $target in $pkg"
		"$GO" test -run '^$' -fuzz "^$target\$" -fuzztime "$FUZZTIME" -fuzzminimizetime "$FUZZMINIMIZETIME" "$pkg" </dev/null 2>&1 | tee "$log"
		if [ "${PIPESTATUS[0]}" -ne 0 ]; then
			failures+=("$target $pkg input: $(failing_input "$log" "$dir" "$target"); log: $log")
		fi
	done
done <<<"$packages"

summary
[ ${#failures[@]} -eq 0 ]
