#!/usr/bin/env bash
# One `arbiter serve` holding a federation's competitions (issue 35): N generated divisions of 8
# teams, 100 to a league, read at random while another process writes one of them twice a second.
# Reports; never fails on a figure. Figures go to docs/benchmarks.md ("Many competitions").
#
#   benches/many_competitions.sh            # N = 1000 and 10000
#   benches/many_competitions.sh 200        # one N
#   CACHE_MIB=64 SECONDS=10 benches/many_competitions.sh 2000
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_EACH="${SECONDS_EACH:-10}"
CACHE_MIB="${CACHE_MIB:-128}"
if ! command -v wrk >/dev/null 2>&1; then
  echo "== installing wrk (Debian)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi

echo "== release build"
cargo build --release -q -p arbiter-cli
cargo build --release -q -p arbiter-demo --features store --example many_competitions
ARBITER="$PWD/target/release/arbiter"
GENERATE="$PWD/target/release/examples/many_competitions"

# shellcheck source=benches/common.sh
source benches/common.sh

[ "$#" -gt 0 ] || set -- 1000 10000
for n in "$@"; do
  work="$(mktemp -d "${TMPDIR:-/tmp}/arbiter-many.XXXXXX")"
  echo "== generating $n competitions"
  started=$SECONDS
  "$GENERATE" generate "$work/many.db" "$n" 2>&1 | tail -n 1
  echo "generated in $((SECONDS - started)) s; database $(du -m "$work/many.db" | cut -f1) MiB"
  port="$(free_port)"
  "$ARBITER" serve --bind "127.0.0.1:$port" --db "$work/many.db" --cache-mib "$CACHE_MIB" \
    >"$work/serve.log" 2>&1 &
  pid=$!
  trap 'kill $pid 2>/dev/null || true' EXIT
  wait_http "http://127.0.0.1:$port/leagues/fed-001"
  python3 benches/many_competitions.py --base "http://127.0.0.1:$port" --n "$n" --pid "$pid" \
    --db "$work/many.db" --writer "$GENERATE" --work "$work" --seconds "$SECONDS_EACH"
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  rm -rf "$work"
done
