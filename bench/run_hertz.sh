#!/usr/bin/env bash
# The catalogue's Hertz law against LAMMPS' own Hertz styles (issue 47, item 4): on the dense
# packing (in.bench_hertz) and the pour (in.bench_hertz_pour), `catalogue` (hertz, tsuji en e
# exact, tti) against `granular` (pair granular hertz/material, coeff_restitution, mindlin) and
# `hertzhistory` (pair gran/hertz/history), repeats interleaved, medians of the timed runs' loop
# time and of their Pair section, and the ratios to each LAMMPS style.
# Usage: bench/run_hertz.sh [build dir (default build)] [repeats (default 5)]
#                           [packing steps (default 300)] [pour steps (default 3000)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bdir=$(cd "$root" && cd "${1:-build}" && pwd)
repeats=${2:-5}
lmp="$bdir/lmp"
[ -x "$lmp" ] || { echo "run_hertz.sh: no $lmp (run tools/build.sh first)" >&2; exit 1; }
export OMP_NUM_THREADS=1
source "$root/bench/median.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
laws=(granular hertzhistory catalogue)
decks=("in.bench_hertz:${3:-300}" "in.bench_hertz_pour:${4:-3000}")

declare -A loop pair
for r in $(seq 1 "$repeats"); do
  for d in "${decks[@]}"; do
    deck=${d%%:*} n=${d##*:}
    for law in "${laws[@]}"; do
      log="$work/log.$deck.$law.$r"
      (cd "$root/bench" && "$lmp" -nocite -screen none -log "$log" -in "$deck" -var law "$law" -var nsteps "$n")
      # the timed runs: those after `print TIMED` (their loop times and Pair sections summed)
      read -r t p < <(awk '/^TIMED$/ {on=1} on && /^Loop time of/ {t+=$4} on && /^Pair +\|/ {p+=$3}
                           END {print t, p}' "$log")
      loop[$deck.$law]+="$t " pair[$deck.$law]+="$p "
      echo "  repeat $r  $deck  $law: loop $t s, pair $p s" >&2
    done
  done
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a/b}'; }
for d in "${decks[@]}"; do
  deck=${d%%:*} n=${d##*:}
  echo "$deck: $n timed steps, medians of $repeats interleaved repeats, 1 process"
  declare -A ml mp
  for law in "${laws[@]}"; do
    ml[$law]=$(echo "${loop[$deck.$law]}" | median) mp[$law]=$(echo "${pair[$deck.$law]}" | median)
  done
  for law in "${laws[@]}"; do
    printf "  %-13s loop %8.3f ms/step  pair %8.3f ms/step   loop/granular %s  loop/hertzhistory %s  pair/granular %s  pair/hertzhistory %s\n" \
      "$law" "$(awk -v t="${ml[$law]}" -v n="$n" 'BEGIN {print 1000*t/n}')" \
      "$(awk -v t="${mp[$law]}" -v n="$n" 'BEGIN {print 1000*t/n}')" \
      "$(ratio "${ml[$law]}" "${ml[granular]}")" "$(ratio "${ml[$law]}" "${ml[hertzhistory]}")" \
      "$(ratio "${mp[$law]}" "${mp[granular]}")" "$(ratio "${mp[$law]}" "${mp[hertzhistory]}")"
  done
  unset ml mp
done
