// Yade rolling/twisting contact moment without per-atom orientation, after Kozicki & Donze
// (CMAME 197, 2008; [KD] below). The design is explained in doc/design_notes.md, cited as
// "notes: <section>" (chiefly "Yade moments", and "Catalogue checks" for the tests).
//
//   rolling  yade kr <K_b>  | beta <beta>  eta <eta_b> | cap none   [combined]
//   twisting yade kr <K_tw> | beta <beta>  eta <eta_tw> | cap none
//
// The law ([KD]): the relative orientation displacement of the two particles since the
// contact was created, Delta Q = (A A'^-1)(B B'^-1)^-1, as a rotation vector phi = log(Delta Q);
// the contact moment M = K phi, applied as -M to i and +M to j; its size capped at
// eta (R_i + R_j)/2 F_n^c ([KD] eq. 26).
//
// Per-contact state ([ours]): the rotation vector phi = log(Delta Q), 3 doubles,
//   [0..2] phi  (YM_PHI), all zero = identity = fresh contact, so LAMMPS's zero fill is correct
//               with no first-step detection. ODD under i <-> j: Delta Q_ji = Delta Q_ij^-1, so
//               phi_ji = -phi_ij (factor -1, yade_moment_transfer_factor()).
// The state is shared by `rolling yade` and `twisting yade` (one relative rotation). The caller
// zeroes it when the geometric contact is lost.
//
// Update: the particles' orientations are advanced by LEFT multiplication with the
// global-frame increments a = exp(omega_i dt), b = exp(omega_j dt) (Yade-family integrators), so
//   Delta Q <- a (x) Delta Q (x) conj(b)
// exactly, for any finite rotations and any order of non-commuting steps: no per-atom
// orientation is needed, only each step's rotation vectors omega dt (the half-step omega that
// fix nve/sphere applied, like v_t dt for the tangential spring). [erratum KD eq. 39] right
// multiplication would be a body-frame update; the unit tests tell the two orders apart.
//
// Split about the CURRENT normal n ([KD] leaves the normal open): bending phi_b (orthogonal to n)
// and twist angle theta_tw, M = K_b phi_b + K_tw theta_tw n. [ours] The split is the symmetric
// swing-twist decomposition Delta Q = tau S tau (yade_split), not the plain phi - (phi.n) n: the
// two agree to third order, but only the former keeps a dropped or capped twist from pumping up the
// bending spring when a particle spins (see yade_split; tested).
// Cap: a return mapping. When K |phi| exceeds the cap the STORED phi is scaled onto
// the cap (the rotational twin of the Maw truncation of xi), so the spring never grows while it
// slips and unloads elastically, with the full stiffness, as soon as the rotation reverses. The
// source law ([KD] eqs. 26-27) caps M only and would keep the spring stretched (tested).
//
// Roundoff: a step whose cap is active recomposes phi from its scaled parts; the unloaded part
// then picks up about one ulp of |phi| per slipping step, in the same direction while the same
// slip repeats (measured 5e-19 rad per step at |phi| = 2e-3, i.e. 5e-14 rad after 1e5 slipping
// steps): far below any elastic limit, and reset by the first real load on that part.
//
// Header-only, no allocation, no virtual calls, no LAMMPS: callable from host and device code.
#pragma once

#include "contact/tangential_models.hpp"
#include "contact/vec3.hpp"

#include <cmath>

namespace ge {

// One moment spring: `kr <K>` or `beta <beta>`, then `eta <eta>` or `cap none`.
struct YadeSpringParams {
  bool active = false;    // the keyword was given
  bool use_beta = false;  // K = beta R_i R_j K_s ([KD] eq. 9) instead of a given K
  double k = 0.0;         // K [moment/rad] (use_beta false) or beta [dimensionless]
  bool capped = true;     // false = `cap none` (valid for small rotations only: 2 pi periodic)
  double eta = 0.0;       // cap coefficient: M_max = eta (R_i + R_j)/2 F_n^c [dimensionless]
  double gamma = 0.0;     // `damp <gamma>`: viscous coefficient [moment time/rad] of a dashpot in
                          // parallel with the spring, on the relative spin (0 = none)
};

// `rolling yade` -> rolling (the bending spring), `twisting yade` -> twisting.
// combined (the source-exact mode, `rolling yade ... combined`): the rolling spring's K and cap
// act on the whole phi (K_b = K_tw, one cap on |M|); twisting must then be inactive.
struct YadeMomentParams {
  YadeSpringParams rolling;
  YadeSpringParams twisting;
  bool combined = false;
};

enum YadeMomentStateIndex : int {
  YM_PHI = 0,               // relative rotation vector phi = log(Delta Q) (3, odd)
  YADE_MOMENT_STATE_SIZE = 3
};

// Partner-copy factor of state entry k: phi is odd, every entry gets -1.
GE_INLINE constexpr double yade_moment_transfer_factor(int /*k*/) { return -1.0; }

// One step of one contact.
struct YadeMomentStep {
  Vec3 rot_i{0, 0, 0};     // omega_i dt: rotation vector of particle i over the step (global frame)
  Vec3 rot_j{0, 0, 0};     // omega_j dt (zero for a wall that does not rotate)
  Vec3 normal{0, 0, 1};    // unit normal at the end of the step, from j to i
  double radius_i = 0.0;   // particle radii R_i, R_j (not lever arms: [KD] eqs. 9, 26); for a
  double radius_j = 0.0;   //   wall the caller passes R_j = R_i
  double ks = 0.0;         // K_s, the tangential model's linear stiffness this step (beta only)
  double fn = 0.0;         // F_n^c; a negative value is read as 0
  bool update = true;      // LAMMPS's history_update: false = compute M, leave phi unchanged
  double dt = 0.0;         // the step (the dashpots' relative spin is (rot_i - rot_j)/dt; 0: none)
  double inv_inertia_i = 0.0;    // 1/I_i, 1/I_j: the bodies' inverse moments of inertia about
  double inv_inertia_j = 0.0;    //   their centres (a sphere: sphere_inverse_inertia; 0: a body
                                 //   that does not turn, a wall or a frozen atom), for the
                                 //   dashpots' exact step (yade_dashpot_coefficient)
};

struct YadeMomentResult {
  Vec3 moment{0, 0, 0};     // M = M_b + M_tw (the spring moment); torque on i is -M, on j +M
  Vec3 moment_b{0, 0, 0};   // bending part K_b phi_b (after the cap; combined: M - (M.n) n)
  Vec3 moment_tw{0, 0, 0};  // twisting part K_tw theta_tw n (after the cap; combined: (M.n) n)
  Vec3 torque_i{0, 0, 0};   // -M
  Vec3 torque_j{0, 0, 0};   // +M
  double energy = 0.0;      // elastic energy of the springs after the cap:
                            //   K_b |phi_b|^2/2 + K_tw theta_tw^2/2 (combined: K |phi|^2/2)
  bool rolling_sliding = false;   // the bending cap (combined: the single cap) is active
  bool twisting_sliding = false;  // the twisting cap is active (combined: same as rolling)
};

namespace yade_detail {

GE_INLINE bool finite(double x) { return x - x == 0.0; }    // NaN and inf fail

// Unit quaternion, scalar first. Only unit quaternions (up to roundoff) are formed here.
struct Quat {
  double w;
  Vec3 v;
};

// Hamilton product a (x) b.
GE_INLINE Quat mul(const Quat &a, const Quat &b)
{
  return {a.w * b.w - dot(a.v, b.v), a.w * b.v + b.w * a.v + cross(a.v, b.v)};
}

GE_INLINE Quat conj(const Quat &a) { return {a.w, -a.v}; }

// exp of a rotation vector theta: (cos(t/2), sin(t/2)/t theta), t = |theta| (notes: Yade moments,
// step 1). Below t = 0.1 (every DEM step, and every capped phi) cos(h) and sin(h)/h, h = t/2, come
// from their Taylor series through h^8 (first omitted terms < 3e-20), with no trigonometric call
// and no division by a small t; the library functions otherwise.
GE_INLINE Quat exp_map(const Vec3 &theta)
{
  const double t2 = dot(theta, theta);
  double c, s_over_t;
  if (t2 < 1e-2) {
    const double h2 = 0.25 * t2;
    constexpr double c1 = 1.0 / 2, c2 = 1.0 / 12, c3 = 1.0 / 30, c4 = 1.0 / 56;
    constexpr double s1 = 1.0 / 6, s2 = 1.0 / 20, s3 = 1.0 / 42, s4 = 1.0 / 72;
    c = 1.0 - h2 * c1 * (1.0 - h2 * c2 * (1.0 - h2 * c3 * (1.0 - h2 * c4)));
    s_over_t = 0.5 * (1.0 - h2 * s1 * (1.0 - h2 * s2 * (1.0 - h2 * s3 * (1.0 - h2 * s4))));
  } else {
    const double t = std::sqrt(t2);
    c = std::cos(0.5 * t);
    s_over_t = std::sin(0.5 * t) / t;
  }
  return {c, s_over_t * theta};
}

// log of a quaternion as a rotation vector (notes: Yade moments, steps 4-5): q == -q picks w >= 0,
// i.e. the angle in [0, pi]; the angle 2 atan2(|v|, w) is exact for small angles, where 2 acos(w)
// loses all precision (4e-5 relative error at 1e-6 rad, 0 at 1e-9 rad). The map is homogeneous of
// degree 0 in q (angle times the unit axis v/|v|), so q need not be normalised: a normalisation in
// step 3 would change nothing but roundoff.
GE_INLINE Vec3 log_map(const Quat &q)
{
  const double sgn = q.w < 0.0 ? -1.0 : 1.0;
  const double w = sgn * q.w;
  const double s = norm(q.v);
  if (!(s > 0.0)) return {0.0, 0.0, 0.0};    // identity (v = 0 exactly)
  return (sgn * 2.0 * std::atan2(s, w) / s) * q.v;
}

}    // namespace yade_detail

// The exact update of the stored relative rotation:
//   phi <- log( exp(rot_i) (x) exp(phi) (x) conj(exp(rot_j)) ).
// To first order phi + rot_i - rot_j. Zero increments leave phi bit for bit.
GE_INLINE Vec3 yade_compose(const Vec3 &phi, const Vec3 &rot_i, const Vec3 &rot_j)
{
  using namespace yade_detail;
  const bool zi = is_zero(rot_i), zj = is_zero(rot_j);
  if (zi && zj) return phi;
  Quat q = exp_map(phi);
  if (!zi) q = mul(exp_map(rot_i), q);
  if (!zj) q = mul(q, conj(exp_map(rot_j)));
  return log_map(q);
}

// Stiffness of one spring: K, or beta R_i R_j K_s ([KD] eq. 9).
GE_INLINE double yade_stiffness(const YadeSpringParams &p, double Ri, double Rj, double ks)
{
  return p.use_beta ? p.k * Ri * Rj * ks : p.k;
}

// Cap of one spring ([KD] eq. 26): eta R_m F_n^c, R_m = (R_i + R_j)/2; a negative F_n
// is read as 0. Not used when the spring is `cap none`.
GE_INLINE double yade_cap(const YadeSpringParams &p, double Ri, double Rj, double fn)
{
  return p.eta * 0.5 * (Ri + Rj) * (fn > 0.0 ? fn : 0.0);
}

// Return mapping of one isotropic linear rotational spring: if K |phi| > M_max, phi
// is scaled onto the cap, keeping its direction (the relative rotation is replaced by one about
// the same axis with the elastic-limit angle). Sets *sliding.
GE_INLINE Vec3 yade_return_map(const Vec3 &phi, double K, bool capped, double m_max, bool *sliding)
{
  *sliding = false;
  if (!capped) return phi;
  const double m = K * norm(phi);
  if (!(m > m_max)) return phi;
  *sliding = true;
  return (m_max / m) * phi;
}

// Bending/twisting split about the unit normal n ([ours], in place of the rotation-vector split
// phi_tw = (phi.n) n). Every unit quaternion with w >= 0 is uniquely
//   Delta Q = tau (x) S (x) tau,   tau = exp(theta_tw/2 n) (half the twist on each side),
//   S = (w_s, u) a swing (u orthogonal to n),
// and tau S tau = (w_s cos a, u + w_s sin a n), a = theta_tw/2, so with Delta Q = (w, v):
//   u = v - (v.n) n,  w_s = sqrt(w^2 + (v.n)^2),  theta_tw = 2 atan2(v.n, w),  phi_b = log S.
// Why this split rather than the rotation-vector one: a spin of either particle about n then turns
// the swing about n by half the spin and leaves its angle EXACTLY unchanged (tau_psi tau S tau =
// tau' S' tau' with S' = S conjugated by tau_{psi/2}). With phi_b = phi - (phi.n) n the step's
// twist increment leaks into the bending part at second order; when the twist is then dropped
// (`rolling` alone) or held at its cap (twisting slip), the stored bending spring grows by about
// (spin angle) x (spin per step)/24 without any bending, i.e. bending energy is created (tested:
// 4.1e-4 relative per revolution at 1.6e-3 rad per step). The split is swap-symmetric (Delta Q^-1 =
// tau^-1 S^-1 tau^-1 about -n) and objective; for small angles it equals the rotation-vector split
// to third order, and for pure bending or pure twist (all of the checks of notes: Catalogue checks)
// exactly.
struct YadeSplit {
  Vec3 phi_b;        // bending (swing) rotation vector, orthogonal to n
  double theta_tw;   // twist angle about n, in [-pi, pi]
};

GE_INLINE YadeSplit yade_split(const Vec3 &phi, const Vec3 &n)
{
  using namespace yade_detail;
  const Quat q = exp_map(phi);    // w >= 0: |phi| <= pi (log_map picks the angle in [0, pi])
  const double vn = dot(q.v, n);
  const Vec3 u = q.v - vn * n;
  YadeSplit sp;
  sp.theta_tw = 2.0 * std::atan2(vn, q.w);
  sp.phi_b = log_map({std::sqrt(q.w * q.w + vn * vn), u});    // log is scale-invariant
  return sp;
}

// Inverse of yade_split: phi = log(tau (x) exp(phi_b) (x) tau).
GE_INLINE Vec3 yade_unsplit(const YadeSplit &sp, const Vec3 &n)
{
  using namespace yade_detail;
  const Quat S = exp_map(sp.phi_b);
  const double a = 0.5 * sp.theta_tw;
  return log_map({S.w * std::cos(a), S.v + (S.w * std::sin(a)) * n});
}

// The inverse moment of inertia of a solid sphere about its centre, 1/(2/5 m R^2).
GE_INLINE double sphere_inverse_inertia(double mass, double radius)
{
  return 2.5 / (mass * radius * radius);
}

// `damp <gamma>`: a dashpot in parallel with each spring, on the part of the relative spin
// w = (omega_i - omega_j) that bends (w - (w.n) n) or twists ((w.n) n), so that the torque -M on
// i and +M on j opposes the relative spin and only dissipates. [ours] As in the elastic-plastic
// spring-dashpot model of Ai, Chen, Rotter & Ooi (Powder Technol. 206, 2011, model C) the dashpot
// acts while its spring is below the cap and is off at full mobilisation, where the cap's return
// mapping dissipates; and, as LAMMPS' `rolling sds` caps spring and dashpot together, the sum
// of a spring and its dashpot stays within the cap. Without dashpots a bed of spheres with
// rolling springs and no other rolling dissipation rocks on its springs for ever.
//
// The step ([ours], notes: Yade moments, "Dashpot step"): applied as gamma w, with w the half-step
// spin of the step taken, the dashpot multiplies w by 1 - a in velocity Verlet,
// a = gamma dt (1/I_i + 1/I_j), and is unstable for a > 2. The coefficient applied instead is
// gamma (1 - e^-a)/a: the mean moment over the step of the dashpot between the two inertias
// solved exactly, so that w becomes w e^-a (-> gamma w where a << 1: today's dashpot to O(a)),
// every step and at any dt. Beside a spring K (s = K dt^2 (1/I_i + 1/I_j); alone stable for
// s < 4) the pair's update with the share b = 1 - e^-a removed is stable for s < 4 - 2b; where
// s > 1, b is therefore held at most at the discrete critical damping 2 sqrt(s) - s (the fastest
// decay the pair can have, stable for every s < 4), so that the dashpot never destabilises a
// spring that is stable alone. For s <= 1, every spring resolved in DEM, the hold never acts.
GE_INLINE double yade_dashpot_coefficient(double gamma, double K, double inv_inertia_sum,
                                          double dt)
{
  const double c = dt * inv_inertia_sum;    // the relative spin's change per moment, times dt
  if (!(c > 0.0)) return gamma;             // neither body turns: no relative spin to damp
  double b = -std::expm1(-gamma * c);       // 1 - e^-a, the share of w the step removes
  const double s = K * dt * c;
  if (s > 1.0) {    // at most the discrete critical damping 2 sqrt(s) - s (0 from s = 4 on)
    const double critical = s < 4.0 ? 2.0 * std::sqrt(s) - s : 0.0;
    if (b > critical) b = critical;
  }
  return b / c;
}

// The largest lambda in [0, 1] with |m + lambda d| <= cap, for a spring moment m within its cap
// (a dashpot d cut to the room the cap leaves).
GE_INLINE double yade_room_under_cap(const Vec3 &m, const Vec3 &d, double cap)
{
  const Vec3 full = m + d;
  if (!(dot(full, full) > cap * cap)) return 1.0;
  const double dd = dot(d, d), md = dot(m, d);
  double room = cap * cap - dot(m, m);
  if (room < 0.0) room = 0.0;
  const double root = std::sqrt(md * md + dd * room);
  // the positive root of dd l^2 + 2 md l - room = 0, without cancellation
  const double lambda = md < 0.0 ? (root - md) / dd : room / (md + root);
  return lambda < 1.0 ? (lambda > 0.0 ? lambda : 0.0) : 1.0;
}

// The dashpots of one step, after the springs: r holds the springs' moments (after their caps)
// and sliding flags; Kb, Ktw are the springs' stiffnesses and cap_b, cap_tw their caps (combined:
// Kb and cap_b for the one spring).
GE_INLINE void add_yade_dashpots(const YadeMomentParams &p, const YadeMomentStep &s, double Kb,
                                 double Ktw, double cap_b, double cap_tw, YadeMomentResult &r)
{
  if (!s.update || !(s.dt > 0.0)) return;
  const Vec3 &n = s.normal;
  const double inv_inertia = s.inv_inertia_i + s.inv_inertia_j;
  const Vec3 w = (1.0 / s.dt) * (s.rot_i - s.rot_j);
  const Vec3 w_tw = dot(w, n) * n;
  if (p.combined) {
    if (p.rolling.gamma > 0.0 && !r.rolling_sliding) {
      const Vec3 d = yade_dashpot_coefficient(p.rolling.gamma, Kb, inv_inertia, s.dt) * w;
      const double l = p.rolling.capped ? yade_room_under_cap(r.moment, d, cap_b) : 1.0;
      r.moment_b = r.moment_b + l * (d - dot(d, n) * n);
      r.moment_tw = r.moment_tw + (l * dot(d, n)) * n;
    }
  } else {
    if (p.rolling.active && p.rolling.gamma > 0.0 && !r.rolling_sliding) {
      const Vec3 d =
          yade_dashpot_coefficient(p.rolling.gamma, Kb, inv_inertia, s.dt) * (w - w_tw);
      const double l = p.rolling.capped ? yade_room_under_cap(r.moment_b, d, cap_b) : 1.0;
      r.moment_b = r.moment_b + l * d;
    }
    if (p.twisting.active && p.twisting.gamma > 0.0 && !r.twisting_sliding) {
      const Vec3 d = yade_dashpot_coefficient(p.twisting.gamma, Ktw, inv_inertia, s.dt) * w_tw;
      const double l = p.twisting.capped ? yade_room_under_cap(r.moment_tw, d, cap_tw) : 1.0;
      r.moment_tw = r.moment_tw + l * d;
    }
  }
  r.moment = r.moment_b + r.moment_tw;
}

// One step of the moment law (notes: Yade moments). state: YADE_MOMENT_STATE_SIZE doubles (phi),
// updated in place when s.update. The parameters are assumed valid (yade_moment_params_error).
GE_INLINE void yade_moment(const YadeMomentParams &p, const YadeMomentStep &s, double *state,
                           YadeMomentResult &r)
{
  r = YadeMomentResult();
  const Vec3 phi0 = vec3(state + YM_PHI);
  // 1. exact incremental update of the relative rotation. With update off (LAMMPS's
  //    setup force call) the moment is that of the stored phi.
  const Vec3 phi = s.update ? yade_compose(phi0, s.rot_i, s.rot_j) : phi0;
  const Vec3 &n = s.normal;
  Vec3 phi_new;
  double Kb = 0.0, Ktw = 0.0;    // the springs' stiffnesses and caps (for the dashpots)
  double cap_b = 0.0, cap_tw = 0.0;
  if (p.combined) {
    // 2'. source-exact mode ([KD]): one stiffness, one cap on |M| = K_r |phi|
    const double K = yade_stiffness(p.rolling, s.radius_i, s.radius_j, s.ks);
    Kb = K;
    cap_b = yade_cap(p.rolling, s.radius_i, s.radius_j, s.fn);
    bool slip = false;
    phi_new = yade_return_map(phi, K, p.rolling.capped, cap_b, &slip);
    const Vec3 phi_tw = dot(phi_new, n) * n;
    r.moment_tw = K * phi_tw;
    r.moment_b = K * (phi_new - phi_tw);
    r.moment = K * phi_new;
    r.energy = 0.5 * K * dot(phi_new, phi_new);
    r.rolling_sliding = r.twisting_sliding = slip;
  } else {
    // 2. bending/twisting split about the current normal: the symmetric swing-twist split
    //    Delta Q = tau (x) S (x) tau (see yade_split; [ours], replaces the rotation-vector split
    //    phi_tw = (phi.n) n, with which it agrees to third order in the angles). A part whose
    //    keyword is absent is dropped every step: it is free and not remembered, so it cannot
    //    grow past pi and corrupt the other part.
    YadeSplit sp = yade_split(phi, n);
    bool changed = false;
    if (p.rolling.active) {
      Kb = yade_stiffness(p.rolling, s.radius_i, s.radius_j, s.ks);
      cap_b = yade_cap(p.rolling, s.radius_i, s.radius_j, s.fn);
      const Vec3 b = yade_return_map(sp.phi_b, Kb, p.rolling.capped, cap_b, &r.rolling_sliding);
      changed = r.rolling_sliding;
      sp.phi_b = b;
    } else if (!is_zero(sp.phi_b)) {
      sp.phi_b = {0.0, 0.0, 0.0};
      changed = true;
    }
    if (p.twisting.active) {
      Ktw = yade_stiffness(p.twisting, s.radius_i, s.radius_j, s.ks);
      const double mt = Ktw * std::fabs(sp.theta_tw);
      cap_tw = yade_cap(p.twisting, s.radius_i, s.radius_j, s.fn);
      if (p.twisting.capped && mt > cap_tw) {    // return mapping of the twist angle
        r.twisting_sliding = true;
        sp.theta_tw *= cap_tw / mt;
        changed = true;
      }
    } else if (sp.theta_tw != 0.0) {
      sp.theta_tw = 0.0;
      changed = true;
    }
    // 3. the stored relative rotation is the capped one and the moment is computed
    //    from it. Unchanged parts keep phi bit for bit (no recomposition roundoff).
    phi_new = changed ? yade_unsplit(sp, n) : phi;
    r.moment_b = Kb * sp.phi_b;
    r.moment_tw = (Ktw * sp.theta_tw) * n;
    r.moment = r.moment_b + r.moment_tw;
    r.energy = 0.5 * (Kb * dot(sp.phi_b, sp.phi_b) + Ktw * sp.theta_tw * sp.theta_tw);
  }
  if (s.update) store(phi_new, state + YM_PHI);
  add_yade_dashpots(p, s, Kb, Ktw, cap_b, cap_tw, r);
  r.torque_i = -r.moment;
  r.torque_j = r.moment;
}

// ---------------------------------------------------------------------------------------------
// Parameter checks (notes: Catalogue conventions): nullptr if valid, else a message naming the
// argument and its valid range. Every number must be finite.
inline const char *yade_spring_params_error(const YadeSpringParams &p, bool twisting)
{
  if (!p.active) return nullptr;
  if (p.use_beta) {
    if (!yade_detail::finite(p.k) || !(p.k > 0.0))
      return twisting ? "twisting yade: beta must be finite and > 0"
                      : "rolling yade: beta must be finite and > 0";
  } else if (!yade_detail::finite(p.k) || !(p.k > 0.0)) {
    return twisting ? "twisting yade: kr (K_tw) must be finite and > 0"
                    : "rolling yade: kr (K_b) must be finite and > 0";
  }
  if (p.capped && (!yade_detail::finite(p.eta) || !(p.eta >= 0.0)))
    return twisting ? "twisting yade: eta must be finite and >= 0"
                    : "rolling yade: eta must be finite and >= 0";
  if (!yade_detail::finite(p.gamma) || !(p.gamma >= 0.0))
    return twisting ? "twisting yade: damp (gamma, moment time per radian) must be finite and >= 0"
                    : "rolling yade: damp (gamma, moment time per radian) must be finite and >= 0";
  return nullptr;
}

inline const char *yade_moment_params_error(const YadeMomentParams &p)
{
  if (p.combined) {
    if (!p.rolling.active)
      return "rolling yade combined: the combined mode belongs to rolling yade";
    if (p.twisting.active)
      return "rolling yade combined: no separate twisting keyword is allowed in combined mode";
  }
  if (const char *e = yade_spring_params_error(p.rolling, false)) return e;
  return yade_spring_params_error(p.twisting, true);
}

// `beta` needs a linear tangential stiffness K_s ([KD] eq. 9): kt of T4/T5, kt0 of T10, K_t(delta)
// of T6/T9 (the caller evaluates it each step). T1-T3, T7 and T8 have none: give `kr` instead.
inline const char *yade_moment_tangential_error(const YadeMomentParams &p, TangentialModel t)
{
  const bool beta = (p.rolling.active && p.rolling.use_beta) ||
                    (p.twisting.active && p.twisting.use_beta);
  if (!beta) return nullptr;
  const bool has_ks = t == TangentialModel::SpringSliding || t == TangentialModel::SpringDashpot ||
                      t == TangentialModel::DD || t == TangentialModel::TTI ||
                      t == TangentialModel::WaltonBraun;
  return has_ks ? nullptr
                : "rolling/twisting yade beta needs a tangential model with a linear stiffness "
                  "(spring_sliding, spring_dashpot, dd, tti, walton_braun); give kr instead";
}

}    // namespace ge
