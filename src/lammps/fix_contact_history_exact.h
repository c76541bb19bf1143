/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: compact, variable-length per-contact history.

   Internal fix created by pair granular/exact for laws whose per-contact
   state grows (the Jäger equivalent load history). Each contact has one
   record: a fixed part of `nfixed` doubles and `count` items of `nitem`
   doubles; memory is proportional to the items actually held.

   Records are kept in the canonical orientation of the pair (seen from the
   atom with the lower tag), so both partners hold identical copies and no
   value is ever transformed.

   Life cycle (the same as LAMMPS' fix NEIGH_HISTORY, with variable sizes):
   * between neighbour-list builds a record lives in a pool and each
     neighbour slot holds its offset (-1: no contact); a record that needs
     more room moves to the end of the pool (offsets, never pointers, are
     kept, so growing the pool is safe);
   * pre_exchange() (before atoms migrate, and after every run) serialises
     every record into per-atom "partner" blobs of both atoms (a ghost's blob
     reaches its owner by reverse communication);
   * blobs migrate with their atoms and go into restart files;
   * post_neighbor() rebuilds the pool, compacted, from the blobs, keyed by
     the partner's tag.
------------------------------------------------------------------------- */

#ifdef FIX_CLASS
// clang-format off
FixStyle(CONTACT_HISTORY/EXACT,FixContactHistoryExact);
// clang-format on
#else

#ifndef GE_FIX_CONTACT_HISTORY_EXACT_H
#define GE_FIX_CONTACT_HISTORY_EXACT_H

#include "ended_work.h"
#include "fix.h"
#include "neigh_list.h"
#include "pair.h"

namespace LAMMPS_NS {

class FixContactHistoryExact : public Fix {
 public:
  FixContactHistoryExact(class LAMMPS *, int, char **);
  ~FixContactHistoryExact() override;
  int setmask() override;
  void init() override;
  void setup_post_neighbor() override;
  void pre_exchange() override;
  void min_pre_exchange() override;
  void post_neighbor() override;
  void min_post_neighbor() override;
  void post_run() override;
  void write_restart(FILE *) override;
  void restart(char *) override;

  double memory_usage() override;
  double compute_vector(int) override;
  void grow_arrays(int) override;
  void copy_arrays(int, int, int) override;
  void set_arrays(int) override;

  int pack_reverse_comm_size(int, int) override;
  int pack_reverse_comm(int, int, double *) override;
  void unpack_reverse_comm(int, int *, double *) override;
  int pack_exchange(int, double *) override;
  int unpack_exchange(int, double *) override;
  int pack_restart(int, double *) override;
  void unpack_restart(int, int) override;
  int size_restart(int) override;
  int maxsize_restart() override;

  // ---- interface for the pair style -------------------------------------------------------
  class Pair *pair = nullptr;
  bigint **firstrecord = nullptr;    // firstrecord[i][jj]: offset of the contact's record, or -1

  // Record layout: [0] count, [1] room (items), [2, 2+nfixed) fixed part, then room*nitem.
  double *record(bigint offset) { return pool + offset; }
  int count(bigint offset) const { return static_cast<int>(pool[offset]); }
  // A new record (fixed part zero, no items) with room for `room` items; returns its offset.
  bigint create(int room);
  // Make sure the record in `slot` has room for `items` items, growing it to at most
  // `max_room`; it may move (slot is updated).
  void reserve(bigint &slot, int items, int max_room = MAXSMALLINT);
  // Ask the memory system for the record of a slot and its top item ahead of use.
  void prefetch(bigint slot) const
  {
    if (slot < 0) return;
    const double *rec = pool + slot;
    __builtin_prefetch(rec);
    __builtin_prefetch(rec + 2 + nfixed + (bigint) nitem * (static_cast<int>(rec[0]) - 1));
  }
  void prefetch_header(bigint slot) const
  {
    if (slot >= 0) __builtin_prefetch(pool + slot);
  }
  void release(bigint &slot) { slot = -1; }    // the memory is reclaimed at the next rebuild

  int nfixed, nitem;
  EndedWork ended_work;

 protected:
  int newton_pair;
  int nlocal_neigh, nall_neigh;    // atom counts when the current list was built
  int commflag;

  // record pool of the current neighbour list
  double *pool = nullptr;
  bigint pool_size = 0, pool_used = 0;
  // neighbour-slot storage behind firstrecord
  bigint *slots = nullptr;
  bigint slots_size = 0;
  int maxatom_list = 0;

  // per-atom partner blobs: entries [tag, count, fixed..., items...] in `blob_pool`
  int *npartner = nullptr;       // entries in the blob
  bigint *blob_offset = nullptr;
  bigint *blob_length = nullptr;    // doubles in the blob
  double *blob_pool = nullptr;
  bigint blob_size = 0, blob_used = 0;

  // the bit the size/history neighbour build sets on pairs that were touching (lmptype.h)
  static int touched_bit(int j) { return j >> HISTBITS & 1; }
  // [contacts, mean items, max items, bytes per contact] over all processes, see compute_vector()
  double stats[4] = {0.0, 0.0, 0.0, 0.0};
  bigint stats_step = -1;
  void gather_statistics();
  int record_doubles(int room) const { return 2 + nfixed + nitem * room; }
  int entry_doubles(int items) const { return 2 + nfixed + nitem * items; }    // tag + count + ...
  bigint allocate_blob(bigint length);
  void append_entry(int atom, tagint partner_tag, const double *rec);
  // call f(i, j, offset) for every record of the current list
  template <class F> void for_each_record(F f) const
  {
    NeighList *list = pair->list;
    for (int ii = 0; ii < list->inum; ii++) {
      const int i = list->ilist[ii];
      const int *jlist = list->firstneigh[i];
      for (int jj = 0; jj < list->numneigh[i]; jj++)
        if (firstrecord[i][jj] >= 0) f(i, jlist[jj] & NEIGHMASK, firstrecord[i][jj]);
    }
  }
  void update_maxexchange();
};

}    // namespace LAMMPS_NS

#endif
#endif
