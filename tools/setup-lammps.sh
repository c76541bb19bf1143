#!/usr/bin/env bash
# Install the build prerequisites (Debian packages) and build LAMMPS from Debian's source package
# as a shared library with MPI, GRANULAR, PLUGIN and RIGID (for the tests of rigid clumps). The
# build is cached outside the repository (under $GE_CACHE, default ~/.cache/granular-exact) and
# reused when its stamp matches.
#
# Usage: tools/setup-lammps.sh [2025|2026]      (default 2025 = LAMMPS 4 Feb 2025)
# Prints, as its last line, the install prefix of the LAMMPS build (used by tools/build.sh).
set -euo pipefail

series=${1:-${GE_LAMMPS:-2025}}
case "$series" in
  2025) debver=20250204+dfsg.1-2 ;;
  2026) debver=20260704+dfsg-2 ;;
  *) echo "setup-lammps: unknown LAMMPS series '$series' (expected 2025 or 2026)" >&2; exit 2 ;;
esac

cache=${GE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/granular-exact}
root=$cache/lammps-$debver
prefix=$root/install
src=$root/src
options="BUILD_SHARED_LIBS=on BUILD_MPI=on BUILD_OMP=on LAMMPS_SIZES=smallbig PKG_GRANULAR=on PKG_PLUGIN=on PKG_RIGID=on"
stamp="$debver $options"
log() { echo "[setup-lammps] $*" >&2; }

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
  dl=$root/download; mkdir -p "$dl"
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
}

build_lammps() {
  local b=$root/build
  log "configuring LAMMPS ($debver)"
  cmake -S "$src/cmake" -B "$b" -G Ninja -D CMAKE_BUILD_TYPE=Release \
    -D BUILD_SHARED_LIBS=on -D BUILD_MPI=on -D BUILD_OMP=on -D LAMMPS_SIZES=smallbig \
    -D PKG_GRANULAR=on -D PKG_PLUGIN=on -D PKG_RIGID=on -D DOWNLOAD_POTENTIALS=off -D LAMMPS_INSTALL_RPATH=on \
    -D CMAKE_CXX_COMPILER_LAUNCHER=ccache -D CMAKE_INSTALL_PREFIX="$prefix" >"$root/configure.log"
  log "building LAMMPS (about 3.5 min on 2 cores when ccache is cold)"
  cmake --build "$b" -j"$(nproc)" >"$root/build.log" 2>&1 || { tail -40 "$root/build.log" >&2; exit 1; }
  cmake --install "$b" >"$root/install.log"
}

install_packages
mkdir -p "$root"
if [ -f "$root/stamp" ] && [ "$(cat "$root/stamp")" = "$stamp" ] && [ -f "$prefix/lib/cmake/LAMMPS/LAMMPSConfig.cmake" ] \
   && [ -f "$src/src/pair.h" ]; then
  log "reusing cached LAMMPS $debver in $root"
else
  rm -f "$root/stamp"
  fetch_source
  build_lammps
  echo "$stamp" > "$root/stamp"
fi
echo "$root"
