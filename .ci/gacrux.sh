#!/usr/bin/env bash
# Issue 17: FIDE's reference pairing checker (gacrux, from PyPI) in a scratch virtual
# environment for the differential test of the C.04.6 pairing
# (crates/arbiter-formats/tests/swiss_gacrux.rs). Prints the export line for the test's Python.
# Run from anywhere: `eval "$(bash .ci/gacrux.sh)"`. Dev tooling: never a dependency of the product.
set -euo pipefail
cd "$(dirname "$0")/.."

version=1.11.65 # the gacrux the pairing was checked with; change it deliberately
venv=target/gacrux-venv

if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
fi
if ! "$venv/bin/python" -c "import gacrux.version as v; assert v.version()['version'] == '$version'" 2>/dev/null; then
  rm -rf "$venv"
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q "gacrux==$version" >&2
fi
echo "export ARBITER_GACRUX_PYTHON=$PWD/$venv/bin/python"
