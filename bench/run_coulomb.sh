#!/usr/bin/env bash
# Exact Coulomb friction: LAMMPS' `pair granular hooke ... tangential linear_history` and our
# classic law against `tangential coulomb` on a settled bed, in.bench_coulomb (see README.md):
# Gauss-Seidel with 5 sweeps (coulomb) and 20 (coulomb_gs20), APGD with 20 iterations
# (coulomb_apgd20), and the default settings, newton to tol 1e-8 (coulomb_default: not in the
# default list, a solve to tol costs some 100 times a budget's step; name it).
# Usage: bench/run_coulomb.sh [build dir (default build)] [steps (default 1000)] [repeats (default 1)]
#        [laws (default: granular classic coulomb coulomb_gs20 coulomb_apgd20)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bdir=$(cd "$root" && cd "${1:-build}" && pwd)
laws=(granular classic coulomb coulomb_gs20 coulomb_apgd20)
[ $# -gt 3 ] && laws=("${@:4}")
exec bash "$root/bench/compare.sh" in.bench_coulomb "${2:-1000}" "${3:-1}" "$bdir" "${laws[@]}"
