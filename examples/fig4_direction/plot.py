#!/usr/bin/python3
"""Plot the force direction after one step orthogonal to a sliding force (Kuhn et al. 2020, Fig. 4).

Reads fig4_direction.dat (x = k_t|dxi|/(mu f_n), angle classic, angle refined, in degrees) written
by in.fig4_direction and compares with the closed forms
    classic (add k_t dxi, scale back to the cone):  atan(x) - 90 deg
    exact (continuum limit):                        -2 atan(exp(-x))
"""
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def exact(x):
    return -2.0 * math.degrees(math.atan(math.exp(-x)))


def conventional(x):
    return math.degrees(math.atan(x)) - 90.0


def main(path="fig4_direction.dat", out="fig4_direction.png"):
    xs, classic, refined = [], [], []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            words = [float(w) for w in line.split()[:3]]
            xs.append(words[0])
            classic.append(words[1])
            refined.append(words[2])

    # closed-form curves on a fine geometric grid over (and a bit beyond) the data
    lo, hi = min(xs) / 1.5, max(xs) * 1.5
    grid = [lo * (hi / lo) ** (k / 400) for k in range(401)]

    err_classic = [abs(a - exact(x)) for x, a in zip(xs, classic)]
    err_classic_own = [abs(a - conventional(x)) for x, a in zip(xs, classic)]
    err_refined = [abs(a - exact(x)) for x, a in zip(xs, refined)]
    floor = 1e-15    # exact zeros cannot be shown on a log axis
    max_refined = max(err_refined)

    fig, (ax, bx) = plt.subplots(1, 2, figsize=(12, 4.8))
    ax.plot(grid, [exact(x) for x in grid], "k-", lw=1.2,
            label=r"exact: $-2\,\arctan(e^{-x})$")
    ax.plot(grid, [conventional(x) for x in grid], "k--", lw=1.0,
            label=r"conventional: $\arctan(x) - 90°$")
    ax.plot(xs, classic, "s", mfc="none", color="tab:red", ms=7,
            label="LAMMPS, tangential classic")
    ax.plot(xs, refined, "o", color="tab:blue", ms=4, label="LAMMPS, tangential refined")
    ax.set_xscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(-92, 2)
    ax.set_yticks(range(-90, 1, 15))
    ax.axhline(0.0, color="0.7", lw=0.6)
    ax.set_xlabel(r"normalized movement $x = k_t\,|\Delta\xi|\,/\,(\mu f_n)$")
    ax.set_ylabel("angle of the force from the movement after the step (deg)")
    ax.set_title("(a) force direction after one step (start: -90°)")
    ax.legend(loc="upper left", fontsize=9)
    ax.grid(True, which="major", color="0.9")

    bx.plot(xs, [max(e, floor) for e in err_classic], "s", mfc="none", color="tab:red", ms=7,
            label="classic − exact")
    bx.plot(xs, [max(e, floor) for e in err_classic_own], "x", color="tab:red", ms=6,
            label=r"classic − ($\arctan x - 90°$)")
    bx.plot(xs, [max(e, floor) for e in err_refined], "o", color="tab:blue", ms=4,
            label=f"refined − exact (max {max_refined:.1e}°)")
    bx.set_xscale("log")
    bx.set_yscale("log")
    bx.set_xlim(lo, hi)
    bx.set_ylim(floor / 3, 100)
    bx.set_xlabel(r"normalized movement $x = k_t\,|\Delta\xi|\,/\,(\mu f_n)$")
    bx.set_ylabel("|angle − closed form| (deg)")
    bx.set_title(f"(b) deviation (values < {floor:.0e}° drawn at {floor:.0e}°)")
    bx.legend(loc="center right", fontsize=9)
    bx.grid(True, which="major", color="0.9")

    fig.suptitle("Kuhn, Suzuki & Daouadji (2020), Fig. 4: sliding contact, one step of movement "
                 "orthogonal to the force", fontsize=11)
    fig.tight_layout()
    fig.savefig(out, dpi=120)

    print(f"{'x':>8s} {'classic':>12s} {'refined':>12s} {'exact':>12s} {'refined-exact':>14s}")
    for x, c, r in zip(xs, classic, refined):
        print(f"{x:8.4f} {c:12.6f} {r:12.6f} {exact(x):12.6f} {r - exact(x):14.2e}")
    print(f"max |refined - exact| = {max_refined:.3e} deg, "
          f"max |classic - exact| = {max(err_classic):.3f} deg, "
          f"max |classic - (atan x - 90)| = {max(err_classic_own):.3e} deg")
    print(f"plot written to {out}")


if __name__ == "__main__":
    main(*sys.argv[1:])
