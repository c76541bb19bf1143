/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: fix wall/gran/exact, frictional walls with the contact laws of pair
   granular/exact (a wall is a sphere with m -> infinity and R -> infinity, or a curved region
   face's radius of curvature; doc/design_notes.md, "Catalogue conventions").

   fix ID group wall/gran/exact <law words of pair_coeff> <wallstyle> <args> [wall rigid|E nu]
     wallstyle = xplane|yplane|zplane lo hi (NULL: no wall there) | zcylinder R (inside) |
                 region ID (the surface of a LAMMPS region, moving with it)

   The law is read by the parser of pair_coeff (ContactLawWords, contact_law_words.h); the
   pair style must be defined first (the wall takes the body masses from it). Per-atom
   wall-contact history (the state of the law) migrates with its atom and is written to restart
   files: a fixed block for the linear and catalogue laws, a record as long as its history for
   the Jaeger law (freed when the contact ends).
------------------------------------------------------------------------- */

#ifdef FIX_CLASS
// clang-format off
FixStyle(wall/gran/exact,FixWallGranExact);
// clang-format on
#else

#ifndef GE_FIX_WALL_GRAN_EXACT_H
#define GE_FIX_WALL_GRAN_EXACT_H

#include "coulomb_friction_tally.h"
#include "fix.h"
#include "sphere_pair_services.h"

#include "contact/contact_law.hpp"
#include "contact/wall_geometry.hpp"

#include <vector>

namespace LAMMPS_NS {

class FixWallGranExact : public Fix, public CoulombFrictionTally {
 public:
  FixWallGranExact(class LAMMPS *, int, char **);
  ~FixWallGranExact() override;
  void post_constructor() override;
  int setmask() override;
  void init() override;
  void setup(int) override;
  void post_force(int) override;
  double compute_vector(int) override;
  void write_restart(FILE *) override;
  void restart(char *) override;
  double memory_usage() override;

  void grow_arrays(int) override;
  void copy_arrays(int, int, int) override;
  void set_arrays(int) override;
  int pack_exchange(int, double *) override;
  int unpack_exchange(int, double *) override;
  int pack_restart(int, double *) override;
  void unpack_restart(int, int) override;
  int size_restart(int) override;
  int maxsize_restart() override;

  const ge::ContactLaw &contact_law() const { return law; }
  // `tangential coulomb`: the friction the friction fix solved for one of this wall's contacts,
  // into the wall's force on the group and (with fix_modify virial yes) its virial
  void tally_friction(int i, const ge::Vec3 &branch, const ge::Vec3 &force_on_i) override;

 protected:
  enum { XPLANE = 0, YPLANE = 1, ZPLANE = 2, ZCYLINDER = 3, REGION = 4 };
  ge::ContactLaw law;
  SpherePairServices *pair = nullptr;    // (set by init) the bodies' masses, the friction fix
  // (set by init) `tangential coulomb`: the pair's friction fix, which gets the wall's contacts
  class FixCoulombFrictionExact *friction = nullptr;
  int wallstyle;
  double lo, hi;            // plane positions (lo_set/hi_set: given, not NULL)
  bool lo_set, hi_set;
  double cylradius;
  // the planes or the cylinder, for the geometry they share with the Kokkos form
  ge::PlaneCylinderWall plane_cylinder_wall() const
  {
    return ge::PlaneCylinderWall{wallstyle, lo, hi, lo_set, hi_set, cylradius,
                                 ge::holds_apart(law)};
  }
  // region walls: the region, and up to nslot simultaneous contacts per atom (its tmax; 1 for
  // the other styles), each slot kept for one face of the region (slot_wall: its iwall, -1 free)
  class Region *region = nullptr;
  std::string region_id;
  int nslot = 1;
  double **slot_wall = nullptr;
  bool convex_side_given_concave = false;    // region_side_convex_given_concave()
  std::vector<int> slot_of_contact;    // scratch: the slot of each region contact of one atom
  // the region's velocity and spin of the last step taken, for the setup of a run that
  // continues it (Region differences them from positions, and at a run's setup it has only the
  // current one); written to restart files
  double step_velocity[3] = {0, 0, 0}, step_spin[3] = {0, 0, 0};
  bigint step_of_velocity = -1;
  double **history;         // per-atom wall-contact state (nslot x history_width doubles), not Jaeger
  // `tangential jaeger`: per atom and slot (jaeger_records[i * nslot + slot]) a record
  // [count, state (JAEGER_STATE), vertices...], empty without a contact; the vertices are
  // ge::JaegerVertex, room for (size - JAEGER_VERTICES)/4
  std::vector<std::vector<double>> jaeger_records;
  enum { JAEGER_COUNT = 0, JAEGER_STATE = 1 };
  int jaeger_vertices = 0;    // where the vertices start: after the count and the law's state
  int history_width = 0;      // doubles per slot of `history`: the law's state
  bool jaeger() const { return law.tangential == ge::LAW_JAEGER; }
  // the Hertz contact and the adhesive ones on it (jkr, dmt): they need the wall's material
  bool hertzian() const { return ge::is_hertzian(law.cat.normal.model); }
  int per_atom_doubles(int i) const;    // what pack_exchange/pack_restart write for atom i
  // what the per-atom blocks of restart files hold, written with the global restart data and
  // checked before the blocks are read (restart_layout())
  enum { LAYOUT_SIZE = 4 };
  void restart_layout(double layout[LAYOUT_SIZE]) const;
  bool skip_peratom_restart = false;    // the file's blocks are another wall's: not read
  int restart_history_width = 0;        // doubles per slot in the file's blocks (restart())
  int pack_atom(int i, double *buf) const;
  int unpack_atom(int i, const double *buf, int slot_width);
  void update_maxexchange();

  // motion (wiggle or shear, parse_motion())
  enum { MOTION_NONE = 0, MOTION_WIGGLE = 1, MOTION_SHEAR = 2 };
  int motion, motion_axis;
  double amplitude, angular_frequency, shear_velocity;
  bigint time_origin;       // the step at which the wall's motion starts (kept in restarts)
  struct Motion {           // of the wall as a whole
    double shift = 0.0;     // displacement along motion_axis
    ge::Vec3 velocity{0, 0, 0}, acceleration{0, 0, 0};
  };
  using PointMotion = ge::WallPointMotion;    // of the wall's material point at a contact
  int parse_motion(int narg, char **arg, int iarg);
  Motion motion_at(double elapsed) const;
  double elapsed() const;
  bool rotating_cylinder() const;
  enum { NTOTALS = 7 };
  double totals[NTOTALS];   // wall force on the group (3), contacts, elastic normal energy,
  double totals_all[NTOTALS];    // Jaeger history vertices held, Yade moment springs' energy
  bool totals_summed;

  using Touch = ge::WallTouch;    // the wall point nearest to atom i, seen from the atom
  bool held_apart(int i, const Touch &t, int slot = 0) const;
  double region_reach(double radius) const;
  double effective_radius(int i, const Touch &t) const;
  Touch touch(int i, double shift) const;
  void check_centres_inside();
  void check_magnitude(const char *name, double value) const;
  bool overlaps_checked = false;    // the overlap warning was given (first run only)
  double plane_shift() const;
  ge::Vec3 normal_rate(int i, const Touch &t) const;
  PointMotion point_motion(const Touch &t, const Motion &whole) const;
  int apply_wall_material(int narg, char **arg, int iarg);
  void parse_region(int narg, char **arg, int iarg);
  void region_contacts(bool advance);
  bool place_region();
  void assign_slots(int i, int ncontacts);
  Touch region_touch(int i, int ic) const;
  PointMotion region_point_motion(int i, int ic, bool moving) const;
  int slot_of_face(int i, int iwall) const;
  bool touches_region(int i) const;
  // one contact of atom i in a slot, against a wall point moving as `wall` says
  ge::ContactBodies bodies_of(int i, const Touch &t, bool advance, const PointMotion &wall) const;
  void contact(int i, int slot, const Touch &t, bool advance, const PointMotion &wall);
  // the wall's motion at the start and end of the friction's kick (plane and cylinder walls)
  struct Kick {
    Motion start, end;
  };
  Kick friction_kick() const;
  void hand_to_friction(int i, int slot, const Touch &t, const ge::Vec3 &v_start,
                        const ge::Vec3 &v_end);
  // `contacts`: the per-atom array (array_atom) of this step's wall contacts
  enum { CONTACT_COLUMNS = 9 };
  double **contact_output;
  void clear_contact_output();
  void record_contact(int i, const Touch &t, const ge::Vec3 &force_on_i);
  void apply_wall_force(int i, const Touch &t, const ge::Vec3 &force_on_i,
                        const ge::Vec3 &torque_on_i, double energy);
  void tally_virial(int i, const Touch &t, const ge::Vec3 &force_on_i);
  void tally_virial(int i, const ge::Vec3 &branch, const ge::Vec3 &force_on_i);
  void jaeger_contact(int i, int slot, const Touch &t, bool advance, const PointMotion &wall);
  void end_contact(int i);             // every slot of atom i
  void end_slot_contact(int i, int slot);
};

}    // namespace LAMMPS_NS

#endif
#endif
