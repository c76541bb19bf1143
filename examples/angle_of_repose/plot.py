#!/usr/bin/python3
"""Angle of repose of the poured heaps of in.angle_of_repose, without and with rolling yade.

Reads heap_free.dump and heap_rolling.dump (id x y z radius). The surface of a heap is the
highest sphere top in each ring of width 1 around the heap's axis; the angle of repose is the
slope of a least-squares line through the surface points above the first layer (z_top > 1.5)
and inside the heap (r >= 1).
"""
import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_dump(path):
    lines = open(path).read().splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("ITEM: ATOMS")) + 1
    return [[float(v) for v in line.split()[1:5]] for line in lines[start:] if line.strip()]


def surface(spheres):
    xc = sum(s[0] for s in spheres) / len(spheres)
    yc = sum(s[1] for s in spheres) / len(spheres)
    rings = {}
    points = []
    for x, y, z, radius in spheres:
        r = math.hypot(x - xc, y - yc)
        top = z + radius
        points.append((r, z))
        k = int(r)
        rings[k] = max(rings.get(k, 0.0), top)
    return points, sorted((k + 0.5, top) for k, top in rings.items())


def fit_angle(profile):
    pts = [(r, z) for r, z in profile if z > 1.5 and r >= 1.0]
    if len(pts) < 2:
        return 0.0, None
    n = len(pts)
    mr = sum(p[0] for p in pts) / n
    mz = sum(p[1] for p in pts) / n
    slope = sum((r - mr) * (z - mz) for r, z in pts) / sum((r - mr) ** 2 for r, z in pts)
    return math.degrees(math.atan(-slope)) + 0.0, (slope, mz - slope * mr, pts)


def main():
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), sharey=True)
    for ax, (case, label) in zip(axes, [("free", "no rolling resistance"),
                                        ("rolling", "rolling yade kr 50 eta 0.5")]):
        spheres = read_dump(f"heap_{case}.dump")
        points, profile = surface(spheres)
        angle, fit = fit_angle(profile)
        ax.plot([p[0] for p in points], [p[1] for p in points], ".", ms=3, color="0.6")
        ax.plot([p[0] for p in profile], [p[1] for p in profile], "o-", ms=4, label="surface")
        if fit:
            slope, icpt, pts = fit
            rs = [pts[0][0], pts[-1][0]]
            ax.plot(rs, [icpt + slope * r for r in rs], "k--", label=f"fit: {angle:.1f} deg")
        ax.set_title(f"{label}: angle of repose {angle:.1f} deg")
        ax.set_xlabel("distance from the heap axis (diameters)")
        ax.legend()
        print(f"{case:8s} {len(spheres)} spheres, angle of repose {angle:.1f} deg")
    axes[0].set_ylabel("height (diameters)")
    fig.tight_layout()
    fig.savefig("angle_of_repose.png", dpi=110)
    print("wrote angle_of_repose.png")


if __name__ == "__main__":
    main()
