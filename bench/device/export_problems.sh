#!/usr/bin/env bash
# The friction problems of bench/device/coulomb_apgd.cu and coulomb_newton.cu: one step of each
# settled bed of the size study (bench/run_coulomb_size.sh makes and caches the beds), run on
# with APGD (or SOLVER) to tol 1e-8 for a step and then written by fix_modify GE_COULOMB export
# (bench/in.coulomb_solve).
# Usage: bench/device/export_problems.sh OUT [build dir (default build)] [beds (default
#        9.1 18.1 36.1 72.1 72.2 144.2 24x36.1 48x36.1)]
# A bed is its height H (12 x 12 spheres across, bed_H.restart of the size study) or LxH (L x L
# spheres across, kept in L<L>/ of the cache, settled here where missing: 6 min for 24x36.1, about
# 30 min for 48x36.1 on one core). The problem of bed LxH is written to OUT/problem_LxH.bin.
# SOLVER (environment): the solver of the steps before and of the exported one, apgd (the
# default, for coulomb_apgd.cu) or newton (for coulomb_newton.cu: its starts are those of a run
# with the default solver, extrapolated where the fix extrapolates).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mkdir -p "${1:?usage: export_problems.sh OUT [build dir] [beds]}" && cd "$1" && pwd)
lmp=$(cd "$root" && cd "${2:-build}" && pwd)/lmp
beds=(9.1 18.1 36.1 72.1 72.2 144.2 24x36.1 48x36.1)
[ $# -gt 2 ] && beds=("${@:3}")
cache=${GE_BED_CACHE:-$HOME/.cache/granular-exact/coulomb-beds}
export OMP_NUM_THREADS=1
for bed in "${beds[@]}"; do
  L=12 H=$bed dir=$cache
  if [[ "$bed" == *x* ]]; then L=${bed%x*} H=${bed#*x} dir=$cache/L$L; fi
  if [ ! -f "$dir/bed_$H.restart" ]; then
    [ "$L" != 12 ] ||
      { echo "export_problems.sh: no bed $dir/bed_$H.restart (bench/run_coulomb_size.sh makes them)" >&2; exit 1; }
    echo "  settling the bed $bed ..." >&2
    mkdir -p "$dir"
    (cd "$dir" && "$lmp" -nocite -screen none -log "$out/settle_$bed.log" -in "$root/bench/in.coulomb_bed" \
       -var L "$L" -var H "$H")
  fi
  # (the deepest bed's steps are bounded: it needs over 100,000 iterations)
  sweeps=1000000
  [ "$H" = 144.2 ] && sweeps=20000
  (cd "$dir" && "$lmp" -nocite -screen none -log "$out/export_$bed.log" -in "$root/bench/in.coulomb_solve" \
     -var L "$L" -var H "$H" -var law coulomb -var solver "${SOLVER:-apgd}" -var tol 1e-8 -var nsteps 1 \
     -var sweeps "$sweeps" -var export yes)
  mv "$dir/problem_$H.bin" "$out/problem_$bed.bin"
  grep "^BENCH exported" "$out/export_$bed.log"
done
