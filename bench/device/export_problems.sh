#!/usr/bin/env bash
# The friction problems of bench/device/coulomb_apgd.cu: one step of each settled bed of the
# size study (bench/run_coulomb_size.sh makes and caches the beds), run on with APGD to tol 1e-8
# for a step and then written by fix_modify GE_COULOMB export (bench/in.coulomb_solve).
# Usage: bench/device/export_problems.sh OUT [build dir (default build)] [bed names (default
#        9.1 18.1 36.1 72.1 72.2 144.2)]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mkdir -p "${1:?usage: export_problems.sh OUT [build dir] [beds]}" && cd "$1" && pwd)
lmp=$(cd "$root" && cd "${2:-build}" && pwd)/lmp
beds=(9.1 18.1 36.1 72.1 72.2 144.2)
[ $# -gt 2 ] && beds=("${@:3}")
cache=${GE_BED_CACHE:-$HOME/.cache/granular-exact/coulomb-beds}
export OMP_NUM_THREADS=1
for H in "${beds[@]}"; do
  [ -f "$cache/bed_$H.restart" ] ||
    { echo "export_problems.sh: no bed $cache/bed_$H.restart (bench/run_coulomb_size.sh makes them)" >&2; exit 1; }
  # (the deepest bed's steps are bounded: it needs over 100,000 iterations)
  sweeps=1000000
  [ "$H" = 144.2 ] && sweeps=20000
  (cd "$cache" && "$lmp" -nocite -screen none -log "$out/export_$H.log" -in "$root/bench/in.coulomb_solve" \
     -var H "$H" -var law coulomb -var solver apgd -var tol 1e-8 -var nsteps 1 -var sweeps "$sweeps" \
     -var export yes)
  mv "$cache/problem_$H.bin" "$out/"
  grep "^BENCH exported" "$out/export_$H.log"
done
