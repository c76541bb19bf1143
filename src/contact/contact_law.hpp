// One contact law, one entry: the plain, tagged law of a type pair (or of a wall) and the one
// function that advances one contact under it, for every law of the package - the linear laws
// (classic and refined, linear_frictional.hpp), the Jaeger contact (jaeger.hpp) and the
// catalogue (catalogue_law.hpp, with the Yade moments). The pair style, the wall fix, a device
// functor and the kernel tests call contact_step(); what differs between laws (their state and
// how a contact that exists at a run's setup is recorded) stays behind it.
//
// The contact is between body i and body j: two spheres, or a sphere (i) and a wall (j: its
// material point at the contact moves at v_j and turns at omega_j, and its lever arm r_j is 0;
// its radius and mass enter only through the effective radius and mass the caller gives, the
// limit R_j, m_j -> infinity). The normal points from j to i.
//
// Header-only, no allocation, no virtual calls, no LAMMPS: callable from host and device code.
#pragma once

#include "contact/catalogue_law.hpp"
#include "contact/coulomb_constraint.hpp"
#include "contact/jaeger.hpp"
#include "contact/linear_frictional.hpp"
#include "contact/vec3.hpp"

namespace ge {

// What a law is made of (the words of pair_coeff and of the wall fix). The catalogue's own
// normal, damping and tangential models are in `cat`.
enum LawNormal : int { LAW_HOOKE = 0, LAW_HERTZ = 1, LAW_HLS = 2, LAW_JKR = 3, LAW_DMT = 4 };
enum LawDamping : int { LAW_DAMPING_NONE = 0, LAW_DAMPING_VISCOUS = 1, LAW_DAMPING_CATALOGUE = 2 };
enum LawTangential : int { LAW_CLASSIC = 0, LAW_REFINED = 1, LAW_JAEGER = 2, LAW_CATALOGUE = 3 };

// The law of one type pair (or of a wall): plain data, trivially copyable to a device.
struct ContactLaw {
  int normal = LAW_HOOKE;            // LawNormal
  int damping = LAW_DAMPING_NONE;    // LawDamping
  int tangential = LAW_CLASSIC;      // LawTangential
  LinearParams linear;     // hooke + classic | refined; its eta_n, eta_t serve the Jaeger law too
  JaegerMaterial jaeger;   // hertz + jaeger
  HertzParams hertz;       // hertz: E, nu of body i and of body j (one material: repeated)
  CatalogueLaw cat;        // the catalogue's normal, damping, tangential models and Yade moments
  CoulombSolverSettings coulomb;    // tangential coulomb: its solver settings
};

GE_INLINE bool is_linear(const ContactLaw &law)
{
  return law.tangential == LAW_CLASSIC || law.tangential == LAW_REFINED;
}
GE_INLINE bool is_coulomb(const ContactLaw &law)
{
  return law.tangential == LAW_CATALOGUE && law.cat.tangential.model == TangentialModel::Coulomb;
}
// The Yade rolling and twisting moments (yade_moments.hpp) go with every law; their parameters
// are kept in cat.yade for all of them.
GE_INLINE bool has_moments(const ContactLaw &law)
{
  return law.cat.yade.rolling.active || law.cat.yade.twisting.active;
}
// Moments with a dashpot (`damp`): their step needs the bodies' inertias (ContactBodies).
GE_INLINE bool has_moment_dashpots(const ContactLaw &law)
{
  const YadeMomentParams &y = law.cat.yade;
  return (y.rolling.active && y.rolling.gamma > 0.0) ||
      (y.twisting.active && y.twisting.gamma > 0.0);
}

// A `tangential coulomb` contact without Yade moments gives its pair style the normal force
// alone (along the normal: no torque) and F_n^c, the cap of the friction a fix solves after all
// other forces (coulomb_constraint.hpp): coulomb_normal_step() below, which needs none of the
// tangential kinematics of contact_step().
GE_INLINE bool is_coulomb_normal_only(const ContactLaw &law)
{
  return is_coulomb(law) && !has_moments(law);
}

// A JKR law (adhesion.hpp): its contacts, once made, hold after the surfaces part.
GE_INLINE bool holds_apart(const ContactLaw &law)
{
  return law.tangential == LAW_CATALOGUE && law.cat.normal.model == NORMAL_JKR;
}

// Whether a contact whose surfaces are apart (overlap <= 0) goes on: a made JKR contact (its
// stored state says so: made = state[CS_NORMAL], 1 once made) down to its break overlap. Every
// other contact ends when its surfaces part.
GE_INLINE bool goes_on_apart(const ContactLaw &law, double overlap, double rbar, double made)
{
  return holds_apart(law) && made != 0.0 &&
      overlap > jkr_break_overlap(law.cat.normal.Ebar, rbar, law.cat.normal.gamma);
}

// One contact at the end of a step, as LAMMPS' velocity Verlet hands it to the force
// computation: after the position update, with the half-step velocities and spins, so that
// v dt is exactly the movement of the step.
struct ContactBodies {
  Vec3 normal{0, 0, 1};     // unit normal from j to i
  double overlap = 0.0;     // R_i + R_j - distance (> 0 touching); a wall: R_i - distance
  Vec3 v_i{0, 0, 0}, v_j{0, 0, 0};            // velocities (a wall: of its material point)
  Vec3 omega_i{0, 0, 0}, omega_j{0, 0, 0};    // spins (a wall: its spin)
  double r_i = 0.0, r_j = 0.0;    // centre to the contact point in the middle of the overlap,
                                  // R - overlap/2 (a wall: r_j = 0)
  double radius_i = 0.0, radius_j = 0.0;    // radii for the Yade moments (a wall: R_j = R_i)
  double rbar = 0.0;        // effective radius R_i R_j/(R_i + R_j) (a wall: of its curvature)
  double mbar = 0.0;        // effective mass (the bodies' masses: a clump's, a frozen atom's)
  double inv_inertia_i = 0.0, inv_inertia_j = 0.0;    // 1/I about the centres, for the Yade
                            // dashpots only (sphere_inverse_inertia; 0: a body that does not
                            // turn, a wall or a frozen atom)
  double dt = 0.0;
  bool advance = true;      // false: run setup or output, no step is taken
  bool energies = true;     // false: energy_n and energy_t are 0 (steps with no output)
  // A wall whose normal turns as the sphere moves along it (a cylinder): the signed distance
  // from i's centre to the wall's centre of curvature in the plane where the normal turns,
  // x_i - centre = wall_arm * normal (negative: a concave wall, such as a cylinder seen from
  // inside), and the velocity of that centre (a cylinder's: the point of its axis nearest to i).
  // 0: a flat wall, or one that gives no centre (its movement is then taken to first order).
  // Two spheres: not read; their centres are the bodies' own (design notes: Jaeger frame).
  double wall_arm = 0.0;
  Vec3 v_wall_centre{0, 0, 0};
};

// What the step gives: the forces and torques on the bodies and the contact's tallies. Every
// member is set by contact_step(), none has a default: zeroing the struct first (rep stos)
// and copying it cost 13 % of a step of the linear benchmark (bench/README.md).
struct ContactResult {
  Vec3 force_i;          // force on i; on j the opposite
  Vec3 torque_i;         // torque of the contact forces on i about its centre
  Vec3 torque_j;         // and on j (a wall: not applied)
  Vec3 moment;           // Yade moment M: -M on i, +M on j (on top of the torques)
  double energy_n;       // elastic normal energy (0 without ContactBodies::energies)
  double energy_t;       // elastic tangential energy (linear laws; 0 for the others)
  double energy_moment;  // elastic energy of the Yade springs (0 without)
  double fn_cap;         // F_n^c, the normal force of every cap (catalogue laws; 0 otherwise)
  bool sliding;
};

// Per-contact state: the fixed part (its size by law: LINEAR_HISTORY_SIZE for the linear laws,
// CATALOGUE_STATE_SIZE for the catalogue (COULOMB_STATE_SIZE with `tangential coulomb`),
// JAEGER_STATE_SIZE + 1 for the Jaeger contact: its
// frame, force and sliding flag) and, for the Jaeger contact, a view onto its history
// vertices. All zero = no stored state: a contact that exists at a run's setup (advance false)
// is then recorded as pressed normally to its overlap (see each law's *_press / init), and one
// that is found in a step is new in that step.
// The Yade moments' relative rotation (YADE_MOMENT_STATE_SIZE doubles) follows a linear or
// Jaeger law's own state when the law has moments; the catalogue state holds it at CS_YADE.
constexpr int JAEGER_FIXED_SIZE = JAEGER_STATE_SIZE + 1;
constexpr int LINEAR_MOMENT_STATE = LINEAR_HISTORY_SIZE;
constexpr int JAEGER_MOMENT_STATE = JAEGER_FIXED_SIZE;
constexpr int CONTACT_STATE_MAX = int(LINEAR_HISTORY_SIZE) + int(YADE_MOMENT_STATE_SIZE);
static_assert(int(COULOMB_STATE_SIZE) <= CONTACT_STATE_MAX &&
                  JAEGER_FIXED_SIZE + int(YADE_MOMENT_STATE_SIZE) <= CONTACT_STATE_MAX,
              "every law's fixed state fits CONTACT_STATE_MAX");

// The doubles of a contact's fixed state under `law` (the Jaeger vertices apart).
GE_INLINE int contact_state_size(const ContactLaw &law)
{
  const int moments = has_moments(law) ? int(YADE_MOMENT_STATE_SIZE) : 0;
  if (law.tangential == LAW_JAEGER) return JAEGER_FIXED_SIZE + moments;
  if (law.tangential == LAW_CATALOGUE)
    return is_coulomb(law) ? COULOMB_STATE_SIZE : CATALOGUE_STATE_SIZE;
  return int(LINEAR_HISTORY_SIZE) + moments;
}

// The layout of a contact's state under `law`: laws of the same kind read each other's states.
// (A linear or Jaeger law with Yade moments keeps their relative rotation after its own state:
// the moments' flags are part of the kind; a catalogue law's kind names its tangential and
// normal models and its moments.)
GE_INLINE int state_kind(const ContactLaw &lw)
{
  const int moments = 4 * lw.cat.yade.rolling.active + 2 * lw.cat.yade.twisting.active +
      lw.cat.yade.combined;
  if (lw.tangential == LAW_CLASSIC || lw.tangential == LAW_REFINED)
    return moments ? 1024 + moments : 0;
  if (lw.tangential == LAW_JAEGER) return moments ? 2048 + moments : 1;
  const CatalogueLaw &c = lw.cat;
  return 2 + 64 * static_cast<int>(c.tangential.model) + 8 * static_cast<int>(c.normal.model) +
      4 * c.yade.rolling.active + 2 * c.yade.twisting.active + c.yade.combined;
}

// Where the Yade relative rotation (YADE_MOMENT_STATE_SIZE doubles) sits in the state of `law`.
GE_INLINE int moment_state_offset(const ContactLaw &law)
{
  return law.tangential == LAW_JAEGER ? JAEGER_MOMENT_STATE
      : law.tangential == LAW_CATALOGUE ? int(CS_YADE)
                                        : LINEAR_MOMENT_STATE;
}

namespace contact_detail {

// The movement of the step as the linear and catalogue laws see it.
GE_FORCE_INLINE LinearStep linear_step_of(const ContactBodies &b)
{
  return step_from_velocities(b.normal, b.overlap, b.v_i - b.v_j,
                              b.r_i * b.omega_i + b.r_j * b.omega_j,
                              0.5 * (b.omega_i + b.omega_j), b.dt);
}

// The line of centres of the contact (design notes: Jaeger frame): the signed distance from i's
// centre to j's centre of curvature, x_i - x_j = arm * normal (0: not known, a flat wall), and
// the movement of j's centre relative to i's over the step. Two spheres (r_j > 0): their centre
// distance r_i + r_j (R_i + R_j - overlap) and their own velocities.
struct LineOfCentres {
  double arm;
  Vec3 shift;
};
GE_INLINE LineOfCentres line_of_centres(const ContactBodies &b)
{
  if (b.r_j > 0.0) return {b.r_i + b.r_j, b.dt * (b.v_j - b.v_i)};
  return {b.wall_arm, b.dt * (b.v_wall_centre - b.v_i)};
}

// The refined linear law (`twirl`: its stored force is carried by the frame's exact rotation)
// moves a known contact by the turn of the line of centres measured exactly: the tangential
// chord of the centres in s.d (first order) is replaced by the arc of the frame's rotation over
// the step at the end-of-step arm (jaeger.hpp, turned_movement, says why), so a rigid rotation
// of the pair moves the contact by nothing and a turning pair whose distance changes by its arm
// times the angle. The rotation is update_frame's: the twist about the stored normal, then the
// smallest tilt onto the new one. The classic law keeps the movement of its definition.
GE_FORCE_INLINE void linear_turned_movement(const ContactLaw &law, const ContactBodies &b,
                                            const double *h, LinearStep &s)
{
  if (!law.linear.twirl || !b.advance || !linear_history_set(h)) return;
  const LineOfCentres line = line_of_centres(b);
  if (line.arm == 0.0) return;
  const Vec3 n_old = vec3(h + H_NORMAL);
  if (!turn_resolved(n_old, s.normal)) return;    // (first order: exact to round-off there)
  const Vec3 turn =
      swing_twist_rotation_vector(n_old, s.normal, twist_tan_half(s.mean_rotation, n_old));
  // d: the movement of j's contact point relative to i's; the arc of j's centre about i's is
  // turn x (x_j - x_i) = -arm turn x n
  s.d = (s.d - project_onto_plane(line.shift, s.normal)) - line.arm * cross(turn, s.normal);
}

// torques of a tangential force ft on i at the contact point: -r n x ft on both bodies
GE_INLINE void set_tangential_torques(const ContactBodies &b, const Vec3 &ft, ContactResult &r)
{
  const Vec3 nxft = cross(b.normal, ft);
  r.torque_i = (-b.r_i) * nxft;
  r.torque_j = (-b.r_j) * nxft;
}

// The Yade moment of a linear or Jaeger contact (the catalogue's is part of its step): its
// relative rotation at `phi`, capped by F_n^c = fn_cap, `beta` scaled by the tangential
// stiffness ks. Sets the moment and its springs' energy.
GE_INLINE void yade_moment_of(const ContactLaw &law, const ContactBodies &b, double *phi,
                              double fn_cap, double ks, ContactResult &r)
{
  YadeMomentStep ys;
  ys.rot_i = b.advance ? b.dt * b.omega_i : Vec3{0, 0, 0};    // no step taken: no rotation
  ys.rot_j = b.advance ? b.dt * b.omega_j : Vec3{0, 0, 0};
  ys.normal = b.normal;
  ys.radius_i = b.radius_i;
  ys.radius_j = b.radius_j;
  ys.ks = ks;
  ys.fn = fn_cap;
  ys.update = b.advance;
  ys.dt = b.advance ? b.dt : 0.0;
  ys.inv_inertia_i = b.inv_inertia_i;
  ys.inv_inertia_j = b.inv_inertia_j;
  YadeMomentResult yr;
  yade_moment(law.cat.yade, ys, phi, yr);
  r.moment = yr.moment;
  r.energy_moment = yr.energy;
}

// MOMENTS false: the caller knows that the law has no Yade moments (has_moments() is false), so
// their code is not compiled into the step (see contact_step_in_family).
template <bool MOMENTS = true>
GE_FORCE_INLINE void linear_contact(const ContactLaw &law, const ContactBodies &b,
                                    double *state, ContactResult &r)
{
  LinearStep s = linear_step_of(b);
  linear_turned_movement(law, b, state, s);
  LinearResult lr;
  if (b.advance) {
    linear_step(law.linear, s, state, lr);
  } else {
    // a contact with no stored state is known from here on with its normal and overlap
    if (!linear_history_set(state)) linear_init_history(state, s.normal, s.overlap);
    linear_current_force(law.linear, s, state, lr);
  }
  // a normal dashpot of the catalogue on the linear spring (restitution: eta_n = alpha(e)
  // sqrt(mbar k_n), the LSD whose restitution is e), applied as the catalogue applies it: the
  // total may pull at the end of a rebound (so that e holds) unless limit_damping; its
  // dissipation, F_vis times the approach, goes with the viscous dashpots'
  if (law.damping == LAW_DAMPING_CATALOGUE && b.dt > 0.0) {
    const DampingInput in{s.overlap, s.approach / b.dt, b.mbar, law.linear.kn, 0.0};
    const double F_vis = damping_force(law.cat.damping, in);
    lr.fn = normal_force_applied(lr.fn_elastic, F_vis, law.cat.limit_damping);
    if (b.advance && law.linear.work) state[H_DISS_DAMP] += F_vis * s.approach;
  }
  r.force_i = lr.fn * s.normal + lr.ft;
  set_tangential_torques(b, lr.ft, r);
  r.moment = Vec3{0, 0, 0};
  r.energy_n = b.energies ? 0.5 * lr.fn_elastic * s.overlap : 0.0;
  r.energy_t = b.energies ? dot(lr.ft_spring, lr.ft_spring) / (2.0 * law.linear.kt) : 0.0;
  r.energy_moment = 0.0;
  r.fn_cap = 0.0;
  r.sliding = lr.sliding;
  // the Yade moments: capped by the normal force, `beta` scaled by kt
  if (MOMENTS && has_moments(law))
    yade_moment_of(law, b, state + LINEAR_MOMENT_STATE, lr.fn > 0.0 ? lr.fn : 0.0,
                   law.linear.kt, r);
}

// The step as the catalogue laws see it (s: linear_step_of(b)).
GE_INLINE CatalogueStep catalogue_step_of(const ContactBodies &b, const LinearStep &s)
{
  CatalogueStep c;
  set_kinematics(s, c);
  c.rbar = b.rbar;
  c.mbar = b.mbar;
  c.rot_i = b.dt * b.omega_i;
  c.rot_j = b.dt * b.omega_j;
  c.radius_i = b.radius_i;
  c.radius_j = b.radius_j;
  c.inv_inertia_i = b.inv_inertia_i;
  c.inv_inertia_j = b.inv_inertia_j;
  c.advance = b.advance;
  return c;
}

template <bool MOMENTS = true>
GE_FORCE_INLINE void catalogue_contact(const ContactLaw &law, const ContactBodies &b,
                                       double *state, ContactResult &r)
{
  const LinearStep s = linear_step_of(b);
  const CatalogueStep c = catalogue_step_of(b, s);
  if (!b.advance) catalogue_press(law.cat, c, state);
  CatalogueResult cr;
  catalogue_step<MOMENTS>(law.cat, c, state, cr);
  r.force_i = cr.fn * s.normal + cr.ft;
  set_tangential_torques(b, cr.ft, r);
  r.moment = cr.moment;
  r.energy_n = cr.energy_n;
  r.energy_t = 0.0;
  r.energy_moment = cr.energy_moment;
  r.fn_cap = cr.fn_cap;
  r.sliding = cr.sliding;
}

// The Jaeger law works in the frame of its own paper: p = i, q = j, the normal from p to q, the
// half-overlap, and the force on q is N n - T (jaeger.hpp).
GE_FORCE_INLINE void jaeger_contact(const ContactLaw &law, const ContactBodies &b,
                                    double *state, JaegerHistory &history, ContactResult &r)
{
  const Vec3 n = -b.normal;                   // p -> q
  const double delta = 0.5 * b.overlap;       // half-overlap
  // lever arms to the contact point in the middle of the overlap: a rigid-body motion of the
  // pair moves both contact points alike, so it gives no tangential translation
  const Vec3 bp = b.r_i * n, bq = (-b.r_j) * n;
  const Vec3 vrel = (b.v_j + cross(b.omega_j, bq)) - (b.v_i + cross(b.omega_i, bp));
  JaegerInput in;
  in.normal = n;
  in.delta = delta;
  in.translation = b.dt * vrel;
  in.mean_rotation = (0.5 * b.dt) * (b.omega_i + b.omega_j);
  in.R = 2.0 * b.rbar;    // the averaged radius 2 R_p R_q/(R_p + R_q)
  // the line of centres, p -> q: x_q - x_p = arm n with arm from i to j as x_i - x_j = arm b.normal
  const LineOfCentres line = line_of_centres(b);
  in.arm = line.arm;
  in.centre_shift = line.shift;
  JaegerResult res;
  if (b.advance) {
    jaeger_contact_step(law.jaeger, in, state, history, res);
    state[JAEGER_STATE_SIZE] = res.sliding ? 1.0 : 0.0;
  } else {
    if (jaeger_press(law.jaeger, in, state, history)) state[JAEGER_STATE_SIZE] = 0.0;
    jaeger_current_force(law.jaeger, in, state, res);
  }
  // viscous terms, as for the linear laws: the normal force never attracts
  double N = res.N;
  Vec3 T = res.T;
  if (law.damping == LAW_DAMPING_VISCOUS && b.dt > 0.0) {
    N = N + law.linear.eta_n * (-dot(vrel, n));
    if (N < 0.0) N = 0.0;
    T = T + law.linear.eta_t * project_onto_plane(vrel, n);
  }
  // a normal dashpot of the catalogue built on the Hertz spring (bshp, kk, tsuji), with the
  // Hertz constant of this contact, K_HZ = C_H/2^{3/2} = (4/3)(E^/2) sqrt(Rbar) (the same
  // spheres give the catalogue's hertz force), applied as the catalogue applies it: the total may
  // pull at the end of a rebound (so that tsuji en's restitution holds) unless limit_damping;
  // the tangential force keeps Jaeger's own
  if (law.damping == LAW_DAMPING_CATALOGUE && b.dt > 0.0) {
    const DampingInput in{b.overlap, -dot(vrel, n), b.mbar, 0.0,
                          hertz_constant(0.5 * law.jaeger.E_hat, b.rbar)};
    N = normal_force_applied(N, damping_force(law.cat.damping, in), law.cat.limit_damping);
  }
  // force on q = N n - T, on p the opposite; torques b x F
  r.force_i = T - N * n;
  r.torque_i = cross(bp, r.force_i);
  r.torque_j = cross(bq, N * n - T);
  r.moment = Vec3{0, 0, 0};
  r.energy_n = 0.8 * res.N * delta;    // Hertz: int N d(2 delta) = (4/5) N delta
  r.energy_t = r.energy_moment = r.fn_cap = 0.0;
  r.sliding = state[JAEGER_STATE_SIZE] != 0.0;
  // the Yade moments: capped by the normal force, `beta` scaled by Mindlin's initial tangential
  // stiffness 8 G* a = k_n / kappa, k_n = E^ a the Hertz normal stiffness, a = sqrt(Rbar overlap)
  if (has_moments(law)) {
    const double ks = law.jaeger.E_hat * std::sqrt(b.rbar * b.overlap) / law.jaeger.kappa;
    yade_moment_of(law, b, state + JAEGER_MOMENT_STATE, N, ks, r);
  }
}

}    // namespace contact_detail

// The three families of laws, by their state and step: the linear laws (classic, refined), the
// catalogue (with the Yade moments) and the Jaeger contact.
enum LawFamily : int { FAMILY_LINEAR = 0, FAMILY_CATALOGUE = 1, FAMILY_JAEGER = 2 };
GE_INLINE int family_of(const ContactLaw &law)
{
  return law.tangential == LAW_JAEGER ? FAMILY_JAEGER
      : law.tangential == LAW_CATALOGUE ? FAMILY_CATALOGUE
                                        : FAMILY_LINEAR;
}

// The step of an is_coulomb_normal_only() contact: its normal force and F_n^c from the stored
// state (the pair style stores F_n^c for the friction fix, as for every coulomb contact).
// normal: from j to i; approach_rate: -(v_i - v_j).normal. At run setup (!advance) a contact with
// no stored state is first pressed to its overlap (catalogue_press), as contact_step() does.
GE_INLINE CatalogueNormalForce coulomb_normal_step(const ContactLaw &law, const Vec3 &normal,
                                                   double overlap, double approach_rate,
                                                   double rbar, double mbar, double *state,
                                                   bool advance)
{
  if (!advance) {
    CatalogueStep pressed;
    pressed.normal = normal;
    pressed.overlap = overlap;
    pressed.rbar = rbar;
    pressed.mbar = mbar;
    catalogue_press(law.cat, pressed, state);
  }
  return catalogue_normal_force(law.cat, overlap, approach_rate, rbar, mbar, state, advance);
}

// contact_step() (below) for a law whose family is known when the caller is compiled: a device
// functor that runs one family instantiates only that family's step (a smaller kernel: fewer
// registers on a GPU, and on a CPU the inlining budget is not spent on the other families).
// MOMENTS false: the caller knows that the law has no Yade moments (!has_moments(law)); their
// code is then left out of the step (a smaller loop: on the host the step of a law without
// moments spilled fewer registers and ran faster, bench/README.md, "Catalogue Hertz laws").
// The result is the same, bit for bit, as with MOMENTS true for such a law.
template <int FAMILY, bool MOMENTS = true>
GE_FORCE_INLINE void contact_step_in_family(const ContactLaw &law, const ContactBodies &b,
                                            double *state, JaegerHistory *history,
                                            ContactResult &r)
{
  if (FAMILY == FAMILY_JAEGER) contact_detail::jaeger_contact(law, b, state, *history, r);
  else if (FAMILY == FAMILY_CATALOGUE)
    contact_detail::catalogue_contact<MOMENTS>(law, b, state, r);
  else contact_detail::linear_contact<MOMENTS>(law, b, state, r);
}

// Advance one contact by the step just taken (advance), or give its forces at the current
// geometry from its stored state (run setup, output). state: the contact's fixed part;
// history: the Jaeger contact's vertices (with room for one more; unused by the other laws).
// The Jaeger state is kept as seen from the body with the lower tag: callers pass that body
// as i. A `tangential coulomb` contact gets its normal force and F_n^c here; its friction is
// solved after all other forces (coulomb_constraint.hpp). Inlined into its caller together with
// the law's wrapper (see GE_FORCE_INLINE in vec3.hpp).
GE_FORCE_INLINE void contact_step(const ContactLaw &law, const ContactBodies &b, double *state,
                                  JaegerHistory *history, ContactResult &r)
{
  switch (family_of(law)) {
    case FAMILY_JAEGER: contact_step_in_family<FAMILY_JAEGER>(law, b, state, history, r); break;
    case FAMILY_CATALOGUE:
      contact_step_in_family<FAMILY_CATALOGUE>(law, b, state, history, r);
      break;
    default: contact_step_in_family<FAMILY_LINEAR>(law, b, state, history, r); break;
  }
}

}    // namespace ge
