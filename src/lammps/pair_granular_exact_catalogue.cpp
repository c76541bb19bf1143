/* ----------------------------------------------------------------------
   GRANULAR-EXACT: pair style granular/exact, the catalogue laws
   (normal hooke|hertz|hls, their damping models, tangential models T1-T10; conventions in
   doc/design_notes.md, "Catalogue conventions", cited as "notes: <section>")
   (the class is in pair_granular_exact.h; compute, init and I/O in pair_granular_exact.cpp)

   The law itself is ge::catalogue_step (contact/catalogue_law.hpp, shared with the wall fix);
   its state fills the 11 doubles of a contact's history (layout there).
------------------------------------------------------------------------- */

#include "pair_granular_exact.h"
#include "pair_granular_exact_bodies.h"

#include "atom.h"
#include "fix_coulomb_friction_exact.h"
#include "force.h"
#include "update.h"

#include <cmath>

using namespace LAMMPS_NS;
using ge::Vec3;

static_assert(int(ge::CATALOGUE_STATE_SIZE) <= int(ge::LINEAR_HISTORY_SIZE),
              "a catalogue contact's state must fit in the history of a neighbour slot");

/* ----------------------------------------------------------------------
   a touching `tangential coulomb` contact to the friction fix: its cap normal force F_n^c in
   the contact's state (also at run setup: the fix solves then too) and the contact (normal
   from j to i, distance of the centres) in the fix's list of this step
------------------------------------------------------------------------- */

void PairGranularExact::hand_to_friction(int i, int j, const Vec3 &normal, double distance,
                                         double *state, const Law &lw, double F_cap, bool i_is_p)
{
  state[ge::CS_TANGENTIAL + ge::TS_CF_FN] = F_cap;
  if (friction)
    friction->add_sphere_contact(i, j, normal, distance, state + ge::CS_TANGENTIAL,
                                 lw.cat.tangential.mu * F_cap, i_is_p);
}

/* ----------------------------------------------------------------------
   a `tangential coulomb` contact without Yade moments: the pair's part is the normal force
   alone (along the normal, so no torque), and the cap mu F_n^c the friction fix solves with.
   The friction fix adds the friction after all other forces; the stored sliding flag is its.
------------------------------------------------------------------------- */

void PairGranularExact::coulomb_normal_contact(int i, int j, const Vec3 &dx, double rsq,
                                               double *state, const Law &lw, bool advance,
                                               double weight, double *tally)
{
  const double *radius = atom->radius;
  const double r = std::sqrt(rsq);
  const Vec3 n = (1.0 / r) * dx;
  const double overlap = radius[i] + radius[j] - r;
  const double approach_rate = -ge::dot(ge::vec3(atom->v[i]) - ge::vec3(atom->v[j]), n);
  const double rbar = ge::effective_radius(radius[i], radius[j]), mbar = catalogue_mass(i, j);
  // (a contact present at a run's setup with no stored state is pressed to its overlap, hls:
  // its maximum overlap; otherwise the setup only reads the state)
  const ge::CatalogueNormalForce nf =
      ge::coulomb_normal_step(lw, n, overlap, approach_rate, rbar, mbar, state, advance);
  hand_to_friction(i, j, n, r, state, lw, nf.F_cap, atom->tag[i] < atom->tag[j]);

  const Vec3 on_i = nf.F_applied * n;
  add_pair_force(i, j, on_i, dx);

  if (!eflag_global) return;
  tally[0] += weight * nf.energy;
  tally[4] += weight;
  tally[5] += weight * state[ge::CS_TANGENTIAL + ge::TS_CF_SLIDING];
  add_branch_force_product(weight, dx, on_i, tally + 6);
}

/* ----------------------------------------------------------------------
   single() of a catalogue contact: p1 elastic normal force, p2 |tangential force| (from the
   stored state, dashpots at the current velocities), p3 0, p4 1 if the last step slid, p5 0,
   p6 overlap, p7-p9 tangential force on i. For `tangential coulomb` the tangential force is
   the friction the solver applied in the last step.
------------------------------------------------------------------------- */

void PairGranularExact::single_catalogue(int p, int q, const Law &lw, const double *state,
                                         double rsq, double &fforce)
{
  const Vec3 dx = ge::vec3(atom->x[p]) - ge::vec3(atom->x[q]);
  const ge::ContactBodies b = bodies_of(p, q, dx, rsq, lw, false);
  const ge::LinearStep s = ge::contact_detail::linear_step_of(b);
  double st[ge::CATALOGUE_STATE_SIZE];
  for (int k = 0; k < ge::CATALOGUE_STATE_SIZE; k++) st[k] = state[k];
  ge::CatalogueResult cr;
  ge::catalogue_step(lw.cat, ge::contact_detail::catalogue_step_of(b, s), st, cr);
  if (lw.cat.tangential.model == ge::TangentialModel::Coulomb)
    cr.ft = ge::vec3(state + ge::CS_TANGENTIAL + ge::TS_CF_FORCE);
  fforce = cr.fn_elastic / std::sqrt(rsq);
  svector[0] = cr.fn_elastic;
  svector[1] = ge::norm(cr.ft);
  svector[3] = state[ge::CS_SLIDING];
  svector[5] = s.overlap;
  svector[6] = cr.ft.x;
  svector[7] = cr.ft.y;
  svector[8] = cr.ft.z;
}
