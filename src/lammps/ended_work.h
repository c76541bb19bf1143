/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: work of the contacts that have ended, and the rest of the
   history stores' global restart data.

   Pair granular/exact keeps, per process, the cumulative tangential work and
   dissipation of contacts that no longer exist. Its history fix saves them
   as its global restart data: a fix writes that on every process, so the
   per-process totals can be summed there (the pair's own restart section is
   written by process 0 alone). The same data say which store wrote the
   histories, how many values each contact keeps, and the law each type
   pair's contacts were made with (StoreRestartData, held_contacts.h).
------------------------------------------------------------------------- */

#ifndef GE_ENDED_WORK_H
#define GE_ENDED_WORK_H

#include "contact_history_client.h"
#include "held_contacts.h"

#include <mpi.h>

#include <cstdio>

namespace LAMMPS_NS {

struct EndedWork {
  double restored[2] = {0.0, 0.0};    // from a restart file: the sum, on process 0 only
  bool have_restored = false;
  StoreRestartData file;              // what the restart file's store data said

  // collective: the sum over processes of each process's totals (the client's [tangential
  // work, dissipation]; none without a client) and the store's description; process 0 writes
  // [size, values]
  static void write(FILE *fp, MPI_Comm world, int me, const ContactHistoryClient *client,
                    int store, int width)
  {
    double local[2] = {0.0, 0.0}, total[2];
    if (client) client->ended_work(local);
    MPI_Allreduce(local, total, 2, MPI_DOUBLE, MPI_SUM, world);
    if (me != 0) return;
    const std::vector<double> v = StoreRestartData::values(
        store, width, total, client ? client->history_laws() : HistoryProvenance());
    const int size = static_cast<int>(v.size() * sizeof(double));
    fwrite(&size, sizeof(int), 1, fp);
    fwrite(v.data(), sizeof(double), v.size(), fp);
  }

  // the sum goes to process 0 alone, so that sums over processes stay the totals
  void read(const char *buf, int me)
  {
    file = StoreRestartData();
    file.read(reinterpret_cast<const double *>(buf));
    restored[0] = me == 0 ? file.ended[0] : 0.0;
    restored[1] = me == 0 ? file.ended[1] : 0.0;
    have_restored = true;
  }

  // hand restored totals to the pair style (once)
  void take(double *totals)
  {
    if (!have_restored) return;
    totals[0] = restored[0];
    totals[1] = restored[1];
    have_restored = false;
  }
};

}    // namespace LAMMPS_NS

#endif
