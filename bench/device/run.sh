#!/bin/bash
# Run on the GPU machine, from the folder bench/device/build.sh filled.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv
lscpu | grep -E "Model name|^CPU\(s\)"
echo "== device_kernels (-fmad=false)"; timeout 120 ./device_kernels; echo rc=$?
echo "== device_kernels (FMA contraction, nvcc's default)"; timeout 120 ./device_kernels_fma; echo rc=$?
echo "== kernel_throughput 4M contacts"; timeout 200 ./kernel_throughput 4194304 50; echo rc=$?
echo "== kernel_throughput 1M contacts"; timeout 100 ./kernel_throughput 1048576 50; echo rc=$?
