// The region walls of fix wall/gran/exact that have a form in the execution space: where a sphere
// touches the surface of a sphere, plane, block, cylinder or cone region (its inside, or its
// outside with `side out`), placed where a region's `move` and `rotate` put it, and how the
// region's material point there moves. The same faces, in the same order and with the same
// face numbers (`iwall`), radii of curvature and normals, as the surfaces of LAMMPS' regions
// of these shapes with every face closed, which the host fix reads (but for the radius of a
// cone's side from outside: convex, as the host fix takes it), the region carried into
// its own frame, its faces found there, and the contact points carried back (a rotation of the
// point about the region's axis, then its displacement).
//
// Header-only, no allocation, no LAMMPS: callable from host and device code.
#pragma once

#include "contact/vec3.hpp"

#include <cmath>

namespace ge {

enum RegionKind : int {
  REGION_SPHERE = 0,
  REGION_PLANE = 1,
  REGION_BLOCK = 2,
  REGION_CYLINDER = 3,
  REGION_CONE = 4
};

// the most faces one point can be near at once (a block's six, from inside)
constexpr int REGION_MOST_FACES = 6;

// A region's shape in its own frame (the numbers of its region command, scaled to box units):
//   sphere    p = {xc, yc, zc, radius}
//   plane     p = {xp, yp, zp, nx, ny, nz} (unit normal)
//   block     p = {xlo, xhi, ylo, yhi, zlo, zhi}
//   cylinder  p = {c1, c2, radius, lo, hi} about `axis` (0 x, 1 y, 2 z): c1, c2 the centre's
//             coordinates along the other two axes in order
//   cone      p = {c1, c2, radius_lo, radius_hi, lo, hi}
struct RegionShape {
  int kind = REGION_SPHERE;
  bool interior = true;    // the spheres are inside (`side in`) or outside (`side out`)
  int axis = 2;
  double p[6] = {0, 0, 0, 0, 0, 0};
};

// Where the region is now (`move`: displaced by `displacement`; `rotate`: turned by theta about
// the line through `point` along `axis_unit`, before the displacement), with the sines and
// cosines of theta and -theta, and how it moves: velocity, spin about `spin_point` (the
// backward differences of its placements over the step)
struct RegionPlacement {
  bool moved = false, rotated = false;
  Vec3 displacement{0, 0, 0};
  double sine = 0.0, cosine = 1.0;              // of theta (to the moved frame)
  double sine_back = 0.0, cosine_back = 1.0;    // of -theta (back to the region's frame)
  Vec3 point{0, 0, 0}, axis_unit{0, 0, 1};
  Vec3 velocity{0, 0, 0}, spin{0, 0, 0}, spin_point{0, 0, 0};
};

struct RegionWall {
  RegionShape shape;
  RegionPlacement placement;
};

// One face near a point: its distance r, the vector from its nearest point to the point, its
// radius of curvature (0 flat, > 0 convex, < 0 concave: twice the radius on a cylinder's or a
// cone's side, as LAMMPS' regions give it) and its face number
struct RegionFace {
  double r;
  Vec3 del;
  double radius;
  int iwall;
};

GE_INLINE double component(const Vec3 &v, int k) { return k == 0 ? v.x : k == 1 ? v.y : v.z; }
GE_INLINE void set_component(Vec3 &v, int k, double value)
{
  if (k == 0)
    v.x = value;
  else if (k == 1)
    v.y = value;
  else
    v.z = value;
}
GE_INLINE Vec3 axis_vector(int k, double value)
{
  Vec3 v{0, 0, 0};
  set_component(v, k, value);
  return v;
}

// x turned by an angle (its sine and cosine) about the line through `point` along unit `axis`:
// P + C + A cos + (R0 x A) sin, with C the part of x - P along the axis and A the rest
GE_INLINE Vec3 rotate_about(const Vec3 &x, const Vec3 &point, const Vec3 &axis, double sine,
                            double cosine)
{
  const Vec3 d = x - point;
  const double along = d.x * axis.x + d.y * axis.y + d.z * axis.z;
  const Vec3 c = along * axis;
  const Vec3 a = d - c;
  const Vec3 b = cross(axis, a);
  const Vec3 turned{a.x * cosine + b.x * sine, a.y * cosine + b.y * sine,
                    a.z * cosine + b.z * sine};
  return Vec3{point.x + c.x + turned.x, point.y + c.y + turned.y, point.z + c.z + turned.z};
}

// from where the region is now into its own frame: the displacement undone, then the rotation
GE_INLINE Vec3 into_region_frame(const RegionPlacement &m, Vec3 x)
{
  if (m.moved) x = x - m.displacement;
  if (m.rotated) x = rotate_about(x, m.point, m.axis_unit, m.sine_back, m.cosine_back);
  return x;
}

// from the region's frame to where it is now: the rotation, then the displacement
GE_INLINE Vec3 out_of_region_frame(const RegionPlacement &m, Vec3 x)
{
  if (m.rotated) x = rotate_about(x, m.point, m.axis_unit, m.sine, m.cosine);
  if (m.moved) x = x + m.displacement;
  return x;
}

// the point of the segment a-b nearest to c
GE_INLINE Vec3 nearest_on_segment(const Vec3 &a, const Vec3 &b, const Vec3 &c)
{
  const Vec3 ba = b - a, ca = c - a;
  const double t = dot(ca, ba) / dot(ba, ba);
  if (t <= 0.0) return a;
  if (t >= 1.0) return b;
  return Vec3{a.x + t * ba.x, a.y + t * ba.y, a.z + t * ba.z};
}

// a face whose nearest point to x is xp
GE_INLINE RegionFace face_to_point(const Vec3 &x, const Vec3 &xp, double radius, int iwall)
{
  const Vec3 del = x - xp;
  return RegionFace{sqrt(del.x * del.x + del.y * del.y + del.z * del.z), del, radius, iwall};
}

// Whether x (in the region's frame) is in the region: on its surface counts as inside
GE_INLINE bool inside_region_shape(const RegionShape &s, const Vec3 &x)
{
  const double *p = s.p;
  switch (s.kind) {
    case REGION_SPHERE: {
      const Vec3 d{x.x - p[0], x.y - p[1], x.z - p[2]};
      return sqrt(d.x * d.x + d.y * d.y + d.z * d.z) <= p[3];
    }
    case REGION_PLANE:
      return (x.x - p[0]) * p[3] + (x.y - p[1]) * p[4] + (x.z - p[2]) * p[5] >= 0.0;
    case REGION_BLOCK:
      return x.x >= p[0] && x.x <= p[1] && x.y >= p[2] && x.y <= p[3] && x.z >= p[4] &&
          x.z <= p[5];
    default: {
      const int k1 = s.axis == 0 ? 1 : 0, k2 = s.axis == 2 ? 1 : 2;
      const double d1 = component(x, k1) - p[0], d2 = component(x, k2) - p[1];
      const double xa = component(x, s.axis);
      const double dist = sqrt(d1 * d1 + d2 * d2);
      if (s.kind == REGION_CYLINDER) return dist <= p[2] && xa >= p[3] && xa <= p[4];
      const double here = p[2] + (xa - p[4]) * (p[3] - p[2]) / (p[5] - p[4]);
      return dist <= here && xa >= p[4] && xa <= p[5];
    }
  }
}

// The faces of a sphere region within `cutoff` of x (region frame)
GE_INLINE int sphere_faces(const RegionShape &s, const Vec3 &x, double cutoff, RegionFace *out)
{
  const double *p = s.p;
  const Vec3 d{x.x - p[0], x.y - p[1], x.z - p[2]};
  const double r = sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
  const double radius = p[3];
  if (s.interior ? (r > radius || r == 0.0) : r < radius) return 0;
  const double delta = s.interior ? radius - r : r - radius;
  if (!(delta < cutoff)) return 0;
  const double f = 1.0 - radius / r;
  out[0] = RegionFace{delta, Vec3{d.x * f, d.y * f, d.z * f}, s.interior ? -radius : radius, 0};
  return 1;
}

GE_INLINE int plane_faces(const RegionShape &s, const Vec3 &x, double cutoff, RegionFace *out)
{
  const double *p = s.p;
  double dot_n = (x.x - p[0]) * p[3] + (x.y - p[1]) * p[4] + (x.z - p[2]) * p[5];
  if (!s.interior) dot_n = -dot_n;
  if (!(dot_n < cutoff && dot_n >= 0.0)) return 0;
  const double along = s.interior ? dot_n : -dot_n;
  out[0] = RegionFace{dot_n, Vec3{along * p[3], along * p[4], along * p[5]}, 0.0, 0};
  return 1;
}

GE_INLINE int block_faces(const RegionShape &s, const Vec3 &x, double cutoff, RegionFace *out)
{
  const double *p = s.p;
  if (s.interior) {
    if (x.x < p[0] || x.x > p[1] || x.y < p[2] || x.y > p[3] || x.z < p[4] || x.z > p[5])
      return 0;
    // faces lo x, hi x, lo y, hi y, lo z, hi z: numbers 0 to 5
    int n = 0;
    for (int k = 0; k < 3; k++) {
      const double xk = component(x, k);
      const double to_lo = xk - p[2 * k], to_hi = p[2 * k + 1] - xk;
      if (to_lo < cutoff) out[n++] = RegionFace{to_lo, axis_vector(k, to_lo), 0.0, 2 * k};
      if (to_hi < cutoff) out[n++] = RegionFace{to_hi, axis_vector(k, -to_hi), 0.0, 2 * k + 1};
    }
    return n;
  }
  if (x.x <= p[0] - cutoff || x.x >= p[1] + cutoff || x.y <= p[2] - cutoff ||
      x.y >= p[3] + cutoff || x.z <= p[4] - cutoff || x.z >= p[5] + cutoff)
    return 0;
  if (x.x > p[0] && x.x < p[1] && x.y > p[2] && x.y < p[3] && x.z > p[4] && x.z < p[5]) return 0;
  // the nearest surface point: a face's, an edge's or a corner's
  Vec3 xp;
  for (int k = 0; k < 3; k++) {
    const double xk = component(x, k);
    set_component(xp, k, xk < p[2 * k] ? p[2 * k] : xk > p[2 * k + 1] ? p[2 * k + 1] : xk);
  }
  out[0] = face_to_point(x, xp, 0.0, 0);
  return out[0].r < cutoff ? 1 : 0;
}

// the cylinder's and the cone's frame: the axis coordinate and the two across it, in order
struct AxialPoint {
  int k1, k2;
  double xa, d1, d2, r;
};

GE_INLINE AxialPoint axial_point(const RegionShape &s, const Vec3 &x)
{
  AxialPoint a;
  a.k1 = s.axis == 0 ? 1 : 0;
  a.k2 = s.axis == 2 ? 1 : 2;
  a.xa = component(x, s.axis);
  a.d1 = component(x, a.k1) - s.p[0];
  a.d2 = component(x, a.k2) - s.p[1];
  a.r = sqrt(a.d1 * a.d1 + a.d2 * a.d2);
  return a;
}

// the side's point at radius `radius` from the axis at axis coordinate xa, on the line from
// the axis through the point
GE_INLINE Vec3 side_point(const RegionShape &s, const AxialPoint &a, double radius, double xa)
{
  Vec3 xp;
  set_component(xp, s.axis, xa);
  set_component(xp, a.k1, s.p[0] + a.d1 * radius / a.r);
  set_component(xp, a.k2, s.p[1] + a.d2 * radius / a.r);
  return xp;
}

// the end caps at lo (face 0, normal +axis) and hi (face 1, normal -axis), seen from inside
GE_INLINE int cap_faces(int axis, double xa, double lo, double hi, double cutoff,
                        RegionFace *out)
{
  int n = 0;
  const double to_lo = xa - lo, to_hi = hi - xa;
  if (to_lo < cutoff) out[n++] = RegionFace{to_lo, axis_vector(axis, to_lo), 0.0, 0};
  if (to_hi < cutoff) out[n++] = RegionFace{to_hi, axis_vector(axis, -to_hi), 0.0, 1};
  return n;
}

GE_INLINE int cylinder_faces(const RegionShape &s, const Vec3 &x, double cutoff,
                             RegionFace *out)
{
  const double radius = s.p[2], lo = s.p[3], hi = s.p[4];
  const AxialPoint a = axial_point(s, x);
  if (s.interior) {
    if (a.r > radius || a.xa < lo || a.xa > hi) return 0;
    int n = 0;
    const double delta = radius - a.r;
    if (delta < cutoff && a.r > 0.0) {
      // the side, face 2: concave, twice its radius as LAMMPS' regions give it
      const double f = 1.0 - radius / a.r;
      Vec3 del{0, 0, 0};
      set_component(del, a.k1, a.d1 * f);
      set_component(del, a.k2, a.d2 * f);
      out[n++] = RegionFace{delta, del, -2.0 * radius, 2};
    }
    return n + cap_faces(s.axis, a.xa, lo, hi, cutoff, out + n);
  }
  if (a.r >= radius + cutoff || a.xa <= lo - cutoff || a.xa >= hi + cutoff) return 0;
  if (a.r < radius && a.xa > lo && a.xa < hi) return 0;
  // the nearest surface point: on the side (convex), on a cap, or on a rim
  const double xa = a.xa < lo ? lo : a.xa > hi ? hi : a.xa;
  Vec3 xp = x;
  double curvature = 0.0;
  if (a.r > radius) {
    xp = side_point(s, a, radius, xa);
    curvature = 2.0 * radius;
  } else {
    set_component(xp, s.axis, xa);
  }
  out[0] = face_to_point(x, xp, curvature, 0);
  return out[0].r < cutoff ? 1 : 0;
}

// the cone's radius at axis coordinate xa
GE_INLINE double cone_radius_at(const RegionShape &s, double xa)
{
  return s.p[2] + (xa - s.p[4]) * (s.p[3] - s.p[2]) / (s.p[5] - s.p[4]);
}

// A cone from outside: one face (number 0), the nearest of the side's line, the lo cap's and
// the hi cap's, each from the point's direction from the axis (in the half plane of the point
// and the axis), the first found kept on a tie. The side's radius of curvature is +2 r, r the
// cone's radius at the nearest point (convex: LAMMPS' surface gives -2 r, the inside's sign);
// a cap's and a rim's 0.
GE_INLINE int cone_faces_outside(const RegionShape &s, const Vec3 &x, double cutoff,
                                 RegionFace *out)
{
  const double r_lo = s.p[2], r_hi = s.p[3], lo = s.p[4], hi = s.p[5];
  const double widest = r_lo > r_hi ? r_lo : r_hi;
  const AxialPoint a = axial_point(s, x);
  if (a.r >= widest + cutoff || a.xa <= lo - cutoff || a.xa >= hi + cutoff) return 0;
  if (a.r < cone_radius_at(s, a.xa) && a.xa > lo && a.xa < hi) return 0;
  const Vec3 rim_lo = side_point(s, a, r_lo, lo), rim_hi = side_point(s, a, r_hi, hi);
  Vec3 axis_lo, axis_hi;
  set_component(axis_lo, s.axis, lo);
  set_component(axis_lo, a.k1, s.p[0]);
  set_component(axis_lo, a.k2, s.p[1]);
  axis_hi = axis_lo;
  set_component(axis_hi, s.axis, hi);
  const Vec3 candidates[3] = {nearest_on_segment(rim_lo, rim_hi, x),
                              nearest_on_segment(rim_lo, axis_lo, x),
                              nearest_on_segment(rim_hi, axis_hi, x)};
  Vec3 nearest{0, 0, 0};
  double best = INFINITY, curvature = 0.0;
  for (int k = 0; k < 3; k++) {
    const Vec3 d = x - candidates[k];
    const double dsq = d.x * d.x + d.y * d.y + d.z * d.z;
    if (!(dsq < best)) continue;
    best = dsq;
    nearest = candidates[k];
    curvature = k == 0 ? 2.0 * cone_radius_at(s, component(nearest, s.axis)) : 0.0;
  }
  if (best == INFINITY) return 0;
  out[0] = face_to_point(x, nearest, curvature, 0);
  return out[0].r < cutoff ? 1 : 0;
}

// a cone from inside: the side, face 2, nearest on the line of the side through the point's
// direction from the axis; the caps 0 and 1
GE_INLINE int cone_faces(const RegionShape &s, const Vec3 &x, double cutoff, RegionFace *out)
{
  if (!s.interior) return cone_faces_outside(s, x, cutoff, out);
  const double r_lo = s.p[2], r_hi = s.p[3], lo = s.p[4], hi = s.p[5];
  const AxialPoint a = axial_point(s, x);
  const double here = r_lo + (a.xa - lo) * (r_hi - r_lo) / (hi - lo);
  if (a.r > here || a.xa < lo || a.xa > hi) return 0;
  int n = 0;
  if (a.r > 0.0) {
    const Vec3 xs =
        nearest_on_segment(side_point(s, a, r_lo, lo), side_point(s, a, r_hi, hi), x);
    const Vec3 del = x - xs;
    const double dist = sqrt(del.x * del.x + del.y * del.y + del.z * del.z);
    if (dist < cutoff) {
      const double at = r_lo + (component(xs, s.axis) - lo) * (r_hi - r_lo) / (hi - lo);
      out[n++] = RegionFace{dist, del, -2.0 * at, 2};
    }
  }
  return n + cap_faces(s.axis, a.xa, lo, hi, cutoff, out + n);
}

// The faces of the region within `cutoff` of a point x where the region is now (none where
// the point is not in the region, on its side), with each face's vector from its nearest point
// carried back to where the region is; at most REGION_MOST_FACES
GE_INLINE int region_faces(const RegionWall &w, const Vec3 &x, double cutoff, RegionFace *out)
{
  const Vec3 xr = into_region_frame(w.placement, x);
  if (inside_region_shape(w.shape, xr) != w.shape.interior) return 0;
  int n = 0;
  switch (w.shape.kind) {
    case REGION_SPHERE: n = sphere_faces(w.shape, xr, cutoff, out); break;
    case REGION_PLANE: n = plane_faces(w.shape, xr, cutoff, out); break;
    case REGION_BLOCK: n = block_faces(w.shape, xr, cutoff, out); break;
    case REGION_CYLINDER: n = cylinder_faces(w.shape, xr, cutoff, out); break;
    default: n = cone_faces(w.shape, xr, cutoff, out); break;
  }
  if (w.placement.rotated)
    for (int k = 0; k < n; k++)
      out[k].del = x - out_of_region_frame(w.placement, xr - out[k].del);
  return n;
}

// The velocity of the region's material point at a face of the point x (where the region is
// now): its translation, and its spin about the spin point at the face's nearest point
GE_INLINE Vec3 region_face_velocity(const RegionPlacement &m, const Vec3 &x, const RegionFace &f)
{
  Vec3 v = m.moved ? m.velocity : Vec3{0, 0, 0};
  if (m.rotated) {
    const Vec3 xc = x - f.del;
    const Vec3 arm = xc - m.spin_point;
    v.x += m.spin.y * arm.z - m.spin.z * arm.y;
    v.y += m.spin.z * arm.x - m.spin.x * arm.z;
    v.z += m.spin.x * arm.y - m.spin.y * arm.x;
  }
  return v;
}

}    // namespace ge
