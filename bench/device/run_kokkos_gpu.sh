#!/bin/bash
# Run on the GPU machine, from the repository root, with DIR filled by build_kokkos_gpu.sh:
# pair_style granular/exact/kk on the GPU (`-k on g 1 -sf kk`) against the host style, then the
# benchmark of bench/run_kokkos.sh on the GPU (bench/README.md, "The Kokkos styles on a GPU").
#
# Usage: bench/device/run_kokkos_gpu.sh DIR [steps of the large benchmark (default 300)]
#   KOKKOS_SETUP (environment): what follows `-k on`, default "g 1" ("t 1" tries the script on a
#   host-only KOKKOS build)
#   PARTS (environment): which of the parts below to run, default "check bench large" ("hub":
#   part 1b alone). FAMILIES (environment): the names of kokkos_families.txt that part 1 checks,
#   default all of them. On an
#   H100 the check took about 3 minutes and the bench about 3 (one device session has 15 minutes,
#   the machine's start included): run the large benchmark in a call of its own.
#
# 1. Every law family of unittest/decks/kokkos_families.txt on the sheared packing, as
#    unittest/test_deck_kokkos.cpp runs them: one process with the host style, one with /kk on the
#    GPU (newton off; on for `tangential coulomb`, whose friction step - the contacts made from
#    their histories, the Newton solve, the result stored - must run on the GPU every step); the
#    states after 1 step must agree to 1e-13 (1e-12 for coulomb: the two solves stop at other
#    iterates within tol 1e-13) and after 200 steps to 1e-10 (the tolerances of the OpenMP tests;
#    the packing amplifies round-off over the steps). Each line ends "same" or "DIFFERENT"; the
#    script's status is the number of DIFFERENT.
#    1b. The same for a sphere with 120 contacts (unittest/decks/in.coulomb_hub), which needs
#    120 colours; the device must solve every step.
# 2. bench/run_kokkos.sh: the bench deck (20,384 spheres) on the host styles (one core) and on
#    the GPU, and 16 times wider on the GPU alone.
set -uo pipefail
dir=$(cd "${1:?usage: run_kokkos_gpu.sh DIR [steps]}" && pwd)
big_steps=${2:-300}
root=$(cd "$(dirname "$0")/../.." && pwd)
[ -f "$root/unittest/decks/kokkos_families.txt" ] || root=$PWD
work=$(mktemp -d)
# (build_kokkos_gpu.sh carries liblammps compressed)
[ -f "$dir/liblammps.so.0.gz" ] && gunzip -c "$dir/liblammps.so.0.gz" > "$work/liblammps.so.0"
export LD_LIBRARY_PATH=$work:$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
missing=$(ldd "$dir/lmp" | grep "not found")
[ -z "$missing" ] || { echo "run_kokkos_gpu.sh: libraries missing: $missing"; exit 99; }
export OMP_PROC_BIND=false OMP_NUM_THREADS=1
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
lscpu | grep -E "Model name"
setup=${KOKKOS_SETUP:-g 1}
read -r -a setup_words <<< "$setup"
gpu=(-k on "${setup_words[@]}" -sf kk)

decks=$root/unittest/decks
cat > "$work/packing.in" <<DECK
variable packing_dir index $decks
include $decks/in.sheared_packing
run \${nsteps}
run 0 post no
include $decks/in.write_state
DECK
parts=${PARTS:-check bench large}
different=0
[[ " $parts " == *" check "* ]] && echo "== /kk on the GPU against the host style (sheared packing, newton off; on for coulomb)"
[[ " $parts " == *" check "* ]] && while read -r line; do
  [[ "$line" =~ ^[[:space:]]*(#|$) ]] && continue
  IFS='|' read -r name store contact vars <<< "$line"
  name=$(echo "$name" | xargs) store=$(echo "$store" | xargs) contact=$(echo "$contact" | xargs)
  [ -z "${FAMILIES:-}" ] || [[ " $FAMILIES " == *" $name "* ]] || continue
  read -r -a extra <<< "$vars"
  # (`tangential coulomb` needs newton on: its friction fix solves each contact once)
  newton=off; [[ "$contact" == *coulomb* ]] && newton=on
  for n in 1 200; do
    tol=1e-10; [ "$n" = 1 ] && tol=1e-13
    [ "$n" = 1 ] && [ "$newton" = on ] && tol=1e-12
    for how in host gpu; do
      args=(); [ "$how" = gpu ] && args=("${gpu[@]}" -pk kokkos newton "$newton" neigh half)
      (cd "$work" && timeout 120 "$dir/lmp" -nocite -screen none -log "log.$name.$n.$how" \
         "${args[@]}" -in packing.in -var newton "$newton" -var nsteps "$n" -var contact "$contact" \
         -var history "$store" "${extra[@]}" -var out "$name.$n.$how") ||
        { echo "  $name $n steps $how: lmp failed:"; tail -5 "$work/log.$name.$n.$how"; }
    done
    grep -q "pair granular/exact/kk" "$work/log.$name.$n.gpu" ||
      { echo "  $name: the GPU run did not use granular/exact/kk"; different=$((different + 1)); }
    [ "$newton" = off ] || grep -q "(solver newton) is solved in the Kokkos device" "$work/log.$name.$n.gpu" ||
      { echo "  $name: the friction was not solved on the GPU"; different=$((different + 1)); }
    # (every step of the run made from the slots, solved and stored on the GPU)
    [ "$newton" = off ] || grep -q "$n of the $n steps of this run solved in the Kokkos device, $n of them made" "$work/log.$name.$n.gpu" ||
      { echo "  $name: not every step of the friction was made and stored on the GPU:"
        grep "steps of this run" "$work/log.$name.$n.gpu"; different=$((different + 1)); }
    result=$(cd "$work" && "$dir/compare_packing_states" "$name.$n.host" "$name.$n.gpu" "$tol")
    [ $? -eq 0 ] || different=$((different + 1))
    echo "  $n steps: $result"
  done
done < "$decks/kokkos_families.txt"
[[ " $parts " == *" check "* ]] && echo "families DIFFERENT: $different"

# 1b. A sphere with 120 contacts (unittest/decks/in.coulomb_hub, 200 steps at tol 1e-13): the
#    device takes its 120 colours (host threads leave such a step to the fix), and the spheres
#    end where the host style's do, to 1e-10 (each column relative to its largest magnitude).
if [[ " $parts " == *" check "* || " $parts " == *" hub "* ]]; then
  echo "== a sphere with 120 contacts, /kk on the GPU against the host style (200 steps)"
  for how in host gpu; do
    args=("${gpu[@]}" -pk kokkos newton on neigh half); [ "$how" = host ] && args+=(-var host_pair yes)
    printf 'include %s\nrun 200\nwrite_dump all custom hub.%s.atoms id proc xu yu zu vx vy vz fx fy fz omegax omegay omegaz tqx tqy tqz modify format float %%.17g sort id\n' \
      "$decks/in.coulomb_hub" "$how" > "$work/hub.$how.in"
    (cd "$work" && timeout 120 "$dir/lmp" -nocite -screen none -log "log.hub.$how" "${args[@]}" \
       -in "hub.$how.in") || { echo "  hub $how: lmp failed:"; tail -5 "$work/log.hub.$how"; }
  done
  grep -q "200 of the 200 steps of this run solved in the Kokkos device, 200 of them made" "$work/log.hub.gpu" ||
    { echo "  hub: not every step was solved on the GPU:"; grep "steps of this run" "$work/log.hub.gpu";
      different=$((different + 1)); }
  result=$(cd "$work" && "$dir/compare_packing_states" --atoms-only hub.host hub.gpu 1e-10)
  [ $? -eq 0 ] || different=$((different + 1))
  echo "  $result"
fi

if [[ " $parts " == *" bench "* ]]; then
  echo "== benchmark, the bench deck (host styles on one core, /kk on the GPU)"
  bash "$root/bench/run_kokkos.sh" "$dir" 300 3 "$setup"
fi
if [[ " $parts " == *" large "* ]]; then
  echo "== benchmark, 16 times wider, /kk on the GPU ($big_steps steps)"
  BENCH_SCALE=4 BENCH_HOST=0 bash "$root/bench/run_kokkos.sh" "$dir" "$big_steps" 3 "$setup"
fi
rm -rf "$work"
exit "$different"
