// Kernel tests of the Jaeger contact (no LAMMPS): closed-form Hertz, Cattaneo-Mindlin, Masing and
// Mindlin-Deresiewicz results, worked examples with the structure of Kuhn's Figs. 4, 5 and 8, an
// independent spring-bed (MDR) model written here, a cross-check against an independent Python
// implementation (data in unittest/data/jaeger/), the contact frame (objectivity), Kuhn's
// approximation and the bounded-capacity variant, round-off corner cases, and a fuzz test of the
// invariants of the equivalent load history. The cases and the origin of their expected values
// are described in doc/design_notes.md, "Jaeger checks" (sections cited as "notes: <section>").
#include "contact/jaeger.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace ge;

namespace {

constexpr double kPi = 3.14159265358979323846;

// Parameter set A (notes: Jaeger checks): C_H = 1 (R = 1, E^ = 0.75), mu = 0.4, nu = 0.25
// (kappa = 7/6). E = E^ (1 - nu^2) = 0.703125 gives E^ = 0.75 exactly.
JaegerMaterial set_a(double lambda = 0.0, int capacity = 0)
{
  return jaeger_material(0.703125, 0.25, 0.4, lambda, capacity);
}
constexpr double kMu = 0.4;

// One contact driven directly in its local frame, with the caller's side of the room contract.
struct Contact {
  JaegerMaterial m;
  double C_H;
  std::vector<JaegerVertex> buf;
  JaegerHistory h;
  double T[2] = {0.0, 0.0};
  JaegerStepInfo info;

  explicit Contact(const JaegerMaterial &mat, double c_h = 1.0) : m(mat), C_H(c_h), buf(8)
  {
    h = {buf.data(), 0, static_cast<int>(buf.size())};
  }
  Contact(const Contact &o) : m(o.m), C_H(o.C_H), buf(o.buf), h(o.h), info(o.info)
  {
    h.vertex = buf.data();
    T[0] = o.T[0];
    T[1] = o.T[1];
  }
  double step(double delta, double ux, double uy = 0.0)
  {
    const int need = jaeger_room_needed(m, h.count);
    if (h.room < need) {
      buf.resize(2 * need);
      h.vertex = buf.data();
      h.room = static_cast<int>(buf.size());
    }
    const double du[2] = {ux, uy};
    return jaeger_step(m, C_H, delta, du, T, h, &info);
  }
  double Tmag() const { return std::hypot(T[0], T[1]); }
  const JaegerVertex &v(int i) const { return h.vertex[i]; }
  // force and shift implied by the stored history
  void history_sums(double Ts[2], double us[2]) const
  {
    Ts[0] = Ts[1] = us[0] = us[1] = 0.0;
    double Np = 0.0, dp = 0.0;
    for (int i = 0; i < h.count; ++i) {
      Ts[0] += v(i).theta1 * (v(i).N - Np);
      Ts[1] += v(i).theta2 * (v(i).N - Np);
      us[0] += m.kappa * v(i).theta1 * (v(i).delta - dp);
      us[1] += m.kappa * v(i).theta2 * (v(i).delta - dp);
      Np = v(i).N;
      dp = v(i).delta;
    }
  }
};

// The history polyline without corners of zero angle: consecutive segments of the same slope are
// one segment (an extra vertex on a straight piece changes nothing, notes: Jaeger merging; the
// exact algorithm may leave one where a cut is degenerate, e.g. on a slip segment whose cone
// boundary contains the new point).
std::vector<JaegerVertex> polyline(const JaegerHistory &h, double mu)
{
  std::vector<JaegerVertex> p;
  for (int i = 0; i < h.count; ++i) {
    const JaegerVertex &v = h.vertex[i];
    if (!p.empty() && std::hypot(p.back().theta1 - v.theta1, p.back().theta2 - v.theta2) <= 1e-12 * mu)
      p.back() = v;
    else
      p.push_back(v);
  }
  return p;
}

double hertz(double C, double d) { return C * std::pow(d, 1.5); }
double delta_of(double C, double N) { return std::cbrt((N / C) * (N / C)); }

// splitmix64: the generator shared with unittest/data/jaeger/make_reference_cases.py
struct SplitMix64 {
  uint64_t x;
  uint64_t next()
  {
    x += 0x9E3779B97F4A7C15ull;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t r(uint64_t n) { return next() % n; }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1p-53; }    // [0, 1)
};

double percentile(std::vector<double> v, double p)
{
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(p * (v.size() - 1) + 0.5)];
}

}    // namespace

// ================================================================================================
// 1. Hertz and the single-contact closed forms (notes: Jaeger checks)

TEST(JaegerKernel, HertzNormalForce)
{
  const JaegerMaterial m = set_a();
  EXPECT_NEAR(m.E_hat, 0.75, 1e-16);
  EXPECT_NEAR(m.kappa, 7.0 / 6.0, 1e-16);
  EXPECT_NEAR(jaeger_hertz_constant(m, 1.0), 1.0, 2e-16);

  // N = C_H delta^{3/2} with C_H = 1, and T = 0 under pure normal loading
  Contact c(m);
  const double table[3][2] = {{0.1, 0.031622776602}, {0.5, 0.353553390593}, {0.7, 0.585662018574}};
  for (const auto &row : table) {
    const double N = c.step(row[0], 0.0);
    std::printf("delta %.1f: N = %.12f (ref %.12f)\n", row[0], N, row[1]);
    EXPECT_NEAR(N, row[1], 5e-13);
    EXPECT_NEAR(N, std::pow(row[0], 1.5), 1e-15);
    EXPECT_EQ(c.T[0], 0.0);
    EXPECT_EQ(c.T[1], 0.0);
  }

  // SI (the MD path's SI set, notes: Jaeger checks): G = 30 GPa, nu = 0.25, R = 1 mm:
  // C_H = 3.373096171e9 N/m^1.5 = (8/3) G/(1-nu) sqrt(R)
  const double G = 30e9, nu = 0.25;
  const JaegerMaterial si = jaeger_material(2.0 * G * (1.0 + nu), nu, 0.4, 0.0, 0);
  const double C_si = jaeger_hertz_constant(si, 1e-3);
  std::printf("SI: E^ = %.10g Pa, C_H = %.10g N/m^1.5\n", si.E_hat, C_si);
  EXPECT_NEAR(si.E_hat, 8e10, 1e-5);
  EXPECT_NEAR(C_si / 3.373096171e9, 1.0, 2e-10);
  EXPECT_NEAR(C_si / ((8.0 / 3.0) * G / (1.0 - nu) * std::sqrt(1e-3)), 1.0, 1e-15);

  // the half-overlap convention is the classical Hertz law in totals for unequal
  // radii: N = (4/3) E* sqrt(R*) alpha^{3/2}, E* = E/(2(1-nu^2)), R* = r_p r_q/(r_p + r_q),
  // alpha = 2 delta, and R = 2 r_p r_q/(r_p + r_q)
  const double rp = 1e-3, rq = 3e-3, alpha = 2e-6, E = 2.0 * G * (1.0 + nu);
  const double R = 2.0 * rp * rq / (rp + rq), Rstar = rp * rq / (rp + rq);
  const double N_classic = (4.0 / 3.0) * (E / (2.0 * (1.0 - nu * nu))) * std::sqrt(Rstar) *
      std::pow(alpha, 1.5);
  Contact s(si, jaeger_hertz_constant(si, R));
  const double N_kernel = s.step(0.5 * alpha, 0.0);
  std::printf("unequal radii: N kernel %.15g, classical %.15g\n", N_kernel, N_classic);
  EXPECT_NEAR(N_kernel / N_classic, 1.0, 1e-14);
}

TEST(JaegerKernel, PureNormalLoadUnloadHistory)
{
  // 0.1 -> 0.5 -> 1.0, then unloading to 0.7 cuts the top theta* = 0 segment at the
  // double root delta* = delta: history [(0.1, 0), (0.5, 0), (0.7, 0)], T = 0 throughout
  Contact c(set_a());
  for (double d : {0.1, 0.5, 1.0, 0.7}) c.step(d, 0.0);
  ASSERT_EQ(c.h.count, 3);
  const double expect[3] = {0.1, 0.5, 0.7};
  for (int i = 0; i < 3; ++i) {
    std::printf("vertex %d: delta* %.17g N* %.17g theta* (%g, %g)\n", i + 1, c.v(i).delta, c.v(i).N,
                c.v(i).theta1, c.v(i).theta2);
    EXPECT_EQ(c.v(i).delta, expect[i]);    // the top vertex is exactly the current state
    EXPECT_NEAR(c.v(i).N, std::pow(expect[i], 1.5), 1e-16);
    EXPECT_EQ(c.v(i).theta1, 0.0);
    EXPECT_EQ(c.v(i).theta2, 0.0);
  }
  EXPECT_EQ(c.T[0], 0.0);
  EXPECT_EQ(c.T[1], 0.0);
  // unloading further, below 0.5: that segment is eliminated
  c.step(0.3, 0.0);
  EXPECT_EQ(c.h.count, 2);
  EXPECT_EQ(c.v(1).delta, 0.3);
  // contact loss clears everything; the next contact starts empty
  EXPECT_EQ(c.step(0.0, 0.1, 0.1), 0.0);
  EXPECT_EQ(c.h.count, 0);
  EXPECT_EQ(c.T[0], 0.0);
  EXPECT_EQ(c.info.kind, JAEGER_SEPARATED);
}

TEST(JaegerKernel, CattaneoMindlinOneStepAndHundredSteps)
{
  // Cattaneo-Mindlin: constant delta = 1 (N = 1), T = mu N [1 - (1 - u/u_max)^{3/2}],
  // u_max = mu kappa delta
  const JaegerMaterial m = set_a();
  const double umax = kMu * m.kappa;
  const double table[6][2] = {{0.10, 0.058474012702}, {0.25, 0.140192378865},
                              {0.50, 0.258578643763}, {0.75, 0.350000000000},
                              {0.90, 0.387350889359}, {1.00, 0.400000000000}};
  for (const auto &row : table) {
    const double f = row[0], closed = kMu * (1.0 - std::pow(1.0 - f, 1.5));
    Contact one(m);
    one.step(1.0, 0.0);
    one.step(1.0, f * umax);
    Contact hundred(m);
    hundred.step(1.0, 0.0);
    double worst = 0.0;
    for (int k = 1; k <= 100; ++k) {
      hundred.step(1.0, f * umax / 100);
      const double fk = f * k / 100;
      worst = std::max(worst, std::fabs(hundred.T[0] - kMu * (1.0 - std::pow(1.0 - fk, 1.5))) / kMu);
      // continued loading keeps two stored vertices (the cut one, shrinking towards the origin,
      // and the slip vertex) until full mobilization, where the stick zone is gone: gross sliding
      EXPECT_EQ(hundred.h.count, fk < 1.0 ? 2 : 1) << "step " << k;
      EXPECT_EQ(hundred.T[1], 0.0);
    }
    std::printf("u/umax %.2f: one step %.12f, 100 steps %.12f, ref %.12f, closed %.12f, "
                "worst over the 100 steps %.1e muN\n",
                f, one.T[0], hundred.T[0], row[1], closed, worst);
    EXPECT_NEAR(one.T[0], closed, 1e-12 * kMu);
    EXPECT_NEAR(hundred.T[0], closed, 1e-12 * kMu);
    EXPECT_LE(worst, 1e-12);
    EXPECT_NEAR(closed, row[1], 5e-13);
    EXPECT_EQ(one.h.count, f < 1.0 ? 2 : 1);    // full mobilization is gross sliding
    // stick radius: (c/a)^2 = delta*/delta = 1 - u/umax (Mindlin) for the cut on the first segment
    if (f < 1.0) { EXPECT_NEAR(one.v(0).delta, 1.0 - f, 1e-15); }
  }
}

TEST(JaegerKernel, MasingUnloadingAndReloading)
{
  // Masing unloading: from u1 = 0.75 u_max (T1 = 0.35) at delta = 1, a reversal r gives
  // T = T1 - 2 mu N [1 - (1 - r/(2 mu kappa delta))^{3/2}]
  const JaegerMaterial m = set_a();
  const double umax = kMu * m.kappa;
  const double spec[4] = {0.290756370205, 0.233051974596, 0.176929023096, 0.122433402240};
  for (int i = 0; i < 4; ++i) {
    const double r = 0.1 * (i + 1) * umax;
    const double closed = 0.35 - 2 * kMu * (1.0 - std::pow(1.0 - r / (2 * kMu * m.kappa), 1.5));
    Contact c(m);
    c.step(1.0, 0.0);
    c.step(1.0, 0.75 * umax);
    const std::vector<JaegerVertex> before = polyline(c.h, kMu);
    c.step(1.0, -r);
    EXPECT_TRUE(c.info.cut_on_slip) << "reversal: linear root on the slip segment";
    // the same reversal in 7 steps (a straight colinear path: size independent)
    Contact s(m);
    s.step(1.0, 0.0);
    s.step(1.0, 0.75 * umax);
    for (int k = 0; k < 7; ++k) s.step(1.0, -r / 7);
    std::printf("r/umax %.1f: T %.12f (7 steps %.12f), ref %.12f, closed %.12f\n", 0.1 * (i + 1),
                c.T[0], s.T[0], spec[i], closed);
    EXPECT_NEAR(c.T[0], closed, 1e-12 * kMu);
    EXPECT_NEAR(s.T[0], closed, 1e-12 * kMu);
    EXPECT_NEAR(closed, spec[i], 5e-13);
    // Masing reloading: T = T_r + 2 mu N [1 - (1 - r'/(2 mu kappa))^{3/2}]; at r' = r the loop
    // closes onto T1 and the reversal is forgotten (the history polyline is the one before it) ...
    const double Tr = c.T[0];
    c.step(1.0, 0.5 * r);
    EXPECT_NEAR(c.T[0], Tr + 2 * kMu * (1.0 - std::pow(1.0 - 0.5 * r / (2 * kMu * m.kappa), 1.5)),
                1e-12 * kMu);
    c.step(1.0, 0.5 * r);
    EXPECT_NEAR(c.T[0], 0.35, 1e-12 * kMu);
    const std::vector<JaegerVertex> after = polyline(c.h, kMu);
    std::printf("  loop closed: %d stored vertices, polyline of %zu (before the reversal: %zu)\n",
                c.h.count, after.size(), before.size());
    ASSERT_EQ(after.size(), before.size());
    for (size_t j = 0; j < after.size(); ++j) {
      EXPECT_NEAR(after[j].delta, before[j].delta, 1e-14);
      EXPECT_NEAR(after[j].theta1, before[j].theta1, 1e-15);
    }
    // ... and further loading continues on the virgin Cattaneo-Mindlin curve (u = 0.9 u_max)
    c.step(1.0, 0.15 * umax);
    EXPECT_NEAR(c.T[0], 0.387350889359, 5e-13);
  }
}

TEST(JaegerKernel, GrossSlidingAndSidewaysMovement)
{
  // full slip, then a sideways movement and a normal increase (notes: Jaeger checks)
  const JaegerMaterial m = set_a();
  const double umax = kMu * m.kappa;
  Contact c(m);
  c.step(1.0, 0.0);
  c.step(1.0, 3.0 * umax);
  std::printf("after 3 umax: T = (%.15f, %.15f), %d stored vertex\n", c.T[0], c.T[1], c.h.count);
  EXPECT_NEAR(c.Tmag(), kMu, 1e-15);
  EXPECT_EQ(c.h.count, 1);
  EXPECT_EQ(c.info.kind, JAEGER_GROSS_SLIP);
  // sideways: the slip direction becomes that of (mu kappa delta, 0) + (0, 0.5)
  c.step(1.0, 0.0, 0.5);
  const double ex = umax / std::hypot(umax, 0.5), ey = 0.5 / std::hypot(umax, 0.5);
  std::printf("sideways 0.5: T/|T| = (%.9f, %.9f), ref (0.682318250, 0.731055268), |T| = %.15f\n",
              c.T[0] / c.Tmag(), c.T[1] / c.Tmag(), c.Tmag());
  EXPECT_NEAR(c.Tmag(), kMu, 1e-15);
  EXPECT_NEAR(c.T[0] / c.Tmag(), ex, 1e-14);
  EXPECT_NEAR(c.T[1] / c.Tmag(), ey, 1e-14);
  EXPECT_NEAR(ex, 0.682318250, 5e-10);
  EXPECT_NEAR(ey, 0.731055268, 5e-10);
  // a pure normal increase to 1.2 is elastic: T unchanged, |T|/(mu N) = 0.7607
  const double Tx = c.T[0], Ty = c.T[1];
  const double N = c.step(1.2, 0.0);
  EXPECT_EQ(c.info.kind, JAEGER_ELASTIC);
  EXPECT_EQ(c.T[0], Tx);
  EXPECT_EQ(c.T[1], Ty);
  std::printf("delta 1.2: |T|/(mu N) = %.6f (ref 0.7607)\n", c.Tmag() / (kMu * N));
  EXPECT_NEAR(c.Tmag() / (kMu * N), 1.0 / std::pow(1.2, 1.5), 1e-15);
  EXPECT_NEAR(c.Tmag() / (kMu * N), 0.7607, 5e-5);
}

TEST(JaegerKernel, ProportionalElasticLoading)
{
  // proportional loading: u = g delta from zero in 10 steps, g <= mu kappa:
  // T = (g/kappa) N at every step
  const JaegerMaterial m = set_a();
  for (double g : {0.1, 0.25, kMu * m.kappa}) {
    Contact c(m);
    double worst = 0.0;
    for (int k = 1; k <= 10; ++k) {
      const double N = c.step(0.1 * k, g * 0.1);
      worst = std::max(worst, std::fabs(c.T[0] - g / m.kappa * N) / (kMu * N));
    }
    std::printf("g = %.6f: T(delta=1) = %.10f, (g/kappa) N = %.10f, worst %.1e muN, %d vertices\n",
                g, c.T[0], g / m.kappa, worst, c.h.count);
    EXPECT_LE(worst, 1e-14);
    if (g == 0.1) { EXPECT_NEAR(c.T[0], 0.0857142857, 5e-11); }
    if (g == kMu * m.kappa) { EXPECT_NEAR(c.T[0], kMu, 1e-15); }    // = mu N
  }
}

TEST(JaegerKernel, NineStepColinearExample)
{
  // nine steps with the structure of Kuhn's Fig. 4 and the project's numbers (notes: Jaeger checks)
  const JaegerMaterial m = set_a();
  const double pts[9][2] = {{1.0, .20}, {1.5, .35}, {1.8, .30}, {1.8, .45}, {1.8, .55},
                            {2.2, .60}, {2.5, .55}, {2.5, .70}, {2.5, .60}};
  const double expT[9] = {0.1714285714, 0.3866873075, 0.3041392920, 0.5541764329, 0.7063832347,
                          0.7972590117, 0.6987276202, 0.9963211305, 0.7952257651};
  const int kinds[9] = {JAEGER_ELASTIC,      JAEGER_ELASTIC, JAEGER_ELASTIC,
                        JAEGER_PARTIAL_SLIP, JAEGER_PARTIAL_SLIP, JAEGER_ELASTIC,
                        JAEGER_ELASTIC,      JAEGER_PARTIAL_SLIP, JAEGER_PARTIAL_SLIP};
  Contact c(m);
  double up = 0.0;
  for (int i = 0; i < 9; ++i) {
    c.step(pts[i][0], pts[i][1] - up);
    up = pts[i][1];
    double Ts[2], us[2];
    c.history_sums(Ts, us);
    std::printf("step %d: T = %.10f (ref %.10f), %d vertices, sum theta dN - T = %.1e, "
                "sum kappa theta d delta - u = %.1e\n",
                i + 1, c.T[0], expT[i], c.h.count, Ts[0] - c.T[0], us[0] - up);
    EXPECT_NEAR(c.T[0], expT[i], 5e-11);
    EXPECT_EQ(c.info.kind, kinds[i]);
    EXPECT_NEAR(Ts[0], c.T[0], 1e-15);
    EXPECT_NEAR(us[0], up, 1e-15);
  }
  // final history 0-1-1a-5-6-6a-7a-9: seven segments, three of them slip
  const double d[7] = {1.0, 1.14, 1.8, 2.2, 2.2631578947, 2.3928571429, 2.5};
  const double th[7] = {0.1714285714, 0.2571428571, 0.4, 0.1071428571, -0.1428571429, 0.4, -0.4};
  ASSERT_EQ(c.h.count, 7);
  for (int i = 0; i < 7; ++i) {
    EXPECT_NEAR(c.v(i).delta, d[i], 5e-11);
    EXPECT_NEAR(c.v(i).theta1, th[i], 5e-11);
  }
  EXPECT_NEAR(c.v(4).N, 3.4046485036, 5e-11);    // N* of 6a
  EXPECT_NEAR(c.v(5).N, 3.7014778685, 5e-11);    // N* of 7a
}

TEST(JaegerKernel, StraightStepSizeIndependence)
{
  // Does one big step end in the same state as many small steps on the same straight path? True for
  // colinear paths (checked to 1e-12 here); in 2-D it is NOT: the new slip annulus gets one uniform
  // direction (Jaeger's assumption, notes: Jaeger history), so a straight 2-D step gives a
  // different force from the same step cut into pieces (the independent Python implementation
  // agrees with this kernel on it). The sub-divided answer converges as the pieces shrink (first
  // order).
  const JaegerMaterial m = set_a();
  SplitMix64 g{77};
  auto U = [&g]() { return 2.0 * g.uniform() - 1.0; };
  double worst_1d = 0.0, worst_2d = 0.0, conv_prev = 0.0, conv_ratio = 0.0;
  for (int trial = 0; trial < 2000; ++trial) {
    const bool colinear = trial % 2 == 0;
    Contact a(m);
    double d = 1.0;
    for (int k = 0; k < 15; ++k) {
      d = std::max(0.3, d + 0.1 * U());
      const double ux = 0.15 * U(), uy = colinear ? 0.0 : 0.15 * U();
      a.step(d, ux, uy);
    }
    const double d1 = std::max(0.2, d + 0.2 * U());
    const double ux = 0.3 * U(), uy = colinear ? 0.0 : 0.3 * U();
    auto split = [&](int n) {
      Contact c(a);
      for (int i = 1; i <= n; ++i) c.step(d + (d1 - d) * i / n, ux / n, uy / n);
      return c;
    };
    const Contact one = split(1), many = split(100);
    const double muN = kMu * hertz(1.0, d1);
    const double e = std::hypot(one.T[0] - many.T[0], one.T[1] - many.T[1]) / muN;
    if (colinear) {
      worst_1d = std::max(worst_1d, e);
    } else if (e > worst_2d) {
      worst_2d = e;
      // convergence of the sub-divided result: |T_200 - T_400| / |T_100 - T_200|
      const Contact c200 = split(200), c400 = split(400);
      conv_prev = std::hypot(many.T[0] - c200.T[0], many.T[1] - c200.T[1]) / muN;
      conv_ratio = std::hypot(c200.T[0] - c400.T[0], c200.T[1] - c400.T[1]) / muN / conv_prev;
    }
  }
  std::printf("straight step, 1 vs 100 pieces: colinear %.2e muN, 2-D %.3f muN; worst 2-D case: "
              "|T100-T200| = %.2e muN, ratio of the next halving %.3f\n",
              worst_1d, worst_2d, conv_prev, conv_ratio);
  EXPECT_LE(worst_1d, 1e-12);
  EXPECT_GT(worst_2d, 1e-2);    // size independence does not hold in 2-D
  EXPECT_LT(conv_ratio, 0.6);   // ... but sub-division converges (about halving)
}

// ================================================================================================
// 2. Mindlin-Deresiewicz proportional loading then unloading (MD 1953 section 17; Kuhn's Fig. 8)

namespace {

struct MDPath {
  double C, mu, kappa, N0, beta, N1;
  double T1() const { return beta * (N1 - N0); }
  double Ns1() const { return N1 - T1() / mu; }    // equivalent force at the peak
  double d(double N) const { return delta_of(C, N); }
  // cumulative half-shift (closed form, notes: Jaeger checks)
  double u_load(double N) const { return mu * kappa * (d(N) - d(N - beta / mu * (N - N0))); }
  double T_unload(double N) const { return T1() + beta * (N - N1); }
  double Nss(double N) const { return (T_unload(N) + mu * (N + Ns1())) / (2 * mu); }
  double u_unload(double N) const { return mu * kappa * (2 * d(Nss(N)) - d(Ns1()) - d(N)); }
};

}    // namespace

TEST(JaegerKernel, MindlinDeresiewiczSmallSteps)
{
  const JaegerMaterial m = set_a();
  const MDPath p{1.0, kMu, m.kappa, 1.0, 0.6, 2.5};
  Contact c(m);
  c.step(p.d(p.N0), 0.0);
  double up = 0.0, worst_load = 0.0, worst_unload = 0.0;
  const int n = 2000;
  for (int k = 1; k <= n; ++k) {
    const double N = p.N0 + (p.N1 - p.N0) * k / n, u = p.u_load(N);
    const double Nk = c.step(p.d(N), u - up);
    up = u;
    worst_load = std::max(worst_load, std::fabs(c.T[0] - p.beta * (N - p.N0)) / (kMu * Nk));
  }
  for (int k = 1; k <= n; ++k) {
    const double N = p.N1 - (p.N1 - p.N0) * k / n, u = p.u_unload(N);
    const double Nk = c.step(p.d(N), u - up);
    up = u;
    worst_unload = std::max(worst_unload, std::fabs(c.T[0] - p.T_unload(N)) / (kMu * Nk));
  }
  std::printf("MD 2x%d steps: worst loading %.2e muN, worst unloading %.2e muN, final T %.2e, "
              "final u %.12f (residual), %d vertices\n",
              n, worst_load, worst_unload, c.T[0], up, c.h.count);
  EXPECT_LE(worst_load, 1e-12);
  EXPECT_LE(worst_unload, 1e-12);
  EXPECT_NEAR(up, 0.030407349520, 5e-13);
  EXPECT_EQ(c.h.count, 3);
}

namespace {

// Four large steps from (delta(N0), 0) to N = 1.75, 2.5, 1.75, 1 (in units of N0); after each, the
// history must be the closed-form one: loading [(d(N*), 0), (d(N), +mu)], unloading
// [(d(N*1), 0), (d(N**), +mu), (d(N), -mu)].
void four_large_steps(const MDPath &p, const JaegerMaterial &m, double C, double Tscale,
                      const double spec_delta[4][3], const double spec_u[4], const double spec_T[4])
{
  Contact c(m, C);
  c.step(p.d(p.N0), 0.0);
  const double fN[4] = {1.75, 2.5, 1.75, 1.0};
  double up = 0.0;
  for (int i = 0; i < 4; ++i) {
    const bool load = i < 2;
    const double N = fN[i] * p.N0;
    const double u = load ? p.u_load(N) : p.u_unload(N);
    const double Te = load ? p.beta * (N - p.N0) : p.T_unload(N);
    const double Nk = c.step(p.d(N), u - up);
    up = u;
    std::printf("  N = %.3g: delta %.10g u %.10g T %.15g (expected %.15g, err %.1e muN), history",
                N, p.d(N), u, c.T[0], Te, std::fabs(c.T[0] - Te) / (kMu * Nk));
    for (int j = 0; j < c.h.count; ++j) std::printf(" (%.10g, %+.3g)", c.v(j).delta, c.v(j).theta1);
    std::printf("\n");
    EXPECT_NEAR(c.T[0], Te, 1e-12 * kMu * Nk);
    EXPECT_NEAR(c.T[0], spec_T[i] * Tscale, 1e-12 * kMu * Nk);
    EXPECT_NEAR(p.d(N) / spec_delta[i][2], 1.0, 5e-10);    // the tabulated inputs
    EXPECT_NEAR(u / spec_u[i], 1.0, 5e-10);
    // loading steps cut an elastic segment (quadratic), unloading steps a slip one (linear)
    EXPECT_EQ(c.info.kind, JAEGER_PARTIAL_SLIP);
    EXPECT_EQ(c.info.cut_on_slip, !load);
    const double Ns = N - p.beta / p.mu * (N - p.N0);
    const double closed[3] = {load ? p.d(Ns) : p.d(p.Ns1()), load ? p.d(N) : p.d(p.Nss(N)), p.d(N)};
    const double slope[3] = {0.0, p.mu, -p.mu};
    ASSERT_EQ(c.h.count, load ? 2 : 3);
    for (int j = 0; j < c.h.count; ++j) {
      EXPECT_NEAR(c.v(j).delta / closed[j], 1.0, 1e-13);
      EXPECT_NEAR(c.v(j).delta / spec_delta[i][j], 1.0, 5e-9);
      EXPECT_NEAR(c.v(j).theta1, slope[j], 1e-15);
      EXPECT_EQ(c.v(j).theta2, 0.0);
    }
  }
}

}    // namespace

TEST(JaegerKernel, MindlinDeresiewiczFourLargeSteps)
{
  // dimensionless (set A): the history contents (delta*) after each step
  const JaegerMaterial m = set_a();
  const MDPath p{1.0, kMu, m.kappa, 1.0, 0.6, 2.5};
  const double hist[4][3] = {{0.731004435, 1.452196433, 1.452196433},
                             {0.396850263, 1.842015749, 1.842015749},
                             {0.396850263, 1.346521681, 1.452196433},
                             {0.396850263, 0.731004435, 1.0}};
  const double u[4] = {0.336556266124, 0.674410560286, 0.393865110873, 0.030407349520};
  const double T[4] = {0.45, 0.90, 0.45, 0.0};
  std::printf("dimensionless:\n");
  four_large_steps(p, m, 1.0, 1.0, hist, u, T);

  // SI: R = 1 mm, G = 30 GPa, nu = 0.25, N0 = 10 N
  const double G = 30e9, nu = 0.25;
  const JaegerMaterial si = jaeger_material(2.0 * G * (1.0 + nu), nu, 0.4, 0.0, 0);
  const double C = jaeger_hertz_constant(si, 1e-3);
  const MDPath q{C, kMu, si.kappa, 10.0, 0.6, 25.0};
  EXPECT_NEAR(q.d(q.N0) / 2.063704531e-6, 1.0, 5e-10);
  // SI history: the dimensionless one times (N0/C)^{2/3}
  const double scale = q.d(q.N0);
  double hist_si[4][3];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) hist_si[i][j] = hist[i][j] * scale;
  const double u_si[4] = {6.945526912e-7, 1.391784129e-6, 8.128212137e-7, 6.275178497e-8};
  const double T_si[4] = {4.5, 9.0, 4.5, 0.0};
  std::printf("SI (delta0 = %.10g m):\n", scale);
  four_large_steps(q, si, C, 1.0, hist_si, u_si, T_si);
}

// ================================================================================================
// 3. Independent oracle: the MDR spring bed (colinear histories; notes: Jaeger checks)

namespace {

// A row of independent springs at x in [-a, a] (symmetric: half the row is modelled), profile
// g(x) = x^2/R. Normal force per length k (delta - g), tangential stiffness per length k/kappa,
// each spring limited to mu times its normal force; springs out of contact carry nothing, so a
// spring entering contact starts unstressed and one leaving is reset. Driven by sub-steps.
class SpringBed {
public:
  SpringBed(double R, double k, double kappa, double mu, double x_max, int n)
      : k_(k), kappa_(kappa), mu_(mu), dx_(x_max / n), g_(n), v_(n, 0.0)
  {
    for (int i = 0; i < n; ++i) {
      const double x = (i + 0.5) * dx_;
      g_[i] = x * x / R;
    }
  }
  void move(double delta, double du)
  {
    const double mk = mu_ * kappa_;
    for (size_t i = 0; i < g_.size(); ++i) {
      const double gap = delta - g_[i];
      if (gap <= 0.0) {
        v_[i] = 0.0;
        continue;
      }
      const double cap = mk * gap;    // |v| <= mu kappa gap: force <= mu k gap
      v_[i] = std::min(cap, std::max(-cap, v_[i] + du));
    }
  }
  double tangential_force() const
  {
    double s = 0.0;
    for (double v : v_) s += v;
    return 2.0 * dx_ * (k_ / kappa_) * s;
  }
  double normal_force(double delta) const
  {
    double s = 0.0;
    for (double g : g_) s += std::max(0.0, delta - g);
    return 2.0 * dx_ * k_ * s;
  }

private:
  double k_, kappa_, mu_, dx_;
  std::vector<double> g_, v_;
};

}    // namespace

TEST(JaegerKernel, SpringBedOracleColinear)
{
  const auto t0 = std::chrono::steady_clock::now();
  const JaegerMaterial m = set_a();
  const double R = 1.0, C = jaeger_hertz_constant(m, R);
  // 40 random colinear steps: delta in [0.6, 1.4], shift increments up to 0.6 mu kappa
  SplitMix64 g{2024};
  const int n_steps = 40;
  std::vector<double> d(n_steps + 1), u(n_steps + 1);
  d[0] = 1.0;
  u[0] = 0.0;
  for (int i = 1; i <= n_steps; ++i) {
    d[i] = 0.6 + 0.8 * g.uniform();
    u[i] = u[i - 1] + 0.6 * kMu * m.kappa * (2.0 * g.uniform() - 1.0);
  }
  Contact c(m, C);
  c.step(d[0], 0.0);
  std::vector<double> Tk(n_steps + 1), Nk(n_steps + 1);
  int slips = 0, elastic = 0;
  for (int i = 1; i <= n_steps; ++i) {
    Nk[i] = c.step(d[i], u[i] - u[i - 1]);
    Tk[i] = c.T[0];
    slips += c.info.kind >= JAEGER_PARTIAL_SLIP;
    elastic += c.info.kind == JAEGER_ELASTIC;
  }
  const int n_x = 4000;
  const double x_max = std::sqrt(R * 1.4) * 1.001;
  std::vector<double> err;
  for (int sub : {50, 100, 200, 400, 800}) {
    SpringBed bed(R, m.E_hat, m.kappa, kMu, x_max, n_x);
    bed.move(d[0], 0.0);
    double worst = 0.0, worst_N = 0.0;
    for (int i = 1; i <= n_steps; ++i) {
      for (int s = 1; s <= sub; ++s) {
        const double f = static_cast<double>(s) / sub;
        bed.move(d[i - 1] + (d[i] - d[i - 1]) * f, (u[i] - u[i - 1]) / sub);
      }
      worst = std::max(worst, std::fabs(bed.tangential_force() - Tk[i]) / (kMu * Nk[i]));
      worst_N = std::max(worst_N, std::fabs(bed.normal_force(d[i]) / Nk[i] - 1.0));
    }
    err.push_back(worst);
    std::printf("MDR %4d sub-steps/step, %d springs: max |T_MDR - T_kernel| = %.3e muN "
                "(normal force of the bed: %.1e relative)\n",
                sub, 2 * n_x, worst, worst_N);
    EXPECT_LE(worst_N, 1e-6);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("kernel steps: %d elastic, %d slip; MDR run %.2f s\n", elastic, slips, secs);
  for (size_t i = 1; i < err.size(); ++i) EXPECT_LT(err[i], 0.75 * err[i - 1]) << "no convergence";
  EXPECT_LE(err.back(), 1e-3);
}

// ================================================================================================
// 4. Cross-check against an independent Python implementation (data: make_reference_cases.py)

namespace {

std::string data_path(const char *name)
{
  const std::string self = __FILE__;
  const size_t slash = self.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : self.substr(0, slash);
  return dir + "/data/jaeger/" + name;
}

}    // namespace

TEST(JaegerKernel, CrossCheckAgainstPythonReference)
{
  // Inputs regenerated exactly as in make_reference_cases.py (see its docstring).
  std::ifstream in(data_path("reference_cases.txt"));
  ASSERT_TRUE(in.good()) << "missing " << data_path("reference_cases.txt");
  std::string line;
  std::vector<std::string> rows;
  while (std::getline(in, line))
    if (!line.empty() && line[0] != '#') rows.push_back(line);
  const int n_seq = 1000, n_steps = 20;
  ASSERT_EQ(rows.size(), static_cast<size_t>(n_seq * n_steps));

  const double mus[5] = {0.1, 0.25, 0.4, 0.6, 1.0}, nus[4] = {0.0, 0.25, 0.3, 0.45};
  const double chs[3] = {1.0, 0.75, 3.0};
  const int caps[3] = {3, 6, 12};
  SplitMix64 g{0x4A41454745520001ull};
  size_t row = 0;
  double worst = 0.0;
  int count_mismatch = 0, n_exact = 0, n_lambda = 0, n_cap = 0, n_colinear = 0, n_sep = 0;
  int kinds[5] = {0, 0, 0, 0, 0}, max_count = 0;
  for (int s = 0; s < n_seq; ++s) {
    JaegerMaterial m;
    m.mu = mus[g.r(5)];
    const double nu = nus[g.r(4)];
    const double C = chs[g.r(3)];
    m.kappa = (2.0 - nu) / (2.0 * (1.0 - nu));
    const uint64_t mode = g.r(10);
    if (mode == 6) m.lambda = 0.1;
    if (mode == 7) m.lambda = 0.2;
    if (mode == 8) m.capacity = caps[g.r(3)];
    if (mode == 9) {
      m.lambda = 0.1;
      m.capacity = caps[g.r(3)];
    }
    (mode < 6 ? n_exact : (mode < 8 ? n_lambda : n_cap))++;
    const bool colinear = g.r(4) == 0;
    n_colinear += colinear;
    const double scale = std::ldexp(1.0, -static_cast<int>(1 + g.r(5)));
    Contact c(m, C);
    double delta = 1.0 + std::ldexp(static_cast<double>(g.r(1u << 20)), -20);
    for (int k = 0; k < n_steps; ++k, ++row) {
      const uint64_t kind = g.r(16);
      bool separate = kind == 0;
      double dd = 0.0, tscale = 0.0;
      if (kind == 1) {
        tscale = std::ldexp(scale, -20);
      } else if (kind == 2 || kind == 3) {
        dd = std::ldexp(static_cast<double>(g.r(1u << 21)) - (1u << 20), -23);
        tscale = std::ldexp(1.0, -28);
      } else if (kind > 3) {
        dd = std::ldexp(static_cast<double>(g.r(1u << 21)) - (1u << 20), -23);
        tscale = std::ldexp(scale, -20);
      }
      const double ux = (static_cast<double>(g.r(1u << 21)) - (1u << 20)) * tscale;
      double uy = (static_cast<double>(g.r(1u << 21)) - (1u << 20)) * tscale;
      if (colinear) uy = 0.0;
      double N = 0.0;
      if (separate || delta + dd <= 0.0) {
        c.step(-0.0625, ux, uy);
        delta = 1.0 + std::ldexp(static_cast<double>(g.r(1u << 20)), -20);
        ++n_sep;
      } else {
        delta += dd;
        N = c.step(delta, ux, uy);
      }
      ++kinds[c.info.kind];
      max_count = std::max(max_count, c.h.count);
      std::istringstream ss(rows[row]);
      double T1, T2;
      int cnt;
      ss >> T1 >> T2 >> cnt;
      ASSERT_FALSE(ss.fail()) << "bad line " << rows[row];
      const double scale_T = N > 0.0 ? m.mu * N : 1.0;
      const double e = std::hypot(c.T[0] - T1, c.T[1] - T2) / scale_T;
      worst = std::max(worst, e);
      EXPECT_LE(e, 1e-12) << "sequence " << s << " step " << k;
      if (c.h.count != cnt) ++count_mismatch;
      EXPECT_EQ(c.h.count, cnt) << "sequence " << s << " step " << k;
    }
  }
  std::printf("cross-check: %d sequences (%d exact, %d lambda, %d capacity; %d colinear), %zu "
              "steps (%d separations; %d no-movement, %d elastic, %d partial slip, %d gross slip; "
              "longest history %d): worst |T - T_ref| = %.2e muN, %d history-length mismatches\n",
              n_seq, n_exact, n_lambda, n_cap, n_colinear, row, n_sep, kinds[1], kinds[2], kinds[3],
              kinds[4], max_count, worst, count_mismatch);
}

// ================================================================================================
// 5. Contact frame and objectivity (Kuhn section 3.2; notes: Jaeger frame)

TEST(JaegerKernel, FrameInitialization)
{
  // n = (0.6, 0, 0.8) -> q = (0.9486832981, 0, 0.3162277660, 0),
  // R e1 = (0.8, 0, -0.6), R e2 = (0, 1, 0)
  double q[4];
  jaeger_frame_init(q, {0.6, 0.0, 0.8});
  std::printf("q = (%.10f, %.10f, %.10f, %.10f)\n", q[0], q[1], q[2], q[3]);
  EXPECT_NEAR(q[0], 0.9486832981, 5e-11);
  EXPECT_NEAR(q[1], 0.0, 1e-16);
  EXPECT_NEAR(q[2], 0.3162277660, 5e-11);
  EXPECT_NEAR(q[3], 0.0, 1e-16);
  const Vec3 e1 = jaeger_frame_axis1(q), e2 = jaeger_frame_axis2(q);
  EXPECT_NEAR(norm(e1 - Vec3{0.8, 0.0, -0.6}), 0.0, 1e-15);
  EXPECT_NEAR(norm(e2 - Vec3{0.0, 1.0, 0.0}), 0.0, 1e-15);
  // any normal, including near -e3 (atan2, not acos): R(q) e3 = n, orthonormal axes
  SplitMix64 g{5};
  double worst = 0.0;
  for (int i = 0; i < 10000; ++i) {
    Vec3 n = {2 * g.uniform() - 1, 2 * g.uniform() - 1, 2 * g.uniform() - 1};
    if (i < 4) n = Vec3{1e-9 * i, -2e-9 * i, -1.0};
    n = (1.0 / norm(n)) * n;
    jaeger_frame_init(q, n);
    const Vec3 a = jaeger_frame_axis1(q), b = jaeger_frame_axis2(q);
    worst = std::max({worst, norm(jaeger_frame_normal(q) - n), std::fabs(dot(a, b)),
                      std::fabs(dot(a, n)), std::fabs(norm(a) - 1.0), norm(cross(a, b) - n)});
  }
  // (round-off of the trigonometric functions and of the quaternion products: a few ulp)
  std::printf("frame init over 10000 normals: worst deviation %.1e\n", worst);
  EXPECT_LE(worst, 3e-15);
  // local <-> global round trip
  double t[2];
  jaeger_to_local(q, jaeger_to_global(q, 0.3, -0.7), t);
  EXPECT_NEAR(t[0], 0.3, 3e-16);
  EXPECT_NEAR(t[1], -0.7, 3e-16);
  // n = +-e3 (walls, stacked spheres): the axes are exactly orthogonal to n, so a pure normal
  // movement has no tangential part at all
  for (const double nz : {1.0, -1.0}) {
    const Vec3 n{0.0, 0.0, nz};
    jaeger_frame_init(q, n);
    const Vec3 a = jaeger_frame_axis1(q), b = jaeger_frame_axis2(q);
    EXPECT_EQ(dot(a, n), 0.0);
    EXPECT_EQ(dot(b, n), 0.0);
    EXPECT_EQ(norm(cross(a, b) - n), 0.0);
    EXPECT_EQ(norm(jaeger_frame_normal(q) - n), 0.0);
  }
}

namespace {

struct Pair {
  double state[JAEGER_STATE_SIZE] = {0, 0, 0, 0, 0, 0};
  std::vector<JaegerVertex> buf = std::vector<JaegerVertex>(64);
  JaegerHistory h{buf.data(), 0, 64};
  JaegerResult r;
  void step(const JaegerMaterial &m, const JaegerInput &in) { jaeger_contact_step(m, in, state, h, r); }
};

}    // namespace

TEST(JaegerKernel, ObjectivityRigidRotation)
{
  // objectivity (notes: Jaeger checks) at the kernel level: a pair pre-loaded into partial slip,
  // then rotated rigidly by 90 degrees about (1, 2, 3) in 1000 increments; translation 0 (the
  // glue's value for a rigid motion), normal rotating exactly, mean rotation = the increment's
  // rotation vector.
  const JaegerMaterial m = set_a();
  const double R = 1.0, delta = 1e-3, umax = kMu * m.kappa * delta;
  const Vec3 n0 = (1.0 / std::sqrt(0.38)) * Vec3{0.3, -0.5, 0.2};
  const Vec3 t1 = (1.0 / norm(cross(n0, {0, 0, 1}))) * cross(n0, {0, 0, 1});
  const Vec3 t2 = cross(n0, t1);
  Pair p;
  p.step(m, {n0, delta, {0, 0, 0}, {0, 0, 0}, R});
  // translations are total contact displacements: twice the half-shift
  for (int k = 0; k < 4; ++k) p.step(m, {n0, delta, (2.0 * 0.15 * umax) * t1, {0, 0, 0}, R});
  p.step(m, {n0, delta * 1.05, (2.0 * 0.3 * umax) * t2 - (2.0 * 0.1 * umax) * t1, {0, 0, 0}, R});
  const double muN = kMu * p.r.N;
  std::printf("pre-load: |T|/muN = %.4f, %d vertices, sliding %d\n", norm(p.r.T) / muN, p.h.count,
              p.r.sliding);
  ASSERT_GT(norm(p.r.T), 0.3 * muN);
  ASSERT_FALSE(p.r.sliding);
  const double TL0[2] = {p.r.T_local[0], p.r.T_local[1]};
  const Vec3 T0 = p.r.T;
  const double delta1 = delta * 1.05;

  const Vec3 axis = (1.0 / std::sqrt(14.0)) * Vec3{1, 2, 3};
  const int n = 1000;
  const Vec3 inc = (0.5 * kPi / n) * axis;
  double worst_local = 0.0, worst_normal = 0.0, worst_global = 0.0, worst_axes = 0.0;
  double q0[4];
  for (int i = 0; i < 4; ++i) q0[i] = p.state[i];
  for (int k = 1; k <= n; ++k) {
    const Vec3 rot = (static_cast<double>(k) * (0.5 * kPi / n)) * axis;    // exact total rotation
    const Vec3 nk = rotate_by_vector(n0, rot);
    p.step(m, {nk, delta1, {0, 0, 0}, inc, R});
    worst_local = std::max(worst_local, std::hypot(p.r.T_local[0] - TL0[0], p.r.T_local[1] - TL0[1]) / muN);
    worst_normal = std::max(worst_normal, norm(jaeger_frame_normal(p.state) - nk));
    worst_global = std::max(worst_global, norm(p.r.T - rotate_by_vector(T0, rot)) / muN);
    worst_axes = std::max({worst_axes,
                           norm(jaeger_frame_axis1(p.state) - rotate_by_vector(jaeger_frame_axis1(q0), rot)),
                           norm(jaeger_frame_axis2(p.state) - rotate_by_vector(jaeger_frame_axis2(q0), rot))});
  }
  std::printf("rigid rotation 90 deg / %d steps: local T %.1e muN, |R(q)e3 - n| %.1e, global T vs "
              "rotated initial %.1e muN, frame axes vs rotated %.1e\n",
              n, worst_local, worst_normal, worst_global, worst_axes);
  EXPECT_LE(worst_local, 1e-10);
  EXPECT_LE(worst_normal, 1e-14);
  EXPECT_LE(worst_global, 1e-10);
  EXPECT_LE(worst_axes, 1e-12);

  // the carried history answers a rotated movement exactly as the unrotated pair answers the
  // original one
  Pair twin;
  twin.step(m, {n0, delta, {0, 0, 0}, {0, 0, 0}, R});
  for (int k = 0; k < 4; ++k) twin.step(m, {n0, delta, (2.0 * 0.15 * umax) * t1, {0, 0, 0}, R});
  twin.step(m, {n0, delta1, (2.0 * 0.3 * umax) * t2 - (2.0 * 0.1 * umax) * t1, {0, 0, 0}, R});
  const Vec3 rot = (0.5 * kPi) * axis;
  const Vec3 nr = rotate_by_vector(n0, rot);
  const Vec3 move = (-2.0 * 0.4 * umax) * t2 + (2.0 * 0.05 * umax) * t1;
  twin.step(m, {n0, delta1 * 0.98, move, {0, 0, 0}, R});
  p.step(m, {nr, delta1 * 0.98, rotate_by_vector(move, rot), {0, 0, 0}, R});
  const double e_after = norm(p.r.T - rotate_by_vector(twin.r.T, rot)) / (kMu * twin.r.N);
  std::printf("after the rotation, a further movement: |T - R T_twin| = %.1e muN\n", e_after);
  EXPECT_LE(e_after, 1e-10);
}

TEST(JaegerKernel, FrameTwistTiltAndDrift)
{
  // pure twirl about n: the frame turns by exactly the spin angle, the normal stays
  const Vec3 n = (1.0 / std::sqrt(3.0)) * Vec3{1, 1, 1};
  double q[4];
  jaeger_frame_init(q, n);
  const Vec3 a0 = jaeger_frame_axis1(q);
  const int steps = 1000;
  const double angle = 2.0;    // rad in total
  for (int k = 0; k < steps; ++k) jaeger_frame_update(q, n, n, (angle / steps) * n);
  const Vec3 expect = rotate_by_vector(a0, angle * n);
  std::printf("twirl 2 rad in %d steps: axis-1 error %.1e, normal error %.1e\n", steps,
              norm(jaeger_frame_axis1(q) - expect), norm(jaeger_frame_normal(q) - n));
  EXPECT_LE(norm(jaeger_frame_axis1(q) - expect), 1e-13);
  EXPECT_LE(norm(jaeger_frame_normal(q) - n), 1e-15);

  // arbitrary (non-rigid) motion: random tilts and spins, even with an n_old that differs from
  // the frame's normal by round-off: R(q) e3 = n after every update, |q| = 1, no drift
  SplitMix64 g{9};
  Vec3 nn = n;
  double worst_n = 0.0, worst_q = 0.0, worst_first = 0.0;
  for (int k = 0; k < 100000; ++k) {
    if (k == 1000) worst_first = worst_n;
    const Vec3 tilt = {1e-2 * (2 * g.uniform() - 1), 1e-2 * (2 * g.uniform() - 1), 1e-2 * (2 * g.uniform() - 1)};
    const Vec3 spin = {0.05 * (2 * g.uniform() - 1), 0.05 * (2 * g.uniform() - 1), 0.05 * (2 * g.uniform() - 1)};
    Vec3 next = nn + tilt;
    next = (1.0 / norm(next)) * next;
    jaeger_frame_update(q, nn, next, spin);
    nn = next;
    worst_n = std::max(worst_n, norm(jaeger_frame_normal(q) - nn));
    worst_q = std::max(worst_q, std::fabs(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] - 1.0));
  }
  // a few ulp, and no drift: the first 1000 updates already reach the worst value
  std::printf("100000 random updates: worst |R(q)e3 - n| %.1e (first 1000: %.1e), worst ||q|^2 - 1| %.1e\n",
              worst_n, worst_first, worst_q);
  EXPECT_LE(worst_n, 2e-15);
  EXPECT_LE(worst_n, 2.0 * worst_first);
  EXPECT_LE(worst_q, 1e-15);
}

TEST(JaegerKernel, ContactStepDriver)
{
  const JaegerMaterial m = jaeger_material(70e9, 0.3, 0.5, 0.0, 0);
  const double R = 2e-3, C = jaeger_hertz_constant(m, R);
  const Vec3 n = (1.0 / 3.0) * Vec3{1, 2, -2};
  Pair p;
  // new contact with a tangential translation in its first step: the full half-shift is used
  // (notes: Jaeger history), elastic if |du| <= mu kappa delta; T points along the shift of q
  // (spring tension), so the force on q, N n - T, opposes it
  const double delta = 1e-6;
  const Vec3 t = (1.0 / std::sqrt(8.0)) * Vec3{2, 0, 1};    // orthogonal to n
  ASSERT_NEAR(dot(t, n), 0.0, 1e-16);
  const double du = 0.3 * m.mu * m.kappa * delta;
  p.step(m, {n, delta, 2.0 * du * t + 5e-7 * n, {0, 0, 0}, R});
  const double N = C * std::pow(delta, 1.5);
  std::printf("first step: N = %.10g (Hertz %.10g), T = (%.6g, %.6g, %.6g)\n", p.r.N, N, p.r.T.x,
              p.r.T.y, p.r.T.z);
  EXPECT_NEAR(p.r.N / N, 1.0, 1e-15);
  EXPECT_NEAR(norm(p.r.T - (0.3 * m.mu * N) * t) / (m.mu * N), 0.0, 1e-14);    // T = (g/kappa) N
  EXPECT_NEAR(dot(p.r.T, n), 0.0, 1e-14 * norm(p.r.T));
  EXPECT_FALSE(p.r.sliding);
  EXPECT_EQ(p.h.count, 1);
  // current force at the same geometry: the step's own result, history untouched
  JaegerResult cur;
  jaeger_current_force(m, {n, delta, {0, 0, 0}, {0, 0, 0}, R}, p.state, cur);
  EXPECT_EQ(cur.N, p.r.N);
  EXPECT_EQ(cur.T.x, p.r.T.x);
  EXPECT_EQ(cur.T.y, p.r.T.y);
  EXPECT_EQ(cur.T.z, p.r.T.z);
  // at a slightly different normal: carried onto the new tangent plane, magnitude kept
  const Vec3 n2 = (1.0 / norm(n + Vec3{1e-4, 0, 0})) * (n + Vec3{1e-4, 0, 0});
  jaeger_current_force(m, {n2, delta, {0, 0, 0}, {0, 0, 0}, R}, p.state, cur);
  EXPECT_NEAR(dot(cur.T, n2), 0.0, 1e-15 * norm(cur.T));
  EXPECT_NEAR(norm(cur.T), norm(p.r.T), 1e-15 * norm(cur.T));
  // gross sliding sets the flag
  p.step(m, {n, delta, 10.0 * du * t, {0, 0, 0}, R});
  EXPECT_TRUE(p.r.sliding);
  EXPECT_NEAR(norm(p.r.T), m.mu * p.r.N, 1e-15 * p.r.N);
  // separation clears the state and the history; the next contact is new
  p.step(m, {n, -1e-9, {0, 0, 0}, {0, 0, 0}, R});
  EXPECT_EQ(p.h.count, 0);
  EXPECT_EQ(p.r.N, 0.0);
  for (double s : p.state) EXPECT_EQ(s, 0.0);
  jaeger_current_force(m, {n, delta, {0, 0, 0}, {0, 0, 0}, R}, p.state, cur);
  EXPECT_NEAR(cur.N / N, 1.0, 1e-15);
  EXPECT_EQ(norm(cur.T), 0.0);
}

// A contact that exists when its history starts, pressed by jaeger_press to delta(N0) with no
// tangential movement, then driven through the four large steps of the Mindlin-Deresiewicz path
// by jaeger_contact_step: each gives the closed form (the press is the vertex (delta0, N0, 0));
// without the press the first step misses T by about a quarter.
TEST(JaegerKernel, PressedContactFollowsTheClosedForm)
{
  const JaegerMaterial m = set_a();
  const double R = 1.0, C = jaeger_hertz_constant(m, R);
  const MDPath path{C, kMu, m.kappa, 1.0, 0.6, 2.5};
  const Vec3 n = (1.0 / 3.0) * Vec3{1, 2, -2};
  const Vec3 t = (1.0 / std::sqrt(5.0)) * Vec3{2, 0, 1};    // unit, orthogonal to n
  const struct {
    double N;
    bool loading;
  } steps[] = {{1.75, true}, {2.5, true}, {1.75, false}, {1.0, false}};
  for (const bool press : {true, false}) {
    Pair p;
    const JaegerInput at_rest{n, path.d(path.N0), {0, 0, 0}, {0, 0, 0}, R};
    if (press) {
      EXPECT_TRUE(jaeger_press(m, at_rest, p.state, p.h));
      EXPECT_EQ(p.h.count, 1);
      EXPECT_EQ(p.h.vertex[0].theta1, 0.0);
      EXPECT_EQ(p.h.vertex[0].theta2, 0.0);
      EXPECT_FALSE(jaeger_press(m, at_rest, p.state, p.h));    // a known contact: unchanged
      JaegerResult setup;
      jaeger_current_force(m, at_rest, p.state, setup);
      EXPECT_NEAR(setup.N / path.N0, 1.0, 1e-15);
      EXPECT_EQ(norm(setup.T), 0.0);
    }
    double u_before = 0.0, first_miss = 0.0;
    for (const auto &st : steps) {
      const double u = st.loading ? path.u_load(st.N) : path.u_unload(st.N);
      const double T = st.loading ? path.beta * (st.N - path.N0) : path.T_unload(st.N);
      // q's contact point moves by 2 du along t (the half-shift du)
      p.step(m, {n, path.d(st.N), (2.0 * (u - u_before)) * t, {0, 0, 0}, R});
      u_before = u;
      const double miss = std::fabs(dot(p.r.T, t) - T) / (m.mu * st.N);
      if (first_miss == 0.0) first_miss = miss;
      if (press) EXPECT_LE(miss, 1e-12) << "N " << st.N;
    }
    std::printf("%s: |T - closed form| / (mu N) after the first large step %.3g\n",
                press ? "pressed" : "not pressed", first_miss);
    if (!press) EXPECT_GT(first_miss, 0.1);
  }
}

// ================================================================================================
// 6. Kuhn's approximation and the bounded capacity (notes: Jaeger merging, Jaeger checks)

TEST(JaegerKernel, ApproximationLambdaExample)
{
  // like Kuhn's Fig. 5: elastic steps to (1.0, 0.05) ... (1.8, 0.334), then a slip step
  // to (1.8, 0.404)
  const double pts[6][2] = {{1.0, 0.05}, {1.2, 0.12}, {1.4, 0.194}, {1.6, 0.262}, {1.8, 0.334}, {1.8, 0.404}};
  Contact ex(set_a()), ap(set_a(0.10));
  double up = 0.0;
  for (int i = 0; i < 6; ++i) {
    ex.step(pts[i][0], pts[i][1] - up);
    ap.step(pts[i][0], pts[i][1] - up);
    up = pts[i][1];
    if (i == 4) {
      EXPECT_EQ(ex.h.count, 5);
      ASSERT_EQ(ap.h.count, 2);    // 1-2 ... 4-5 merged into one segment
      std::printf("lambda 0.1 after step 5: merged slope %.6f (ref 0.304287)\n", ap.v(1).theta1);
      EXPECT_NEAR(ap.v(1).theta1, 0.304287, 5e-7);
      EXPECT_EQ(ap.T[0], ex.T[0]) << "the Delta N-weighted merge keeps the force";
    }
  }
  std::printf("after step 6: exact T %.10f, history (%.6f, %.6f) (%.6f, %.6f) (%.1f, %.1f); "
              "lambda 0.1 T %.10f (%.2e relative), 1a' = %.6f\n",
              ex.T[0], ex.v(0).delta, ex.v(0).theta1, ex.v(1).delta, ex.v(1).theta1, ex.v(2).delta,
              ex.v(2).theta1, ap.T[0], ap.T[0] / ex.T[0] - 1.0, ap.v(1).delta);
  ASSERT_EQ(ex.h.count, 3);
  ASSERT_EQ(ap.h.count, 3);
  EXPECT_NEAR(ex.T[0], 0.5829783785, 5e-11);
  EXPECT_NEAR(ex.v(1).delta, 1.165714, 5e-7);
  EXPECT_NEAR(ex.v(1).theta1, 0.3, 1e-15);
  EXPECT_NEAR(ap.T[0], 0.5829362112, 5e-11);
  EXPECT_NEAR(ap.v(1).delta, 1.173126, 5e-7);
  EXPECT_NEAR(ap.T[0] / ex.T[0] - 1.0, -7e-5, 5e-6);
  ex.step(1.8, -0.15);
  ap.step(1.8, -0.15);
  std::printf("reversal -0.15: exact %.10f, lambda 0.1 %.10f\n", ex.T[0], ap.T[0]);
  EXPECT_NEAR(ex.T[0], 0.3300978870, 5e-11);
  EXPECT_NEAR(ap.T[0], 0.3300557197, 5e-11);
}

namespace {

// The cyclic 2-D shear of the capacity check as generated here (none was recorded): constant
// delta = 1, 12,000 steps of triangle cycles about the origin, each cycle with a random direction,
// amplitude U(0, 0.5) u_max and 20-56 steps. Returns the largest |T_exact - T_M|/(mu N) for
// the least-cost rule (and for a naive rule that drops the oldest vertex).
struct CyclicResult {
  double cost_rule[2], oldest[2];    // M = 16, M = 8
  int exact_max;
};

CyclicResult cyclic_shear(uint64_t seed)
{
  const JaegerMaterial ex = set_a();
  const double umax = kMu * ex.kappa;
  SplitMix64 g{seed};
  Contact exact(ex), c16(set_a(0.0, 16)), c8(set_a(0.0, 8)), o16(ex), o8(ex);
  CyclicResult r{{0, 0}, {0, 0}, 0};
  double u[2] = {0, 0};
  int k = 0;
  while (k < 12000) {
    const double A = 0.5 * g.uniform() * umax, phi = 2 * kPi * g.uniform();
    const int P = 4 * (5 + static_cast<int>(g.r(10)));
    for (int i = 1; i <= P && k < 12000; ++i, ++k) {
      const double x = static_cast<double>(i) / P;
      const double s = A * (x < 0.25 ? 4 * x : (x < 0.75 ? 2 - 4 * x : 4 * x - 4));
      const double nu[2] = {s * std::cos(phi), s * std::sin(phi)};
      const double du[2] = {nu[0] - u[0], nu[1] - u[1]};
      u[0] = nu[0];
      u[1] = nu[1];
      const double N = exact.step(1.0, du[0], du[1]);
      c16.step(1.0, du[0], du[1]);
      c8.step(1.0, du[0], du[1]);
      o16.step(1.0, du[0], du[1]);
      o8.step(1.0, du[0], du[1]);
      // naive rule: merge vertex 1 (the oldest) while over capacity
      while (o16.h.count > 16) jaeger_detail::merge_vertex(o16.h, 0);
      while (o8.h.count > 8) jaeger_detail::merge_vertex(o8.h, 0);
      auto err = [&](const Contact &c) {
        return std::hypot(c.T[0] - exact.T[0], c.T[1] - exact.T[1]) / (kMu * N);
      };
      r.cost_rule[0] = std::max(r.cost_rule[0], err(c16));
      r.cost_rule[1] = std::max(r.cost_rule[1], err(c8));
      r.oldest[0] = std::max(r.oldest[0], err(o16));
      r.oldest[1] = std::max(r.oldest[1], err(o8));
      r.exact_max = std::max(r.exact_max, exact.h.count);
      EXPECT_LE(c16.h.count, 16);
      EXPECT_LE(c8.h.count, 8);
    }
  }
  return r;
}

}    // namespace

TEST(JaegerKernel, CapacityCyclicShear)
{
  std::vector<double> e16, e8, o16, o8;
  int exact_max = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    const CyclicResult r = cyclic_shear(seed);
    e16.push_back(r.cost_rule[0]);
    e8.push_back(r.cost_rule[1]);
    o16.push_back(r.oldest[0]);
    o8.push_back(r.oldest[1]);
    exact_max = std::max(exact_max, r.exact_max);
  }
  auto report = [](const char *name, const std::vector<double> &v) {
    std::printf("  %-22s median %.2e  90th percentile %.2e  max %.2e  (muN)\n", name,
                percentile(v, 0.5), percentile(v, 0.9), percentile(v, 1.0));
  };
  std::printf("cyclic 2-D shear, 40 runs x 12,000 steps (exact history up to %d vertices):\n", exact_max);
  report("M = 16, 4.3 cost rule", e16);
  report("M = 8,  4.3 cost rule", e8);
  report("M = 16, drop oldest", o16);
  report("M = 8,  drop oldest", o8);
  // design targets (notes: Jaeger merging): M = 16: <= 6e-4, at worst 1e-3; M = 8: about 1-2 %.
  // These are typical values of an unrecorded generator, not bounds: here the median run meets
  // 6e-4 and nine runs in ten meet 1e-3 (the worst run is reported above).
  EXPECT_LE(percentile(e16, 0.5), 6e-4);
  EXPECT_LE(percentile(e16, 0.9), 1e-3);
  EXPECT_LE(percentile(e8, 0.5), 2e-2);
  // the cost rule beats dropping the oldest vertex (notes: 5x at M = 8, 30-3000x at M = 16 on
  // their generator; here see the numbers above)
  EXPECT_GT(percentile(o16, 0.5), 2.0 * percentile(e16, 0.5));
  EXPECT_GT(percentile(o16, 0.9), 2.0 * percentile(e16, 0.9));
  EXPECT_GT(percentile(o8, 0.5), 2.0 * percentile(e8, 0.5));
}

namespace {

// delta from 1 to 2 in 12,800 steps with a tangential move per step of
//  smooth = false: independent random components up to mu kappa d delta (white noise), or
//  smooth = true : amplitude a mu kappa d delta along a direction phi, both random walks
//                  (a in [0, 1.2], phi by up to 0.05 rad per step: slopes that change slowly)
// for the exact law and five reduced ones; reports error and history length of each.
void slow_compression(bool smooth, double err[6], double mean_len[6], int max_len[6], int *elastic)
{
  const int steps = 12800;
  const JaegerMaterial ex = set_a();
  std::vector<Contact> c = {Contact(ex), Contact(set_a(0.0, 16)), Contact(set_a(0.0, 32)),
                            Contact(set_a(0.0, 64)), Contact(set_a(0.1)), Contact(set_a(0.2))};
  std::vector<long> len_sum(c.size(), 0);
  for (int j = 0; j < 6; ++j) err[j] = 0.0, max_len[j] = 0;
  SplitMix64 g{7};
  double phi = 0.0, a = 0.5;
  *elastic = 0;
  for (int k = 1; k <= steps; ++k) {
    const double d = 1.0 + static_cast<double>(k) / steps, amp = kMu * ex.kappa / steps;
    double ux, uy;
    if (smooth) {
      phi += 0.05 * (2 * g.uniform() - 1);
      a = std::min(1.2, std::max(0.0, a + 0.02 * (2 * g.uniform() - 1)));
      ux = a * amp * std::cos(phi);
      uy = a * amp * std::sin(phi);
    } else {
      ux = amp * (2 * g.uniform() - 1);
      uy = amp * (2 * g.uniform() - 1);
    }
    for (size_t j = 0; j < c.size(); ++j) {
      const double N = c[j].step(d, ux, uy);
      if (j == 0) *elastic += c[0].info.kind == JAEGER_ELASTIC;
      err[j] = std::max(err[j], std::hypot(c[j].T[0] - c[0].T[0], c[j].T[1] - c[0].T[1]) / (kMu * N));
      len_sum[j] += c[j].h.count;
      max_len[j] = std::max(max_len[j], c[j].h.count);
    }
  }
  for (int j = 0; j < 6; ++j) mean_len[j] = static_cast<double>(len_sum[j]) / steps;
}

}    // namespace

TEST(JaegerKernel, CapacityAndLambdaOnSlowCompression)
{
  // notes: Jaeger merging: M = 32 or 64 on a mostly elastic, slowly compressed contact: <= 4e-5,
  // whereas the exact history reached about 12,800 vertices; Kuhn 2011, Table 1: his lists were
  // > 30 % shorter at lambda = 0.10 and about 60 % shorter at 0.20.
  const char *name[6] = {"exact", "M = 16", "M = 32", "M = 64", "lambda 0.1", "lambda 0.2"};
  for (bool smooth : {false, true}) {
    double err[6], mean_len[6];
    int max_len[6], elastic;
    slow_compression(smooth, err, mean_len, max_len, &elastic);
    std::printf("slow compression, %s tangential moves, 12800 steps (%d elastic):\n",
                smooth ? "smooth" : "white-noise", elastic);
    for (int j = 0; j < 6; ++j)
      std::printf("  %-10s max error %.2e muN, history mean %.0f, max %d\n", name[j], err[j],
                  mean_len[j], max_len[j]);
    EXPECT_GT(max_len[0], 11000);
    for (int j = 1; j <= 3; ++j) EXPECT_LE(err[j], 4e-5) << name[j];
    EXPECT_LE(max_len[1], 16);
    EXPECT_LE(max_len[2], 32);
    EXPECT_LE(max_len[3], 64);
    EXPECT_LE(mean_len[5], mean_len[4]);
    if (smooth) {
      // slowly changing slopes are what lambda merges: far more than Kuhn's 30 % / 60 %
      EXPECT_LT(mean_len[4], 0.7 * mean_len[0]);
      EXPECT_LT(mean_len[5], 0.4 * mean_len[0]);
    }
  }
}

// ================================================================================================
// Round-off corner cases where a plain root test fails (see jaeger.hpp header)

TEST(JaegerKernel, StepsEndingOnAStoredVertex)
{
  // Retracing an elastic step returns exactly to vertex 1: the force must be that of vertex 1.
  // (A plain root test gives c = B = 0 there, reports no root and slides: |T| = mu N = 0.4.)
  for (double nu : {0.0, 0.25}) {
    const JaegerMaterial m = jaeger_material(1.0, nu, kMu, 0.0, 0);
    Contact c(m);
    c.step(1.0, 0.125);
    const double T1 = c.T[0];
    c.step(2.0, 0.0625);
    c.step(1.0, -0.0625);
    std::printf("nu %.2f retrace: T %.17g, vertex-1 force %.17g, %d vertex, kind %d\n", nu, c.T[0],
                T1, c.h.count, c.info.kind);
    EXPECT_NEAR(c.T[0], T1, 1e-15);
    EXPECT_EQ(c.h.count, 1);
    EXPECT_EQ(c.info.kind, JAEGER_PARTIAL_SLIP);
  }
  // pure normal unloading exactly back to a stored delta*
  Contact c(set_a());
  c.step(1.0, 0.25);
  const double T1 = c.T[0];
  c.step(2.0, 0.0);
  c.step(3.0, 0.0);
  c.step(2.0, 0.0);
  std::printf("unloading onto vertex 2: T %.17g (vertex force %.17g), %d vertices\n", c.T[0], T1, c.h.count);
  EXPECT_EQ(c.T[0], T1);
  EXPECT_EQ(c.h.count, 2);
  EXPECT_EQ(c.v(1).delta, 2.0);
}

TEST(JaegerKernel, UnloadingAlongTheSegmentNearTheBackwardCone)
{
  // Elastic segment theta = 0.3 (proportional loading to delta = 1), then unloading to 0.95 with
  // a forward move D = mu kappa 0.05 (1 + r): B > 0 and c -> 0. Colinear closed form:
  // s = (D + mu kappa |L|)/(kappa (mu - theta)), delta* = 1 - s, T = theta N(delta*) + mu (N - N(delta*)).
  // The form c/(sqrt(B^2 + A c) - B) cancels here: 5e-5 mu N error at r = 1e-12, gross sliding
  // at r = 0.
  const JaegerMaterial m = set_a();
  for (double r : {1e-4, 1e-8, 1e-12, 0.0}) {
    Contact c(m);
    c.step(1.0, 0.3 * m.kappa);
    const double theta = c.v(0).theta1;
    const double L = 0.95 - 1.0, D = kMu * m.kappa * 0.05 * (1.0 + r);
    const double N = c.step(0.95, D);
    const double s = (D - kMu * m.kappa * L) / (m.kappa * (kMu - theta));
    const double Ns = std::pow(1.0 - s, 1.5);
    const double Te = theta * Ns + kMu * (N - Ns);
    std::printf("r = %g: T %.17g, closed form %.17g, error %.1e muN, delta* %.17g (closed %.17g)\n",
                r, c.T[0], Te, std::fabs(c.T[0] - Te) / (kMu * N), c.v(0).delta, 1.0 - s);
    EXPECT_NEAR(c.T[0], Te, 1e-14 * kMu * N);
    EXPECT_EQ(c.info.kind, JAEGER_PARTIAL_SLIP);
  }
}

TEST(JaegerKernel, SymmetricCyclesAtConstantLoadFollowMasing)
{
  // Sine cycles of amplitude A about the origin at constant delta = 1, P steps per cycle. Sample
  // points symmetric about a peak (e.g. sin(2 pi 7/30), sin(2 pi 8/30)) differ by round-off, so a
  // peak carries a step of ~1e-17, a round-off reversal or a round-off continued loading. The
  // latter eliminates the top slip segment and leaves the point on the cone of the vertex below
  // up to round-off (c = -1e-17): a plain root test rejects that negative root and walks on down to
  // gross sliding (the independent Python implementation jumps to |T| = mu N at step 113 for
  // A = 0.9 u_max, P = 30, an error of 3.4e-2 mu N; 3.2e-2 for P = 40). The exact answer is the
  // Masing loop: the virgin Cattaneo-Mindlin curve up
  // to the first reversal, then T = T_r + dir 2 mu N [1 - (1 - |u - u_r|/(2 mu kappa))^{3/2}]
  // from the last reversal (u_r, T_r), and no gross sliding since the range 2A is below 2 u_max.
  const JaegerMaterial m = set_a();
  const double umax = kMu * m.kappa;
  double worst_all = 0.0;
  for (double fA : {0.3, 0.5, 0.9}) {
    for (int P : {20, 30, 40, 60}) {
      const double A = fA * umax;
      Contact c(m);
      c.step(1.0, 0.0);
      bool virgin = true;
      int dir = +1, gross = 0, max_count = 0;
      double u = 0.0, u_r = 0.0, T_r = 0.0, Te = 0.0, worst = 0.0;
      for (int k = 1; k <= 10 * P; ++k) {
        const double un = A * std::sin(2 * kPi * k / P);
        const double du = un - u;
        c.step(1.0, du);
        gross += c.info.kind == JAEGER_GROSS_SLIP;
        max_count = std::max(max_count, c.h.count);
        if (du != 0.0 && (du > 0.0) != (dir > 0)) {    // a reversal, round-off ones included
          virgin = false;
          u_r = u;
          T_r = Te;
          dir = -dir;
        }
        u = un;
        Te = virgin ? kMu * (1.0 - std::pow(1.0 - u / umax, 1.5))
                    : T_r + dir * 2 * kMu * (1.0 - std::pow(1.0 - std::fabs(u - u_r) / (2 * umax), 1.5));
        worst = std::max(worst, std::fabs(c.T[0] - Te) / kMu);
      }
      std::printf("A = %.1f umax, %2d steps/cycle, 10 cycles: worst |T - Masing| = %.1e muN, "
                  "gross-slip steps %d, longest history %d\n", fA, P, worst, gross, max_count);
      EXPECT_EQ(gross, 0);
      worst_all = std::max(worst_all, worst);
    }
  }
  EXPECT_LE(worst_all, 1e-12);
}

// ================================================================================================
// 7. Fuzz: invariants of the equivalent load history over 10^6 random steps

TEST(JaegerKernel, FuzzInvariants)
{
  struct Variant {
    const char *name;
    JaegerMaterial m;
  };
  const Variant variants[5] = {{"exact", set_a()},
                               {"lambda 0.1", set_a(0.1)},
                               {"M = 8", set_a(0.0, 8)},
                               {"M = 16", set_a(0.0, 16)},
                               {"lambda 0.2, M = 4", set_a(0.2, 4)}};
  const JaegerVertex sentinel = {-7.0, -7.0, -7.0, -7.0};
  const long steps_per_variant = 200000;
  SplitMix64 g{31337};
  long total = 0, kinds[5] = {0, 0, 0, 0, 0};
  double worst_T = 0.0, worst_sum = 0.0, worst_theta = 0.0, worst_top = 0.0, worst_Nstar = 0.0;
  int worst_len = 0;
  double kernel_seconds = 0.0;
  for (const Variant &var : variants) {
    const JaegerMaterial &m = var.m;
    const double C = 1.0;
    std::vector<JaegerVertex> buf(8);
    JaegerHistory h{buf.data(), 0, 0};
    double T[2] = {0, 0};
    double delta = 0.0, scale = 0.1;
    for (long k = 0; k < steps_per_variant; ++k, ++total) {
      // random movement: mostly small 2-D steps, some pure normal, constant-delta or large ones
      if (g.r(64) == 0) scale = std::ldexp(1.0, -static_cast<int>(g.r(12)));
      const uint64_t kind = g.r(16);
      double dd = scale * (2 * g.uniform() - 1);
      double du[2] = {scale * (2 * g.uniform() - 1), scale * (2 * g.uniform() - 1)};
      if (kind == 0) du[0] = du[1] = 0.0;
      if (kind == 1) dd = 0.0;
      if (kind == 2) dd *= 1e-6;
      if (kind == 3) du[0] *= 20.0;
      if (delta <= 0.0 && dd <= 0.0) dd = -dd;    // re-contact
      delta = std::min(2.0, delta + dd);
      if (delta <= 0.0 && g.r(4) != 0) delta = 0.05 * g.uniform();
      // the room contract at its minimum, with sentinels behind it
      const int room = jaeger_room_needed(m, h.count);
      if (static_cast<int>(buf.size()) < room + 2) {
        buf.resize(2 * (room + 2));
        h.vertex = buf.data();
      }
      h.room = room;
      buf[room] = buf[room + 1] = sentinel;
      JaegerStepInfo info;
      const auto t0 = std::chrono::steady_clock::now();
      const double N = jaeger_step(m, C, delta, du, T, h, &info);
      kernel_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      ++kinds[info.kind];
      ASSERT_TRUE(std::isfinite(N) && std::isfinite(T[0]) && std::isfinite(T[1]));
      ASSERT_LE(h.count, h.room);
      ASSERT_TRUE(std::memcmp(&buf[room], &sentinel, sizeof sentinel) == 0 &&
                  std::memcmp(&buf[room + 1], &sentinel, sizeof sentinel) == 0)
          << "wrote beyond room";
      if (m.capacity > 0) { ASSERT_LE(h.count, m.capacity); }
      if (delta <= 0.0) {
        ASSERT_EQ(h.count, 0);
        ASSERT_EQ(N, 0.0);
        continue;
      }
      const double muN = m.mu * N;
      worst_T = std::max(worst_T, std::hypot(T[0], T[1]) / muN - 1.0);
      ASSERT_LE(std::hypot(T[0], T[1]), muN * (1.0 + 1e-12));
      // history: delta* strictly increasing from 0, stored N* = Hertz(delta*), |theta*| <= mu
      // (each vertex inside the cones of all below: nested cones), top vertex = current state,
      // T = sum theta* dN*
      double dp = 0.0, Np = 0.0, Ts[2] = {0.0, 0.0};
      for (int i = 0; i < h.count; ++i) {
        const JaegerVertex &v = h.vertex[i];
        ASSERT_GT(v.delta, dp) << var.name << " step " << k << " vertex " << i;
        worst_Nstar = std::max(worst_Nstar, std::fabs(v.N / (C * v.delta * std::sqrt(v.delta)) - 1.0));
        worst_theta = std::max(worst_theta, std::hypot(v.theta1, v.theta2) / m.mu - 1.0);
        ASSERT_LE(std::hypot(v.theta1, v.theta2), m.mu * (1.0 + 1e-12));
        Ts[0] += v.theta1 * (v.N - Np);
        Ts[1] += v.theta2 * (v.N - Np);
        dp = v.delta;
        Np = v.N;
      }
      ASSERT_GT(h.count, 0);
      worst_top = std::max(worst_top, std::fabs(h.vertex[h.count - 1].delta / delta - 1.0));
      ASSERT_LE(std::fabs(h.vertex[h.count - 1].delta / delta - 1.0), 2e-14);
      const double e_sum = std::hypot(Ts[0] - T[0], Ts[1] - T[1]) / muN;
      worst_sum = std::max(worst_sum, e_sum);
      ASSERT_LE(e_sum, 1e-11) << var.name << " step " << k;
      worst_len = std::max(worst_len, h.count);
    }
  }
  std::printf("fuzz: %ld steps (%ld separated, %ld no movement, %ld elastic, %ld partial slip, %ld "
              "gross slip), longest history %d\n",
              total, kinds[0], kinds[1], kinds[2], kinds[3], kinds[4], worst_len);
  std::printf("  worst |T|/(mu N) - 1 = %.1e, |theta*|/mu - 1 = %.1e, |N*/Hertz - 1| = %.1e, "
              "|delta*_top/delta - 1| = %.1e, |sum theta dN - T| = %.1e muN\n",
              worst_T, worst_theta, worst_Nstar, worst_top, worst_sum);
  std::printf("  kernel time %.0f ns/step (timer included; not a benchmark)\n", 1e9 * kernel_seconds / total);
}

TEST(JaegerKernel, RoomContractFallback)
{
  // A caller that gives no room for the push (room == count) gets a least-cost merge instead of a
  // write past room; the force is that of the exact algorithm (the merge keeps it).
  const JaegerMaterial m = set_a();
  std::vector<JaegerVertex> buf(12);
  const JaegerVertex sentinel = {-7.0, -7.0, -7.0, -7.0};
  JaegerHistory h{buf.data(), 0, 1};
  Contact exact(m);
  double T[2] = {0, 0};
  SplitMix64 g{3};
  for (int k = 1; k <= 200; ++k) {
    // elastic steps: |du| < mu kappa d delta
    const double d = 1.0 + 0.5 * k / 200, du[2] = {4e-4 * (2 * g.uniform() - 1), 4e-4 * (2 * g.uniform() - 1)};
    h.room = std::min(4, std::max(1, h.count));    // never more than count, at most 4
    buf[h.room] = sentinel;
    jaeger_step(m, 1.0, d, du, T, h);
    exact.step(d, du[0], du[1]);
    ASSERT_LE(h.count, h.room);
    ASSERT_EQ(std::memcmp(&buf[h.room], &sentinel, sizeof sentinel), 0);
    EXPECT_NEAR(T[0], exact.T[0], 1e-13);    // elastic steps: merges keep the force exactly
    EXPECT_NEAR(T[1], exact.T[1], 1e-13);
  }
  // no room at all: nothing is stored, the force is still computed
  JaegerHistory none{buf.data(), 0, 0};
  double T0[2] = {0, 0};
  const double du[2] = {0.01, 0.0};
  EXPECT_NEAR(jaeger_step(m, 1.0, 1.0, du, T0, none), 1.0, 1e-15);
  EXPECT_EQ(none.count, 0);
  EXPECT_NEAR(T0[0], 0.01 / m.kappa, 1e-15);
}

TEST(JaegerKernel, IsotropyAndHistorySums)
{
  // invariants (notes: Jaeger checks): 200 random 2-D sequences of 60 steps: rotating every
  // movement by a fixed angle rotates every T; T = sum theta dN; u = sum kappa theta d delta while
  // no gross sliding occurred
  const JaegerMaterial m = set_a();
  SplitMix64 g{11};
  double worst_iso = 0.0, worst_T = 0.0, worst_u = 0.0;
  for (int s = 0; s < 200; ++s) {
    const double phi = 2 * kPi * g.uniform(), cs = std::cos(phi), sn = std::sin(phi);
    Contact a(m), b(m);
    double d = 1.0, u[2] = {0, 0};
    bool slid = false;
    for (int k = 0; k < 60; ++k) {
      d = std::max(0.2, d + 0.1 * (2 * g.uniform() - 1));
      const double ux = 0.1 * (2 * g.uniform() - 1), uy = 0.1 * (2 * g.uniform() - 1);
      const double N = a.step(d, ux, uy);
      b.step(d, cs * ux - sn * uy, sn * ux + cs * uy);
      u[0] += ux;
      u[1] += uy;
      slid = slid || a.info.kind == JAEGER_GROSS_SLIP;
      const double muN = kMu * N;
      worst_iso = std::max(worst_iso, std::hypot(cs * a.T[0] - sn * a.T[1] - b.T[0],
                                                 sn * a.T[0] + cs * a.T[1] - b.T[1]) / muN);
      double Ts[2], us[2];
      a.history_sums(Ts, us);
      worst_T = std::max(worst_T, std::hypot(Ts[0] - a.T[0], Ts[1] - a.T[1]) / muN);
      if (!slid) worst_u = std::max(worst_u, std::hypot(us[0] - u[0], us[1] - u[1]) / (kMu * m.kappa * d));
    }
  }
  std::printf("isotropy %.1e muN, sum theta dN - T %.1e muN, sum kappa theta d delta - u %.1e mu kappa delta\n",
              worst_iso, worst_T, worst_u);
  EXPECT_LE(worst_iso, 1e-13);
  EXPECT_LE(worst_T, 1e-13);
  EXPECT_LE(worst_u, 1e-13);
}
