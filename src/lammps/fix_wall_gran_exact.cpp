/* ----------------------------------------------------------------------
   GRANULAR-EXACT: fix wall/gran/exact (see the header)
------------------------------------------------------------------------- */

#include "fix_wall_gran_exact.h"

#include "an_atom_where.h"
#include "atom.h"
#include "comm.h"
#include "contact_law_words.h"
#include "domain.h"
#include "error.h"
#include "fix_coulomb_friction_exact.h"
#include "force.h"
#include "math_const.h"
#include "memory.h"
#include "pair.h"
#include "region.h"
#include "region_in_space.h"
#include "update.h"

#include "contact/catalogue_law.hpp"
#include "contact/linear_frictional.hpp"

#include <cmath>
#include <cstring>
#include <mpi.h>

using namespace LAMMPS_NS;
using namespace FixConst;
using MathConst::MY_PI;
using ge::Vec3;

namespace {

const char *const USAGE =
    "fix ID group wall/gran/exact <law words of pair_coeff> xplane|yplane|zplane <lo> <hi> | "
    "zcylinder <R> | region <region-ID> [wall rigid | wall <E> <nu>] "
    "[wiggle x|y|z <amplitude> <period> | shear x|y|z <velocity>] [contacts] "
    "(lo or hi may be NULL; 'wall' is required with 'hertz')";

bool is_wallstyle(const char *word)
{
  return strcmp(word, "xplane") == 0 || strcmp(word, "yplane") == 0 ||
      strcmp(word, "zplane") == 0 || strcmp(word, "zcylinder") == 0 ||
      strcmp(word, "region") == 0;
}

// the pair style granular/exact, or one of its accelerator variants (also inside pair hybrid)
SpherePairServices *sphere_pair(Force *force)
{
  for (const char *style : {"granular/exact", "granular/exact/kk", "granular/exact/kk/device",
                            "granular/exact/kk/host"})
    if (auto *pair = dynamic_cast<SpherePairServices *>(force->pair_match(style, 1)))
      return pair;
  return nullptr;
}
}    // namespace

/* ---------------------------------------------------------------------- */

FixWallGranExact::FixWallGranExact(LAMMPS *lmp, int narg, char **arg) :
    Fix(lmp, narg, arg), history(nullptr)
{
  if (!atom->radius_flag || !atom->rmass_flag || !atom->omega_flag)
    error->all(FLERR, "Fix wall/gran/exact requires atom_style sphere (radius, rmass, omega)");
  // the law words need no pair style, but the wall's contacts do (body masses, friction fix):
  // say so where the wall is defined rather than at the first run
  if (sphere_pair(force) == nullptr)
    error->all(FLERR, "Fix wall/gran/exact reads its contact law with pair granular/exact: "
                      "define 'pair_style granular/exact' first");

  int style_at = 3;
  while (style_at < narg && !is_wallstyle(arg[style_at])) style_at++;
  if (style_at == 3)
    error->all(FLERR, "Incorrect fix wall/gran/exact: missing contact law; usage: {}", USAGE);
  if (style_at == narg)
    error->all(FLERR, "Incorrect fix wall/gran/exact: missing wall style (xplane, yplane, zplane, "
                      "zcylinder or region); usage: {}", USAGE);
  law = ContactLawWords(lmp).parse(style_at, arg, 3, "fix wall/gran/exact");
  // no output of the wall reads its contacts' work and dissipation (they feed no force): the
  // linear laws' steps skip them, the refined law's slip-dissipation integral above all
  law.linear.work = false;
  // the state a contact keeps (the Yade moments' relative rotation after a linear or Jaeger
  // law's own)
  history_width = restart_history_width = ge::contact_state_size(law);
  jaeger_vertices = 1 + ge::contact_state_size(law);
  // (the wall's own material comes with 'wall <E> <nu>': a second one here would be ignored)
  if (hertzian() && !ge::one_material(law.hertz))
    error->all(FLERR, "Incorrect fix wall/gran/exact: 'hertz', 'jkr' and 'dmt' take the spheres' "
                      "material only ('hertz <E> <nu>'); give the wall's with 'wall <E> <nu>' or "
                      "'wall rigid'");

  int iarg = style_at;
  const std::string style = arg[iarg++];
  lo_set = hi_set = false;
  lo = hi = cylradius = 0.0;
  if (style == "region") {
    parse_region(narg, arg, iarg++);
  } else if (style == "zcylinder") {
    wallstyle = ZCYLINDER;
    if (iarg + 1 > narg) error->all(FLERR, "Incorrect fix wall/gran/exact: zcylinder expects <R>");
    cylradius = utils::numeric(FLERR, arg[iarg++], false, lmp);
    if (!(cylradius > 0.0))
      error->all(FLERR, "Incorrect fix wall/gran/exact: zcylinder R = {} must be > 0", cylradius);
    if (domain->xperiodic || domain->yperiodic)
      error->all(FLERR, "Fix wall/gran/exact zcylinder needs non-periodic x and y");
  } else {
    wallstyle = style == "xplane" ? XPLANE : style == "yplane" ? YPLANE : ZPLANE;
    if (iarg + 2 > narg)
      error->all(FLERR, "Incorrect fix wall/gran/exact: {} expects <lo> <hi>", style);
    if (strcmp(arg[iarg], "NULL") != 0) {
      lo = utils::numeric(FLERR, arg[iarg], false, lmp);
      lo_set = true;
    }
    iarg++;
    if (strcmp(arg[iarg], "NULL") != 0) {
      hi = utils::numeric(FLERR, arg[iarg], false, lmp);
      hi_set = true;
    }
    iarg++;
    if (!lo_set && !hi_set)
      error->all(FLERR, "Incorrect fix wall/gran/exact: {} with both walls NULL", style);
    if (lo_set && hi_set && !(lo < hi))
      error->all(FLERR, "Incorrect fix wall/gran/exact: {} lo = {} must be < hi = {}", style, lo,
                 hi);
    if (domain->periodicity[wallstyle])
      error->all(FLERR, "Fix wall/gran/exact {} in a periodic dimension", style);
  }
  bool material_given = false;
  motion = MOTION_NONE;
  motion_axis = 0;
  amplitude = angular_frequency = shear_velocity = 0.0;
  while (iarg < narg) {
    if (strcmp(arg[iarg], "wall") == 0) {
      if (material_given)
        error->all(FLERR, "Incorrect fix wall/gran/exact: 'wall' is given twice");
      iarg = apply_wall_material(narg, arg, iarg + 1);
      material_given = true;
    } else if (strcmp(arg[iarg], "wiggle") == 0 || strcmp(arg[iarg], "shear") == 0) {
      iarg = parse_motion(narg, arg, iarg);
    } else if (strcmp(arg[iarg], "contacts") == 0) {
      // per-atom output of the wall contacts, as with LAMMPS's fix wall/gran ... contacts
      if (peratom_flag)
        error->all(FLERR, "Incorrect fix wall/gran/exact: 'contacts' is given twice");
      peratom_flag = 1;
      size_peratom_cols = CONTACT_COLUMNS;
      peratom_freq = 1;
      iarg++;
    } else {
      error->all(FLERR, "Incorrect fix wall/gran/exact: unexpected argument '{}'; usage: {}",
                 arg[iarg], USAGE);
    }
  }
  if (wallstyle == REGION && motion != MOTION_NONE)
    error->all(FLERR, "Incorrect fix wall/gran/exact: a region wall moves with its region (region "
                      "... move/rotate), not with wiggle or shear");
  if (hertzian() && !material_given)
    error->all(FLERR, "Incorrect fix wall/gran/exact: the '{}' law needs the wall's material: "
                      "'wall rigid' or 'wall <E> <nu>'",
               law.normal == ge::LAW_HERTZ ? "hertz" : law.normal == ge::LAW_JKR ? "jkr" : "dmt");
  time_origin = update->ntimestep;

  restart_peratom = 1;
  restart_global = 1;
  virial_global_flag = virial_peratom_flag = 1;    // with fix_modify virial yes, as fix wall
  vector_flag = 1;
  size_vector = NTOTALS;
  extvector = 1;
  global_freq = 1;
  totals_summed = false;
  for (double &t : totals) t = 0.0;

  if (jaeger())
    maxexchange_dynamic = 1;    // records migrate with their atoms, any length
  else
    maxexchange = (wallstyle == REGION ? nslot : 0) + nslot * history_width;
  contact_output = nullptr;
  FixWallGranExact::grow_arrays(atom->nmax);
  atom->add_callback(Atom::GROW);
  atom->add_callback(Atom::RESTART);
  for (int i = 0; i < atom->nlocal; i++) set_arrays(i);
}

/* ----------------------------------------------------------------------
   the wall's material: a Hertz law needs it (doc/design_notes.md, "Catalogue conventions": a
   rigid wall gives Ebar = E/(1-nu^2), Gbar = G/(2-nu); a deformable one mixes like a second
   sphere).
   LAMMPS' wall/gran takes the particle's material for the wall, half the rigid Ebar.
------------------------------------------------------------------------- */

int FixWallGranExact::apply_wall_material(int narg, char **arg, int iarg)
{
  if (!hertzian())
    error->all(FLERR, "Incorrect fix wall/gran/exact: 'wall' (the wall's material) only applies "
                      "to the 'hertz', 'jkr' and 'dmt' normal models");
  if (iarg == narg)
    error->all(FLERR, "Incorrect fix wall/gran/exact: wall expects 'rigid' or <E> <nu>");
  const double E = law.hertz.E_i, nu = law.hertz.nu_i;
  if (strcmp(arg[iarg], "rigid") != 0 && iarg + 2 > narg)
    error->all(FLERR, "Incorrect fix wall/gran/exact: wall expects 'rigid' or <E> <nu>");
  if (jaeger()) {
    // the sphere and the wall's half-space: Mindlin's effective moduli of the two materials
    // (notes: Jaeger materials); a wall of the sphere's own material as before, bit for bit
    double E_w = INFINITY, nu_w = 0.0;
    if (strcmp(arg[iarg], "rigid") == 0) {
      iarg++;
    } else {
      E_w = utils::numeric(FLERR, arg[iarg++], false, lmp);
      nu_w = utils::numeric(FLERR, arg[iarg++], false, lmp);
      if (!(E_w > 0.0))
        error->all(FLERR, "Incorrect fix wall/gran/exact: wall E = {} must be > 0", E_w);
      if (!(nu_w > -1.0 && nu_w <= 0.5))
        error->all(FLERR, "Incorrect fix wall/gran/exact: wall nu = {} must be in (-1, 0.5]",
                   nu_w);
      if (nu_w < 0.0 && comm->me == 0)
        error->warning(FLERR, "Fix wall/gran/exact: the wall's negative Poisson ratio nu = {} "
                              "(auxetic material) accepted", nu_w);
    }
    law.jaeger = ge::jaeger_material_of_pair(E, nu, E_w, nu_w, law.jaeger.mu, law.jaeger.lambda,
                                             law.jaeger.capacity);
    return iarg;
  }
  if (strcmp(arg[iarg], "rigid") == 0) {
    iarg++;
    law.cat.normal.Ebar = ge::effective_modulus_rigid_wall(E, nu);
    law.cat.gbar = ge::effective_shear_modulus_rigid_wall(E, nu);
    law.cat.nubar = nu;
  } else {
    const double E_w = utils::numeric(FLERR, arg[iarg++], false, lmp);
    const double nu_w = utils::numeric(FLERR, arg[iarg++], false, lmp);
    if (!(E_w > 0.0))
      error->all(FLERR, "Incorrect fix wall/gran/exact: wall E = {} must be > 0", E_w);
    if (!(nu_w > -1.0 && nu_w <= 0.5))
      error->all(FLERR, "Incorrect fix wall/gran/exact: wall nu = {} must be in (-1, 0.5]", nu_w);
    if (nu_w < 0.0 && comm->me == 0)
      error->warning(FLERR, "Fix wall/gran/exact: the wall's negative Poisson ratio nu = {} "
                            "(auxetic material) accepted", nu_w);
    law.hertz = ge::hertz_params(E, nu, E_w, nu_w);
    law.cat.normal.Ebar = ge::hertz_effective_modulus(law.hertz);
    law.cat.gbar = ge::hertz_effective_shear_modulus(law.hertz);
    law.cat.nubar = 0.5 * (nu + nu_w);
  }
  return iarg;
}

/* ----------------------------------------------------------------------
   a region wall: the surface of a LAMMPS region (its inside, or its outside with side out);
   a sphere may touch up to region->tmax of its faces at once, each with its own history
------------------------------------------------------------------------- */

void FixWallGranExact::parse_region(int narg, char **arg, int iarg)
{
  wallstyle = REGION;
  if (iarg + 1 > narg)
    error->all(FLERR, "Incorrect fix wall/gran/exact: region expects <region-ID>");
  region_id = arg[iarg];
  region = domain->get_region_by_id(region_id);
  if (region == nullptr)
    error->all(FLERR, "Fix wall/gran/exact: region {} does not exist (define it first)", region_id);
  nslot = region->tmax;
  slot_of_contact.resize(nslot);
  const std::string defect = region_surface_defect(region);
  if (!defect.empty()) error->all(FLERR, "Fix wall/gran/exact: {}", defect);
}

/* ----------------------------------------------------------------------
   wall motion, as LAMMPS' fix wall/gran: `wiggle dim A period` moves the wall along dim by
   A (1 - cos(2 pi t/period)) (a plane's position changes only when dim is its normal; a
   cylinder wiggles along z); `shear dim v` moves a plane along dim (in its plane) at v, and
   turns the cylinder about z with surface speed v (dim x or y: clockwise seen from +z for
   v > 0) or slides it along z (dim z). t counts from the step the fix was defined.
------------------------------------------------------------------------- */

int FixWallGranExact::parse_motion(int narg, char **arg, int iarg)
{
  const std::string keyword = arg[iarg];
  const bool wiggle = keyword == "wiggle";
  const int nargs = wiggle ? 4 : 3;
  if (motion != MOTION_NONE)
    error->all(FLERR,
               "Incorrect fix wall/gran/exact: one wall motion at most ('wiggle' or 'shear')");
  if (iarg + nargs > narg)
    error->all(FLERR, "Incorrect fix wall/gran/exact: {} expects {}", keyword,
               wiggle ? "<x|y|z> <amplitude> <period>" : "<x|y|z> <velocity>");
  const std::string dim = arg[iarg + 1];
  if (dim != "x" && dim != "y" && dim != "z")
    error->all(FLERR, "Incorrect fix wall/gran/exact: {} direction '{}' must be x, y or z", keyword,
               dim);
  motion_axis = dim[0] - 'x';
  if (wiggle) {
    motion = MOTION_WIGGLE;
    amplitude = utils::numeric(FLERR, arg[iarg + 2], false, lmp);
    const double period = utils::numeric(FLERR, arg[iarg + 3], false, lmp);
    if (!(period > 0.0))
      error->all(FLERR, "Incorrect fix wall/gran/exact: wiggle period = {} must be > 0", period);
    // (an amplitude of 1e308 gave an infinite wall velocity and NaN in the thermo output)
    check_magnitude("wiggle amplitude", amplitude);
    check_magnitude("wiggle period", period);
    angular_frequency = 2.0 * MY_PI / period;
    if (wallstyle == ZCYLINDER && motion_axis != 2)
      error->all(FLERR, "Incorrect fix wall/gran/exact: a zcylinder wiggles along z only");
  } else {
    motion = MOTION_SHEAR;
    shear_velocity = utils::numeric(FLERR, arg[iarg + 2], false, lmp);
    check_magnitude("shear velocity", shear_velocity);
    if (wallstyle != ZCYLINDER && motion_axis == wallstyle)
      error->all(FLERR, "Incorrect fix wall/gran/exact: shear direction {} is the normal of the "
                        "plane; a plane shears along its surface", dim);
  }
  return iarg + nargs;
}

// the wall's motion at `elapsed` time units after its origin
FixWallGranExact::Motion FixWallGranExact::motion_at(double elapsed) const
{
  Motion m;
  double v = 0.0, a = 0.0;
  if (motion == MOTION_WIGGLE) {
    const double phase = angular_frequency * elapsed;
    m.shift = amplitude * (1.0 - std::cos(phase));
    v = amplitude * angular_frequency * std::sin(phase);
    a = amplitude * angular_frequency * angular_frequency * std::cos(phase);
  } else if (motion == MOTION_SHEAR) {
    v = shear_velocity;
  }
  double vv[3] = {0.0, 0.0, 0.0}, aa[3] = {0.0, 0.0, 0.0};
  vv[motion_axis] = v;
  aa[motion_axis] = a;
  m.velocity = ge::vec3(vv);
  m.acceleration = ge::vec3(aa);
  return m;
}

// time since the origin at the current positions
double FixWallGranExact::elapsed() const
{
  return static_cast<double>(update->ntimestep - time_origin) * update->dt;
}

bool FixWallGranExact::rotating_cylinder() const
{
  return wallstyle == ZCYLINDER && motion == MOTION_SHEAR && motion_axis != 2;
}

/* ----------------------------------------------------------------------
   the velocity and acceleration of the wall's material point at a contact (t from touch()),
   given the motion of the wall as a whole at that time (motion_at()), and the wall's spin: a
   translating wall moves as a whole; the turning cylinder moves its surface at the shear speed
   along -e_z x e_r (its centripetal acceleration is along the normal and has no tangential
   effect, and is left out)
------------------------------------------------------------------------- */

FixWallGranExact::PointMotion FixWallGranExact::point_motion(const Touch &t,
                                                             const Motion &whole) const
{
  PointMotion p;
  p.velocity = whole.velocity;
  p.acceleration = whole.acceleration;
  return ge::wall_point_motion(plane_cylinder_wall(), rotating_cylinder(), shear_velocity, t, p);
}

FixWallGranExact::~FixWallGranExact()
{
  atom->delete_callback(id, Atom::GROW);
  atom->delete_callback(id, Atom::RESTART);
  memory->destroy(history);
  memory->destroy(slot_wall);
  memory->destroy(contact_output);
}

// `tangential coulomb`: the pair's friction fix, created now (not in the constructor, which
// runs inside Modify::add_fix) so that its outputs can be named before the run
void FixWallGranExact::post_constructor()
{
  if (ge::is_coulomb(law))
    sphere_pair(force)->friction_fix();
}

int FixWallGranExact::setmask()
{
  return POST_FORCE;
}

void FixWallGranExact::init()
{
  pair = sphere_pair(force);
  if (!pair) error->all(FLERR, "Fix wall/gran/exact needs pair granular/exact");
  // (the pair's init, which places the friction fix, comes before the fixes')
  friction = ge::is_coulomb(law) ? pair->active_friction_fix() : nullptr;
  // (a wiggle of a few steps per period is not resolved: the wall jumps from step to step)
  const double steps_per_period =
      motion == MOTION_WIGGLE ? 2.0 * MY_PI / (angular_frequency * update->dt) : INFINITY;
  if (steps_per_period < 20.0 && comm->me == 0)
    error->warning(FLERR,
                   "Fix {} wall/gran/exact: the wiggle period is only {:.3g} time steps; its "
                   "motion is not resolved",
                   id, steps_per_period);
  if (wallstyle == REGION) {
    region = domain->get_region_by_id(region_id);    // it may have been redefined
    if (region == nullptr)
      error->all(FLERR, "Fix wall/gran/exact: region {} does not exist", region_id);
    if (region->tmax != nslot)
      error->all(FLERR, "Fix wall/gran/exact: region {} was redefined with another number of "
                        "faces; define the fix again", region_id);
    const std::string defect = region_surface_defect(region);
    if (!defect.empty()) error->all(FLERR, "Fix wall/gran/exact: {}", defect);
    convex_side_given_concave = region_side_convex_given_concave(region);
  }
}

// The same magnitudes as the contact laws' (contact_law_words.cpp): within 1e-100 to 1e100,
// or 0, so that the wall's speed and the forces it gives stay representable.
void FixWallGranExact::check_magnitude(const char *name, double value) const
{
  const double size = std::fabs(value);
  if (size != 0.0 && !(size >= 1e-100 && size <= 1e100))
    error->all(FLERR,
               "Incorrect fix wall/gran/exact: {} = {:g} is outside the magnitudes the laws keep "
               "exact, 1e-100 to 1e+100 (or 0)",
               name, value);
}

void FixWallGranExact::setup(int vflag)
{
  check_centres_inside();
  post_force(vflag);
  check_finite_forces(atom, world, error, fmt::format("fix {} wall/gran/exact", id).c_str());
}

// A sphere whose centre is behind a plane or outside the cylinder at the start of a run would
// overlap the wall by more than its radius and be thrown out at once (LAMMPS then reports lost
// atoms, which does not name the cause): a wall placed inside the packing is an input error.
// (A region's side decides which spheres it acts on.)
void FixWallGranExact::check_centres_inside()
{
  if (wallstyle == REGION) return;
  const double shift = plane_shift();
  // (a centre on the surface too: the overlap is then the whole radius, and the sphere is
  // thrown out as silently)
  const tagint behind = an_atom_where(atom, world, [&](int i) {
    return (atom->mask[i] & groupbit) && touch(i, shift).overlap >= atom->radius[i];
  });
  if (behind != 0)
    error->all(FLERR,
               "Fix {} wall/gran/exact: the centre of atom {} is {} the wall at the start of the "
               "run; the walls must enclose the spheres of the group",
               id, behind, wallstyle == ZCYLINDER ? "on or outside" : "on or behind");
  if (overlaps_checked) return;
  overlaps_checked = true;
  // overlaps above 5 % of the radius are legal but rarely meant, as for the pair style's
  double largest = 0.0, all = 0.0;
  for (int i = 0; i < atom->nlocal; i++)
    if (atom->mask[i] & groupbit)
      largest = std::fmax(largest, touch(i, shift).overlap / atom->radius[i]);
  MPI_Allreduce(&largest, &all, 1, MPI_DOUBLE, MPI_MAX, world);
  if (all > 0.05 && comm->me == 0)
    error->warning(FLERR,
                   "Fix {} wall/gran/exact: the largest overlap of a sphere with the wall when "
                   "the run starts is {:.3g} % of its radius; the contact laws assume overlaps "
                   "of a few per cent at most (a wall placed into the packing?)",
                   id, 100.0 * all);
}

/* ----------------------------------------------------------------------
   the nearest wall point of atom i: planes lo (normal +axis) or hi (normal -axis), whichever
   is nearer; the cylinder from inside (normal towards the axis)
------------------------------------------------------------------------- */

// the displacement of the planes now: a plane wiggled along its normal moves with the wiggle
double FixWallGranExact::plane_shift() const
{
  return (motion == MOTION_WIGGLE && motion_axis == wallstyle) ? motion_at(elapsed()).shift : 0.0;
}

FixWallGranExact::Touch FixWallGranExact::touch(int i, double shift) const
{
  return ge::touch_wall(plane_cylinder_wall(), ge::vec3(atom->x[i]), atom->radius[i], shift);
}

// a made JKR contact of atom i (slot 0: a plane or cylinder wall) whose surfaces are apart holds
// down to its break overlap
bool FixWallGranExact::held_apart(int i, const Touch &t, int slot) const
{
  // (the Jaeger law keeps no `history`: it never holds apart)
  return ge::holds_apart(law) &&
      ge::wall_contact_holds_apart(law, t, atom->radius[i],
                                   history[i][slot * history_width + ge::CS_NORMAL]);
}

// How far beyond touching a region's faces are searched for the JKR contacts that hold apart:
// the break distance of a face whose effective radius is up to 4 R (flat: R; a concave face
// down to a radius of curvature 4R/3); a contact on a more tightly curved concave face ends when
// it leaves this reach, slightly before its own break distance.
double FixWallGranExact::region_reach(double radius) const
{
  if (!ge::holds_apart(law)) return 0.0;
  return -ge::jkr_break_overlap(law.cat.normal.Ebar, 4.0 * radius, law.cat.normal.gamma);
}

// the effective radius of atom i's wall contact: the pair's R_bar with R_j = R_w, the wall's
// radius of curvature (doc/design_notes.md, "Catalogue conventions"); a flat wall (R_w = 0 in a
// Touch) is R_w -> infinity
double FixWallGranExact::effective_radius(int i, const Touch &t) const
{
  return ge::wall_effective_radius(atom->radius[i], t);
}

/* ----------------------------------------------------------------------
   how fast the wall normal at atom i turns: 0 on a plane; on the cylinder it follows the
   atom around the axis, n_dot = -(v_xy - (v.e) e)/r_xy with e the radial unit vector
------------------------------------------------------------------------- */

Vec3 FixWallGranExact::normal_rate(int i, const Touch &t) const
{
  if (wallstyle != ZCYLINDER) return Vec3{0, 0, 0};
  const double *x = atom->x[i], *v = atom->v[i];
  const double rxy = std::sqrt(x[0] * x[0] + x[1] * x[1]);
  const Vec3 v_xy{v[0], v[1], 0.0};
  return (-1.0 / rxy) * ge::project_onto_plane(v_xy, t.normal);
}

/* ----------------------------------------------------------------------
   one sphere-wall contact: the pair law with the wall as body j (R_j, m_j -> infinity, its
   material point at the contact moving and turning as its wiggle, shear or region says, lever
   arm 0); the contact frame turns with half the sum of the sphere's and the wall's spin, the
   limit of the sphere-sphere frame (omega_i + omega_j)/2, and the Yade moments see the
   sphere's rotation relative to the wall's
------------------------------------------------------------------------- */

ge::ContactBodies FixWallGranExact::bodies_of(int i, const Touch &t, bool advance,
                                              const PointMotion &wall) const
{
  const ge::WallSphere sphere{ge::vec3(atom->x[i]), ge::vec3(atom->v[i]), ge::vec3(atom->omega[i]),
                              atom->radius[i], atom->rmass[i]};
  // (the body's mass is a call into the pair: made only where the law reads it)
  const double mass = ge::wall_law_reads_mass(law) ? pair->body_mass(i) : 0.0;
  return ge::wall_contact_bodies(law, wallstyle == ZCYLINDER, t, sphere, wall, mass, update->dt,
                                 advance);
}

void FixWallGranExact::contact(int i, int slot, const Touch &t, bool advance,
                               const PointMotion &wall)
{
  if (jaeger()) {
    jaeger_contact(i, slot, t, advance, wall);
    return;
  }
  double *h = history[i] + slot * history_width;
  ge::ContactResult r;
  ge::contact_step(law, bodies_of(i, t, advance, wall), h, nullptr, r);
  // the friction fix reads this step's cap normal force (it solves at run setup too)
  if (ge::is_coulomb(law)) h[ge::CS_TANGENTIAL + ge::TS_CF_FN] = r.fn_cap;
  apply_wall_force(i, t, r.force_i, r.torque_i - r.moment, r.energy_n);
  totals[6] += r.energy_moment;
}

/* ----------------------------------------------------------------------
   `tangential coulomb`: the friction of the wall's contacts is solved by the friction fix after
   all forces, from the wall point's velocity at the start and end of its kick (which at run
   setup starts at the full step, not the half step); each contact is handed to it with the cap
   normal force contact() has just stored
------------------------------------------------------------------------- */

FixWallGranExact::Kick FixWallGranExact::friction_kick() const
{
  double start, end;
  friction->kick_times(elapsed(), start, end);
  return Kick{motion_at(start), motion_at(end)};
}

void FixWallGranExact::hand_to_friction(int i, int slot, const Touch &t, const Vec3 &v_start,
                                        const Vec3 &v_end)
{
  double *state = history[i] + slot * history_width + ge::CS_TANGENTIAL;
  const double cap = law.cat.tangential.mu * state[ge::TS_CF_FN];
  const FixCoulombFrictionExact::WallContact w{i, t.normal, t.overlap, normal_rate(i, t),
                                               v_start, v_end, cap, state};
  friction->add_wall_contact(w, this);
}

void FixWallGranExact::tally_friction(int i, const Vec3 &branch, const Vec3 &force_on_i)
{
  totals[0] += force_on_i.x;
  totals[1] += force_on_i.y;
  totals[2] += force_on_i.z;
  if (contact_output) {
    contact_output[i][1] += force_on_i.x;
    contact_output[i][2] += force_on_i.y;
    contact_output[i][3] += force_on_i.z;
  }
  if (evflag) tally_virial(i, branch, force_on_i);
}

/* ----------------------------------------------------------------------
   `contacts`: per-atom array of this step's wall contacts (the columns 1-8 of LAMMPS's fix
   wall/gran, then the overlap): [0] number of contacts with the wall (faces of a region wall),
   [1..3] the wall's force on the atom (the friction of `tangential coulomb` included), [4..6] the
   wall's surface point under the atom at its deepest contact, x - (R - overlap) n, [7] the
   radius, [8] the deepest overlap
------------------------------------------------------------------------- */

void FixWallGranExact::clear_contact_output()
{
  if (!contact_output) return;
  for (int i = 0; i < atom->nlocal; i++)
    for (int k = 0; k < CONTACT_COLUMNS; k++) contact_output[i][k] = 0.0;
}

void FixWallGranExact::record_contact(int i, const Touch &t, const Vec3 &force_on_i)
{
  ge::record_wall_contact(contact_output[i], ge::vec3(atom->x[i]), atom->radius[i], t,
                          force_on_i);
}

// the force and torque of a wall contact on atom i, into the atom, the wall's totals and (with
// fix_modify virial yes) its virial
void FixWallGranExact::apply_wall_force(int i, const Touch &t, const Vec3 &force_on_i,
                                        const Vec3 &torque_on_i, double energy)
{
  double *f = atom->f[i], *torque = atom->torque[i];
  f[0] += force_on_i.x;
  f[1] += force_on_i.y;
  f[2] += force_on_i.z;
  torque[0] += torque_on_i.x;
  torque[1] += torque_on_i.y;
  torque[2] += torque_on_i.z;
  totals[0] += force_on_i.x;
  totals[1] += force_on_i.y;
  totals[2] += force_on_i.z;
  totals[3] += 1.0;
  totals[4] += energy;
  if (contact_output) record_contact(i, t, force_on_i);
  if (evflag) tally_virial(i, t, force_on_i);    // (v_init sets evflag, not vflag_either)
}

/* ----------------------------------------------------------------------
   the virial of a wall force on atom i, as LAMMPS' fix wall: the branch vector runs from the
   wall's surface point to the atom's centre, (R - overlap) n, and the six components are
   l_a F_b for ab = xx yy zz xy xz yz, the convention of the pair virial
------------------------------------------------------------------------- */

void FixWallGranExact::tally_virial(int i, const Touch &t, const Vec3 &force_on_i)
{
  tally_virial(i, (atom->radius[i] - t.overlap) * t.normal, force_on_i);
}

void FixWallGranExact::tally_virial(int i, const Vec3 &l, const Vec3 &force_on_i)
{
  double v[6];
  ge::wall_virial(l, force_on_i, v);
  v_tally(i, v);
}

void FixWallGranExact::post_force(int vflag)
{
  v_init(vflag);
  const bool advance = !update->setupflag;    // the run's setup takes no step
  const int *mask = atom->mask;
  for (double &t : totals) t = 0.0;
  totals_summed = false;
  clear_contact_output();
  if (wallstyle == REGION) {
    region_contacts(advance);
  } else {
    const double shift = plane_shift();
    // the wall's motion at the middle of the step, the time of the spheres' velocities
    const Motion mid_step = motion_at(elapsed() - 0.5 * update->dt);
    const Kick kick = friction ? friction_kick() : Kick{};
    for (int i = 0; i < atom->nlocal; i++) {
      if (!(mask[i] & groupbit)) continue;
      const Touch t = touch(i, shift);
      if (!t.touching && !held_apart(i, t)) {
        end_contact(i);
        continue;
      }
      contact(i, 0, t, advance, point_motion(t, mid_step));
      if (friction)
        hand_to_friction(i, 0, t, point_motion(t, kick.start).velocity,
                         point_motion(t, kick.end).velocity);
    }
  }
  if (jaeger()) update_maxexchange();
}

/* ----------------------------------------------------------------------
   the contacts of a region wall. A moving region (region ... move/rotate) is placed at the
   current time, and its velocity is the backward difference of its positions over the step
   (Region::set_velocity): the mean velocity of the step, i.e. at the half step, the time of the
   spheres' velocities; the contact frame turns with half the sum of the sphere's and the
   region's spin.
------------------------------------------------------------------------- */

// the region placed at the current time, with its velocity of the step; whether it moves
bool FixWallGranExact::place_region()
{
  const bool moving = region->dynamic_check();
  if (moving) {
    region->prematch();
    region->set_velocity();
    if (!update->setupflag) {
      for (int k = 0; k < 3; k++) {
        step_velocity[k] = region->v[k];
        step_spin[k] = region->omega[k];
      }
      step_of_velocity = update->ntimestep;
    } else if (update->ntimestep == step_of_velocity) {
      // the setup of a run that continues at the step last taken (a new run, or one from a
      // restart file): its forces make the first half-kick, as the step's own would have; the
      // region (reset by its init) differenced its velocity from this very position, zero
      for (int k = 0; k < 3; k++) {
        region->v[k] = step_velocity[k];
        region->omega[k] = step_spin[k];
      }
    }
  }
  return moving;
}

void FixWallGranExact::region_contacts(bool advance)
{
  const bool moving = place_region();
  double **x = atom->x;
  const double *radius = atom->radius;
  const int *mask = atom->mask;
  for (int i = 0; i < atom->nlocal; i++) {
    if (!(mask[i] & groupbit)) continue;
    // a sphere that has left the region (its centre outside) touches none of its faces
    const int nc = region->match(x[i][0], x[i][1], x[i][2])
                       ? region->surface(x[i][0], x[i][1], x[i][2],
                                         radius[i] + region_reach(radius[i]))
                       : 0;
    if (nc > nslot)
      error->one(FLERR, "Fix wall/gran/exact: a sphere touches {} faces of region {}, more than "
                        "its {} possible contacts", nc, region_id, nslot);
    assign_slots(i, nc);
    for (int ic = 0; ic < nc; ic++) {
      const Touch t = region_touch(i, ic);
      if (!t.touching && !held_apart(i, t, slot_of_contact[ic])) {
        end_slot_contact(i, slot_of_contact[ic]);
        continue;
      }
      // (the face's velocity is taken as constant over the friction's kick: exact for a region
      // at rest or moving at constant velocity or spin; its normal as not turning: exact on
      // flat faces)
      const PointMotion wall = region_point_motion(i, ic, moving);
      contact(i, slot_of_contact[ic], t, advance, wall);
      if (friction) hand_to_friction(i, slot_of_contact[ic], t, wall.velocity, wall.velocity);
    }
  }
}

// face ic of the region (region->surface() called for atom i): no contact when the sphere does
// not overlap it or its centre lies on the surface (no normal); a face the sphere does not
// overlap but within the JKR reach comes with its normal, for a contact that holds apart. The face's radius of curvature
// is the region's contact radius (R_s of a sphere, 2 R_c of a cylinder or cone side, the mean
// curvature of the face; negative from inside); a concave face must be wider than the sphere.
FixWallGranExact::Touch FixWallGranExact::region_touch(int i, int ic) const
{
  const Region::Contact &c = region->contact[ic];
  const double radius = atom->radius[i];
  // (a cone's side from outside is convex; LAMMPS gives it the concave sign of the inside)
  const double curvature = convex_side_given_concave ? std::fabs(c.radius) : c.radius;
  if (!(c.r > 0.0) || !(c.r < radius + region_reach(radius))) return Touch{false, Vec3{0, 0, 0}, 0.0};
  if (curvature < 0.0 && !(-curvature > radius))
    error->one(FLERR, "Fix wall/gran/exact: a sphere of radius {} touches a concave face of region "
                      "{} whose radius of curvature {} is not larger than the sphere's (the "
                      "contact has no effective radius); make the region wider",
               radius, region_id, -curvature);
  // (each component divided, not multiplied by 1/r: a face along an axis then has the unit
  // normal exactly, as a plane has, instead of one whose component is 1 - 1 ulp)
  return Touch{c.r < radius, Vec3{c.delx / c.r, c.dely / c.r, c.delz / c.r}, radius - c.r,
               curvature};
}

// the velocity and spin of the region's material point at face ic of atom i
FixWallGranExact::PointMotion FixWallGranExact::region_point_motion(int i, int ic,
                                                                    bool moving) const
{
  PointMotion p;
  if (!moving) return p;
  double v[3];
  region->velocity_contact(v, atom->x[i], ic);
  p.velocity = ge::vec3(v);
  if (region->rotateflag) p.spin = ge::vec3(region->omega);
  return p;
}

// the slot of atom i that holds face iwall, or -1
int FixWallGranExact::slot_of_face(int i, int iwall) const
{
  for (int s = 0; s < nslot; s++)
    if (slot_wall[i][s] == iwall) return s;
  return -1;
}

// atom i has a contact with some face of the region (as of this step's post_force)
bool FixWallGranExact::touches_region(int i) const
{
  for (int s = 0; s < nslot; s++)
    if (slot_wall[i][s] >= 0.0) return true;
  return false;
}

// match the region's contacts of atom i (region->contact[0, nc)) to its history slots by the
// face they touch (iwall): a face touched again keeps its slot and history, a slot whose face is
// no longer touched is cleared, a newly touched face takes a cleared slot
void FixWallGranExact::assign_slots(int i, int nc)
{
  double *face = slot_wall[i];
  for (int s = 0; s < nslot; s++) {
    if (face[s] < 0.0) continue;
    bool touched = false;
    for (int ic = 0; ic < nc; ic++) touched = touched || region->contact[ic].iwall == face[s];
    if (!touched) end_slot_contact(i, s);
  }
  for (int ic = 0; ic < nc; ic++) {
    const int iwall = region->contact[ic].iwall;
    int slot = slot_of_face(i, iwall);
    if (slot < 0) slot = slot_of_face(i, -1);    // a free one (nc <= nslot: one exists)
    face[slot] = iwall;
    slot_of_contact[ic] = slot;
  }
}

// forget the state of atom i's wall contacts (and give the Jaeger records' memory back)
void FixWallGranExact::end_contact(int i)
{
  for (int s = 0; s < nslot; s++) end_slot_contact(i, s);
}

void FixWallGranExact::end_slot_contact(int i, int slot)
{
  if (jaeger())
    std::vector<double>().swap(jaeger_records[static_cast<size_t>(i) * nslot + slot]);
  else
    for (int k = 0; k < history_width; k++) history[i][slot * history_width + k] = 0.0;
  if (slot_wall) slot_wall[i][slot] = -1.0;
}

// the most doubles one local atom sends when it migrates
void FixWallGranExact::update_maxexchange()
{
  int most = 1;
  for (int i = 0; i < atom->nlocal; i++) most = MAX(most, per_atom_doubles(i));
  maxexchange = most;
}

// The layout of the per-atom blocks: how many region slots lead them, whether they hold Jaeger
// records or fixed blocks of history_width doubles, and which state the law keeps there.
void FixWallGranExact::restart_layout(double layout[LAYOUT_SIZE]) const
{
  layout[0] = slot_wall ? nslot : 0;
  layout[1] = jaeger() ? 1.0 : 0.0;
  layout[2] = history_width;
  layout[3] = ge::state_kind(law);
}

// A marker (-1, as no step number is negative) and the layout of the per-atom blocks, the origin
// of the wall's motion (the step it was defined at); a region wall adds the region's previous
// position, from which its velocity is differenced (as LAMMPS' region walls). (Files from before
// the layout start with the origin.)
void FixWallGranExact::write_restart(FILE *fp)
{
  if (comm->me != 0) return;
  const double origin = static_cast<double>(time_origin);
  int region_size = 0;
  if (region) {
    region->length_restart_string(region_size);
    region_size += 7 * sizeof(double);
  }
  double layout[1 + LAYOUT_SIZE] = {-1.0};
  restart_layout(layout + 1);
  const int size = sizeof(layout) + sizeof(double) + region_size;
  fwrite(&size, sizeof(int), 1, fp);
  fwrite(layout, sizeof(double), 1 + LAYOUT_SIZE, fp);
  fwrite(&origin, sizeof(double), 1, fp);
  if (region) {
    region->write_restart(fp);
    const double step = static_cast<double>(step_of_velocity);
    fwrite(step_velocity, sizeof(double), 3, fp);
    fwrite(step_spin, sizeof(double), 3, fp);
    fwrite(&step, sizeof(double), 1, fp);
  }
}

void FixWallGranExact::restart(char *buf)
{
  const auto *values = reinterpret_cast<const double *>(buf);
  if (values[0] < 0.0) {
    // the per-atom blocks are read after this (Modify::add_fix): only if they are this wall's
    double layout[LAYOUT_SIZE];
    restart_layout(layout);
    // a `tangential coulomb` wall of a file from before pair restart format 7 keeps the
    // catalogue's state alone: read with the last change of its friction force zero
    if (ge::is_coulomb(law) && values[1 + 2] == ge::CATALOGUE_STATE_SIZE) {
      restart_history_width = ge::CATALOGUE_STATE_SIZE;
      layout[2] = ge::CATALOGUE_STATE_SIZE;
    }
    for (int k = 0; k < LAYOUT_SIZE; k++)
      if (values[1 + k] != layout[k]) skip_peratom_restart = true;
    if (skip_peratom_restart && comm->me == 0)
      error->warning(FLERR,
                     "Fix {} wall/gran/exact: the restart file holds the wall contacts of a "
                     "wall of another kind or contact law under this ID; they are not carried "
                     "over, and every sphere starts without a wall contact history",
                     id);
    buf += (1 + LAYOUT_SIZE) * sizeof(double);
  }
  time_origin = static_cast<bigint>(*reinterpret_cast<double *>(buf));
  int n = sizeof(double);
  if (!region) return;
  if (!region->restart(buf, n)) {
    region->reset_vel();
    error->warning(FLERR, "Fix wall/gran/exact: region {} differs from the one in the restart "
                          "file; its velocity on the first step is taken as zero", region_id);
    return;
  }
  // Region::restart reads its previous positions without moving past them
  const auto *motion =
      reinterpret_cast<const double *>(buf + n + region->size_restart * sizeof(double));
  for (int k = 0; k < 3; k++) {
    step_velocity[k] = motion[k];
    step_spin[k] = motion[3 + k];
  }
  step_of_velocity = static_cast<bigint>(motion[6]);
}

// [1-3] force of the wall on the group, [4] wall contacts, [5] elastic normal energy, [6] Jaeger
// history vertices held
double FixWallGranExact::compute_vector(int n)
{
  if (!totals_summed) {
    MPI_Allreduce(totals, totals_all, NTOTALS, MPI_DOUBLE, MPI_SUM, world);
    totals_summed = true;
  }
  return totals_all[n];
}

double FixWallGranExact::memory_usage()
{
  double slots = slot_wall ? (double) atom->nmax * nslot * sizeof(double) : 0.0;
  if (contact_output) slots += (double) atom->nmax * CONTACT_COLUMNS * sizeof(double);
  if (!jaeger()) return slots + (double) atom->nmax * nslot * history_width * sizeof(double);
  double bytes = slots + (double) jaeger_records.capacity() * sizeof(std::vector<double>);
  for (const auto &rec : jaeger_records) bytes += (double) rec.capacity() * sizeof(double);
  return bytes;
}

/* ---------------------------------------------------------------------- */

void FixWallGranExact::grow_arrays(int nmax)
{
  if (jaeger())
    jaeger_records.resize(static_cast<size_t>(nmax) * nslot);
  else
    memory->grow(history, nmax, nslot * history_width, "wall/gran/exact:history");
  if (wallstyle == REGION) memory->grow(slot_wall, nmax, nslot, "wall/gran/exact:slot_wall");
  if (peratom_flag) {
    memory->grow(contact_output, nmax, CONTACT_COLUMNS, "wall/gran/exact:contacts");
    array_atom = contact_output;
  }
}

void FixWallGranExact::copy_arrays(int i, int j, int delflag)
{
  if (contact_output)
    for (int k = 0; k < CONTACT_COLUMNS; k++) contact_output[j][k] = contact_output[i][k];
  if (slot_wall)
    for (int s = 0; s < nslot; s++) slot_wall[j][s] = slot_wall[i][s];
  if (!jaeger()) {
    for (int k = 0; k < nslot * history_width; k++) history[j][k] = history[i][k];
    return;
  }
  for (int s = 0; s < nslot; s++) {
    std::vector<double> &from = jaeger_records[static_cast<size_t>(i) * nslot + s];
    std::vector<double> &to = jaeger_records[static_cast<size_t>(j) * nslot + s];
    if (delflag)
      to.swap(from);    // i is deleted: its record moves
    else
      to = from;
  }
}

void FixWallGranExact::set_arrays(int i)
{
  if (contact_output)
    for (int k = 0; k < CONTACT_COLUMNS; k++) contact_output[i][k] = 0.0;
  end_contact(i);
}

// per atom: the faces of its slots (region walls), then the linear and catalogue laws'
// history_width doubles per slot, or per slot a Jaeger record's length and the record
int FixWallGranExact::per_atom_doubles(int i) const
{
  int n = slot_wall ? nslot : 0;
  if (!jaeger()) return n + nslot * history_width;
  for (int s = 0; s < nslot; s++)
    n += 1 + static_cast<int>(jaeger_records[static_cast<size_t>(i) * nslot + s].size());
  return n;
}

int FixWallGranExact::pack_atom(int i, double *buf) const
{
  int m = 0;
  if (slot_wall)
    for (int s = 0; s < nslot; s++) buf[m++] = slot_wall[i][s];
  if (!jaeger()) {
    for (int k = 0; k < nslot * history_width; k++) buf[m++] = history[i][k];
    return m;
  }
  for (int s = 0; s < nslot; s++) {
    const std::vector<double> &rec = jaeger_records[static_cast<size_t>(i) * nslot + s];
    buf[m++] = static_cast<double>(rec.size());
    for (double value : rec) buf[m++] = value;
  }
  return m;
}

// (slot_width: the doubles per slot in buf, at most history_width: a restart file's from before
// a law's state grew; the values a slot lacks start at zero)
int FixWallGranExact::unpack_atom(int i, const double *buf, int slot_width)
{
  int m = 0;
  if (slot_wall)
    for (int s = 0; s < nslot; s++) slot_wall[i][s] = buf[m++];
  if (!jaeger()) {
    for (int s = 0; s < nslot; s++) {
      double *h = history[i] + s * history_width;
      for (int k = 0; k < slot_width; k++) h[k] = buf[m++];
      for (int k = slot_width; k < history_width; k++) h[k] = 0.0;
    }
    return m;
  }
  for (int s = 0; s < nslot; s++) {
    const int size = static_cast<int>(buf[m++]);
    jaeger_records[static_cast<size_t>(i) * nslot + s].assign(buf + m, buf + m + size);
    m += size;
  }
  maxexchange = MAX(maxexchange, m);
  return m;
}

int FixWallGranExact::pack_exchange(int i, double *buf)
{
  return pack_atom(i, buf);
}

int FixWallGranExact::unpack_exchange(int nlocal, double *buf)
{
  return unpack_atom(nlocal, buf, history_width);
}

int FixWallGranExact::pack_restart(int i, double *buf)
{
  const int size = per_atom_doubles(i);
  buf[0] = size + 1;    // the count first: other fixes skip this block by it
  return 1 + pack_atom(i, buf + 1);
}

void FixWallGranExact::unpack_restart(int nlocal, int nth)
{
  if (skip_peratom_restart) return;    // (set_arrays() has left the atom without contacts)
  double **extra = atom->extra;
  int m = 0;
  for (int i = 0; i < nth; i++) m += static_cast<int>(extra[nlocal][m]);
  unpack_atom(nlocal, &extra[nlocal][m + 1], restart_history_width);
}

int FixWallGranExact::size_restart(int nlocal)
{
  return per_atom_doubles(nlocal) + 1;
}

int FixWallGranExact::maxsize_restart()
{
  int most = 1;
  for (int i = 0; i < atom->nlocal; i++) most = MAX(most, per_atom_doubles(i));
  return most + 1;
}
