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
  // totals and measures into `solve`, run as `asked` (preconditioner, graphs); false where this
  // solver cannot take the problem (the fix then solves it itself)
  virtual bool solve_newton(const ge_coulomb_problem::Problem &problem, int most,
                            const ge_coulomb_problem::SpaceChoices &asked,
                            std::vector<ge::Vec3> &force, Solve &solve) = 0;
  // where it solves, for the log ("an NVIDIA GPU", "host threads")
  virtual const char *where() const = 0;
  // the preconditioner it takes where `asked`, for the log
  virtual const char *preconditioned_by(ge_coulomb_problem::PreconditionerChoice asked) const = 0;
  // what problems it does not take (solve_newton() false), for the log
  virtual const char *declines() const = 0;
};

// The whole friction step of one process's sphere contacts in the execution space of pair
// granular/exact/kk, which keeps their histories there: each contact's terms and start force
// made from its slot by a kernel, R_c, the solve of CoulombFrictionOffload, and the result
// written into the slots, so that only per-atom arrays and the outputs' sums cross to the host
// (FixCoulombFrictionExact::solve_in_space). The contacts the fix makes on the host (those of
// walls) are solved with them. The fix keeps every decision.
class CoulombFrictionStep {
 public:
  struct Settings {
    double tau = 0.0, ftm2v = 1.0, tol = 0.0;
    int most = 0;    // the budget of iterations (`sweeps`)
    ge_coulomb_problem::SpaceChoices space;    // how the solve runs (fix_modify)
    ge::CoulombWarmStart warm = ge::CoulombWarmStart::Previous;
    bool extrapolated_start = false;    // this step starts from the extrapolated forces
    ge::CoulombKinematics kinematics = ge::CoulombKinematics::Geometric;
    int nlocal = 0, nall = 0;
    const double *inv_mass = nullptr, *inv_inertia = nullptr;    // per atom (nall)
    const int *totals_row = nullptr;    // per atom (nall): whose totals take a contact's share
    const double *total0 = nullptr;     // 6 per owned atom: every force but the friction
    // the contacts the fix made on the host (the walls'), solved with the pair's after them:
    // their terms (R_c left to the step) and start forces
    int nhost = 0;
    const ge_coulomb_problem::ContactTerms *host_terms = nullptr;
    const ge::Vec3 *host_start = nullptr;
  };
  // what the fix's outputs sum over the contacts (FixCoulombFrictionExact::store_result())
  struct Sums {
    double contacts = 0.0, stuck = 0.0;
    double largest_slip2 = 0.0;    // the largest |v_t|^2 of a stuck contact
    double products[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};    // sum of l (x) F, row by row
    double misfit[2] = {0.0, 0.0};    // FixCoulombFrictionExact::add_start_misfits()
  };
  virtual ~CoulombFrictionStep() = default;
  // this step's contacts (those the pair keeps, FixCoulombFrictionExact::keep_contacts_in_space)
  // made and solved with the host's, whose forces go into `host_force`; false where this solver
  // does not take them (nothing changed: the fix then takes them, hand_over())
  virtual bool solve(const Settings &settings, CoulombFrictionOffload::Solve &solve,
                     std::vector<ge::Vec3> &host_force) = 0;
  // the pair's solved forces into their histories (changes_solved: this step's and the last
  // one's solves reached tol), the outputs' sums over them into `sums` (l (x) F where
  // tally_pair or virial); with tally_pair the pair's global vector gets the friction's l (x) F
  // (PairGranularExact::tally_friction)
  virtual void store(bool changes_solved, bool tally_pair, bool virial, Sums &sums) = 0;
  // this step's contacts handed to the fix one by one (add_sphere_contact), as the pair's
  // hand-over does where no step is attached
  virtual void hand_over() = 0;
};

}    // namespace LAMMPS_NS

#endif
