#!/usr/bin/env bash
# Optional: a CUDA toolkit that can compile Kokkos 4.x, for the /kk styles with Kokkos' CUDA
# backend. CUDA 13 cannot compile Kokkos 4.5/4.6 (its graph and memory-advice calls changed);
# Debian 12's non-free archive has CUDA 11.8 (nvidia-cuda-toolkit, with its own g++-11 as the
# host compiler), which can, for up to Hopper (sm_90). Nothing else in the project needs it.
#
# Usage (as root): tools/setup-cuda.sh
#   Adds the contrib and non-free components with an apt source derived from this machine's own Debian source
#   list (no host name is written in the repository) and installs nvidia-cuda-toolkit.
#   Prints, as its last line, the directory of that nvcc: put it first on PATH for
#   tools/setup-lammps.sh --kokkos DIR --kokkos-backend cuda --kokkos-arch HOPPER90.
set -euo pipefail
log() { echo "[setup-cuda] $*" >&2; }

if [ -x /usr/bin/nvcc ] && /usr/bin/nvcc --version | grep -q "release 11\." && command -v g++-11 >/dev/null; then
  log "CUDA 11 already installed: $(/usr/bin/nvcc --version | tail -1)"
  echo /usr/bin
  exit 0
fi
[ "$(id -u)" -eq 0 ] || { log "run as root (it installs Debian packages)"; exit 1; }

deb=/etc/apt/sources.list.d/debian.sources
[ -f "$deb" ] || { log "no $deb to derive a non-free entry from"; exit 1; }
read -r uri suites key < <(awk 'BEGIN{RS="";FS="\n"} /Types:[^\n]*deb/ && !/security/ {
    u=s=k=""
    for(i=1;i<=NF;i++){
      if($i ~ /^URIs:/){sub(/^URIs:[ \t]*/,"",$i); split($i,a," "); u=a[1]}
      if($i ~ /^Suites:/){sub(/^Suites:[ \t]*/,"",$i); s=$i; gsub(/ /,",",s)}
      if($i ~ /^Signed-By:/){sub(/^Signed-By:[ \t]*/,"",$i); k=$i}
    }
    print u, s, k; exit}' "$deb")
[ -n "${uri:-}" ] && [ -n "${suites:-}" ] || { log "could not read a URI and suites from $deb"; exit 1; }
log "adding the contrib and non-free components (${suites//,/ }) derived from $deb"
printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: contrib non-free\nSigned-By: %s\n' \
  "$uri" "${suites//,/ }" "${key:-/usr/share/keyrings/debian-archive-keyring.gpg}" \
  > /etc/apt/sources.list.d/granular-exact-cuda.sources
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
log "installing nvidia-cuda-toolkit (CUDA 11.8; a few GB)"
# (g++-11: the newest host compiler CUDA 11.8 supports; Debian's nvcc picks it by itself)
apt-get install -y -qq --no-install-recommends nvidia-cuda-toolkit g++-11 >/dev/null
/usr/bin/nvcc --version | tail -1 >&2
echo /usr/bin
