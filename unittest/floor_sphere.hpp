// One SI sphere over a floor: the deck of the moving-wall and region-wall tests, and the state
// they compare.
#pragma once

#include "deck_util.hpp"

#include <cmath>
#include <string>

namespace floor_sphere {

constexpr double kR = 0.01;    // sphere radius (m)
constexpr double kDensity = 1000.0;
constexpr double kKn = 1e4;    // N/m
constexpr double kG = 9.81;
const double kMass = kDensity * 4.0 / 3.0 * M_PI * kR * kR * kR;

// The sphere at (0, 0, z) with velocity (vx, 0, 0), `law` between spheres and on the floor
// fix `floor` (wall style and options: "zplane 0 NULL ...", "region <ID>"), gravity on;
// `before` defines what the floor needs first (a region, its variables). `integrate`: the
// sphere moves (else it is held).
inline std::string sphere_on_floor(const std::string &law, double z, double vx,
                                   const std::string &floor, const std::string &before = "",
                                   bool integrate = true)
{
  using deck::num;
  return deck::si_sphere_box("-1 1 -0.1 0.1 -0.05 0.1") + "create_atoms 1 single 0 0 " + num(z) +
      "\nset group all diameter " + num(2 * kR) + "\nset group all density " + num(kDensity) +
      "\nvelocity all set " + num(vx) + " 0 0\npair_style granular/exact\npair_coeff * * " + law +
      "\ntimestep 2e-5\n" + before + "\nfix floor all wall/gran/exact " + law + " " + floor +
      "\nfix gravity all gravity " + num(kG) + " vector 0 0 -1\n" +
      (integrate ? "fix integrate all nve/sphere\n" : "");
}

struct SphereState {
  double x, z, vx, vz, wy;
};

inline SphereState state_of(deck::Lammps &lmp)
{
  auto **x = static_cast<double **>(lammps_extract_atom(lmp.handle(), "x"));
  auto **v = static_cast<double **>(lammps_extract_atom(lmp.handle(), "v"));
  auto **w = static_cast<double **>(lammps_extract_atom(lmp.handle(), "omega"));
  return SphereState{x[0][0], x[0][2], v[0][0], v[0][2], w[0][1]};
}

}    // namespace floor_sphere
