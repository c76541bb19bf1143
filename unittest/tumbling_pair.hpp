// A pre-sheared pair of spheres carried through a rigid rotation, through build/lmp (one
// process; DeckJaeger on the host style, DeckKokkos under /kk): the deck the kernel test
// Tumbling.PreShearedContactCarriedThroughARigidRotation drives in the kernel. Spheres of
// radius 1 mm (SI) touching along an oblique line near the origin, overlap 1e-5 m, are sheared
// into partial slip by three translations (fix move linear, one step each), then turned rigidly
// by 90 degrees about the oblique axis (1, 2, 3) through the origin in `steps` steps, both
// spinning with the pair: step by step, each centre moved along its chord with the pair's spin
// (fix move transrot about its own centre: the velocities velocity Verlet would give), or in one
// run with the velocity of the rotation at the step's end (fix move rotate).
#pragma once

#include "contact/vec3.hpp"
#include "deck_util.hpp"

#include <cmath>
#include <fstream>
#include <string>

namespace deck {

struct TumblingPair {
  double sheared;    // |F_t| / (mu F_n) before the rotation
  double T_miss;     // largest |R^T F_t - F_t(0)| / (mu F_n) after it
  double N_miss;     // |F_n - F_n(0)| / F_n(0)
};

namespace tumbling_detail {

inline ge::Vec3 unit(const ge::Vec3 &v) { return (1.0 / ge::norm(v)) * v; }

inline std::string vec(const ge::Vec3 &v) { return num(v.x) + " " + num(v.y) + " " + num(v.z); }

// the commands of one step of fix move linear of atom `id`'s group from x to x_new
inline std::string linear_step(const char *group, const ge::Vec3 &x, const ge::Vec3 &x_new,
                               double dt)
{
  return std::string("fix m") + group + " " + group + " move linear " +
      vec((1.0 / dt) * (x_new - x)) + "\n";
}

inline std::string force_of_q(const char *marker)
{
  return std::string("print \"") + marker + "X $(fx[2]:%.17g)\"\nprint \"" + marker +
      "Y $(fy[2]:%.17g)\"\nprint \"" + marker + "Z $(fz[2]:%.17g)\"\n";
}

inline ge::Vec3 force_in_log(const std::string &log, const char *marker)
{
  const std::string m = marker;
  return {value_after(log, m + "X "), value_after(log, m + "Y "), value_after(log, m + "Z ")};
}

}    // namespace tumbling_detail

// `law`: the pair_coeff words; mu its friction coefficient; `how`: extra command-line words
// (e.g. " -k on t 1 -sf kk"). Writes <name>.in and <name>.log in the working directory.
inline TumblingPair tumbling_pair(const std::string &name, const std::string &law, double mu,
                                  int steps, bool chord, const std::string &how)
{
  using namespace tumbling_detail;
  using ge::Vec3;
  const double r = 1e-3, overlap = 1e-5, dt = 1e-6;
  const Vec3 n0 = unit(Vec3{0.3, -0.5, 0.2}), centre{3e-4, 1e-4, -2e-4};
  const Vec3 a = unit(ge::cross(n0, Vec3{0, 0, 1})), b = ge::cross(n0, a);
  const double d = 2.0 * r - overlap;
  Vec3 x_i = centre + (0.5 * d) * n0, x_j = centre - (0.5 * d) * n0;
  std::string text = "units si\natom_style sphere\natom_modify map array sort 0 0\n"
                     "boundary f f f\ncomm_modify vel yes\n"
                     "region box block -0.01 0.01 -0.01 0.01 -0.01 0.01\ncreate_box 1 box\n"
                     "create_atoms 1 single " + vec(x_i) + "\ncreate_atoms 1 single " + vec(x_j) +
      "\nset group all diameter 2e-3\nset group all density 2500\ngroup i id 1\ngroup j id 2\n"
      "pair_style granular/exact\npair_coeff * * " + law + "\ntimestep " + num(dt) +
      "\nthermo 100\n";
  // the pre-shear: j sideways, i along the line of centres (the overlap changing)
  const Vec3 shear[3] = {3e-6 * a, 1.5e-6 * b - 0.5e-6 * a, -0.6e-6 * b};
  const double squeeze[3] = {2.5e-6, 1.2e-6, -1e-6};
  for (int k = 0; k < 3; k++) {
    const Vec3 xj = x_j + shear[k];
    const Vec3 xi = xj + (ge::norm(x_i - x_j) - squeeze[k]) * unit(x_i - xj);
    text += linear_step("i", x_i, xi, dt) + linear_step("j", x_j, xj, dt) +
        "run 1\nunfix mi\nunfix mj\n";
    x_i = xi;
    x_j = xj;
  }
  text += force_of_q("GE_F0");
  const Vec3 axis = unit(Vec3{1, 2, 3});
  const double angle = 0.5 * 3.14159265358979323846 / steps;    // per step
  const std::string turn = vec(axis) + " " + num(2.0 * 3.14159265358979323846 * dt / angle);
  const Vec3 xi0 = x_i, xj0 = x_j;
  if (chord) {
    for (int k = 1; k <= steps; k++) {
      const Vec3 total = (double(k) * angle) * axis;
      const Vec3 xi = ge::rotate_by_vector(xi0, total), xj = ge::rotate_by_vector(xj0, total);
      text += "fix mi i move transrot " + vec((1.0 / dt) * (xi - x_i)) + " " + vec(x_i) + " " +
          turn + "\nfix mj j move transrot " + vec((1.0 / dt) * (xj - x_j)) + " " + vec(x_j) +
          " " + turn + "\nrun 1\nunfix mi\nunfix mj\n";
      x_i = xi;
      x_j = xj;
    }
  } else {
    text += "fix spin all move rotate 0 0 0 " + turn + "\nrun " + std::to_string(steps) + "\n";
  }
  text += force_of_q("GE_F1");
  {
    std::ofstream deck_file(name + ".in");
    deck_file << text;
  }
  const int status = run_mpi(1, name + ".in", how, name + ".log");
  EXPECT_EQ(status, 0) << name << ": see " << name << ".log";
  const std::string log = read_text(name + ".log");
  const Vec3 F0 = force_in_log(log, "GE_F0"), F1 = force_in_log(log, "GE_F1");
  const Vec3 n_start = unit(xj0 - xi0);
  const Vec3 total = (0.5 * 3.14159265358979323846) * axis;
  const Vec3 n_end = ge::rotate_by_vector(n_start, total);
  const double N0 = ge::dot(F0, n_start);
  const Vec3 Ft0 = ge::project_onto_plane(F0, n_start);
  const Vec3 back = ge::rotate_by_vector(ge::project_onto_plane(F1, n_end), -1.0 * total);
  return {ge::norm(Ft0) / (mu * N0), ge::norm(back - Ft0) / (mu * N0),
          std::fabs(ge::dot(F1, n_end) - N0) / N0};
}

}    // namespace deck
