#!/usr/bin/python3
"""Head-on collision with the linear spring-dashpot: LAMMPS vs the analytic clamped solution.

Reads collision_eta20.dat and collision_eta0.dat written by in.collision (header line with
kn, eta, mass, v0, dt; then time, overlap z, approach rate z', normal force on sphere 2).

Analytic solution, m the reduced mass, w0^2 = kn/m, g = eta/(2m), wd = sqrt(w0^2 - g^2), time
tau since first touch:
    z(tau)  = (v0/wd) exp(-g tau) sin(wd tau),     force kn z + eta z'
until the force reaches zero at wd t* = pi - atan(eta wd/(kn - eta g)); afterwards the force is
zero and the spheres separate at the relative speed e v0, e = -z'(t*)/v0.
"""
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


class Analytic:
    def __init__(self, kn, eta, mass, v0):
        self.kn, self.eta, self.v0 = kn, eta, v0
        self.m = mass * mass / (mass + mass)    # reduced mass of two equal spheres
        self.w0 = math.sqrt(kn / self.m)
        self.g = eta / (2.0 * self.m)
        self.wd = math.sqrt(self.w0 ** 2 - self.g ** 2)
        self.tstar = (math.pi - math.atan(eta * self.wd / (kn - eta * self.g))) / self.wd
        self.e = -self.rate(self.tstar) / v0

    def _z(self, tau):
        return self.v0 / self.wd * math.exp(-self.g * tau) * math.sin(self.wd * tau)

    def rate(self, tau):    # dz/dt while in contact
        return self.v0 * math.exp(-self.g * tau) * (
            math.cos(self.wd * tau) - self.g / self.wd * math.sin(self.wd * tau))

    def overlap(self, tau):
        if tau < 0.0:
            return self.v0 * tau
        if tau <= self.tstar:
            return self._z(tau)
        return self._z(self.tstar) - self.e * self.v0 * (tau - self.tstar)

    def force(self, tau):
        if tau < 0.0 or tau > self.tstar:
            return 0.0
        return max(0.0, self.kn * self._z(tau) + self.eta * self.rate(tau))


def read(path):
    params, rows = {}, []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                words = line[1:].split()
                if words and words[0] == "kn":
                    params = {words[k]: float(words[k + 1]) for k in range(0, len(words) - 1, 2)}
                continue
            if line.strip():
                rows.append([float(w) for w in line.split()])
    return params, rows


def crossing(t0, y0, t1, y1):
    return t0 + (t1 - t0) * y0 / (y0 - y1)


def measure(params, rows):
    """first touch (overlap crosses 0), end of the force (kn z + eta z' crosses 0), restitution"""
    kn, eta = params["kn"], params["eta"]
    t_touch = t_end = None
    for a, b in zip(rows, rows[1:]):
        if t_touch is None and a[1] <= 0.0 < b[1]:
            t_touch = crossing(a[0], a[1], b[0], b[1])
        if t_touch is not None and t_end is None:
            fa, fb = kn * a[1] + eta * a[2], kn * b[1] + eta * b[2]
            if b[0] > t_touch and fa > 0.0 >= fb:
                t_end = crossing(a[0], fa, b[0], fb)
    e = -rows[-1][2] / params["v0"]
    return t_touch, t_end - t_touch, e


def main(out="collision.png"):
    cases = [("collision_eta20.dat", "tab:blue"), ("collision_eta0.dat", "tab:orange")]
    fig, (ax, bx, cx) = plt.subplots(1, 3, figsize=(16, 4.8))
    report = []
    for path, color in cases:
        params, rows = read(path)
        sol = Analytic(params["kn"], params["eta"], params["mass"], params["v0"])
        t_touch, duration, e = measure(params, rows)
        taus = [r[0] - t_touch for r in rows]
        window = [k for k, tau in enumerate(taus) if -0.1 * sol.tstar <= tau <= 1.4 * sol.tstar]
        tw = [taus[k] for k in window]
        label = rf"$\eta_n$ = {params['eta']:g}"
        ax.plot(tw, [rows[k][1] for k in window], color=color, lw=2.5, alpha=0.6,
                label=f"LAMMPS, {label}")
        ax.plot(tw, [sol.overlap(t) for t in tw], "k--", lw=1)
        bx.plot(tw, [rows[k][3] for k in window], color=color, lw=2.5, alpha=0.6,
                label=f"LAMMPS, {label}")
        bx.plot(tw, [sol.force(t) for t in tw], "k--", lw=1)
        scale = params["kn"] * params["v0"] / sol.w0    # peak elastic force
        cx.plot(tw, [(rows[k][3] - sol.force(t)) / scale for k, t in zip(window, tw)],
                color=color, lw=1.2, label=label)
        report.append((params, sol, duration, e))
    for axis in (ax, bx):
        axis.plot([], [], "k--", lw=1, label="analytic (clamped spring-dashpot)")
        axis.axhline(0.0, color="0.6", lw=0.6)
        axis.set_xlabel(r"time since first touch, $t - t_0$ ($\tau$)")
        axis.legend(fontsize=9)
    ax.set_ylabel(r"overlap $z$ ($\sigma$)")
    ax.set_title("(a) overlap")
    bx.set_ylabel(r"normal force $\max(0,\ k_n z + \eta_n \dot z)$ ($\epsilon/\sigma$)")
    bx.set_title("(b) normal force on a sphere")
    cx.set_xlabel(r"time since first touch, $t - t_0$ ($\tau$)")
    cx.set_ylabel(r"(LAMMPS − analytic) / $(k_n v_0/\omega_0)$")
    cx.set_title("(c) force difference, in units of the peak elastic force")
    cx.axhline(0.0, color="0.6", lw=0.6)
    cx.legend(fontsize=9)
    p = report[0][0]
    fig.suptitle(f"Head-on collision of two unit-mass spheres, $k_n$ = {p['kn']:g}, "
                 f"$v_0$ = {p['v0']:g}, $\\Delta t$ = {p['dt']:g}: "
                 + "; ".join(f"$\\eta_n$ = {q['eta']:g}: e = {e:.5f} (analytic {s.e:.5f})"
                             for q, s, _, e in report), fontsize=11)
    fig.tight_layout()
    fig.savefig(out, dpi=120)

    for params, sol, duration, e in report:
        print(f"eta_n = {params['eta']:g}: restitution {e:.8f}, analytic {sol.e:.8f} "
              f"(rel. error {e / sol.e - 1:+.2e}); contact duration {duration:.8f}, "
              f"analytic {sol.tstar:.8f} (rel. error {duration / sol.tstar - 1:+.2e})")
    print(f"plot written to {out}")


if __name__ == "__main__":
    main(*sys.argv[1:])
