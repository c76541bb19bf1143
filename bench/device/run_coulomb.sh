#!/bin/bash
# Run on the GPU machine, from the folder bench/device/build.sh filled: the APGD friction solver
# of `tangential coulomb` on the settled beds' problems in PROBLEMS (bench/device/export_problems.sh
# writes them: problem_<height>.bin), on one host core and on the device, then tiled beds on the
# device alone (bench/README.md, "The Coulomb solver on a GPU").
# Usage: run_coulomb.sh PROBLEMS
cd "$(dirname "$0")"
problems=${1:?usage: run_coulomb.sh PROBLEMS}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv
lscpu | grep -E "Model name"
for H in 9.1 18.1 36.1 72.1 72.2; do
  timeout 120 ./coulomb_apgd "$problems/problem_$H.bin" 1 1 || echo "rc=$?"
done
# beds 2 and 4 times as wide (36 layers): the host's solve takes up to a few minutes
for bed in 24x36.1 48x36.1; do
  [ -f "$problems/problem_$bed.bin" ] && { timeout 400 ./coulomb_apgd "$problems/problem_$bed.bin" 1 1 || echo "rc=$?"; }
done
# the deepest bed at rest: beyond the host's reach (over 100,000 iterations at ~1.2 ms each)
timeout 150 ./coulomb_apgd "$problems/problem_144.2.bin" 1 0 1000000 || echo "rc=$?"
# larger beds: the same problems tiled across the box (the same solution and iterations)
timeout 60 ./coulomb_apgd "$problems/problem_72.2.bin" 4 0 || echo "rc=$?"
timeout 60 ./coulomb_apgd "$problems/problem_72.2.bin" 8 0 || echo "rc=$?"
# (the time per iteration of the deepest bed tiled: 20,000 iterations, short of tol)
timeout 120 ./coulomb_apgd "$problems/problem_144.2.bin" 4 0 20000 || echo "rc=$?"
