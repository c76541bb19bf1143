// Region walls: fix wall/gran/exact ... region <ID> (catalogue issue, "Walls"). A region's
// faces are walls like the built-in planes and cylinder: the same contacts, history kept per
// face, moving with the region (region ... move/rotate).
#include "floor_sphere.hpp"
#include "packing_state.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

namespace {

using deck::num;
using namespace floor_sphere;

// the stateful catalogue law and the Jaeger law of the packing tests, on walls
const char *const kStatefulLaw = "hls 2000 0.8 tangential walton_braun 1600 0.4 rolling yade "
                                 "beta 0.5 eta 0.3 twisting yade kr 0.05 eta 0.1";
const std::string kJaegerLaw = "hertz 2e4 0.3 tangential jaeger 0.5";

double vector_value(deck::Lammps &lmp, const char *fix, int k)
{
  auto *v = static_cast<double *>(
      lammps_extract_fix(lmp.handle(), fix, LMP_STYLE_GLOBAL, LMP_TYPE_VECTOR, k, 0));
  const double value = v ? *v : NAN;
  lammps_free(v);
  return value;
}

}    // namespace

// The packing thrown against two z walls: the region `slab` (block INF INF INF INF 0 8) gives
// the same run as `zplane 0 8`, for a stateful catalogue law and for Jaeger's law (whose wall
// records are as long as their histories); the region walls' per-face history survives restart
// and migration between 4 ranks.
TEST(DeckWallRegion, RegionSlabEqualsPlanesAndKeepsItsHistory)
{
  const struct {
    packing::Law law;
    const char *prefix;
  } cases[] = {{{kStatefulLaw, "neigh", ""}, "region_catalogue"},
               {{kJaegerLaw, "compact", "wall 2e4 0.3"}, "region_jaeger"}};
  for (const auto &c : cases) {
    SCOPED_TRACE(c.prefix);
    const int n = 300;
    {
      deck::Lammps lmp;
      lmp.command(packing::packing_commands(packing::kWallPacking, c.law, "on", n) + "run " +
                  std::to_string(2 * n));
      packing::write_state(lmp, std::string(c.prefix) + "_planes");
    }
    packing::Law region_law = c.law;
    region_law.walls_at = "region slab";
    double wall_contacts = 0.0;
    packing::expect_restart_and_mpi_invariance(
        packing::kWallPacking, region_law,
        "region slab block INF INF INF INF 0 8 units box\nfix walls all wall/gran/exact " +
            c.law.contact + " region slab " + c.law.wall_material + "\ntimestep 0.001",
        c.prefix, n, [&](deck::Lammps &lmp) { wall_contacts = vector_value(lmp, "walls", 3); });
    std::printf("  %g wall contacts at the end\n", wall_contacts);
    EXPECT_GT(wall_contacts, 20);
    packing::expect_same_state(packing::read_state(std::string(c.prefix) + "_planes"),
                               packing::read_state(std::string(c.prefix) + "_uninterrupted"),
                               1e-12, "region slab vs zplane");
  }
}

namespace {

void expect_moving_region_is_sheared_plane(const std::string &law)
{
  const double v0 = 0.3;
  // the sphere is thrown along x at v0 from 1 mm above the floor
  const std::string region = "variable dx equal " + num(-v0) +
      "*time\nregion floor plane 0 0 0 0 0 1 move v_dx NULL NULL units box";
  SphereState sheared, moved, uninterrupted, continued, restarted;
  {
    deck::Lammps lmp;
    lmp.command(sphere_on_floor(law, kR + 1e-3, v0, "zplane 0 NULL shear x " + num(-v0)) + "run 20000");
    sheared = state_of(lmp);
  }
  {
    deck::Lammps lmp;
    lmp.command(sphere_on_floor(law, kR + 1e-3, v0, "region floor", region) + "run 10001");
    uninterrupted = state_of(lmp);
    lmp.command("run 9999");
    moved = state_of(lmp);
  }
  {
    deck::Lammps lmp;
    lmp.command(sphere_on_floor(law, kR + 1e-3, v0, "region floor", region) +
                "run 10000\nwrite_restart region_floor.restart");
    EXPECT_EQ(vector_value(lmp, "floor", 3), 1.0);    // on the floor at the run boundary
    lmp.command("run 1");
    continued = state_of(lmp);
  }
  {
    deck::Lammps lmp;
    lmp.command("read_restart region_floor.restart\ncomm_modify vel yes\n" + region +
                "\nfix floor all wall/gran/exact " + law +
                " region floor\nfix gravity all gravity " + num(kG) +
                " vector 0 0 -1\nfix integrate all nve/sphere\nrun 1");
    restarted = state_of(lmp);
  }
  std::printf("  after 0.4 s: x sheared %.15g, region %.15g\n", sheared.x, moved.x);
  EXPECT_NEAR(moved.x, sheared.x, 1e-12);
  EXPECT_NEAR(moved.z, sheared.z, 1e-12 * kR);
  EXPECT_NEAR(moved.vx, sheared.vx, 1e-11);
  EXPECT_NEAR(moved.wy * kR, sheared.wy * kR, 1e-11);
  // the step after the boundary (a wrong setup velocity of the region changes it by ~4e-4 m/s)
  std::printf("  step after the boundary: vx %.17g, two runs %.17g, restarted %.17g\n",
              uninterrupted.vx, continued.vx, restarted.vx);
  for (const SphereState &s : {continued, restarted}) {
    EXPECT_NEAR(s.vx, uninterrupted.vx, 1e-15);
    EXPECT_NEAR(s.wy * kR, uninterrupted.wy * kR, 1e-15);
    EXPECT_NEAR(s.x, uninterrupted.x, 1e-15);
  }
  EXPECT_GT(std::fabs(sheared.wy), 1.0);    // it rolls
}

}    // namespace

// A floor region moving along x at -v0 (region plane ... move v_dx NULL NULL) is the floor
// sheared at -v0 (zplane 0 NULL shear x -v0): the region's velocity, differenced from its
// positions, is the wall's velocity at the half step. The sphere lands, slides, then rolls
// (0.4 s), with laws whose forces depend on the velocity (viscous damping; the exact Coulomb
// friction of `tangential coulomb`, whose target is rest relative to the moving face). Across a run
// boundary and through a restart the region's velocity of the last step is kept for the setup
// of the continued run, whose forces make the first half-kick (LAMMPS' region, reset at each
// run's init, would difference it from the same position twice and give zero).
TEST(DeckWallRegion, MovingRegionEqualsShearedPlaneThroughRestart)
{
  for (const std::string law :
       {"hooke " + num(kKn) + " damping viscous 5 0.5 tangential classic " + num(0.8 * kKn) + " 0.5",
        "hooke " + num(kKn) + " damping viscous 5 tangential coulomb 0.5"}) {
    SCOPED_TRACE(law);
    expect_moving_region_is_sheared_plane(law);
  }
}

// A region cylinder turning about z (rotate v_theta, theta = -v t/R_c) drags a held sphere like
// the zcylinder sheared at v: kinetic friction mu F_n along -y at (r, 0, 0).
TEST(DeckWallRegion, TurningRegionCylinderDragsLikeTheShearedCylinder)
{
  const double Rc = 0.05, overlap = 1e-4, mu = 0.4, v = 0.2;
  const std::string law = "hooke " + num(kKn) + " tangential sliding " + num(mu);
  deck::Lammps lmp;
  lmp.command(deck::si_sphere_box("-0.1 0.1 -0.1 0.1 -0.1 0.1"));
  lmp.command("create_atoms 1 single " + num(Rc - kR + overlap) + " 0 0\nset group all diameter " +
              num(2 * kR) + "\nset group all density " + num(kDensity) +
              "\npair_style granular/exact\npair_coeff * * " + law + "\ntimestep 2e-5" +
              "\nvariable theta equal " + num(-v / Rc) + "*elapsed*dt" +
              "\nregion drum cylinder z 0 0 " + num(Rc) +
              " INF INF rotate v_theta 0 0 0 0 0 1 units box\nfix drum all wall/gran/exact " +
              law + " region drum\nrun 10");
  EXPECT_NEAR(vector_value(lmp, "drum", 0), -kKn * overlap, 1e-9 * kKn * overlap);
  EXPECT_NEAR(vector_value(lmp, "drum", 1), -mu * kKn * overlap, 1e-9 * kKn * overlap);
  EXPECT_NEAR(vector_value(lmp, "drum", 2), 0.0, 1e-12 * kKn * overlap);
}

// A sphere pressed into the corner of a region box touches two faces at once: one contact per
// face, each with its own overlap (forces kn overlap along each inward normal).
TEST(DeckWallRegion, SphereInACornerTouchesTwoFaces)
{
  const double dx = 1e-4, dz = 3e-4;
  const std::string law = "hooke " + num(kKn) + " tangential classic " + num(0.8 * kKn) + " 0.5";
  deck::Lammps lmp;
  lmp.command(deck::si_sphere_box("-0.1 0.1 -0.1 0.1 -0.1 0.1"));
  lmp.command("create_atoms 1 single " + num(-0.05 + kR - dx) + " 0 " + num(-0.05 + kR - dz) +
              "\nset group all diameter " + num(2 * kR) + "\nset group all density " +
              num(kDensity) + "\npair_style granular/exact\npair_coeff * * " + law +
              "\nregion cup block -0.05 0.05 -0.05 0.05 -0.05 0.05 units box"
              "\nfix cup all wall/gran/exact " + law + " region cup\nrun 5");
  EXPECT_EQ(vector_value(lmp, "cup", 3), 2.0);
  EXPECT_NEAR(vector_value(lmp, "cup", 0), kKn * dx, 1e-9 * kKn * dx);
  EXPECT_NEAR(vector_value(lmp, "cup", 1), 0.0, 1e-12 * kKn * dx);
  EXPECT_NEAR(vector_value(lmp, "cup", 2), kKn * dz, 1e-9 * kKn * dz);
}

// A curved region face is a wall with the face's radius of curvature R_w (the region's contact
// radius, as LAMMPS' wall/gran/region): a sphere held at overlap delta feels the Hertz force
// (4/3) E* sqrt(R_bar) delta^{3/2} with R_bar = R R_w/(R + R_w): inside a spherical region
// (R_w = -R_s, concave), outside one (R_w = R_s) and inside a cylinder (R_w = -2 R_c, the mean
// curvature LAMMPS gives a cylinder's side), for a catalogue Hertz law on a rigid wall
// (E* = E/(1-nu^2)) and for Jaeger's law on a wall of the sphere's material (E* = E/(2(1-nu^2))).
TEST(DeckWallRegion, CurvedRegionFaceActsWithItsRadiusOfCurvature)
{
  const double E = 1e7, nu = 0.3, Rs = 0.025, delta = 2e-5;
  const struct {
    const char *name, *law, *wall;
    double modulus;
  } laws[] = {{"hertz", "hertz 1e7 0.3 tangential sliding 0.4", " wall rigid", E / (1 - nu * nu)},
              {"jaeger", "hertz 1e7 0.3 tangential jaeger 0.4", " wall 1e7 0.3",
               E / (2 * (1 - nu * nu))}};
  const struct {
    const char *name, *region;
    double x;           // the sphere's centre on the x axis
    double curvature;   // R_w
  } faces[] = {{"inside a sphere", "sphere 0 0 0 0.025", Rs - kR + delta, -Rs},
               {"outside a sphere", "sphere 0 0 0 0.025 side out", Rs + kR - delta, Rs},
               {"inside a cylinder", "cylinder z 0 0 0.025 INF INF", Rs - kR + delta, -2 * Rs}};
  for (const auto &law : laws)
    for (const auto &face : faces) {
      SCOPED_TRACE(std::string(law.name) + " " + face.name);
      deck::Lammps lmp;
      lmp.command(deck::si_sphere_box("-0.1 0.1 -0.1 0.1 -0.1 0.1"));
      lmp.command("create_atoms 1 single " + num(face.x) + " 0 0\nset group all diameter " +
                  num(2 * kR) + "\nset group all density " + num(kDensity) +
                  "\npair_style granular/exact\npair_coeff * * " + law.law +
                  "\nregion face " + face.region + " units box\nfix face all wall/gran/exact " +
                  law.law + " region face" + law.wall + "\nrun 0");
      const double rbar = kR * face.curvature / (kR + face.curvature);
      const double force = 4.0 / 3.0 * law.modulus * std::sqrt(rbar) * std::pow(delta, 1.5);
      const double toward_centre = face.x < Rs ? -1.0 : 1.0;    // the face pushes the sphere back
      EXPECT_NEAR(vector_value(lmp, "face", 0), toward_centre * force, 1e-12 * force);
      EXPECT_NEAR(vector_value(lmp, "face", 1), 0.0, 1e-12 * force);
      EXPECT_NEAR(vector_value(lmp, "face", 2), 0.0, 1e-12 * force);
    }
}

// The side of a cone region seen from outside is convex: a sphere held at overlap delta against
// it, on the side's outward normal at the height where the cone's radius is r, feels the Hertz
// force along that normal with R_bar = R R_w/(R + R_w), R_w = +2 r (the cylinder's convention;
// LAMMPS' surface gives it -2 r, the concave face seen from inside, which would take R_bar for a
// sphere in a hollow: 1.2 R instead of 0.86 R here)
TEST(DeckWallRegion, ConeSideFromOutsideIsConvex)
{
  const double E = 1e7, nu = 0.3, delta = 2e-5, r = 0.03, slope = 0.2;
  const double len = std::sqrt(1.0 + slope * slope);
  const double nx = 1.0 / len, nz = -slope / len;    // the side's outward normal at (r, 0, 0)
  const double gap = kR - delta;
  deck::Lammps lmp;
  lmp.command(deck::si_sphere_box("-0.1 0.1 -0.1 0.1 -0.1 0.1"));
  lmp.command("create_atoms 1 single " + num(r + gap * nx) + " 0 " + num(gap * nz) +
              "\nset group all diameter " + num(2 * kR) + "\nset group all density " +
              num(kDensity) +
              "\npair_style granular/exact\npair_coeff * * hertz 1e7 0.3 tangential sliding 0.4"
              "\nregion post cone z 0 0 " + num(r - 0.05 * slope) + " " + num(r + 0.05 * slope) +
              " -0.05 0.05 side out units box\nfix post all wall/gran/exact hertz 1e7 0.3 "
              "tangential sliding 0.4 region post wall rigid\nrun 0");
  const double rw = 2.0 * r, rbar = kR * rw / (kR + rw);
  const double force = 4.0 / 3.0 * E / (1 - nu * nu) * std::sqrt(rbar) * std::pow(delta, 1.5);
  EXPECT_NEAR(vector_value(lmp, "post", 0), force * nx, 1e-9 * force);
  EXPECT_NEAR(vector_value(lmp, "post", 1), 0.0, 1e-12 * force);
  EXPECT_NEAR(vector_value(lmp, "post", 2), force * nz, 1e-9 * force);
}

// A sphere in a concave region face narrower than itself has no effective radius: an error that
// says so, not a NaN force.
TEST(DeckWallRegion, SphereWiderThanItsConcaveFaceIsRejected)
{
  deck::Lammps lmp;
  lmp.command(deck::si_sphere_box("-0.1 0.1 -0.1 0.1 -0.1 0.1"));
  lmp.command("create_atoms 1 single 0.001 0 0\nset group all diameter " + num(2 * kR) +
              "\nset group all density " + num(kDensity) +
              "\npair_style granular/exact\npair_coeff * * hertz 1e7 0.3 tangential sliding 0.4"
              "\nregion cup sphere 0 0 0 0.008 units box\nfix cup all wall/gran/exact hertz 1e7 "
              "0.3 tangential sliding 0.4 region cup wall rigid");
  const std::string got = lmp.error_of("run 0");
  EXPECT_NE(got.find("radius of curvature 0.008 is not larger than the sphere's"), std::string::npos)
      << got;
}

// Every malformed region wall stops with a message that says what is wrong.
TEST(DeckWallRegion, BadRegionWallIsRejected)
{
  const std::string setup = "boundary f f f\n" + std::string(deck::kEmptyGranularBox) +
      "pair_coeff * * hooke 1000 tangential sliding 0.3\nregion inner sphere 2 2 2 1.5 units box\n";
  const std::string w = "fix w all wall/gran/exact hooke 1000 tangential sliding 0.3 ";
  const std::pair<std::string, std::string> cases[] = {
      {w + "region", "region expects <region-ID>"},
      {w + "region nowhere", "region nowhere does not exist (define it first)"},
      {w + "region inner shear x 0.1", "a region wall moves with its region"},
      {"region funnel cone y 2 2 0.5 1.5 0 4 units box\n" + w + "region funnel",
       "(a cone about y, from inside) gives the contacts with its end caps the normal of z"},
  };
  for (const auto &[command, message] : cases) {
    deck::Lammps lmp;
    lmp.command(setup);
    const std::string got = lmp.error_of(command);
    EXPECT_NE(got.find(message), std::string::npos)
        << "input: " << command << "\nexpected message containing: " << message << "\ngot: " << got;
  }
}

// A wall fix defined after read_restart under the ID of a wall of another kind (here a region
// block's floor with the classic law, redefined as a plane, with the classic law or Jaeger's) does not
// read that wall's per-atom contact blocks, whose layout is not its own (they used to be
// misread: a region slot taken for a Jaeger record's length aborted the run, and a plane wall
// read region slots as history). It runs as a wall with a new ID does: without wall contacts.
TEST(DeckWallRegion, WallRedefinedAfterRestartStartsWithoutTheOldContacts)
{
  const std::string classic = "hooke " + num(kKn) + " damping viscous 5 0.5 tangential classic " +
      num(0.8 * kKn) + " 0.5";
  {
    deck::Lammps lmp;
    // (a block: its faces are numbered, the floor's is not the first, so the slots are not 0)
    lmp.command(sphere_on_floor(classic, kR + 1e-3, 0.3, "region floor",
                                "region floor block INF INF INF INF 0 1 units box") +
                "run 10000\nwrite_restart redefined_floor.restart");
    ASSERT_EQ(vector_value(lmp, "floor", 3), 1.0);    // in contact, with a history
  }
  const std::string planes[] = {classic + " zplane 0 NULL",
                                "hertz 1e7 0.3 tangential jaeger 0.4 zplane 0 NULL wall 1e7 0.3"};
  for (const std::string &plane : planes) {
    SCOPED_TRACE(plane);
    SphereState same_id, new_id;
    for (const char *id : {"floor", "plane"}) {
      deck::Lammps lmp;
      lmp.command("read_restart redefined_floor.restart\ncomm_modify vel yes\nfix " +
                  std::string(id) + " all wall/gran/exact " + plane +
                  "\nfix gravity all gravity " + num(kG) +
                  " vector 0 0 -1\nfix integrate all nve/sphere\nrun 2000");
      EXPECT_EQ(vector_value(lmp, id, 3), 1.0);
      (std::string(id) == "floor" ? same_id : new_id) = state_of(lmp);
    }
    EXPECT_EQ(same_id.x, new_id.x);
    EXPECT_EQ(same_id.z, new_id.z);
    EXPECT_EQ(same_id.vx, new_id.vx);
    EXPECT_EQ(same_id.wy, new_id.wy);
  }
}

// `contacts`: the per-atom array of the wall contacts (LAMMPS's fix wall/gran columns, then the
// overlap). On the packing thrown against two z planes, after 300 steps: each touching atom's
// contact point lies on its plane, its overlap is the geometric one, its force pushes it away
// from the plane; the atoms' forces and contacts add up to the wall's global totals (the friction
// of `tangential coulomb`, solved after all forces, included); atoms that touch nothing have a
// zero row. Two laws: the stateful catalogue law and exact Coulomb friction (Hertz).
TEST(DeckWallRegion, PerAtomContactsAddUpToTheWallTotals)
{
  const packing::Law laws[] = {{kStatefulLaw, "neigh", ""},
                               {"hertz 2e4 0.3 tangential coulomb 0.5", "neigh", "wall 2e4 0.3"}};
  for (packing::Law law : laws) {
    SCOPED_TRACE(law.contact);
    law.walls_at = "zplane 0 8 contacts";
    deck::Lammps lmp;
    lmp.command(packing::packing_commands(packing::kWallPacking, law, "on", 300) + "run 300");
    auto **out = static_cast<double **>(
        lammps_extract_fix(lmp.handle(), "walls", LMP_STYLE_ATOM, LMP_TYPE_ARRAY, 0, 0));
    ASSERT_NE(out, nullptr) << "fix walls has no per-atom array";
    const int nlocal = static_cast<int>(lammps_get_natoms(lmp.handle()));
    auto **x = static_cast<double **>(lammps_extract_atom(lmp.handle(), "x"));
    auto *radius = static_cast<double *>(lammps_extract_atom(lmp.handle(), "radius"));
    double force[3] = {0.0, 0.0, 0.0}, contacts = 0.0, scale = 0.0;
    int touching = 0;
    for (int i = 0; i < nlocal; i++) {
      const double *row = out[i];
      if (row[0] == 0.0) {
        for (int k = 0; k < 9; k++) EXPECT_EQ(row[k], 0.0) << "atom " << i << " column " << k + 1;
        continue;
      }
      touching++;
      EXPECT_EQ(row[0], 1.0);    // one plane at a time in this packing
      const bool lower = x[i][2] < 4.0;
      const double plane = lower ? 0.0 : 8.0;
      EXPECT_NEAR(row[6], plane, 1e-12) << "contact point of atom " << i;
      EXPECT_DOUBLE_EQ(row[4], x[i][0]);
      EXPECT_DOUBLE_EQ(row[5], x[i][1]);
      EXPECT_EQ(row[7], radius[i]);
      const double overlap = lower ? radius[i] - x[i][2] : x[i][2] + radius[i] - 8.0;
      EXPECT_NEAR(row[8], overlap, 1e-12);
      EXPECT_GT(row[8], 0.0);
      // the normal force pushes the atom off the plane
      EXPECT_GT(lower ? row[3] : -row[3], 0.0) << "atom " << i;
      for (int k = 0; k < 3; k++) force[k] += row[1 + k];
      contacts += row[0];
      scale = std::max(scale, std::fabs(row[3]));
    }
    std::printf("  %d atoms touch a wall\n", touching);
    EXPECT_GT(touching, 20);
    EXPECT_EQ(contacts, vector_value(lmp, "walls", 3));
    for (int k = 0; k < 3; k++)
      EXPECT_NEAR(force[k], vector_value(lmp, "walls", k), 1e-12 * scale * touching) << k;
  }
}

TEST(DeckWallRegion, ContactsKeywordTwiceIsRejected)
{
  deck::Lammps lmp;
  lmp.command(deck::kEmptyWallBox);
  lmp.command("pair_style granular/exact\npair_coeff * * hooke 2000 tangential classic 1600 0.4");
  const std::string msg = lmp.error_of(
      "fix w all wall/gran/exact hooke 2000 tangential classic 1600 0.4 zplane 0 4 contacts "
      "contacts");
  EXPECT_NE(msg.find("'contacts' is given twice"), std::string::npos) << msg;
}
