# Connect: a real psql against a real PostgreSQL (issue 12 §1). The sandbox answers
# pg-main's connection details from the server's URI (--attach pg-main=env:NAME, so the
# password is in no command line); o on pg-main's detail suspends the console and runs
# psql, \conninfo on screen shows the database, user and an SSL connection, and \q comes
# back to the same detail. While psql runs, from outside: the password is in no process's
# argv nor in psql's environment, and psql's files are 0600 in a 0700 directory, which is
# gone once it exits.
#
# The server comes from SVCUI_E2E_PG_URI or the file scripts/ci-postgres.sh writes; with
# neither, or without psql, or with the server down, the flow says why and skips.

# connect_pg_uri prints the URI of the test server, or nothing.
connect_pg_uri() {
	if [ -n "${SVCUI_E2E_PG_URI:-}" ]; then printf '%s' "$SVCUI_E2E_PG_URI"; return; fi
	local f=${XDG_STATE_HOME:-${HOME:-/root}/.local/state}/svcui-e2e/pg-uri
	[ -r "$f" ] && head -n 1 "$f"
}

# connect_uri_part URI PART: host, port or password of a postgres:// URI, with bash alone
# (the password goes through no command's argv).
connect_uri_part() {
	local rest=${1#*://} userinfo hostport
	rest=${rest%%[/?]*}
	userinfo=${rest%@*} hostport=${rest##*@}
	local host=$hostport port=5432
	if [[ $hostport == \[*\]* ]]; then # [::1]:5432
		host=${hostport#[} host=${host%%]*} hostport=${hostport#*]}
		[[ $hostport == :* ]] && port=${hostport#:}
	elif [[ $hostport == *:* ]]; then
		host=${hostport%:*} port=${hostport##*:}
	fi
	case $2 in
	host) printf '%s' "${host:-localhost}" ;;
	port) printf '%s' "${port:-5432}" ;;
	password) [[ $userinfo == *:* ]] && { local p=${userinfo#*:}; printf '%b' "${p//%/\\x}"; } ;;
	esac
}

# connect_temp_parent is where internal/connect makes its private directory.
connect_temp_parent() {
	if [[ ${XDG_RUNTIME_DIR:-} == /* ]] && [ -d "$XDG_RUNTIME_DIR" ]; then
		printf '%s' "$XDG_RUNTIME_DIR"
	else
		printf '%s' "${TMPDIR:-/tmp}"
	fi
}

# connect_child PID COMM: the pid of PID's child named COMM.
connect_child() { ps -o pid=,comm= --ppid "$1" | awk -v c="$2" '$2 == c { print $1; exit }'; }

flow_connect() {
	command -v psql >/dev/null 2>&1 || { log "skipped: psql is not installed (apt-get install postgresql-client)"; return 0; }
	command -v ps >/dev/null 2>&1 || { log "skipped: ps is not installed (apt-get install procps)"; return 0; }
	local uri; uri=$(connect_pg_uri)
	if [ -z "$uri" ]; then
		if command -v pg_lsclusters >/dev/null 2>&1 && pg_lsclusters -h 2>/dev/null | grep -q online; then
			log "skipped: PostgreSQL runs here but no test role is known; run scripts/ci-postgres.sh as root, or set SVCUI_E2E_PG_URI"
		else
			log "skipped: no PostgreSQL server; set SVCUI_E2E_PG_URI, or run scripts/ci-postgres.sh as root"
		fi
		return 0
	fi
	local host port pw
	host=$(connect_uri_part "$uri" host) port=$(connect_uri_part "$uri" port) pw=$(connect_uri_part "$uri" password)
	if ! timeout 3 bash -c ': <>"/dev/tcp/$0/$1"' "$host" "$port" 2>/dev/null; then
		log "skipped: no PostgreSQL server answers on $host:$port"
		return 0
	fi
	[ -n "$pw" ] || { log "the test URI has no password, so nothing can be checked against argv"; return 1; }

	# Only the sandbox gets the URI: the console (and psql under it) must not inherit it.
	local -x SVCUI_E2E_PG_URI=
	SVCUI_E2E_PG_URI=$uri start_sandbox --attach pg-main=env:SVCUI_E2E_PG_URI || return 1
	start_ui c 120 40 "$ADMIN_TOKEN" || return 1
	wait_for c 'acme-prod' 10 || return 1

	log "open pg-main: its connection details are the real server's"
	send c 2; wait_for c 'pg-main' 10 || return 1
	filter_to c 'pg-main' || return 1
	send c Enter
	wait_for c 'Connection' 10 || return 1
	wait_for c "Host +$host" 10 || return 1
	wait_for c 'o connect' 10 || return 1
	local before; before=$(screen c | sed '1d;$d' | sed '$d')

	log "o runs psql with the console suspended"
	send c o
	wait_for c '^[A-Za-z0-9_]+=[>#] *$' 20 || return 1

	log "from outside: argv, psql's environment, the private files"
	local ui console psql
	ui=$(tm display-message -p -t c '#{pane_pid}')
	console=$(connect_child "$ui" svcui)
	psql=$(connect_child "$console" psql)
	[ -n "$psql" ] || { log "no psql process under the console (pid ${console:-none})"; return 1; }
	local args; args=$(ps -eo args)
	[[ $args != *"$pw"* ]] || { log "the password is in a process's argv"; return 1; }
	local env; env=$(tr '\0' '\n' <"/proc/$psql/environ")
	[[ $env != *"$pw"* ]] || { log "the password is in psql's environment"; return 1; }
	[[ $env != *SVCUI_TOKEN=* ]] || { log "psql inherited the console's platform token"; return 1; }
	local dirs=("$(connect_temp_parent)"/svcui-connect-"$console"-*)
	[ "${#dirs[@]}" -eq 1 ] && [ -d "${dirs[0]}" ] || { log "expected one private directory, found: ${dirs[*]}"; return 1; }
	local dir=${dirs[0]} f
	[ "$(stat -c %a "$dir")" = 700 ] || { log "$dir is $(stat -c %a "$dir"), not 700"; return 1; }
	[[ $env == *"PGPASSFILE=$dir/pgpass"* ]] || { log "psql's PGPASSFILE is not $dir/pgpass"; return 1; }
	for f in "$dir"/pgpass "$dir"/ca.pem; do
		[ -f "$f" ] || { log "$f is missing"; return 1; }
		[ "$(stat -c %a "$f")" = 600 ] || { log "$f is $(stat -c %a "$f"), not 600"; return 1; }
	done
	grep -q "sslrootcert=$dir/ca.pem" "/proc/$psql/cmdline" || { log "psql does not verify against $dir/ca.pem"; return 1; }
	log "  psql's argv: $(tr '\0' ' ' <"/proc/$psql/cmdline")"
	log "  $dir ($(stat -c %a "$dir")): $(stat -c '%n %a' "$dir"/* | sed "s|$dir/||" | paste -sd ' ')"

	log "\\conninfo: the database, the user and TLS"
	type_text c '\conninfo'; send c Enter
	wait_for c "^You are connected to database \"[^\"]+\" as user \"[^\"]+\" on host \"$host\".* at port \"$port\"" 10 || return 1
	local info; info=$(screen c | grep -A1 '^You are connected to database')
	printf '%s\n' "$info" | sed 's/^/    | /'
	[[ $(printf '%s\n' "$info" | sed -n 2p) == "SSL connection (protocol: TLS"* ]] || { log "\\conninfo shows no SSL connection"; return 1; }

	log "\\q comes back to pg-main's detail, as it was"
	type_text c '\q'; send c Enter
	wait_for c 'Back from psql \(pg-main\)' 10 || return 1
	local after; after=$(screen c | sed '1d;$d' | sed '$d')
	[ "$before" = "$after" ] || { log "the detail changed:"; diff <(printf '%s\n' "$before") <(printf '%s\n' "$after") | sed 's/^/    /'; return 1; }
	[ ! -e "$dir" ] || { log "$dir is still there after psql exited"; return 1; }
	send c Escape
	wait_for c 'filter “pg-main”' 5 || return 1
	stop_ui c
}
