#!/usr/bin/env python3
"""LAMMPS' pour decks and their ports side by side (the .dat files of in.port_drum and
in.port_flatwall): kinetic energy per sphere against the step, and the cohesive beds. Writes
port_pour.png."""
import numpy as np
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

fig, axes = plt.subplots(1, 3, figsize=(14, 4.2))
for law, style in (("granular", "-"), ("exact", "--")):
    label = "LAMMPS pair granular" if law == "granular" else "granular/exact (port)"
    d = np.loadtxt(f"{law}_drum.dat")
    axes[0].semilogy(d[:, 0], d[:, 2] / np.maximum(d[:, 1], 1), style, label=label)
    axes[1].plot(d[:, 0], d[:, 8], style, label=label + ": type 2 centre y")
    f = np.loadtxt(f"{law}_flatwall.dat")
    axes[2].plot(f[:, 0], f[:, 2] / np.maximum(f[:, 1], 1), style, label=label)
axes[0].set_title("drum: kinetic energy per sphere")
axes[1].set_title("drum: height of the cohesive bed's centre")
axes[2].set_title("flat wall: kinetic energy per sphere")
for ax in axes:
    ax.set_xlabel("step")
    ax.legend(fontsize=7)
fig.tight_layout()
fig.savefig("port_pour.png", dpi=120)
