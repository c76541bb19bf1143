#!/usr/bin/env bash
# The slip at the contact points of the stuck contacts, contact by contact (the solver issue's
# item 4; see README.md): settled beds of in.coulomb_bed (12 x 12 spheres across, as
# run_coulomb_size.sh makes and keeps them), each solver run for STEPS steps from the settled
# state (in.coulomb_solve), every step recorded by build/unittest/coulomb_contact_slip. Prints,
# over the contacts that touch and stick at every step, the median, 90th percentile and largest
# slip and the longest path in mean diameters, next to the fix's bound (the sum over the steps of
# dt times the largest velocity of a stuck contact at the next half step); and the largest over
# the steps of each step's median and 90th percentile of the stuck contacts' velocities at the
# next half step, in g dt (in.coulomb_solve's g = 1 and dt = 0.002; the solver issue's item 3
# asks 1e-8 and 1e-7).
# Usage: bench/run_coulomb_slip.sh [build dir (default build)] [steps (default 1000)]
#        [bed heights (default 9.1 18.1)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bdir=$(cd "$root" && cd "${1:-build}" && pwd)
nsteps=${2:-1000}
heights=(9.1 18.1)
[ $# -gt 2 ] && heights=("${@:3}")
tool="$bdir/unittest/coulomb_contact_slip"
lmp="$bdir/lmp"
for exe in "$tool" "$lmp"; do
  [ -x "$exe" ] || { echo "run_coulomb_slip.sh: no $exe (run tools/build.sh first)" >&2; exit 1; }
done
export OMP_NUM_THREADS=1
cache=${GE_BED_CACHE:-$HOME/.cache/granular-exact/coulomb-beds}
mkdir -p "$cache"
# solver label, then the variables of in.coulomb_solve
settings=("gs 5|solver gs sweeps 5 tol 1e-8"
          "gs 20|solver gs sweeps 20 tol 1e-8"
          "apgd 20|solver apgd sweeps 20 tol 1e-8"
          "apgd to tol 1e-8|solver apgd sweeps 1000000 tol 1e-8"
          "newton (the default)|solver newton sweeps 10000 tol 1e-8")
echo "$nsteps steps from the settled bed, 1 process; slips and paths in mean diameters d"
printf "%-7s %-20s %-9s %-9s %-9s %-9s %-9s %-9s %-8s %-9s %s\n" height solver stuck median "90th" \
  largest "longest path" bound ms/step "v median" "v 90th"
for H in "${heights[@]}"; do
  if [ ! -f "$cache/bed_$H.restart" ]; then
    echo "  settling the bed of height $H ..." >&2
    (cd "$cache" && "$lmp" -nocite -screen none -log none -in "$root/bench/in.coulomb_bed" -var H "$H")
  fi
  for s in "${settings[@]}"; do
    label=${s%%|*}
    read -r -a vars <<< "${s#*|}"
    line=$(cd "$cache" && "$tool" "$root/bench/in.coulomb_solve" "$nsteps" bed H "$H" law coulomb \
             nsteps 0 "${vars[@]}" | grep '^SLIP')
    read -r -a f <<< "$line"
    # SLIP steps N contacts N stuck-throughout N slip-median X slip-90 X slip-largest X
    #      path-longest X bound X ms/step X velocity-median X velocity-90 X
    printf "%-7s %-20s %-9s %-9s %-9s %-9s %-9s %-9s %-8s %-9.2e %.2e\n" "$H" "$label" \
      "${f[6]}/${f[4]}" "${f[8]}" "${f[10]}" "${f[12]}" "${f[14]}" "${f[16]}" "${f[18]}" \
      "$(awk -v v="${f[20]}" 'BEGIN {print v / 0.002}')" "$(awk -v v="${f[22]}" 'BEGIN {print v / 0.002}')"
  done
done
