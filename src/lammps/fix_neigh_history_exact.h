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

   Its global restart data also carries the work totals of contacts that have
   ended (kept per process by the pair style): a fix writes its restart data on
   every process, so the totals can be summed there.

   fix ID all NEIGH_HISTORY/EXACT <values per contact> [<values per contact in
   the restart file>]: a file whose contacts keep fewer values (restart formats
   before 7: `tangential coulomb` kept 3 fewer) is read with the values it lacks
   zero (made by the pair style, which knows the file's width).
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
  void set_arrays(int) override;
  // contacts with a stored state held by the owned atoms (between runs: since post_run())
  bigint entries_held() const;
  void write_restart(FILE *) override;
  void restart(char *) override;
  void unpack_restart(int, int) override;

  EndedWork ended_work;
  // the pair style that made this store, for the work of dropped contacts (set by it)
  ContactHistoryClient *client = nullptr;

 private:
  int restart_dnum;    // values per contact in the restart file read (<= dnum)
};

}    // namespace LAMMPS_NS

#endif
#endif
