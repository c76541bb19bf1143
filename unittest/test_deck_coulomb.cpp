// Deck tests of `tangential coulomb`, exact Coulomb friction as a constraint (Sakamaki,
// Krengel, Mueller, Chen & Matuttis 2021): the incline, rolling and slide-to-roll cases (a) and
// (d) of doc/design_notes.md, "Coulomb checks" (cited as "check (x)"), against their closed
// forms, and the heap and tetrahedron cases (c1), (c2).
#include "contact_slip.hpp"
#include "deck_util.hpp"
#include "kokkos/coulomb_newton_parallel.hpp"
#include "device/coulomb_problem.hpp"
#include "device/coulomb_stuck_system.hpp"

#include "fix.h"
#include "lammps.h"
#include "modify.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <vector>
#include <string>

namespace {

const std::string kIncline = deck::source_path("unittest/decks/in.coulomb_incline");
constexpr double kR = 0.01, kDensity = 1000.0, kKn = 1e4, kG = 9.81, kDt = 2e-5;
const double kMass = kDensity * 4.0 / 3.0 * M_PI * kR * kR * kR;
const double kInertia = 0.4 * kMass * kR * kR;

struct Incline {
  double ratio, mu;
  double alpha() const { return std::atan(ratio * mu); }
  // the contact point is in the middle of the overlap: lever rho = R - delta/2
  double rho() const { return kR - 0.5 * kMass * kG * std::cos(alpha()) / kKn; }
  double sliding_acceleration() const
  {
    return kG * (std::sin(alpha()) - mu * std::cos(alpha()));
  }
  double rolling_acceleration() const
  {
    return kG * std::sin(alpha()) / (1.0 + kInertia / (kMass * rho() * rho()));
  }
};

std::string incline(const Incline &c, int rotating, double v0 = 0.0)
{
  return "variable ratio index " + std::to_string(c.ratio) + "\nvariable mu index " +
      std::to_string(c.mu) + "\nvariable rot index " + std::to_string(rotating) +
      "\nvariable v0 index " + std::to_string(v0) + "\ninclude " + kIncline + "\n";
}

// spin about y of the (one) sphere
double spin_y(deck::Lammps &lmp)
{
  auto **omega = static_cast<double **>(lammps_extract_atom(lmp.handle(), "omega"));
  return omega[0][1];
}

std::string run_for(double seconds)
{
  return "run " + std::to_string(std::lround(seconds / kDt)) + "\n";
}

}    // namespace

// Check (a1), the paper's block (a sphere that does not rotate): below the friction angle it
// stays exactly at rest (the paper's block crept ~2 % of its size), at the friction angle it
// keeps a given speed, above it slides at g(sin a - mu cos a).
TEST(DeckCoulomb, NonRotatingSphereOnInclineRestsGlidesOrSlides)
{
  const double size = 2.0 * kR;
  {
    deck::Lammps lmp;
    lmp.command(incline({0.8, 0.6}, 0) + run_for(2.0));
    EXPECT_LE(std::fabs(lmp.variable("x")), 1e-12 * size) << "creep below the friction angle";
    EXPECT_EQ(lmp.variable("stuck"), 1.0);
  }
  {
    deck::Lammps lmp;
    lmp.command(incline({1.0, 0.6}, 0, 0.1) + run_for(2.0));
    EXPECT_NEAR(lmp.variable("vx"), 0.1, 1e-10 * 0.1) << "uniform motion at the friction angle";
  }
  {
    const Incline c{1.2, 0.6};
    deck::Lammps lmp;
    lmp.command(incline(c, 0) + run_for(2.0));
    EXPECT_NEAR(lmp.variable("vx") / 2.0, c.sliding_acceleration(),
                1e-6 * c.sliding_acceleration());
  }
}

// Check (a1) slip -> stick: thrown downhill at 0.8 mu, it decelerates at g(mu cos a - sin a),
// stops where v0^2/(2 a) puts it, and then stays exactly there.
TEST(DeckCoulomb, SphereThrownDownhillStopsAndStays)
{
  const Incline c{0.8, 0.6};
  const double v0 = 0.5, deceleration = -c.sliding_acceleration();
  const double stop = v0 * v0 / (2.0 * deceleration);
  deck::Lammps lmp;
  lmp.command(incline(c, 0, v0) + run_for(1.0));
  const double x1 = lmp.variable("x");
  EXPECT_NEAR(x1, stop, 1e-6 * stop);
  EXPECT_LE(std::fabs(lmp.variable("vx")), 1e-15 * v0) << "at rest to roundoff";
  lmp.command(run_for(1.0));
  EXPECT_LE(std::fabs(lmp.variable("x") - x1), 1e-12 * 2.0 * kR) << "creep after stopping";
}

// Check (a2): a free sphere rolls without slip at g sin a/(1 + I/(m rho^2)) while
// tan a <= (7/2) mu, and slides at g(sin a - mu cos a) above; rolling, static friction does no
// work (kinetic energy = m g sin a * distance).
TEST(DeckCoulomb, FreeSphereOnInclineRollsOrSlides)
{
  const double T = 0.2;
  for (const Incline &c : {Incline{0.8, 0.6}, Incline{1.2, 0.6}, Incline{3.4, 0.1}}) {
    deck::Lammps lmp;
    lmp.command(incline(c, 1) + run_for(T));
    const double a = c.rolling_acceleration();
    EXPECT_NEAR(lmp.variable("vx") / T, a, 1e-6 * a) << "rolling, tan a = " << c.ratio << " mu";
    EXPECT_NEAR(spin_y(lmp) * c.rho(), lmp.variable("vx"), 1e-9 * lmp.variable("vx"))
        << "no slip";
    const double v = lmp.variable("vx"), w = spin_y(lmp);
    const double kinetic = 0.5 * kMass * v * v + 0.5 * kInertia * w * w;
    const double work = kMass * kG * std::sin(c.alpha()) * lmp.variable("x");
    EXPECT_NEAR(kinetic, work, 1e-6 * work) << "static friction does no work";
  }
  for (const Incline &c : {Incline{3.6, 0.1}, Incline{7.2, 0.1}}) {
    deck::Lammps lmp;
    lmp.command(incline(c, 1) + run_for(T));
    const double a = c.sliding_acceleration();
    EXPECT_NEAR(lmp.variable("vx") / T, a, 1e-6 * a) << "sliding, tan a = " << c.ratio << " mu";
  }
}

// Check (d): launched sliding on a flat floor, the sphere starts rolling at
// t* = v0/(mu g (1 + m rho^2/I)) with v_f = v0/(1 + I/(m rho^2)) (5 v0/7 for rho = R); the
// friction then vanishes, and the energy it dissipated is the kinetic energy lost.
TEST(DeckCoulomb, SlidingSphereStartsRollingAtAnalyticTime)
{
  const Incline flat{0.0, 0.5};
  const double v0 = 1.0, rho = flat.rho();
  const double t_star = v0 / (flat.mu * kG * (1.0 + kMass * rho * rho / kInertia));
  const double v_final = v0 / (1.0 + kInertia / (kMass * rho * rho));
  deck::Lammps lmp;
  lmp.command(incline(flat, 1, v0) +
              "variable t equal time\n"
              "fix record all print 1 \"${t} ${stuck}\" file slide_to_roll.dat screen no\n" +
              run_for(0.1));
  std::ifstream in("slide_to_roll.dat");
  std::string header;
  std::getline(in, header);
  double t, stuck, t_stick = -1.0;
  while (in >> t >> stuck)
    if (stuck == 1.0) {
      t_stick = t;
      break;
    }
  EXPECT_NEAR(t_stick, t_star, kDt) << "rolling begins within one step of t*";
  const double v = lmp.variable("vx");
  EXPECT_NEAR(v, v_final, 1e-6 * v_final);
  const double w = spin_y(lmp);
  const double lost = 0.5 * kMass * v0 * v0 - (0.5 * kMass * v * v + 0.5 * kInertia * w * w);
  std::printf("  t_stick - t* = %.3g dt; v_f rel. error %.3g; dissipated %.10g, lost %.10g\n",
              (t_stick - t_star) / kDt, v / v_final - 1.0, lmp.variable("dissipated"), lost);
  EXPECT_NEAR(lmp.variable("dissipated"), lost, 1e-9 * lost);
  lmp.command(run_for(0.1));
  EXPECT_NEAR(lmp.variable("vx"), v, 1e-12 * v) << "no friction once rolling";
}

// Check (c2): the tetrahedron holds exactly when its top contacts can carry the ratio
// mu_c = tan(theta/2), sin(theta) = (1+gap)/sqrt(3) (torque balance of a base sphere): it
// stands at 1.02 mu_c with elastic settling only, collapses at 0.98 mu_c, and at mu = 0.6 the
// top contacts mobilise |F_t|/F_n = mu_c.
TEST(DeckCoulomb, TetrahedronHoldsExactlyAboveItsFrictionThreshold)
{
  const double gap = 0.01;
  const double mu_c = std::tan(0.5 * std::asin((1.0 + gap) / std::sqrt(3.0)));
  const std::string deck = deck::source_path("unittest/decks/in.coulomb_tetrahedron");
  auto drop_after = [&](double mu, double seconds, double *mobilised) {
    deck::Lammps lmp;
    lmp.command("variable mu index " + std::to_string(mu) + "\ninclude " + deck + "\n" +
                run_for(seconds));
    if (mobilised) *mobilised = lmp.variable("mobilised");
    return lmp.variable("drop");
  };
  EXPECT_LT(drop_after(1.02 * mu_c, 0.5, nullptr), 1e-3 * 2.0 * kR) << "holds at 1.02 mu_c";
  EXPECT_GT(drop_after(0.98 * mu_c, 0.5, nullptr), 0.1 * kR) << "collapses at 0.98 mu_c";
  double ratio = 0.0;
  drop_after(0.6, 0.3, &ratio);
  EXPECT_NEAR(ratio, mu_c, 0.01 * mu_c) << "mobilised friction at the top contacts";
  std::printf("  mu_c = %.5f, mobilised at mu = 0.6: %.5f\n", mu_c, ratio);
}

// The pair's contact stress sum_c l (x) f (global vector 7-15) includes the friction: on the
// resting tetrahedron the three top contacts carry the top sphere's weight, so its zz component is
// (z_top - z_base) m g, and with no other torque on the top sphere the sum is symmetric. The
// normal forces alone carry only part of the weight (the friction is mobilised at mu_c).
TEST(DeckCoulomb, ContactStressIncludesTheFriction)
{
  deck::Lammps lmp;
  lmp.command("variable mu index 0.6\ninclude " +
              deck::source_path("unittest/decks/in.coulomb_tetrahedron") + R"(
compute         stress all pair granular/exact
variable        height equal z[4]-z[1]
thermo_style    custom step c_stress[15] c_stress[8] c_stress[10] c_stress[9] c_stress[13] c_stress[12] c_stress[14]
)" + run_for(0.3));
  auto component = [&](int k) {
    return lmp.variable("s" + std::to_string(k));
  };
  lmp.command("variable s15 equal c_stress[15]\nvariable s8 equal c_stress[8]\nvariable s10 equal "
              "c_stress[10]\nvariable s9 equal c_stress[9]\nvariable s13 equal c_stress[13]\n"
              "variable s12 equal c_stress[12]\nvariable s14 equal c_stress[14]");
  const double weight = lmp.variable("m") * 9.81, height = lmp.variable("height");
  const double zz = component(15), scale = height * weight;
  std::printf("  zz %.12e, (z_top - z_base) m g %.12e; antisymmetric xy %.1e xz %.1e yz %.1e\n", zz,
              scale, component(8) - component(10), component(9) - component(13),
              component(12) - component(14));
  EXPECT_NEAR(zz, scale, 1e-9 * scale);
  EXPECT_NEAR(component(8), component(10), 1e-9 * scale);
  EXPECT_NEAR(component(9), component(13), 1e-9 * scale);
  EXPECT_NEAR(component(12), component(14), 1e-9 * scale);
}

// The friction must see every other force (check (e5)): a force fix defined after the pair style,
// and after a first run, is still balanced by static friction below the limit, and beyond it
// the sphere slides at (F - mu m g)/m. The friction's dissipation total survives the friction
// fix being moved behind the new fix.
TEST(DeckCoulomb, FrictionSeesForceFixesDefinedLater)
{
  const Incline flat{0.0, 0.6};
  deck::Lammps lmp;
  // thrown along the floor: it stops (the friction dissipates all kinetic energy), then rests
  lmp.command(incline(flat, 0, 0.2) + run_for(0.1));
  const double dissipated = lmp.variable("dissipated");
  EXPECT_NEAR(dissipated, 0.5 * kMass * 0.2 * 0.2, 1e-9 * dissipated);
  EXPECT_LE(std::fabs(lmp.variable("vx")), 1e-15);
  const double x0 = lmp.variable("x");

  lmp.command("fix push all addforce $(0.5*v_m*v_g) 0 0\n" + run_for(0.2));
  EXPECT_LE(std::fabs(lmp.variable("x") - x0), 1e-12 * 2.0 * kR)
      << "static friction balances a push below mu m g";
  EXPECT_NEAR(lmp.variable("dissipated"), dissipated, 1e-12 * dissipated)
      << "the total is kept when the friction fix moves behind the new fix";

  // what fix_modify set moves with the fix: an export asked for before the new fix is written
  std::remove("moved_fix.bin");
  lmp.command("fix_modify GE_COULOMB export moved_fix.bin virial no\nunfix push\nfix push all "
              "addforce $(0.8*v_m*v_g) 0 0\n" + run_for(0.2));
  const double a = (0.8 - 0.6) * kG;
  EXPECT_NEAR(lmp.variable("vx") / 0.2, a, 1e-6 * a) << "sliding beyond the limit";
  EXPECT_FALSE(deck::read_text("moved_fix.bin").empty()) << "the export survives the move";
  auto *friction = static_cast<LAMMPS_NS::LAMMPS *>(lmp.handle())->modify->get_fix_by_id("GE_COULOMB");
  ASSERT_NE(friction, nullptr);
  EXPECT_EQ(friction->thermo_virial, 0) << "fix_modify virial no survives the move";
}

// Every malformed `tangential coulomb` and every unsupported set-up stops with a message that
// says what is wrong.
TEST(DeckCoulomb, BadInputIsRejected)
{
  const deck::BadInput coeffs[] = {
      {"pair_coeff * * hooke 1e4 tangential coulomb", "tangential coulomb expects 1 value"},
      {"pair_coeff * * hooke 1e4 tangential coulomb -0.5", "mu = -0.5 must be >= 0"},
      {"pair_coeff * * hooke 1e4 tangential coulomb 0.5 sweeps 0", "must be an integer >= 1"},
      {"pair_coeff * * hooke 1e4 tangential coulomb 0.5 sweeps", "coulomb sweeps expects 1 value"},
      {"pair_coeff * * hooke 1e4 tangential coulomb 0.5 sweeps 2.5", "must be an integer >= 1, not '2.5'"},
      {"pair_coeff * * hooke 1e4 tangential coulomb 0.5 sweeps 5 sweeps 10", "'sweeps' is given twice"},
      {"pair_coeff * * hooke 1e4 tangential coulomb 0.5 rolling yade kr 1 eta 0.5 sweeps 4", "'sweeps' is out of place"},
      {"pair_coeff * * hooke 1e4 tangential coulomb 0.5 tol 0", "tol (largest force change per sweep, relative to mu F_n) = 0 must be in (0, 1)"},
      {"pair_coeff * * hooke 1e4 tangential coulomb 0.5 tol 2", "must be in (0, 1)"},
      {"pair_coeff * * hooke 1e4 tangential coulomb 0.5 warm maybe",
       "coulomb warm must be 'extrapolate' (the previous step's forces plus their last change), "
       "'yes' (the previous step's forces) or 'no' (zero), not 'maybe'"},
      {"pair_coeff * * hooke 1e4 tangential coulomb 0.5 solver sor", "coulomb solver must be 'gs' (projected Gauss-Seidel), 'apgd' (accelerated projected gradient) or 'newton' (APGD, then Newton steps by conjugate gradients), not 'sor'"},
      {"pair_coeff * * hooke 1e4 tangential coulomb 0.5 solver", "coulomb solver expects 1 value"},
      {"pair_coeff * * hooke 1e4 tangential coulomb 0.5 solver apgd solver gs", "'solver' is given twice"},
      {"pair_coeff * * hooke 1e4 tangential coulomb 0.5 rolling yade kr 1 eta 0.5 solver apgd", "'solver' is out of place"},
      {"pair_coeff * * hooke 1e4 tangential coulomb 0.5 kinematics exact", "coulomb kinematics must be 'geometric', 'none' or 'material'"},
      {"pair_coeff * * hooke 1e4 tangential coulomb 0.5 slipdir trial", "unexpected argument 'slipdir' after 'tangential coulomb <mu>'"},
      {"pair_coeff * * hooke 1e4 tangential coulomb 0.5 rolling yade beta 1 eta 0.5", "needs a tangential model with a linear stiffness"},
  };
  deck::expect_rejected(deck::kEmptyGranularBox, coeffs);

  const std::string atoms = std::string(R"(
units lj
atom_style sphere
boundary p p f
region box block 0 4 0 4 0 4
create_box 2 box
create_atoms 1 single 1 1 1
create_atoms 1 single 1.9 1 1
comm_modify vel yes
)");
  const deck::BadInput setups[] = {
      {"pair_style granular/exact history compact\npair_coeff * * hooke 1000 tangential coulomb 0.5\nfix i all nve/sphere\nrun 0",
       "cannot be combined with 'history compact'"},
      {"pair_style granular/exact\npair_coeff 1 1 hooke 1000 tangential coulomb 0.5\npair_coeff 2 2 hooke 1000 tangential coulomb 0.5 sweeps 3\npair_coeff 1 2 hooke 1000 tangential coulomb 0.5\nfix i all nve/sphere\nrun 0",
       "one friction solver for all contacts"},
      {"pair_style granular/exact\npair_coeff * * hooke 1000 tangential coulomb 0.5\nfix w all wall/gran/exact hooke 1000 tangential coulomb 0.5 tol 1e-6 zplane 0 NULL\nfix i all nve/sphere\nrun 0",
       "(fix w differs)"},
      {"pair_style granular/exact\npair_coeff * * hooke 1000 tangential coulomb 0.5\nfix i all nve/sphere\nrun_style respa 2 2\nrun 0",
       "does not support run_style respa"},
      {"pair_style granular/exact\npair_coeff * * hooke 1000 tangential sliding 0.5\nfix f all COULOMB_FRICTION/EXACT\nfix i all nve/sphere\nrun 0",
       "internal to pair granular/exact"},
      {"pair_style granular/exact\npair_coeff * * hooke 1000 tangential coulomb 0.5\npair_modify compute no\nfix i all nve/sphere\nrun 0",
       "needs the pair computed on every step"},
      {"pair_style granular/exact\npair_coeff * * hooke 1000 tangential coulomb 0.5\nfix_modify GE_COULOMB preconditioner jacobi",
       "Illegal fix_modify GE_COULOMB preconditioner jacobi: expected auto, gauss-seidel or diagonal"},
      {"pair_style granular/exact\npair_coeff * * hooke 1000 tangential coulomb 0.5\nfix_modify GE_COULOMB preconditioner",
       "Illegal fix_modify GE_COULOMB preconditioner (missing): expected auto"},
      {"pair_style granular/exact\npair_coeff * * hooke 1000 tangential coulomb 0.5\nfix_modify GE_COULOMB graphs maybe",
       "Illegal fix_modify GE_COULOMB graphs maybe: expected yes or no"},
  };
  deck::expect_rejected(atoms, setups);
  const deck::BadInput newton_off[] = {
      {"pair_style granular/exact\npair_coeff * * hooke 1000 tangential coulomb 0.5\nfix i all nve/sphere\nrun 0",
       "'tangential coulomb' needs 'newton on'"}};
  deck::expect_rejected("newton off" + atoms, newton_off);

  // legal but likely a mistake: a Newton budget that never reaches a Newton step warns, with
  // the numbers, also where newton is the solver by default (a small budget of an older deck,
  // which meant Gauss-Seidel then); one that does, and Gauss-Seidel's, do not
  const std::pair<const char *, bool> budgets[] = {{"solver newton sweeps 20", true},
                                                   {"sweeps 20", true},
                                                   {"solver newton sweeps 51", false},
                                                   {"solver gs sweeps 20", false}};
  int case_number = 0;
  for (const auto &[options, warns] : budgets) {
    const std::string log = "newton_budget_" + std::to_string(++case_number) + ".log";
    {
      deck::Lammps lmp(log);
      lmp.command(atoms + "pair_style granular/exact\npair_coeff * * hooke 1000 tangential "
                          "coulomb 0.5 " + options + "\nfix i all nve/sphere\nrun 0");
    }
    const bool warned = deck::read_text(log).find(
                            "with solver newton (the default) and sweeps 20: its first 50 "
                            "iterations are APGD") != std::string::npos;
    EXPECT_EQ(warned, warns) << options;
  }

  // a preconditioner asked for the solves in a Kokkos execution space, where the fix's own loops
  // solve (here: the host style) warns once, also where a later post_force fix moves the
  // friction fix behind it between the runs; auto does not
  for (const char *asked : {"diagonal", "auto"}) {
    const std::string log = std::string("preconditioner_") + asked + ".log";
    {
      deck::Lammps lmp(log);
      lmp.command(atoms + "pair_style granular/exact\npair_coeff * * hooke 1000 tangential "
                          "coulomb 0.5\nfix_modify GE_COULOMB preconditioner " + asked +
                  "\nfix i all nve/sphere\nrun 0\nrun 0\nfix later all setforce NULL NULL NULL"
                  "\nrun 0");
    }
    const std::string text = deck::read_text(log);
    const std::string warning = "WARNING: fix_modify GE_COULOMB preconditioner has no effect in "
                                "this run: its friction is solved by the fix's own loops (pair "
                                "granular/exact, or /kk on one host thread)";
    const size_t first = text.find(warning);
    EXPECT_EQ(first != std::string::npos, std::string(asked) == "diagonal") << asked;
    if (first != std::string::npos)
      EXPECT_EQ(text.find(warning, first + 1), std::string::npos) << "said once";
  }
}

namespace {

const std::string kHeap = deck::source_path("unittest/decks/in.coulomb_heap");
const std::string kHeapRestart = deck::source_path("unittest/decks/in.coulomb_heap_restart");
const char *const kConverged = "sweeps 200 tol 1e-10";
// the invariance runs from the settled heap: sweeps that never stop short of the tolerance
const char *const kFullyConverged = "sweeps 5000 tol 1e-10";

// commands that measure the largest displacement of a heap sphere from now on, in diameters
const char *const kCreepProbe = R"(
fix             hold heap store/state 0 x y z
variable        dx2 atom (x-f_hold[1])^2+(y-f_hold[2])^2+(z-f_hold[3])^2
compute         largest_dx2 heap reduce max v_dx2
variable        creep equal sqrt(c_largest_dx2)/v_d
thermo_style    custom step v_creep
)";

// the heap continued from a restart file with the fully converged solver
std::string heap_from(const std::string &restart_file)
{
  return "variable restart index " + restart_file + "\nvariable options index \"" +
      kFullyConverged + "\"\ninclude " + kHeapRestart + "\n";
}

std::string heap(const std::string &options)
{
  return "variable options index \"" + options + "\"\ninclude " + kHeap + "\n";
}

// heap positions (id -> x y z) in a file named `out`
void dump_positions(deck::Lammps &lmp, const std::string &out)
{
  lmp.command("write_dump heap custom " + out + " id x y z modify format float %.17g sort id");
}

// largest difference of the heap positions in two dumps; `shift` (x and y) is what b was moved by
// in a box periodic in x and y with period `period` (0: not periodic)
double largest_position_difference(const std::string &a, const std::string &b, double shift = 0.0,
                                   double period = 0.0)
{
  const auto pa = deck::read_atom_dump(a), pb = deck::read_atom_dump(b);
  EXPECT_EQ(pa.size(), pb.size());
  double worst = 0.0;
  for (const auto &[id, row] : pa) {
    if (!pb.count(id)) return INFINITY;
    for (int k = 0; k < 3; k++) {
      double difference = pb.at(id)[k] - row[k];
      if (k < 2 && period > 0.0) {
        difference -= shift;
        difference -= period * std::round(difference / period);
      }
      worst = std::max(worst, std::fabs(difference));
    }
  }
  return worst;
}

}    // namespace

// Checks (c1), (b), (e3) and (e4) on a small heap on a rough floor: settled with converged sweeps
// it stops creeping (<= 1e-9 d in 1 s); it continues through a restart as if uninterrupted; and it
// is the same heap on 1 and 2 processes (contacts across the sub-domain boundary, sweep tolerance
// 1e-10), and on 4 processes in a 2 x 2 grid (copies of an atom held by diagonal neighbours, whose
// increments reach the owner through a process in between).
TEST(DeckCoulomb, SettledHeapDoesNotCreepAndIsInvariant)
{
  {
    deck::Lammps lmp;
    lmp.command(heap(kConverged) + run_for(1.0) + "write_restart heap_settled.restart\n" +
                kCreepProbe + run_for(1.0));
    const double creep = lmp.variable("creep");
    std::printf("  converged sweeps: creep %.3e d in 1 s, mean sweeps %.1f, %g contacts\n", creep,
                lmp.variable("sweeps"), lmp.variable("contacts"));
    EXPECT_LE(creep, 1e-9);
    EXPECT_EQ(lmp.variable("stuck"), lmp.variable("contacts"));
  }
  const std::string restart = heap_from("heap_settled.restart");
  const int n = 2000;
  {
    deck::Lammps lmp;
    lmp.command(restart + "run " + std::to_string(n) + "\nwrite_restart heap_half.restart\nrun " +
                std::to_string(n));
    dump_positions(lmp, "heap_uninterrupted.atoms");
  }
  {
    deck::Lammps lmp;
    lmp.command(heap_from("heap_half.restart") + "run " + std::to_string(n));
    dump_positions(lmp, "heap_restarted.atoms");
  }
  const double d = 2.0 * kR;
  const double restart_difference =
      largest_position_difference("heap_uninterrupted.atoms", "heap_restarted.atoms");
  std::printf("  restart vs uninterrupted: %.3e d\n", restart_difference / d);
  EXPECT_LE(restart_difference, 1e-12 * d);

  // the same heap run on 1, 2 and 4 processes, and moved onto the corner of a box made periodic
  // in x and y (its copies are periodic images on 1 process, images on other processes on 4)
  struct Decomposition {
    const char *name;
    int ranks;
    const char *grid;
    bool on_periodic_corner;
  };
  const Decomposition runs[] = {{"serial", 1, "1 1 1", false},
                                {"2 ranks", 2, "2 1 1", false},
                                {"4 ranks (2 x 2)", 4, "2 2 1", false},
                                {"serial, periodic corner", 1, "1 1 1", true},
                                {"4 ranks (2 x 2), periodic corner", 4, "2 2 1", true}};
  const double box = 0.32, shift = 0.16;    // in.coulomb_heap's box, moved by half of it
  // (a run consumes the restarted per-atom data, which change_box needs first)
  const std::string move_to_corner = "run 0 post no\nchange_box all boundary p p f\n"
                                     "displace_atoms all move 0.16 0.16 0 units box\n";
  for (const Decomposition &r : runs) {
    const std::string name = "heap_np" + std::to_string(r.ranks) +
        (r.on_periodic_corner ? "_corner" : "");
    std::ofstream(name + ".in") << "processors " << r.grid << "\n"
                                << restart << (r.on_periodic_corner ? move_to_corner : "")
                                << "run " << 2 * n << "\n"
                                << "write_dump heap custom " << name
                                << ".atoms id x y z modify format float %.17g sort id\n";
    EXPECT_EQ(deck::run_mpi(r.ranks, name + ".in", "", name + ".log"), 0)
        << r.name << " failed: see " << name << ".log.out";
    if (&r == &runs[0]) continue;
    const double difference = largest_position_difference(
        "heap_np1.atoms", name + ".atoms", r.on_periodic_corner ? shift : 0.0,
        r.on_periodic_corner ? box : 0.0);
    std::printf("  serial vs %s: %.3e d\n", r.name, difference / d);
    EXPECT_LE(difference, 1e-10 * d) << r.name;
  }
}

// The paper's single direct pass (`solver gs sweeps 1 warm no`) leaves the heap creeping, at a
// level many orders above the converged sweeps' bound: the improvement is measured.
TEST(DeckCoulomb, SinglePassHeapCreeps)
{
  deck::Lammps lmp;
  lmp.command(heap("solver gs sweeps 1 warm no") + run_for(1.0) + kCreepProbe + run_for(1.0));
  const double creep = lmp.variable("creep");
  std::printf("  solver gs sweeps 1 warm no: creep %.3e d in 1 s\n", creep);
  EXPECT_GT(creep, 1e-6);
}

namespace {

// The fix's outputs of one step (GE_COULOMB's vector: [3] the last change, [5] the largest
// |v_t| of a stuck contact at this half step, [9] the natural residual, [10] the largest
// velocity a stuck contact keeps at the next half step; contacts and stuck contacts).
struct SolveRecord {
  double contacts, stuck, last_change, stuck_velocity_now, natural_residual, stuck_velocity_next;
};

std::vector<SolveRecord> record_steps(deck::Lammps &lmp, int steps, const std::string &file)
{
  lmp.command("fix record all print 1 \"$(f_GE_COULOMB[1]:%.17g) $(f_GE_COULOMB[2]:%.17g) "
              "$(f_GE_COULOMB[4]:%.17g) $(f_GE_COULOMB[5]:%.17g) $(f_GE_COULOMB[9]:%.17g) "
              "$(f_GE_COULOMB[10]:%.17g)\" file " + file + " screen no\nrun " +
              std::to_string(steps) + "\nunfix record");
  std::vector<SolveRecord> rows;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    SolveRecord r{};
    words >> r.contacts >> r.stuck >> r.last_change >> r.stuck_velocity_now >>
        r.natural_residual >> r.stuck_velocity_next;
    rows.push_back(r);
  }
  return rows;
}

}    // namespace

// The true error of a step's solve (item 1 of the solver issue): the natural residual
// |F - Pi(F - m_t s)|/(mu F_n), largest over the contacts, is zero exactly on a solution, and the
// velocity the stuck contacts keep at the next half step, tau |s|, is what the next step finds
// there. On the unsettled heap (contacts sliding, forming and ending) with the paper's single
// pass and with 3 sweeps, the prediction equals the next step's measured |v_t| of its stuck
// contacts wherever the set of stuck contacts did not change (to 1e-6); the residual is large
// (0.3 and 0.07 of mu F_n); with Gauss-Seidel run to 1e-12 it is below 1e-9 and the stuck
// contacts keep below 1e-12 m/s (g dt = 2e-4 m/s).
TEST(DeckCoulomb, TrueErrorOfTheSolveMatchesTheVelocities)
{
  struct Setting {
    const char *options;
    double least_residual, largest_residual;
  };
  const Setting settings[] = {{"solver gs sweeps 1 warm no", 0.1, 1.0},
                              {"solver gs sweeps 3", 0.01, 1.0},
                              {"sweeps 20000 tol 1e-12", 0.0, 1e-9}};
  for (const Setting &s : settings) {
    SCOPED_TRACE(s.options);
    deck::Lammps lmp;
    lmp.command(heap(s.options) + run_for(0.5));
    // (the first row is the run's setup, solved for a half step)
    auto rows = record_steps(lmp, 12, "true_error.txt");
    ASSERT_EQ(rows.size(), 13u);
    rows.erase(rows.begin());
    int compared = 0;
    double worst = 0.0, largest_residual = 0.0, least_residual = INFINITY, fastest = 0.0;
    for (size_t n = 0; n < rows.size(); n++) {
      largest_residual = std::fmax(largest_residual, rows[n].natural_residual);
      least_residual = std::fmin(least_residual, rows[n].natural_residual);
      fastest = std::fmax(fastest, rows[n].stuck_velocity_next);
      if (n + 1 == rows.size() || rows[n + 1].stuck != rows[n].stuck ||
          rows[n + 1].contacts != rows[n].contacts || rows[n].stuck_velocity_next < 1e-9)
        continue;
      compared++;
      worst = std::fmax(worst, std::fabs(rows[n + 1].stuck_velocity_now /
                                             rows[n].stuck_velocity_next - 1.0));
    }
    std::printf("  %s: natural residual %.3e to %.3e, next-half-step |v_t| of stuck contacts "
                "up to %.3e m/s; predicted vs found on %d steps: worst rel. difference %.3e\n",
                s.options, least_residual, largest_residual, fastest, compared, worst);
    EXPECT_GE(least_residual, s.least_residual);
    EXPECT_LE(largest_residual, s.largest_residual);
    if (s.least_residual > 0.0) {
      EXPECT_GE(compared, 3);
      EXPECT_LE(worst, 1e-6);
    } else {
      EXPECT_LE(fastest, 1e-12);
    }
  }
}

// A solve stops only when its true error is below tol: the last change (each contact's residual
// at its turn in a sweep, from partly updated totals) understates the error where convergence is
// slow, and used to stop the sweeps with natural residuals of several times tol. On the unsettled
// heap (contacts forming, sliding, sticking), with room for 20000 sweeps or iterations, every
// step ends with its natural residual at most tol, for both solvers (APGD's last change of 1e-5
// stopped it at a natural residual of 5.9e-5 before).
TEST(DeckCoulomb, SolveStopsOnlyWhenTheTrueErrorIsBelowTol)
{
  const double tol = 1e-5;
  for (const char *solver : {"gs", "apgd"}) {
    const std::string options = std::string("solver ") + solver + " sweeps 20000 tol 1e-5";
    SCOPED_TRACE(options);
    deck::Lammps lmp;
    lmp.command(heap(options) + run_for(0.5));
    auto rows = record_steps(lmp, 12, "stop_rule.txt");
    ASSERT_EQ(rows.size(), 13u);
    double largest = 0.0, largest_change = 0.0;
    for (const SolveRecord &r : rows) {
      largest = std::fmax(largest, r.natural_residual);
      largest_change = std::fmax(largest_change, r.last_change);
    }
    std::printf("  %s: largest natural residual %.3e, largest last change %.3e\n",
                options.c_str(), largest, largest_change);
    EXPECT_LE(largest, tol);
    EXPECT_GT(rows.back().contacts, 10.0);
  }
}

namespace {

// the commands that continue the bed of in.coulomb_bed from `restart` for `steps` steps with the
// friction `options`; variables residual (the largest natural residual of the last step) and
// iterations (the mean iterations per step)
std::string bed_run(const std::string &restart, const std::string &options, int steps)
{
  return "read_restart " + restart + R"(
comm_modify     vel yes
neighbor        0.2 bin
neigh_modify    delay 0 every 1 check yes
group           floor id <= 100
group           bed subtract all floor
pair_coeff      * * hooke 2000 damping viscous 10 tangential coulomb 0.5 )" + options + R"(
fix             gravity bed gravity 1.0 vector 0 0 -1
fix             integrate bed nve/sphere
timestep        0.002
variable        residual equal f_GE_COULOMB[9]
variable        iterations equal f_GE_COULOMB[7]
run             )" + std::to_string(steps) + "\n";
}

// velocities and spins of every atom (in the order of the IDs) after `steps` steps of the bed of
// in.coulomb_bed continued from `restart` with the friction `options`; the largest natural
// residual of the last step in *residual, the mean iterations per step in *iterations
std::vector<double> bed_motion(const std::string &restart, const std::string &options, int steps,
                               double *residual, double *iterations = nullptr)
{
  deck::Lammps lmp;
  lmp.command(bed_run(restart, options, steps));
  *residual = lmp.variable("residual");
  if (iterations) *iterations = lmp.variable("iterations");
  const int n = static_cast<int>(lammps_get_natoms(lmp.handle()));
  auto **v = static_cast<double **>(lammps_extract_atom(lmp.handle(), "v"));
  auto **omega = static_cast<double **>(lammps_extract_atom(lmp.handle(), "omega"));
  auto *tag = static_cast<int *>(lammps_extract_atom(lmp.handle(), "id"));
  std::vector<double> motion(6 * n, 0.0);
  for (int i = 0; i < n; i++)
    for (int k = 0; k < 3; k++) {
      motion[6 * (tag[i] - 1) + k] = v[i][k];
      motion[6 * (tag[i] - 1) + 3 + k] = omega[i][k];
    }
  return motion;
}

double largest_difference(const std::vector<double> &a, const std::vector<double> &b)
{
  double d = 0.0;
  for (size_t k = 0; k < a.size(); k++) d = std::fmax(d, std::fabs(a[k] - b[k]));
  return d;
}

}    // namespace

// A settled bed of 2,000 spheres (about 20 layers, 4,600 contacts): each solver run to tol moves
// it as the reference solved by Gauss-Seidel to 1e-12 does, to within what tol allows, and
// closer as tol shrinks. The friction forces of a bed need not be unique (redundant contacts),
// the motion is: the velocities and spins of all spheres after 3 steps are compared (the largest
// difference of a component, spins times the unit length, in g dt = 0.002: 1.4e-5 and 1.3e-7
// for tol 1e-6 and 1e-8 with Gauss-Seidel, 1.1e-5 and 2.8e-7 with APGD), and every solve ends
// with its natural residual below tol.
TEST(DeckCoulomb, BedConvergesToATightlySolvedReference)
{
  {
    deck::Lammps lmp;
    lmp.command("variable restart index coulomb_bed.restart\ninclude " +
                deck::source_path("unittest/decks/in.coulomb_bed"));
  }
  double residual = 0.0;
  const std::vector<double> reference =
      bed_motion("coulomb_bed.restart", "sweeps 1000000 tol 1e-12", 3, &residual);
  EXPECT_LE(residual, 1e-12);
  const double g_dt = 1.0 * 0.002;
  for (const char *solver : {"gs", "apgd", "newton"}) {
    double difference[2];
    const double tols[2] = {1e-6, 1e-8};
    for (int k = 0; k < 2; k++) {
      double iterations = 0.0;
      const std::vector<double> motion = bed_motion(
          "coulomb_bed.restart",
          std::string("solver ") + solver + " sweeps 1000000 tol " + deck::num(tols[k]), 3,
          &residual, &iterations);
      difference[k] = largest_difference(motion, reference);
      std::printf("  %s, tol %.0e: natural residual %.2e, largest difference from the "
                  "reference %.2e g dt, %.0f iterations per step\n",
                  solver, tols[k], residual, difference[k] / g_dt, iterations);
      EXPECT_LE(residual, tols[k]);
    }
    EXPECT_LE(difference[0], 1e-4 * g_dt) << solver;
    EXPECT_LE(difference[1], difference[0] / 20.0) << solver;
  }
}

// `solver newton` (APGD to find the face, then Newton steps on it by conjugate gradients
// preconditioned by symmetric Gauss-Seidel): on the settled bed it ends every step below tol
// with fewer iterations (APGD and CG together) than APGD alone (measured 5.2x fewer: 176
// against 921), and on 2 processes (its decisions taken on reduced values, each process
// sweeping its own contacts, the coupling through the other's contacts exchanged with the
// ghosts once per iteration) it moves the bed as on one, to what tol allows: the preconditioner
// differs with the decomposition, and CG stops at another iterate (measured 8.8e-9 g dt after 3
// steps, 240 iterations per step; the solves to 1e-8 of BedConvergesToATightlySolvedReference
// differ from the reference by up to 2.8e-7 g dt; without the exchanged coupling the 2
// processes took 1,335 iterations per step and differed by 2.8e-7 g dt, with a first APGD
// phase of 100).
TEST(DeckCoulomb, NewtonSolvesTheBedInFewerIterationsOnAnyNumberOfProcesses)
{
  {
    deck::Lammps lmp;
    lmp.command("variable restart index coulomb_bed_newton.restart\ninclude " +
                deck::source_path("unittest/decks/in.coulomb_bed"));
  }
  double iterations[2], residual[2];
  const char *const solvers[2] = {"apgd", "newton"};
  for (int k = 0; k < 2; k++) {
    const std::string name = std::string("bed_") + solvers[k];
    std::ofstream(name + ".in")
        << bed_run("coulomb_bed_newton.restart",
                   std::string("solver ") + solvers[k] + " sweeps 1000000 tol 1e-8", 3)
        << "print \"GE_RESIDUAL $(v_residual:%.6e)\"\nprint \"GE_ITERATIONS "
        << "$(v_iterations:%.3f)\"\n"
        << "write_dump all custom " << name << ".atoms id vx vy vz omegax omegay omegaz modify "
        << "format float %.17g sort id\n";
    EXPECT_EQ(deck::run_mpi(1, name + ".in", "", name + ".log"), 0) << name << ".log.out";
    const std::string log = deck::read_text(name + ".log");
    residual[k] = deck::value_after(log, "GE_RESIDUAL ");
    iterations[k] = deck::value_after(log, "GE_ITERATIONS ");
    std::printf("  %s: %.1f iterations per step, natural residual %.2e\n", solvers[k],
                iterations[k], residual[k]);
    EXPECT_LE(residual[k], 1e-8) << solvers[k];
  }
  EXPECT_LE(iterations[1], 0.7 * iterations[0]);

  {
    // the same commands as the serial run, on a 2 x 1 x 1 grid
    std::string text = "processors 2 1 1\n" + deck::read_text("bed_newton.in");
    const std::string from = "bed_newton.atoms";
    text.replace(text.find(from), from.size(), "bed_newton_np2.atoms");
    std::ofstream("bed_newton_np2.in") << text;
  }
  EXPECT_EQ(deck::run_mpi(2, "bed_newton_np2.in", "", "bed_newton_np2.log"), 0)
      << "bed_newton_np2.log.out";
  const std::string log = deck::read_text("bed_newton_np2.log");
  const double residual_np2 = deck::value_after(log, "GE_RESIDUAL ");
  const double iterations_np2 = deck::value_after(log, "GE_ITERATIONS ");
  std::printf("  newton on 2 processes: %.1f iterations per step, natural residual %.2e\n",
              iterations_np2, residual_np2);
  EXPECT_LE(residual_np2, 1e-8);
  EXPECT_LE(iterations_np2, 0.7 * iterations[0]);
  const auto serial = deck::read_atom_dump("bed_newton.atoms");
  const auto parallel = deck::read_atom_dump("bed_newton_np2.atoms");
  ASSERT_EQ(serial.size(), parallel.size());
  ASSERT_GT(serial.size(), 1000u);
  double difference = 0.0;
  for (const auto &[id, row] : serial)
    for (size_t m = 0; m < row.size(); m++)
      difference = std::fmax(difference, std::fabs(row[m] - parallel.at(id)[m]));
  const double g_dt = 1.0 * 0.002;    // (spins times the unit length, as velocities)
  std::printf("  newton, serial vs 2 processes: largest difference %.3e g dt\n",
              difference / g_dt);
  EXPECT_LE(difference, 1e-7 * g_dt);
}

// compute stress/atom takes the friction's virial too: the spheres' per-atom stresses sum to
// minus the pressure's virial (all six components), on 1 and on 2 processes, where half of a
// contact's virial may fall on a ghost and is summed into its owner. (It was left out: the sum
// missed the friction's share, 8 % of the zz component in a pour, with no warning.) The settled
// bed, one step.
TEST(DeckCoulomb, PerAtomStressesSumToThePressureVirial)
{
  {
    deck::Lammps lmp;
    lmp.command("variable restart index coulomb_bed_stress.restart\ninclude " +
                deck::source_path("unittest/decks/in.coulomb_bed"));
  }
  std::string deck = bed_run("coulomb_bed_stress.restart", "solver gs sweeps 20", 1);
  deck.insert(deck.rfind("run "),
              "compute stress all stress/atom NULL virial\n"
              "compute stress_sum all reduce sum c_stress[1] c_stress[2] c_stress[3] "
              "c_stress[4] c_stress[5] c_stress[6]\n"
              "compute virial all pressure NULL virial\n"
              "thermo_style custom step c_stress_sum[*] c_virial[*] vol\n");
  std::ofstream("bed_stress.in")
      << deck
      << "variable friction equal f_GE_COULOMB[2]\n"
         "print \"GE_STUCK $(v_friction)\"\n"
         "print \"GE_SUMS $(c_stress_sum[1]:%.15e) $(c_stress_sum[2]:%.15e) "
         "$(c_stress_sum[3]:%.15e) $(c_stress_sum[4]:%.15e) $(c_stress_sum[5]:%.15e) "
         "$(c_stress_sum[6]:%.15e)\"\n"
         "print \"GE_VIRIAL $(c_virial[1]*vol:%.15e) $(c_virial[2]*vol:%.15e) "
         "$(c_virial[3]*vol:%.15e) $(c_virial[4]*vol:%.15e) $(c_virial[5]*vol:%.15e) "
         "$(c_virial[6]*vol:%.15e)\"\n";
  for (int procs : {1, 2}) {
    SCOPED_TRACE(procs);
    const std::string log = "bed_stress_np" + std::to_string(procs) + ".log";
    ASSERT_EQ(deck::run_mpi(procs, "bed_stress.in", "", log), 0) << log << ".out";
    const std::string text = deck::read_text(log);
    ASSERT_GT(deck::value_after(text, "GE_STUCK "), 1000.0);
    std::istringstream sums(text.substr(text.rfind("GE_SUMS ") + 8));
    std::istringstream virial(text.substr(text.rfind("GE_VIRIAL ") + 10));
    double largest = 0.0;
    double s[6], w[6];
    for (int m = 0; m < 6; m++) {
      sums >> s[m];
      virial >> w[m];
      largest = std::fmax(largest, std::fabs(w[m]));
    }
    ASSERT_GT(largest, 0.0);
    for (int m = 0; m < 6; m++) EXPECT_NEAR(s[m], -w[m], 1e-10 * largest) << "component " << m;
  }
}

// fix_modify GE_COULOMB export writes a step's friction problem for solver studies outside
// LAMMPS (bench/device/coulomb_apgd.cu solves it on a GPU). Read back and solved by the host
// APGD of unittest/device/coulomb_problem.hpp, the exported step of the settled bed takes the
// fix's iterations and ends at its natural residual, bit for bit: a wrong or missing field
// (totals, couplings, start forces, row bounds) changes the iterates (a start force scaled by
// 1 - 1e-6 changed the residual in its third digit). Tiled 2 x 2 across the periodic box, the problem
// (4 copies, the contacts that cross the box joined to the neighbouring copy) takes them again.
// A missing file name, a file that cannot be written and a run on 2 processes are errors.
TEST(DeckCoulomb, ExportedProblemSolvesAsTheFixDoes)
{
  {
    deck::Lammps lmp;
    lmp.command("variable restart index coulomb_bed.restart\ninclude " +
                deck::source_path("unittest/decks/in.coulomb_bed"));
  }
  deck::Lammps lmp;
  lmp.command(R"(read_restart coulomb_bed.restart
comm_modify     vel yes
neighbor        0.2 bin
neigh_modify    delay 0 every 1 check yes
group           floor id <= 100
group           bed subtract all floor
pair_coeff      * * hooke 2000 damping viscous 10 tangential coulomb 0.5 solver apgd sweeps 1000000 tol 1e-8
fix             gravity bed gravity 1.0 vector 0 0 -1
fix             integrate bed nve/sphere
timestep        0.002
variable        contacts equal f_GE_COULOMB[1]
variable        iterations equal f_GE_COULOMB[3]
variable        residual equal f_GE_COULOMB[9]
run             2
fix_modify      GE_COULOMB export problem.bin
run             1)");
  const int iterations = static_cast<int>(lmp.variable("iterations"));
  const ge_coulomb_problem::Problem problem = ge_coulomb_problem::read_problem("problem.bin", 1);
  EXPECT_EQ(static_cast<double>(problem.terms.size()), lmp.variable("contacts"));
  EXPECT_EQ(problem.tol, 1e-8);
  const ge_coulomb_problem::Solve solve = ge_coulomb_problem::solve_on_host(problem, 1000000);
  std::printf("  %zu contacts: the fix took %d iterations (natural residual %.3e), the exported "
              "problem %d (%.3e)\n",
              problem.terms.size(), iterations, lmp.variable("residual"), solve.iterations,
              solve.residual);
  EXPECT_GT(iterations, 10);
  EXPECT_EQ(solve.iterations, iterations);
  EXPECT_EQ(solve.residual, lmp.variable("residual"));
  EXPECT_LE(solve.residual, 1e-8);
  const ge_coulomb_problem::Problem tiled = ge_coulomb_problem::read_problem("problem.bin", 2);
  EXPECT_EQ(tiled.terms.size(), 4 * problem.terms.size());
  EXPECT_EQ(ge_coulomb_problem::solve_on_host(tiled, 1000000).iterations, iterations);

  // The stuck contacts' linear system of the same step, as bench/coulomb_stuck_system.cpp
  // studies it: D_SS is symmetric (to roundoff), conjugate gradients with each of the four
  // preconditioners solve it (the residual recomputed from the solution is within 1.5x of the
  // tolerance the recursion reached), the APGD + Newton-CG hybrid solves the step to tol, and
  // the coarse correction leaves a residual orthogonal to its coarse space (Galerkin).
  {
    using namespace ge_coulomb_problem;
    StuckSystem D(problem);
    EXPECT_GT(D.size(), problem.terms.size() / 2);
    const Forces u = random_consistent_rhs(D, 1), v = random_consistent_rhs(D, 2);
    Forces Du, Dv;
    D.apply(u, Du);
    D.apply(v, Dv);
    EXPECT_NEAR(dot_all(u, Dv), dot_all(v, Du), 1e-12 * std::sqrt(dot_all(u, Du) * dot_all(v, Dv)));
    const Forces b = random_consistent_rhs(D, 7);
    Forces x;
    const StarSchwarz stars(D);
    const TwoLevel coarse(D, 3.0 * median_contact_diameter(problem), largest_scaled_eigenvalue(D),
                          true);
    const CgResult jacobi = conjugate_gradients(D, b, JacobiPreconditioner{D}, 1e-8, 20000, x);
    const CgResult star = conjugate_gradients(D, b, stars, 1e-8, 20000, x);
    const CgResult two = conjugate_gradients(D, b, coarse, 1e-8, 20000, x);
    std::printf("  stuck system, %zu contacts: CG iterations to 1e-8 with m_t %d, stars %d, "
                "two-level (%d coarse) %d\n",
                D.size(), jacobi.iterations, star.iterations, coarse.coarse_size(),
                two.iterations);
    for (const CgResult &r : {jacobi, star, two}) {
      EXPECT_GT(r.iterations, 0);
      EXPECT_LE(r.true_residual, 1.5e-8);
    }
    // symmetric Gauss-Seidel (the fix's Newton CG): fewer iterations than the diagonal, the
    // same in Eisenstat's form (which checks its true residual every 10) and in a coloured order
    const CgResult ssor = conjugate_gradients(D, b, SsorPreconditioner{D, 1.0}, 1e-8, 20000, x);
    const CgResult eisenstat = eisenstat_ssor_cg(D, b, 1.0, 1e-8, 20000, x);
    D.use_coloured_order();
    const CgResult coloured = conjugate_gradients(D, b, SsorPreconditioner{D, 1.0}, 1e-8, 20000, x);
    D.use_natural_order();
    std::printf("  SSOR: %d iterations, %d in Eisenstat's form, %d coloured\n", ssor.iterations,
                eisenstat.iterations, coloured.iterations);
    for (const CgResult &r : {ssor, eisenstat, coloured}) EXPECT_LE(r.true_residual, 1.5e-8);
    EXPECT_GT(ssor.iterations, 0);
    EXPECT_LE(ssor.iterations, jacobi.iterations / 2);
    EXPECT_LE(std::abs(eisenstat.iterations - ssor.iterations), 10);
    EXPECT_LE(coloured.iterations, jacobi.iterations / 2);
    // the hybrid measured as the next solver (100 APGD iterations, then Newton-CG on the face):
    // it solves the step, to the fix's own true error
    const HybridSolve hybrid = solve_apgd_then_newton_cg(problem, 100, 20000, 20);
    std::printf("  hybrid: 100 APGD iterations + %d CG iterations in %d Newton steps, natural "
                "residual %.2e (APGD alone: %d)\n",
                hybrid.cg, hybrid.newton, hybrid.residual, iterations);
    EXPECT_LE(hybrid.residual, 1e-8);
    EXPECT_GT(hybrid.cg, 0);
    Forces corrected(D.size(), Vec3{0, 0, 0}), Dc, left(D.size());
    coarse.coarse_correct(b, corrected);
    D.apply(corrected, Dc);
    for (size_t s = 0; s < D.size(); s++) left[s] = b[s] - Dc[s];
    EXPECT_LE(coarse.largest_restriction(left), 1e-10 * coarse.largest_restriction(b));
  }

  // the file's name, and one process: the totals of periodic images are their owners'
  EXPECT_NE(lmp.error_of("fix_modify GE_COULOMB export").find("expected a file name"),
            std::string::npos);
  lmp.command("fix_modify GE_COULOMB export no/such/folder/problem.bin");
  EXPECT_NE(lmp.error_of("run 1").find("cannot open no/such/folder/problem.bin"),
            std::string::npos);

  // on 2 processes: refused, with the reason
  {
    std::ofstream deck("two_processes.in");
    deck << deck::kEmptyGranularBox
         << "pair_coeff * * hooke 1000 tangential coulomb 0.5\n"
            "fix_modify GE_COULOMB export problem.bin\n";
  }
  EXPECT_NE(deck::run_mpi(2, "two_processes.in", "", "two_processes.log"), 0);
  std::ifstream log("two_processes.log");
  const std::string printed((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_NE(printed.find("writes the friction problem of one process: run on 1 process (this run "
                         "has 2)"),
            std::string::npos)
      << printed;
}

namespace {

// the colours of `coloured` (coloured_problem of `problem`): every contact in one colour, none
// two of a colour on one body, and within a colour the contacts in the problem's order
void expect_valid_colours(const ge_coulomb_problem::Problem &problem,
                          const ge_coulomb_problem::Problem &coloured,
                          const ge_coulomb_problem::Schedule &colours)
{
  ASSERT_EQ(coloured.terms.size(), problem.terms.size());
  ASSERT_EQ(colours.original.size(), problem.terms.size());
  ASSERT_EQ(colours.start.back(), static_cast<int>(problem.terms.size()));
  for (int c = 0; c < colours.colours(); c++) {
    std::vector<int> holder(coloured.nbodies, -1);
    for (int k = colours.start[c]; k < colours.start[c + 1]; k++) {
      if (k > colours.start[c]) EXPECT_LT(colours.original[k - 1], colours.original[k]);
      for (int body : {coloured.terms[k].i, coloured.terms[k].j}) {
        if (body < 0) continue;
        EXPECT_EQ(holder[body], -1) << "colour " << c << ": contacts " << holder[body] << " and "
                                    << k << " share body " << body;
        holder[body] = k;
      }
    }
  }
}

}    // namespace

// The Newton solver as the passes a GPU runs (src/kokkos/coulomb_newton_parallel.hpp, which
// bench/device/coulomb_newton.cu runs as CUDA kernels): on the exported steps of the settled bed
// solved by `solver newton`, one from the previous forces and one from the extrapolated ones,
// its plain loops with one contact per colour take the fix's iterations (APGD and conjugate
// residuals together) and end at its natural residual and stuck velocity, bit for bit, so the
// passes are the fix's algorithm (a missing update or a sweep out of order changes the
// iterates). In the device's order, the contacts by colour (no two of a colour on one body, so that a colour is one
// parallel pass), and with the diagonal preconditioner the device runs best, it solves the same
// steps to tol, and the contacts' rates after the step (the velocities, unique where the forces
// need not be) agree with the fix's order's to what tol allows: where F - m_t s lies inside the
// disk, a contact's rate is at most tol mu F_n / m_t in either solve.
TEST(DeckCoulomb, ExportedNewtonProblemSolvesAsTheFixDoes)
{
  {
    deck::Lammps lmp;
    lmp.command("variable restart index coulomb_bed_newton.restart\ninclude " +
                deck::source_path("unittest/decks/in.coulomb_bed"));
  }
  deck::Lammps lmp;
  // (the bed's solves extrapolate from the fourth step on)
  lmp.command(bed_run("coulomb_bed_newton.restart", "solver newton sweeps 1000000 tol 1e-8", 1) +
              R"(variable contacts equal f_GE_COULOMB[1]
variable        iterations equal f_GE_COULOMB[3]
variable        extrapolated equal f_GE_COULOMB[11]
variable        stuck_velocity equal f_GE_COULOMB[10]
variable        step_time equal dt)");
  using namespace ge_coulomb_problem;
  bool seen[2] = {false, false};
  for (int steps : {0, 5}) {
    SCOPED_TRACE(steps);
    if (steps > 0) lmp.command("run " + std::to_string(steps));
    lmp.command("fix_modify GE_COULOMB export newton.bin\nrun 1");
    const Problem problem = read_problem("newton.bin", 1);
    ASSERT_EQ(static_cast<double>(problem.terms.size()), lmp.variable("contacts"));
    EXPECT_EQ(problem.extrapolated ? 1.0 : 0.0, lmp.variable("extrapolated"));
    seen[problem.extrapolated ? 1 : 0] = true;
    const int iterations = static_cast<int>(lmp.variable("iterations"));
    HostLoops loops;
    ParallelNewton<HostLoops> natural(loops, problem, natural_schedule(problem), problem.extrapolated);
    const NewtonResult fix_order = natural.solve(1000000);
    Schedule colours;
    const Problem coloured = coloured_problem(problem, colours);
    ParallelNewton<HostLoops> by_colour(loops, coloured, colours, coloured.extrapolated);
    const NewtonResult colour_order = by_colour.solve(1000000);
    ParallelNewton<HostLoops> by_diagonal(loops, coloured, colours, coloured.extrapolated, 8,
                                          Preconditioner::Diagonal);
    const NewtonResult diagonal = by_diagonal.solve(1000000);
    std::printf("  %zu contacts, %s start: the fix took %d iterations (natural residual %.3e); "
                "its order %d (%d APGD, %d Krylov in %d Newton steps; %.3e); %d colours %d (%.3e)\n",
                problem.terms.size(), problem.extrapolated ? "extrapolated" : "previous",
                iterations, lmp.variable("residual"), fix_order.iterations, fix_order.apgd,
                fix_order.krylov, fix_order.newton_steps, fix_order.residual, colours.colours(),
                colour_order.iterations, colour_order.residual);
    EXPECT_GT(fix_order.krylov, 0);
    EXPECT_EQ(fix_order.iterations, iterations);
    EXPECT_EQ(fix_order.residual, lmp.variable("residual"));
    // the stuck contacts' largest velocity at the next half step, which the solver measures for
    // a solve it takes (dt |s|), as the fix measures it
    EXPECT_EQ(lmp.variable("step_time") * fix_order.stuck_rate, lmp.variable("stuck_velocity"));
    EXPECT_LE(colour_order.residual, problem.tol);
    std::printf("  with the diagonal preconditioner: %d iterations (%d Krylov; %.3e)\n",
                diagonal.iterations, diagonal.krylov, diagonal.residual);
    EXPECT_GT(diagonal.krylov, 0);
    EXPECT_LE(diagonal.residual, problem.tol);
    // the same solve from arrays in place, as the friction step in a Kokkos execution space runs
    // it (the start's totals gathered atom by atom from the other forces, each atom's contacts in
    // the order of its list: the order in which the problem's totals add them): the same
    // iterations to the same forces and totals, bit for bit
    std::vector<int> body_start, side;
    body_lists(coloured, body_start, side);
    ProblemInPlace in_place;
    in_place.nc = static_cast<int>(coloured.terms.size());
    in_place.nb = coloured.nbodies;
    in_place.tol = coloured.tol;
    in_place.terms = coloured.terms.data();
    in_place.start = coloured.start.data();
    in_place.total0 = coloured.total0.data();
    in_place.body_start = body_start.data();
    in_place.side = side.data();
    ParallelNewton<HostLoops> from_place(loops, in_place, colours, coloured.extrapolated, 8,
                                         Preconditioner::Diagonal);
    const NewtonResult placed_solve = from_place.solve(1000000);
    EXPECT_EQ(placed_solve.iterations, diagonal.iterations);
    EXPECT_EQ(placed_solve.residual, diagonal.residual);
    EXPECT_EQ(placed_solve.stuck_rate, diagonal.stuck_rate);
    EXPECT_EQ(placed_solve.totals, diagonal.totals);
    EXPECT_TRUE(placed_solve.force.empty());    // (they stay in the solver's memory)
    size_t same_forces = 0;
    for (size_t at = 0; at < coloured.terms.size(); at++) {
      const Vec3 &a = from_place.forces()[at], &b = diagonal.force[at];
      same_forces += a.x == b.x && a.y == b.y && a.z == b.z;
    }
    EXPECT_EQ(same_forces, coloured.terms.size());

    EXPECT_GT(colours.colours(), 1);
    expect_valid_colours(problem, coloured, colours);
    // the rates after the step, in the problem's order both
    ASSERT_EQ(colours.original.size(), problem.terms.size());
    std::vector<Vec3> colour_force(problem.terms.size()), diagonal_force(problem.terms.size());
    std::vector<int> placed(problem.terms.size(), 0);
    for (size_t at = 0; at < colours.original.size(); at++) {
      const int k = colours.original[at];
      ASSERT_EQ(placed[k]++, 0) << "contact " << k << " placed twice";
      ASSERT_EQ(coloured.terms[at].i, problem.terms[k].i);
      ASSERT_EQ(coloured.terms[at].j, problem.terms[k].j);
      colour_force[k] = colour_order.force[at];
      diagonal_force[k] = diagonal.force[at];
    }
    // (where F - m_t s lies inside the disk, the natural residual is m_t |s| / mu F_n: each
    // solve leaves such a contact a rate of at most tol mu F_n / m_t)
    std::vector<double> ta = totals_of(problem, fix_order.force);
    for (const std::vector<Vec3> *other : {&colour_force, &diagonal_force}) {
      std::vector<double> tb = totals_of(problem, *other);
      double worst = 0.0, wall_a[6] = {0, 0, 0, 0, 0, 0}, wall_b[6] = {0, 0, 0, 0, 0, 0};
      size_t held = 0;
      for (size_t k = 0; k < problem.terms.size(); k++) {
        const ContactTerms &t = problem.terms[k];
        const Vec3 sa = rate_at(t, ta, wall_a), sb = rate_at(t, tb, wall_b);
        if (ge::norm(fix_order.force[k] - t.mass * sa) >= t.cap ||
            ge::norm((*other)[k] - t.mass * sb) >= t.cap)
          continue;
        held++;
        worst = std::fmax(worst, ge::norm(sa - sb) / (2.0 * problem.tol * t.cap / t.mass));
      }
      std::printf("  %zu contacts held inside their disks in both solves: their rates differ by "
                  "at most %.3f of 2 tol mu F_n / m_t\n",
                  held, worst);
      EXPECT_GT(held, problem.terms.size() / 2);
      EXPECT_LE(worst, 1.0);
    }
  }
  EXPECT_TRUE(seen[0]);
  EXPECT_TRUE(seen[1]);
}

// A run's counts start with its setup, also where `run N pre no` skips its init: the mean
// sweeps per step (f_GE_COULOMB[7]) of each run is the mean of its own steps' (f_GE_COULOMB[3],
// averaged by fix ave/time over the run), and the warning of a run whose solves stop at their
// budget counts its own steps. (They were reset in init(), so a `pre no` run counted the runs
// before it too.) The hub deck: its solves take 51, 52, 35, 35, then 37, 34, 32, 31 iterations
// by default; Gauss-Seidel with a budget of 9 sweeps stops short on 4, then 2 of them.
TEST(DeckCoulomb, CountsOfARunStartWithItsSetup)
{
  const auto hub = [](const std::string &options) {
    return "include " + deck::source_path("unittest/decks/in.coulomb_hub") +
        "\npair_coeff * * hooke 2000 tangential coulomb 0.5 tol 1e-13 " + options + "\n";
  };
  {
    deck::Lammps lmp;
    lmp.command(hub("") + R"(
fix             own all ave/time 1 4 4 f_GE_COULOMB[3]
variable        mean equal f_GE_COULOMB[7]
variable        own_mean equal f_own)");
    double own_means[2];
    for (int r = 0; r < 2; r++) {
      lmp.command(r == 0 ? "run 4" : "run 4 pre no");
      const double mean = lmp.variable("mean");
      own_means[r] = lmp.variable("own_mean");
      std::printf("  run %d: mean sweeps per step %.6g, of its own steps %.6g\n", r + 1, mean,
                  own_means[r]);
      EXPECT_NEAR(mean, own_means[r], 1e-12 * own_means[r]) << "run " << r + 1;
    }
    // (steps of different sweeps: a mean over both runs would differ from the second's)
    EXPECT_NE(own_means[0], own_means[1]);
  }
  const std::string log = "run_counts.log";
  {
    deck::Lammps lmp(log);
    lmp.command(hub("solver gs sweeps 9") + "run 4\nrun 4 pre no");
  }
  const std::string text = deck::read_text(log);
  // (its short solves: 4 of the first run's steps, 2 of the second's)
  const std::string warning = " of the 4 steps of this run the friction solve stopped at its "
                              "budget of 9 sweeps";
  size_t warned = 0;
  for (size_t at = text.find(warning); at != std::string::npos; at = text.find(warning, at + 1))
    warned++;
  EXPECT_EQ(warned, 2u) << text;
}

// The colours grow with the most contacts of a body: a sphere of diameter 6 carrying 120 of
// diameter 1 (unittest/decks/in.coulomb_hub) puts each of its contacts in a colour of its own,
// at most 2 d - 1 colours for d contacts of a body, no two contacts of a colour on one body and
// each colour in the contacts' order; its exported step solves to tol in those colours, with
// symmetric Gauss-Seidel (host threads) and the diagonal blocks (a device).
TEST(DeckCoulomb, HubProblemSolvesInItsManyColours)
{
  deck::Lammps lmp;
  lmp.command("include " + deck::source_path("unittest/decks/in.coulomb_hub") + R"(
variable        iterations equal f_GE_COULOMB[3]
run             20
fix_modify      GE_COULOMB export hub.bin
run             1)");
  using namespace ge_coulomb_problem;
  const Problem problem = read_problem("hub.bin", 1);
  std::vector<int> degree(problem.nbodies, 0);
  int most = 0;
  for (const ContactTerms &t : problem.terms)
    for (int body : {t.i, t.j})
      if (body >= 0) most = std::max(most, ++degree[body]);
  Schedule colours;
  const Problem coloured = coloured_problem(problem, colours);
  std::printf("  %zu contacts, at most %d on a body: %d colours\n", problem.terms.size(), most,
              colours.colours());
  EXPECT_GE(most, 120);
  EXPECT_GE(colours.colours(), most);
  EXPECT_LE(colours.colours(), 2 * most - 1);
  expect_valid_colours(problem, coloured, colours);
  HostLoops loops;
  for (Preconditioner preconditioner :
       {Preconditioner::SymmetricGaussSeidel, Preconditioner::Diagonal}) {
    ParallelNewton<HostLoops> solver(loops, coloured, colours, coloured.extrapolated, 8,
                                     preconditioner);
    const NewtonResult result = solver.solve(1000000);
    std::printf("  %s: %d iterations (%d Krylov), natural residual %.3e (the fix: %.0f)\n",
                preconditioner == Preconditioner::Diagonal ? "diagonal" : "Gauss-Seidel",
                result.iterations, result.krylov, result.residual, lmp.variable("iterations"));
    EXPECT_LE(result.residual, problem.tol);
  }
}

// Item 4 of the solver issue, contact by contact (contact_slip.hpp): the slip at the contact
// points of the settled 2,000-sphere bed over 200 steps. The recorder sees the fix's stuck
// contacts (their count at every step) and the fix's own largest velocity of a stuck contact at
// the next half step (value 10, to 1e-6: the recorder takes the velocities and totals from the
// atoms after the step, the fix from its own sums); so no stuck contact's path is longer than the sum
// of dt times that largest velocity, the bound bench/in.coulomb_solve reports. Solved to the
// default tol 1e-8 by APGD, every contact stuck throughout slips less than 1e-9 d (the issue
// asks that over 1000 steps); 5 Gauss-Seidel sweeps leave slips that the recorder measures above that
// (a measure that cannot tell the two apart would fail here).
TEST(DeckCoulomb, StuckContactsSlipAtTheirContactPoints)
{
  {
    deck::Lammps lmp;
    lmp.command("variable restart index coulomb_bed_for_slip.restart\ninclude " +
                deck::source_path("unittest/decks/in.coulomb_bed"));
  }
  const double d = 0.925;    // the mean diameter of the bed's spheres
  const int steps = 200;
  double largest_slip[2] = {0.0, 0.0};
  const char *const solvers[2] = {"solver gs sweeps 5", "solver apgd sweeps 1000000 tol 1e-8"};
  const char *const logs[2] = {"slip_gs5.log", "slip_apgd.log"};
  for (int k = 0; k < 2; k++) {
    deck::Lammps lmp(logs[k]);
    lmp.command(bed_run("coulomb_bed_for_slip.restart", solvers[k], 0) + R"(
variable        contacts equal f_GE_COULOMB[1]
variable        stuck equal f_GE_COULOMB[2]
variable        after equal f_GE_COULOMB[10])");
    ge_slip::SlipRecorder recorder(lmp.handle(), "bed");
    double bound = 0.0;
    for (int step = 0; step < steps; step++) {
      lmp.command("run 1 pre no post no");
      const ge_slip::StepRecord r = recorder.record();
      const double after = lmp.variable("after");
      // (touching contacts without compression have no friction: the fix leaves them out)
      ASSERT_GE(r.contacts, lmp.variable("contacts")) << "step " << step;
      ASSERT_EQ(r.stuck, lmp.variable("stuck")) << "step " << step;
      ASSERT_NEAR(r.largest_stuck_velocity, after, 1e-6 * after) << "step " << step;
      ASSERT_LE(r.median_stuck_velocity, r.p90_stuck_velocity) << "step " << step;
      ASSERT_LE(r.p90_stuck_velocity, r.largest_stuck_velocity) << "step " << step;
      bound += 0.002 * after;
    }
    const std::vector<const ge_slip::ContactSlip *> stuck = recorder.stuck_throughout();
    double longest_path = 0.0;
    for (const ge_slip::ContactSlip *c : stuck) {
      largest_slip[k] = std::fmax(largest_slip[k], ge::norm(c->slip));
      longest_path = std::fmax(longest_path, c->path);
    }
    std::printf("  %s: %zu of %zu contacts stuck throughout %d steps; largest slip %.3e d, "
                "longest path %.3e d, bound %.3e d\n",
                solvers[k], stuck.size(), recorder.seen(), steps, largest_slip[k] / d,
                longest_path / d, bound / d);
    EXPECT_GT(stuck.size(), recorder.seen() / 2);
    EXPECT_LE(longest_path, bound * (1.0 + 1e-6));
  }
  EXPECT_LE(largest_slip[1], 1e-9 * d);
  EXPECT_GT(largest_slip[0], 1e-9 * d);
  // 5 sweeps stop above tol: each run warns, with the numbers; APGD to tol does not
  const char *const short_solve = "WARNING: Fix GE_COULOMB (tangential coulomb): in 1 of the 1 "
                                  "steps of this run the friction solve stopped at its budget of "
                                  "5 sweeps above tol 1e-08: its true error";
  EXPECT_NE(deck::read_text(logs[0]).find(short_solve), std::string::npos) << short_solve;
  EXPECT_EQ(deck::read_text(logs[1]).find("stopped at its budget"), std::string::npos);
}

// Item 3 of the solver issue with the default settings (`tangential coulomb 0.5` and nothing
// more: solver newton to tol 1e-8): on the settled 2,000-sphere bed the stuck contacts' velocities
// at the next half step (contact_slip.hpp), step by step, have a median below 1e-8 g dt and a
// 90th percentile below 1e-7 g dt, the issue's target, and no solve stops at its budget. The
// former default, 20 Gauss-Seidel sweeps, leaves a median above 1e-8 (a measure that cannot
// tell the two apart would fail here). Measured over 50 steps: median 3.8e-10 and 90th percentile
// 8.5e-10 g dt by default (6.1e-10 and 1.3e-9 with the diagonal preconditioner in newton's CG),
// median 2.6e-5 and 90th percentile 9.7e-5 g dt with 20 sweeps.
TEST(DeckCoulomb, DefaultSettingsHoldTheStuckContactsAtRest)
{
  {
    deck::Lammps lmp;
    lmp.command("variable restart index coulomb_bed_default.restart\ninclude " +
                deck::source_path("unittest/decks/in.coulomb_bed"));
  }
  const double g_dt = 1.0 * 0.002;
  const int steps = 50;
  const char *const settings[2] = {"", "solver gs sweeps 20"};
  const char *const logs[2] = {"default_settings.log", "former_default.log"};
  double median[2] = {0.0, 0.0}, p90[2] = {0.0, 0.0};
  for (int k = 0; k < 2; k++) {
    {
      deck::Lammps lmp(logs[k]);
      lmp.command(bed_run("coulomb_bed_default.restart", settings[k], 0));
      ge_slip::SlipRecorder recorder(lmp.handle(), "bed");
      for (int step = 0; step < steps; step++) {
        lmp.command("run 1 pre no post no");
        const ge_slip::StepRecord r = recorder.record();
        ASSERT_GT(r.stuck, r.contacts / 2) << "step " << step;
        median[k] = std::fmax(median[k], r.median_stuck_velocity / g_dt);
        p90[k] = std::fmax(p90[k], r.p90_stuck_velocity / g_dt);
      }
    }
    std::printf("  '%s': over %d steps the stuck contacts' next-half-step velocities have a "
                "median of at most %.2e g dt and a 90th percentile of at most %.2e g dt\n",
                settings[k], steps, median[k], p90[k]);
  }
  EXPECT_LE(median[0], 1e-8);
  EXPECT_LE(p90[0], 1e-7);
  EXPECT_EQ(deck::read_text(logs[0]).find("stopped at its budget"), std::string::npos);
  EXPECT_GT(median[1], 1e-8);
}

// examples/coulomb_bed at a small size (6 x 6 spheres across, 6 layers, 521 contacts,
// settled 6,000 steps; 100 steps per case): its records say what the example shows at full size.
// The default solver ends every step at a true error within its tol of 1e-8, while a budget of
// 5 Gauss-Seidel sweeps stops above it on every step, and the stuck contacts it leaves keep
// velocities more than ten times the default's at the next half step (measured: true errors up
// to about 1e-8 and 2e-2, kept velocities up to 1.3e-7 and 1.3e-2 g dt).
TEST(DeckCoulomb, ExampleBedReachesTolWhereABudgetStopsShort)
{
  int status = 0;
  const std::string out = deck::run_example(
      "coulomb_bed", "in.coulomb_bed", &status,
      "-var L 6 -var H 6.1 -var settle 4000 -var nsteps 100 -var cases gs5 newton");
  ASSERT_EQ(status, 0) << "see " << out;
  const std::string dir = deck::source_path("examples/coulomb_bed");
  // the columns of <case>.dat: step, iterations, true error, kept velocity (g dt), slip,
  // displacement; the first row is the state read from the restart, before any solve
  double largest_error[2] = {0.0, 0.0}, smallest_error[2] = {1.0, 1.0}, kept[2] = {0.0, 0.0};
  const char *const cases[2] = {"newton", "gs5"};
  for (int k = 0; k < 2; k++) {
    const auto rows = deck::read_rows(dir + "/" + cases[k] + ".dat");
    ASSERT_EQ(rows.size(), 101u) << cases[k];
    for (size_t r = 1; r < rows.size(); r++) {
      ASSERT_EQ(rows[r].size(), 6u);
      if (k == 1) EXPECT_EQ(rows[r][1], 5.0) << "gs5 step " << rows[r][0];
      largest_error[k] = std::fmax(largest_error[k], rows[r][2]);
      smallest_error[k] = std::fmin(smallest_error[k], rows[r][2]);
      kept[k] = std::fmax(kept[k], rows[r][3]);
    }
    std::printf("  %s: true error %.2e to %.2e, kept velocities up to %.2e g dt\n", cases[k],
                smallest_error[k], largest_error[k], kept[k]);
  }
  EXPECT_LE(largest_error[0], 1e-8);
  EXPECT_GT(smallest_error[1], 1e-8);
  EXPECT_GT(kept[1], 10.0 * kept[0]);
}

// `solver apgd` (accelerated projected gradient, item 2 of the solver issue): from the heap
// settled by Gauss-Seidel it keeps every contact stuck with no creep and a natural residual below
// 1e-9; and it solves each step from the same totals for every contact, so that its forces do
// not depend on the contacts' order or their process: the heap falling onto the floor (contacts
// forming, sliding, sticking) is the same on 1, 2 and 4 processes to roundoff (Gauss-Seidel
// sweeps the contacts of each process in turn and joins the processes' changes by damped Jacobi:
// its forces depend on the decomposition until it has converged).
TEST(DeckCoulomb, ApgdKeepsTheHeapAndIsTheSameOnAnyNumberOfProcesses)
{
  const char *const apgd = "solver apgd sweeps 5000 tol 1e-11";
  {
    deck::Lammps lmp;
    lmp.command(heap(kConverged) + run_for(1.0) + "write_restart heap_for_apgd.restart\n");
  }
  {
    deck::Lammps lmp;
    lmp.command("variable restart index heap_for_apgd.restart\nvariable options index \"" +
                std::string(apgd) + "\"\ninclude " + kHeapRestart + "\n" +
                "variable sweeps equal f_GE_COULOMB[3]\nvariable contacts equal f_GE_COULOMB[1]\n"
                "variable stuck equal f_GE_COULOMB[2]\nvariable residual equal f_GE_COULOMB[9]\n" +
                "variable R equal 0.01\nvariable d equal 2*v_R\n" + kCreepProbe + run_for(0.2));
    const double creep = lmp.variable("creep");
    std::printf("  apgd from the settled heap: creep %.3e d in 0.2 s, %g of %g contacts stuck, "
                "iterations of the last step %g, natural residual %.3e\n",
                creep, lmp.variable("stuck"), lmp.variable("contacts"), lmp.variable("sweeps"),
                lmp.variable("residual"));
    EXPECT_LE(creep, 1e-9);
    EXPECT_EQ(lmp.variable("stuck"), lmp.variable("contacts"));
    EXPECT_LE(lmp.variable("residual"), 1e-9);
  }
  // (the heap's random insertion depends on the processes: all start from one restart file,
  // written as the spheres fall)
  {
    deck::Lammps lmp;
    lmp.command(heap(apgd) + "run 2000\nwrite_restart heap_falling.restart\n");
  }
  const std::string falling = "variable restart index heap_falling.restart\nvariable options "
                              "index \"" + std::string(apgd) + "\"\ninclude " + kHeapRestart +
      "\n";
  const double d = 2.0 * kR;
  const char *grids[3] = {"1 1 1", "2 1 1", "2 2 1"};
  for (int k = 0; k < 3; k++) {
    const int ranks = k == 0 ? 1 : 2 * k;
    const std::string name = "heap_apgd_np" + std::to_string(ranks);
    std::ofstream(name + ".in") << "processors " << grids[k] << "\n"
                                << falling << "run 3000\n"
                                << "write_dump heap custom " << name
                                << ".atoms id x y z modify format float %.17g sort id\n";
    EXPECT_EQ(deck::run_mpi(ranks, name + ".in", "", name + ".log"), 0)
        << name << " failed: see " << name << ".log.out";
    if (k == 0) continue;
    const double difference = largest_position_difference("heap_apgd_np1.atoms", name + ".atoms");
    std::printf("  apgd, falling heap, serial vs %d ranks: %.3e d\n", ranks, difference / d);
    // (roundoff only: the totals of a sphere on several processes are summed in another order;
    // 3000 steps of collisions amplify it, measured 8e-15 d and 2.4e-12 d)
    EXPECT_LE(difference, 1e-10 * d);
  }
}

namespace {

const std::string kCup = deck::source_path("unittest/decks/in.coulomb_cup");
const std::string kCupRestart = deck::source_path("unittest/decks/in.coulomb_cup_restart");
const std::string kCupOptions = "sweeps 5000 tol 1e-10";

std::string cup_from(const std::string &restart_file, const std::string &options)
{
  return "variable restart index " + restart_file + "\nvariable options index \"" + options +
      "\"\ninclude " + kCupRestart + "\n";
}

// the pile in the cup settled (40000 steps, 0.8 s: 48 contacts, 24 of them with the walls, all
// but one stuck), written to `file`
void write_settled_cup(const std::string &file)
{
  deck::Lammps lmp;
  lmp.command("variable options index \"" + kCupOptions + "\"\ninclude " + kCup +
              "\nrun 40000\nwrite_restart " + file + "\n");
}

// gravity tilted from step 40000 on at 0.2 g per 1000 steps (0.2 g per 0.02 s), towards +x: the
// loads of every contact change smoothly, step by step
const char *const kTilt = R"(
variable        gx equal 0.2*(step-40000)/1000
unfix           gravity
fix             gravity all gravity 9.81 vector v_gx 0 -1
)";

std::string dump_cup(const std::string &name)
{
  return "write_dump all custom " + name + " id x y z modify format float %.17g sort id\n";
}

}    // namespace

// `warm extrapolate` (notes: Coulomb warm start): in the pile of the cup, tilted slowly, every
// contact's friction follows a load that changes smoothly: a solve that starts from the previous
// forces plus their last change starts closer to the solution (its true error the loads' second
// difference, not their first) and ends at tol in fewer iterations than one from the previous
// forces alone, with the same motion to what tol allows. Measured: the start's true error 2.1e-3
// of mu F_n from the previous forces, 5.8e-5 extrapolated; Gauss-Seidel's 131 and 87 sweeps
// per step to tol 1e-10 (151 and 100 on the cup as Newton with conjugate gradients settled it)
// are about the ratio of the decades from there to tol (7.3 and 5.8), and Newton from the
// extrapolated start took 38 (39 with conjugate gradients, 62 with them and a first APGD phase
// of 25 there); the positions after 400 steps 6e-15 d apart. (2.6x fewer APGD iterations on the bench's settled
// 18-layer bed to tol 1e-8, bench/README.md.) The solvers are named: the default is newton.
TEST(DeckCoulomb, ExtrapolatedStartFollowsASlowlyTiltedPile)
{
  write_settled_cup("cup_settled.restart");
  // Gauss-Seidel from the previous and from the extrapolated forces, and Newton from the
  // extrapolated forces (its first Newton step after 10 APGD iterations instead of 50)
  const char *const names[3] = {"gs_yes", "gs_extrapolate", "newton_extrapolate"};
  const char *const options[3] = {"solver gs warm yes", "solver gs warm extrapolate",
                                  "solver newton warm extrapolate"};
  double iterations[3], residual[3], extrapolated_steps[3];
  for (int k = 0; k < 3; k++) {
    deck::Lammps lmp;
    lmp.command(cup_from("cup_settled.restart", kCupOptions + " " + options[k]) + kTilt + R"(
variable        extrapolated equal f_GE_COULOMB[11]
fix             count all ave/time 1 1 1 v_extrapolated ave running
variable        extrapolated_share equal f_count
variable        iterations_per_step equal f_GE_COULOMB[7]
variable        residual equal f_GE_COULOMB[9]
run             400
)" + dump_cup(std::string("cup_tilted_") + names[k] + ".atoms"));
    iterations[k] = lmp.variable("iterations_per_step");
    residual[k] = lmp.variable("residual");
    extrapolated_steps[k] = 400.0 * lmp.variable("extrapolated_share");
    std::printf("  %s: %.1f iterations per step, %g steps from the extrapolated start, "
                "last natural residual %.2e\n",
                names[k], iterations[k], extrapolated_steps[k], residual[k]);
    EXPECT_LE(residual[k], 1e-10) << names[k];
  }
  EXPECT_EQ(extrapolated_steps[0], 0.0);
  EXPECT_GT(extrapolated_steps[1], 350.0);
  EXPECT_GT(extrapolated_steps[2], 350.0);
  EXPECT_LE(iterations[1], 0.85 * iterations[0]);
  for (int k = 1; k < 3; k++) {
    const double difference = largest_position_difference(
        "cup_tilted_gs_yes.atoms", std::string("cup_tilted_") + names[k] + ".atoms");
    std::printf("  %s vs gs_yes: largest difference of the positions %.2e d\n", names[k],
                difference / (2.0 * kR));
    EXPECT_LE(difference, 1e-10 * 2.0 * kR) << names[k];
  }
}

// A start close to the solution (ge::kCoulombNewtonCloseStart) counts as close also where it is
// not extrapolated: the previous forces where the loads change slowly. Newton then takes its
// tighter Krylov stop, and from such a start above tol no first APGD phase at all
// (ge::kCoulombNewtonFirstApgdNear). The tetrahedron at rest (mu = 0.6), its gravity then
// tilted by 5e-7 g per step towards +x, run on from the previous forces (warm yes) by
// Gauss-Seidel and by Newton: Newton's solves start close (vector value 12; their true error
// about 3e-6), both reach tol, and the spheres end where they do in the other run, to what tol
// allows.
TEST(DeckCoulomb, NewtonFromThePreviousForcesUnderASlowTiltStartsClose)
{
  const std::string tetrahedron = deck::source_path("unittest/decks/in.coulomb_tetrahedron");
  const char *const solvers[2] = {"gs", "newton"};
  double close_steps[2], residual[2];
  for (int k = 0; k < 2; k++) {
    deck::Lammps lmp;
    lmp.command(std::string("variable options index \"warm yes tol 1e-10 sweeps 5000 solver ") +
                solvers[k] + "\"\ninclude " + tetrahedron + "\n" + run_for(0.5) + R"(
variable        gx equal 5e-7*9.81*(step-25000)
unfix           gravity
fix             gravity all gravity 9.81 vector v_gx 0 -1
variable        close equal f_GE_COULOMB[12]
fix             count all ave/time 1 1 1 v_close ave running
variable        close_share equal f_count
variable        residual equal f_GE_COULOMB[9]
run             2000
write_dump      all custom tetrahedron_tilted_)" +
                solvers[k] + ".atoms id x y z modify format float %.17g sort id\n");
    close_steps[k] = 2000.0 * lmp.variable("close_share");
    residual[k] = lmp.variable("residual");
    std::printf("  %s: %g of 2000 steps from a close start, last natural residual %.2e\n",
                solvers[k], close_steps[k], residual[k]);
    EXPECT_LE(residual[k], 1e-10) << solvers[k];
  }
  EXPECT_EQ(close_steps[0], 0.0);    // (Gauss-Seidel has no phases)
  EXPECT_GE(close_steps[1], 1999.0);    // (all but run setup's solve)
  const double difference = largest_position_difference("tetrahedron_tilted_gs.atoms",
                                                        "tetrahedron_tilted_newton.atoms");
  std::printf("  newton vs gs: largest difference of the positions %.2e d\n",
              difference / (2.0 * kR));
  EXPECT_LE(difference, 1e-10 * 2.0 * kR);
}

// The last change of every contact's friction force is history: written to restart files with
// the force, for sphere pairs (the pair's neighbour store) and walls (each wall fix) alike. The
// tilted pile continued from a restart file takes the extrapolated start on its first step as the
// uninterrupted run does (without the change it would start from the previous forces: value 11
// would be 0), with as many iterations, and ends where that run ends.
TEST(DeckCoulomb, ExtrapolatedStartSurvivesRestarts)
{
  write_settled_cup("cup_settled.restart");
  const std::string probe = R"(
variable        extrapolated equal f_GE_COULOMB[11]
variable        iterations equal f_GE_COULOMB[3]
variable        wall_contacts equal f_floor[4]+f_side[4]
run             1
)";
  double extrapolated[2], iterations[2], wall_contacts = 0.0;
  {
    deck::Lammps lmp;
    lmp.command(cup_from("cup_settled.restart", kCupOptions) + kTilt +
                "run 200\nwrite_restart cup_tilted.restart\n" + probe);
    extrapolated[0] = lmp.variable("extrapolated");
    iterations[0] = lmp.variable("iterations");
    wall_contacts = lmp.variable("wall_contacts");
    lmp.command("run 399\n" + dump_cup("cup_uninterrupted.atoms"));
  }
  {
    deck::Lammps lmp;
    lmp.command(cup_from("cup_tilted.restart", kCupOptions) + kTilt + probe);
    extrapolated[1] = lmp.variable("extrapolated");
    iterations[1] = lmp.variable("iterations");
    lmp.command("run 399\n" + dump_cup("cup_restarted.atoms"));
  }
  std::printf("  first step: extrapolated %g and %g, iterations %g and %g, %g wall contacts\n",
              extrapolated[0], extrapolated[1], iterations[0], iterations[1], wall_contacts);
  EXPECT_GT(wall_contacts, 10.0);
  EXPECT_EQ(extrapolated[0], 1.0);
  EXPECT_EQ(extrapolated[1], 1.0);
  EXPECT_EQ(iterations[1], iterations[0]);
  const double difference =
      largest_position_difference("cup_uninterrupted.atoms", "cup_restarted.atoms");
  std::printf("  restart vs uninterrupted: %.3e d\n", difference / (2.0 * kR));
  EXPECT_LE(difference, 1e-12 * 2.0 * kR);
}

// A restart file of restart format 6 (unittest/decks/format6, written by the plugin before the
// last change joined the history: 11 values per contact, walls too) is read with the change
// zero, and with `warm yes` (that version's start) the pile continues exactly as that version
// continued it (positions after 2000 steps, kept with the file; measured equal to the last bit
// with the same LAMMPS; a misread history moves the pile by far more).
TEST(DeckCoulomb, Format6RestartFileContinuesAsThatVersionDid)
{
  const std::string dir = deck::source_path("unittest/decks/format6/");
  {
    deck::Lammps lmp;
    lmp.command(cup_from(dir + "coulomb_cup.restart", "sweeps 5000 tol 1e-10 warm yes") +
                "run 2000\n" + dump_cup("cup_format6.atoms"));
  }
  const std::string then = dir + "coulomb_cup_continued.atoms";
  ASSERT_EQ(deck::read_atom_dump(then).size(), 24u);
  const double difference = largest_position_difference(then, "cup_format6.atoms");
  std::printf("  format 6 file continued here vs by its version: %.3e d\n",
              difference / (2.0 * kR));
  EXPECT_LE(difference, 1e-12 * 2.0 * kR);
}
