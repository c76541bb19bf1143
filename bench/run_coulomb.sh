#!/usr/bin/env bash
# Exact Coulomb friction: LAMMPS' `pair granular hooke ... tangential linear_history` and our
# classic law against `tangential coulomb ... sweeps 5` on a settled bed, in.bench_coulomb
# (see README.md).
# Usage: bench/run_coulomb.sh [build dir (default build)] [steps (default 1000)] [repeats (default 1)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bdir=$(cd "$root" && cd "${1:-build}" && pwd)
exec bash "$root/bench/compare.sh" in.bench_coulomb "${2:-1000}" "${3:-1}" "$bdir" granular classic coulomb
