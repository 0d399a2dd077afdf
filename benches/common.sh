# Shared by the HTTP benchmarks (sourced, not run): a free loopback port, waiting for a server,
# and a demo database with a TEAMS-team division imported as `large-TEAMS`.

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

wait_http() {
  for _ in $(seq 1 150); do
    curl -fs -o /dev/null "$1" && return 0
    sleep 0.2
  done
  echo "error: nothing answered at $1" >&2
  return 1
}

# seed_demo ARBITER DB TEAMS: `arbiter demo` writes DB, then the division is imported into it.
seed_demo() {
  local arbiter="$1" db="$2" teams="$3" port pid
  port="$(free_port)"
  "$arbiter" demo --bind "127.0.0.1:$port" --db "$db" >"$db.demo.log" 2>&1 &
  pid=$!
  wait_http "http://127.0.0.1:$port/" || { kill "$pid"; return 1; }
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  target/release/examples/large_division "$teams" >"$db.large.json"
  "$arbiter" import "$db.large.json" --league gthscl --season 2026-27 --competition "large-$teams" \
    --db "$db" 2>&1 | tail -n 1
}
