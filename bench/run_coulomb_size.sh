#!/usr/bin/env bash
# The size study of the Coulomb solvers (see README.md): settled beds of 12 x 12 spheres across
# and growing depth (in.coulomb_bed), then each solver of `tangential coulomb` run to a true
# error (natural residual) of tol for a few steps (in.coulomb_solve): iterations per step, time
# per step against the classic law on the same bed, and the true error reached.
# Usage: bench/run_coulomb_size.sh [build dir (default build)] [tol (default 1e-8)]
#        [steps (default 8)] [bed heights (default 9.1 18.1 36.1 72.1)]
#   SOLVERS (environment): the solvers compared, default "gs apgd newton"
#   WARMS (environment): their starts compared (`warm`), default "extrapolate"
# The settled beds are kept in $GE_BED_CACHE (default ~/.cache/granular-exact/coulomb-beds) and
# made again where missing (a few minutes each on one core).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bdir=$(cd "$root" && cd "${1:-build}" && pwd)
tol=${2:-1e-8} nsteps=${3:-8}
heights=(9.1 18.1 36.1 72.1)
[ $# -gt 3 ] && heights=("${@:4}")
lmp="$bdir/lmp"
[ -x "$lmp" ] || { echo "run_coulomb_size.sh: no $lmp (run tools/build.sh first)" >&2; exit 1; }
export OMP_NUM_THREADS=1
cache=${GE_BED_CACHE:-$HOME/.cache/granular-exact/coulomb-beds}
mkdir -p "$cache"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

loop_time() { awk '/^Loop time of/ {t=$4} END {print t}' "$1"; }
echo "tol $tol, $nsteps steps per run, 1 process; time per step relative to classic on the same bed"
printf "%-7s %-9s %-6s %-11s %-12s %-10s %-10s %-17s %s\n" height contacts solver warm iterations ms/step "vs classic" "natural residual" "stuck velocity (g dt)"
for H in "${heights[@]}"; do
  if [ ! -f "$cache/bed_$H.restart" ]; then
    echo "  settling the bed of height $H ..." >&2
    (cd "$cache" && "$lmp" -nocite -screen none -log "$work/settle.log" -in "$root/bench/in.coulomb_bed" -var H "$H")
  fi
  (cd "$cache" && "$lmp" -nocite -screen none -log "$work/classic.log" -in "$root/bench/in.coulomb_solve" \
     -var H "$H" -var law classic -var nsteps 200)
  classic=$(echo "$(loop_time "$work/classic.log") 200" | awk '{print $1/$2}')
  for solver in ${SOLVERS:-gs apgd newton}; do
    for warm in ${WARMS:-extrapolate}; do
      log="$work/$solver.log"
      (cd "$cache" && "$lmp" -nocite -screen none -log "$log" -in "$root/bench/in.coulomb_solve" \
         -var H "$H" -var law coulomb -var solver "$solver" -var tol "$tol" -var nsteps "$nsteps" \
         -var warm "$warm")
      t=$(echo "$(loop_time "$log") $nsteps" | awk '{print $1/$2}')
      read -r contacts iterations residual velocity <<< "$(awk '/^BENCH contacts/ {print $3, $5, $8, $11}' "$log")"
      printf "%-7s %-9s %-6s %-11s %-12s %-10.2f %-10.0f %-17s %s\n" "$H" "$contacts" "$solver" "$warm" \
        "$iterations" "$(echo "$t" | awk '{print 1000*$1}')" "$(echo "$t $classic" | awk '{print $1/$2}')" \
        "$residual" "$velocity"
    done
  done
done
