/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: a LAMMPS region as the execution space evaluates its
   surface (ge::RegionWall, src/contact/region_geometry.hpp), for fix
   wall/gran/exact/kk; and what LAMMPS' own surfaces of some regions get
   wrong, for the host fix, which reads them
------------------------------------------------------------------------- */

#ifndef GE_REGION_IN_SPACE_H
#define GE_REGION_IN_SPACE_H

#include "contact/region_geometry.hpp"

#include <string>

namespace LAMMPS_NS {
class Region;

// The shape of a region in its own frame, where it has a form in the execution space (sphere,
// plane, block, cylinder and cone (about y from outside only), every face closed, of a constant
// shape): ""
// and `shape` set; otherwise what keeps it out, in words.
std::string region_shape_in_space(Region *region, ge::RegionShape &shape);

// Where the region is now and how it moves (its placement as Region::prematch() and
// Region::set_velocity() have left it this step)
ge::RegionPlacement region_placement(Region *region);

// What LAMMPS' surface of this region gets wrong where the host fix would use it ("" if
// nothing): a cone about y from inside gives its closed end caps' contacts along z
// (region_cone.cpp, 4 Feb 2025); such a wall would push spheres sideways
std::string region_surface_defect(Region *region);

// LAMMPS gives a cone's side seen from outside the radius of curvature of a concave face
// (-2 r, as from inside): the side is convex there, +2 r
bool region_side_convex_given_concave(Region *region);

}    // namespace LAMMPS_NS

#endif
