/* ----------------------------------------------------------------------
   GRANULAR-EXACT: pair style granular/exact/kk (see the header)
------------------------------------------------------------------------- */

#include "pair_granular_exact_kokkos.h"

#include "atom_kokkos.h"
#include "atom_masks.h"
#include "comm.h"
#include "error.h"
#include "fix_contact_history_exact.h"
#include "fix_coulomb_friction_exact.h"
#include "fix_neigh_history_exact.h"
#include "force.h"
#include "kokkos.h"
#include "memory_kokkos.h"
#include "modify.h"
#include "neigh_list_kokkos.h"
#include "neigh_request.h"
#include "neighbor.h"
#include "update.h"
#include "utils.h"

#include "coulomb_friction_offload_kokkos.h"

#include "contact/contact_law.hpp"

#include <Kokkos_ScatterView.hpp>

#include <cmath>
#include <exception>
#include <type_traits>

using namespace LAMMPS_NS;
using ge::Vec3;

namespace {

// the sums of a force evaluation: [0..1] the work of the contacts that ended in it (every step),
// and on the steps with output [2..19] the pair's global vector (PairGranularExact::compute()),
// [20..25] the global virial (fewer sums on the other steps: fewer registers on a GPU)
constexpr int ENDED = 0;
constexpr int VECTOR = 2;
constexpr int NVECTOR = 18;
constexpr int VIRIAL = 20;
constexpr int NSUMS = 26;
constexpr int VERTEX_DOUBLES = int(sizeof(ge::JaegerVertex) / sizeof(double));
// doubles of a slot's fixed part: the largest state of any law (a store's may be fewer: the rest
// stays zero)
constexpr int STATE = ge::CONTACT_STATE_MAX;

/* ----------------------------------------------------------------------
   one force evaluation over the flattened half list: every contact is advanced by
   ge::contact_step() as the host style does (the law's body i is the atom with the lower ID,
   whose view the state is kept in), its forces added to both atoms (atomically where threads
   share atoms), its tallies summed
------------------------------------------------------------------------- */

// every law family in one kernel (type pairs of several families)
constexpr int ANY_FAMILY = -1;

// How a pair's forces reach its atoms (the pair of a half list is computed once, for both):
// PLAIN one host thread, in the host style's order; DUPLICATED several host threads, each into
// its own copy of the force arrays, summed after the loop (in thread order: a fixed order);
// ATOMIC a GPU, atomic additions. Measured on bench/in.bench_kokkos with 2 OpenMP threads (300
// steps, median of 3): duplicated 2.63 ms/step for classic and 3.71 for refined, atomic 4.23 and
// 5.00.
enum ForceAddition : int { ADD_PLAIN = 0, ADD_DUPLICATED = 1, ADD_ATOMIC = 2 };

template <class DeviceType, int ADD>
using ForceScatter = Kokkos::Experimental::ScatterView<
    F_FLOAT *[3], typename ArrayTypes<DeviceType>::t_f_array::array_layout, DeviceType,
    Kokkos::Experimental::ScatterSum,
    std::conditional_t<ADD == ADD_DUPLICATED, Kokkos::Experimental::ScatterDuplicated,
                       Kokkos::Experimental::ScatterNonDuplicated>,
    std::conditional_t<ADD == ADD_ATOMIC, Kokkos::Experimental::ScatterAtomic,
                       Kokkos::Experimental::ScatterNonAtomic>>;

template <class DeviceType, int ADD, bool TALLY, int FAMILY> struct ForceLoop {
  typedef DeviceType device_type;
  typedef ArrayTypes<DeviceType> AT;
  typedef double value_type[];
  static constexpr int COUNT = TALLY ? NSUMS : VECTOR;
  const int value_count = COUNT;

  typename AT::t_x_array_randomread x;
  typename AT::t_v_array_randomread v, omega;
  ForceScatter<DeviceType, ADD> f, torque;
  typename AT::t_int_1d_randomread type, mask;
  typename AT::t_tagint_1d_randomread tag;
  typename AT::t_float_1d_randomread rmass, radius;
  Kokkos::View<const double *, DeviceType> mass_rigid;    // empty without rigid bodies
  Kokkos::View<const int *, DeviceType> ilist, offset, neigh;
  Kokkos::View<int *, DeviceType> touch, count;
  Kokkos::View<double **, typename DeviceType::array_layout, DeviceType> state;
  Kokkos::View<double **, Kokkos::LayoutRight, DeviceType> items;
  Kokkos::View<const ge::ContactLaw **, Kokkos::LayoutRight, DeviceType> law;
  int nlocal, newton_pair, freeze_bit;
  double dt;
  bool advance, energies, virial;

  KOKKOS_INLINE_FUNCTION double body_mass(int i) const
  {
    return (mass_rigid.extent(0) > 0 && mass_rigid(i) > 0.0) ? mass_rigid(i) : rmass(i);
  }
  // the effective mass of the catalogue laws (PairGranularExact::catalogue_mass())
  KOKKOS_INLINE_FUNCTION double catalogue_mass(int i, int j) const
  {
    if (freeze_bit && (mask(i) & freeze_bit)) return body_mass(j);
    if (freeze_bit && (mask(j) & freeze_bit)) return body_mass(i);
    return ge::effective_mass(body_mass(i), body_mass(j));
  }
  // PairGranularExact::inverse_inertia(): 1/I for the Yade dashpots, 0 for a frozen atom
  KOKKOS_INLINE_FUNCTION double inverse_inertia(int i) const
  {
    if (freeze_bit && (mask(i) & freeze_bit)) return 0.0;
    return ge::sphere_inverse_inertia(rmass(i), radius(i));
  }
  // PairGranularExact::bodies_of(), from the views
  KOKKOS_INLINE_FUNCTION ge::ContactBodies bodies_of(int i, int j, const Vec3 &dx, double rsq,
                                                     const ge::ContactLaw &lw) const
  {
    ge::ContactBodies b;
    const double r = sqrt(rsq);
    b.normal = (1.0 / r) * dx;
    b.overlap = radius(i) + radius(j) - r;
    b.v_i = Vec3{v(i, 0), v(i, 1), v(i, 2)};
    b.v_j = Vec3{v(j, 0), v(j, 1), v(j, 2)};
    b.omega_i = Vec3{omega(i, 0), omega(i, 1), omega(i, 2)};
    b.omega_j = Vec3{omega(j, 0), omega(j, 1), omega(j, 2)};
    b.r_i = radius(i) - 0.5 * b.overlap;
    b.r_j = radius(j) - 0.5 * b.overlap;
    b.radius_i = radius(i);
    b.radius_j = radius(j);
    if (lw.tangential == ge::LAW_CATALOGUE || lw.tangential == ge::LAW_JAEGER)
      b.rbar = ge::effective_radius(radius(i), radius(j));
    if (lw.tangential == ge::LAW_CATALOGUE || lw.damping == ge::LAW_DAMPING_CATALOGUE)
      b.mbar = catalogue_mass(i, j);
    if (ge::has_moment_dashpots(lw)) {
      b.inv_inertia_i = inverse_inertia(i);
      b.inv_inertia_j = inverse_inertia(j);
    }
    b.dt = dt;
    b.advance = advance;
    b.energies = energies;
    return b;
  }

  // ge::goes_on_apart() for the contact in `slot`
  KOKKOS_INLINE_FUNCTION bool held_apart(int slot, const ge::ContactLaw &lw, double rsq,
                                         double radsum, int i, int j) const
  {
    return ge::goes_on_apart(lw, radsum - sqrt(rsq), ge::effective_radius(radius(i), radius(j)),
                             state(slot, ge::CS_NORMAL));
  }

  // an is_coulomb_normal_only() contact (PairGranularExact::coulomb_normal_contact()): its
  // normal force on i (along dx: no torque) from ge::coulomb_normal_step(); r gets F_n^c, the
  // energy and the sliding flag of the last friction solve
  KOKKOS_INLINE_FUNCTION Vec3 coulomb_normal_force(int i, int j, const Vec3 &dx, double rsq,
                                                   const ge::ContactLaw &lw, double *st,
                                                   ge::ContactResult &r) const
  {
    const double distance = sqrt(rsq);
    const Vec3 n = (1.0 / distance) * dx;
    const Vec3 v_i{v(i, 0), v(i, 1), v(i, 2)}, v_j{v(j, 0), v(j, 1), v(j, 2)};
    const ge::CatalogueNormalForce nf = ge::coulomb_normal_step(
        lw, n, radius(i) + radius(j) - distance, -ge::dot(v_i - v_j, n),
        ge::effective_radius(radius(i), radius(j)), catalogue_mass(i, j), st, advance);
    r.fn_cap = nf.F_cap;
    r.energy_n = nf.energy;
    r.sliding = st[ge::CS_TANGENTIAL + ge::TS_CF_SLIDING] != 0.0;
    return nf.F_applied * n;
  }

  // ge::contact_step(), or its family's step where the kernel runs one family
  KOKKOS_FORCEINLINE_FUNCTION static void step(const ge::ContactLaw &lw,
                                               const ge::ContactBodies &b, double *st,
                                               ge::JaegerHistory *h, ge::ContactResult &r)
  {
    if constexpr (FAMILY == ANY_FAMILY) ge::contact_step(lw, b, st, h, r);
    else ge::contact_step_in_family<FAMILY>(lw, b, st, h, r);
  }

  template <class Access> KOKKOS_INLINE_FUNCTION static void add(Access &a, int i, const Vec3 &w)
  {
    a(i, 0) += w.x;
    a(i, 1) += w.y;
    a(i, 2) += w.z;
  }

  // the work a linear contact's state holds (PairGranularExact::add_contact_work())
  KOKKOS_INLINE_FUNCTION static void add_work(const ge::ContactLaw &lw, const double *st,
                                              double weight, double *sums)
  {
    if (!ge::is_linear(lw)) return;
    sums[0] += weight * st[ge::H_WORK_T];
    sums[1] += weight * (st[ge::H_DISS_T] + st[ge::H_DISS_DAMP]);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const int ii, value_type sums) const
  {
    auto a_f = f.access();
    auto a_torque = torque.access();
    const int i = ilist(ii);
    for (int slot = offset(ii); slot < offset(ii + 1); slot++) {
      const int j = neigh(slot) & NEIGHMASK;
      const double weight = (newton_pair || j < nlocal) ? 1.0 : 0.5;
      const ge::ContactLaw &lw = law(type(i), type(j));
      const Vec3 dx{x(i, 0) - x(j, 0), x(i, 1) - x(j, 1), x(i, 2) - x(j, 2)};
      const double rsq = ge::dot(dx, dx);
      const double radsum = radius(i) + radius(j);

      // the state, entry by entry (in the layout of the execution space: coalesced on a GPU),
      // always STATE entries (a count known here: the copy is a few moves, not a library call)
      double st[STATE];
      // (a made JKR contact holds after its surfaces part, down to its break overlap)
      if (rsq >= radsum * radsum &&
          !(ge::holds_apart(lw) && touch(slot) && held_apart(slot, lw, rsq, radsum, i, j))) {
        if (touch(slot)) {
          // the contact ended: its work goes to the running totals, its state is forgotten
          for (int k = 0; k < STATE; k++) st[k] = state(slot, k);
          add_work(lw, st, weight, sums + ENDED);
          for (int k = 0; k < STATE; k++) state(slot, k) = 0.0;
          touch(slot) = 0;
          count(slot) = 0;
        }
        continue;
      }
      touch(slot) = 1;
      for (int k = 0; k < STATE; k++) st[k] = state(slot, k);

      const bool i_is_p = tag(i) < tag(j);
      ge::ContactResult r{};
      Vec3 on_i;
      // (the friction of `tangential coulomb` is solved after the pair, by the host's friction
      // fix: hand_contacts_to_friction())
      const bool normal_only = (FAMILY == ANY_FAMILY || FAMILY == ge::FAMILY_CATALOGUE) &&
          ge::is_coulomb_normal_only(lw);
      if (normal_only) {
        on_i = coulomb_normal_force(i, j, dx, rsq, lw, st, r);
      } else {
        const int p = i_is_p ? i : j, q = i_is_p ? j : i;
        const ge::ContactBodies b = bodies_of(p, q, i_is_p ? dx : -dx, rsq, lw);
        const bool jaeger =
            FAMILY == ANY_FAMILY ? lw.tangential == ge::LAW_JAEGER : FAMILY == ge::FAMILY_JAEGER;
        if (jaeger) {
          ge::JaegerHistory h{reinterpret_cast<ge::JaegerVertex *>(&items(slot, 0)), count(slot),
                              lw.jaeger.capacity + 1};
          step(lw, b, st, &h, r);
          count(slot) = h.count;
          if (TALLY && energies) {
            sums[VECTOR + 15] += weight * h.count;
            sums[VECTOR + 16] += weight;
          }
        } else {
          step(lw, b, st, nullptr, r);
        }
        on_i = i_is_p ? r.force_i : -r.force_i;
      }
      // F_n^c for the friction fix, as the host style's hand_to_friction() stores it
      if (ge::is_coulomb(lw)) st[ge::CS_TANGENTIAL + ge::TS_CF_FN] = r.fn_cap;
      for (int k = 0; k < STATE; k++) state(slot, k) = st[k];

      // forces and torques (PairGranularExact::apply_contact()), in the host style's order
      const bool on_j = newton_pair || j < nlocal;
      add(a_f, i, on_i);
      if (on_j) add(a_f, j, -on_i);
      if (!normal_only) {
        add(a_torque, i, i_is_p ? r.torque_i : r.torque_j);
        if (on_j) add(a_torque, j, i_is_p ? r.torque_j : r.torque_i);
      }
      if (!ge::is_zero(r.moment)) {
        // the Yade moment: -M on the law's i, +M on its j (added apart, as the host style does)
        const Vec3 moment_on_j = i_is_p ? r.moment : -r.moment;
        add(a_torque, i, -moment_on_j);
        if (on_j) add(a_torque, j, moment_on_j);
      }

      if (TALLY && virial) {
        sums[VIRIAL + 0] += weight * dx.x * on_i.x;
        sums[VIRIAL + 1] += weight * dx.y * on_i.y;
        sums[VIRIAL + 2] += weight * dx.z * on_i.z;
        sums[VIRIAL + 3] += weight * dx.x * on_i.y;
        sums[VIRIAL + 4] += weight * dx.x * on_i.z;
        sums[VIRIAL + 5] += weight * dx.y * on_i.z;
      }
      if (TALLY && energies) {
        // PairGranularExact::tally_contact()
        double *vec = sums + VECTOR;
        vec[0] += weight * r.energy_n;
        vec[1] += weight * r.energy_t;
        add_work(lw, st, weight, vec + 2);
        vec[4] += weight;
        vec[5] += weight * (r.sliding ? 1.0 : 0.0);
        const double l[3] = {dx.x, dx.y, dx.z}, fv[3] = {on_i.x, on_i.y, on_i.z};
        for (int a = 0; a < 3; a++)
          for (int c = 0; c < 3; c++) vec[6 + 3 * a + c] += weight * l[a] * fv[c];
        vec[17] += weight * r.energy_moment;
      }
    }
  }

  KOKKOS_INLINE_FUNCTION void init(value_type sums) const
  {
    for (int k = 0; k < COUNT; k++) sums[k] = 0.0;
  }
  KOKKOS_INLINE_FUNCTION void join(value_type dst, const value_type src) const
  {
    for (int k = 0; k < COUNT; k++) dst[k] += src[k];
  }
};

}    // namespace

/* ---------------------------------------------------------------------- */

template <class DeviceType>
PairGranularExactKokkos<DeviceType>::PairGranularExactKokkos(LAMMPS *lmp) : PairGranularExact(lmp)
{
  kokkosable = 1;
  atomKK = (AtomKokkos *) atom;
  execution_space = ExecutionSpaceFromDevice<DeviceType>::space;
  datamask_read = X_MASK | V_MASK | OMEGA_MASK | F_MASK | TORQUE_MASK | TYPE_MASK | MASK_MASK |
      TAG_MASK | RMASS_MASK | RADIUS_MASK;
  datamask_modify = F_MASK | TORQUE_MASK;
}

template <class DeviceType> PairGranularExactKokkos<DeviceType>::~PairGranularExactKokkos()
{
  if (copymode) return;
  // (the host style's destructor deletes the fix; it must not call the solver on its way)
  if (friction_offload && modify) {
    auto *fix = dynamic_cast<FixCoulombFrictionExact *>(modify->get_fix_by_id(id_friction));
    if (fix) {
      fix->attach_offload(nullptr);
      fix->attach_step(nullptr);
    }
  }
}

/* ----------------------------------------------------------------------
   the host style's set-up and checks, then what only the host style can do
------------------------------------------------------------------------- */

template <class DeviceType> void PairGranularExactKokkos<DeviceType>::init_style()
{
  choose_where_histories_live();    // (before the host style's init makes the store)
  PairGranularExact::init_style();
  laws_current = false;    // (the mixed laws are made by init_one(), after this)
  // (the slots in the execution space are the store's current ones unless it was made anew:
  // a run with 'pre no' goes on with them)
  if (!in_space || slots_store != fix_neigh) device_current = false;
  if (in_space) {
    auto *store = dynamic_cast<FixNeighHistoryExactKokkos *>(fix_neigh);
    if (store == nullptr)
      error->all(FLERR, "Pair granular/exact/kk: its history store in the execution space is "
                        "missing");
    store->slots_client = this;
    nitems = store->item_doubles();    // (the slots of the setup's build hold the store's items)
    take_record_into_store();
  }
  auto request = neighbor->find_request(this);
  request->set_kokkos_device(in_space ? 1 : 0);
  request->set_kokkos_host(0);
  crossings = Crossings();    // (counted per run)
  repair_bin_size();
  attach_friction_offload();
  say_where_friction_is_solved();
}

/* ----------------------------------------------------------------------
   Where the neighbour list and the histories live this run. In the execution space wherever
   the store in the execution space covers the run (FixNeighHistoryExactKokkos): Kokkos' default
   execution space (granular/exact/kk, /kk/device), newton off (a pair with a ghost is then
   listed, and its history kept, on both processes), and the laws of the neighbour store but
   `tangential coulomb` (its friction fix reads the host store). Else the host list and the
   host store, as before. Said in the log when it changes.
------------------------------------------------------------------------- */

template <class DeviceType> void PairGranularExactKokkos<DeviceType>::choose_where_histories_live()
{
  bool coulomb = false;
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++)
      coulomb = coulomb || (setflag[i][j] && ge::is_coulomb(law[i][j])) ||
          (!setflag[i][j] && setflag[i][i] && setflag[j][j] &&
           (ge::is_coulomb(law[i][i]) || ge::is_coulomb(law[j][j])));
  if (!std::is_same<DeviceType, LMPDeviceType>::value)
    kept_on_host = "granular/exact/kk/host runs in the host space of a GPU build";
  else if (force->newton_pair)
    kept_on_host = "newton on: give 'newton off' (the default of KOKKOS on a GPU)";
  else if (coulomb)
    kept_on_host = "the friction fix of 'tangential coulomb' reads the host store";
  else
    kept_on_host.clear();
  in_space = kept_on_host.empty();
  const std::string where = in_space
      ? std::string("the neighbour list and the contact histories stay in the execution space")
      : "the neighbour list is built on the host and the contact histories are kept there "
        "between neighbour builds (" + kept_on_host + ")";
  if (where != said_where && comm->me == 0)
    utils::logmesg(lmp, "Pair granular/exact/kk: {}\n", where);
  said_where = where;
}

/* ----------------------------------------------------------------------
   the renumbering guard's record of atom IDs, in the execution space with the store there
------------------------------------------------------------------------- */

template <class DeviceType>
FixNeighHistoryExactKokkos *PairGranularExactKokkos<DeviceType>::store_in_space() const
{
  return dynamic_cast<FixNeighHistoryExactKokkos *>(static_cast<Fix *>(fix_neigh));
}

template <class DeviceType> double *PairGranularExactKokkos<DeviceType>::recorded_ids()
{
  if (!saved_record.empty()) return saved_record.data();
  FixNeighHistoryExactKokkos *store = store_in_space();
  if (store && store->record_valid) return store->recorded_ids_on_host();
  return PairGranularExact::recorded_ids();
}

template <class DeviceType> void PairGranularExactKokkos<DeviceType>::recorded_ids_changed()
{
  FixNeighHistoryExactKokkos *store = store_in_space();
  if (saved_record.empty() && store && store->record_valid) store->recorded_ids_changed();
}

// a store in the execution space that goes keeps its record here until the next one takes it
template <class DeviceType> void PairGranularExactKokkos<DeviceType>::remove_history_store()
{
  FixNeighHistoryExactKokkos *store = store_in_space();
  if (store && store->record_valid) {
    const double *record = store->recorded_ids_on_host();
    saved_record.assign(record, record + atom->nlocal);
    saved_record.resize(MAX(atom->nlocal, 1), 0.0);    // (never empty while it holds one)
  }
  PairGranularExact::remove_history_store();
}

// back on the host after a run in the execution space: the record goes into a fix property/atom
template <class DeviceType> void PairGranularExactKokkos<DeviceType>::create_atom_id_fix()
{
  if (in_space || saved_record.empty()) {
    PairGranularExact::create_atom_id_fix();
    return;
  }
  atom_ids_made = false;
  PairGranularExact::create_atom_id_fix();
  double *was = recorded_atom_ids(atom);
  for (int i = 0; i < atom->nlocal; i++) was[i] = saved_record[i];
  saved_record.clear();
  atom_ids_recorded = true;
}

// after the host style's init (its check of the record done): the store in the execution space
// takes the record, from a store it replaced or from the fix property/atom, which goes
template <class DeviceType> void PairGranularExactKokkos<DeviceType>::take_record_into_store()
{
  FixNeighHistoryExactKokkos *store = store_in_space();
  if (!store->record_valid) {
    const double *from = saved_record.empty() ? recorded_atom_ids(atom) : saved_record.data();
    double *to = store->recorded_ids_on_host();
    for (int i = 0; i < atom->nlocal; i++)
      to[i] = from ? from[i] : static_cast<double>(atom->tag[i]);
    store->recorded_ids_changed();
    store->record_valid = true;
  }
  saved_record.clear();
  if (modify->get_fix_by_id(id_atom_ids)) modify->delete_fix(id_atom_ids);
}

// In the execution space the compact form keeps room for the most vertices a law holds
template <class DeviceType>
std::string PairGranularExactKokkos<DeviceType>::history_store(int mode, int width) const
{
  if (!in_space) return PairGranularExact::history_store(mode, width);
  // (a store made anew keeps the room of the one it replaces: its contacts' vertices go over
  // to their laws at the first build)
  const FixNeighHistoryExactKokkos *store = store_in_space();
  const int kept = store ? store->partner_items().room : 0;
  if (mode == HISTORY_COMPACT)
    return fmt::format("CONTACT_HISTORY/EXACT/KK {} {} {}", width, VERTEX_DOUBLES,
                       MAX(jaeger_vertex_room(), kept));
  return fmt::format("NEIGH_HISTORY/EXACT/KK {}", width);
}

// the vertices a slot has room for: M + 1 of the largest `capacity M` of the type pairs' laws
template <class DeviceType> int PairGranularExactKokkos<DeviceType>::jaeger_vertex_room() const
{
  int room = 0;
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++) {
      if (!setflag[i][j] && !(setflag[i][i] && setflag[j][j])) continue;
      const Law lw = law_in_use(i, j);
      if (lw.tangential == TANGENTIAL_JAEGER) room = MAX(room, lw.jaeger.capacity + 1);
    }
  return room;
}

template <class DeviceType> bool PairGranularExactKokkos<DeviceType>::store_is_wanted_kind() const
{
  const FixNeighHistoryExactKokkos *store = store_in_space();
  if (fix_compact || store == nullptr) return !in_space;
  return in_space &&
      (!store->partner_items().held() || store->partner_items().room >= jaeger_vertex_room());
}

/* ----------------------------------------------------------------------
   `tangential coulomb`: the friction fix hands its Newton solves to this style's execution
   space where its problem is one process's (one process: the whole problem), and solves the
   others itself
------------------------------------------------------------------------- */

template <class DeviceType> void PairGranularExactKokkos<DeviceType>::attach_friction_offload()
{
  if (!friction) return;
  if (friction_solved_here() && !friction_offload) {
    friction_offload = make_coulomb_friction_offload<DeviceType>();
    friction_step = make_coulomb_friction_step<DeviceType>(this);
  }
  friction->attach_offload(friction_solved_here() ? friction_offload.get() : nullptr);
  friction->attach_step(friction_solved_here() ? friction_step.get() : nullptr);
}

// On one host thread the fix's own loops are the faster form of the same solve (measured: 1.4
// times; bench/README.md, "Newton in the execution space"), and the host style's to the bit
template <class DeviceType> bool PairGranularExactKokkos<DeviceType>::friction_solved_here() const
{
  using Space = typename DeviceType::execution_space;
  return !std::is_same<typename Space::memory_space, Kokkos::HostSpace>::value ||
      Space().concurrency() > 1;
}

// where the friction is solved, said once: in the execution space (solver newton, one
// process), else a warning that it is solved on the host, by one core per process, and that
// this solve is most of a step
template <class DeviceType> void PairGranularExactKokkos<DeviceType>::say_where_friction_is_solved()
{
  ge::CoulombSolverSettings settings;
  if (warned_friction_solver || !coulomb_settings(settings)) return;
  warned_friction_solver = true;
  if (comm->me != 0) return;
  const bool newton = settings.solver == ge::CoulombSolver::Newton;
  if (newton && comm->nprocs == 1 && friction_offload) {
    utils::logmesg(lmp,
                   "Pair granular/exact/kk: the friction of 'tangential coulomb' (solver newton) "
                   "is solved in {}, by the parallel form of the host style's solver, its Krylov "
                   "iterations preconditioned by {}{} (it stops at another iterate within tol "
                   "than pair granular/exact)\n",
                   friction_offload->where(),
                   friction_offload->preconditioned_by(friction->space_asked().preconditioner),
                   friction->space_asked().graphs ? ", its iterations run as Kokkos graphs" : "");
    return;
  }
  const char *why = !newton             ? "solver gs and apgd run on the host"
      : comm->nprocs > 1               ? "several processes"
                                       : "one host thread, where the host style's loops are faster";
  error->warning(FLERR,
                 "Pair granular/exact/kk: the friction of 'tangential coulomb' is solved on the "
                 "host, by one core per process, after the force loop ({}); the solve is most of "
                 "a step, so expect about the speed of pair granular/exact (solver newton on one "
                 "process is solved in the execution space; figures in the package's "
                 "bench/README.md)",
                 why);
}

/* ----------------------------------------------------------------------
   LAMMPS' KOKKOS package fixes the neighbour bin size of a GPU run once, at the first init
   (NeighborKokkos::set_binsize_kokkos: the neighbour cutoff, with the user's flag set). A
   command that initialises LAMMPS before any pair style exists (reset_atoms id, velocity ...
   loop geom, some set keywords) fixes it at a cutoff of 0, and the bins are then the box for the
   whole run: every neighbour build compares all pairs of atoms. neigh_modify binsize sets a size
   > 0 or clears the flag, so a set flag with no size is only ever that; cleared here (the pair's
   init comes before the neighbour's), the neighbour's init sizes the bins from the cutoff again.
------------------------------------------------------------------------- */

template <class DeviceType> void PairGranularExactKokkos<DeviceType>::repair_bin_size()
{
  if (!neighbor->binsizeflag || neighbor->binsize_user > 0.0) return;
  neighbor->binsizeflag = 0;
  if (comm->me == 0)
    error->warning(FLERR,
                   "Pair granular/exact/kk: the neighbour bins were fixed at the size of the box "
                   "(every neighbour build would compare all pairs of atoms) by an init before "
                   "any pair style was defined (KOKKOS on a GPU, after e.g. reset_atoms id or "
                   "velocity ... loop geom); they are sized from the neighbour cutoff again. "
                   "LAMMPS' own KOKKOS pair styles need 'neigh_modify binsize <cutoff>' in such "
                   "decks");
}

// laws whose step is not a fixed-size kernel stop with the alternative
template <class DeviceType> void PairGranularExactKokkos<DeviceType>::check_laws_run_here() const
{
  const int n = atom->ntypes;
  for (int i = 1; i <= n; i++)
    for (int j = i; j <= n; j++) {
      const Law &lw = law[i][j];
      if (lw.tangential == TANGENTIAL_JAEGER && lw.jaeger.capacity <= 0)
        error->all(FLERR,
                   "Pair granular/exact/kk: 'tangential jaeger' without 'capacity M' (types {} "
                   "{}) keeps a history of any length, which runs on the host only: give "
                   "'capacity M' (e.g. capacity 16: a fixed record of M + 1 vertices per "
                   "contact) or use pair style granular/exact",
                   i, j);
    }
}

// the type pairs' laws, mixed ones included (at the first force evaluation of a run: init_one()
// has made them)
template <class DeviceType> void PairGranularExactKokkos<DeviceType>::upload_laws()
{
  check_laws_run_here();
  const int n = atom->ntypes;
  k_law = decltype(k_law)("granular/exact/kk:law", n + 1, n + 1);
  int largest_capacity = 0;
  family = ge::family_of(law[1][1]);
  for (int i = 1; i <= n; i++)
    for (int j = 1; j <= n; j++) {
      k_law.h_view(i, j) = law[i][j];
      if (ge::family_of(law[i][j]) != family) family = ANY_FAMILY;
      if (law[i][j].tangential == TANGENTIAL_JAEGER)
        largest_capacity = MAX(largest_capacity, law[i][j].jaeger.capacity);
    }
  k_law.modify_host();
  k_law.template sync<DeviceType>();
  nstate = fix_compact ? fix_compact->nfixed : fix_neigh->get_dnum();
  nitems = any_law(TANGENTIAL_JAEGER) ? VERTEX_DOUBLES * (largest_capacity + 1) : 0;
  if (in_space) nitems = store_in_space()->item_doubles();    // (the same: the store's room)
  laws_current = true;
}

/* ----------------------------------------------------------------------
   f(i, jj, slot) for every neighbour (i, jj) of the list, in slot order; and f(view) for every
   view of the slots' histories (the items only with Jaeger laws)
------------------------------------------------------------------------- */

template <class DeviceType>
template <class F>
void PairGranularExactKokkos<DeviceType>::for_each_slot(F f) const
{
  int slot = 0;
  for (int ii = 0; ii < list->inum; ii++) {
    const int i = list->ilist[ii];
    for (int jj = 0; jj < list->numneigh[i]; jj++) f(i, jj, slot++);
  }
}

template <class DeviceType>
template <class F>
void PairGranularExactKokkos<DeviceType>::for_each_history_view(F f)
{
  f(k_state);
  f(k_touch);
  f(k_count);
  if (nitems > 0) f(k_items);
}

/* ----------------------------------------------------------------------
   the neighbour list of the last build, flattened into slots
------------------------------------------------------------------------- */

// room for the list's `inum` atoms (their rows' first slots: inum + 1), and for `nslots` slots
// (their contents are the next fill's)
template <class DeviceType> void PairGranularExactKokkos<DeviceType>::size_list_views(int inum)
{
  if ((int) k_ilist.extent(0) >= inum + 1) return;
  k_ilist = dual_int("granular/exact/kk:ilist", inum + inum / 4 + 16);
  k_offset = dual_int("granular/exact/kk:offset", inum + inum / 4 + 16);
}

template <class DeviceType> void PairGranularExactKokkos<DeviceType>::size_slot_views()
{
  if ((int) k_neigh.extent(0) >= nslots && (int) k_items.extent(1) == MAX(nitems, 1)) return;
  const int room = nslots + nslots / 4 + 16;
  k_neigh = dual_int("granular/exact/kk:neigh", room);
  k_touch = dual_int("granular/exact/kk:touch", room);
  k_count = dual_int("granular/exact/kk:count", room);
  k_state = dual_state("granular/exact/kk:state", room, STATE);
  allocate_items(nitems > 0 ? room : 1);
}

template <class DeviceType> void PairGranularExactKokkos<DeviceType>::flatten_list()
{
  const int inum = list->inum;
  size_list_views(inum);
  nslots = 0;
  for (int ii = 0; ii < inum; ii++) nslots += list->numneigh[list->ilist[ii]];
  size_slot_views();
  auto ilist = k_ilist.h_view;
  auto offset = k_offset.h_view;
  auto neigh = k_neigh.h_view;
  offset(0) = 0;
  for (int ii = 0; ii < inum; ii++) {
    ilist(ii) = list->ilist[ii];
    offset(ii + 1) = offset(ii) + list->numneigh[ilist(ii)];
  }
  for_each_slot([&](int i, int jj, int slot) { neigh(slot) = list->firstneigh[i][jj]; });
  for (auto *dv : {&k_ilist, &k_offset, &k_neigh}) {
    dv->modify_host();
    dv->template sync<DeviceType>();
  }
}

// The Jaeger vertices of `capacity M` keep M + 1 vertices in every neighbour slot: a large M
// asks for more than the execution space has, which Kokkos reports without naming M (sizes in
// 64 bits: M + 1 vertices of a slot reach 2^28 doubles at the largest M)
template <class DeviceType> void PairGranularExactKokkos<DeviceType>::allocate_items(int slots)
{
  const int per_slot = MAX(nitems, 1);
  try {
    k_items = dual_items("granular/exact/kk:items", slots, per_slot);
  } catch (const std::exception &e) {
    const double bytes = double(slots) * double(per_slot) * sizeof(double);
    error->one(FLERR,
               "Pair granular/exact/kk: 'tangential jaeger capacity {}' keeps {} vertices in "
               "each of the {} neighbour slots, {:.4g} GiB, which the execution space could not "
               "allocate ({}): give a smaller capacity (16 to 64 follow the Mindlin-Deresiewicz "
               "paths closely)",
               per_slot / VERTEX_DOUBLES - 1, per_slot / VERTEX_DOUBLES, slots,
               bytes / 1073741824.0, e.what());
  }
}

/* ----------------------------------------------------------------------
   host store -> slots (after a neighbour build), slots -> host store (before the next one, and
   whenever host code reads the histories)
------------------------------------------------------------------------- */

template <class DeviceType> void PairGranularExactKokkos<DeviceType>::upload_history()
{
  flatten_list();
  auto state = k_state.h_view;
  auto items = k_items.h_view;
  auto touch = k_touch.h_view;
  auto count = k_count.h_view;
  for_each_slot([&](int i, int jj, int slot) {
    const double *from = nullptr;
    int n = 0;
    if (history_mode == HISTORY_COMPACT) {
      const bigint rec = fix_compact->firstrecord[i][jj];
      if (rec >= 0) {
        from = fix_compact->state(rec);
        n = fix_compact->count(rec);
        const double *v = fix_compact->items(rec);
        for (int k = 0; k < VERTEX_DOUBLES * n; k++) items(slot, k) = v[k];
      }
    } else if (fix_neigh->firstflag[i][jj]) {
      from = &fix_neigh->firstvalue[i][nstate * jj];
    }
    touch(slot) = from != nullptr;
    count(slot) = n;
    for (int k = 0; k < STATE; k++) state(slot, k) = (from && k < nstate) ? from[k] : 0.0;
  });
  for_each_history_view([](auto &view) {
    view.modify_host();
    view.template sync<DeviceType>();
  });
  device_current = true;
  host_current = true;
  crossings.uploads++;
}

template <class DeviceType>
void PairGranularExactKokkos<DeviceType>::download_history(HistoryReader why)
{
  return_friction_states();
  // (in the execution space the store is there too: it writes its restart data itself)
  if (in_space || host_current || !device_current) return;
  (why == READ_AT_BUILD ? crossings.at_builds : crossings.host_reads)++;
  for_each_history_view([](auto &view) { view.template sync<LMPHostType>(); });
  auto state = k_state.h_view;
  auto items = k_items.h_view;
  auto touch = k_touch.h_view;
  auto count = k_count.h_view;
  for_each_slot([&](int i, int jj, int slot) {
    if (history_mode != HISTORY_COMPACT) {
      fix_neigh->firstflag[i][jj] = touch(slot);
      double *to = &fix_neigh->firstvalue[i][nstate * jj];
      for (int k = 0; k < nstate; k++) to[k] = state(slot, k);
      return;
    }
    bigint &rec = fix_compact->firstrecord[i][jj];
    if (!touch(slot)) {
      if (rec >= 0) fix_compact->release(rec);
      return;
    }
    // the record with the slot's vertices and fixed part
    const int n = count(slot);
    if (rec < 0) rec = fix_compact->create(n);
    else fix_compact->reserve(rec, n);
    const bigint first = fix_compact->first_item(rec);
    double *v = fix_compact->items(rec);
    for (int k = 0; k < VERTEX_DOUBLES * n; k++) v[k] = items(slot, k);
    double fixed[MAX_FIXED_SIZE];
    for (int k = 0; k < nstate; k++) fixed[k] = state(slot, k);
    rec = fix_compact->place_header(first, n, fix_compact->room(rec), fixed);
  });
  host_current = true;
}

/* ----------------------------------------------------------------------
   around a neighbour build (the history store calls these)
------------------------------------------------------------------------- */

template <class DeviceType> void PairGranularExactKokkos<DeviceType>::work_before_build()
{
  if (!in_space) download_history(READ_AT_BUILD);
  PairGranularExact::work_before_build();
}

template <class DeviceType> void PairGranularExactKokkos<DeviceType>::work_after_build()
{
  crossings.builds++;
  if (in_space) {
    // (the store has filled the slots of the new list: the work after it is theirs)
    device_current = true;
    slots_store = fix_neigh;
    host_slots_current = false;
  }
  PairGranularExact::work_after_build();
  // (on the host path a new list: the slots are filled at the next force evaluation)
  if (!in_space) device_current = false;
}

template <class DeviceType> void PairGranularExactKokkos<DeviceType>::listed_work(double sums[2])
{
  if (in_space) listed_work_in_space(sums);
  else PairGranularExact::listed_work(sums);
}

/* ----------------------------------------------------------------------
   the slots in the execution space, for the store there (FixNeighHistoryExactKokkos)
------------------------------------------------------------------------- */

template <class DeviceType> HistorySlots PairGranularExactKokkos<DeviceType>::history_slots()
{
  HistorySlots slots;
  if constexpr (std::is_same<DeviceType, LMPDeviceType>::value) {
    for (auto *view : {&k_ilist, &k_offset, &k_neigh, &k_touch, &k_count})
      view->template sync<DeviceType>();
    k_state.template sync<DeviceType>();
    k_items.template sync<DeviceType>();
    slots.count = k_count.template view<DeviceType>();
    slots.items = k_items.template view<DeviceType>();
    slots.ilist = k_ilist.template view<DeviceType>();
    slots.offset = k_offset.template view<DeviceType>();
    slots.neigh = k_neigh.template view<DeviceType>();
    slots.touch = k_touch.template view<DeviceType>();
    slots.state = k_state.template view<DeviceType>();
    slots.inum = device_current ? list->inum : 0;    // (no slots before the first build)
  }
  return slots;
}

// The list just built (a Kokkos list in the execution space), flattened into slots: the first
// slot of each list atom by a prefix sum of the neighbour counts, then every neighbour in its
// slot. Their states are the store's to fill.
template <class DeviceType> HistorySlots PairGranularExactKokkos<DeviceType>::slots_of_new_list()
{
  HistorySlots slots;
  if constexpr (std::is_same<DeviceType, LMPDeviceType>::value) {
    auto *k_list = static_cast<NeighListKokkos<DeviceType> *>(list);
    const int inum = list->inum;
    const auto list_atoms = k_list->d_ilist;
    const auto numneigh = k_list->d_numneigh;
    const auto neighbors = k_list->d_neighbors;
    size_list_views(inum);
    const auto ilist = k_ilist.template view<DeviceType>();
    const auto offset = k_offset.template view<DeviceType>();
    int total = 0;
    Kokkos::parallel_scan(
        "granular/exact/kk:slots", Kokkos::RangePolicy<DeviceType>(0, inum),
        KOKKOS_LAMBDA(const int ii, int &sum, const bool final) {
          const int i = list_atoms(ii);
          if (final) {
            ilist(ii) = i;
            offset(ii) = sum;
          }
          sum += numneigh(i);
        },
        total);
    Kokkos::deep_copy(Kokkos::subview(offset, inum), total);
    nslots = total;
    size_slot_views();
    const auto neigh = k_neigh.template view<DeviceType>();
    Kokkos::parallel_for(
        "granular/exact/kk:slots", Kokkos::RangePolicy<DeviceType>(0, inum),
        KOKKOS_LAMBDA(const int ii) {
          const int i = list_atoms(ii);
          for (int jj = 0; jj < numneigh(i); jj++) neigh(offset(ii) + jj) = neighbors(i, jj);
        });
    for (auto *view : {&k_ilist, &k_offset, &k_neigh, &k_touch, &k_count})
      view->template modify<DeviceType>();
    k_state.template modify<DeviceType>();
    k_items.template modify<DeviceType>();
    slots.count = k_count.template view<DeviceType>();
    slots.items = k_items.template view<DeviceType>();
    slots.ilist = ilist;
    slots.offset = offset;
    slots.neigh = neigh;
    slots.touch = k_touch.template view<DeviceType>();
    slots.state = k_state.template view<DeviceType>();
    slots.inum = inum;
  }
  return slots;
}

/* ----------------------------------------------------------------------
   what the host style does with its list and store, over the slots in the execution space
------------------------------------------------------------------------- */

// the work the listed contacts hold (PairGranularExact::listed_work())
template <class DeviceType>
void PairGranularExactKokkos<DeviceType>::listed_work_in_space(double sums[2])
{
  if (!laws_current) upload_laws();
  const auto ilist = k_ilist.template view<DeviceType>();
  const auto offset = k_offset.template view<DeviceType>();
  const auto neigh = k_neigh.template view<DeviceType>();
  const auto touch = k_touch.template view<DeviceType>();
  const auto state = k_state.template view<DeviceType>();
  const auto law_view = k_law.template view<DeviceType>();
  const auto type = atomKK->k_type.template view<DeviceType>();
  atomKK->sync(execution_space, TYPE_MASK);
  const int nlocal = atom->nlocal, newton = force->newton_pair;
  double work = 0.0, dissipated = 0.0;
  Kokkos::parallel_reduce(
      "granular/exact/kk:listed work", Kokkos::RangePolicy<DeviceType>(0, device_current ? list->inum : 0),
      KOKKOS_LAMBDA(const int ii, double &w, double &d) {
        const int i = ilist(ii);
        for (int slot = offset(ii); slot < offset(ii + 1); slot++) {
          const int j = neigh(slot) & NEIGHMASK;
          if (!touch(slot) || !ge::is_linear(law_view(type(i), type(j)))) continue;
          const double weight = (newton || j < nlocal) ? 1.0 : 0.5;
          w += weight * state(slot, ge::H_WORK_T);
          d += weight * (state(slot, ge::H_DISS_T) + state(slot, ge::H_DISS_DAMP));
        }
      },
      work, dissipated);
  sums[0] = work;
  sums[1] = dissipated;
}

// the largest overlap / smaller radius of the listed contacts without a history
// (PairGranularExact::warn_large_overlaps())
template <class DeviceType>
double PairGranularExactKokkos<DeviceType>::largest_new_overlap_in_space() const
{
  const auto ilist = k_ilist.template view<DeviceType>();
  const auto offset = k_offset.template view<DeviceType>();
  const auto neigh = k_neigh.template view<DeviceType>();
  const auto touch = k_touch.template view<DeviceType>();
  const auto x = atomKK->k_x.template view<DeviceType>();
  const auto radius = atomKK->k_radius.template view<DeviceType>();
  double largest = 0.0;
  Kokkos::parallel_reduce(
      "granular/exact/kk:largest overlap", Kokkos::RangePolicy<DeviceType>(0, list->inum),
      KOKKOS_LAMBDA(const int ii, double &most) {
        const int i = ilist(ii);
        for (int slot = offset(ii); slot < offset(ii + 1); slot++) {
          if (touch(slot)) continue;
          const int j = neigh(slot) & NEIGHMASK;
          const double dx = x(i, 0) - x(j, 0), dy = x(i, 1) - x(j, 1), dz = x(i, 2) - x(j, 2);
          const double overlap = radius(i) + radius(j) - sqrt(dx * dx + dy * dy + dz * dz);
          const double smaller = radius(i) < radius(j) ? radius(i) : radius(j);
          if (overlap > 0.0 && overlap / smaller > most) most = overlap / smaller;
        }
      },
      Kokkos::Max<double>(largest));
  return largest;
}

// PairGranularExact::owned_atom_extremes() in the execution space (the time-step checks, at
// builds until they have run)
template <class DeviceType>
void PairGranularExactKokkos<DeviceType>::owned_atom_extremes(double local[4])
{
  if (!in_space) {
    // (the host store is no Kokkos fix: LAMMPS has brought all atom data to the host for it)
    atomKK->sync(Host, V_MASK | RMASS_MASK | RADIUS_MASK);
    PairGranularExact::owned_atom_extremes(local);
    return;
  }
  atomKK->sync(execution_space, V_MASK | RMASS_MASK | RADIUS_MASK);
  const auto v = atomKK->k_v.template view<DeviceType>();
  const auto rmass = atomKK->k_rmass.template view<DeviceType>();
  const auto radius = atomKK->k_radius.template view<DeviceType>();
  double lightest = INFINITY, smallest = INFINITY, fastest = 0.0;
  Kokkos::parallel_reduce(
      "granular/exact/kk:atom extremes", Kokkos::RangePolicy<DeviceType>(0, atom->nlocal),
      KOKKOS_LAMBDA(const int i, double &m, double &r, double &s) {
        m = rmass(i) < m ? rmass(i) : m;
        r = radius(i) < r ? radius(i) : r;
        const double speed = sqrt(v(i, 0) * v(i, 0) + v(i, 1) * v(i, 1) + v(i, 2) * v(i, 2));
        s = speed > s ? speed : s;
      },
      Kokkos::Min<double>(lightest), Kokkos::Min<double>(smallest), Kokkos::Max<double>(fastest));
  // (no atoms: infinite, as the host style's; Kokkos' identity is the largest double)
  local[0] = atom->nlocal > 0 ? lightest : INFINITY;
  local[1] = atom->nlocal > 0 ? smallest : INFINITY;
  local[2] = -fastest;
  local[3] = -double(atom->nlocal);
}

// the contacts whose law changed, carried over on the host (once, at a run's first build)
template <class DeviceType>
void PairGranularExactKokkos<DeviceType>::carry_contacts_to_their_laws(double *counts)
{
  if (!in_space) {
    PairGranularExact::carry_contacts_to_their_laws(counts);
    return;
  }
  sync_atoms_to_host(X_MASK | V_MASK | OMEGA_MASK | TAG_MASK | TYPE_MASK | MASK_MASK |
                     RADIUS_MASK | RMASS_MASK);
  copy_slots_to_host();
  const auto ilist = k_ilist.h_view;
  const auto offset = k_offset.h_view;
  const auto neigh = k_neigh.h_view;
  auto touch = k_touch.h_view;
  auto state = k_state.h_view;
  const bool compact = store_in_space()->partner_items().held();
  double values[STATE];
  for (int ii = 0; ii < list->inum; ii++)
    for (int slot = offset(ii); slot < offset(ii + 1); slot++) {
      if (!touch(slot)) continue;
      const int i = ilist(ii), j = neigh(slot) & NEIGHMASK;
      if (compact) {
        if (!carry_compact_contact_to_its_law(i, j, slot, counts)) touch(slot) = 0;
        continue;
      }
      for (int k = 0; k < nstate; k++) values[k] = state(slot, k);
      if (!carry_contact_to_its_law(i, j, values, nstate, counts)) touch(slot) = 0;
      for (int k = 0; k < nstate; k++) state(slot, k) = values[k];
    }
  for_each_history_view([](auto &view) {
    view.modify_host();
    view.template sync<DeviceType>();
  });
}

// a contact of the compact form, with its vertices (the host style's carry_contacts_to_their_laws()
// over a record of the compact store); false: the new law holds no contact there
template <class DeviceType>
bool PairGranularExactKokkos<DeviceType>::carry_compact_contact_to_its_law(int i, int j, int slot,
                                                                          double *counts)
{
  const Law *from = nullptr;
  double *count = law_change_count(i, j, counts, from);
  if (count == nullptr) return true;
  const ge::ContactBodies b = law_change_bodies(i, j);
  double old_state[STATE] = {0.0}, new_state[STATE] = {0.0};
  for (int k = 0; k < nstate; k++) old_state[k] = k_state.h_view(slot, k);
  ge::JaegerHistory history{reinterpret_cast<ge::JaegerVertex *>(&k_items.h_view(slot, 0)),
                            k_count.h_view(slot), MAX(1, nitems / VERTEX_DOUBLES)};
  const bool lost = change_law(from, i, j, b, old_state, new_state, history, count);
  if (lost) return false;
  k_count.h_view(slot) = history.count;
  for (int k = 0; k < nstate; k++) k_state.h_view(slot, k) = new_state[k];
  return true;
}

// the slots on the host, with each list atom's row (once per force evaluation: host reads)
template <class DeviceType> void PairGranularExactKokkos<DeviceType>::copy_slots_to_host()
{
  if (host_slots_current) return;
  crossings.host_reads++;
  for (auto *view : {&k_ilist, &k_offset, &k_neigh, &k_touch, &k_count}) view->sync_host();
  k_state.sync_host();
  k_items.sync_host();
  row_of_atom.assign(atom->nlocal + atom->nghost, -1);
  for (int ii = 0; ii < list->inum; ii++) row_of_atom[k_ilist.h_view(ii)] = ii;
  host_slots_current = true;
}

// the slot of the listed pair (i, j), in the row of either atom; -1: not listed
template <class DeviceType> int PairGranularExactKokkos<DeviceType>::slot_of_pair(int i, int j) const
{
  for (const auto &[a, b] : {std::make_pair(i, j), std::make_pair(j, i)}) {
    const int ii = a < (int) row_of_atom.size() ? row_of_atom[a] : -1;
    if (ii < 0) continue;
    for (int slot = k_offset.h_view(ii); slot < k_offset.h_view(ii + 1); slot++)
      if ((k_neigh.h_view(slot) & NEIGHMASK) == b) return slot;
  }
  return -1;
}

// PairGranularExact::single() with the slot's state
template <class DeviceType>
double PairGranularExactKokkos<DeviceType>::single_in_space(int i, int j, int itype, int jtype,
                                                            double rsq, double &fforce)
{
  for (int k = 0; k < single_extra; k++) svector[k] = 0.0;
  fforce = 0.0;
  const double radsum = atom->radius[i] + atom->radius[j];
  if (rsq >= radsum * radsum && !ge::holds_apart(law[itype][jtype])) return 0.0;
  copy_slots_to_host();
  const int slot = slot_of_pair(i, j);
  if (slot < 0 || !k_touch.h_view(slot)) return 0.0;
  // (led by the header of a compact record, which a Jaeger contact's single() reads its count
  // from: FixContactHistoryExact::count_of_state())
  double record[1 + STATE];
  record[0] = FixContactHistoryExact::header(k_count.h_view(slot), k_count.h_view(slot));
  double *stored = record + 1;
  for (int k = 0; k < nstate; k++) stored[k] = k_state.h_view(slot, k);
  single_from_state(i, j, itype, jtype, rsq, stored, fforce);
  return 0.0;
}

/* ----------------------------------------------------------------------
   one force evaluation in the execution space; sums as ForceLoop's. A kernel for the one family
   of laws the type pairs use, or for all of them
------------------------------------------------------------------------- */

template <class DeviceType>
template <int ADD, bool TALLY>
void PairGranularExactKokkos<DeviceType>::run_for_family(bool advance, double *sums)
{
  switch (family) {
    case ge::FAMILY_LINEAR: run_force_loop<ADD, TALLY, ge::FAMILY_LINEAR>(advance, sums); break;
    case ge::FAMILY_CATALOGUE:
      run_force_loop<ADD, TALLY, ge::FAMILY_CATALOGUE>(advance, sums);
      break;
    case ge::FAMILY_JAEGER: run_force_loop<ADD, TALLY, ge::FAMILY_JAEGER>(advance, sums); break;
    default: run_force_loop<ADD, TALLY, ANY_FAMILY>(advance, sums); break;
  }
}


template <class DeviceType>
template <int ADD, bool TALLY, int FAMILY>
void PairGranularExactKokkos<DeviceType>::run_force_loop(bool advance, double *sums)
{
  ForceLoop<DeviceType, ADD, TALLY, FAMILY> loop;
  loop.x = atomKK->k_x.view<DeviceType>();
  loop.v = atomKK->k_v.view<DeviceType>();
  loop.omega = atomKK->k_omega.view<DeviceType>();
  auto f = atomKK->k_f.view<DeviceType>();
  auto torque = atomKK->k_torque.view<DeviceType>();
  loop.f = ForceScatter<DeviceType, ADD>(f);
  loop.torque = ForceScatter<DeviceType, ADD>(torque);
  loop.type = atomKK->k_type.view<DeviceType>();
  loop.mask = atomKK->k_mask.view<DeviceType>();
  loop.tag = atomKK->k_tag.view<DeviceType>();
  loop.rmass = atomKK->k_rmass.view<DeviceType>();
  loop.radius = atomKK->k_radius.view<DeviceType>();
  if (fix_rigid) {
    // the bodies' masses (update_body_masses() keeps them on the host)
    const int nall = atom->nlocal + atom->nghost;
    if ((int) k_mass_rigid.extent(0) < nall)
      k_mass_rigid = decltype(k_mass_rigid)("granular/exact/kk:mass_rigid", atom->nmax);
    for (int k = 0; k < nall; k++) k_mass_rigid.h_view(k) = mass_rigid[k];
    k_mass_rigid.modify_host();
    k_mass_rigid.template sync<DeviceType>();
    loop.mass_rigid = k_mass_rigid.template view<DeviceType>();
  }
  loop.ilist = k_ilist.template view<DeviceType>();
  loop.offset = k_offset.template view<DeviceType>();
  loop.neigh = k_neigh.template view<DeviceType>();
  loop.touch = k_touch.template view<DeviceType>();
  loop.count = k_count.template view<DeviceType>();
  loop.state = k_state.template view<DeviceType>();
  loop.items = k_items.template view<DeviceType>();
  loop.law = k_law.template view<DeviceType>();
  loop.nlocal = atom->nlocal;
  loop.newton_pair = force->newton_pair;
  loop.freeze_bit = freeze_group_bit;
  loop.dt = update->dt;
  loop.advance = advance;
  loop.energies = eflag_global != 0;
  loop.virial = vflag_global != 0;
  Kokkos::View<double *, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> result(
      sums, ForceLoop<DeviceType, ADD, TALLY, FAMILY>::COUNT);
  Kokkos::parallel_reduce("granular/exact/kk", Kokkos::RangePolicy<DeviceType>(0, list->inum),
                          loop, result);
  Kokkos::Experimental::contribute(f, loop.f);
  Kokkos::Experimental::contribute(torque, loop.torque);
}

/* ---------------------------------------------------------------------- */

template <class DeviceType> void PairGranularExactKokkos<DeviceType>::compute(int eflag, int vflag)
{
  ev_init(eflag, vflag, 0);
  if (eflag_atom || vflag_atom)
    error->all(FLERR,
               "Pair granular/exact/kk gives no per-atom energy or virial (compute stress/atom, "
               "pe/atom): use pair style granular/exact for them");

  const bool advance = update->setupflag == 0;
  if (fix_rigid && (neighbor->ago == 0 || !mass_rigid)) {
    // the bodies' masses are found on the host and sent to the ghosts by the host style's
    // forward communication (Comm sends a Kokkos pair's data from its execution space otherwise)
    const ExecutionSpace space = execution_space;
    execution_space = Host;
    update_body_masses();
    execution_space = space;
  }
  if (!advance && in_space) {
    atomKK->sync(execution_space, X_MASK | RADIUS_MASK);
    say_largest_overlap(largest_new_overlap_in_space());
  } else if (!advance) {
    sync_atoms_to_host(X_MASK | V_MASK | RADIUS_MASK | RMASS_MASK);
    warn_doubtful_setup();
  }
  if (advance) note_untracked_step();
  if (!laws_current) upload_laws();
  return_friction_states();
  if (!device_current && in_space)
    error->all(FLERR, "Pair granular/exact/kk: its history store was made anew since the last "
                      "neighbour build (a change of laws or store between runs): give 'run N pre "
                      "yes' (the default)");
  if (!device_current) upload_history();
  host_slots_current = false;

  atomKK->sync(execution_space, datamask_read);
  atomKK->modified(execution_space, datamask_modify);
  atoms_synced = 0u;    // (the integrator moves the atoms in the execution space between steps)

  double sums[NSUMS] = {0.0};
  const bool tally = eflag_global || vflag_global;
  // (a host space: one thread adds in place, several into copies; a GPU: atomically)
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                           typename DeviceType::memory_space>::accessible) {
    if (lmp->kokkos->nthreads == 1) {
      if (tally) run_for_family<ADD_PLAIN, true>(advance, sums);
      else run_for_family<ADD_PLAIN, false>(advance, sums);
    } else {
      if (tally) run_for_family<ADD_DUPLICATED, true>(advance, sums);
      else run_for_family<ADD_DUPLICATED, false>(advance, sums);
    }
  } else {
    if (tally) run_for_family<ADD_ATOMIC, true>(advance, sums);
    else run_for_family<ADD_ATOMIC, false>(advance, sums);
  }
  for_each_history_view([](auto &view) { view.template modify<DeviceType>(); });
  host_current = false;
  if (friction) {
    // (where a step runs in this space the fix has the contacts handed in only if it does not)
    friction->begin_contacts(eflag_global ? this : nullptr);
    if (friction_step) friction->keep_contacts_in_space();
    else hand_contacts_to_friction();
  }

  ended[0] += sums[ENDED];
  ended[1] += sums[ENDED + 1];
  if (vflag_global)
    for (int k = 0; k < 6; k++) virial[k] += sums[VIRIAL + k];
  if (eflag_global) {
    sums[VECTOR + 2] += ended[0];
    sums[VECTOR + 3] += ended[1];
    for (int k = 0; k < NVECTOR; k++) pvector[k] = sums[VECTOR + k];
  }
}

/* ----------------------------------------------------------------------
   `tangential coulomb`: where the fix has them handed in (FixCoulombFrictionExact::
   bring_contacts_to_host(), or no friction step in this space), every touching coulomb contact
   of the force loop goes to the friction fix as the host style's force loop hands it
   (PairGranularExact::hand_to_friction()), in the same order (the slots') with the same normal,
   distance and cap mu F_n^c (stored in the state by the loop); the fix solves them in
   post_force on the host. Its state is a host copy of the slot's, which the fix reads and
   writes until the copies go back (return_friction_states()).
------------------------------------------------------------------------- */

template <class DeviceType>
void PairGranularExactKokkos<DeviceType>::hand_contacts_to_friction()
{
  crossings.friction++;
  k_state.template sync<LMPHostType>();
  k_touch.template sync<LMPHostType>();
  sync_atoms_to_host(X_MASK | V_MASK | OMEGA_MASK | TAG_MASK | TYPE_MASK | MASK_MASK |
                     RADIUS_MASK | RMASS_MASK);
  const auto state = k_state.h_view;
  const auto touch = k_touch.h_view;
  const int *type = atom->type;
  friction_contacts.clear();
  for_each_slot([&](int i, int jj, int slot) {
    const int j = list->firstneigh[i][jj] & NEIGHMASK;
    if (touch(slot) && ge::is_coulomb(law[type[i]][type[j]]))
      friction_contacts.push_back({slot, i, j});
  });
  // (sized before any is handed: the fix keeps pointers into the copies)
  friction_states.resize(friction_contacts.size() * STATE);
  double **x = atom->x;
  const tagint *tag = atom->tag;
  for (size_t c = 0; c < friction_contacts.size(); c++) {
    const auto [slot, i, j] = friction_contacts[c];
    double *st = &friction_states[c * STATE];
    for (int k = 0; k < STATE; k++) st[k] = state(slot, k);
    const Vec3 dx = ge::vec3(x[i]) - ge::vec3(x[j]);
    const double distance = std::sqrt(ge::dot(dx, dx));
    const Law &lw = law[type[i]][type[j]];
    friction->add_sphere_contact(i, j, (1.0 / distance) * dx, distance, st + ge::CS_TANGENTIAL,
                                 lw.cat.tangential.mu * st[ge::CS_TANGENTIAL + ge::TS_CF_FN],
                                 tag[i] < tag[j]);
  }
  friction_states_out = true;
}

// the friction fix's copies of the states back to the slots, in both spaces
template <class DeviceType> void PairGranularExactKokkos<DeviceType>::return_friction_states()
{
  if (!friction_states_out) return;
  friction_states_out = false;
  const auto state = k_state.h_view;
  for (size_t c = 0; c < friction_contacts.size(); c++)
    for (int k = 0; k < STATE; k++)
      state(friction_contacts[c].slot, k) = friction_states[c * STATE + k];
  k_state.modify_host();
  k_state.template sync<DeviceType>();
}

/* ----------------------------------------------------------------------
   crossings between the execution space and the host
------------------------------------------------------------------------- */

// atom data to the host, counted once per force evaluation (the calls after the first one find
// it current: host reads such as compute pair/local call single() for every contact). DualView's
// own flags cannot count transfers: on a host backend both spaces are one memory.
template <class DeviceType>
void PairGranularExactKokkos<DeviceType>::sync_atoms_to_host(unsigned int mask)
{
  if ((mask & ~atoms_synced) != 0u) crossings.atom_syncs++;
  atoms_synced |= mask;
  atomKK->sync(Host, mask);
}

// the run's crossings, the largest count of any process, in the log
template <class DeviceType> void PairGranularExactKokkos<DeviceType>::run_ended()
{
  const bigint mine[6] = {crossings.builds,     crossings.uploads,  crossings.at_builds,
                          crossings.host_reads, crossings.friction, crossings.atom_syncs};
  bigint most[6];
  MPI_Allreduce(mine, most, 6, MPI_LMP_BIGINT, MPI_MAX, world);
  if (comm->me == 0)
    utils::logmesg(lmp,
                   "Pair granular/exact/kk crossings in this run (the most of any process): {} "
                   "neighbour builds; histories: {} copies to the execution space, {} to the "
                   "host ({} at builds, the run's end and restart files, {} for host reads, {} "
                   "to the friction fix); {} atom-data syncs to the host asked by this pair style "
                   "(one a step at most)\n",
                   most[0], most[1], most[2] + most[3] + most[4], most[2], most[3], most[4],
                   most[5]);
}

/* ----------------------------------------------------------------------
   host code reading the histories: they come back from the execution space first
------------------------------------------------------------------------- */

template <class DeviceType>
double PairGranularExactKokkos<DeviceType>::single(int i, int j, int itype, int jtype, double rsq,
                                                   double factor_coul, double factor_lj,
                                                   double &fforce)
{
  sync_atoms_to_host(X_MASK | V_MASK | OMEGA_MASK | TAG_MASK | RADIUS_MASK | RMASS_MASK);
  if (in_space) return single_in_space(i, j, itype, jtype, rsq, fforce);
  download_history(READ_ON_HOST);
  return PairGranularExact::single(i, j, itype, jtype, rsq, factor_coul, factor_lj, fforce);
}

template <class DeviceType> void PairGranularExactKokkos<DeviceType>::write_restart(FILE *fp)
{
  download_history(READ_AT_BUILD);
  PairGranularExact::write_restart(fp);
}

template <class DeviceType> double PairGranularExactKokkos<DeviceType>::memory_usage()
{
  double bytes = PairGranularExact::memory_usage();
  bytes += (double) k_state.extent(0) * (STATE * sizeof(double) + 3 * sizeof(int));
  bytes += (double) k_items.extent(0) * k_items.extent(1) * sizeof(double);
  return bytes;
}

namespace LAMMPS_NS {
template class PairGranularExactKokkos<LMPDeviceType>;
#ifdef LMP_KOKKOS_GPU
template class PairGranularExactKokkos<LMPHostType>;
#endif
}    // namespace LAMMPS_NS
