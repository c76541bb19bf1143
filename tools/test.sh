#!/usr/bin/env bash
# Build (tools/build.sh) and run all tests with ctest.
#
# Usage: tools/test.sh [--lammps 2025|2026] [--kokkos DIR [--kokkos-backend openmp|cuda]
#                      [--kokkos-arch NAME]] [extra ctest arguments, e.g. -L kernel or -R Name]
#        (the LAMMPS series defaults to $GE_LAMMPS or 2025; --kokkos builds LAMMPS with KOKKOS
#        from the Kokkos source tree DIR you supply and runs the suite with the /kk tests)
# Exits with ctest's status.
set -euo pipefail
cd "$(dirname "$0")/.."

series=${GE_LAMMPS:-2025}
build_args=()
ctest_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --lammps) [ $# -ge 2 ] || { echo "test.sh: --lammps needs 2025 or 2026" >&2; exit 2; }
              series=$2; shift 2 ;;
    --lammps=*) series=${1#--lammps=}; shift ;;
    --kokkos|--kokkos-backend|--kokkos-arch)
              [ $# -ge 2 ] || { echo "test.sh: $1 needs a value" >&2; exit 2; }
              build_args+=("$1" "$2"); shift 2 ;;
    *) ctest_args+=("$1"); shift ;;
  esac
done

bdir=$(bash tools/build.sh "$series" "${build_args[@]}" | tail -n 1)

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMP_NUM_THREADS=1
rc=0
ctest --test-dir "$bdir" --output-on-failure --timeout 600 "${ctest_args[@]}" || rc=$?
exit "$rc"
