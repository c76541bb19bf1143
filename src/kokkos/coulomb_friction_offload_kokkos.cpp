/* ----------------------------------------------------------------------
   GRANULAR-EXACT: the Newton solve of `tangential coulomb` in a Kokkos
   execution space (see the header)
------------------------------------------------------------------------- */

#include "coulomb_friction_offload_kokkos.h"

#include "kokkos_type.h"

#include "coulomb_newton_kokkos.hpp"

#include <type_traits>
#include <utility>

using namespace LAMMPS_NS;

namespace {

using namespace ge_coulomb_problem;

// The parallel form of the fix's Newton solver (coulomb_newton_parallel.hpp) over the Kokkos
// backend: the contacts coloured (no two of a colour share a body) for the passes that sweep
// them. The Krylov iterations are preconditioned on a GPU by the contacts' diagonal blocks (2.1
// to 5.9 times faster there than the fix's symmetric Gauss-Seidel, bench/README.md "The Newton
// solver on a GPU"), on host threads by symmetric Gauss-Seidel in colours (half the diagonal
// one's iterations, 1.2 to 1.3 times faster on one thread: bench/README.md, "Newton in the
// execution space"). The arrays are kept from solve to solve (KokkosLoops).
template <class DeviceType> class CoulombNewtonKokkos : public CoulombFrictionOffload {
 public:
  // On host threads each colour of a sweep is a fork and join of the threads: a sphere with many
  // contacts (each of them a colour of its own) makes the sweeps a chain of small passes, and the
  // fix's own loops are the faster solve (120 spheres on a large one: 0.35 against 5.0 ms per
  // step on 2 threads). A device's Krylov iterations (diagonal blocks) sweep no colours.
  static constexpr int kHostColours = 64;

  using Space = typename DeviceType::execution_space;
  static constexpr bool on_host =
      std::is_same<typename Space::memory_space, Kokkos::HostSpace>::value;

  bool solve_newton(const Problem &problem, int most, std::vector<ge::Vec3> &force,
                    Solve &solve) override
  {
    const Schedule schedule = colour_schedule(problem);
    if (on_host && schedule.colours() > kHostColours) return false;
    const Problem coloured = in_schedule_order(problem, schedule);
    ParallelNewton<KokkosLoops<Space>> solver(loops, coloured, schedule, problem.extrapolated, 8,
                                              on_host ? Preconditioner::SymmetricGaussSeidel
                                                      : Preconditioner::Diagonal);
    NewtonResult result = solver.solve(most);
    force.resize(problem.terms.size());
    for (size_t k = 0; k < result.force.size(); k++)
      force[schedule.original[k]] = result.force[k];
    solve.iterations = result.iterations;
    solve.true_error = result.residual;
    solve.close_start = result.close_start;
    solve.seconds = result.seconds;
    solve.stuck_rate = result.stuck_rate;
    solve.totals = std::move(result.totals);
    return true;
  }

  const char *where() const override
  {
    return on_host ? "the host threads of the Kokkos execution space" : "the Kokkos device";
  }

  const char *declines() const override
  {
    return on_host ? "a problem whose contacts need more than 64 colours (each contact of a "
                     "sphere takes a colour of its own: a sphere with more than 64 contacts "
                     "needs them)"
                   : "";
  }

 private:
  KokkosLoops<Space> loops;
};

}    // namespace

namespace LAMMPS_NS {

template <class DeviceType> std::unique_ptr<CoulombFrictionOffload> make_coulomb_friction_offload()
{
  return std::make_unique<CoulombNewtonKokkos<DeviceType>>();
}

template std::unique_ptr<CoulombFrictionOffload> make_coulomb_friction_offload<LMPDeviceType>();
#ifdef LMP_KOKKOS_GPU
template std::unique_ptr<CoulombFrictionOffload> make_coulomb_friction_offload<LMPHostType>();
#endif

}    // namespace LAMMPS_NS
