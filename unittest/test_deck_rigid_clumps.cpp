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

// The Yade dashpots of a clump's sphere are stepped with the sphere's own inertia (its clump's
// inertia tensor holds the sphere's, so the sphere's 1/I bounds the clump's in every direction:
// notes: Yade moments, "Dashpot step"); they must still only dissipate. A vertical dumbbell of two
// spheres of LAMMPS' drum deck (d 0.5, density 1, one fix rigid body) stands on the floor at the
// JKR rest overlap of its lower sphere, under the drum's port with the guide's rolling dashpot and
// 10 times it (the law of DeckCatalogue.MomentDashpotsOfThePortedDrumNeverAddEnergy; a = 21 and
// 215 on the sphere's inertia at dt 1e-3), spun about its axis (twisting on the floor: the
// dumbbell's inertia is twice the sphere's) or turning about a horizontal axis through its centre
// of mass (rolling and sliding on the floor): the body's kinetic energy never exceeds its start
// over 2000 steps, at dt 1e-3 and 2e-3.
TEST(DeckRigidClumps, ClumpMomentDashpotsNeverAddEnergy)
{
  if (!has_rigid_package()) GTEST_SKIP() << kNoRigid;
  const double Ebar = 1e5 / (2.0 * (1.0 - 0.3 * 0.3)), g = std::sqrt(M_PI * 50.0 / Ebar);
  const double a = std::cbrt(9.0 * 0.25 * 0.25 * g * g), rest = a * a / 0.25 - 2.0 * g * std::sqrt(a);
  const double z1 = 0.25 - rest;
  for (const bool tip : {false, true})
    for (const double gamma : {35.15625, 351.5625})
      for (const double dt : {1e-3, 2e-3}) {
        const std::string name = std::string(tip ? "turning" : "spinning") + ", gamma " +
            num(gamma) + ", dt " + num(dt);
        SCOPED_TRACE(name);
        const std::string law =
            "jkr 1e5 0.3 50 damping kk 4.78e-3 tangential tti 0.5 eta 2.26e-3 rolling yade kr "
            "35.15625 eta 0.05 damp " + num(gamma) + " twisting yade kr 423 eta 0.086 damp " +
            num(gamma);
        deck::Lammps lmp;
        const std::string file = "clump_dashpots.txt";
        lmp.command(deck::lj_sphere_box("-2 2 -2 2 -1 3"));
        lmp.command("create_atoms 1 single 0 0 " + num(z1) + "\ncreate_atoms 1 single 0 0 " +
                    num(z1 + 0.5) + "\nset group all diameter 0.5\nset group all density 1\n"
                    "neigh_modify exclude type 1 1\nvelocity all set 0 0 0");
        // a rigid turn about the centre of mass, 1 rad/s: about z, or about x (v = omega x r)
        lmp.command(tip ? "set group all omega 1 0 0\nset atom 1 vy 0.25\nset atom 2 vy -0.25"
                        : "set group all omega 0 0 1");
        lmp.command("pair_style granular/exact\npair_coeff * * " + law +
                    "\nfix floor all wall/gran/exact " + law + " zplane 0 NULL wall 1e5 0.3\n"
                    "fix body all rigid single\ncompute_modify thermo_temp extra/dof 0\n"
                    "compute kt all ke/rigid body\ncompute kr all erotate/rigid body\n"
                    "timestep " + num(dt) + "\nfix record all print 1 \"$(c_kt+c_kr:%.17g)\" file " +
                    file + " screen no\nrun 2000");
        std::ifstream in(file);
        std::string line;
        double e0 = NAN, highest = 0.0, last = NAN;
        while (std::getline(in, line)) {
          if (line.empty() || line[0] == '#') continue;
          const double e = std::stod(line);
          if (std::isnan(e0)) e0 = e;
          highest = std::fmax(highest, e / e0);
          last = e / e0;
        }
        std::printf("  %s: kinetic energy at most %.15f of its start, at the end %.3e\n",
                    name.c_str(), highest, last);
        EXPECT_LE(highest, 1.0 + 1e-12);
        EXPECT_LT(last, 1.0);
      }
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
