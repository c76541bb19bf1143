/* ----------------------------------------------------------------------
   GRANULAR-EXACT: per-contact history of pair granular/exact (see header)
------------------------------------------------------------------------- */

#include "fix_neigh_history_exact.h"

#include "atom.h"
#include "comm.h"
#include "error.h"
#include "update.h"

using namespace LAMMPS_NS;

FixNeighHistoryExact::FixNeighHistoryExact(LAMMPS *lmp, int narg, char **arg) :
    FixNeighHistory(lmp, narg, arg)
{
}

// LAMMPS' fix NEIGH_HISTORY follows its pair style's pointer, which only the pair style sets
void FixNeighHistoryExact::init()
{
  if (pair == nullptr)
    error->all(FLERR, "Fix {} is internal to pair granular/exact: do not define it", style);
  FixNeighHistory::init();
}

// around a neighbour build: the work of the contacts it drops (ContactHistoryClient)
void FixNeighHistoryExact::pre_exchange()
{
  if (client) client->work_before_build();
  FixNeighHistory::pre_exchange();
}

void FixNeighHistoryExact::post_neighbor()
{
  FixNeighHistory::post_neighbor();
  if (client) client->work_after_build();
}

bigint FixNeighHistoryExact::entries_held() const
{
  bigint n = 0;
  for (int i = 0; i < atom->nlocal; i++) n += npartner[i];
  return n;
}

void FixNeighHistoryExact::write_restart(FILE *fp)
{
  // during a run (restart command) the neighbour list matches the atoms: copy the current
  // per-neighbour values; between runs post_run() has done it already
  if (update->whichflag != 0) pre_exchange();

  EndedWork::write(fp, world, comm->me, client);
}

void FixNeighHistoryExact::restart(char *buf)
{
  ended_work.read(buf, comm->me);
}
