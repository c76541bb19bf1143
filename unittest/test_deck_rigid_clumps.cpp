// Clumps of spheres held together by fix rigid: a clump moves as one body, so the effective mass of
// its contacts, mbar = m_i m_j/(m_i + m_j), is made of the bodies' masses, between clumps and
// against walls, as in LAMMPS' own granular styles. The damped collision of two clumps is then the
// collision of two spheres with the clumps' masses.
#include "deck_util.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

namespace {

using deck::num;

// the tests need LAMMPS' RIGID package (tools/setup-lammps.sh builds it; another LAMMPS may not)
bool has_rigid_package()
{
  deck::Lammps probe;
  return lammps_has_style(probe.handle(), "fix", "rigid");
}
const char *const kNoRigid = "this LAMMPS has no RIGID package (fix rigid)";

// the glass spheres of doc/design_notes.md, "Catalogue checks", and their equal-energy linear
// stiffness
constexpr double kRadius = 1.0e-3, kDensity = 2500.0, kStiffness = 1.26909318e6;
// LSD contact duration for e = 0.9 (closed form T_c = pi/W) between two single spheres; between two
// bodies of twice the mass it is sqrt(2) times longer
constexpr double kSphereDuration = 6.38478867e-6;
const double kBodyDuration = std::sqrt(2.0) * kSphereDuration;
const double kWallDuration = 2.0 * kSphereDuration;    // a body of twice the mass on a wall
const std::string kLaw = "hooke " + num(kStiffness) + " damping restitution 0.9 tangential sliding 0.3";

std::string box() { return deck::si_sphere_box("-1e-2 1e-2 -1e-2 1e-2 -1e-2 1e-2", 1); }

std::string spheres_of(double density)
{
  return "set group all diameter " + num(2 * kRadius) + "\nset group all density " + num(density) +
      "\n";
}

// Two dumbbells (two touching spheres in a fix rigid body each) meet head-on along their common
// axis at x = 0 at relative speed 1 m/s; or, with `clumps` false, two single spheres of the
// dumbbells' mass. The deck up to the run (without the plugin's loading).
std::string head_on_deck(bool clumps)
{
  const double gap = 1.0e-8, front = kRadius + gap / 2;
  std::string deck = box() + "create_atoms 1 single " + num(-front) +
      " 0 0\ncreate_atoms 1 single " + num(front) + " 0 0\n";
  if (clumps)
    deck += "create_atoms 1 single " + num(-front - 2 * kRadius) + " 0 0\ncreate_atoms 1 single " +
        num(front + 2 * kRadius) + " 0 0\n" + spheres_of(kDensity) +
        "group left id 1 3\ngroup right id 2 4\n"
        "neigh_modify exclude group left left exclude group right right\n";
  else
    deck += spheres_of(2 * kDensity) + "group left id 1\ngroup right id 2\n";
  deck += "velocity left set 0.5 0 0\nvelocity right set -0.5 0 0\npair_style granular/exact\n"
          "pair_coeff * * " + kLaw + "\ntimestep " + num(kBodyDuration / 20000) + "\n";
  deck += clumps ? "fix bodies all rigid group 2 left right\n" : "fix integrate all nve/sphere\n";
  deck += "compute_modify thermo_temp extra/dof 0\n";    // few atoms, most dof in the bodies
  // by tag: fix rigid reorders the atoms
  return deck + "run " + std::to_string(static_cast<int>(1.2 * 20000)) +
      "\nvariable separation equal vx[2]-vx[1]\n";
}

// the separation speed after the contact of head_on_deck() has ended
double head_on_rebound(bool clumps)
{
  deck::Lammps lmp;
  lmp.command(head_on_deck(clumps));
  return lmp.variable("separation");
}

// A vertical dumbbell falls at 1 m/s onto the floor plane with its lower sphere; or, with
// `clumps` false, a single sphere of the dumbbell's mass. Returns its speed after the rebound.
double floor_rebound(bool clumps)
{
  deck::Lammps lmp;
  const double z = kRadius + 1.0e-8;
  lmp.command(box());
  lmp.command("create_atoms 1 single 0 0 " + num(z));
  if (clumps) {
    lmp.command("create_atoms 1 single 0 0 " + num(z + 2 * kRadius));
    lmp.command(spheres_of(kDensity) + "neigh_modify exclude type 1 1");
  } else {
    lmp.command(spheres_of(2 * kDensity));
  }
  lmp.command("velocity all set 0 0 -1\npair_style granular/exact\npair_coeff * * " + kLaw +
              "\nfix floor all wall/gran/exact " + kLaw + " zplane 0 NULL\ntimestep " +
              num(kWallDuration / 20000));
  lmp.command(clumps ? "fix body all rigid single" : "fix integrate all nve/sphere");
  lmp.command("compute_modify thermo_temp extra/dof 0");
  lmp.command("run " + std::to_string(static_cast<int>(1.2 * 20000)));
  lmp.command("variable rebound equal vz[1]");
  return lmp.variable("rebound");
}

}    // namespace

// Two clumps collide like two spheres of the clumps' masses: the same separation speed (to
// roundoff: the same contact force history), and the LSD restitution 0.9 of the bodies (1e-3, as
// the head-on collisions of the same notes). With the spheres' own masses in the damping the
// restitution would be about 0.93.
TEST(DeckRigidClumps, ClumpsCollideWithTheirBodyMass)
{
  if (!has_rigid_package()) GTEST_SKIP() << kNoRigid;
  const double clumps = head_on_rebound(true), spheres = head_on_rebound(false);
  std::printf("  separation speed: clumps %.15g, spheres of the clumps' mass %.15g\n", clumps,
              spheres);
  EXPECT_NEAR(clumps, spheres, 1e-10);
  EXPECT_NEAR(clumps / 0.9, 1.0, 1e-3);
}

// A clump rebounds from a wall like a sphere of the clump's mass (m_bar = M for a wall).
TEST(DeckRigidClumps, ClumpReboundsFromAWallWithItsBodyMass)
{
  if (!has_rigid_package()) GTEST_SKIP() << kNoRigid;
  const double clump = floor_rebound(true), sphere = floor_rebound(false);
  std::printf("  rebound speed: clump %.15g, sphere of the clump's mass %.15g\n", clump, sphere);
  EXPECT_NEAR(clump, sphere, 1e-10);
  EXPECT_NEAR(clump / 0.9, 1.0, 1e-3);
}

// The clumps' collision split over two ranks at the contact (x = 0): the partner of each contact
// is a ghost, whose body mass comes by forward communication; the result is the serial one.
TEST(DeckRigidClumps, ClumpsCollideAcrossRanksAsInSerial)
{
  if (!has_rigid_package()) GTEST_SKIP() << kNoRigid;
  for (int ranks : {1, 2}) {
    const std::string name = "clumps_np" + std::to_string(ranks);
    std::ofstream(name + ".in") << "processors " << ranks << " 1 1\n"
                                << head_on_deck(true) << "print \"${separation}\" file " << name
                                << ".txt screen no\n";
    ASSERT_EQ(deck::run_mpi(ranks, name + ".in", "", name + ".log"), 0)
        << name << " failed: see " << name << ".log.out";
  }
  double serial = NAN, split = NAN;
  std::ifstream("clumps_np1.txt") >> serial;
  std::ifstream("clumps_np2.txt") >> split;
  std::printf("  separation speed: serial %.15g, 2 ranks %.15g\n", serial, split);
  EXPECT_NEAR(serial / 0.9, 1.0, 1e-3);
  EXPECT_NEAR(split, serial, 1e-12);
}

// One rigid-body fix at a time (the body masses come from one).
TEST(DeckRigidClumps, TwoRigidFixesAreRejected)
{
  if (!has_rigid_package()) GTEST_SKIP() << kNoRigid;
  deck::Lammps lmp;
  lmp.command(box() + "create_atoms 1 single 0 0 0\ncreate_atoms 1 single 0.002 0 0\n"
              "create_atoms 1 single 0.005 0 0\ncreate_atoms 1 single 0.007 0 0\n" +
              spheres_of(kDensity) + "group a id 1 2\ngroup b id 3 4\npair_style granular/exact\n"
              "pair_coeff * * " + kLaw + "\nfix ra a rigid single\nfix rb b rigid single");
  const std::string got = lmp.error_of("run 0");
  EXPECT_NE(got.find("only one rigid-body fix at a time (ra and rb)"), std::string::npos) << got;
}
