// Kernel tests of the linear-frictional law (no LAMMPS): classic baseline, the continuum limit of
// the refined within-step algorithm, the closed form of the direction rotation (paper Fig. 4),
// work bookkeeping, robustness and objectivity.
#include "contact/linear_frictional.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

using namespace ge;

namespace {

constexpr double kPi = 3.14159265358979323846;

double rel_diff(const Vec3 &a, const Vec3 &b, double scale) { return norm(a - b) / scale; }

// Textbook classic rule written independently of the kernel: project the old force onto the new
// tangent plane, add k_t*d, cap at mu*k_n*overlap.
Vec3 textbook_classic(const Vec3 &f_old, const Vec3 &n, const Vec3 &d, double overlap, double kn,
                      double kt, double mu)
{
  Vec3 f = f_old - dot(f_old, n) * n;
  f = f + kt * d;
  const double cap = mu * kn * overlap;
  const double mag = norm(f);
  if (mag > cap) f = (cap / mag) * f;
  return f;
}

struct Contact {
  double h[LINEAR_HISTORY_SIZE] = {0};
};

// A step of movement with a fixed normal and no rotation.
LinearStep plain_step(const Vec3 &n, double overlap, double approach, const Vec3 &d)
{
  return LinearStep{n, overlap, approach, d, {0, 0, 0}, 1.0};
}

// Apply the classic law in N equal sub-steps of one step's movement (overlap zeta0 -> zeta1,
// tangential movement d, fixed normal). A sub-step without overlap is no contact: the history is
// cleared, as in a DEM code. Returns the final force; accumulates the dissipation.
Vec3 classic_substeps(const LinearParams &pc, const double *h_start, double zeta0, double zeta1,
                      const Vec3 &n, const Vec3 &d, long N, double *dissipation)
{
  double h[LINEAR_HISTORY_SIZE];
  for (int k = 0; k < LINEAR_HISTORY_SIZE; ++k) h[k] = h_start[k];
  const Vec3 dd = (1.0 / N) * d;
  const double dz = (zeta1 - zeta0) / N;
  LinearResult r;
  *dissipation = 0.0;
  for (long k = 1; k <= N; ++k) {
    const double z = zeta0 + (zeta1 - zeta0) * (double(k) / N);
    if (z <= 0.0) {
      for (double &x : h) x = 0.0;
      continue;
    }
    linear_step(pc, plain_step(n, z, dz, dd), h, r);
    *dissipation += r.work_t_irrev;
  }
  return vec3(h + H_FT);
}

struct ContinuumCase {
  const char *name;
  double zeta0, zeta1;    // overlap at start/end of the step (zeta0 < 0: contact forms in it)
  Vec3 f0;                // tangential force at the start (contact known if zeta0 > 0)
  Vec3 d;                 // tangential movement of the step
};

}    // namespace

TEST(LinearKernel, ClassicEqualsTextbookRule)
{
  const double kn = 1e5, kt = 8e4, mu = 0.5;
  const LinearParams pc = classic_params(kn, kt, mu);
  // `tangential refined` with onset, slip, direction and twirl all `no` is the classic law
  LinearParams off = refined_params(kn, kt, mu);
  off.onset = off.slip = off.direction = off.twirl = false;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  Contact c, c_off;
  Vec3 n{0, 0, 1};
  double overlap = 1e-3;
  linear_init_history(c.h, n, overlap);
  linear_init_history(c_off.h, n, overlap);
  Vec3 f_ref{0, 0, 0};
  LinearResult r, r_off;
  for (int step = 0; step < 20000; ++step) {
    const Vec3 rot{1e-3 * U(rng), 1e-3 * U(rng), 1e-3 * U(rng)};
    const Vec3 n_new = rotate_by_vector(n, rot);
    const double approach = 2e-5 * U(rng);
    overlap = std::fabs(overlap + approach) + 1e-6;
    const Vec3 d = project_onto_plane({2e-4 * U(rng), 2e-4 * U(rng), 2e-4 * U(rng)}, n_new);
    LinearStep s{n_new, overlap, approach, d, {3e-3 * U(rng), 3e-3 * U(rng), 0.0}, 1e-4};
    linear_step(pc, s, c.h, r);
    linear_step(off, s, c_off.h, r_off);
    f_ref = textbook_classic(f_ref, n_new, d, overlap, kn, kt, mu);
    ASSERT_LE(rel_diff(r.ft_spring, f_ref, mu * kn * overlap), 1e-15) << "step " << step;
    ASSERT_TRUE(same(r.ft_spring, r_off.ft_spring)) << "step " << step;    // bit for bit
    n = n_new;
  }
}

// One refined step equals the classic law applied in many equal sub-steps of the same movement.
TEST(LinearKernel, RefinedStepIsContinuumLimitOfClassic)
{
  const double kn = 1.0, kt = 0.8, mu = 0.5;
  const LinearParams pr = refined_params(kn, kt, mu);
  const LinearParams pc = classic_params(kn, kt, mu);
  const Vec3 n{0, 0, 1};
  const ContinuumCase cases[] = {
      // paper Fig. 4: on the cone, movement orthogonal to the force, constant f_n
      {"fig4", 1.0, 1.0, {0.0, -0.5, 0.0}, {0.6, 0.0, 0.0}},
      // contact forms within the step, then slips (the cone grows from zero)
      {"onset", -0.4, 0.6, {0, 0, 0}, {0.9, 0.3, 0.0}},
      // inside the cone at an angle, growing f_n: elastic, slip onset, then rotation
      {"slip_onset_growing", 1.0, 1.3, {0.1, 0.2, 0.0}, {0.9, -1.2, 0.0}},
      // shrinking normal force and a movement against the force: unload, cross, slip
      {"shrinking_reversal", 1.0, 0.7, {0.45, 0.1, 0.0}, {-0.9, 0.25, 0.0}},
  };
  for (const auto &cc : cases) {
    SCOPED_TRACE(cc.name);
    double h[LINEAR_HISTORY_SIZE] = {0};
    if (cc.zeta0 > 0.0) {
      linear_init_history(h, n, cc.zeta0);
      store(cc.f0, h + H_FT);
    }
    double hr[LINEAR_HISTORY_SIZE];
    for (int k = 0; k < LINEAR_HISTORY_SIZE; ++k) hr[k] = h[k];
    LinearResult r;
    linear_step(pr, plain_step(n, cc.zeta1, cc.zeta1 - cc.zeta0, cc.d), hr, r);
    const double scale = mu * kn * cc.zeta1;
    ASSERT_TRUE(r.sliding);

    double prev_err = 1e300;
    for (long N : {1000L, 10000L, 100000L}) {
      double diss = 0.0;
      const Vec3 f_sub = classic_substeps(pc, h, cc.zeta0, cc.zeta1, n, cc.d, N, &diss);
      const double err = rel_diff(r.ft_spring, f_sub, scale);
      const double err_w = std::fabs(r.work_t_irrev - diss) / (scale * scale / kt);
      std::printf("  %-20s N=%6ld  force err %.3e  dissipation err %.3e\n", cc.name, N, err,
                  err_w);
      // improves with N until it reaches roundoff (the onset case slips along the movement,
      // where sub-steps are exact)
      if (err > 1e-12) {
        EXPECT_LT(err, prev_err);
      }
      prev_err = err;
      if (N == 100000L) {
        EXPECT_LE(err, 1e-4);
        EXPECT_LE(err_w, 1e-4);
      }
    }
  }
  // the classic single step does not reach the continuum limit on the Fig. 4 case
  double h[LINEAR_HISTORY_SIZE];
  linear_init_history(h, n, 1.0);
  store(Vec3{0.0, -0.5, 0.0}, h + H_FT);
  double hc[LINEAR_HISTORY_SIZE], hr[LINEAR_HISTORY_SIZE];
  for (int k = 0; k < LINEAR_HISTORY_SIZE; ++k) hc[k] = hr[k] = h[k];
  LinearResult rc, rr;
  linear_step(pc, plain_step(n, 1.0, 0.0, {0.6, 0, 0}), hc, rc);
  linear_step(pr, plain_step(n, 1.0, 0.0, {0.6, 0, 0}), hr, rr);
  const double classic_err = rel_diff(rc.ft_spring, rr.ft_spring, mu * kn);
  std::printf("  classic single step vs continuum limit (Fig. 4 case): %.3e\n", classic_err);
  EXPECT_GT(classic_err, 1e-3);
}

// Paper Fig. 4: constant f_n, force on the cone at -90 deg to the movement. The final angle
// between force and movement follows tan(phi/2) = tan(phi0/2) exp(-k_t |dxi| / (mu f_n)).
TEST(LinearKernel, DirectionRotationMatchesClosedForm)
{
  const double kn = 1.0, kt = 1.0, mu = 0.5, fn = 1.0;
  const LinearParams pr = refined_params(kn, kt, mu);
  const Vec3 n{0, 0, 1};
  double prev_angle = -kPi / 2;
  for (int k = 1; k <= 200; ++k) {
    const double move = 0.01 * k;    // |dxi| up to 4 mu f_n / k_t
    double h[LINEAR_HISTORY_SIZE];
    linear_init_history(h, n, fn / kn);
    store(Vec3{0.0, -mu * fn, 0.0}, h + H_FT);    // -90 deg from the movement (+x)
    LinearResult r;
    linear_step(pr, plain_step(n, fn / kn, 0.0, {move, 0, 0}), h, r);
    const double angle = std::atan2(r.ft_spring.y, r.ft_spring.x);    // force angle from +x
    const double expected = -2.0 * std::atan(std::exp(-kt * move / (mu * fn)));
    EXPECT_NEAR(angle, expected, 1e-12) << "move " << move;
    EXPECT_GT(angle, prev_angle);
    EXPECT_LT(angle, 0.0);
    EXPECT_NEAR(norm(r.ft_spring), mu * fn, 1e-14);
    prev_angle = angle;
  }
}

TEST(LinearKernel, WorkBookkeeping)
{
  const double kn = 2.0, kt = 1.5, mu = 0.4;
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  for (const LinearParams &p : {classic_params(kn, kt, mu), refined_params(kn, kt, mu)}) {
    Contact c;
    Vec3 n{0, 0, 1};
    double overlap = 0.5;
    linear_init_history(c.h, n, overlap);
    LinearResult r;
    for (int step = 0; step < 200000; ++step) {
      const Vec3 rot{0.05 * U(rng), 0.05 * U(rng), 0.05 * U(rng)};
      const Vec3 n_new = rotate_by_vector(n, rot);
      const double approach = 0.05 * U(rng);
      overlap = std::fabs(overlap + approach) + 1e-3;
      const Vec3 d = project_onto_plane({0.4 * U(rng), 0.4 * U(rng), 0.4 * U(rng)}, n_new);
      linear_step(p, LinearStep{n_new, overlap, approach, d, rot, 1.0}, c.h, r);
      const double e_scale = (mu * kn * overlap) * (mu * kn * overlap) / kt + 1e-300;
      ASSERT_NEAR(r.work_t, r.work_t_rev + r.work_t_irrev, 1e-15 * e_scale);
      ASSERT_GE(r.work_t_irrev, 0.0);
      if (!r.sliding) {
        ASSERT_EQ(r.work_t_irrev, 0.0);
      }
      n = n_new;
    }
  }
  // a closed elastic cycle (out and back inside the cone, fixed frame) does no net work
  const LinearParams pr = refined_params(kn, kt, mu);
  Contact c;
  const Vec3 n{0, 0, 1};
  linear_init_history(c.h, n, 1.0);
  store(Vec3{0.1, -0.2, 0}, c.h + H_FT);
  LinearResult r;
  const Vec3 moves[] = {{0.05, 0.1, 0}, {-0.15, 0.02, 0}, {0.1, -0.12, 0}};
  for (const Vec3 &m : moves) linear_step(pr, plain_step(n, 1.0, 0.0, m), c.h, r);
  EXPECT_NEAR(c.h[H_WORK_T], 0.0, 1e-16);
  EXPECT_EQ(c.h[H_DISS_T], 0.0);
  EXPECT_NEAR(c.h[H_FT + 0], 0.1, 1e-16);
  EXPECT_NEAR(c.h[H_FT + 1], -0.2, 1e-16);
}

// The geometry of one contact over random steps, as the fuzz tests drive it: a normal that
// turns, an overlap that grows, shrinks or parts (the contact then forms again: `parted`, clear
// its history), tangential movements over seven decades, and a fraction `still` of the steps
// with none (pure normal loading or unloading).
struct RandomContactWalk {
  std::mt19937_64 &rng;
  double still;
  std::uniform_real_distribution<double> U{-1.0, 1.0}, L{-6.0, 1.0};
  Vec3 n;
  double overlap;

  RandomContactWalk(std::mt19937_64 &generator, double still_fraction)
      : rng(generator), still(still_fraction)
  {
    n = Vec3{U(rng), U(rng), U(rng)};
    n = (1.0 / norm(n)) * n;
    overlap = std::pow(10.0, L(rng));
  }

  LinearStep next(bool &parted)
  {
    const double amp = std::pow(10.0, L(rng));
    const Vec3 rot{amp * U(rng), amp * U(rng), amp * U(rng)};
    Vec3 n_new = rotate_by_vector(n, Vec3{0.3 * rot.y, 0.3 * rot.z, 0.3 * rot.x});
    n_new = (1.0 / norm(n_new)) * n_new;    // a pair style computes a fresh unit normal
    const double approach = overlap * U(rng) * (U(rng) > 0 ? 1.0 : 1e-3);
    double new_overlap = overlap + approach;
    parted = new_overlap <= 0.0;
    if (parted) new_overlap = std::pow(10.0, L(rng));
    const Vec3 d = U(rng) > 1.0 - 2.0 * still
                       ? Vec3{0, 0, 0}
                       : project_onto_plane((new_overlap * std::pow(10.0, L(rng))) *
                                                Vec3{U(rng), U(rng), U(rng)},
                                            n_new);
    n = n_new;
    overlap = new_overlap;
    return LinearStep{n_new, new_overlap, approach, d, rot, 1e-3};
  }
};

// 10^6 random steps of evolving contacts: finite forces inside the cone and in the tangent plane.
TEST(LinearKernel, FuzzMillionSteps)
{
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  long sliding = 0;
  for (int contact = 0; contact < 1000; ++contact) {
    // one contact in ten is frictionless
    const double mu = contact % 10 == 3 ? 0.0 : std::fabs(U(rng)) + 1e-3;
    LinearParams p = refined_params(std::pow(10.0, 3 * U(rng)), 0, mu);
    p.kt = p.kn * (0.2 + std::fabs(U(rng)));
    p.eta_n = std::fabs(U(rng));
    p.eta_t = std::fabs(U(rng));
    p.onset = U(rng) > -0.5;
    p.slip = U(rng) > -0.5;
    p.direction = U(rng) > -0.5;
    p.twirl = U(rng) > -0.5;
    double h[LINEAR_HISTORY_SIZE] = {0};
    RandomContactWalk walk(rng, 0.1);
    LinearResult r;
    for (int step = 0; step < 1000; ++step) {
      bool parted;
      const LinearStep st = walk.next(parted);
      if (parted)
        for (double &x : h) x = 0.0;
      linear_step(p, st, h, r);
      const double cap = p.mu * p.kn * st.overlap;
      const double ft = norm(r.ft_spring);
      ASSERT_TRUE(std::isfinite(ft) && std::isfinite(r.fn) && std::isfinite(norm(r.ft)));
      ASSERT_TRUE(std::isfinite(r.work_t) && std::isfinite(r.work_t_irrev));
      ASSERT_LE(ft, cap * (1.0 + 1e-12)) << "contact " << contact << " step " << step;
      ASSERT_LE(std::fabs(dot(r.ft_spring, st.normal)), 1e-12 * (cap + ft));
      ASSERT_GE(r.fn, 0.0);
      ASSERT_GE(r.work_t_irrev, 0.0);
      sliding += r.sliding;
    }
  }
  std::printf("  sliding steps: %ld of 1000000\n", sliding);
  EXPECT_GT(sliding, 100000);
  EXPECT_LT(sliding, 900000);
}

// The work and dissipation feed no force: with LinearParams::work off (the glue's choice where
// no output reads them) every force and every other history value is the same bit for bit, over
// random contacts that load, slide with the direction turning, unload, part and form again; the
// work values are left untouched.
TEST(LinearKernel, UntrackedWorkChangesNoForceOrState)
{
  std::mt19937_64 rng(77);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  long turning_slips = 0;
  for (int contact = 0; contact < 300; ++contact) {
    LinearParams p = refined_params(std::pow(10.0, 3 * U(rng)), 0, std::fabs(U(rng)) + 1e-3);
    p.kt = p.kn * (0.2 + std::fabs(U(rng)));
    p.eta_n = contact % 2 ? std::fabs(U(rng)) : 0.0;
    p.eta_t = contact % 2 ? std::fabs(U(rng)) : 0.0;
    p.onset = U(rng) > -0.5;
    p.slip = U(rng) > -0.5;
    p.direction = contact % 4 != 1;    // (one in four with the return map instead)
    p.twirl = U(rng) > -0.5;
    LinearParams p_off = p;
    p_off.work = false;
    double h[LINEAR_HISTORY_SIZE] = {0}, h_off[LINEAR_HISTORY_SIZE] = {0};
    RandomContactWalk walk(rng, 0.05);
    LinearResult r, r_off;
    for (int step = 0; step < 1000; ++step) {
      bool parted;
      const LinearStep st = walk.next(parted);
      if (parted)
        for (int k = 0; k < LINEAR_HISTORY_SIZE; ++k) h[k] = h_off[k] = 0.0;
      linear_step(p, st, h, r);
      linear_step(p_off, st, h_off, r_off);
      ASSERT_EQ(r.fn, r_off.fn);
      ASSERT_EQ(r.fn_elastic, r_off.fn_elastic);
      ASSERT_EQ(r.ft_spring.x, r_off.ft_spring.x) << "contact " << contact << " step " << step;
      ASSERT_EQ(r.ft_spring.y, r_off.ft_spring.y);
      ASSERT_EQ(r.ft_spring.z, r_off.ft_spring.z);
      ASSERT_EQ(r.ft.x, r_off.ft.x);
      ASSERT_EQ(r.ft.y, r_off.ft.y);
      ASSERT_EQ(r.ft.z, r_off.ft.z);
      ASSERT_EQ(r.sliding, r_off.sliding);
      for (int k = 0; k < LINEAR_HISTORY_SIZE; ++k) {
        if (k == H_WORK_T || k == H_DISS_T || k == H_DISS_DAMP) ASSERT_EQ(h_off[k], 0.0);
        else ASSERT_EQ(h[k], h_off[k]) << "history " << k;
      }
      turning_slips += r.sliding && p.direction && r.work_t_irrev > 0.0;
    }
  }
  std::printf("  slip steps with the direction turning: %ld of 300000\n", turning_slips);
  EXPECT_GT(turning_slips, 30000);
}

// A pair rotated rigidly by 90 degrees in 1000 increments about an arbitrary axis keeps its
// co-rotated tangential force with the exact frame update; projection alone loses the twirl.
TEST(LinearKernel, RigidRotationObjectivity)
{
  const double kn = 1.0, kt = 1.0, mu = 0.5;
  Vec3 axis{0.3, -0.5, 0.81};
  axis = (1.0 / norm(axis)) * axis;
  const int steps = 1000;
  const Vec3 dtheta = (kPi / 2 / steps) * axis;
  const Vec3 n0 = (1.0 / std::sqrt(2.0)) * Vec3{1, 1, 0};
  const Vec3 f0 = 0.3 * ((1.0 / std::sqrt(3.0)) * Vec3{1, -1, 1} - dot((1.0 / std::sqrt(3.0)) * Vec3{1, -1, 1}, n0) * n0);
  double err_twirl = 0.0, err_projection = 0.0;
  for (bool twirl : {true, false}) {
    LinearParams p = refined_params(kn, kt, mu);
    p.twirl = twirl;
    double h[LINEAR_HISTORY_SIZE];
    linear_init_history(h, n0, 1.0);
    store(f0, h + H_FT);
    LinearResult r;
    for (int k = 1; k <= steps; ++k) {
      const Vec3 n = rotate_by_vector(n0, (double(k)) * dtheta);
      linear_step(p, LinearStep{n, 1.0, 0.0, {0, 0, 0}, dtheta, 1.0}, h, r);
    }
    const Vec3 expected = rotate_by_vector(f0, (double(steps)) * dtheta);
    const double err = rel_diff(r.ft_spring, expected, norm(f0));
    (twirl ? err_twirl : err_projection) = err;
  }
  std::printf("  co-rotated force error after 90 deg: twirl yes %.3e, twirl no %.3e\n", err_twirl,
              err_projection);
  EXPECT_LE(err_twirl, 1e-10);
  EXPECT_GT(err_projection, 0.1);
}

// The scaled slip dissipation integral (Gauss-Legendre on the closed-form direction) against a
// brute-force composite rule with many panels, over the whole range of step sizes.
TEST(LinearKernel, SlipDissipationQuadratureIsAccurate)
{
  auto reference = [](double X, double beta, double c0) {
    const int panels = 20000;
    const double h = X / panels;
    const detail::GaussRule g = detail::gauss8();
    double sum = 0.0;
    for (int k = 0; k < panels; ++k)
      for (int q = 0; q < g.n; ++q) {
        const double x = (k + g.x[q]) * h;
        const double r = (1.0 - c0) * std::exp(-2.0 * x);
        const double c = ((1.0 + c0) - r) / ((1.0 + c0) + r);
        sum += h * g.w[q] * std::exp(2.0 * beta * x) * std::fmax(c - beta, 0.0);
      }
    return sum;
  };
  double worst = 0.0;
  for (double X : {1e-6, 3e-5, 1e-4, 2e-3, 0.05, 0.3, 1.0, 4.0, 30.0})
    for (double beta : {-3.0, -0.5, 0.0, 0.3, 0.9})
      // (c0 >= 0.98: the direction within 11 degrees of the movement from the start, the
      // series alone, as in most steps of a sliding contact)
      for (double c0 : {-0.99, -0.3, 0.2, 0.95, 0.995, 0.9999999}) {
        if (c0 < beta) continue;    // slip needs cos(phi0) >= beta
        const double E_X = std::exp(2.0 * beta * X);
        const double G_X = beta == 0.0 ? X : std::expm1(2.0 * beta * X) / (2.0 * beta);
        const double I = detail::slip_dissipation_integral(X, beta, 1.0 + c0, 1.0 - c0,
                                                           std::exp(-2.0 * X), E_X, G_X);
        const double Iref = reference(X, beta, c0);
        const double err = std::fabs(I - Iref) / (std::fabs(Iref) + 1e-300);
        worst = std::fmax(worst, err);
        EXPECT_LE(err, 1e-12) << "X " << X << " beta " << beta << " c0 " << c0;
      }
  std::printf("  worst relative error of the slip dissipation quadrature: %.2e\n", worst);
}

// Increments carry a roundoff part along the normal (d is projected in floating point); the
// exact frame rotation must not let it accumulate over a long-lived contact.
TEST(LinearKernel, NoNormalDriftOverLongContacts)
{
  const LinearParams p = refined_params(1.0, 1.0, 0.5);
  Vec3 n = (1.0 / std::sqrt(3.0)) * Vec3{1, 1, 1};
  double h[LINEAR_HISTORY_SIZE];
  linear_init_history(h, n, 1.0);
  LinearResult r;
  double worst = 0.0, largest = 0.0;
  for (int step = 0; step < 200000; ++step) {
    // tangential movement taken from a vector with a 1e4 times larger normal part, so that its
    // projection leaves a roundoff normal residue 1e4 times larger than usual
    const Vec3 t = cross(n, Vec3{0, 0, 1});
    const Vec3 v = 1e-4 * std::sin(step * 0.01) * t + 1.0 * n;
    const Vec3 d = project_onto_plane(v, n);
    linear_step(p, LinearStep{n, 1.0, 0.0, d, {1e-5, -2e-5, 3e-5}, 1.0}, h, r);
    worst = std::fmax(worst, std::fabs(dot(r.ft_spring, n)));
    largest = std::fmax(largest, norm(r.ft_spring));
    n = rotate_by_vector(n, Vec3{1e-5, -2e-5, 3e-5});
    n = (1.0 / norm(n)) * n;
  }
  // one step's residue is ~1e-16 k_t |v| = 1e-14 of the force scale; 2e5 accumulated steps
  // would reach ~1e-9
  std::printf("  largest normal component of the stored force: %.2e of the largest force\n",
              worst / largest);
  EXPECT_LE(worst / largest, 1e-12);
}

// At the edges of the doubles (mu = 1e-200, a stiffness of 1e-200 or 1e200) the refined law with
// its direction refinement stays on its friction cone: the direction of a force of about 1e-200
// was taken as f/|f| with |f|^2 underflowing to 0, and the force became infinite at the
// contact's onset. pair_coeff keeps every parameter within 1e-100 to 1e100 (where products of
// two, as in the work's 1/(kn kt), stay representable); the law itself is robust to one extreme
// value. The same loading at every scale: a contact that forms, slides, turns and unloads.
TEST(LinearKernel, RefinedStaysOnItsConeAtTheEdgesOfTheDoubles)
{
  const double cases[][3] = {{2e5, 1.6e5, 1e-200}, {2e5, 1.6e5, 1e-300}, {1e-200, 1.6e5, 0.4},
                             {2e5, 1e200, 0.4}};
  for (const auto &c : cases) {
    SCOPED_TRACE(testing::Message() << "kn " << c[0] << " kt " << c[1] << " mu " << c[2]);
    LinearParams p = refined_params(c[0], c[1], c[2]);
    p.work = true;
    double h[LINEAR_HISTORY_SIZE] = {0};
    const Vec3 tilt{0.1, 0.2, 1.0};
    for (int k = 0; k < 60; k++) {
      LinearStep s;
      s.normal = (1.0 / norm(tilt)) * tilt;
      s.overlap = 1e-5 * (1 + (k < 40 ? k : 80 - k));
      s.approach = k == 0 ? s.overlap : (k < 40 ? 1e-5 : -1e-5);
      s.d = project_onto_plane(Vec3{1e-6 * (k % 7 - 3), 2e-6, 0}, s.normal);
      s.mean_rotation = Vec3{1e-4, 0, 0};
      s.dt = 1e-6;
      LinearResult r;
      linear_step(p, s, h, r);
      ASSERT_TRUE(std::isfinite(r.fn) && std::isfinite(norm(r.ft)) &&
                  std::isfinite(h[H_DISS_T]) && std::isfinite(h[H_WORK_T]))
          << "step " << k;
      const double cap = p.mu * p.kn * s.overlap;
      // |ft| <= mu fn, the cone (compared without squaring: both may be near 1e-300)
      EXPECT_LE(norm((1.0 / cap) * r.ft_spring), 1.0 + 1e-12) << "step " << k;
      if (r.sliding) EXPECT_NEAR(norm((1.0 / cap) * r.ft_spring), 1.0, 1e-12) << "step " << k;
    }
  }
}
