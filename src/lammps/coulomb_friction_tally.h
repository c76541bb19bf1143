/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: what the friction fix of `tangential coulomb` (FixCoulombFrictionExact)
   reports back to the owners of the contacts handed to it.

   The pair style and the wall fixes hand their coulomb contacts to the friction fix during the
   step; it solves them last, in post_force. The owners' outputs (the pair's contact stress in
   its global vector, a wall's force on the group and virial) include the friction, so the fix
   tells each owner the friction of its contacts right after the solve, before any output of
   the step reads them.
------------------------------------------------------------------------- */

#ifndef GE_COULOMB_FRICTION_TALLY_H
#define GE_COULOMB_FRICTION_TALLY_H

#include "contact/vec3.hpp"

namespace LAMMPS_NS {

class CoulombFrictionTally {
 public:
  // the friction force on atom i of one contact; branch: from the partner's centre (a wall's
  // surface point) to the centre of i
  virtual void tally_friction(int i, const ge::Vec3 &branch, const ge::Vec3 &force_on_i) = 0;

 protected:
  // (not deleted through this interface: the owners are a pair style and fixes, which LAMMPS
  // deletes as such)
  ~CoulombFrictionTally() = default;
};

}    // namespace LAMMPS_NS

#endif
