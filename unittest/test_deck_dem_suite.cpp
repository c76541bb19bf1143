// The analytic DEM verification suite of LAMMPS 4 Jul 2026 (src/unittest/granular/, test_dem_01 ..
// test_dem_11 with the YAML cases in tests/ and the closed forms of test_analytic_models.cpp),
// re-run with pair granular/exact and fix wall/gran/exact. Only the physics and the numbers are
// carried over: each test below builds its own deck, names the dem case and the YAML it mirrors,
// and asserts the same analytic expectation with the same tolerance (relative error unless said
// otherwise). LAMMPS' per-atom trajectory regressions (run_pos, run_vel, ... against recorded
// numbers of LAMMPS' own models) are not carried over: they test LAMMPS' implementation, not
// physics.
//
// How LAMMPS' models are expressed with ours:
//   granular hooke kn en ... damping coeff_restitution -> hooke kn damping restitution en (the same
//       dashpot alpha sqrt(mbar kn), alpha = -2 ln e / sqrt(ln^2 e + pi^2); it may attract, as
//       LAMMPS' does, since no limit_damping is given);
//   tangential linear_history kt gt mu -> spring_sliding kt mu (gt = 0) or spring_dashpot kt
//       eta_t mu maw with eta_t = gt times the normal damping prefactor alpha sqrt(mbar kn) (LAMMPS
//       scales its tangential dashpot so). *maw* matters: linear_history truncates its spring
//       while sliding; without maw our T5 spring keeps growing while it slides (Rangel's law), and
//       after the slip reverses the friction keeps its sense until the spring has unwound (dem04
//       granular then ends at v_x = 0.636, omega_y = 1.82 instead of rolling);
//   gran/hooke/history kn NULL gn NULL mu 1 -> the linear law hooke kn damping viscous mbar gn
//       mbar gn/2 tangential classic|refined 2kn/7 mu (LAMMPS' defaults kt = 2kn/7, gt = gn/2;
//       its dashpots are mbar gamma v);
//   granular dmt E damp nu coh ... -> dmt E nu coh (the same surface energy per surface, gamma =
//       cohesion; damp 0 is damping none); its wall: `wall E nu`, the sphere's own material;
//   granular hertz/material E en nu ... tangential mindlin NULL 0 mu -> hertz E nu damping tsuji
//       en en tangential tti mu eta 0 (Mindlin's stiffness 8 Gbar sqrt(Rbar delta), no tangential
//       dashpot; on a wall: `wall E nu`, the sphere's own material, which is what LAMMPS'
//       fix wall/gran takes for the wall);
//   rolling sds kr gr mur -> rolling yade kr kr R^2 eta mur (the cap mur R F_n is the same; the
//       stiffness only sets the short elastic stage).
//
// Cases NOT re-run here, and why:
//   dem01-hooke-2d-lj, dem02-hooke-2d-lj     2d (enforce2d, disc inertia): no 2d support.
//   dem02-hooke-3d-si, dem02-hookehistory-3d-si, dem03-hooke-3d-si, dem03-unequal-3d-si,
//   dem03-granular-hooke-3d-si, dem05-hertz-oblique-3d, dem05-hookehistory-oblique-3d,
//   dem09-shear-3d, dem10-settle-spheres-3d    trajectory regressions only (no analytic_model in
//                                               the YAML): nothing physical to carry over.
//   dem05-superellipsoid-3d                  superellipsoids (pair granular/superellipsoid).
//   dem05-mindlin-rescale-grazing-3d         LAMMPS' mindlin_rescale is a history-rescaling
//                                             variant of mindlin; we have no such variant, and the
//                                             grazing impact it checks is dem05-mindlin-grazing,
//                                             covered below with the same numbers.
//   dem06-viscous-linear-3d, dem06-nonlinear-3d  fluid drag (fix viscous, fix viscous/nonlinear):
//                                             no contact at all, nothing of ours to test.
//   dem08-jkr-twosphere-3d                   a trajectory regression only (no analytic_model);
//                                             JKR's closed forms are tested in
//                                             test_deck_adhesion.cpp.
//   dem10-clump-3d                           multi-sphere clumps (fix rigid/small): rigid bodies
//                                             are not supported.
//   dem09-spin-wall-3d has no analytic_model in its YAML; the closed form LAMMPS applies to
//   dem09-spin-unequal (spin_impact, whose comment names a wall as the heavy partner) holds for
//   it, so it is asserted below with that case's tolerance (marked as our extension).
#include "packing_state.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

namespace {

using packing::num;

constexpr double kPi = 3.14159265358979323846;

// State of one atom (atoms are created in tag order and never sorted: atom_modify sort 0 0.0)
struct Atom {
  double x[3], v[3], omega[3], f[3], mass, radius;
};

Atom atom(deck::Lammps &lmp, int tag)
{
  const int i = tag - 1;
  void *ids = lammps_extract_atom(lmp.handle(), "id");
  const long id = lammps_extract_setting(lmp.handle(), "tagint") == 8
                      ? static_cast<long>(static_cast<int64_t *>(ids)[i])
                      : static_cast<long>(static_cast<int *>(ids)[i]);
  EXPECT_EQ(id, tag) << "atom order changed";
  auto **x = static_cast<double **>(lammps_extract_atom(lmp.handle(), "x"));
  auto **v = static_cast<double **>(lammps_extract_atom(lmp.handle(), "v"));
  auto **w = static_cast<double **>(lammps_extract_atom(lmp.handle(), "omega"));
  auto **f = static_cast<double **>(lammps_extract_atom(lmp.handle(), "f"));
  auto *m = static_cast<double *>(lammps_extract_atom(lmp.handle(), "rmass"));
  auto *r = static_cast<double *>(lammps_extract_atom(lmp.handle(), "radius"));
  Atom a{};
  for (int k = 0; k < 3; ++k) {
    a.x[k] = x[i][k];
    a.v[k] = v[i][k];
    a.omega[k] = w[i][k];
    a.f[k] = f[i][k];
  }
  a.mass = m[i];
  a.radius = r[i];
  return a;
}

// test_analytic_models.cpp's comparison: |actual - expected| / |expected| <= tol
void expect_rel(double expected, double actual, double tol, const std::string &what)
{
  const double rel = std::fabs(actual - expected) / std::max(std::fabs(expected), 1e-300);
  std::printf("  %-40s expected %.10g, measured %.10g, rel. error %.3e (tol %g)\n", what.c_str(),
              expected, actual, rel, tol);
  EXPECT_LE(rel, tol) << what << ": expected " << expected << " got " << actual;
}

std::string header(const std::string &units, const std::string &boundary, const std::string &box,
                   int ntypes)
{
  return "units " + units + "\natom_style sphere\natom_modify map array sort 0 0.0\nboundary " +
         boundary + "\ncomm_modify vel yes\nregion box block " + box + " units box\ncreate_box " +
         std::to_string(ntypes) + " box\n";
}

double sphere_mass(double diameter, double density)
{
  return kPi / 6.0 * diameter * diameter * diameter * density;
}

// LAMMPS' coeff_restitution prefactor for hooke: alpha sqrt(mbar kn)
double restitution_prefactor(double en, double mbar, double kn)
{
  const double l = std::log(en);
  return -2.0 * l / std::sqrt(kPi * kPi + l * l) * std::sqrt(mbar * kn);
}

// gran/hooke/history kn NULL gn NULL mu 1 as our linear law, for a reduced mass mbar
std::string hooke_history_law(double kn, double gn, double mbar, double mu, const char *tangential)
{
  return "hooke " + num(kn) + " damping viscous " + num(mbar * gn) + " " + num(mbar * gn / 2) +
         " tangential " + tangential + " " + num(2.0 * kn / 7.0) + " " + num(mu);
}

// One sphere (diameter d, density rho) at (0, 0, z0) over the wall z = 0 with gravity g along -z
// (g = 0: none), velocity v0, spin w0, law on the wall and in the pair style.
void sphere_over_floor(deck::Lammps &lmp, const std::string &units, const std::string &boundary,
                       const std::string &box, double d, double rho, double z0, const double v0[3],
                       const double w0[3], double g, const std::string &law,
                       const std::string &wall_options, double dt, double skin)
{
  lmp.command(header(units, boundary, box, 1));
  lmp.command("create_atoms 1 single 0 0 " + num(z0) + " units box");
  lmp.command("set group all diameter " + num(d) + "\nset group all density " + num(rho));
  lmp.command("velocity all set " + num(v0[0]) + " " + num(v0[1]) + " " + num(v0[2]));
  lmp.command("set group all omega " + num(w0[0]) + " " + num(w0[1]) + " " + num(w0[2]));
  lmp.command("neighbor " + num(skin) + " bin\ntimestep " + num(dt));
  lmp.command("pair_style granular/exact\npair_coeff * * " + law);
  if (g > 0) lmp.command("fix grav all gravity " + num(g) + " vector 0 0 -1");
  lmp.command("fix integrate all nve/sphere");
  lmp.command("fix floor all wall/gran/exact " + law + " zplane 0 NULL " + wall_options);
}

const double kZero[3] = {0, 0, 0};

}    // namespace

// dem01 (test_dem_01.cpp; dem01-granular-hooke-3d-si.yaml and dem01-hookehistory-3d-si.yaml,
// analytic_model freefall, segment 0, tol 1e-9): a sphere (d 0.2 m, 2600 kg/m^3) dropped from
// z0 = 0.5 m above a floor with gravity 9.81 m/s^2; after 250 steps of 1 ms, before it reaches the
// floor, z = z0 - g t^2/2 and v_z = -g t (velocity Verlet is exact for constant acceleration): the
// wall must exert nothing before contact.
TEST(DemSuite, Dem01FreeFallBeforeContact)
{
  const double g = 9.81, z0 = 0.5, d = 0.2, rho = 2600.0;
  const double m = sphere_mass(d, rho);
  const std::string laws[] = {
      "hooke 1e4 damping restitution 0.8 tangential spring_sliding 8235 0",    // granular-hooke
      hooke_history_law(1e4, 10.0, m, 0.5, "classic"),                         // hookehistory
  };
  for (const auto &law : laws) {
    SCOPED_TRACE(law);
    deck::Lammps lmp;
    sphere_over_floor(lmp, "si", "f f f", "-0.5 0.5 -0.5 0.5 0 1", d, rho, z0, kZero, kZero, g,
                      law, "", 1e-3, 0.1);
    lmp.command("run 250");
    const double t = 0.25;
    const Atom a = atom(lmp, 1);
    expect_rel(z0 - 0.5 * g * t * t, a.x[2], 1e-9, "freefall z");
    expect_rel(-g * t, a.v[2], 1e-9, "freefall v_z");
  }
}

// dem02 (test_dem_02.cpp; dem02-restitution-3d-si.yaml, analytic_model bounce_height, segment 2,
// tol 0.015): the same sphere dropped from h0 = 0.5 m on a stiff floor (kn = 1e6 N/m, e = 0.9,
// dt = 0.2 ms); after 2450 steps it rises from its first bounce, and its apex z + v_z^2/(2g) is
// the hard-sphere value r + e^2 (h0 - r).
TEST(DemSuite, Dem02BounceHeight)
{
  const double g = 9.81, h0 = 0.5, r = 0.1, e = 0.9;
  deck::Lammps lmp;
  sphere_over_floor(lmp, "si", "f f f", "-0.5 0.5 -0.5 0.5 0 1", 2 * r, 2600.0, h0, kZero, kZero,
                    g, "hooke 1e6 damping restitution 0.9 tangential spring_sliding 8235 0", "",
                    2e-4, 0.1);
  lmp.command("run 1300\nrun 350\nrun 800");
  const Atom a = atom(lmp, 1);
  EXPECT_GT(a.v[2], 0.0) << "not rising from the first bounce";
  const double apex = a.x[2] + a.v[2] * a.v[2] / (2 * g);
  expect_rel(r + std::pow(e, 2.0) * (h0 - r), apex, 0.015, "bounce apex");
}

// dem03 (test_dem_03.cpp; dem03-elastic-3d-si.yaml, analytic_model stack_energy, segment 4,
// tol 5e-4): two spheres (d 1 mm, 1e4 kg/m^3) stacked in a channel between the walls y = 0 and
// y = 1.8 mm under gravity along -y, all three contacts initially compressed (overlaps 50, 100,
// 50 um); elastic linear springs kn = 1e3 N/m, no friction, no damping: after 1000 steps of 2 us
// the energy KE + m g y + sum kn delta^2/2 equals its initial value. Both our catalogue hooke
// (restitution 1) and the linear law.
TEST(DemSuite, Dem03StackEnergyConserved)
{
  const double g = 9.81, kn = 1e3, ylo = 0.0, yhi = 0.0018, y1 = 0.00045, y2 = 0.00135;
  const std::string laws[] = {
      "hooke 1e3 damping restitution 1.0 tangential spring_sliding 800 0",
      "hooke 1e3 tangential classic 800 0",
  };
  for (const auto &law : laws) {
    SCOPED_TRACE(law);
    deck::Lammps lmp;
    lmp.command(header("si", "f f f", "-0.005 0.005 -0.001 0.003 -0.005 0.005", 2));
    lmp.command("create_atoms 1 single 0 " + num(y1) + " 0 units box");
    lmp.command("create_atoms 2 single 0 " + num(y2) + " 0 units box");
    lmp.command("set group all diameter 0.001\nset group all density 10000\n"
                "neighbor 0.0005 bin\ntimestep 2e-6\npair_style granular/exact");
    lmp.command("pair_coeff * * " + law);
    lmp.command("fix grav all gravity " + num(g) + " vector 0 -1 0\nfix integrate all nve/sphere");
    lmp.command("fix channel all wall/gran/exact " + law + " yplane " + num(ylo) + " " + num(yhi));
    lmp.command("run 200\nrun 200\nrun 200\nrun 200\nrun 200");
    const Atom a = atom(lmp, 1), b = atom(lmp, 2);
    auto spring = [&](double ya, double yb) {
      const double floor = std::max(0.0, a.radius - (ya - ylo));
      const double ceiling = std::max(0.0, yb + b.radius - yhi);
      const double pair = std::max(0.0, a.radius + b.radius - (yb - ya));
      return 0.5 * kn * (floor * floor + ceiling * ceiling + pair * pair);
    };
    const double e0 = a.mass * g * y1 + b.mass * g * y2 + spring(y1, y2);
    const double e = 0.5 * a.mass * a.v[1] * a.v[1] + 0.5 * b.mass * b.v[1] * b.v[1] +
                     a.mass * g * a.x[1] + b.mass * g * b.x[1] + spring(a.x[1], b.x[1]);
    expect_rel(e0, e, 5e-4, "stack energy");
  }
}

// dem04 (test_dem_04.cpp; analytic_model slip_cessation, tol 0.005): a sphere (d 1, density 1,
// LJ units) resting on the floor at its equilibrium overlap (z0 = 0.49994764, g = 1) is launched
// along x at u0 = 1 without spin; friction slows and spins it until it rolls: then
// v_x = 5 u0 / 7 and omega_y = v_x / r (r = 0.5). YAMLs:
//   dem04-granular-3d-si.yaml          (hooke 1e4, e 0.9, linear_history 2857 gt 50 mu 0.5,
//                                       segment 2 after 7000 steps of 2e-4)
//   dem04-hookehistory-3d-si.yaml      (hooke/history 1e4 gn 10 mu 0.5, 4500 steps)
//   dem04-hookehistory-mu02-3d-si.yaml (mu 0.2, 10000 steps; tagged unstable by LAMMPS)
//   dem04-hookehistory-mu10-3d-si.yaml (mu 1.0, 3500 steps)
TEST(DemSuite, Dem04SlipCessationToRolling)
{
  const double u0 = 1.0, r = 0.5, m = sphere_mass(1.0, 1.0);
  const double eta_t = 50.0 * restitution_prefactor(0.9, m, 1e4);
  const struct {
    std::string yaml, law;
    int steps;
  } cases[] = {
      {"dem04-granular-3d-si",
       "hooke 1e4 damping restitution 0.9 tangential spring_dashpot 2857 " + num(eta_t) + " 0.5 maw",
       7000},
      {"dem04-hookehistory-3d-si", hooke_history_law(1e4, 10.0, m, 0.5, "classic"), 4500},
      {"dem04-hookehistory-3d-si (refined)", hooke_history_law(1e4, 10.0, m, 0.5, "refined"), 4500},
      {"dem04-hookehistory-mu02-3d-si", hooke_history_law(1e4, 10.0, m, 0.2, "classic"), 10000},
      {"dem04-hookehistory-mu10-3d-si", hooke_history_law(1e4, 10.0, m, 1.0, "classic"), 3500},
  };
  for (const auto &c : cases) {
    SCOPED_TRACE(c.yaml + ": " + c.law);
    std::printf(" %s\n", c.yaml.c_str());
    deck::Lammps lmp;
    const double v0[3] = {u0, 0, 0};
    sphere_over_floor(lmp, "lj", "p f f", "-5 5 -1 1 -0.5 3", 1.0, 1.0, 0.49994764, v0, kZero,
                      1.0, c.law, "", 2e-4, 0.3);
    lmp.command("run " + std::to_string(c.steps));
    const Atom a = atom(lmp, 1);
    expect_rel(5.0 * u0 / 7.0, a.v[0], 0.005, "slip_cessation v_x");
    expect_rel(5.0 * u0 / 7.0 / r, a.omega[1], 0.005, "slip_cessation omega_y");
  }
}

// dem05 (test_dem_05.cpp; analytic_model oblique_impact): a sphere (d 1, density 1, no gravity)
// hits the floor with velocity (vx_in, 0, -1) from z0 = 0.55, no spin, and slides throughout the
// contact: after 800 steps of 2e-4 (free flight) v_z = e v_z,in, v_x = v_x,in - mu(1+e) v_z,in
// and omega_y = (5/2) mu (1+e) v_z,in / r. YAMLs:
//   dem05-granular-oblique-3d.yaml        (hooke 1e4, e 0.9, linear_history 2857 0 mu 0.3,
//                                          vx_in 4, tol 0.005)
//   dem05-granular-oblique-steep-3d.yaml  (vx_in 6, tol 0.005)
//   dem05-mindlin-grazing-3d.yaml         (hertz/material E 1e5 nu 0.3 e 0.9, mindlin mu 0.3,
//                                          vx_in 4, tol 0.01)
//   dem05-mindlin-steep-3d.yaml           (vx_in 6, tol 0.01)
TEST(DemSuite, Dem05ObliqueImpactGrossSliding)
{
  const double vz_in = 1.0, en = 0.9, mu = 0.3, r = 0.5;
  const std::string hooke = "hooke 1e4 damping restitution 0.9 tangential spring_sliding 2857 0.3";
  const std::string hertz = "hertz 1e5 0.3 damping tsuji en 0.9 tangential tti 0.3 eta 0";
  const struct {
    std::string yaml, law, wall;
    double vx_in, tol;
  } cases[] = {
      {"dem05-granular-oblique-3d", hooke, "", 4.0, 0.005},
      {"dem05-granular-oblique-steep-3d", hooke, "", 6.0, 0.005},
      {"dem05-mindlin-grazing-3d", hertz, "wall 1e5 0.3", 4.0, 0.01},
      {"dem05-mindlin-steep-3d", hertz, "wall 1e5 0.3", 6.0, 0.01},
  };
  for (const auto &c : cases) {
    SCOPED_TRACE(c.yaml + ": " + c.law);
    std::printf(" %s\n", c.yaml.c_str());
    deck::Lammps lmp;
    const double v0[3] = {c.vx_in, 0, -vz_in};
    sphere_over_floor(lmp, "lj", "p p f", "-10 10 -2 2 -0.5 5", 1.0, 1.0, 0.55, v0, kZero, 0.0,
                      c.law, c.wall, 2e-4, 0.3);
    lmp.command("run 400\nrun 400");
    const Atom a = atom(lmp, 1);
    const double dvt = mu * (1.0 + en) * vz_in;
    expect_rel(en * vz_in, a.v[2], c.tol, "oblique_impact v_z,out");
    expect_rel(c.vx_in - dvt, a.v[0], c.tol, "oblique_impact v_x,out");
    expect_rel(2.5 * dvt / r, a.omega[1], c.tol, "oblique_impact omega_y,out");
  }
}

// dem05 (dem05-hookehistory-grazing-3d.yaml, analytic_model energy_dissipation, segment 1,
// tol 0.001): the grazing impact (vx_in 4, vz_in 1) with hooke/history (kn 1e4, gn 10, mu 0.5),
// dt 2e-5, 8000 steps: the kinetic energy (translation + rotation) after the impact must not
// exceed the initial one by more than 0.1% (the classic tangential update can inject energy).
TEST(DemSuite, Dem05GrazingImpactDissipates)
{
  const double m = sphere_mass(1.0, 1.0);
  for (const char *tangential : {"classic", "refined"}) {
    SCOPED_TRACE(tangential);
    deck::Lammps lmp;
    const double v0[3] = {4.0, 0, -1.0};
    sphere_over_floor(lmp, "lj", "p p f", "-10 10 -2 2 -0.5 5", 1.0, 1.0, 0.55, v0, kZero, 0.0,
                      hooke_history_law(1e4, 10.0, m, 0.5, tangential), "", 2e-5, 0.3);
    lmp.command("run 4000\nrun 4000");
    const Atom a = atom(lmp, 1);
    const double e_init = 0.5 * a.mass * (16.0 + 1.0);
    double e_final = 0.0;
    for (int k = 0; k < 3; ++k)
      e_final += 0.5 * a.mass * a.v[k] * a.v[k] +
                 0.5 * 0.4 * a.mass * a.radius * a.radius * a.omega[k] * a.omega[k];
    std::printf("  %s: E_final / E_init = %.8f (limit 1.001), v_z %.6f\n", tangential,
                e_final / e_init, a.v[2]);
    EXPECT_GT(a.v[2], 0.0) << "no rebound";
    EXPECT_LE(e_final, e_init * (1.0 + 0.001));
  }
}

// dem07 (test_dem_07.cpp; analytic_model rolling_decay, tol 0.002): a sphere (d 1, density 1)
// resting on the floor at its equilibrium overlap under g = 10 (z0 = 0.4994764) spins about y
// at omega0 = 5, no sliding friction; the rolling resistance moment, capped at mur R N, slows it
// linearly: omega_y(t) = omega0 - 5 mur g t / (2R). dt 5e-4. YAMLs:
//   dem07-rolling-3d-si.yaml        (mur 0.1, segment 1: t = 0.4)
//   dem07-rolling-mu005-3d-si.yaml  (mur 0.05, t = 0.4)
//   dem07-rolling-mu02-3d-si.yaml   (mur 0.2, segment 0: t = 0.2)
// LAMMPS' rolling sds kr = 1000 (force/length on the rolling displacement R theta, moment
// R F) is a moment stiffness kr R^2 = 250 per radian.
TEST(DemSuite, Dem07RollingResistanceDecay)
{
  const double g = 10.0, omega0 = 5.0, R = 0.5;
  const struct {
    const char *yaml;
    double mur;
    int steps;
  } cases[] = {
      {"dem07-rolling-3d-si", 0.1, 800},
      {"dem07-rolling-mu005-3d-si", 0.05, 800},
      {"dem07-rolling-mu02-3d-si", 0.2, 400},
  };
  for (const auto &c : cases) {
    SCOPED_TRACE(c.yaml);
    std::printf(" %s\n", c.yaml);
    const std::string law = "hooke 1e4 damping restitution 0.5 tangential sliding 0 rolling yade "
                            "kr 250 eta " + num(c.mur);
    deck::Lammps lmp;
    const double w0[3] = {0, omega0, 0};
    sphere_over_floor(lmp, "lj", "p p f", "-2 2 -2 2 -0.5 3", 1.0, 1.0, 0.49947640, kZero, w0, g,
                      law, "", 5e-4, 0.3);
    lmp.command("run " + std::to_string(c.steps));
    const double t = c.steps * 5e-4;
    const Atom a = atom(lmp, 1);
    expect_rel(omega0 - 5.0 * c.mur * g / (2.0 * R) * t, a.omega[1], 0.002, "rolling_decay omega_y");
  }
}

// dem09 (test_dem_09.cpp; dem09-normal-3d.yaml, analytic_model collision_restitution, segment 1,
// tol 0.015): two equal spheres (d 1, density 1) at x = -+0.6 meet head-on at +-1 (hooke 1e4,
// e 0.9, no friction), dt 2e-4, 1000 steps: |m1 v1 + m2 v2| <= tol (m1+m2) v_in and
// -(v1 - v2)/(2 v_in) = e.
TEST(DemSuite, Dem09HeadOnRestitution)
{
  const double vin = 1.0, en = 0.9;
  deck::Lammps lmp;
  lmp.command(header("lj", "f f f", "-3 3 -2 2 -2 2", 1));
  lmp.command("create_atoms 1 single -0.6 0 0 units box\ncreate_atoms 1 single 0.6 0 0 units box");
  lmp.command("set group all diameter 1\nset group all density 1\nneighbor 0.3 bin\n"
              "timestep 2e-4\nvelocity all set 0 0 0\nset atom 1 vx 1\nset atom 2 vx -1");
  lmp.command("pair_style granular/exact\npair_coeff * * hooke 1e4 damping restitution 0.9 "
              "tangential spring_sliding 8235 0\nfix integrate all nve/sphere");
  lmp.command("run 600\nrun 400");
  const Atom a = atom(lmp, 1), b = atom(lmp, 2);
  const double momentum = a.mass * a.v[0] + b.mass * b.v[0];
  std::printf("  total x-momentum %.3e (limit %.3e)\n", momentum, 0.015 * (a.mass + b.mass) * vin);
  EXPECT_LE(std::fabs(momentum), 0.015 * (a.mass + b.mass) * vin);
  expect_rel(en, -(a.v[0] - b.v[0]) / (2.0 * vin), 0.015, "collision_restitution e");
}

// dem09 (dem09-spin-identical-3d.yaml, analytic_model spin_no_friction, segment 1, tol 1e-8):
// two equal spheres at z = -+0.5 approach at +-1 along z, spinning about y at +10 and -10: the
// contact points move alike (relative tangential velocity zero), so no tangential force: after
// 600 steps of 2e-4 the spin of sphere 1 is unchanged (relative 1e-8) and |v_x|, |v_y| <= 1e-8.
// (LAMMPS: hooke 1e4, e 0.9, linear_history 2857 0 mu 0.5; also our refined linear law.)
TEST(DemSuite, Dem09SymmetricSpinGivesNoFriction)
{
  const double omega0 = 10.0, tol = 1e-8;
  const std::string laws[] = {
      "hooke 1e4 damping restitution 0.9 tangential spring_sliding 2857 0.5",
      "hooke 1e4 tangential refined 2857 0.5",
  };
  for (const auto &law : laws) {
    SCOPED_TRACE(law);
    deck::Lammps lmp;
    lmp.command(header("lj", "f f f", "-3 3 -3 3 -3 3", 1));
    lmp.command("create_atoms 1 single 0 0 -0.5 units box\n"
                "create_atoms 1 single 0 0 0.5 units box");
    lmp.command("set group all diameter 1\nset group all density 1\nneighbor 0.3 bin\n"
                "timestep 2e-4\nvelocity all set 0 0 0\nset atom 1 vz 1\nset atom 2 vz -1\n"
                "set atom 1 omega 0 10 0\nset atom 2 omega 0 -10 0");
    lmp.command("pair_style granular/exact\npair_coeff * * " + law +
                "\nfix integrate all nve/sphere");
    lmp.command("run 300\nrun 300");
    const Atom a = atom(lmp, 1);
    expect_rel(omega0, a.omega[1], tol, "spin_no_friction omega_y");
    std::printf("  v_x %.3e, v_y %.3e, v_z %.6f\n", a.v[0], a.v[1], a.v[2]);
    EXPECT_LE(std::fabs(a.v[0]), tol);
    EXPECT_LE(std::fabs(a.v[1]), tol);
    EXPECT_LT(a.v[2], 0.0) << "no rebound";
  }
}

namespace {
// spin_impact closed form: sphere 1 (r 0.5) approaching at v_in along -z with spin omega0 about
// y slides throughout: v_z = e v_in, v_x = mu (1+e) v_in, omega_y = omega0 - (5/2) mu (1+e) v_in/r
void expect_spin_impact(const Atom &a, double tol)
{
  const double vin = 1.0, w0 = 20.0, en = 0.8, mu = 0.4, r = 0.5;
  const double dvt = mu * (1.0 + en) * vin;
  expect_rel(en * vin, a.v[2], tol, "spin_impact v_z,out");
  expect_rel(dvt, a.v[0], tol, "spin_impact v_x,out");
  expect_rel(w0 - 2.5 * dvt / r, a.omega[1], tol, "spin_impact omega_y,out");
}
const char *kSpinLaw = "hooke 1e4 damping restitution 0.8 tangential spring_sliding 2857 0.4";
}    // namespace

// dem09 (dem09-spin-unequal-3d.yaml, analytic_model spin_impact, segment 1, tol 0.02): a small
// sphere (d 1, density 1) at z = 3 falls at v_in = 1 onto a big heavy one (d 5, density 1000) at
// the origin, spinning about y at omega0 = 20 (hooke 1e4, e 0.8, linear_history 2857 0 mu 0.4,
// dt 2e-4, 600 steps).
TEST(DemSuite, Dem09SpinningSphereOnHeavySphere)
{
  deck::Lammps lmp;
  lmp.command(header("lj", "f f f", "-4 4 -4 4 -3 6", 1));
  lmp.command("create_atoms 1 single 0 0 3 units box\ncreate_atoms 1 single 0 0 0 units box");
  lmp.command("set atom 1 diameter 1\nset atom 1 density 1\nset atom 2 diameter 5\n"
              "set atom 2 density 1000\nneighbor 0.3 bin\ntimestep 2e-4\n"
              "velocity all set 0 0 0\nset atom 1 vz -1\nset atom 1 omega 0 20 0");
  lmp.command(std::string("pair_style granular/exact\npair_coeff * * ") + kSpinLaw +
              "\nfix integrate all nve/sphere");
  lmp.command("run 300\nrun 300");
  expect_spin_impact(atom(lmp, 1), 0.02);
}

// dem09 (dem09-spin-wall-3d.yaml: the same impact on the wall z = 0, sphere at z = 0.5, box
// -3 3 -3 3 -0.5 3). The YAML enables no analytic model; our extension asserts spin_impact with
// the tolerance of dem09-spin-unequal (0.02): a wall is the heavy partner of that closed form.
TEST(DemSuite, Dem09SpinningSphereOnWall)
{
  deck::Lammps lmp;
  const double v0[3] = {0, 0, -1.0}, w0[3] = {0, 20.0, 0};
  sphere_over_floor(lmp, "lj", "f f f", "-3 3 -3 3 -0.5 3", 1.0, 1.0, 0.5, v0, w0, 0.0, kSpinLaw,
                    "", 2e-4, 0.3);
  lmp.command("run 300\nrun 300");
  expect_spin_impact(atom(lmp, 1), 0.02);
}

// dem11 (test_dem_11.cpp; analytic_model hertz_normal_impact, segment 0, tol 0.01): elastic Hertz
// impact (E 1e5, nu 0.3, e = 1, no friction) stopped at peak compression, where the relative
// kinetic energy is all elastic: (1/2) mred V^2 = (2/5) P_max alpha_max.
//   dem11-hertz-twosphere-3d.yaml: spheres (d 1, density 1) at x = -+0.5 at +-1, V = 2,
//     mred = m/2, 120 steps of 1e-4.
//   dem11-hertz-wall-3d.yaml: a sphere at z = 0.5 falling at 1 on the floor, V = 1, mred = m,
//     160 steps of 1e-4. LAMMPS' wall/gran takes the sphere's material for the wall (Ebar =
//     E/(2(1-nu^2))), which times the peak at 160 steps: `wall 1e5 0.3` here. With a rigid wall
//     (Ebar = E/(1-nu^2)) the peak comes earlier, at t = 1.4717 alpha_max / V (alpha_max from the
//     Hertz closed form); that run stops at its own peak step (our extension, same tolerance).
TEST(DemSuite, Dem11HertzPeakCompressionEnergy)
{
  const double tol = 0.01;
  const std::string law = "hertz 1e5 0.3 tangential sliding 0";
  auto check = [&](const Atom &a, double alpha, double mred, double vrela) {
    ASSERT_GT(alpha, 0.0) << "not in contact at the peak time";
    const double pmax = std::sqrt(a.f[0] * a.f[0] + a.f[1] * a.f[1] + a.f[2] * a.f[2]);
    expect_rel(0.5 * mred * vrela * vrela, 0.4 * pmax * alpha, tol, "hertz peak energy balance");
  };
  {
    SCOPED_TRACE("dem11-hertz-twosphere-3d");
    deck::Lammps lmp;
    lmp.command(header("lj", "f f f", "-3 3 -2 2 -2 2", 1));
    lmp.command("create_atoms 1 single -0.5 0 0 units box\n"
                "create_atoms 1 single 0.5 0 0 units box");
    lmp.command("set group all diameter 1\nset group all density 1\nneighbor 0.3 bin\n"
                "timestep 1e-4\nvelocity all set 0 0 0\nset atom 1 vx 1\nset atom 2 vx -1");
    lmp.command("pair_style granular/exact\npair_coeff * * " + law +
                "\nfix integrate all nve/sphere");
    lmp.command("run 120");
    const Atom a = atom(lmp, 1), b = atom(lmp, 2);
    check(a, a.radius + b.radius - std::fabs(b.x[0] - a.x[0]), 0.5 * a.mass, 2.0);
  }
  for (const bool rigid : {false, true}) {
    SCOPED_TRACE(rigid ? "dem11-hertz-wall-3d, rigid wall" : "dem11-hertz-wall-3d");
    const double E = 1e5, nu = 0.3, R = 0.5, m = sphere_mass(1.0, 1.0), V = 1.0;
    const double Ebar = rigid ? E / (1 - nu * nu) : E / (2 * (1 - nu * nu));
    const double alpha_max = std::pow(15.0 * m * V * V / (16.0 * Ebar * std::sqrt(R)), 0.4);
    const double t_peak =
        0.4 * std::tgamma(0.4) * std::tgamma(0.5) / std::tgamma(0.9) * alpha_max / V;
    const int steps = rigid ? static_cast<int>(std::lround(t_peak / 1e-4)) : 160;
    std::printf("  %s wall: closed-form peak at %.6g, stopped at %g\n", rigid ? "rigid" : "glass",
                t_peak, steps * 1e-4);
    deck::Lammps lmp;
    const double v0[3] = {0, 0, -V};
    sphere_over_floor(lmp, "lj", "f f f", "-2 2 -2 2 -0.5 3", 1.0, 1.0, 0.5, v0, kZero, 0.0, law,
                      rigid ? "wall rigid" : "wall 1e5 0.3", 1e-4, 0.3);
    lmp.command("run " + std::to_string(steps));
    const Atom a = atom(lmp, 1);
    check(a, a.radius - a.x[2], a.mass, V);
  }
}

// dem10 (test_dem_10.cpp; dem10-aor-spheres-3d.yaml, analytic_model angle_of_repose, analytic_only,
// band 15-55 degrees): fix pour drops 120 spheres (d 1, density 1, seed 5783) from the region
// -1.2..1.2 x -1.2..1.2 x 3..4.5 into the box of walls x, y = -+3.5 and the floor z = 0 under
// g = 2 (hooke 1e4, e 0.3, linear_history kt 8235 gt 50 mu 1.0, rolling sds kr 500 gr 50 mur
// 0.5), dt 5e-4, 85000 steps; the heap's atan(z_max / r_max) (centres; r_max the largest
// horizontal distance from the centroid) lies in the band. A coarse statistical check. Our
// version: eta_t = gt alpha sqrt(mbar kn) per kind of contact (mbar = m/2 between spheres, m on a
// wall), the rolling stiffness kr Reff^2 (Reff = R/2, R); our Yade rolling law has no rolling
// dashpot (gr 50 is dropped).
TEST(DemSuite, Dem10AngleOfReposeInBand)
{
  const double m = sphere_mass(1.0, 1.0), R = 0.5;
  auto law = [&](double mbar, double reff) {
    return "hooke 1e4 damping restitution 0.3 tangential spring_dashpot 8235 " +
           num(50.0 * restitution_prefactor(0.3, mbar, 1e4)) + " 1.0 maw rolling yade kr " +
           num(500.0 * reff * reff) + " eta 0.5";
  };
  const std::string pair = law(m / 2, R / 2), wall = law(m, R);
  deck::Lammps lmp;
  lmp.command(header("lj", "f f f", "-4 4 -4 4 -0.5 10", 1));
  lmp.command("region pourreg block -1.2 1.2 -1.2 1.2 3.0 4.5 units box\nneighbor 0.3 bin\n"
              "timestep 5e-4\npair_style granular/exact\npair_coeff * * " + pair);
  lmp.command("fix grav all gravity 2 vector 0 0 -1\nfix integrate all nve/sphere");
  lmp.command("fix zwall all wall/gran/exact " + wall + " zplane 0 NULL");
  lmp.command("fix xwall all wall/gran/exact " + wall + " xplane -3.5 3.5");
  lmp.command("fix ywall all wall/gran/exact " + wall + " yplane -3.5 3.5");
  lmp.command("fix ins all pour 120 1 5783 region pourreg diam one 1 dens 1 1");
  lmp.command("run 85000");
  const int n = static_cast<int>(lammps_get_natoms(lmp.handle()));
  ASSERT_GT(n, 100) << "fix pour inserted too few spheres";
  auto **x = static_cast<double **>(lammps_extract_atom(lmp.handle(), "x"));
  double xc = 0, yc = 0, zmax = -1e300, rmax = 0;
  for (int k = 0; k < n; ++k) {
    xc += x[k][0] / n;
    yc += x[k][1] / n;
    zmax = std::max(zmax, x[k][2]);
  }
  for (int k = 0; k < n; ++k) rmax = std::max(rmax, std::hypot(x[k][0] - xc, x[k][1] - yc));
  const double angle = std::atan(zmax / rmax) * 180.0 / kPi;
  std::printf("  %d spheres, z_max %.4f, r_max %.4f: angle %.2f deg (band 15-55)\n", n, zmax, rmax,
              angle);
  EXPECT_GE(angle, 15.0);
  EXPECT_LE(angle, 55.0);
}

// dem08 (test_dem_08.cpp; dem08-dmt-twosphere-3d.yaml and dem08-dmt-wall-3d.yaml, analytic_model
// pulloff_dmt, segment 0 (run 0), tol 0.001): a DMT contact held at an overlap of 1e-5 pulls with
// the pull-off force 4 pi gamma R_eff (the Hertz part ~ 0 there): two spheres (d 1, density 1,
// E 1000, nu 0.3, gamma 10, R_eff 0.25) 0.99999 apart, and a sphere at z 0.49999 over the wall
// z = 0 (R_eff 0.5).
TEST(DemSuite, Dem08DmtPulloffForce)
{
  const std::string law = "dmt 1000 0.3 10 tangential spring_sliding 100 0";
  {
    deck::Lammps lmp;
    lmp.command(header("lj", "f f f", "-2 2 -2 2 -2 2", 1));
    lmp.command("create_atoms 1 single 0 0 0 units box\ncreate_atoms 1 single 0.99999 0 0 units "
                "box\nset group all diameter 1\nset group all density 1\nneighbor 0.3 bin\n"
                "timestep 1e-4\npair_style granular/exact\npair_coeff * * " + law +
                "\nfix integrate all nve/sphere\nrun 0");
    const Atom a = atom(lmp, 1);
    expect_rel(4.0 * kPi * 10.0 * 0.25, std::sqrt(a.f[0] * a.f[0] + a.f[1] * a.f[1] + a.f[2] * a.f[2]),
               0.001, "pulloff_dmt force, two spheres");
    EXPECT_GT(a.f[0], 0.0) << "the force on sphere 1 must pull it towards sphere 2";
  }
  {
    deck::Lammps lmp;
    sphere_over_floor(lmp, "lj", "p p f", "-2 2 -2 2 -0.5 3", 1.0, 1.0, 0.49999, kZero, kZero, 0.0,
                      law, "wall 1000 0.3", 1e-4, 0.3);
    lmp.command("run 0");
    const Atom a = atom(lmp, 1);
    expect_rel(4.0 * kPi * 10.0 * 0.5, std::sqrt(a.f[0] * a.f[0] + a.f[1] * a.f[1] + a.f[2] * a.f[2]),
               0.001, "pulloff_dmt force, wall");
    EXPECT_LT(a.f[2], 0.0) << "the force must pull the sphere towards the wall";
  }
}
