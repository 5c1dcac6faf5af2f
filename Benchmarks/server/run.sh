#!/usr/bin/env bash
# The server load test (`make bench-server`, docs/SERVER.md#load-test): wrk on loopback against
# `quarry serve` over 1,000,000 Person objects, in memory and in the SQLite store, without and
# with indexes. Prints a Markdown table: requests/s and p50/p99 latency for each query.
# Usage: Benchmarks/server/run.sh QUARRY DATA_FILE STORE_DIR SECONDS CONNECTIONS
set -euo pipefail
quarry=$1
data=$2
stores=$3
seconds=$4
connections=$5
here=$(dirname "$0")
app=bench
log=$(mktemp)
server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -f "$log"' EXIT

indexes=(--index Person.name --index Person.score --index Person.city --index City.population)

# The SQLite stores, made once: one without indexes, one with them declared.
if [ ! -f "$stores/plain.db" ]; then
    echo "importing $data into $stores/plain.db (once)" >&2
    "$quarry" import --data "$data" --store "sqlite:$stores/plain.db" >&2
fi
if [ ! -f "$stores/indexed.db" ]; then
    echo "importing $data into $stores/indexed.db with indexes (once)" >&2
    "$quarry" import --data "$data" --store "sqlite:$stores/indexed.db" \
        --index Person.name --index Person.score --index Person.city --index City.population >&2
fi

# Starts the server on a port the system chooses (only 127.0.0.1) and waits for its line.
start() {
    "$quarry" serve --host 127.0.0.1 --port 0 --app-id "$app" --deadline 0 "$@" > "$log" 2>/dev/null &
    server=$!
    port=
    for _ in $(seq 1 1200); do
        port=$(sed -n 's|^quarry serve: listening on http://127.0.0.1:\([0-9]*\)$|\1|p' "$log")
        [ -n "$port" ] && return 0
        kill -0 "$server" 2>/dev/null || { echo "quarry serve $* failed to start" >&2; exit 1; }
        sleep 0.5
    done
    echo "quarry serve $* did not start in 10 minutes" >&2
    exit 1
}

stop() {
    kill "$server"
    wait "$server" 2>/dev/null || true
    server=
}

# wrk's requests/s and its 50% and 99% latencies, for one query.
measure() {
    local label=$1 query=$2
    local out
    out=$(wrk -t2 -c"$connections" -d"${seconds}s" --latency \
        -H "X-Parse-Application-Id: $app" "http://127.0.0.1:$port/parse/classes/Person?$query")
    if echo "$out" | grep -q 'Non-2xx'; then
        echo "$label: the server answered errors:" >&2
        echo "$out" >&2
        exit 1
    fi
    local rps p50 p99
    if echo "$out" | grep -q '^ *0 requests in'; then
        printf '| %s | %s | %s | no answer within %s s | | |\n' "$store" "$indexed" "$label" "$seconds"
        return
    fi
    rps=$(echo "$out" | awk '/^Requests\/sec:/ {printf "%.0f", $2}')
    p50=$(echo "$out" | awk '$1 == "50%" {print $2}')
    p99=$(echo "$out" | awk '$1 == "99%" {print $2}')
    printf '| %s | %s | %s | %s | %s | %s |\n' "$store" "$indexed" "$label" "$rps" "$p50" "$p99"
}

queries() {
    while IFS=$'\t' read -r label query; do
        [ -z "$label" ] || [ "${label:0:1}" = "#" ] && continue
        measure "$label" "$query"
    done < "$here/queries.tsv"
}

echo "| store | indexes | query | requests/s | p50 | p99 |"
echo "|---|---|---|---:|---:|---:|"
store=memory indexed=no; start --data "$data"; queries; stop
store=memory indexed=yes; start --data "$data" "${indexes[@]}"; queries; stop
store=sqlite indexed=no; start --store "sqlite:$stores/plain.db"; queries; stop
store=sqlite indexed=yes; start --store "sqlite:$stores/indexed.db"; queries; stop
