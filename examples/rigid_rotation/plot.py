#!/usr/bin/python3
"""Plot the four stress tensors of the rigid-rotation experiment (Kuhn et al. 2020, Fig. 6)."""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

LABELS = {
    "original": "original",
    "neither": "neither adjustment",
    "projection": "projection only",
    "twirl": "projection + twirl",
}
COMPONENTS = ["xx", "xy", "xz", "yx", "yy", "yz", "zx", "zy", "zz"]


def main(path="tensors.dat", out="rigid_rotation.png"):
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            words = line.split()
            rows.append((words[0], [float(w) for w in words[1:10]], float(words[10])))
    fig, ax = plt.subplots(figsize=(9, 4.5))
    width = 0.8 / len(rows)
    for k, (label, tensor, err) in enumerate(rows):
        xs = [i + (k - (len(rows) - 1) / 2) * width for i in range(len(COMPONENTS))]
        name = LABELS.get(label, label)
        if label != "original":
            name += f" (rel. error {err:.1e})"
        ax.bar(xs, tensor, width, label=name)
    ax.set_xticks(range(len(COMPONENTS)))
    ax.set_xticklabels([r"$W_{%s}$" % c for c in COMPONENTS])
    ax.axhline(0.0, color="k", lw=0.5)
    ax.set_ylabel(r"$\sum_c l^c_a f^c_b$, counter-rotated")
    ax.set_title("Rigid rotation by 90°: stress restored only with projection + twirl")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    for label, tensor, err in rows:
        print(f"{LABELS.get(label, label):>20s}: " + " ".join(f"{t:12.5g}" for t in tensor)
              + ("" if label == "original" else f"   relative error {err:.3e}"))
    print(f"plot written to {out}")


if __name__ == "__main__":
    main(*sys.argv[1:])
