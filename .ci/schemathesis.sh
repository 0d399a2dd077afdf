#!/usr/bin/env bash
# Issue 9 item 12: the API against its OpenAPI document. Starts `arbiter demo` on a free port
# with a temporary database, then runs schemathesis with every check, anonymously and with an
# officer's API token, for a bounded number of cases; any failure fails CI.
# Run from anywhere: `bash .ci/schemathesis.sh` (EXAMPLES=N changes the cases per operation).
set -euo pipefail
cd "$(dirname "$0")/.."

version=4.32.5 # the schemathesis the document was checked with; change it deliberately
examples="${EXAMPLES:-30}"
venv=target/schemathesis-venv

if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
fi
if [ "$("$venv/bin/st" --version 2>/dev/null)" != "st, version $version" ]; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "schemathesis==$version"
fi

cargo build -q -p arbiter-cli
arbiter="${CARGO_TARGET_DIR:-target}/debug/arbiter"  # where cargo built it, a shared target folder too
work="$(mktemp -d)"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"
"$arbiter" demo --bind "127.0.0.1:$port" --db "$work/demo.db" --today 2026-12-02 >"$work/demo.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

answers() {
  python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' \
    "$base/api/v1/openapi.json" 2>/dev/null
}
for _ in $(seq 1 120); do
  answers && break
  if ! kill -0 "$server" 2>/dev/null; then
    cat "$work/demo.log" >&2
    echo "arbiter demo stopped before it answered; its output is above" >&2
    exit 1
  fi
  sleep 0.5
done
answers || { echo "arbiter demo did not answer on $base within a minute" >&2; exit 1; }

# The GTHSCL President's token: the writes then reach the permission table and the report.
token="$("$arbiter" token add --email president@gthscl.example --league gthscl \
  --label schemathesis --db "$work/demo.db")"

# One worker: hypothesis's source parsing is not thread-safe on Python 3.11 (a SystemError).
# From the temporary folder, so that schemathesis's caches stay out of the work tree.
st="$PWD/$venv/bin/st"
config="$PWD/.ci/schemathesis.toml"
run() {
  (cd "$work" && "$st" --config-file "$config" run "$base/api/v1/openapi.json" \
    --checks all --max-examples "$examples" --workers 1 --seed 1 --no-color "$@")
}
status=0
echo "== schemathesis, anonymous"
run || status=1
echo "== schemathesis, with an API token"
run -H "Authorization: Bearer $token" || status=1
exit "$status"
