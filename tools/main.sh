#!/usr/bin/env bash
# Build (tools/build.sh) and run the flagship example examples/rigid_rotation: the LAMMPS deck
# in.rigid_rotation with build/lmp, then plot.py (Debian's /usr/bin/python3 with matplotlib).
#
# Usage: tools/main.sh [2025|2026]     (default: $GE_LAMMPS or 2025)
set -euo pipefail
cd "$(dirname "$0")/.."

ex=examples/rigid_rotation
for f in "$ex/in.rigid_rotation" "$ex/plot.py"; do
  [ -f "$f" ] || { echo "main.sh: $f is missing - the flagship example is not in this checkout" >&2; exit 1; }
done

bdir=$(bash tools/build.sh "${1:-${GE_LAMMPS:-2025}}" | tail -n 1)

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
cd "$ex"
echo "[main] $bdir/lmp -in in.rigid_rotation (in $ex)" >&2
"$bdir/lmp" -in in.rigid_rotation
echo "[main] /usr/bin/python3 plot.py" >&2
/usr/bin/python3 plot.py
