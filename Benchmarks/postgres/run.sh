#!/usr/bin/env bash
# `make bench-postgres` (docs/STORAGE.md#postgresql-benchmarks): starts a PostgreSQL server of its
# own (initdb into a temporary folder, listening on a Unix socket there only, default durability
# settings), runs quarry-bench-postgres against its empty `postgres` database and stops it.
# Usage: Benchmarks/postgres/run.sh ROWS REPEAT
set -euo pipefail
rows=$1
repeat=$2
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin): run make deps" >&2; exit 1; }
folder=$(mktemp -d /tmp/quarry-bench-pg-XXXXXX)
chmod 755 "$folder"
# initdb refuses to run as root: the server then runs as the postgres user, on a folder it owns.
as=()
user=$(id -un)
if [ "$(id -u)" = 0 ]; then
    chown postgres:postgres "$folder"
    as=(/usr/sbin/runuser -u postgres --)
    user=postgres
fi
stop() {
    "${as[@]}" "$bin/pg_ctl" -D "$folder/data" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$folder"
}
trap stop EXIT
"${as[@]}" "$bin/initdb" -D "$folder/data" -U "$user" --auth=trust -E UTF8 --locale=C >/dev/null
"${as[@]}" "$bin/pg_ctl" -D "$folder/data" -l "$folder/log" -w -t 60 \
    -o "-k $folder -p 5432 -c listen_addresses='' -c shared_buffers=512MB" start >/dev/null
swift run -c release --package-path "$(dirname "$0")/.." quarry-bench-postgres \
    --store "postgresql://$user@localhost:5432/postgres?host=$folder" --rows "$rows" --repeat "$repeat"
