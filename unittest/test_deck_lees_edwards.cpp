// Lees-Edwards boundaries (fix deform xy ... remap v; pair_granular_exact.rst, Restrictions): a
// contact across the sheared periodic boundary sees its partner's image moving with the box's shear
// velocity. It must act exactly like the same contact inside the box with the image's velocity
// given to the partner, for the spring laws (pair) and for the friction constraint (its fix).
#include "deck_util.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

namespace {

using deck::num;

constexpr double kL = 10.0;          // box edge (LJ units, spheres of diameter 1)
constexpr double kShear = 0.1;       // d(xy)/dt: the top image moves at +kShear along x
constexpr double kDx = 0.3;          // x offset of the partner from the first sphere
constexpr double kYi = 9.75;         // first sphere, near the top boundary
const double kDy = std::sqrt(0.99 * 0.99 - kDx * kDx);    // centre distance 0.99: overlap 0.01

struct PairForces {
  double f[2][3], torque[2][3];    // by tag (1, 2)
};

// Sphere 1 near the top of a sheared periodic box, sphere 2 near its bottom so that its image
// above the top touches sphere 1 (`across` true); or both inside the box, sphere 2 where the
// image is, moving with the image's velocity (`across` false, everything shifted down by L/2).
// The forces of the run's setup: from the velocities of the step (no movement yet).
PairForces sheared_contact(const std::string &law, bool across)
{
  deck::Lammps lmp;
  const double shift = across ? 0.0 : -kL / 2;
  const double yj = across ? kYi + kDy - kL : kYi + kDy + shift;
  const double vj = -0.05 + (across ? 0.0 : kShear);
  lmp.command("units lj\natom_style sphere\natom_modify map array\nboundary p p f\n"
              "comm_modify vel yes\nregion box prism 0 " + num(kL) + " 0 " + num(kL) +
              " -2 2 0 0 0\ncreate_box 1 box\ncreate_atoms 1 single 5 " + num(kYi + shift) +
              " 0\ncreate_atoms 1 single " + num(5 + kDx) + " " + num(yj) +
              " 0\nset group all diameter 1\nset group all density 1.9098593171027443\n"
              "set atom 1 vx 0.05 vy 0 vz 0.01\nset atom 2 vx " + num(vj) +
              " vy 0.01 vz -0.02\nset atom 1 omega 0 0.2 0.3\nset atom 2 omega -0.1 0 0\n"
              "pair_style granular/exact\npair_coeff * * " + law +
              "\nfix integrate all nve/sphere\nfix shear all deform 1 xy vel " + num(kShear) +
              " remap v\ntimestep 0.001\nrun 0 start 0 stop 100");    // (fix deform's rate from start, stop)
  PairForces p{};
  auto *tag = static_cast<int *>(lammps_extract_atom(lmp.handle(), "id"));
  auto **f = static_cast<double **>(lammps_extract_atom(lmp.handle(), "f"));
  auto **torque = static_cast<double **>(lammps_extract_atom(lmp.handle(), "torque"));
  for (int i = 0; i < 2; i++)
    for (int k = 0; k < 3; k++) {
      p.f[tag[i] - 1][k] = f[i][k];
      p.torque[tag[i] - 1][k] = torque[i][k];
    }
  return p;
}

}    // namespace

// The contact across the boundary acts as the contact inside the box whose partner moves with
// the image's velocity (v + d(xy)/dt along x): the same forces and torques on both spheres, for
// the classic and refined springs with normal damping, a catalogue law with a tangential dashpot
// and rolling moments, the friction constraint (which targets rest relative to the image) and
// Jaeger's law with viscous damping.
// Without the image's shear velocity the forces differ by 1.5e-2 (springs) to 0.18 (constraint)
// of their size (measured with fix deform's rate at zero). Compared at the setup of the run:
// afterwards LAMMPS places the image with the tilt of the previous step (fix deform changes the
// box at the end of a step), d(xy)/dt dt behind, for every pair style alike.
TEST(DeckLeesEdwards, ContactAcrossTheShearedBoundarySeesTheImageVelocity)
{
  const char *const laws[] = {
      "hooke 1000 damping viscous 5 0 tangential classic 800 0.5",
      "hooke 1000 damping viscous 5 0 tangential refined 800 0.5",
      "hooke 1000 damping viscous 5 tangential spring_dashpot 800 2 0.5 rolling yade kr 2 eta 0.3",
      "hooke 1000 damping viscous 5 tangential coulomb 0.5",
      "hertz 4e4 0.3 damping viscous 5 2 tangential jaeger 0.5"};
  for (const char *law : laws) {
    SCOPED_TRACE(law);
    const PairForces across = sheared_contact(law, true), inside = sheared_contact(law, false);
    double largest = 0.0, size = 0.0;
    for (int a = 0; a < 2; a++)
      for (int k = 0; k < 3; k++) {
        largest = std::fmax(largest, std::fabs(inside.f[a][k] - across.f[a][k]));
        largest = std::fmax(largest, std::fabs(inside.torque[a][k] - across.torque[a][k]));
        size = std::fmax(size, std::fabs(across.f[a][k]));
      }
    std::printf("  %s\n    force %.6g, largest difference %.3e\n", law, size, largest);
    EXPECT_GT(size, 5.0);    // the overlap 0.01 with k_n 1000
    EXPECT_LE(largest, 1e-12 * size);
  }
}
