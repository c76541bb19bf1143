// Deck tests of pair granular/exact with the catalogue laws (Rangel's "DEM contact force models";
// the checks are those of doc/design_notes.md, "Catalogue checks", cited as "notes: <section>"):
// the head-on collisions and tangential loading curves with their numbers (glass spheres,
// R = 1 mm, E = 70 GPa, nu = 0.25, rho = 2500 kg/m^3), the physical mixing of unlike Hertz
// materials, bad input, and the invariances (newton, restart, serial == MPI) of a catalogue law
// with per-contact state.
#include "packing_state.hpp"

#include "contact/vec3.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace packing;

constexpr double kRadius = 1.0e-3, kDensity = 2500.0, kYoung = 70.0e9, kPoisson = 0.25;
const double kMass = 4.0 / 3.0 * M_PI * kRadius * kRadius * kRadius * kDensity;
constexpr double kLinearStiffness = 1.26909318e6;    // [R]'s equal-energy k_n = 1.053 X

// Hertz closed forms (notes: Catalogue checks), with dm = delta_max:
// dm = (15 mbar v^2 / (16 Ebar sqrt(Rbar)))^(2/5) and T_c = 2 (2/5) B(2/5, 1/2) dm / v
double hertz_max_overlap(double mbar, double Ebar, double Rbar, double v)
{
  return std::pow(15.0 * mbar * v * v / (16.0 * Ebar * std::sqrt(Rbar)), 0.4);
}
double hertz_duration_factor()
{
  return 2.0 * 0.4 * std::tgamma(0.4) * std::tgamma(0.5) / std::tgamma(0.9);
}

struct Collision {
  double restitution;    // separation speed / approach speed
  double duration;       // time with geometric overlap
  double max_overlap;
};

// Two spheres (types 1 and 2) meet head-on at relative speed 1 m/s; `dt` about T_c/20000.
Collision head_on(const std::string &coeffs, double dt, double t_end)
{
  deck::Lammps lmp;
  const double gap = 1.0e-8;
  lmp.command(deck::si_sphere_box("-5e-3 5e-3 -5e-3 5e-3 -5e-3 5e-3", 2));
  lmp.command("create_atoms 1 single " + num(-kRadius - gap / 2) + " 0 0");
  lmp.command("create_atoms 2 single " + num(kRadius + gap / 2) + " 0 0");
  lmp.command("set group all diameter " + num(2 * kRadius) + "\nset group all density " +
              num(kDensity));
  lmp.command(R"(
velocity        all set 0 0 0
set             atom 1 vx  0.5
set             atom 2 vx -0.5
pair_style      granular/exact
)");
  lmp.command(coeffs);
  lmp.command("timestep " + num(dt));
  lmp.command("variable overlap equal " + num(2 * kRadius) + "-(x[2]-x[1])");
  // one file per test: ctest runs the tests of this file in parallel in one directory
  const std::string record =
      std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_overlap.txt";
  lmp.command("fix integrate all nve/sphere\nfix record all print 1 \"${overlap}\" file " + record +
              " screen no");
  lmp.command("run " + std::to_string(static_cast<int>(std::ceil(t_end / dt))));
  lmp.command("unfix record");
  Collision c{0.0, 0.0, 0.0};
  std::ifstream in(record);
  std::string line;
  int steps_in_contact = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const double overlap = std::stod(line);
    if (overlap > 0.0) steps_in_contact++;
    c.max_overlap = std::max(c.max_overlap, overlap);
  }
  auto **v = static_cast<double **>(lammps_extract_atom(lmp.handle(), "v"));
  c.restitution = v[1][0] - v[0][0];
  c.duration = steps_in_contact * dt;
  return c;
}

std::string glass_pair(const std::string &law) { return "pair_coeff * * " + law; }

}    // namespace

// Undamped Hertz: elastic rebound (e = 1), and the closed-form T_c and delta_max.
TEST(DeckCatalogue, HertzCollisionMatchesClosedForm)
{
  const double t_c = 5.97841584e-6, delta_max = 2.03121199e-6;
  const Collision c = head_on(glass_pair("hertz 70e9 0.25 tangential sliding 0.3"), t_c / 20000,
                              1.2 * t_c);
  std::printf("  e %.9f, T_c %.9g (3.2: %.9g), delta_max %.9g (3.2: %.9g)\n", c.restitution,
              c.duration, t_c, c.max_overlap, delta_max);
  EXPECT_NEAR(c.restitution, 1.0, 1e-6);
  EXPECT_NEAR(c.duration / t_c, 1.0, 1e-4);
  EXPECT_NEAR(c.max_overlap / delta_max, 1.0, 1e-4);
}

// Unlike materials mix by Ebar = [(1-nu_I^2)/E_I + (1-nu_J^2)/E_J]^-1
// (notes: Catalogue conventions), not by geometric means: the collision of glass with steel follows
// the Hertz closed forms with that Ebar, and equals the run with the explicit two-material
// pair_coeff.
TEST(DeckCatalogue, UnlikeHertzMaterialsMixPhysically)
{
  const double E_steel = 210e9, nu_steel = 0.3;
  const double Ebar = 1.0 / ((1 - kPoisson * kPoisson) / kYoung + (1 - nu_steel * nu_steel) / E_steel);
  const double mbar = kMass / 2, Rbar = kRadius / 2;
  const double delta_max = hertz_max_overlap(mbar, Ebar, Rbar, 1.0);
  const double t_c = hertz_duration_factor() * delta_max;
  const std::string glass = "hertz 70e9 0.25 tangential sliding 0.3",
                    steel = "hertz 210e9 0.3 tangential sliding 0.2";
  const Collision mixed = head_on("pair_coeff 1 1 " + glass + "\npair_coeff 2 2 " + steel,
                                  t_c / 20000, 1.2 * t_c);
  const Collision given = head_on("pair_coeff 1 1 " + glass + "\npair_coeff 2 2 " + steel +
                                      "\npair_coeff 1 2 hertz 70e9 0.25 210e9 0.3 tangential "
                                      "sliding 0.2",
                                  t_c / 20000, 1.2 * t_c);
  std::printf("  T_c %.9g (closed form %.9g), delta_max %.9g (closed form %.9g)\n", mixed.duration,
              t_c, mixed.max_overlap, delta_max);
  EXPECT_NEAR(mixed.duration / t_c, 1.0, 1e-4);
  EXPECT_NEAR(mixed.max_overlap / delta_max, 1.0, 1e-4);
  EXPECT_NEAR(mixed.restitution, 1.0, 1e-6);
  EXPECT_EQ(mixed.max_overlap, given.max_overlap);
  EXPECT_EQ(mixed.restitution, given.restitution);
}

namespace {

// notes: Catalogue checks: the damped head-on collisions of two glass spheres at 1 m/s
struct DampedRow {
  std::string law;
  double e, t_c, delta_max;
};

std::vector<DampedRow> damped_table()
{
  const std::string k = num(kLinearStiffness);
  return {
      {"hooke " + k + " damping restitution 0.9 tangential sliding 0.3", 0.9, 6.38478867e-6,
       1.92913269e-6},
      {"hooke " + k + " damping restitution 0.9 tangential sliding 0.3 limit_damping",
       0.90202607, 6.38468659e-6, 1.92913269e-6},
      {"hls " + k + " 0.9 tangential sliding 0.3", 0.9, 6.49094976e-6, 2.03119938e-6},
      {"hls " + k + " variable 1e5 tangential sliding 0.3", 0.91168653, 6.47556902e-6,
       2.03119938e-6},
      {"hertz 70e9 0.25 damping bshp 1e-7 tangential sliding 0.3", 0.9401463, 6.0166656e-6,
       1.9822477e-6},
      {"hertz 70e9 0.25 damping kk 111.306495 tangential sliding 0.3", 0.9401463, 6.0166656e-6,
       1.9822477e-6},
      {"hertz 70e9 0.25 damping tsuji en 0.9 tangential sliding 0.3", 0.8999810, 6.0445997e-6,
       1.9491235e-6},
  };
}

// a collision against its row (dt = T_c/20000: damped results converge at first order in dt,
// notes: Catalogue checks, so e is held to 1e-3 relative and T_c, delta_max to 1e-4)
void expect_row(const DampedRow &row, double e, double duration, double max_overlap)
{
  std::printf("  %s\n    e %.8f (3.2: %.8f), T_c %.9g (%.9g), delta_max %.9g (%.9g)\n",
              row.law.c_str(), e, row.e, duration, row.t_c, max_overlap, row.delta_max);
  EXPECT_NEAR(e / row.e, 1.0, 1e-3);
  EXPECT_NEAR(duration / row.t_c, 1.0, 1e-4);
  EXPECT_NEAR(max_overlap / row.delta_max, 1.0, 1e-4);
}

}    // namespace

// The damped normal laws reproduce the restitution coefficients, contact durations and maximum
// overlaps of notes: Catalogue checks (dt = T_c/20000: damped results converge at first order in
// dt, so e is held to 1e-3 relative and T_c, delta_max to 1e-4 where the table gives them).
TEST(DeckCatalogue, DampedCollisionsMatchTable)
{
  for (const DampedRow &row : damped_table()) {
    SCOPED_TRACE(row.law);
    const Collision c = head_on(glass_pair(row.law), row.t_c / 20000, 1.2 * row.t_c);
    expect_row(row, c.restitution, c.duration, c.max_overlap);
  }
}

// Every dashpot goes with every law built on its spring: the table's damped collisions with the
// catalogue's tangential model replaced by the linear laws (hooke: restitution, with and without
// limit_damping) and by the Jaeger contact (hertz: bshp, kk, tsuji). A head-on impact has no
// tangential movement, so each gives the same restitution, contact duration and largest overlap
// as its table row (the same dashpot on the same spring: to round-off of the catalogue's run);
// a dashpot defined on the other spring is an error that names the one to use.
TEST(DeckCatalogue, EveryDashpotGoesWithEveryLawOnItsSpring)
{
  const std::string k = num(kLinearStiffness);
  int checked = 0;
  for (const DampedRow &row : damped_table()) {
    const size_t at = row.law.find("tangential sliding 0.3");
    if (row.law.find("damping") == std::string::npos || at == std::string::npos) continue;
    const bool hooke = row.law.rfind("hooke", 0) == 0;
    const std::string tail = row.law.substr(at + std::string("tangential sliding 0.3").size());
    const std::vector<std::string> laws =
        hooke ? std::vector<std::string>{"tangential classic " + k + " 0.3",
                                         "tangential refined " + k + " 0.3"}
              : std::vector<std::string>{"tangential jaeger 0.3"};
    const Collision catalogue = head_on(glass_pair(row.law), row.t_c / 20000, 1.2 * row.t_c);
    for (const std::string &tangential : laws) {
      const std::string law = row.law.substr(0, at) + tangential + tail;
      SCOPED_TRACE(law);
      const Collision c = head_on(glass_pair(law), row.t_c / 20000, 1.2 * row.t_c);
      expect_row({law, row.e, row.t_c, row.delta_max}, c.restitution, c.duration, c.max_overlap);
      EXPECT_NEAR(c.restitution, catalogue.restitution, 1e-12);
      EXPECT_NEAR(c.max_overlap, catalogue.max_overlap, 1e-12 * catalogue.max_overlap);
      checked++;
    }
  }
  EXPECT_EQ(checked, 7);    // restitution (2 linear laws, with and without limit_damping), bshp, kk, tsuji
  const deck::BadInput cases[] = {
      {"pair_coeff * * hooke 1e4 damping tsuji en 0.5 tangential classic 800 0.5",
       "built on the linear (hooke) contact: it takes damping none, viscous, mass_velocity or restitution; for "
       "a restitution coefficient independent of the impact speed give 'damping restitution <e>'"},
      {"pair_coeff * * hertz 1e7 0.3 damping restitution 0.5 tangential jaeger 0.4",
       "built on the Hertz contact: it takes damping none, viscous, mass_velocity, bshp, kk or tsuji; for a "
       "restitution coefficient independent of the impact speed give 'damping tsuji en <e>'"},
  };
  deck::expect_rejected(deck::kEmptyGranularBox, cases);
}

// LAMMPS' mass-proportional dashpot (its `damping mass_velocity`, the gran/* styles' gamma_n
// m_eff): eta_n = gamma_n mbar per pair, so a polydisperse deck ports exactly. Head-on, a pair of
// spheres of diameters 1 and 2 on a linear spring rebounds with the closed form of the linear
// spring-dashpot, e = exp(-gamma_n T_c/2), T_c = pi/sqrt(k/mbar - gamma_n^2/4), for its own
// mbar (the catalogue's hooke and the classic law alike; dt = T_c/20000: e to 2e-5 relative).
TEST(DeckCatalogue, MassProportionalDashpotDampsEachPairByItsMass)
{
  const double k = 1e4, gamma = 20.0, density = 1.0;
  for (const double d2 : {1.0, 2.0}) {
    const double m1 = density * M_PI / 6.0, m2 = density * M_PI / 6.0 * d2 * d2 * d2;
    const double mbar = m1 * m2 / (m1 + m2);
    const double t_c = M_PI / std::sqrt(k / mbar - 0.25 * gamma * gamma);
    const double e = std::exp(-0.5 * gamma * t_c);
    for (const std::string tangential : {std::string("sliding 0.3"), std::string("classic 8e3 0.3")}) {
      SCOPED_TRACE(tangential + ", d2 = " + num(d2));
      deck::Lammps lmp;
      const double gap = 0.5 * (1.0 + d2) + 0.05;
      lmp.command(deck::lj_sphere_box("-4 4 -4 4 -4 4") + "create_atoms 1 single 0 0 0\n" +
                  "create_atoms 1 single " + num(gap) + " 0 0\nset atom 1 diameter 1.0\n" +
                  "set atom 2 diameter " + num(d2) + "\nset group all density " + num(density) +
                  "\nvelocity all set 0 0 0\nset atom 1 vx 0.5\nset atom 2 vx -0.5\n"
                  "pair_style granular/exact\npair_coeff * * hooke " + num(k) +
                  " damping mass_velocity " + num(gamma) + " tangential " + tangential +
                  "\nfix integrate all nve/sphere\ntimestep " + num(t_c / 20000) + "\nrun " +
                  std::to_string(static_cast<int>(1.5 * 20000 + 0.2 / (t_c / 20000))));
      auto **v = static_cast<double **>(lammps_extract_atom(lmp.handle(), "v"));
      const double restitution = (v[1][0] - v[0][0]) / 1.0;
      std::printf("  %s, d2 %g: e %.8f (closed form %.8f)\n", tangential.c_str(), d2,
                  restitution, e);
      EXPECT_NEAR(restitution / e, 1.0, 2e-5);
    }
  }
}

namespace {

// Sphere 2 is driven around sphere 1 on a circle at constant centre distance (constant normal
// overlap delta = 1 um, case (c) of notes: Catalogue checks) at speed 0.35 m/s, no spin: the
// tangential displacement is the arc length. It moves forward `forward` steps, then back. Returns
// the tangential force on sphere 2 against the forward direction, and the normal force, at the end.
struct TangentialLoad {
  double resisting, normal;
};

TangentialLoad drive_tangentially(const std::string &law, int forward, int total)
{
  const double overlap = 1.0e-6, d = 2 * kRadius - overlap, speed = 0.35, dt = 1.0e-9;
  deck::Lammps lmp;
  lmp.command(deck::si_sphere_box("-5e-3 5e-3 -5e-3 5e-3 -5e-3 5e-3") +
              "create_atoms 1 single 0 0 0\n");
  lmp.command("create_atoms 1 single " + num(d) + " 0 0");
  lmp.command("set group all diameter " + num(2 * kRadius) + "\nset group all density " +
              num(kDensity));
  lmp.command("velocity all set 0 0 0\npair_style granular/exact\npair_coeff * * " + law);
  lmp.command("timestep " + num(dt));
  // arc length s(step) = speed dt (step up to N, then 2N - step); velocity along the arc
  const std::string w = num(speed / d), N = std::to_string(forward);
  lmp.command("variable theta equal " + w + "*dt*ternary(step<=" + N + ",step,2*" + N + "-step)");
  lmp.command("variable sense equal 2*(step<=" + N + ")-1");
  lmp.command("variable dx equal " + num(d) + "*(cos(v_theta)-1)");
  lmp.command("variable dy equal " + num(d) + "*sin(v_theta)");
  lmp.command("variable vx equal -" + num(speed) + "*v_sense*sin(v_theta)");
  lmp.command("variable vy equal " + num(speed) + "*v_sense*cos(v_theta)");
  lmp.command(R"(
group           mover id 2
fix             drive mover move variable v_dx v_dy NULL v_vx v_vy NULL
)");
  lmp.command("run " + std::to_string(total));
  auto **x = static_cast<double **>(lammps_extract_atom(lmp.handle(), "x"));
  auto **f = static_cast<double **>(lammps_extract_atom(lmp.handle(), "f"));
  const double dist = std::hypot(x[1][0] - x[0][0], x[1][1] - x[0][1]);
  const double nx = (x[1][0] - x[0][0]) / dist, ny = (x[1][1] - x[0][1]) / dist;
  // forward tangent (-ny, nx); force on 2
  return {-(f[1][0] * -ny + f[1][1] * nx), f[1][0] * nx + f[1][1] * ny};
}

}    // namespace

// Case (c) of notes: Catalogue checks: the loading curves, and their unloading, along a driven
// path. One step moves 3.5e-10 m, so 1000 steps make delta_t^max = 3.5e-7 m.
TEST(DeckCatalogue, TangentialLoadingCurvesMatchTable)
{
  const double mu_fn = 0.33391948, fn = 1.11306495;
  const double lth_table[] = {0.11703242, 0.21586112, 0.29217955, 0.33391948};
  for (const char *model : {"lth 0.3 0", "walton_braun 1.43108351e6 0.3"}) {
    for (int quarter = 1; quarter <= 4; ++quarter) {
      SCOPED_TRACE(std::string(model) + ", quarter " + std::to_string(quarter));
      const TangentialLoad load =
          drive_tangentially(std::string("hertz 70e9 0.25 tangential ") + model, 4000,
                             250 * quarter);
      std::printf("  %-30s xi = %d/4 delta_t^max: F %.8f (3.3: %.8f), F_n %.8f (%.8f)\n", model,
                  quarter, load.resisting, lth_table[quarter - 1], load.normal, fn);
      EXPECT_NEAR(load.normal / fn, 1.0, 1e-7);
      EXPECT_NEAR(load.resisting / lth_table[quarter - 1], 1.0, 1e-5);
    }
  }
  const struct {
    const char *law;
    int forward, total;
    double expected;
  } unloading[] = {
      // Walton-Braun: full slip (2 delta_s), back by delta_s and by 2 delta_s
      {"hertz 70e9 0.25 tangential walton_braun 1.43108351e6 0.3", 2000, 3000, -0.09780275},
      {"hertz 70e9 0.25 tangential walton_braun 1.43108351e6 0.3", 2000, 4000, -mu_fn},
      // to delta_s/2, back by delta_s/4
      {"hertz 70e9 0.25 tangential walton_braun 1.43108351e6 0.3", 500, 750, 0.09552244},
      // truncated linear spring: to 5e-7 m (slipping since 3.5e-7), back by 1e-7 m (3.3 c:
      // 0.23851390 N); the path steps 3.5e-10 m, so back by 286 steps = 1.001e-7 m
      {"hertz 70e9 0.25 tangential spring_sliding 9.54055670e5 0.3", 1429, 1715,
       mu_fn - 9.54055670e5 * 286 * 3.5e-10},
  };
  for (const auto &u : unloading) {
    SCOPED_TRACE(u.law);
    const TangentialLoad load = drive_tangentially(u.law, u.forward, u.total);
    std::printf("  %s, %d steps forward, %d back: F %.8f (3.3: %.8f)\n", u.law, u.forward,
                u.total - u.forward, load.resisting, u.expected);
    EXPECT_NEAR(load.resisting / u.expected, 1.0, 1e-5);
  }
}

// Every malformed catalogue pair_coeff stops with a message that says what is wrong.
TEST(DeckCatalogue, BadPairCoeffIsRejected)
{
  const std::string setup = deck::kEmptyGranularBox;
  const deck::BadInput cases[] = {
      {"pair_coeff 1 1 hertz 1e7 0.3 1e8", "hertz takes 2 numbers, or 4 with two materials (<E> <nu> [<E_J> <nu_J>]), not 3"},
      {"pair_coeff 1 1 hertz 1e7 0.3 1e8 0.7 tangential sliding 0.3", "nu_J (Poisson ratio of type J) = 0.7"},
      // two materials for one type (the second used to be dropped, or mixed as if it were)
      {"pair_coeff 1 1 hertz 1e7 0.3 1e8 0.2 tangential sliding 0.3", "types 1 1 are one"},
      {"pair_coeff * * hertz 1e7 0.3 1e8 0.2 tangential sliding 0.3", "types 1 1 are one"},
      {"pair_coeff 1 * hertz 1e7 0.3 1e8 0.2 tangential sliding 0.3", "types 1 1 are one"},
      {"pair_coeff 1 1 hls 1000", "hls expects 2 value"},
      {"pair_coeff 1 1 hls 1000 bogus tangential sliding 0.3", "hls expects <e_n>, 'kU <kU>' or 'variable <S>' after kL, not 'bogus'"},
      {"pair_coeff 1 1 hls 1000 1.5 tangential sliding 0.3", "e_n"},
      {"pair_coeff 1 1 hls 1000 kU 500 tangential sliding 0.3", "kU"},
      {"pair_coeff 1 1 hls 1000 variable -1 tangential sliding 0.3", "S"},
      {"pair_coeff 1 1 hooke 1000 damping restitution 0 tangential sliding 0.3", "e_n = 0 must be in (0, 1]"},
      {"pair_coeff 1 1 hooke 1000 damping bshp 1e-3 tangential sliding 0.3", "bshp"},
      {"pair_coeff 1 1 hooke 1000 damping tsuji en 0.9 tangential sliding 0.3", "tsuji"},
      {"pair_coeff 1 1 hertz 1e7 0.3 damping tsuji speed 0.9 tangential sliding 0.3", "damping tsuji expects 'en <e_n> [exact]' or 'eta <eta_n>'"},
      {"pair_coeff 1 1 hertz 1e7 0.3 damping viscous 1 2 tangential sliding 0.3", "damping viscous takes only <eta_n>"},
      {"pair_coeff 1 1 hertz 1e7 0.3 damping restitution 0.9 tangential jaeger 0.3", "damping restitution requires normal hooke ('tangential jaeger' is built on the Hertz contact: it takes damping none, viscous, mass_velocity, bshp, kk or tsuji; for a restitution coefficient independent of the impact speed give 'damping tsuji en <e>')"},
      {"pair_coeff 1 1 hls 1000 0.9 tangential classic 800 0.5", "'tangential classic' needs the normal model 'hooke"},
      {"pair_coeff 1 1 hooke 1000 tangential sliding", "sliding"},
      {"pair_coeff 1 1 hooke 1000 tangential sliding -1", "mu"},
      {"pair_coeff 1 1 hooke 1000 tangential dd 0.3", "defined on the Hertz contact"},
      {"pair_coeff 1 1 hooke 1000 tangential tti 0.3", "defined on the Hertz contact"},
      {"pair_coeff 1 1 hertz 1e7 0.3 tangential tti 0.3", "takes its dashpot from 'damping tsuji'"},
      {"pair_coeff 1 1 hooke 1000 tangential spring_dashpot 800 et 1.5 0.3", "e_t"},
      {"pair_coeff 1 1 hooke 1000 tangential walton_braun 0 0.3", "walton_braun"},
      {"pair_coeff 1 1 hooke 1000 tangential classic 800 0.5 limit_damping", "'limit_damping' is an option of the catalogue laws"},
      {"pair_coeff 1 1 hertz 1e7 0.3 tangential jaeger 0.4 limit_damping", "the jaeger law with damping none or viscous never lets the normal force attract"},
      {"pair_coeff 1 1 hooke 1000 tangential classic 800 0.5 rolling yade kr 1 eta 0.5 damp -1", "damp (gamma, moment time per radian)"},
      {"pair_coeff 1 1 hooke 1000 tangential classic 800 0.5 rolling yade kr 1 eta 0.5 damp", "rolling yade damp"},
      {"pair_coeff 1 1 hooke 1000 tangential sliding 0.3 rolling spring 1 eta 0.5", "rolling expects the model 'yade', not 'spring'"},
      {"pair_coeff 1 1 hooke 1000 tangential sliding 0.3 rolling yade kr -1 eta 0.5", "kr (moment per radian) = -1 must be > 0"},
      {"pair_coeff 1 1 hooke 1000 tangential sliding 0.3 rolling yade kr 1", "rolling yade expects 4 value"},
      {"pair_coeff 1 1 hooke 1000 tangential sliding 0.3 rolling yade stiff 1 eta 0.5", "expects 'kr <K>' or 'beta <beta>'"},
      {"pair_coeff 1 1 hooke 1000 tangential sliding 0.3 rolling yade kr 1 cap some", "'cap' expects 'none'"},
      {"pair_coeff 1 1 hooke 1000 tangential sliding 0.3 rolling yade kr 1 eta -2", "eta (moment cap coefficient) = -2 must be >= 0"},
      {"pair_coeff 1 1 hooke 1000 tangential sliding 0.3 rolling yade beta 1 eta 0.5", "needs a tangential model with a linear stiffness"},
      {"pair_coeff 1 1 hooke 1000 tangential sliding 0.3 rolling yade kr 1 eta 0.5 combined twisting yade kr 1 eta 0.5", "no separate twisting keyword"},
      {"pair_coeff 1 1 hooke 1000 tangential sliding 0.3 twisting yade kr 1 eta 0.5 twisting yade kr 2 eta 0.5", "'twisting yade' is given twice"},
      {"pair_coeff 1 1 hooke 1000 tangential sliding 0.3 limit_damping extra", "unexpected argument 'extra'"},
  };
  deck::expect_rejected(setup, cases);
  // types without a physical mixing rule for a differing value need their own pair_coeff
  deck::Lammps lmp;
  lmp.command(setup + R"(
pair_coeff 1 1 hooke 1000 damping restitution 0.9 tangential spring_sliding 800 0.5
pair_coeff 2 2 hooke 2000 damping restitution 0.9 tangential spring_sliding 800 0.3
create_atoms 1 single 1 1 1
set group all diameter 1 density 1
)");
  const std::string msg = lmp.error_of("run 0");
  EXPECT_NE(msg.find("cannot mix these catalogue laws"), std::string::npos) << msg;
}

namespace {

// a catalogue law with state in every contact: the hls maximum overlap (even), the
// Walton-Braun vectors and the Yade relative rotation (odd under the exchange of i and j)
const char *const kStatefulLaw = "hls 2000 0.8 tangential walton_braun 1600 0.4 rolling yade "
                                 "beta 0.5 eta 0.3 twisting yade kr 0.05 eta 0.1";

// kStatefulLaw with LAMMPS' neighbour history
const Law kStateful{kStatefulLaw, "neigh", ""};

// a packing deck run with kStatefulLaw and the given store
std::string stateful_packing(const std::string &deck_file, const std::string &newton, int nsteps,
                             const std::string &store)
{
  return packing_commands(deck_file, Law{kStatefulLaw, store, ""}, newton, nsteps);
}

}    // namespace

// newton on == off, and the compact store == LAMMPS' neighbour history, for a stateful law.
TEST(DeckCatalogue, NewtonAndStoreInvariance)
{
  State states[3];
  const char *runs[3][2] = {{"on", "neigh"}, {"off", "neigh"}, {"on", "compact"}};
  for (int k = 0; k < 3; ++k) {
    deck::Lammps lmp;
    lmp.command(stateful_packing(kPacking, runs[k][0], 400, runs[k][1]) + "run ${nsteps}");
    const std::string out = std::string("catalogue_") + runs[k][0] + "_" + runs[k][1];
    write_state(lmp, out);
    states[k] = read_state(out);
  }
  expect_same_state(states[0], states[1], 1e-10, "newton on vs off");
  expect_same_state(states[0], states[2], 0.0, "compact vs neigh store");
}

// run N + restart + run N == run 2N (no velocity-dependent force: to roundoff), serial == MPI.
TEST(DeckCatalogue, RestartAndMpiInvariance)
{
  expect_restart_and_mpi_invariance(kPacking, kStateful, "", "catalogue", 200,
                                    [](deck::Lammps &) {});
}

namespace {

// The Yade checks of notes: Catalogue checks: identical spheres R = 1 mm at overlap 1 um,
// k_n = 7e7 N/m (F_n = 70 N), K_s = 1.75e7 N/m, beta = 1 -> K_r = 17.5 N m/rad, eta = 0.5 -> cap
// 0.035 N m (elastic limit 2e-3 rad). Positions frozen (no integrator), B fixed, A spun at a
// prescribed omega.
class SpunPair {
 public:
  explicit SpunPair(const std::string &law)
  {
    lmp_.command(deck::si_sphere_box("-5e-3 5e-3 -5e-3 5e-3 -5e-3 5e-3") + R"(
create_atoms    1 single 0 0 0
create_atoms    1 single 1.999e-3 0 0
set             group all diameter 2e-3
set             group all density 2500
velocity        all set 0 0 0
pair_style      granular/exact
timestep        1e-6
)");
    lmp_.command("pair_coeff * * " + law);
  }
  // spin A (atom 1) by `angle` rad about the axis (ax, ay, az) at 10 rad/s (1e-5 rad per step)
  void rotate(double angle, double ax, double ay, double az)
  {
    const double w = angle > 0 ? 10.0 : -10.0;
    lmp_.command("set atom 1 omega " + num(w * ax) + " " + num(w * ay) + " " + num(w * az));
    lmp_.command("run " + std::to_string(static_cast<int>(std::lround(std::fabs(angle) / 1e-5))));
  }
  // the contact moment M (torque on B = +M, on A = -M plus the friction couple, which is equal
  // on both for equal radii): M = (torque_B - torque_A)/2
  ge::Vec3 moment()
  {
    auto **t = static_cast<double **>(lammps_extract_atom(lmp_.handle(), "torque"));
    return {(t[1][0] - t[0][0]) / 2, (t[1][1] - t[0][1]) / 2, (t[1][2] - t[0][2]) / 2};
  }

 private:
  deck::Lammps lmp_;
};

}    // namespace

// The Yade checks, combined mode through the pair style: rolling about z (in the tangent plane,
// the normal is x), the cap, elastic unloading after the cap, the reverse cap; a twist about n.
TEST(DeckCatalogue, YadeMomentsMatchTable)
{
  const std::string law = "hooke 7e7 tangential spring_sliding 1.75e7 0.5 rolling yade beta 1 "
                          "eta 0.5 combined";
  // (one LAMMPS instance at a time: the plugin list is process-wide)
  {
  SpunPair pair(law);
  const struct {
    double angle, expected;
  } sequence[] = {{1e-3, 0.0175}, {4e-3, 0.035}, {-1e-3, 0.0175}, {-4e-3, -0.035}};
  for (const auto &step : sequence) {
    pair.rotate(step.angle, 0, 0, 1);
    const ge::Vec3 m = pair.moment();
    std::printf("  rolled %+.0e rad: M = (%.3g, %.3g, %.10f) N m (3.4: moment on A %.4f)\n",
                step.angle, m.x, m.y, m.z, -step.expected);
    EXPECT_NEAR(m.z, step.expected, 1e-12);
    EXPECT_NEAR(m.x, 0.0, 1e-12);
    EXPECT_NEAR(m.y, 0.0, 1e-12);
  }
  }
  {
  SpunPair twisted(law);
  twisted.rotate(1e-3, 1, 0, 0);
  const ge::Vec3 m = twisted.moment();
  std::printf("  twisted 1e-3 rad about n: M = (%.10f, %.3g, %.3g)\n", m.x, m.y, m.z);
  EXPECT_NEAR(m.x, 0.0175, 1e-12);
  }
  // separate springs: rolling yade kr 17.5 cap none with twisting yade kr 5 eta 0.5
  {
  SpunPair separate("hooke 7e7 tangential sliding 0.5 rolling yade kr 17.5 cap none twisting "
                    "yade kr 5 eta 0.5");
  separate.rotate(5e-3, 0, 0, 1);
  EXPECT_NEAR(separate.moment().z, 17.5 * 5e-3, 1e-12);
  }
  SpunPair separate_twist("hooke 7e7 tangential sliding 0.5 rolling yade kr 17.5 cap none "
                          "twisting yade kr 5 eta 0.5");
  separate_twist.rotate(1e-2, 1, 0, 0);    // 5 * 1e-2 = 0.05 > cap 0.035
  EXPECT_NEAR(separate_twist.moment().x, 0.035, 1e-12);
}

namespace {

// A rotational oscillator: sphere 1 (LJ units, d = 1, m = 1, I = 0.1) spins with omega0 against
// a partner that does not move (sphere 2 at overlap 0.01 without an integrator, normal x; or the
// floor plane, normal z); its centre is held (fix setforce), no friction (sliding 0), so only
// the Yade springs (cap none) act on its rotation. Records E_rot + E_spring every step (the
// springs' energy: value 18 of the pair, 7 of the wall fix) over `steps` steps of 1e-3.
struct Oscillation {
  double e0;                // 1/2 I omega0^2
  double drift;             // largest |E_rot + E_spring - e0|
  double largest_spring;    // largest spring energy seen
};

Oscillation spin_oscillation(const std::string &law, bool wall, const std::string &omega0, int steps)
{
  deck::Lammps lmp;
  const std::string file =
      std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
      (wall ? "_wall" : "_pair") + ".txt";
  lmp.command(std::string("units lj\natom_style sphere\nboundary f f f\ncomm_modify vel yes\n"
                          "region box block -2 2 -2 2 -2 2\ncreate_box 1 box\n") +
              (wall ? "create_atoms 1 single 0 0 0.49\n"
                    : "create_atoms 1 single 0 0 0\ncreate_atoms 1 single 0.99 0 0\n") +
              "set group all diameter 1\nset group all density 1.9098593171027443\n"
              "group spinning id 1\nvelocity all set 0 0 0\nset atom 1 omega " + omega0 +
              "\npair_style granular/exact\npair_coeff * * " + law + "\n" +
              (wall ? "fix floor all wall/gran/exact " + law + " zplane 0 NULL\n" : "") +
              "fix spin spinning nve/sphere\nfix hold spinning setforce 0 0 0\n"
              "compute erot all erotate/sphere\ncompute p all pair granular/exact\n"
              "timestep 0.001\nfix record all print 1 \"$(c_erot:%.17g) " +
              (wall ? "$(f_floor[7]:%.17g)" : "$(c_p[18]:%.17g)") + "\" file " + file +
              " screen no\nrun " + std::to_string(steps));
  Oscillation o{NAN, 0.0, 0.0};
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    double rotational, spring;
    fields >> rotational >> spring;
    if (std::isnan(o.e0)) o.e0 = rotational + spring;    // the first step: spring ~ 0
    o.drift = std::fmax(o.drift, std::fabs(rotational + spring - o.e0));
    o.largest_spring = std::fmax(o.largest_spring, spring);
  }
  return o;
}

}    // namespace

// The Yade springs' elastic energy (pair value 18, wall value 7) is the energy the rotation
// stores. A sphere spinning against a fixed partner oscillates with E_rot + E_spring conserved
// to the second order of velocity Verlet, (Omega dt)^2 E_0 (Omega = sqrt(K/I) = 2.24 for
// bending, 1.41 for twisting), for pure bending about a tangent and pure twisting about the
// normal (the spring then holds all of E_0 at the turning point), and for both at once in the
// combined mode (one K on the whole phi: M = K phi is the gradient of K |phi|^2/2). With separate
// bending and twisting springs turned at once, the swing-twist split's moment is the gradient of
// this energy only to second order in the angles: the sum stays within phi_max^2 E_0 (measured
// 1.4e-2 E_0 at 0.2-0.3 rad, 1.5e-4 E_0 at a tenth of that, bounded over 80 time units). A
// spring energy off by a factor would miss by the whole E_0.
TEST(DeckCatalogue, YadeSpringEnergyIsTheStoredRotationalEnergy)
{
  const std::string separate = "hooke 1000 tangential sliding 0 rolling yade kr 0.5 cap none "
                               "twisting yade kr 0.2 cap none";
  const std::string combined = "hooke 1000 tangential sliding 0 rolling yade kr 0.5 cap none "
                               "combined";
  const double verlet = 2.24 * 2.24 * 1e-6;    // (Omega dt)^2, the stiffer spring
  // both at once with separate springs: phi_max = |omega0| sqrt(I/K_tw), the softer spring
  const double phi_max_squared = (0.3 * 0.3 + 0.5 * 0.5) * 0.1 / 0.2;
  const struct {
    const char *name;
    const std::string &law;
    bool wall;
    const char *omega0;
    double bound;     // of the drift, relative to E_0
    bool turning;     // a single spring: it holds all of E_0 at the turning point
  } cases[] = {{"pair, bending", separate, false, "0 0.5 0", verlet, true},
               {"pair, twisting", separate, false, "0.3 0 0", verlet, true},
               {"pair, both, combined", combined, false, "0.3 0.5 0", verlet, false},
               {"pair, both, separate", separate, false, "0.3 0.5 0", phi_max_squared, false},
               {"wall, bending", separate, true, "0.5 0 0", verlet, true},
               {"wall, twisting", separate, true, "0 0 0.3", verlet, true},
               {"wall, both, combined", combined, true, "0.5 0 0.3", verlet, false},
               {"wall, both, separate", separate, true, "0.5 0 0.3", phi_max_squared, false}};
  for (const auto &c : cases) {
    SCOPED_TRACE(c.name);
    const Oscillation o = spin_oscillation(c.law, c.wall, c.omega0, 5000);
    std::printf("  %s: E0 %.6g, drift %.3e E0, largest spring energy %.9f E0\n", c.name, o.e0,
                o.drift / o.e0, o.largest_spring / o.e0);
    EXPECT_LE(o.drift, c.bound * o.e0);
    if (c.turning) EXPECT_GE(o.largest_spring, (1.0 - verlet) * o.e0);
  }
}

// ---------------------------------------------------------------------------------------------
// Walls (fix wall/gran/exact)

namespace {

// One glass sphere (R = 1 mm) hits the plane z = 0 with velocity (vt, 0, -vn), no spin.
struct WallImpact {
  double vn_after, vt_after, spin_after, max_overlap, duration;
  double lever_impulse;    // sum over the steps of F_n (R - delta/2) dt
};

WallImpact wall_impact(const std::string &law, const std::string &wall_options, double vn,
                       double vt, double dt, double t_end, double radius = kRadius,
                       double density = kDensity)
{
  deck::Lammps lmp;
  const double gap = 1.0e-8;
  lmp.command(deck::si_sphere_box("-5e-2 5e-2 -5e-3 5e-3 -5e-3 5e-3"));
  lmp.command("create_atoms 1 single 0 0 " + num(radius + gap));
  lmp.command("set group all diameter " + num(2 * radius) + "\nset group all density " +
              num(density));
  lmp.command("velocity all set " + num(vt) + " 0 " + num(-vn));
  lmp.command("pair_style granular/exact\npair_coeff * * " + law);
  lmp.command("fix wall all wall/gran/exact " + law + " zplane 0 NULL " + wall_options);
  lmp.command("timestep " + num(dt));
  lmp.command("variable overlap equal " + num(radius) + "-z[1]");
  const std::string record =
      std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_wall.txt";
  lmp.command("variable fn equal fz[1]");
  lmp.command("fix integrate all nve/sphere\nfix record all print 1 \"${overlap} ${fn}\" file " +
              record + " screen no");
  lmp.command("run " + std::to_string(static_cast<int>(std::ceil(t_end / dt))));
  lmp.command("unfix record");
  WallImpact w{0, 0, 0, 0, 0, 0};
  std::ifstream in(record);
  std::string line;
  int steps = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    double overlap = 0.0, fn = 0.0;
    fields >> overlap >> fn;
    if (overlap > 0.0) {
      steps++;
      w.lever_impulse += fn * (radius - overlap / 2) * dt;
    }
    w.max_overlap = std::max(w.max_overlap, overlap);
  }
  auto **v = static_cast<double **>(lammps_extract_atom(lmp.handle(), "v"));
  auto **omega = static_cast<double **>(lammps_extract_atom(lmp.handle(), "omega"));
  w.vn_after = v[0][2];
  w.vt_after = v[0][0];
  w.spin_after = omega[0][1] * radius;    // rolling sense for +x motion on the floor: +y spin
  w.duration = steps * dt;
  return w;
}

}    // namespace

// A rigid wall is a sphere with R, m, E -> infinity (notes: Catalogue conventions): the Hertz
// closed forms with Rbar = R, mbar = m, Ebar = E/(1-nu^2); and a deformable wall of the same glass
// gives the sphere-sphere Ebar = E/(2(1-nu^2)).
TEST(DeckCatalogue, WallHertzImpactMatchesClosedForm)
{
  for (const bool rigid : {true, false}) {
    SCOPED_TRACE(rigid ? "rigid wall" : "glass wall");
    const double Ebar = rigid ? kYoung / (1 - kPoisson * kPoisson)
                              : kYoung / (2 * (1 - kPoisson * kPoisson));
    const double delta_max = hertz_max_overlap(kMass, Ebar, kRadius, 1.0);
    const double t_c = hertz_duration_factor() * delta_max;
    const WallImpact w = wall_impact("hertz 70e9 0.25 tangential sliding 0.3",
                                     rigid ? "wall rigid" : "wall 70e9 0.25", 1.0, 0.0,
                                     t_c / 20000, 1.2 * t_c);
    std::printf("  %s: rebound %.9f, T_c %.9g (closed form %.9g), delta_max %.9g (%.9g)\n",
                rigid ? "rigid wall" : "glass wall", w.vn_after, w.duration, t_c, w.max_overlap,
                delta_max);
    EXPECT_NEAR(w.vn_after, 1.0, 1e-6);
    EXPECT_NEAR(w.duration / t_c, 1.0, 1e-4);
    EXPECT_NEAR(w.max_overlap / delta_max, 1.0, 1e-4);
    EXPECT_NEAR(w.vt_after, 0.0, 1e-15);
  }
}

// Every damped normal law on a wall (a sphere with R, m -> infinity): a sphere of half the radius
// and four times the density has the effective radius R/2 and mass m/2 of the head-on pair of
// notes: Catalogue checks, and a wall of the same glass its Ebar, so it rebounds from the wall at
// 1 m/s with the table's restitution, contact duration and maximum overlap (the tolerances of
// DampedCollisionsMatchTable).
TEST(DeckCatalogue, DampedWallImpactsMatchTable)
{
  for (const DampedRow &row : damped_table()) {
    SCOPED_TRACE(row.law);
    const bool hertz = row.law.rfind("hertz", 0) == 0;
    const WallImpact w = wall_impact(row.law, hertz ? "wall 70e9 0.25" : "", 1.0, 0.0,
                                     row.t_c / 20000, 1.2 * row.t_c, kRadius / 2, 4 * kDensity);
    expect_row(row, w.vn_after, w.duration, w.max_overlap);
  }
}

// Case (a) of notes: Catalogue checks: gross-sliding oblique impact on a rigid flat, v_n = 1,
// v_t = 5 m/s, mu = 0.3, HLS e = 0.9: v_t' = v_t - mu(1+e)v_n = 4.430 m/s and
// omega'R = (5/2)mu(1+e)v_n = 1.425 m/s, whatever the tangential model as long as it slides
// throughout (T1; T4 and T10 slide from the first step since K_t v_t > mu K_L v_n). Also the linear
// law (refined, e = 1).
// The spin: the friction acts at the lever R - delta/2 ([ours], notes: Catalogue conventions), so
// omega'R is 1.425 m/s less O(delta/R) = 1e-3; exactly, with velocity Verlet,
// omega' = mu sum_k F_n,k (R - delta_k/2) dt / I over the steps k of the contact.
TEST(DeckCatalogue, WallObliqueImpactMatchesCoulombImpulse)
{
  const std::string hls = "hls " + num(kLinearStiffness) + " 0.9 tangential ";
  const struct {
    std::string law;
    double e;
  } laws[] = {
      {hls + "sliding 0.3", 0.9},
      {hls + "spring_sliding 1e7 0.3", 0.9},
      {hls + "walton_braun 1e7 0.3", 0.9},
      {"hooke " + num(kLinearStiffness) + " tangential refined 1e7 0.3", 1.0},
  };
  const double t_c = 9.2e-6;    // HLS on a wall (mbar = m): 6.49e-6 s * sqrt(2)
  for (const auto &l : laws) {
    SCOPED_TRACE(l.law);
    const WallImpact w = wall_impact(l.law, "", 1.0, 5.0, t_c / 20000, 1.3 * t_c);
    const double vt_expected = 5.0 - 0.3 * (1 + l.e);
    const double inertia = 0.4 * kMass * kRadius * kRadius;
    const double spin_expected = kRadius * 0.3 * w.lever_impulse / inertia;
    std::printf("  %s: v_n' %.8f (%.4f), v_t' %.8f (%.4f), omega'R %.8f (%.8f; lever R: %.4f)\n",
                l.law.c_str(), w.vn_after, l.e, w.vt_after, vt_expected, w.spin_after,
                spin_expected, 2.5 * 0.3 * (1 + l.e));
    EXPECT_NEAR(w.vn_after / l.e, 1.0, 1e-6);
    EXPECT_NEAR(w.vt_after / vt_expected, 1.0, 1e-6);
    EXPECT_NEAR(w.spin_after / spin_expected, 1.0, 1e-6);
  }
}

// The per-atom wall history survives write_restart/read_restart (run N + restart + run N ==
// run 2N) and atom migration (serial == 4 ranks).
TEST(DeckCatalogue, WallHistoryRestartAndMpiInvariance)
{
  double wall_contacts = 0.0;
  expect_restart_and_mpi_invariance(
      kWallPacking, kStateful,
      std::string("fix walls all wall/gran/exact ") + kStatefulLaw + " zplane 0 8\ntimestep 0.001",
      "wall", 300, [&](deck::Lammps &lmp) {
        auto *count = static_cast<double *>(
            lammps_extract_fix(lmp.handle(), "walls", LMP_STYLE_GLOBAL, LMP_TYPE_VECTOR, 3, 0));
        ASSERT_NE(count, nullptr);
        wall_contacts = *count;
        lammps_free(count);
      });
  std::printf("  %g wall contacts at the end\n", wall_contacts);
  EXPECT_GT(wall_contacts, 20);
}

// The wall virial (fix_modify virial yes, off by default as for LAMMPS' fix wall): a sphere held
// still against the inside of a cylinder (zcylinder, or a region cylinder) by a constant force with a radial part F_r and a
// tangential part F_t below the static limit. The branch vector runs from the wall point to the
// centre, l = -(R - overlap) e_x, and the wall's force is (-F_r, -F_t, 0), so
// W_xx = (R - overlap) F_r and W_xy = (R - overlap) F_t; the friction comes from the friction
// fix (tangential coulomb, exact static friction on a non-rotating sphere) and enters both the
// wall's virial and its force on the group (f_wall[2]).
TEST(DeckCatalogue, WallVirialOfAHeldSphere)
{
  const double Rc = 5.0, radius = 0.5, kn = 1000.0, F_r = 10.0, F_t = 2.0;
  const double x0 = Rc - radius + F_r / kn;    // at the overlap that balances F_r
  const double volume = 12.0 * 12.0 * 2.0;
  const std::string cylinders[] = {
      "zcylinder " + num(Rc),
      "region drum\nregion drum cylinder z 0 0 " + num(Rc) + " INF INF units box"};
  for (const std::string &cylinder : cylinders)
  for (const char *modify : {"", "fix_modify wall virial yes"}) {
    SCOPED_TRACE(cylinder + " " + modify);
    deck::Lammps lmp;
    lmp.command(R"(
units           lj
atom_style      sphere
boundary        f f f
comm_modify     vel yes
region          box block -6 6 -6 6 -1 1
create_box      1 box
pair_style      granular/exact
pair_coeff      * * hooke 1000 tangential coulomb 0.5
)");
    // (a region is defined before the fix: the words after "region drum" go first)
    const std::string region_first =
        cylinder.find('\n') == std::string::npos ? "" : cylinder.substr(cylinder.find('\n') + 1);
    const std::string style = cylinder.substr(0, cylinder.find('\n'));
    lmp.command("create_atoms 1 single " + num(x0) + " 0 0\nset group all diameter " +
                num(2 * radius) + "\n" + region_first + "\nfix wall all wall/gran/exact hooke " +
                num(kn) + " tangential coulomb 0.5 " + style + "\n" + modify +
                "\nfix push all addforce " + num(F_r) + " " + num(F_t) + " 0\nfix move all nve\n"
                "compute p all pressure NULL virial\nthermo_style custom step c_p[1] c_p[4]\n"
                "run 10");
    auto *p = static_cast<double *>(
        lammps_extract_compute(lmp.handle(), "p", LMP_STYLE_GLOBAL, LMP_TYPE_VECTOR));
    ASSERT_NE(p, nullptr);
    const double W_xx = p[0] * volume, W_xy = p[3] * volume;
    const double x = static_cast<double **>(lammps_extract_atom(lmp.handle(), "x"))[0][0];
    const double overlap = radius - (Rc - x), gap = radius - overlap;
    std::printf("  %s: W_xx %.15g (expected %.15g), W_xy %.15g (expected %.15g)\n",
                modify[0] ? "virial yes" : "default", W_xx, gap * kn * overlap, W_xy, gap * F_t);
    // the wall's force on the group includes the friction that the friction fix applies
    auto *fy = static_cast<double *>(
        lammps_extract_fix(lmp.handle(), "wall", LMP_STYLE_GLOBAL, LMP_TYPE_VECTOR, 1, 0));
    ASSERT_NE(fy, nullptr);
    EXPECT_NEAR(*fy / -F_t, 1.0, 1e-12);
    lammps_free(fy);
    if (!modify[0]) {
      EXPECT_EQ(W_xx, 0.0);
      EXPECT_EQ(W_xy, 0.0);
    } else {
      EXPECT_NEAR(W_xx / (gap * kn * overlap), 1.0, 1e-12);
      EXPECT_NEAR(W_xy / (gap * F_t), 1.0, 1e-12);
    }
  }
}

// Every malformed fix wall/gran/exact stops with a message that says what is wrong.
TEST(DeckCatalogue, BadWallFixIsRejected)
{
  const std::string setup = deck::kEmptyWallBox;
  const deck::BadInput cases[] = {
      {"fix w all wall/gran/exact hooke 1000 tangential sliding 0.3 zplane 0 4", "define 'pair_style granular/exact' first"},
      {"pair_style granular/exact\nfix w all wall/gran/exact zplane 0 4", "missing contact law"},
      {"pair_style granular/exact\nfix w all wall/gran/exact hooke 1000 tangential sliding 0.3", "missing wall style"},
      {"pair_style granular/exact\nfix w all wall/gran/exact hooke -1 tangential sliding 0.3 zplane 0 4", "Incorrect fix wall/gran/exact: kn = -1 must be > 0"},
      {"pair_style granular/exact\nfix w all wall/gran/exact hooke 1000 tangential sliding 0.3 zplane 0", "zplane expects <lo> <hi>"},
      {"pair_style granular/exact\nfix w all wall/gran/exact hooke 1000 tangential sliding 0.3 zplane NULL NULL", "both walls NULL"},
      {"pair_style granular/exact\nfix w all wall/gran/exact hooke 1000 tangential sliding 0.3 zplane 4 0", "lo = 4 must be < hi = 0"},
      {"pair_style granular/exact\nfix w all wall/gran/exact hooke 1000 tangential sliding 0.3 xplane 0 4", "xplane in a periodic dimension"},
      {"pair_style granular/exact\nfix w all wall/gran/exact hertz 1e7 0.3 tangential sliding 0.3 zplane 0 4", "needs the wall's material"},
      {"pair_style granular/exact\nfix w all wall/gran/exact hertz 1e7 0.3 tangential sliding 0.3 zplane 0 4 wall soft", "soft"},
      {"pair_style granular/exact\nfix w all wall/gran/exact hertz 1e7 0.3 tangential sliding 0.3 zplane 0 4 wall 1e7 0.7", "wall nu = 0.7 must be in (-1, 0.5]"},
      {"pair_style granular/exact\nfix w all wall/gran/exact hooke 1000 tangential sliding 0.3 zplane 0 4 wall rigid", "only applies to the 'hertz', 'jkr' and 'dmt' normal models"},
      {"pair_style granular/exact\nfix w all wall/gran/exact hooke 1000 tangential sliding 0.3 zplane 0 4 rotate", "unexpected argument 'rotate'"},
      {"pair_style granular/exact\nfix w all wall/gran/exact hertz 1e7 0.3 tangential jaeger 0.3 zplane 0 4 wall 1e7 0.7", "wall nu = 0.7 must be in (-1, 0.5]"},
      {"pair_style granular/exact\nfix w all wall/gran/exact hertz 1e7 0.3 tangential jaeger 0.3 zplane 0 4 wall -1e7 0.3", "wall E = -10000000 must be > 0"},
      {"pair_style granular/exact\nfix w all wall/gran/exact hertz 1e7 0.3 tangential jaeger 0.3 zplane 0 4", "needs the wall's material"},
      {"pair_style granular/exact\nfix w all wall/gran/exact hooke 1000 tangential sliding 0.3 zcylinder -1", "zcylinder R = -1 must be > 0"},
      {"pair_style granular/exact\nfix w all wall/gran/exact hooke 1000 tangential sliding 0.3 zcylinder 2", "zcylinder needs non-periodic x and y"},
      // a second material in the law words would be ignored: the wall's comes with 'wall'
      {"pair_style granular/exact\nfix w all wall/gran/exact hertz 1e7 0.3 2e7 0.2 tangential sliding 0.3 zplane 0 4 wall rigid", "'hertz', 'jkr' and 'dmt' take the spheres' material only"},
      {"pair_style granular/exact\nfix w all wall/gran/exact hertz 1e7 0.3 tangential jaeger 0.3 zplane 0 4 wall 1e7", "wall expects 'rigid' or <E> <nu>"},
      {"pair_style granular/exact\nfix w all wall/gran/exact hertz 1e7 0.3 tangential sliding 0.3 zplane 0 4 wall rigid wall 1e7 0.2", "'wall' is given twice"},
      // a wall placed inside the packing (it used to throw the sphere out: "Lost atoms")
      {"create_atoms 1 single 1 1 1\nset group all diameter 1\nset group all density 1\npair_style granular/exact\npair_coeff * * hooke 1000 tangential sliding 0.3\nfix w all wall/gran/exact hooke 1000 tangential sliding 0.3 zplane 2 NULL\nfix i all nve/sphere\nrun 0", "the centre of atom 1 is on or behind the wall"},
      {"create_atoms 1 single 1 1 1\nset group all diameter 1\nset group all density 1\npair_style granular/exact\npair_coeff * * hooke 1000 tangential sliding 0.3\nfix w all wall/gran/exact hooke 1000 tangential sliding 0.3 zplane NULL 0.5\nfix i all nve/sphere\nrun 0", "the centre of atom 1 is on or behind the wall"},
  };
  deck::expect_rejected(setup, cases);
}

// A sphere rolling on a rigid floor under gravity is stopped by the Yade rolling moment at its
// cap eta R m g: the energy balance gives the rolled angle (7/10) m v0^2 / M + theta_y / 2
// (examples/rolling_resistance, whose deck this runs for two eta).
TEST(DeckCatalogue, RollingSphereStopsAtEnergyBalance)
{
  for (const char *eta : {"0.1", "0.3"}) {
    SCOPED_TRACE(eta);
    deck::Lammps lmp;
    lmp.command(std::string("variable eta index ") + eta);    // (index: the deck keeps it)
    lmp.command("include " + deck::source_path("examples/rolling_resistance/in.rolling_resistance"));
    auto value = [&](const char *name) {
      auto *p = static_cast<double *>(lammps_extract_variable(lmp.handle(), name, nullptr));
      const double v = p ? *p : NAN;
      lammps_free(p);
      return v;
    };
    const double rolled = value("x"), expected = value("theta_stop") * value("radius");
    std::printf("  eta %s: rolled %.10g m, energy balance %.10g m\n", eta, rolled, expected);
    EXPECT_NEAR(rolled / expected, 1.0, 1e-5);
  }
}

// A run that starts with no atoms (fix pour) takes its neighbour and ghost cutoff from fix pour's
// largest radius: poured spheres collide across process boundaries exactly as in serial (with a
// zero cutoff they passed through each other there, and the run lost atoms). With both stores:
// the lower process holds no atom at the first neighbour builds (the compact store's exchanges
// used to be skipped there, and the run aborted with MPI_ERR_TRUNCATE).
TEST(DeckCatalogue, PouredSpheresSerialEqualsMpi)
{
  {
    std::ofstream driver("pour_driver.in");
    driver << "include " << kDecks << "/in.pour\n";
  }
  for (const std::string store : {"neigh", "compact"}) {
    SCOPED_TRACE(store);
    for (int ranks : {1, 2}) {
      const std::string out = "pour_" + store + "_np" + std::to_string(ranks);
      const int rc = deck::run_mpi(ranks, "pour_driver.in",
                                   "-var nsteps 10000 -var history " + store + " -var out " + out,
                                   out + ".log");
      ASSERT_EQ(rc, 0) << "mpirun with " << ranks << " ranks failed, see " << out << ".log.out";
    }
    const auto serial = deck::read_atom_dump("pour_" + store + "_np1.atoms");
    const auto parallel = deck::read_atom_dump("pour_" + store + "_np2.atoms");
    ASSERT_EQ(serial.size(), 150u);
    std::map<long, std::vector<double>> a, b;    // without the owning process
    int on_rank_1 = 0;
    for (const auto &[id, row] : serial)
      a[id] = std::vector<double>(row.begin() + 1, row.end());
    for (const auto &[id, row] : parallel) {
      b[id] = std::vector<double>(row.begin() + 1, row.end());
      on_rank_1 += row[0] == 1.0;
    }
    const double d = deck::max_relative_difference(a, b);
    std::printf("  %s: 150 poured spheres, %d on rank 1: serial vs 2 ranks %.3e\n", store.c_str(),
                on_rank_1, d);
    EXPECT_GT(on_rank_1, 10);
    EXPECT_LE(d, 1e-12);
  }
}

// The Yade moments with every law (porting issue, item 1): the rolling sphere of
// examples/rolling_resistance stops at the energy balance under the linear laws and Jaeger's too
// (each placed at its own rest overlap: m g / kn for hooke, the Hertz overlap for hertz), to the
// tolerance of the catalogue law above.
TEST(DeckCatalogue, RollingSphereStopsAtEnergyBalanceWithEveryLaw)
{
  const double mass = 2500.0 * 4.0 / 3.0 * M_PI * 1e-9, weight = mass * 9.81;
  // a sphere (E = 7e10, nu = 0.25, R = 1 mm) on a half-space of its material: E* = E/(2(1-nu^2))
  const double Estar = 7e10 / (2.0 * (1.0 - 0.25 * 0.25));
  const double hertz_overlap = std::pow(weight / (4.0 / 3.0 * Estar * std::sqrt(1e-3)), 2.0 / 3.0);
  const struct {
    const char *law, *wall;
    double kn;    // m g / rest overlap
  } cases[] = {
      {"hooke 1e5 tangential classic 8e4 0.5 rolling yade kr 1e-4 eta 0.1", "", 1e5},
      {"hooke 1e5 tangential refined 8e4 0.5 rolling yade kr 1e-4 eta 0.1", "", 1e5},
      {"hertz 7e10 0.25 tangential jaeger 0.5 rolling yade kr 1e-4 eta 0.1", "wall 7e10 0.25",
       weight / hertz_overlap},
      {"hertz 7e10 0.25 tangential jaeger 0.5 capacity 16 rolling yade kr 1e-4 eta 0.1",
       "wall 7e10 0.25", weight / hertz_overlap},
  };
  for (const auto &c : cases) {
    SCOPED_TRACE(c.law);
    deck::Lammps lmp;
    lmp.command(std::string("variable law_words string \"") + c.law + "\"\nvariable wall_material index \"" +
                c.wall + "\"\nvariable kn index " + num(c.kn));
    lmp.command("include " + deck::source_path("examples/rolling_resistance/in.rolling_resistance"));
    const double rolled = lmp.variable("x");
    const double expected = lmp.variable("theta_stop") * lmp.variable("radius");
    std::printf("  rolled %.10g m, energy balance %.10g m\n", rolled, expected);
    EXPECT_NEAR(rolled / expected, 1.0, 1e-5);
  }
}

// The moments' state behind a linear or Jaeger law's own (3 values more per contact in the
// stores) survives restart files and migration between processes like every other state: the
// packing with refined + rolling and twisting, and with Jaeger (capacity 16) + rolling, run N +
// restart + run N == run 2N, serial == 4 ranks.
TEST(DeckCatalogue, MomentsOfLinearAndJaegerLawsRestartAndMpiInvariance)
{
  const Law laws[] = {
      {"hooke 2000 tangential refined 1600 0.4 rolling yade kr 0.05 eta 0.3 twisting yade kr 0.02 "
       "eta 0.1",
       "neigh", ""},
      {"hertz 2e4 0.3 tangential jaeger 0.5 capacity 16 rolling yade beta 0.5 eta 0.3", "compact",
       ""},
  };
  const char *prefixes[] = {"moments_refined", "moments_jaeger"};
  for (int k = 0; k < 2; k++) {
    SCOPED_TRACE(laws[k].contact);
    double moment_energy = 0.0;
    expect_restart_and_mpi_invariance(kPacking, laws[k], "", prefixes[k], 200,
                                      [&](deck::Lammps &lmp) {
                                        moment_energy = lmp.compute_vector("totals", 17);
                                      });
    // (the springs were loaded: the moments took part)
    std::printf("  elastic energy of the moment springs at the end: %g\n", moment_energy);
    EXPECT_GT(moment_energy, 0.0);
  }
}

// A heap on a rough floor with exact Coulomb friction comes to rest with damped rolling springs:
// with `rolling yade ... damp <gamma>` (and twisting) the rotational kinetic energy decays to
// round-off, while without the dashpots the springs keep the spheres rocking (rotational energy
// stays many orders of magnitude above it).
TEST(DeckCatalogue, CoulombHeapWithDampedRollingComesToRest)
{
  auto rotational_energy = [](const std::string &options) {
    deck::Lammps lmp;
    lmp.command("variable options index \"" + options + "\"\nvariable nheap index 30\ninclude " +
                kDecks + "/in.coulomb_heap");
    lmp.command("compute rot heap erotate/sphere\nthermo_style custom step c_ke c_rot\nrun 60000");
    lmp.command("variable rot equal c_rot");    // (current: thermo printed it at the last step)
    return lmp.variable("rot");
  };
  const double undamped = rotational_energy("rolling yade kr 0.5 eta 0.3 twisting yade kr 0.2 eta 0.1");
  const double damped = rotational_energy(
      "rolling yade kr 0.5 eta 0.3 damp 3e-4 twisting yade kr 0.2 eta 0.1 damp 1e-4");
  std::printf("  rotational energy after 1.2 s: springs alone %.3e J, with dashpots %.3e J\n",
              undamped, damped);
  EXPECT_LT(damped, 1e-20);
  EXPECT_GT(undamped, 1e4 * damped);
}

namespace {

// LAMMPS' examples/granular/in.pour.drum, its cohesive pair (types 2 2): jkr 1e5 0.1 0.3 50
// tangential mindlin NULL 1.0 0.5 rolling sds 1e3 1e3 0.1 twisting marshall; LJ units, spheres of
// diameter 0.5 to 1 and density 1, dt 1e-3. Its port by the conversion guide for the deck's mean
// spheres (d 0.75: R_eff 0.1875, m_eff 0.110, JKR contact radius at rest 0.0967): jkr 1e5 0.3 50,
// the viscoelastic damping 0.1 as kk 0.1 m_eff sqrt(R_eff), mindlin as tti 0.5 with its dashpot at
// rest, rolling yade kr 1e3 R_eff^2 eta 0.1/2 damp gamma (the guide: 1e3 R_eff^2 = 35.15625),
// marshall's twisting values at rest as twisting yade kr 423 eta 0.086, and here the rolling
// dashpot's gamma on the twist too (marshall's own is 5e-6).
std::string drum_law(double gamma)
{
  return "jkr 1e5 0.3 50 damping kk 4.78e-3 tangential tti 0.5 eta 2.26e-3 rolling yade kr "
         "35.15625 eta 0.05 damp " + num(gamma) + " twisting yade kr 423 eta 0.086 damp " +
      num(gamma);
}

// The overlap at which a JKR contact of effective radius Rbar pushes with no force: (J2) of
// contact/adhesion.hpp is 0 at a^{3/2} = 3 Rbar g, g = sqrt(pi gamma/Ebar), and (J1) gives delta.
double jkr_rest_overlap(double Ebar, double Rbar, double gamma)
{
  const double g = std::sqrt(M_PI * gamma / Ebar), a = std::cbrt(9.0 * Rbar * Rbar * g * g);
  return a * a / Rbar - 2.0 * g * std::sqrt(a);
}

// Two of the drum's smallest spheres (d 0.5) touching at rest at their JKR equilibrium overlap,
// normal along x, or one such sphere resting on the floor plane (the sphere's material, normal z),
// under drum_law(gamma); sphere 1 spun with 1 rad/s about `axis`, no gravity. The largest
// rotational energy over `steps` steps of dt, relative to the start, and the last.
struct SpinDown {
  double highest, last;
};
SpinDown drum_spin_down(double gamma, double dt, const std::string &axis, bool wall, int steps)
{
  const double Ebar = 1e5 / (2.0 * (1.0 - 0.3 * 0.3));    // also a sphere on a half-space
  const double rest = jkr_rest_overlap(Ebar, wall ? 0.25 : 0.125, 50.0);
  deck::Lammps lmp;
  const std::string file =
      std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
      "_spin_down.txt";
  lmp.command(deck::lj_sphere_box("-2 2 -2 2 -2 2"));
  lmp.command(wall ? "create_atoms 1 single 0 0 " + num(0.25 - rest)
                   : "create_atoms 1 single 0 0 0\ncreate_atoms 1 single " + num(0.5 - rest) +
                         " 0 0");
  lmp.command("set group all diameter 0.5\nset group all density 1\nvelocity all set 0 0 0\n"
              "set atom 1 omega " + axis + "\npair_style granular/exact\npair_coeff * * " +
              drum_law(gamma));
  if (wall) lmp.command("fix floor all wall/gran/exact " + drum_law(gamma) + " zplane 0 NULL wall 1e5 0.3");
  lmp.command("fix integrate all nve/sphere\ncompute erot all erotate/sphere\ntimestep " + num(dt) +
              "\nfix record all print 1 \"$(c_erot:%.17g)\" file " + file + " screen no\nrun " +
              std::to_string(steps));
  std::ifstream in(file);
  std::string line;
  double e0 = NAN, highest = 0.0, last = NAN;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const double e = std::stod(line);
    if (std::isnan(e0)) e0 = e;    // the first record: the step of the setup
    highest = std::fmax(highest, e / e0);
    last = e / e0;
  }
  return {highest, last};
}

}    // namespace

// Issue 47, item 1: the rolling and twisting dashpots never add energy. With the drum's port
// (drum_law) a = gamma dt (1/I_i + 1/I_j) is 43 between two of its smallest spheres at the deck's
// dt (21 on the floor); the dashpot applied as gamma w, the form before, multiplied their relative
// spin by 1 - a each step and raised the rotational energy 1.6e6-fold within 3 steps (twisting
// 7.9e3-fold; at 10 gamma 1.9e5 and 8.1e5; on the floor 1.8e5 and 3.5e4, and 1.4e5 and 3.8e5).
// Stepped exactly now (notes: Yade moments, "Dashpot
// step"), the rotational energy never exceeds its start over 2000 steps: rolling (spin about a
// tangent) and twisting (about the normal), at the deck's gamma and 10 times it, at the deck's dt
// and twice it (a = 86 and 860; the twisting spring is then past s = 1, where the dashpot is
// held at critical damping; the tangential spring limits a rolling pair to dt < 2.4e-3), on a
// sphere partner and on a wall.
TEST(DeckCatalogue, MomentDashpotsOfThePortedDrumNeverAddEnergy)
{
  const struct {
    const char *name, *axis;
    bool wall;
  } cases[] = {{"pair, rolling", "0 1 0", false},
               {"pair, twisting", "1 0 0", false},
               {"wall, rolling", "1 0 0", true},
               {"wall, twisting", "0 0 1", true}};
  for (const auto &c : cases)
    for (double gamma : {35.15625, 351.5625})
      for (double dt : {1e-3, 2e-3}) {
        SCOPED_TRACE(std::string(c.name) + ", gamma " + num(gamma) + ", dt " + num(dt));
        const SpinDown d = drum_spin_down(gamma, dt, c.axis, c.wall, 2000);
        std::printf("  %s, gamma %g, dt %g: rotational energy at most %.15f of its start, at "
                    "the end %.3e\n", c.name, gamma, dt, d.highest, d.last);
        EXPECT_LE(d.highest, 1.0 + 1e-12);
        EXPECT_LT(d.last, 1.0);
      }
}

// examples/port_restitution: LAMMPS' own pair granular (hertz/material, damping
// coeff_restitution, mindlin) and its port by the conversion guide (hertz, damping tsuji en e
// exact, dd) give the same head-on collision: the same restitution, 0.8 as requested, and the
// same velocities at every output to round-off.
TEST(DeckCatalogue, PortedRestitutionDeckMatchesLammpsGranular)
{
  int status = 0;
  const std::string log = deck::run_example("port_restitution", "in.port_restitution", &status);
  ASSERT_EQ(status, 0) << "see " << log;
  const std::string dir = deck::source_path("examples/port_restitution");
  const std::string out = deck::read_text(log);
  auto restitution = [&](const std::string &law) {
    const std::string marker = "RESULT " + law + ": restitution ";
    const auto at = out.find(marker);
    return at == std::string::npos ? NAN : std::strtod(out.c_str() + at + marker.size(), nullptr);
  };
  const double lammps = restitution("granular"), ported = restitution("exact");
  std::printf("  restitution: LAMMPS granular %.10f, granular/exact %.10f\n", lammps, ported);
  EXPECT_NEAR(lammps, 0.8, 1e-6);
  EXPECT_NEAR(ported, lammps, 1e-12);
  std::ifstream a(dir + "/granular.dat"), b(dir + "/exact.dat");
  double worst = 0.0;
  int rows = 0;
  for (std::string la, lb; std::getline(a, la) && std::getline(b, lb); rows++) {
    std::istringstream sa(la), sb(lb);
    double va[4], vb[4];
    for (int k = 0; k < 4; k++) sa >> va[k], sb >> vb[k];
    worst = std::fmax(worst, std::fmax(std::fabs(va[1] - vb[1]), std::fabs(va[2] - vb[2])));
  }
  EXPECT_GT(rows, 300);
  EXPECT_LE(worst, 1e-12);
}

// The Jaeger contact takes the catalogue's dashpots built on the Hertz spring (LAMMPS'
// hertz/material + mindlin + coeff_restitution ports to hertz E nu damping tsuji en e exact
// tangential jaeger mu): head-on (no tangential movement) its collision is the catalogue Hertz
// law's with the same dashpot, to roundoff (the Jaeger normal force C_H (delta/2)^{3/2} is
// K_HZ delta^{3/2}), with bshp and tsuji, and with limit_damping (the force then never pulls,
// and the rebound is a little faster than e); the requested restitution 0.8 to the exact form's
// 1e-4; on a rigid wall the same (the dashpot sees the sphere's mass). damping restitution (built
// on the linear spring) is refused.
TEST(DeckCatalogue, JaegerTakesTheHertzDashpots)
{
  const double t_c = 6.0445997e-6;
  for (const char *damping : {"tsuji en 0.8 exact", "bshp 1e-7", "tsuji en 0.8 exact|limit"}) {
    SCOPED_TRACE(damping);
    std::string words = damping, options;
    if (words.find("|limit") != std::string::npos) {
      words.resize(words.find('|'));
      options = " limit_damping";
    }
    const std::string with = "hertz 70e9 0.25 damping " + words + " tangential ";
    const Collision jaeger =
        head_on(glass_pair(with + "jaeger 0.3" + options), t_c / 20000, 1.2 * t_c);
    const Collision dd = head_on(glass_pair(with + "dd 0.3" + options), t_c / 20000, 1.2 * t_c);
    std::printf("  %s: e jaeger %.12f, catalogue dd %.12f; T_c %.9g, %.9g\n", damping,
                jaeger.restitution, dd.restitution, jaeger.duration, dd.duration);
    EXPECT_NEAR(jaeger.restitution, dd.restitution, 1e-12);
    EXPECT_EQ(jaeger.duration, dd.duration);
    EXPECT_NEAR(jaeger.max_overlap / dd.max_overlap, 1.0, 1e-12);
    if (options.empty() && words.find("tsuji") != std::string::npos)
      EXPECT_NEAR(jaeger.restitution, 0.8, 1e-4);
    if (!options.empty()) EXPECT_GT(jaeger.restitution, 0.8 + 1e-3);
  }
  // on a rigid wall: a sphere at 0.5 m/s onto z = 0 from 5e-7 m away, 25,000 steps of 3e-10 s
  auto rebound = [](const std::string &tangential) {
    deck::Lammps lmp;
    const std::string law = "hertz 70e9 0.25 damping tsuji en 0.8 exact tangential " + tangential;
    lmp.command(deck::si_sphere_box("-5e-3 5e-3 -5e-3 5e-3 0 5e-3") +
                "create_atoms 1 single 0 0 1.0005e-3\nset group all diameter 2e-3\n"
                "set group all density 2500\nvelocity all set 0 0 -0.5\n"
                "pair_style granular/exact\npair_coeff * * " + law +
                "\nfix w all wall/gran/exact " + law + " zplane 0 NULL wall rigid\n"
                "fix integrate all nve/sphere\ntimestep 3e-10\nvariable vz equal vz[1]\n"
                "run 25000");
    return lmp.variable("vz");
  };
  const double jaeger = rebound("jaeger 0.3"), dd = rebound("dd 0.3");
  std::printf("  rigid wall: e jaeger %.12f, catalogue dd %.12f\n", jaeger / 0.5, dd / 0.5);
  EXPECT_NEAR(jaeger, dd, 1e-12 * 0.5);
  EXPECT_NEAR(jaeger / 0.5, 0.8, 1e-4);

  deck::Lammps lmp;
  lmp.command(deck::kEmptyGranularBox);
  EXPECT_NE(lmp.error_of("pair_coeff * * hertz 70e9 0.25 damping restitution 0.8 tangential "
                         "jaeger 0.3")
                .find("damping restitution requires normal hooke ('tangential jaeger' is built "
                      "on the Hertz contact"),
            std::string::npos);
}
