#!/bin/bash
# Run on the GPU machine, from the folder bench/device/build.sh filled: the Newton friction
# solver of `tangential coulomb` (the default) on the settled beds' problems in PROBLEMS
# (SOLVER=newton bench/device/export_problems.sh writes them: problem_<bed>.bin), on one host
# core in the fix's order and in the colours' order, and on the device; then APGD on the device
# from the same starts (coulomb_apgd), and tiled beds on the device alone (bench/README.md, "The
# Newton solver on a GPU").
# Usage: run_coulomb_newton.sh PROBLEMS
cd "$(dirname "$0")"
problems=${1:?usage: run_coulomb_newton.sh PROBLEMS}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv
lscpu | grep -E "Model name"
beds=(9.1 18.1 36.1 72.1 72.2 24x36.1)
for bed in "${beds[@]}"; do
  [ -f "$problems/problem_$bed.bin" ] || continue
  echo "== $bed"
  timeout 120 ./coulomb_newton "$problems/problem_$bed.bin" 1 1 || echo "rc=$?"
  echo "-- APGD alone on the device, from the same start"
  timeout 60 ./coulomb_apgd "$problems/problem_$bed.bin" 1 0 | grep -E "gather|contacts" || echo "rc=$?"
done
# larger beds: the problems tiled across the box (the same solution; in exact arithmetic the same
# iterations)
for tiled in "72.2 4" "72.2 8" "24x36.1 4"; do
  read -r bed tile <<< "$tiled"
  [ -f "$problems/problem_$bed.bin" ] || continue
  echo "== $bed tiled $tile x $tile"
  timeout 120 ./coulomb_newton "$problems/problem_$bed.bin" "$tile" 0 || echo "rc=$?"
  echo "-- APGD alone on the device, from the same start"
  timeout 120 ./coulomb_apgd "$problems/problem_$bed.bin" "$tile" 0 | grep -E "gather|contacts" || echo "rc=$?"
done
