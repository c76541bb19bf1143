#!/bin/bash
# `tangential coulomb` under pair_style granular/exact/kk: the time per step of the settled beds of
# in.coulomb_bed (bench/in.coulomb_solve, default solver and tol) with the host style on one core
# and with /kk, against the classic law under /kk on the same bed, in the same set-up (medians of
# interleaved repeats). Under /kk the force loop runs in the Kokkos execution space, and so does
# the friction's whole step on one process: the contacts made from their histories, solved and
# stored there (potentials_docs, "Styles with a KOKKOS suffix"; the fix's run-end line gives the
# solve's time and that of the friction's other work, printed per bed). KOKKOS_SETUP="t 2" with
# an OpenMP build measures the same on host threads.
#
# Usage: bench/device/run_kokkos_coulomb.sh DIR BEDS [steps (20)] [repeats (3)] [beds ("36.1 72.2")]
#   DIR: filled by build_kokkos_gpu.sh (or any build folder with lmp); BEDS: the beds' restart
#   files bed_<H>.restart or bed_<H>.restart.gz (in.coulomb_bed; device/export_problems.sh keeps
#   them gzipped); KOKKOS_SETUP (environment): what follows `-k on`, default "g 1"; GRAPHS=yes
#   (environment) adds /kk coulomb with `fix_modify GE_COULOMB graphs yes` to the same rounds.
set -uo pipefail
dir=$(cd "${1:?usage: run_kokkos_coulomb.sh DIR BEDS [steps] [repeats] [beds]}" && pwd)
beds_dir=$(cd "${2:?usage: run_kokkos_coulomb.sh DIR BEDS [steps] [repeats] [beds]}" && pwd)
nsteps=${3:-20} repeats=${4:-3}
read -r -a beds <<< "${5:-36.1 72.2}"
root=$(cd "$(dirname "$0")/../.." && pwd)
[ -f "$root/bench/in.coulomb_solve" ] || root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -f "$dir/liblammps.so.0.gz" ] && gunzip -c "$dir/liblammps.so.0.gz" > "$work/liblammps.so.0"
export LD_LIBRARY_PATH=$work:$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMP_PROC_BIND=false OMP_NUM_THREADS=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
lscpu | grep -E "Model name"
cp "$root/bench/in.coulomb_solve" "$work/"
for bed in "${beds[@]}"; do
  if [ -f "$beds_dir/bed_$bed.restart.gz" ]; then
    gunzip -c "$beds_dir/bed_$bed.restart.gz" > "$work/bed_$bed.restart"
  else
    cp "$beds_dir/bed_$bed.restart" "$work/"
  fi
done
read -r -a setup <<< "${KOKKOS_SETUP:-g 1}"
# (`tangential coulomb` needs newton on; the beds' restarts keep it, the KOKKOS package's default
# on a GPU would set it off)
kk=(-k on "${setup[@]}" -sf kk -pk kokkos newton on neigh half)
configs=("host coulomb" "kk coulomb" "kk classic")
[ "${GRAPHS:-no}" = yes ] && configs+=("kk coulomb+graphs")
declare -A times iterations contacts solve_times host_times
for r in $(seq 1 "$repeats"); do
  for bed in "${beds[@]}"; do
    for c in "${configs[@]}"; do
      read -r how law <<< "$c"
      args=(); [ "$how" = kk ] && args=("${kk[@]}")
      graphs=no; [ "${law#*+}" = graphs ] && graphs=yes
      law=${law%+graphs}
      log="$work/log.$bed.${how}_$law.$r"
      (cd "$work" && timeout 300 "$dir/lmp" -nocite -screen none -log "$log" "${args[@]}" \
        -in in.coulomb_solve -var H "$bed" -var law "$law" -var solver newton -var tol 1e-8 \
        -var nsteps "$nsteps" -var graphs "$graphs") ||
        { echo "  $bed $c: lmp failed"; tail -3 "$log"; continue; }
      [ "$how" = kk ] && ! grep -q "pair granular/exact/kk" "$log" && echo "  $bed $c: not /kk"
      # (the timed run is the last)
      t=$(awk '/^Loop time of/ {t=$4} END {print t}' "$log")
      times[$bed|$c]+="$t "
      iterations[$bed|$c]=$(awk '/^BENCH contacts/ {print $5}' "$log")
      [ "$law" = coulomb ] && contacts[$bed]=$(awk '/^BENCH contacts/ {print $3}' "$log")
      # (the friction fix's run-end line of the timed run, where the execution space solved: its
      # solve and the friction's other work, ms per step)
      if [ "$how $law" = "kk coulomb" ]; then
        # (the timed steps must have been made and stored in the execution space, not on the host)
        grep -q "$nsteps of the $nsteps steps of this run solved in .*, $nsteps of them made" "$log" ||
          { echo "  $bed $c: not every timed step was made in the execution space:" >&2
            grep "steps of this run" "$log" | tail -1 >&2; }
        split=$(awk '/steps of this run solved in/ {v = ""; for (f = 1; f < NF; f++) if ($(f + 1) == "ms") v = v $f " "} END {print v}' "$log")
        read -r solve_ms host_ms _ <<< "$split"
        solve_times[$bed|$c]+="${solve_ms:-nan} "
        host_times[$bed|$c]+="${host_ms:-nan} "
      fi
      echo "  repeat $r  $bed  $c: $t s" >&2
    done
  done
done
source "$root/bench/median.sh"
echo "bench/in.coulomb_solve: $nsteps steps after 4 warm-up steps, tol 1e-8, median of $repeats interleaved repeats, 1 process; /kk: -k on ${setup[*]}"
for bed in "${beds[@]}"; do
  classic=$(echo "${times[$bed|kk classic]}" | median)
  echo "  bed $bed: ${contacts[$bed]} contacts"
  for c in "${configs[@]}"; do
    m=$(echo "${times[$bed|$c]}" | median)
    its=""; [ "${c#* }" != classic ] && its="  ${iterations[$bed|$c]} iterations/step"
    printf "    %-13s %9.3f ms/step  ratio to classic under /kk %5.1f%s\n" "$c" \
      "$(echo "$m $nsteps" | awk '{print 1000*$1/$2}')" "$(echo "$m $classic" | awk '{print $1/$2}')" "$its"
  done
  for c in "kk coulomb" "kk coulomb+graphs"; do
    [ -n "${solve_times[$bed|$c]:-}" ] || continue
    printf "    /%s: %s ms/step in the solve, %s ms/step of the friction's other work\n" "$c" \
      "$(echo "${solve_times[$bed|$c]}" | median)" "$(echo "${host_times[$bed|$c]}" | median)"
  done
done
