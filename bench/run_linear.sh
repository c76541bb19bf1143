#!/usr/bin/env bash
# Time per step of pair granular/exact (classic, refined) against LAMMPS' own
# `pair granular hooke ... tangential linear_history` on the same packing and parameters,
# measured in the same script, repeats interleaved; prints medians and ratios.
#
# Usage: bench/run_linear.sh [build dir (default build)] [steps (default 1000)] [repeats (default 3)]
set -euo pipefail

bdir=$(cd "$(dirname "$0")/.." && cd "${1:-build}" && pwd)
nsteps=${2:-1000}
repeats=${3:-3}
lmp="$bdir/lmp"
[ -x "$lmp" ] || { echo "run_linear.sh: no $lmp (run tools/build.sh first)" >&2; exit 1; }
export OMP_NUM_THREADS=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

laws=(granular classic refined)
declare -A times
for r in $(seq 1 "$repeats"); do
  for law in "${laws[@]}"; do
    (cd "$(dirname "$0")" && "$lmp" -nocite -screen none -log "$work/log.$law.$r" -in in.bench_linear \
      -var law "$law" -var nsteps "$nsteps")
    # the last "Loop time" line is the timed run
    t=$(awk '/^Loop time of/ {t=$4} END {print t}' "$work/log.$law.$r")
    times[$law]+="$t "
    echo "  repeat $r  $law: loop time $t s for $nsteps steps" >&2
  done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
natoms=$(awk '/^Loop time of/ {n=$NF} END {print $12}' "$work/log.granular.1")
echo "pair granular/exact benchmark: $(awk '/^Loop time of/ {l=$0} END {print l}' "$work/log.granular.1" | sed 's/.* with //')," \
     "$nsteps steps, median of $repeats, 1 process"
declare -A med
for law in "${laws[@]}"; do
  med[$law]=$(echo "${times[$law]}" | median)
  printf "  %-9s %9.3f ms/step\n" "$law" "$(echo "${med[$law]} $nsteps" | awk '{print 1000*$1/$2}')"
done
printf "  ratio classic / LAMMPS granular linear_history: %.3f   (target <= 1.00)\n" \
  "$(echo "${med[classic]} ${med[granular]}" | awk '{print $1/$2}')"
printf "  ratio refined / LAMMPS granular linear_history: %.3f   (target <= 1.15)\n" \
  "$(echo "${med[refined]} ${med[granular]}" | awk '{print $1/$2}')"
grep -h "^Total # of neighbors\|^Ave neighs" "$work/log.refined.1" | sed 's/^/  /'
