#!/usr/bin/env bash
# Reads during writes (issue 9, item 13): page latency at many connections, first with no
# writes, then while another process writes about WRITES_PER_SECOND times a second. Every
# write is a new data version, so every competition's pages are drawn again; one redraw per
# page per version, the old page served meanwhile, should keep the readers' latency flat.
# Loopback only, bounded: two wrk runs of DURATION (20 s). Reports; never fails on a figure.
#
#   benches/reads_during_writes.sh    # figures go to docs/benchmarks.md by hand
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION="${DURATION:-20s}"
CONNECTIONS="${CONNECTIONS:-2000}"
WRITES_PER_SECOND="${WRITES_PER_SECOND:-4}"

if ! command -v wrk >/dev/null 2>&1; then
  echo "== installing wrk (Debian)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi
# wrk and the server each hold one descriptor per connection.
ulimit -n "$((CONNECTIONS * 2 + 1024))"

echo "== release build"
cargo build --release -q -p arbiter-cli
cargo build --release -q -p arbiter-demo --example large_division
ARBITER="$PWD/target/release/arbiter"

work="$(mktemp -d "${TMPDIR:-/tmp}/arbiter-rw.XXXXXX")"
pids=()
writer=""
cleanup() {
  [ -n "$writer" ] && kill "$writer" 2>/dev/null || true
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# shellcheck source=benches/common.sh
source benches/common.sh

echo "== demo database with a 16-team division"
seed_demo "$ARBITER" "$work/demo.db" 16 >/dev/null
target/release/examples/large_division 4 >"$work/small.json"
port="$(free_port)"

# wrk comes from one address: the per-address bound is lifted for the benchmark.
"$ARBITER" serve --bind "127.0.0.1:$port" --db "$work/demo.db" \
  --max-connections "$((CONNECTIONS + 100))" --max-connections-per-address "$((CONNECTIONS + 100))" \
  >"$work/serve.log" 2>&1 &
pids+=("$!")
c="/leagues/gthscl/2026-27/large-16"
wait_http "http://127.0.0.1:$port$c"

# The readers spread over the pages a league's public reads: standings, crosstable, rounds,
# the explanation, the season and the home page.
cat >"$work/pages.lua" <<EOF
local pages = { "$c", "$c/crosstable", "$c/rounds/1", "$c/rounds/8", "$c/rounds/15",
  "$c/explain", "/leagues/gthscl/2026-27", "/" }
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", pages[(i % #pages) + 1])
end
EOF

echo "$(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"

# One wrk run: prints "requests/s mean p50 p99 max non-2xx timeouts" (latencies in ms).
run() {
  local out
  out="$(wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --timeout 30s --latency -s "$work/pages.lua" "http://127.0.0.1:$port")"
  awk '
    function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
    /Requests\/sec/ { rps = $2 }
    $1 == "Latency" && $2 ~ /^[0-9]/ { mean = ms($2); max = ms($4) }
    $1 == "50%" { p50 = ms($2) }
    $1 == "99%" { p99 = ms($2) }
    /Non-2xx/ { errors += $NF }
    /Socket errors/ { timeouts = $NF }
    END { printf "%.0f %.1f %.1f %.1f %.1f %d %d\n", rps, mean, p50, p99, max, errors, timeouts }' <<<"$out"
}

# Writes from another process, as an officer's script or a second server would make them:
# each `arbiter import` stores a small competition, a new data version.
write_loop() {
  local n=0 pause
  pause="$(awk -v w="$WRITES_PER_SECOND" 'BEGIN { printf "%.3f", 1 / w }')"
  while true; do
    n=$((n + 1))
    "$ARBITER" import "$work/small.json" --league gthscl --season 2026-27 --competition "w-$n" \
      --db "$work/demo.db" >/dev/null 2>&1 && echo "$n" >"$work/writes"
    sleep "$pause"
  done
}

row() { printf '%-22s %11s %8s %8s %8s %9s %8s %9s\n' "$@"; }
row "phase" "requests/s" "mean ms" "p50 ms" "p99 ms" "max ms" "non-2xx" "timeouts"
read -r r mean p50 p99 max errors timeouts <<<"$(run)"
row "reads only" "$r" "$mean" "$p50" "$p99" "$max" "$errors" "$timeouts"
write_loop &
writer=$!
read -r r mean p50 p99 max errors timeouts <<<"$(run)"
kill "$writer" 2>/dev/null || true
writer=""
writes="$(cat "$work/writes" 2>/dev/null || echo 0)"
row "reads, $writes writes" "$r" "$mean" "$p50" "$p99" "$max" "$errors" "$timeouts"
