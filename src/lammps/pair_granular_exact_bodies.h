/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: pair style granular/exact, the pair (i, j) as the contact
   laws take it and the forces they give applied to it; defined here, inline,
   for the force loops of pair_granular_exact.cpp and
   pair_granular_exact_jaeger.cpp (as calls, their structs went through memory
   for every contact: bench/README.md).
------------------------------------------------------------------------- */

#ifndef GE_PAIR_GRANULAR_EXACT_BODIES_H
#define GE_PAIR_GRANULAR_EXACT_BODIES_H

#include "pair_granular_exact.h"

#include "atom.h"
#include "force.h"
#include "update.h"

#include <cmath>

namespace LAMMPS_NS {

/* ----------------------------------------------------------------------
   the pair (i, j) as the contact laws see it (src/contact/contact_law.hpp): i is body i, the
   normal points from j to i, dx = x_i - x_j. The effective radius and mass only where the law
   reads them.
------------------------------------------------------------------------- */

// the mass of atom i's body: its rigid clump's (fix rigid), else its own
inline double PairGranularExact::own_body_mass(int i) const
{
  return (fix_rigid && mass_rigid && mass_rigid[i] > 0.0) ? mass_rigid[i] : atom->rmass[i];
}

// effective mass of the two bodies; a frozen particle (fix freeze) counts as immovable
// (notes: Catalogue conventions). Inline: the catalogue's force loop asks for it at every
// contact (as calls, with the virtual body_mass(), 4.6 % of the loop's profile).
inline double PairGranularExact::catalogue_mass(int i, int j) const
{
  const int *mask = atom->mask;
  if (freeze_group_bit && (mask[i] & freeze_group_bit)) return own_body_mass(j);
  if (freeze_group_bit && (mask[j] & freeze_group_bit)) return own_body_mass(i);
  return ge::effective_mass(own_body_mass(i), own_body_mass(j));
}

// 1/I of atom i for the Yade dashpots' exact step: the sphere's own 1/(2/5 m R^2), 0 for a
// frozen atom (fix freeze: it does not turn, as in catalogue_mass). A sphere of a rigid clump
// also gives its own: the clump's inertia tensor holds the sphere's, so the sphere's 1/I bounds
// the clump's in every direction, and a dashpot stepped with it removes at most the share
// 1 - e^-a of the relative spin it would remove between two spheres: it still only dissipates
// (notes: Yade moments, "Dashpot step").
inline double PairGranularExact::inverse_inertia(int i) const
{
  if (freeze_group_bit && (atom->mask[i] & freeze_group_bit)) return 0.0;
  return ge::sphere_inverse_inertia(atom->rmass[i], atom->radius[i]);
}

// (inlined into the force loop: as a call, the struct it returns was stored and read back for
// every contact, 11 % of a step of bench/in.bench_linear)
[[gnu::always_inline]] inline ge::ContactBodies
PairGranularExact::bodies_of(int i, int j, const ge::Vec3 &dx, double rsq, const Law &lw,
                             bool advance) const
{
  const double *radius = atom->radius;
  ge::ContactBodies b;
  const double r = std::sqrt(rsq);
  b.normal = (1.0 / r) * dx;
  b.overlap = radius[i] + radius[j] - r;
  b.v_i = ge::vec3(atom->v[i]);
  b.v_j = ge::vec3(atom->v[j]);
  b.omega_i = ge::vec3(atom->omega[i]);
  b.omega_j = ge::vec3(atom->omega[j]);
  // contact point at the middle of the overlap: for a rigid-body motion of the pair the two
  // contact points then move together and the tangential movement is exactly zero
  b.r_i = radius[i] - 0.5 * b.overlap;
  b.r_j = radius[j] - 0.5 * b.overlap;
  b.radius_i = radius[i];
  b.radius_j = radius[j];
  if (lw.tangential == TANGENTIAL_CATALOGUE || lw.tangential == TANGENTIAL_JAEGER)
    b.rbar = ge::effective_radius(radius[i], radius[j]);
  // (the catalogue laws' dashpots need it, on the Jaeger contact too)
  if (lw.tangential == TANGENTIAL_CATALOGUE || lw.damping == DAMPING_CATALOGUE)
    b.mbar = catalogue_mass(i, j);
  if (ge::has_moment_dashpots(lw)) {
    b.inv_inertia_i = inverse_inertia(i);
    b.inv_inertia_j = inverse_inertia(j);
  }
  b.dt = update->dt;
  b.advance = advance;
  b.energies = eflag_global != 0;    // the global vector is needed on energy steps only
  return b;
}

// the forces and torques of a contact step on i and (where this process applies them) on j;
// the law's body i is the pair's i (i_is_p) or its j (read in place: copying the result with
// its members swapped cost a store-forwarding stall per contact)
[[gnu::always_inline]] inline void PairGranularExact::apply_contact(int i, int j,
                                                                   const ge::ContactResult &r,
                                                                   bool i_is_p,
                                                                   const ge::Vec3 &dx)
{
  add_pair_force(i, j, i_is_p ? r.force_i : -r.force_i, dx);
  const bool on_j = force->newton_pair || j < atom->nlocal;
  const ge::Vec3 &torque_on_i = i_is_p ? r.torque_i : r.torque_j;
  const ge::Vec3 &torque_on_j = i_is_p ? r.torque_j : r.torque_i;
  double **torque = atom->torque;
  torque[i][0] += torque_on_i.x;
  torque[i][1] += torque_on_i.y;
  torque[i][2] += torque_on_i.z;
  if (on_j) {
    torque[j][0] += torque_on_j.x;
    torque[j][1] += torque_on_j.y;
    torque[j][2] += torque_on_j.z;
  }
  if (ge::is_zero(r.moment)) return;
  // the Yade moment: -M on the law's i, +M on its j
  const ge::Vec3 moment_on_j = i_is_p ? r.moment : -r.moment;
  torque[i][0] -= moment_on_j.x;
  torque[i][1] -= moment_on_j.y;
  torque[i][2] -= moment_on_j.z;
  if (on_j) {
    torque[j][0] += moment_on_j.x;
    torque[j][1] += moment_on_j.y;
    torque[j][2] += moment_on_j.z;
  }
}

}    // namespace LAMMPS_NS

#endif
