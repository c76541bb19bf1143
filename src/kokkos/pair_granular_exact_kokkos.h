/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: pair style granular/exact/kk, the Kokkos variant of
   granular/exact (src/lammps/pair_granular_exact.h).

   The force loop runs in the Kokkos execution space (a GPU, or host threads)
   and calls the same entry point as the host style, ge::contact_step()
   (src/contact/contact_law.hpp), for every fixed-size law: hooke + classic or
   refined, the catalogue with Yade moments, and hertz + jaeger with a
   `capacity M` (a record of M + 1 vertices per contact). `tangential coulomb`
   contacts get their normal force there; their friction is solved under the
   host style's friction fix, which decides each step: on one process the
   whole friction step runs in this execution space over the slots
   (coulomb_friction_step_kokkos.cpp, attach_friction_offload()), else the
   force loop's contacts are handed to the fix (hand_contacts_to_friction()),
   which may still hand its Newton solve back to this space.

   Per-contact history lives in the execution space between neighbour-list
   builds, one block per neighbour slot, in the canonical orientation of the
   host style (seen from the atom with the lower ID, copied verbatim). The
   host style's history store (fix NEIGH_HISTORY/EXACT or
   CONTACT_HISTORY/EXACT) stays the one record of the histories: it carries
   them through neighbour builds, migration between processes and restart
   files. The device blocks are filled from it after each neighbour build
   (work_after_build()) and handed back to it before the next one
   (work_before_build()) and whenever host code reads a history (single(),
   a restart). So a restart written by the host style continues under /kk and
   the other way round, and both styles share every check of the host style.

   The neighbour list is LAMMPS's host half list with the size/history bits
   (as for the host style); each build is copied to the execution space once.
   A pair's forces reach both atoms: in place with one host thread (the host
   style's order), through per-thread copies with several, atomically on a GPU.
------------------------------------------------------------------------- */

#ifdef PAIR_CLASS
// clang-format off
PairStyle(granular/exact/kk,PairGranularExactKokkos<LMPDeviceType>);
PairStyle(granular/exact/kk/device,PairGranularExactKokkos<LMPDeviceType>);
PairStyle(granular/exact/kk/host,PairGranularExactKokkos<LMPHostType>);
// clang-format on
#else

#ifndef GE_PAIR_GRANULAR_EXACT_KOKKOS_H
#define GE_PAIR_GRANULAR_EXACT_KOKKOS_H

#include "coulomb_friction_offload.h"
#include "fix_neigh_history_exact_kokkos.h"
#include "kokkos_type.h"
#include "pair_granular_exact.h"

#include <memory>
#include <vector>

namespace LAMMPS_NS {

template <class DeviceType>
class PairGranularExactKokkos : public PairGranularExact, public HistorySlotsClient {
 public:
  typedef DeviceType device_type;
  typedef ArrayTypes<DeviceType> AT;

  PairGranularExactKokkos(class LAMMPS *);
  ~PairGranularExactKokkos() override;
  void compute(int, int) override;
  void init_style() override;
  double single(int, int, int, int, double, double, double, double &) override;
  void write_restart(FILE *) override;
  double memory_usage() override;

  // around a neighbour build (ContactHistoryClient): the histories go back to the host store
  // before it, and come from it after
  void work_before_build() override;
  void work_after_build() override;
  // the run's crossings, said at its end (the store's post_run)
  void run_ended() override;

  // the store in the execution space (FixNeighHistoryExactKokkos) reads and fills the slots
  HistorySlots history_slots() override;
  HistorySlots slots_of_new_list() override;
  // (public: they launch Kokkos lambdas, which CUDA allows only in public member functions)
  void listed_work_in_space(double sums[2]);
  double largest_new_overlap_in_space() const;
  void owned_atom_extremes(double local[4]) override;

  // the per-slot history blocks, in the execution space and mirrored on the host:
  // state(slot, k) the fixed part, count(slot) the Jaeger vertices held, items(slot, k) those
  // vertices (4 doubles each), touch(slot) 1 for a contact
  typedef Kokkos::DualView<double **, typename DeviceType::array_layout, DeviceType> dual_state;
  typedef Kokkos::DualView<double **, Kokkos::LayoutRight, DeviceType> dual_items;
  typedef Kokkos::DualView<int *, DeviceType> dual_int;

 protected:
  // the host list, flattened: slot offsets per list entry, and neighbours with their bits
  dual_int k_ilist, k_offset, k_neigh;
  dual_state k_state;
  dual_items k_items;
  dual_int k_count, k_touch;
  Kokkos::DualView<ge::ContactLaw **, Kokkos::LayoutRight, DeviceType> k_law;
  Kokkos::DualView<double *, DeviceType> k_mass_rigid;
  int nslots = 0;
  int nstate = 0;         // doubles of a fixed part
  int nitems = 0;         // doubles of the items of a slot: 4 (M + 1), M the largest capacity
  bool laws_current = false;      // k_law holds this run's laws
  bool device_current = false;    // the execution space holds the histories of the current list
  bool host_current = true;       // the host store holds them too

  // `tangential coulomb`: the friction fix (FixCoulombFrictionExact) runs on the host after the
  // pair. Where it does not run the step in this space (friction_step), its contacts are
  // handed to it, in the host style's order, each with a host copy of its slot's state (the fix
  // keeps pointers to them and writes the friction it solves into them); the copies go back to
  // the slots before the next force evaluation or whenever the histories are read
  // (download_history()).
  struct FrictionContact {
    int slot, i, j;
  };
  std::vector<FrictionContact> friction_contacts;
  std::vector<double> friction_states;    // STATE doubles per friction contact
  bool friction_states_out = false;       // the copies hold the slots' current states
  void hand_contacts_to_friction();
  void return_friction_states();
  // the friction fix's Newton solves, in this style's execution space where the problem is one
  // process's (FixCoulombFrictionExact::solve_newton_offloaded)
  std::unique_ptr<CoulombFrictionOffload> friction_offload;
  // the whole friction step in this execution space, over the slots (CoulombFrictionStep), where
  // the Newton solve is (the fix decides each step whether it runs there)
  std::unique_ptr<CoulombFrictionStep> friction_step;
  template <class> friend class CoulombFrictionStepKokkos;
  void attach_friction_offload();
  bool friction_solved_here() const;
  bool warned_friction_solver = false;
  void say_where_friction_is_solved();

  // What crossed between the execution space and the host in this run, per process (from the
  // run's init to its end): a history crossing costs a pass over every slot, an atom-data sync
  // a copy of per-atom arrays. Said by run_ended(), checked by the tests (a plain run copies
  // histories to the host only around neighbour builds).
  struct Crossings {
    bigint builds = 0;          // neighbour builds (the store's post_neighbor, setup's included)
    bigint uploads = 0;         // histories host store -> execution space
    bigint at_builds = 0;       // histories -> host store: before a build, at the run's end, for
                                // a restart file
    bigint host_reads = 0;      // ... for host code reading them (single(): compute pair/local)
    bigint friction = 0;        // slot states handed to the host friction fix
    bigint atom_syncs = 0;      // atom data this style brought to the host (once per step)
  } crossings;
  unsigned int atoms_synced = 0u;    // the atom data synced to the host since the last step
  enum HistoryReader { READ_AT_BUILD, READ_ON_HOST };
  void sync_atoms_to_host(unsigned int mask);

  // Where the neighbour list and the histories live this run (chosen at each run's init): in
  // the execution space (a Kokkos list, FixNeighHistoryExactKokkos), or the host list and the
  // host store, the slots filled from it after each build and handed back before the next one.
  bool in_space = false;
  std::string kept_on_host;    // why not in the execution space ("" where they are)
  std::string said_where;      // what the log said last
  const Fix *slots_store = nullptr;    // the store the slots were last filled from
  void choose_where_histories_live();
  // The atom IDs of the renumbering guard (PairGranularExact::check_atom_ids()): in the
  // execution space they are kept by the store there (its record), which the pair style fills
  // from the fix property/atom and deletes that fix; where the store there is made anew, its
  // record goes over in saved_record (per owned atom, on the host), to the new store or back to
  // a fix property/atom
  std::vector<double> saved_record;
  FixNeighHistoryExactKokkos *store_in_space() const;
  double *recorded_ids() override;
  void recorded_ids_changed() override;
  void remove_history_store() override;
  void create_atom_id_fix() override;
  void take_record_into_store();
  std::string history_store(int mode, int width) const override;
  int jaeger_vertex_room() const;
  bool store_is_wanted_kind() const override;
  void carry_contacts_to_their_laws(double *counts) override;
  bool carry_compact_contact_to_its_law(int i, int j, int slot, double *counts);
  // host reads of the slots in the execution space (single()): a host copy per force
  // evaluation, with each list atom's row
  bool host_slots_current = false;
  std::vector<int> row_of_atom;
  void copy_slots_to_host();
  int slot_of_pair(int i, int j) const;
  double single_in_space(int i, int j, int itype, int jtype, double rsq, double &fforce);

  void check_laws_run_here() const;
  void repair_bin_size();
  void upload_laws();
  void upload_history();
  void download_history(HistoryReader why);
  void flatten_list();
  void size_list_views(int inum);
  void size_slot_views();
  void listed_work(double sums[2]) override;
  void allocate_items(int slots);
  template <class F> void for_each_slot(F f) const;
  template <class F> void for_each_history_view(F f);
  int family = -1;    // the family of every type pair's law (ge::LawFamily), or -1: several
  template <int ADD, bool TALLY> void run_for_family(bool advance, double *sums);
  template <int ADD, bool TALLY, int FAMILY> void run_force_loop(bool advance, double *sums);
};

}    // namespace LAMMPS_NS

#endif
#endif
