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
   * pre_exchange() (before atoms migrate, and after every run) gives every
     record an entry in the per-atom "partner" blobs of both atoms: a
     reference to the record in the pool where the atom is owned here, the
     record itself for a ghost (its blob reaches its owner, maybe on another
     process, by reverse communication);
   * blobs migrate with their atoms and go into restart files, references
     written out as the records they refer to;
   * post_neighbor() rebuilds the pool, compacted, keyed by the partner's
     tag: from the previous pool (kept as it was) for references, from the
     blob for records.
   Restart records are checked as they are read (held_contacts.h) and kept
   aside as HeldContacts until the pair style hands them to the store it makes
   (this one, or another where the laws need it).
------------------------------------------------------------------------- */

#ifdef FIX_CLASS
// clang-format off
FixStyle(CONTACT_HISTORY/EXACT,FixContactHistoryExact);
// clang-format on
#else

#ifndef GE_FIX_CONTACT_HISTORY_EXACT_H
#define GE_FIX_CONTACT_HISTORY_EXACT_H

#include "contact_history_client.h"
#include "ended_work.h"
#include "fix.h"
#include "neigh_list.h"
#include "pair.h"

#include <cmath>

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
  void clear_partners(int);

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
  // between runs (the blobs are current): the contacts held, and contacts taken in (their
  // fixed values at most nfixed, the rest zero)
  void export_contacts(HeldContacts &out) const;
  void adopt_contacts(const HeldContacts &in);
  // the contacts of the restart file this store was handed, moved to `out` (false: none)
  bool take_restart_contacts(HeldContacts &out);
  // a per-atom restart record of this store's form, checked, appended to `from_file` (which
  // the first record of a file clears; `file_width`: the fixed values the file's store data
  // give, or 0)
  static void read_restart_record(class LAMMPS *lmp, const char *style, int nlocal, int nth,
                                  int nfixed, int nitem, int file_width, HeldContacts &from_file,
                                  bool &have_file_contacts);
  // contacts with a record held by the owned atoms (between runs: since post_run())
  bigint entries_held() const;
  bigint **firstrecord = nullptr;    // firstrecord[i][jj]: offset of the contact's record, or -1

  // Record layout: [items: count * nitem] [header] [fixed part: nfixed] [unused room]. A
  // contact's slot value is the offset of its header, which holds the count and the room (items
  // the record can hold) as count + room * 2^HEADER_SHIFT, an integer exact in a double. The
  // header and the fixed part follow the top item, so a step finds everything it reads at the
  // start in one block: a Jaeger step reads the state and the top two or three vertices, and
  // records of a list are kilobytes apart (with the room at the far end of the record, its load
  // missed the cache on nearly every step: in.bench_jaeger ran about 30 % slower).
  static constexpr int HEADER_SHIFT = 26;
  static constexpr int MAX_ROOM = (1 << HEADER_SHIFT) - 1;    // (count <= room fits the count bits)
  // (2^HEADER_SHIFT as a constant: std::ldexp is a library call, made for every contact's step)
  static constexpr double ROOM_SCALE = static_cast<double>(1LL << HEADER_SHIFT);
  static double header(int count, int room)
  {
    return static_cast<double>(count) + static_cast<double>(room) * ROOM_SCALE;
  }
  static int count_in(double header)
  {
    return static_cast<int>(static_cast<long long>(header) & ((1LL << HEADER_SHIFT) - 1));
  }
  int count(bigint slot) const { return count_in(pool[slot]); }
  int room(bigint slot) const
  {
    return static_cast<int>(static_cast<long long>(pool[slot]) >> HEADER_SHIFT);
  }
  // (the layout of a record in a pool `base`: this list's pool or the retired one)
  static const double *state_in(const double *base, bigint slot) { return base + slot + 1; }
  bigint first_item_in(const double *base, bigint slot) const
  {
    return slot - (bigint) nitem * count_in(base[slot]);
  }
  double *state(bigint slot) { return pool + slot + 1; }
  const double *state(bigint slot) const { return state_in(pool, slot); }
  // the count of the record whose fixed part is `state`
  static int count_of_state(const double *state) { return count_in(state[-1]); }
  bigint first_item(bigint slot) const { return first_item_in(pool, slot); }
  double *items(bigint slot) { return pool + first_item(slot); }
  const double *items(bigint slot) const { return pool + first_item(slot); }
  // A new record (fixed part zero, no items) with room for `room` items; returns its slot value.
  bigint create(int room);
  // Make sure the record in `slot` has room for `items` items, growing it to at most
  // `max_room`; it may move (slot is updated).
  void reserve(bigint &slot, int items, int max_room = MAXSMALLINT)
  {
    if (items > room(slot)) grow_record(slot, items, max_room);
  }
  // A record's fixed part from `from` to `to`. A fixed part of NFIXED doubles (the size a
  // caller's hot path has) is copied with a count known at compile time: with nfixed alone the
  // compiler calls memcpy, a library call for a few doubles on every contact's step.
  template <int NFIXED = 0> void copy_fixed(const double *from, double *to) const
  {
    if (NFIXED > 0 && nfixed == NFIXED)
      for (int k = 0; k < NFIXED; k++) to[k] = from[k];
    else
      for (int k = 0; k < nfixed; k++) to[k] = from[k];
  }
  // The record whose items start at `first`, with room for `room`, holds `n` of them now: write
  // the header and the fixed part after the top one (the caller keeps the fixed part while it
  // changes the items, since a push overwrites it). Returns the new slot value.
  template <int NFIXED = 0> bigint place_header(bigint first, int n, int room, const double *fixed)
  {
    const bigint slot = first + (bigint) nitem * n;
    pool[slot] = header(n, room);
    copy_fixed<NFIXED>(fixed, pool + slot + 1);
    return slot;
  }
  // Ask the memory system for a contact's record ahead of use: the lines from its third item
  // from the top to the end of its fixed part (a slip step walks down two segments, so it reads
  // the top three vertices; prefetching only two measured slower in bench/in.bench_jaeger).
  void prefetch(bigint slot) const
  {
    if (slot < 0) return;
    const bigint below = slot - 3 * nitem;    // (a young record has fewer items: stay in the pool)
    const double *last = pool + slot + nfixed;
    for (const double *p = pool + (below > 0 ? below : 0); p < last; p += 8) __builtin_prefetch(p);
    __builtin_prefetch(last);
  }
  void release(bigint &slot) { slot = -1; }    // the memory is reclaimed at the next rebuild

  int nfixed, nitem;
  EndedWork ended_work;
  // the pair style that made this store, for the work of dropped contacts (set by it)
  ContactHistoryClient *client = nullptr;

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

  // the pool of the previous neighbour list while post_neighbor() builds the new one from it
  double *retired = nullptr;
  bigint retired_size = 0;
  bool blobs_refer_to_pool = false;    // pre_exchange() has run since the last rebuild

  // per-atom partner blobs in `blob_pool`, entries of two kinds:
  //   a record:     [tag, count, fixed..., items...]   (count >= 0)
  //   a reference:  [tag, -1 - slot]                   (the record in `pool`)
  int *npartner = nullptr;          // entries in the blob
  bigint *blob_offset = nullptr;
  bigint *blob_length = nullptr;    // doubles in the blob
  bigint *blob_records = nullptr;   // doubles in the blob with its references written as records
  double *blob_pool = nullptr;
  bigint blob_size = 0, blob_used = 0;
  static constexpr int REFERENCE_DOUBLES = 2;
  static bool is_reference(const double *entry) { return entry[1] < 0.0; }
  static bigint referenced_slot(const double *entry) { return -1 - static_cast<bigint>(entry[1]); }
  int entry_length(const double *entry) const
  {
    return is_reference(entry) ? REFERENCE_DOUBLES : entry_doubles(static_cast<int>(entry[1]));
  }

  // the bit the size/history neighbour build sets on pairs that were touching (lmptype.h)
  static int touched_bit(int j) { return j >> HISTBITS & 1; }
  // [contacts, mean items, max items, bytes per contact] over all processes, see compute_vector()
  double stats[4] = {0.0, 0.0, 0.0, 0.0};
  bigint stats_step = -1;
  void gather_statistics();
  int record_doubles(int room) const { return 1 + nfixed + nitem * room; }
  void grow_record(bigint &slot, int items, int max_room);
  int entry_doubles(int items) const { return 2 + nfixed + nitem * items; }    // tag + count + ...
  bigint allocate_blob(bigint length);
  int write_entry(double *dst, double partner_tag, bigint slot) const;
  void append_entry(int atom, tagint partner_tag, bigint slot);
  void append_reference(int atom, tagint partner_tag, bigint slot);
  bigint rebuild_record(const double *entry);
  int write_records(int atom, double *buf) const;
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
  HeldContacts from_file;    // a restart file's records, checked (unpack_restart())
  bool have_file_contacts = false;
};

}    // namespace LAMMPS_NS

#endif
#endif
