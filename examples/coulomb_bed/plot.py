#!/usr/bin/python3
"""Exact Coulomb friction in a settled bed (in.coulomb_bed): the solvers side by side.

Reads <case>.dat (step, iterations, true error / mu F_n, the largest velocity a stuck contact
keeps at the next half step in g dt, the slip at the stuck contacts' points since the case
began in d, the largest displacement of a bed sphere in d) for the friction cases, and the time
per step of every case from log.lammps (the run after each "CASE <name>" line). Prints a table
and writes coulomb_bed.png: the true error per step, the velocity the stuck contacts keep, and
the slip at their points over the run, against the tolerance of the default solver (1e-8) and
the bound of 1e-9 d that no creep means here.
"""
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

CASES = [
    ("gs5", "Gauss-Seidel, 5 sweeps"),
    ("gs20", "Gauss-Seidel, 20 sweeps"),
    ("newton", "newton to tol 1e-8 (the default)"),
]
TOL = 1e-8
NO_CREEP = 1e-9   # slip at a stuck contact's point over the run, diameters


def read(case):
    """Columns of <case>.dat: step, iterations, true error, kept velocity, slip, displacement;
    without the first row (the restart's state, before any solve)."""
    rows = [[float(v) for v in line.split()] for line in open(f"{case}.dat")
            if line.strip() and line[0] != "#"]
    return [list(col) for col in zip(*rows[1:])]


def times_per_step(log="log.lammps"):
    """ms per step of the run after each CASE line of the log."""
    times, case = {}, None
    for line in open(log):
        if line.startswith("CASE "):
            case = line.split()[1]
        m = re.match(r"Loop time of (\S+) on \d+ procs for (\d+) steps", line)
        if m and case:
            times[case] = 1000.0 * float(m.group(1)) / int(m.group(2))
            case = None
    return times


def main():
    times = times_per_step()
    classic = times.get("classic")
    print(f"{'case':8s} {'ms/step':>8s} {'x classic':>9s} {'iter/step':>9s} {'true error':>11s} "
          f"{'kept v (g dt)':>13s} {'slip (d)':>9s} {'moved (d)':>9s}")
    fig, (err, kept, slip) = plt.subplots(1, 3, figsize=(15, 4.5))
    for case, label in CASES:
        step, iterations, true_error, kept_v, slipped, moved = read(case)
        n = [s - step[0] + 1 for s in step]    # steps since the restart
        t = times.get(case)
        ratio = f"{t / classic:9.1f}" if t and classic else f"{'':9s}"
        print(f"{case:8s} {t or 0:8.2f} {ratio} {sum(iterations) / len(iterations):9.1f} "
              f"{max(true_error):11.2e} {max(kept_v):13.2e} {slipped[-1]:9.2e} {moved[-1]:9.2e}")
        err.semilogy(n, true_error, label=label)
        kept.semilogy(n, kept_v, label=label)
        slip.loglog(n, slipped, label=f"{label}: {slipped[-1]:.2g} d")
    if classic:
        print(f"{'classic':8s} {classic:8.2f} {1.0:9.1f}   (the spring law's step, for the cost)")
    err.axhline(TOL, color="k", ls=":", label="tol 1e-8")
    err.set_ylabel("true error of the step (natural residual / mu F_n)")
    kept.set_ylabel("largest velocity a stuck contact keeps (g dt)")
    slip.axhline(NO_CREEP, color="k", ls=":", label="1e-9 d")
    slip.set_ylabel("slip at the stuck contacts' points since the start (d)")
    for ax in (err, kept, slip):
        ax.set_xlabel("step")
        ax.legend(fontsize=8)
    fig.suptitle("tangential coulomb 0.5 in a settled bed: each solver from the same restart")
    fig.tight_layout()
    fig.savefig("coulomb_bed.png", dpi=110)
    print("wrote coulomb_bed.png")


if __name__ == "__main__":
    main()
