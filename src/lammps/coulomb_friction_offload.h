/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: a solver that takes the Newton solve of `tangential
   coulomb` off the friction fix's host loops: attached by pair
   granular/exact/kk, which runs it in its Kokkos execution space
   (src/kokkos/coulomb_newton_kokkos.hpp). The fix hands it one process's
   whole friction problem (ge_coulomb_problem::Problem, the contacts in the
   fix's order) and takes back the forces, their totals and their measures.
------------------------------------------------------------------------- */

#ifndef GE_COULOMB_FRICTION_OFFLOAD_H
#define GE_COULOMB_FRICTION_OFFLOAD_H

#include "kokkos/coulomb_friction_problem.hpp"

#include <vector>

namespace LAMMPS_NS {

class CoulombFrictionOffload {
 public:
  struct Solve {
    int iterations = 0;       // APGD and Krylov together (the fix's `sweeps`)
    double true_error = 0.0;  // the largest natural residual of the forces (of mu F_n)
    bool close_start = false; // the start counted as close (FixCoulombFrictionExact::close_start)
    double seconds = 0.0;     // the solve's own, from its start forces in place to its result
    double stuck_rate = 0.0;  // the largest |s| a contact inside its disk keeps (measure_residual)
    std::vector<double> totals;    // 6 per body: the totals of every force, the solved included
  };
  virtual ~CoulombFrictionOffload() = default;
  // the Newton solve of `problem` in at most `most` iterations, its forces into `force`, their
  // totals and measures into `solve`; false where this solver cannot take the problem (the fix
  // then solves it itself)
  virtual bool solve_newton(const ge_coulomb_problem::Problem &problem, int most,
                            std::vector<ge::Vec3> &force, Solve &solve) = 0;
  // where it solves, for the log ("an NVIDIA GPU", "host threads")
  virtual const char *where() const = 0;
  // what problems it does not take (solve_newton() false), for the log
  virtual const char *declines() const = 0;
};

}    // namespace LAMMPS_NS

#endif
