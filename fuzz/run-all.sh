#!/usr/bin/env bash
# Runs every cargo fuzz target in turn for SECONDS each (default 60), on stable through
# RUSTC_BOOTSTRAP=1, each from a corpus seeded with the files its stable harness uses
# (crates/arbiter-fuzz-targets/tests/targets.rs). Prints each target's final libFuzzer figures;
# a crash stops the run, its input in fuzz/artifacts/TARGET/ (docs/reliability.md).
#
#   fuzz/run-all.sh 300                 # every target, 5 minutes each
#   fuzz/run-all.sh 600 pgn fen         # these two, 10 minutes each
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"
shift || true
targets=("$@")
if ((${#targets[@]} == 0)); then
  targets=(competition_json trf_read roster_csv teams_csv closures_csv field_json pgn fen ruleset_toml result_entry)
fi

seeds() {
  case "$1" in
    competition_json) echo ../examples/*.json ../crates/arbiter-formats/tests/data/*.json ../crates/arbiter-cli/tests/data/check/*.json ;;
    trf_read) echo ../crates/arbiter-formats/tests/data/{fide,trf,fuzz}/*.trf ;;
    roster_csv) echo ../crates/arbiter-cli/tests/data/{roster,season}/*.csv ;;
    teams_csv | closures_csv) echo ../crates/arbiter-cli/tests/data/season/*.csv ;;
    field_json) echo ../examples/*.json ../crates/arbiter-cli/tests/data/astc/*.json ;;
    pgn) echo seeds/pgn/* ;;
    fen) echo seeds/fen/* ;;
    ruleset_toml) echo ../crates/arbiter-core/presets/*.toml ../crates/arbiter-formats/tests/data/rules/*.toml ;;
    result_entry) echo seeds/result_entry/* ;;
  esac
}

RUSTC_BOOTSTRAP=1 cargo fuzz build
crashed=()
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t"
  # shellcheck disable=SC2046
  cp $(seeds "$t") "corpus/$t/"
  dict=()
  [[ "$t" == trf_read ]] && dict=(-dict=trf.dict)
  echo "== $t, ${seconds}s"
  if ! RUSTC_BOOTSTRAP=1 cargo fuzz run "$t" "corpus/$t" -- \
    -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=4096 "${dict[@]}" >"corpus/$t.log" 2>&1; then
    crashed+=("$t")
  fi
  grep -E '^(stat::|SUMMARY|Done)|panicked at|deadly signal' "corpus/$t.log" || true
done
if ((${#crashed[@]} > 0)); then
  echo "crashed: ${crashed[*]} (inputs in fuzz/artifacts/)"
  exit 1
fi
