/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: fix wall/gran/exact/kk, the Kokkos form of fix
   wall/gran/exact (src/lammps/fix_wall_gran_exact.h): the same words, the
   same walls, the same restart data.

   In the execution space: planes (xplane, yplane, zplane) and the zcylinder,
   at rest, wiggled or sheared, with every law of fixed-size state (hooke +
   classic or refined, the catalogue with the Yade moments, JKR) and the
   Jaeger law of `capacity M` (its record in a row with room for M + 1
   vertices, the host fix's layout: count, state, vertices). Each sphere
   of the group is one thread: it finds its wall point (ge::touch_wall(),
   src/contact/wall_geometry.hpp, the host fix's own geometry) and advances
   its contact by ge::contact_step(), its history a row of a view that the
   atom sort and LAMMPS' Kokkos exchange move in the execution space
   (sort_kokkos, pack_exchange_kokkos, unpack_exchange_kokkos). The wall's
   totals and virial are reductions; its per-atom `contacts` array is copied
   to the host after each step (the one crossing a step makes, where it is
   asked for).

   Region walls of sphere, plane, block and cylinder regions, and cones from
   inside, closed and of constant shape, at rest or moved and rotated, with
   the laws of fixed-size state: their faces by ge::region_faces()
   (src/contact/region_geometry.hpp, LAMMPS' surfaces of these shapes written
   for the execution space), the shape read at init and the placement before
   each step (region_in_space.h); a row holds the slots' states, then the face
   each slot holds (the host fix's slot_wall rows point there).

   Other regions, a region with the Jaeger law, the Jaeger law without a
   capacity (records of any length) and `tangential coulomb` (solved by the
   pair's friction fix on the host) have no form here: such a wall runs as
   the host fix, and says so once with what that costs.

   Restart files are the host fix's under its style name, so a restart
   crosses between wall/gran/exact and wall/gran/exact/kk both ways.
------------------------------------------------------------------------- */

#ifndef GE_FIX_WALL_GRAN_EXACT_KOKKOS_H
#define GE_FIX_WALL_GRAN_EXACT_KOKKOS_H

#include "fix_wall_gran_exact.h"
#include "kokkos_base.h"
#include "kokkos_type.h"
#include "region_in_space.h"

#include <string>
#include <vector>

namespace LAMMPS_NS {

class FixWallGranExactKokkos : public FixWallGranExact, public KokkosBase {
 public:
  FixWallGranExactKokkos(class LAMMPS *, int, char **);
  ~FixWallGranExactKokkos() override;
  void post_constructor() override;
  void init() override;
  void setup(int) override;
  void post_force(int) override;
  void post_run() override;
  double memory_usage() override;

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
  void unpack_restart(int, int) override;
  int size_restart(int) override;
  int maxsize_restart() override;

  // (public: it launches a Kokkos kernel, which CUDA allows only in public member functions)
  void wall_contacts_in_space(bool advance, double *sums);

  typedef Kokkos::DualView<double **, Kokkos::LayoutRight, LMPDeviceType> dual_rows;

 private:
  // what keeps this wall on the host ("" where it runs in the execution space)
  std::string kept_on_host;
  bool in_space() const { return kept_on_host.empty(); }
  // per atom: the state of its wall contact (history_width doubles; the host fix's `history`
  // is the host copy's rows), this step's `contacts` output, its virial (per-atom virial only)
  dual_rows k_history, k_contacts, k_vatom;
  // doubles per row of k_history: the law's state, or for Jaeger's law the host fix's record
  // [count, state, vertices] with room for jaeger_room = M + 1 vertices
  int row_width = 0;
  int jaeger_room = 0;
  // a region wall (its shape and placement in ge::RegionWall): where a row's faces start, and
  // the host copy's rows at that place (the host fix's slot_wall)
  ge::RegionShape region_shape;
  int faces_at = 0;
  std::vector<double *> face_rows;
  ge::RegionWall region_now();
  void allocate_rows(int nmax);
  // the Jaeger rows on the host in the host fix's per-atom form, [size, record (size doubles)]
  // with the record's size 0 where the atom has no contact (what exchanges on the host and
  // restart files carry)
  int record_doubles(int i) const;
  int pack_record(int i, double *buf) const;
  int unpack_record(int i, const double *buf);
  void clear_row(int i);
  void widen_jaeger_rows(int room);
  bool widened_warned = false;
  Kokkos::DualView<double *, LMPDeviceType> k_clump_mass;    // rigid clumps' masses

  // What crossed between the execution space and the host in this run, said at its end
  struct Crossings {
    bigint steps = 0;
    bigint history_to_host = 0;    // the histories' host copy brought up to date
    bigint atom_syncs = 0;         // atom data this fix brought to the host (a run's setup)
    bigint contacts_out = 0;       // `contacts` arrays copied to the host
    bigint clump_masses = 0;       // rigid clumps' masses sent to the execution space
  } crossings;
  void sync_history_to_host();
  void modified_history_on_host();
  void upload_clump_masses();
};

}    // namespace LAMMPS_NS

#endif
