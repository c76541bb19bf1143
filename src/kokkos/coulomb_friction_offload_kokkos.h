/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: the Newton solve of `tangential coulomb` in a Kokkos
   execution space, for the friction fix (CoulombFrictionOffload), made by
   pair granular/exact/kk for its own DeviceType
------------------------------------------------------------------------- */

#ifndef GE_COULOMB_FRICTION_OFFLOAD_KOKKOS_H
#define GE_COULOMB_FRICTION_OFFLOAD_KOKKOS_H

#include "coulomb_friction_offload.h"

#include <memory>

namespace LAMMPS_NS {

template <class DeviceType> std::unique_ptr<CoulombFrictionOffload> make_coulomb_friction_offload();

}    // namespace LAMMPS_NS

#endif
