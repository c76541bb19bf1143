#!/usr/bin/env bash
# The Kokkos styles on bench/in.bench_kokkos: granular/exact/kk (classic, refined, a catalogue law
# with Yade moments, Jaeger capacity 16) against LAMMPS' gran/hooke/history/kk on the same deck
# and the same Kokkos device, and the host styles on one core. Prints ms/step, contact-steps per
# second and the ratio to LAMMPS' Hooke with history in the same set-up, and the time outside the
# force loop (LAMMPS' Neigh + Comm + Modify sections: the list, the exchanges, the history
# store) with its ratio to Hooke's; medians of interleaved repeats.
#
# Usage: bench/run_kokkos.sh [build dir (default build-kokkos-openmp)] [steps (default 500)]
#                            [repeats (default 3)] [Kokkos set-ups (default "t 1" "t 2")]
#   A Kokkos set-up is what follows `-k on`: "t 2" (2 host threads), "g 1" (one GPU).
# Environment:
#   BENCH_SCALE  the packing is BENCH_SCALE^2 times wider (default 1: 20,384 spheres; 4: 326,144
#                spheres, about a million contacts, a size that fills a GPU)
#   BENCH_HOST   0: leave out the host styles' runs (one core; slow at a large BENCH_SCALE)
#   BENCH_SKIN   the neighbour skin (default 0.2: one build in the timed steps of the packing;
#                0.02: a build every few steps, where the list, exchanges and history stores cost)
#   BENCH_LAWS   the laws run (default "hooke_history classic refined catalogue jaeger16"; the
#                ratios need hooke_history)
#   BENCH_WALLS  none (default) | plane: two z walls with the pair's law (in.bench_kokkos), in
#                their Kokkos form under -k on | host: the Kokkos runs keep the package's walls
#                on the host (LAMMPS' own wall for hooke_history stays in its Kokkos form) |
#                region: the package's walls as a region block with the same two faces (LAMMPS'
#                Hooke keeps its planes) | regionhost: that region wall kept on the host
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bdir=$(cd "$root" && cd "${1:-build-kokkos-openmp}" && pwd)
nsteps=${2:-500} repeats=${3:-3}
shift $(( $# < 3 ? $# : 3 ))
setups=("$@")
[ ${#setups[@]} -gt 0 ] || setups=("t 1" "t 2")
lmp="$bdir/lmp"
[ -x "$lmp" ] || { echo "run_kokkos.sh: no $lmp (tools/build.sh --kokkos DIR first)" >&2; exit 1; }
read -r -a laws <<< "${BENCH_LAWS:-hooke_history classic refined catalogue jaeger16}"
export OMP_PROC_BIND=false OMP_NUM_THREADS=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

scale=${BENCH_SCALE:-1}
[[ "$scale" =~ ^[1-9][0-9]*$ ]] || { echo "run_kokkos.sh: BENCH_SCALE '$scale' is not a positive integer" >&2; exit 2; }
configs=()
[ "${BENCH_HOST:-1}" = 0 ] || configs=("host")
for s in "${setups[@]}"; do configs+=("kk ${s}"); done
declare -A times contacts pair_times other_times
for r in $(seq 1 "$repeats"); do
  for c in "${configs[@]}"; do
    args=() threads=1
    [ "$c" = host ] || args=(-k on ${c#kk } -sf kk -pk kokkos newton off neigh half)
    [[ "$c" =~ ^kk\ t\ ([0-9]+) ]] && threads=${BASH_REMATCH[1]}
    # on a GPU, the bin size LAMMPS' KOKKOS would choose (the deck's early init leaves it 0)
    binsize=0; [[ "$c" =~ ^kk\ g ]] && binsize=1.3
    for law in "${laws[@]}"; do
      key="$c|$law"
      log="$work/log.${key//[ |]/_}.$r"
      # (OpenMP's thread count as Kokkos': with OMP_NUM_THREADS=1 two Kokkos threads ran slower)
      walls=${BENCH_WALLS:-none}
      { [ "$c" = host ] || [ "$law" = hooke_history ]; } && [ "$walls" = host ] && walls=plane
      [ "$c" = host ] && [ "$walls" = regionhost ] && walls=region
      [ "$law" = hooke_history ] && [ "${walls#region}" != "$walls" ] && walls=plane
      (cd "$root/bench" && OMP_NUM_THREADS=$threads "$lmp" -nocite -screen none -log "$log" "${args[@]}" -in in.bench_kokkos \
        -var law "$law" -var nsteps "$nsteps" -var scale "$scale" -var binsize "$binsize" -var skin "${BENCH_SKIN:-0.2}" \
        -var walls "$walls")
      t=$(awk '/^TIMED$/ {on=1} on && /^Loop time of/ {t+=$4} END {print t}' "$log")
      times[$key]+="$t "
      # the timed runs' Pair section, and what is not the force loop: Neigh + Comm + Modify
      read -r p o < <(awk '/^TIMED$/ {on=1} on && /^(Pair|Neigh|Comm|Modify) +\|/ {s[$1]+=$3}
                           END {print s["Pair"]+0, s["Neigh"]+s["Comm"]+s["Modify"]}' "$log")
      pair_times[$key]+="$p " other_times[$key]+="$o "
      contacts[$key]=$(awk '/^BENCH contacts/ {print $3}' "$log")
      echo "  repeat $r  $c  $law: loop time $t s" >&2
    done
  done
done

source "$root/bench/median.sh"
echo "bench/in.bench_kokkos: $((20384 * scale * scale)) spheres (scale $scale), walls ${BENCH_WALLS:-none}, $nsteps steps, median of $repeats interleaved repeats, 1 process"
for c in "${configs[@]}"; do
  base=$(echo "${times[$c|hooke_history]}" | median)
  other_base=$(echo "${other_times[$c|hooke_history]}" | median)
  echo "  ${c/kk/-k on}${c:+}:"
  for law in "${laws[@]}"; do
    m=$(echo "${times[$c|$law]}" | median)
    mp=$(echo "${pair_times[$c|$law]}" | median) mo=$(echo "${other_times[$c|$law]}" | median)
    printf "    %-14s %8.3f ms/step  %9.3g contact-steps/s  ratio to gran/hooke/history %.2f   pair %.3f  neigh+comm+modify %.3f ms/step (ratio %.2f)\n" "$law" \
      "$(echo "$m $nsteps" | awk '{print 1000*$1/$2}')" \
      "$(echo "${contacts[$c|$law]} $nsteps $m" | awk '{print $1*$2/$3}')" \
      "$(echo "$m $base" | awk '{print $1/$2}')" \
      "$(echo "$mp $nsteps" | awk '{print 1000*$1/$2}')" "$(echo "$mo $nsteps" | awk '{print 1000*$1/$2}')" \
      "$(echo "$mo $other_base" | awk '{print ($2 > 0) ? $1/$2 : 0}')"
  done
done
