// The stuck contacts' linear system of exported friction problems (fix_modify GE_COULOMB export),
// solved by conjugate gradients with four preconditioners (unittest/device/
// coulomb_stuck_system.hpp): how many iterations each takes to 1e-8 of a consistent random
// right-hand side, and the tangential constraints per degree of freedom, 2 N_c / 6 N, over the bed
// and in slabs of about 8 diameters from the floor up. bench/README.md, "What the soft modes are".
//
// Usage: coulomb_stuck_system [--cell D] [--most N] [--skip-two-level] [--hybrid N]... PROBLEM...
//   --cell: the coarse cells' edge in contact diameters (default 3)
//   --hybrid N: also solve the step by N APGD iterations, then Newton-CG on the face
//   (solve_apgd_then_newton_cg; repeat for several N)
#include "coulomb_stuck_system.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace ge_coulomb_problem;

namespace {

void report(const char *what, const CgResult &r)
{
  std::printf("  %-28s %7d iterations, true residual %.1e, %.2f s\n", what, r.iterations,
              r.true_residual, r.seconds);
}

// the best of 3 times of 40 calls, ms per call
template <class F> double milliseconds_of(F &&what)
{
  double best = 1e30;
  for (int round = 0; round < 3; round++) {
    const auto started = std::chrono::steady_clock::now();
    for (int k = 0; k < 40; k++) what();
    best = std::fmin(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  }
  return 1e3 * best / 40;
}

void study(const char *file, double cell, int most, bool two_level, const std::vector<int> &hybrid)
{
  const Problem p = read_problem(file, 1);
  StuckSystem D(p);
  const double d = median_contact_diameter(p);
  std::printf("%s: %d bodies, %zu contacts, %zu stuck\n", file, p.nbodies, p.terms.size(),
              D.size());
  double top = p.lo[2];
  for (int k = 0; k < p.nbodies; k++)
    if (D.moves(k)) top = std::fmax(top, p.position[k].z);
  const int slabs = std::max(1, static_cast<int>(std::lround((top - p.lo[2]) / (8.0 * d))));
  const std::vector<double> ratio = constraint_ratio(D, slabs);
  std::printf("  2 Nc / 6 N: %.3f; in slabs from the floor up:", ratio[0]);
  for (size_t k = 1; k < ratio.size(); k++)
    if (ratio[k] > 0.0) std::printf(" %.3f", ratio[k]);
  std::printf("\n");
  const WarmStartSolve warm = solve_stuck_set_from_warm_start(p, D, p.tol, most);
  std::printf("  the step from its warm start, stuck set held (tol %.0e): %d iterations (%.2f s), "
              "natural residual %.1e -> %.1e, %d forces outside their disks\n",
              p.tol, warm.iterations, warm.seconds, warm.start_residual, warm.residual,
              warm.outside);
  for (int apgd : hybrid) {
    const HybridSolve h = solve_apgd_then_newton_cg(p, apgd, most, 20);
    std::printf("  the step by %d APGD iterations, then %d Newton steps on the face: %d CG "
                "iterations (%d in all, %.2f s), natural residual %.1e\n",
                h.apgd, h.newton, h.cg, h.apgd + h.cg, h.seconds, h.residual);
  }
  const Forces b = random_consistent_rhs(D, 7);
  Forces x, y, z;
  report("diagonal (m_t)", conjugate_gradients(D, b, JacobiPreconditioner{D}, 1e-8, most, x));
  // SSOR (omega 1; 1.3 and 1.6 took more iterations on every bed) in the contacts' order and
  // in coloured orders, with the cost of its sweeps against a product with D_SS
  for (int block : {0, 64, -1}) {
    const int colours = block == 0 ? D.use_natural_order() : D.use_coloured_order(std::max(block, 0));
    std::printf("  SSOR sweeps in the %s order (%d colours)\n",
                block == 0 ? "contacts'" : block > 0 ? "blocks-of-64 coloured" : "coloured", colours);
    report("  SSOR (symmetric Gauss-Seidel)",
           conjugate_gradients(D, b, SsorPreconditioner{D, 1.0}, 1e-8, most, x));
    report("  the same, Eisenstat's form", eisenstat_ssor_cg(D, b, 1.0, 1e-8, most, x));
    std::printf("    D x: %.3f ms, a forward and a backward sweep: %.3f ms\n",
                milliseconds_of([&] { D.apply(b, y); }),
                milliseconds_of([&] {
                  D.sweep(b, y, 1.0, true);
                  D.sweep(y, z, 1.0, false);
                }));
  }
  D.use_natural_order();
  const StarSchwarz stars(D);
  report("stars (additive Schwarz)", conjugate_gradients(D, b, stars, 1e-8, most, x));
  if (!two_level) return;
  const TwoLevel coarse(D, cell * d, largest_scaled_eigenvalue(D), true);
  char what[64];
  std::snprintf(what, sizeof(what), "two-level (%d coarse)", coarse.coarse_size());
  report(what, conjugate_gradients(D, b, coarse, 1e-8, most, x));
}

}    // namespace

int main(int argc, char **argv)
{
  double cell = 3.0;
  int most = 100000;
  bool two_level = true;
  std::vector<int> hybrid;
  int first = 1;
  for (; first < argc && argv[first][0] == '-'; first++) {
    const std::string opt = argv[first];
    if (opt == "--cell" && first + 1 < argc) cell = std::atof(argv[++first]);
    else if (opt == "--most" && first + 1 < argc) most = std::atoi(argv[++first]);
    else if (opt == "--skip-two-level") two_level = false;
    else if (opt == "--hybrid" && first + 1 < argc && std::atoi(argv[first + 1]) >= 0)
      hybrid.push_back(std::atoi(argv[++first]));
    else {
      std::fprintf(stderr, "coulomb_stuck_system: unknown option %s\n", argv[first]);
      return 2;
    }
  }
  if (first == argc || cell <= 0.0 || most <= 0) {
    std::fprintf(stderr, "usage: coulomb_stuck_system [--cell D > 0] [--most N > 0] "
                         "[--skip-two-level] [--hybrid APGD-ITERATIONS]... PROBLEM...\n");
    return 2;
  }
  try {
    for (int k = first; k < argc; k++) study(argv[k], cell, most, two_level, hybrid);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "coulomb_stuck_system: %s\n", e.what());
    return 1;
  }
  return 0;
}
