/* ----------------------------------------------------------------------
   GRANULAR-EXACT: a LAMMPS region as the execution space evaluates its
   surface (see the header)
------------------------------------------------------------------------- */

#include "region_in_space.h"

#include "region.h"
#include "region_block.h"
#include "region_cone.h"
#include "region_cylinder.h"
#include "region_plane.h"
#include "region_sphere.h"

#include <cmath>
#include <cstring>

using namespace LAMMPS_NS;

namespace {

// LAMMPS keeps a region's shape and the axis of its rotation in protected or private members,
// with no accessor, and a kernel needs them as LAMMPS has them now (a region may be redefined
// between runs; its variables and motion are LAMMPS'). They are read where they are: a
// pointer to such a member may be named in an explicit instantiation, where access is not
// checked ([temp.spec.general] 6 in C++20, [temp.explicit] 12 in C++11), and handed out by a
// friend defined there. A member renamed in a later LAMMPS fails to compile here; it never
// reads something else.
template <typename Tag, typename Tag::type Member> struct MemberReader {
  friend typename Tag::type member_of(Tag) { return Member; }
};

#define GE_REGION_MEMBER(TAG, CLASS, TYPE, NAME)                   \
  struct TAG {                                                     \
    using type = TYPE CLASS::*;                                    \
    friend type member_of(TAG);                                    \
  };                                                               \
  template struct MemberReader<TAG, &CLASS::NAME>

using Triple = double[3];
GE_REGION_MEMBER(RotationPoint, Region, Triple, point);
GE_REGION_MEMBER(RotationAxis, Region, Triple, runit);
GE_REGION_MEMBER(SphereX, RegSphere, double, xc);
GE_REGION_MEMBER(SphereY, RegSphere, double, yc);
GE_REGION_MEMBER(SphereZ, RegSphere, double, zc);
GE_REGION_MEMBER(SphereRadius, RegSphere, double, radius);
GE_REGION_MEMBER(PlaneX, RegPlane, double, xp);
GE_REGION_MEMBER(PlaneY, RegPlane, double, yp);
GE_REGION_MEMBER(PlaneZ, RegPlane, double, zp);
GE_REGION_MEMBER(PlaneNormal, RegPlane, Triple, normal);
GE_REGION_MEMBER(BlockXlo, RegBlock, double, xlo);
GE_REGION_MEMBER(BlockXhi, RegBlock, double, xhi);
GE_REGION_MEMBER(BlockYlo, RegBlock, double, ylo);
GE_REGION_MEMBER(BlockYhi, RegBlock, double, yhi);
GE_REGION_MEMBER(BlockZlo, RegBlock, double, zlo);
GE_REGION_MEMBER(BlockZhi, RegBlock, double, zhi);
GE_REGION_MEMBER(CylinderAxis, RegCylinder, char, axis);
GE_REGION_MEMBER(CylinderC1, RegCylinder, double, c1);
GE_REGION_MEMBER(CylinderC2, RegCylinder, double, c2);
GE_REGION_MEMBER(CylinderRadius, RegCylinder, double, radius);
GE_REGION_MEMBER(CylinderLo, RegCylinder, double, lo);
GE_REGION_MEMBER(CylinderHi, RegCylinder, double, hi);
GE_REGION_MEMBER(ConeAxis, RegCone, char, axis);
GE_REGION_MEMBER(ConeC1, RegCone, double, c1);
GE_REGION_MEMBER(ConeC2, RegCone, double, c2);
GE_REGION_MEMBER(ConeRadiusLo, RegCone, double, radiuslo);
GE_REGION_MEMBER(ConeRadiusHi, RegCone, double, radiushi);
GE_REGION_MEMBER(ConeLo, RegCone, double, lo);
GE_REGION_MEMBER(ConeHi, RegCone, double, hi);

#undef GE_REGION_MEMBER

template <typename Tag, typename Class> auto read(const Class *r, Tag tag) -> decltype(r->*member_of(tag))
{
  return r->*member_of(tag);
}

int axis_index(char axis)
{
  return axis == 'x' ? 0 : axis == 'y' ? 1 : 2;
}

// the region's style without an accelerator's suffix (block/kk is a block)
std::string base_style(const Region *region)
{
  const std::string style = region->style;
  return style.substr(0, style.find('/'));
}

}    // namespace

std::string LAMMPS_NS::region_shape_in_space(Region *region, ge::RegionShape &shape)
{
  const std::string style = base_style(region);
  const std::string named = "region " + std::string(region->id) + " (" + style + ")";
  if (region->openflag) return named + " with open faces";
  if (region->varshape) return named + " whose shape follows variables";
  shape = ge::RegionShape();
  shape.interior = region->interior != 0;
  double *p = shape.p;
  if (style == "sphere") {
    const auto *r = static_cast<const RegSphere *>(region);
    shape.kind = ge::REGION_SPHERE;
    p[0] = read(r, SphereX());
    p[1] = read(r, SphereY());
    p[2] = read(r, SphereZ());
    p[3] = read(r, SphereRadius());
  } else if (style == "plane") {
    const auto *r = static_cast<const RegPlane *>(region);
    shape.kind = ge::REGION_PLANE;
    p[0] = read(r, PlaneX());
    p[1] = read(r, PlaneY());
    p[2] = read(r, PlaneZ());
    for (int k = 0; k < 3; k++) p[3 + k] = read(r, PlaneNormal())[k];
  } else if (style == "block") {
    const auto *r = static_cast<const RegBlock *>(region);
    shape.kind = ge::REGION_BLOCK;
    p[0] = read(r, BlockXlo());
    p[1] = read(r, BlockXhi());
    p[2] = read(r, BlockYlo());
    p[3] = read(r, BlockYhi());
    p[4] = read(r, BlockZlo());
    p[5] = read(r, BlockZhi());
  } else if (style == "cylinder") {
    const auto *r = static_cast<const RegCylinder *>(region);
    shape.kind = ge::REGION_CYLINDER;
    shape.axis = axis_index(read(r, CylinderAxis()));
    p[0] = read(r, CylinderC1());
    p[1] = read(r, CylinderC2());
    p[2] = read(r, CylinderRadius());
    p[3] = read(r, CylinderLo());
    p[4] = read(r, CylinderHi());
  } else if (style == "cone") {
    const auto *r = static_cast<const RegCone *>(region);
    // (LAMMPS' cone about y from inside gives its end caps' contacts the normal of z: the
    // host fix stops on it, region_surface_defect())
    if (shape.interior && read(r, ConeAxis()) == 'y') return named + " about the y axis";
    shape.kind = ge::REGION_CONE;
    shape.axis = axis_index(read(r, ConeAxis()));
    p[0] = read(r, ConeC1());
    p[1] = read(r, ConeC2());
    p[2] = read(r, ConeRadiusLo());
    p[3] = read(r, ConeRadiusHi());
    p[4] = read(r, ConeLo());
    p[5] = read(r, ConeHi());
  } else {
    return named;
  }
  return "";
}

std::string LAMMPS_NS::region_surface_defect(Region *region)
{
  if (base_style(region) != "cone" || !region->interior) return "";
  const auto *r = static_cast<const RegCone *>(region);
  if (read(r, ConeAxis()) != 'y' || (region->open_faces[0] && region->open_faces[1])) return "";
  return "LAMMPS' surface of region " + std::string(region->id) +
      " (a cone about y, from inside) gives the contacts with its end caps the normal of z, "
      "not y: its spheres would be pushed sideways at the caps; turn the deck so that the cone "
      "is about x or z, or leave both caps open (open 1 open 2)";
}

bool LAMMPS_NS::region_side_convex_given_concave(Region *region)
{
  return base_style(region) == "cone" && !region->interior;
}

ge::RegionPlacement LAMMPS_NS::region_placement(Region *region)
{
  ge::RegionPlacement m;
  m.moved = region->moveflag != 0;
  m.rotated = region->rotateflag != 0;
  if (m.moved) {
    m.displacement = ge::Vec3{region->dx, region->dy, region->dz};
    m.velocity = ge::vec3(region->v);
  }
  if (m.rotated) {
    // (the sines and cosines Region::rotate() takes of theta and -theta)
    m.sine = std::sin(region->theta);
    m.cosine = std::cos(region->theta);
    m.sine_back = std::sin(-region->theta);
    m.cosine_back = std::cos(-region->theta);
    m.point = ge::vec3(read(region, RotationPoint()));
    m.axis_unit = ge::vec3(read(region, RotationAxis()));
    m.spin = ge::vec3(region->omega);
    m.spin_point = ge::vec3(region->rpoint);
  }
  return m;
}
