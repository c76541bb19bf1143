/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: per-contact history of pair granular/exact.

   LAMMPS' fix NEIGH_HISTORY with one correction: its write_restart() copies
   the per-neighbour values into the per-atom partner arrays (pre_exchange())
   after write_restart's pbc()/exchange()/borders() have re-indexed the ghost
   atoms the neighbour list still refers to. When atoms had left the periodic
   box since the last neighbour build, values are then stored under the wrong
   partner (seen with LAMMPS' own pair granular too). Between runs the partner
   arrays are already current (post_run() refreshes them and exchange() carries
   them), so the copy is only made during a run, where the list is valid.

   Its global restart data also carry the work totals of contacts that have
   ended (kept per process by the pair style: a fix writes its restart data on
   every process, so the totals can be summed there), the values each contact
   keeps and the laws that made the contacts (ended_work.h).

   Restart records are read here, not by LAMMPS' fix: every count, length and
   ID is checked (held_contacts.h) and the record kept aside as HeldContacts,
   which the pair style hands to the store it makes (this one or another: it
   may need a wider state, or the compact store). The values per contact of a
   record follow from its length; a record with fewer values than the store
   keeps (restart formats before 7: `tangential coulomb` kept 3 fewer) is read
   with the values it lacks zero.

   fix ID all NEIGH_HISTORY/EXACT <values per contact>
------------------------------------------------------------------------- */

#ifdef FIX_CLASS
// clang-format off
FixStyle(NEIGH_HISTORY/EXACT,FixNeighHistoryExact);
// clang-format on
#else

#ifndef GE_FIX_NEIGH_HISTORY_EXACT_H
#define GE_FIX_NEIGH_HISTORY_EXACT_H

#include "contact_history_client.h"
#include "ended_work.h"
#include "fix_neigh_history.h"

namespace LAMMPS_NS {

class FixNeighHistoryExact : public FixNeighHistory {
 public:
  FixNeighHistoryExact(class LAMMPS *, int, char **);
  void init() override;
  void pre_exchange() override;
  void post_neighbor() override;
  void post_run() override;
  void set_arrays(int) override;
  // contacts with a stored state held by the owned atoms (between runs: since post_run())
  virtual bigint entries_held() const;
  void write_restart(FILE *) override;
  void restart(char *) override;
  void unpack_restart(int, int) override;

  // between runs (the partner arrays are current): the contacts held, and contacts taken in
  // (their fixed values at most get_dnum(), the rest zero; items are not kept here)
  virtual void export_contacts(HeldContacts &out) const;
  virtual void adopt_contacts(const HeldContacts &in);
  // the contacts of the restart file this store was handed, moved to `out` (false: none)
  bool take_restart_contacts(HeldContacts &out);

  EndedWork ended_work;
  // the pair style that made this store, for the work of dropped contacts (set by it)
  ContactHistoryClient *client = nullptr;

 protected:
  // a restart file's contacts, read (checked) until the pair style takes them
  HeldContacts from_file;
  bool have_file_contacts = false;
};

}    // namespace LAMMPS_NS

#endif
#endif
