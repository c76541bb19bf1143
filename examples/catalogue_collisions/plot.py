#!/usr/bin/python3
"""Head-on glass-sphere collisions with the catalogue's normal and damping models.

Reads <case>.dat (time, overlap, normal force on sphere 2) and the RESULT lines of log.lammps
written by in.catalogue_collisions; compares restitution coefficient, contact duration and
maximum overlap with the reference values (doc/design_notes.md, "Catalogue checks": Rangel's
closed forms where they exist, the reference integration otherwise), and plots the force-overlap
loops.
"""
import math
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# case: (label, e, T_c [s] (geometric contact), delta_max [m]), the reference values
EXPECTED = {
    "hertz": ("Hertz, undamped", 1.0, 5.97841584e-6, 2.03121199e-6),
    "lsd": ("LSD restitution 0.9", 0.9, 6.38478867e-6, 1.92913269e-6),
    "lsd_limit": ("LSD restitution 0.9 + limit_damping", 0.90202607, 6.38468659e-6, 1.92913269e-6),
    "hls": ("HLS e = 0.9", 0.9, 6.49094976e-6, 2.03119938e-6),
    "hls_variable": ("HLS variable 1e5", 0.91168653, 6.47556902e-6, 2.03119938e-6),
    "bshp": ("Hertz + bshp 1e-7", 0.9401463, 6.0166656e-6, 1.9822477e-6),
    "kk": ("Hertz + kk 111.306495", 0.9401463, 6.0166656e-6, 1.9822477e-6),
    "tsuji": ("Hertz + tsuji en 0.9 (Norouzi)", 0.8999810, 6.0445997e-6, 1.9491235e-6),
    "tsuji_exact": ("Hertz + tsuji en 0.9 exact", 0.9, 6.0445997e-6, None),
}


def read_dat(path):
    rows = [line.split() for line in open(path) if line.strip() and not line.startswith("#")]
    return [[float(v) for v in row] for row in rows]


def read_results(path="log.lammps"):
    pattern = re.compile(r"^RESULT (\S+): restitution (\S+), contact duration (\S+) s")
    results = {}
    for line in open(path):
        m = pattern.match(line)
        if m:
            results[m.group(1)] = (float(m.group(2)), float(m.group(3)))
    return results


def main():
    results = read_results()
    fig, (ax_loop, ax_time) = plt.subplots(1, 2, figsize=(12, 5))
    print(f"{'case':38s} {'e':>11s} {'ref':>11s} {'T_c/ref-1':>10s} {'dmax/ref-1':>10s}")
    for case, (label, e_ref, tc_ref, dmax_ref) in EXPECTED.items():
        data = read_dat(f"{case}.dat")
        t = [r[0] for r in data]
        overlap = [r[1] for r in data]
        force = [r[2] for r in data]
        e, t_c = results[case]
        dmax = max(overlap)
        dmax_err = f"{dmax / dmax_ref - 1:10.1e}" if dmax_ref else f"{'-':>10s}"
        print(f"{label:38s} {e:11.8f} {e_ref:11.8f} {t_c / tc_ref - 1:10.1e} {dmax_err}")
        touching = [k for k, z in enumerate(overlap) if z > 0]
        ax_loop.plot([1e6 * overlap[k] for k in touching], [force[k] for k in touching],
                     label=label)
        t0 = t[touching[0]] if touching else 0.0
        ax_time.plot([1e6 * (t[k] - t0) for k in touching], [force[k] for k in touching],
                     label=label)
    ax_loop.set_xlabel("overlap (um)")
    ax_loop.set_ylabel("normal force on sphere 2 (N)")
    ax_loop.set_title("force-overlap loops (area = dissipated energy)")
    ax_time.set_xlabel("time since first touch (us)")
    ax_time.set_ylabel("normal force (N)")
    ax_time.set_title("glass spheres, R = 1 mm, 1 m/s head-on")
    ax_loop.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig("catalogue_collisions.png", dpi=120)
    print("wrote catalogue_collisions.png")


if __name__ == "__main__":
    main()
