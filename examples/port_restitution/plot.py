#!/usr/bin/env python3
"""The port of LAMMPS' in.restitution side by side: the velocities of the two spheres and the
normal force on sphere 2 during the collision, with LAMMPS' pair granular and with
granular/exact (granular.dat, exact.dat from in.port_restitution). Writes port_restitution.png."""
import numpy as np
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

runs = {"LAMMPS pair granular (hertz/material, coeff_restitution, mindlin)": "granular.dat",
        "granular/exact (hertz, tsuji en 0.8 exact, dd)": "exact.dat"}
fig, (ax_v, ax_f) = plt.subplots(1, 2, figsize=(11, 4.2))
for (label, path), style in zip(runs.items(), ["-", "--"]):
    t, v1, v2, f2 = np.loadtxt(path, unpack=True)
    ax_v.plot(1e3 * t, v1, style, label=label + ": sphere 1")
    ax_v.plot(1e3 * t, v2, style, label=label + ": sphere 2")
    ax_f.plot(1e3 * t, f2, style, label=label)
    print(f"{label}: restitution {(v2[-1] - v1[-1]) / 2.0:.6f}, peak force {f2.max():.6f} N")
ax_v.set_xlabel("time (ms)")
ax_v.set_ylabel("vz (m/s)")
ax_v.legend(fontsize=7)
ax_f.set_xlabel("time (ms)")
ax_f.set_ylabel("fz on sphere 2 (N)")
ax_f.legend(fontsize=7)
fig.suptitle("Head-on collision, E = 1 MPa, e = 0.8: LAMMPS granular and its port")
fig.tight_layout()
fig.savefig("port_restitution.png", dpi=120)
