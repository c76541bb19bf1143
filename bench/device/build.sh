#!/usr/bin/env bash
# Build the device check, the kernel throughput benchmark and the Coulomb APGD and Newton
# benchmarks for a CUDA GPU into DIR, with run.sh, run_coulomb.sh and run_coulomb_newton.sh to run
# them there (a GPU machine needs no compiler: carry DIR, ~4 MB, and run DIR/run.sh).
#
# Usage: bash bench/device/build.sh DIR [arch, default sm_90 (H100/H200)]
# Needs nvcc (CUDA 12 or 13); the binaries link the CUDA runtime statically.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: build.sh DIR [arch]}
arch=${2:-sm_90}
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$nvcc" ] || { echo "build.sh: nvcc not found (install a CUDA toolkit)" >&2; exit 1; }
mkdir -p "$out"
# the check as CTest builds it (no FMA contraction), and as a KOKKOS CUDA build compiles (with)
"$nvcc" -std=c++17 -O2 -arch="$arch" -fmad=false -I src -o "$out/device_kernels" \
  unittest/device/device_kernels.cu
"$nvcc" -std=c++17 -O2 -arch="$arch" -I src -o "$out/device_kernels_fma" \
  unittest/device/device_kernels.cu
"$nvcc" -std=c++17 -O3 -arch="$arch" -I src -o "$out/kernel_throughput" \
  bench/device/kernel_throughput.cu
# the APGD friction solver of `tangential coulomb` on the device (bench/device/coulomb_apgd.cu)
"$nvcc" -std=c++17 -O3 -arch="$arch" -I src -o "$out/coulomb_apgd" bench/device/coulomb_apgd.cu
# the Newton solver (the default) on the device, its passes written once for host and device
# (bench/device/coulomb_newton.cu; the passes are lambdas run as kernels)
"$nvcc" -std=c++17 -O3 -arch="$arch" --extended-lambda -I src -o "$out/coulomb_newton" \
  bench/device/coulomb_newton.cu
strip "$out"/device_kernels "$out"/device_kernels_fma "$out"/kernel_throughput "$out"/coulomb_apgd \
  "$out"/coulomb_newton
cp bench/device/run.sh bench/device/run_coulomb.sh bench/device/run_coulomb_newton.sh "$out/"
echo "$out"
