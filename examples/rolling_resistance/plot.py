#!/usr/bin/python3
"""A sphere rolling to rest on a rigid floor under the Yade rolling moment (in.rolling_resistance).

Reads rolling.dat (time, x, vx, omega_y R) and its header (eta, kr, v0, R). While rolling the
moment sits at its cap eta R m g, so v(t) = v0 - (5/7) eta g t until the sphere stops at
t = 7 v0 / (5 eta g) (plus the short elastic stage of the rolling spring).
"""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

G = 9.81


def main():
    with open("rolling.dat") as f:
        header = f.readline().split()
        rows = [[float(v) for v in line.split()] for line in f if line.strip() and line[0] != "#"]
    eta, v0 = float(header[2]), float(header[6])
    t = [r[0] for r in rows]
    decel = 5.0 / 7.0 * eta * G
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot([1e3 * x for x in t], [1e3 * r[2] for r in rows], label="v_x (LAMMPS)")
    ax.plot([1e3 * x for x in t], [1e3 * r[3] for r in rows], "--", label="omega_y R (LAMMPS)")
    ax.plot([1e3 * x for x in t], [1e3 * max(0.0, v0 - decel * x) for x in t], ":k",
            label="v0 - (5/7) eta g t")
    ax.set_xlabel("time (ms)")
    ax.set_ylabel("speed (mm/s)")
    ax.set_title(f"rolling yade, eta = {eta}: the sphere rolls to rest")
    ax.legend()
    fig.tight_layout()
    fig.savefig("rolling_resistance.png", dpi=120)
    t_stop = v0 / decel
    print(f"analytic stop at {t_stop:.6g} s (rigid-plastic), simulated last sample {t[-1]:.6g} s")
    print("wrote rolling_resistance.png")


if __name__ == "__main__":
    main()
