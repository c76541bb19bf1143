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
// them, preconditioned and limited as SolveInSpace says. The arrays are kept from solve to solve
// (KokkosLoops).
template <class DeviceType> class CoulombNewtonKokkos : public CoulombFrictionOffload {
 public:
  using Space = typename DeviceType::execution_space;
  using Choices = SolveInSpace<Space>;

  bool solve_newton(const Problem &problem, int most, const SpaceChoices &asked,
                    std::vector<ge::Vec3> &force, Solve &solve) override
  {
    const Schedule schedule = colour_schedule(problem);
    if (!Choices::takes(schedule)) return false;
    const Problem coloured = in_schedule_order(problem, schedule);
    loops.use_graphs(asked.graphs);
    ParallelNewton<KokkosLoops<Space>> solver(loops, coloured, schedule, problem.extrapolated, 8,
                                              Choices::preconditioner(asked.preconditioner));
    NewtonResult result = solver.solve(most);
    force.resize(problem.terms.size());
    for (size_t k = 0; k < result.force.size(); k++)
      force[schedule.original[k]] = result.force[k];
    take_result(std::move(result), solve);
    return true;
  }

  const char *where() const override
  {
    return Choices::on_host ? "the host threads of the Kokkos execution space"
                            : "the Kokkos device";
  }

  const char *preconditioned_by(PreconditionerChoice asked) const override
  {
    return Choices::preconditioner_name(asked);
  }

  const char *declines() const override
  {
    // (64: SolveInSpace::kHostColours)
    return Choices::on_host ? "a problem whose contacts need more than 64 colours (each contact "
                              "of a sphere takes a colour of its own: a sphere with more than 64 "
                              "contacts needs them)"
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
