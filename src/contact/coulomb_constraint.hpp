// Exact Coulomb friction as a constraint (Sakamaki, Krengel, Mueller, Chen & Matuttis, EPJ Web
// Conf. 249, 2021, "3D" below; the project's reading of it is explained in doc/design_notes.md,
// cited as "notes: <section>").
//
// Static friction is the force that keeps the contact point at relative rest: per contact and
// step, the trial force
//
//     F_trial = -m_t (v_t/tau + a_t^nf)                              (notes: Coulomb projection)
//
// from the relative tangential velocity v_t of the contact points, the relative tangential
// acceleration a_t^nf due to every force and torque except this contact's friction, and the
// tangential reduced mass m_t (3D eq. 24). Stick if |F_trial| <= mu F_n (apply it),
// else slide with mu F_n along F_trial. This one projection is the paper's Lagrange parameter
// lambda = a_I/(a_I + a_II) with its four cases, its extra force -m_t v_t/tau and its velocity
// reversal tests (3D eqs. 25-26), collapsed; with velocity Verlet's half-step velocities it
// makes the next half-step tangential velocity exactly zero (notes: Coulomb projection).
//
// Conventions as in the catalogue (tangential_models.hpp): n is the unit normal from j to i,
// "relative" means i minus j, F is the friction force on i (-F on j).
//
// Many contacts per particle (notes: Coulomb sweeps): the caller keeps per-particle totals of force
// and torque (6 doubles: f, t), including the current friction estimates, and sweeps the contacts
// (projected Gauss-Seidel): coulomb_rate() reads the totals of the two particles, coulomb_update()
// gives the contact's new force, coulomb_add_to() puts the change into the totals;
// coulomb_coupling() is what of the bodies' masses the sweeps need. The sweeps' own step,
// coulomb_sweep_step(), does all of it in one pass, for one contact or, on two lanes (lanes.hpp),
// for two contacts that share no body at once.
//
// Header-only, no allocation, no virtual calls, no LAMMPS: callable from host and device code.
#pragma once

#include "contact/lanes.hpp"
#include "contact/vec3.hpp"

#include <cmath>

namespace ge {

// Velocity-quadratic terms of the contact-point acceleration (notes: Coulomb kinematics).
enum class CoulombKinematics : int {
  Geometric = 0,    // the contact point of a sphere is a geometric point: omega x r_dot
  None = 1,         // drop the quadratic terms (their O(tau) lag is removed every step)
  Material = 2      // 3D eq. (20), omega x (omega x r): for comparison with the paper only
};

// How the contacts' forces of one step are solved together (notes: Coulomb solvers).
enum class CoulombSolver : int {
  GaussSeidel = 0,    // projected Gauss-Seidel sweeps, contact after contact
  APGD = 1,           // accelerated projected gradient (Nesterov, with restarts): all contacts
                      // at once from the same totals, a diagonal (row-sum) preconditioner
  Newton = 2          // APGD to find which contacts stick and which slide, then Newton steps on
                      // that face by conjugate residuals (ge::coulomb_face)
};

// Where a step's solve starts (notes: Coulomb warm start). The values are those restart files
// hold (formats before 7 had a yes/no: 0 and 1).
enum class CoulombWarmStart : int {
  Zero = 0,           // from no friction
  Previous = 1,       // from the previous step's forces
  Extrapolated = 2    // from the previous step's forces plus their last change, where the two
                      // solves before reached tol (coulomb_extrapolated_start)
};

// The budget of `solver newton` where `sweeps` is not given: every settled bed measured reaches
// tol 1e-8 well within it (at most 937 APGD and CG iterations per step, bench/README.md), while
// a step whose faces are hard to find (a 144-layer bed at rest took 13,569 to tol 1e-6) stops at
// it with the run's warning instead of running on.
constexpr int kCoulombNewtonDefaultSweeps = 10000;
// The budget of `solver gs` and `solver apgd` where `sweeps` is not given.
constexpr int kCoulombBudgetDefaultSweeps = 20;

// The solver of one step (notes: Coulomb sweeps): at most `sweeps` sweeps (Gauss-Seidel) or
// iterations (APGD; Newton: APGD and CG together), stopping when no contact's force changed by
// more than tol * mu F_n and no contact's natural residual (the true error, notes: Coulomb
// solvers) exceeds tol; `warm`: where it starts. `solver gs sweeps 1 warm no` is the paper's
// single direct pass. The struct's solver and budget are those of restart files from before
// format 5 (which had no solver field) and of laws without `tangential coulomb`; the keywords'
// defaults (solver newton with kCoulombNewtonDefaultSweeps) are set where they are read
// (ContactLawWords::parse_coulomb_options).
struct CoulombSolverSettings {
  int sweeps = kCoulombBudgetDefaultSweeps;
  CoulombSolver solver = CoulombSolver::GaussSeidel;
  double tol = 1e-8;
  CoulombWarmStart warm = CoulombWarmStart::Extrapolated;
  CoulombKinematics kinematics = CoulombKinematics::Geometric;
};

GE_INLINE bool same_settings(const CoulombSolverSettings &a, const CoulombSolverSettings &b)
{
  return a.sweeps == b.sweeps && a.solver == b.solver && a.tol == b.tol && a.warm == b.warm &&
      a.kinematics == b.kinematics;
}

// One particle of a contact as the friction sees it. inv_mass, inv_inertia = 0 for a body
// that does not move under forces (fixed, frozen, prescribed motion) or, for inv_inertia, whose
// rotation is not integrated (then m_t has no rotational part).
struct CoulombBody {
  Vec3 x{0, 0, 0}, v{0, 0, 0}, omega{0, 0, 0};
  double radius = 0.0;
  double inv_mass = 0.0, inv_inertia = 0.0;
};

// What a contact needs during the sweeps; fixed within a step, recomputed every step.
struct CoulombContact {
  Vec3 normal{0, 0, 1};       // unit normal from j to i
  Vec3 r_i{0, 0, 0};          // from the centre of i to the contact point P
  Vec3 r_j{0, 0, 0};          // from the centre of j to P
  Vec3 v_t{0, 0, 0};          // tangential velocity of i's contact point relative to j's
  Vec3 rate0{0, 0, 0};        // v_t/tau + the velocity-dependent part of a_t
  double rho_i = 0.0, rho_j = 0.0;    // r_i = -rho_i n, r_j = rho_j n
  double inv_mt = 0.0;        // 1/m_t
  double cap = 0.0;           // mu F_n
};

// How the totals of the two bodies move the contact, fixed within a step: the contact-point
// accelerations are a_i = w_i f_i + alpha_i x r_i = w_i f_i - q_i t_i x n and
// a_j = w_j f_j + q_j t_j x n, with w = ftm2v/m and q = ftm2v rho/I (r_i = -rho_i n,
// r_j = rho_j n); a unit change of the rate takes the force `mass` = m_t/ftm2v.
struct CoulombCoupling {
  double w_i = 0.0, q_i = 0.0, w_j = 0.0, q_j = 0.0;
  double mass = 0.0;
};

// 1/m_t = 1/m_i + 1/m_j + rho_i^2/I_i + rho_j^2/I_j: 3D eq. (24), which for spheres
// equals the general form (r x e).I^-1.(r x e) because r is normal to every tangent e.
GE_INLINE double coulomb_inverse_tangential_mass(const CoulombBody &i, const CoulombBody &j,
                                                 double rho_i, double rho_j)
{
  return i.inv_mass + j.inv_mass + rho_i * rho_i * i.inv_inertia + rho_j * rho_j * j.inv_inertia;
}

// The contact of body i with body j from its geometry (notes: Coulomb kinematics): the unit normal
// n (from j to i), the branch lengths rho_i, rho_j to the contact point P (r_i = -rho_i n, r_j =
// rho_j n), and the rates n_dot and rho_dot = d(rho_i)/dt = d(rho_j)/dt.
//   cap = mu F_n; tau: the time over which the tangential velocity is to be brought to rest
//   (the step; the half step at run setup).
// (set_*: filled in place, e.g. straight into a solver's contact list, with no copy of the
// struct; the by-value forms below are the same)
GE_INLINE void set_coulomb_contact(CoulombContact &c, const CoulombBody &i, const CoulombBody &j,
                                   const Vec3 &n, double rho_i, double rho_j, const Vec3 &n_dot,
                                   double rho_dot, double cap, double tau,
                                   CoulombKinematics kinematics)
{
  c.normal = n;
  c.r_i = -rho_i * n;
  c.r_j = rho_j * n;
  c.rho_i = rho_i;
  c.rho_j = rho_j;
  c.inv_mt = coulomb_inverse_tangential_mass(i, j, rho_i, rho_j);
  c.cap = cap;

  // both branch vectors lie along n (r_i = -rho_i n, r_j = rho_j n), so the spins enter through
  // w = rho_i omega_i + rho_j omega_j: omega_i x r_i - omega_j x r_j = -w x n (one cross product
  // for the two)
  const Vec3 w = rho_i * i.omega + rho_j * j.omega;
  const Vec3 v_rel = (i.v - j.v) - cross(w, n);
  c.v_t = project_onto_plane(v_rel, n);
  Vec3 quadratic{0, 0, 0};
  if (kinematics == CoulombKinematics::Geometric) {
    // omega_i x r_i_dot - omega_j x r_j_dot with r_i_dot = -rho_dot n - rho_i n_dot and
    // r_j_dot = rho_dot n + rho_j n_dot
    quadratic = -rho_dot * cross(i.omega + j.omega, n) - cross(w, n_dot);
  } else if (kinematics == CoulombKinematics::Material) {
    quadratic = cross(i.omega, cross(i.omega, c.r_i)) - cross(j.omega, cross(j.omega, c.r_j));
  }
  // a_t = P_n a_rel - n_dot (n . v_rel): the tangent plane turns with the normal
  const Vec3 a_kinematic = project_onto_plane(quadratic, n) - dot(n, v_rel) * n_dot;
  c.rate0 = (1.0 / tau) * c.v_t + a_kinematic;
}

GE_INLINE CoulombContact coulomb_contact(const CoulombBody &i, const CoulombBody &j,
                                         const Vec3 &n, double rho_i, double rho_j,
                                         const Vec3 &n_dot, double rho_dot, double cap, double tau,
                                         CoulombKinematics kinematics)
{
  CoulombContact c;
  set_coulomb_contact(c, i, j, n, rho_i, rho_j, n_dot, rho_dot, cap, tau, kinematics);
  return c;
}

// Two spheres: P at the middle of the overlap, so both branch vectors end at the same point
// and the relative velocity is objective; n_dot = P_n (v_i - v_j)/d, rho_dot = d_dot/2.
// n = (x_i - x_j)/d and the distance d of the centres as the caller has them (a force loop
// has just computed them); the bodies' positions are not read.
GE_INLINE void set_coulomb_sphere_contact(CoulombContact &c, const CoulombBody &i,
                                          const CoulombBody &j, const Vec3 &n, double d,
                                          double cap, double tau, CoulombKinematics kinematics)
{
  const double inv_d = 1.0 / d;
  const double overlap = i.radius + j.radius - d;
  const Vec3 dv = i.v - j.v;
  set_coulomb_contact(c, i, j, n, i.radius - 0.5 * overlap, j.radius - 0.5 * overlap,
                      inv_d * project_onto_plane(dv, n), 0.5 * dot(n, dv), cap, tau, kinematics);
}

GE_INLINE void set_coulomb_sphere_contact(CoulombContact &c, const CoulombBody &i,
                                          const CoulombBody &j, double cap, double tau,
                                          CoulombKinematics kinematics)
{
  const Vec3 dx = i.x - j.x;
  const double d = norm(dx);
  set_coulomb_sphere_contact(c, i, j, (1.0 / d) * dx, d, cap, tau, kinematics);
}

GE_INLINE CoulombContact coulomb_sphere_contact(const CoulombBody &i, const CoulombBody &j,
                                                double cap, double tau,
                                                CoulombKinematics kinematics)
{
  CoulombContact c;
  set_coulomb_sphere_contact(c, i, j, cap, tau, kinematics);
  return c;
}

// A sphere on a wall: the partner is immovable and does not turn; n
// from the wall to the sphere, n_dot = 0 for a plane. The wall's material point at P moves at
// v_wall and its velocity changes by a_wall tau over the kick (a wiggled or sheared wall; the
// wall does not respond to forces); the gap to the wall grows at n . (v_i - v_wall), so
// rho_i = R_i - overlap/2 grows at half that.
GE_INLINE void set_coulomb_moving_wall_contact(CoulombContact &c, const CoulombBody &i,
                                               const Vec3 &n, double overlap, const Vec3 &n_dot,
                                               const Vec3 &v_wall, const Vec3 &a_wall, double cap,
                                               double tau, CoulombKinematics kinematics)
{
  CoulombBody wall;
  wall.v = v_wall;
  set_coulomb_contact(c, i, wall, n, i.radius - 0.5 * overlap, 0.0, n_dot,
                      0.5 * dot(n, i.v - v_wall), cap, tau, kinematics);
  c.rate0 = c.rate0 - project_onto_plane(a_wall, n);
}

GE_INLINE CoulombContact coulomb_moving_wall_contact(const CoulombBody &i, const Vec3 &n,
                                                     double overlap, const Vec3 &n_dot,
                                                     const Vec3 &v_wall, const Vec3 &a_wall,
                                                     double cap, double tau,
                                                     CoulombKinematics kinematics)
{
  CoulombContact c;
  set_coulomb_moving_wall_contact(c, i, n, overlap, n_dot, v_wall, a_wall, cap, tau, kinematics);
  return c;
}

// A wall at rest.
GE_INLINE CoulombContact coulomb_wall_contact(const CoulombBody &i, const Vec3 &n, double overlap,
                                              const Vec3 &n_dot, double cap, double tau,
                                              CoulombKinematics kinematics)
{
  const Vec3 zero{0, 0, 0};
  return coulomb_moving_wall_contact(i, n, overlap, n_dot, zero, zero, cap, tau, kinematics);
}

GE_INLINE CoulombCoupling coulomb_coupling(const CoulombContact &c, double inv_mass_i,
                                           double inv_inertia_i, double inv_mass_j,
                                           double inv_inertia_j, double ftm2v)
{
  CoulombCoupling k;
  k.w_i = ftm2v * inv_mass_i;
  k.q_i = ftm2v * c.rho_i * inv_inertia_i;
  k.w_j = ftm2v * inv_mass_j;
  k.q_j = ftm2v * c.rho_j * inv_inertia_j;
  k.mass = c.inv_mt > 0.0 ? 1.0 / (ftm2v * c.inv_mt) : 0.0;
  return k;
}

// Totals of one particle: force (0..2) and torque (3..5), in LAMMPS' force units.
// The rate that would remain at the contact, s = v_t/tau + a_t, with a_t from the totals
// (which include this contact's current friction).
// What a sweep needs of a contact, for a number type R: double (one contact), or Lanes2
// (lanes.hpp: two contacts swept at once). Fixed within a step.
template <class R> struct CoulombSweepTerms {
  R n[3];                        // unit normal from j to i
  R rate0[3];                    // CoulombContact::rate0
  R w_i, q_i, w_j, q_j, mass;    // CoulombCoupling
  R rho_i, rho_j;                // r_i = -rho_i n, r_j = rho_j n
  R cap;                         // mu F_n
};

GE_INLINE CoulombSweepTerms<double> coulomb_sweep_terms(const CoulombContact &c,
                                                        const CoulombCoupling &k)
{
  return {{c.normal.x, c.normal.y, c.normal.z}, {c.rate0.x, c.rate0.y, c.rate0.z},
          k.w_i, k.q_i, k.w_j, k.q_j, k.mass, c.rho_i, c.rho_j, c.cap};
}

#if GE_HAVE_LANES2
// two contacts' terms in the two lanes (host code)
inline CoulombSweepTerms<Lanes2> coulomb_sweep_lanes(const CoulombSweepTerms<double> &a,
                                                     const CoulombSweepTerms<double> &b)
{
  CoulombSweepTerms<Lanes2> t;
  for (int m = 0; m < 3; m++) {
    t.n[m] = Lanes2{a.n[m], b.n[m]};
    t.rate0[m] = Lanes2{a.rate0[m], b.rate0[m]};
  }
  t.w_i = Lanes2{a.w_i, b.w_i};
  t.q_i = Lanes2{a.q_i, b.q_i};
  t.w_j = Lanes2{a.w_j, b.w_j};
  t.q_j = Lanes2{a.q_j, b.q_j};
  t.mass = Lanes2{a.mass, b.mass};
  t.rho_i = Lanes2{a.rho_i, b.rho_i};
  t.rho_j = Lanes2{a.rho_j, b.rho_j};
  t.cap = Lanes2{a.cap, b.cap};
  return t;
}
#endif

// a_rel = w_i f_i - w_j f_j - (q_i t_i + q_j t_j) x n (written once for every R)
template <class R>
GE_INLINE void coulomb_relative_acceleration(const CoulombSweepTerms<R> &t, const R total_i[6],
                                             const R total_j[6], R a[3])
{
  const R mx = t.q_i * total_i[3] + t.q_j * total_j[3];
  const R my = t.q_i * total_i[4] + t.q_j * total_j[4];
  const R mz = t.q_i * total_i[5] + t.q_j * total_j[5];
  a[0] = t.w_i * total_i[0] - t.w_j * total_j[0] - (my * t.n[2] - mz * t.n[1]);
  a[1] = t.w_i * total_i[1] - t.w_j * total_j[1] - (mz * t.n[0] - mx * t.n[2]);
  a[2] = t.w_i * total_i[2] - t.w_j * total_j[2] - (mx * t.n[1] - my * t.n[0]);
}

GE_INLINE Vec3 coulomb_relative_acceleration(const CoulombContact &c, const CoulombCoupling &k,
                                             const double *total_i, const double *total_j)
{
  double a[3];
  coulomb_relative_acceleration(coulomb_sweep_terms(c, k), total_i, total_j, a);
  return {a[0], a[1], a[2]};
}

// The linear part of the rate (D x)_c from the totals that the directions x alone make: the
// relative tangential acceleration (coulomb_rate without its velocity part rate0).
GE_INLINE Vec3 coulomb_rate_change(const CoulombSweepTerms<double> &t, const double *change_i,
                                   const double *change_j)
{
  double a[3];
  coulomb_relative_acceleration(t, change_i, change_j, a);
  return project_onto_plane(Vec3{a[0], a[1], a[2]}, Vec3{t.n[0], t.n[1], t.n[2]});
}

// The rate from the contact's packed terms (coulomb_sweep_terms): what the solvers' passes read
// where the contacts do not fit in the caches (112 of the 192 bytes of c and k).
GE_INLINE Vec3 coulomb_rate(const CoulombSweepTerms<double> &t, const double *total_i,
                            const double *total_j)
{
  const Vec3 rate0{t.rate0[0], t.rate0[1], t.rate0[2]};
  return rate0 + coulomb_rate_change(t, total_i, total_j);
}

GE_INLINE Vec3 coulomb_rate(const CoulombContact &c, const CoulombCoupling &k,
                            const double *total_i, const double *total_j)
{
  return coulomb_rate(coulomb_sweep_terms(c, k), total_i, total_j);
}

// The same from the bodies' inverse mass and inertia: a = ftm2v f/m, alpha = ftm2v T/I.
GE_INLINE Vec3 coulomb_rate(const CoulombContact &c, const double *total_i, double inv_mass_i,
                            double inv_inertia_i, const double *total_j, double inv_mass_j,
                            double inv_inertia_j, double ftm2v)
{
  return coulomb_rate(
      c, coulomb_coupling(c, inv_mass_i, inv_inertia_i, inv_mass_j, inv_inertia_j, ftm2v), total_i,
      total_j);
}

// Projection onto the friction disk |F| <= cap (notes: Coulomb projection), written once for every
// R: `stick` is a bool for R = double, a lane mask for Lanes2.
template <class R, class Mask>
GE_INLINE void coulomb_project(const R trial[3], R cap, R out[3], Mask &stick)
{
  // (most contacts stick: no root for them)
  const R size2 = trial[0] * trial[0] + trial[1] * trial[1] + trial[2] * trial[2];
  stick = size2 <= cap * cap;
  if (all_of(stick)) {
    for (int m = 0; m < 3; m++) out[m] = trial[m];
    return;
  }
  const R scale = cap / lanes_sqrt(size2);
  for (int m = 0; m < 3; m++) out[m] = lanes_select(stick, trial[m], scale * trial[m]);
}

GE_INLINE Vec3 coulomb_project(const Vec3 &trial, double cap, bool &stick)
{
  const double t[3] = {trial.x, trial.y, trial.z};
  double out[3];
  coulomb_project(t, cap, out, stick);
  return {out[0], out[1], out[2]};
}

// The contact's new friction force: F_trial = F_c - s m_t/ftm2v = -m_t (v_t/tau + a_t^nf), since
// a_t = a_t^nf + F_c/m_t (no normal-tangential coupling for spheres), projected.
// The result is kept in the tangent plane exactly.
GE_INLINE Vec3 coulomb_update(const CoulombContact &c, const CoulombCoupling &k, const Vec3 &force,
                              const Vec3 &rate, bool &stick)
{
  const Vec3 trial = project_onto_plane(force - k.mass * rate, c.normal);
  return coulomb_project(trial, c.cap, stick);
}

// The contact's new friction force from the totals in one pass: F_c - m (rate0 + P_n a_rel), with
// F_c and rate0 in the plane, is projected onto it once (what coulomb_update(c, k, F_c,
// coulomb_rate(...)) gives, to roundoff, with less work in the sweeps), then onto the disk.
// Written once for every R: `stick` is a bool for R = double, a lane mask for Lanes2.
template <class R, class Mask>
GE_INLINE void coulomb_projected_trial(const CoulombSweepTerms<R> &t, const R force[3],
                                       const R total_i[6], const R total_j[6], R out[3],
                                       Mask &stick)
{
  R a[3];
  coulomb_relative_acceleration(t, total_i, total_j, a);
  R g[3];
  for (int m = 0; m < 3; m++) g[m] = force[m] - t.mass * (t.rate0[m] + a[m]);
  const R along = g[0] * t.n[0] + g[1] * t.n[1] + g[2] * t.n[2];
  R trial[3];
  for (int m = 0; m < 3; m++) trial[m] = g[m] - along * t.n[m];
  coulomb_project(trial, t.cap, out, stick);
}

GE_INLINE Vec3 coulomb_update(const CoulombContact &c, const CoulombCoupling &k, const Vec3 &force,
                              const double *total_i, const double *total_j, bool &stick)
{
  const double f[3] = {force.x, force.y, force.z};
  double out[3];
  coulomb_projected_trial(coulomb_sweep_terms(c, k), f, total_i, total_j, out, stick);
  return {out[0], out[1], out[2]};
}

GE_INLINE Vec3 coulomb_update(const CoulombContact &c, const Vec3 &force, const Vec3 &rate,
                              double ftm2v, bool &stick)
{
  CoulombCoupling k;
  k.mass = 1.0 / (ftm2v * c.inv_mt);
  return coulomb_update(c, k, force, rate, stick);
}

// A change dF of the friction on i (and -dF on j) into the totals: the force at P gives the
// torques r_i x dF on i and -r_j x dF on j.
GE_INLINE void coulomb_add_to(double *total, const Vec3 &branch, const Vec3 &force)
{
  const Vec3 t = cross(branch, force);
  total[0] += force.x;
  total[1] += force.y;
  total[2] += force.z;
  total[3] += t.x;
  total[4] += t.y;
  total[5] += t.z;
}

// A change dF of the friction of contact c into the totals of both bodies: torques
// r_i x dF = -rho_i n x dF on i and r_j x (-dF) = -rho_j n x dF on j.
// (written once for every number type R, see CoulombSweepTerms)
template <class R>
GE_INLINE void coulomb_add_change(const R n[3], R rho_i, R rho_j, R total_i[6], R total_j[6],
                                  const R change[3])
{
  const R turn[3] = {n[1] * change[2] - n[2] * change[1], n[2] * change[0] - n[0] * change[2],
                     n[0] * change[1] - n[1] * change[0]};
  for (int m = 0; m < 3; m++) {
    total_i[m] += change[m];
    total_i[3 + m] -= rho_i * turn[m];
    total_j[m] -= change[m];
    total_j[3 + m] -= rho_j * turn[m];
  }
}

// A change of a contact's force into the two bodies' totals (coulomb_add_change), from its packed
// terms (coulomb_sweep_terms) or from the contact
GE_INLINE void coulomb_add_pair(const CoulombSweepTerms<double> &t, double *total_i,
                                double *total_j, const Vec3 &change)
{
  const double dF[3] = {change.x, change.y, change.z};
  coulomb_add_change(t.n, t.rho_i, t.rho_j, total_i, total_j, dF);
}

GE_INLINE void coulomb_add_pair(const CoulombContact &c, double *total_i, double *total_j,
                                const Vec3 &change)
{
  const double n[3] = {c.normal.x, c.normal.y, c.normal.z};
  const double dF[3] = {change.x, change.y, change.z};
  coulomb_add_change(n, c.rho_i, c.rho_j, total_i, total_j, dF);
}

// One contact's step of a projected Gauss-Seidel sweep: the new force from the
// totals (coulomb_projected_trial), of which the share `relax` is taken (1 unless copies of a
// body are swept at the same time elsewhere), put into the force and the totals. Returns the
// change squared relative to (mu F_n)^2. With R = Lanes2 two contacts that share no body are
// stepped at once: the same as stepping them one after the other.
template <class R, class Mask>
GE_INLINE R coulomb_sweep_step(const CoulombSweepTerms<R> &t, R relax, R force[3], R total_i[6],
                               R total_j[6], Mask &stick)
{
  R projected[3];
  coulomb_projected_trial(t, force, total_i, total_j, projected, stick);
  R change[3];
  for (int m = 0; m < 3; m++) {
    change[m] = relax * (projected[m] - force[m]);
    force[m] = force[m] + change[m];
  }
  coulomb_add_change(t.n, t.rho_i, t.rho_j, total_i, total_j, change);
  return (change[0] * change[0] + change[1] * change[1] + change[2] * change[2]) /
      (t.cap * t.cap);
}

// ------------------------------------------------------------------------------------------------
// APGD (notes: Coulomb solvers). The forces F of all contacts minimise the convex
// f(F) = F.D F/2 + c.F over the product of the friction disks, D the (tangential) Delassus
// operator: its gradient at F is the rate s_c of every contact (coulomb_rate, acceleration
// units), and the disks' optimality conditions are exactly stick (s = 0 inside the disk) and slip
// (s against F on its rim). Each iteration is a projected gradient step with a diagonal
// preconditioner, F_c <- Pi_c(y_c - s_c(y)/R_c), R_c a bound on the row of D:
//     R_c = n_i w_i + q_i P_i + n_j w_j + q_j P_j
// with, for each body b of the contact, n_b its number of contacts (on every process) and P_b the
// sum of their lever arms rho, w and q the contact's coupling (CoulombCoupling): the block of D
// between contacts c and c' on body b is at most w_b + q_{c,b} rho_{c',b} in norm, so
// diag(R) - D is diagonally dominant, D <= diag(R), and the step 1/R_c is safe (Lipschitz
// constant 1 in the preconditioned metric). A contact alone on its bodies has R_c = 1/m_t: the
// step is then the Gauss-Seidel update.

// R_c of a contact from its coupling and the per-body sums (count, lever-arm sum) of its two
// bodies (a wall: zeros).
GE_INLINE double coulomb_row_bound(const CoulombCoupling &k, double count_i, double levers_i,
                                   double count_j, double levers_j)
{
  return count_i * k.w_i + k.q_i * levers_i + count_j * k.w_j + k.q_j * levers_j;
}

// The projected gradient step of one contact at y: Pi(P_n(y - s/R)), s the rate at y (from the
// totals at y); `rate` gets s (the gradient, for the restart test), `stick` whether the trial lay
// inside the disk.
GE_INLINE Vec3 coulomb_gradient_step(const CoulombSweepTerms<double> &t, double inv_row,
                                     const Vec3 &y, const double *total_i, const double *total_j,
                                     Vec3 &rate, bool &stick)
{
  rate = coulomb_rate(t, total_i, total_j);
  const Vec3 trial = project_onto_plane(y - inv_row * rate, Vec3{t.n[0], t.n[1], t.n[2]});
  return coulomb_project(trial, t.cap, stick);
}

// One contact's APGD iteration, as a host loop or one device thread runs it: from the point y,
// whose totals the contact reads, the projected gradient step gives the new force (force <-
// next); the next point y' = next + momentum (next - the old force) is
// returned as the change y' - y that goes into the totals of the next point, and y <- y'. Every
// contact reads the same totals and writes only its own move: the order of the contacts, or
// their threads, does not matter. The iteration's reductions take `change2` (|next - y|^2; the
// caller compares it with cap2 = (mu F_n)^2 for the largest relative change) and `slope`
// (s . (next - the old force), summed over the contacts: > 0 restarts the momentum).
struct CoulombApgdMove {
  Vec3 y_change;
  double change2, cap2, slope;
  bool stick;
};

GE_INLINE CoulombApgdMove coulomb_apgd_step(const CoulombSweepTerms<double> &t, double inv_row,
                                            double momentum, const double *total_i,
                                            const double *total_j, Vec3 &force, Vec3 &y)
{
  CoulombApgdMove m;
  Vec3 rate;
  const Vec3 next = coulomb_gradient_step(t, inv_row, y, total_i, total_j, rate, m.stick);
  const Vec3 change = next - y;
  m.change2 = dot(change, change);
  m.cap2 = t.cap * t.cap;
  m.slope = dot(rate, next - force);
  const Vec3 y_next = next + momentum * (next - force);
  force = next;
  m.y_change = y_next - y;
  y = y_next;
  return m;
}

GE_INLINE CoulombApgdMove coulomb_apgd_step(const CoulombContact &c, const CoulombCoupling &k,
                                            double inv_row, double momentum,
                                            const double *total_i, const double *total_j,
                                            Vec3 &force, Vec3 &y)
{
  return coulomb_apgd_step(coulomb_sweep_terms(c, k), inv_row, momentum, total_i, total_j, force,
                           y);
}

// Nesterov's momentum of APGD (notes: Coulomb solvers): theta_{k+1} from theta_k, and the
// momentum theta_k (1 - theta_k)/(theta_k^2 + theta_{k+1}) of the next point.
GE_INLINE double coulomb_apgd_next_theta(double theta)
{
  return 0.5 * (theta * std::sqrt(theta * theta + 4.0) - theta * theta);
}

GE_INLINE double coulomb_apgd_momentum(double theta, double next_theta)
{
  return theta * (1.0 - theta) / (theta * theta + next_theta);
}

// ------------------------------------------------------------------------------------------------
// Newton steps on the face (notes: Coulomb Newton). Once APGD has found which contacts stick and
// which slide, the step's problem is smooth on that face: a stuck contact's force is free in its
// tangent plane and its rate must vanish; a sliding contact's force stays on its rim,
// F = mu F_n u, and only turns along it, e = n x u, until its rate points against it. The rim's
// condition e . s = 0, linearised in the turn delta of F (u turns by delta/(mu F_n), s by
// D delta), is
//     e . (D delta) + (|s| / (mu F_n)) (e . delta) = -e . s,
// the curvature term |s|/(mu F_n) being the derivative of the projection onto the disk on its
// rim. With the stuck contacts' D delta = -s, the Newton step solves a symmetric positive semi-
// definite system (D restricted to the face plus the curvatures) by conjugate residuals over the
// contacts (conjugate gradients until 2026-11-27): each iteration one product with D, made as
// the solvers make their totals.

// The APGD iterations solver newton takes before its first Newton step: what the face took to
// settle on the beds measured (bench/README.md, "The Newton solver"); a budget of at most this
// many is APGD alone. 100 until the Newton steps' CG had the Gauss-Seidel preconditioner; then
// 50 took less time from the previous forces (warm yes, 8 steps to tol 1e-8, 2 runs each: -20 %
// on 9 layers, -11 % on 18, +2 % on 36, -21 % on 72 at rest, and with the default start -9 % on
// 72 moving, -5 % on 30 steps of the pour's heap; 25: +28 % on the heap).
constexpr int kCoulombNewtonFirstApgd = 50;
// ... and from an extrapolated start (notes: Coulomb warm start) further than
// kCoulombNewtonCloseStart from the solution, or any start already within tol (so that every
// step iterates; kCoulombNewtonFirstApgdNear below), whose face is all but found (measured
// from extrapolated starts on the settled beds, 8 steps to tol 1e-8, iterations per step with
// 100 and 25: 159 and 98 on 9 layers, 222 and 191 on 18, 253 and 245 on 36, 367 and 288 on 72
// at rest, 961 and 937 on 72 moving). 25 until the Newton steps' CG had the Gauss-Seidel
// preconditioner, a CG limit of its own and a tighter stop from such a start; then 10 (24 steps
// to tol 1e-8: 54.9 -> 47.0 iterations per step on 9 layers, 75.9 -> 59.5 on 18, 95.2 -> 79.9 on
// 36; 8 steps: 429.6 -> 419.0 on 72 moving; no contact changed its face in a Newton step on the
// first three).
constexpr int kCoulombNewtonFirstApgdClose = 10;
// ... and none from a start within kCoulombNewtonCloseStart of the solution in true error
// (extrapolated or not) but not yet within tol: its face is the solution's, and the first Newton
// step is taken on it at once (2026-11-27, 8 steps to tol 1e-8 from the settled beds, whose steps
// start at 2e-6 to 2e-5 on 9 and 18 layers, extrapolated, and at 8.6e-7 on 72 at rest, from the
// previous forces: iterations per step 46.1 -> 37.0 on 9 layers, 51.6 -> 44.6 on 18, 48.2 -> 39.8
// on 72 at rest. Tried first on every close start, extrapolated or not, with 2 and 0 APGD
// iterations: 38.2 and 34.6 on 9 layers, 46.6 and 40.5 on 18, 36.0 and 39.8 on 72 at rest, but
// 89.9 and 117.9 against 62.9 on 36 layers, whose extrapolated starts are at 1e-4 to 4e-4: those
// keep the phase of 10).
constexpr int kCoulombNewtonFirstApgdNear = 0;
// The true error (of mu F_n) of a start below which it counts as close whether extrapolated or
// not, and the first Newton step needs no APGD phase before it (kCoulombNewtonFirstApgdNear): the
// previous forces of a bed at rest, kept by the start rule where extrapolating would mostly
// amplify the solves' own error (the 72-layer bed at rest starts from them at 8.6e-7 on most
// steps; with the first phase of 50 and CG to 1 % there, 101.4 iterations per step, with those
// of a close start 69.9: 8 steps to tol 1e-8), and the extrapolated starts of the settled 9- and
// 18-layer beds. The starts of moving beds and of a pour are decades further (1e-2 to 1 on the
// moving 72-layer bed): 1e-5 leaves them as they were. Measuring it costs one pass per step.
constexpr double kCoulombNewtonCloseStart = 1e-5;

// The Newton steps' Krylov iterations and what follows them (FixCoulombFrictionExact::
// solve_newton and newton_step, and its parallel form in the device benchmark).
// (The Krylov iterations of a Newton step are conjugate residuals since 2026-11-27, conjugate
// gradients before; "CG" below names them, and the measurements quoted were made with CG.)
// the most CG iterations of a Newton step per APGD iteration of the phase before it (or of a
// phase after a step, where the first phase was shorter): a step on a face that is still wrong
// costs at most 4 phases (measured on the 72-layer beds, 8 steps each, before the limit of
// misses below: 541 and 1,142 iterations per step at rest and moving, against 555 and 1,391
// with 10, 608 and 1,330 with 2)
constexpr int kCoulombNewtonCgPerApgd = 4;
// APGD iterations after a Newton step
constexpr int kCoulombNewtonApgdAfterStep = 25;
// missed Newton steps after which a solve goes on with APGD alone, counting only the steps whose
// Krylov solve ran to its cap (kCoulombNewtonCgPerApgd): there the stuck contacts' system is too
// stiff for the cap and each retry costs twice the last (on the 144-layer bed at rest every step
// runs to its cap and misses by more each time, and Newton steps without this limit took 7.6x
// APGD's iterations). A step whose system was solved and still missed had the wrong face, which
// the next, longer APGD phase finds: on a step of the sheared test packing (1,533 contacts) three
// such misses were followed by a step that landed, 1,388 iterations to 1e-13 against 73,452 when
// every miss counted (2026-11-27; bench/README.md, "Missed Newton steps").
constexpr int kCoulombNewtonMisses = 3;
// a Newton step's CG stops where the contacts' largest left rate is this share of its start
// (inexact Newton: the next step corrects the rest, and a wrong face costs less)
constexpr double kCoulombNewtonCgReduction = 0.01;
// ... 0.1 % from a close start (an extrapolated one, or kCoulombNewtonCloseStart), whose face
// is all but the solution's (no contact changed its face in a Newton step of 24 steps of the 9-,
// 18- and 36-layer beds from extrapolated starts): one CG run to about
// tol rather than two, the second restarting CG's directions from scratch (with the first APGD
// phase of 10 there, iterations per step with 0.01 and 0.001: 43.1 and 47.0 on 9 layers, 58.5
// and 59.5 on 18, 113.0 and 79.9 on 36; 0: 47.0, 59.5, 94.5)
constexpr double kCoulombNewtonCgReductionClose = 0.001;
// ... or where it is this share of tol: the left rates are the stuck contacts' true errors to
// first order, the rest is the margin for the step's return onto the disks (measured, 8 steps to
// tol 1e-8 from the extrapolated start, iterations per step with 0.3, 0.6 and 0.9: 97.8, 94.8
// and 91.2 on 9 layers, 190.2, 174.8, 155.1 on 18, 244.4, 230.5, 215.8 on 36, 298.0, 265.5,
// 255.0 on 72 at rest, 904.8, 895.4, 895.4 moving, and 484.8, 484.8, 519.5 on the 36-layer bed
// 24 spheres wide: 0.6 is at least as good as 0.3 on every bed)
constexpr double kCoulombNewtonCgStopOfTol = 0.6;
// the most CG iterations between two computations of the true residual (each one more sweep)
constexpr int kCoulombNewtonCgCheckEvery = 16;

// One contact's part of the face: its free direction on the rim (sliding) and curvature term.
struct CoulombFace {
  Vec3 along{0, 0, 0};    // e = n x F/|F| of a sliding contact
  double curvature = 0.0;    // |s| / (mu F_n) of a sliding contact, 0 for a stuck one
  double inverse_diagonal = 0.0;    // 1/(1/m_t + curvature): the preconditioner
  bool sliding = false;
};

// Whether a force lies on the rim of its disk (to 1e-9): the contact slides.
GE_INLINE bool coulomb_on_rim(const CoulombContact &c, const Vec3 &force)
{
  return c.cap > 0.0 && norm(force) >= c.cap * (1.0 - 1e-9);
}

// The face of a contact at its force and rate. The preconditioner is the inverse of the
// Newton operator's diagonal block: D's is 1/m_t in the plane (`mass` = m_t/ftm2v), plus the
// curvature on a rim.
GE_INLINE CoulombFace coulomb_face(const CoulombContact &c, const CoulombCoupling &k,
                                   const Vec3 &force, const Vec3 &rate)
{
  CoulombFace face;
  // a contact without friction (mu F_n = 0) or whose bodies cannot move has no freedom: along
  // stays zero, and the face takes none of its force space
  if (!(c.cap > 0.0) || !(k.mass > 0.0)) {
    face.sliding = true;
    return face;
  }
  face.sliding = coulomb_on_rim(c, force);
  if (face.sliding) {
    face.along = cross(c.normal, (1.0 / norm(force)) * force);
    face.curvature = norm(rate) / c.cap;
  }
  face.inverse_diagonal = 1.0 / (1.0 / k.mass + face.curvature);
  return face;
}

// A vector of the contact's force space restricted to its face: along the rim where it slides.
GE_INLINE Vec3 coulomb_onto_face(const CoulombFace &face, const Vec3 &v)
{
  return face.sliding ? dot(v, face.along) * face.along : v;
}

// The Newton operator's row of the contact: from (D x)_c, the change of its rate that the
// directions x of all contacts make, and its own x_c.
GE_INLINE Vec3 coulomb_face_operator(const CoulombFace &face, const Vec3 &d_x, const Vec3 &x)
{
  return coulomb_onto_face(face, d_x + face.curvature * x);
}

// The linear part of the rate (D x)_c, from the totals that the directions x alone make
// (coulomb_rate_change above).
GE_INLINE Vec3 coulomb_rate_change(const CoulombContact &c, const CoulombCoupling &k,
                                   const double *change_i, const double *change_j)
{
  return coulomb_rate_change(coulomb_sweep_terms(c, k), change_i, change_j);
}

// (m_t |r| / mu F_n)^2 of a residual r of the Newton system: the rate it leaves, as a share of
// what the contact's friction can hold (0 for a contact without friction; squared: no root)
GE_INLINE double coulomb_scaled_residual2(const CoulombSweepTerms<double> &t, const Vec3 &r)
{
  return t.cap > 0.0 ? t.mass * t.mass * dot(r, r) / (t.cap * t.cap) : 0.0;
}

// The inverse of the Newton system's diagonal block applied to a residual r (the diagonal
// preconditioner; the Gauss-Seidel sweep's step, coulomb_face_sweep_step).
GE_INLINE Vec3 coulomb_face_precondition(const CoulombFace &face, const Vec3 &r)
{
  return coulomb_onto_face(face, face.inverse_diagonal * r);
}

// The coupling of a contact to the directions already in the totals: (D y)_c on its face, from
// the totals that the other contacts' y make (read before the contact adds its own).
GE_INLINE Vec3 coulomb_face_coupling(const CoulombSweepTerms<double> &t, const CoulombFace &face,
                                     const double *total_i, const double *total_j)
{
  return coulomb_onto_face(face, coulomb_rate_change(t, total_i, total_j));
}

// One contact's step of a Gauss-Seidel sweep over the Newton system (the symmetric Gauss-Seidel
// preconditioner of its conjugate residuals, Coulomb Newton in the design notes): y_c =
// D_cc^-1 (rhs - coupling) on the face, D_cc its diagonal block (1/m_t plus the curvature), the
// coupling that of the contacts before it in the sweep, read from the totals (and given back);
// y_c is then added to the totals, for the contacts after it.
GE_INLINE Vec3 coulomb_face_sweep_step(const CoulombSweepTerms<double> &t, const CoulombFace &face,
                                       const Vec3 &rhs, double *total_i, double *total_j,
                                       Vec3 &coupling)
{
  coupling = coulomb_face_coupling(t, face, total_i, total_j);
  const Vec3 y = coulomb_face_precondition(face, rhs - coupling);
  coulomb_add_pair(t, total_i, total_j, y);
  return y;
}

// The force after a Newton step delta, back on the disk: a sliding force onto its rim, a stuck
// one clipped where the step took it outside (it slides from then on).
GE_INLINE Vec3 coulomb_newton_force(const CoulombContact &c, const CoulombFace &face,
                                    const Vec3 &force, const Vec3 &delta)
{
  const Vec3 next = project_onto_plane(force + delta, c.normal);
  const double size = norm(next);
  if (size == 0.0 || (!face.sliding && size <= c.cap)) return next;
  return (c.cap / size) * next;
}

// The natural residual of one contact (notes: Coulomb solvers): |F - Pi(F - m_t s)|/(mu F_n),
// s the rate at the current forces: zero exactly when the contact sticks with s = 0 inside its
// disk or slides on its rim with s against F, whatever the other contacts do; its largest value
// over the contacts is zero exactly on the solutions of the step's friction problem.
GE_INLINE double coulomb_natural_residual(const CoulombContact &c, const CoulombCoupling &k,
                                          const Vec3 &force, const Vec3 &rate)
{
  bool stick;
  const Vec3 update = coulomb_update(c, k, force, rate, stick);
  return norm(force - update) / c.cap;
}

// The stored force of the previous step as the start of this step's sweeps (warm start): onto the
// current tangent plane keeping its size, then clipped to the current cap.
GE_INLINE Vec3 coulomb_warm_start(const Vec3 &stored, const Vec3 &normal, double cap)
{
  const double size2 = dot(stored, stored);
  if (size2 == 0.0) return stored;
  const Vec3 in_plane = project_onto_plane(stored, normal);
  const double plane_size2 = dot(in_plane, in_plane);
  if (plane_size2 == 0.0) return Vec3{0, 0, 0};
  // min(|F|, cap)/|P F| with one root
  return std::sqrt(std::fmin(size2, cap * cap) / plane_size2) * in_plane;
}

// The start of a step's solve extrapolated in time (notes: Coulomb warm start): the stored force
// plus its change over the last step, onto the current tangent plane and clipped as a warm start.
// In a bed whose loads change smoothly (normal forces following slow compaction or elastic
// waves) the friction of a stuck contact follows them: the stored force alone leaves the solve
// a true error of the step's change (4e-3 of mu F_n on a settled 18-layer bed), the first-order
// extrapolation one of its second difference (5e-6 there).
GE_INLINE Vec3 coulomb_extrapolated_start(const Vec3 &stored, const Vec3 &last_change,
                                          const Vec3 &normal, double cap)
{
  return coulomb_warm_start(stored + last_change, normal, cap);
}

// The change of a contact's stored force over a step, for the next step's extrapolated start:
// zero unless both forces are solutions to tol (`both_solved`; an unconverged solve's change is
// mostly its own error, which extrapolation would double) and the old force is a solved one
// (zero: a new contact, or one that had no friction to solve).
GE_INLINE Vec3 coulomb_force_change(const Vec3 &new_force, const Vec3 &old_force, bool both_solved)
{
  if (!both_solved || is_zero(old_force)) return Vec3{0, 0, 0};
  return new_force - old_force;
}

// Energy dissipated by the friction force F over the kick it takes part in (tau: the step, or
// the half step of run setup). Velocity Verlet applies F over v -> v' with the branch vectors
// fixed, which changes the kinetic energy by exactly tau F.(v_P + v_P')/2 at the contact point:
// the dissipation is -tau F.(v_t + v_t')/2, with v_t' = v_t + tau P_n(a_i - a_j) the contact
// velocity after the kick (the rate s less its velocity part rate0, no quadratic terms).
GE_INLINE double coulomb_step_dissipation(const CoulombContact &c, const Vec3 &force,
                                          const Vec3 &final_rate, double tau)
{
  const Vec3 v_next = c.v_t + tau * (final_rate - c.rate0);
  return -0.5 * tau * dot(force, c.v_t + v_next);
}

// The same dissipation summed over bodies instead of contacts. A contact's friction F acts at
// the contact points, where F.(omega x r) = omega.(r x F): its power there is that of its force
// and torque on the two bodies, so the sum over contacts of coulomb_step_dissipation is the sum
// over bodies of -tau (F.v_mean + T.omega_mean), F and T the body's friction force and torque
// (from all its contacts), v_mean and omega_mean its mean velocity and spin over the kick, which
// its totals (all forces, friction included) change by tau w f and tau alpha t; w = ftm2v/m and
// alpha = ftm2v/I, 0 where the body does not move under forces. A body sum needs no contact's
// relative acceleration, so it costs one pass over the bodies instead of one over the contacts.
GE_INLINE double coulomb_body_dissipation(const Vec3 &friction_force,
                                          const Vec3 &friction_torque, const Vec3 &v,
                                          const Vec3 &omega, const double total[6], double w,
                                          double alpha, double tau)
{
  const Vec3 v_mean = v + (0.5 * tau * w) * vec3(total);
  const Vec3 omega_mean = omega + (0.5 * tau * alpha) * vec3(total + 3);
  return -tau * (dot(friction_force, v_mean) + dot(friction_torque, omega_mean));
}

// What the body sum leaves out of a wall contact: the wall's own material point moves at v_wall
// (fixed over the kick), and the friction's dissipation there is -tau F.(-v_wall). Since F lies
// in the tangent plane, F.v_wall = F.(u - v_t), u = v_i + omega_i x r_i the velocity of the
// sphere's contact point: the wall contact's term to add to the body sum.
GE_INLINE double coulomb_wall_dissipation(const CoulombContact &c, const Vec3 &force,
                                          const Vec3 &v_i, const Vec3 &omega_i, double tau)
{
  const Vec3 u = v_i + cross(omega_i, c.r_i);
  return tau * (dot(force, u) - dot(force, c.v_t));
}

}    // namespace ge
