#!/usr/bin/env bash
# A collisional flow: LAMMPS' `pair granular hooke ... tangential linear_history` (and its fix
# wall/gran) against our classic and refined laws on in.bench_pour (see README.md); refined_work:
# the refined law with its work tracked (pair_style ... work yes), as when an output reads it.
# Usage: bench/run_pour.sh [build dir (default build)] [steps (default 4000)] [repeats (default 3)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bdir=$(cd "$root" && cd "${1:-build}" && pwd)
exec bash "$root/bench/compare.sh" in.bench_pour "${2:-4000}" "${3:-3}" "$bdir" granular classic refined \
  refined_work
