/* ----------------------------------------------------------------------
   GRANULAR-EXACT: the friction solver of `tangential coulomb` (the law itself is in
   src/contact/coulomb_constraint.hpp; the project's reading of the paper is in
   doc/design_notes.md, "Coulomb projection", cited as "notes: <section>")
------------------------------------------------------------------------- */

#include "fix_coulomb_friction_exact.h"

#include "atom.h"
#include "atom_masks.h"
#include "comm.h"
#include "domain.h"
#include "error.h"
#include "force.h"
#include "memory.h"
#include "modify.h"
#include "neigh_list.h"
#include "neighbor.h"
#include "platform.h"
#include "update.h"

#include "contact/catalogue_law.hpp"    // the layout of a contact's state (CS_*, TS_CF_*)

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <utility>

using namespace LAMMPS_NS;
using namespace FixConst;
using ge::Vec3;

namespace {
constexpr int NVECTOR = 12;
// moment of inertia of a solid sphere, as fix nve/sphere integrates it: the tangential reduced
// mass (Sakamaki et al. 3D eq. 24) must use the I the integrator moves the spheres with
constexpr double SPHERE_INERTIA = 0.4;
}    // namespace

/* ---------------------------------------------------------------------- */

FixCoulombFrictionExact::FixCoulombFrictionExact(LAMMPS *lmp, int narg, char **arg) :
    Fix(lmp, narg, arg)
{
  if (narg != 3)
    error->all(FLERR, "Fix {} is internal to pair granular/exact and takes no arguments", style);
  pair = nullptr;
  active = false;
  dissipated = 0.0;
  nmax = 0;
  ncontacts = 0;
  sphere_tally = nullptr;
  begun = setup_step = false;
  tau = 0.0;
  total = total_next = received = sweep_local = nullptr;
  inv_mass = inv_inertia = holders = nullptr;
  body_sums = nullptr;
  owner_proc = owner_index = nullptr;
  owners_known = local_ghost_totals = ghost_totals = false;
  comm_mode = COMM_TOTALS;
  translating_bits = rotating_bits = immovable_bits = frozen_bits = 0;
  n_contacts = n_stuck = sweeps_used = residual = max_stuck_slip = dissipation_rate = 0.0;
  natural_residual = stuck_velocity_after = 0.0;
  sweeps_total = solves_total = 0.0;
  run_steps = short_steps = short_residual = short_stuck_velocity = 0.0;
  reached_error = 0.0;
  last_reached_tol = changes_solved = extrapolated_start = extrapolate_next = close_start = false;
  start_misfit[0] = start_misfit[1] = 0.0;

  comm_forward = 6;
  comm_reverse = 6;
  scalar_flag = 1;
  extscalar = 1;
  vector_flag = 1;
  size_vector = NVECTOR;
  extvector = 0;
  global_freq = 1;
  restart_global = 1;
  virial_global_flag = 1;
  virial_peratom_flag = 1;    // (compute stress/atom)
  thermo_virial = 1;
  // under the KOKKOS package: of the atoms' data only the forces and torques change here, so
  // only they go back to the execution space after post_force
  datamask_modify = F_MASK | TORQUE_MASK;
}

FixCoulombFrictionExact::~FixCoulombFrictionExact()
{
  memory->destroy(total);
  memory->destroy(total_next);
  memory->destroy(sweep_local);
  memory->destroy(received);
  memory->destroy(inv_mass);
  memory->destroy(inv_inertia);
  memory->destroy(holders);
  memory->destroy(body_sums);
  memory->destroy(owner_proc);
  memory->destroy(owner_index);
}

int FixCoulombFrictionExact::setmask()
{
  return POST_FORCE;
}

/* ----------------------------------------------------------------------
   which atoms move under forces: those of a time-integration fix, less fix freeze
   and prescribed motion; rotation only where a sphere integrator (nve/sphere, nvt/sphere, ...)
   integrates it
------------------------------------------------------------------------- */

void FixCoulombFrictionExact::init()
{
  if (pair == nullptr)
    error->all(FLERR, "Fix {} is internal to pair granular/exact: do not define it", style);
  if (!active) return;    // no `tangential coulomb` law (any more): nothing to solve
  warn_unused_space_choices();
  if (utils::strmatch(update->integrate_style, "^respa"))
    error->all(FLERR,
               "Pair granular/exact 'tangential coulomb' does not support run_style respa: the "
               "friction is solved once per step from all forces; use run_style verlet");
  if (domain->dimension != 3)
    error->all(FLERR,
               "Pair granular/exact 'tangential coulomb' needs a 3d simulation (its tangential "
               "mass uses the solid-sphere inertia 0.4 m R^2 of fix nve/sphere)");

  translating_bits = rotating_bits = immovable_bits = frozen_bits = 0;
  for (const auto &ifix : modify->get_fix_list()) {
    if (ifix->rigid_flag)
      error->all(FLERR,
                 "Pair granular/exact 'tangential coulomb' does not support rigid bodies (fix "
                 "{} {}): the friction would need the mass and inertia of each body",
                 ifix->id, ifix->style);
    if (utils::strmatch(ifix->style, "^freeze")) {
      immovable_bits |= ifix->groupbit;
      frozen_bits |= ifix->groupbit;
    } else if (utils::strmatch(ifix->style, "^move")) {
      immovable_bits |= ifix->groupbit;
    } else if (ifix->time_integrate) {
      translating_bits |= ifix->groupbit;
      if (utils::strmatch(ifix->style, "/sphere")) rotating_bits |= ifix->groupbit;
    }
  }
}

/* ---------------------------------------------------------------------- */

void FixCoulombFrictionExact::grow_per_atom_arrays()
{
  if (atom->nmax <= nmax) return;
  nmax = atom->nmax;
  memory->destroy(total);
  memory->destroy(total_next);
  memory->destroy(sweep_local);
  memory->destroy(received);
  memory->destroy(inv_mass);
  memory->destroy(inv_inertia);
  memory->destroy(holders);
  memory->destroy(body_sums);
  memory->destroy(owner_proc);
  memory->destroy(owner_index);
  memory->create(total, nmax, 6, "coulomb/exact:total");
  memory->create(total_next, nmax, 6, "coulomb/exact:total_next");
  memory->create(sweep_local, nmax, 6, "coulomb/exact:sweep_local");
  memory->create(body_sums, nmax, 2, "coulomb/exact:body_sums");
  memory->create(received, nmax, 6, "coulomb/exact:received");
  memory->create(inv_mass, nmax, "coulomb/exact:inv_mass");
  memory->create(inv_inertia, nmax, "coulomb/exact:inv_inertia");
  memory->create(holders, nmax, "coulomb/exact:holders");
  memory->create(owner_proc, nmax, "coulomb/exact:owner_proc");
  memory->create(owner_index, nmax, "coulomb/exact:owner_index");
  owners_known = false;
}

/* ----------------------------------------------------------------------
   the owner (process, index) of every atom, ghosts included: sent along with the ghosts, so
   that a periodic image of an atom owned here is known as such (a ghost of a ghost gets the
   original owner's). Valid until the ghosts are made anew.
------------------------------------------------------------------------- */

void FixCoulombFrictionExact::find_owners()
{
  for (int k = 0; k < atom->nlocal; k++) {
    owner_proc[k] = comm->me;
    owner_index[k] = k;
  }
  comm_mode = COMM_OWNERS;
  comm->forward_comm(this, 2);
  comm_mode = COMM_TOTALS;
  owners_known = true;
}

// The totals the friction on atom j goes to: those of the atom itself, or, for a periodic image
// of an atom owned here, the owner's. Forces and torques are the same on every copy of an atom
// (only positions and, under a sheared boundary, velocities differ), so a contact may act on the
// owner directly: then its sweeps see every other contact of the atom at once (Gauss-Seidel),
// and in serial no sweep needs communication.
inline int FixCoulombFrictionExact::totals_index(int j) const
{
  return (j >= atom->nlocal && owner_proc[j] == comm->me) ? owner_index[j] : j;
}

void FixCoulombFrictionExact::set_mobility(int nall)
{
  const int *mask = atom->mask;
  const double *rmass = atom->rmass, *radius = atom->radius;
  for (int k = 0; k < nall; k++) {
    const bool fixed = (mask[k] & immovable_bits) != 0;
    const bool moves = !fixed && (mask[k] & translating_bits);
    const bool turns = moves && (mask[k] & rotating_bits);
    inv_mass[k] = moves ? 1.0 / rmass[k] : 0.0;
    inv_inertia[k] = turns ? 1.0 / (SPHERE_INERTIA * rmass[k] * radius[k] * radius[k]) : 0.0;
  }
}

inline ge::CoulombBody FixCoulombFrictionExact::body(int k) const
{
  ge::CoulombBody b;
  b.x = ge::vec3(atom->x[k]);
  b.v = ge::vec3(atom->v[k]);
  b.omega = ge::vec3(atom->omega[k]);
  b.radius = atom->radius[k];
  b.inv_mass = inv_mass[k];
  b.inv_inertia = inv_inertia[k];
  return b;
}

// the slot for the next contact of this step: slots of earlier steps are reused as they are
// (every field is set before use), so gathering neither zeroes nor copies a contact
int FixCoulombFrictionExact::next_contact()
{
  if (ncontacts == contacts.slots()) contacts.add_slot();
  return ncontacts;
}

void FixCoulombFrictionExact::Contacts::add_slot()
{
  i.emplace_back();
  j.emplace_back();
  state.emplace_back();
  state_sign.emplace_back();
  c.emplace_back();
  coupling.emplace_back();
  relax.emplace_back();
  force.emplace_back();
  y.emplace_back();
  inv_row.emplace_back();
  branch.emplace_back();
  before.emplace_back();
  face.emplace_back();
  terms.emplace_back();
  cg_x.emplace_back();
  cg_r.emplace_back();
  cg_p.emplace_back();
  cg_s.emplace_back();
  cg_u.emplace_back();
  cg_ap.emplace_back();
  cg_up.emplace_back();
  cg_half.emplace_back();
  stick.emplace_back();
  counted.emplace_back();
  tally.emplace_back();
}

double FixCoulombFrictionExact::Contacts::memory_usage() const
{
  const double per_slot = 2.0 * sizeof(int) + sizeof(double *) + 2.0 * sizeof(double) +
      sizeof(ge::CoulombContact) + sizeof(ge::CoulombCoupling) + 11.0 * sizeof(ge::Vec3) +
      sizeof(ge::CoulombFace) + sizeof(ge::CoulombSweepTerms<double>) +
      2.0 * sizeof(double) + 2.0 +
      sizeof(CoulombFrictionTally *);
  return per_slot * static_cast<double>(i.capacity());
}

/* ----------------------------------------------------------------------
   this step's contacts, handed in by the pair's force loop (newton on: each contact once) and
   then by the walls' post_force. Run setup's forces drive only the first half-kick, over dt/2;
   a step's, the coming half-kick and the next step's first: the target is zero relative
   tangential velocity after them, at t + dt/2 (notes: Coulomb projection).
------------------------------------------------------------------------- */

void FixCoulombFrictionExact::begin_contacts(CoulombFrictionTally *pair_tally)
{
  grow_per_atom_arrays();
  set_mobility(atom->nlocal + atom->nghost);
  if (neighbor->ago == 0 || !owners_known) find_owners();
  setup_step = update->setupflag != 0;
  tau = setup_step ? 0.5 * update->dt : update->dt;
  extrapolated_start =
      settings.warm == ge::CoulombWarmStart::Extrapolated && !setup_step && extrapolate_next;
  start_misfit[0] = start_misfit[1] = 0.0;
  ncontacts = 0;
  local_ghost_totals = false;
  sphere_tally = pair_tally;
  begun = true;
}

void FixCoulombFrictionExact::kick_times(double now, double &start, double &end) const
{
  start = update->setupflag ? now : now - 0.5 * update->dt;
  end = now + 0.5 * update->dt;
}

void FixCoulombFrictionExact::add_sphere_contact(int i, int j, const Vec3 &normal,
                                                 double distance, double *state, double cap,
                                                 bool i_is_p)
{
  const int k = next_contact();
  contacts.i[k] = i;
  contacts.j[k] = totals_index(j);
  contacts.state[k] = state;
  contacts.state_sign[k] = i_is_p ? 1.0 : -1.0;
  contacts.branch[k] = ge::vec3(atom->x[i]) - ge::vec3(atom->x[j]);    // (j as listed)
  contacts.tally[k] = sphere_tally;
  if (moves_under_forces(i) || moves_under_forces(j))
    ge::set_coulomb_sphere_contact(contacts.c[k], body(i), body(j), normal, distance, cap, tau,
                                   settings.kinematics);
  else
    contacts.c[k] = ge::CoulombContact{};    // (inv_mt 0: nothing to solve)
  if (!start_contact(k)) return;
  ncontacts++;
  if (contacts.j[k] >= atom->nlocal) local_ghost_totals = true;
}

// (a wall handing in contacts while the pair has not begun the step's: nothing to solve them
// against; solve_step() says why)
void FixCoulombFrictionExact::add_wall_contact(const WallContact &w, CoulombFrictionTally *wall)
{
  if (!begun) return;
  const int k = next_contact();
  contacts.i[k] = w.i;
  contacts.j[k] = -1;    // a wall: no totals of its own
  contacts.state[k] = w.state;
  contacts.state_sign[k] = 1.0;    // a wall contact's state is the sphere's
  contacts.tally[k] = wall;
  ge::CoulombContact &c = contacts.c[k];
  ge::set_coulomb_moving_wall_contact(c, body(w.i), w.normal, w.overlap, w.normal_rate, w.v_start,
                                      (1.0 / tau) * (w.v_end - w.v_start), w.cap, tau,
                                      settings.kinematics);
  // from the wall point to the centre: (R - overlap) n, with the lever rho_i = R - overlap/2
  contacts.branch[k] = (2.0 * c.rho_i - atom->radius[w.i]) * c.normal;
  if (start_contact(k)) ncontacts++;
}

namespace {
// the last step's change of a contact's friction force, after its tangential state
double *last_change_of(double *tangential_state)
{
  return tangential_state + (ge::CS_COULOMB_CHANGE - ge::CS_TANGENTIAL);
}
}    // namespace

/* ----------------------------------------------------------------------
   a contact's start (notes: Coulomb warm start): the previous step's force projected and clipped
   (warm), or zero; with `warm extrapolate`, where the last step's record says so (extrapolate_next;
   not at run setup, which continues the last step's kick), that force plus its last change.
   False:
   nothing to solve, because there is no normal force (a damped contact pulling apart) or
   neither body moves under forces; its friction is then zero.
------------------------------------------------------------------------- */

bool FixCoulombFrictionExact::start_contact(int k)
{
  double *state = contacts.state[k];
  const ge::CoulombContact &c = contacts.c[k];
  contacts.stick[k] = state[ge::TS_CF_SLIDING] == 0.0;
  // at run setup a contact the last step solved continues that step's kick: its dissipation
  // was counted there
  contacts.counted[k] = setup_step && state[ge::TS_CF_SOLVED] != 0.0;
  if (!(c.cap > 0.0) || c.inv_mt == 0.0) {
    state[ge::TS_CF_FORCE] = state[ge::TS_CF_FORCE + 1] = state[ge::TS_CF_FORCE + 2] = 0.0;
    state[ge::TS_CF_SLIDING] = 1.0;
    state[ge::TS_CF_SOLVED] = 1.0;
    state[ge::CS_SLIDING - ge::CS_TANGENTIAL] = 1.0;
    ge::store(Vec3{0, 0, 0}, last_change_of(state));
    return false;
  }
  const int i = contacts.i[k], j = contacts.j[k];
  const bool wall = j < 0;
  contacts.coupling[k] =
      ge::coulomb_coupling(c, inv_mass[i], inv_inertia[i], wall ? 0.0 : inv_mass[j],
                           wall ? 0.0 : inv_inertia[j], force->ftm2v);
  const double sign = contacts.state_sign[k];
  const Vec3 stored = sign * ge::vec3(state + ge::TS_CF_FORCE);
  if (settings.warm == ge::CoulombWarmStart::Zero)
    contacts.force[k] = Vec3{0, 0, 0};
  else if (extrapolated_start)
    contacts.force[k] = ge::coulomb_extrapolated_start(
        stored, sign * ge::vec3(last_change_of(state)), c.normal, c.cap);
  else
    contacts.force[k] = ge::coulomb_warm_start(stored, c.normal, c.cap);
  return true;
}

// the totals of j; a wall's contact has none: its coupling to them is zero, and what it would
// add to them goes to a scratch row
double *FixCoulombFrictionExact::totals_of_j(int k, double **totals)
{
  const int j = contacts.j[k];
  return j >= 0 ? totals[j] : wall_side;
}

// the friction on i acts at the contact point; -change on j
void FixCoulombFrictionExact::add(int k, const Vec3 &change)
{
  ge::coulomb_add_pair(contacts.c[k], total[contacts.i[k]], totals_of_j(k), change);
}

// the rate s = v_t/tau + a_t that would remain at the contact with the current totals
Vec3 FixCoulombFrictionExact::rate_of(int k)
{
  return ge::coulomb_rate(contacts.c[k], contacts.coupling[k], total[contacts.i[k]],
                          totals_of_j(k));
}

/* ----------------------------------------------------------------------
   holders of an atom: the copies of it (owned or ghost, on any process) that contacts of this
   step act on. Contacts on different copies are updated at the same time within a sweep, each
   from its own copy's totals; a contact takes 1/holders of its Gauss-Seidel change, so that
   together they make at most one full change (damped block Jacobi across copies).
------------------------------------------------------------------------- */

void FixCoulombFrictionExact::count_holders()
{
  const int nall = atom->nlocal + atom->nghost;
  for (int k = 0; k < nall; k++) holders[k] = 0.0;
  for (int k = 0; k < ncontacts; k++) {
    holders[contacts.i[k]] = 1.0;
    if (contacts.j[k] >= 0) holders[contacts.j[k]] = 1.0;
  }
  comm_mode = COMM_HOLDERS;
  comm->reverse_comm(this, 1);
  comm->forward_comm(this, 1);
  comm_mode = COMM_TOTALS;
}

// (a body that does not move under forces couples nothing: its copies do not count)
double FixCoulombFrictionExact::relaxation(int k) const
{
  auto copies = [&](int a) {
    return (a >= 0 && moves_under_forces(a)) ? holders[a] : 1.0;
  };
  const double n = std::fmax(copies(contacts.i[k]), copies(contacts.j[k]));
  return n > 1.0 ? 1.0 / n : 1.0;
}

// owners take the increments their ghosts received (total - received), then every ghost gets
// its owner's totals
void FixCoulombFrictionExact::exchange_totals()
{
  if (!ghost_totals) return;
  comm->reverse_comm(this);
  comm->forward_comm(this);
}

/* ----------------------------------------------------------------------
   projected Gauss-Seidel (notes: Coulomb sweeps): Gauss-Seidel within a process, Jacobi across
   processes;
   returns the largest force change of the last sweep relative to mu F_n (all processes)
------------------------------------------------------------------------- */

double FixCoulombFrictionExact::solve()
{
  // where no contact acts on a ghost's totals (in serial: never, periodic images act on their
  // owners), the ghosts' totals are neither needed nor changed: no communication, and every
  // contact takes its full change
  int on_ghosts = local_ghost_totals ? 1 : 0, all_on_ghosts = 0;
  MPI_Allreduce(&on_ghosts, &all_on_ghosts, 1, MPI_INT, MPI_MAX, world);
  ghost_totals = all_on_ghosts != 0;
  if (ghost_totals) count_holders();
  for (int k = 0; k < ncontacts; k++) contacts.relax[k] = ghost_totals ? relaxation(k) : 1.0;
  if (!export_file.empty() && !setup_step) export_problem();

  // (a solve handed away brings back its totals and measures; the host's solvers start from
  // the totals of the start forces)
  double res_all = 0.0;
  const bool offloaded = settings.solver == ge::CoulombSolver::Newton && offload_applies() &&
      solve_newton_offloaded(res_all);
  if (!offloaded) {
    start_totals();
    switch (settings.solver) {
      case ge::CoulombSolver::APGD: res_all = solve_apgd(); break;
      case ge::CoulombSolver::Newton: res_all = solve_newton(); break;
      default: res_all = solve_gauss_seidel(); break;
    }
    measure_residual();
  }
  return res_all;
}

// the totals of every force but the friction (an owned atom's: what the other styles left in f
// and torque; a ghost's: its owner's, forwarded), then the start forces added
void FixCoulombFrictionExact::start_totals()
{
  const double *const *f = atom->f, *const *torque = atom->torque;
  for (int k = 0; k < atom->nlocal; k++) {
    for (int m = 0; m < 3; m++) total[k][m] = f[k][m];
    for (int m = 0; m < 3; m++) total[k][3 + m] = torque[k][m];
  }
  for (double &w : wall_side) w = 0.0;
  if (ghost_totals) comm->forward_comm(this);
  bool started = false;    // the sweeps start from the stored (warm or kept) forces
  for (int k = 0; k < ncontacts; k++) {
    if (ge::is_zero(contacts.force[k])) continue;
    add(k, contacts.force[k]);
    started = true;
  }
  int any_started = started ? 1 : 0, all_started = 0;
  MPI_Allreduce(&any_started, &all_started, 1, MPI_INT, MPI_MAX, world);
  if (all_started) exchange_totals();
}

// projected Gauss-Seidel sweeps until the largest change and the true error are below tol (or
// `sweeps` of them). The last change is each contact's residual at its turn, from totals the
// sweep has partly updated: it understates the error where convergence is slow, so a sweep whose
// change is below tol stops only if the natural residual of the forces is too.
double FixCoulombFrictionExact::solve_gauss_seidel()
{
  double res_all = 0.0;
  double change_tol = settings.tol;    // the change below which the true error is checked
  int sweeps = 0;
  while (sweeps < settings.sweeps) {
    sweeps++;
    double res = sweep();    // (not const: an MPI stub library takes a void *)
    exchange_totals();
    MPI_Allreduce(&res, &res_all, 1, MPI_DOUBLE, MPI_MAX, world);
    if (res_all <= change_tol && sweeps < settings.sweeps &&
        true_error_below_tol(change_tol))
      break;
  }
  sweeps_used = sweeps;
  return res_all;
}

/* ----------------------------------------------------------------------
   APGD (notes: Coulomb solvers; ge::coulomb_gradient_step): every contact steps from the
   same totals, those of the point y; the forces then move on with Nesterov's momentum, which
   restarts (O'Donoghue & Candes) when the gradient at y points against the step just taken.
   One pass over the contacts per iteration: each contact reads the totals of y and adds its
   move to the next y, with the momentum of an iteration that does not restart, into a copy
   (total_next); then one exchange with the ghosts, as a Gauss-Seidel sweep. Where the
   iteration restarts (or the true error is to be checked, or it is the last) y is the forces
   themselves: a second pass takes the momentum back. A contact's step does not depend on the
   order of the contacts or on which process holds them: the forces are the same on any number
   of processes to roundoff. Returns the largest change of the last iteration relative to mu F_n.
------------------------------------------------------------------------- */

double FixCoulombFrictionExact::solve_apgd()
{
  compute_row_bounds();
  pack_terms();
  double res_all = 0.0;
  sweeps_used = apgd_iterations(settings.sweeps, res_all);
  return res_all;
}

// at most `most` APGD iterations from the forces (with the row bounds computed); returns the
// iterations taken, and in res_all the largest change of the last
int FixCoulombFrictionExact::apgd_iterations(int most, double &res_all)
{
  for (int k = 0; k < ncontacts; k++) contacts.y[k] = contacts.force[k];
  const int nall = atom->nlocal + atom->nghost;
  double theta = 1.0;
  res_all = 0.0;
  double change_tol = settings.tol;    // the change below which the true error is checked
  int iterations = 0;
  while (iterations < most) {
    iterations++;
    bool done = iterations == most;
    // the momentum of the next y if this iteration does not restart (none after the last)
    const double next_theta = ge::coulomb_apgd_next_theta(theta);
    const double momentum = done ? 0.0 : ge::coulomb_apgd_momentum(theta, next_theta);
    for (int b = 0; b < nall; b++)
      for (int m = 0; m < 6; m++) total_next[b][m] = total[b][m];
    double sums[2] = {0.0, 0.0};    // largest change squared, gradient . step
    for (int k = 0; k < ncontacts; k++) {
      const ge::CoulombSweepTerms<double> &t = contacts.terms[k];
      const ge::CoulombApgdMove move =
          ge::coulomb_apgd_step(t, contacts.inv_row[k], momentum, total[contacts.i[k]],
                                totals_of_j(k), contacts.force[k], contacts.y[k]);
      // (a division only for a new maximum)
      if (move.change2 > sums[0] * move.cap2) sums[0] = move.change2 / move.cap2;
      sums[1] += move.slope;
      contacts.stick[k] = move.stick;
      ge::coulomb_add_pair(t, total_next[contacts.i[k]], totals_of_j(k, total_next),
                           move.y_change);
    }
    std::swap(total, total_next);
    exchange_totals();
    double largest = 0.0, slope = 0.0;
    MPI_Allreduce(&sums[0], &largest, 1, MPI_DOUBLE, MPI_MAX, world);
    MPI_Allreduce(&sums[1], &slope, 1, MPI_DOUBLE, MPI_SUM, world);
    res_all = std::sqrt(largest);
    // a change below tol: the true error of the forces decides (from their totals)
    const bool check = !done && res_all <= change_tol;
    if (slope > 0.0 || check) {
      // restart (the step went uphill at y), or a check: y is the forces, the momentum is taken
      // back
      theta = 1.0;
      if (momentum != 0.0) {
        for (int k = 0; k < ncontacts; k++) {
          add(k, contacts.force[k] - contacts.y[k]);
          contacts.y[k] = contacts.force[k];
        }
        exchange_totals();
      }
    } else {
      theta = next_theta;
    }
    if (check && true_error_below_tol(change_tol)) done = true;
    if (done) break;
  }
  return iterations;
}

/* ----------------------------------------------------------------------
   Newton (notes: Coulomb Newton; ge::coulomb_face): APGD iterations (50; 10 from an
   extrapolated start; none from a start within ge::kCoulombNewtonCloseStart of the solution in
   true error, whose face is the solution's) find which contacts stick and which slide, then
   Newton steps on that face,
   each solved by conjugate residuals preconditioned by symmetric Gauss-Seidel, finish the step.
   A Newton step that does not at least halve the true error (the face was not yet the
   solution's) sends the solve back to APGD for twice the previous phase, from the forces it
   reached or, where it made them worse, from those before it; after 3 such misses whose Krylov
   solve ran to its cap APGD alone finishes the solve. `sweeps` bounds the APGD and
   conjugate-residual iterations together.
   Every decision is taken on reduced values: all processes take the same path, and the motion is
   the same on any number of processes to what tol allows (the preconditioner sweeps each
   process's contacts, and the sums are taken in another order: it stops at another iterate).
   src/kokkos/coulomb_newton_parallel.hpp writes the same algorithm as the passes a GPU
   runs; the deck test ExportedNewtonProblemSolvesAsTheFixDoes holds the two to the same
   iterates bit for bit, so a change here is made there too.
------------------------------------------------------------------------- */

double FixCoulombFrictionExact::solve_newton()
{
  compute_row_bounds();
  pack_terms();
  double res_all = 0.0;
  // the start's true error (one pass); an extrapolated start is close by construction. A start
  // already within tol still takes the APGD phase of a close start: every step iterates, and a
  // stuck contact does not keep the velocity its start leaves it step after step (creep)
  double error = reduced_true_error();
  close_start = extrapolated_start || error <= ge::kCoulombNewtonCloseStart;
  const bool near_start = error <= ge::kCoulombNewtonCloseStart && error > settings.tol;
  // (doubled where a step misses)
  int used = 0, phase = near_start    ? ge::kCoulombNewtonFirstApgdNear
                        : close_start ? ge::kCoulombNewtonFirstApgdClose
                                      : ge::kCoulombNewtonFirstApgd;
  int misses = 0;
  while (used < settings.sweeps) {
    // APGD: a phase, or (after ge::kCoulombNewtonMisses missed steps) to the end
    const int most = misses < ge::kCoulombNewtonMisses ? phase : settings.sweeps - used;
    const int apgd = apgd_iterations(std::min(most, settings.sweeps - used), res_all);
    used += apgd;
    if (apgd > 0) error = reduced_true_error();
    if (error <= settings.tol || apgd < most || misses >= ge::kCoulombNewtonMisses) break;
    bool improved = true;
    while (used < settings.sweeps && improved) {
      for (int k = 0; k < ncontacts; k++) contacts.before[k] = contacts.force[k];
      const int krylov_most =
          ge::kCoulombNewtonCgPerApgd * std::max(phase, ge::kCoulombNewtonApgdAfterStep);
      const int krylov_cap = std::min(krylov_most, settings.sweeps - used);
      const int krylov = newton_step(krylov_cap);
      used += krylov;
      // the whole step, then a few APGD iterations that settle the contacts whose face it
      // changed (a stuck force clipped onto its rim, a sliding one released)
      double largest_change = 0.0;
      take_newton_step(largest_change);
      release_sliding();
      double after = reduced_true_error();
      if (after > settings.tol) {
        double change = 0.0;
        const int settle = std::min(ge::kCoulombNewtonApgdAfterStep, settings.sweeps - used);
        used += apgd_iterations(settle, change);
        after = reduced_true_error();
      }
      improved = after <= 0.5 * error;
      if (!improved) {
        // the face was not yet the solution's: a longer APGD phase to find it, from the forces
        // the step reached where they are no worse than before it (with the APGD iterations
        // after it, a step that missed has still settled most contacts: measured on the moving
        // 72-layer bed), else from those before it
        // (only a step whose Krylov solve ran to its cap counts toward the limit: a step whose
        // system was solved missed on the face alone, which the longer phase finds)
        if (krylov >= krylov_cap) misses++;
        phase = std::max(2 * phase, ge::kCoulombNewtonFirstApgdClose);
        if (after > error) {
          for (int k = 0; k < ncontacts; k++) {
            add(k, contacts.before[k] - contacts.force[k]);
            contacts.force[k] = contacts.before[k];
          }
          exchange_totals();
          measure_residual();
        }
        break;
      }
      error = after;
      res_all = largest_change;
      if (error <= settings.tol) break;
    }
    if (error <= settings.tol) break;
  }
  sweeps_used = used;
  return res_all;
}

/* ----------------------------------------------------------------------
   Newton by the attached solver (pair granular/exact/kk: in its Kokkos execution space, by the
   parallel form of solve_newton, src/kokkos/coulomb_newton_parallel.hpp), where the friction
   problem is one process's whole problem: on one process, with no contact acting on a ghost's
   totals. It solves the same problem to the same tol with the same control; its sums run in
   another order (contacts in colours; on a GPU the diagonal blocks precondition its Krylov
   iterations), so it stops at another iterate within tol, as a run on other processes does. The
   forces come back in the contacts' order with their totals and the two measures of
   measure_residual(), which the solver takes from its own totals, so the host makes no pass to
   add or to measure them; the returned "change" is the solve's own true error.
------------------------------------------------------------------------- */

bool FixCoulombFrictionExact::offload_applies() const
{
  return offload != nullptr && comm->nprocs == 1 && !ghost_totals;
}

bool FixCoulombFrictionExact::solve_newton_offloaded(double &res_all)
{
  compute_row_bounds();
  std::vector<Vec3> solved;
  CoulombFrictionOffload::Solve solve;
  if (!offload->solve_newton(problem_of_this_step(), settings.sweeps, space, solved, solve)) {
    if (!setup_step) declined_steps += 1.0;
    return false;
  }
  take_solve(solve, solved);
  res_all = solve.true_error;
  return true;
}

// A solve the attached solver made: the owned atoms' totals as it summed them (no contact acts
// on a ghost's), the forces of the contacts made here, its iterations, and measure_residual()'s
// two measures, which it took from the same forces and totals
void FixCoulombFrictionExact::take_solve(const CoulombFrictionOffload::Solve &solve,
                                         const std::vector<Vec3> &force)
{
  for (int b = 0; b < atom->nlocal; b++)
    for (int m = 0; m < 6; m++) total[b][m] = solve.totals[6 * (size_t) b + m];
  for (double &w : wall_side) w = 0.0;
  for (int k = 0; k < ncontacts; k++) {
    contacts.force[k] = force[k];
    contacts.stick[k] = !ge::coulomb_on_rim(contacts.c[k], contacts.force[k]);
  }
  sweeps_used = solve.iterations;
  close_start = solve.close_start;
  natural_residual = solve.true_error;
  stuck_velocity_after = tau * solve.stuck_rate;
  if (setup_step) return;
  offloaded_steps += 1.0;
  offload_seconds += solve.seconds;
}

/* ----------------------------------------------------------------------
   the whole step in the pair's execution space (CoulombFrictionStep), where the host would only
   hand the problem over: the Newton solver, one process, a step's solve (run setup's counts the
   dissipation contact by contact, export writes the host's records). The step makes the same
   contacts, terms, start forces and R_c as add_sphere_contact(), start_contact() and
   compute_row_bounds(), in the slots' order, solves them with the walls' contacts made here
   (after them, as the host style orders them) as solve_newton_offloaded() does, and stores them
   as store_result() does; the fix takes back the totals, the walls' forces and the sums of its
   outputs. False: the pair's contacts are to be handed in.
------------------------------------------------------------------------- */

bool FixCoulombFrictionExact::solve_in_space()
{
  if (settings.solver != ge::CoulombSolver::Newton || comm->nprocs != 1 || setup_step ||
      !export_file.empty())
    return false;
  const int nlocal = atom->nlocal, nall = nlocal + atom->nghost;
  std::vector<int> totals_row(nall);
  for (int k = 0; k < nall; k++) totals_row[k] = totals_index(k);
  const std::vector<double> total0 = other_forces();
  CoulombFrictionStep::Settings s;
  s.tau = tau;
  s.ftm2v = force->ftm2v;
  s.tol = settings.tol;
  s.most = settings.sweeps;
  s.space = space;
  s.warm = settings.warm;
  s.extrapolated_start = extrapolated_start;
  s.kinematics = settings.kinematics;
  s.nlocal = nlocal;
  s.nall = nall;
  s.inv_mass = inv_mass;
  s.inv_inertia = inv_inertia;
  s.totals_row = totals_row.data();
  s.total0 = total0.data();
  // (the contacts made here: the walls', whose R_c the step sets with the others')
  const std::vector<ge_coulomb_problem::ContactTerms> host_terms = contact_terms(false);
  s.nhost = ncontacts;
  s.host_terms = host_terms.data();
  s.host_start = contacts.force.data();
  CoulombFrictionOffload::Solve solve;
  std::vector<Vec3> host_force;
  // (a step it declines goes to solve(), whose offload counts it where it declines too)
  if (!in_space->solve(s, solve, host_force)) return false;
  ghost_totals = false;
  take_solve(solve, host_force);
  residual = solve.true_error;
  in_space_steps += 1.0;
  return true;
}

// the contacts the pair kept (keep_contacts_in_space()) handed in, where the step cannot run in
// its space: in the order of its hand-over (after the walls' contacts, where there are any)
void FixCoulombFrictionExact::bring_contacts_to_host()
{
  if (!contacts_in_space) return;
  contacts_in_space = false;
  in_space->hand_over();
}

// finish() for a step solved in the pair's execution space: the forces and torques from the
// totals, the outputs from the step's sums and the contacts made here (the walls'); no per-atom
// virial (pair granular/exact/kk gives none)
void FixCoulombFrictionExact::finish_in_space(int vflag)
{
  double dissipation = dissipation_by_atoms();
  forces_from_totals();
  v_init(vflag);
  CoulombFrictionStep::Sums sums;
  in_space->store(changes_solved, sphere_tally != nullptr, vflag_global != 0, sums);
  n_contacts = sums.contacts;
  n_stuck = sums.stuck;
  max_stuck_slip = sums.largest_slip2;
  if (vflag_global) {
    // (contact_virial()'s components of l (x) F: xx, yy, zz, xy, xz, yz)
    const int of_product[6] = {0, 4, 8, 1, 2, 5};
    for (int m = 0; m < 6; m++) virial[m] += sums.products[of_product[m]];
  }
  start_misfit[0] = sums.misfit[0];
  start_misfit[1] = sums.misfit[1];
  finish_host_contacts(dissipation);
  max_stuck_slip = std::sqrt(max_stuck_slip);
  decide_next_start();
  dissipated += dissipation;
  dissipation_rate = dissipation / tau;
}

// this process's friction problem as the parallel solver reads it (the bodies are the owned
// atoms, what export_problem() writes): every force and torque but the friction, still in
// atom->f and atom->torque; the contacts' terms and R_c (compute_row_bounds()); the start forces
ge_coulomb_problem::Problem FixCoulombFrictionExact::problem_of_this_step() const
{
  ge_coulomb_problem::Problem p;
  p.nbodies = atom->nlocal;
  p.tol = settings.tol;
  p.extrapolated = extrapolated_start;
  p.total0 = other_forces();
  p.terms = contact_terms(true);
  p.start.assign(contacts.force.begin(), contacts.force.begin() + ncontacts);
  return p;
}

// every force and torque on the owned atoms but the friction (still in atom->f and
// atom->torque), 6 per atom
std::vector<double> FixCoulombFrictionExact::other_forces() const
{
  std::vector<double> total0(6 * (size_t) atom->nlocal);
  for (int b = 0; b < atom->nlocal; b++)
    for (int m = 0; m < 3; m++) {
      total0[6 * (size_t) b + m] = atom->f[b][m];
      total0[6 * (size_t) b + 3 + m] = atom->torque[b][m];
    }
  return total0;
}

// the terms of this step's contacts, with their R_c (compute_row_bounds()) or, for a solver
// that sets them itself, none
std::vector<ge_coulomb_problem::ContactTerms>
FixCoulombFrictionExact::contact_terms(bool with_row_bounds) const
{
  std::vector<ge_coulomb_problem::ContactTerms> terms(ncontacts);
  for (int k = 0; k < ncontacts; k++)
    terms[k] = ge_coulomb_problem::ContactTerms::of(
        contacts.c[k], contacts.coupling[k], with_row_bounds ? contacts.inv_row[k] : 0.0,
        contacts.i[k], contacts.j[k]);
  return terms;
}

// APGD's and CG's passes read the contacts' terms packed (112 of the 192 bytes of c and coupling;
// on beds too large for the caches each pass streams them from memory: per CG iteration -14 to
// -20 % on the 36- and 72-layer beds and half on the 48 x 48 one, per APGD iteration -2 to -3 %).
// Gauss-Seidel packs each contact's as it steps it, and a solve handed to the /kk execution
// space reads its own copy of the terms (problem_of_this_step()).
void FixCoulombFrictionExact::pack_terms()
{
  for (int k = 0; k < ncontacts; k++)
    contacts.terms[k] = ge::coulomb_sweep_terms(contacts.c[k], contacts.coupling[k]);
}

// the true error of the forces on all processes (collective; measure_residual())
double FixCoulombFrictionExact::reduced_true_error()
{
  measure_residual();
  double all = 0.0;
  MPI_Allreduce(&natural_residual, &all, 1, MPI_DOUBLE, MPI_MAX, world);
  return all;
}

// The Newton step x on the face of the forces, by conjugate residuals (Stiefel 1955; Saad,
// "Iterative Methods for Sparse Linear Systems", Alg. 6.20) preconditioned with symmetric
// Gauss-Seidel (SSOR with omega = 1) in the form of Eisenstat (SIAM J. Sci. Stat. Comput. 2,
// 1981; notes: Coulomb Newton). With A = L + D + U + C the Newton operator on the face (D the
// contacts' diagonal blocks, L and U the couplings to the contacts before and after in this
// process's list, C those to other processes' contacts, which the preconditioner leaves out), the
// iteration runs on A_hat = E^-1 A E^-T, E = (D + L) D^-1/2, whose product is one backward and
// one forward sweep over the contacts and no product with A:
//   (D + L)^-1 A (D + U)^-1 v = t + (D + L)^-1 (U t + C t),   t = (D + U)^-1 v,
// and x = E^-T x_hat gathers alpha E^-T p of every iteration. Conjugate residuals minimise
// |r_hat| over the Krylov space, where conjugate gradients minimise the error in A_hat's norm:
// the stop below is on the residual, and CG's residual rises and falls on the way down (its
// largest left rate 1.4e-8, 2.3e-8, 9.0e-9 at three checks of a step on the moving 72-layer
// bed). Each iteration takes the product of r_hat (not of p): A_hat p and E^-T p follow by the
// same recursion as p. At most `most` iterations, until every contact's left rate m_t |r| / mu
// F_n is 1 % (0.1 % from a close start) of the largest at the start, or 0.6 tol: r = E r_hat is
// recomputed (one more sweep) where the decay of |r_hat| since the last check predicts the
// stop, or every 16 iterations. Returns the iterations.
int FixCoulombFrictionExact::newton_step(int most)
{
  double rr = 0.0;
  const double largest = start_newton_system(rr);
  const double reduction =
      close_start ? ge::kCoulombNewtonCgReductionClose : ge::kCoulombNewtonCgReduction;
  const double stop =
      std::fmax(ge::kCoulombNewtonCgStopOfTol * settings.tol, reduction * std::sqrt(largest));
  // the recursion's update of the last iteration (p = r_hat + beta p, with A_hat p and E^-T p,
  // then x += alpha E^-T p, r_hat -= alpha A_hat p), taken by the next backward sweep as it
  // passes each contact, or before a check
  CrUpdate update;
  double checked_largest = largest, checked_rr = rr, r_ar = 0.0, ap_ap = 0.0;
  int iterations = 0, checked_at = 0;
  while (iterations < most && rr > 0.0) {
    iterations++;
    ssor_backward_sweep(update);
    update.pending = false;
    ssor_take_remote_coupling();
    // (r_hat, A_hat r_hat), (A_hat r_hat, A_hat r_hat), (A_hat r_hat, A_hat p), (r_hat, A_hat p)
    double sums[4] = {0.0, 0.0, 0.0, 0.0}, all[4];
    ssor_forward_sweep(sums);
    MPI_Allreduce(sums, all, 4, MPI_DOUBLE, MPI_SUM, world);
    // (the first iteration: p = r_hat)
    const double beta = iterations == 1 ? 0.0 : all[0] / r_ar;
    r_ar = all[0];
    // |A_hat p|^2 and (r_hat, A_hat p) of the next p, from the sums
    ap_ap = all[1] + 2.0 * beta * all[2] + beta * beta * ap_ap;
    const double r_ap = all[0] + beta * all[3];
    if (!(r_ar > 0.0) || !(ap_ap > 0.0)) break;    // (nothing more to gain along p)
    const double alpha = r_ar / ap_ap;
    update = CrUpdate{true, alpha, beta};
    rr = std::fmax(rr - 2.0 * alpha * r_ap + alpha * alpha * ap_ap, 0.0);
    const bool predicted = checked_largest * rr <= stop * stop * checked_rr;
    if (predicted || iterations - checked_at >= ge::kCoulombNewtonCgCheckEvery) {
      take_cr_update(update);
      update.pending = false;
      checked_largest = ssor_true_residual();
      checked_rr = rr;
      checked_at = iterations;
      if (checked_largest <= stop * stop) break;
    }
  }
  take_cr_update(update);
  return iterations;
}

// One contact's part of the recursion's update (CrUpdate)
void FixCoulombFrictionExact::cr_update_contact(int k, const CrUpdate &update)
{
  contacts.cg_p[k] = contacts.cg_r[k] + update.beta * contacts.cg_p[k];
  contacts.cg_ap[k] = contacts.cg_s[k] + update.beta * contacts.cg_ap[k];
  contacts.cg_up[k] = contacts.cg_u[k] + update.beta * contacts.cg_up[k];
  contacts.cg_x[k] = contacts.cg_x[k] + update.alpha * contacts.cg_up[k];
  contacts.cg_r[k] = contacts.cg_r[k] - update.alpha * contacts.cg_ap[k];
}

// the recursion's update for every contact, where it is still pending
void FixCoulombFrictionExact::take_cr_update(const CrUpdate &update)
{
  if (!update.pending) return;
  for (int k = 0; k < ncontacts; k++) cr_update_contact(k, update);
}

// The Newton system at the forces: every contact's face and D^1/2, x = 0, and the split
// system's residual r_hat = E^-1 b = D^1/2 (D + L)^-1 b (a forward sweep) for b, the rates on
// the faces. Returns the largest (m_t |b| / mu F_n)^2, and in rr |r_hat|^2 (all processes).
double FixCoulombFrictionExact::start_newton_system(double &rr)
{
  double largest = 0.0;
  rr = 0.0;
  clear_direction_totals();
  for (int k = 0; k < ncontacts; k++) {
    const Vec3 rate = rate_of(k);
    const ge::CoulombFace face =
        ge::coulomb_face(contacts.c[k], contacts.coupling[k], contacts.force[k], rate);
    contacts.face[k] = face;
    contacts.cg_half[k] =
        face.inverse_diagonal > 0.0 ? 1.0 / std::sqrt(face.inverse_diagonal) : 0.0;
    // (the first iteration's step and direction scale these by zero: no stale values)
    contacts.cg_x[k] = contacts.cg_p[k] = contacts.cg_u[k] = contacts.cg_s[k] = Vec3{0, 0, 0};
    contacts.cg_ap[k] = contacts.cg_up[k] = Vec3{0, 0, 0};
    const Vec3 b = ge::coulomb_onto_face(face, -1.0 * rate);
    const double left = ge::coulomb_scaled_residual2(contacts.terms[k], b);
    if (left > largest) largest = left;    // (std::fmax: a call per contact)
    Vec3 lower;
    const Vec3 y = ge::coulomb_face_sweep_step(contacts.terms[k], face, b,
                                               total_next[contacts.i[k]],
                                               totals_of_j(k, total_next), lower);
    contacts.cg_r[k] = contacts.cg_half[k] * y;
    rr += ge::dot(contacts.cg_r[k], contacts.cg_r[k]);
  }
  double local_rr = rr;    // (not const: the serial STUBS take a void *)
  MPI_Allreduce(&local_rr, &rr, 1, MPI_DOUBLE, MPI_SUM, world);
  double all = 0.0;
  MPI_Allreduce(&largest, &all, 1, MPI_DOUBLE, MPI_MAX, world);
  return all;
}

// t = (D + U)^-1 D^1/2 r_hat = E^-T r_hat (backward, from zero totals): at each contact the last
// iteration's update first, where it is pending (cr_update_contact, from cg_s = A_hat r_hat and
// cg_u = E^-T r_hat of the last product); cg_u gets t, cg_s the coupling U t
void FixCoulombFrictionExact::ssor_backward_sweep(const CrUpdate &update)
{
  clear_direction_totals();
  for (int k = ncontacts - 1; k >= 0; k--) {
    if (update.pending) cr_update_contact(k, update);
    contacts.cg_u[k] = ge::coulomb_face_sweep_step(
        contacts.terms[k], contacts.face[k], contacts.cg_half[k] * contacts.cg_r[k],
        total_next[contacts.i[k]], totals_of_j(k, total_next), contacts.cg_s[k]);
  }
}

// The forward sweep's start: zero totals, or, where contacts act on ghosts, minus the totals
// that the other processes' t make, so that the sweep reads L y - C t: this process's totals of
// t kept, the whole ones exchanged as the directions' totals are, and their difference.
void FixCoulombFrictionExact::ssor_take_remote_coupling()
{
  if (!ghost_totals) {
    clear_direction_totals();
    return;
  }
  const int nall = atom->nlocal + atom->nghost;
  for (int b = 0; b < nall; b++)
    for (int m = 0; m < 6; m++) sweep_local[b][m] = total_next[b][m];
  comm_mode = COMM_PROBE;
  comm->reverse_comm(this);
  comm->forward_comm(this);
  comm_mode = COMM_TOTALS;
  for (int b = 0; b < nall; b++)
    for (int m = 0; m < 6; m++) total_next[b][m] = sweep_local[b][m] - total_next[b][m];
}

// y = (D + L)^-1 (U t + C t) (forward), and the product q = A_hat r_hat = D^1/2 (t + y) into
// cg_s; adds this process's (r_hat, q), (q, q), (q, A_hat p) and (r_hat, A_hat p) to sums
void FixCoulombFrictionExact::ssor_forward_sweep(double sums[4])
{
  for (int k = 0; k < ncontacts; k++) {
    Vec3 lower;
    const Vec3 y =
        ge::coulomb_face_sweep_step(contacts.terms[k], contacts.face[k], contacts.cg_s[k],
                                    total_next[contacts.i[k]], totals_of_j(k, total_next), lower);
    const Vec3 q = contacts.cg_half[k] * (contacts.cg_u[k] + y);
    const Vec3 &r = contacts.cg_r[k], &ap = contacts.cg_ap[k];
    contacts.cg_s[k] = q;
    sums[0] += ge::dot(r, q);
    sums[1] += ge::dot(q, q);
    sums[2] += ge::dot(q, ap);
    sums[3] += ge::dot(r, ap);
  }
}

// The largest (m_t |r| / mu F_n)^2 of the true residual r = E r_hat = D^1/2 r_hat + L z,
// z = D^-1/2 r_hat: a forward sweep that adds z (all processes)
double FixCoulombFrictionExact::ssor_true_residual()
{
  clear_direction_totals();
  double largest = 0.0, all = 0.0;
  for (int k = 0; k < ncontacts; k++) {
    const ge::CoulombSweepTerms<double> &t = contacts.terms[k];
    const ge::CoulombFace &face = contacts.face[k];
    double *total_i = total_next[contacts.i[k]], *total_j = totals_of_j(k, total_next);
    const Vec3 r = contacts.cg_half[k] * contacts.cg_r[k] +
        ge::coulomb_face_coupling(t, face, total_i, total_j);
    const double left = ge::coulomb_scaled_residual2(t, r);
    if (left > largest) largest = left;
    ge::coulomb_add_pair(t, total_i, total_j,
                         (face.inverse_diagonal * contacts.cg_half[k]) * contacts.cg_r[k]);
  }
  MPI_Allreduce(&largest, &all, 1, MPI_DOUBLE, MPI_MAX, world);
  return all;
}

// A zeroed copy of the per-atom totals (total_next) for the directions' totals alone.
void FixCoulombFrictionExact::clear_direction_totals()
{
  const int nall = atom->nlocal + atom->nghost;
  for (int b = 0; b < nall; b++)
    for (int m = 0; m < 6; m++) total_next[b][m] = 0.0;
}

// The forces moved by the Newton step x, back onto their disks (ge::coulomb_newton_force), with
// their totals; largest_change gets the largest force change relative to mu F_n (all
// processes).
void FixCoulombFrictionExact::take_newton_step(double &largest_change)
{
  double largest = 0.0;
  for (int k = 0; k < ncontacts; k++) {
    const Vec3 next = ge::coulomb_newton_force(contacts.c[k], contacts.face[k], contacts.force[k],
                                               contacts.cg_x[k]);
    if (contacts.c[k].cap > 0.0)
      largest = std::fmax(largest, ge::norm(next - contacts.force[k]) / contacts.c[k].cap);
    add(k, next - contacts.force[k]);
    contacts.force[k] = next;
  }
  exchange_totals();
  MPI_Allreduce(&largest, &largest_change, 1, MPI_DOUBLE, MPI_MAX, world);
}

// A sliding contact whose rate now points along its force sticks: into its disk. Then every
// contact's stick flag from where its force is.
void FixCoulombFrictionExact::release_sliding()
{
  int released = 0, any_released = 0;
  for (int k = 0; k < ncontacts; k++) {
    if (!contacts.face[k].sliding || ge::dot(rate_of(k), contacts.force[k]) <= 0.0) continue;
    const Vec3 change = -1e-6 * contacts.force[k];
    add(k, change);
    contacts.force[k] = contacts.force[k] + change;
    released = 1;
  }
  MPI_Allreduce(&released, &any_released, 1, MPI_INT, MPI_MAX, world);
  if (any_released) exchange_totals();
  for (int k = 0; k < ncontacts; k++)
    contacts.stick[k] = !ge::coulomb_on_rim(contacts.c[k], contacts.force[k]);
}

// R_c of every contact (ge::coulomb_row_bound): each body's contacts and lever arms, summed over
// the copies of the body that contacts act on (on every process)
void FixCoulombFrictionExact::compute_row_bounds()
{
  const int nall = atom->nlocal + atom->nghost;
  for (int b = 0; b < nall; b++) body_sums[b][0] = body_sums[b][1] = 0.0;
  for (int k = 0; k < ncontacts; k++) {
    const int i = contacts.i[k], j = contacts.j[k];
    body_sums[i][0] += 1.0;
    body_sums[i][1] += contacts.c[k].rho_i;
    if (j < 0) continue;
    body_sums[j][0] += 1.0;
    body_sums[j][1] += contacts.c[k].rho_j;
  }
  if (ghost_totals) {
    comm_mode = COMM_BODY_SUMS;
    comm->reverse_comm(this, 2);
    comm->forward_comm(this, 2);
    comm_mode = COMM_TOTALS;
  }
  for (int k = 0; k < ncontacts; k++) {
    const int i = contacts.i[k], j = contacts.j[k];
    const double row = ge::coulomb_row_bound(contacts.coupling[k], body_sums[i][0], body_sums[i][1],
                                             j < 0 ? 0.0 : body_sums[j][0],
                                             j < 0 ? 0.0 : body_sums[j][1]);
    contacts.inv_row[k] = row > 0.0 ? 1.0 / row : 0.0;
  }
}

/* ----------------------------------------------------------------------
   the true error of the final forces (notes: Coulomb solvers): the largest natural residual of
   a contact, relative to mu F_n, and the largest tangential velocity a stuck contact keeps at
   the next half step, tau |s| (both zero on a solution); from the totals of the forces
------------------------------------------------------------------------- */

// whether the largest natural residual on all processes is at most tol (collective); if not,
// the change that triggers the next check shrinks by the factor the true error missed by, so
// that a slow solve is not checked (APGD: restarted) at every iteration
bool FixCoulombFrictionExact::true_error_below_tol(double &change_tol)
{
  const double all = reduced_true_error();
  if (all <= settings.tol) return true;
  change_tol *= std::fmax(settings.tol / all, 1e-3);
  return false;
}

void FixCoulombFrictionExact::measure_residual()
{
  natural_residual = stuck_velocity_after = 0.0;
  for (int k = 0; k < ncontacts; k++) {
    const Vec3 rate = rate_of(k);
    natural_residual = std::fmax(natural_residual,
                                 ge::coulomb_natural_residual(contacts.c[k], contacts.coupling[k],
                                                              contacts.force[k], rate));
    if (contacts.stick[k]) stuck_velocity_after = std::fmax(stuck_velocity_after, tau * ge::norm(rate));
  }
}

namespace {
bool share_an_atom(int i1, int j1, int i2, int j2)
{
  // (j < 0: a wall, whose side of the totals is scratch)
  return i1 == i2 || i1 == j2 || (j1 >= 0 && (j1 == i2 || j1 == j2));
}
}    // namespace

// one contact's step of a sweep, alone; returns its change squared relative to (mu F_n)^2
double FixCoulombFrictionExact::step_alone(int k)
{
  const Vec3 &f = contacts.force[k];
  double force[3] = {f.x, f.y, f.z};
  bool stick = contacts.stick[k] != 0;
  const double relative2 =
      ge::coulomb_sweep_step(ge::coulomb_sweep_terms(contacts.c[k], contacts.coupling[k]),
                             contacts.relax[k], force, total[contacts.i[k]], totals_of_j(k), stick);
  contacts.force[k] = Vec3{force[0], force[1], force[2]};
  contacts.stick[k] = stick;
  return relative2;
}

// the steps of two contacts that share no atom, at once (ge::Lanes2): the same as one after the
// other; returns the larger change squared relative to (mu F_n)^2. Where the compiler has no
// two-lane vectors (nvcc compiling this file for a KOKKOS CUDA build), one after the other.
double FixCoulombFrictionExact::step_together(int a, int b)
{
#if !GE_HAVE_LANES2
  const double relative2_a = step_alone(a), relative2_b = step_alone(b);
  return relative2_a > relative2_b ? relative2_a : relative2_b;
#else
  auto lanes = [](double x, double y) { return ge::Lanes2{x, y}; };
  const ge::CoulombSweepTerms<ge::Lanes2> t =
      ge::coulomb_sweep_lanes(ge::coulomb_sweep_terms(contacts.c[a], contacts.coupling[a]),
                              ge::coulomb_sweep_terms(contacts.c[b], contacts.coupling[b]));
  const Vec3 &fa = contacts.force[a], &fb = contacts.force[b];
  ge::Lanes2 force[3] = {lanes(fa.x, fb.x), lanes(fa.y, fb.y), lanes(fa.z, fb.z)};
  double *total_i[2] = {total[contacts.i[a]], total[contacts.i[b]]};
  double *total_j[2] = {totals_of_j(a), totals_of_j(b)};
  ge::Lanes2 ti[6], tj[6];
  for (int m = 0; m < 6; m++) {
    ti[m] = lanes(total_i[0][m], total_i[1][m]);
    tj[m] = lanes(total_j[0][m], total_j[1][m]);
  }
  ge::LaneMask2 stick;
  const ge::Lanes2 relative2 =
      ge::coulomb_sweep_step(t, lanes(contacts.relax[a], contacts.relax[b]), force, ti, tj, stick);
  for (int lane = 0; lane < 2; lane++)
    for (int m = 0; m < 6; m++) {
      total_i[lane][m] = ti[m][lane];
      total_j[lane][m] = tj[m][lane];
    }
  contacts.force[a] = Vec3{force[0][0], force[1][0], force[2][0]};
  contacts.force[b] = Vec3{force[0][1], force[1][1], force[2][1]};
  contacts.stick[a] = stick[0] != 0;
  contacts.stick[b] = stick[1] != 0;
  return relative2[0] > relative2[1] ? relative2[0] : relative2[1];
#endif
}

// One projected Gauss-Seidel sweep over this process's contacts (notes: Coulomb sweeps); a
// contact whose atoms other processes (or periodic images) also act on takes its share of the
// change: damped Jacobi between them, Gauss-Seidel within. Contact k is taken together with
// contact k + half (where the two share an atom, one after the other), so the order is k,
// k + half, k + 1, ...
// Returns the largest change relative to mu F_n.
double FixCoulombFrictionExact::sweep()
{
  double largest = 0.0;    // squared
  auto take = [&largest](double relative2) {
    if (relative2 > largest) largest = relative2;
  };
  const int half = (ncontacts + 1) / 2;
  for (int first = 0; first < half; first++) {
    const int a = first, b = first + half;
    if (b >= ncontacts) {
      take(step_alone(a));
      continue;
    }
    if (share_an_atom(contacts.i[a], contacts.j[a], contacts.i[b], contacts.j[b])) {
      take(step_alone(a));
      take(step_alone(b));
    } else {
      take(step_together(a, b));
    }
  }
  return std::sqrt(largest);
}

/* ----------------------------------------------------------------------
   apply the totals, store the forces, tally outputs and the virial
------------------------------------------------------------------------- */

void FixCoulombFrictionExact::finish(int vflag)
{
  // the dissipation of a step, over the owned atoms (f and torque still hold the forces without
  // the friction); run setup's is counted contact by contact, since it leaves out the contacts
  // whose kick the last step counted
  double dissipation = setup_step ? 0.0 : dissipation_by_atoms();
  forces_from_totals();

  v_init(vflag);
  n_contacts = n_stuck = max_stuck_slip = dissipation_rate = 0.0;
  finish_host_contacts(dissipation);
  if (vflag_atom) tally_peratom_virial();
  max_stuck_slip = std::sqrt(max_stuck_slip);
  if (!setup_step) decide_next_start();
  dissipated += dissipation;
  dissipation_rate = dissipation / tau;
}

// the contacts made on the host, solved: each one's result stored (store_result(): the counts,
// the largest stuck slip squared, the start misfits), its dissipation where the sum over atoms
// leaves it out, its owner told, its virial (a sphere pair's)
void FixCoulombFrictionExact::finish_host_contacts(double &dissipation)
{
  for (int k = 0; k < ncontacts; k++) {
    store_result(k);
    const ge::CoulombContact &c = contacts.c[k];
    const Vec3 &force_on_i = contacts.force[k], &l = contacts.branch[k];
    const int i = contacts.i[k];
    if (setup_step && !contacts.counted[k])
      dissipation += ge::coulomb_step_dissipation(c, force_on_i, rate_of(k), tau);
    // (the wall's own motion, which the sum over atoms leaves out)
    if (contacts.j[k] < 0 && !setup_step)
      dissipation += ge::coulomb_wall_dissipation(c, force_on_i, ge::vec3(atom->v[i]),
                                                  ge::vec3(atom->omega[i]), tau);
    // the owner's outputs: the pair's contact stress (on the steps it tallies its global
    // vector; its dissipated work leaves the friction out: that is this fix's scalar), a wall's
    // force on the group and virial
    if (contacts.tally[k]) contacts.tally[k]->tally_friction(i, l, force_on_i);
    if (contacts.j[k] < 0 || !vflag_global) continue;    // (a wall's virial is the wall's)
    double w[6];
    contact_virial(k, w);
    for (int m = 0; m < 6; m++) virial[m] += w[m];
  }
}

// the owned atoms' forces and torques: their totals
void FixCoulombFrictionExact::forces_from_totals()
{
  double **f = atom->f, **torque = atom->torque;
  const int *mask = atom->mask;
  for (int k = 0; k < atom->nlocal; k++) {
    if (mask[k] & frozen_bits) continue;    // fix freeze has zeroed them: keep it so
    for (int m = 0; m < 3; m++) f[k][m] = total[k][m];
    for (int m = 0; m < 3; m++) torque[k][m] = total[k][3 + m];
  }
}

// The friction's dissipation over this step's kick summed over the owned atoms, each with the
// friction of all its contacts (total - f: the increments of ghost copies have reached their
// owners): the same as the sum over contacts (plus the walls' own motion, see finish()), without
// a relative acceleration per contact. Every process counts its own atoms.
double FixCoulombFrictionExact::dissipation_by_atoms() const
{
  const double *const *f = atom->f, *const *torque = atom->torque;
  const double *const *v = atom->v, *const *omega = atom->omega;
  const double ftm2v = force->ftm2v;
  double sum = 0.0;
  for (int k = 0; k < atom->nlocal; k++) {
    const Vec3 friction_force = ge::vec3(total[k]) - ge::vec3(f[k]);
    const Vec3 friction_torque = ge::vec3(total[k] + 3) - ge::vec3(torque[k]);
    sum += ge::coulomb_body_dissipation(friction_force, friction_torque, ge::vec3(v[k]),
                                        ge::vec3(omega[k]), total[k], ftm2v * inv_mass[k],
                                        ftm2v * inv_inertia[k], tau);
  }
  return sum;
}

// the virial l (x) F of contact k's friction (l the branch from its partner to i, F the force on
// i), LAMMPS' order xx, yy, zz, xy, xz, yz
void FixCoulombFrictionExact::contact_virial(int k, double w[6]) const
{
  const Vec3 &l = contacts.branch[k], &f = contacts.force[k];
  w[0] = l.x * f.x;
  w[1] = l.y * f.y;
  w[2] = l.z * f.z;
  w[3] = l.x * f.y;
  w[4] = l.x * f.z;
  w[5] = l.y * f.z;
}

// compute stress/atom: each sphere pair's friction virial l (x) F, half to each sphere (as the
// pair styles tally theirs; a wall's is the wall fix's). LAMMPS takes a fix's per-atom virial
// for its owned atoms only: the halves on ghosts are summed into their owners first, through
// the directions' totals (free after the solve).
void FixCoulombFrictionExact::tally_peratom_virial()
{
  clear_direction_totals();
  for (int k = 0; k < ncontacts; k++) {
    const int j = contacts.j[k];
    if (j < 0) continue;
    double w[6];
    contact_virial(k, w);
    for (int m = 0; m < 6; m++) {
      total_next[contacts.i[k]][m] += 0.5 * w[m];
      total_next[j][m] += 0.5 * w[m];
    }
  }
  if (ghost_totals) {
    comm_mode = COMM_PROBE;
    comm->reverse_comm(this);
    comm_mode = COMM_TOTALS;
  }
  for (int b = 0; b < atom->nlocal; b++)
    for (int m = 0; m < 6; m++) vatom[b][m] += total_next[b][m];
}

// How far each start was from the forces the solve reached, summed over the contacts with a
// change to extrapolate as (|F - F_start|/mu F_n)^2: the previous forces (warm yes) and the
// extrapolated ones, from the stored force and change the step started from (in the contact's
// sense). The norm is that of the forces, not of their natural residual: a start whose error sits
// in the soft modes leaves a small residual and costs the most iterations. (Contacts without a
// change start alike either way; a budget-limited solve stores none, and pays nothing here.)
void FixCoulombFrictionExact::add_start_misfits(int k, const Vec3 &old_force, const Vec3 &old_change)
{
  const ge::CoulombContact &c = contacts.c[k];
  if (settings.warm != ge::CoulombWarmStart::Extrapolated || ge::is_zero(old_change) ||
      !(c.cap > 0.0) || c.inv_mt == 0.0)
    return;
  const Vec3 &solved = contacts.force[k];
  const Vec3 previous = solved - ge::coulomb_warm_start(old_force, c.normal, c.cap);
  const Vec3 extrapolated =
      solved - ge::coulomb_extrapolated_start(old_force, old_change, c.normal, c.cap);
  const double inv_cap2 = 1.0 / (c.cap * c.cap);
  start_misfit[0] += inv_cap2 * ge::dot(previous, previous);
  start_misfit[1] += inv_cap2 * ge::dot(extrapolated, extrapolated);
}

namespace {
// the extrapolated forces must have been this many times closer to the solution than the
// previous ones (in the norm of add_start_misfits) for the next step to start from them: where
// the loads change smoothly they are far closer (17 to 30 times on the 24 x 24 bed once it had
// settled into tol); where the forces change only by the solves' own error the two are alike
// (0.5 to 1 on a heap at rest, whose Gauss-Seidel solves to tol 1e-10 then took 200 sweeps per
// step instead of 56 when extrapolation followed every small advantage)
constexpr double kExtrapolationMargin = 0.25;
}    // namespace

// `warm extrapolate` (notes: Coulomb warm start): the next step starts from the extrapolated
// forces where they were the clearly closer start to this step's solution. Where the loads change
// smoothly they are; where the change was a one-off (a bed settling into a solve's tolerance
// after a restart, a contact that began to slide) or only the solves' own error (a heap at rest),
// they are not, and extrapolating it would put that error into the next start.
void FixCoulombFrictionExact::decide_next_start()
{
  double all[2] = {0.0, 0.0};
  MPI_Allreduce(start_misfit, all, 2, MPI_DOUBLE, MPI_SUM, world);
  extrapolate_next = all[1] < kExtrapolationMargin * kExtrapolationMargin * all[0];
}

// contact k's friction into its history: the force on the atom with the lower tag, whether it
// sticks; and into the counts of the outputs
void FixCoulombFrictionExact::store_result(int k)
{
  double *state = contacts.state[k];
  const bool stick = contacts.stick[k] != 0;
  const double sign = contacts.state_sign[k];
  const Vec3 stored = sign * contacts.force[k];
  if (!setup_step) {
    const Vec3 old_force = ge::vec3(state + ge::TS_CF_FORCE);
    add_start_misfits(k, sign * old_force, sign * ge::vec3(last_change_of(state)));
    ge::store(ge::coulomb_force_change(stored, old_force, changes_solved), last_change_of(state));
  }
  ge::store(stored, state + ge::TS_CF_FORCE);
  state[ge::TS_CF_SLIDING] = stick ? 0.0 : 1.0;
  state[ge::TS_CF_SOLVED] = 1.0;
  state[ge::CS_SLIDING - ge::CS_TANGENTIAL] = stick ? 0.0 : 1.0;
  n_contacts += 1.0;
  if (!stick) return;
  n_stuck += 1.0;
  // (squared: one root at the end gives the same largest norm, the root being monotonic)
  const Vec3 &v_t = contacts.c[k].v_t;
  max_stuck_slip = std::fmax(max_stuck_slip, ge::dot(v_t, v_t));
}

/* ---------------------------------------------------------------------- */

void FixCoulombFrictionExact::setup(int vflag)
{
  // forces of run setup are used by the first half-kick only, over dt/2 (velocity Verlet), with
  // the full-step velocities: the target is rest after dt/2. When a run continues, this gives
  // the last step's forces again (a stick force exactly; a slip force keeps its direction,
  // since v_n differs from v_{n-1/2} by dt/2 times the acceleration the force produced), so
  // runs and restarts continue to roundoff, while forces changed between runs are seen.
  count_this_run();
  solve_step(vflag);
}

// The counts of a run (its mean sweeps per step, its short solves, where its steps were solved)
// start with it: at its setup, or, where `run N pre no` calls neither init() nor setup(), at its
// first step. Every run ends in post_run(); the counts stay readable until the next one begins
// (f_GE_COULOMB[7] after a run).
void FixCoulombFrictionExact::count_this_run()
{
  if (!run_ended) return;
  run_ended = false;
  sweeps_total = solves_total = 0.0;
  run_steps = short_steps = short_residual = short_stuck_velocity = 0.0;
  offloaded_steps = offload_seconds = friction_seconds = declined_steps = in_space_steps = 0.0;
}

void FixCoulombFrictionExact::post_force(int vflag)
{
  count_this_run();
  solve_step(vflag);
}

void FixCoulombFrictionExact::solve_step(int vflag)
{
  if (!active) return;
  // the contacts of sphere pairs point into the pair's neighbour history of this step
  if (!begun)
    error->all(FLERR,
               "Fix {}: pair granular/exact did not compute this step's contacts, so their "
               "friction cannot be solved ('tangential coulomb' needs the pair computed on every "
               "step)",
               id);
  begun = false;
  // (where a solver is attached the pair keeps its contacts and did no friction work since
  // begin_contacts(): the step's time counts from here, without the communication and the
  // other fixes in between)
  const double step_began = platform::walltime();
  const double offloaded_before = offloaded_steps;
  if (contacts_in_space && !solve_in_space()) bring_contacts_to_host();
  if (!contacts_in_space) residual = solve();
  if (!setup_step) {
    sweeps_total += sweeps_used;
    solves_total += 1.0;
  }
  const bool reached = reached_tol();
  // (run setup's solve continues the last step's kick: the change of that step is kept)
  changes_solved = !setup_step && reached && last_reached_tol;
  last_reached_tol = reached;
  count_short_solve(reached);
  if (contacts_in_space) finish_in_space(vflag);
  else finish(vflag);
  contacts_in_space = false;
  // (a step the attached solver took)
  if (offloaded_steps > offloaded_before) friction_seconds += platform::walltime() - step_began;
}

// whether the solve ended with the true error at most tol (the same on every process: a solve
// stops before its budget only there; at the budget the true error is reduced to decide, and
// kept in reached_error)
bool FixCoulombFrictionExact::reached_tol()
{
  reached_error = 0.0;
  if (sweeps_used < settings.sweeps) return true;
  MPI_Allreduce(&natural_residual, &reached_error, 1, MPI_DOUBLE, MPI_MAX, world);
  return reached_error <= settings.tol;
}

// a step whose solve the budget stopped with the true error above tol (the stuck velocity is
// this process's, which post_run reduces)
void FixCoulombFrictionExact::count_short_solve(bool reached)
{
  if (setup_step) return;
  run_steps += 1.0;
  if (reached) return;
  short_steps += 1.0;
  short_residual = std::fmax(short_residual, reached_error);
  short_stuck_velocity = std::fmax(short_stuck_velocity, stuck_velocity_after);
}

// Static friction held only to the true error where the budget stopped the solve: say so once
// per run, with the numbers (a budget is legal, and the default, but "exact" friction is then
// exact only to that).
void FixCoulombFrictionExact::post_run()
{
  run_ended = true;
  if (!active) return;
  report_offloaded_steps();
  if (short_steps == 0.0) return;
  double stuck_velocity = 0.0;
  MPI_Allreduce(&short_stuck_velocity, &stuck_velocity, 1, MPI_DOUBLE, MPI_MAX, world);
  if (comm->me != 0) return;
  const bool apgd = settings.solver != ge::CoulombSolver::GaussSeidel;
  error->warning(FLERR,
                 "Fix {} (tangential coulomb): in {:.0f} of the {:.0f} steps of this run the "
                 "friction solve stopped at its budget of {} {} above tol {:.3g}: its true error "
                 "(the largest natural residual, relative to mu F_n) reached {:.3g}, and stuck "
                 "contacts kept up to {:.3g} (velocity units) at the next half step, so static "
                 "friction held only to that. For the tolerance, raise 'sweeps' (f_{}[9] is each "
                 "step's true error, f_{}[3] its sweeps)",
                 id, short_steps, run_steps, settings.sweeps, apgd ? "iterations" : "sweeps",
                 settings.tol, short_residual, stuck_velocity, id, id);
}

// where the time of the steps solved by the attached solver went: in its solve, and in the
// friction's other work, from post_force to the result stored (the contacts handed in or made in
// the execution space, R_c, the result stored: on the host, and for a step made in the execution
// space, there too); and the steps it did not take
void FixCoulombFrictionExact::report_offloaded_steps() const
{
  if (offload == nullptr || comm->me != 0) return;
  if (offloaded_steps > 0.0)
    utils::logmesg(lmp,
                   "Fix {} (tangential coulomb): {:.0f} of the {:.0f} steps of this run solved in "
                   "{}, {:.0f} of them made from the contacts' histories and stored there too: "
                   "{:.4g} ms per step in the solve, {:.4g} ms per step of the friction's other "
                   "work\n",
                   id, offloaded_steps, run_steps, offload->where(), in_space_steps,
                   1e3 * offload_seconds / offloaded_steps,
                   1e3 * (friction_seconds - offload_seconds) / offloaded_steps);
  if (declined_steps > 0.0)
    utils::logmesg(lmp,
                   "Fix {} (tangential coulomb): {:.0f} of the {:.0f} steps of this run solved by "
                   "the fix's own loops on one core: the solver in {} does not take {}\n",
                   id, declined_steps, run_steps, offload->where(), offload->declines());
}

/* ----------------------------------------------------------------------
   scalar: energy dissipated by the friction since the fix was created (restarts included)
   vector: [0] contacts [1] stuck contacts [2] sweeps of the last step [3] its final residual
           [4] largest |v_t| of a stuck contact at the half step (creep indicator)
           [5] dissipation rate of the last step [6] mean sweeps per step this run
           [7] = the scalar
           [8] the true error of the last step: the largest natural residual of a contact,
               |F - Pi(F - m_t s)|/(mu F_n), zero exactly on a solution (measure_residual)
           [9] the largest tangential velocity a stuck contact keeps at the next half step
------------------------------------------------------------------------- */

double FixCoulombFrictionExact::compute_scalar()
{
  double all = 0.0;
  MPI_Allreduce(&dissipated, &all, 1, MPI_DOUBLE, MPI_SUM, world);
  return all;
}

double FixCoulombFrictionExact::compute_vector(int n)
{
  double local = 0.0, all = 0.0;
  MPI_Op op = MPI_SUM;
  switch (n) {
    case 0: local = n_contacts; break;
    case 1: local = n_stuck; break;
    case 2: return sweeps_used;
    case 3: return residual;
    case 4: local = max_stuck_slip; op = MPI_MAX; break;
    case 5: local = dissipation_rate; break;
    case 6: return solves_total > 0.0 ? sweeps_total / solves_total : 0.0;
    case 7: return compute_scalar();
    case 8: local = natural_residual; op = MPI_MAX; break;
    case 9: local = stuck_velocity_after; op = MPI_MAX; break;
    case 10: return extrapolated_start ? 1.0 : 0.0;
    case 11: return close_start ? 1.0 : 0.0;
    default: return 0.0;
  }
  MPI_Allreduce(&local, &all, 1, MPI_DOUBLE, op, world);
  return all;
}

/* ---------------------------------------------------------------------- */

int FixCoulombFrictionExact::pack_forward_comm(int n, int *list, double *buf, int /*pbc_flag*/,
                                               int * /*pbc*/)
{
  int m = 0;
  for (int k = 0; k < n; k++) {
    if (comm_mode == COMM_HOLDERS) {
      buf[m++] = holders[list[k]];
    } else if (comm_mode == COMM_BODY_SUMS) {
      buf[m++] = body_sums[list[k]][0];
      buf[m++] = body_sums[list[k]][1];
    } else if (comm_mode == COMM_OWNERS) {
      buf[m++] = owner_proc[list[k]];
      buf[m++] = owner_index[list[k]];
    } else if (comm_mode == COMM_PROBE) {
      for (int c = 0; c < 6; c++) buf[m++] = total_next[list[k]][c];
    } else {
      for (int c = 0; c < 6; c++) buf[m++] = total[list[k]][c];
    }
  }
  return m;
}

void FixCoulombFrictionExact::unpack_forward_comm(int n, int first, double *buf)
{
  int m = 0;
  for (int k = first; k < first + n; k++) {
    if (comm_mode == COMM_HOLDERS) {
      holders[k] = buf[m++];
    } else if (comm_mode == COMM_BODY_SUMS) {
      body_sums[k][0] = buf[m++];
      body_sums[k][1] = buf[m++];
    } else if (comm_mode == COMM_OWNERS) {
      owner_proc[k] = static_cast<int>(buf[m++]);
      owner_index[k] = static_cast<int>(buf[m++]);
    } else if (comm_mode == COMM_PROBE) {
      for (int c = 0; c < 6; c++) total_next[k][c] = buf[m++];
    } else {
      for (int c = 0; c < 6; c++, m++) total[k][c] = received[k][c] = buf[m];
    }
  }
}

int FixCoulombFrictionExact::pack_reverse_comm(int n, int first, double *buf)
{
  int m = 0;
  for (int k = first; k < first + n; k++) {
    if (comm_mode == COMM_HOLDERS) buf[m++] = holders[k];
    else if (comm_mode == COMM_BODY_SUMS) {
      buf[m++] = body_sums[k][0];
      buf[m++] = body_sums[k][1];
    } else if (comm_mode == COMM_PROBE)    // (a ghost's copy starts at zero: all increments)
      for (int c = 0; c < 6; c++) buf[m++] = total_next[k][c];
    else
      for (int c = 0; c < 6; c++) buf[m++] = total[k][c] - received[k][c];
  }
  return m;
}

// A receiving atom may itself be a ghost: in a 2-D or 3-D grid, the increments of a copy held
// by a diagonal neighbour travel to the owner in stages, through the copy of a process in
// between, which passes them on with its own (its total - received).
void FixCoulombFrictionExact::unpack_reverse_comm(int n, int *list, double *buf)
{
  int m = 0;
  for (int k = 0; k < n; k++) {
    if (comm_mode == COMM_HOLDERS) holders[list[k]] += buf[m++];
    else if (comm_mode == COMM_BODY_SUMS) {
      body_sums[list[k]][0] += buf[m++];
      body_sums[list[k]][1] += buf[m++];
    } else if (comm_mode == COMM_PROBE)
      for (int c = 0; c < 6; c++) total_next[list[k]][c] += buf[m++];
    else
      for (int c = 0; c < 6; c++) total[list[k]][c] += buf[m++];
  }
}

/* ---------------------------------------------------------------------- */

namespace {
// the first value of the fix's restart data since the next start was kept: no energy is this
// (earlier files hold the dissipated energy alone)
constexpr double kRestartMark = -3.174691328811e+297;
}    // namespace

// the dissipated energy and the start of the next step (extrapolate_next): a run continued from
// the file starts its first step as the uninterrupted run does
void FixCoulombFrictionExact::write_restart(FILE *fp)
{
  const double all = compute_scalar();
  if (comm->me == 0) {
    const double values[3] = {kRestartMark, all, extrapolate_next ? 1.0 : 0.0};
    const int size = sizeof(values);
    fwrite(&size, sizeof(int), 1, fp);
    fwrite(values, sizeof(double), 3, fp);
  }
}

void FixCoulombFrictionExact::restart(char *buf)
{
  const auto *values = reinterpret_cast<const double *>(buf);
  const bool marked = values[0] == kRestartMark;
  // the total goes to one process, so that the sum over processes is the stored total
  dissipated = comm->me == 0 ? values[marked ? 1 : 0] : 0.0;
  extrapolate_next = marked && values[2] != 0.0;
}

double FixCoulombFrictionExact::memory_usage()
{
  // total, total_next, received (6 each), inv_mass, inv_inertia, holders, body sums (2) per
  // atom; owner process and index
  return (double) nmax * (6 + 6 + 6 + 3 + 2) * sizeof(double) + (double) nmax * 2 * sizeof(int) +
      contacts.memory_usage();
}

/* ----------------------------------------------------------------------
   fix_modify GE_COULOMB export FILE: the friction problem of the next solve (not run setup's)
   is written to FILE, for solver studies and bench/device/coulomb_apgd.cu and coulomb_newton.cu,
   which solve it again on a GPU. One process only (the totals of periodic images are their
   owners'). Binary, native byte order: "GECLMB02", int64 bodies, int64 contacts, the box
   (lo[3], hi[3]), tol, int64 start kind (1: the extrapolated forces, 0: the previous ones or
   zero; version 01 had no start kind); per body: x[3], the totals of every force but the
   friction (f[3], torque[3]); per contact: int32 i, int32 j (-1: a wall), then normal[3], rate0[3], rho_i, rho_j, cap, the
   coupling (w_i, q_i, w_j, q_j, mass), the start force on i[3] and the branch x_i - x_j[3] (j
   as the pair listed it: a periodic image where the contact crosses the box).
------------------------------------------------------------------------- */

int FixCoulombFrictionExact::modify_param(int narg, char **arg)
{
  if (strcmp(arg[0], "preconditioner") == 0) return modify_preconditioner(narg, arg);
  if (strcmp(arg[0], "graphs") == 0) return modify_graphs(narg, arg);
  if (strcmp(arg[0], "export") != 0) return 0;
  if (narg < 2)
    error->all(FLERR, "Illegal fix_modify {} export: expected a file name", id);
  if (comm->nprocs > 1)
    error->all(FLERR,
               "fix_modify {} export writes the friction problem of one process: run on 1 "
               "process (this run has {})",
               id, comm->nprocs);
  export_file = arg[1];
  return 2;
}

/* ----------------------------------------------------------------------
   fix_modify GE_COULOMB preconditioner auto|gauss-seidel|diagonal: the preconditioner of the
   Newton solver's Krylov iterations where pair granular/exact/kk solves the friction in its
   Kokkos execution space. auto: the space's faster one (the contacts' diagonal blocks on a GPU,
   symmetric Gauss-Seidel in colours on host threads; bench/README.md, "The Newton solver on a
   GPU"). The fix's own loops always take symmetric Gauss-Seidel.
   fix_modify GE_COULOMB graphs yes|no: there, each batch of 8 iterations is recorded once per
   solve as a Kokkos graph and then submitted whole (on a GPU a CUDA graph: one launch for its 24
   to 40 kernels) instead of launching its passes one by one. The same passes in the same order:
   the same solve. Off by default: not yet measured on a GPU (bench/README.md).
------------------------------------------------------------------------- */

int FixCoulombFrictionExact::modify_preconditioner(int narg, char **arg)
{
  using ge_coulomb_problem::PreconditionerChoice;
  const PreconditionerChoice choices[] = {PreconditionerChoice::Auto,
                                          PreconditionerChoice::GaussSeidel,
                                          PreconditionerChoice::Diagonal};
  space.preconditioner = choices[modify_word(
      narg, arg, {"auto", "gauss-seidel", "diagonal"},
      "auto, gauss-seidel or diagonal (the preconditioner of the friction's Krylov iterations in "
      "a Kokkos execution space)")];
  warned_space = false;
  return 2;
}

int FixCoulombFrictionExact::modify_graphs(int narg, char **arg)
{
  space.graphs = modify_word(narg, arg, {"no", "yes"},
                             "yes or no (whether the friction's iterations in a Kokkos "
                             "execution space run as Kokkos graphs)") == 1;
  warned_space = false;
  return 2;
}

// The word after the keyword arg[0] of a fix_modify, one of `words`: its place among them; any
// other word, or none, stops with an error that says what is expected
int FixCoulombFrictionExact::modify_word(int narg, char **arg,
                                         std::initializer_list<const char *> words,
                                         const char *expected)
{
  int place = 0;
  if (narg > 1)
    for (const char *word : words) {
      if (strcmp(arg[1], word) == 0) return place;
      place++;
    }
  error->all(FLERR, "Illegal fix_modify {} {} {}: expected {}", id, arg[0],
             narg > 1 ? arg[1] : "(missing)", expected);
  return -1;
}

// A preconditioner or graphs asked for where no solve of this run is in an execution space:
// said once
void FixCoulombFrictionExact::warn_unused_space_choices()
{
  if ((space.preconditioner == ge_coulomb_problem::PreconditionerChoice::Auto && !space.graphs) ||
      warned_space || comm->me != 0)
    return;
  const char *why = offload == nullptr ? "pair granular/exact, or /kk on one host thread"
      : settings.solver != ge::CoulombSolver::Newton ? "solver gs or apgd"
      : comm->nprocs > 1                              ? "several processes"
                                                      : nullptr;
  if (!why) return;
  warned_space = true;
  error->warning(FLERR,
                 "fix_modify {} {} has no effect in this run: its friction is solved by the "
                 "fix's own loops ({}), which precondition by symmetric Gauss-Seidel",
                 id, space.graphs ? "graphs" : "preconditioner", why);
}

// (called by solve() once the start forces are chosen; every force and torque but the friction
// is still in atom->f and atom->torque, which only finish() changes)
void FixCoulombFrictionExact::export_problem()
{
  FILE *fp = fopen(export_file.c_str(), "wb");
  if (!fp) error->one(FLERR, "fix_modify {} export: cannot open {}: {}", id, export_file,
                      utils::getsyserror());
  const int nlocal = atom->nlocal;
  const int64_t counts[2] = {nlocal, ncontacts};
  bool ok = fwrite("GECLMB02", 1, 8, fp) == 8 && fwrite(counts, sizeof(int64_t), 2, fp) == 2;
  const double box[7] = {domain->boxlo[0], domain->boxlo[1], domain->boxlo[2], domain->boxhi[0],
                         domain->boxhi[1], domain->boxhi[2], settings.tol};
  ok = ok && fwrite(box, sizeof(double), 7, fp) == 7;
  // (version 02: whether the start forces are the extrapolated ones, which the Newton solver
  // treats as a close start)
  const int64_t start_kind = extrapolated_start ? 1 : 0;
  ok = ok && fwrite(&start_kind, sizeof(int64_t), 1, fp) == 1;
  // (the problem the execution space would solve: its bodies' other forces and contacts' terms)
  const ge_coulomb_problem::Problem problem = problem_of_this_step();
  for (int b = 0; ok && b < nlocal; b++) {
    double row[9];
    for (int m = 0; m < 3; m++) row[m] = atom->x[b][m];
    // (every force and torque but the friction: the totals hold the start's friction too)
    for (int m = 0; m < 6; m++) row[3 + m] = problem.total0[6 * (size_t) b + m];
    ok = fwrite(row, sizeof(double), 9, fp) == 9;
  }
  for (int k = 0; ok && k < ncontacts; k++) {
    const ge_coulomb_problem::ContactTerms &t = problem.terms[k];
    // (a wall's j as stored, which is negative)
    const int32_t ij[2] = {contacts.i[k], contacts.j[k]};
    const Vec3 &f = contacts.force[k], &b = contacts.branch[k];
    const double row[20] = {t.normal.x, t.normal.y, t.normal.z, t.rate0.x, t.rate0.y, t.rate0.z,
                            t.rho_i,    t.rho_j,    t.cap,      t.w_i,     t.q_i,     t.w_j,
                            t.q_j,      t.mass,     f.x,        f.y,       f.z,       b.x,
                            b.y,        b.z};
    ok = fwrite(ij, sizeof(int32_t), 2, fp) == 2 && fwrite(row, sizeof(double), 20, fp) == 20;
  }
  if (fclose(fp) != 0 || !ok)
    error->one(FLERR, "fix_modify {} export: cannot write {}", id, export_file);
  if (comm->me == 0)
    utils::logmesg(lmp, "fix {}: the friction problem of step {} ({} contacts) written to {}\n",
                   id, update->ntimestep, ncontacts, export_file);
  export_file.clear();
}
