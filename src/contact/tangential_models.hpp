// Catalogue tangential models T1-T10 (Rangel's "DEM contact force models", [R] below; the
// project's conventions and corrections to it are in doc/design_notes.md, cited as
// "notes: <section>", which also explains the marks [ours], [erratum] and [differs]).
//
//   T1 sliding          F_t = -mu F_n^c v^_t                          ([R] section 4.2)
//   T2 viscous          F_t = -eta_t v_t (no cap)
//   T3 viscous_sliding  F_t = -min(eta_t |v_t|, mu F_n^c) v^_t
//   T4 spring_sliding   Cundall-Strack spring-slider, always truncating ([ours])
//   T5 spring_dashpot   spring-dashpot-slider, truncation only with `maw`, eta_t or Deen's e_t
//   T6 dd               Di Renzo & Di Maio: K_t = (16/3) Gbar sqrt(Rbar delta), truncating
//   T7 lth              Langston, Tuezuen & Heyes, nonlinear elastic + viscous part
//   T8 zzy              Zheng, Zhu & Yu: LTH elastic part, relaxation-time viscous part
//   T9 tti              Tsuji, Tanaka & Ishida: K_t = 8 Gbar sqrt(Rbar delta) ([erratum] form),
//                       dashpot eta_t delta^{1/4} v_t, truncating
//   T10 walton_braun    incrementally slipping friction with turning points ([erratum] form)
//   coulomb             exact Coulomb friction as a constraint (Sakamaki et al. 2021):
//                       the pair applies no tangential force; the friction is solved after all
//                       other forces (coulomb_constraint.hpp). Its state is that solver's.
//
// Conventions (notes: Catalogue conventions): n = unit normal from j to i; v_t = tangential
// velocity of i's material point relative to j's at the contact; F_t is the force on i
// (F_j = -F_i); F_n^c = max(F_n^el + F_n^vis, 0) is the normal force of every cap (see
// cap_normal_force()).
//
// Per-contact state: a fixed number of doubles the caller stores, all zero = fresh contact
// (notes: Catalogue conventions); the caller zeroes it when the geometric contact is lost.
//   T1-T3 : 0 doubles.
//   T4-T9 : [0..2] xi, the tangential spring vector: the accumulated tangential
//           displacement of i relative to j, F_el = -K_t xi. ODD under i <-> j (factor -1).
//   T10   : [0..2] T, the tangential force on i (ODD, factor -1); [3] T*, turning-point force
//           measured along the current extension direction; [4] s, sense (+1 loading, -1
//           unloading, 0 = unset, read as +1); [5] N_prev, the cap normal force of the last
//           step. [3..5] are EVEN (factor +1).
//   coulomb: [0..2] the friction force on i applied in the last step (ODD); [3] F_n^c of this
//           step, the cap's normal force, written by the caller; [4] 1 if the last step slid;
//           [5] 1 once the friction solver has set [0..2]. [3..5] are EVEN.
// tangential_transfer_factor() returns these factors for LAMMPS's transfer_history_factor.
//
// Frame update of the stored vectors ([ours]: LAMMPS's projection preceded by a rotation): the
// stored vector is first rotated by the mean rotation of the pair, (omega_i + omega_j)/2 dt,
// with the exact Rodrigues rotation of vec3.hpp, and then put into the current tangent plane
// keeping its length (LAMMPS's "rotate and rescale"). For a rigid-body motion
// of the pair the rotation alone already carries the vector into the new plane, so the stored
// vector is co-rotated exactly (objectivity: the tests show <= 1e-14 over 1000 steps); for the
// non-rigid part of the motion (relative rolling) it is that projection. This is the idea
// of linear_frictional.hpp's update_frame (an exact rotation, then onto the actual normal), in
// the form that needs no stored old normal, so the state sizes above (3 and 6 doubles) hold.
// With a zero mean rotation it is LAMMPS's projection exactly.
//
// Header-only, no allocation, no virtual calls, no LAMMPS: callable from host and device code.
#pragma once

#include "contact/vec3.hpp"

namespace ge {

enum class TangentialModel : int {
  Sliding = 1,           // T1
  Viscous = 2,           // T2
  ViscousSliding = 3,    // T3
  SpringSliding = 4,     // T4
  SpringDashpot = 5,     // T5
  DD = 6,                // T6
  LTH = 7,               // T7
  ZZY = 8,               // T8
  TTI = 9,               // T9
  WaltonBraun = 10,      // T10
  Coulomb = 11           // exact Coulomb friction as a constraint (coulomb_constraint.hpp)
};

// Parameters of one pair of types. Which model reads what:
//   mu    : all but T2 (friction coefficient, dimensionless)
//   kt    : T4, T5 (K_t, force/length); T10 (K_t0, the initial stiffness)
//   eta_t : T2, T3, T5, T6 (force*time/length); T7 (dimensionless fraction of critical);
//           T8 (eta, Pa*s); T9 (kg m^-1/4 s^-1; the caller passes the `tsuji` eta_n when the
//           `eta` option is absent, notes: Catalogue corrections)
//   use_et, e_t : T5 with `et <e_t>`: eta_t from Deen's tangential restitution, per contact
//   maw   : T5 truncation (Maw et al.'s limited spring)
struct TangentialParams {
  TangentialModel model = TangentialModel::Sliding;
  double mu = 0.0;
  double kt = 0.0;
  double eta_t = 0.0;
  double e_t = 0.0;
  bool use_et = false;
  bool maw = false;
};

// One step of one contact as the tangential model sees it.
struct TangentialStep {
  Vec3 normal{0, 0, 1};           // unit normal at the end of the step (j -> i)
  Vec3 mean_rotation{0, 0, 0};    // (omega_i + omega_j)/2 * dt, rotation vector of the step
  Vec3 du{0, 0, 0};               // v_t dt: tangential displacement of i relative to j
  Vec3 vt{0, 0, 0};               // tangential relative velocity v_t (dashpots, T1-T3)
  double fn = 0.0;                // F_n^c; a negative value is read as 0
  // effective quantities (notes: Catalogue conventions), only for the models that need them:
  double overlap = 0.0;           // delta_n > 0 (T6-T9)
  double sqrt_overlap = -1.0;     // sqrt(overlap) where the caller has it (T9), < 0: not known
  double rbar = 0.0;              // Rbar (T6, T9)
  double mbar = 0.0;              // mbar (T5 et, T7)
  double gbar = 0.0;              // Gbar (T6, T8, T9)
  double nubar = 0.0;             // nubar = (nu_i + nu_j)/2 (T7, T8)
};

struct TangentialResult {
  Vec3 ft{0, 0, 0};     // tangential force on i
  bool sliding = false; // the Coulomb limit is active (see each model for the precise meaning)
};

// State sizes (doubles) and layout, see the header comment.
enum TangentialStateIndex : int {
  TS_XI = 0,          // T4-T9: spring vector xi (3, odd)
  TS_WB_T = 0,        // T10: force T (3, odd)
  TS_WB_TSTAR = 3,    // T10: turning-point force T* (even)
  TS_WB_SENSE = 4,    // T10: sense s (even)
  TS_WB_NPREV = 5,    // T10: previous cap normal force (even)
  TS_CF_FORCE = 0,    // coulomb: friction force on i (3, odd)
  TS_CF_FN = 3,       // coulomb: F_n^c of the current step (even)
  TS_CF_SLIDING = 4,  // coulomb: 1 if the last solve slid (even)
  TS_CF_SOLVED = 5,   // coulomb: 1 once the solver has set the force (even)
  TANGENTIAL_STATE_MAX = 6
};

GE_INLINE constexpr int tangential_state_size(TangentialModel m)
{
  return (m == TangentialModel::WaltonBraun || m == TangentialModel::Coulomb) ? 6
       : (m == TangentialModel::Sliding || m == TangentialModel::Viscous ||
          m == TangentialModel::ViscousSliding) ? 0 : 3;
}

// Partner-copy factor of state entry k (notes: Catalogue conventions): vectors -1, scalars +1.
GE_INLINE constexpr double tangential_transfer_factor(TangentialModel m, int k)
{
  return (k < 3 && tangential_state_size(m) > 0) ? -1.0 : 1.0;
}

// The normal force used by every cap: the compressive part of the total normal force.
// [differs] LAMMPS uses |F_n^el + F_n^vis|, which gives a pulling-apart damped contact friction.
GE_INLINE double cap_normal_force(double fn_elastic, double fn_viscous)
{
  const double f = fn_elastic + fn_viscous;
  return f > 0.0 ? f : 0.0;
}

// Deen et al.'s tangential damping from the restitution e_t ([R] section 4.6), with the tangential
// effective mass m_t = (2/7) mbar of two solid spheres.
GE_INLINE double deen_eta_t(double e_t, double kt, double mbar)
{
  constexpr double kPi = 3.14159265358979323846;
  const double crit = 2.0 * std::sqrt((2.0 / 7.0) * mbar * kt);    // 2 sqrt(m_t K_t)
  if (e_t <= 0.0) return crit;
  const double lg = std::log(e_t);
  return -lg * crit / std::sqrt(lg * lg + kPi * kPi);
}

// LTH/ZZY slip length delta_t^max = mu delta (2 - nubar)/(2 (1 - nubar)) ([R] section 4.7).
GE_INLINE double lth_slip_length(double mu, double overlap, double nubar)
{
  return mu * overlap * (2.0 - nubar) / (2.0 * (1.0 - nubar));
}

// The tangential velocity of a contact as the glue measures it, v_t = v_c - (v_c . n) n, keeps a
// roundoff residual of a few ulp of the normal velocity v_n when the true v_t is zero (a head-on
// approach whose unit normal is not exactly representable). T1 turns any nonzero v_t into the
// full force mu F_n along it: read a residual below 32 eps |v_n| as zero.
GE_INLINE Vec3 without_projection_roundoff(const Vec3 &vt, double vn)
{
  const double floor = 32.0 * 2.220446049250313e-16 * (vn < 0.0 ? -vn : vn);
  return dot(vt, vt) <= floor * floor ? Vec3{0, 0, 0} : vt;
}

namespace tangential_detail {

GE_INLINE double positive(double x) { return x > 0.0 ? x : 0.0; }

// Carry a stored tangential vector into the frame of this step (see the header comment):
// exact rotation by the mean rotation, then LAMMPS's projection (length kept; zero if
// the projection vanishes).
GE_FORCE_INLINE Vec3 carry_to_frame(const Vec3 &v, const Vec3 &normal, const Vec3 &mean_rotation)
{
  if (is_zero(v)) return v;
  const Vec3 r = is_zero(mean_rotation) ? v : rotate_by_vector(v, mean_rotation);
  const Vec3 p = project_onto_plane(r, normal);
  const double p2 = dot(p, p);
  if (!(p2 > 0.0)) return Vec3{0, 0, 0};
  return std::sqrt(dot(v, v) / p2) * p;
}

// Scale f to length `limit` (>= 0); f != 0.
GE_INLINE Vec3 scale_to(const Vec3 &f, double limit) { return (limit / norm(f)) * f; }

// The Coulomb cap: a force longer than `cap` (>= 0) is scaled onto it. Returns
// whether it was capped (the contact slides).
GE_INLINE bool coulomb_cap(Vec3 &f, double cap)
{
  if (!(dot(f, f) > cap * cap)) return false;
  f = cap > 0.0 ? scale_to(f, cap) : Vec3{0, 0, 0};
  return true;
}

// The generic spring-dashpot-slider (notes: Catalogue conventions) on the updated xi: trial
// F* = -K xi - eta v_t; if |F*| > cap then F = cap F*/|F*| and, when truncating,
// xi <- -(F + eta v_t)/K (the vector form of [R]'s delta_t = (mu|F_n| - eta dot delta_t)/K_t).
GE_FORCE_INLINE void spring_slider(double K, double eta, bool truncate, const Vec3 &vt, double cap,
                             Vec3 &xi, TangentialResult &r)
{
  Vec3 f = -(K * xi) - eta * vt;
  if (coulomb_cap(f, cap)) {
    r.sliding = true;
    if (truncate && K > 0.0) xi = -(1.0 / K) * (f + eta * vt);
  }
  r.ft = f;
}

// Updated spring vector of this step: carried into the frame, plus the increment
// (its tangential part: a roundoff normal part is not stored).
GE_FORCE_INLINE Vec3 updated_xi(const double *state, const TangentialStep &s)
{
  return carry_to_frame(vec3(state + TS_XI), s.normal, s.mean_rotation) +
         project_onto_plane(s.du, s.normal);
}

// Hertz-type stiffness c Gbar sqrt(Rbar delta) (T6: c = 16/3, T9: c = 8); 0 without overlap.
GE_INLINE double hertz_tangential_stiffness(double c, const TangentialStep &s)
{
  const double a2 = s.rbar * s.overlap;
  return a2 > 0.0 ? c * s.gbar * std::sqrt(a2) : 0.0;
}

// LTH/ZZY elastic part ([R] section 4.7) on the updated xi. Returns the force, sets
// *sqrt_one_minus_r and *full (|xi| >= delta_t^max), and clamps xi to |xi| <= delta_t^max
// ([ours]: with a vector history an unclamped xi would pin the force at mu F_n on reversal and
// grow without bound).
GE_INLINE Vec3 lth_elastic(double mu_fn, double dtmax, Vec3 &xi, double *sqrt_one_minus_r,
                           bool *full)
{
  const double l = norm(xi);
  *full = l >= dtmax;
  const double one_minus_r = *full ? 0.0 : 1.0 - l / dtmax;
  const double sq = std::sqrt(one_minus_r);
  *sqrt_one_minus_r = sq;
  const double f_el = mu_fn * (1.0 - one_minus_r * sq);    // mu F_n [1 - (1-r)^{3/2}]
  const Vec3 f = l > 0.0 ? (-f_el / l) * xi : Vec3{0, 0, 0};
  if (*full && l > 0.0) xi = (dtmax / l) * xi;
  return f;
}

}    // namespace tangential_detail

// ---------------------------------------------------------------------------------------------
// T1-T3: no history ([R] sections 4.2-4.4). F_t = 0 when |v_t| = 0 exactly.

// T1: constant magnitude mu F_n^c against the slip velocity. sliding = (|v_t| > 0).
GE_INLINE void tangential_sliding(const TangentialParams &p, const TangentialStep &s,
                                  TangentialResult &r)
{
  r = TangentialResult();
  const double v = norm(s.vt);
  if (v > 0.0) {
    r.sliding = true;
    r.ft = (-p.mu * tangential_detail::positive(s.fn) / v) * s.vt;
  }
}

// T2: pure dashpot, no cap; sliding is always false (there is no slider).
GE_INLINE void tangential_viscous(const TangentialParams &p, const TangentialStep &s,
                                  TangentialResult &r)
{
  r = TangentialResult();
  r.ft = -p.eta_t * s.vt;
}

// T3: dashpot limited by Coulomb. sliding = (eta_t |v_t| > mu F_n^c), the cap is active.
GE_INLINE void tangential_viscous_sliding(const TangentialParams &p, const TangentialStep &s,
                                          TangentialResult &r)
{
  r = TangentialResult();
  const double v = norm(s.vt);
  if (!(v > 0.0)) return;
  const double cap = p.mu * tangential_detail::positive(s.fn);
  double mag = p.eta_t * v;
  if (mag > cap) {
    mag = cap;
    r.sliding = true;
  }
  r.ft = (-mag / v) * s.vt;
}

// ---------------------------------------------------------------------------------------------
// T4, T5, T6, T9: the generic spring-dashpot-slider with stiffness K and dashpot eta.
// sliding = the trial force exceeded the cap this step.

// T4 (Cundall-Strack, always truncating) and T5 (truncating only with `maw`; without it [R]'s
// literal min(): xi keeps stretching while slipping). T5 `et` evaluates Deen's eta_t per contact.
GE_FORCE_INLINE void tangential_spring(const TangentialParams &p, const TangentialStep &s,
                                 double *state, TangentialResult &r)
{
  r = TangentialResult();
  const bool t4 = p.model == TangentialModel::SpringSliding;
  const double eta = t4 ? 0.0 : (p.use_et ? deen_eta_t(p.e_t, p.kt, s.mbar) : p.eta_t);
  Vec3 xi = tangential_detail::updated_xi(state, s);
  tangential_detail::spring_slider(p.kt, eta, t4 || p.maw, s.vt,
                                   p.mu * tangential_detail::positive(s.fn), xi, r);
  store(xi, state + TS_XI);
}

// T6 dd: total form F_el = -K_t(delta) xi, K_t = (16/3) Gbar sqrt(Rbar delta) (2/3 of Mindlin's
// 8 Gbar a: the secant of the Mindlin curve at full slip), optional eta_t, truncating.
// T9 tti: K_t = 8 Gbar sqrt(Rbar delta) (the [erratum]-corrected Tsuji stiffness = Mindlin's),
// dashpot eta_t delta^{1/4} v_t (our reading of "equal to normal"), truncating.
GE_FORCE_INLINE void tangential_hertz_spring(const TangentialParams &p, const TangentialStep &s,
                                       double *state, TangentialResult &r)
{
  r = TangentialResult();
  const bool dd = p.model == TangentialModel::DD;
  const double K = tangential_detail::hertz_tangential_stiffness(dd ? 16.0 / 3.0 : 8.0, s);
  // (T9 without a dashpot, eta_t = 0, takes no roots: eta is then eta_t itself, as the product
  // would give)
  const double eta = dd || p.eta_t == 0.0 ? p.eta_t
      : s.overlap > 0.0
      ? p.eta_t * std::sqrt(s.sqrt_overlap >= 0.0 ? s.sqrt_overlap : std::sqrt(s.overlap))
      : 0.0;
  Vec3 xi = tangential_detail::updated_xi(state, s);
  tangential_detail::spring_slider(K, eta, true, s.vt, p.mu * tangential_detail::positive(s.fn),
                                   xi, r);
  store(xi, state + TS_XI);
}

// ---------------------------------------------------------------------------------------------
// T7 lth and T8 zzy ([R] section 4.7). delta_t^max = mu delta (2-nubar)/(2(1-nubar)),
// r = min(|xi|, delta_t^max)/delta_t^max, F_el = mu F_n^c [1 - (1-r)^{3/2}] along -xi^.
//   LTH viscous: eta_t sqrt(6 mbar mu F_n^c sqrt(1-r)/delta_t^max) |v_t| along -v^_t
//                (eta_t a fraction of critical damping 2 sqrt(mbar k_tan)).
//   ZZY viscous: tau k_tan (1 - 0.4 tau |v_t|/delta_t^max)_+ |v_t| along -v^_t, tau = eta/(2 Gbar),
//                k_tan = 1.5 mu F_n^c sqrt(1-r)/delta_t^max ([ours]: the bracket clamped at 0).
// The sum is capped at mu F_n^c; xi is clamped to |xi| <= delta_t^max. sliding = full slip
// (|xi| reached delta_t^max) or the cap was active. delta_t^max = 0 (mu = 0, rejected by the
// parser, or no overlap) gives F = 0 and xi = 0.
GE_INLINE void tangential_lth_zzy(const TangentialParams &p, const TangentialStep &s,
                                  double *state, TangentialResult &r)
{
  using namespace tangential_detail;
  r = TangentialResult();
  const double mu_fn = p.mu * positive(s.fn);
  const double dtmax = lth_slip_length(p.mu, s.overlap, s.nubar);
  Vec3 xi = updated_xi(state, s);
  if (!(dtmax > 0.0)) {
    r.sliding = !is_zero(xi) || !is_zero(s.vt);
    store(Vec3{0, 0, 0}, state + TS_XI);
    return;
  }
  double sq;
  bool full;
  Vec3 f = lth_elastic(mu_fn, dtmax, xi, &sq, &full);
  const double v = norm(s.vt);
  if (v > 0.0 && p.eta_t > 0.0) {
    double c;    // viscous force per unit |v_t|
    if (p.model == TangentialModel::LTH) {
      c = p.eta_t * std::sqrt(6.0 * s.mbar * mu_fn * sq / dtmax);
    } else {
      const double tau = s.gbar > 0.0 ? p.eta_t / (2.0 * s.gbar) : 0.0;
      const double k_tan = 1.5 * mu_fn * sq / dtmax;
      c = tau * k_tan * positive(1.0 - 0.4 * tau * v / dtmax);
    }
    f = f - c * s.vt;
  }
  r.sliding = full;
  if (coulomb_cap(f, mu_fn)) r.sliding = true;
  r.ft = f;
  store(xi, state + TS_XI);
}

// ---------------------------------------------------------------------------------------------
// T10 walton_braun ([R] section 4.8; 3-D extension [ours], steps 1-8 of notes: Walton-Braun 3-D).
// 1-D law, [erratum]-corrected (s inside, in the numerator too): dT = K_t d(delta_t),
//   K_t = K_t0 [1 - s (T - T*)/(mu N - s T*)]^{1/3}.
//
// Departure from steps 5-6 ([ours], same limit): taken literally they advance the magnitude by
// an explicit Euler step t' = t + K(t) du_par. Here the 1-D law is integrated EXACTLY over the
// increment at the step's N: with y = 1 - s (t - T*)/d, d = mu N - s T*, it reads
// dy^{2/3}/d|u| = -2 K_t0/(3 d), so
//   y' = max(0, y^{2/3} - 2 K_t0 |du_par|/(3 d))^{3/2},   t' = T* + s d (1 - y').
// The result is independent of how a leg is cut into steps and reproduces the closed forms of
// notes: Walton-Braun 3-D to roundoff; the Euler step has an O(du) error (3.1e-6 N, 0.9e-5 mu N,
// on the unloading check of notes: Catalogue checks at 20 000 increments per leg).
// sliding = the force was capped (step 8) or the parallel law reached mu N this step.
GE_INLINE void tangential_walton_braun(const TangentialParams &p, const TangentialStep &s,
                                       double *state, TangentialResult &r)
{
  using namespace tangential_detail;
  r = TangentialResult();
  const double N = positive(s.fn);
  const double mu_n = p.mu * N;
  const double k0 = p.kt;

  // step 1: carry T into the current tangent plane (length kept)
  const Vec3 T = carry_to_frame(vec3(state + TS_WB_T), s.normal, s.mean_rotation);
  double t_star = state[TS_WB_TSTAR];
  double sense = state[TS_WB_SENSE] < 0.0 ? -1.0 : 1.0;    // 0 = unset reads as +1
  // step 2: Walton's scaling of the turning point with the normal force
  const double n_prev = state[TS_WB_NPREV];
  if (n_prev > 0.0) t_star *= N / n_prev;

  // step 3: extension direction e = -T/|T| (or along du for T = 0) and the split of du
  const Vec3 du = project_onto_plane(s.du, s.normal);
  const double t = norm(T);
  Vec3 e{0, 0, 0};
  double du_par;
  Vec3 du_perp{0, 0, 0};
  if (t > 0.0) {
    e = (-1.0 / t) * T;
    du_par = dot(du, e);
    du_perp = du - du_par * e;
  } else {    // along the increment itself: no orthogonal part (not even its roundoff)
    du_par = norm(du);
    if (du_par > 0.0) e = (1.0 / du_par) * du;
  }

  // step 4: a change of sense of the parallel increment is a turning point
  if (du_par != 0.0) {
    const double s_new = du_par > 0.0 ? 1.0 : -1.0;
    if (s_new != sense) {
      t_star = t;
      sense = s_new;
    }
  }

  // steps 5-6: exact integration of the 1-D law over |du_par| (see above)
  // (K = 0 at or beyond the limit, y <= 0 or d <= 0: the parallel part does not change, and a
  // movement there is slip)
  double t_new = t;
  bool reached_limit = false;
  if (du_par != 0.0) {
    const double d = mu_n - sense * t_star;
    const double y0 = d > 0.0 ? 1.0 - sense * (t - t_star) / d : 0.0;
    if (y0 > 0.0) {
      const double w = std::cbrt(y0 * y0) - 2.0 * k0 * std::fabs(du_par) / (3.0 * d);
      const double y1 = w > 0.0 ? w * std::sqrt(w) : 0.0;
      reached_limit = !(w > 0.0);
      t_new = t_star + sense * d * (1.0 - y1);
    } else {
      reached_limit = true;
    }
  }
  if (t_new < 0.0) {
    // through zero: continued unloading is loading in the opposite direction
    e = -e;
    t_new = -t_new;
    t_star = -t_star;
    sense = 1.0;
  }

  // step 7: parallel part from the law, orthogonal part elastic with the initial stiffness.
  // The roundoff of du_perp (~1e-16 |du|) is magnified by K_t0 and may exceed a small capped
  // t_new: its normal part is removed so that the force stays in the tangent plane.
  Vec3 T_new = -project_onto_plane(t_new * e + k0 * du_perp, s.normal);
  // step 8: Coulomb cap
  r.sliding = reached_limit;
  if (coulomb_cap(T_new, mu_n)) r.sliding = true;
  r.ft = T_new;
  store(T_new, state + TS_WB_T);
  state[TS_WB_TSTAR] = t_star;
  state[TS_WB_SENSE] = sense;
  state[TS_WB_NPREV] = N;
}

// ---------------------------------------------------------------------------------------------
// Dispatcher: one step of the model p.model. state: tangential_state_size(p.model) doubles,
// updated in place (may be null for T1-T3).
GE_FORCE_INLINE void tangential_step(const TangentialParams &p, const TangentialStep &s, double *state,
                               TangentialResult &r)
{
  switch (p.model) {
    case TangentialModel::Sliding: tangential_sliding(p, s, r); break;
    case TangentialModel::Viscous: tangential_viscous(p, s, r); break;
    case TangentialModel::ViscousSliding: tangential_viscous_sliding(p, s, r); break;
    case TangentialModel::SpringSliding:
    case TangentialModel::SpringDashpot: tangential_spring(p, s, state, r); break;
    case TangentialModel::DD:
    case TangentialModel::TTI: tangential_hertz_spring(p, s, state, r); break;
    case TangentialModel::LTH:
    case TangentialModel::ZZY: tangential_lth_zzy(p, s, state, r); break;
    case TangentialModel::WaltonBraun: tangential_walton_braun(p, s, state, r); break;
    case TangentialModel::Coulomb:
      // the friction is not a function of this contact's movement: it is solved after every
      // other force is known (coulomb_constraint.hpp); here only its last sliding state shows
      r = TangentialResult();
      r.sliding = state[TS_CF_SLIDING] != 0.0;
      break;
    default: r = TangentialResult(); break;
  }
}

// ---------------------------------------------------------------------------------------------
// Parameter check (notes: Catalogue conventions): nullptr if valid, else a message naming the
// argument and its valid range. Every number must be finite. (Model combinations, e.g. "dd
// needs hertz", and T9's eta default are the parser's business.)
inline const char *tangential_params_error(const TangentialParams &p)
{
  const TangentialModel m = p.model;
  if (m != TangentialModel::Viscous) {
    if (!std::isfinite(p.mu) || p.mu < 0.0) return "mu must be finite and >= 0";
    if ((m == TangentialModel::LTH || m == TangentialModel::ZZY ||
         m == TangentialModel::WaltonBraun) && !(p.mu > 0.0))
      return "mu must be > 0 for lth, zzy and walton_braun";
  }
  if (m == TangentialModel::SpringSliding || m == TangentialModel::SpringDashpot ||
      m == TangentialModel::WaltonBraun) {
    if (!std::isfinite(p.kt) || !(p.kt > 0.0)) return "kt must be finite and > 0";
  }
  const bool has_eta = m == TangentialModel::Viscous || m == TangentialModel::ViscousSliding ||
      m == TangentialModel::DD || m == TangentialModel::LTH || m == TangentialModel::ZZY ||
      m == TangentialModel::TTI || (m == TangentialModel::SpringDashpot && !p.use_et);
  if (has_eta && (!std::isfinite(p.eta_t) || p.eta_t < 0.0)) return "eta_t must be finite and >= 0";
  if (m == TangentialModel::SpringDashpot && p.use_et &&
      (!std::isfinite(p.e_t) || p.e_t < 0.0 || p.e_t > 1.0))
    return "e_t must be finite and in [0, 1]";
  if (p.use_et && m != TangentialModel::SpringDashpot) return "et is only valid for spring_dashpot";
  if (p.maw && m != TangentialModel::SpringDashpot) return "maw is only valid for spring_dashpot";
  return nullptr;
}

}    // namespace ge
