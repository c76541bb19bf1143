#!/usr/bin/env bash
# Linear laws: LAMMPS' `pair granular hooke ... tangential linear_history` against our classic and
# refined laws on in.bench_linear (see README.md); refined_work: the refined law with its work
# tracked (pair_style ... work yes), as when an output reads it.
# Usage: bench/run_linear.sh [build dir (default build)] [steps (default 1000)] [repeats (default 3)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bdir=$(cd "$root" && cd "${1:-build}" && pwd)
exec bash "$root/bench/compare.sh" in.bench_linear "${2:-1000}" "${3:-3}" "$bdir" granular classic refined \
  refined_work
