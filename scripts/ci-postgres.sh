#!/usr/bin/env bash
# A real PostgreSQL for the end-to-end connect flow (scripts/e2e.d/06-connect.sh).
#
# On Debian as root: installs postgresql and postgresql-client when missing, makes sure a
# cluster runs with ssl=on (Debian's own, with the snakeoil certificate from ssl-cert),
# gives the role svcui_e2e a fresh random password and a database of its own, and prints
# on stdout the URI the flow uses. Progress goes to stderr. The password travels on stdin
# to psql, never in a command line, and is kept (0600, in a 0700 directory) where the
# flow finds it when SVCUI_E2E_PG_URI is not set:
#
#   ${XDG_STATE_HOME:-$HOME/.local/state}/svcui-e2e/pg-uri
#
# sslmode is verify-ca, not verify-full: the snakeoil certificate names a host name (the
# machine's, or localhost; CN and DNS SAN), never 127.0.0.1, so verify-full fails there.
#
# Where it cannot do this (not root, not Debian, no apt-get) it says why, prints nothing
# on stdout and exits 0, and the flow skips. A failure on a machine where it should work
# (apt-get or the cluster failing) exits non-zero. Usage (.ci/run does the first):
#
#   bash scripts/ci-postgres.sh >/dev/null && make e2e
#   export SVCUI_E2E_PG_URI="$(bash scripts/ci-postgres.sh)"
set -euo pipefail

role=svcui_e2e
db=svcui_e2e
ca=/etc/ssl/certs/ssl-cert-snakeoil.pem
state_dir=${XDG_STATE_HOME:-${HOME:-/root}/.local/state}/svcui-e2e
say() { printf 'ci-postgres: %s\n' "$*" >&2; }

if [ "$(id -u)" != 0 ]; then
	say "skipped: installing and configuring PostgreSQL needs root (run as root, or set SVCUI_E2E_PG_URI yourself)"
	exit 0
fi
if [ ! -r /etc/debian_version ] || ! command -v apt-get >/dev/null 2>&1; then
	say "skipped: this is not a Debian machine with apt-get"
	exit 0
fi

# pg_ctlcluster and pg_lsclusters come with postgresql-common; ssl-cert makes the
# snakeoil certificate the default cluster uses; the flow reads processes with ps.
missing=()
if ! command -v pg_lsclusters >/dev/null 2>&1 || ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
	missing+=(postgresql)
fi
command -v psql >/dev/null 2>&1 || missing+=(postgresql-client)
[ -r "$ca" ] || missing+=(ssl-cert)
command -v ps >/dev/null 2>&1 || missing+=(procps)
if [ "${#missing[@]}" -gt 0 ]; then
	say "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The first cluster, made when none exists (a package installed with no cluster, or one
# removed): Debian's postgresql package normally creates <ver>/main itself.
if [ -z "$(pg_lsclusters -h)" ]; then
	ver=$(find /usr/lib/postgresql -mindepth 1 -maxdepth 1 -printf '%f\n' | sort -V | tail -1)
	say "creating cluster $ver/main"
	pg_createcluster "$ver" main >/dev/null
fi
# An online cluster when there is one, else the first.
read -r ver cluster port status _ < <(pg_lsclusters -h | sort -k4,4r | head -1)

conf=/etc/postgresql/$ver/$cluster/postgresql.conf
if ! grep -Eq "^[[:space:]]*ssl[[:space:]]*=[[:space:]]*'?on'?" "$conf"; then
	say "turning ssl on in $conf (snakeoil certificate)"
	[ -r "$ca" ] || { say "$ca is missing; install ssl-cert (make-ssl-cert generate-default-snakeoil)"; exit 1; }
	{
		echo "ssl = on"
		echo "ssl_cert_file = '$ca'"
		echo "ssl_key_file = '/etc/ssl/private/ssl-cert-snakeoil.key'"
	} >>"$conf"
	[ "$status" = down ] || pg_ctlcluster "$ver" "$cluster" restart
	status=$(pg_lsclusters -h "$ver" "$cluster" | awk '{print $4}')
fi
case $status in
online*) ;;
*)
	say "starting cluster $ver/$cluster"
	pg_ctlcluster "$ver" "$cluster" start
	;;
esac

# The role and its database, with a fresh password each run (kept in the file below), so
# a rerun never depends on what an earlier one left. The SQL, password included, goes on
# stdin.
password=$(head -c 18 /dev/urandom | base64 | tr -d '\n/+=')
runuser -u postgres -- psql -X -q -v ON_ERROR_STOP=1 -p "$port" -d postgres >/dev/null <<SQL
SELECT 'CREATE ROLE $role LOGIN' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$role')\gexec
ALTER ROLE $role LOGIN PASSWORD '$password';
SELECT 'CREATE DATABASE $db OWNER $role' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '$db')\gexec
SQL

uri="postgres://$role:$password@127.0.0.1:$port/$db?sslmode=verify-ca&sslrootcert=$ca"

# Check the URI the way the console will use it (TLS verified against the snakeoil CA)
# before handing it out; the password goes through the environment.
if ! ssl=$(PGPASSWORD=$password psql -X -At "host=127.0.0.1 port=$port dbname=$db user=$role sslmode=verify-ca sslrootcert=$ca" \
	-c 'SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()' 2>&1); then
	say "cannot log in as $role over TLS: $ssl"
	exit 1
fi
[ "$ssl" = t ] || { say "the connection as $role is not encrypted"; exit 1; }

umask 077
mkdir -p "$state_dir"
chmod 700 "$state_dir"
printf '%s\n' "$uri" >"$state_dir/pg-uri"
say "PostgreSQL $ver/$cluster on 127.0.0.1:$port with TLS; role and database $role (URI in $state_dir/pg-uri)"
printf '%s\n' "$uri"
