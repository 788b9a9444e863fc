#!/bin/sh
# A stand-in client for the tests: records how it was started (argv, environment, the
# private directory's files with their modes and contents) in $STANDIN_LOG, then exits
# with $STANDIN_EXIT, or sleeps when $STANDIN_SLEEP is set (for the signal tests).
PATH=/usr/bin:/bin
if [ "$1" = "--version" ]; then
	echo "${STANDIN_VERSION:-stand-in 1.0}"
	exit 0
fi
{
	echo "prog $(basename "$0")"
	for a in "$@"; do printf 'arg %s\n' "$a"; done
	env | sed 's/^/env /'
	for d in "$STANDIN_PARENT"/svcui-connect-*; do
		[ -d "$d" ] || continue
		printf 'dir %s %s\n' "$(ls -ld "$d" | cut -c1-10)" "$d"
		for f in "$d"/*; do
			[ -f "$f" ] || continue
			printf 'file %s %s\n' "$(ls -l "$f" | cut -c1-10)" "$f"
			sed 's/^/| /' "$f"
		done
	done
	echo "ready"
} >>"$STANDIN_LOG"
if [ -n "$STANDIN_SLEEP" ]; then
	exec sleep 30
fi
exit "${STANDIN_EXIT:-0}"
