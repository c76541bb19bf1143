// Kernel tests of the catalogue's normal models (hooke, hertz, hls) and normal dashpots (viscous,
// restitution, bshp, kk, tsuji) of Rangel's "DEM contact force models" ([R]), with the project's
// conventions, corrections and reference collisions of doc/design_notes.md ("Catalogue
// conventions", "Catalogue corrections", "Catalogue checks"; cited as "notes: <section>").
//
// The head-on collision of two spheres (notes: Catalogue checks) is integrated here by a two-body
// velocity Verlet along the normal, in LAMMPS' form: the force of step k is evaluated at x(t_k)
// with the half-step velocity v(t_k - dt/2) (what pair granular sees). Undamped laws then converge
// at second order in dt, dashpots at first order (notes: Catalogue checks, tolerances): every
// numeric test asserts that order by halving dt, and compares with the reference either at the
// finest step or after Richardson extrapolation of the measured order. Contact onset and end, and
// the instant the force vanishes, are interpolated linearly within the step; maxima by a parabola
// through the three samples around the largest.
#include "contact/damping_models.hpp"
#include "contact/jaeger.hpp"
#include "contact/normal_models.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace ge;

namespace {

constexpr double kPi = 3.14159265358979323846;
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// ---- reference material set (notes: Catalogue checks)
constexpr double kR = 1.0e-3, kRho = 2500.0, kE = 70.0e9, kNu = 0.25, kV0 = 1.0;
double sphere_mass(double R) { return 4.0 / 3.0 * kPi * R * R * R * kRho; }
double mbar_ref() { return effective_mass(sphere_mass(kR), sphere_mass(kR)); }
double rbar_ref() { return effective_radius(kR, kR); }
double ebar_ref() { return hertz_effective_modulus(hertz_params(kE, kNu)); }
double khz_ref() { return hertz_constant(ebar_ref(), rbar_ref()); }
// Rangel's stiffness group X = (v0 Rbar Ebar^2 sqrt(mbar))^{2/5} and the equal-energy k_n = 1.053 X.
double x_group() { return std::pow(kV0 * rbar_ref() * ebar_ref() * ebar_ref() * std::sqrt(mbar_ref()), 0.4); }
double kn_ref() { return 1.053 * x_group(); }

double rel(double a, double b) { return std::fabs(a - b) / std::fabs(b); }

// ------------------------------------------------------------------------------------------------
// Two-body head-on collision.

struct Pair {
  double m_i, m_j, R_i, R_j;
};
Pair reference_pair() { return {sphere_mass(kR), sphere_mass(kR), kR, kR}; }

struct Model {
  NormalParams normal;
  DampingParams damping;
  bool limit_damping = false;
};

struct Collision {
  bool separated = false;
  double t_start = 0;         // interpolated onset of geometric contact
  double t_sep = 0;           // interpolated end of geometric contact, relative to t_start
  double t_force_zero = -1;   // first zero of F_el + F_vis after the peak, relative to t_start
  double delta_force_zero = 0;
  double delta_max = 0;
  double F_max = 0;           // largest applied force
  double e = 0;               // rebound speed / approach speed
  double state_at_sep = -1;   // HLS delta_max just before the contact was lost
  double state_after = -1;    // and after (must be reset to 0)
};

// Vertex of the parabola through (-1, y0), (0, y1), (1, y2).
double parabola_peak(double y0, double y1, double y2)
{
  const double den = y0 - 2.0 * y1 + y2;
  if (den >= 0.0) return y1;
  const double p = 0.5 * (y0 - y2) / den;
  return y1 - 0.25 * (y0 - y2) * p;
}

// i at larger x; n = +x (from j to i); delta_dot = v_j - v_i; force on i = +F n.
Collision collide(const Model &model, const Pair &pr, double v0, double dt)
{
  const double mbar = effective_mass(pr.m_i, pr.m_j), Rbar = effective_radius(pr.R_i, pr.R_j);
  // centre-of-mass frame, relative approach speed v0; contact starts 0.37 of the way into step 1
  double v_i = -v0 * pr.m_j / (pr.m_i + pr.m_j), v_j = v0 * pr.m_i / (pr.m_i + pr.m_j);
  double x_j = 0.0, x_i = pr.R_i + pr.R_j + 0.37 * v0 * dt;
  double state[1] = {0.0};
  double f = 0.0, t = 0.0;
  Collision c;
  double d_prev = pr.R_i + pr.R_j - (x_i - x_j), fraw_prev = 0.0, d_prev2 = d_prev, fraw_prev2 = 0.0;
  double d_hist[2] = {-1, -1}, f_hist[2] = {0, 0};
  bool started = false, peaked = false;
  const long max_steps = 100000000;
  for (long k = 0; k < max_steps; ++k) {
    v_i += 0.5 * dt * f / pr.m_i;
    v_j -= 0.5 * dt * f / pr.m_j;
    x_i += dt * v_i;
    x_j += dt * v_j;
    t += dt;
    const double delta = pr.R_i + pr.R_j - (x_i - x_j);
    const double delta_dot = v_j - v_i;    // half-step velocity, as LAMMPS' pair sees it
    const double hls_before = state[0];
    const NormalResult nr = normal_elastic(model.normal, delta, Rbar, state, true);
    const double fvis = damping_force(model.damping, {delta, delta_dot, mbar, nr.kn, nr.K_HZ});
    const double fraw = nr.F_el + fvis;
    f = delta > 0.0 ? normal_force_applied(nr.F_el, fvis, model.limit_damping) : 0.0;
    v_i += 0.5 * dt * f / pr.m_i;
    v_j -= 0.5 * dt * f / pr.m_j;

    if (!started && delta > 0.0) {
      started = true;
      c.t_start = t - dt + dt * (-d_prev) / (delta - d_prev);
    }
    if (started) {
      // peaks of overlap and force: parabola through the samples around the discrete maximum
      if (d_hist[1] > d_hist[0] && d_hist[1] >= delta && d_hist[1] > c.delta_max)
        c.delta_max = parabola_peak(d_hist[0], d_hist[1], delta);
      if (f_hist[1] > f_hist[0] && f_hist[1] >= f && f_hist[1] > c.F_max)
        c.F_max = parabola_peak(f_hist[0], f_hist[1], f);
      if (fraw > 0.0) peaked = true;
      if (peaked && c.t_force_zero < 0 && fraw <= 0.0 && delta_dot < 0.0) {
        // a zero crossing is interpolated between the samples around it; a force that the
        // kernel itself stops at 0 (HLS: max(0, ...)) is extrapolated from the two positive
        // samples before it instead, else the zero would be found only to within dt.
        // u: offset of the zero from the previous sample (time t - dt), in steps
        const bool stopped = fraw == 0.0 && fraw_prev2 > fraw_prev;
        const double u = stopped ? fraw_prev / (fraw_prev2 - fraw_prev) : fraw_prev / (fraw_prev - fraw);
        c.t_force_zero = t - dt + u * dt - c.t_start;
        c.delta_force_zero = d_prev + u * (stopped ? d_prev - d_prev2 : delta - d_prev);
      }
      if (delta <= 0.0) {
        c.separated = true;
        c.t_sep = t - dt + dt * d_prev / (d_prev - delta) - c.t_start;
        c.e = (v_i - v_j) / v0;
        c.state_at_sep = hls_before;
        c.state_after = state[0];
        return c;
      }
    }
    d_hist[0] = d_hist[1];
    d_hist[1] = delta;
    f_hist[0] = f_hist[1];
    f_hist[1] = f;
    d_prev2 = d_prev;
    d_prev = delta;
    fraw_prev2 = fraw_prev;
    fraw_prev = fraw;
  }
  return c;
}

// A measured quantity at dt, dt/2, dt/4: checks the convergence order against the exact value
// and returns the Richardson extrapolation with that order.
struct Convergence {
  double q[3];
  double order(double exact) const
  {
    return std::log2(std::fabs(q[1] - exact) / std::fabs(q[2] - exact));
  }
  double richardson(int p) const
  {
    const double f = std::ldexp(1.0, p);
    return (f * q[2] - q[1]) / (f - 1.0);
  }
  // observed order from the three values alone (no reference needed)
  double self_order() const { return std::log2(std::fabs(q[0] - q[1]) / std::fabs(q[1] - q[2])); }
};

struct Runs {
  Collision c[3];
  template <class F> Convergence of(F get) const { return {{get(c[0]), get(c[1]), get(c[2])}}; }
};

Runs collide3(const Model &m, const Pair &pr, double v0, double dt)
{
  Runs r;
  for (int k = 0; k < 3; ++k) {
    r.c[k] = collide(m, pr, v0, dt / (1 << k));
    EXPECT_TRUE(r.c[k].separated);
  }
  return r;
}

Model hooke_model(double kn, const DampingParams &d, bool limit = false)
{
  Model m;
  m.normal.model = NORMAL_HOOKE;
  m.normal.hooke.kn = kn;
  m.damping = d;
  m.limit_damping = limit;
  return m;
}
Model hertz_model(const DampingParams &d, bool limit = false)
{
  Model m;
  m.normal.model = NORMAL_HERTZ;
  m.normal.Ebar = ebar_ref();
  m.damping = d;
  m.limit_damping = limit;
  return m;
}
Model hls_model(const HlsParams &h)
{
  Model m;
  m.normal.model = NORMAL_HLS;
  m.normal.hls = h;
  return m;
}

// Observed orders: within 0.25 of the expected one (first order: 1, second order: 2).
#define EXPECT_ORDER(conv, exact, p) EXPECT_NEAR((conv).order(exact), (p), 0.25)

}    // namespace

// ================================================================================================
// Effective quantities and conventions (notes: Catalogue conventions)

TEST(NormalDampingKernel, ReferenceMaterialSet)
{
  EXPECT_LT(rel(sphere_mass(kR), 1.04719755e-5), 1e-8);
  EXPECT_LT(rel(mbar_ref(), 5.23598776e-6), 1e-8);
  EXPECT_DOUBLE_EQ(rbar_ref(), 5.0e-4);
  EXPECT_LT(rel(ebar_ref(), 3.73333333e10), 1e-8);
  EXPECT_LT(rel(khz_ref(), 1.11306495e9), 1e-8);
  EXPECT_LT(rel(x_group(), 1.20521670e6), 1e-8);
  EXPECT_LT(rel(kn_ref(), 1.26909318e6), 1e-8);
  // identical spheres: Ebar = E/(2(1-nu^2)); two-material form with equal arguments is the same
  EXPECT_DOUBLE_EQ(ebar_ref(), kE / (2.0 * (1.0 - kNu * kNu)));
  EXPECT_EQ(hertz_effective_modulus(hertz_params(kE, kNu, kE, kNu)), ebar_ref());
}

TEST(NormalDampingKernel, EffectiveQuantitiesUnlikeMaterialsAndWalls)
{
  // glass on steel: Ebar by hand, symmetric under i <-> j
  const double Es = 210e9, nus = 0.3;
  const double hand = 1.0 / ((1 - kNu * kNu) / kE + (1 - nus * nus) / Es);
  EXPECT_LT(rel(hertz_effective_modulus(hertz_params(kE, kNu, Es, nus)), hand), 1e-15);
  EXPECT_EQ(hertz_effective_modulus(hertz_params(kE, kNu, Es, nus)),
            hertz_effective_modulus(hertz_params(Es, nus, kE, kNu)));
  // rigid wall: the limit E_w -> inf, twice the same-material value
  EXPECT_LT(rel(effective_modulus(kE, kNu, 1e30, 0.3), effective_modulus_rigid_wall(kE, kNu)), 1e-15);
  EXPECT_DOUBLE_EQ(effective_modulus_rigid_wall(kE, kNu), 2.0 * ebar_ref());
  // R_w = m_w = inf: Rbar = R_i, mbar = m_i
  EXPECT_EQ(effective_radius(kR, kInf), kR);
  EXPECT_EQ(effective_mass(2.0, kInf), 2.0);
  EXPECT_DOUBLE_EQ(effective_radius(1.0, 2.0), 2.0 / 3.0);
}

TEST(NormalDampingKernel, HertzHalfOverlapConventionOfJaegerGivesTheSameForce)
{
  // jaeger.hpp: N = C_H (delta/2)^{3/2}, C_H = (4/3) E/(1-nu^2) sqrt(R), R = 2 Rbar.
  const JaegerMaterial jm = jaeger_material(kE, kNu, 0.3, 0.0, 0);
  for (double R1 : {1e-3, 2.5e-4}) {
    for (double R2 : {1e-3, 4e-3}) {
      const double Rbar = effective_radius(R1, R2);
      const double C_H = jaeger_hertz_constant(jm, 2.0 * Rbar);
      const double K = hertz_constant(effective_modulus(kE, kNu, kE, kNu), Rbar);
      EXPECT_LT(rel(hertz_constant_from_half_overlap(C_H), K), 4e-16);
      EXPECT_LT(rel(half_overlap_constant_from_hertz(K), C_H), 4e-16);
      for (double delta : {1e-9, 1e-6, 3e-5}) {
        const double N_jaeger = C_H * std::pow(0.5 * delta, 1.5);
        EXPECT_LT(rel(hertz_force(K, delta), N_jaeger), 1e-15);
      }
    }
  }
  EXPECT_EQ(hertz_force(1.0, 0.0), 0.0);
  EXPECT_EQ(hertz_force(1.0, -1e-6), 0.0);
  EXPECT_EQ(hooke_force({2.0}, -1.0), 0.0);
  EXPECT_EQ(hooke_force({2.0}, 3.0), 6.0);
}

// ================================================================================================
// HLS: the force law and its state, driven directly, with the reload path (notes: Catalogue
// corrections)

TEST(NormalDampingKernel, HlsLoadUnloadReloadFollowsWaltonBraun)
{
  const double kL = 1e6, kU = 4e6;    // e = 0.5
  const HlsParams p = hls_constant(kL, kU);
  ASSERT_EQ(validate(p), nullptr);
  double dmax = 0.0;
  // virgin loading
  EXPECT_EQ(hls_step(p, 1e-6, dmax), kL * 1e-6);
  EXPECT_EQ(hls_step(p, 2e-6, dmax), kL * 2e-6);
  EXPECT_EQ(dmax, 2e-6);
  const double d0 = hls_residual_overlap(p, dmax);
  EXPECT_DOUBLE_EQ(d0, 2e-6 * (1.0 - kL / kU));    // 1.5e-6
  // unload to half of F_max: on the unloading line
  const double Fmax = kL * 2e-6;
  const double d_half = d0 + 0.5 * Fmax / kU;
  EXPECT_NEAR(hls_step(p, d_half, dmax), 0.5 * Fmax, 1e-15 * Fmax);
  // re-approach: back up the unloading line, no jump to k_L delta
  const double d_re = d_half + 0.1e-6;
  EXPECT_NEAR(hls_step(p, d_re, dmax), kU * (d_re - d0), 1e-15 * Fmax);
  EXPECT_LT(hls_step(p, d_re, dmax), kL * d_re);
  // meets the virgin line exactly at delta_max, then continues on it and delta_max grows
  EXPECT_NEAR(hls_step(p, 2e-6, dmax), Fmax, 1e-15 * Fmax);
  EXPECT_EQ(hls_step(p, 3e-6, dmax), kL * 3e-6);
  EXPECT_EQ(dmax, 3e-6);
  // full unloading: F = 0 below delta_0 while still overlapping; the state is kept
  const double d0b = hls_residual_overlap(p, dmax);
  EXPECT_EQ(hls_step(p, 0.5 * d0b, dmax), 0.0);
  EXPECT_EQ(dmax, 3e-6);
  // re-approach after full unloading: still the old unloading line
  EXPECT_NEAR(hls_step(p, d0b + 1e-7, dmax), kU * 1e-7, 1e-9 * kU * 1e-7);
  // geometric contact lost: the residual deformation is forgotten
  EXPECT_EQ(hls_step(p, -1e-9, dmax), 0.0);
  EXPECT_EQ(dmax, 0.0);
  EXPECT_EQ(hls_step(p, 1e-6, dmax), kL * 1e-6);
  // read-only evaluation takes max(state, delta) and leaves the state alone
  double frozen = 1e-6;
  EXPECT_EQ(hls_force(p, 2e-6, frozen), kL * 2e-6);
  EXPECT_EQ(frozen, 1e-6);
  double st[1] = {1e-6};
  EXPECT_EQ(normal_elastic({NORMAL_HLS, {}, 0.0, p}, 0.5e-6, 1.0, st, false).F_el, hls_force(p, 0.5e-6, 1e-6));
  EXPECT_EQ(st[0], 1e-6);
  EXPECT_EQ(normal_state_size(NORMAL_HLS), 1);
  EXPECT_EQ(normal_state_size(NORMAL_HERTZ), 0);
}

TEST(NormalDampingKernel, HlsInputFormsAreOneLaw)
{
  const double kL = kn_ref(), e = 0.9;
  const HlsParams a = hls_from_restitution(kL, e), b = hls_constant(kL, kL / (e * e));
  EXPECT_LT(rel(a.kU0, 1.56678171e6), 1e-8);    // k_L/e_n^2 of the reference set
  for (double d : {1e-7, 1e-6, 2e-6}) {
    double s1 = 2e-6, s2 = 2e-6;
    EXPECT_EQ(hls_step(a, d, s1), hls_step(b, d, s2));
  }
  // e_n = 1 and S = 0 are elastic: unloading retraces loading, no residual overlap
  for (const HlsParams &p : {hls_from_restitution(kL, 1.0), hls_variable(kL, 0.0)}) {
    double s = 0.0;
    hls_step(p, 2e-6, s);
    EXPECT_EQ(hls_residual_overlap(p, s), 0.0);
    EXPECT_EQ(hls_step(p, 1e-6, s), kL * 1e-6);
  }
  // variable: K_U = kL + S F_max (1.52687131e6 N/m at F_max = 2.57778129 N)
  const HlsParams v = hls_variable(kL, 1e5);
  const double dmax = kV0 * std::sqrt(mbar_ref() / kL);
  EXPECT_LT(rel(kL * dmax, 2.57778129), 1e-8);
  EXPECT_LT(rel(hls_unloading_stiffness(v, dmax), 1.52687131e6), 1e-8);
}

// ================================================================================================
// Head-on collisions (notes: Catalogue checks)

TEST(NormalDampingKernel, HertzUndampedCollision)
{
  const double mb = mbar_ref(), Rb = rbar_ref(), Eb = ebar_ref(), v0 = kV0;
  // closed forms ([erratum] in [R]: Ebar sqrt(Rbar), not sqrt(Rbar Ebar), under mbar)
  const double dmax = std::pow(15.0 * mb * v0 * v0 / (16.0 * Eb * std::sqrt(Rb)), 0.4);
  const double integral = 0.4 * std::tgamma(0.4) * std::tgamma(0.5) / std::tgamma(0.9);
  const double Tc = 2.0 * integral * dmax / v0;
  const double constant = Tc / std::pow(mb * mb / (Rb * Eb * Eb * v0), 0.2);
  EXPECT_NEAR(constant, 2.8683, 5e-5);    // [R] prints 2.86 / 2.870: roundings of 2.868266
  EXPECT_NEAR(2.0 * integral, 2.94328, 5e-6);
  EXPECT_LT(rel(dmax, 2.03121199e-6), 5e-9);
  EXPECT_LT(rel(Tc, 5.97841584e-6), 5e-9);
  EXPECT_LT(rel(khz_ref() * std::pow(dmax, 1.5), 3.222207), 2e-7);
  // [erratum] [R]'s delta_max with sqrt(Rbar Ebar) under mbar is not a length: numerically it is
  // off by orders of magnitude from the integrated peak checked below
  const double dmax_printed = std::pow(15.0 * mb * v0 * v0 / (16.0 * std::sqrt(Rb * Eb)), 0.4);
  EXPECT_GT(rel(dmax_printed, dmax), 10.0);
  // [R]'s stiffness recipes for the linear spring (e = 1, f = 1): the strain-energy
  // k_n = (16/15)^{4/5} X reproduces delta_max exactly, the time-matched k_n = (pi/2.8683)^2 X
  // reproduces T_c
  const double X = x_group();
  EXPECT_LT(rel(v0 * std::sqrt(mb / (std::pow(16.0 / 15.0, 0.8) * X)), dmax), 1e-14);
  EXPECT_LT(rel(kPi * std::sqrt(mb / (kPi * kPi / (constant * constant) * X)), Tc), 1e-14);
  EXPECT_NEAR(kPi * kPi / (constant * constant), 1.1997, 5e-5);    // [R] prints 1.198

  const Runs r = collide3(hertz_model(damping_none()), reference_pair(), v0, Tc / 1000);
  const Convergence T = r.of([](const Collision &c) { return c.t_sep; });
  const Convergence D = r.of([](const Collision &c) { return c.delta_max; });
  const Convergence E = r.of([](const Collision &c) { return c.e; });
  const Convergence F = r.of([](const Collision &c) { return c.F_max; });
  EXPECT_ORDER(T, Tc, 2);
  EXPECT_ORDER(D, dmax, 2);
  EXPECT_ORDER(F, khz_ref() * std::pow(dmax, 1.5), 2);
  // dt = Tc/4000: well within 1e-4 on T_c and delta_max
  EXPECT_LT(rel(T.q[2], Tc), 1e-6);
  EXPECT_LT(rel(D.q[2], dmax), 1e-6);
  EXPECT_LT(rel(F.q[2], 3.222207), 1e-6);
  EXPECT_LT(rel(T.richardson(2), Tc), 1e-9);
  EXPECT_LT(rel(D.richardson(2), dmax), 1e-9);
  // velocity Verlet with a conservative force: elastic rebound to O(dt^2)
  EXPECT_LT(std::fabs(E.q[2] - 1.0), 1e-6);
  EXPECT_LT(std::fabs(E.q[2] - 1.0), std::fabs(E.q[0] - 1.0));
  // scaling with the impact speed: T_c ~ v0^{-1/5}
  const Collision slow = collide(hertz_model(damping_none()), reference_pair(), 0.1, Tc / 4000);
  EXPECT_LT(rel(slow.t_sep, Tc * std::pow(10.0, 0.2)), 1e-6);
}

TEST(NormalDampingKernel, LsdElasticCollision)
{
  const double mb = mbar_ref(), kn = kn_ref();
  const double Tc = kPi * std::sqrt(mb / kn), dmax = kV0 * std::sqrt(mb / kn);
  EXPECT_LT(rel(Tc, 6.38120105e-6), 5e-9);
  EXPECT_LT(rel(dmax, 2.03119938e-6), 5e-9);
  for (const DampingParams &d : {damping_none(), damping_restitution(1.0), damping_viscous(0.0)}) {
    const Runs r = collide3(hooke_model(kn, d), reference_pair(), kV0, Tc / 1000);
    const Convergence T = r.of([](const Collision &c) { return c.t_sep; });
    const Convergence D = r.of([](const Collision &c) { return c.delta_max; });
    EXPECT_ORDER(T, Tc, 2);
    EXPECT_ORDER(D, dmax, 2);
    EXPECT_LT(rel(T.q[2], Tc), 1e-6);
    EXPECT_LT(rel(D.q[2], dmax), 1e-6);
    EXPECT_LT(std::fabs(r.c[2].e - 1.0), 1e-6);
  }
  EXPECT_EQ(restitution_alpha(1.0), 0.0);
}

TEST(NormalDampingKernel, LsdRestitutionCollision)
{
  const double mb = mbar_ref(), kn = kn_ref(), e = 0.9;
  const DampingParams d = damping_restitution(e);
  // closed forms of the linear spring-dashpot (`restitution`)
  const double eta = restitution_eta(d.alpha, mb, kn);
  EXPECT_LT(rel(eta, 0.172806462), 5e-9);
  const double psi = eta / (2 * mb), W = std::sqrt(kn / mb - psi * psi);
  const double Tc = kPi / W, beta = kPi / std::log(e);
  const double dmax = kV0 * std::sqrt(mb / kn) * std::exp(-std::atan(beta) / beta);
  EXPECT_LT(rel(Tc, 6.38478867e-6), 5e-9);
  EXPECT_LT(rel(dmax, 1.92913269e-6), 5e-9);
  EXPECT_LT(rel(std::exp(-psi * Tc), e), 1e-14);
  // the delta_max formula is the maximum of (v0/W) exp(-psi t) sin(W t)
  const double tm = std::atan(W / psi) / W;
  EXPECT_LT(rel(kV0 / W * std::exp(-psi * tm) * std::sin(W * tm), dmax), 1e-14);

  const Runs r = collide3(hooke_model(kn, d), reference_pair(), kV0, Tc / 2000);
  const Convergence T = r.of([](const Collision &c) { return c.t_sep; });
  const Convergence D = r.of([](const Collision &c) { return c.delta_max; });
  const Convergence E = r.of([](const Collision &c) { return c.e; });
  // the dashpot sees the half-step velocity: first order (notes: Catalogue checks)
  EXPECT_ORDER(E, e, 1);
  EXPECT_ORDER(D, dmax, 1);
  // the tolerance of notes: Catalogue checks at dt = Tc/2000: 1e-3 on e, 1e-4 on T_c, delta_max
  EXPECT_LT(rel(E.q[0], e), 1e-3);
  EXPECT_LT(rel(T.q[0], Tc), 1e-4);
  EXPECT_LT(rel(D.q[0], dmax), 1e-4);
  EXPECT_LT(rel(E.richardson(1), e), 2e-6);
  EXPECT_LT(rel(D.richardson(1), dmax), 2e-6);
  EXPECT_ORDER(T, Tc, 1);
  EXPECT_LT(rel(T.richardson(1), Tc), 2e-6);
  // the dashpot pulls at the end of the rebound: the total force vanishes before separation
  EXPECT_GT(r.c[2].t_force_zero, 0.0);
  EXPECT_LT(r.c[2].t_force_zero, r.c[2].t_sep);
}

TEST(NormalDampingKernel, LsdRestitutionWithLimitDamping)
{
  const double mb = mbar_ref(), kn = kn_ref(), e = 0.9;
  const DampingParams d = damping_restitution(e);
  const double eta = restitution_eta(d.alpha, mb, kn);
  const double psi = eta / (2 * mb), W = std::sqrt(kn / mb - psi * psi);
  // closed form: kn delta + eta delta_dot = 0 at W t0 = atan2(-eta W, kn - eta psi) + pi
  const double t0 = (std::atan2(-eta * W, kn - eta * psi) + kPi) / W;
  const double d_t0 = kV0 / W * std::exp(-psi * t0) * std::sin(W * t0);
  const double v_t0 = kV0 / W * std::exp(-psi * t0) * (W * std::cos(W * t0) - psi * std::sin(W * t0));
  EXPECT_LT(rel(t0, 6.24852129e-6), 5e-9);
  EXPECT_LT(rel(d_t0, 1.22824656e-7), 5e-8);
  EXPECT_LT(rel(-v_t0, 0.90202607), 5e-9);
  EXPECT_LT(rel(t0 + d_t0 / (-v_t0), 6.38468659e-6), 5e-9);

  const Runs r = collide3(hooke_model(kn, d, true), reference_pair(), kV0, t0 / 2000);
  const Convergence E = r.of([](const Collision &c) { return c.e; });
  const Convergence T0 = r.of([](const Collision &c) { return c.t_force_zero; });
  const Convergence D0 = r.of([](const Collision &c) { return c.delta_force_zero; });
  const Convergence TS = r.of([](const Collision &c) { return c.t_sep; });
  EXPECT_ORDER(E, 0.90202607, 1);
  EXPECT_LT(rel(E.q[0], 0.90202607), 1e-3);
  EXPECT_LT(rel(E.richardson(1), 0.90202607), 2e-6);
  EXPECT_LT(rel(T0.richardson(1), 6.24852129e-6), 2e-6);
  EXPECT_LT(rel(D0.richardson(1), 1.22824656e-7), 2e-6);
  EXPECT_LT(rel(TS.richardson(1), 6.38468659e-6), 2e-6);
  // the rebound is larger than without the clamp
  EXPECT_GT(E.richardson(1), 0.9);
}

TEST(NormalDampingKernel, LsdRestitutionIsPerContactInAPolydispersePair)
{
  // R_j = 2 R_i (m_j = 8 m_i): eta_n from this contact's mbar keeps e = 0.9
  const Pair pr{sphere_mass(kR), sphere_mass(2 * kR), kR, 2 * kR};
  const double mb = effective_mass(pr.m_i, pr.m_j), kn = kn_ref(), e = 0.9;
  const DampingParams d = damping_restitution(e);
  const double eta = restitution_eta(d.alpha, mb, kn);
  const double Tc = kPi / std::sqrt(kn / mb - eta * eta / (4 * mb * mb));
  const Runs r = collide3(hooke_model(kn, d), pr, kV0, Tc / 2000);
  const Convergence E = r.of([](const Collision &c) { return c.e; });
  EXPECT_ORDER(E, e, 1);
  EXPECT_LT(rel(E.richardson(1), e), 2e-6);
  const Convergence T = r.of([](const Collision &c) { return c.t_sep; });
  EXPECT_ORDER(T, Tc, 1);
  EXPECT_LT(rel(T.richardson(1), Tc), 2e-6);
  // a constant eta fitted to the equal-sphere pair would give another restitution
  const Collision wrong = collide(hooke_model(kn, damping_viscous(restitution_eta(d.alpha, mbar_ref(), kn))), pr, kV0,
                                  Tc / 8000);
  EXPECT_GT(std::fabs(wrong.e - e), 0.01);
}

TEST(NormalDampingKernel, HlsConstantUnloadingCollision)
{
  const double mb = mbar_ref(), kL = kn_ref(), e = 0.9;
  const HlsParams p = hls_from_restitution(kL, e);
  const double eps = std::sqrt(kL / p.kU0);
  EXPECT_LT(rel(eps, e), 1e-15);
  // closed forms of the HLS collision ([R])
  const double Tc = 0.5 * kPi * std::sqrt(mb / kL) * (1 + eps);
  const double dmax = kV0 * std::sqrt(mb / kL), dres = dmax * (1 - eps * eps), Fmax = kV0 * std::sqrt(mb * kL);
  EXPECT_LT(rel(Tc, 6.06214100e-6), 5e-9);
  EXPECT_LT(rel(dres, 3.85927882e-7), 5e-9);
  EXPECT_LT(rel(Fmax, 2.57778129), 5e-9);
  // geometric separation: free flight over delta_res at the rebound speed
  const double tsep = Tc + dres / (eps * kV0);
  EXPECT_LT(rel(tsep, 6.49094976e-6), 5e-9);

  const Runs r = collide3(hls_model(p), reference_pair(), kV0, Tc / 1000);
  const Convergence TF = r.of([](const Collision &c) { return c.t_force_zero; });
  const Convergence DR = r.of([](const Collision &c) { return c.delta_force_zero; });
  const Convergence D = r.of([](const Collision &c) { return c.delta_max; });
  const Convergence F = r.of([](const Collision &c) { return c.F_max; });
  const Convergence E = r.of([](const Collision &c) { return c.e; });
  const Convergence TS = r.of([](const Collision &c) { return c.t_sep; });
  EXPECT_ORDER(TF, Tc, 2);
  EXPECT_ORDER(D, dmax, 2);
  // e and delta_res carry the O(dt^2) error of the two kinks of the force inside a step (the
  // switch to the unloading line at delta_max, the stop at F = 0), whose coefficient depends on
  // where in the step the kink falls: second order, but not monotone (measured: 8.5e-8, -4.5e-9,
  // 7.7e-9 at Tc/1000, /2000, /4000). Assert the second-order bound |err| <= (dt/Tc)^2 instead.
  for (int k = 0; k < 3; ++k) {
    const double h = 1.0 / (1000 << k);
    EXPECT_LT(rel(E.q[k], e), h * h) << k;
    EXPECT_LT(rel(DR.q[k], dres), h * h) << k;
  }
  EXPECT_LT(rel(TF.q[2], Tc), 1e-6);
  EXPECT_LT(rel(DR.q[2], dres), 1e-6);
  EXPECT_LT(rel(D.q[2], dmax), 1e-6);
  EXPECT_LT(rel(F.q[2], Fmax), 1e-6);
  EXPECT_LT(rel(E.q[2], e), 1e-6);
  EXPECT_LT(rel(TS.q[2], tsep), 1e-6);
  // the stored delta_max equals the peak overlap until the contact is lost, then it is forgotten
  EXPECT_LT(rel(r.c[2].state_at_sep, dmax), 1e-6);
  EXPECT_EQ(r.c[2].state_after, 0.0);
}

TEST(NormalDampingKernel, HlsVariableUnloadingCollision)
{
  const double mb = mbar_ref(), kL = kn_ref(), S = 1e5;
  const HlsParams p = hls_variable(kL, S);
  const double eps = 1.0 / std::sqrt(1.0 + S * kV0 * std::sqrt(mb / kL));
  EXPECT_LT(rel(eps, 0.91168653), 5e-9);
  const double Tc = 0.5 * kPi * std::sqrt(mb / kL) * (1 + eps);
  const double dmax = kV0 * std::sqrt(mb / kL), dres = dmax * (1 - eps * eps);
  EXPECT_LT(rel(Tc, 6.09942804e-6), 5e-9);
  EXPECT_LT(rel(dres, 3.42922662e-7), 5e-9);
  EXPECT_LT(rel(Tc + dres / (eps * kV0), 6.47556902e-6), 5e-9);

  const Runs r = collide3(hls_model(p), reference_pair(), kV0, Tc / 1000);
  const Convergence E = r.of([](const Collision &c) { return c.e; });
  const Convergence TF = r.of([](const Collision &c) { return c.t_force_zero; });
  EXPECT_ORDER(TF, Tc, 2);
  for (int k = 0; k < 3; ++k) {    // kinks inside a step: second-order bound, see above
    const double h = 1.0 / (1000 << k);
    EXPECT_LT(rel(E.q[k], eps), h * h) << k;
  }
  EXPECT_LT(rel(TF.q[2], Tc), 1e-6);
  EXPECT_LT(rel(r.c[2].delta_force_zero, dres), 1e-6);
  EXPECT_LT(rel(r.c[2].t_sep, 6.47556902e-6), 1e-6);
  // K_U grows with the impact: a harder impact rebounds less elastically
  const Collision hard = collide(hls_model(p), reference_pair(), 2 * kV0, Tc / 4000);
  EXPECT_LT(rel(hard.e, 1.0 / std::sqrt(1.0 + S * 2 * kV0 * std::sqrt(mb / kL))), 1e-6);
  EXPECT_LT(hard.e, E.q[2]);
}

// Hertz + a dashpot in delta^{1/2} (bshp, kk) or delta^{1/4} (tsuji): T_sep and delta_max converge
// at clean first order (the half-step velocity), but the restitution does not: the dashpot's
// derivative is unbounded at delta -> 0 (onset and separation), its first-order coefficient is
// small, and the measured error alternates in sign with dt (e.g. tsuji Norouzi: +3.9e-6, -5.7e-6,
// -2.1e-6, +5e-8 at T/1000 .. T/8000). So e is asserted against the reference at a fine step,
// T/128000, where every measured error is below 1.3e-7, within 2e-7: the reference values are
// RK4 numbers quoted to 7-8 digits (that integration's own error on the LSD e is 1.6e-7), and at
// the step T/2000 within 1e-5 (notes: Catalogue checks allow 1e-3).
constexpr int kFine = 128000;

TEST(NormalDampingKernel, BshpAndKkCollision)
{
  const double A = 1e-7, eta_kk = khz_ref() * A;
  EXPECT_LT(rel(eta_kk, 111.306495), 5e-9);
  // bshp A == kk K_HZ A, force for force
  for (double delta : {1e-8, 1e-6}) {
    for (double rate : {-0.3, 0.7}) {
      EXPECT_LT(rel(bshp_damping_force(khz_ref(), A, delta, rate), kk_damping_force(eta_kk, delta, rate)), 1e-15);
    }
  }
  // [erratum] [R] prints (4/3) Ebar sqrt(Rbar Abar) (units Pa m s^{1/2}, not N s m^{-3/2}): its value
  // is far from K_HZ Abar, which is what gives the reference e = 0.9401463 below.
  EXPECT_GT(rel(4.0 / 3.0 * ebar_ref() * std::sqrt(rbar_ref() * A), eta_kk), 10.0);
  const double T = 6.0166656e-6;
  const Runs rb = collide3(hertz_model(damping_bshp(A)), reference_pair(), kV0, T / 4000);
  const Runs rk = collide3(hertz_model(damping_kk(eta_kk)), reference_pair(), kV0, T / 4000);
  for (int k = 0; k < 3; ++k) EXPECT_LT(std::fabs(rb.c[k].e - rk.c[k].e), 1e-12);
  const Convergence D = rb.of([](const Collision &c) { return c.delta_max; });
  const Convergence TS = rb.of([](const Collision &c) { return c.t_sep; });
  EXPECT_ORDER(D, 1.9822477e-6, 1);
  EXPECT_ORDER(TS, 6.0166656e-6, 1);
  EXPECT_LT(rel(D.richardson(1), 1.9822477e-6), 1e-7);
  EXPECT_LT(rel(TS.richardson(1), 6.0166656e-6), 1e-7);
  const Model m = hertz_model(damping_bshp(A));
  EXPECT_LT(rel(collide(m, reference_pair(), kV0, T / 2000).e, 0.9401463), 1e-5);
  EXPECT_LT(rel(collide(m, reference_pair(), kV0, T / kFine).e, 0.9401463), 2e-7);
  EXPECT_LT(rel(collide(hertz_model(damping_bshp(A), true), reference_pair(), kV0, T / kFine).e, 0.9403097), 2e-7);
}

TEST(NormalDampingKernel, KkRestitutionFallsWithImpactSpeed)
{
  // trend ([R]): the delta^{1/2} dashpot is velocity dependent, 1 - e grows with v0
  const Model m = hertz_model(damping_kk(111.306495));
  double e_prev = 1.0;
  for (double v0 : {0.25, 1.0, 4.0}) {
    const double T = 5.97841584e-6 * std::pow(v0, -0.2);
    const double e = collide(m, reference_pair(), v0, T / kFine).e;
    EXPECT_LT(e, e_prev - 1e-3) << "v0 " << v0;    // differences >> the 2e-7 accuracy
    EXPECT_GT(e, 0.8);
    e_prev = e;
  }
}

TEST(NormalDampingKernel, TsujiCollision)
{
  const double mb = mbar_ref(), K = khz_ref();
  // Norouzi correlation (`tsuji en`, notes: Catalogue corrections)
  const DampingParams d = damping_tsuji_en(0.9, false);
  EXPECT_LT(rel(d.alpha, 0.0749646), 2e-6);
  EXPECT_LT(rel(tsuji_eta(d.alpha, mb, K), 5.7228962), 2e-8);
  const double T = 6.0445997e-6;
  const Runs r = collide3(hertz_model(d), reference_pair(), kV0, T / 4000);
  const Convergence D = r.of([](const Collision &c) { return c.delta_max; });
  const Convergence TS = r.of([](const Collision &c) { return c.t_sep; });
  EXPECT_ORDER(D, 1.9491235e-6, 1);
  EXPECT_ORDER(TS, 6.0445997e-6, 1);
  EXPECT_LT(rel(D.richardson(1), 1.9491235e-6), 1e-7);
  EXPECT_LT(rel(TS.richardson(1), 6.0445997e-6), 1e-7);
  EXPECT_LT(rel(collide(hertz_model(d), reference_pair(), kV0, T / 2000).e, 0.8999810), 1e-5);
  const double e_fine = collide(hertz_model(d), reference_pair(), kV0, T / kFine).e;
  EXPECT_LT(rel(e_fine, 0.8999810), 2e-7);
  EXPECT_LT(rel(collide(hertz_model(d, true), reference_pair(), kV0, T / kFine).e, 0.9020078), 2e-7);

  // the eta form with the same eta is the same model
  const Collision ce = collide(hertz_model(damping_tsuji_eta(tsuji_eta(d.alpha, mb, K))), reference_pair(), kV0,
                               T / kFine);
  EXPECT_EQ(ce.e, e_fine);

  // comparator: LAMMPS `tsuji` polynomial alpha(0.9) = 0.0528981 gives e = 0.9283554, not 0.9
  const double t9 = 0.9;
  const double a_poly = 1.2728 - 4.2783 * t9 + 11.087 * t9 * t9 - 22.348 * std::pow(t9, 3) +
                        27.467 * std::pow(t9, 4) - 18.022 * std::pow(t9, 5) + 4.8218 * std::pow(t9, 6);
  EXPECT_NEAR(a_poly, 0.0528981, 1e-7);
  const Model mp = hertz_model(damping_tsuji_eta(a_poly * std::sqrt(mb * K)));
  EXPECT_LT(rel(collide(mp, reference_pair(), kV0, T / kFine).e, 0.9283554), 2e-7);
  EXPECT_LT(rel(collide(hertz_model(damping_tsuji_eta(a_poly * std::sqrt(mb * K)), true), reference_pair(), kV0,
                        T / kFine).e, 0.9293954), 2e-7);
  // the sqrt(5) form hits the target (reference: 0.9000000, clamped 0.9020261)
  EXPECT_LT(rel(collide(hertz_model(damping_tsuji_en(0.9, true)), reference_pair(), kV0, T / kFine).e, 0.9), 2e-7);
  EXPECT_LT(rel(collide(hertz_model(damping_tsuji_en(0.9, true), true), reference_pair(), kV0, T / kFine).e,
                0.9020261), 2e-7);
}

TEST(NormalDampingKernel, TsujiRestitutionIsIndependentOfImpactSpeedAndExactFormHitsTarget)
{
  // The sqrt(5) form ("tsuji en <e> exact") matches the target to better than 1e-4 over
  // 0.5 <= e <= 0.95; Norouzi gives 0.4997 for 0.5.
  for (double target : {0.5, 0.6, 0.7, 0.8, 0.9, 0.95}) {
    const double e = collide(hertz_model(damping_tsuji_en(target, true)), reference_pair(), kV0, 7e-6 / kFine).e;
    EXPECT_LT(std::fabs(e - target), 1e-4) << "target " << target;
  }
  EXPECT_NEAR(collide(hertz_model(damping_tsuji_en(0.5, false)), reference_pair(), kV0, 7e-6 / kFine).e, 0.4997,
              5e-5);
  // velocity independence of the Hertz + delta^{1/4} oscillator (the TTI property)
  const Model m = hertz_model(damping_tsuji_en(0.9, false));
  const double e1 = collide(m, reference_pair(), 1.0, 6.0445997e-6 / kFine).e;
  for (double v0 : {0.01, 0.1, 10.0}) {
    const double T = 6.0445997e-6 * std::pow(v0, -0.2);
    EXPECT_LT(std::fabs(collide(m, reference_pair(), v0, T / kFine).e - e1), 4e-7) << "v0 " << v0;
  }
}

// ================================================================================================
// Dashpot forms, clamp, combinations and validation

TEST(NormalDampingKernel, DashpotFormsAndClamp)
{
  const DampingInput in{4e-6, -0.5, 2e-6, 3e5, 1e9};
  EXPECT_EQ(damping_force(damping_none(), in), 0.0);
  EXPECT_EQ(damping_force(damping_viscous(0.2), in), 0.2 * -0.5);
  EXPECT_DOUBLE_EQ(damping_force(damping_restitution(0.9), in),
                   restitution_alpha(0.9) * std::sqrt(2e-6 * 3e5) * -0.5);
  EXPECT_DOUBLE_EQ(damping_force(damping_bshp(1e-7), in), 1e9 * 1e-7 * 2e-3 * -0.5);
  EXPECT_DOUBLE_EQ(damping_force(damping_kk(100.0), in), 100.0 * 2e-3 * -0.5);
  EXPECT_DOUBLE_EQ(damping_force(damping_tsuji_eta(5.0), in), 5.0 * std::pow(4e-6, 0.25) * -0.5);
  EXPECT_DOUBLE_EQ(damping_force(damping_tsuji_en(0.9, false), in),
                   tsuji_alpha_norouzi(0.9) * std::sqrt(2e-6 * 1e9) * std::pow(4e-6, 0.25) * -0.5);
  // no overlap: no dashpot
  DampingInput out = in;
  out.delta = 0.0;
  for (const DampingParams &p : {damping_viscous(0.2), damping_restitution(0.9), damping_bshp(1e-7), damping_kk(1.0),
                                 damping_tsuji_en(0.9, true)})
    EXPECT_EQ(damping_force(p, out), 0.0);
  EXPECT_DOUBLE_EQ(bshp_mixed_A(1e-7, 3e-7), 2e-7);
  // clamp: F_n^c = max(F_el + F_vis, 0); applied force attracts only without limit_damping
  EXPECT_EQ(normal_force_compressive(1.0, -3.0), 0.0);
  EXPECT_EQ(normal_force_compressive(1.0, 0.5), 1.5);
  EXPECT_EQ(normal_force_applied(1.0, -3.0, true), 0.0);
  EXPECT_EQ(normal_force_applied(1.0, -3.0, false), -2.0);
  EXPECT_EQ(normal_force_applied(1.0, 0.5, true), 1.5);
}

TEST(NormalDampingKernel, RejectedCombinations)
{
  EXPECT_EQ(validate_combination(NORMAL_HOOKE, DAMPING_RESTITUTION), nullptr);
  EXPECT_EQ(validate_combination(NORMAL_HOOKE, DAMPING_VISCOUS), nullptr);
  EXPECT_EQ(validate_combination(NORMAL_HERTZ, DAMPING_VISCOUS), nullptr);
  EXPECT_EQ(validate_combination(NORMAL_HLS, DAMPING_NONE), nullptr);
  for (DampingModel d : {DAMPING_BSHP, DAMPING_KK, DAMPING_TSUJI}) {
    EXPECT_EQ(validate_combination(NORMAL_HERTZ, d), nullptr);
    EXPECT_NE(validate_combination(NORMAL_HOOKE, d), nullptr);
  }
  EXPECT_NE(validate_combination(NORMAL_HERTZ, DAMPING_RESTITUTION), nullptr);
  for (DampingModel d : {DAMPING_VISCOUS, DAMPING_RESTITUTION, DAMPING_BSHP, DAMPING_KK, DAMPING_TSUJI})
    EXPECT_NE(validate_combination(NORMAL_HLS, d), nullptr);
}

TEST(NormalDampingKernel, ValidationRejectsBadParameters)
{
  auto bad = [](const char *msg, const char *word) {
    ASSERT_NE(msg, nullptr);
    EXPECT_NE(std::strstr(msg, word), nullptr) << msg;
  };
  // hooke
  EXPECT_EQ(validate(HookeParams{1.0}), nullptr);
  for (double kn : {0.0, -1.0, kNaN, kInf}) bad(validate(HookeParams{kn}), "kn");
  // hertz
  EXPECT_EQ(validate(hertz_params(kE, kNu)), nullptr);
  EXPECT_EQ(validate(hertz_params(kE, 0.5)), nullptr);
  EXPECT_EQ(validate(hertz_params(kE, -0.5)), nullptr);
  EXPECT_NE(hertz_warning(hertz_params(kE, -0.5)), nullptr);
  EXPECT_EQ(hertz_warning(hertz_params(kE, kNu)), nullptr);
  for (double E : {0.0, -1.0, kNaN, kInf}) {
    bad(validate(hertz_params(E, kNu)), "E");
    bad(validate(hertz_params(kE, kNu, E, kNu)), "E (of J)");
  }
  for (double nu : {-1.0, -1.5, 0.5000001, kNaN, kInf}) {
    bad(validate(hertz_params(kE, nu)), "nu");
    bad(validate(hertz_params(kE, kNu, kE, nu)), "nu (of J)");
  }
  // hls
  EXPECT_EQ(validate_hls_restitution(1e6, 1.0), nullptr);
  EXPECT_EQ(validate_hls_constant(1e6, 1e6), nullptr);
  EXPECT_EQ(validate_hls_variable(1e6, 0.0), nullptr);
  for (double kL : {0.0, -1.0, kNaN, kInf}) {
    bad(validate_hls_restitution(kL, 0.9), "kL");
    bad(validate_hls_constant(kL, 2e6), "kL");
    bad(validate_hls_variable(kL, 1.0), "kL");
    bad(validate(HlsParams{kL, 2e6, 0.0}), "kL");
  }
  for (double e : {0.0, -0.1, 1.0000001, kNaN, kInf}) bad(validate_hls_restitution(1e6, e), "e_n");
  for (double kU : {0.999e6, kNaN, kInf}) bad(validate_hls_constant(1e6, kU), "kU");
  for (double S : {-1e-9, kNaN, kInf}) bad(validate_hls_variable(1e6, S), "S");
  bad(validate(HlsParams{1e6, 0.5e6, 0.0}), "kU");
  bad(validate(HlsParams{1e6, 2e6, -1.0}), "S");
  // damping
  EXPECT_EQ(validate(damping_none()), nullptr);
  EXPECT_EQ(validate_damping_viscous(0.0), nullptr);
  EXPECT_EQ(validate_damping_restitution(1.0), nullptr);
  EXPECT_EQ(validate_damping_tsuji_en(1.0), nullptr);
  for (double x : {-1e-12, kNaN, kInf}) {
    bad(validate_damping_viscous(x), "eta_n");
    bad(validate_damping_bshp(x), "A");
    bad(validate_damping_kk(x), "eta_n");
    bad(validate_damping_tsuji_eta(x), "eta_n");
    bad(validate(damping_viscous(x)), "eta_n");
    bad(validate(damping_bshp(x)), "A");
    bad(validate(damping_kk(x)), "eta_n");
    bad(validate(damping_tsuji_eta(x)), "eta_n");
  }
  // e_n = 0 rejected: the critically damped LSD never returns to delta = 0
  for (double e : {0.0, -0.5, 1.5, kNaN, kInf}) {
    bad(validate_damping_restitution(e), "e_n");
    bad(validate_damping_tsuji_en(e), "e_n");
    bad(validate(damping_restitution(e)), "e_n");
    bad(validate(damping_tsuji_en(e, false)), "e_n");
  }
  EXPECT_EQ(validate(damping_restitution(0.9)), nullptr);
  EXPECT_EQ(validate(damping_tsuji_en(0.9, true)), nullptr);
  // the dispatcher
  NormalParams np;
  np.model = NORMAL_HERTZ;
  np.Ebar = 0.0;
  bad(validate(np), "hertz");
  np.Ebar = ebar_ref();
  EXPECT_EQ(validate(np), nullptr);
}
