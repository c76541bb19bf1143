// The slip at the contact points of `tangential coulomb` contacts, contact by contact, recorded
// after each step of a serial LAMMPS run (the solver issue's item 4: "measure slip at the
// contact points, not displacement of centres").
//
// After a step (velocity Verlet: x, v, omega at the full step n+1, and the forces and torques of
// the step, friction included) each touching contact is evaluated as the friction fix evaluated
// it in the step's post_force: its geometry at n+1, the velocities of the half step before (those
// after the step less the integrator's last half-kick, for the atoms of the integrated group; fix
// nve/sphere), and the step's forces and torques as the totals (src/contact/
// coulomb_constraint.hpp: set_coulomb_sphere_contact, coulomb_rate). dt times its rate is the
// tangential velocity of its material points relative to each other at the next half step, in
// the tangent plane as it turns over the step (the fix's kinematics): what the fix brings to rest
// for its stuck contacts (its value 10 is the largest of those), and dt times that velocity is
// the contact's slip over the step. Each contact (the pair of tags) sums its slips as a vector (the
// displacement of its material points relative to each other, seen from the lower tag) and their
// lengths (the path), and counts its steps and the steps it stuck (the pair's state: 0 = stuck,
// as compute pair/local's p4 reports it).
//
// Serial runs only (a ghost's velocities are read from its owner).
#pragma once

#include "atom.h"
#include "comm.h"
#include "force.h"
#include "group.h"
#include "lammps.h"
#include "neigh_list.h"
#include "neighbor.h"
#include "pair.h"
#include "update.h"

#include "contact/coulomb_constraint.hpp"
#include "contact/vec3.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace ge_slip {

using ge::Vec3;

struct ContactSlip {
  Vec3 slip{0, 0, 0};    // sum of the steps' slips (the lower tag's point relative to the other's)
  double path = 0.0;     // sum of their lengths
  int steps = 0;         // steps recorded touching
  int stuck = 0;         // of which stuck
};

struct StepRecord {
  int contacts = 0, stuck = 0;
  double largest_stuck_velocity = 0.0;    // the largest |v_t| of a stuck contact, next half step
  double median_stuck_velocity = 0.0;     // and the median and 90th percentile of the stuck |v_t|
  double p90_stuck_velocity = 0.0;
};

// the q-quantile of v (0 <= q <= 1; the nearest rank; 0 for none)
inline double quantile(std::vector<double> v, double q)
{
  if (v.empty()) return 0.0;
  const size_t k = std::min(v.size() - 1, static_cast<size_t>(q * (v.size() - 1) + 0.5));
  std::nth_element(v.begin(), v.begin() + k, v.end());
  return v[k];
}

class SlipRecorder {
 public:
  // handle: the LAMMPS instance (lammps_open_no_mpi); group: that of the time integrator;
  // kinematics: the pair's (tangential coulomb's `kinematics`, default geometric)
  SlipRecorder(void *handle, const std::string &group,
               ge::CoulombKinematics kinematics_ = ge::CoulombKinematics::Geometric)
      : lmp(static_cast<LAMMPS_NS::LAMMPS *>(handle)), kinematics(kinematics_)
  {
    if (lmp->comm->nprocs != 1)
      throw std::runtime_error("the slip recorder reads ghosts' velocities from their owners: "
                               "run on 1 process");
    const int g = lmp->group->find(group);
    if (g < 0) throw std::runtime_error("no group " + group);
    groupbit = lmp->group->bitmask[g];
  }

  // after a step: every touching contact's slip over the next step
  StepRecord record()
  {
    LAMMPS_NS::Atom *atom = lmp->atom;
    LAMMPS_NS::Pair *pair = lmp->force->pair;
    LAMMPS_NS::NeighList *list = pair->list;
    const double dt = lmp->update->dt, ftm2v = lmp->force->ftm2v;
    double **x = atom->x;
    const double *radius = atom->radius;
    const LAMMPS_NS::tagint *tag = atom->tag;
    StepRecord r;
    recorded++;
    LAMMPS_NS::tagint largest_tag = 0;
    for (int k = 0; k < atom->nlocal; k++) largest_tag = std::max(largest_tag, tag[k]);
    owned.assign(static_cast<size_t>(largest_tag) + 1, -1);
    for (int k = 0; k < atom->nlocal; k++) owned[tag[k]] = k;
    stuck_speeds.clear();
    for (int ii = 0; ii < list->inum; ii++) {
      const int i = list->ilist[ii];
      for (int jj = 0; jj < list->numneigh[i]; jj++) {
        const int j = list->firstneigh[i][jj] & NEIGHMASK;
        const Vec3 dx = ge::vec3(x[i]) - ge::vec3(x[j]);
        const double rsq = ge::dot(dx, dx), radsum = radius[i] + radius[j];
        if (rsq >= radsum * radsum) continue;
        double fforce = 0.0;
        pair->single(i, j, atom->type[i], atom->type[j], rsq, 1.0, 1.0, fforce);
        const bool stuck = pair->svector[3] == 0.0;
        // (p, q): the lower tag first, n from q to p
        const bool i_is_p = tag[i] < tag[j];
        const int p = i_is_p ? i : j, q = i_is_p ? j : i;
        const double distance = std::sqrt(rsq);
        const Vec3 n = (i_is_p ? 1.0 : -1.0) / distance * dx;
        const ge::CoulombBody bp = body(p), bq = body(q);
        ge::CoulombContact contact;
        ge::set_coulomb_sphere_contact(contact, bp, bq, n, distance, 0.0, dt, kinematics);
        const ge::CoulombCoupling k = ge::coulomb_coupling(contact, bp.inv_mass, bp.inv_inertia,
                                                           bq.inv_mass, bq.inv_inertia, ftm2v);
        double total_p[6], total_q[6];
        totals(p, total_p);
        totals(q, total_q);
        const Vec3 v_t = dt * ge::coulomb_rate(contact, k, total_p, total_q);
        ContactSlip &c = contacts[key(tag[p], tag[q])];
        c.slip = c.slip + dt * v_t;
        c.path += dt * ge::norm(v_t);
        c.steps++;
        r.contacts++;
        if (!stuck) continue;
        c.stuck++;
        r.stuck++;
        r.largest_stuck_velocity = std::fmax(r.largest_stuck_velocity, ge::norm(v_t));
        stuck_speeds.push_back(ge::norm(v_t));
      }
    }
    r.median_stuck_velocity = quantile(stuck_speeds, 0.5);
    r.p90_stuck_velocity = quantile(stuck_speeds, 0.9);
    return r;
  }

  // the contacts touching and stuck at every recorded step
  std::vector<const ContactSlip *> stuck_throughout() const
  {
    std::vector<const ContactSlip *> out;
    for (const auto &e : contacts)
      if (e.second.steps == recorded && e.second.stuck == recorded) out.push_back(&e.second);
    return out;
  }
  size_t seen() const { return contacts.size(); }

 private:
  LAMMPS_NS::LAMMPS *lmp;
  ge::CoulombKinematics kinematics;
  int groupbit = 0;
  int recorded = 0;
  std::unordered_map<uint64_t, ContactSlip> contacts;
  std::vector<int> owned;    // by tag: the local index of the owned atom
  std::vector<double> stuck_speeds;    // this step's |v_t| of the stuck contacts

  static uint64_t key(LAMMPS_NS::tagint p, LAMMPS_NS::tagint q)
  {
    return (static_cast<uint64_t>(p) << 32) | static_cast<uint64_t>(q);
  }
  // the owned atom of which k is k itself or a ghost (a ghost's velocities, forces and torques
  // are not those after the step)
  int owner(int k) const { return owned[lmp->atom->tag[k]]; }
  bool integrated(int k) const { return (lmp->atom->mask[k] & groupbit) != 0; }
  // the atom as the friction fix saw it in the step's post_force: the velocities of the half
  // step before it (those after the step less the integrator's last half-kick), 1/m and 1/I
  // where fix nve/sphere moves it (0 for the atoms it does not)
  ge::CoulombBody body(int k) const
  {
    const LAMMPS_NS::Atom *atom = lmp->atom;
    const int o = owner(k);
    ge::CoulombBody b;
    b.x = ge::vec3(atom->x[k]);
    b.v = ge::vec3(atom->v[o]);
    b.omega = ge::vec3(atom->omega[o]);
    b.radius = atom->radius[o];
    if (!integrated(o)) return b;
    const double dtf = 0.5 * lmp->update->dt * lmp->force->ftm2v;
    b.inv_mass = 1.0 / atom->rmass[o];
    b.inv_inertia = 1.0 / (0.4 * atom->rmass[o] * b.radius * b.radius);
    b.v = b.v - (dtf * b.inv_mass) * ge::vec3(atom->f[o]);
    b.omega = b.omega - (dtf * b.inv_inertia) * ge::vec3(atom->torque[o]);
    return b;
  }
  // the owner's force and torque: every force of the step, the friction included
  void totals(int k, double *out) const
  {
    const int o = owner(k);
    for (int m = 0; m < 3; m++) {
      out[m] = lmp->atom->f[o][m];
      out[3 + m] = lmp->atom->torque[o][m];
    }
  }
};

}    // namespace ge_slip
