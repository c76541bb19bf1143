/* ----------------------------------------------------------------------
   GRANULAR-EXACT: per-contact history of pair granular/exact (see header)
------------------------------------------------------------------------- */

#include "fix_neigh_history_exact.h"

#include "comm.h"
#include "update.h"

using namespace LAMMPS_NS;

FixNeighHistoryExact::FixNeighHistoryExact(LAMMPS *lmp, int narg, char **arg) :
    FixNeighHistory(lmp, narg, arg)
{
}

void FixNeighHistoryExact::write_restart(FILE *fp)
{
  // during a run (restart command) the neighbour list matches the atoms: copy the current
  // per-neighbour values; between runs post_run() has done it already
  if (update->whichflag != 0) pre_exchange();

  double local[2] = {0.0, 0.0}, total[2];
  if (ended_totals) {
    local[0] = ended_totals[0];
    local[1] = ended_totals[1];
  }
  MPI_Allreduce(local, total, 2, MPI_DOUBLE, MPI_SUM, world);
  if (comm->me == 0) {
    int size = 2 * sizeof(double);
    fwrite(&size, sizeof(int), 1, fp);
    fwrite(total, sizeof(double), 2, fp);
  }
}

void FixNeighHistoryExact::restart(char *buf)
{
  // the sum of all processes is given to process 0 only, so that sums stay the totals
  const auto *values = reinterpret_cast<const double *>(buf);
  restored_totals[0] = comm->me == 0 ? values[0] : 0.0;
  restored_totals[1] = comm->me == 0 ? values[1] : 0.0;
  restored = true;
}
