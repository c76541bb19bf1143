// Kernel tests of the region walls' geometry in the execution space (no LAMMPS):
// src/contact/region_geometry.hpp, the faces a point is near in sphere, plane, block, cylinder
// and cone regions, from inside and outside, placed by a move and a rotation.
//  * the nearest face point and its distance are the closed forms: a point in a box's corner
//    is near three faces, one per axis, each along its axis; a point beyond a box's edge is
//    nearest to the edge; a cylinder's side is concave from inside (radius -2 R) and convex
//    from outside (+2 R); a cone's side point lies on its slant, from inside and outside, and
//    beyond its caps and rims from outside the cap or the rim is nearest;
//  * a rigid placement changes nothing seen from the region: the faces of a point x in the
//    region moved by d and turned by theta about an axis are those of the point carried back,
//    turned with it (distance, face numbers and radii the same, the vectors rotated);
//  * the face velocity of a turning region is the rigid body's, omega x (x_c - p) + v.
#include "contact/region_geometry.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace {

using ge::Vec3;

ge::RegionWall wall_of(int kind, bool interior, std::initializer_list<double> p, int axis = 2)
{
  ge::RegionWall w;
  w.shape.kind = kind;
  w.shape.interior = interior;
  w.shape.axis = axis;
  int k = 0;
  for (double v : p) w.shape.p[k++] = v;
  return w;
}

void expect_near_vec(const Vec3 &a, const Vec3 &b, double tol)
{
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
  EXPECT_NEAR(a.z, b.z, tol);
}

}    // namespace

// A point 0.1, 0.2 and 0.3 from three faces of a unit box's corner: three faces, numbered by
// axis and side, each the distance along its axis; from the middle of the box none within 0.4
TEST(RegionGeometry, ABoxCornerFromInsideIsThreeFaces)
{
  const ge::RegionWall box = wall_of(ge::REGION_BLOCK, true, {0, 1, 0, 1, 0, 1});
  ge::RegionFace f[ge::REGION_MOST_FACES];
  ASSERT_EQ(ge::region_faces(box, Vec3{0.1, 0.8, 0.3}, 0.4, f), 3);
  EXPECT_EQ(f[0].iwall, 0);    // x lo
  EXPECT_EQ(f[1].iwall, 3);    // y hi
  EXPECT_EQ(f[2].iwall, 4);    // z lo
  EXPECT_DOUBLE_EQ(f[0].r, 0.1);
  expect_near_vec(f[1].del, Vec3{0, -0.2, 0}, 1e-15);
  expect_near_vec(f[2].del, Vec3{0, 0, 0.3}, 1e-15);
  for (int k = 0; k < 3; k++) EXPECT_EQ(f[k].radius, 0.0);
  EXPECT_EQ(ge::region_faces(box, Vec3{0.5, 0.5, 0.5}, 0.4, f), 0);
  // a point outside the box is not in the region: no face from inside
  EXPECT_EQ(ge::region_faces(box, Vec3{1.1, 0.5, 0.5}, 0.4, f), 0);
}

// From outside a box a point beyond an edge is nearest to the edge, at the distance of the
// right triangle; a point inside has no face from outside
TEST(RegionGeometry, ABoxEdgeFromOutsideIsItsNearestPoint)
{
  const ge::RegionWall box = wall_of(ge::REGION_BLOCK, false, {0, 1, 0, 1, 0, 1});
  ge::RegionFace f[ge::REGION_MOST_FACES];
  ASSERT_EQ(ge::region_faces(box, Vec3{1.3, 0.5, -0.4}, 0.6, f), 1);
  EXPECT_NEAR(f[0].r, 0.5, 1e-15);
  expect_near_vec(f[0].del, Vec3{0.3, 0.0, -0.4}, 1e-15);
  EXPECT_EQ(ge::region_faces(box, Vec3{1.3, 0.5, -0.4}, 0.5, f), 0);    // (r < cutoff)
  EXPECT_EQ(ge::region_faces(box, Vec3{0.5, 0.5, 0.5}, 0.6, f), 0);
}

// A cylinder about x from inside: its side (face 2, concave: -2 R) and a cap; from outside its
// side is convex (+2 R) and its rim the nearest point beyond a cap
TEST(RegionGeometry, ACylinderSideIsConcaveFromInsideAndConvexFromOutside)
{
  ge::RegionFace f[ge::REGION_MOST_FACES];
  // c1 = y = 1, c2 = z = 2, R = 3, x from 0 to 10
  const ge::RegionWall in = wall_of(ge::REGION_CYLINDER, true, {1, 2, 3, 0, 10}, 0);
  ASSERT_EQ(ge::region_faces(in, Vec3{0.2, 1.0 + 2.6 * 0.6, 2.0 + 2.6 * 0.8}, 0.5, f), 2);
  EXPECT_EQ(f[0].iwall, 2);
  EXPECT_NEAR(f[0].r, 0.4, 1e-14);
  expect_near_vec(f[0].del, Vec3{0, -0.4 * 0.6, -0.4 * 0.8}, 1e-14);
  EXPECT_EQ(f[0].radius, -6.0);
  EXPECT_EQ(f[1].iwall, 0);
  expect_near_vec(f[1].del, Vec3{0.2, 0, 0}, 1e-15);

  const ge::RegionWall out = wall_of(ge::REGION_CYLINDER, false, {1, 2, 3, 0, 10}, 0);
  ASSERT_EQ(ge::region_faces(out, Vec3{5.0, 1.0 + 3.2 * 0.6, 2.0 + 3.2 * 0.8}, 0.5, f), 1);
  EXPECT_NEAR(f[0].r, 0.2, 1e-14);
  EXPECT_EQ(f[0].radius, 6.0);
  // beyond the cap at x = 10 and outside the radius: the rim, at (10, 1 + 3 (0.6), 2 + 3 (0.8))
  ASSERT_EQ(ge::region_faces(out, Vec3{10.3, 1.0 + 3.4 * 0.6, 2.0 + 3.4 * 0.8}, 1.0, f), 1);
  EXPECT_NEAR(f[0].r, 0.5, 1e-14);
  // beyond the cap within the radius: the cap, flat
  ASSERT_EQ(ge::region_faces(out, Vec3{10.3, 1.5, 2.5}, 1.0, f), 1);
  EXPECT_NEAR(f[0].r, 0.3, 1e-14);
  EXPECT_EQ(f[0].radius, 0.0);
}

// A cone about z from inside, radius 1 at z = 0 to 3 at z = 4: a point on the axis plane x at
// height 2 (radius there 2) 0.3 inside the slant is 0.3 cos(atan(1/2)) from it, and the face's
// radius of curvature is -2 times the cone's radius at the nearest point
TEST(RegionGeometry, AConeSideIsNearestOnItsSlant)
{
  const ge::RegionWall cone = wall_of(ge::REGION_CONE, true, {0, 0, 1, 3, 0, 4}, 2);
  ge::RegionFace f[ge::REGION_MOST_FACES];
  ASSERT_EQ(ge::region_faces(cone, Vec3{1.7, 0.0, 2.0}, 0.5, f), 1);
  const double c = 2.0 / std::sqrt(5.0), s = 1.0 / std::sqrt(5.0);    // the slant's angle
  EXPECT_NEAR(f[0].r, 0.3 * c, 1e-14);
  expect_near_vec(f[0].del, Vec3{-0.3 * c * c, 0.0, 0.3 * c * s}, 1e-14);
  const double at = 2.0 - 0.15 * c * s;    // the radius at the nearest point's height
  EXPECT_NEAR(f[0].radius, -2.0 * at, 1e-13);
  // a sphere region from outside is convex, from inside concave; a plane is flat from both
  // sides, and a point on its far side is not in the region
  const ge::RegionWall ball = wall_of(ge::REGION_SPHERE, false, {0, 0, 0, 2});
  ASSERT_EQ(ge::region_faces(ball, Vec3{0, 2.25, 0}, 0.5, f), 1);
  EXPECT_EQ(f[0].radius, 2.0);
  expect_near_vec(f[0].del, Vec3{0, 0.25, 0}, 1e-15);
  const ge::RegionWall plane = wall_of(ge::REGION_PLANE, true, {0, 0, 1, 0, 0.6, 0.8});
  ASSERT_EQ(ge::region_faces(plane, Vec3{0, 0.5, 1.0}, 0.5, f), 1);
  EXPECT_NEAR(f[0].r, 0.3, 1e-15);
  EXPECT_EQ(ge::region_faces(plane, Vec3{0, -0.5, 1.0}, 0.5, f), 0);
}

// The same cone from outside: a point 0.3 out along the side's normal at height 2 is 0.3 from
// it, with the convex radius +2 r there; above the hi cap within its radius the cap is nearest
// (flat); beyond the hi rim the rim is, at the distance to the corner
TEST(RegionGeometry, AConeFromOutsideIsNearestOnItsSideCapsOrRims)
{
  const ge::RegionWall cone = wall_of(ge::REGION_CONE, false, {0, 0, 1, 3, 0, 4}, 2);
  ge::RegionFace f[ge::REGION_MOST_FACES];
  const double c = 2.0 / std::sqrt(5.0), s = 1.0 / std::sqrt(5.0);
  ASSERT_EQ(ge::region_faces(cone, Vec3{2.0 + 0.3 * c, 0.0, 2.0 - 0.3 * s}, 0.5, f), 1);
  EXPECT_NEAR(f[0].r, 0.3, 1e-14);
  expect_near_vec(f[0].del, Vec3{0.3 * c, 0.0, -0.3 * s}, 1e-14);
  EXPECT_NEAR(f[0].radius, 4.0, 1e-13);
  ASSERT_EQ(ge::region_faces(cone, Vec3{0.6, 0.8, 4.2}, 0.5, f), 1);
  EXPECT_NEAR(f[0].r, 0.2, 1e-14);
  EXPECT_EQ(f[0].radius, 0.0);
  ASSERT_EQ(ge::region_faces(cone, Vec3{0.0, 3.3, 4.4}, 0.6, f), 1);
  EXPECT_NEAR(f[0].r, 0.5, 1e-14);
  expect_near_vec(f[0].del, Vec3{0.0, 0.3, 0.4}, 1e-14);
  // inside the cone: no face from outside
  EXPECT_EQ(ge::region_faces(cone, Vec3{1.0, 0.0, 2.0}, 0.5, f), 0);
}

// A region moved by d and turned by theta about an oblique axis through p sees the same faces
// as the region at rest sees the point carried back: distances, face numbers and radii equal,
// the vectors turned with the region
TEST(RegionGeometry, APlacedRegionSeesWhatTheRegionAtRestSees)
{
  const double theta = 0.7;
  const Vec3 axis = (1.0 / std::sqrt(14.0)) * Vec3{1, 2, 3};
  ge::RegionPlacement m;
  m.moved = m.rotated = true;
  m.displacement = Vec3{0.3, -0.2, 0.5};
  m.point = Vec3{0.5, 0.5, 0.5};
  m.axis_unit = axis;
  m.sine = std::sin(theta);
  m.cosine = std::cos(theta);
  m.sine_back = std::sin(-theta);
  m.cosine_back = std::cos(-theta);
  const ge::RegionWall shapes[] = {
      wall_of(ge::REGION_BLOCK, true, {0, 1, 0, 1, 0, 1}),
      wall_of(ge::REGION_BLOCK, false, {0, 1, 0, 1, 0, 1}),
      wall_of(ge::REGION_CYLINDER, true, {0.5, 0.5, 0.45, 0, 1}, 1),
      wall_of(ge::REGION_CONE, true, {0.5, 0.5, 0.2, 0.5, 0, 1}, 0),
      wall_of(ge::REGION_SPHERE, true, {0.5, 0.5, 0.5, 0.5}),
      wall_of(ge::REGION_CONE, false, {0.5, 0.5, 0.2, 0.4, 0, 1}, 1),
  };
  const Vec3 at_rest[] = {Vec3{0.1, 0.85, 0.2}, Vec3{1.2, 0.5, -0.1}, Vec3{0.8, 0.05, 0.3},
                          Vec3{0.1, 0.6, 0.65}, Vec3{0.2, 0.7, 0.35}, Vec3{0.5, 1.1, 0.6}};
  for (int k = 0; k < 6; k++) {
    ge::RegionWall placed = shapes[k];
    placed.placement = m;
    const Vec3 x = ge::out_of_region_frame(m, at_rest[k]);
    ge::RegionFace a[ge::REGION_MOST_FACES], b[ge::REGION_MOST_FACES];
    const int na = ge::region_faces(shapes[k], at_rest[k], 0.3, a);
    ASSERT_GT(na, 0) << k;
    ASSERT_EQ(ge::region_faces(placed, x, 0.3, b), na) << k;
    for (int c = 0; c < na; c++) {
      EXPECT_NEAR(a[c].r, b[c].r, 1e-14) << k;
      EXPECT_EQ(a[c].iwall, b[c].iwall) << k;
      EXPECT_NEAR(a[c].radius, b[c].radius, 1e-14) << k;
      // (a vector turns without the displacement)
      const Vec3 turned = ge::rotate_about(a[c].del, Vec3{0, 0, 0}, axis, m.sine, m.cosine);
      expect_near_vec(b[c].del, turned, 1e-14);
    }
  }
}

// The face velocity of a turning, moving region is the rigid body's at the face point
TEST(RegionGeometry, AFaceMovesAsTheRigidRegion)
{
  ge::RegionPlacement m;
  m.moved = m.rotated = true;
  m.velocity = Vec3{0.1, 0.2, 0.3};
  m.spin = Vec3{0, 0, 2};
  m.spin_point = Vec3{1, 0, 0};
  const ge::RegionFace f{0.1, Vec3{0, 0.1, 0}, 0.0, 0};
  // face point (1, 1.9, 0) - (1, 0, 0) = (0, 1.9, 0); omega x arm = (-3.8, 0, 0)
  const Vec3 v = ge::region_face_velocity(m, Vec3{1, 2, 0}, f);
  expect_near_vec(v, Vec3{0.1 - 3.8, 0.2, 0.3}, 1e-15);
  m.moved = m.rotated = false;
  expect_near_vec(ge::region_face_velocity(m, Vec3{1, 2, 0}, f), Vec3{0, 0, 0}, 0.0);
}
