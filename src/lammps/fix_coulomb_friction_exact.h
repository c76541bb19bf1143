/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: the friction of `tangential coulomb` (exact Coulomb friction as a
   constraint; doc/design_notes.md, "Coulomb projection", cited as "notes: <section>").
   Internal: created and kept last in the fix list by pair granular/exact, whose per-contact
   history holds every contact's friction state.

   In post_force (all other forces known; v, omega at the half step) it solves the friction
   of every coulomb contact by projected Gauss-Seidel sweeps (notes: Coulomb sweeps), APGD
   (notes: Coulomb solvers) or APGD then Newton steps (notes: Coulomb Newton), with per-atom
   totals of force and torque forwarded to ghosts and ghost increments reversed in every sweep
   or iteration. The contacts are handed in by their owners before that, in the same step: those
   of sphere pairs by the pair's force loop, those of walls by each wall fix's post_force (the
   walls come before this fix in the fix list). After the solve each owner is told the friction
   of its contacts (CoulombFrictionTally), for its own outputs.
------------------------------------------------------------------------- */

#ifdef FIX_CLASS
// clang-format off
FixStyle(COULOMB_FRICTION/EXACT,FixCoulombFrictionExact);
// clang-format on
#else

#ifndef GE_FIX_COULOMB_FRICTION_EXACT_H
#define GE_FIX_COULOMB_FRICTION_EXACT_H

#include "coulomb_friction_offload.h"
#include "coulomb_friction_tally.h"
#include "fix.h"

#include "contact/coulomb_constraint.hpp"

#include <initializer_list>
#include <string>
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
  void post_run() override;
  double compute_scalar() override;
  double compute_vector(int) override;
  int pack_forward_comm(int, int *, double *, int, int *) override;
  void unpack_forward_comm(int, int, double *) override;
  int pack_reverse_comm(int, int, double *) override;
  void unpack_reverse_comm(int, int *, double *) override;
  void write_restart(FILE *) override;
  void restart(char *) override;
  double memory_usage() override;
  int modify_param(int, char **) override;

  // Gathering the contacts of sphere pairs is done in the pair's force loop, where each touching
  // contact's geometry is at hand (positions and velocities do not change before post_force):
  // the pair starts a step's contacts, naming who is told their friction (nullptr: nobody, the
  // pair tallies no outputs this step), then adds every touching coulomb contact of two spheres
  // (n from j to i, the distance of the centres, its friction state, mu F_n; the state holds
  // the friction force on the atom with the lower tag: on i if i_is_p, else on j).
  void begin_contacts(CoulombFrictionTally *pair_tally);
  void add_sphere_contact(int i, int j, const ge::Vec3 &normal, double distance, double *state,
                          double cap, bool i_is_p);

  // A touching coulomb contact of atom i with a wall, handed in by the wall's post_force after
  // it has stored the contact's cap normal force (the walls run after the pair, before this fix)
  struct WallContact {
    int i;
    ge::Vec3 normal;         // unit normal from the wall to the atom
    double overlap;
    ge::Vec3 normal_rate;    // how fast the normal turns (0 on a plane)
    // the velocity of the wall's material point at the contact at the start and the end of the
    // kick (kick_times()); its change over the kick is taken as uniform
    ge::Vec3 v_start, v_end;
    double cap;              // mu F_n
    double *state;           // the tangential part of the contact's history (the sphere's side)
  };
  void add_wall_contact(const WallContact &w, CoulombFrictionTally *wall);
  // the kick over which the friction brings this step's contacts to rest, as times of a clock
  // that reads `now` at the current positions: from that of the velocities (the half step; the
  // full step at run setup) to t + dt/2 (notes: Coulomb projection)
  void kick_times(double now, double &start, double &end) const;

  // A solver the Newton solves are handed to (pair granular/exact/kk: its Kokkos execution
  // space), where the friction problem is one process's alone (solve_newton_offloaded);
  // nullptr: none. Its owner detaches it before it goes.
  void attach_offload(CoulombFrictionOffload *solver) { offload = solver; }
  // A whole friction step in the pair's execution space (pair granular/exact/kk: the step's
  // contacts made, solved and stored there, solve_in_space); nullptr: none. With one attached
  // the pair keeps a step's sphere contacts (keep_contacts_in_space(), after begin_contacts())
  // and the fix has them handed in only where the step cannot run there
  // (bring_contacts_to_host()). Its owner detaches it before it goes.
  void attach_step(CoulombFrictionStep *step) { in_space = step; }
  // What the fix keeps when pair granular/exact defines it anew behind a later fix
  // (place_friction_fix): the dissipated total, what fix_modify set, and whether the run has
  // already warned that the execution-space choices have no effect (said once, not once per move)
  struct Kept {
    double dissipated;
    int thermo_energy, thermo_virial, dynamic;
    std::string export_file;
    ge_coulomb_problem::SpaceChoices space;
    bool warned_space;
  };
  Kept kept() const
  {
    return Kept{dissipated, thermo_energy, thermo_virial, dynamic, export_file, space,
                warned_space};
  }
  void take_kept(const Kept &k)
  {
    dissipated = k.dissipated;
    thermo_energy = k.thermo_energy;
    thermo_virial = k.thermo_virial;
    dynamic = k.dynamic;
    export_file = k.export_file;
    space = k.space;
    warned_space = k.warned_space;
  }
  // how fix_modify asked the solves in an execution space to run (the solver's log line says)
  const ge_coulomb_problem::SpaceChoices &space_asked() const { return space; }
  void keep_contacts_in_space() { contacts_in_space = true; }

  class PairGranularExact *pair;
  bool active;          // some law (pair or wall) uses `tangential coulomb`
  ge::CoulombSolverSettings settings;
  double dissipated;    // energy dissipated by the friction on this process since creation

 private:
  // This step's contacts as an index-based structure of arrays, contact k at index k of each
  // array (the sweeps walk them by index; a device variant sweeps the same arrays). Slots of
  // earlier steps are kept and reused (every field is set before use).
  struct Contacts {
    std::vector<int> i;
    // whose totals take the friction on the partner: the partner, or the atom it is a periodic
    // image of where that is owned here; < 0: a wall
    std::vector<int> j;
    std::vector<double *> state;       // the tangential part of the contact's history
    std::vector<double> state_sign;    // +1: the stored force is the force on i, -1: on j
    std::vector<ge::CoulombContact> c;
    std::vector<ge::CoulombCoupling> coupling;
    std::vector<double> relax;         // the share of its change a sweep applies (relaxation())
    std::vector<ge::Vec3> force;       // the current friction force on i
    std::vector<ge::Vec3> y;           // APGD: the point the totals are at
    std::vector<double> inv_row;       // APGD: 1/R_c, the contact's preconditioned step
    std::vector<ge::Vec3> branch;      // from the partner (a wall's surface point) to i
    // Newton (solve_newton): the force before the step, the contact's face and its
    // conjugate-residual vectors (newton_step, SSOR in Eisenstat's form): the step x, the split
    // system's residual r_hat and direction p, t = E^-T r_hat, the coupling U t and then the
    // product A_hat r_hat, A_hat p and E^-T p, and D^1/2; and (APGD and Newton, solve()) the
    // terms of c and coupling that their passes read, packed (112 of their 192 bytes: on beds
    // too large for the caches every pass streams them from memory)
    std::vector<ge::Vec3> before;
    std::vector<ge::CoulombFace> face;
    std::vector<ge::CoulombSweepTerms<double>> terms;
    std::vector<ge::Vec3> cg_x, cg_r, cg_p, cg_u, cg_s, cg_ap, cg_up;
    std::vector<double> cg_half;
    std::vector<char> stick;
    std::vector<char> counted;         // run setup: the last step counted this kick's dissipation
    std::vector<CoulombFrictionTally *> tally;    // who is told the friction (may be nullptr)
    int slots() const { return static_cast<int>(i.size()); }
    void add_slot();
    double memory_usage() const;
  };
  Contacts contacts;
  int ncontacts;          // the first ncontacts slots are this step's
  CoulombFrictionTally *sphere_tally;    // who is told the friction of sphere pairs this step
  bool begun;             // the pair has begun this step's contacts (begin_contacts)
  bool setup_step;        // they are run setup's: solved for the first half-kick
  double tau;             // the time over which they are brought to rest (the step; half of
                          // it at run setup)

  int nmax;
  double **total;         // per atom (owned and ghost): force 0..2, torque 3..5
  double **sweep_local;   // Newton's SSOR sweeps: this process's part of total_next
  double **total_next;    // APGD: the totals of the next point y, made while the contacts read
                          // those of this one; Newton: the sweeps' totals of the directions
  double **received;      // per ghost atom: its totals as last forwarded; the sweeps' increments
                          // to it are total - received
  double wall_side[6];    // the totals a wall contact writes its (unused) partner's share to
  double *inv_mass, *inv_inertia;    // 0 for bodies that do not move under forces
  double *holders;        // per atom: how many copies of it contacts act on (count_holders)
  double **body_sums;     // per atom: its contacts on every process and their lever arms (APGD)
  // per atom: the process that owns it and its index there (find_owners)
  int *owner_proc, *owner_index;
  bool owners_known;      // since the ghosts were last made
  bool local_ghost_totals;    // a contact of this process acts on a ghost's totals this step
  bool ghost_totals;      // some contact (on any process) acts on a ghost's totals this step
  enum { COMM_TOTALS = 0, COMM_HOLDERS = 1, COMM_OWNERS = 2, COMM_BODY_SUMS = 3, COMM_PROBE = 4 };
  int comm_mode;

  int translating_bits;    // groups of time-integration fixes
  int rotating_bits;       // groups of those integrating the rotation of spheres
  int immovable_bits;      // fix freeze and prescribed motion (fix move)
  int frozen_bits;         // fix freeze: its zero forces are kept

  // outputs of the last solve (this process), see compute_vector()
  double n_contacts, n_stuck, sweeps_used, residual, max_stuck_slip, dissipation_rate;
  double natural_residual;        // largest natural residual of the final forces (this process)
  double stuck_velocity_after;    // largest tau |s| of a stuck contact (this process)
  double sweeps_total, solves_total;
  // this run: its steps, those whose solve its budget (`sweeps`) stopped above tol, and their
  // largest true error (all processes) and stuck velocity (this process): post_run() warns
  double run_steps, short_steps, short_residual, short_stuck_velocity;
  double reached_error;    // the true error of a solve stopped by its budget (all processes)
  // the last solve (run setup's included) reached tol; this step's and the last one's did, so
  // the change of the forces between them is stored for the extrapolated start
  bool last_reached_tol, changes_solved;
  bool extrapolated_start;    // this step's solve started from the extrapolated forces
  // this step's Newton solve starts close to the solution: from the extrapolated forces, or
  // from forces whose true error is already below ge::kCoulombNewtonCloseStart (solve_newton)
  bool close_start;
  bool extrapolate_next;      // the next step's will (decide_next_start)
  double start_misfit[2];     // this step's, previous and extrapolated start (add_start_misfits)
  std::string export_file;    // fix_modify export: the friction problem of the next solve goes here
  // fix_modify preconditioner and graphs: how the solves in a Kokkos execution space run
  ge_coulomb_problem::SpaceChoices space;
  bool warned_space = false;
  int modify_preconditioner(int, char **);
  int modify_graphs(int, char **);
  int modify_word(int narg, char **arg, std::initializer_list<const char *> words,
                  const char *expected);
  void warn_unused_space_choices();
  CoulombFrictionOffload *offload = nullptr;
  CoulombFrictionStep *in_space = nullptr;
  bool contacts_in_space = false;    // this step's sphere contacts are kept by the pair
  // this run: the steps the attached solver solved, its seconds in them, and those of the whole
  // friction step (from post_force, where the pair kept the contacts, to the forces stored):
  // post_run() reports them
  double offloaded_steps = 0.0, offload_seconds = 0.0, friction_seconds = 0.0;
  double declined_steps = 0.0;    // this run's steps that the attached solver did not take
  double in_space_steps = 0.0;    // this run's steps made and stored in the pair's space too
  // the run counts (sweeps_total, run_steps, short_steps, offloaded_steps ...) are of a run that
  // has ended: the next setup or step starts new ones (count_this_run)
  bool run_ended = true;

  void grow_per_atom_arrays();
  void count_this_run();
  void report_offloaded_steps() const;
  void export_problem();
  void set_mobility(int nall);
  void find_owners();
  int totals_index(int j) const;
  ge::CoulombBody body(int k) const;
  bool moves_under_forces(int k) const { return inv_mass[k] > 0.0 || inv_inertia[k] > 0.0; }
  int next_contact();
  void solve_step(int vflag);
  bool start_contact(int k);
  double *totals_of_j(int k) { return totals_of_j(k, total); }
  double *totals_of_j(int k, double **totals);    // (APGD: total_next too)
  ge::Vec3 rate_of(int k);
  double solve();
  void start_totals();
  double solve_gauss_seidel();
  double solve_apgd();
  int apgd_iterations(int most, double &res_all);
  double solve_newton();
  bool offload_applies() const;
  void bring_contacts_to_host();
  bool solve_in_space();
  void finish_in_space(int vflag);
  bool solve_newton_offloaded(double &res_all);
  void take_solve(const CoulombFrictionOffload::Solve &solve, const std::vector<ge::Vec3> &force);
  ge_coulomb_problem::Problem problem_of_this_step() const;
  std::vector<double> other_forces() const;
  std::vector<ge_coulomb_problem::ContactTerms> contact_terms(bool with_row_bounds) const;
  void pack_terms();
  int newton_step(int most);
  double start_newton_system(double &rr);
  // the conjugate-residual recursion's update of an iteration, taken by the next backward sweep
  // (newton_step)
  struct CrUpdate {
    bool pending = false;
    double alpha = 0.0, beta = 0.0;
  };
  void cr_update_contact(int k, const CrUpdate &update);
  void take_cr_update(const CrUpdate &update);
  void ssor_backward_sweep(const CrUpdate &update);
  void ssor_take_remote_coupling();
  void ssor_forward_sweep(double sums[4]);
  double ssor_true_residual();
  void take_newton_step(double &largest_change);
  void release_sliding();
  void clear_direction_totals();
  void tally_peratom_virial();
  void contact_virial(int k, double w[6]) const;
  double reduced_true_error();
  void compute_row_bounds();
  void measure_residual();
  bool reached_tol();
  void count_short_solve(bool reached);
  bool true_error_below_tol(double &change_tol);
  double sweep();
  double step_alone(int k);
  double step_together(int a, int b);
  void add(int k, const ge::Vec3 &change);
  void exchange_totals();
  void count_holders();
  double relaxation(int k) const;
  void finish(int vflag);
  void finish_host_contacts(double &dissipation);
  void forces_from_totals();
  void store_result(int k);
  void add_start_misfits(int k, const ge::Vec3 &old_force, const ge::Vec3 &old_change);
  void decide_next_start();
  double dissipation_by_atoms() const;
};

}    // namespace LAMMPS_NS

#endif
#endif
