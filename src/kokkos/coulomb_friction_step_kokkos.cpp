/* ----------------------------------------------------------------------
   GRANULAR-EXACT: the friction step of `tangential coulomb` in the execution
   space of pair granular/exact/kk (CoulombFrictionStep): the contacts made
   from the pair's slots, solved and stored there. The fix keeps every
   decision; per contact this does what its add_sphere_contact(),
   start_contact(), compute_row_bounds() and store_result() do, with the same
   ge:: functions (doc/design_notes.md, "Kokkos history").
------------------------------------------------------------------------- */

#include "coulomb_friction_offload_kokkos.h"

#include "atom_kokkos.h"
#include "atom_masks.h"
#include "kokkos_type.h"
#include "neigh_list.h"
#include "pair_granular_exact_kokkos.h"

#include "coulomb_newton_kokkos.hpp"

#include "contact/contact_law.hpp"

#include <chrono>
#include <memory>
#include <type_traits>
#include <vector>

using namespace LAMMPS_NS;

namespace ge_coulomb_step {

using ge::Vec3;
using ge_coulomb_problem::ContactTerms;

template <class DeviceType> using Ints = Kokkos::View<int *, DeviceType>;
template <class DeviceType> using Doubles = Kokkos::View<double *, DeviceType>;
template <class DeviceType> using Vecs = Kokkos::View<Vec3 *, DeviceType>;
template <class DeviceType> using Terms = Kokkos::View<ContactTerms *, DeviceType>;
template <class DeviceType>
using States = Kokkos::View<double **, typename DeviceType::array_layout, DeviceType>;

// three entries of a slot's state from `first` on, as a vector
template <class View> KOKKOS_INLINE_FUNCTION Vec3 state_vec(const View &state, int slot, int first)
{
  return Vec3{state(slot, first), state(slot, first + 1), state(slot, first + 2)};
}
template <class View>
KOKKOS_INLINE_FUNCTION void set_state_vec(const View &state, int slot, int first, const Vec3 &a)
{
  state(slot, first) = a.x;
  state(slot, first + 1) = a.y;
  state(slot, first + 2) = a.z;
}

// A slot's coulomb contact as the fix makes it from the pair's hand-over (add_sphere_contact(),
// start_contact()): the pair's views of this step and the fix's per-atom settings
template <class DeviceType> struct SlotContacts {
  typedef ArrayTypes<DeviceType> AT;
  typename AT::t_x_array_randomread x;
  typename AT::t_v_array_randomread v, omega;
  typename AT::t_int_1d_randomread type;
  typename AT::t_tagint_1d_randomread tag;
  typename AT::t_float_1d_randomread radius;
  Kokkos::View<const int *, DeviceType> ilist, offset, neigh, touch;
  Kokkos::View<const ge::ContactLaw **, Kokkos::LayoutRight, DeviceType> law;
  States<DeviceType> state;
  Kokkos::View<const double *, DeviceType> inv_mass, inv_inertia;
  Kokkos::View<const int *, DeviceType> totals_row;
  double tau, ftm2v;
  ge::CoulombKinematics kinematics;
  ge::CoulombWarmStart warm;
  bool extrapolated_start;

  KOKKOS_INLINE_FUNCTION bool moves(int a) const { return inv_mass(a) > 0.0 || inv_inertia(a) > 0.0; }
  KOKKOS_INLINE_FUNCTION ge::CoulombBody body(int a) const
  {
    ge::CoulombBody b;
    b.x = Vec3{x(a, 0), x(a, 1), x(a, 2)};
    b.v = Vec3{v(a, 0), v(a, 1), v(a, 2)};
    b.omega = Vec3{omega(a, 0), omega(a, 1), omega(a, 2)};
    b.radius = radius(a);
    b.inv_mass = inv_mass(a);
    b.inv_inertia = inv_inertia(a);
    return b;
  }

  // whether the slot holds a touching coulomb contact of i, and then (j its partner as listed)
  // the contact as the pair hands it: n from j to i, mu F_n^c from the state
  KOKKOS_INLINE_FUNCTION bool contact_of(int i, int slot, int &j, ge::CoulombContact &c) const
  {
    j = neigh(slot) & NEIGHMASK;
    if (!touch(slot)) return false;
    const ge::ContactLaw &lw = law(type(i), type(j));
    if (!ge::is_coulomb(lw)) return false;
    const Vec3 dx{x(i, 0) - x(j, 0), x(i, 1) - x(j, 1), x(i, 2) - x(j, 2)};
    const double distance = sqrt(ge::dot(dx, dx));
    const double cap = lw.cat.tangential.mu * state(slot, ge::CS_TANGENTIAL + ge::TS_CF_FN);
    c = ge::CoulombContact{};    // (inv_mt 0: nothing to solve)
    if (moves(i) || moves(j))
      ge::set_coulomb_sphere_contact(c, body(i), body(j), (1.0 / distance) * dx, distance, cap,
                                     tau, kinematics);
    return true;
  }
  // nothing to solve (start_contact() false): no normal force, or neither body moves
  KOKKOS_INLINE_FUNCTION static bool unsolved(const ge::CoulombContact &c)
  {
    return !(c.cap > 0.0) || c.inv_mt == 0.0;
  }
  // such a contact's friction is zero (start_contact())
  KOKKOS_INLINE_FUNCTION void store_unsolved(int slot) const
  {
    set_state_vec(state, slot, ge::CS_TANGENTIAL + ge::TS_CF_FORCE, Vec3{0, 0, 0});
    state(slot, ge::CS_TANGENTIAL + ge::TS_CF_SLIDING) = 1.0;
    state(slot, ge::CS_TANGENTIAL + ge::TS_CF_SOLVED) = 1.0;
    state(slot, ge::CS_SLIDING) = 1.0;
    set_state_vec(state, slot, ge::CS_COULOMB_CHANGE, Vec3{0, 0, 0});
  }
};

// the arrays of grow(): never shrunk, grown with a margin (the contacts change a little every step)
template <class View> void grow(View &view, size_t n)
{
  if (view.extent(0) < n)
    view = View(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ge::coulomb_step"), n + n / 8 + 16);
}

// A step's contacts, one entry each: their terms, start forces and what storing them needs (the
// slot, < 0 for a contact made on the host; the partner as listed; the sign of the stored force;
// v_t), and their two atoms (the second's totals row)
template <class DeviceType> struct ContactArrays {
  Terms<DeviceType> terms;
  Vecs<DeviceType> start, v_t;
  Ints<DeviceType> slot_of, listed_j, body_i, body_j;
  Doubles<DeviceType> sign;
  void grow_to(size_t n)
  {
    grow(terms, n);
    grow(start, n);
    grow(v_t, n);
    grow(slot_of, n);
    grow(listed_j, n);
    grow(body_i, n);
    grow(body_j, n);
    grow(sign, n);
  }
  // entry n of these becomes entry k of `from`
  KOKKOS_INLINE_FUNCTION void take(int n, const ContactArrays &from, int k) const
  {
    terms(n) = from.terms(k);
    start(n) = from.start(k);
    v_t(n) = from.v_t(k);
    slot_of(n) = from.slot_of(k);
    listed_j(n) = from.listed_j(k);
    body_i(n) = from.body_i(k);
    body_j(n) = from.body_j(k);
    sign(n) = from.sign(k);
  }
};

// per list entry: its contacts to solve; those with nothing to solve get their zero friction
template <class DeviceType> struct CountContacts {
  SlotContacts<DeviceType> s;
  Ints<DeviceType> count;
  KOKKOS_INLINE_FUNCTION void operator()(int ii) const
  {
    const int i = s.ilist(ii);
    int n = 0;
    for (int slot = s.offset(ii); slot < s.offset(ii + 1); slot++) {
      int j;
      ge::CoulombContact c;
      if (!s.contact_of(i, slot, j, c)) continue;
      if (SlotContacts<DeviceType>::unsolved(c)) s.store_unsolved(slot);
      else n++;
    }
    count(ii) = n;
  }
};

// where each list entry's contacts begin (an exclusive scan of the counts)
template <class DeviceType> struct FirstContacts {
  Ints<DeviceType> count, first;
  KOKKOS_INLINE_FUNCTION void operator()(int ii, int &sum, bool final) const
  {
    if (final) first(ii) = sum;
    sum += count(ii);
  }
};

// The step's contacts in the slots' order (the pair's hand-over order): terms (R_c later), start
// forces, and what storing them needs
template <class DeviceType> struct MakeContacts {
  SlotContacts<DeviceType> s;
  Ints<DeviceType> first;
  ContactArrays<DeviceType> made;
  KOKKOS_INLINE_FUNCTION void operator()(int ii) const
  {
    const int i = s.ilist(ii);
    int n = first(ii);
    for (int slot = s.offset(ii); slot < s.offset(ii + 1); slot++) {
      int j;
      ge::CoulombContact c;
      if (!s.contact_of(i, slot, j, c) || SlotContacts<DeviceType>::unsolved(c)) continue;
      const int jm = s.totals_row(j);
      const ge::CoulombCoupling k = ge::coulomb_coupling(c, s.inv_mass(i), s.inv_inertia(i),
                                                         s.inv_mass(jm), s.inv_inertia(jm), s.ftm2v);
      // (the state holds the force on the atom with the lower tag)
      const double to_i = s.tag(i) < s.tag(j) ? 1.0 : -1.0;
      const Vec3 stored = to_i * state_vec(s.state, slot, ge::CS_TANGENTIAL + ge::TS_CF_FORCE);
      Vec3 f0{0, 0, 0};
      if (s.warm != ge::CoulombWarmStart::Zero && s.extrapolated_start)
        f0 = ge::coulomb_extrapolated_start(
            stored, to_i * state_vec(s.state, slot, ge::CS_COULOMB_CHANGE), c.normal, c.cap);
      else if (s.warm != ge::CoulombWarmStart::Zero)
        f0 = ge::coulomb_warm_start(stored, c.normal, c.cap);
      made.terms(n) = ContactTerms::of(c, k, 0.0, i, jm);
      made.start(n) = f0;
      made.v_t(n) = c.v_t;
      made.slot_of(n) = slot;
      made.listed_j(n) = j;
      made.body_i(n) = i;
      made.body_j(n) = jm;
      made.sign(n) = to_i;
      n++;
    }
  }
};

// the contacts placed in the colours' order (Schedule::original)
template <class DeviceType> struct PlaceInColours {
  Ints<DeviceType> original;
  ContactArrays<DeviceType> from, to;
  KOKKOS_INLINE_FUNCTION void operator()(int n) const { to.take(n, from, original(n)); }
};

// R_c of each contact (compute_row_bounds()): every body's contacts and their lever arms,
// gathered by body, then the contact's bound
template <class DeviceType> struct BodyLevers {
  Ints<DeviceType> body_start, side;
  Terms<DeviceType> terms;
  Doubles<DeviceType> levers;
  KOKKOS_INLINE_FUNCTION void operator()(int b) const
  {
    double sum = 0.0;
    for (int e = body_start(b); e < body_start(b + 1); e++) {
      const ContactTerms &t = terms(side(e) >> 1);
      sum += (side(e) & 1) ? t.rho_j : t.rho_i;
    }
    levers(b) = sum;
  }
};

template <class DeviceType> struct RowBounds {
  Ints<DeviceType> body_start;
  Terms<DeviceType> terms;
  Doubles<DeviceType> levers;
  // (b < 0: a wall, which has no contacts of its own to count)
  KOKKOS_INLINE_FUNCTION double contacts_of(int b) const
  {
    return b < 0 ? 0.0 : static_cast<double>(body_start(b + 1) - body_start(b));
  }
  KOKKOS_INLINE_FUNCTION double levers_of(int b) const { return b < 0 ? 0.0 : levers(b); }
  KOKKOS_INLINE_FUNCTION void operator()(int n) const
  {
    ContactTerms &t = terms(n);
    const double row = ge::coulomb_row_bound(t.coupling(), contacts_of(t.i), levers_of(t.i),
                                             contacts_of(t.j), levers_of(t.j));
    t.inv_row = row > 0.0 ? 1.0 / row : 0.0;
  }
};

// the forces at some of the places of the colours' order
template <class DeviceType> struct GatherForces {
  Ints<DeviceType> at;
  const Vec3 *force;
  Vecs<DeviceType> to;
  KOKKOS_INLINE_FUNCTION void operator()(int e) const { to(e) = force[at(e)]; }
};

// each of the pair's contacts' solved force into its slot's state (store_result()), and the sums
template <class DeviceType> struct StoreContacts {
  typedef LAMMPS_NS::CoulombFrictionStep::Sums value_type;
  typename ArrayTypes<DeviceType>::t_x_array_randomread x;
  States<DeviceType> state;
  Terms<DeviceType> terms;
  Vecs<DeviceType> v_t;
  Ints<DeviceType> slot_of, listed_j;
  Doubles<DeviceType> sign;
  const Vec3 *force;
  bool changes_solved, extrapolating, products;

  KOKKOS_INLINE_FUNCTION void operator()(int n, value_type &sums) const
  {
    const int slot = slot_of(n);
    if (slot < 0) return;    // (a contact made on the host, which stores it)
    const ContactTerms &t = terms(n);
    const ge::CoulombContact c = t.contact();
    const Vec3 f = force[n];
    const bool stick = !ge::coulomb_on_rim(c, f);
    const double to_i = sign(n);
    const Vec3 stored = to_i * f;
    const Vec3 old_force = state_vec(state, slot, ge::CS_TANGENTIAL + ge::TS_CF_FORCE);
    const Vec3 old_change = state_vec(state, slot, ge::CS_COULOMB_CHANGE);
    // add_start_misfits(), in the contact's sense
    if (extrapolating && !ge::is_zero(old_change)) {
      const Vec3 previous = f - ge::coulomb_warm_start(to_i * old_force, c.normal, c.cap);
      const Vec3 extrapolated = f -
          ge::coulomb_extrapolated_start(to_i * old_force, to_i * old_change, c.normal, c.cap);
      const double inv_cap2 = 1.0 / (c.cap * c.cap);
      sums.misfit[0] += inv_cap2 * ge::dot(previous, previous);
      sums.misfit[1] += inv_cap2 * ge::dot(extrapolated, extrapolated);
    }
    set_state_vec(state, slot, ge::CS_COULOMB_CHANGE,
                  ge::coulomb_force_change(stored, old_force, changes_solved));
    set_state_vec(state, slot, ge::CS_TANGENTIAL + ge::TS_CF_FORCE, stored);
    state(slot, ge::CS_TANGENTIAL + ge::TS_CF_SLIDING) = stick ? 0.0 : 1.0;
    state(slot, ge::CS_TANGENTIAL + ge::TS_CF_SOLVED) = 1.0;
    state(slot, ge::CS_SLIDING) = stick ? 0.0 : 1.0;
    sums.contacts += 1.0;
    if (stick) {
      sums.stuck += 1.0;
      const double slip2 = ge::dot(v_t(n), v_t(n));
      if (slip2 > sums.largest_slip2) sums.largest_slip2 = slip2;
    }
    if (!products) return;
    // l from the partner as listed to i (the pair's hand-over), times the force on i
    const int i = t.i, j = listed_j(n);
    const double l[3] = {x(i, 0) - x(j, 0), x(i, 1) - x(j, 1), x(i, 2) - x(j, 2)};
    const double fv[3] = {f.x, f.y, f.z};
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++) sums.products[3 * a + b] += l[a] * fv[b];
  }
  KOKKOS_INLINE_FUNCTION void init(value_type &sums) const
  {
    sums.contacts = sums.stuck = sums.largest_slip2 = 0.0;
    for (double &p : sums.products) p = 0.0;
    sums.misfit[0] = sums.misfit[1] = 0.0;
  }
  KOKKOS_INLINE_FUNCTION void join(value_type &into, const value_type &from) const
  {
    into.contacts += from.contacts;
    into.stuck += from.stuck;
    if (from.largest_slip2 > into.largest_slip2) into.largest_slip2 = from.largest_slip2;
    for (int m = 0; m < 9; m++) into.products[m] += from.products[m];
    into.misfit[0] += from.misfit[0];
    into.misfit[1] += from.misfit[1];
  }
};

}    // namespace ge_coulomb_step

namespace LAMMPS_NS {

using namespace ge_coulomb_step;

// The step over the slots of PairGranularExactKokkos<DeviceType>, a friend of the pair. Its
// arrays are kept from step to step (grown as needed). The solve is the offload's
// (CoulombFrictionOffload, coulomb_friction_offload_kokkos.cpp): the parallel Newton solver
// with the contacts in colours, the same preconditioners, the same host-thread limit on colours.
template <class DeviceType> class CoulombFrictionStepKokkos : public CoulombFrictionStep {
 public:
  using Space = typename DeviceType::execution_space;
  using Choices = ge_coulomb_problem::SolveInSpace<Space>;

  explicit CoulombFrictionStepKokkos(PairGranularExactKokkos<DeviceType> *owner) : pair(owner) {}

  bool solve(const Settings &settings, CoulombFrictionOffload::Solve &out,
             std::vector<Vec3> &host_force) override
  {
    solver.reset();
    npair = make_contacts(settings);
    const int nc = npair + settings.nhost;
    add_host_contacts(settings);
    ncontacts = nc;
    extrapolating = settings.warm == ge::CoulombWarmStart::Extrapolated;
    if (nc == 0) {
      // nothing to solve: the totals are the other forces' (a start with no error is close)
      out = CoulombFrictionOffload::Solve{};
      out.close_start = true;
      out.totals.assign(settings.total0, settings.total0 + 6 * (size_t) settings.nlocal);
      return true;
    }
    // the colours and the bodies' lists from the contacts' two ints, on the host
    auto body_i = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), made.body_i);
    auto body_j = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), made.body_j);
    for (int k = 0; k < nc; k++)
      if (body_j(k) >= settings.nlocal) return false;    // (a contact on a ghost's totals)
    const ge_coulomb_problem::Schedule schedule =
        ge_coulomb_problem::colour_schedule(settings.nlocal, nc, body_i.data(), body_j.data());
    if (!Choices::takes(schedule)) return false;
    place_in_colours(schedule, nc);
    std::vector<int> body_start, side;
    ge_coulomb_problem::body_lists(
        settings.nlocal, nc, [&](int n) { return body_i(schedule.original[n]); },
        [&](int n) { return body_j(schedule.original[n]); }, body_start, side);
    set_row_bounds(body_start, side, settings.nlocal, nc);
    grow(total0, 6 * (size_t) settings.nlocal);
    copy_to_space(total0, settings.total0, 6 * (size_t) settings.nlocal);

    ge_coulomb_problem::ProblemInPlace problem;
    problem.nc = nc;
    problem.nb = settings.nlocal;
    problem.tol = settings.tol;
    problem.terms = coloured.terms.data();
    problem.start = coloured.start.data();
    problem.total0 = total0.data();
    problem.body_start = this->body_start.data();
    problem.side = this->side.data();
    loops.use_graphs(settings.space.graphs);
    solver = std::make_unique<Solver>(loops, problem, schedule, settings.extrapolated_start, 8,
                                      Choices::preconditioner(settings.space.preconditioner));
    take_result(solver->solve(settings.most), out);
    host_forces(schedule, settings.nhost, host_force);
    return true;
  }

  void store(bool changes_solved, bool tally_pair, bool virial, Sums &sums) override
  {
    sums = Sums{};
    if (npair == 0) return;
    StoreContacts<DeviceType> s;
    s.x = pair->atomKK->k_x.template view<DeviceType>();
    s.state = pair->k_state.template view<DeviceType>();
    s.terms = coloured.terms;
    s.v_t = coloured.v_t;
    s.slot_of = coloured.slot_of;
    s.listed_j = coloured.listed_j;
    s.sign = coloured.sign;
    s.force = solver->forces();
    s.changes_solved = changes_solved;
    s.extrapolating = extrapolating;
    s.products = tally_pair || virial;
    Kokkos::parallel_reduce("ge::coulomb_store", policy(ncontacts), s, sums);
    pair->k_state.template modify<DeviceType>();
    solver.reset();
    // the pair's global vector: the friction's share of its contact stress (tally_friction())
    if (tally_pair)
      for (int m = 0; m < 9; m++) pair->pvector[6 + m] += sums.products[m];
  }

  void hand_over() override { pair->hand_contacts_to_friction(); }

 private:
  using Solver = ge_coulomb_problem::ParallelNewton<ge_coulomb_problem::KokkosLoops<Space>>;

  PairGranularExactKokkos<DeviceType> *pair;
  ge_coulomb_problem::KokkosLoops<Space> loops;
  std::unique_ptr<Solver> solver;
  ContactArrays<DeviceType> made, coloured;    // in the slots' order, and in the colours'
  Ints<DeviceType> count, first, original, body_start, side;
  Doubles<DeviceType> inv_mass, inv_inertia, levers, total0;
  Ints<DeviceType> totals_row;
  int npair = 0;        // the pair's contacts this step (made here: the first of `made`)
  int ncontacts = 0;    // and with the host's
  bool extrapolating = false;
  Ints<DeviceType> host_at;    // where the host's contacts are in the colours' order
  Vecs<DeviceType> host_solved;

  // n values from the host into the first of `to` (copy_in: into a range of it)
  template <class View, class T> static void copy_to_space(View &to, const T *from, size_t n)
  {
    if (n > 0) copy_in(to, std::make_pair(0, static_cast<int>(n)), from);
  }
  template <class View, class T>
  static void copy_in(View &to, std::pair<int, int> range, const T *from)
  {
    Kokkos::View<const T *, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> host(
        from, range.second - range.first);
    Kokkos::deep_copy(Kokkos::subview(to, range), host);
  }
  static Kokkos::RangePolicy<Space, Kokkos::IndexType<int>> policy(int n)
  {
    return Kokkos::RangePolicy<Space, Kokkos::IndexType<int>>(0, n);
  }

  // this step's contacts in the slots' order (made); their number
  int make_contacts(const Settings &settings)
  {
    AtomKokkos *atomKK = pair->atomKK;
    atomKK->sync(pair->execution_space,
                 X_MASK | V_MASK | OMEGA_MASK | RADIUS_MASK | TAG_MASK | TYPE_MASK);
    grow(inv_mass, settings.nall);
    grow(inv_inertia, settings.nall);
    grow(totals_row, settings.nall);
    copy_to_space(inv_mass, settings.inv_mass, settings.nall);
    copy_to_space(inv_inertia, settings.inv_inertia, settings.nall);
    copy_to_space(totals_row, settings.totals_row, settings.nall);

    SlotContacts<DeviceType> s;
    s.x = atomKK->k_x.template view<DeviceType>();
    s.v = atomKK->k_v.template view<DeviceType>();
    s.omega = atomKK->k_omega.template view<DeviceType>();
    s.type = atomKK->k_type.template view<DeviceType>();
    s.tag = atomKK->k_tag.template view<DeviceType>();
    s.radius = atomKK->k_radius.template view<DeviceType>();
    s.ilist = pair->k_ilist.template view<DeviceType>();
    s.offset = pair->k_offset.template view<DeviceType>();
    s.neigh = pair->k_neigh.template view<DeviceType>();
    s.touch = pair->k_touch.template view<DeviceType>();
    s.law = pair->k_law.template view<DeviceType>();
    s.state = pair->k_state.template view<DeviceType>();
    s.inv_mass = inv_mass;
    s.inv_inertia = inv_inertia;
    s.totals_row = totals_row;
    s.tau = settings.tau;
    s.ftm2v = settings.ftm2v;
    s.kinematics = settings.kinematics;
    s.warm = settings.warm;
    s.extrapolated_start = settings.extrapolated_start;

    const int inum = pair->list->inum;
    grow(count, inum + 1);
    grow(first, inum + 1);
    Kokkos::parallel_for("ge::coulomb_count", policy(inum), CountContacts<DeviceType>{s, count});
    int nc = 0;
    Kokkos::parallel_scan("ge::coulomb_first", policy(inum), FirstContacts<DeviceType>{count, first},
                          nc);
    pair->k_state.template modify<DeviceType>();
    made.grow_to(nc + settings.nhost);    // (room for the host's after them)
    if (nc == 0) return 0;
    Kokkos::parallel_for("ge::coulomb_make", policy(inum), MakeContacts<DeviceType>{s, first, made});
    return nc;
  }

  // the host's contacts after the pair's in `made` (make_contacts() made room): their terms and
  // start forces, with no slot (the host stores them)
  void add_host_contacts(const Settings &settings)
  {
    const int n = settings.nhost;
    if (n == 0) return;
    const auto range = std::make_pair(npair, npair + n);
    std::vector<int> body_i(n), body_j(n), none(n, -1);
    std::vector<double> plus(n, 1.0);
    std::vector<Vec3> zero(n, Vec3{0, 0, 0});
    for (int e = 0; e < n; e++) {
      body_i[e] = settings.host_terms[e].i;
      body_j[e] = settings.host_terms[e].j;
    }
    copy_in(made.terms, range, settings.host_terms);
    copy_in(made.start, range, settings.host_start);
    copy_in(made.v_t, range, zero.data());
    copy_in(made.slot_of, range, none.data());
    copy_in(made.listed_j, range, none.data());
    copy_in(made.body_i, range, body_i.data());
    copy_in(made.body_j, range, body_j.data());
    copy_in(made.sign, range, plus.data());
  }

  // the solved forces of the host's contacts, in their order
  void host_forces(const ge_coulomb_problem::Schedule &schedule, int n, std::vector<Vec3> &force)
  {
    force.resize(n);
    if (n == 0) return;
    std::vector<int> at(n);
    for (size_t p = 0; p < schedule.original.size(); p++)
      if (schedule.original[p] >= npair) at[schedule.original[p] - npair] = static_cast<int>(p);
    grow(host_at, n);
    grow(host_solved, n);
    copy_to_space(host_at, at.data(), n);
    Kokkos::parallel_for("ge::coulomb_host_forces", policy(n),
                         GatherForces<DeviceType>{host_at, solver->forces(), host_solved});
    Kokkos::View<Vec3 *, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> to(
        force.data(), n);
    Kokkos::deep_copy(to, Kokkos::subview(host_solved, std::make_pair(0, n)));
  }

  void place_in_colours(const ge_coulomb_problem::Schedule &schedule, int nc)
  {
    grow(original, nc);
    copy_to_space(original, schedule.original.data(), nc);
    coloured.grow_to(nc);
    Kokkos::parallel_for("ge::coulomb_place", policy(nc),
                         PlaceInColours<DeviceType>{original, made, coloured});
  }

  void set_row_bounds(const std::vector<int> &starts, const std::vector<int> &sides, int nb, int nc)
  {
    grow(body_start, starts.size());
    grow(side, std::max<size_t>(sides.size(), 1));
    copy_to_space(body_start, starts.data(), starts.size());
    copy_to_space(side, sides.data(), sides.size());
    grow(levers, nb);
    Kokkos::parallel_for("ge::coulomb_levers", policy(nb),
                         BodyLevers<DeviceType>{body_start, side, coloured.terms, levers});
    Kokkos::parallel_for("ge::coulomb_rows", policy(nc),
                         RowBounds<DeviceType>{body_start, coloured.terms, levers});
  }
};

template <class DeviceType>
std::unique_ptr<CoulombFrictionStep> make_coulomb_friction_step(PairGranularExactKokkos<DeviceType> *pair)
{
  return std::make_unique<CoulombFrictionStepKokkos<DeviceType>>(pair);
}

template std::unique_ptr<CoulombFrictionStep>
make_coulomb_friction_step<LMPDeviceType>(PairGranularExactKokkos<LMPDeviceType> *);
#ifdef LMP_KOKKOS_GPU
template std::unique_ptr<CoulombFrictionStep>
make_coulomb_friction_step<LMPHostType>(PairGranularExactKokkos<LMPHostType> *);
#endif

}    // namespace LAMMPS_NS
