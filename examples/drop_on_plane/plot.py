#!/usr/bin/python3
"""Drop test of one sphere on a rigid floor, one panel per normal model (in.drop_on_plane).

Reads <case>.dat (time, overlap, wall force on the sphere) and plots the force-overlap loops
side by side: the area of a loop is the energy the contact dissipated, m v0^2 (1 - e^2)/2.
"""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

CASES = [
    ("hooke", "hooke + restitution 0.9"),
    ("hertz", "hertz + tsuji en 0.9 exact"),
    ("hls", "hls, e_n = 0.9"),
    ("bshp", "hertz + bshp 1e-7"),
]
MASS = 4.0 / 3.0 * 3.141592653589793 * 1e-9 * 2500.0


def loop_area(overlap, force):
    """Work done on the sphere by the contact force over the loop (trapezoids in overlap)."""
    return sum(0.5 * (force[k] + force[k + 1]) * (overlap[k + 1] - overlap[k])
               for k in range(len(overlap) - 1))


def main():
    fig, axes = plt.subplots(1, len(CASES), figsize=(16, 4), sharey=True)
    for ax, (case, label) in zip(axes, CASES):
        rows = [[float(v) for v in line.split()] for line in open(f"{case}.dat")
                if line.strip() and line[0] != "#"]
        touching = [r for r in rows if r[1] > 0.0]
        overlap = [r[1] for r in touching]
        force = [r[2] for r in touching]
        dissipated = loop_area(overlap, force)    # = -(work of the force on the sphere)
        ax.plot([1e6 * z for z in overlap], force)
        ax.set_title(label, fontsize=10)
        ax.set_xlabel("overlap (um)")
        ax.text(0.05, 0.9, f"dissipated {dissipated:.3e} J\n= {dissipated / (0.5 * MASS):.4f} m v0^2/2",
                transform=ax.transAxes, fontsize=8, va="top")
        print(f"{label:30s} dissipated {dissipated:.6e} J, 1 - e^2 implied {dissipated / (0.5 * MASS):.6f}")
    axes[0].set_ylabel("wall force on the sphere (N)")
    fig.suptitle("glass sphere, R = 1 mm, dropped on a rigid floor at 1 m/s")
    fig.tight_layout()
    fig.savefig("drop_on_plane.png", dpi=110)
    print("wrote drop_on_plane.png")


if __name__ == "__main__":
    main()
