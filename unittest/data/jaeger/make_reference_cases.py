#!/usr/bin/env python3
"""Expected results of the Jaeger kernel on random 2-D movement sequences, computed by an
independent pure-Python implementation of the procedure (the oracle jaeger_reference.py, which is
not part of this repository; see doc/design_notes.md, "Jaeger checks").

Usage (from the repository root):
    python3 unittest/data/jaeger/make_reference_cases.py path/to/jaeger_reference.py
(the oracle is given by its path: it is kept outside the repository).
Writes unittest/data/jaeger/reference_cases.txt next to this script.

The inputs are not stored: both this script and unittest/test_kernel_jaeger.cpp draw them from
the same integer generator (splitmix64) and build every number from integers scaled by powers
of two, so both sides see bit-identical doubles without any floating-point rounding. The test
reads one line per step, "T1 T2 count" (T: tangential force in the local frame, %.17g; count:
stored history vertices), and compares.

Sequence i (i = 0..N_SEQ-1), all draws from one generator seeded with SEED, in this order:
    mu     = MUS[r(5)]            nu = NUS[r(4)]        C_H = CHS[r(3)]
    mode   = r(10): 0-5 exact, 6 lambda 0.1, 7 lambda 0.2,
                    8 capacity CAPS[r(3)], 9 lambda 0.1 with capacity CAPS[r(3)]
    colinear = (r(4) == 0)        scale = 2^-(1 + r(5))   (largest tangential step component)
    delta  = 1 + r(2^20) 2^-20
  then N_STEPS steps, each:
    kind = r(16)
    kind == 0            : separation: the step is fed delta = -1/16 (history cleared), then
                           delta = 1 + r(2^20) 2^-20 is drawn; the next step in contact starts a
                           new contact at that delta plus its d_delta, with its full movement
    kind == 1            : constant delta, tangential movement only
    kind in 2, 3         : mostly normal: d_delta = (r(2^21) - 2^20) 2^-23, tangential
                           components (r(2^21) - 2^20) 2^-28
    otherwise            : d_delta = (r(2^21) - 2^20) 2^-23, tangential components
                           (r(2^21) - 2^20) 2^-20 scale
    (the tangential draws are always made, x then y; y = 0 when colinear)
    if delta + d_delta <= 0 the step is a separation too.
r(n) = splitmix64() % n.

Exactly pure normal steps are left to the dedicated tests: on a theta* = 0 segment pure normal
unloading has a double root, where the oracle's discriminant B^2 + A c cancels to round-off and
its root then carries an error ~1e-8 (see jaeger.hpp, backoff()).

Capacity: the oracle's _merge_cheapest halves the cost of elastic pairs, which the kernel's rule
does not (doc/design_notes.md, "Jaeger merging": the plain cost), and it has no lossless merge. The
subclass below applies the kernel's rule: lossless merges of identical top slopes, then the plain
cost.
"""
import math
import os
import sys

SEED = 0x4A41454745520001
N_SEQ = 1000
N_STEPS = 20
MUS = (0.1, 0.25, 0.4, 0.6, 1.0)
NUS = (0.0, 0.25, 0.3, 0.45)
CHS = (1.0, 0.75, 3.0)
CAPS = (3, 6, 12)
MASK = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.x = seed & MASK

    def next(self):
        self.x = (self.x + 0x9E3779B97F4A7C15) & MASK
        z = self.x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def r(self, n):
        return self.next() % n


def load_oracle(path):
    sys.dont_write_bytecode = True     # leave the oracle's folder untouched
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    mod = __import__(os.path.splitext(os.path.basename(path))[0])
    Jaeger = mod.Jaeger

    class Section43(Jaeger):
        def _approximate(self):
            cap, self.capacity = self.capacity, None
            Jaeger._approximate(self)          # the lambda merge, unchanged
            self.capacity = cap
            if cap is None:
                return
            while len(self.H) >= 2:            # lossless: identical slopes on top
                a, b = self.H[-2][2], self.H[-1][2]
                if math.hypot(a[0] - b[0], a[1] - b[1]) > 1e-12 * self.mu:
                    break
                self._merge(len(self.H) - 2)
            while len(self.H) > cap:
                self._merge(self._cheapest_plain())

        def _cheapest_plain(self):
            n = len(self.H)
            top_slip = self.is_slip(self.H[-1][2])
            best, bj = math.inf, 0
            for j in range(n - 1):
                if j == n - 2 and top_slip:
                    continue
                N0 = self.H[j - 1][1] if j >= 1 else 0.0
                dN1 = self.H[j][1] - N0
                dN2 = self.H[j + 1][1] - self.H[j][1]
                a, b = self.H[j][2], self.H[j + 1][2]
                cost = math.hypot(a[0] - b[0], a[1] - b[1]) * (dN1 * dN2 / (dN1 + dN2))
                if cost < best:
                    best, bj = cost, j
            return bj

    return Section43


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_reference_cases.py path/to/jaeger_reference.py (the oracle)")
    here = os.path.dirname(os.path.abspath(__file__))
    Model = load_oracle(sys.argv[1])
    g = SplitMix64(SEED)
    lines = ["# Jaeger kernel cross-check: %d sequences x %d steps, seed %#x (see make_reference_cases.py)"
             % (N_SEQ, N_STEPS, SEED), "# T1 T2 count"]
    for _ in range(N_SEQ):
        mu = MUS[g.r(5)]
        nu = NUS[g.r(4)]
        C = CHS[g.r(3)]
        kappa = (2.0 - nu) / (2.0 * (1.0 - nu))
        mode = g.r(10)
        lam, cap = None, None
        if mode == 6:
            lam = 0.1
        elif mode == 7:
            lam = 0.2
        elif mode == 8:
            cap = CAPS[g.r(3)]
        elif mode == 9:
            lam, cap = 0.1, CAPS[g.r(3)]
        colinear = g.r(4) == 0
        scale = 2.0 ** -(1 + g.r(5))
        model = Model(mu, kappa, C, merge_ratio=lam, capacity=cap)
        delta = 1.0 + g.r(1 << 20) * 2.0 ** -20
        for _ in range(N_STEPS):
            kind = g.r(16)
            if kind == 0:
                dd, tscale = None, 0.0
            elif kind == 1:
                dd, tscale = 0.0, scale * 2.0 ** -20
            elif kind in (2, 3):
                dd, tscale = (g.r(1 << 21) - (1 << 20)) * 2.0 ** -23, 2.0 ** -28
            else:
                dd, tscale = (g.r(1 << 21) - (1 << 20)) * 2.0 ** -23, scale * 2.0 ** -20
            ux = (g.r(1 << 21) - (1 << 20)) * tscale
            uy = (g.r(1 << 21) - (1 << 20)) * tscale
            if colinear:
                uy = 0.0
            if dd is None or delta + dd <= 0.0:
                model.step(-0.0625, (ux, uy))
                delta = 1.0 + g.r(1 << 20) * 2.0 ** -20
                T = (0.0, 0.0)
            else:
                delta += dd
                _, T = model.step(delta, (ux, uy))
            lines.append("%.17g %.17g %d" % (T[0], T[1], len(model.H)))
    out = os.path.join(here, "reference_cases.txt")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote %s (%d bytes)" % (out, os.path.getsize(out)))


if __name__ == "__main__":
    main()
