#!/usr/bin/env bash
# Build GRANULAR-EXACT against the LAMMPS of tools/setup-lammps.sh (installs it on first use).
#
# Usage: tools/build.sh [2025|2026] [--kokkos DIR [--kokkos-backend openmp|cuda] [--kokkos-arch NAME]]
#                       [--no-mpi]
#   2025 -> LAMMPS 4 Feb 2025, build dir build/        (default: $GE_LAMMPS or 2025)
#   2026 -> LAMMPS 4 Jul 2026, build dir build-2026/
#   --kokkos DIR ... -> LAMMPS 4 Feb 2025 with the KOKKOS package built from the Kokkos source
#                       tree DIR you supply (see tools/setup-lammps.sh); the plugin then has the
#                       /kk styles. Build dir build-kokkos-<backend>[-<arch>]/
#   --no-mpi         -> against a LAMMPS without MPI (one process per run, for a machine that has
#                       no MPI library, e.g. one GPU node); builds the plugin, lmp and the kernel
#                       tests, not the deck tests (they run mpiexec). Build dir <as above>-nompi/
# Progress goes to stderr; the only stdout line is the absolute build directory (last line).
set -euo pipefail
cd "$(dirname "$0")/.."

series=${GE_LAMMPS:-2025}
setup_args=() kokkos=0 backend=openmp arch='' nompi=''
while [ $# -gt 0 ]; do
  case "$1" in
    2025|2026) series=$1; shift ;;
    --kokkos|--kokkos-backend|--kokkos-arch)
      [ $# -ge 2 ] || { echo "build.sh: $1 needs a value" >&2; exit 2; }
      case "$1" in --kokkos) kokkos=1 ;; --kokkos-backend) backend=$2 ;; --kokkos-arch) arch=$2 ;; esac
      setup_args+=("$1" "$2"); shift 2 ;;
    --no-mpi) nompi=-nompi; setup_args+=("$1"); shift ;;
    *) echo "build.sh: unknown argument '$1' (expected 2025, 2026, --kokkos DIR, --kokkos-backend B, --kokkos-arch A, --no-mpi)" >&2; exit 2 ;;
  esac
done
case "$series" in
  2025) bdir=$PWD/build ;;
  2026) bdir=$PWD/build-2026 ;;
  *) echo "build.sh: unknown LAMMPS series '$series' (expected 2025 or 2026)" >&2; exit 2 ;;
esac
[ "$kokkos" = 1 ] && bdir=$PWD/build-kokkos-$backend${arch:+-$arch}
bdir=$bdir$nompi

root=$(bash tools/setup-lammps.sh "$series" "${setup_args[@]}" | tail -n 1)
[ -f "$root/src/src/version.h" ] && [ -d "$root/install" ] ||
  { echo "build.sh: setup-lammps.sh gave no usable LAMMPS (got '$root')" >&2; exit 1; }

gen=()
[ -f "$bdir/CMakeCache.txt" ] || gen=(-G Ninja)      # keep the generator of an existing build dir
kk=()
if [ "$kokkos" = 1 ]; then
  kk=(-D GE_KOKKOS=ON -D Kokkos_DIR="$root/build/lib/kokkos")
  # Kokkos' CUDA backend compiles with its nvcc_wrapper, the plugin too
  [ "$backend" = cuda ] && kk+=(-D CMAKE_CXX_COMPILER="$root/src/lib/kokkos/bin/nvcc_wrapper")
fi
echo "[build] configuring $bdir against $root" >&2
cmake -S . -B "$bdir" "${gen[@]}" -D CMAKE_BUILD_TYPE=Release -D CMAKE_CXX_COMPILER_LAUNCHER=ccache \
      -D LAMMPS_SOURCE_DIR="$root/src" -D LAMMPS_DIR="$root/install" "${kk[@]}" >&2
echo "[build] building" >&2
cmake --build "$bdir" -j "$(nproc)" >&2
echo "$bdir"
