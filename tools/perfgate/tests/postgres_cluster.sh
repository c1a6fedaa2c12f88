#!/usr/bin/env bash
# A private PostgreSQL server for a test: a new cluster in FOLDER (initdb), listening only on a Unix socket in that
# folder (no TCP port, so nothing on the machine can clash with it), owned by an unprivileged user when run as root
# (the server refuses to run as root: `nobody`). Trust authentication, for the socket only.
# Usage: postgres_cluster.sh start FOLDER    prints the libpq connection string on stdout
#        postgres_cluster.sh stop FOLDER
# Exit 0 done; 77 PostgreSQL's server programs are not installed or cannot run here (one line says why).
set -euo pipefail
action=$1 folder=$2
skip() { echo "postgres_cluster: $*" >&2; exit 77; }
bindir=""
for candidate in "$(pg_config --bindir 2>/dev/null || true)" /usr/lib/postgresql/*/bin; do
  [[ -n $candidate && -x $candidate/initdb && -x $candidate/pg_ctl ]] && { bindir=$candidate; break; }
done
[[ -n $bindir ]] || skip "no initdb and pg_ctl (Debian's postgresql package; tools/install-deps installs it)"
as_owner=()
if [[ $(id -u) == 0 ]]; then
  command -v setpriv >/dev/null || skip "running as root and no setpriv to run the server as nobody"
  as_owner=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
fi
case $action in
  start)
    mkdir -p "$folder"
    [[ ${#as_owner[@]} -gt 0 ]] && chown nobody:nogroup "$folder"
    "${as_owner[@]}" "$bindir/initdb" -D "$folder/data" -A trust -U perfgate -E UTF8 --no-locale >"$folder/initdb.log" 2>&1 ||
      skip "initdb failed (log: $folder/initdb.log)"
    "${as_owner[@]}" "$bindir/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -t 60 \
      -o "-c listen_addresses='' -c unix_socket_directories='$folder' -c max_connections=100 -c fsync=off" start >/dev/null 2>&1 ||
      skip "the server did not start (log: $folder/server.log)"
    echo "host=$folder port=5432 user=perfgate dbname=postgres"
    ;;
  stop)
    "${as_owner[@]}" "$bindir/pg_ctl" -D "$folder/data" -m immediate -w stop >/dev/null 2>&1 || true
    ;;
  *) echo "usage: postgres_cluster.sh start|stop FOLDER" >&2; exit 2 ;;
esac
