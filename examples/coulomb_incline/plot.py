#!/usr/bin/python3
"""Incline test of exact Coulomb friction (in.coulomb_incline), after Fig. 3 of Sakamaki et al.

Reads <case>.dat (time, displacement x along the slope, height = -x sin(alpha), velocity) and
plots the height against time: left, the three angles with `tangential coulomb`; right, the
0.8 mu case against LAMMPS's velocity-limited friction (linear_nohistory), which creeps.
"""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ANGLES = [
    ("exact_08", "tan(alpha) = 0.8 mu", "-"),
    ("exact_10", "tan(alpha) = 1.0 mu", "--"),    # dashed: on top of 0.8 mu
    ("exact_12", "tan(alpha) = 1.2 mu", "-"),
]
CREEP = [
    ("exact_08", "tangential coulomb (exact)"),
    ("creep_1e4", "linear_nohistory, gamma_t = 1e4 1/s"),
    ("creep_1e3", "linear_nohistory, gamma_t = 1e3 1/s"),
]
DIAMETER = 0.02


def read(case):
    """Columns of <case>.dat: time, x, height, vx."""
    rows = [[float(v) for v in line.split()] for line in open(f"{case}.dat")
            if line.strip() and line[0] != "#"]
    return [list(col) for col in zip(*rows)]


def main():
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    for case, label, style in ANGLES:
        t, x, h, _ = read(case)
        left.plot(t, h, style, label=f"{label}: x(2 s) = {x[-1]:.3g} m")
        print(f"{case:10s} {label:28s} x(2 s) = {x[-1]:.6e} m, height {h[-1]:.6e} m")
    left.set_xlabel("time (s)")
    left.set_ylabel("height (m)")
    left.set_title("tangential coulomb 0.6, non-rotating sphere", fontsize=10)
    left.legend(fontsize=8)

    for case, label in CREEP:
        t, x, h, _ = read(case)
        right.plot(t, [1e3 * v for v in h],
                   label=f"{label}: creep {x[-1] / DIAMETER:.3g} d")
        print(f"{case:10s} {label:38s} x(2 s) = {x[-1]:.6e} m = {x[-1] / DIAMETER:.4e} d")
    right.set_xlabel("time (s)")
    right.set_ylabel("height (mm)")
    right.set_title("tan(alpha) = 0.8 mu: exact rest against creep", fontsize=10)
    right.legend(fontsize=8)

    fig.suptitle("sphere R = 0.01 m on an incline, mu = 0.6, kn = 1e4 N/m, tau = 2e-5 s")
    fig.tight_layout()
    fig.savefig("coulomb_incline.png", dpi=110)
    print("wrote coulomb_incline.png")


if __name__ == "__main__":
    main()
