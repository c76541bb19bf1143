// The walls of fix wall/gran/exact that are planes or the z cylinder: where a sphere touches
// them, how the wall's material point there moves, and the contact the laws see (the sphere as
// body i, the wall as body j with R_j, m_j -> infinity). Written once for the host fix and its
// Kokkos form, which must give the same contacts bit for bit.
//
// Header-only, no allocation, no LAMMPS: callable from host and device code.
#pragma once

#include "contact/contact_law.hpp"
#include "contact/vec3.hpp"

#include <cmath>

namespace ge {

// the wall styles: a pair of planes normal to x, y or z (either may be absent), or the inside
// of a cylinder about the z axis
enum WallStyle : int { WALL_XPLANE = 0, WALL_YPLANE = 1, WALL_ZPLANE = 2, WALL_ZCYLINDER = 3 };

struct PlaneCylinderWall {
  int style = WALL_ZPLANE;    // WallStyle
  double lo = 0.0, hi = 0.0;  // plane positions (lo_set/hi_set: given)
  bool lo_set = false, hi_set = false;
  double cylradius = 0.0;
  bool holds_apart = false;   // the law's contacts hold after the surfaces part (JKR)
};

// the wall point nearest to a sphere, seen from the sphere
struct WallTouch {
  bool touching;
  Vec3 normal;              // unit normal from the wall to the sphere
  double overlap;
  // the wall's radius of curvature there: 0 flat (planes, the cylinder, flat region faces),
  // > 0 convex, < 0 concave (a region's contact radius, as LAMMPS' wall/gran/region)
  double curvature_radius = 0.0;
};

// The nearest wall of a sphere at x of the given radius: plane lo (normal +axis) or hi (normal
// -axis), whichever is nearer, the planes displaced by `shift` (a wiggle along their normal);
// the cylinder from inside (normal towards the axis). Apart from the cylinder, the normal is
// still given where the law's contacts hold apart (a JKR contact that holds).
GE_INLINE WallTouch touch_wall(const PlaneCylinderWall &w, const Vec3 &x, double radius,
                               double shift)
{
  WallTouch t{false, Vec3{0, 0, 0}, 0.0};
  double gap;    // distance from the wall surface to the centre
  if (w.style == WALL_ZCYLINDER) {
    const double rxy = sqrt(x.x * x.x + x.y * x.y);
    gap = w.cylradius - rxy;
    if (rxy == 0.0 || (radius - gap <= 0.0 && !w.holds_apart)) return t;
    t.normal = Vec3{-x.x / rxy, -x.y / rxy, 0.0};
  } else {
    const double xa = w.style == WALL_XPLANE ? x.x : w.style == WALL_YPLANE ? x.y : x.z;
    const double d_lo = w.lo_set ? xa - (w.lo + shift) : INFINITY;
    const double d_hi = w.hi_set ? (w.hi + shift) - xa : INFINITY;
    const bool at_lo = d_lo < d_hi;
    gap = at_lo ? d_lo : d_hi;
    const double sign = at_lo ? 1.0 : -1.0;
    t.normal = Vec3{w.style == WALL_XPLANE ? sign : 0.0, w.style == WALL_YPLANE ? sign : 0.0,
                    w.style == WALL_ZPLANE ? sign : 0.0};
  }
  t.overlap = radius - gap;
  t.touching = t.overlap > 0.0;
  return t;
}

// The effective radius of a sphere's wall contact: the pair's R_bar with R_j = R_w, the wall's
// radius of curvature (a flat wall, curvature_radius 0: R_w -> infinity)
GE_INLINE double wall_effective_radius(double radius, const WallTouch &t)
{
  return effective_radius(radius, t.curvature_radius == 0.0 ? INFINITY : t.curvature_radius);
}

// A made JKR contact whose surfaces are apart holds down to its break overlap (made: the
// contact's stored state[CS_NORMAL]); a touch without a normal holds nothing
GE_INLINE bool wall_contact_holds_apart(const ContactLaw &law, const WallTouch &t, double radius,
                                        double made)
{
  if (!holds_apart(law) || (t.normal.x == 0.0 && t.normal.y == 0.0 && t.normal.z == 0.0))
    return false;
  return goes_on_apart(law, t.overlap, wall_effective_radius(radius, t), made);
}

// The motion of the wall's material point at a contact
struct WallPointMotion {
  Vec3 velocity{0, 0, 0}, acceleration{0, 0, 0}, spin{0, 0, 0};
};

// A cylinder turning about z (`shear x|y v`) moves its surface at v along -e_z x e_r, clockwise
// seen from +z, and spins at -v/R about z (its centripetal acceleration is along the normal and
// has no tangential effect, and is left out); every other wall moves as a whole (`whole`).
GE_INLINE WallPointMotion wall_point_motion(const PlaneCylinderWall &w, bool turning,
                                            double shear_velocity, const WallTouch &t,
                                            const WallPointMotion &whole)
{
  if (!turning) return whole;
  WallPointMotion p;
  const Vec3 radial = -1.0 * t.normal;    // e_r at the sphere
  const Vec3 along = cross(radial, Vec3{0.0, 0.0, 1.0});
  p.velocity = shear_velocity * along;
  p.spin = Vec3{0.0, 0.0, -shear_velocity / w.cylradius};
  return p;
}

// The sphere's own part of a wall contact
struct WallSphere {
  Vec3 x, v, omega;
  double radius, rmass;
};

// Whether the law reads the effective mass of a wall contact, the mass of the sphere's body (a
// clump's): the callers find it only then (a call into the pair style on the host)
GE_INLINE bool wall_law_reads_mass(const ContactLaw &law)
{
  return law.tangential == LAW_CATALOGUE || law.damping == LAW_DAMPING_CATALOGUE;
}

// One sphere-wall contact as the laws see it (the pair law with the wall as body j: its
// material point moving and turning as `wall` says, lever arm 0, R_j = R_i for the Yade
// moments); the contact frame turns with half the sum of the sphere's and the wall's spin, the
// limit of the sphere-sphere frame. `cylinder`: the normal turns about the z axis as the sphere
// moves round it, with its centre of curvature the axis point nearest to the sphere,
// x_i - centre = -r_xy n (concave), which follows the sphere along z. body_mass: the mass of the
// sphere's body, read where wall_law_reads_mass() (m_w -> infinity).
GE_INLINE ContactBodies wall_contact_bodies(const ContactLaw &law, bool cylinder,
                                            const WallTouch &t, const WallSphere &s,
                                            const WallPointMotion &wall, double body_mass,
                                            double dt, bool advance)
{
  ContactBodies b;
  b.normal = t.normal;
  b.overlap = t.overlap;
  b.v_i = s.v;
  b.v_j = wall.velocity;
  b.omega_i = s.omega;
  b.omega_j = wall.spin;
  b.r_i = s.radius - 0.5 * t.overlap;    // contact point in the middle of the overlap
  b.radius_i = b.radius_j = s.radius;
  if (cylinder) {
    b.wall_arm = -sqrt(s.x.x * s.x.x + s.x.y * s.x.y);
    b.v_wall_centre = Vec3{0.0, 0.0, s.v.z};
  }
  if (law.tangential == LAW_CATALOGUE || law.tangential == LAW_JAEGER)
    b.rbar = wall_effective_radius(s.radius, t);
  if (wall_law_reads_mass(law)) b.mbar = body_mass;
  // the Yade dashpots' exact step: the sphere's own 1/I (in a clump too: it bounds the
  // clump's), the wall's 0 (it does not turn under forces)
  if (has_moment_dashpots(law)) b.inv_inertia_i = sphere_inverse_inertia(s.rmass, s.radius);
  b.dt = dt;
  b.advance = advance;
  return b;
}

// One more wall contact of a sphere (centre x) in its row of the wall's per-atom `contacts`
// output (the columns of LAMMPS' fix wall/gran, then the overlap): [0] contacts, [1..3] the
// wall's force on it, [4..6] the wall's surface point under it at its deepest contact,
// x - (R - overlap) n, [7] its radius, [8] the deepest overlap
GE_INLINE void record_wall_contact(double *out, const Vec3 &x, double radius, const WallTouch &t,
                                   const Vec3 &force_on_sphere)
{
  out[0] += 1.0;
  out[1] += force_on_sphere.x;
  out[2] += force_on_sphere.y;
  out[3] += force_on_sphere.z;
  if (out[0] == 1.0 || t.overlap > out[8]) {
    const Vec3 point = x - (radius - t.overlap) * t.normal;
    out[4] = point.x;
    out[5] = point.y;
    out[6] = point.z;
    out[8] = t.overlap;
  }
  out[7] = radius;
}

// The virial of a wall force f on a sphere with branch vector l (from the wall's surface point
// to the centre, as LAMMPS' fix wall), in the convention of the pair virial: l_a f_b for
// ab = xx yy zz xy xz yz
GE_INLINE void wall_virial(const Vec3 &l, const Vec3 &f, double v[6])
{
  v[0] = l.x * f.x;
  v[1] = l.y * f.y;
  v[2] = l.z * f.z;
  v[3] = l.x * f.y;
  v[4] = l.x * f.z;
  v[5] = l.y * f.z;
}

}    // namespace ge
