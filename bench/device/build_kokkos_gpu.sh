#!/usr/bin/env bash
# Fill DIR with what the GPU check of the /kk styles (run_kokkos_gpu.sh) needs on a GPU machine
# that has neither MPI nor LAMMPS: a LAMMPS built without MPI, with KOKKOS on CUDA, with this
# plugin (lmp, granularexactplugin.so, liblammps.so.0 and the runtimes it was linked with) and
# compare_packing_states. The decks come from the repository's own tree there.
#
# Usage: bash bench/device/build_kokkos_gpu.sh DIR KOKKOS_SOURCE [ARCH (default HOPPER90)]
#   KOKKOS_SOURCE: a Kokkos 4.x source tree you supply (tools/setup-lammps.sh). Needs CUDA 11.8 or
#   12.x first on PATH (tools/setup-cuda.sh installs Debian's 11.8 in /usr/bin). The first build
#   takes about an hour on 2 cores (LAMMPS and the plugin compiled by nvcc).
# Then, on the GPU machine, from the repository root: bench/device/run_kokkos_gpu.sh DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: build_kokkos_gpu.sh DIR KOKKOS_SOURCE [ARCH]}
kokkos=${2:?usage: build_kokkos_gpu.sh DIR KOKKOS_SOURCE [ARCH]}
arch=${3:-HOPPER90}
[ -x /usr/bin/nvcc ] && /usr/bin/nvcc --version | grep -q "release 1[12]\." && export PATH=/usr/bin:$PATH
bdir=$(bash tools/build.sh --kokkos "$kokkos" --kokkos-backend cuda --kokkos-arch "$arch" --no-mpi | tail -n 1)
mkdir -p "$out"
cp "$bdir/lmp" "$bdir/granularexactplugin.so" "$bdir/unittest/compare_packing_states" "$out/"
# the shared libraries lmp needs that a bare machine may lack or have older (liblammps, the
# CUDA runtime it was linked with, the C++ and OpenMP runtimes, image libraries): all but the C
# library and the GPU driver, which the machine has
ldd "$bdir/lmp" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' |
  while read -r lib path; do
    case "$lib" in
      libc.so.*|libm.so.*|libdl.so.*|libpthread.so.*|librt.so.*|libcuda.so.*|ld-linux*) ;;
      *) cp -L "$path" "$out/$lib" ;;
    esac
  done
[ -f "$out/liblammps.so.0" ] || { echo "build_kokkos_gpu.sh: lmp does not link liblammps.so.0" >&2; exit 1; }
strip "$out/lmp" "$out/liblammps.so.0" "$out/granularexactplugin.so" "$out/compare_packing_states"
# (liblammps holds the device code of every Kokkos kernel, about 90 MB for one architecture:
# compressed to about 23 MB, so that DIR fits what a device run carries; run_kokkos_gpu.sh
# unpacks it there)
gzip -9 -f "$out/liblammps.so.0"
cp bench/device/run_kokkos_gpu.sh "$out/"
du -sh "$out" >&2
echo "$out"
