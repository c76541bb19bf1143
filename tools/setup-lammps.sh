#!/usr/bin/env bash
# Install the build prerequisites (Debian packages) and build LAMMPS from Debian's source package
# as a shared library with MPI, GRANULAR, PLUGIN and RIGID (for the tests of rigid clumps). The
# build is cached outside the repository (under $GE_CACHE, default ~/.cache/granular-exact) and
# reused when its stamp matches.
#
# Usage: tools/setup-lammps.sh [2025|2026] [--kokkos DIR [--kokkos-backend openmp|cuda]
#                                                    [--kokkos-arch NAME]] [--no-mpi]
#   2025|2026         LAMMPS 4 Feb 2025 (default) or 4 Jul 2026
#   --kokkos DIR      also build LAMMPS's KOKKOS package from the Kokkos source tree DIR, which you
#                     supply (a release 4.5.01 or 4.6.01 of the public Kokkos project; the project
#                     neither ships nor downloads it). Only for 2025: LAMMPS 4 Jul 2026's KOKKOS
#                     package needs Kokkos >= 5.1 and C++20.
#   --kokkos-backend  openmp (default) or cuda. cuda needs an nvcc that can compile Kokkos 4.x on
#                     PATH (CUDA 11.8 or 12.x; CUDA 13 cannot) and --kokkos-arch.
#   --kokkos-arch     a Kokkos architecture name, e.g. HOPPER90 or AMPERE80 (Kokkos_ARCH_<NAME>)
#   --no-mpi          LAMMPS without MPI (its serial STUBS library), for one-process runs on a
#                     machine without an MPI library, e.g. a single GPU node
# Each set of options has its own cached build, keyed by them and by the Kokkos version.
# Prints, as its last line, the root of the LAMMPS build (used by tools/build.sh): the source tree
# is <root>/src, the install prefix <root>/install.
set -euo pipefail

series=${GE_LAMMPS:-2025}
kokkos_dir='' kokkos_backend=openmp kokkos_arch='' mpi=on
while [ $# -gt 0 ]; do
  case "$1" in
    2025|2026) series=$1; shift ;;
    --kokkos) [ $# -ge 2 ] || { echo "setup-lammps: --kokkos needs a Kokkos source directory" >&2; exit 2; }
              kokkos_dir=$2; shift 2 ;;
    --kokkos-backend) [ $# -ge 2 ] || { echo "setup-lammps: --kokkos-backend needs openmp or cuda" >&2; exit 2; }
              kokkos_backend=$2; shift 2 ;;
    --kokkos-arch) [ $# -ge 2 ] || { echo "setup-lammps: --kokkos-arch needs a Kokkos architecture name (e.g. HOPPER90)" >&2; exit 2; }
              kokkos_arch=$2; shift 2 ;;
    --no-mpi) mpi=off; shift ;;
    *) echo "setup-lammps: unknown argument '$1' (expected 2025, 2026, --kokkos DIR, --kokkos-backend openmp|cuda, --kokkos-arch NAME, --no-mpi)" >&2; exit 2 ;;
  esac
done
case "$series" in
  2025) debver=20250204+dfsg.1-2 ;;
  2026) debver=20260704+dfsg-2 ;;
  *) echo "setup-lammps: unknown LAMMPS series '$series' (expected 2025 or 2026)" >&2; exit 2 ;;
esac

cache=${GE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/granular-exact}
root=$cache/lammps-$debver
download=$root/download
options="BUILD_SHARED_LIBS=on BUILD_MPI=$mpi BUILD_OMP=on LAMMPS_SIZES=smallbig PKG_GRANULAR=on PKG_PLUGIN=on PKG_RIGID=on"
log() { echo "[setup-lammps] $*" >&2; }

# The Kokkos version of a source tree, from its top CMakeLists.txt (e.g. 4.5.1).
kokkos_version() {
  awk '/set\(Kokkos_VERSION_(MAJOR|MINOR|PATCH) /{gsub(/\)/,"",$2); v=v (v==""?"":".") $2} END{print v}' \
    "$1/CMakeLists.txt"
}

kokkos_cmake_args=()
if [ -n "$kokkos_dir" ]; then
  [ "$series" = 2025 ] || { log "--kokkos: LAMMPS 4 Jul 2026's KOKKOS package needs Kokkos >= 5.1 and C++20; the /kk styles are built for LAMMPS 4 Feb 2025 (Kokkos 4.x)"; exit 2; }
  [ -f "$kokkos_dir/CMakeLists.txt" ] && [ -d "$kokkos_dir/core/src" ] ||
    { log "--kokkos $kokkos_dir is not a Kokkos source tree (no CMakeLists.txt and core/src)"; exit 2; }
  kokkos_dir=$(cd "$kokkos_dir" && pwd)
  kv=$(kokkos_version "$kokkos_dir")
  case "$kv" in
    4.5.*|4.6.*|4.7.*) ;;
    *) log "--kokkos $kokkos_dir is Kokkos '$kv'; LAMMPS 4 Feb 2025 needs Kokkos 4.5.01 or a later 4.x"; exit 2 ;;
  esac
  key=kokkos$kv-$kokkos_backend
  case "$kokkos_backend" in
    openmp) kokkos_cmake_args=(-D Kokkos_ENABLE_OPENMP=on -D Kokkos_ENABLE_SERIAL=on) ;;
    cuda)
      [ -n "$kokkos_arch" ] || { log "--kokkos-backend cuda needs --kokkos-arch (e.g. HOPPER90 for H100/H200)"; exit 2; }
      command -v nvcc >/dev/null || { log "--kokkos-backend cuda: no nvcc on PATH (CUDA 11.8 or 12.x; CUDA 13 cannot compile Kokkos 4.x)"; exit 2; }
      # the compiler is Kokkos's nvcc_wrapper, set below once the source folder is known
      kokkos_cmake_args=(-D Kokkos_ENABLE_CUDA=on -D Kokkos_ENABLE_OPENMP=on -D Kokkos_ENABLE_SERIAL=on) ;;
    *) log "--kokkos-backend '$kokkos_backend': expected openmp or cuda"; exit 2 ;;
  esac
  if [ -n "$kokkos_arch" ]; then
    [[ "$kokkos_arch" =~ ^[A-Z0-9_]+$ ]] || { log "--kokkos-arch '$kokkos_arch': expected a Kokkos architecture name such as HOPPER90"; exit 2; }
    kokkos_cmake_args+=(-D "Kokkos_ARCH_$kokkos_arch=on"); key=$key-$kokkos_arch
  fi
  root=$root-$key
  options="$options PKG_KOKKOS=on $kokkos_backend $kokkos_arch kokkos=$kv"
fi
[ "$mpi" = on ] || root=$root-nompi
prefix=$root/install
src=$root/src
stamp="$debver $options"
[ "$kokkos_backend" = cuda ] && [ -n "$kokkos_dir" ] &&
  kokkos_cmake_args+=(-D CMAKE_CXX_COMPILER="$src/lib/kokkos/bin/nvcc_wrapper")

install_packages() {
  local pkgs=(build-essential cmake ninja-build ccache libopenmpi-dev openmpi-bin
              libgtest-dev libgmock-dev python3-matplotlib python3-numpy xz-utils ca-certificates)
  local missing=()
  for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  [ "$(id -u)" -eq 0 ] || { log "missing packages (${missing[*]}); run as root or install them"; exit 1; }
  log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# True when apt already knows the wanted lammps source version. awk reads all of its input, so
# apt-cache never dies of SIGPIPE under pipefail.
source_known() {
  apt-cache showsrc lammps 2>/dev/null |
    awk -v v="$debver" '$1=="Version:" && $2==v {f=1} END {exit !f}'
}

# Derive a deb-src entry from this machine's own Debian source list (no host name is written in
# the repository), covering the suites that carry the two LAMMPS versions.
add_deb_src() {
  local deb=/etc/apt/sources.list.d/debian.sources uri key
  [ -f "$deb" ] || { log "no $deb to derive a deb-src entry from"; exit 1; }
  uri=$(awk 'BEGIN{RS="";FS="\n"} /Types:[^\n]*deb/ && !/security/ {
          for(i=1;i<=NF;i++) if($i ~ /^URIs:/){sub(/^URIs:[ \t]*/,"",$i); split($i,a," "); print a[1]; exit}}' "$deb")
  key=$(awk 'BEGIN{RS="";FS="\n"} /Types:[^\n]*deb/ && !/security/ {
          for(i=1;i<=NF;i++) if($i ~ /^Signed-By:/){sub(/^Signed-By:[ \t]*/,"",$i); print $i; exit}}' "$deb")
  [ -n "$uri" ] || { log "could not read a URI from $deb"; exit 1; }
  log "adding a deb-src entry derived from $deb"
  printf 'Types: deb-src\nURIs: %s\nSuites: trixie sid\nComponents: main\nSigned-By: %s\n' \
    "$uri" "${key:-/usr/share/keyrings/debian-archive-keyring.gpg}" \
    > /etc/apt/sources.list.d/granular-exact-lammps-src.sources
  apt-get update -qq
}

fetch_source() {
  source_known || add_deb_src
  source_known || { log "apt does not know lammps=$debver"; exit 1; }
  local sha name dl top tmp
  read -r sha name < <(apt-cache showsrc lammps | awk -v v="$debver" '
    /^Package:/{p=0} /^Version:/{p=($2==v)} p&&/^Checksums-Sha256:/{c=1;next}
    p&&c&&/^ /{if($3~/\.orig\.tar\./ && !d){print $1,$3;d=1}} /^[A-Z]/{c=0}')
  [ -n "${name:-}" ] || { log "no orig tarball listed for lammps=$debver"; exit 1; }
  dl=$download; mkdir -p "$dl"     # one download serves the plain and the KOKKOS builds
  if ! echo "$sha  $dl/$name" | sha256sum -c --quiet - >/dev/null 2>&1; then
    log "downloading $name"
    # The .dsc and debian tarball may be missing from the archive (exit 100); the orig tarball suffices.
    (cd "$dl" && apt-get source --download-only "lammps=$debver" >apt.log 2>&1) || true
    [ -f "$dl/$name" ] || { cat "$dl/apt.log" >&2; log "orig tarball $name not downloaded"; exit 1; }
    echo "$sha  $dl/$name" | sha256sum -c --quiet - || { log "sha256 mismatch for $name"; exit 1; }
  fi
  log "extracting $name"
  rm -rf "$src"; tmp=$(mktemp -d -p "$root"); tar xf "$dl/$name" -C "$tmp"
  # 4 Feb 2025 has a top-level folder, 4 Jul 2026 none.
  if [ -f "$tmp/cmake/CMakeLists.txt" ]; then top=$tmp; else top=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d | head -1); fi
  mv "$top" "$src" 2>/dev/null || { mkdir -p "$src"; cp -a "$top"/. "$src"/; }
  rm -rf "$tmp"
  [ -f "$src/cmake/CMakeLists.txt" ] || { log "unexpected source layout in $name"; exit 1; }
  if [ -n "$kokkos_dir" ]; then
    # LAMMPS's bundled-Kokkos mode builds lib/kokkos (Debian's tarball strips the bundled copy)
    log "copying the Kokkos source tree $kokkos_dir (Kokkos $kv) into lib/kokkos"
    rm -rf "$src/lib/kokkos"; cp -a "$kokkos_dir" "$src/lib/kokkos"
  fi
}

build_lammps() {
  local b=$root/build
  log "configuring LAMMPS ($debver)"
  cmake -S "$src/cmake" -B "$b" -G Ninja -D CMAKE_BUILD_TYPE=Release \
    -D BUILD_SHARED_LIBS=on -D BUILD_MPI=$mpi -D BUILD_OMP=on -D LAMMPS_SIZES=smallbig \
    -D PKG_GRANULAR=on -D PKG_PLUGIN=on -D PKG_RIGID=on -D DOWNLOAD_POTENTIALS=off -D LAMMPS_INSTALL_RPATH=on \
    -D CMAKE_CXX_COMPILER_LAUNCHER=ccache -D CMAKE_INSTALL_PREFIX="$prefix" \
    ${kokkos_dir:+-D PKG_KOKKOS=on} "${kokkos_cmake_args[@]}" >"$root/configure.log"
  if [ -n "$kokkos_dir" ]; then
    log "building LAMMPS with KOKKOS ($kokkos_backend) (about 10 min on 2 cores when ccache is cold)"
  else
    log "building LAMMPS (about 3.5 min on 2 cores when ccache is cold)"
  fi
  cmake --build "$b" -j"$(nproc)" >"$root/build.log" 2>&1 || { tail -40 "$root/build.log" >&2; exit 1; }
  cmake --install "$b" >"$root/install.log"
}

install_packages
mkdir -p "$root"
if [ -f "$root/stamp" ] && [ "$(cat "$root/stamp")" = "$stamp" ] && [ -f "$prefix/lib/cmake/LAMMPS/LAMMPSConfig.cmake" ] \
   && [ -f "$src/src/pair.h" ]; then
  log "reusing cached LAMMPS $debver${kokkos_dir:+ with KOKKOS ($key)} in $root"
else
  rm -f "$root/stamp"
  fetch_source
  build_lammps
  echo "$stamp" > "$root/stamp"
fi
echo "$root"
