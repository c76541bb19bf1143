// Moving walls: fix wall/gran/exact ... wiggle | shear (catalogue issue, "Walls"). One sphere on
// or against a wall, against Galilean invariance and closed forms of the algorithm.
#include "floor_sphere.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>

namespace {

using deck::num;
using namespace floor_sphere;

}    // namespace

// Galilean invariance: a sphere thrown at v0 over a floor at rest, and a sphere at rest on a
// floor sheared at -v0, are the same motion seen from frames moving at v0 apart: x_b(t) =
// x_a(t) - v0 t, v_b = v_a - v0, the same spin and height. It slides, then rolls; for every
// kind of law (classic spring, refined, catalogue spring, exact Coulomb friction).
TEST(DeckWallMotion, ShearedFloorIsAMovingFrame)
{
  const double v0 = 0.3, overlap = kMass * kG / kKn;
  const int steps = 20000;    // 0.4 s: slip ends at 2 v0/(7 mu g) = 0.17 s
  const std::string laws[] = {
      "hooke " + num(kKn) + " tangential classic " + num(0.8 * kKn) + " 0.5",
      "hooke " + num(kKn) + " tangential refined " + num(0.8 * kKn) + " 0.5",
      "hooke " + num(kKn) + " damping viscous 0.2 tangential spring_sliding " + num(0.8 * kKn) + " 0.5",
      "hooke " + num(kKn) + " damping viscous 0.2 tangential coulomb 0.5",
  };
  for (const std::string &law : laws) {
    SCOPED_TRACE(law);
    SphereState a, b;
    {
      deck::Lammps lmp;
      lmp.command(sphere_on_floor(law, kR - overlap, v0, "zplane 0 NULL") + "run " + std::to_string(steps));
      a = state_of(lmp);
    }
    {
      deck::Lammps lmp;
      lmp.command(sphere_on_floor(law, kR - overlap, 0.0, "zplane 0 NULL shear x " + num(-v0)) + "run " +
                  std::to_string(steps));
      b = state_of(lmp);
    }
    const double T = steps * 2e-5;
    std::printf("  %s: rolls at %.6f m/s on the still floor; frame differences x %.2e m, v %.2e m/s\n",
                law.c_str(), a.vx, std::fabs(b.x - (a.x - v0 * T)), std::fabs(b.vx - (a.vx - v0)));
    EXPECT_LT(a.vx, 0.75 * v0);    // it did slow down to rolling (5/7 v0)
    EXPECT_LE(std::fabs(b.x - (a.x - v0 * T)), 1e-12);
    EXPECT_LE(std::fabs(b.vx - (a.vx - v0)), 1e-12 * v0);
    EXPECT_LE(std::fabs(b.z - a.z), 1e-15);
    EXPECT_LE(std::fabs(b.wy - a.wy), 1e-12 * v0 / kR);
  }
}

// A floor wiggled along x (in its plane) drags a free sphere resting on it by exact static
// friction: the contact point follows the floor, so the centre moves with a fraction
// 1/(1 + m rho^2/I) of the floor's velocity (rho = R - delta/2 the lever, I = 2/5 m R^2). With the
// constraint's half-step velocities this is exact for the algorithm: v_c(t_{n+1/2}) =
// v_floor(t_{n+1/2})/(1 + m rho^2/I), so x_c(t_N) - x_c(0) = dt sum_n v_floor(t_{n+1/2})/(...).
// The floor's largest acceleration needs a fraction 0.35 of mu g: the sphere never slips.
TEST(DeckWallMotion, WiggledFloorDragsARollingSphereExactly)
{
  const double mu = 0.5, overlap = kMass * kG / kKn, dt = 2e-5;
  const double period = 0.05, omega = 2 * M_PI / period;
  const double rho = kR - overlap / 2, kappa = rho * rho / (0.4 * kR * kR);
  const double amplitude = 0.35 * mu * kG * (1 + kappa) / (omega * omega);
  const int steps = 6000;    // 2.4 periods
  deck::Lammps lmp;
  lmp.command(sphere_on_floor("hooke " + num(kKn) + " tangential coulomb " + num(mu), kR - overlap,
                              0.0, "zplane 0 NULL wiggle x " + num(amplitude) + " " + num(period)) +
              "variable stuck equal f_GE_COULOMB[2]\nrun " + std::to_string(steps));
  const SphereState s = state_of(lmp);
  double expected = 0.0;
  for (int n = 0; n < steps; n++)
    expected += dt * amplitude * omega * std::sin(omega * (n + 0.5) * dt) / (1 + kappa);
  std::printf("  centre moved %.12e m, expected %.12e m (floor amplitude %.3e m); height change %.1e m\n",
              s.x, expected, amplitude, s.z - (kR - overlap));
  EXPECT_EQ(lmp.variable("stuck"), 1.0);
  EXPECT_NEAR(s.x, expected, 1e-10 * amplitude);
  EXPECT_NEAR(s.z, kR - overlap, 1e-15);
}

// A plane wiggled along its normal is at lo + A (1 - cos(2 pi t/period)), t from the step the fix
// was defined; the time origin is kept in restart files. A sphere held above the floor feels
// kn (R - (z - shift)) whenever the floor reaches it.
TEST(DeckWallMotion, WiggledPlaneMovesAndKeepsItsOriginThroughRestart)
{
  const double amplitude = 2e-3, period = 0.01, dt = 2e-5, z = kR + amplitude;
  const std::string law = "hooke " + num(kKn) + " tangential classic " + num(0.8 * kKn) + " 0.5";
  const std::string wiggle = "wiggle z " + num(amplitude) + " " + num(period);
  auto expected_force = [&](long step) {
    const double shift = amplitude * (1 - std::cos(2 * M_PI * step * dt / period));
    return kKn * std::fmax(0.0, kR - (z - shift));
  };
  auto wall_force = [](deck::Lammps &lmp) {
    return *static_cast<double *>(
        lammps_extract_fix(lmp.handle(), "floor", LMP_STYLE_GLOBAL, LMP_TYPE_VECTOR, 2, 0));
  };
  {
    deck::Lammps lmp;
    lmp.command(sphere_on_floor(law, z, 0.0, "zplane 0 NULL " + wiggle, "", false) + "run 100\n");
    EXPECT_NEAR(wall_force(lmp), expected_force(100), 1e-9 * kKn * amplitude);
    lmp.command("run 150\nwrite_restart wiggle.restart");
    EXPECT_NEAR(wall_force(lmp), expected_force(250), 1e-9 * kKn * amplitude);
    EXPECT_GT(wall_force(lmp), 0.0);
  }
  deck::Lammps lmp;
  lmp.command("read_restart wiggle.restart\ncomm_modify vel yes\npair_coeff * * " + law +
              "\nfix floor all wall/gran/exact " + law + " zplane 0 NULL " + wiggle +
              "\ntimestep 2e-5\nrun 0");
  EXPECT_NEAR(wall_force(lmp), expected_force(250), 1e-9 * kKn * amplitude);
  lmp.command("run 130");
  EXPECT_NEAR(wall_force(lmp), expected_force(380), 1e-9 * kKn * amplitude);
}

// `shear x v` turns a zcylinder about z with surface speed v, clockwise seen from +z for v > 0
// (LAMMPS' convention): at (r, 0, 0) the wall moves along -y, so kinetic friction on a held sphere
// pressed against it is mu F_n along -y.
TEST(DeckWallMotion, TurningCylinderDragsAlongItsSurface)
{
  const double Rc = 0.05, overlap = 1e-4, mu = 0.4, v = 0.2;
  deck::Lammps lmp;
  const std::string law = "hooke " + num(kKn) + " tangential sliding " + num(mu);
  lmp.command(deck::si_sphere_box("-0.1 0.1 -0.1 0.1 -0.1 0.1"));
  lmp.command("create_atoms 1 single " + num(Rc - kR + overlap) + " 0 0\nset group all diameter " +
              num(2 * kR) + "\nset group all density " + num(kDensity) +
              "\npair_style granular/exact\npair_coeff * * " + law +
              "\nfix drum all wall/gran/exact " + law + " zcylinder " + num(Rc) + " shear x " +
              num(v) + "\ntimestep 2e-5\nrun 10");
  auto component = [&](int k) {
    return *static_cast<double *>(
        lammps_extract_fix(lmp.handle(), "drum", LMP_STYLE_GLOBAL, LMP_TYPE_VECTOR, k, 0));
  };
  EXPECT_NEAR(component(0), -kKn * overlap, 1e-9 * kKn * overlap);
  EXPECT_NEAR(component(1), -mu * kKn * overlap, 1e-9 * kKn * overlap);
  EXPECT_NEAR(component(2), 0.0, 1e-12 * kKn * overlap);
}

// Every malformed wall motion stops with a message that says what is wrong.
TEST(DeckWallMotion, BadMotionIsRejected)
{
  const std::string setup = "boundary f f f\n" + std::string(deck::kEmptyGranularBox) +
      "pair_coeff * * hooke 1000 tangential sliding 0.3\n";
  const std::string w = "fix w all wall/gran/exact hooke 1000 tangential sliding 0.3 ";
  const std::pair<std::string, const char *> cases[] = {
      {"zplane 0 NULL wiggle z 0.1", "wiggle expects <x|y|z> <amplitude> <period>"},
      {"zplane 0 NULL shear x", "shear expects <x|y|z> <velocity>"},
      {"zplane 0 NULL wiggle q 0.1 1", "wiggle direction 'q' must be x, y or z"},
      {"zplane 0 NULL wiggle z 0.1 0", "wiggle period = 0 must be > 0"},
      {"zplane 0 NULL wiggle z 0.1 1 shear x 1", "one wall motion at most"},
      {"zplane 0 NULL shear z 1", "shear direction z is the normal of the plane"},
      {"zcylinder 2 wiggle x 0.1 1", "a zcylinder wiggles along z only"},
      {"zplane 0 NULL wiggle z abc 1", "Expected floating point"},
      {"zplane 0 NULL wobble z 0.1 1", "unexpected argument 'wobble'"},
      // (an infinite wall velocity, NaN in the thermo output)
      {"zplane 0 NULL wiggle z 1e308 1", "wiggle amplitude = 1e+308 is outside the magnitudes"},
      {"zplane 0 NULL shear x 1e200", "shear velocity = 1e+200 is outside the magnitudes"},
  };
  for (const auto &[words, message] : cases) {
    deck::Lammps lmp;
    lmp.command(setup);
    const std::string got = lmp.error_of(w + words);
    EXPECT_NE(got.find(message), std::string::npos)
        << "input: " << w + words << "\nexpected message containing: " << message << "\ngot: " << got;
  }
}
