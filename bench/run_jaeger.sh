#!/usr/bin/env bash
# Jaeger contact: LAMMPS' `pair granular hertz/material ... tangential mindlin` against our jaeger
# law (exact, capacity 16, approx 0.1) on in.bench_jaeger (see README.md).
# Usage: bench/run_jaeger.sh [build dir (default build)] [steps (default 1000)] [repeats (default 3)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bdir=$(cd "$root" && cd "${1:-build}" && pwd)
exec bash "$root/bench/compare.sh" in.bench_jaeger "${2:-1000}" "${3:-3}" "$bdir" \
  mindlin exact capacity approx
