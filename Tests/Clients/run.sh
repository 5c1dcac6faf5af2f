#!/usr/bin/env bash
# Real client SDKs (LeanCloud's Python SDK, qs-parse-rest) against a live `quarry serve` on
# loopback over an empty in-memory database. Usage: Tests/Clients/run.sh QUARRY VENV
set -euo pipefail
quarry=$1
venv=$2
export QUARRY_APP_ID=clients QUARRY_REST_KEY=clients-rest
dir=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$dir"' EXIT
echo '{"Todo": [], "GameScore": [], "Place": [], "Player": []}' > "$dir/empty.json"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$quarry" serve --data "$dir/empty.json" --port "$port" --app-id "$QUARRY_APP_ID" --rest-key "$QUARRY_REST_KEY" \
    > "$dir/server.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do
    python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/health')" 2>/dev/null && break
    sleep 0.1
done
passed=0
failed=0
here=$(dirname "$0")
if LEANCLOUD_API_SERVER="http://127.0.0.1:$port" "$venv/bin/python" "$here/leancloud_client.py"; then
    passed=$((passed + 1)); else failed=$((failed + 1)); fi
if PARSE_API_ROOT="http://127.0.0.1:$port/parse" "$venv/bin/python" "$here/parse_rest_client.py"; then
    passed=$((passed + 1)); else failed=$((failed + 1)); fi
echo "clients: $passed passed, $failed failed"
[ "$failed" = 0 ]
