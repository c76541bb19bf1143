/* ----------------------------------------------------------------------
   GRANULAR-EXACT: fix wall/gran/exact/kk, the Kokkos form of fix
   wall/gran/exact (see the header)
------------------------------------------------------------------------- */

#include "fix_wall_gran_exact_kokkos.h"

#include "an_atom_where.h"
#include "atom_kokkos.h"
#include "atom_masks.h"
#include "comm.h"
#include "error.h"
#include "kokkos.h"
#include "memory_kokkos.h"
#include "region.h"
#include "region_in_space.h"
#include "update.h"
#include "utils.h"

#include <cstring>
#include <exception>

using namespace LAMMPS_NS;
using ge::Vec3;

namespace {

typedef Kokkos::View<double *, LMPDeviceType, Kokkos::MemoryTraits<Kokkos::Unmanaged>> Buffer;

// the sums of one step: the host fix's totals (force on the group, contacts, elastic normal
// energy, Jaeger vertices (0 here), Yade springs' energy), then the global virial
// (the host fix's NTOTALS and CONTACT_COLUMNS: checked in the constructor)
constexpr int TOTALS = 7;
constexpr int VIRIAL = TOTALS;
// a region wall's faults, counted where the host fix stops: spheres near more faces than they
// have slots, contacts with a concave face tighter than the sphere
constexpr int TOO_MANY_FACES = VIRIAL + 6, TOO_TIGHT_FACES = TOO_MANY_FACES + 1;
constexpr int NSUMS = TOO_TIGHT_FACES + 1;
constexpr int COLUMNS = 9;
constexpr int VERTEX_DOUBLES = int(sizeof(ge::JaegerVertex) / sizeof(double));
// a Jaeger row: the host fix's record (FixWallGranExact::jaeger_records), count then state
constexpr int JAEGER_COUNT = 0, JAEGER_STATE = 1;

/* ----------------------------------------------------------------------
   one step of the wall's contacts: one thread per owned atom, each contact advanced as the host
   fix's post_force() does (FixWallGranExact::contact() or jaeger_contact(), on a plane or the
   cylinder)
------------------------------------------------------------------------- */

struct WallContacts {
  typedef LMPDeviceType device_type;
  typedef ArrayTypes<LMPDeviceType> AT;
  typedef double value_type[];
  const int value_count = NSUMS;

  typename AT::t_x_array_randomread x;
  typename AT::t_v_array_randomread v, omega;
  typename AT::t_f_array f, torque;
  typename AT::t_int_1d_randomread mask;
  typename AT::t_float_1d_randomread rmass, radius;
  Kokkos::View<const double *, LMPDeviceType> clump_mass;    // empty without clumps
  Kokkos::View<double **, Kokkos::LayoutRight, LMPDeviceType> history;
  Kokkos::View<double **, Kokkos::LayoutRight, LMPDeviceType> contacts;    // empty: none asked
  Kokkos::View<double **, Kokkos::LayoutRight, LMPDeviceType> vatom;       // empty: none asked
  ge::ContactLaw law;
  ge::PlaneCylinderWall wall;
  bool region_wall;
  ge::RegionWall region;
  int nslot, faces_at, history_width;
  ge::WallPointMotion whole;    // the wall's motion at the middle of the step
  double shift, shear_velocity, dt;
  int groupbit, width;
  int jaeger_room, jaeger_vertices;    // Jaeger rows: room for vertices, where they start
  bool turning, cylinder, advance, virial;

  KOKKOS_INLINE_FUNCTION double body_mass(int i) const
  {
    return (clump_mass.extent(0) > 0 && clump_mass(i) > 0.0) ? clump_mass(i) : rmass(i);
  }

  // FixWallGranExact::end_contact(): the row cleared, written only where it holds a contact
  // (most spheres touch no wall: their rows are read, not written, each step). A Jaeger row
  // holds one iff it has vertices or its frame is set: the first step of a touching contact
  // sets the frame (ge::jaeger_press), and a row is otherwise only cleared or read back whole
  // from a record, so the rest of its room (M + 1 vertices) need not be read.
  KOKKOS_INLINE_FUNCTION void end_contact(double *h) const
  {
    if (jaeger_room > 0 && h[JAEGER_COUNT] == 0.0 && !Kokkos::signbit(h[JAEGER_COUNT]) &&
        !ge::jaeger_frame_set(h + JAEGER_STATE))
      return;
    int k = 0;
    while (k < width && h[k] == 0.0 && !Kokkos::signbit(h[k])) k++;    // (+0 as the host's)
    for (; k < width; k++) h[k] = 0.0;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const int i, value_type sums) const
  {
    if (contacts.extent(0) > 0)
      for (int k = 0; k < COLUMNS; k++) contacts(i, k) = 0.0;
    if (!(mask(i) & groupbit)) return;
    const ge::WallSphere sphere{Vec3{x(i, 0), x(i, 1), x(i, 2)}, Vec3{v(i, 0), v(i, 1), v(i, 2)},
                                Vec3{omega(i, 0), omega(i, 1), omega(i, 2)}, radius(i),
                                rmass(i)};
    if (region_wall) {
      region_contacts(i, sphere, sums);
      return;
    }
    const ge::WallTouch t = ge::touch_wall(wall, sphere.x, sphere.radius, shift);
    double *h = &history(i, 0);    // (a row: LayoutRight)
    double *state = jaeger_room > 0 ? h + JAEGER_STATE : h;
    // (wall.holds_apart first: a law that never holds apart reads no state here)
    if (!t.touching &&
        !(wall.holds_apart &&
          ge::wall_contact_holds_apart(law, t, sphere.radius, state[ge::CS_NORMAL]))) {
      end_contact(h);
      return;
    }
    const ge::WallPointMotion point =
        ge::wall_point_motion(wall, turning, shear_velocity, t, whole);
    const double mass = ge::wall_law_reads_mass(law) ? body_mass(i) : 0.0;
    const ge::ContactBodies b =
        ge::wall_contact_bodies(law, cylinder, t, sphere, point, mass, dt, advance);
    ge::ContactResult r;
    if (jaeger_room > 0) {
      // FixWallGranExact::jaeger_contact(), its record never short of room (M + 1 vertices)
      ge::JaegerHistory vertices{reinterpret_cast<ge::JaegerVertex *>(h + jaeger_vertices),
                                 static_cast<int>(h[JAEGER_COUNT]), jaeger_room};
      ge::contact_step(law, b, state, &vertices, r);
      h[JAEGER_COUNT] = vertices.count;
      sums[5] += vertices.count;
    } else {
      ge::contact_step(law, b, h, nullptr, r);
    }
    apply_wall_force(i, sphere, t, r, sums);
  }

  /* --------------------------------------------------------------------
     a region wall: FixWallGranExact::region_contacts() for atom i, its row the states of its
     nslot slots, then the face each holds (-1: free)
  -------------------------------------------------------------------- */

  KOKKOS_INLINE_FUNCTION void end_slot_contact(double *row, int slot) const
  {
    double *h = row + slot * history_width;
    for (int k = 0; k < history_width; k++)
      if (h[k] != 0.0 || Kokkos::signbit(h[k])) h[k] = 0.0;
    row[faces_at + slot] = -1.0;
  }

  // FixWallGranExact::assign_slots(): a face touched again keeps its slot, a slot whose face
  // is not near any more is cleared, a newly near face takes a free slot
  KOKKOS_INLINE_FUNCTION void assign_slots(double *row, const ge::RegionFace *faces, int nc,
                                           int *slot_of) const
  {
    double *face = row + faces_at;
    for (int s = 0; s < nslot; s++) {
      if (face[s] < 0.0) continue;
      bool touched = false;
      for (int ic = 0; ic < nc; ic++) touched = touched || faces[ic].iwall == face[s];
      if (!touched) end_slot_contact(row, s);
    }
    for (int ic = 0; ic < nc; ic++) {
      int slot = -1;
      for (int s = 0; s < nslot && slot < 0; s++)
        if (face[s] == faces[ic].iwall) slot = s;
      for (int s = 0; s < nslot && slot < 0; s++)
        if (face[s] == -1.0) slot = s;
      face[slot] = faces[ic].iwall;
      slot_of[ic] = slot;
    }
  }

  KOKKOS_INLINE_FUNCTION void region_contacts(int i, const ge::WallSphere &sphere,
                                              value_type sums) const
  {
    // (FixWallGranExact::region_reach())
    const double reach = wall.holds_apart ? -ge::jkr_break_overlap(law.cat.normal.Ebar,
                                                                   4.0 * sphere.radius,
                                                                   law.cat.normal.gamma)
                                          : 0.0;
    ge::RegionFace faces[ge::REGION_MOST_FACES];
    const int nc = ge::region_faces(region, sphere.x, sphere.radius + reach, faces);
    if (nc > nslot) {
      sums[TOO_MANY_FACES] += 1.0;
      return;
    }
    double *row = &history(i, 0);    // (a row: LayoutRight)
    int slot_of[ge::REGION_MOST_FACES];
    assign_slots(row, faces, nc, slot_of);
    for (int ic = 0; ic < nc; ic++) {
      const ge::RegionFace &c = faces[ic];
      double *h = row + slot_of[ic] * history_width;
      // FixWallGranExact::region_touch()
      if (!(c.r > 0.0) || !(c.r < sphere.radius + reach)) {
        end_slot_contact(row, slot_of[ic]);
        continue;
      }
      if (c.radius < 0.0 && !(-c.radius > sphere.radius)) {
        sums[TOO_TIGHT_FACES] += 1.0;
        continue;
      }
      const ge::WallTouch t{c.r < sphere.radius, Vec3{c.del.x / c.r, c.del.y / c.r, c.del.z / c.r},
                            sphere.radius - c.r, c.radius};
      if (!t.touching &&
          !(wall.holds_apart &&
            ge::wall_contact_holds_apart(law, t, sphere.radius, h[ge::CS_NORMAL]))) {
        end_slot_contact(row, slot_of[ic]);
        continue;
      }
      // FixWallGranExact::region_point_motion()
      ge::WallPointMotion point;
      point.velocity = ge::region_face_velocity(region.placement, sphere.x, c);
      if (region.placement.rotated) point.spin = region.placement.spin;
      const double mass = ge::wall_law_reads_mass(law) ? body_mass(i) : 0.0;
      ge::ContactResult r;
      ge::contact_step(law, ge::wall_contact_bodies(law, false, t, sphere, point, mass, dt, advance),
                       h, nullptr, r);
      apply_wall_force(i, sphere, t, r, sums);
    }
  }

  // FixWallGranExact::apply_wall_force()
  KOKKOS_INLINE_FUNCTION void apply_wall_force(int i, const ge::WallSphere &sphere,
                                               const ge::WallTouch &t, const ge::ContactResult &r,
                                               value_type sums) const
  {
    const Vec3 on_i = r.force_i, turn_i = r.torque_i - r.moment;
    f(i, 0) += on_i.x;
    f(i, 1) += on_i.y;
    f(i, 2) += on_i.z;
    torque(i, 0) += turn_i.x;
    torque(i, 1) += turn_i.y;
    torque(i, 2) += turn_i.z;
    sums[0] += on_i.x;
    sums[1] += on_i.y;
    sums[2] += on_i.z;
    sums[3] += 1.0;
    sums[4] += r.energy_n;
    sums[6] += r.energy_moment;
    // (rows: LayoutRight)
    if (contacts.extent(0) > 0)
      ge::record_wall_contact(&contacts(i, 0), sphere.x, sphere.radius, t, on_i);
    if (virial) {
      // FixWallGranExact::tally_virial(): the branch from the wall point to the centre
      double w[6];
      ge::wall_virial((sphere.radius - t.overlap) * t.normal, on_i, w);
      for (int k = 0; k < 6; k++) sums[VIRIAL + k] += w[k];
      if (vatom.extent(0) > 0)
        for (int k = 0; k < 6; k++) vatom(i, k) += w[k];
    }
  }

  KOKKOS_INLINE_FUNCTION void init(value_type sums) const
  {
    for (int k = 0; k < NSUMS; k++) sums[k] = 0.0;
  }
  KOKKOS_INLINE_FUNCTION void join(value_type dst, const value_type src) const
  {
    for (int k = 0; k < NSUMS; k++) dst[k] += src[k];
  }
};

}    // namespace

/* ---------------------------------------------------------------------- */

FixWallGranExactKokkos::FixWallGranExactKokkos(LAMMPS *lmp, int narg, char **arg) :
    FixWallGranExact(lmp, narg, arg)
{
  static_assert(TOTALS == NTOTALS && COLUMNS == CONTACT_COLUMNS,
                "the kernel's sums and columns are the host fix's");
  atomKK = (AtomKokkos *) atom;
  if (wallstyle == REGION && jaeger())
    kept_on_host = "a region wall with the Jaeger law";
  else if (wallstyle == REGION)
    kept_on_host = region_shape_in_space(region, region_shape);
  else if (jaeger() && law.jaeger.capacity <= 0)
    kept_on_host = "the Jaeger law without 'capacity M' (its records have any length)";
  else if (ge::is_coulomb(law))
    kept_on_host = "'tangential coulomb' (its friction is solved on the host)";
  if (!in_space()) return;    // the host fix, as it is

  kokkosable = 1;
  exchange_comm_device = 1;
  sort_device = 1;
  execution_space = Device;
  datamask_read = X_MASK | V_MASK | OMEGA_MASK | F_MASK | TORQUE_MASK | RADIUS_MASK |
      RMASS_MASK | MASK_MASK;
  datamask_modify = F_MASK | TORQUE_MASK;

  // the host fix's per-atom arrays give way to views, whose host copies they become; a Jaeger
  // record is a row of fixed width (the host fix's records, the host copy's rows)
  if (jaeger()) {
    jaeger_room = law.jaeger.capacity + 1;
    row_width = jaeger_vertices + VERTEX_DOUBLES * jaeger_room;
    std::vector<std::vector<double>>().swap(jaeger_records);
    maxexchange_dynamic = 0;
    maxexchange = 1 + row_width;    // (on the host: the record's size, then the record)
  } else {
    // a region wall's row: its slots' states, then the face each slot holds (the host fix's
    // slot_wall, whose rows point there)
    faces_at = nslot * history_width;
    row_width = faces_at + (wallstyle == REGION ? nslot : 0);
  }
  memory->destroy(history);
  memory->destroy(slot_wall);
  memory->destroy(contact_output);
  history = nullptr;
  slot_wall = nullptr;
  contact_output = nullptr;
  grow_arrays(atom->nmax);
  for (int i = 0; i < atom->nlocal; i++) set_arrays(i);
}

FixWallGranExactKokkos::~FixWallGranExactKokkos()
{
  if (!in_space()) return;
  slot_wall = nullptr;    // (rows of k_history)
  memoryKK->destroy_kokkos(k_history, history);
  memoryKK->destroy_kokkos(k_contacts, contact_output);
}

// LAMMPS hands per-atom restart data to a fix of the same ID and style (the style with its
// suffix): this fix's data are the host fix's, under its name, so a restart crosses between the
// two both ways. (The style is set after the constructor, and restart data are handed over after
// this.)
void FixWallGranExactKokkos::post_constructor()
{
  FixWallGranExact::post_constructor();
  delete[] style;
  style = utils::strdup("wall/gran/exact");
}

void FixWallGranExactKokkos::init()
{
  FixWallGranExact::init();
  crossings = Crossings();
  if (!in_space()) {
    if (comm->me == 0)
      error->warning(FLERR,
                     "Fix {} wall/gran/exact/kk: {} has no form in the execution space (there: "
                     "xplane, yplane, zplane and zcylinder walls with the linear and catalogue "
                     "laws and Jaeger's with 'capacity M'; sphere, plane, block and cylinder "
                     "and cone regions (a cone about y from outside only), with closed faces and a constant shape, "
                     "moved and rotated, with the linear and catalogue laws); this wall runs on "
                     "the host, so every step copies the atom data to the host and back, and "
                     "LAMMPS sorts and exchanges the atoms on the host",
                     id, kept_on_host);
    return;
  }
  // a region redefined since the fix was: its shape as it is now, where it has a form here
  if (wallstyle == REGION) {
    const std::string why = region_shape_in_space(region, region_shape);
    if (!why.empty())
      error->all(FLERR,
                 "Fix {} wall/gran/exact/kk: {} has no form in the execution space, and this "
                 "wall was defined there; define the wall again for this region (it then runs "
                 "as the host fix)", id, why);
  }
  // LAMMPS' Kokkos exchange run on the host ('-pk kokkos comm host') hands host buffers, which
  // the execution-space form does not read: the classic exchange then
  exchange_comm_device = lmp->kokkos->exchange_comm_on_host ? 0 : 1;
}

void FixWallGranExactKokkos::setup(int vflag)
{
  if (!in_space()) {
    FixWallGranExact::setup(vflag);
    return;
  }
  // the host fix's checks of a run's start, on host copies of the atoms
  atomKK->sync(Host, X_MASK | RADIUS_MASK | MASK_MASK | TAG_MASK);
  crossings.atom_syncs++;
  check_centres_inside();
  post_force(vflag);
  atomKK->sync(Host, F_MASK | TORQUE_MASK);
  crossings.atom_syncs++;
  check_finite_forces(atom, world, error, fmt::format("fix {} wall/gran/exact", id).c_str());
}

/* ----------------------------------------------------------------------
   one step
------------------------------------------------------------------------- */

void FixWallGranExactKokkos::post_force(int vflag)
{
  if (!in_space()) {
    FixWallGranExact::post_force(vflag);
    return;
  }
  v_init(vflag);
  totals_summed = false;
  double sums[NSUMS] = {0.0};
  wall_contacts_in_space(!update->setupflag, sums);
  if (sums[TOO_MANY_FACES] > 0.0)
    error->one(FLERR,
               "Fix wall/gran/exact/kk: {:.0f} spheres touch more faces of region {} than their "
               "{} possible contacts", sums[TOO_MANY_FACES], region_id, nslot);
  if (sums[TOO_TIGHT_FACES] > 0.0)
    error->one(FLERR,
               "Fix wall/gran/exact/kk: {:.0f} spheres touch a concave face of region {} whose "
               "radius of curvature is not larger than theirs (the contact has no effective "
               "radius); make the region wider", sums[TOO_TIGHT_FACES], region_id);
  for (int k = 0; k < TOTALS; k++) totals[k] = sums[k];
  if (vflag_global)
    for (int k = 0; k < 6; k++) virial[k] += sums[VIRIAL + k];
  if (vflag_atom) {
    // (per-atom virial: on the steps that ask for it)
    k_vatom.modify_device();
    k_vatom.sync_host();
    for (int i = 0; i < atom->nlocal; i++)
      for (int k = 0; k < 6; k++) vatom[i][k] += k_vatom.h_view(i, k);
  }
  if (contact_output) {
    k_contacts.modify_device();
    k_contacts.sync_host();
    crossings.contacts_out++;
  }
  if (!update->setupflag) crossings.steps++;
}

void FixWallGranExactKokkos::wall_contacts_in_space(bool advance, double *sums)
{
  atomKK->sync(Device, datamask_read);
  k_history.sync_device();
  if (contact_output) k_contacts.sync_device();
  upload_clump_masses();
  WallContacts c;
  c.x = atomKK->k_x.view<LMPDeviceType>();
  c.v = atomKK->k_v.view<LMPDeviceType>();
  c.omega = atomKK->k_omega.view<LMPDeviceType>();
  c.f = atomKK->k_f.view<LMPDeviceType>();
  c.torque = atomKK->k_torque.view<LMPDeviceType>();
  c.mask = atomKK->k_mask.view<LMPDeviceType>();
  c.rmass = atomKK->k_rmass.view<LMPDeviceType>();
  c.radius = atomKK->k_radius.view<LMPDeviceType>();
  if (pair->clump_masses()) c.clump_mass = k_clump_mass.d_view;
  c.history = k_history.d_view;
  if (contact_output) c.contacts = k_contacts.d_view;
  if (vflag_atom) {
    if ((int) k_vatom.extent(0) < atom->nlocal) k_vatom = dual_rows("wall/gran/exact/kk:vatom", atom->nmax, 6);
    c.vatom = k_vatom.d_view;
    Kokkos::deep_copy(c.vatom, 0.0);
  }
  c.law = law;
  c.wall = plane_cylinder_wall();
  const Motion mid_step = motion_at(elapsed() - 0.5 * update->dt);
  c.whole.velocity = mid_step.velocity;
  c.whole.acceleration = mid_step.acceleration;
  c.shift = plane_shift();
  c.shear_velocity = shear_velocity;
  c.dt = update->dt;
  c.groupbit = groupbit;
  c.width = row_width;
  c.jaeger_room = jaeger_room;
  c.jaeger_vertices = jaeger_vertices;
  c.region_wall = wallstyle == REGION;
  if (c.region_wall) c.region = region_now();
  c.nslot = nslot;
  c.faces_at = faces_at;
  c.history_width = history_width;
  c.turning = rotating_cylinder();
  c.cylinder = wallstyle == ZCYLINDER;
  c.advance = advance;
  c.virial = evflag != 0;
  Kokkos::View<double *, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> result(
      sums, NSUMS);
  Kokkos::parallel_reduce("wall/gran/exact/kk", Kokkos::RangePolicy<LMPDeviceType>(0, atom->nlocal),
                          c, result);
  atomKK->modified(Device, datamask_modify);
  k_history.modify_device();
}

// a region wall now: its shape (read at init) where the region's move and rotate have put it
// this step, and how it moves (FixWallGranExact::place_region(), on the host: the region's
// variables are evaluated there)
ge::RegionWall FixWallGranExactKokkos::region_now()
{
  ge::RegionWall w;
  w.shape = region_shape;
  place_region();
  w.placement = region_placement(region);
  return w;
}

// rigid clumps: their masses (found by the pair style on the host at each neighbour build) for
// the laws that read the effective mass
void FixWallGranExactKokkos::upload_clump_masses()
{
  const double *masses = pair->clump_masses();
  if (!masses) return;
  const int n = atom->nlocal;
  if ((int) k_clump_mass.extent(0) < n)
    k_clump_mass = decltype(k_clump_mass)("wall/gran/exact/kk:clump_mass", atom->nmax);
  for (int i = 0; i < n; i++) k_clump_mass.h_view(i) = masses[i];
  k_clump_mass.modify_host();
  k_clump_mass.sync_device();
  crossings.clump_masses++;
}

// the run's crossings, the most of any process, in the log
void FixWallGranExactKokkos::post_run()
{
  if (!in_space()) return;
  const bigint mine[5] = {crossings.steps, crossings.history_to_host, crossings.atom_syncs,
                          crossings.contacts_out, crossings.clump_masses};
  bigint most[5];
  MPI_Allreduce(mine, most, 5, MPI_LMP_BIGINT, MPI_MAX, world);
  if (comm->me == 0)
    utils::logmesg(lmp,
                   "Fix {} wall/gran/exact/kk crossings in this run (the most of any process): "
                   "{} steps; wall histories: {} copies to the host (restart files, exchanges "
                   "on the host); {} atom-data syncs to the host (the run's setup); {} copies of "
                   "the 'contacts' array; {} uploads of the clumps' masses\n",
                   id, most[0], most[1], most[2], most[3], most[4]);
}

/* ----------------------------------------------------------------------
   the host copy of the histories, for host code (exchange, sort and restart on the host)
------------------------------------------------------------------------- */

void FixWallGranExactKokkos::sync_history_to_host()
{
  if (k_history.need_sync_host()) crossings.history_to_host++;
  k_history.sync_host();
  if (contact_output) k_contacts.sync_host();
}

void FixWallGranExactKokkos::modified_history_on_host()
{
  k_history.modify_host();
  if (contact_output) k_contacts.modify_host();
}

/* ----------------------------------------------------------------------
   per-atom arrays: grown, copied, created, sorted with the atoms
------------------------------------------------------------------------- */

void FixWallGranExactKokkos::grow_arrays(int nmax)
{
  if (!in_space()) {
    FixWallGranExact::grow_arrays(nmax);
    return;
  }
  allocate_rows(nmax);
  if (peratom_flag) {
    memoryKK->grow_kokkos(k_contacts, contact_output, nmax, CONTACT_COLUMNS,
                          "wall/gran/exact/kk:contacts");
    array_atom = contact_output;
  }
}

// (a capacity M keeps M + 1 vertices in every atom's row: a large M may not fit)
void FixWallGranExactKokkos::allocate_rows(int nmax)
{
  try {
    memoryKK->grow_kokkos(k_history, history, nmax, row_width, "wall/gran/exact/kk:history");
  } catch (std::exception &e) {
    error->one(FLERR,
               "Fix {} wall/gran/exact/kk: the wall histories of {} atoms, {} doubles each{}, "
               "do not fit in the execution space's memory ({}); use a smaller capacity or the "
               "host fix", id, nmax, row_width,
               jaeger() ? fmt::format(" (room for the {} vertices of 'capacity {}')",
                                      jaeger_room, law.jaeger.capacity)
                        : std::string(),
               e.what());
  }
  if (wallstyle != REGION) return;
  face_rows.resize(nmax);
  for (int i = 0; i < nmax; i++) face_rows[i] = history[i] + faces_at;
  slot_wall = face_rows.data();
}

void FixWallGranExactKokkos::copy_arrays(int i, int j, int delflag)
{
  if (!in_space()) {
    FixWallGranExact::copy_arrays(i, j, delflag);
    return;
  }
  sync_history_to_host();
  if (jaeger()) {
    // (the host fix's for Jaeger moves records, not rows)
    if (contact_output)
      for (int k = 0; k < CONTACT_COLUMNS; k++) contact_output[j][k] = contact_output[i][k];
    for (int k = 0; k < row_width; k++) history[j][k] = history[i][k];
  } else {
    FixWallGranExact::copy_arrays(i, j, delflag);
  }
  modified_history_on_host();
}

void FixWallGranExactKokkos::set_arrays(int i)
{
  if (!in_space()) {
    FixWallGranExact::set_arrays(i);
    return;
  }
  sync_history_to_host();
  if (jaeger()) {
    if (contact_output)
      for (int k = 0; k < CONTACT_COLUMNS; k++) contact_output[i][k] = 0.0;
    clear_row(i);
  } else {
    FixWallGranExact::set_arrays(i);
  }
  modified_history_on_host();
}

void FixWallGranExactKokkos::clear_row(int i)
{
  for (int k = 0; k < row_width; k++) history[i][k] = 0.0;
}

/* ----------------------------------------------------------------------
   a Jaeger row on the host as the host fix's per-atom data: the record's size, then the record
   [count, state, vertices], its vertices only those it holds (an atom without a contact: size
   0, as the host fix's empty record)
------------------------------------------------------------------------- */

int FixWallGranExactKokkos::record_doubles(int i) const
{
  const double *row = history[i];
  const int count = static_cast<int>(row[JAEGER_COUNT]);
  const bool held = count > 0 || ge::jaeger_frame_set(row + JAEGER_STATE);
  return held ? jaeger_vertices + VERTEX_DOUBLES * count : 0;
}

int FixWallGranExactKokkos::pack_record(int i, double *buf) const
{
  const int size = record_doubles(i);
  buf[0] = size;
  for (int k = 0; k < size; k++) buf[1 + k] = history[i][k];
  return 1 + size;
}

int FixWallGranExactKokkos::unpack_record(int i, const double *buf)
{
  const int size = static_cast<int>(buf[0]);
  const int count = size > 0 ? static_cast<int>(buf[1 + JAEGER_COUNT]) : 0;
  // (a record of the host fix holds room beyond its vertices; its size is what it holds)
  if (size != 0 && (size < jaeger_vertices || count < 0 ||
                    size < jaeger_vertices + VERTEX_DOUBLES * count))
    error->one(FLERR,
               "Fix {} wall/gran/exact/kk: a wall contact's Jaeger record of {} doubles does "
               "not hold its {} vertices after {} doubles of state (a damaged restart file?)",
               id, size, count, jaeger_vertices);
  // a record written with a larger capacity (a run continued with a smaller one) keeps its
  // vertices until its next step merges them down, as the host fix's does: every row then has
  // room for them
  if (count + 1 > jaeger_room) widen_jaeger_rows(count + 1);
  clear_row(i);
  const int held = size > 0 ? jaeger_vertices + VERTEX_DOUBLES * count : 0;
  for (int k = 0; k < held; k++) history[i][k] = buf[1 + k];
  return 1 + size;
}

// Room for `room` vertices in every row (the rows' contents kept: a row's layout is its
// prefix), said once with the memory it costs
void FixWallGranExactKokkos::widen_jaeger_rows(int room)
{
  if (!widened_warned && comm->me == 0)
    error->warning(FLERR,
                   "Fix {} wall/gran/exact/kk: wall contacts read with up to {} vertices, more "
                   "than 'capacity {}' keeps; every atom's row now has room for {} vertices "
                   "({} bytes), and their next steps merge them down to the capacity",
                   id, room - 1, law.jaeger.capacity, room,
                   8 * (jaeger_vertices + VERTEX_DOUBLES * room));
  widened_warned = true;
  modified_history_on_host();    // (the host rows are the current ones: kept by the resize)
  jaeger_room = room;
  row_width = jaeger_vertices + VERTEX_DOUBLES * jaeger_room;
  maxexchange = 1 + row_width;
  allocate_rows(atom->nmax);
  array_atom = contact_output;
}

void FixWallGranExactKokkos::sort_kokkos(Kokkos::BinSort<KeyViewType, BinOp> &sorter)
{
  k_history.sync_device();
  sorter.sort(LMPDeviceType(), k_history.d_view);
  k_history.modify_device();
}

/* ----------------------------------------------------------------------
   migration: in the execution space (Comm's Kokkos exchange), or on the host
------------------------------------------------------------------------- */

// Each sent atom's row_width doubles, in the order of the send list; the atoms that fill
// the holes the sent ones leave (copylist) take their place
int FixWallGranExactKokkos::pack_exchange_kokkos(const int &nsend, DAT::tdual_xfloat_2d &k_buf,
                                                 DAT::tdual_int_1d k_sendlist,
                                                 DAT::tdual_int_1d k_copylist,
                                                 ExecutionSpace /*space*/)
{
  k_history.sync_device();
  k_buf.sync_device();
  k_sendlist.sync_device();
  k_copylist.sync_device();
  const auto hist = k_history.d_view;
  const auto sendlist = k_sendlist.d_view;
  const auto copylist = k_copylist.d_view;
  const Buffer buf(k_buf.d_view.data(), k_buf.extent(0) * k_buf.extent(1));
  const int width = row_width;
  Kokkos::parallel_for(
      "wall/gran/exact/kk:pack", Kokkos::RangePolicy<LMPDeviceType>(0, nsend),
      KOKKOS_LAMBDA(const int s) {
        const int i = sendlist(s);
        for (int k = 0; k < width; k++) buf(s * width + k) = hist(i, k);
        const int j = copylist(s);
        if (j > -1)
          for (int k = 0; k < width; k++) hist(i, k) = hist(j, k);
      });
  k_history.modify_device();
  return nsend * width;
}

// (the atoms from the second neighbour in a dimension follow those from the first, after the
// first's nextrarecv1 doubles)
void FixWallGranExactKokkos::unpack_exchange_kokkos(DAT::tdual_xfloat_2d &k_buf,
                                                    DAT::tdual_int_1d &k_indices, int nrecv,
                                                    int nrecv1, int nextrarecv1,
                                                    ExecutionSpace /*space*/)
{
  k_history.sync_device();
  k_indices.sync_device();
  const auto hist = k_history.d_view;
  const auto indices = k_indices.d_view;
  const Buffer buf(k_buf.d_view.data(), k_buf.extent(0) * k_buf.extent(1));
  const int width = row_width;
  Kokkos::parallel_for(
      "wall/gran/exact/kk:unpack", Kokkos::RangePolicy<LMPDeviceType>(0, nrecv),
      KOKKOS_LAMBDA(const int r) {
        const int i = indices(r);
        if (i < 0) return;
        const int m = r < nrecv1 ? r * width : nextrarecv1 + (r - nrecv1) * width;
        for (int k = 0; k < width; k++) hist(i, k) = buf(m + k);
      });
  k_history.modify_device();
}

int FixWallGranExactKokkos::pack_exchange(int i, double *buf)
{
  if (!in_space()) return FixWallGranExact::pack_exchange(i, buf);
  sync_history_to_host();
  return jaeger() ? pack_record(i, buf) : FixWallGranExact::pack_exchange(i, buf);
}

int FixWallGranExactKokkos::unpack_exchange(int nlocal, double *buf)
{
  if (!in_space()) return FixWallGranExact::unpack_exchange(nlocal, buf);
  sync_history_to_host();
  const int m = jaeger() ? unpack_record(nlocal, buf)
                         : FixWallGranExact::unpack_exchange(nlocal, buf);
  modified_history_on_host();
  return m;
}

/* ----------------------------------------------------------------------
   restart files: the host fix's blocks
------------------------------------------------------------------------- */

int FixWallGranExactKokkos::pack_restart(int i, double *buf)
{
  if (!in_space()) return FixWallGranExact::pack_restart(i, buf);
  sync_history_to_host();
  if (!jaeger()) return FixWallGranExact::pack_restart(i, buf);
  const int m = pack_record(i, buf + 1);
  buf[0] = m + 1;    // the count first: other fixes skip this block by it
  return m + 1;
}

void FixWallGranExactKokkos::unpack_restart(int nlocal, int nth)
{
  if (!in_space()) {
    FixWallGranExact::unpack_restart(nlocal, nth);
    return;
  }
  sync_history_to_host();
  if (!jaeger()) {
    FixWallGranExact::unpack_restart(nlocal, nth);
  } else if (!skip_peratom_restart) {    // (the host fix's reading: skipped for another wall's)
    double **extra = atom->extra;
    int m = 0;
    for (int i = 0; i < nth; i++) m += static_cast<int>(extra[nlocal][m]);
    unpack_record(nlocal, &extra[nlocal][m + 1]);
  }
  modified_history_on_host();
}

int FixWallGranExactKokkos::size_restart(int nlocal)
{
  if (!in_space() || !jaeger()) return FixWallGranExact::size_restart(nlocal);
  sync_history_to_host();
  return 2 + record_doubles(nlocal);
}

int FixWallGranExactKokkos::maxsize_restart()
{
  if (!in_space() || !jaeger()) return FixWallGranExact::maxsize_restart();
  return 2 + row_width;
}

double FixWallGranExactKokkos::memory_usage()
{
  if (!in_space()) return FixWallGranExact::memory_usage();
  return static_cast<double>(k_history.extent(0)) *
      (k_history.extent(1) + k_contacts.extent(1)) * sizeof(double);
}
