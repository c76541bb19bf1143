/* ----------------------------------------------------------------------
   GRANULAR-EXACT: per-contact history of pair granular/exact (see header)
------------------------------------------------------------------------- */

#include "fix_neigh_history_exact.h"

#include "atom.h"
#include "comm.h"
#include "error.h"
#include "my_page.h"
#include "recorded_atom_id.h"
#include "update.h"

using namespace LAMMPS_NS;

// (LAMMPS' fix takes exactly 4 arguments: the file's width, a fifth, is read here)
FixNeighHistoryExact::FixNeighHistoryExact(LAMMPS *lmp, int narg, char **arg) :
    FixNeighHistory(lmp, narg == 5 ? 4 : narg, arg), restart_dnum(dnum)
{
  if (narg == 5) restart_dnum = utils::inumeric(FLERR, arg[4], false, lmp);
  if (restart_dnum < 1 || restart_dnum > dnum)
    error->all(FLERR, "Fix {}: the restart file's values per contact ({}) must be 1 to {}", style,
               restart_dnum, dnum);
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

// an atom just created: no partners (LAMMPS' store), its ID recorded (recorded_atom_id.h)
void FixNeighHistoryExact::set_arrays(int i)
{
  FixNeighHistory::set_arrays(i);
  record_created_atom_id(atom, i);
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

// A file's contacts with restart_dnum values each (LAMMPS' layout: the atom's count of partners,
// then per partner its tag and values): the values this build keeps beyond them start at zero.
void FixNeighHistoryExact::unpack_restart(int nlocal, int nth)
{
  if (restart_dnum == dnum) {
    FixNeighHistory::unpack_restart(nlocal, nth);
    return;
  }
  if (ipage_atom == nullptr) allocate_pages();
  double **extra = atom->extra;
  int m = 0;
  for (int k = 0; k < nth; k++) m += static_cast<int>(extra[nlocal][m]);
  m++;
  npartner[nlocal] = static_cast<int>(extra[nlocal][m++]);
  maxpartner = MAX(maxpartner, npartner[nlocal]);
  partner[nlocal] = ipage_atom->get(npartner[nlocal]);
  valuepartner[nlocal] = dpage_atom->get(dnum * npartner[nlocal]);
  for (int n = 0; n < npartner[nlocal]; n++) {
    partner[nlocal][n] = static_cast<tagint>(ubuf(extra[nlocal][m++]).i);
    double *values = &valuepartner[nlocal][dnum * n];
    for (int k = 0; k < restart_dnum; k++) values[k] = extra[nlocal][m++];
    for (int k = restart_dnum; k < dnum; k++) values[k] = 0.0;
  }
}
