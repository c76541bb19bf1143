#!/usr/bin/env bash
# Run one benchmark deck with several laws (LAMMPS' own style first), repeats interleaved, and
# print the median time per step of each and its ratio to the first.
#
# Usage: bench/compare.sh <deck> <steps> <repeats> <build dir> <law> [<law> ...]
#   The deck gets -var law <law> -var nsteps <steps>; the runs after its line `print TIMED` are
#   timed (their "Loop time" lines are summed); <steps> is the total of those runs.
#   Lines "BENCH name value" printed by the deck (LAMMPS print) are reported for the first repeat.
set -euo pipefail
deck=$1 nsteps=$2 repeats=$3 bdir=$4
shift 4
laws=("$@")
here=$(cd "$(dirname "$0")" && pwd)
lmp="$bdir/lmp"
[ -x "$lmp" ] || { echo "compare.sh: no $lmp (run tools/build.sh first)" >&2; exit 1; }
export OMP_NUM_THREADS=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

declare -A times
for r in $(seq 1 "$repeats"); do
  for law in "${laws[@]}"; do
    log="$work/log.${law//\//_}.$r"
    (cd "$here" && "$lmp" -nocite -screen none -log "$log" -in "$deck" -var law "$law" -var nsteps "$nsteps")
    t=$(awk '/^TIMED$/ {on=1} on && /^Loop time of/ {t+=$4} END {print t}' "$log")
    times[$law]+="$t "
    echo "  repeat $r  $law: loop time $t s for $nsteps steps" >&2
  done
done

source "$here/median.sh"
first=${laws[0]}
echo "$deck: $(awk '/^Loop time of/ {l=$0} END {print l}' "$work/log.${first//\//_}.1" | sed 's/.* with //')," \
     "$nsteps steps, median of $repeats interleaved repeats, 1 process"
base=$(echo "${times[$first]}" | median)
for law in "${laws[@]}"; do
  m=$(echo "${times[$law]}" | median)
  printf "  %-16s %9.3f ms/step   ratio to %s %.3f\n" "$law" "$(echo "$m $nsteps" | awk '{print 1000*$1/$2}')" \
    "$first" "$(echo "$m $base" | awk '{print $1/$2}')"
  grep -h "^BENCH" "$work/log.${law//\//_}.1" | sed "s/^BENCH/    $law:/" || true
done
