#!/usr/bin/env bash
# HTTP benchmark of arbiter-web, side by side with nginx serving the same bytes as static files.
# Loopback only, bounded: four wrk runs of DURATION (10 s) each. Reports; never fails on a figure.
#
#   benches/http.sh            # figures go to docs/benchmarks.md by hand ("HTTP (arbiter-web)")
#
# Builds the release binary, seeds a demo database (`arbiter demo`), imports a 16-team division
# (crates/arbiter-demo/examples/large_division.rs), serves it (`arbiter serve`), saves the
# standings page and the JSON standings as files for nginx, then runs
# `wrk -t2 -c64 -d10s --latency` against each.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION="${DURATION:-10s}"
CONNECTIONS="${CONNECTIONS:-64}"
TEAMS="${TEAMS:-16}"

need() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ]; }
if ! need wrk || ! need nginx; then
  echo "== installing wrk and nginx (Debian)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk nginx-light >/dev/null
fi
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"

echo "== release build"
cargo build --release -q -p arbiter-cli
cargo build --release -q -p arbiter-demo --example large_division
ARBITER="$PWD/target/release/arbiter"

work="$(mktemp -d "${TMPDIR:-/tmp}/arbiter-http.XXXXXX")"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# shellcheck source=benches/common.sh
source benches/common.sh

echo "== demo database with a $TEAMS-team division"
seed_demo "$ARBITER" "$work/demo.db" "$TEAMS"
port="$(free_port)"

"$ARBITER" serve --bind "127.0.0.1:$port" --db "$work/demo.db" >"$work/serve.log" 2>&1 &
pids+=("$!")
page="/leagues/gthscl/2026-27/large-$TEAMS"
api="/api/v1/leagues/gthscl/2026-27/large-$TEAMS/standings"
wait_http "http://127.0.0.1:$port$page"

echo "== nginx serving the same bytes"
mkdir -p "$work/www" "$work/nginx"
chmod a+rx "$work" "$work/www" # nginx's workers run as an unprivileged user
curl -fs "http://127.0.0.1:$port$page" -o "$work/www/standings.html"
curl -fs "http://127.0.0.1:$port$api" -o "$work/www/standings.json"
nport="$(free_port)"
cat >"$work/nginx/nginx.conf" <<EOF
worker_processes auto;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $work/nginx/body;
  proxy_temp_path $work/nginx/proxy;
  fastcgi_temp_path $work/nginx/fastcgi;
  uwsgi_temp_path $work/nginx/uwsgi;
  scgi_temp_path $work/nginx/scgi;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  types { text/html html; application/json json; }
  server {
    listen 127.0.0.1:$nport;
    root $work/www;
  }
}
EOF
"$NGINX" -c "$work/nginx/nginx.conf" -p "$work/nginx" &
pids+=("$!")
wait_http "http://127.0.0.1:$nport/standings.html"

html_bytes="$(wc -c <"$work/www/standings.html")"
json_bytes="$(wc -c <"$work/www/standings.json")"
echo "standings page: $html_bytes bytes; JSON standings: $json_bytes bytes"
echo "$(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"

# One wrk run: prints "requests/s p50 p99" (latencies in ms).
run() {
  local out
  out="$(wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency "$1")"
  if grep -q "Non-2xx" <<<"$out"; then
    echo "error: $1 answered with errors:" >&2
    echo "$out" >&2
    return 1
  fi
  awk '
    function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
    /Requests\/sec/ { rps = $2 }
    $1 == "50%" { p50 = ms($2) }
    $1 == "99%" { p99 = ms($2) }
    END { printf "%.0f %.2f %.2f\n", rps, p50, p99 }' <<<"$out"
}

echo "== wrk -t2 -c$CONNECTIONS -d$DURATION --latency"
printf '%-34s %12s %9s %9s\n' "target" "requests/s" "p50 ms" "p99 ms"
declare -A rps
for t in "arbiter html|http://127.0.0.1:$port$page" \
  "nginx html|http://127.0.0.1:$nport/standings.html" \
  "arbiter json|http://127.0.0.1:$port$api" \
  "nginx json|http://127.0.0.1:$nport/standings.json"; do
  name="${t%%|*}"
  url="${t#*|}"
  res="$(run "$url")"
  read -r r p50 p99 <<<"$res"
  rps[$name]="$r"
  printf '%-34s %12s %9s %9s\n' "$name" "$r" "$p50" "$p99"
done
awk -v a="${rps[arbiter html]}" -v n="${rps[nginx html]}" -v aj="${rps[arbiter json]}" -v nj="${rps[nginx json]}" \
  'BEGIN { printf "arbiter/nginx: html %.2f, json %.2f\n", a / n, aj / nj }'
