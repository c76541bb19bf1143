/* ----------------------------------------------------------------------
   GRANULAR-EXACT: pair style granular/exact, the catalogue laws
   (catalogue.md: normal hooke|hertz|hls, its damping models, tangential models T1-T10)
   (the class is in pair_granular_exact.h; compute, init and I/O in pair_granular_exact.cpp)

   State of a catalogue contact, in the 11 doubles of a contact's history:
   [0, 6) the tangential model's state (tangential_models.hpp), [6] the hls maximum overlap,
   [7] whether the last step slid (what single() reports: re-evaluating the cap without the
   step's movement would decide a contact at the limit by roundoff), [8, 11) the relative
   rotation of the pair for rolling/twisting yade (yade_moments.hpp).
------------------------------------------------------------------------- */

#include "pair_granular_exact.h"

#include "atom.h"
#include "force.h"
#include "update.h"

#include <cmath>

using namespace LAMMPS_NS;
using ge::Vec3;

namespace {
constexpr int HLS_STATE = 6;        // index of the hls maximum overlap in a catalogue state
constexpr int SLIDING_STATE = 7;    // 1 if the contact slid in its last step, else 0
constexpr int YADE_STATE = 8;       // first of the 3 entries of the Yade relative rotation
static_assert(YADE_STATE + ge::YADE_MOMENT_STATE_SIZE <= ge::LINEAR_HISTORY_SIZE,
              "the Yade rotation must fit in a contact's history");

// shear modulus combination of catalogue.md 1.2 (Mindlin's compliance), and the mean Poisson ratio
double effective_shear_modulus(const ge::HertzParams &h)
{
  const double G_i = h.E_i / (2.0 * (1.0 + h.nu_i)), G_j = h.E_j / (2.0 * (1.0 + h.nu_j));
  return 1.0 / ((2.0 - h.nu_i) / G_i + (2.0 - h.nu_j) / G_j);
}
}    // namespace

/* ----------------------------------------------------------------------
   which state entries change sign when the pair is seen from the other atom
------------------------------------------------------------------------- */

bool PairGranularExact::odd_entry(const Law &lw, int k)
{
  switch (lw.tangential) {
    case TANGENTIAL_CLASSIC:
    case TANGENTIAL_REFINED:
      return k < ge::LINEAR_HISTORY_VECTOR_ENTRIES;
    case TANGENTIAL_CATALOGUE:
      if (k >= YADE_STATE && k < YADE_STATE + ge::YADE_MOMENT_STATE_SIZE)
        return ge::yade_moment_transfer_factor(k - YADE_STATE) < 0.0;
      return k < ge::tangential_state_size(lw.cat_tangential.model) &&
          ge::tangential_transfer_factor(lw.cat_tangential.model, k) < 0.0;
    default:
      return false;    // Jaeger records are kept in the canonical orientation, never flipped
  }
}

void PairGranularExact::flip_state(const Law &lw, double *h)
{
  for (int k = 0; k < ge::LINEAR_HISTORY_SIZE; k++)
    if (odd_entry(lw, k)) h[k] = -h[k];
}

// effective mass; a frozen particle (fix freeze) counts as immovable (catalogue.md 1.2)
double PairGranularExact::catalogue_mass(int i, int j) const
{
  const double *rmass = atom->rmass;
  const int *mask = atom->mask;
  if (freeze_group_bit && (mask[i] & freeze_group_bit)) return rmass[j];
  if (freeze_group_bit && (mask[j] & freeze_group_bit)) return rmass[i];
  return ge::effective_mass(rmass[i], rmass[j]);
}

/* ----------------------------------------------------------------------
   one catalogue contact: normal elastic force + dashpot, then the tangential model with the
   compressive normal force as its cap (catalogue.md 1.3); torques at the lever arms of 1.1.
   Without `advance` (run setup, single()) nothing stored changes and the step has no movement.
------------------------------------------------------------------------- */

void PairGranularExact::catalogue_contact(int i, int j, const PairGeometry &g, double *state,
                                          const Law &lw, bool advance, double weight,
                                          double *tally)
{
  const double dt = update->dt;
  const ge::LinearStep s = contact_step(i, j, g, dt);
  const double delta = s.overlap;
  const double delta_dot = dt > 0.0 ? s.approach / dt : 0.0;
  const Vec3 vt = dt > 0.0 ? ge::without_projection_roundoff((-1.0 / dt) * s.d, delta_dot)
                           : Vec3{0, 0, 0};    // tangential v_c (1.1)
  const double Rbar = ge::effective_radius(atom->radius[i], atom->radius[j]);
  const double mbar = catalogue_mass(i, j);

  double scratch[ge::LINEAR_HISTORY_SIZE];
  double *st = state;
  if (!advance) {
    for (int k = 0; k < ge::LINEAR_HISTORY_SIZE; k++) scratch[k] = state[k];
    st = scratch;
  }

  const ge::NormalResult nr = ge::normal_elastic(lw.cat_normal, delta, Rbar, st + HLS_STATE, advance);
  const ge::DampingInput din{delta, delta_dot, mbar, nr.kn, nr.K_HZ};
  const double F_vis = ge::damping_force(lw.cat_damping, din);
  const double F_cap = ge::normal_force_compressive(nr.F_el, F_vis);

  ge::TangentialParams tp = lw.cat_tangential;
  if (lw.tti_eta_from_tsuji)    // the tsuji eta_n of this contact (catalogue.md T9)
    tp.eta_t = lw.cat_damping.tsuji_from_e
        ? ge::tsuji_eta(lw.cat_damping.alpha, mbar, nr.K_HZ)
        : lw.cat_damping.eta;
  ge::TangentialStep ts;
  ts.normal = s.normal;
  ts.mean_rotation = advance ? s.mean_rotation : Vec3{0, 0, 0};
  ts.du = advance ? dt * vt : Vec3{0, 0, 0};
  ts.vt = vt;
  ts.fn = F_cap;
  ts.overlap = delta;
  ts.rbar = Rbar;
  ts.mbar = mbar;
  if (lw.normal == NORMAL_HERTZ) {
    ts.gbar = effective_shear_modulus(lw.hertz);
    ts.nubar = 0.5 * (lw.hertz.nu_i + lw.hertz.nu_j);
  }
  ge::TangentialResult tr;
  ge::tangential_step(tp, ts, st, tr);
  if (advance) st[SLIDING_STATE] = tr.sliding ? 1.0 : 0.0;

  ge::LinearResult r;
  r.fn = ge::normal_force_applied(nr.F_el, F_vis, lw.limit_damping);
  r.ft = tr.ft;
  apply_contact(i, j, r, s, g, atom->nlocal, force->newton_pair);
  if (lw.yade.rolling.active || lw.yade.twisting.active)
    yade_torques(i, j, s, st, lw, F_cap, ts, advance);

  if (!eflag_global) return;
  // elastic normal energy: hooke k d^2/2, hertz (2/5) F d, hls F^2/(2 K_U) on its unloading line
  double energy = 0.5 * nr.F_el * delta;
  if (lw.normal == NORMAL_HERTZ) energy = 0.4 * nr.F_el * delta;
  if (lw.normal == NORMAL_HLS)
    energy = nr.F_el * nr.F_el /
        (2.0 * ge::hls_unloading_stiffness(lw.cat_normal.hls, st[HLS_STATE]));
  tally[0] += weight * energy;
  tally[4] += weight;
  tally[5] += weight * (tr.sliding ? 1.0 : 0.0);
  add_branch_force_product(weight, g.dx, r.fn * s.normal + r.ft, tally + 6);
}

/* ----------------------------------------------------------------------
   rolling/twisting yade (catalogue.md 2.4, 4): the moment of the pair's relative rotation since
   the contact began, -M on i and +M on j. `beta` scales K with the tangential model's linear
   stiffness of this step (kt of T4/T5, kt0 of T10, K_t(delta) of T6/T9).
------------------------------------------------------------------------- */

void PairGranularExact::yade_torques(int i, int j, const ge::LinearStep &s, double *state,
                                     const Law &lw, double fn, const ge::TangentialStep &ts,
                                     bool advance)
{
  double **omega = atom->omega, **torque = atom->torque;
  const double dt = update->dt;
  ge::YadeMomentStep ys;
  ys.rot_i = dt * ge::vec3(omega[i]);
  ys.rot_j = dt * ge::vec3(omega[j]);
  ys.normal = s.normal;
  ys.radius_i = atom->radius[i];
  ys.radius_j = atom->radius[j];
  ys.fn = fn;
  ys.update = advance;
  using TM = ge::TangentialModel;
  const TM model = lw.cat_tangential.model;
  if (model == TM::DD || model == TM::TTI) {
    const double a = std::sqrt(ts.rbar * ts.overlap);    // contact radius sqrt(Rbar delta)
    ys.ks = (model == TM::DD ? 16.0 / 3.0 : 8.0) * ts.gbar * a;
  } else {
    ys.ks = lw.cat_tangential.kt;
  }
  ge::YadeMomentResult yr;
  ge::yade_moment(lw.yade, ys, state + YADE_STATE, yr);
  torque[i][0] += yr.torque_i.x;
  torque[i][1] += yr.torque_i.y;
  torque[i][2] += yr.torque_i.z;
  if (force->newton_pair || j < atom->nlocal) {
    torque[j][0] += yr.torque_j.x;
    torque[j][1] += yr.torque_j.y;
    torque[j][2] += yr.torque_j.z;
  }
}

/* ----------------------------------------------------------------------
   single() of a catalogue contact: p1 elastic normal force, p2 |tangential force| (from the
   stored state, dashpots at the current velocities), p3 0, p4 1 if the last step slid, p5 0, p6 overlap,
   p7-p9 tangential force on i
------------------------------------------------------------------------- */

double PairGranularExact::single_catalogue(int i, int j, const Law &lw, const double *state,
                                           double rsq, double &fforce)
{
  const Vec3 dx = ge::vec3(atom->x[i]) - ge::vec3(atom->x[j]);
  const PairGeometry g = pair_geometry(i, j, dx, rsq);
  const ge::LinearStep s = contact_step(i, j, g, update->dt);
  const double Rbar = ge::effective_radius(atom->radius[i], atom->radius[j]);
  double st[ge::LINEAR_HISTORY_SIZE];
  for (int k = 0; k < ge::LINEAR_HISTORY_SIZE; k++) st[k] = state[k];
  const ge::NormalResult nr = ge::normal_elastic(lw.cat_normal, s.overlap, Rbar, st + HLS_STATE, false);
  ge::TangentialStep ts;
  ts.normal = s.normal;
  ts.vt = update->dt > 0.0
      ? ge::without_projection_roundoff((-1.0 / update->dt) * s.d, s.approach / update->dt)
      : Vec3{0, 0, 0};
  ts.fn = nr.F_el > 0.0 ? nr.F_el : 0.0;
  ts.overlap = s.overlap;
  ts.rbar = Rbar;
  ts.mbar = catalogue_mass(i, j);
  if (lw.normal == NORMAL_HERTZ) {
    ts.gbar = effective_shear_modulus(lw.hertz);
    ts.nubar = 0.5 * (lw.hertz.nu_i + lw.hertz.nu_j);
  }
  ge::TangentialParams tp = lw.cat_tangential;
  if (lw.tti_eta_from_tsuji) tp.eta_t = 0.0;
  ge::TangentialResult tr;
  ge::tangential_step(tp, ts, st, tr);
  fforce = nr.F_el / std::sqrt(rsq);
  svector[0] = nr.F_el;
  svector[1] = ge::norm(tr.ft);
  svector[3] = state[SLIDING_STATE];
  svector[5] = s.overlap;
  svector[6] = tr.ft.x;
  svector[7] = tr.ft.y;
  svector[8] = tr.ft.z;
  return 0.0;
}
