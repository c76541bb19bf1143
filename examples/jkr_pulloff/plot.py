#!/usr/bin/env python3
"""The JKR pull-off of in.jkr_pulloff: force against overlap for LAMMPS' pair granular jkr
(granular.dat) and granular/exact (exact.dat), over Johnson-Kendall-Roberts' closed form
(delta = a^2/R - 2 sqrt(pi gamma a/E), F = 4 E a^3/(3 R) - 4 sqrt(pi gamma E) a^(3/2), attraction
drawn positive). Prints the largest pull, the overlap of the last step with a force, and the
largest difference between the two runs; writes jkr_pulloff.png."""
import numpy as np
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

E_bar, R_bar, gamma = 1000.0 / (2.0 * (1.0 - 0.3**2)), 0.25, 10.0
F_po = 3.0 * np.pi * gamma * R_bar
delta_po = -(3.0 * np.pi**2 * gamma**2 * R_bar / (16.0 * E_bar**2)) ** (1.0 / 3.0)

# the closed form, parametrised by the contact radius from the pull-off point on
a_po = (9.0 * np.pi * gamma * R_bar**2 / (4.0 * E_bar)) ** (1.0 / 3.0)
a = np.linspace(a_po, 0.272, 400)    # (a from the pull-off point up: the stable branch)
delta = a**2 / R_bar - 2.0 * np.sqrt(np.pi * gamma * a / E_bar)
pull = -(4.0 * E_bar * a**3 / (3.0 * R_bar) - 4.0 * np.sqrt(np.pi * gamma * E_bar) * a**1.5)

fig, ax = plt.subplots(figsize=(7, 4.6))
ax.plot(delta, pull, "k-", lw=4, alpha=0.25, label="JKR closed form")
runs = {"LAMMPS pair granular jkr": ("granular.dat", "-"),
        "granular/exact jkr": ("exact.dat", "--")}
data = {}
for label, (path, style) in runs.items():
    overlap, force = np.loadtxt(path, unpack=True)
    data[label] = force
    ax.plot(overlap, force, style, label=label)
    held = overlap[force != 0.0]
    print(f"RESULT {label}: largest pull {force.max():.9f} (3 pi gamma Rbar = {F_po:.9f}), "
          f"last held overlap {held.min():.6f} of the records every 5 steps "
          f"(delta_po = {delta_po:.6f})")
forces = list(data.values())
print(f"RESULT largest difference between the two runs: {np.abs(forces[0] - forces[1]).max():.3e}")
ax.axhline(F_po, color="gray", lw=0.8, ls=":")
ax.axvline(delta_po, color="gray", lw=0.8, ls=":")
ax.annotate("pull-off 3πγR̄", (delta_po, F_po), textcoords="offset points", xytext=(8, 6))
ax.set_xlabel("overlap δ")
ax.set_ylabel("pull on sphere 2 (attraction > 0)")
ax.set_title("JKR contact driven in and out: LAMMPS granular and granular/exact")
ax.legend()
fig.tight_layout()
fig.savefig("jkr_pulloff.png", dpi=120)
