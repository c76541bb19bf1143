/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: the neighbour history store of pair granular/exact/kk in
   the Kokkos execution space.

   The store of fix NEIGH_HISTORY/EXACT (src/lammps/fix_neigh_history_exact.h)
   kept where the force loop runs: each owned atom's touching contacts, as
   its partners' atom IDs and the contacts' states in the canonical
   orientation of the host style (seen from the atom with the lower ID,
   copied verbatim to both atoms of a pair, never negated). Atom IDs survive
   sorting and migration, so the partners are what travels with the atoms:
   LAMMPS' Kokkos exchange and atom sort move them in the execution space
   (pack_exchange_kokkos, unpack_exchange_kokkos, sort_kokkos), and the host
   forms (pack_exchange, copy_arrays, restart files) serve the runs where
   LAMMPS does that work on the host.

   Around each neighbour build the pair's slots (one per neighbour of its
   half list) and the partners trade places, in the execution space: before
   the build (pre_exchange) the touching slots become the two atoms'
   partners; after it (post_neighbor) each slot of the new list finds its
   state among its first atom's partners by the other's ID. Newton off: a
   pair with a ghost is listed on both processes, each of which keeps it for
   its own atom.

   The restart data are those of the host store, under its style name (a
   restart crosses between the host style and /kk both ways), and every
   check of the host store's reading applies.

   The store of the compact form (FixContactHistoryExactKokkos, for the
   Jaeger laws of `capacity M` and `history compact`) keeps with each partner
   its fixed part, the count of its items and room for M + 1 of them (the
   slots' layout), and writes the restart data of the host's compact store
   (CONTACT_HISTORY/EXACT, src/lammps/fix_contact_history_exact.h), each
   contact with the items it holds.

   fix ID all NEIGH_HISTORY/EXACT/KK <values per contact>   (made by the pair)
   fix ID all CONTACT_HISTORY/EXACT/KK <fixed values> <doubles per item> <items per contact>
------------------------------------------------------------------------- */

#ifndef GE_FIX_NEIGH_HISTORY_EXACT_KOKKOS_H
#define GE_FIX_NEIGH_HISTORY_EXACT_KOKKOS_H

#include "fix_neigh_history_exact.h"
#include "kokkos_base.h"
#include "kokkos_type.h"

namespace LAMMPS_NS {

// The slots of the pair's flattened half list, as the store fills and reads them: the list's
// atoms, the first slot of each (offset, inum + 1 entries), each slot's neighbour (with
// LAMMPS' bits), whether it holds a contact, and its state (at least `values` columns); for
// the compact form also the count of its items and the items (room for the store's)
struct HistorySlots {
  typedef LMPDeviceType device_type;
  Kokkos::View<const int *, LMPDeviceType> ilist, offset, neigh;
  Kokkos::View<int *, LMPDeviceType> touch;
  Kokkos::View<double **, LMPDeviceType::array_layout, LMPDeviceType> state;
  Kokkos::View<int *, LMPDeviceType> count;
  Kokkos::View<double **, Kokkos::LayoutRight, LMPDeviceType> items;
  int inum = 0;
};

// What a partner holds besides its fixed part (the compact form): items of `nitem` doubles,
// room for `room` of them, after their count
struct PartnerItems {
  int nitem = 0, room = 0;
  bool held() const { return nitem > 0; }
};

// What the store asks of the pair that made it
class HistorySlotsClient {
 public:
  // the slots of the current list (before a build)
  virtual HistorySlots history_slots() = 0;
  // the list just built, flattened into slots whose states the store is to fill
  virtual HistorySlots slots_of_new_list() = 0;

 protected:
  ~HistorySlotsClient() = default;
};

class FixNeighHistoryExactKokkos : public FixNeighHistoryExact, public KokkosBase {
 public:
  FixNeighHistoryExactKokkos(class LAMMPS *, int, char **);
  ~FixNeighHistoryExactKokkos() override;

  void init() override;
  void pre_exchange() override;
  void post_neighbor() override;

  void grow_arrays(int) override;
  void copy_arrays(int, int, int) override;
  void set_arrays(int) override;
  void sort_kokkos(Kokkos::BinSort<KeyViewType, BinOp> &sorter) override;
  int pack_exchange(int, double *) override;
  int unpack_exchange(int, double *) override;
  int pack_exchange_kokkos(const int &nsend, DAT::tdual_xfloat_2d &buf,
                           DAT::tdual_int_1d k_sendlist, DAT::tdual_int_1d k_copylist,
                           ExecutionSpace space) override;
  void unpack_exchange_kokkos(DAT::tdual_xfloat_2d &buf, DAT::tdual_int_1d &indices, int nrecv,
                              int nrecv1, int nextrarecv1, ExecutionSpace space) override;
  int pack_restart(int, double *) override;
  int size_restart(int) override;
  int maxsize_restart() override;
  double memory_usage() override;

  bigint entries_held() const override;
  void export_contacts(HeldContacts &out) const override;
  void adopt_contacts(const HeldContacts &in) override;

  HistorySlotsClient *slots_client = nullptr;    // the pair style that made this store

  // the compact form: items per partner (none for the neighbour form) and their room
  const PartnerItems &partner_items() const { return items; }
  int item_doubles() const { return items.nitem * items.room; }

  // Each atom's ID when its histories were last keyed (PairGranularExact::check_atom_ids()),
  // kept here, where it travels with the atom in the execution space, instead of in a fix
  // property/atom (LAMMPS' Kokkos form of which has no exchange or sort in the execution space,
  // and would send every atom's through the host). Valid once the pair style has filled it.
  // Not written to restart files (their format is the host store's).
  bool record_valid = false;
  double *recorded_ids_on_host();    // (the host copy, current)
  void recorded_ids_changed();       // ... written there

  // per owned atom: its partners' count, IDs and contact values (dnum per partner)
  typedef Kokkos::DualView<int *, LMPDeviceType> dual_count;
  typedef Kokkos::DualView<tagint **, LMPDeviceType::array_layout, LMPDeviceType> dual_partner;
  typedef Kokkos::DualView<double **, LMPDeviceType::array_layout, LMPDeviceType> dual_values;

 protected:
  // the form of the compact store (FixContactHistoryExactKokkos), its arguments after the first
  FixNeighHistoryExactKokkos(class LAMMPS *, char **, const PartnerItems &);
  PartnerItems items;
  // doubles per partner: its fixed part (dnum), then, in the compact form, its items' count
  // and room for them
  int width = 0;
  int count_column() const { return items.held() ? dnum : -1; }
  int held_item_doubles(int i, int p) const;    // (the host copies: current)
  void make_room_for_items(const HeldContacts &in);
  void reallocate_values(size_t atoms, size_t partners, bool keep);

  // (mutable: the const host readers bring the host copies up to date first)
  mutable Kokkos::DualView<double *, LMPDeviceType> k_recorded;
  mutable dual_count k_npartner;
  mutable dual_partner k_partner;
  mutable dual_values k_values;
  void sync_host() const;

 private:
  void construct();
  int pack_partners(int i, double *buf) const;
  void modified_host();
  void sync_device();
  void modified_device();
  void resize_partners(int most);
  void update_maxexchange();
  void store_slots_as_partners(const HistorySlots &slots);
  template <bool ATOMIC> void store_slots_as_partners(const HistorySlots &slots);
  void fill_slots_from_partners(const HistorySlots &slots);
};

// The compact form: the restart data of the host's compact store (every check of its reading
// applies), its style name, and contacts with their items
class FixContactHistoryExactKokkos : public FixNeighHistoryExactKokkos {
 public:
  FixContactHistoryExactKokkos(class LAMMPS *, int, char **);

  void write_restart(FILE *) override;
  int pack_restart(int, double *) override;
  void unpack_restart(int, int) override;
  int size_restart(int) override;
  int maxsize_restart() override;
};

}    // namespace LAMMPS_NS

#endif
