#!/usr/bin/env bash
# Compile the plugin's sources, the /kk styles included, as a KOKKOS CUDA build of LAMMPS would
# (Kokkos' nvcc_wrapper, the flags of LAMMPS's own KOKKOS files), without building LAMMPS or
# Kokkos and without a GPU: a check that the /kk styles compile for a GPU architecture here.
# (A whole KOKKOS CUDA LAMMPS: tools/build.sh --kokkos DIR --kokkos-backend cuda --kokkos-arch A.)
#
# Usage: tools/check-kokkos-cuda.sh KOKKOS_DIR [ARCH (default HOPPER90)]
#   KOKKOS_DIR: a Kokkos 4.x source tree you supply. Needs an nvcc that can compile Kokkos 4.x
#   (CUDA 11.8 or 12.x; tools/setup-cuda.sh installs Debian's 11.8, found in /usr/bin) and the
#   LAMMPS 4 Feb 2025 source of tools/setup-lammps.sh (downloaded on first use).
# Exits non-zero on the first compile error; prints the registers and stack of the force kernels.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: tools/check-kokkos-cuda.sh KOKKOS_DIR [ARCH]" >&2; exit 2; }
kokkos_dir=$(cd "$1" && pwd) arch=${2:-HOPPER90}
log() { echo "[check-kokkos-cuda] $*" >&2; }
[ -x /usr/bin/nvcc ] && /usr/bin/nvcc --version | grep -q "release 1[12]\." && export PATH=/usr/bin:$PATH
nvcc --version | grep -q "release 1[12]\." ||
  { log "needs CUDA 11.8 or 12.x first on PATH (CUDA 13 cannot compile Kokkos 4.x): tools/setup-cuda.sh"; exit 1; }

# the LAMMPS source (the plain build's; configured, not built, with KOKKOS CUDA)
root=$(bash tools/setup-lammps.sh 2025 | tail -n 1)
cache=${GE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/granular-exact}
work=$cache/check-kokkos-cuda-$arch
src=$work/lammps
if [ ! -f "$src/lib/kokkos/CMakeLists.txt" ] || ! diff -q "$kokkos_dir/CMakeLists.txt" "$src/lib/kokkos/CMakeLists.txt" >/dev/null; then
  log "copying LAMMPS's source and the Kokkos tree $kokkos_dir"
  rm -rf "$work"; mkdir -p "$work"
  cp -a "$root/src" "$src"; rm -rf "$src/lib/kokkos"; cp -a "$kokkos_dir" "$src/lib/kokkos"
fi
b=$work/build
if [ ! -f "$b/build.ninja" ]; then
  log "configuring LAMMPS with KOKKOS (CUDA, $arch)"
  cmake -S "$src/cmake" -B "$b" -G Ninja -D CMAKE_BUILD_TYPE=Release -D BUILD_SHARED_LIBS=on \
    -D BUILD_MPI=on -D BUILD_OMP=on -D PKG_GRANULAR=on -D PKG_PLUGIN=on -D PKG_RIGID=on \
    -D PKG_KOKKOS=on -D Kokkos_ENABLE_CUDA=on -D Kokkos_ENABLE_OPENMP=on -D "Kokkos_ARCH_$arch=on" \
    -D CMAKE_CXX_COMPILER="$src/lib/kokkos/bin/nvcc_wrapper" -D DOWNLOAD_POTENTIALS=off \
    > "$work/configure.log" 2>&1 || { tail -30 "$work/configure.log" >&2; exit 1; }
fi
# the flags LAMMPS compiles its own KOKKOS pair styles with
flags=$(grep -m1 -A8 "build CMakeFiles/lammps.dir/.*KOKKOS/pair_gran_hooke_history_kokkos.cpp.o" "$b/build.ninja" |
        grep -E "^  (FLAGS|DEFINES|INCLUDES) = " | sed 's/^  [A-Z]* = //' | tr '\n' ' ')
[ -n "$flags" ] || { log "no compile flags found in $b/build.ninja"; exit 1; }
mkdir -p "$work/obj"
for f in src/kokkos/*.cpp src/lammps/*.cpp; do
  log "compiling $f"
  # shellcheck disable=SC2086
  "$src/lib/kokkos/bin/nvcc_wrapper" $flags -DGE_LAMMPS_VERSION=20250204 -DGE_HAVE_KOKKOS \
    -Isrc -Isrc/lammps -Isrc/kokkos -fno-math-errno -c "$f" -o "$work/obj/$(basename "$f").o"
done
log "force kernels (registers, stack per thread):"
cuobjdump -res-usage "$work/obj/pair_granular_exact_kokkos.cpp.o" 2>/dev/null |
  awk '/Function .*ForceLoop/ {match($0, /ForceLoopIN[^E]*E[^E]*E/); f=substr($0, RSTART, 60); getline;
       match($0, /REG:[0-9]+/); r=substr($0, RSTART, RLENGTH); match($0, /STACK:[0-9]+/); print "  " r, substr($0, RSTART, RLENGTH), f}' >&2
log "all sources compiled for $arch"
