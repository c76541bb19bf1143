#!/usr/bin/env bash
# Build GRANULAR-EXACT against the LAMMPS of tools/setup-lammps.sh (installs it on first use).
#
# Usage: tools/build.sh [2025|2026]     (default: $GE_LAMMPS or 2025)
#   2025 -> LAMMPS 4 Feb 2025, build dir build/
#   2026 -> LAMMPS 4 Jul 2026, build dir build-2026/
# Progress goes to stderr; the only stdout line is the absolute build directory (last line).
set -euo pipefail
cd "$(dirname "$0")/.."

series=${1:-${GE_LAMMPS:-2025}}
case "$series" in
  2025) bdir=$PWD/build ;;
  2026) bdir=$PWD/build-2026 ;;
  *) echo "build.sh: unknown LAMMPS series '$series' (expected 2025 or 2026)" >&2; exit 2 ;;
esac

root=$(bash tools/setup-lammps.sh "$series" | tail -n 1)
[ -f "$root/src/src/version.h" ] && [ -d "$root/install" ] ||
  { echo "build.sh: setup-lammps.sh gave no usable LAMMPS (got '$root')" >&2; exit 1; }

gen=()
[ -f "$bdir/CMakeCache.txt" ] || gen=(-G Ninja)      # keep the generator of an existing build dir
echo "[build] configuring $bdir against $root" >&2
cmake -S . -B "$bdir" "${gen[@]}" -D CMAKE_BUILD_TYPE=Release -D CMAKE_CXX_COMPILER_LAUNCHER=ccache \
      -D LAMMPS_SOURCE_DIR="$root/src" -D LAMMPS_DIR="$root/install" >&2
echo "[build] building" >&2
cmake --build "$bdir" -j "$(nproc)" >&2
echo "$bdir"
