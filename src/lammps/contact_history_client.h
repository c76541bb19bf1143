/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: what the history fixes need from the pair style that made
   them, beyond LAMMPS' Pair (its neighbour list): the work of the contacts a
   neighbour build drops. A neighbour build keeps only the pairs that touch,
   so a contact that ended since the last force evaluation is dropped before
   the force loop sees it end: the work the listed contacts hold before the
   build less what they hold after it is that of the dropped ones. And what
   the stores save and match on behalf of the laws: which law made the
   contacts (restart data), and the change of a contact's law.
------------------------------------------------------------------------- */

#ifndef GE_CONTACT_HISTORY_CLIENT_H
#define GE_CONTACT_HISTORY_CLIENT_H

namespace LAMMPS_NS {

class HistoryProvenance;

class ContactHistoryClient {
 public:
  // around a neighbour build: before it (the store's pre_exchange) and after it (the end of the
  // store's post_neighbor)
  virtual void work_before_build() = 0;
  virtual void work_after_build() = 0;
  // [tangential work, dissipation] of the contacts that ended on this process, for the
  // store's restart data
  virtual void ended_work(double work[2]) const = 0;
  // the law each type pair's stored contacts were made with, for the store's restart data
  virtual const HistoryProvenance &history_laws() const = 0;
  // at the end of each neighbour build, once the store has matched its contacts to the new
  // list: contacts whose law changed since they were stored are carried over to their new law
  virtual void contacts_matched() = 0;
  // at the end of each run (the store's post_run, once its own end-of-run work is done): a
  // client with something to say about the run says it here
  virtual void run_ended() {}

 protected:
  ~ContactHistoryClient() = default;    // (not deleted through this interface)
};

}    // namespace LAMMPS_NS

#endif
