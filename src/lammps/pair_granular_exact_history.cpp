/* ----------------------------------------------------------------------
   GRANULAR-EXACT: pair style granular/exact, its history store and the laws the stored
   contacts were made with (the class is in pair_granular_exact.h).

   The store (LAMMPS' neighbour history, or the compact store for laws whose state grows) is
   made at the first run's setup, replacing the placeholder fix made with the pair style so
   that it keeps that place in the fix list (as LAMMPS' granular styles do). It is made anew
   between runs where the laws need the other kind or more values per contact; the old store's
   contacts go to the new one (HeldContacts). A restart file's contacts are taken by a store of
   the kind that wrote them (LAMMPS hands a fix's restart data only to a fix of the same ID and
   style) and go on from there in the same way.

   A history is only ever read by the law that wrote it: the laws the contacts were made with
   are kept by type pair (laws_of_history), saved with the store's restart data, and at the
   first neighbour build of each run the contacts whose law changed since are carried over to
   their new law (src/contact/law_change.hpp); contacts whose law is not known (a restart file
   from before the store's data said it, read by a pair style defined anew) are dropped. One
   warning per type pair says what became of them.
------------------------------------------------------------------------- */

#include "pair_granular_exact.h"
#include "pair_granular_exact_bodies.h"

#include "contact_law_words.h"
#include "fix_contact_history_exact.h"
#include "fix_neigh_history_exact.h"

#include "atom.h"
#include "comm.h"
#include "error.h"
#include "force.h"
#include "modify.h"
#include "neigh_list.h"

#include "contact/law_change.hpp"

#include <cmath>
#include <string>
#include <vector>

using namespace LAMMPS_NS;
using ge::Vec3;

namespace {
const char *store_style(int mode)
{
  return mode == 1 ? "CONTACT_HISTORY/EXACT" : "NEIGH_HISTORY/EXACT";
}
constexpr int VERTEX_DOUBLES = int(sizeof(ge::JaegerVertex) / sizeof(double));
constexpr int STATE_ROOM = 64;    // (FixNeighHistoryExact's largest width)

// what became of the stored contacts of one type pair at a law change (counts)
enum LawChangeCount {
  LC_HELD,             // contacts held
  LC_KEPT,             // the same kind of state: kept as they are
  LC_CONVERTED,        // carried over to the new law
  LC_BASE_KEPT,        // ... with their state as it is but the Yade moments
  LC_FORCE_CARRIED,    // ... keeping their tangential force
  LC_CAPPED,           // ... capped at the new friction limit
  LC_FORCE_LOST,       // ... whose force the new law cannot hold
  LC_MOMENTS_KEPT,
  LC_MOMENTS_LOST,
  LC_CONTACT_LOST,     // the new law holds no contact there
  LC_DROPPED,          // of unknown law: history dropped
  LC_COUNTS
};
}    // namespace

/* ----------------------------------------------------------------------
   the store's kind: the compact store for laws whose state grows (Jaeger) or where pair_style
   asked for it; LAMMPS' neighbour store for `tangential coulomb` (its solver reads it) or where
   asked; else the kind the store has (or the restart file had)
------------------------------------------------------------------------- */

int PairGranularExact::wanted_history_mode() const
{
  if (any_law(TANGENTIAL_JAEGER)) return HISTORY_COMPACT;
  if (history_given) return history_requested;
  if (any_law(TANGENTIAL_CATALOGUE)) {
    for (int i = 1; i <= atom->ntypes; i++)
      for (int j = i; j <= atom->ntypes; j++)
        if (setflag[i][j] && is_coulomb(law[i][j])) return HISTORY_NEIGH;
  }
  return history_mode;    // (the store's, or the restart file's)
}

int PairGranularExact::store_width() const
{
  if (fix_compact) return fix_compact->nfixed;
  if (fix_neigh) return fix_neigh->get_dnum();
  return laws_store_width(wanted_history_mode());
}

// the style and arguments of the store of `mode` with `width` values per contact
std::string PairGranularExact::history_store(int mode, int width) const
{
  if (mode == HISTORY_COMPACT)
    return fmt::format("{} {} {}", store_style(mode), width, VERTEX_DOUBLES);
  return fmt::format("{} {}", store_style(mode), width);
}

// the store of `mode` with `width` values per contact, in the placeholder's place
Fix *PairGranularExact::make_history_store(int mode, int width)
{
  if (modify->get_fix_by_id(id_history + "_DUMMY") == nullptr)
    error->all(FLERR,
               "Pair granular/exact: its internal fix {}_DUMMY was deleted (unfix); it holds "
               "the place of the history fix; give 'pair_style none', then the pair style and "
               "its pair_coeff again",
               id_history);
  const std::string cmd = id_history + " all " + history_store(mode, width);
  Fix *fix = modify->replace_fix(id_history + "_DUMMY", cmd, 1);
  // (a store of the compact form may be one of LAMMPS' neighbour store's kind: the Kokkos one)
  fix_compact = dynamic_cast<FixContactHistoryExact *>(fix);
  fix_neigh = fix_compact ? nullptr : dynamic_cast<FixNeighHistoryExact *>(fix);
  if (fix_compact) {
    fix_compact->pair = this;
    fix_compact->client = this;
  } else if (fix_neigh) {
    fix_neigh->pair = this;
    fix_neigh->client = this;
  } else {
    error->all(FLERR, "Pair granular/exact could not create its history fix {}", id_history);
  }
  history_mode = mode;
  return fix;
}

// the store gives its place back to a placeholder (its contacts were taken first)
void PairGranularExact::remove_history_store()
{
  modify->replace_fix(id_history, id_history + "_DUMMY all DUMMY", 1);
  fix_neigh = nullptr;
  fix_compact = nullptr;
}

// the restart file's contacts, if the store just made was handed the file's data (on every
// process alike: LAMMPS hands them to the fix on each, also where it owns no atom); its totals
// of ended contacts and the laws of its contacts too. The contacts' width is the same on every
// process (a process whose atoms have no partner knows none).
bool PairGranularExact::take_restart_contacts(HeldContacts &held)
{
  Fix *store = fix_compact ? static_cast<Fix *>(fix_compact) : fix_neigh;
  EndedWork &work = fix_compact ? fix_compact->ended_work : fix_neigh->ended_work;
  if (fix_compact) fix_compact->take_restart_contacts(held);
  else fix_neigh->take_restart_contacts(held);
  const bool handed = store->restart_reset != 0;
  int width = held.width, widest = 0;
  MPI_Allreduce(&width, &widest, 1, MPI_INT, MPI_MAX, world);
  held.widen(widest);
  work.take(ended);    // totals of ended contacts from a restart file, if any
  // the laws the file's contacts were made with: the store's data say, or else (files of
  // restart format 7 and before) the laws this pair style read from the same file
  if (!work.file.laws.empty()) laws_of_history = work.file.laws;
  laws_from_file = handed;
  return handed;
}

void PairGranularExact::adopt_contacts(const HeldContacts &held)
{
  if (fix_compact) fix_compact->adopt_contacts(held);
  else fix_neigh->adopt_contacts(held);
}

/* ----------------------------------------------------------------------
   at each run's init: the store the laws need, with the contacts held before
------------------------------------------------------------------------- */

void PairGranularExact::create_history_fix()
{
  if (fix_neigh || fix_compact) {
    // (the pointer is compared, never followed: the fix may be gone)
    const Fix *made = fix_compact ? static_cast<Fix *>(fix_compact) : fix_neigh;
    if (modify->get_fix_by_id(id_history) != made)
      error->all(FLERR,
                 "Pair granular/exact: its internal fix {} was deleted (unfix) or replaced by a "
                 "fix of the input (the ID is reserved: give that fix another ID); it held every "
                 "contact's history, which is lost; to go on without histories, give "
                 "'pair_style none', then the pair style and its pair_coeff again",
                 id_history);
    const int mode = wanted_history_mode();
    const int width = laws_store_width(mode);
    if (mode == history_mode && width <= store_width() && store_is_wanted_kind()) return;
    // another store: the contacts go over as they are (carried to their laws at the setup)
    HeldContacts held;
    if (fix_compact) fix_compact->export_contacts(held);
    else fix_neigh->export_contacts(held);
    remove_history_store();
    make_history_store(mode, MAX(width, held.width));
    adopt_contacts(held);
    return;
  }
  if (const Fix *taken = modify->get_fix_by_id(id_history))
    error->all(FLERR,
               "Pair granular/exact: the fix ID {} is reserved for its contact histories, and "
               "the input defined fix {} ({}) with it: give that fix another ID",
               id_history, taken->id, taken->style);

  // The first store. A restart file's contacts reach only a store of the kind that wrote them:
  // that of the file's pair data where this pair style read them, else each kind in turn.
  const int mode = wanted_history_mode();
  const bool read_file = restart_format > 0;
  const int first = read_file ? history_mode : mode;
  const int file_width = restart_store_width > 0 ? restart_store_width
      : read_file                                ? laws_store_width(first, restart_format)
                                                 : laws_store_width(first);
  HeldContacts held;
  make_history_store(first, file_width);
  bool handed = take_restart_contacts(held);
  if (!handed && !read_file && modify->nfix_restart_peratom > 0) {
    remove_history_store();
    const int other = first == HISTORY_COMPACT ? HISTORY_NEIGH : HISTORY_COMPACT;
    make_history_store(other, laws_store_width(other));
    handed = take_restart_contacts(held);
  }
  if (!handed) {
    if (history_mode != mode || store_width() < laws_store_width(mode)) {
      remove_history_store();
      make_history_store(mode, laws_store_width(mode));
    }
    return;
  }
  const int width = MAX(laws_store_width(mode), held.width);
  if (history_mode != mode || store_width() < width) {
    remove_history_store();
    make_history_store(mode, width);
  }
  adopt_contacts(held);
}

/* ----------------------------------------------------------------------
   the laws of the stored contacts and the laws now
------------------------------------------------------------------------- */

// the law of type pair (i, j) as init_one() will have it (init_style() looks before it mixes)
ge::ContactLaw PairGranularExact::law_in_use(int i, int j) const
{
  if (setflag[i][j]) return law[i][j];
  return ContactLawWords(lmp).mix(law[i][i], law[j][j]);
}

// some type pair's contacts would be read by another law than the one that made them
bool PairGranularExact::laws_changed() const
{
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++) {
      if (!setflag[i][j] && !(setflag[i][i] && setflag[j][j])) continue;
      if (!laws_of_history.has(i, j)) return true;
      if (ge::state_kind(laws_of_history.law(i, j)) != ge::state_kind(law_in_use(i, j)))
        return true;
    }
  return false;
}

// the laws of this run (after init_one()) are those of the contacts stored from now on
void PairGranularExact::record_laws_of_history()
{
  const int ntypes = atom->ntypes;
  laws_of_history.reset(ntypes);
  for (int i = 1; i <= ntypes; i++)
    for (int j = i; j <= ntypes; j++)
      if (setflag[i][j] || (setflag[i][i] && setflag[j][j])) laws_of_history.set(i, j, law[i][j]);
  laws_recorded = true;
}

/* ----------------------------------------------------------------------
   every stored contact of a type pair whose law changed, carried over to its new law (at the
   first neighbour build of a run: the store has matched the contacts to the list)
------------------------------------------------------------------------- */

void PairGranularExact::contacts_matched()
{
  // (the time steps are checked once there are atoms: in a pour deck at a build during the run)
  if (!linear_time_step_checked || !hertz_time_step_checked) check_time_steps();
  if (laws_recorded) return;
  if (law_change_pending) {
    law_change_pending = false;
    const int ntypes = atom->ntypes;
    std::vector<double> counts((ntypes + 1) * (ntypes + 1) * LC_COUNTS, 0.0), all(counts.size());
    carry_contacts_to_their_laws(counts.data());
    MPI_Allreduce(counts.data(), all.data(), static_cast<int>(counts.size()), MPI_DOUBLE, MPI_SUM,
                  world);
    report_law_changes(all);
  }
  laws_from_file = false;
  record_laws_of_history();
}

void PairGranularExact::carry_contacts_to_their_laws(double *counts)
{
  for (int ii = 0; ii < list->inum; ii++) {
    const int i = list->ilist[ii];
    const int *jlist = list->firstneigh[i];
    for (int jj = 0; jj < list->numneigh[i]; jj++) {
      const int j = jlist[jj] & NEIGHMASK;
      if (!fix_compact) {
        if (!fix_neigh->firstflag[i][jj]) continue;
        const int dnum = fix_neigh->get_dnum();
        if (!carry_contact_to_its_law(i, j, &fix_neigh->firstvalue[i][dnum * jj], dnum, counts))
          fix_neigh->firstflag[i][jj] = 0;
        continue;
      }
      bigint *slot = &fix_compact->firstrecord[i][jj];
      if (*slot < 0) continue;
      const Law *from = nullptr;
      double *count = law_change_count(i, j, counts, from);
      if (count == nullptr) continue;
      ge::ContactBodies b = law_change_bodies(i, j);
      double old_state[STATE_ROOM] = {0.0}, new_state[STATE_ROOM] = {0.0};
      // (room for the vertex of a contact pressed for a Jaeger law)
      fix_compact->reserve(*slot, MAX(1, fix_compact->count(*slot)));
      for (int k = 0; k < fix_compact->nfixed; k++) old_state[k] = fix_compact->state(*slot)[k];
      ge::JaegerHistory history{reinterpret_cast<ge::JaegerVertex *>(fix_compact->items(*slot)),
                                fix_compact->count(*slot), fix_compact->room(*slot)};
      const bool lost = change_law(from, i, j, b, old_state, new_state, history, count);
      if (lost) fix_compact->release(*slot);
      else
        *slot = fix_compact->place_header(fix_compact->first_item(*slot), history.count,
                                          fix_compact->room(*slot), new_state);
    }
  }
}

bool PairGranularExact::carry_contact_to_its_law(int i, int j, double *values, int nvalues,
                                                 double *counts)
{
  const Law *from = nullptr;
  double *count = law_change_count(i, j, counts, from);
  if (count == nullptr) return true;
  const ge::ContactBodies b = law_change_bodies(i, j);
  double old_state[STATE_ROOM] = {0.0}, new_state[STATE_ROOM] = {0.0};
  for (int k = 0; k < nvalues; k++) old_state[k] = values[k];
  ge::JaegerVertex one_vertex[1];
  ge::JaegerHistory history{one_vertex, 0, 1};
  const bool lost = change_law(from, i, j, b, old_state, new_state, history, count);
  for (int k = 0; k < nvalues; k++) values[k] = lost ? 0.0 : new_state[k];
  return !lost;
}

// the counts of the type pair of the held contact (i, j), its weight counted as held; nullptr
// where its law keeps the same kind of state (kept as it is: counted so). `from`: the law that
// made it, nullptr where unknown.
double *PairGranularExact::law_change_count(int i, int j, double *counts, const Law *&from) const
{
  const int ntypes = atom->ntypes;
  const int *type = atom->type;
  const int ti = MIN(type[i], type[j]), tj = MAX(type[i], type[j]);
  double *count = counts + (ti * (ntypes + 1) + tj) * LC_COUNTS;
  const double weight = (force->newton_pair || j < atom->nlocal) ? 1.0 : 0.5;
  count[LC_HELD] += weight;
  from = laws_of_history.has(ti, tj) ? &laws_of_history.law(ti, tj) : nullptr;
  if (from && ge::state_kind(*from) == ge::state_kind(law[ti][tj])) {
    count[LC_KEPT] += weight;
    return nullptr;
  }
  return count;
}

// the bodies of contact (i, j) as its state sees them: from p, the atom with the lower tag
ge::ContactBodies PairGranularExact::law_change_bodies(int i, int j) const
{
  const bool i_is_p = atom->tag[i] < atom->tag[j];
  const int p = i_is_p ? i : j, q = i_is_p ? j : i;
  const Vec3 dx = ge::vec3(atom->x[p]) - ge::vec3(atom->x[q]);
  const Law &to = law[atom->type[i]][atom->type[j]];
  ge::ContactBodies b = bodies_of(p, q, dx, ge::dot(dx, dx), to, false);
  b.rbar = ge::effective_radius(atom->radius[p], atom->radius[q]);
  b.mbar = catalogue_mass(p, q);
  return b;
}

// the state of contact (i, j) made by `from` (nullptr: unknown) carried to its type pair's
// law, counted; true where the contact is lost
bool PairGranularExact::change_law(const Law *from, int i, int j, const ge::ContactBodies &b,
                                   const double *old_state, double *new_state,
                                   ge::JaegerHistory &history, double *count) const
{
  const double weight = (force->newton_pair || j < atom->nlocal) ? 1.0 : 0.5;
  const Law &to = law[atom->type[i]][atom->type[j]];
  ge::LawChangeResult r;
  if (from) {
    ge::change_contact_law(*from, to, b, old_state, new_state, history, r);
  } else {
    r.contact_lost = true;
    count[LC_DROPPED] += weight;
  }
  count[LC_CONVERTED] += from ? weight : 0.0;
  count[LC_BASE_KEPT] += r.base_kept ? weight : 0.0;
  count[LC_FORCE_CARRIED] += r.force_carried ? weight : 0.0;
  count[LC_CAPPED] += r.capped ? weight : 0.0;
  count[LC_FORCE_LOST] += r.force_lost ? weight : 0.0;
  count[LC_MOMENTS_KEPT] += r.moments_kept ? weight : 0.0;
  count[LC_MOMENTS_LOST] += r.moments_lost ? weight : 0.0;
  count[LC_CONTACT_LOST] += (from && r.contact_lost) ? weight : 0.0;
  return r.contact_lost;
}

// one warning per type pair whose contacts changed law (collective counts, said by process 0)
void PairGranularExact::report_law_changes(const std::vector<double> &counts) const
{
  if (comm->me != 0) return;
  const int ntypes = atom->ntypes;
  auto n = [](double x) { return static_cast<bigint>(std::llround(x)); };
  for (int i = 1; i <= ntypes; i++)
    for (int j = i; j <= ntypes; j++) {
      const double *c = counts.data() + (i * (ntypes + 1) + j) * LC_COUNTS;
      if (c[LC_HELD] == 0.0) continue;
      if (c[LC_KEPT] == c[LC_HELD]) {
        // (said where the laws were not this pair style's own: a restart file's)
        if (laws_from_file)
          utils::logmesg(lmp,
                         "Pair granular/exact: the {} stored contacts of types {} {} go on with "
                         "the histories of the restart file ('{}' made them, the law now keeps "
                         "the same state)\n",
                         n(c[LC_HELD]), i, j, ContactLawWords::describe(law[i][j]));
        continue;
      }
      const std::string now = ContactLawWords::describe(law[i][j]);
      if (c[LC_DROPPED] > 0.0) {
        error->warning(FLERR,
                       "Pair granular/exact: {} stored contacts of types {} {} lost their "
                       "history: the restart file does not say which law made them (its "
                       "history store predates the record of the laws), so they start anew "
                       "under '{}'",
                       n(c[LC_DROPPED]), i, j, now);
        continue;
      }
      const std::string before = ContactLawWords::describe(laws_of_history.law(i, j));
      std::string what =
          c[LC_BASE_KEPT] == c[LC_CONVERTED]
          ? std::string("kept with their state as it is, apart from the Yade moments")
          : fmt::format("recorded anew as '{}' records a contact pressed to its overlap", now);
      if (c[LC_FORCE_CARRIED] > 0.0)
        what += fmt::format(", {} keeping their tangential force ({} of them capped at the new "
                            "law's friction limit)",
                            n(c[LC_FORCE_CARRIED]), n(c[LC_CAPPED]));
      if (c[LC_FORCE_LOST] > 0.0)
        what += fmt::format(", {} losing it (the new law keeps no tangential force)",
                            n(c[LC_FORCE_LOST]));
      if (c[LC_MOMENTS_KEPT] > 0.0) what += ", their Yade relative rotation kept";
      if (c[LC_MOMENTS_LOST] > 0.0) what += ", their Yade relative rotation dropped";
      if (c[LC_CONTACT_LOST] > 0.0)
        what += fmt::format(", {} ended (the new law holds no contact where the surfaces are "
                            "apart)",
                            n(c[LC_CONTACT_LOST]));
      error->warning(FLERR,
                     "Pair granular/exact: the law of types {} {} changed from '{}' to '{}' while "
                     "{} contacts held a history: {}",
                     i, j, before, now, n(c[LC_HELD] - c[LC_KEPT]), what);
    }
}
