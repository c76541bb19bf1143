#!/usr/bin/python3
"""Cyclic shear of a Hertz-Jaeger packing: hysteresis loops and history lengths.

Reads cyclic_shear_<variant>.dat (variant = exact, capacity16, approx) written by in.cyclic_shear:
a parameter line, a column line, then every `every` steps
    step time gamma xy ly vol p sxy syx contacts sliding records mean_vertices max_vertices
    bytes_per_contact jaeger_vertices jaeger_contacts
(LJ units; p = trace(sum l (x) f)/(3V), sxy = -sum l_x f_y / V, syx = -sum l_y f_x / V).
Writes cyclic_shear.png: (a) hysteresis loops tau = (sxy + syx)/2 vs gamma for the exact law,
coloured by cycle (the variants would lie on top of it); (b) |tau - tau_exact|/p of the
variants vs time;
(c) mean and largest history length per contact vs time; (d) bytes per contact vs time.
Prints the largest differences of the variants from the exact run and the history statistics.
"""
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

VARIANTS = [  # tag, label, colour
    ("exact", "exact (jaeger 0.5)", "tab:blue"),
    ("capacity16", "capacity 16", "tab:red"),
    ("approx", "approx 0.1", "tab:green"),
]
COLS = ("step time gamma xy ly vol p sxy syx contacts sliding records mean_vertices max_vertices "
        "bytes_per_contact jaeger_vertices jaeger_contacts").split()


def read(path):
    params, cols = {}, {c: [] for c in COLS}
    with open(path) as f:
        for line in f:
            if line.startswith("# variant"):
                w = line[1:].split()
                params = {w[k]: w[k + 1] for k in range(0, len(w) - 1, 2)}
            elif line.strip() and not line.startswith("#"):
                for c, w in zip(COLS, line.split()):
                    cols[c].append(float(w))
    cols["tau"] = [0.5 * (a + b) for a, b in zip(cols["sxy"], cols["syx"])]
    return params, cols


def main(out="cyclic_shear.png"):
    runs = []
    for tag, label, colour in VARIANTS:
        try:
            runs.append((tag, label, colour) + read(f"cyclic_shear_{tag}.dat"))
        except FileNotFoundError:
            print(f"cyclic_shear_{tag}.dat not found: skipped")
    params, ex = runs[0][3], runs[0][4]
    gamma0, gdot = float(params["gamma0"]), float(params["gammadot"])
    t0 = ex["time"][0]
    quarter = gamma0 / gdot           # time of the first quarter cycle
    period = 4 * gamma0 / gdot

    fig, axs = plt.subplots(2, 2, figsize=(15, 10.5))
    (ax, bx), (cx, dx) = axs

    # (a) loops of the exact run, one colour per cycle; variants on top
    ncyc = int(params["ncycles"])
    cmap = plt.get_cmap("viridis")
    for c in range(-1, ncyc):
        lo, hi = (t0, t0 + quarter) if c < 0 else (t0 + quarter + c * period,
                                                   t0 + quarter + (c + 1) * period)
        idx = [k for k, t in enumerate(ex["time"]) if lo - 1e-9 <= t <= hi + 1e-9]
        ax.plot([ex["gamma"][k] for k in idx], [ex["tau"][k] for k in idx],
                color=cmap((c + 1) / ncyc), lw=1.8,
                label="exact: first loading" if c < 0 else f"exact: cycle {c + 1}")
    ax.axhline(0, color="0.7", lw=0.6)
    ax.axvline(0, color="0.7", lw=0.6)
    ax.set_xlabel(r"shear strain $\gamma = xy/l_y$")
    ax.set_ylabel(r"shear stress $\tau = -(\Sigma l_x f_y + \Sigma l_y f_x)/(2V)$  ($\epsilon/\sigma^3$)")
    ax.set_title(r"(a) hysteresis loops, exact law (p grows, %.0f $\to$ %.0f $\epsilon/\sigma^3$: steady compression)"
                 % (ex["p"][0], ex["p"][-1]))
    ax.legend(fontsize=8, loc="upper left")

    # (b) the memory-bounded variants against the exact run
    for tag, label, colour, _, d in runs[1:]:
        n = min(len(d["tau"]), len(ex["tau"]))
        bx.plot(d["time"][:n], [max(abs(d["tau"][k] - ex["tau"][k]) / ex["p"][k], 1e-12)
                                for k in range(n)], color=colour, lw=0.9, label=label)
    bx.set_yscale("log")
    bx.set_xlabel(r"time ($\tau$)")
    bx.set_ylabel(r"$|\tau - \tau_\mathrm{exact}| \,/\, p$,   $p = \mathrm{tr}(\Sigma\, l \otimes f)/(3V)$")
    bx.set_title(r"(b) shear stress of the bounded-memory variants vs the exact law")
    bx.legend(fontsize=8, loc="upper left")

    # (c) history length, (d) bytes per contact
    for tag, label, colour, _, d in runs:
        cx.plot(d["time"], d["mean_vertices"], color=colour, lw=1.6, label=f"{label}: mean")
        cx.plot(d["time"], d["max_vertices"], color=colour, lw=0.7, alpha=0.8,
                label=f"{label}: largest")
        dx.plot(d["time"], d["bytes_per_contact"], color=colour, lw=0.9, label=label)
    cx.set_yscale("log")
    cx.set_xlabel(r"time ($\tau$)")
    cx.set_ylabel("history vertices per contact (f_GE_NEIGH_HISTORY[2], [3])")
    cx.set_title("(c) history length: mean (thick) and largest (thin) over the contacts")
    cx.legend(fontsize=8, loc="upper left", ncol=3)
    dx.set_xlabel(r"time ($\tau$)")
    dx.set_ylabel("bytes per contact (f_GE_NEIGH_HISTORY[4])")
    dx.set_title("(d) memory per contact (record incl. unused room, and its neighbour slot)")
    dx.legend(fontsize=8, loc="upper left")
    for axis in (bx, cx, dx):
        axis.axvspan(ex["time"][0] - 1.5, ex["time"][0], color="0.9", lw=0)
        axis.text(ex["time"][0] - 0.75, 0.5, "relax", transform=axis.get_xaxis_transform(),
                  ha="center", rotation=90, fontsize=8, color="0.4")
        axis.set_xlim(ex["time"][0] - 1.5, ex["time"][-1])
        g = axis.twinx()
        g.plot(ex["time"], ex["gamma"], color="0.6", lw=0.7, ls=":")
        g.set_ylabel(r"$\gamma$ (dotted)", color="0.5")
        g.tick_params(axis="y", colors="0.5")

    fig.suptitle(
        f"Cyclic shear of 512 Hertz-Jaeger spheres (hertz 2e4 0.3 tangential jaeger 0.5, LJ units), "
        f"$\\gamma_0$ = {gamma0:g}, $\\dot\\gamma$ = {gdot:g}, {ncyc} cycles, "
        f"steady compression at true strain rate {params['erate_c']} (x, y, z)", fontsize=11)
    fig.tight_layout()
    fig.savefig(out, dpi=110)

    print(f"{'variant':20s} {'vertices mean/max (end)':>24s} {'largest max':>11s} "
          f"{'bytes/contact (end)':>20s}  {'max |tau - tau_exact|/p':>24s}")
    for tag, label, colour, _, d in runs:
        n = min(len(d["tau"]), len(ex["tau"]))
        dev = max(abs(d["tau"][k] - ex["tau"][k]) / ex["p"][k] for k in range(n))
        print(f"{label:20s} {d['mean_vertices'][-1]:12.2f} / {d['max_vertices'][-1]:<9.0f} "
              f"{max(d['max_vertices']):11.0f} {d['bytes_per_contact'][-1]:20.1f}  {dev:24.2e}")
    amp = max(abs(t) / p for t, p in zip(ex["tau"], ex["p"]))
    print(f"exact: contacts {ex['contacts'][-1]:.0f}, largest stress ratio |tau|/p = {amp:.3f}, "
          f"largest number of sliding contacts {max(ex['sliding']):.0f}, "
          f"p {ex['p'][0]:.1f} -> {ex['p'][-1]:.1f}")
    # area of each loop, closed over one full cycle: dissipated work per volume and cycle
    for c in range(ncyc):
        lo, hi = t0 + quarter + c * period, t0 + quarter + (c + 1) * period
        idx = [k for k, t in enumerate(ex["time"]) if lo - 1e-9 <= t <= hi + 1e-9]
        area = sum(0.5 * (ex["tau"][a] + ex["tau"][b]) * (ex["gamma"][b] - ex["gamma"][a])
                   for a, b in zip(idx, idx[1:]))
        tau_a = 0.5 * (max(ex["tau"][k] for k in idx) - min(ex["tau"][k] for k in idx))
        print(f"exact, cycle {c + 1}: loop area = work dissipated per volume "
              f"{area:.4f} eps/sigma^3, stress amplitude {tau_a:.2f} eps/sigma^3, "
              f"damping ratio area/(2 pi tau_a gamma0) = {area / (2 * math.pi * tau_a * gamma0):.4f}")
    print(f"plot written to {out}")


if __name__ == "__main__":
    main(*sys.argv[1:])
