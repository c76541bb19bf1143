// One contact of a catalogue law (Rangel's "DEM contact force models"; the project's conventions:
// doc/design_notes.md, "Catalogue conventions"): a normal model (normal_models.hpp), a
// dashpot (damping_models.hpp), a tangential model (tangential_models.hpp) capped by the
// compressive normal force F_n^c, and optionally the Yade rolling/twisting moments
// (yade_moments.hpp). Shared by the pair style and the wall fix, so that a sphere-wall contact
// is exactly the sphere-sphere law with R_j, m_j -> infinity.
//
// State of a contact, CATALOGUE_STATE_SIZE doubles, all zero for a fresh contact, kept as seen
// from body i (the glue passes the atom with the lower tag as i, and copies the state to the
// partner verbatim):
//   [0, 6)  the tangential model's state
//   [6]     the hls maximum overlap, or 1 once a jkr contact is made (CS_NORMAL)
//   [7]     1 if the last step slid, else 0         (what per-contact output reports:
//           re-evaluating the cap without the step's movement would decide a contact sitting
//           exactly at the limit by roundoff)
//   [8, 11) the Yade relative rotation
//   [11, 14) `tangential coulomb` only: the friction force's change over the last step
//           (coulomb_force_change), for the next step's extrapolated start
//
// Header-only, no allocation, no virtual calls, no LAMMPS: callable from host and device code.
#pragma once

#include "contact/damping_models.hpp"
#include "contact/linear_frictional.hpp"
#include "contact/normal_models.hpp"
#include "contact/tangential_models.hpp"
#include "contact/vec3.hpp"
#include "contact/yade_moments.hpp"

#include <cmath>

namespace ge {

enum CatalogueStateIndex : int {
  CS_TANGENTIAL = 0,
  CS_HLS = 6,
  CS_NORMAL = 6,    // the normal model's state (normal_state_size: hls, jkr)
  CS_SLIDING = 7,
  CS_YADE = 8,
  CATALOGUE_STATE_SIZE = 11,
  CS_COULOMB_CHANGE = 11,
  COULOMB_STATE_SIZE = 14    // a `tangential coulomb` contact's state
};

struct CatalogueLaw {
  NormalParams normal;
  DampingParams damping;
  TangentialParams tangential;
  double gbar = 0.0;                  // Hertz: effective shear modulus, else 0
  double nubar = 0.0;                 // Hertz: mean Poisson ratio, else 0
  bool tti_eta_from_tsuji = false;    // T9 without `eta`: its dashpot is the tsuji eta_n
  bool limit_damping = false;         // the applied normal force is clamped at zero
  YadeMomentParams yade;              // rolling/twisting yade (inactive by default)
};

// Mindlin's compliance combination Gbar = [(2-nu_i)/G_i + (2-nu_j)/G_j]^-1 (Rangel's
// (2-nu_1)/G_2 is an erratum), G = E/(2(1+nu)).
GE_INLINE double hertz_effective_shear_modulus(const HertzParams &h)
{
  const double G_i = h.E_i / (2.0 * (1.0 + h.nu_i)), G_j = h.E_j / (2.0 * (1.0 + h.nu_j));
  return 1.0 / ((2.0 - h.nu_i) / G_i + (2.0 - h.nu_j) / G_j);
}
// A rigid wall (G_w = infinity): Gbar = G_i/(2 - nu_i).
GE_INLINE double effective_shear_modulus_rigid_wall(double E_i, double nu_i)
{
  return E_i / (2.0 * (1.0 + nu_i)) / (2.0 - nu_i);
}

// What a step of one contact gives the law (geometry and kinematics at the end of the step).
struct CatalogueStep {
  Vec3 normal{0, 0, 1};           // unit normal, from j (or the wall) to i
  double overlap = 0.0;           // delta > 0
  double approach_rate = 0.0;     // d delta/dt (> 0 closing)
  Vec3 vt{0, 0, 0};               // tangential velocity of i's contact point relative to j's
  Vec3 mean_rotation{0, 0, 0};    // rotation of the contact frame over the step
  double dt = 0.0;
  double rbar = 0.0, mbar = 0.0;  // effective radius and mass
  Vec3 rot_i{0, 0, 0}, rot_j{0, 0, 0};    // omega dt of i and j (Yade moments)
  double radius_i = 0.0, radius_j = 0.0;  // radii for the Yade stiffness and cap
  double inv_inertia_i = 0.0, inv_inertia_j = 0.0;    // 1/I of i and j (the Yade dashpots)
  bool advance = true;            // false: run setup or output; nothing stored changes
};

// The kinematic part of a catalogue step from the movement of the step (pair style and walls):
// the approach rate and the tangential velocity of the contact point, the latter without the
// roundoff residual of a purely normal velocity (without_projection_roundoff).
GE_INLINE void set_kinematics(const LinearStep &s, CatalogueStep &c)
{
  c.normal = s.normal;
  c.overlap = s.overlap;
  c.dt = s.dt;
  c.mean_rotation = s.mean_rotation;
  c.approach_rate = s.dt > 0.0 ? s.approach / s.dt : 0.0;
  c.vt = s.dt > 0.0 ? without_projection_roundoff((-1.0 / s.dt) * s.d, c.approach_rate)
                    : Vec3{0, 0, 0};
}

struct CatalogueResult {
  double fn = 0.0;                // applied normal force on i along the normal
  Vec3 ft{0, 0, 0};               // tangential force on i
  Vec3 moment{0, 0, 0};           // Yade moment M: -M on i, +M on j
  double fn_elastic = 0.0;
  double fn_cap = 0.0;            // F_n^c = max(F_el + F_vis, 0): the normal force of every cap
  double energy_n = 0.0;          // elastic normal energy
  double energy_moment = 0.0;     // elastic energy of the Yade rolling and twisting springs
  bool sliding = false;
};

// The linear tangential stiffness K_s the Yade `beta` form scales: kt of T4/T5,
// kt0 of T10, K_t(delta) of T6 (16/3 Gbar a) and T9 (8 Gbar a), a = sqrt(Rbar delta_a) the
// contact radius (delta_a: NormalResult::hertz_overlap).
GE_INLINE double yade_tangential_stiffness(const CatalogueLaw &law, const CatalogueStep &s,
                                          double hertz_overlap)
{
  const TangentialModel m = law.tangential.model;
  if (m == TangentialModel::DD || m == TangentialModel::TTI) {
    const double a = std::sqrt(s.rbar * hertz_overlap);
    return (m == TangentialModel::DD ? 16.0 / 3.0 : 8.0) * law.gbar * a;
  }
  return law.tangential.kt;
}

// The normal part of a catalogue contact: the elastic force of the normal model, its
// dashpot, the compressive force F_n^c = max(F_el + F_vis + 2 F_po, 0) that caps every
// tangential model (F_po the pull-off force of jkr and dmt, else 0: the friction limit
// mu (F_n + 2 F_po) of adhesive contacts, Thornton & Yin, Powder Technol. 65 (1991) 153), the
// force applied along the normal and the elastic energy (hooke k d^2/2, hertz (2/5) F d,
// hls F^2/(2 K_U) on its unloading line, jkr and dmt adhesion.hpp). The dashpots see the overlap
// of the Hertz contact of the same contact radius (NormalResult::hertz_overlap). state: the
// contact's state (its normal model's entry is updated).
// Also the whole normal force of `tangential coulomb` contacts, whose friction a fix solves.
struct CatalogueNormalForce {
  NormalResult elastic;
  double F_cap = 0.0;        // F_n^c
  double F_applied = 0.0;    // along the normal, on i
  double energy = 0.0;
};

GE_FORCE_INLINE CatalogueNormalForce catalogue_normal_force(const CatalogueLaw &law, double delta,
                                                      double approach_rate, double rbar,
                                                      double mbar, double *state, bool advance)
{
  CatalogueNormalForce r;
  r.elastic = normal_elastic(law.normal, delta, rbar, state + CS_HLS, advance);
  const NormalResult &nr = r.elastic;
  const DampingInput din{nr.hertz_overlap, approach_rate, mbar, nr.kn, nr.K_HZ, nr.sqrt_overlap};
  const double F_vis = damping_force(law.damping, din);
  r.F_cap = normal_force_compressive(nr.F_el + 2.0 * nr.F_pulloff, F_vis);
  r.F_applied = normal_force_applied(nr.F_el, F_vis, law.limit_damping);
  if (law.normal.model == NORMAL_HERTZ) r.energy = 0.4 * nr.F_el * delta;
  else if (law.normal.model == NORMAL_HLS)
    r.energy = nr.F_el * nr.F_el / (2.0 * hls_unloading_stiffness(law.normal.hls, state[CS_HLS]));
  else if (is_adhesive(law.normal.model)) r.energy = nr.energy;
  else r.energy = 0.5 * nr.F_el * delta;
  return r;
}

// MOMENTS false: the caller knows that the law has no Yade moments (their code is left out).
template <bool MOMENTS = true>
GE_FORCE_INLINE void catalogue_step(const CatalogueLaw &law, const CatalogueStep &s, double *stored,
                              CatalogueResult &r)
{
  r = CatalogueResult();
  double scratch[CATALOGUE_STATE_SIZE];
  double *state = stored;
  if (!s.advance) {    // the kernels update their state: give them a copy
    for (int k = 0; k < CATALOGUE_STATE_SIZE; k++) scratch[k] = stored[k];
    state = scratch;
  }
  const double delta = s.overlap;
  const CatalogueNormalForce nf =
      catalogue_normal_force(law, delta, s.approach_rate, s.rbar, s.mbar, state, s.advance);
  const NormalResult &nr = nf.elastic;
  const double F_cap = nf.F_cap;

  TangentialParams tp = law.tangential;
  if (law.tti_eta_from_tsuji)    // the tsuji eta_n of this contact (T9 without `eta`)
    tp.eta_t = law.damping.tsuji_from_e ? tsuji_eta(law.damping.alpha, s.mbar, nr.K_HZ)
                                        : law.damping.eta;
  TangentialStep ts;
  ts.normal = s.normal;
  ts.mean_rotation = s.advance ? s.mean_rotation : Vec3{0, 0, 0};
  ts.du = s.advance ? s.dt * s.vt : Vec3{0, 0, 0};
  ts.vt = s.vt;
  ts.fn = F_cap;
  ts.overlap = nr.hertz_overlap;
  ts.sqrt_overlap = nr.sqrt_overlap;
  ts.rbar = s.rbar;
  ts.mbar = s.mbar;
  ts.gbar = law.gbar;
  ts.nubar = law.nubar;
  TangentialResult tr;
  tangential_step(tp, ts, state + CS_TANGENTIAL, tr);
  state[CS_SLIDING] = tr.sliding ? 1.0 : 0.0;

  r.fn = nf.F_applied;
  r.ft = tr.ft;
  r.fn_elastic = nr.F_el;
  r.fn_cap = F_cap;
  r.sliding = tr.sliding;
  r.energy_n = nf.energy;

  if (MOMENTS && (law.yade.rolling.active || law.yade.twisting.active)) {
    YadeMomentStep ys;
    ys.rot_i = s.advance ? s.rot_i : Vec3{0, 0, 0};    // no step taken: no rotation
    ys.rot_j = s.advance ? s.rot_j : Vec3{0, 0, 0};
    ys.normal = s.normal;
    ys.radius_i = s.radius_i;
    ys.radius_j = s.radius_j;
    ys.ks = yade_tangential_stiffness(law, s, nr.hertz_overlap);
    ys.fn = F_cap;
    ys.update = s.advance;
    ys.dt = s.advance ? s.dt : 0.0;
    ys.inv_inertia_i = s.inv_inertia_i;
    ys.inv_inertia_j = s.inv_inertia_j;
    YadeMomentResult yr;
    yade_moment(law.yade, ys, state + CS_YADE, yr);
    r.moment = yr.moment;
    r.energy_moment = yr.energy;
  }
}

// A contact that exists when its history starts (the setup of a run with no stored state: a
// packing created or read with overlaps, the first `run`) is recorded as pressed along its normal
// to its current overlap, quasi-statically and with no tangential movement or rotation: one step
// of the law with that movement alone. For the Walton-Braun spring (hls) this sets delta_max to
// the overlap, so a contact that unloads in its first step follows the unloading line of the
// overlap it was made with, not the loading line; the tangential springs, T10's turning point and
// the Yade rotations stay zero. A state that is all zero is a contact with no stored state
// (tangential_models.hpp: all zero = fresh contact); pressing one whose law keeps no state (hooke
// or hertz with T1-T3) changes nothing. Returns whether it pressed.
GE_INLINE bool catalogue_state_fresh(const double *state)
{
  for (int k = 0; k < CATALOGUE_STATE_SIZE; k++)
    if (state[k] != 0.0) return false;
  return true;
}

GE_INLINE bool catalogue_press(const CatalogueLaw &law, const CatalogueStep &s, double *state)
{
  if (!(s.overlap > 0.0) || !catalogue_state_fresh(state)) return false;
  CatalogueStep pressed = s;
  pressed.approach_rate = 0.0;
  pressed.vt = pressed.mean_rotation = pressed.rot_i = pressed.rot_j = Vec3{0, 0, 0};
  pressed.advance = true;
  CatalogueResult r;
  catalogue_step(law, pressed, state, r);
  return true;
}

}    // namespace ge
