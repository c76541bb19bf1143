/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: the Newton solve of `tangential coulomb` in a Kokkos
   execution space, for the friction fix (CoulombFrictionOffload), and the
   whole friction step there (CoulombFrictionStep), made by pair
   granular/exact/kk for its own DeviceType
------------------------------------------------------------------------- */

#ifndef GE_COULOMB_FRICTION_OFFLOAD_KOKKOS_H
#define GE_COULOMB_FRICTION_OFFLOAD_KOKKOS_H

#include "coulomb_friction_offload.h"

#include "coulomb_newton_parallel.hpp"

#include <memory>
#include <utility>

namespace LAMMPS_NS {

template <class DeviceType> std::unique_ptr<CoulombFrictionOffload> make_coulomb_friction_offload();

// what the fix takes back from a solve (its forces apart)
inline void take_result(ge_coulomb_problem::NewtonResult &&result, CoulombFrictionOffload::Solve &solve)
{
  solve.iterations = result.iterations;
  solve.true_error = result.residual;
  solve.close_start = result.close_start;
  solve.seconds = result.seconds;
  solve.stuck_rate = result.stuck_rate;
  solve.totals = std::move(result.totals);
}

// the whole friction step in the pair's execution space, over its slots
// (coulomb_friction_step_kokkos.cpp)
template <class DeviceType> class PairGranularExactKokkos;
template <class DeviceType>
std::unique_ptr<CoulombFrictionStep> make_coulomb_friction_step(PairGranularExactKokkos<DeviceType> *pair);

}    // namespace LAMMPS_NS

#endif
