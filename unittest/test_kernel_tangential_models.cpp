// Kernel tests of the catalogue tangential models T1-T10 (Rangel's "DEM contact force models", [R];
// the project's conventions, corrections and checks: doc/design_notes.md, cited as
// "notes: <section>"): the closed-form constant-normal-force loading curves and stick/slip
// transitions, the reference numbers of notes: Catalogue checks, Walton-Braun turning points,
// objectivity of the stored vectors, partner-copy symmetry, parameter checks and fuzzing.
#include "contact/tangential_models.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

using namespace ge;

namespace {

constexpr double kPi = 3.14159265358979323846;

// Reference set of notes: Catalogue checks, case (c): two identical spheres, delta = 1 um,
// mu = 0.3.
struct Reference {
  double R = 1e-3, rho = 2500.0, E = 70e9, nu = 0.25, mu = 0.3, delta = 1e-6;
  double m = 4.0 / 3.0 * kPi * R * R * R * rho;
  double mbar = m / 2, rbar = R / 2;
  double ebar = E / (2.0 * (1.0 - nu * nu));
  double gbar = E / (2.0 * (1.0 + nu)) / (2.0 * (2.0 - nu));
  double khz = 4.0 / 3.0 * ebar * std::sqrt(rbar);
  double fn = khz * std::pow(delta, 1.5);
  double mu_fn = mu * fn;
  double a = std::sqrt(rbar * delta);
  double k_mindlin = 8.0 * gbar * a;
  double k_dd = 16.0 / 3.0 * gbar * a;
  double dtmax = lth_slip_length(mu, delta, nu);
};
const Reference ref;

TangentialParams params(TangentialModel m, double kt = 0.0, double eta = 0.0, bool maw = false)
{
  TangentialParams p;
  p.model = m;
  p.mu = ref.mu;
  p.kt = kt;
  p.eta_t = eta;
  p.maw = maw;
  return p;
}

TangentialStep base_step(const Vec3 &n = Vec3{0, 0, 1})
{
  TangentialStep s;
  s.normal = n;
  s.fn = ref.fn;
  s.overlap = ref.delta;
  s.rbar = ref.rbar;
  s.mbar = ref.mbar;
  s.gbar = ref.gbar;
  s.nubar = ref.nu;
  return s;
}

// A contact driven along x at constant normal force (normal z, no rotation). move() returns the
// force along the loading sense, F = -F_t.x (positive when the spring is stretched along +x).
struct Contact1D {
  TangentialParams p;
  double st[TANGENTIAL_STATE_MAX] = {0, 0, 0, 0, 0, 0};
  TangentialStep s = base_step();
  TangentialResult r;
  explicit Contact1D(const TangentialParams &pp) : p(pp) {}
  double move(double du, double vt = 0.0)
  {
    s.du = Vec3{du, 0, 0};
    s.vt = Vec3{vt, 0, 0};
    tangential_step(p, s, st, r);
    return -r.ft.x;
  }
  // a leg of total displacement D in n equal increments
  double leg(double D, int n)
  {
    double f = 0.0;
    for (int k = 0; k < n; ++k) f = move(D / n);
    return f;
  }
};

double lth_curve(double u, double dtmax, double mu_fn)
{
  const double r = std::fmin(std::fabs(u), dtmax) / dtmax;
  return std::copysign(mu_fn * (1.0 - std::pow(1.0 - r, 1.5)), u);
}

// Walton-Braun closed form (notes: Walton-Braun 3-D): from turning point T* with sense s (+1
// loading, -1 unloading), a displacement D >= 0 along the sense, as a signed force along the
// original axis.
double wb_leg(double t_star, int s, double D, double mu_n, double k0)
{
  const double lim = mu_n - s * t_star;
  const double w = 1.0 - 2.0 * k0 * D / (3.0 * lim);
  return t_star + s * lim * (1.0 - std::pow(std::fmax(w, 0.0), 1.5));
}

const TangentialModel kHistoryModels[] = {
    TangentialModel::SpringSliding, TangentialModel::SpringDashpot, TangentialModel::DD,
    TangentialModel::LTH,           TangentialModel::ZZY,           TangentialModel::TTI,
    TangentialModel::WaltonBraun};
const TangentialModel kAllModels[] = {
    TangentialModel::Sliding, TangentialModel::Viscous, TangentialModel::ViscousSliding,
    TangentialModel::SpringSliding, TangentialModel::SpringDashpot, TangentialModel::DD,
    TangentialModel::LTH, TangentialModel::ZZY, TangentialModel::TTI,
    TangentialModel::WaltonBraun};

// Parameters with every model's stiffness near Mindlin's, so that paths load and slip.
TangentialParams typical_params(TangentialModel m)
{
  TangentialParams p = params(m, ref.k_mindlin, 0.0);
  if (m == TangentialModel::Viscous || m == TangentialModel::ViscousSliding) p.eta_t = 1.0;
  if (m == TangentialModel::SpringDashpot) p.eta_t = 0.05;
  if (m == TangentialModel::DD) p.eta_t = 0.05;
  if (m == TangentialModel::LTH) p.eta_t = 0.3;
  if (m == TangentialModel::ZZY) p.eta_t = 1e3;
  if (m == TangentialModel::TTI) p.eta_t = 2.0;
  return p;
}

}    // namespace

// The cap uses max(F_el + F_vis, 0) (notes: Catalogue conventions); LAMMPS's |F_tot| would give a
// pulling-apart contact a friction force.
TEST(TangentialKernel, CapNormalForceIsCompressivePart)
{
  EXPECT_EQ(cap_normal_force(2.0, 0.5), 2.5);
  EXPECT_EQ(cap_normal_force(2.0, -0.5), 1.5);
  EXPECT_EQ(cap_normal_force(1.0, -3.0), 0.0);    // LAMMPS: |1 - 3| = 2
  // a negative F_n^c passed to a model is read as 0: no friction at all
  for (TangentialModel m : kAllModels) {
    if (m == TangentialModel::Viscous) continue;
    TangentialParams p = typical_params(m);
    double st[6] = {0, 0, 0, 0, 0, 0};
    TangentialStep s = base_step();
    s.fn = -1.0;
    s.du = Vec3{1e-7, 0, 0};
    s.vt = Vec3{1e-1, 0, 0};
    TangentialResult r;
    tangential_step(p, s, st, r);
    EXPECT_EQ(norm(r.ft), 0.0) << int(m);
  }
}

// T1-T3 ([R] sections 4.2-4.4): constant magnitude / pure dashpot / dashpot capped by Coulomb, and
// the sliding transition of T3 at eta_t |v_t| = mu F_n^c.
TEST(TangentialKernel, NoHistoryModels)
{
  TangentialStep s = base_step();
  TangentialResult r;
  const Vec3 dir = (1.0 / std::sqrt(2.0)) * Vec3{1, -1, 0};
  // T1
  TangentialParams p = params(TangentialModel::Sliding);
  for (double v : {1e-12, 1e-3, 5.0}) {
    s.vt = v * dir;
    tangential_step(p, s, nullptr, r);
    EXPECT_NEAR(norm(r.ft), ref.mu_fn, 1e-15 * ref.mu_fn);
    EXPECT_NEAR(norm(r.ft + ref.mu_fn * dir), 0.0, 1e-15 * ref.mu_fn);
    EXPECT_TRUE(r.sliding);
  }
  s.vt = Vec3{0, 0, 0};
  tangential_step(p, s, nullptr, r);
  EXPECT_EQ(norm(r.ft), 0.0);
  EXPECT_FALSE(r.sliding);
  // T2: no cap
  p = params(TangentialModel::Viscous, 0.0, 0.7);
  s.vt = 100.0 * dir;
  tangential_step(p, s, nullptr, r);
  EXPECT_NEAR(norm(r.ft + 70.0 * dir), 0.0, 1e-13);
  EXPECT_GT(norm(r.ft), ref.mu_fn);
  EXPECT_FALSE(r.sliding);
  // T3: transition at v* = mu F_n / eta_t
  p = params(TangentialModel::ViscousSliding, 0.0, 0.7);
  const double v_star = ref.mu_fn / 0.7;
  for (double x : {0.1, 0.999999, 1.000001, 3.0}) {
    s.vt = (x * v_star) * dir;
    tangential_step(p, s, nullptr, r);
    const double expect = std::fmin(0.7 * x * v_star, ref.mu_fn);
    EXPECT_NEAR(norm(r.ft), expect, 1e-15 * ref.mu_fn) << x;
    EXPECT_NEAR(dot(r.ft, dir), -expect, 1e-15 * ref.mu_fn);
    EXPECT_EQ(r.sliding, x > 1.0) << x;
  }
}

// Case (c) of notes: Catalogue checks: the stiffnesses, LTH slip length, initial slope and table.
TEST(TangentialKernel, Spec33cReferenceNumbers)
{
  EXPECT_NEAR(ref.fn, 1.11306495, 5e-9);
  EXPECT_NEAR(ref.mu_fn, 0.33391948, 5e-9);
  EXPECT_NEAR(ref.gbar, 8.0e9, 1e-3);
  const double du = 1e-12;
  // DD and TTI stiffness from one small elastic step: F = -K du exactly
  Contact1D dd(params(TangentialModel::DD));
  const double k_dd = dd.move(du) / du;
  Contact1D tti(params(TangentialModel::TTI));
  const double k_tti = tti.move(du) / du;
  std::printf("  K_DD = %.9e (ref 9.54055670e5)  K_TTI = %.9e (ref 1.43108351e6)\n", k_dd, k_tti);
  EXPECT_NEAR(k_dd, 9.54055670e5, 5e-3);
  EXPECT_NEAR(k_tti, 1.43108351e6, 5e-3);
  EXPECT_NEAR(k_dd, ref.k_dd, 1e-12 * ref.k_dd);
  EXPECT_NEAR(k_tti, ref.k_mindlin, 1e-12 * ref.k_mindlin);
  // the [DL] reading of TTI (effective R, E in Tsuji's equal-sphere formula) is 0.377 of it
  const double k_dl = std::sqrt(2 * ref.rbar) * ref.ebar * std::sqrt(ref.delta) /
      ((2 - ref.nu) * (1 + ref.nu));
  EXPECT_NEAR(k_dl, 5.39695387e5, 5e-3);
  EXPECT_NEAR(k_dl / k_tti, 1.0 / (2.0 * std::sqrt(2.0) * (1 - ref.nu * ref.nu)), 1e-12);

  // LTH: delta_t^max and the initial slope (= Mindlin): F(r) = mu F_n (3/2 r - 3/8 r^2 + ...),
  // so F/xi / (1 - r/4) is the slope to O(r^2)
  EXPECT_NEAR(ref.dtmax, 3.5e-7, 1e-20);
  const double r0 = 1e-6;
  Contact1D lth(params(TangentialModel::LTH));
  const double slope = lth.move(r0 * ref.dtmax) / (r0 * ref.dtmax) / (1.0 - r0 / 4);
  std::printf("  LTH initial slope %.9e (ref 1.43108351e6, Mindlin 8 Gbar a %.9e)\n", slope,
              ref.k_mindlin);
  EXPECT_NEAR(slope, 1.43108351e6, 5e-3);
  EXPECT_NEAR(slope, ref.k_mindlin, 1e-9 * ref.k_mindlin);

  const double table[4] = {0.11703242, 0.21586112, 0.29217955, 0.33391948};
  for (TangentialModel m : {TangentialModel::LTH, TangentialModel::ZZY,
                            TangentialModel::WaltonBraun}) {
    Contact1D c(params(m, ref.k_mindlin));
    double u = 0.0;
    for (int k = 0; k < 4; ++k) {
      const double F = c.leg(0.25 * ref.dtmax, 250);
      u += 0.25 * ref.dtmax;
      std::printf("  model %d: F(%.2f dt_max) = %.8f N (ref %.8f)\n", int(m), u / ref.dtmax, F,
                  table[k]);
      EXPECT_NEAR(F, table[k], 5e-9);
    }
  }
  // DD reaches mu F_n at exactly xi = delta_t^max of LTH (DD is the secant of Mindlin)
  EXPECT_NEAR(ref.k_dd * ref.dtmax, ref.mu_fn, 1e-14);
}

// Constant-F_n loading curves and stick/slip transitions of the linear-spring models against
// F = min(K u, mu F_n), for several step counts; the sliding flag switches exactly when K u
// passes mu F_n.
TEST(TangentialKernel, SpringLoadingCurvesAndTransition)
{
  struct Case {
    TangentialParams p;
    double K;
  };
  TangentialParams t5 = params(TangentialModel::SpringDashpot, 1.3e6, 0.0, false);
  TangentialParams t5m = params(TangentialModel::SpringDashpot, 1.3e6, 0.0, true);
  const Case cases[] = {{params(TangentialModel::SpringSliding, 1.3e6), 1.3e6},
                        {t5, 1.3e6},
                        {t5m, 1.3e6},
                        {params(TangentialModel::DD), ref.k_dd},
                        {params(TangentialModel::TTI), ref.k_mindlin}};
  for (const Case &c : cases) {
    const double u_slip = ref.mu_fn / c.K;
    for (int n : {1, 7, 1000}) {
      Contact1D con(c.p);
      const double du = 2.0 * u_slip / n;
      double worst = 0.0;
      for (int k = 1; k <= n; ++k) {
        const double u = k * du;
        const double F = con.move(du);
        const double expect = std::fmin(c.K * u, ref.mu_fn);
        worst = std::fmax(worst, std::fabs(F - expect) / ref.mu_fn);
        if (c.K * u > ref.mu_fn * (1 + 1e-12)) {
          EXPECT_TRUE(con.r.sliding) << int(c.p.model) << " step " << k;
        }
        if (c.K * u < ref.mu_fn * (1 - 1e-12)) {
          EXPECT_FALSE(con.r.sliding) << int(c.p.model) << " step " << k;
        }
      }
      EXPECT_LE(worst, 1e-13) << int(c.p.model) << " n " << n;
      // stored spring: truncated models hold |xi| = mu F_n/K, T5 without maw the full 2 u_slip
      const double xi = norm(vec3(con.st));
      const bool truncating = c.p.model != TangentialModel::SpringDashpot || c.p.maw;
      EXPECT_NEAR(xi, truncating ? u_slip : 2.0 * u_slip, 1e-13 * u_slip) << int(c.p.model);
    }
  }
}

// LTH, ZZY (no damping) and Walton-Braun at constant F_n follow F = mu F_n [1 - (1 - u/d)^{3/2}]
// (d = delta_t^max, = delta_s for W-B with K_t0 = 8 Gbar a), whatever the step count: LTH/ZZY
// are total-form, W-B is integrated exactly over each increment. Full slip beyond d.
TEST(TangentialKernel, NonlinearLoadingCurves)
{
  for (TangentialModel m : {TangentialModel::LTH, TangentialModel::ZZY,
                            TangentialModel::WaltonBraun}) {
    for (int n : {1, 3, 10, 1000, 20000}) {
      Contact1D con(params(m, ref.k_mindlin));
      const double du = 1.5 * ref.dtmax / n;
      double worst = 0.0;
      for (int k = 1; k <= n; ++k) {
        const double u = k * du;
        const double F = con.move(du);
        worst = std::fmax(worst, std::fabs(F - lth_curve(u, ref.dtmax, ref.mu_fn)) / ref.mu_fn);
        if (u < ref.dtmax * (1 - 1e-9)) {
          EXPECT_FALSE(con.r.sliding) << int(m) << " n " << n << " k " << k;
        }
        if (u > ref.dtmax * (1 + 1e-9)) {
          EXPECT_TRUE(con.r.sliding) << int(m) << " n " << n << " k " << k;
        }
      }
      EXPECT_LE(worst, 1e-12) << int(m) << " n " << n;
      if (m != TangentialModel::WaltonBraun) {
        // [ours] clamp of the stored vector at delta_t^max
        EXPECT_NEAR(norm(vec3(con.st)), ref.dtmax, 1e-15 * ref.dtmax);
      }
    }
  }
  // LTH/ZZY unloading retraces the loading curve (no hysteresis below slip,
  // notes: Catalogue corrections)
  Contact1D lth(params(TangentialModel::LTH));
  lth.leg(0.8 * ref.dtmax, 80);
  const double back = lth.leg(-0.5 * ref.dtmax, 50);
  EXPECT_NEAR(back, lth_curve(0.3 * ref.dtmax, ref.dtmax, ref.mu_fn), 1e-13);
  // after full slip and a reversal by 0.4 d the LTH force is that of xi = 0.6 d (clamp)
  lth.leg(1.5 * ref.dtmax, 100);
  EXPECT_NEAR(lth.leg(-0.4 * ref.dtmax, 40), lth_curve(0.6 * ref.dtmax, ref.dtmax, ref.mu_fn),
              1e-13);
}

// Case (c) spring_sliding: load to 5e-7 m, reverse by 1e-7 m: F = 0.23851390 N; the
// non-truncating spring_dashpot stays at mu F_n until the reversal exceeds 1.5e-7 m.
TEST(TangentialKernel, SpringSlidingReversalSpec33c)
{
  Contact1D t4(params(TangentialModel::SpringSliding, ref.k_dd));
  EXPECT_NEAR(t4.leg(5e-7, 50), ref.mu_fn, 1e-15);
  const double F = t4.leg(-1e-7, 10);
  std::printf("  spring_sliding after reversal 1e-7: %.8f N (ref 0.23851390)\n", F);
  // The reference value first written down for this case, 0.23851390 N (0.33391948 - 0.0954056),
  // is a rounding slip: the exact value is mu F_n - K_DD 1e-7 = 0.333919485 - 0.095405567 =
  // 0.238513918 N, i.e. 0.23851392 to 8 decimals (and those operands themselves give
  // 0.23851388), off by 1.8e-8 N, outside its own 8-decimal precision.
  EXPECT_NEAR(F, ref.mu_fn - ref.k_dd * 1e-7, 1e-14);
  EXPECT_NEAR(F, 0.23851392, 5e-9);
  EXPECT_GT(std::fabs(F - 0.23851390), 1e-8);
  EXPECT_NEAR(0.33391948 - 0.0954056, 0.23851388, 1e-12);
  EXPECT_FALSE(t4.r.sliding);

  Contact1D t5(params(TangentialModel::SpringDashpot, ref.k_dd, 0.0, false));
  t5.leg(5e-7, 50);
  double u = 0.0;
  for (int k = 0; k < 200; ++k) {
    const double F5 = t5.move(-1e-9);
    u += 1e-9;
    if (u < 1.5e-7 - 1e-12) {
      EXPECT_NEAR(F5, ref.mu_fn, 1e-15) << u;
      EXPECT_TRUE(t5.r.sliding);
    } else if (u > 1.5e-7 + 1e-12) {
      EXPECT_NEAR(F5, ref.k_dd * (5e-7 - u), 1e-13) << u;
      EXPECT_FALSE(t5.r.sliding);
    }
  }
  std::printf("  spring_dashpot (no maw) after reversal 2e-7: %.8f N (elastic %.8f)\n",
              -t5.r.ft.x, ref.k_dd * 3e-7);
}

// T4 ([ours], notes: Catalogue corrections): spring_sliding kt mu == spring_dashpot kt 0 mu maw,
// bit for bit on a 3-D path with rotation and varying normal force.
TEST(TangentialKernel, SpringSlidingEqualsSpringDashpotMaw)
{
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  TangentialParams a = params(TangentialModel::SpringSliding, 1e6);
  TangentialParams b = params(TangentialModel::SpringDashpot, 1e6, 0.0, true);
  double sa[3] = {0, 0, 0}, sb[3] = {0, 0, 0};
  Vec3 n{0, 0, 1};
  int slips = 0;
  for (int k = 0; k < 20000; ++k) {
    TangentialStep s = base_step(n);
    s.mean_rotation = Vec3{1e-3 * U(rng), 1e-3 * U(rng), 1e-3 * U(rng)};
    n = rotate_by_vector(n, 0.5 * s.mean_rotation);
    n = (1.0 / norm(n)) * n;
    s.normal = n;
    s.fn = ref.fn * (1.0 + 0.5 * U(rng));
    s.du = project_onto_plane(Vec3{1e-7 * U(rng), 1e-7 * U(rng), 1e-7 * U(rng)}, n);
    s.vt = 1e5 * s.du;
    TangentialResult ra, rb;
    tangential_step(a, s, sa, ra);
    tangential_step(b, s, sb, rb);
    ASSERT_TRUE(same(ra.ft, rb.ft)) << k;
    ASSERT_TRUE(same(vec3(sa), vec3(sb))) << k;
    ASSERT_EQ(ra.sliding, rb.sliding);
    slips += ra.sliding;
  }
  std::printf("  sliding steps: %d of 20000\n", slips);
  EXPECT_GT(slips, 1000);
  EXPECT_LT(slips, 19000);
}

// Case (c) Walton-Braun, K_t0 = 8 Gbar a, delta_s = 3.5e-7 m:
//   unloading from full slip by delta_s: -0.09780275 N; by 2 delta_s: -mu F_n;
//   load to delta_s/2 (0.21586112 N), unload by delta_s/4: 0.09552244 N;
// and reloading from that turning point, the through-zero continuation, step-count independence.
TEST(TangentialKernel, WaltonBraunTurningPointsSpec33c)
{
  const TangentialParams p = params(TangentialModel::WaltonBraun, ref.k_mindlin);
  const double ds = 1.5 * ref.mu_fn / ref.k_mindlin, k0 = ref.k_mindlin, muN = ref.mu_fn;
  EXPECT_NEAR(ds, 3.5e-7, 1e-20);
  for (int n : {1, 10, 20000}) {
    // Exact integration: the only error is roundoff. Each step re-derives y from the stored
    // force, y^{2/3}, y'^{3/2} and the new force: about 2 ulp of mu N (5.6e-17 N) per step at
    // most, accumulating at worst linearly with the number of steps per leg.
    const double tol = 1e-14 + 1e-16 * n;
    Contact1D c(p);
    EXPECT_NEAR(c.leg(ds, n), muN, 1e-15);
    EXPECT_TRUE(c.r.sliding);
    const double F1 = c.leg(-ds, n);
    const double F2 = c.leg(-ds, n);
    if (n == 20000)
      std::printf("  unload from full slip by ds: %.8f N (ref -0.09780275), by 2 ds: %.8f N "
                  "(ref -0.33391948)\n", F1, F2);
    EXPECT_NEAR(F1, -0.09780275, 5e-9) << n;
    EXPECT_NEAR(F1, wb_leg(muN, -1, ds, muN, k0), tol) << n;
    EXPECT_NEAR(F2, -muN, 1e-15) << n;

    Contact1D d(p);
    const double Fs = d.leg(0.5 * ds, n);
    const double Fu = d.leg(-0.25 * ds, n);
    const double Fr = d.leg(0.25 * ds, n);    // reload from the new turning point
    const double Fr_expect = wb_leg(Fu, +1, 0.25 * ds, muN, k0);
    if (n == 20000)
      std::printf("  load ds/2: %.8f N (ref 0.21586112); unload ds/4: %.8f N (ref 0.09552244);"
                  " reload ds/4: %.8f N (closed form %.8f, hysteresis %.3e N)\n",
                  Fs, Fu, Fr, Fr_expect, Fs - Fr);
    EXPECT_NEAR(Fs, 0.21586112, 5e-9);
    EXPECT_NEAR(Fu, 0.09552244, 5e-9);
    EXPECT_NEAR(Fu, wb_leg(Fs, -1, 0.25 * ds, muN, k0), tol);
    EXPECT_NEAR(Fr, Fr_expect, tol);
    EXPECT_GT(Fs - Fr, 1e-3);    // open loop: Walton's single turning-point memory
    EXPECT_DOUBLE_EQ(d.st[TS_WB_TSTAR], Fu);
    EXPECT_EQ(d.st[TS_WB_SENSE], 1.0);

    // through zero: unloading from full slip by 1.5 ds follows the same closed form
    Contact1D z(p);
    z.leg(ds, n);
    const double Fz = z.leg(-1.5 * ds, n);
    EXPECT_NEAR(Fz, wb_leg(muN, -1, 1.5 * ds, muN, k0), tol) << n;
    EXPECT_LT(Fz, 0.0);
    // after the flip the state reads as loading in the -x direction with T* = -mu N
    EXPECT_EQ(z.st[TS_WB_SENSE], 1.0);
    EXPECT_NEAR(z.st[TS_WB_TSTAR], -muN, 1e-15);
  }
}

// An explicit Euler discretisation of the 1-D law (that of the independent Python recomputation
// of the reference numbers, its wb_incremental) against the kernel's exact integration: its
// -0.09780582 (20 000 increments) is first order in the increment and converges to the closed
// form -0.09780275 that the kernel gives exactly.
TEST(TangentialKernel, WaltonBraunExactVersusSpecEuler)
{
  const double k0 = ref.k_mindlin, muN = ref.mu_fn, ds = 1.5 * muN / k0;
  auto euler = [&](int n) {    // transcription of wb_incremental([(0, ds), (ds, 0)], n)
    double t = 0.0, tstar = 0.0;
    int s_prev = 1;
    for (int leg = 0; leg < 2; ++leg) {
      const double inc = (leg == 0 ? ds : -ds) / n;
      for (int k = 0; k < n; ++k) {
        const int s = inc > 0 ? 1 : -1;
        if (s != s_prev) {
          tstar = t;
          s_prev = s;
        }
        const double den = muN - s * tstar;
        const double base = den > 0 ? 1 - s * (t - tstar) / den : 0.0;
        t += k0 * std::cbrt(std::fmax(base, 0.0)) * inc;
        t = std::fmax(-muN, std::fmin(muN, t));
      }
    }
    return t;
  };
  const double exact = wb_leg(muN, -1, ds, muN, k0);
  const double e1 = euler(20000), e2 = euler(40000);
  Contact1D c(params(TangentialModel::WaltonBraun, k0));
  c.leg(ds, 20000);
  const double kernel = c.leg(-ds, 20000);
  std::printf("  Euler n=20000: %.11f (ref -0.09780582140), n=40000: %.11f; kernel %.11f;"
              " closed form %.11f\n", e1, e2, kernel, exact);
  EXPECT_NEAR(e1, -0.09780582139660028, 1e-13);    // transcription reproduces the oracle
  EXPECT_NEAR((e1 - exact) / (e2 - exact), 2.0, 0.05);    // first order
  EXPECT_NEAR(kernel, exact, 1e-14 + 1e-16 * 20000);    // roundoff only, see above
}

// Walton-Braun in 3-D (notes: Walton-Braun 3-D, steps 3 and 7): an increment orthogonal to T
// changes T by K_t0 du (initial stiffness); a loop du -> -du along T is hysteretic; T* scales
// with N.
TEST(TangentialKernel, WaltonBraun3DAndNormalForceScaling)
{
  const double k0 = ref.k_mindlin, muN = ref.mu_fn, ds = 1.5 * muN / k0;
  Contact1D c(params(TangentialModel::WaltonBraun, k0));
  c.leg(0.5 * ds, 10);
  const Vec3 T0 = c.r.ft;
  c.s.du = Vec3{0, 1e-9, 0};
  tangential_step(c.p, c.s, c.st, c.r);
  EXPECT_NEAR(norm(c.r.ft - (T0 - k0 * Vec3{0, 1e-9, 0})), 0.0, 1e-16);
  // loop along T: +du then -du does not return to the start force
  Contact1D l(params(TangentialModel::WaltonBraun, k0));
  const double F0 = l.leg(0.5 * ds, 10);
  l.move(0.1 * ds);
  const double F1 = l.move(-0.1 * ds);
  std::printf("  loop +-0.1 ds from %.8f N ends at %.8f N\n", F0, F1);
  EXPECT_LT(F1, F0 - 1e-4);
  EXPECT_NEAR(F1, wb_leg(wb_leg(0.0, 1, 0.6 * ds, muN, k0), -1, 0.1 * ds, muN, k0), 1e-14);
  // N scaling (step 2): T* follows N; a halved N caps the force at the new mu N
  Contact1D h(params(TangentialModel::WaltonBraun, k0));
  h.leg(0.5 * ds, 10);
  const double Tu = h.move(-0.1 * ds);    // turning point at the start of this step
  EXPECT_NEAR(h.st[TS_WB_TSTAR], 0.21586111866034904, 1e-14);
  h.s.fn = 0.8 * ref.fn;
  const double Tn = h.move(0.0);
  EXPECT_NEAR(h.st[TS_WB_TSTAR], 0.8 * 0.21586111866034904, 1e-14);
  EXPECT_NEAR(Tn, Tu, 1e-15);    // no movement: the force itself is kept (below the cap)
  h.s.fn = 0.1 * ref.fn;
  EXPECT_NEAR(h.move(0.0), 0.1 * muN, 1e-15);
  EXPECT_TRUE(h.r.sliding);
}

// Case (c): Deen's tangential damping for kt = 1e6 N/m, e_t = 0.5: eta_t = 0.527047025 N s/m;
// a sticking contact with slip velocity u0 has -0.5 u0 after the half period 3.93492690e-6 s.
TEST(TangentialKernel, DeenRestitutionSpec33)
{
  const double kt = 1e6;
  const double eta = deen_eta_t(0.5, kt, ref.mbar);
  std::printf("  eta_t(e_t = 0.5) = %.9e (ref 5.27047025e-1)\n", eta);
  EXPECT_NEAR(eta, 0.527047025, 5e-10);
  const double mt = 2.0 / 7.0 * ref.mbar;
  EXPECT_NEAR(deen_eta_t(0.0, kt, ref.mbar), 2.0 * std::sqrt(mt * kt), 1e-15);
  EXPECT_NEAR(deen_eta_t(1.0, kt, ref.mbar), 0.0, 1e-18);
  const double w = std::sqrt(kt / mt - std::pow(eta / (2 * mt), 2));
  EXPECT_NEAR(kPi / w, 3.93492690e-6, 5e-15);

  // the kernel with `et` inside a 1-DOF integration: m_t dv/dt = F_t, xi += v dt (the half-step
  // velocity of velocity Verlet); damped results are first order in dt (notes: Catalogue checks)
  TangentialParams p = params(TangentialModel::SpringDashpot, kt);
  p.use_et = true;
  p.e_t = 0.5;
  p.mu = 1e6;    // sticking
  auto run = [&](int n) {
    const double dt = (kPi / w) / n;
    double st[3] = {0, 0, 0};
    double v = 1.0;
    TangentialStep s = base_step();
    TangentialResult r;
    for (int k = 0; k < n; ++k) {
      s.du = Vec3{v * dt, 0, 0};
      s.vt = Vec3{v, 0, 0};
      tangential_step(p, s, st, r);
      v += r.ft.x / mt * dt;    // symplectic Euler
    }
    return v;
  };
  const double v1 = run(20000), v2 = run(40000);
  std::printf("  slip velocity after the half period: %.7f (n=2e4), %.7f (n=4e4), ref -0.5\n", v1,
              v2);
  EXPECT_NEAR((v1 + 0.5) / (v2 + 0.5), 2.0, 0.1);    // first-order convergence to -0.5
  std::printf("  Richardson extrapolation 2 v(4e4) - v(2e4) = %.9f\n", 2 * v2 - v1);
  EXPECT_NEAR(2 * v2 - v1, -0.5, 1e-6);
}

// Viscous parts of LTH and ZZY against [R]'s formulas at a point below slip, and the [ours]
// clamp of the ZZY bracket at high speed.
TEST(TangentialKernel, LthZzyViscousParts)
{
  const double u = 0.4 * ref.dtmax, v = 0.02;
  const double sq = std::sqrt(0.6);
  const double f_el = ref.mu_fn * (1 - 0.6 * sq);
  {
    Contact1D c(params(TangentialModel::LTH, 0.0, 0.3));
    const double F = c.move(u, v);
    const double f_vis = 0.3 * std::sqrt(6 * ref.mbar * ref.mu_fn * sq / ref.dtmax) * v;
    EXPECT_NEAR(F, std::fmin(f_el + f_vis, ref.mu_fn), 1e-14);
    // eta_t = 1 is critical damping 2 sqrt(mbar k_tan)
    const double k_tan = 1.5 * ref.mu_fn * sq / ref.dtmax;
    EXPECT_NEAR(f_vis / 0.3, 2 * std::sqrt(ref.mbar * k_tan) * v, 1e-14);
  }
  {
    const double eta = 1e3;
    Contact1D c(params(TangentialModel::ZZY, 0.0, eta));
    const double F = c.move(u, v);
    const double tau = eta / (2 * ref.gbar);
    const double f_vis = eta / (2 * ref.gbar * ref.dtmax) *
        (1 - 0.4 * eta * v / (2 * ref.gbar * ref.dtmax)) *
        1.5 * ref.mu_fn * sq * v;
    EXPECT_GT(1 - 0.4 * tau * v / ref.dtmax, 0.0);
    EXPECT_NEAR(F, std::fmin(f_el + f_vis, ref.mu_fn), 1e-14);
    // above |v_t| = 2.5 dt_max / tau the bracket would be negative: clamped, pure elastic
    Contact1D d(params(TangentialModel::ZZY, 0.0, eta));
    EXPECT_NEAR(d.move(u, 3.0 * ref.dtmax / tau), f_el, 1e-15);
  }
}

// Objectivity: the same loading path (with slip, reversals and varying N) seen from a frame
// rotating rigidly with the pair (90 degrees in 1000 increments about an arbitrary axis) gives
// the rotated force and stored vector, for every history model.
TEST(TangentialKernel, RigidRotationObjectivity)
{
  Vec3 axis{0.3, -0.5, 0.81};
  axis = (1.0 / norm(axis)) * axis;
  const int steps = 1000;
  const Vec3 dtheta = (kPi / 2 / steps) * axis;
  const Vec3 n0 = (1.0 / std::sqrt(2.0)) * Vec3{1, 1, 0};
  const Vec3 t1 = (1.0 / norm(cross(n0, Vec3{0, 0, 1}))) * cross(n0, Vec3{0, 0, 1});
  const Vec3 t2 = cross(n0, t1);
  double worst = 0.0;
  for (TangentialModel m : kHistoryModels) {
    const TangentialParams p = typical_params(m);
    double sf[6] = {0, 0, 0, 0, 0, 0}, sr[6] = {0, 0, 0, 0, 0, 0};
    TangentialResult rf, rr;
    double err = 0.0;
    int slips = 0;
    for (int k = 1; k <= steps; ++k) {
      // fixed-frame path: a wandering loop of amplitude ~ 3 slip lengths
      const double ph = 0.02 * k;
      const Vec3 du = (ref.dtmax * 0.02) * (std::cos(ph) * t1 + std::sin(1.7 * ph) * t2);
      TangentialStep s = base_step(n0);
      s.fn = ref.fn * (1.0 + 0.3 * std::sin(0.013 * k));
      s.du = du;
      s.vt = 1e3 * du;
      tangential_step(p, s, sf, rf);
      // rotating frame: the pair turned by k dtheta, this step's rotation dtheta
      const Vec3 theta = (double(k)) * dtheta;
      TangentialStep q = s;
      q.normal = rotate_by_vector(n0, theta);
      q.mean_rotation = dtheta;
      q.du = rotate_by_vector(du, theta);
      q.vt = rotate_by_vector(s.vt, theta);
      tangential_step(p, q, sr, rr);
      const double scale = ref.mu_fn;
      err = std::fmax(err, norm(rr.ft - rotate_by_vector(rf.ft, theta)) / scale);
      const double vscale = m == TangentialModel::WaltonBraun ? scale : norm(vec3(sf)) + 1e-300;
      err = std::fmax(err, norm(vec3(sr) - rotate_by_vector(vec3(sf), theta)) / vscale);
      for (int j = 3; j < tangential_state_size(m); ++j)
        err = std::fmax(err, std::fabs(sr[j] - sf[j]) / (std::fabs(sf[j]) + scale));
      ASSERT_EQ(rr.sliding, rf.sliding) << int(m) << " step " << k;
      slips += rf.sliding;
    }
    std::printf("  model %2d: rotating-frame error %.2e over %d steps (%d sliding)\n", int(m), err,
                steps, slips);
    EXPECT_LE(err, 1e-10) << int(m);
    EXPECT_GT(slips, 0) << int(m);
    worst = std::fmax(worst, err);
  }
  // pure rigid rotation of a loaded contact (du = 0) carries the stored vector exactly; the
  // projection alone (mean rotation ignored) loses the twist part
  for (bool with_rotation : {true, false}) {
    const TangentialParams p = params(TangentialModel::SpringDashpot, 1e6);
    double st[3];
    const Vec3 xi0 = 1e-8 * (0.6 * t1 - 0.8 * t2);
    store(xi0, st);
    TangentialResult r;
    for (int k = 1; k <= steps; ++k) {
      TangentialStep s = base_step(rotate_by_vector(n0, (double(k)) * dtheta));
      s.mean_rotation = with_rotation ? dtheta : Vec3{0, 0, 0};
      tangential_step(p, s, st, r);
    }
    const double e = norm(vec3(st) - rotate_by_vector(xi0, (double(steps)) * dtheta)) / norm(xi0);
    std::printf("  rigid 90 deg rotation, %s: stored xi error %.2e\n",
                with_rotation ? "mean rotation" : "projection only", e);
    if (with_rotation) EXPECT_LE(e, 1e-10);
    else EXPECT_GT(e, 0.1);
  }
}

// With the partner copy (notes: Catalogue conventions) (vectors x -1, scalars x +1) the contact
// seen from j (normal -n, du -> -du, v_t -> -v_t, same mean rotation) gives exactly the opposite
// force.
TEST(TangentialKernel, PartnerCopySymmetry)
{
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  for (TangentialModel m : kAllModels) {
    const TangentialParams p = typical_params(m);
    double si[6] = {0, 0, 0, 0, 0, 0}, sj[6];
    Vec3 n{0.2, 0.3, 0.9};
    n = (1.0 / norm(n)) * n;
    for (int k = 0; k < 2000; ++k) {
      TangentialStep s = base_step(n);
      s.mean_rotation = Vec3{1e-3 * U(rng), 1e-3 * U(rng), 1e-3 * U(rng)};
      s.fn = ref.fn * (1 + 0.5 * U(rng));
      s.du = project_onto_plane((0.1 * ref.dtmax) * Vec3{U(rng), U(rng), U(rng)}, n);
      s.vt = 1e3 * s.du;
      for (int j = 0; j < 6; ++j) sj[j] = tangential_transfer_factor(m, j) * si[j];
      TangentialStep q = s;
      q.normal = -n;
      q.du = -s.du;
      q.vt = -s.vt;
      TangentialResult ri, rj;
      tangential_step(p, s, si, ri);
      tangential_step(p, q, sj, rj);
      ASSERT_LE(norm(ri.ft + rj.ft), 1e-15 * ref.mu_fn) << int(m) << " step " << k;
      ASSERT_EQ(ri.sliding, rj.sliding);
      n = rotate_by_vector(n, 0.3 * s.mean_rotation);
      n = (1.0 / norm(n)) * n;
    }
  }
  EXPECT_EQ(tangential_state_size(TangentialModel::WaltonBraun), 6);
  EXPECT_EQ(tangential_transfer_factor(TangentialModel::WaltonBraun, 2), -1.0);
  EXPECT_EQ(tangential_transfer_factor(TangentialModel::WaltonBraun, 3), 1.0);
  EXPECT_EQ(tangential_state_size(TangentialModel::LTH), 3);
  EXPECT_EQ(tangential_state_size(TangentialModel::ViscousSliding), 0);
}

// Fuzz: random parameters and steps over many decades (zero and tiny normal force, zero
// movement, large rotations, contacts re-formed): no NaN, |F_t| <= mu F_n^c (all but T2), the
// stored vectors stay finite and in the tangent plane.
TEST(TangentialKernel, FuzzNoNaNAndCap)
{
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  std::uniform_real_distribution<double> L(-8.0, 2.0);
  long sliding = 0, steps = 0;
  for (int contact = 0; contact < 2000; ++contact) {
    const TangentialModel m = kAllModels[contact % 10];
    TangentialParams p;
    p.model = m;
    p.mu = (contact / 10) % 7 == 3 && m != TangentialModel::LTH && m != TangentialModel::ZZY &&
                   m != TangentialModel::WaltonBraun
        ? 0.0
        : std::fabs(U(rng)) + 1e-3;
    p.kt = std::pow(10.0, 6 + 2 * U(rng));
    p.eta_t = U(rng) > 0.6 ? 0.0 : std::pow(10.0, L(rng));
    p.maw = U(rng) > 0.0 && m == TangentialModel::SpringDashpot;
    p.use_et = U(rng) > 0.5 && m == TangentialModel::SpringDashpot;
    p.e_t = std::fabs(U(rng));
    ASSERT_EQ(tangential_params_error(p), nullptr) << int(m);
    double st[6] = {0, 0, 0, 0, 0, 0};
    Vec3 n{U(rng), U(rng), U(rng)};
    n = (1.0 / norm(n)) * n;
    const double scale = std::pow(10.0, L(rng) - 4);    // displacement scale
    for (int k = 0; k < 500; ++k) {
      TangentialStep s = base_step(n);
      const double amp = std::pow(10.0, L(rng) - 1);
      s.mean_rotation = Vec3{amp * U(rng), amp * U(rng), amp * U(rng)};
      n = rotate_by_vector(n, 0.5 * Vec3{s.mean_rotation.y, s.mean_rotation.z, s.mean_rotation.x});
      n = (1.0 / norm(n)) * n;
      s.normal = n;
      const double r = U(rng);
      s.fn = r > 0.9 ? 0.0 : (r < -0.9 ? -1.0 : ref.fn * std::pow(10.0, L(rng)));
      s.overlap = U(rng) > 0.95 ? 0.0 : ref.delta * std::pow(10.0, L(rng) / 2);
      s.du = U(rng) > 0.8 ? Vec3{0, 0, 0}
                          : (scale * std::pow(10.0, L(rng) / 4)) * Vec3{U(rng), U(rng), U(rng)};
      s.du = project_onto_plane(s.du, n);
      s.vt = std::pow(10.0, L(rng)) * s.du;
      if (U(rng) > 0.995)
        for (double &x : st) x = 0.0;    // contact lost and re-formed
      TangentialResult res;
      tangential_step(p, s, st, res);
      ++steps;
      sliding += res.sliding;
      const double f = norm(res.ft);
      ASSERT_TRUE(std::isfinite(f)) << int(m) << " " << contact << " " << k;
      for (int j = 0; j < tangential_state_size(m); ++j) ASSERT_TRUE(std::isfinite(st[j]));
      const double cap = p.mu * std::fmax(s.fn, 0.0);
      if (m != TangentialModel::Viscous) {
        ASSERT_LE(f, cap * (1 + 1e-12)) << int(m) << " " << contact << " " << k;
      }
      ASSERT_LE(std::fabs(dot(res.ft, n)), 1e-12 * (f + cap) + 1e-300)
          << int(m) << " " << contact << " " << k << " f " << f << " cap " << cap << " fn " << s.fn
          << " du " << norm(s.du) << " vt " << norm(s.vt) << " rot " << norm(s.mean_rotation);
      if (tangential_state_size(m) > 0) {
        const Vec3 v = vec3(st);
        ASSERT_LE(std::fabs(dot(v, n)), 1e-12 * norm(v) + 1e-300) << int(m);
      }
    }
  }
  std::printf("  %ld steps, %ld sliding\n", steps, sliding);
  EXPECT_GT(sliding, steps / 10);
  EXPECT_LT(sliding, steps * 9 / 10);
}

// Ranges and finiteness (notes: Catalogue conventions), with a message naming the argument.
TEST(TangentialKernel, ParameterValidation)
{
  const double inf = INFINITY, nan = NAN;
  TangentialParams p = params(TangentialModel::SpringSliding, 1e6);
  EXPECT_EQ(tangential_params_error(p), nullptr);
  p.kt = 0.0;
  EXPECT_NE(tangential_params_error(p), nullptr);
  p.kt = inf;
  EXPECT_NE(tangential_params_error(p), nullptr);
  p = params(TangentialModel::Sliding);
  p.mu = nan;
  EXPECT_NE(tangential_params_error(p), nullptr);
  p.mu = -0.1;
  EXPECT_NE(tangential_params_error(p), nullptr);
  p = params(TangentialModel::LTH, 0.0, 0.1);
  EXPECT_EQ(tangential_params_error(p), nullptr);
  p.mu = 0.0;    // delta_t^max = 0
  EXPECT_NE(tangential_params_error(p), nullptr);
  p = params(TangentialModel::WaltonBraun, 1e6);
  p.mu = 0.0;
  EXPECT_NE(tangential_params_error(p), nullptr);
  p = params(TangentialModel::SpringDashpot, 1e6, 0.1);
  p.use_et = true;
  p.e_t = 1.2;
  EXPECT_NE(tangential_params_error(p), nullptr);
  p.e_t = 0.0;
  EXPECT_EQ(tangential_params_error(p), nullptr);
  p.model = TangentialModel::DD;
  EXPECT_NE(tangential_params_error(p), nullptr);    // et only with spring_dashpot
  p = params(TangentialModel::Viscous, 0.0, -1.0);
  EXPECT_NE(tangential_params_error(p), nullptr);
  p.eta_t = 1.0;
  p.mu = nan;    // T2 has no mu
  EXPECT_EQ(tangential_params_error(p), nullptr);
  std::printf("  example message: %s\n",
              tangential_params_error(params(TangentialModel::ZZY, 0.0, -1.0)));
}

// Case (a) of notes: Catalogue checks: gross-sliding oblique impact of a sphere on a rigid flat,
// v_n = 1 m/s, v_t = 5 m/s, mu = 0.3, normal force never attractive: v_t' = v_t - mu (1+e) v_n and
// omega' R = (5/2) mu (1+e) v_n, i.e. 4.430 / 1.425 m/s with HLS e = 0.9 and 4.4 / 1.5 m/s with
// undamped Hertz. Velocity Verlet as in LAMMPS (the pair sees half-step velocities).
// DD and TTI need hertz and are run with Hertz: with the linear HLS force they stick at onset
// (K_t ~ delta^{1/2}: spring ~ t^{3/2} against a cap ~ t), so "valid for every tangential model"
// needs each model's partner normal model. Walton-Braun does not reach mu N
// exactly while N grows (K_t -> 0 at T = mu N): see the bound below.
TEST(TangentialKernel, ObliqueImpactSpec33a)
{
  const double R = ref.R, m = ref.m, I = 0.4 * m * R * R, mu = 0.3, vn0 = 1.0, vt0 = 5.0;
  const double kL = 1.26909318e6, e_hls = 0.9, kU = kL / (e_hls * e_hls);    // reference set, HLS
  const double ebar_wall = ref.E / (1 - ref.nu * ref.nu);                      // rigid wall
  const double gbar_wall = ref.E / (2 * (1 + ref.nu)) / (2 - ref.nu);
  const double khz = 4.0 / 3.0 * ebar_wall * std::sqrt(R);
  const Vec3 nz{0, 0, 1};    // normal from the wall (j) to the sphere (i)
  struct Case {
    TangentialModel model;
    double eta;    // < 0: typical_params
  };
  const Case cases[] = {{TangentialModel::Sliding, -1},       {TangentialModel::ViscousSliding, -1},
                        {TangentialModel::SpringSliding, -1}, {TangentialModel::SpringDashpot, -1},
                        {TangentialModel::DD, 0.0},           {TangentialModel::DD, 0.05},
                        {TangentialModel::LTH, -1},           {TangentialModel::ZZY, -1},
                        {TangentialModel::TTI, 0.0},          {TangentialModel::TTI, 2.0},
                        {TangentialModel::WaltonBraun, -1}};
  for (const Case &c : cases) {
    const TangentialModel model = c.model;
    const bool hertz = model == TangentialModel::DD || model == TangentialModel::TTI;
    // The truncation xi <- -(F_t + eta_t v_t)/K_t stores the dashpot force in the spring; with
    // the total form F = -K_t(delta) xi a growing K_t turns part of it into a spring force
    // opposing the slip, so DD/TTI with eta_t > 0 stick for some steps of this gross slide
    // (a property of this truncation rule, reported; eta_t = 0 slides throughout).
    const bool spurious_stick = hertz && c.eta > 0.0;
    const double e = hertz ? 1.0 : e_hls;
    const double Tc = hertz ? 2.8683 * std::pow(m * m / (R * ebar_wall * ebar_wall * vn0), 0.2)
                            : kPi * std::sqrt(m / kL);
    const double dt = Tc / 20000;
    TangentialParams p = typical_params(model);
    p.mu = mu;
    if (c.eta >= 0.0) p.eta_t = c.eta;
    if (model == TangentialModel::WaltonBraun || model == TangentialModel::SpringSliding ||
        model == TangentialModel::SpringDashpot)
      p.kt = kL;
    double st[6] = {0, 0, 0, 0, 0, 0};
    Vec3 v{vt0, 0.0, -vn0}, w{0, 0, 0};
    double z = R, dmax = 0.0;
    Vec3 F{0, 0, 0}, T{0, 0, 0};
    double sum_fn_lever = 0.0;
    int contact_steps = 0, sliding_steps = 0;
    for (int k = 0; k < 100000; ++k) {
      v = v + (0.5 * dt / m) * F;
      w = w + (0.5 * dt / I) * T;
      z += v.z * dt;
      const double delta = R - z;
      F = T = Vec3{0, 0, 0};
      if (delta > 0.0) {
        dmax = std::fmax(dmax, delta);
        const double fn = hertz ? khz * delta * std::sqrt(delta)
            : std::fmax(0.0, std::fmin(kL * delta, kU * (delta - dmax * (1.0 - kL / kU))));
        const double lever = R - 0.5 * delta;
        const Vec3 vc = v - lever * cross(w, nz);
        TangentialStep s;
        s.normal = nz;
        s.vt = project_onto_plane(vc, nz);
        s.du = dt * s.vt;
        s.mean_rotation = (0.5 * dt) * w;    // the wall does not rotate
        s.fn = cap_normal_force(fn, 0.0);
        s.overlap = delta;
        s.rbar = R;
        s.mbar = m;
        s.gbar = gbar_wall;
        s.nubar = ref.nu;
        TangentialResult r;
        tangential_step(p, s, st, r);
        F = fn * nz + r.ft;
        T = -lever * cross(nz, r.ft);
        sum_fn_lever += fn * lever / R * dt;
        ++contact_steps;
        sliding_steps += r.sliding;
      } else if (contact_steps > 0) {
        break;
      }
      v = v + (0.5 * dt / m) * F;
      w = w + (0.5 * dt / I) * T;
    }
    const double dvn = v.z + vn0, dvt = v.x - vt0, wR = w.y * R;
    const double vt_expect = vt0 - mu * (1 + e) * vn0, wR_expect = 2.5 * mu * (1 + e) * vn0;
    std::printf("  model %2d (%s, eta_t %g): v_t' = %.6f (expect %.3f)  omega'R = %.6f (%.3f)"
                "  e = %.6f  sliding %d of %d steps\n", int(model), hertz ? "hertz" : "hls",
                p.eta_t, v.x, vt_expect, wR, wR_expect, v.z, sliding_steps, contact_steps);
    // rebound: HLS at T_c/20000 is first order (~1e-5 observed), Hertz undamped second order
    EXPECT_NEAR(v.z, e, 1e-4) << int(model);
    if (spurious_stick) {
      EXPECT_LT(sliding_steps, contact_steps) << int(model);
      EXPECT_GT(dvt + mu * dvn, 1e-7) << int(model);    // less tangential impulse than mu N
    } else if (model != TangentialModel::WaltonBraun) {
      EXPECT_EQ(sliding_steps, contact_steps) << int(model);
      // |F_t| = mu F_n in every step: the tangential and normal impulses are in ratio mu
      EXPECT_NEAR(dvt, -mu * dvn, 1e-12) << int(model);
      EXPECT_NEAR(wR, 2.5 * mu * sum_fn_lever / m, 1e-12) << int(model);
    } else {
      // W-B trails the growing cap: quasi-steady lag 1 - T/(mu N) = (mu dN/dt/(K_t0 v_t))^3,
      // at most (mu k_L v_n/(K_t0 v_t))^3 = 0.06^3 while loading; unloading is at the cap
      EXPECT_LT(sliding_steps, contact_steps);
      const double lag = std::pow(mu * kL * vn0 / (p.kt * vt0), 3);
      EXPECT_LE(dvt + mu * dvn, lag * mu * dvn);
      EXPECT_GE(dvt + mu * dvn, 0.0);
    }
    EXPECT_NEAR(v.x, vt_expect, 1e-4) << int(model);
    // spin: the torque lever is R - delta/2 ([ours], notes: Catalogue conventions), so omega'R
    // falls short of the rigid (5/2) mu (1+e) v_n by at most delta_max/(2R) relative
    EXPECT_LE(wR, wR_expect * (1 + 1e-4));
    EXPECT_GE(wR, wR_expect * (1 - 0.5 * dmax / R - 1e-4));
  }
}
