#!/bin/sh
# CTest's stand-in for the device tests on a machine without nvcc (unittest/CMakeLists.txt).
echo "skipped: nvcc was not found when the project was configured (CUDA toolkit not installed;"
echo "set CUDA_HOME or put nvcc on PATH and configure again to compile the device code)"
exit 77
