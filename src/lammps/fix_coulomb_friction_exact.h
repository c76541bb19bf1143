/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: the friction of `tangential coulomb` (exact Coulomb friction as a
   constraint; doc/design_notes.md, "Coulomb projection", cited as "notes: <section>").
   Internal: created and kept last in the fix list by pair granular/exact, whose per-contact
   history holds every contact's friction state.

   In post_force (all other forces known; v, omega at the half step) it solves the friction
   of every coulomb contact (those of sphere pairs gathered by the pair's force loop, those
   of walls here) by projected Gauss-Seidel sweeps (notes: Coulomb sweeps), with per-atom totals
   of force and torque forwarded to ghosts and ghost increments reversed in every sweep.
------------------------------------------------------------------------- */

#ifdef FIX_CLASS
// clang-format off
FixStyle(COULOMB_FRICTION/EXACT,FixCoulombFrictionExact);
// clang-format on
#else

#ifndef GE_FIX_COULOMB_FRICTION_EXACT_H
#define GE_FIX_COULOMB_FRICTION_EXACT_H

#include "fix.h"

#include "contact/coulomb_constraint.hpp"

#include <vector>

namespace LAMMPS_NS {

class FixCoulombFrictionExact : public Fix {
 public:
  FixCoulombFrictionExact(class LAMMPS *, int, char **);
  ~FixCoulombFrictionExact() override;
  int setmask() override;
  void init() override;
  void setup(int) override;
  void post_force(int) override;
  double compute_scalar() override;
  double compute_vector(int) override;
  int pack_forward_comm(int, int *, double *, int, int *) override;
  void unpack_forward_comm(int, int, double *) override;
  int pack_reverse_comm(int, int, double *) override;
  void unpack_reverse_comm(int, int *, double *) override;
  void write_restart(FILE *) override;
  void restart(char *) override;
  double memory_usage() override;

  // Gathering the contacts of sphere pairs is done in the pair's force loop, where each touching
  // contact's geometry is at hand (positions and velocities do not change before post_force):
  // the pair starts a step's contacts, then adds every touching coulomb contact of two spheres
  // (n from j to i, the distance of the centres, its friction state, mu F_n; the state holds
  // the friction force on the atom with the lower tag: on i if i_is_p, else on j).
  void begin_contacts();
  void add_sphere_contact(int i, int j, const ge::Vec3 &normal, double distance, double *state,
                          double cap, bool i_is_p);

  class PairGranularExact *pair;
  bool active;          // some law (pair or wall) uses `tangential coulomb`
  ge::CoulombSolverSettings settings;
  double dissipated;    // energy dissipated by the friction on this process since creation

 private:
  struct Contact {
    int i;
    int j;                  // whose totals take the friction on the partner: the partner, or
                            // the atom it is a periodic image of where that is owned here;
                            // j < 0: a wall, walls[-1 - j]
    int j_atom;             // the partner as the pair listed it (its position: the branch)
    double *state;          // the tangential part of the contact's history (force on p, ...)
    double state_sign;      // +1: p is i (the stored force is the force on i), -1: p is j
    ge::CoulombContact c;
    ge::CoulombCoupling coupling;
    double relax;           // the share of its change a sweep applies (relaxation())
    ge::Vec3 force;         // the current friction force on i
    bool stick;
    bool counted;           // run setup: the last step counted this kick's dissipation
  };
  std::vector<Contact> contacts;    // slots; the first ncontacts are this step's
  int ncontacts;
  bool begun;             // the pair has begun this step's contacts (begin_contacts)
  bool setup_step;        // they are run setup's: solved for the first half-kick
  double tau;             // the time over which they are brought to rest (the step; half of
                          // it at run setup)
  struct ContactRange {
    Contact *first, *last;
    Contact *begin() const { return first; }
    Contact *end() const { return last; }
  };
  // the contacts being solved this step
  ContactRange solved() { return {contacts.data(), contacts.data() + ncontacts}; }
  std::vector<class FixWallGranExact *> walls;    // wall/gran/exact fixes with coulomb

  int nmax;
  double **total;         // per atom (owned and ghost): force 0..2, torque 3..5
  double **received;      // per ghost atom: its totals as last forwarded; the sweeps' increments
                          // to it are total - received
  double wall_side[6];    // the totals a wall contact writes its (unused) partner's share to
  double *inv_mass, *inv_inertia;    // 0 for bodies that do not move under forces
  double *holders;        // per atom: how many copies of it contacts act on (count_holders)
  // per atom: the process that owns it and its index there (find_owners)
  int *owner_proc, *owner_index;
  bool owners_known;      // since the ghosts were last made
  bool local_ghost_totals;    // a contact of this process acts on a ghost's totals this step
  bool ghost_totals;      // some contact (on any process) acts on a ghost's totals this step
  enum { COMM_TOTALS = 0, COMM_HOLDERS = 1, COMM_OWNERS = 2 };
  int comm_mode;

  int translating_bits;    // groups of time-integration fixes
  int rotating_bits;       // groups of those integrating the rotation of spheres
  int immovable_bits;      // fix freeze and prescribed motion (fix move)
  int frozen_bits;         // fix freeze: its zero forces are kept

  // outputs of the last solve (this process), see compute_vector()
  double n_contacts, n_stuck, sweeps_used, residual, max_stuck_slip, dissipation_rate;
  double sweeps_total, solves_total;

  void grow_per_atom_arrays();
  void set_mobility(int nall);
  void find_owners();
  int totals_index(int j) const;
  ge::CoulombBody body(int k) const;
  bool moves_under_forces(int k) const { return inv_mass[k] > 0.0 || inv_inertia[k] > 0.0; }
  Contact &next_contact();
  void solve_step(int vflag);
  void gather_wall_contacts();
  void gather_region_wall_contacts(int w);
  bool start_contact(Contact &k);
  double *totals_of_j(const Contact &k);
  ge::Vec3 rate_of(const Contact &k);
  double solve();
  double sweep();
  double step_alone(Contact &k);
  double step_together(Contact &a, Contact &b);
  void add(const Contact &k, const ge::Vec3 &change);
  void exchange_totals();
  void count_holders();
  double relaxation(const Contact &k) const;
  void finish(int vflag);
  double dissipation_by_atoms() const;
  void add_to_wall(const Contact &k);
};

}    // namespace LAMMPS_NS

#endif
#endif
