/* ----------------------------------------------------------------------
   GRANULAR-EXACT: pair style granular/exact (glue only; the law is in
   src/contact/linear_frictional.hpp).

   pair_style granular/exact [cutoff rc] [history neigh|compact]
   pair_coeff I J hooke kn [damping none | damping viscous eta_n eta_t]
              tangential classic kt mu
   pair_coeff I J hooke kn [damping ...]
              tangential refined kt mu [onset yes|no] [slip yes|no]
                                       [direction yes|no] [twirl yes|no]
                                       [projection yes|no]
------------------------------------------------------------------------- */

#include "pair_granular_exact.h"

#include "contact_law_io.h"
#include "pair_granular_exact_bodies.h"

#include "an_atom_where.h"
#include "atom.h"
#include "comm.h"
#include "compute.h"
#include "contact_law_words.h"
#include "domain.h"
#include "error.h"
#include "fix.h"
#include "fix_dummy.h"
#include "fix_contact_history_exact.h"
#include "fix_coulomb_friction_exact.h"
#include "fix_neigh_history_exact.h"
#include "fix_wall_gran_exact.h"
#include "force.h"
#include "memory.h"
#include "modify.h"
#include "neigh_list.h"
#include "neighbor.h"
#include "recorded_atom_id.h"
#include "update.h"

#include <cmath>
#include <cstring>
#include <vector>

using namespace LAMMPS_NS;
using ge::Vec3;

namespace {

constexpr int NEXTRA = 18;         // global vector: see compute()
constexpr int SINGLE_EXTRA = 9;    // compute pair/local p1..p9: see single()

}    // namespace

/* ---------------------------------------------------------------------- */

PairGranularExact::PairGranularExact(LAMMPS *lmp) : Pair(lmp)
{
  single_enable = 1;
  no_virial_fdotr_compute = 1;
  centroidstressflag = CENTROID_NOTAVAIL;
  finitecutflag = 1;
  // the history is copied to the partner verbatim (LAMMPS' default would negate it)
  nondefault_history_transfer = 1;

  single_extra = SINGLE_EXTRA;
  svector = new double[SINGLE_EXTRA];
  nextra = NEXTRA;
  pvector = new double[NEXTRA];
  for (int k = 0; k < NEXTRA; ++k) pvector[k] = 0.0;

  law = nullptr;
  cutoff_global = -1.0;
  neighprev = 0;
  onerad_dynamic = maxrad_dynamic = nullptr;
  freeze_group_bit = 0;
  fix_rigid = nullptr;
  mass_rigid = nullptr;
  nmax_rigid = 0;
  comm_forward = 1;    // the body masses of ghost atoms
  ended[0] = ended[1] = 0.0;

  // A placeholder fix keeps the history fix at this position in the fix list; init_style()
  // replaces it (as LAMMPS' own granular styles do). The ID is fixed, not numbered per instance:
  // read_restart hands the stored history only to a fix of the same ID, and a restart may be
  // read by another instance (after `clear`, or in another LAMMPS object of the same process).
  id_history = "GE_NEIGH_HISTORY";
  history_mode = HISTORY_NEIGH;
  history_given = false;
  history_requested = HISTORY_NEIGH;
  fix_neigh = nullptr;
  fix_compact = nullptr;
  id_friction = "GE_COULOMB";
  friction = nullptr;
  id_atom_ids = "GE_ATOM_IDS";
  // (no pair style before this one leaves the fix behind: its destructor deletes it)
  if (const Fix *existing = modify->get_fix_by_id(id_atom_ids))
    error->all(FLERR,
               "Pair granular/exact: the fix ID {} is reserved for the atom IDs of its "
               "histories; give fix {} ({}) another ID",
               id_atom_ids, existing->id, existing->style);
  for (const std::string &id : {id_history, id_history + "_DUMMY"}) {
    const Fix *existing = modify->get_fix_by_id(id);
    if (existing == nullptr) continue;
    // (another instance's fixes, or a user's fix under the reserved ID)
    if (utils::strmatch(existing->style, "^NEIGH_HISTORY/EXACT$") ||
        utils::strmatch(existing->style, "^CONTACT_HISTORY/EXACT$") ||
        utils::strmatch(existing->style, "^DUMMY$"))
      error->all(FLERR, "Pair granular/exact can be defined only once (e.g. once in pair hybrid)");
    error->all(FLERR,
               "Pair granular/exact: the fix ID {} is reserved for its contact histories; give "
               "fix {} ({}) another ID",
               id, existing->id, existing->style);
  }
  modify->add_fix(id_history + "_DUMMY all DUMMY");
}

PairGranularExact::~PairGranularExact()
{
  if (copymode) return;
  delete[] svector;
  delete[] pvector;
  memory->destroy(mass_rigid);
  if (modify->get_fix_by_id(id_history)) modify->delete_fix(id_history);
  if (modify->get_fix_by_id(id_history + "_DUMMY")) modify->delete_fix(id_history + "_DUMMY");
  if (modify->get_fix_by_id(id_friction)) modify->delete_fix(id_friction);
  if (modify->get_fix_by_id(id_atom_ids)) modify->delete_fix(id_atom_ids);
  if (allocated) {
    memory->destroy(setflag);
    memory->destroy(cutsq);
    memory->destroy(law);
    delete[] onerad_dynamic;
    delete[] maxrad_dynamic;
  }
}

// a contact's share of the global vector (see compute()): weight 1, or 1/2 on each of two
// processes with newton off
void PairGranularExact::tally_contact(const Law &lw, const ge::ContactResult &r, bool i_is_p,
                                      const double *state, double weight, const Vec3 &dx,
                                      double *tally) const
{
  tally[0] += weight * r.energy_n;
  tally[1] += weight * r.energy_t;
  add_contact_work(lw, state, weight, tally + 2);
  tally[4] += weight;
  tally[5] += weight * (r.sliding ? 1.0 : 0.0);
  add_branch_force_product(weight, dx, i_is_p ? r.force_i : -r.force_i, tally + 6);
  tally[17] += weight * r.energy_moment;
}

// the force of a contact on i (-on_i on j, where this process applies it) and its virial;
// dx = x_i - x_j
void PairGranularExact::add_pair_force(int i, int j, const Vec3 &on_i, const Vec3 &dx)
{
  const int nlocal = atom->nlocal, newton_pair = force->newton_pair;
  double **f = atom->f;
  f[i][0] += on_i.x;
  f[i][1] += on_i.y;
  f[i][2] += on_i.z;
  if (newton_pair || j < nlocal) {
    f[j][0] -= on_i.x;
    f[j][1] -= on_i.y;
    f[j][2] -= on_i.z;
  }
  if (evflag)
    ev_tally_xyz(i, j, nlocal, newton_pair, 0.0, 0.0, on_i.x, on_i.y, on_i.z, dx.x, dx.y, dx.z);
}

namespace {

// Access to the state of contact (i, slot jj) in LAMMPS' neighbour history: a block of
// `width` doubles (the largest state of the laws) for every neighbour slot, and a touch flag. The state is seen
// from the atom with the lower tag (transfer_history() copies it to the partner verbatim).
struct NeighStore {
  static constexpr bool compact = false;
  int **touch;
  double **value;
  int width;    // doubles per slot: the largest state of the laws
  bool has(int i, int jj) const { return touch[i][jj] != 0; }
  double *get(int i, int jj) const
  {
    touch[i][jj] = 1;
    return &value[i][width * jj];
  }
  double *peek(int i, int jj) const { return &value[i][width * jj]; }
  void forget(int i, int jj) const
  {
    touch[i][jj] = 0;
    double *h = &value[i][width * jj];
    for (int k = 0; k < width; k++) h[k] = 0.0;
  }
};

// The same in the compact store: a record (fixed part = the state) only for touching contacts,
// copied verbatim to both partners; its items hold the Jaeger vertices.
struct CompactStore {
  static constexpr bool compact = true;
  FixContactHistoryExact *fix;
  bool has(int i, int jj) const { return fix->firstrecord[i][jj] >= 0; }
  double *get(int i, int jj) const
  {
    bigint &slot = fix->firstrecord[i][jj];
    if (slot < 0) slot = fix->create(0);
    return fix->state(slot);
  }
  double *peek(int i, int jj) const { return fix->state(fix->firstrecord[i][jj]); }
  void forget(int i, int jj) const { fix->release(fix->firstrecord[i][jj]); }
};


}    // namespace

/* ----------------------------------------------------------------------
   A contact that ends between the last force evaluation and a neighbour build is dropped by the
   build (it keeps only the pairs that touch then), so the force loop never sees it end. The
   work the listed contacts hold just before the build less what they hold just after is that
   of the dropped contacts (each contact counted as the force loop counts it: whole, or half on
   each of two processes with newton off). Only the linear laws keep a contact's work.
------------------------------------------------------------------------- */

// [tangential work, dissipation] of a contact's state, times weight, into sums (only the linear
// laws keep them)
void PairGranularExact::add_contact_work(const Law &lw, const double *history, double weight,
                                         double sums[2])
{
  if (lw.tangential != TANGENTIAL_CLASSIC && lw.tangential != TANGENTIAL_REFINED) return;
  sums[0] += weight * history[ge::H_WORK_T];
  sums[1] += weight * (history[ge::H_DISS_T] + history[ge::H_DISS_DAMP]);
}

template <class Store> void PairGranularExact::listed_work(Store store, double sums[2]) const
{
  sums[0] = sums[1] = 0.0;
  if (list == nullptr) return;
  const int nlocal = atom->nlocal;    // (as at the build: atoms move between processes after)
  const int newton_pair = force->newton_pair;
  for (int ii = 0; ii < list->inum; ii++) {
    const int i = list->ilist[ii];
    const int *jlist = list->firstneigh[i];
    for (int jj = 0; jj < list->numneigh[i]; jj++) {
      const int j = jlist[jj] & NEIGHMASK;
      if (!store.has(i, jj)) continue;
      const double weight = (newton_pair || j < nlocal) ? 1.0 : 0.5;
      add_contact_work(law[atom->type[i]][atom->type[j]], store.peek(i, jj), weight, sums);
    }
  }
}

void PairGranularExact::listed_work(double sums[2])
{
  if (fix_compact)
    listed_work(CompactStore{fix_compact}, sums);
  else
    listed_work(NeighStore{fix_neigh->firstflag, fix_neigh->firstvalue, fix_neigh->get_dnum()}, sums);
}

void PairGranularExact::work_before_build()
{
  listed_before_valid = work_tracked && any_linear_law();
  if (listed_before_valid) listed_work(listed_before);
}

void PairGranularExact::ended_work(double work[2]) const
{
  work[0] = ended[0];
  work[1] = ended[1];
}

void PairGranularExact::work_after_build()
{
  if (!listed_before_valid) return;
  listed_before_valid = false;
  double after[2];
  listed_work(after);
  ended[0] += listed_before[0] - after[0];
  ended[1] += listed_before[1] - after[1];
}

/* ----------------------------------------------------------------------
   The contacts' tangential work and dissipation (the linear laws' H_WORK_T, H_DISS_T and
   H_DISS_DAMP) feed no force, and the refined law's exact slip-dissipation integral is a fair
   part of its cost where many contacts slide. They are tracked while an output reads them (the
   global vector's [2] and [3] through compute pair; p3 and p5 of compute pair/local), and always
   with 'work yes'. Forces and every other value of the state are the same bit for bit either
   way. A run that tracks them after steps that did not is told which steps' work is missing (a
   restart file carries that gap).
------------------------------------------------------------------------- */

// (any compute pair or pair/local: which of the values it reads is its own business)
bool PairGranularExact::outputs_read_work() const
{
  for (const auto *c : modify->get_compute_list())
    if (strcmp(c->style, "pair") == 0 || strcmp(c->style, "pair/local") == 0) return true;
  return false;
}

// at each run's setup, before init_one() hands the setting to the laws
void PairGranularExact::track_work_for_run()
{
  work_tracked = work_always || outputs_read_work();
  if (!work_tracked || work_gap[0] < 0) return;
  if (comm->me == 0)
    error->warning(FLERR,
                   "Pair granular/exact: the contacts' tangential work and dissipation are "
                   "tracked only while an output reads them (compute pair, compute pair/local), "
                   "and none did in steps {} to {}: the work done in those steps is missing from "
                   "the totals and from each contact's values. To track it always, give "
                   "'pair_style granular/exact work yes' before the first run",
                   work_gap[0], work_gap[1]);
  work_gap[0] = work_gap[1] = -1;
}

// a force evaluation that advanced the contacts (only the linear laws keep their work)
void PairGranularExact::note_untracked_step()
{
  if (work_tracked || !any_linear_law()) return;
  if (work_gap[0] < 0) work_gap[0] = update->ntimestep;
  work_gap[1] = update->ntimestep;
}

/* ----------------------------------------------------------------------
   pvector (compute pair granular/exact):
     [0] normal elastic energy  sum k_n overlap^2 / 2
     [1] tangential elastic energy  sum |ft|^2 / (2 k_t)
     [2] cumulative tangential work done on the contacts
     [3] cumulative dissipated work (friction + viscous damping)
     [4] number of contacts   [5] number of sliding contacts
     [6..14] the full contact stress sum  sum_c l^c (x) f^c  (row-major xx xy xz yx yy yz zx zy zz),
             l = x_i - x_j the branch vector, f the contact force on i. Unlike LAMMPS' 6-component
             virial it keeps the antisymmetric part that tangential forces produce.
     [15] history vertices stored by the Jaeger contacts   [16] number of Jaeger contacts
     [17] elastic energy of the Yade rolling and twisting springs
   Jaeger contacts add their Hertz energy to [0]; they track no tangential energy or work.
   Catalogue contacts add their normal elastic energy to [0] and their moment springs' to [17];
   they track no tangential energy or work.
   [2] and [3] include the contacts that have ended (kept per process, written to restart
   files by the history fix).
   With newton off a pair with a ghost partner is computed on two processes; it then counts
   half on each, so the sums are those of the whole system after compute pair's MPI sum.
------------------------------------------------------------------------- */

void PairGranularExact::compute(int eflag, int vflag)
{
  ev_init(eflag, vflag);
  // atoms change places only where the neighbour lists are rebuilt; bodies keep their masses
  if (fix_rigid && (neighbor->ago == 0 || !mass_rigid)) update_body_masses();

  // run setup computes forces at positions that were not reached by a step of this run:
  // forces are evaluated from the stored state without advancing it
  const bool advance = update->setupflag == 0;
  if (!advance) warn_doubtful_setup();
  if (advance) note_untracked_step();
  double tally[NEXTRA] = {0.0};
  // (the friction's share of the contact stress is tallied with the rest of the global vector)
  if (friction) friction->begin_contacts(eflag_global ? this : nullptr);
  if (fix_compact)
    compute_contacts_of_kind(CompactStore{fix_compact}, advance, tally);
  else
    compute_contacts_of_kind(NeighStore{fix_neigh->firstflag, fix_neigh->firstvalue, fix_neigh->get_dnum()}, advance, tally);

  if (eflag_global) {
    tally[2] += ended[0];
    tally[3] += ended[1];
    for (int k = 0; k < NEXTRA; k++) pvector[k] = tally[k];
  }
  if (!advance) check_finite_forces(atom, world, error, "Pair granular/exact");
}

/* ----------------------------------------------------------------------
   Input that is legal but likely a mistake, said with the numbers. The checks need atoms or
   contacts, which a pour deck does not have when its run starts: the time steps are checked at
   the first neighbour build that has atoms (and, for Hertz impacts, moving ones), once per pair
   style (contacts_matched()); the overlaps at each run's setup, of the contacts that have no
   history yet (made by the input, not by the run's own physics: a restarted settled bed holds
   its overlaps in its histories and is not warned about again).
------------------------------------------------------------------------- */

void PairGranularExact::warn_doubtful_setup()
{
  if (fix_compact)
    warn_large_overlaps(CompactStore{fix_compact});
  else
    warn_large_overlaps(NeighStore{fix_neigh->firstflag, fix_neigh->firstvalue, fix_neigh->get_dnum()});
}

// of the owned atoms: [lightest mass, smallest radius, -largest speed, -count] (negated: one
// MPI_MIN reduces them all)
void PairGranularExact::owned_atom_extremes(double local[4])
{
  local[0] = INFINITY;
  local[1] = INFINITY;
  local[2] = 0.0;
  local[3] = -double(atom->nlocal);
  for (int i = 0; i < atom->nlocal; i++) {
    local[0] = std::fmin(local[0], atom->rmass[i]);
    local[1] = std::fmin(local[1], atom->radius[i]);
    local[2] = std::fmin(local[2], -ge::norm(ge::vec3(atom->v[i])));
  }
}

// (collective)
void PairGranularExact::check_time_steps()
{
  // the lightest mass, smallest radius and largest speed of the atoms (one reduction for both
  // time-step checks)
  double local[4];
  owned_atom_extremes(local);
  double all[4];
  MPI_Allreduce(local, all, 4, MPI_DOUBLE, MPI_MIN, world);
  if (!std::isfinite(all[0])) return;    // no atoms yet: at a later build
  if (!linear_time_step_checked) {
    warn_coarse_time_step(all[0]);
    linear_time_step_checked = true;
  }
  // (spheres at rest start no impact: a later build, once they move)
  if (!hertz_time_step_checked && -all[2] > 0.0) {
    warn_coarse_hertz_time_step(all[0], all[1], -all[2]);
    hertz_time_step_checked = true;
  }
}

/* ----------------------------------------------------------------------
   overlaps above 5 % of the smaller radius are legal but rarely meant
   (a packing created on a lattice of spacing below the diameter, contacts far too soft); the
   laws assume small overlaps. Only contacts without a history: theirs were made by the input.
------------------------------------------------------------------------- */

template <class Store> void PairGranularExact::warn_large_overlaps(Store store)
{
  const double *radius = atom->radius;
  double **x = atom->x;
  double largest = 0.0;    // overlap / smaller radius
  for (int ii = 0; ii < list->inum; ii++) {
    const int i = list->ilist[ii];
    const int *jlist = list->firstneigh[i];
    for (int jj = 0; jj < list->numneigh[i]; jj++) {
      if (store.has(i, jj)) continue;
      const int j = jlist[jj] & NEIGHMASK;
      const Vec3 dx = ge::vec3(x[i]) - ge::vec3(x[j]);
      const double overlap = radius[i] + radius[j] - ge::norm(dx);
      if (overlap > 0.0)
        largest = std::fmax(largest, overlap / std::fmin(radius[i], radius[j]));
    }
  }
  say_largest_overlap(largest);
}

void PairGranularExact::say_largest_overlap(double largest) const
{
  double all = 0.0;
  MPI_Allreduce(&largest, &all, 1, MPI_DOUBLE, MPI_MAX, world);
  if (all > 0.05 && comm->me == 0)
    error->warning(FLERR,
                   "Pair granular/exact: the largest overlap of the contacts the run starts with "
                   "(those without a history yet) is {:.3g} % of the smaller radius of their "
                   "spheres; the contact laws assume overlaps of a few per cent at most (spheres "
                   "created closer than their diameters, or contacts too soft for the load?)",
                   100.0 * all);
}

// the laws of the type pairs that have one (for_each_law() in the header)
template <class F> void PairGranularExact::for_each_law(F f) const
{
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++)
      if (setflag[i][j] || (setflag[i][i] && setflag[j][j])) f(law[i][j]);
}

/* ----------------------------------------------------------------------
   a time step that resolves a linear-spring contact in fewer than 10
   steps (the undamped contact duration T_c = pi sqrt(m/(2 k)) of two of the lightest spheres,
   k the stiffest linear normal stiffness of the laws: hooke's k_n, hls' unloading stiffness at
   F_max = 0) is legal but gives an inaccurate collision. Hertz contacts have no fixed duration:
   warn_coarse_hertz_time_step() checks them. lightest: the lightest mass of all atoms.
------------------------------------------------------------------------- */

void PairGranularExact::warn_coarse_time_step(double lightest)
{
  double k = 0.0;
  for_each_law([&k](const Law &lw) {
    if (ge::is_linear(lw)) k = std::fmax(k, lw.linear.kn);
    else if (lw.tangential == TANGENTIAL_CATALOGUE && lw.normal == NORMAL_HOOKE)
      k = std::fmax(k, lw.cat.normal.hooke.kn);
    else if (lw.tangential == TANGENTIAL_CATALOGUE && lw.normal == NORMAL_HLS)
      k = std::fmax(k, lw.cat.normal.hls.kU0);
  });
  if (!(k > 0.0) || !std::isfinite(lightest)) return;
  // (LAMMPS integrates m dv/dt = ftm2v f: omega^2 = ftm2v k / m_eff, m_eff = m/2)
  // (as a quotient of roots: m/k underflowed to 0 for a mass of 1e-300, "in only 0 steps")
  const double duration = M_PI * std::sqrt(0.5 * lightest) / std::sqrt(force->ftm2v * k);
  const double steps = duration / update->dt;
  if (steps < 10.0 && comm->me == 0)
    error->warning(FLERR,
                   "Pair granular/exact: the time step {:.3g} resolves a contact of two of the "
                   "lightest spheres (mass {:.3g}) with normal stiffness {:.3g} in only {:.3g} "
                   "steps (its duration pi sqrt(m/(2 k)) = {:.3g}); at least 10, better 50, "
                   "keep a collision accurate",
                   update->dt, lightest, k, steps, duration);
}

/* ----------------------------------------------------------------------
   the same for Hertz contacts, whose duration depends on the impact: Hertz's collision time
   t_c = 2.868 (m*^2 / (R* E*^2 v))^{1/5} (Johnson, Contact Mechanics, eq. 11.24) of two of the
   lightest, smallest spheres (m* = m/2, R* = R/2) at the largest approach speed the run starts
   with (twice the largest speed of an atom, `fastest`), E* the stiffest effective modulus of the
   Hertz laws. Spheres at rest start no collision: nothing to check.
------------------------------------------------------------------------- */

void PairGranularExact::warn_coarse_hertz_time_step(double mass, double radius, double fastest)
{
  double Estar = 0.0;
  for_each_law([&Estar](const Law &lw) {
    if (lw.tangential == TANGENTIAL_JAEGER) Estar = std::fmax(Estar, 0.5 * lw.jaeger.E_hat);
    else if (lw.tangential == TANGENTIAL_CATALOGUE && ge::is_hertzian(lw.cat.normal.model))
      Estar = std::fmax(Estar, lw.cat.normal.Ebar);
  });
  const double speed = 2.0 * fastest;
  if (!(Estar > 0.0) || !(speed > 0.0) || !std::isfinite(mass)) return;
  const double mstar = 0.5 * mass / force->ftm2v, Rstar = 0.5 * radius;
  // (factor by factor: the quotient under the root under- or overflows at extreme inputs)
  const double duration = 2.868 * std::pow(mstar, 0.4) * std::pow(Rstar, -0.2) *
      std::pow(Estar, -0.4) * std::pow(speed, -0.2);
  const double steps = duration / update->dt;
  if (steps < 10.0 && comm->me == 0)
    error->warning(FLERR,
                   "Pair granular/exact: the time step {:.3g} resolves a Hertz impact of two of "
                   "the lightest spheres (mass {:.3g}, radius {:.3g}) at the largest approach "
                   "speed {:.3g} with E* = {:.3g} in only {:.3g} steps (its duration 2.868 "
                   "(m*^2/(R* E*^2 v))^(1/5) = {:.3g}); at least 10, better 50, keep a collision "
                   "accurate",
                   update->dt, mass, radius, speed, Estar, steps, duration);
}

// a made JKR contact whose surfaces are apart (rsq >= radsum^2) goes on down to its break overlap
template <class Store>
bool PairGranularExact::held_apart(Store store, int i, int jj, int j, const Law &lw, double rsq,
                                   double radsum) const
{
  if (!ge::holds_apart(lw) || !store.has(i, jj)) return false;
  return ge::goes_on_apart(lw, radsum - std::sqrt(rsq),
                           ge::effective_radius(atom->radius[i], atom->radius[j]),
                           store.peek(i, jj)[ge::CS_NORMAL]);
}

/* ----------------------------------------------------------------------
   The force loop for the laws at hand. When every law of the pair style is of one family
   (linear or catalogue) and none has Yade moments, the loop is compiled for that family alone
   and without the moments, as LAMMPS compiles its loops for each EVFLAG/NEWTON: the family
   switch leaves the per-contact loop and the other families' steps and the moments leave its
   code (in bench/in.bench_hertz the loop with every family inlined spilled its registers to the
   stack around the catalogue step). Any other mix runs the general loop. The same step either
   way: the forces are the same, bit for bit.
------------------------------------------------------------------------- */

template <class Store>
void PairGranularExact::compute_contacts_of_kind(Store store, bool advance, double *tally)
{
  int family = -2;    // -2: no law seen yet, -1: mixed
  bool moments = false;
  for_each_law([&](const Law &lw) {
    const int f = lw.tangential == TANGENTIAL_JAEGER ? -1 : ge::family_of(lw);
    family = family == -2 || family == f ? f : -1;
    moments = moments || ge::has_moments(lw);
  });
  if (!moments && family == ge::FAMILY_CATALOGUE)
    compute_contacts<ge::FAMILY_CATALOGUE, false>(store, advance, tally);
  else if (!moments && family == ge::FAMILY_LINEAR)
    compute_contacts<ge::FAMILY_LINEAR, false>(store, advance, tally);
  else
    compute_contacts<-1, true>(store, advance, tally);
}

template <int FAMILY, bool MOMENTS, class Store>
void PairGranularExact::compute_contacts(Store store, bool advance, double *tally)
{
  const int nlocal = atom->nlocal;
  const int newton_pair = force->newton_pair;
  double **x = atom->x;
  double *radius = atom->radius;
  int *type = atom->type;
  tagint *tag = atom->tag;

  const int inum = list->inum;
  int *ilist = list->ilist;
  int *numneigh = list->numneigh;
  int **firstneigh = list->firstneigh;

  for (int ii = 0; ii < inum; ii++) {
    const int i = ilist[ii];
    const int itype = type[i];
    int *jlist = firstneigh[i];
    const int jnum = numneigh[i];

    if constexpr (Store::compact) {
      // records are scattered in memory (kilobytes apart): ask for those of the contacts of the
      // fourth atom ahead (in bench/in.bench_jaeger 2 atoms ahead measured ~2 % slower)
      if (ii + 4 < inum) {
        const int k = ilist[ii + 4];
        for (int kk = 0; kk < numneigh[k]; kk++) store.fix->prefetch(store.fix->firstrecord[k][kk]);
      }
    }
    for (int jj = 0; jj < jnum; jj++) {
      const int j = jlist[jj] & NEIGHMASK;
      const double weight = (newton_pair || j < nlocal) ? 1.0 : 0.5;

      const Law &lw = law[itype][type[j]];
      const Vec3 dx = ge::vec3(x[i]) - ge::vec3(x[j]);
      const double rsq = ge::dot(dx, dx);
      const double radsum = radius[i] + radius[j];
      if (rsq >= radsum * radsum && !held_apart(store, i, jj, j, lw, rsq, radsum)) {
        if (store.has(i, jj)) {
          // the contact ended: keep its work in the running totals, then forget it
          add_contact_work(lw, store.peek(i, jj), weight, ended);
          store.forget(i, jj);
        }
        continue;
      }
      if (FAMILY < 0 && lw.tangential == TANGENTIAL_JAEGER) {
        if constexpr (Store::compact)
          jaeger_contact(i, j, store.fix->firstrecord[i][jj], lw, advance, weight, tally);
        continue;
      }
      if (ge::is_coulomb_normal_only(lw)) {
        // a fast path: the pair's force of this contact is its normal force alone (the friction
        // fix adds the friction), so it needs none of the tangential kinematics of a step
        coulomb_normal_contact(i, j, dx, rsq, store.get(i, jj), lw, advance, weight, tally);
        continue;
      }
      // every state is kept as seen from the atom with the lower tag, p, in both stores: the
      // law's body i is p, and its state is copied to the partner verbatim
      double *history = store.get(i, jj);
      const bool i_is_p = tag[i] < tag[j];
      const int p = i_is_p ? i : j, q = i_is_p ? j : i;
      const ge::ContactBodies b = bodies_of(p, q, i_is_p ? dx : -dx, rsq, lw, advance);
      ge::ContactResult r;
      if constexpr (FAMILY < 0) ge::contact_step(lw, b, history, nullptr, r);
      else ge::contact_step_in_family<FAMILY, MOMENTS>(lw, b, history, nullptr, r);
      if (is_coulomb(lw))
        hand_to_friction(i, j, i_is_p ? b.normal : -b.normal, std::sqrt(rsq), history, lw,
                         r.fn_cap, i_is_p);
      apply_contact(i, j, r, i_is_p, dx);

      // the global vector is needed on the steps where compute pair (an energy compute)
      // asks for energy: tally only then
      if (eflag_global) tally_contact(lw, r, i_is_p, history, weight, dx, tally);
    }
  }
}

/* ----------------------------------------------------------------------
   add weight * l (x) f of one contact, l = x_i - x_j the branch vector, f the force on i
------------------------------------------------------------------------- */

void PairGranularExact::add_branch_force_product(double weight, const Vec3 &l, const Vec3 &force,
                                                 double *sum)
{
  const double lv[3] = {l.x, l.y, l.z}, fv[3] = {force.x, force.y, force.z};
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) sum[3 * a + b] += weight * lv[a] * fv[b];
}

void PairGranularExact::tally_friction(int /*i*/, const Vec3 &branch, const Vec3 &force_on_i)
{
  add_branch_force_product(1.0, branch, force_on_i, pvector + 6);
}

/* ---------------------------------------------------------------------- */

void PairGranularExact::allocate()
{
  allocated = 1;
  const int n = atom->ntypes;
  memory->create(setflag, n + 1, n + 1, "pair:setflag");
  for (int i = 1; i <= n; i++)
    for (int j = i; j <= n; j++) setflag[i][j] = 0;
  memory->create(cutsq, n + 1, n + 1, "pair:cutsq");
  memory->create(law, n + 1, n + 1, "pair:law");
  onerad_dynamic = new double[n + 1];
  maxrad_dynamic = new double[n + 1];
}

/* ---------------------------------------------------------------------- */

void PairGranularExact::settings(int narg, char **arg)
{
  cutoff_global = -1.0;
  history_given = false;
  work_always = false;
  bool cutoff_given = false, work_given = false;
  const char *usage = "'pair_style granular/exact [cutoff <rc>] [history neigh|compact] "
                      "[work auto|yes]'";
  int iarg = 0;
  while (iarg < narg) {
    if ((strcmp(arg[iarg], "history") == 0 && history_given) ||
        (strcmp(arg[iarg], "cutoff") == 0 && cutoff_given) ||
        (strcmp(arg[iarg], "work") == 0 && work_given))
      error->all(FLERR, "Illegal pair_style granular/exact command: '{}' is given twice",
                 arg[iarg]);
    if (strcmp(arg[iarg], "history") == 0) {
      if (iarg + 2 > narg)
        error->all(FLERR,
                   "Illegal pair_style granular/exact command: 'history' needs 'neigh' or "
                   "'compact'");
      if (strcmp(arg[iarg + 1], "neigh") == 0) history_requested = HISTORY_NEIGH;
      else if (strcmp(arg[iarg + 1], "compact") == 0) history_requested = HISTORY_COMPACT;
      else
        error->all(FLERR,
                   "Illegal pair_style granular/exact history '{}': expected 'neigh' or 'compact'",
                   arg[iarg + 1]);
      history_given = true;
      iarg += 2;
    } else if (strcmp(arg[iarg], "cutoff") == 0) {
      if (iarg + 2 > narg)
        error->all(FLERR, "Illegal pair_style granular/exact command: 'cutoff' needs a distance");
      cutoff_global = utils::numeric(FLERR, arg[iarg + 1], false, lmp);
      cutoff_given = true;
      if (cutoff_global <= 0.0)
        error->all(FLERR, "Illegal pair_style granular/exact cutoff {}: must be > 0",
                   arg[iarg + 1]);
      iarg += 2;
    } else if (strcmp(arg[iarg], "work") == 0) {
      const bool known = iarg + 2 <= narg &&
          (strcmp(arg[iarg + 1], "auto") == 0 || strcmp(arg[iarg + 1], "yes") == 0);
      if (!known)
        error->all(FLERR,
                   "Illegal pair_style granular/exact work {}: expected 'auto' (track the "
                   "contacts' work and dissipation while an output reads them, the default) or "
                   "'yes' (always)",
                   iarg + 1 < narg ? arg[iarg + 1] : "(nothing)");
      work_always = strcmp(arg[iarg + 1], "yes") == 0;
      work_given = true;
      iarg += 2;
    } else {
      error->all(FLERR, "Unknown pair_style granular/exact keyword '{}': expected {}", arg[iarg],
                 usage);
    }
  }
}

/* ----------------------------------------------------------------------
   rigid bodies: the mass of each atom's body, for owned atoms from the rigid fix and for ghost
   atoms by forward communication (refreshed where the neighbour lists are rebuilt)
------------------------------------------------------------------------- */

void PairGranularExact::update_body_masses()
{
  int dim;
  const auto *body = static_cast<int *>(fix_rigid->extract("body", dim));
  const auto *mass_of_body = static_cast<double *>(fix_rigid->extract("masstotal", dim));
  if (!body || !mass_of_body)
    error->all(FLERR,
               "Pair granular/exact: fix {} gives no body masses (its bodies are not set up)",
               fix_rigid->id);
  if (atom->nmax > nmax_rigid) {
    memory->destroy(mass_rigid);
    nmax_rigid = atom->nmax;
    memory->create(mass_rigid, nmax_rigid, "pair:mass_rigid");
  }
  for (int i = 0; i < atom->nlocal; i++) mass_rigid[i] = body[i] >= 0 ? mass_of_body[body[i]] : 0.0;
  comm->forward_comm(this);
}

double PairGranularExact::body_mass(int i) const
{
  return own_body_mass(i);
}

int PairGranularExact::pack_forward_comm(int n, int *list, double *buf, int /*pbc_flag*/,
                                         int * /*pbc*/)
{
  for (int k = 0; k < n; k++) buf[k] = mass_rigid[list[k]];
  return n;
}

void PairGranularExact::unpack_forward_comm(int n, int first, double *buf)
{
  for (int k = 0; k < n; k++) mass_rigid[first + k] = buf[k];
}

/* ---------------------------------------------------------------------- */

void PairGranularExact::init_style()
{
  if (!atom->radius_flag || !atom->rmass_flag || !atom->omega_flag)
    error->all(FLERR,
               "Pair granular/exact requires atom attributes radius, rmass and omega "
               "(e.g. atom_style sphere)");
  if (comm->ghost_velocity == 0)
    error->all(FLERR,
               "Pair granular/exact requires ghost atoms to store velocity: use "
               "'comm_modify vel yes'");

  // particles of fix freeze count as immovable in the catalogue's effective mass
  freeze_group_bit = 0;
  auto freezes = modify->get_fix_by_style("^freeze");
  if (freezes.size() > 1) error->all(FLERR, "Pair granular/exact: only one fix freeze at a time");
  if (freezes.size() == 1) freeze_group_bit = freezes.front()->groupbit;

  // a clump of spheres (fix rigid, rigid/small) moves as one body: its mass, not a sphere's,
  // enters the effective masses of the catalogue laws and of the walls (as LAMMPS' granular
  // styles)
  fix_rigid = nullptr;
  for (const auto &ifix : modify->get_fix_list()) {
    if (!ifix->rigid_flag) continue;
    if (fix_rigid)
      error->all(FLERR, "Pair granular/exact: only one rigid-body fix at a time ({} and {}); "
                        "put all clumps in one fix rigid or rigid/small", fix_rigid->id, ifix->id);
    fix_rigid = ifix;
  }

  // laws whose history grows need the compact store
  if (any_law(TANGENTIAL_JAEGER) && history_given && history_requested == HISTORY_NEIGH)
    error->all(FLERR,
               "Pair granular/exact: 'tangential jaeger' stores a variable-length history per "
               "contact and needs the compact store, but pair_style was given 'history neigh': "
               "leave 'history' out (the compact store is the default with 'tangential "
               "jaeger'), or give 'history compact'");
  // JKR contacts hold after their surfaces part: LAMMPS' neighbour history keeps the pairs that
  // are not touching at a rebuild too
  beyond_contact = 0;
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++)
      if (setflag[i][j] && ge::holds_apart(law[i][j])) beyond_contact = 1;
  track_work_for_run();
  create_history_fix();
  create_atom_id_fix();
  // contacts made with another law than their type pair's now are carried over to it at this
  // run's first neighbour build (pair_granular_exact_history.cpp)
  laws_recorded = false;
  law_change_pending = contacts_held() > 0 && (laws_changed() || laws_from_file);
  check_atom_ids();
  check_coulomb_setup();
  place_friction_fix();

  // largest radius per type, for a neighbour cutoff when no 'cutoff' was given
  const int ntypes = atom->ntypes;
  for (int t = 1; t <= ntypes; t++) onerad_dynamic[t] = 0.0;
  // (LAMMPS' style matching is a small regex without alternation: one pattern per style)
  for (const char *inserting : {"^pour", "^deposit"}) {
    for (const auto &ifix : modify->get_fix_by_style(inserting)) {
      for (int t = 1; t <= ntypes; t++) {
        int itype = t;
        auto *maxrad = (double *) ifix->extract("radius", itype);
        if (maxrad && *maxrad > 0.0) onerad_dynamic[t] = MAX(onerad_dynamic[t], *maxrad);
      }
    }
  }
  for (int i = 0; i < atom->nlocal; i++)
    onerad_dynamic[atom->type[i]] = MAX(onerad_dynamic[atom->type[i]], atom->radius[i]);
  check_radii();
  MPI_Allreduce(&onerad_dynamic[1], &maxrad_dynamic[1], ntypes, MPI_DOUBLE, MPI_MAX, world);
  check_periodic_images();

  // last: a request left by a setup that stopped with an error outlives this pair style in
  // LAMMPS 2026 (its next setup, after 'pair_style none' and a new pair style, read the freed
  // pair from it)
  neighbor->add_request(this, NeighConst::REQ_SIZE | NeighConst::REQ_HISTORY);
}

/* ----------------------------------------------------------------------
   A sphere can touch two periodic images of another at once where the box is at most twice the
   largest contact distance long. Both contacts would have the same partner, by which the
   histories know a contact, and would share one history (LAMMPS' own granular styles too).
------------------------------------------------------------------------- */

void PairGranularExact::check_periodic_images() const
{
  double largest_radius = 0.0;
  for (int t = 1; t <= atom->ntypes; t++) largest_radius = MAX(largest_radius, maxrad_dynamic[t]);
  // twice the largest contact distance (a JKR contact holds a break distance further)
  const double contact_distance =
      2.0 * largest_radius + largest_break_distance(largest_radius, largest_radius);
  const double reach = 2.0 * contact_distance;
  // the box's edge vectors (h = lx, ly, lz, yz, xz, xy)
  const double *h = domain->h;
  const double edge[3] = {h[0], std::sqrt(h[5] * h[5] + h[1] * h[1]),
                          std::sqrt(h[4] * h[4] + h[3] * h[3] + h[2] * h[2])};
  for (int d = 0; d < domain->dimension; d++)
    if (domain->periodicity[d] && edge[d] <= reach)
      error->all(FLERR,
                 "Pair granular/exact: the periodic box is {} long along {}, at most twice the "
                 "largest contact distance ({}): a sphere could touch two images of another at "
                 "once, and their contacts would share one history; make the box longer (e.g. "
                 "replicate)",
                 edge[d], "xyz"[d], contact_distance);
}

bigint PairGranularExact::contacts_held() const
{
  // (not const: an MPI stub library takes a void *)
  bigint held = fix_compact ? fix_compact->entries_held() : fix_neigh->entries_held();
  bigint held_all = 0;
  MPI_Allreduce(&held, &held_all, 1, MPI_LMP_BIGINT, MPI_SUM, world);
  return held_all;
}

/* ----------------------------------------------------------------------
   The histories know a contact by its partner's atom ID. Commands between runs that renumber
   the atoms (delete_atoms with compress yes, reset_atoms id) would attach them to other
   partners (LAMMPS' own granular styles too): an error while contacts are held. The ID each
   atom had at the last run's setup travels with it in a fix property/atom (data files do not
   keep it); atoms created since have none (0).
   After read_restart, this fix and the history fix are made at the first run's setup, like
   LAMMPS' own granular styles make theirs, and LAMMPS hands them the file's per-atom data in
   the order the atoms had when the file was read: commands that delete, renumber or move atoms
   between read_restart and that setup would give every atom another atom's history. The IDs
   in the file show it (also an error, with its own remedy).
------------------------------------------------------------------------- */

void PairGranularExact::create_atom_id_fix()
{
  // The guard holds whatever the input does with fix IDs: the recorded IDs live in the fix's
  // per-atom vector, which goes with the fix (unfix, or a fix of the input defined with the
  // reserved ID, which replaces it).
  const Fix *existing = modify->get_fix_by_id(id_atom_ids);
  if (atom_ids_made && recorded_ids() == nullptr) {
    if (existing)
      error->all(FLERR,
                 "Pair granular/exact: the fix ID {} is reserved for the atom IDs of its "
                 "histories, and the input defined fix {} ({}) with it, which replaced the pair "
                 "style's: give that fix another ID",
                 id_atom_ids, existing->id, existing->style);
    if (contacts_held() > 0)
      error->all(FLERR,
                 "Pair granular/exact: its internal fix {} was deleted (unfix); it recorded the "
                 "ID of every atom, by which the contact histories know their partners, so a "
                 "renumbering since (delete_atoms with 'compress yes', reset_atoms id) can no "
                 "longer be found: to go on without histories, give 'pair_style none', then the "
                 "pair style and its pair_coeff again",
                 id_atom_ids);
    atom_ids_made = false;    // no history to guard: made anew below
  }
  if (!atom_ids_made && existing)
    error->all(FLERR,
               "Pair granular/exact: the fix ID {} is reserved for the atom IDs of its "
               "histories; give fix {} ({}) another ID",
               id_atom_ids, existing->id, existing->style);
  atom_ids_recorded = atom_ids_made;
  if (atom_ids_recorded) return;
  atom_ids_made = true;
  // (a run with Kokkos (-k on) has Kokkos atom styles, whose per-atom vectors only the /kk
  // variant of fix property/atom may grow)
  const char *style = lmp->kokkos ? "property/atom/kk" : "property/atom";
  modify->add_fix(
      fmt::format("{} all {} d_{} writedata no", id_atom_ids, style, kRecordedAtomIdName));
}

void PairGranularExact::check_atom_ids()
{
  double *was = recorded_ids();
  if (was == nullptr) return;
  const tagint *tag = atom->tag;
  const tagint renumbered = an_atom_where(
      atom, world, [&](int i) { return was[i] != 0.0 && was[i] != static_cast<double>(tag[i]); });
  if (!atom_ids_recorded && renumbered != 0)
    error->all(FLERR,
               "Pair granular/exact: atoms were deleted, renumbered or moved between "
               "read_restart and the first run (atom {} got another atom's data): the restart "
               "file's contact histories reach the pair style at that run's setup, in the "
               "atoms' order when the file was read; give 'run 0' right after read_restart "
               "(and the pair_coeff, if any), before such commands",
               renumbered);
  if (atom_ids_recorded && renumbered != 0 && contacts_held() > 0)
    error->all(FLERR,
               "Pair granular/exact: atom IDs were changed since the last run (atom {} had "
               "another), by delete_atoms with 'compress yes' or reset_atoms id; the contact "
               "histories know their partners by ID and would be attached to others: use "
               "'delete_atoms ... compress no', or give 'pair_style none', then the pair style "
               "and its pair_coeff again to go on without histories",
               renumbered);
  for (int i = 0; i < atom->nlocal; i++) was[i] = static_cast<double>(tag[i]);
  recorded_ids_changed();
}

/* ----------------------------------------------------------------------
   every sphere needs a size: with radius 0 the laws would put the contact point behind the
   centre (a negative lever arm), or give no force at all to an overlap they count
------------------------------------------------------------------------- */

void PairGranularExact::check_radii() const
{
  const tagint without =
      an_atom_where(atom, world, [this](int i) { return !(atom->radius[i] > 0.0); });
  if (without != 0)
    error->all(FLERR,
               "Pair granular/exact: atom {} has no size (radius <= 0); every atom is a sphere "
               "here: give it a diameter > 0 (set ... diameter)",
               without);
}

/* ----------------------------------------------------------------------
   `tangential coulomb`: its one solver's settings, from the pair's laws and those of the
   walls (false if no law uses it)
------------------------------------------------------------------------- */

bool PairGranularExact::coulomb_settings(ge::CoulombSolverSettings &settings) const
{
  bool found = false;
  auto take = [&](const Law &lw, const std::string &where) {
    if (!is_coulomb(lw)) return;
    if (found && !ge::same_settings(settings, lw.coulomb))
      error->all(FLERR,
                 "Pair granular/exact: 'tangential coulomb' has one friction solver for all "
                 "contacts: give the same sweeps, tol, warm and kinematics everywhere ({} "
                 "differs)",
                 where);
    settings = lw.coulomb;
    found = true;
  };
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++)
      if (setflag[i][j]) take(law[i][j], fmt::format("pair_coeff {} {}", i, j));
  for (const auto &ifix : modify->get_fix_by_style("^wall/gran/exact"))
    if (auto *wall = dynamic_cast<FixWallGranExact *>(ifix))
      take(wall->contact_law(), fmt::format("fix {}", wall->id));
  return found;
}

void PairGranularExact::check_coulomb_setup() const
{
  ge::CoulombSolverSettings settings;
  if (!coulomb_settings(settings)) return;
  if (!force->newton_pair)
    error->all(FLERR,
               "Pair granular/exact 'tangential coulomb' needs 'newton on' (or 'newton on off'; "
               "with the KOKKOS package, whose default on a GPU is off: '-pk kokkos newton on "
               "neigh half'): the friction of a contact is solved once, by one process, and its "
               "reaction passed on by reverse communication");
  if (history_mode != HISTORY_NEIGH)
    error->all(FLERR,
               "Pair granular/exact 'tangential coulomb' keeps its state in the neighbour "
               "history: it cannot be combined with 'history compact' (nor with 'tangential "
               "jaeger', which needs it)");
  if (!atom->torque_flag)
    error->all(FLERR, "Pair granular/exact 'tangential coulomb' needs per-atom torque "
                      "(atom_style sphere)");
  if (!compute_flag)
    error->all(FLERR, "Pair granular/exact 'tangential coulomb' needs the pair computed on "
                      "every step (its normal forces and contacts feed the friction): remove "
                      "'pair_modify compute no'");
  if (settings.solver == ge::CoulombSolver::Newton &&
      settings.sweeps <= ge::kCoulombNewtonFirstApgd && comm->me == 0)
    error->warning(FLERR,
                   "Pair granular/exact 'tangential coulomb' with solver newton (the default) "
                   "and sweeps {}: its first {} iterations are APGD ({} where a step starts "
                   "from extrapolated forces, none where its start is within {} of the solution, "
                   "both of which need the solves to reach tol), so the solve "
                   "is mostly 'solver apgd'. Newton steps pay where the solve runs to a tight "
                   "tol: leave sweeps at its default ({}) or give sweeps > {}; for a small "
                   "budget of sweeps, 'solver gs' leaves the smaller error",
                   settings.sweeps, ge::kCoulombNewtonFirstApgd,
                   ge::kCoulombNewtonFirstApgdClose, ge::kCoulombNewtonCloseStart,
                   ge::kCoulombNewtonDefaultSweeps,
                   ge::kCoulombNewtonFirstApgd);
}

/* ----------------------------------------------------------------------
   The friction of `tangential coulomb` must see every other force, so its fix
   must run post_force last. Fixes run post_force in the order they were defined; a fix the
   user defines later is therefore handled by defining the friction fix anew at the end of the
   list. It holds no per-contact data (that is in the pair's history); its total dissipation and
   what fix_modify set (FixCoulombFrictionExact::Kept) are carried over.
------------------------------------------------------------------------- */

void PairGranularExact::place_friction_fix()
{
  ge::CoulombSolverSettings settings;
  const bool used = coulomb_settings(settings);
  auto *fix = dynamic_cast<FixCoulombFrictionExact *>(modify->get_fix_by_id(id_friction));
  friction = nullptr;
  if (fix == nullptr && !used) return;
  bool last = fix != nullptr;
  bool after = false;
  for (const auto &ifix : modify->get_fix_list()) {
    if (ifix == fix) after = true;
    else if (after && (ifix->setmask() & FixConst::POST_FORCE)) last = false;
  }
  if (!last) {
    const bool moved = fix != nullptr;
    FixCoulombFrictionExact::Kept kept{};
    if (moved) {
      kept = fix->kept();
      modify->delete_fix(id_friction);
    }
    fix = friction_fix();
    // (add_fix hands a restart file's total to a new fix; a fix moved here keeps its own)
    if (moved) fix->take_kept(kept);
  }
  fix->pair = this;
  fix->active = used;
  fix->settings = settings;
  if (used) friction = fix;
}

/* ----------------------------------------------------------------------
   the friction fix, created with the first `tangential coulomb` law (pair_coeff or wall), so
   that its outputs (f_GE_COULOMB) can be named in thermo_style before the run
------------------------------------------------------------------------- */

FixCoulombFrictionExact *PairGranularExact::friction_fix()
{
  Fix *existing = modify->get_fix_by_id(id_friction);
  auto *fix = dynamic_cast<FixCoulombFrictionExact *>(existing);
  if (existing && fix == nullptr)
    error->all(FLERR,
               "Pair granular/exact: the fix ID {} is reserved for its friction solver; give "
               "fix {} ({}) another ID",
               id_friction, existing->id, existing->style);
  if (fix == nullptr)
    fix = dynamic_cast<FixCoulombFrictionExact *>(
        modify->add_fix(id_friction + " all COULOMB_FRICTION/EXACT"));
  if (fix == nullptr)
    error->all(FLERR, "Pair granular/exact could not create its friction fix {}", id_friction);
  fix->pair = this;
  return fix;
}

/* ---------------------------------------------------------------------- */

double PairGranularExact::init_one(int i, int j)
{
  if (setflag[i][j] == 0) {
    if (setflag[i][i] == 0 || setflag[j][j] == 0)
      error->all(FLERR, "Pair granular/exact: no pair_coeff for types {} {} and none to mix from",
                 i, j);
    law[i][j] = law[j][i] = ContactLawWords(lmp).mix(law[i][i], law[j][j]);
  }
  law[i][j].linear.work = work_tracked;
  law[j][i] = law[i][j];

  double cut = maxrad_dynamic[i] + maxrad_dynamic[j];
  // a JKR contact holds until the surfaces are its break distance apart
  const double reach = break_distance(law[i][j], maxrad_dynamic[i], maxrad_dynamic[j]);
  check_skin_holds(i, j, reach);
  cut += reach;
  if (cutoff_global > 0.0) {
    // (the neighbour lists stop at the cutoff: a contact of spheres farther apart is not seen)
    if (cutoff_global < cut && comm->me == 0)
      error->warning(FLERR,
                     "Pair granular/exact: cutoff {} is less than the largest contact distance "
                     "of types {} {} (the sum of their largest radii, and for jkr the break "
                     "distance, {}): contacting spheres farther apart than the cutoff have no "
                     "contact",
                     cutoff_global, i, j, cut);
    return cutoff_global;
  }
  if (cut <= 0.0) {
    // no atoms of these types yet: any positive value that does not shrink the bins
    for (int k = 1; k <= atom->ntypes; k++) cut = MAX(cut, 2.0 * maxrad_dynamic[k]);
  }
  return cut;
}

/* ----------------------------------------------------------------------
   A made JKR contact holds until its surfaces are -delta_po apart (adhesion.hpp, J3), which
   grows with the effective radius: the largest over the laws for two spheres of radii r1, r2.
------------------------------------------------------------------------- */

double PairGranularExact::break_distance(const Law &lw, double r1, double r2)
{
  if (!ge::holds_apart(lw) || !(r1 > 0.0) || !(r2 > 0.0)) return 0.0;
  return -ge::jkr_break_overlap(lw.cat.normal.Ebar, ge::effective_radius(r1, r2),
                                lw.cat.normal.gamma);
}

double PairGranularExact::largest_break_distance(double r1, double r2) const
{
  double reach = 0.0;
  if (!allocated || !beyond_contact) return reach;
  for_each_law([&](const Law &lw) { reach = std::fmax(reach, break_distance(lw, r1, r2)); });
  return reach;
}

/* ----------------------------------------------------------------------
   LAMMPS' neighbour lists of sized spheres keep the pairs closer than radius sum + skin: a JKR
   contact of types i j whose surfaces part by up to `reach` stays listed (and keeps its
   history through a rebuild) only if the skin is at least that
------------------------------------------------------------------------- */

void PairGranularExact::check_skin_holds(int i, int j, double reach) const
{
  if (reach > neighbor->skin)
    error->all(FLERR,
               "Pair granular/exact: JKR contacts of types {} {} hold until their surfaces are "
               "{:.6g} apart (the break distance (3 pi^2 gamma^2 Rbar/(16 Ebar^2))^(1/3) of their "
               "largest spheres), farther than the neighbour skin {:.6g}: LAMMPS' neighbour lists "
               "keep sphere pairs closer than the radius sum plus the skin, so such a contact "
               "would be lost at a rebuild. Use 'neighbor {:.3g} bin' or more",
               i, j, reach, neighbor->skin, 1.5 * reach);
}

#if GE_LAMMPS_VERSION < 20260000
double PairGranularExact::atom2cut(int i)
{
  return 2.0 * atom->radius[i] + largest_break_distance(atom->radius[i], atom->radius[i]);
}

double PairGranularExact::radii2cut(double r1, double r2)
{
  return r1 + r2 + largest_break_distance(r1, r2);
}
#endif

/* ----------------------------------------------------------------------
   history seen from the partner atom: vectors change sign, scalars do not
------------------------------------------------------------------------- */

void PairGranularExact::transfer_history(double *source, double *target, int /*itype*/,
                                         int /*jtype*/)
{
  // every state is kept as seen from the atom with the lower tag: the partner's copy is the same
  const int width = fix_neigh ? fix_neigh->get_dnum() : int(ge::LINEAR_HISTORY_SIZE);
  for (int k = 0; k < width; k++) target[k] = source[k];
}

/* ----------------------------------------------------------------------
   restart: settings and the law of every type pair (the history is in the history fix)
------------------------------------------------------------------------- */

void PairGranularExact::write_restart(FILE *fp)
{
  write_restart_settings(fp);
  for (int i = 1; i <= atom->ntypes; i++) {
    for (int j = i; j <= atom->ntypes; j++) {
      fwrite(&setflag[i][j], sizeof(int), 1, fp);
      if (!setflag[i][j]) continue;
      // field by field, in the order and number the header names
      std::vector<double> fields;
      visit_law_fields(law[i][j], [&fields](const auto &x) { fields.push_back(field_value(x)); });
      fwrite(fields.data(), sizeof(double), fields.size(), fp);
    }
  }
}

void PairGranularExact::read_restart(FILE *fp)
{
  read_restart_settings(fp);
  allocate();
  const int me = comm->me;
  const int nfields = law_field_count(restart_format);
  std::vector<double> fields(nfields);
  for (int i = 1; i <= atom->ntypes; i++) {
    for (int j = i; j <= atom->ntypes; j++) {
      if (me == 0) utils::sfread(FLERR, &setflag[i][j], sizeof(int), 1, fp, nullptr, error);
      MPI_Bcast(&setflag[i][j], 1, MPI_INT, 0, world);
      if (!setflag[i][j]) continue;
      if (me == 0) utils::sfread(FLERR, fields.data(), sizeof(double), nfields, fp, nullptr, error);
      MPI_Bcast(fields.data(), nfields, MPI_DOUBLE, 0, world);
      Law lw{};
      int k = 0;
      visit_law_fields(lw, [&](auto &x) { set_field(x, fields[k++]); }, restart_format);
      law[i][j] = law[j][i] = lw;
    }
  }
  // the stored contacts were made with these laws (unless the store's own data say more:
  // take_restart_contacts()), mixed as init_one() mixed them
  laws_of_history.reset(atom->ntypes);
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++)
      if (setflag[i][j] || (setflag[i][i] && setflag[j][j]))
        laws_of_history.set(i, j, law_in_use(i, j));
}

/* ----------------------------------------------------------------------
   The global restart data begin with a mark, the format version and the layout of the
   per-contact histories (the history fixes' per-atom data follow in the same file), then the
   settings and the laws field by field. Format 2 (GRANULAR-EXACT from 2026-11-26): every state
   is kept as seen from the atom with the lower tag; format 1 files (no mark) kept the states of
   LAMMPS' neighbour history as seen from the atom that listed the pair, and wrote each law as
   the bytes of its struct.
------------------------------------------------------------------------- */

namespace {
std::vector<std::string> words_of(const std::vector<int> &values)
{
  std::vector<std::string> words;
  for (int v : values) words.push_back(std::to_string(v));
  return words;
}

constexpr double RESTART_MARK = -7.291862955555e+299;    // no cutoff (> 0 or -1) is this
constexpr int OLDEST_RESTART_FORMAT = 2;
}    // namespace

// the layout of the per-contact data of restart format `format` (this build writes
// RESTART_FORMAT); format 3 adds the values each contact keeps in the history store, which
// depend on the laws (the Yade moments add theirs to a linear or Jaeger law's state)
std::vector<int> PairGranularExact::restart_layout(int format) const
{
  std::vector<int> layout = {format,
                             fix_neigh || fix_compact || !allocated ? history_mode
                                                                    : wanted_history_mode(),
                             int(ge::LINEAR_HISTORY_SIZE),
                             int(ge::CATALOGUE_STATE_SIZE),
                             int(ge::JAEGER_FIXED_SIZE),
                             int(sizeof(ge::JaegerVertex) / sizeof(double)),
                             law_field_count(format)};
  if (format >= 3) layout.push_back(allocated ? store_width() : -1);
  return layout;
}

void PairGranularExact::write_restart_settings(FILE *fp)
{
  fwrite(&RESTART_MARK, sizeof(double), 1, fp);
  const std::vector<int> layout = restart_layout(RESTART_FORMAT);
  const int n = static_cast<int>(layout.size());
  fwrite(&n, sizeof(int), 1, fp);
  fwrite(layout.data(), sizeof(int), n, fp);
  fwrite(&cutoff_global, sizeof(double), 1, fp);
  // format 6: 'work yes', and the steps whose work was not tracked (restarted, the gap stays
  // known: track_work_for_run())
  const double work[3] = {work_always ? 1.0 : 0.0, double(work_gap[0]), double(work_gap[1])};
  fwrite(work, sizeof(double), 3, fp);
}

void PairGranularExact::read_restart_settings(FILE *fp)
{
  double mark = 0.0;
  int n = 0;
  std::vector<int> layout;
  double work[3] = {0.0, -1.0, -1.0};    // (format 5 and before: always tracked)
  if (comm->me == 0) {
    utils::sfread(FLERR, &mark, sizeof(double), 1, fp, nullptr, error);
    if (mark == RESTART_MARK) {
      utils::sfread(FLERR, &n, sizeof(int), 1, fp, nullptr, error);
      if (n > 0 && n < 64) {
        layout.resize(n);
        utils::sfread(FLERR, layout.data(), sizeof(int), n, fp, nullptr, error);
        utils::sfread(FLERR, &cutoff_global, sizeof(double), 1, fp, nullptr, error);
        if (layout[0] >= 6) utils::sfread(FLERR, work, sizeof(double), 3, fp, nullptr, error);
      }
    }
  }
  MPI_Bcast(&mark, 1, MPI_DOUBLE, 0, world);
  if (mark != RESTART_MARK)
    error->all(FLERR,
               "Pair granular/exact: this restart file was written by a GRANULAR-EXACT from "
               "before restart format {} (2026-11-26), which kept other per-contact states; "
               "this version cannot continue it. Continue it with the version that wrote it, "
               "or run the deck that made it again with this version",
               OLDEST_RESTART_FORMAT);
  MPI_Bcast(&n, 1, MPI_INT, 0, world);
  layout.resize(n > 0 && n < 64 ? n : 0);
  if (!layout.empty()) MPI_Bcast(layout.data(), n, MPI_INT, 0, world);
  if (layout.empty() || layout[0] < OLDEST_RESTART_FORMAT || layout[0] > RESTART_FORMAT)
    error->all(FLERR,
               "Pair granular/exact: this restart file has restart format {}; this version "
               "reads formats {} to {}. Continue it with the version that wrote it",
               layout.empty() ? -1 : layout[0], OLDEST_RESTART_FORMAT, RESTART_FORMAT);
  MPI_Bcast(&cutoff_global, 1, MPI_DOUBLE, 0, world);
  MPI_Bcast(work, 3, MPI_DOUBLE, 0, world);
  work_always = work[0] != 0.0;
  work_gap[0] = static_cast<bigint>(work[1]);
  work_gap[1] = static_cast<bigint>(work[2]);
  if (layout.size() > 1) history_mode = layout[1];
  restart_format = layout[0];
  // (the store's width depends on the laws, read after this: it is checked when the store is
  // made, create_history_fix())
  restart_store_width = restart_format >= 3 && layout.size() > 7 ? layout[7] : -1;
  std::vector<int> expected = restart_layout(restart_format);    // (the file's history mode)
  if (restart_format >= 3 && expected.size() > 7) expected[7] = restart_store_width;
  if (layout != expected)
    error->all(FLERR,
               "Pair granular/exact: the restart file's per-contact layout (format, history "
               "store, values per contact, catalogue state, Jaeger fixed part, doubles per "
               "vertex, law fields) = ({}) is not this build's ({}): it cannot be read",
               utils::join_words(words_of(layout), ", "),
               utils::join_words(words_of(expected), ", "));
}

/* ----------------------------------------------------------------------
   one contact for compute pair/local; never changes the history.
   The forces are those of the springs and the slider as stored at the end of the last step;
   viscous terms are left out, because the velocities at the time of a call (full-step for
   owned atoms, half-step for ghosts after a run) are not those the step used.
     p1 elastic normal force           p2 |tangential spring-slider force|
     p3 cumulative dissipated work     p4 sliding flag (1/0)
     p5 cumulative tangential work     p6 overlap
     p7-p9 tangential spring-slider force vector (on i)
------------------------------------------------------------------------- */

double PairGranularExact::single(int i, int j, int itype, int jtype, double rsq,
                                 double /*factor_coul*/, double /*factor_lj*/, double &fforce)
{
  for (int k = 0; k < SINGLE_EXTRA; k++) svector[k] = 0.0;
  fforce = 0.0;
  const double radsum = atom->radius[i] + atom->radius[j];
  const bool apart = rsq >= radsum * radsum;
  if (apart && !ge::holds_apart(law[itype][jtype])) return 0.0;

  // find the history of the pair (i, j) in i's neighbour list
  const int jnum = list->numneigh[i];
  int *jlist = list->firstneigh[i];
  int found = -1;
  for (int jj = 0; jj < jnum; jj++) {
    neighprev++;
    if (neighprev >= jnum) neighprev = 0;
    if ((jlist[neighprev] & NEIGHMASK) == j) {
      found = neighprev;
      break;
    }
  }
  if (found < 0) return 0.0;
  single_from_state(i, j, itype, jtype, rsq, stored_state(i, found), fforce);
  return 0.0;
}

void PairGranularExact::single_from_state(int i, int j, int itype, int jtype, double rsq,
                                          const double *stored, double &fforce)
{
  if (stored == nullptr) return;
  const double radsum = atom->radius[i] + atom->radius[j];
  const bool apart = rsq >= radsum * radsum;
  const Law &lw = law[itype][jtype];
  // (a made JKR contact holds down to its break overlap)
  if (apart &&
      !ge::goes_on_apart(lw, radsum - std::sqrt(rsq),
                         ge::effective_radius(atom->radius[i], atom->radius[j]),
                         stored[ge::CS_NORMAL]))
    return;
  // the state is seen from p, the atom with the lower tag: evaluate the contact as (p, q), then
  // give the tangential force on i
  const bool i_is_p = atom->tag[i] < atom->tag[j];
  const int p = i_is_p ? i : j, q = i_is_p ? j : i;
  if (lw.tangential == TANGENTIAL_JAEGER) single_jaeger(p, q, lw, stored, rsq, fforce);
  else if (lw.tangential == TANGENTIAL_CATALOGUE) single_catalogue(p, q, lw, stored, rsq, fforce);
  else single_linear(p, q, lw, stored, rsq, fforce);
  if (!i_is_p)
    for (int k = 6; k < 9; k++) svector[k] = -svector[k];
}

// single() of a linear contact (p, q) from its state, without viscous terms (see above)
void PairGranularExact::single_linear(int p, int q, const Law &lw, const double *history,
                                      double rsq, double &fforce)
{
  const Vec3 dx = ge::vec3(atom->x[p]) - ge::vec3(atom->x[q]);
  ge::LinearStep s = ge::contact_detail::linear_step_of(bodies_of(p, q, dx, rsq, lw, false));
  s.dt = 0.0;    // no viscous terms, see above
  ge::LinearResult r;
  ge::linear_current_force(lw.linear, s, history, r);

  fforce = r.fn_elastic / std::sqrt(rsq);
  svector[0] = r.fn_elastic;
  svector[1] = ge::norm(r.ft_spring);
  svector[2] = history[ge::H_DISS_T] + history[ge::H_DISS_DAMP];
  svector[3] = history[ge::H_SLIP];
  svector[4] = history[ge::H_WORK_T];
  svector[5] = s.overlap;
  svector[6] = r.ft_spring.x;
  svector[7] = r.ft_spring.y;
  svector[8] = r.ft_spring.z;
}


/* ----------------------------------------------------------------------
   the stored state of contact (i, neighbour slot), or nullptr if it has none
------------------------------------------------------------------------- */

const double *PairGranularExact::stored_state(int i, int slot) const
{
  if (fix_compact) {
    const bigint offset = fix_compact->firstrecord[i][slot];
    return offset < 0 ? nullptr : fix_compact->state(offset);
  }
  return fix_neigh->firstflag[i][slot] ? &fix_neigh->firstvalue[i][fix_neigh->get_dnum() * slot]
                                       : nullptr;
}

/* ---------------------------------------------------------------------- */

double PairGranularExact::memory_usage()
{
  const int n = atom->ntypes + 1;
  return (double) n * n * (sizeof(Law) + sizeof(int) + sizeof(double));
}
