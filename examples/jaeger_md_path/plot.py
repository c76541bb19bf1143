#!/usr/bin/python3
"""Mindlin-Deresiewicz proportional load-unload path: LAMMPS runs vs the closed form.

Reads md_path_<label>.dat written by in.md_path (header line with the parameters, then one line
per path point: k branch N_target delta u N T Ty T_closed vertices; SI units, u = cumulative
tangential half-shift, T = tangential force on p along the shift, N = normal force).

Closed form (doc/design_notes.md, "Jaeger checks"), delta(N) = (N/C_H)^(2/3),
C_H = (4/3) E/(1-nu^2) sqrt(r):
    loading    T = beta (N - N0),        u = mu kappa [delta(N) - delta(N - (beta/mu)(N - N0))]
    unloading  T = T1 + beta (N - N1),   u = mu kappa [2 delta(N**) - delta(N1*) - delta(N)]
               N1* = N1 - T1/mu,  N** = [T + mu (N + N1*)]/(2 mu)
Writes md_path.png: (a) T vs u, (b) T vs N, (c) |T - T_closed|/(mu N) along the path; prints
the largest error of each law relative to mu N.
"""
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

LAWS = [  # file tag, legend label, style
    ("jaeger_small", "granular/exact jaeger, 2 x 200 steps", dict(ls="none", marker="o", ms=3.5,
                                                                   mfc="none", color="tab:blue", zorder=6)),
    ("jaeger_large", "granular/exact jaeger, 4 steps (Kuhn Fig. 8a)",
     dict(ls="none", marker="s", ms=11, mfc="none", mew=2, color="tab:green", zorder=7)),
    ("mindlin", "LAMMPS granular, tangential mindlin", dict(ls="-", lw=2, color="tab:red")),
    ("mindlin_rescale", "LAMMPS mindlin_rescale", dict(ls="--", lw=1.2, color="tab:orange")),
    ("mindlin-force", "LAMMPS mindlin/force", dict(ls="-.", lw=1.2, color="tab:purple")),
    ("mindlin_rescale-force", "LAMMPS mindlin_rescale/force",
     dict(ls=":", lw=2.0, color="tab:brown")),
]
FLOOR = 1e-17    # errors that are exactly 0 are drawn here on the log scale


def read(path):
    params, rows = {}, []
    with open(path) as f:
        for line in f:
            if line.startswith("# law"):
                w = line[1:].split()
                params = {w[k]: w[k + 1] for k in range(0, len(w) - 1, 2)}
            elif line.strip() and not line.startswith("#"):
                w = line.split()
                rows.append(dict(k=int(w[0]), branch=w[1], N_target=float(w[2]),
                                 delta=float(w[3]), u=float(w[4]), N=float(w[5]), T=float(w[6]),
                                 Ty=float(w[7]), T_closed=float(w[8]), vertices=float(w[9])))
    return params, rows


class ClosedForm:
    def __init__(self, p):
        self.r, self.E, self.nu, self.mu = (float(p[k]) for k in ("r", "E", "nu", "mu"))
        self.N0, self.N1, self.beta = (float(p[k]) for k in ("N0", "N1", "beta"))
        self.kappa = (2 - self.nu) / (2 * (1 - self.nu))
        self.CH = 4.0 / 3.0 * self.E / (1 - self.nu ** 2) * math.sqrt(self.r)
        self.T1 = self.beta * (self.N1 - self.N0)
        self.N1s = self.N1 - self.T1 / self.mu

    def delta(self, N):
        return (N / self.CH) ** (2.0 / 3.0)

    def loading(self, N):
        Ns = N - self.beta / self.mu * (N - self.N0)
        return self.mu * self.kappa * (self.delta(N) - self.delta(Ns)), self.beta * (N - self.N0)

    def unloading(self, N):
        T = self.T1 + self.beta * (N - self.N1)
        N2 = (T + self.mu * (N + self.N1s)) / (2 * self.mu)
        u = self.mu * self.kappa * (2 * self.delta(N2) - self.delta(self.N1s) - self.delta(N))
        return u, T


def main(out="md_path.png"):
    data = []
    for tag, label, style in LAWS:
        try:
            data.append((tag, label, style) + read(f"md_path_{tag}.dat"))
        except FileNotFoundError:
            print(f"md_path_{tag}.dat not found: skipped")
    cf = ClosedForm(data[0][3])
    um = 1e6    # u in micrometres
    m = 400
    Ns = [cf.N0 + (cf.N1 - cf.N0) * i / m for i in range(m + 1)]
    load = [cf.loading(N) for N in Ns]
    unload = [cf.unloading(N) for N in reversed(Ns)]

    fig, (ax, bx, cx) = plt.subplots(1, 3, figsize=(18, 6.2),
                                     gridspec_kw=dict(width_ratios=[1.25, 1, 1.15]))
    ax.plot([um * u for u, _ in load + unload], [T for _, T in load + unload], "k-", lw=1,
            label="closed form (Mindlin-Deresiewicz)", zorder=5)
    bx.plot(Ns + Ns[::-1], [T for _, T in load + unload], "k-", lw=1,
            label=r"prescribed path $T = \beta(N-N_0)$, $T_1+\beta(N-N_1)$", zorder=5)
    bx.plot([cf.N0, cf.N1], [cf.mu * cf.N0, cf.mu * cf.N1], color="0.5", lw=1, ls="--",
            label=r"friction limit $\mu N$")
    ax.plot([um * cf.loading(N)[0] for N in Ns], [cf.mu * N for N in Ns], color="0.5", lw=1,
            ls="--", label=r"$\mu N$ along the path (loading)")
    report = []
    for tag, label, style, params, rows in data:
        u = [um * r["u"] for r in rows]
        T = [r["T"] for r in rows]
        thin = dict(markevery=8) if tag == "jaeger_small" else {}    # let the curve show
        ax.plot(u, T, label=label + (" (every 8th)" if thin else ""), **style, **thin)
        bx.plot([r["N"] for r in rows], T, label=label + (" (every 8th)" if thin else ""),
                **style, **thin)
        # path coordinate: 0 -> 1 loading (N0 -> N1), 1 -> 2 unloading (N1 -> N0)
        s = [(r["N"] - cf.N0) / (cf.N1 - cf.N0) if r["branch"] == "load"
             else 2 - (r["N"] - cf.N0) / (cf.N1 - cf.N0) for r in rows]
        err = [abs(r["T"] - r["T_closed"]) / (cf.mu * r["N"]) for r in rows]
        cx.plot(s, [max(e, FLOOR) for e in err], label=label, **style)
        worst = max(range(len(err)), key=lambda i: err[i])
        report.append((label, err[worst], rows[worst], rows[-1]))

    ax.set_xlabel(r"cumulative tangential half-shift $u$ ($\mu$m)  [total contact displacement = $2u$]")
    ax.set_ylabel(r"tangential force $T$ (N)")
    ax.set_title(r"(a) $T$ vs $u$: load to $N_1$ = 25 N, unload to $N_0$ = 10 N")
    ul, Tl = cf.loading(16.0)
    uu, Tu = cf.unloading(16.0)
    ax.annotate("loading", xy=(um * ul, Tl), xytext=(um * ul - 0.25, Tl + 1.6), fontsize=9,
                arrowprops=dict(arrowstyle="->", color="0.3"))
    ax.annotate("unloading", xy=(um * uu, Tu), xytext=(um * uu + 0.2, Tu - 1.6), fontsize=9,
                arrowprops=dict(arrowstyle="->", color="0.3"))
    ax.legend(fontsize=8, loc="upper left")
    bx.set_xlabel(r"normal force $N$ (N)")
    bx.set_ylabel(r"tangential force $T$ (N)")
    bx.set_title(r"(b) force path, $dT/dN = \pm\beta$ = 0.6 (closed form)")
    bx.legend(fontsize=8, loc="upper left")
    cx.set_yscale("log")
    cx.set_ylim(FLOOR / 3, 2.0)
    cx.axvline(1.0, color="0.6", lw=0.6)
    cx.set_xlabel(r"path coordinate: 0 $\to$ 1 loading ($N_0 \to N_1$), 1 $\to$ 2 unloading")
    cx.set_ylabel(r"$|T - T_\mathrm{closed}| \,/\, (\mu N)$")
    cx.set_title(f"(c) error vs the closed form (exact 0 drawn at {FLOOR:g})")
    cx.legend(fontsize=8, loc="center right")
    fig.suptitle(
        r"Mindlin-Deresiewicz proportional load-unload, two spheres $r$ = 1 mm, $E$ = 75 GPa, "
        r"$\nu$ = 0.25, $\mu$ = 0.4, $\beta$ = 0.6, driven by prescribed motion through LAMMPS "
        "(exact: " + ", ".join(f"{e:.1e}" for lab, e, _, _ in report if "jaeger" in lab)
        + r" $\mu N$; LAMMPS mindlin: "
        + f"{report[[lab for lab, *_ in report].index(LAWS[2][1])][1] * 100:.1f} %" + r" of $\mu N$)",
        fontsize=11)
    fig.tight_layout()
    fig.savefig(out, dpi=110)

    print(f"{'law':48s} {'max |T - T_closed|/(mu N)':>26s}   at   final T (closed form 0)")
    for label, e, r, last in report:
        print(f"{label:48s} {e:26.3e}   {r['branch']:6s} N = {r['N']:6.3f} N   "
              f"T = {last['T']:+.6e} N")
    print(f"plot written to {out}")


if __name__ == "__main__":
    main(*sys.argv[1:])
