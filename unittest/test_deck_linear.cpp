// Deck tests of pair granular/exact with the linear laws, through the LAMMPS library with the
// plugin loaded: an analytic collision, bad input, and the invariances a DEM user relies on
// (newton on == off, run boundaries and restarts == an uninterrupted run, serial == MPI).
#include "packing_state.hpp"

#include <gmock/gmock.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

namespace {

using namespace packing;

std::string packing_vars(const std::string &newton, int nsteps, const std::string &damping,
                         const std::string &tangential, const std::string &history = "neigh")
{
  return "variable newton index " + newton + "\nvariable nsteps index " + std::to_string(nsteps) +
      "\nvariable contact index \"hooke 2000 damping " + damping + " tangential " + tangential +
      "\"\nvariable history index " + history + "\n";
}

// the two per-contact stores of the pair style
const char *const kStores[] = {"neigh", "compact"};

// two touching spheres, integrated, pair style without coefficients
const std::string kTwoTouchingSpheres = std::string(deck::kEmptyGranularBox) + R"(
create_atoms 1 single 1 1 1
create_atoms 1 single 1.9 1 1
set group all diameter 1.0
set group all density 1.0
fix integrate all nve/sphere
)";

// 40 spheres poured into a box with a floor (LJ units): a deck whose run starts without atoms
const std::string kPourDeck = R"(units lj
atom_style sphere
boundary p p f
comm_modify vel yes
region box block 0 4 0 4 0 16
create_box 1 box
region drop block 0.5 3.5 0.5 3.5 4 15
neighbor 0.15 bin
neigh_modify delay 0 every 1 check yes
fix integrate all nve/sphere
fix gravity all gravity 10.0 vector 0 0 -1
fix drop all pour 40 1 3123 region drop diam range 0.8 1.0 dens 1 1
timestep 0.001
)";

}    // namespace

TEST(DeckLinear, PluginRegistersStyle)
{
  deck::Lammps lmp;
  EXPECT_TRUE(lammps_has_style(lmp.handle(), "pair", "granular/exact"));
}

// Two equal spheres collide head-on with hooke + viscous damping. The clamped linear
// spring-dashpot has a closed form: with m the reduced mass, w0^2 = kn/m, g = eta/(2m),
// wd = sqrt(w0^2 - g^2), the overlap is (v0/wd) e^{-g t} sin(wd t) until the total force
// kn z + eta z' reaches zero at wd t* = pi - atan(eta wd / (kn - eta g)); the spheres then
// separate at the relative speed -z'(t*), so e = e^{-g t*} (cos(wd t*) - (g/wd) sin(wd t*)) * -1.
TEST(DeckLinear, HeadOnCollisionMatchesSpringDashpot)
{
  const double kn = 2.0e4, eta = 20.0, mass = 1.0, v0 = 1.0;
  const double m = mass / 2;
  const double w0 = std::sqrt(kn / m), g = eta / (2 * m), wd = std::sqrt(w0 * w0 - g * g);
  const double t_star = (M_PI - std::atan(eta * wd / (kn - eta * g))) / wd;
  const double e_expected = -std::exp(-g * t_star) * (std::cos(wd * t_star) - g / wd * std::sin(wd * t_star));
  const double dt = t_star / 5000;

  deck::Lammps lmp;
  lmp.command(deck::head_on_collision("hooke " + num(kn) + " damping viscous " + num(eta) +
                                          " 0 tangential refined 1000 0.5",
                                      dt, "pushing.txt"));
  // run until the spheres have separated
  const int nsteps = static_cast<int>(std::ceil((0.2 / v0 + 2 * t_star) / dt));
  lmp.command("run " + std::to_string(nsteps));
  lmp.command("unfix record");
  const int steps_in_contact = deck::count_ones("pushing.txt");
  auto **v = static_cast<double **>(lammps_extract_atom(lmp.handle(), "v"));
  const double e = std::fabs(v[1][0] - v[0][0]) / v0;
  const double duration = steps_in_contact * dt;
  std::printf("  restitution %.6f (analytic %.6f), contact duration %.6f (analytic %.6f)\n", e,
              e_expected, duration, t_star);
  EXPECT_NEAR(e / e_expected, 1.0, 1e-3);
  EXPECT_NEAR(duration / t_star, 1.0, 1e-3);
}

// Every malformed pair_coeff stops with a message that says what is wrong.
TEST(DeckLinear, BadPairCoeffIsRejected)
{
  const std::string setup = deck::kEmptyGranularBox;
  const deck::BadInput cases[] = {
      {"pair_coeff 1 1", "missing normal model"},
      {"pair_coeff 1 1 spring 1000 tangential classic 800 0.5", "unknown normal model 'spring'"},
      {"pair_coeff 1 1 hooke", "hooke expects 1 value"},
      {"pair_coeff 1 1 hooke -5 tangential classic 800 0.5", "kn = -5 must be > 0"},
      {"pair_coeff 1 1 hooke 0 tangential classic 800 0.5", "kn = 0 must be > 0"},
      {"pair_coeff 1 1 hooke abc tangential classic 800 0.5", "abc"},
      {"pair_coeff 1 1 hooke 1000", "expected 'tangential' at the end"},
      {"pair_coeff 1 1 hooke 1000 tangential", "tangential expects a model"},
      {"pair_coeff 1 1 hooke 1000 tangential classic 800", "tangential classic expects 2 value"},
      {"pair_coeff 1 1 hooke 1000 tangential sticky 800 0.5", "unknown tangential model 'sticky'"},
      {"pair_coeff 1 1 hooke 1000 tangential classic -1 0.5", "kt = -1 must be > 0"},
      {"pair_coeff 1 1 hooke 1000 tangential classic 800 -0.1", "mu = -0.1 must be >= 0"},
      // nu given twice: the next keyword was read as nu_J ("not 'damping'")
      {"pair_coeff 1 1 hertz 1e4 0.3 0.3 damping restitution 0.5 tangential sliding 0.5",
       "hertz takes 2 numbers, or 4 with two materials (<E> <nu> [<E_J> <nu_J>]), not 3"},
      // magnitudes the laws cannot keep exact in double precision (NaN at a refined contact's
      // onset with mu = 1e-200, in the thermo output with a stiffness of 1e308)
      {"pair_coeff 1 1 hooke 1000 tangential refined 800 1e-200",
       "mu = 1e-200 is outside the magnitudes the laws keep exact, 1e-100 to 1e+100"},
      {"pair_coeff 1 1 hooke 1e-200 tangential refined 800 0.5", "kn = 1e-200 is outside"},
      {"pair_coeff 1 1 hooke 1000 tangential refined 1e200 0.5", "kt = 1e+200 is outside"},
      {"pair_coeff 1 1 hooke 1e308 tangential classic 800 0.5", "kn = 1e+308 is outside"},
      {"pair_coeff 1 1 hertz 1e308 0.3 tangential jaeger 0.5", "is outside the magnitudes"},
      // a Jaeger capacity whose records no store can hold (it overflowed 32 bits under /kk and
      // ran with wrong physics, or crashed)
      {"pair_coeff 1 1 hertz 1e4 0.3 tangential jaeger 0.5 capacity 2147483647",
       "capacity M = 2147483647 would keep up to 2147483648 history vertices of 32 bytes per "
       "contact (64 GiB for each contact"},
      {"pair_coeff 1 1 hertz 1e4 0.3 tangential jaeger 0.5 capacity 67108863",
       "give M <= 67108862"},
      {"pair_coeff 1 1 hooke 1000 tangential classic 800 0.5 twirl yes", "option of 'tangential refined'"},
      {"pair_coeff 1 1 hooke 1000 tangential refined 800 0.5 twirl maybe", "must be 'yes' or 'no'"},
      {"pair_coeff 1 1 hooke 1000 tangential refined 800 0.5 twirl", "twirl expects 1 value"},
      {"pair_coeff 1 1 hooke 1000 tangential refined 800 0.5 spin yes", "unexpected argument 'spin'"},
      {"pair_coeff 1 1 hooke 1000 tangential refined 800 0.5 projection no", "'projection no' needs 'twirl no'"},
      {"pair_coeff 1 1 hooke 1000 tangential classic 800 0.5 extra", "unexpected argument 'extra'"},
      {"pair_coeff 1 1 hooke 1000 damping viscous 1 tangential classic 800 0.5", "damping viscous with 'tangential classic' expects 2 values"},
      {"pair_coeff 1 1 hooke 1000 damping viscous -1 0 tangential classic 800 0.5", "eta_n = -1 must be >= 0"},
      {"pair_coeff 1 1 hooke 1000 damping sticky tangential classic 800 0.5", "unknown damping model 'sticky'"},
      {"pair_coeff 1 1 hooke 1000 tangential classic 800 0.5 hooke 5", "unexpected argument 'hooke'"},
      {"pair_coeff 1 3 hooke 1000 tangential classic 800 0.5", "Numeric index 3 is out of bounds"},
      // Jaeger (hertz + jaeger)
      {"pair_coeff 1 1 hooke 1000 tangential jaeger 0.4", "needs the normal model 'hertz"},
      {"pair_coeff 1 1 hertz 1e7 0.3 tangential classic 800 0.5", "'tangential classic' needs the normal model 'hooke"},
      {"pair_coeff 1 1 hertz -1 0.3 tangential jaeger 0.4", "E (Young's modulus) = -1 must be > 0"},
      {"pair_coeff 1 1 hertz 1e7 0.6 tangential jaeger 0.4", "must be in (-1, 0.5]"},
      {"pair_coeff 1 1 hertz 1e7", "hertz expects 2 value"},
      {"pair_coeff 1 1 hertz 1e7 0.3 tangential jaeger", "tangential jaeger expects 1 value"},
      {"pair_coeff 1 1 hertz 1e7 0.3 tangential jaeger -0.1", "mu = -0.1 must be >= 0"},
      {"pair_coeff 1 1 hertz 1e7 0.3 tangential jaeger 0.4 approx 3", "must be in [0, 2]"},
      {"pair_coeff 1 1 hertz 1e7 0.3 tangential jaeger 0.4 approx", "approx expects 1 value"},
      {"pair_coeff 1 1 hertz 1e7 0.3 tangential jaeger 0.4 capacity 1", "must be an integer >= 2"},
      {"pair_coeff 1 1 hertz 1e7 0.3 tangential jaeger 0.4 capacity lots", "lots"},
      {"pair_coeff 1 1 hertz 1e7 0.3 tangential jaeger 0.4 memory 5", "unexpected argument 'memory'"},
      // a missing value names what was expected, not only the word read in its place
      {"pair_coeff 1 1 hooke 1000 damping viscous tangential classic 800 0.5", "eta_n must be a number >= 0, not 'tangential'"},
      {"pair_coeff 1 1 hooke nan tangential classic 800 0.5", "kn must be a number > 0, not 'nan'"},
      {"pair_coeff 1 1 hertz 1e7 0.3 tangential jaeger 0.4 capacity EXACT", "capacity expects an integer M >= 2 or 'exact', not 'EXACT'"},
      // an option given twice (the last one used to win silently), or out of its place
      {"pair_coeff 1 1 hooke 1000 tangential refined 800 0.5 onset no onset yes", "'onset' is given twice"},
      {"pair_coeff 1 1 hertz 1e7 0.3 tangential jaeger 0.4 approx 0.5 approx 1", "'approx' is given twice"},
      {"pair_coeff 1 1 hertz 1e7 0.3 tangential jaeger 0.4 capacity exact capacity 4", "'capacity' is given twice"},
      {"pair_coeff 1 1 hooke 1000 tangential classic 800 0.5 damping viscous 1 1", "'damping' is out of place"},
  };
  deck::expect_rejected(setup, cases);
  // (LAMMPS keeps one process-wide plugin list: one instance at a time, hence the scopes)
  {
    // bad pair_style arguments
    deck::Lammps lmp;
    EXPECT_NE(lmp.error_of("pair_style granular/exact cutoff -1").find("must be > 0"),
              std::string::npos);
    EXPECT_NE(lmp.error_of("pair_style granular/exact radius 2").find("Unknown pair_style"),
              std::string::npos);
    EXPECT_NE(lmp.error_of("pair_style granular/exact cutoff 2 cutoff 3").find("given twice"),
              std::string::npos);
    EXPECT_NE(lmp.error_of("pair_style granular/exact history neigh history compact")
                  .find("'history' is given twice"),
              std::string::npos);
    EXPECT_NE(lmp.error_of("pair_style granular/exact work no")
                  .find("work no: expected 'auto' (track the contacts' work and dissipation "
                        "while an output reads them, the default) or 'yes' (always)"),
              std::string::npos);
    EXPECT_NE(lmp.error_of("pair_style granular/exact work").find("work (nothing): expected"),
              std::string::npos);
    EXPECT_NE(lmp.error_of("pair_style granular/exact work yes work auto")
                  .find("'work' is given twice"),
              std::string::npos);
    EXPECT_NE(lmp.error_of("pair_style granular/exact works yes").find("[work auto|yes]"),
              std::string::npos);
  }
  {
    // types with different models are not mixed silently
    deck::Lammps mix;
    mix.command(setup + R"(
create_atoms 1 single 1 1 1
create_atoms 2 single 2 1 1
set group all diameter 1.0
set group all density 1.0
pair_coeff 1 1 hooke 1000 tangential classic 800 0.5
pair_coeff 2 2 hooke 1000 tangential refined 800 0.5
)");
    EXPECT_NE(mix.error_of("run 0").find("cannot mix"), std::string::npos);
  }
  {
    // missing ghost velocities
    deck::Lammps noghost;
    noghost.command(R"(
units lj
atom_style sphere
region box block 0 4 0 4 0 4
create_box 1 box
create_atoms 1 single 1 1 1
pair_style granular/exact
pair_coeff * * hooke 1000 tangential classic 800 0.5
)");
    EXPECT_NE(noghost.error_of("run 0").find("comm_modify vel yes"), std::string::npos);
  }
  {
    // atoms without radius/omega
    deck::Lammps atomic;
    atomic.command(R"(
units lj
atom_style atomic
region box block 0 4 0 4 0 4
create_box 1 box
)");
    EXPECT_NE(atomic.error_of("pair_style granular/exact\npair_coeff * * hooke 1000 tangential classic 800 0.5\nmass * 1\ncreate_atoms 1 single 1 1 1\nrun 0").find("requires atom attributes radius"),
              std::string::npos);
  }
}

// The pair style's internal fixes: deleting the history fix between runs stops with an error
// (its histories are gone; the pair style used to follow a dangling pointer), and the history
// fixes cannot be defined by hand (they used to crash at setup).
TEST(DeckLinear, InternalFixesAreGuarded)
{
  for (const char *store : kStores) {
    deck::Lammps lmp;
    lmp.command(kTwoTouchingSpheres + "pair_style granular/exact history " + store +
                "\npair_coeff * * hooke 1000 tangential classic 800 0.5\nrun 5");
    lmp.command("unfix GE_NEIGH_HISTORY");
    EXPECT_NE(lmp.error_of("run 5").find("internal fix GE_NEIGH_HISTORY was deleted"),
              std::string::npos)
        << store;
    // the remedy the message gives
    lmp.command("pair_style none\npair_style granular/exact history " + std::string(store) +
                "\npair_coeff * * hooke 1000 tangential classic 800 0.5\nrun 5");
    EXPECT_EQ(lmp.thermo("atoms"), 2.0);
  }
  const deck::BadInput cases[] = {
      // (not an internal fix, but the same two spheres): a sphere without a size
      {"pair_coeff * * hooke 1000 tangential classic 800 0.5\nset atom 2 diameter 0\nrun 0",
       "atom 2 has no size (radius <= 0)"},
      // a periodic box (4 long) in which a sphere could touch two images of another (diameter
      // 2.1); their contacts would share one history
      {"pair_coeff * * hooke 1000 tangential classic 800 0.5\nset group all diameter 2.1\nrun 0",
       "the periodic box is 4 long along x, at most twice the largest contact distance (2.1)"},
      // Jaeger's law needs the compact store, which 'history neigh' given to pair_style
      // excludes (a restart file's neighbour store is carried over to the compact one): the
      // message says what to give
      {"pair_style granular/exact history neigh\npair_coeff * * hertz 1e4 0.3 tangential jaeger "
       "0.5\nrun 0",
       "but pair_style was given 'history neigh': leave 'history' out"},
      // a user's fix under a reserved ID (the messages were LAMMPS' or about pair hybrid)
      {"pair_style none\nfix GE_NEIGH_HISTORY all nve/sphere\npair_style granular/exact",
       "the fix ID GE_NEIGH_HISTORY is reserved"},
      // ... also defined after the pair style, before its store is made (the message was
      // "could not create its history fix")
      {"pair_coeff * * hooke 1000 tangential classic 800 0.5\nfix GE_NEIGH_HISTORY all nve/sphere"
       "\nrun 0",
       "the fix ID GE_NEIGH_HISTORY is reserved for its contact histories, and the input defined "
       "fix GE_NEIGH_HISTORY (nve/sphere) with it"},
      {"fix GE_COULOMB all nve/sphere\npair_coeff * * hooke 1000 tangential coulomb 0.5",
       "the fix ID GE_COULOMB is reserved"},
      {"pair_coeff * * hooke 1000 tangential classic 800 0.5\nunfix GE_NEIGH_HISTORY_DUMMY\nrun 0",
       "internal fix GE_NEIGH_HISTORY_DUMMY was deleted"},
      {"pair_coeff * * hooke 1000 tangential classic 800 0.5\n"
       "fix mine all CONTACT_HISTORY/EXACT 11 4\nrun 0",
       "is internal to pair granular/exact: do not define it"},
      {"pair_coeff * * hooke 1000 tangential classic 800 0.5\n"
       "fix mine all NEIGH_HISTORY/EXACT 11\nrun 0",
       "is internal to pair granular/exact: do not define it"},
  };
  deck::expect_rejected(kTwoTouchingSpheres, cases);
}

// Three spheres of diameter 1 in the empty box: a far one (ID 1, in group far) and two touching
// (2, 3); for the atom-ID tests below.
const std::string kFarAndTouchingSpheres = std::string(deck::kEmptyGranularBox) +
    "create_atoms 1 single 3.5 3.5 3.5\ncreate_atoms 1 single 1 1 1\n"
    "create_atoms 1 single 1.9 1 1\nset group all diameter 1.0\n"
    "set group all density 1.0\ngroup far id 1\n";

// The histories know a contact by its partner's atom ID: deleting an atom with the default
// 'compress yes' renumbers the others, and the histories would be attached to other partners
// (silently, before; LAMMPS' own granular styles too). Between runs, an error while contacts
// are held; 'compress no' keeps the IDs and goes on. Spheres: a far one (ID 1, the one
// deleted) and two touching (2, 3).
TEST(DeckLinear, RenumberedAtomsAreRejected)
{
  const std::string spheres = kFarAndTouchingSpheres + "fix integrate all nve/sphere\n";
  for (const char *store : kStores) {
    SCOPED_TRACE(store);
    const std::string start = spheres + "pair_style granular/exact history " + store +
        "\npair_coeff * * hooke 1000 tangential classic 800 0.5\nrun 5\n";
    for (const char *deleted : {"far compress yes", "far compress no"}) {
      SCOPED_TRACE(deleted);
      deck::Lammps lmp;
      lmp.command(start);
      const std::string msg = lmp.error_of(std::string("delete_atoms group ") + deleted +
                                           "\nrun 5");
      if (std::string(deleted) == "far compress yes")
        EXPECT_NE(msg.find("atom IDs were changed since the last run"), std::string::npos) << msg;
      else
        EXPECT_EQ(msg, "");
    }
  }
}

// The guard above cannot be switched off with the fix IDs: unfixing its record of the atom IDs,
// or defining a fix of the input under its ID (which replaced it, silently, and the renumbering
// went through), stops while contacts are held; without contacts the record is made anew.
TEST(DeckLinear, TheRenumberingGuardCannotBeSwitchedOff)
{
  const std::string spheres = kFarAndTouchingSpheres + "fix integrate all nve/sphere\n";
  for (const char *store : kStores) {
    SCOPED_TRACE(store);
    const std::string start = spheres + "pair_style granular/exact history " + store +
        "\npair_coeff * * hooke 1000 tangential classic 800 0.5\nrun 5\n";
    {
      deck::Lammps lmp;
      lmp.command(start);
      const std::string msg =
          lmp.error_of("unfix GE_ATOM_IDS\ndelete_atoms group far compress yes\nrun 5");
      EXPECT_THAT(msg, testing::HasSubstr("its internal fix GE_ATOM_IDS was deleted (unfix)"));
    }
    {
      deck::Lammps lmp;
      lmp.command(start);
      const std::string msg = lmp.error_of(
          "fix GE_ATOM_IDS all property/atom i_foo\ndelete_atoms group far compress yes\nrun 5");
      EXPECT_THAT(msg, testing::HasSubstr("the input defined fix GE_ATOM_IDS (property/atom) "
                                          "with it, which replaced the pair style's"));
    }
    {
      // apart: no history to guard, the record is made anew and guards again
      deck::Lammps lmp;
      lmp.command(start + "set atom 3 x 3.0\nvelocity all set 0 0 0\nrun 1\nunfix GE_ATOM_IDS\nrun 1");
      EXPECT_EQ(lmp.error_of("set atom 3 x 1.9\nvelocity all set 0 0 0\nrun 1"), "");
      const std::string msg = lmp.error_of("delete_atoms group far compress yes\nrun 5");
      EXPECT_THAT(msg, testing::HasSubstr("atom IDs were changed since the last run"));
    }
  }
}

// Atoms created between or during runs (create_atoms, fix deposit or fix pour) are new, not
// renumbered: they go on without the error above. LAMMPS does not clear a created atom's
// custom per-atom values, so the ID recorded for it is whatever its slot held last; a slot
// freed by deleting an atom holds the ID of the atom moved from it (pouring and writing a
// restart file stopped with the error above). The spheres of the test above: the far one (ID 1)
// deleted, then a new one made in its slot by create_atoms (ID 4) and another by fix deposit
// (ID 5) while the touching pair keeps its contact (no time integration: it stays as made);
// deleting the new one with 'compress yes' after that is still caught.
TEST(DeckLinear, CreatedAtomsAreNotTakenForRenumberedOnes)
{
  const std::string spheres = kFarAndTouchingSpheres + "region corner block 3 4 3 4 3 4\n";
  for (const char *store : kStores) {
    SCOPED_TRACE(store);
    deck::Lammps lmp;
    lmp.command(spheres + "pair_style granular/exact history " + store +
                "\npair_coeff * * hooke 1000 tangential classic 800 0.5\nrun 5\n"
                "delete_atoms group far compress no");
    EXPECT_EQ(lmp.error_of("create_atoms 1 single 3.5 3.5 3.5\nset atom 4 diameter 1.0\n"
                           "set atom 4 density 1.0\nrun 5"),
              "");
    EXPECT_EQ(lmp.error_of("group created id 4\ndelete_atoms group created compress no\n"
                           "fix add all deposit 1 1 1 5678 region corner id max\nrun 2\n"
                           "unfix add\nrun 0"),
              "");
    EXPECT_EQ(lmp.thermo("atoms"), 3.0);
    const std::string msg = lmp.error_of("group new id 5\ndelete_atoms group new\nrun 0");
    EXPECT_NE(msg.find("atom IDs were changed since the last run"), std::string::npos) << msg;
  }
}

// Atoms poured during a run are recorded with their IDs as they are made, so the checks above
// hold for them before the next run's setup: a delete_atoms with 'compress yes' right after the
// pouring run is an error, and so is a deletion between read_restart of a file that the restart
// command wrote during that run and the first run (before, the poured atoms went unchecked and
// their histories were attached to other partners). 40 spheres poured onto a floor.
TEST(DeckLinear, PouredAtomsAreCheckedBeforeTheNextRun)
{
  const std::string pour = kPourDeck + R"(compute touching all contact/atom
compute touching_sum all reduce sum c_touching
variable touching equal c_touching_sum
)";
  for (const char *store : kStores) {
    SCOPED_TRACE(store);
    const std::string styles = std::string("pair_style granular/exact history ") + store +
        "\npair_coeff * * hooke 2000 damping viscous 10 0 tangential classic 1600 0.4\n"
        "fix floor all wall/gran/exact hooke 2000 damping viscous 10 0 tangential classic "
        "1600 0.4 zplane 0 NULL\n";
    {
      deck::Lammps lmp;
      lmp.command(pour + styles + "restart 2500 poured.*.restart\nrun 3000\nrun 0 post no");
      ASSERT_EQ(lmp.thermo("atoms"), 40.0);
      ASSERT_GT(lmp.variable("touching"), 0.0);
    }
    {
      deck::Lammps lmp;
      lmp.command(pour + styles + "run 3000");
      const std::string msg = lmp.error_of("group first id 1\ndelete_atoms group first\nrun 0");
      EXPECT_NE(msg.find("atom IDs were changed since the last run"), std::string::npos) << msg;
    }
    deck::Lammps lmp;
    lmp.command("read_restart poured.2500.restart\ncomm_modify vel yes\n" + styles +
                "fix integrate all nve/sphere\nregion low block INF INF INF INF 0 1.2\n");
    const std::string msg = lmp.error_of("delete_atoms region low compress no\nrun 0");
    EXPECT_NE(msg.find("between read_restart and the first run"), std::string::npos) << msg;
  }
}

// The setup checks of a pour deck: the run starts without atoms, so the time-step checks wait
// for the first neighbour build that has atoms (they ran at the run's start only, and a Young's
// modulus 10^6 too large in an SI deck, or a stiffness 10^6 too large here, went unnoticed
// until LAMMPS lost atoms), and are said once. The overlap check looks at the contacts the
// input made (without a history): a run that continues a bed whose overlaps its own physics made
// is not warned about again.
TEST(DeckLinear, SetupChecksOfAPourDeckRunWhenItsAtomsExist)
{
  const std::string pour = kPourDeck;
  for (const std::string normal :
       {std::string("hooke 2e9 damping viscous 10 0 tangential classic 1.6e9 0.4"),
        std::string("hertz 1e12 0.3 tangential jaeger 0.4")}) {
    SCOPED_TRACE(normal);
    deck::Lammps lmp("pour_checks.log");
    // (too stiff: LAMMPS loses atoms later on, after the warning)
    lmp.error_of(pour + "pair_style granular/exact\npair_coeff * * " + normal +
                 "\nrun 200\nrun 200");
    const std::string log = deck::read_text("pour_checks.log");
    const std::string warning = normal[1] == 'o' ? "resolves a contact of two of the lightest"
                                                 : "resolves a Hertz impact of two of the lightest";
    EXPECT_THAT(log, testing::HasSubstr(warning));
    EXPECT_EQ(log.find(warning), log.rfind(warning)) << "said once";
  }
  // a bed pressed together by the input warns at its first run; its restart does not
  {
    deck::Lammps lmp("overlaps_first.log");
    lmp.command(kTwoTouchingSpheres +
                "pair_coeff * * hooke 1000 tangential classic 800 0.5\nset atom 2 x 1.8\n"
                "velocity all set 0 0 0\nrun 1\nwrite_restart overlaps.restart");
  }
  EXPECT_THAT(deck::read_text("overlaps_first.log"),
              testing::HasSubstr("largest overlap of the contacts the run starts with (those "
                                 "without a history yet) is 40 %"));
  {
    deck::Lammps lmp("overlaps_again.log");
    lmp.command("read_restart overlaps.restart\ncomm_modify vel yes\nfix i all nve/sphere\nrun 1");
  }
  EXPECT_THAT(deck::read_text("overlaps_again.log"),
              testing::Not(testing::HasSubstr("largest overlap")));
}

// After read_restart the history fixes are made at the first run's setup, and LAMMPS hands them
// the file's per-atom data in the order the atoms had when it was read: deleting atoms before
// that setup gives atoms other atoms' histories. An error that says to give 'run 0' first; with
// it, the same deletion goes on. Six touching pairs, three atoms deleted.
TEST(DeckLinear, AtomsDeletedBeforeTheFirstRunAfterRestartAreRejected)
{
  std::string pairs = std::string(deck::kEmptyGranularBox);
  for (int k = 0; k < 6; ++k) {
    const std::string x = deck::num(0.5 + 1.1 * (k % 3)) + " ";
    const std::string z = " " + deck::num(1.0 + 1.5 * (k / 3));
    pairs += "create_atoms 1 single " + x + "1" + z + "\ncreate_atoms 1 single " + x + "1.9" +
        z + "\n";
  }
  pairs += "set group all diameter 1.0\nset group all density 1.0\n"
           "velocity all create 1.0 1234\nfix integrate all nve/sphere\n";
  const std::string deletion = "group some id 1 5 9\ndelete_atoms group some compress no\n";
  for (const char *store : kStores) {
    SCOPED_TRACE(store);
    {
      deck::Lammps lmp;
      lmp.command(pairs + "pair_style granular/exact history " + store +
                  "\npair_coeff * * hooke 1000 tangential classic 800 0.5\nrun 5\n"
                  "write_restart deleted_after_restart.restart");
    }
    const std::string restarted =
        "read_restart deleted_after_restart.restart\ncomm_modify vel yes\n"
        "fix integrate all nve/sphere\n";
    {
      deck::Lammps lmp;
      lmp.command(restarted);
      const std::string msg = lmp.error_of(deletion + "run 5");
      EXPECT_NE(msg.find("give 'run 0' right after read_restart"), std::string::npos) << msg;
    }
    {
      deck::Lammps lmp;
      lmp.command(restarted + "run 0\n" + deletion + "run 5");
      EXPECT_EQ(lmp.thermo("atoms"), 9.0);
    }
  }
}

// Input that is allowed but likely wrong warns: a global cutoff below the contact distance
// (contacts are lost), a wall's wiggle of a few steps per period (not resolved), a negative
// Poisson ratio in a wall's law words (named as the wall's, not the pair's).
TEST(DeckLinear, DoubtfulInputWarns)
{
  {
    deck::Lammps lmp("doubtful_input.log");
    lmp.command(std::string(deck::kEmptyWallBox) + R"(
create_atoms 1 single 1 1 1
set group all diameter 1.0
set group all density 1.0
pair_style granular/exact cutoff 0.5
pair_coeff * * hooke 1000 tangential classic 800 0.5
fix w all wall/gran/exact hertz 1e5 -0.2 tangential sliding 0.5 zplane 0 NULL wall rigid wiggle z 0.1 0.01
run 0
)");
  }
  {
    // a sphere overlapping the floor by 20 % of its radius (a pair overlap of that size warned,
    // a wall's was silent), and a mass so small that m/k underflowed ("in only 0 steps")
    deck::Lammps lmp("doubtful_input_2.log");
    lmp.command(std::string(deck::kEmptyWallBox) + R"(
create_atoms 1 single 1 1 0.4
create_atoms 1 single 3 3 1
set group all diameter 1.0
set group all density 1e-290
pair_style granular/exact
pair_coeff * * hooke 1000 tangential classic 800 0.5
fix w all wall/gran/exact hooke 1000 tangential classic 800 0.5 zplane 0 NULL
run 0
)");
  }
  const std::string text =
      deck::read_text("doubtful_input.log") + deck::read_text("doubtful_input_2.log");
  for (const char *warning :
       {"WARNING: Pair granular/exact: cutoff 0.5 is less than the largest contact distance of "
        "types 1 1",
        "WARNING: Fix w wall/gran/exact: the wiggle period is only 2 time steps",
        "WARNING: fix wall/gran/exact: hertz: negative Poisson ratio",
        "WARNING: Fix w wall/gran/exact: the largest overlap of a sphere with the wall when the "
        "run starts is 20 % of its radius",
        "in only 1.02e-144 steps (its duration pi sqrt(m/(2 k)) = 5.08e-147)"})
    EXPECT_NE(text.find(warning), std::string::npos) << warning;
}

// A force that is not finite when a run starts stops it, naming the atom: two spheres made at
// the same position have no normal (it ran on with NaN); a sphere whose centre is on a wall
// overlaps it by its whole radius (silent, and the sphere was thrown out).
TEST(DeckLinear, ForcesThatAreNotFiniteStopTheRun)
{
  const deck::BadInput cases[] = {
      {"create_atoms 1 single 1 1 1\ncreate_atoms 1 single 1 1 1\nset group all diameter 1.0\n"
       "set group all density 1.0\npair_coeff * * hooke 1000 tangential classic 800 0.5\nrun 0",
       "Pair granular/exact: the force or torque on atom 1 is not finite when the run starts"},
      {"create_atoms 1 single 1 1 0\nset group all diameter 1.0\nset group all density 1.0\n"
       "pair_coeff * * hooke 1000 tangential classic 800 0.5\n"
       "fix w all wall/gran/exact hooke 1000 tangential classic 800 0.5 zplane 0 NULL\nrun 0",
       "the centre of atom 1 is on or behind the wall at the start of the run"},
  };
  deck::expect_rejected(std::string(deck::kEmptyWallBox) + "pair_style granular/exact\n", cases);
}

// Forces and contact histories do not depend on the newton_pair setting.
TEST(DeckLinear, NewtonOnEqualsOff)
{
  for (const std::string store : kStores) {
    SCOPED_TRACE(store);
    State states[2];
    const char *newton[2] = {"on", "off"};
    for (int k = 0; k < 2; ++k) {
      deck::Lammps lmp;
      lmp.command(packing_vars(newton[k], 300, "viscous 5 2", "refined 1600 0.4", store));
      lmp.command("include " + kPacking + "\nrun ${nsteps}");
      const std::string out = "newton_" + std::string(newton[k]) + "_" + store;
      write_state(lmp, out);
      states[k] = read_state(out);
    }
    expect_same_state(states[0], states[1], 1e-10, ("newton on vs off, " + store).c_str());
  }
}

// The compact store (a variable-length record per touching contact, rebuilt at every neighbour
// list) holds exactly what LAMMPS' neighbour history holds: the runs agree bit for bit.
TEST(DeckLinear, CompactStoreEqualsNeighStore)
{
  for (const char *newton : {"on", "off"}) {
    SCOPED_TRACE(newton);
    State states[2];
    for (int k = 0; k < 2; ++k) {
      deck::Lammps lmp;
      lmp.command(packing_vars(newton, 600, "viscous 5 2", "refined 1600 0.4", kStores[k]));
      lmp.command("include " + kPacking + "\nrun ${nsteps}");
      const std::string out = std::string("store_") + kStores[k] + "_" + newton;
      write_state(lmp, out);
      states[k] = read_state(out);
    }
    expect_same_state(states[0], states[1], 0.0,
                      (std::string("compact vs neigh store, newton ") + newton).c_str());
  }
}

// compute pair/local (the pair style's single()) reads the contact histories and never changes
// them: a run that dumps every contact every step equals one that does not, bit for bit.
TEST(DeckLinear, PairLocalDoesNotChangeHistory)
{
  State states[2];
  for (int k = 0; k < 2; ++k) {
    deck::Lammps lmp;
    lmp.command(packing_vars("on", 200, "viscous 5 2", "refined 1600 0.4"));
    lmp.command("include " + kPacking);
    if (k == 1)
      lmp.command("dump every all local 1 every_step.pairs c_ids[1] c_ids[2] c_contacts[*]");
    lmp.command("run ${nsteps}");
    write_state(lmp, k ? "with_pair_local" : "without_pair_local");
    states[k] = read_state(k ? "with_pair_local" : "without_pair_local");
  }
  expect_same_state(states[0], states[1], 0.0, "with vs without pair/local every step");
}

namespace {

// the packing's outputs that read the contacts' work (compute pair, compute pair/local) taken
// away, and put back
const char *const kNoWorkOutputs =
    "uncompute contacts\nuncompute ids\nuncompute totals\nthermo_style custom step ke\n";
const std::string kWorkOutputs = kContactOutputs + R"(compute         totals all pair granular/exact
thermo_style    custom step ke c_totals[3] c_totals[4]
)";

// the contact columns of a state without p3 (dissipation) and p5 (tangential work)
State without_work_columns(State s)
{
  for (auto &[ids, row] : s.pairs) {
    row.erase(row.begin() + 4);
    row.erase(row.begin() + 2);
  }
  return s;
}

}    // namespace

// The contacts' work and dissipation feed no force; they are tracked while an output reads
// them (compute pair, compute pair/local) or with 'work yes'. A sheared refined packing run
// without such outputs moves exactly as with them (atoms and every other contact value bit for
// bit) and holds no work; outputs defined after it warn with the steps whose work is missing.
// With 'work yes' and no outputs, outputs defined at the end read the same work, bit for bit,
// as a run that had them from the start.
TEST(DeckLinear, WorkIsTrackedWhileAnOutputReadsIt)
{
  const int n = 300;
  const std::string run = "\nrun " + std::to_string(n) + "\n";
  std::vector<double> totals[3];
  const std::string names[3] = {"work_read", "work_unread", "work_yes"};
  for (int k = 0; k < 3; ++k) {
    deck::Lammps lmp("log." + names[k]);
    const std::string history = k == 2 ? "\"neigh work yes\"" : "neigh";
    lmp.command(packing_vars("on", n, "none", "refined 1600 0.4", history) + "include " +
                kPacking + "\n" + (k > 0 ? kNoWorkOutputs : ""));
    // (every run ends with a run 0: its setup sums the forces in another order)
    lmp.command(run + (k > 0 ? kWorkOutputs : "") + "run 0");
    write_state(lmp, names[k]);
    totals[k] = pair_totals(lmp);
  }
  const State read = read_state(names[0]), unread = read_state(names[1]),
              always = read_state(names[2]);
  expect_same_state(read, always, 0.0, "work yes vs outputs from the start");
  expect_same_state(without_work_columns(read), without_work_columns(unread), 0.0,
                    "without vs with outputs, other than the work");
  for (const auto &[ids, row] : unread.pairs) {
    ASSERT_EQ(row[2], 0.0);
    ASSERT_EQ(row[4], 0.0);
  }
  ASSERT_EQ(totals[0].size(), 17u);
  std::printf("  tangential work %.15g, dissipation %.15g (outputs from the start); %.15g, "
              "%.15g (work yes); %g, %g (no outputs)\n",
              totals[0][2], totals[0][3], totals[2][2], totals[2][3], totals[1][2], totals[1][3]);
  EXPECT_GT(totals[0][3], 0.0);
  EXPECT_EQ(totals[2][2], totals[0][2]);
  EXPECT_EQ(totals[2][3], totals[0][3]);
  EXPECT_EQ(totals[1][2], 0.0);
  EXPECT_EQ(totals[1][3], 0.0);
  const std::string gap = "none did in steps 1 to " + std::to_string(n);
  EXPECT_NE(deck::read_text("log.work_unread").find(gap), std::string::npos);
  EXPECT_EQ(deck::read_text("log.work_yes").find("none did in steps"), std::string::npos);
  EXPECT_EQ(deck::read_text("log.work_read").find("none did in steps"), std::string::npos);
}

// Restart files keep 'work yes' and the steps whose work was not tracked: continued from a file
// written without outputs, the outputs warn about those steps; with 'work yes' they read the
// work of the whole run (as the uninterrupted run with outputs, to roundoff), without a warning.
TEST(DeckLinear, RestartKeepsTheUntrackedWorkSteps)
{
  const int n = 150;
  std::vector<double> totals[3];
  {
    deck::Lammps lmp;
    lmp.command(packing_vars("on", 2 * n, "none", "refined 1600 0.4") + "include " + kPacking +
                "\nrun " + std::to_string(2 * n));
    totals[0] = pair_totals(lmp);
  }
  for (int k = 1; k < 3; ++k) {
    const std::string history = k == 2 ? "\"neigh work yes\"" : "neigh";
    const std::string name = k == 2 ? "work_yes" : "work_auto";
    {
      deck::Lammps lmp;
      lmp.command(packing_vars("on", n, "none", "refined 1600 0.4", history) + "include " +
                  kPacking + "\n" + kNoWorkOutputs + "run " + std::to_string(n) +
                  "\nwrite_restart " + name + ".restart");
    }
    deck::Lammps lmp("log.restarted_" + name);
    lmp.command(restarted_packing(name + ".restart") +
                "compute totals all pair granular/exact\nthermo_style custom step c_totals[3]\n"
                "run " + std::to_string(n));
    totals[k] = pair_totals(lmp);
  }
  std::printf("  dissipation %.15g (uninterrupted, outputs from the start), %.15g (restarted, "
              "work auto), %.15g (restarted, work yes)\n",
              totals[0][3], totals[1][3], totals[2][3]);
  const std::string warned = deck::read_text("log.restarted_work_auto");
  EXPECT_NE(warned.find("none did in steps 1 to " + std::to_string(n)), std::string::npos);
  EXPECT_EQ(deck::read_text("log.restarted_work_yes").find("none did in steps"),
            std::string::npos);
  for (int m : {2, 3}) {
    EXPECT_NEAR(totals[2][m], totals[0][m], 1e-12 * std::fabs(totals[0][m]));
    EXPECT_LT(totals[1][m], 0.9 * totals[0][m]) << "the first half's work is missing";
  }
}

// A run split by a run boundary, or by write_restart + read_restart in a fresh LAMMPS, equals the
// uninterrupted run. Without velocity-dependent damping the force at the restart step is the
// stored one, so the agreement is to roundoff (summation order changes with the new neighbour
// lists).
// The work of the contacts that have ended (global vector [2], [3]) does not depend on when the
// neighbour lists are rebuilt: a contact that ends just before a rebuild is dropped by it, and
// its work used to be lost (with a rebuild every step, 460.9 instead of 462.9 here). Sheared
// packing, both stores; with 'every 1 check no' every ended contact goes through the stores.
TEST(DeckLinear, EndedWorkDoesNotDependOnTheRebuilds)
{
  for (const std::string store : kStores) {
    SCOPED_TRACE(store);
    std::vector<double> totals[2];
    const char *schedules[2] = {"delay 0 every 1 check yes", "every 1 check no"};
    for (int k = 0; k < 2; ++k) {
      deck::Lammps lmp;
      lmp.command(packing_vars("on", 1000, "viscous 5 2", "refined 1600 0.4", store) +
                  "include " + kPacking + "\nneigh_modify " + schedules[k] + "\nrun 1000");
      totals[k] = pair_totals(lmp);
    }
    std::printf("  %s: ended work %.10g / %.10g, dissipated %.10g / %.10g\n", store.c_str(),
                totals[0][2], totals[1][2], totals[0][3], totals[1][3]);
    EXPECT_GT(totals[0][2], 0.1);
    for (int m : {2, 3}) EXPECT_NEAR(totals[1][m], totals[0][m], 1e-12 * totals[0][m]);
  }
}

TEST(DeckLinear, RestartEqualsUninterruptedRun)
{
  const int n = 150;
  for (const std::string store : kStores)
  for (const char *damping : {"none", "viscous 5 2"}) {
    SCOPED_TRACE(store + ", " + damping);
    const std::string vars = packing_vars("on", n, damping, "refined 1600 0.4", store);
    std::vector<double> totals_uninterrupted, totals_restarted;
    {
      deck::Lammps lmp;
      lmp.command(vars + "include " + kPacking + "\nrun " + std::to_string(2 * n));
      write_state(lmp, "uninterrupted");
      totals_uninterrupted = pair_totals(lmp);
    }
    {
      deck::Lammps lmp;
      lmp.command(vars + "include " + kPacking + "\nrun " + std::to_string(n) + "\nrun " +
                  std::to_string(n));
      write_state(lmp, "two_runs");
    }
    {
      deck::Lammps lmp;
      lmp.command(vars + "include " + kPacking + "\nrun " + std::to_string(n) +
                  "\nwrite_restart half.restart");
    }
    {
      deck::Lammps lmp;
      lmp.command(restarted_packing("half.restart") + R"(
compute         totals all pair granular/exact
thermo_style    custom step ke c_totals[1] c_totals[3] c_totals[4]
thermo          100
)");
      lmp.command("run " + std::to_string(n));
      write_state(lmp, "restarted");
      totals_restarted = pair_totals(lmp);
    }
    const State a = read_state("uninterrupted");
    const bool damped = std::string(damping) != "none";
    // With damping, the force LAMMPS computes at the setup of a run takes the viscous term from
    // the full-step velocities, where the uninterrupted run used the half-step ones: the first
    // half-kick after the boundary differs by eta * a * dt/2, and the dense packing amplifies
    // that over the N following steps (measured 1.5e-4 for this deck). Bounded, not exact.
    const double tol = damped ? 1e-3 : 1e-12;
    expect_same_state(a, read_state("two_runs"), tol, "run N + run N vs run 2N");
    expect_same_state(a, read_state("restarted"), tol, "restart vs uninterrupted");
    // the cumulative works include contacts that ended before the restart: they are carried
    // by the restart file too
    ASSERT_EQ(totals_uninterrupted.size(), 17u);
    ASSERT_EQ(totals_restarted.size(), 17u);
    std::printf("  cumulative tangential work %.15g / %.15g, dissipation %.15g / %.15g "
                "(uninterrupted / restarted)\n",
                totals_uninterrupted[2], totals_restarted[2], totals_uninterrupted[3],
                totals_restarted[3]);
    EXPECT_NEAR(totals_restarted[2] / totals_uninterrupted[2], 1.0, tol);
    EXPECT_NEAR(totals_restarted[3] / totals_uninterrupted[3], 1.0, tol);
  }
}

// Serial == 2 ranks == 4 ranks (oversubscribed) for a sheared packing whose atoms and contacts
// migrate between sub-domains.
TEST(DeckLinear, SerialEqualsMpi)
{
  for (const std::string store : kStores) {
    SCOPED_TRACE(store);
    const std::string vars = "-var newton on -var nsteps 600 -var contact \"hooke 2000 damping "
                             "none tangential refined 1600 0.4\" -var history " + store;
    State states[3];
    const int ranks[3] = {1, 2, 4};
    for (int k = 0; k < 3; ++k) {
      int moved = 0;
      states[k] = mpi_state(ranks[k], vars, "np" + std::to_string(ranks[k]) + "_" + store, &moved);
      if (ranks[k] > 1) {
        std::printf("  %d ranks: %d atoms changed process\n", ranks[k], moved);
        EXPECT_GT(moved, 10);
      }
    }
    expect_same_state(states[0], states[1], 1e-10, ("serial vs 2 ranks, " + store).c_str());
    expect_same_state(states[0], states[2], 1e-10, ("serial vs 4 ranks, " + store).c_str());
  }
}

namespace {

// The log of `run 0` for two 2 mm spheres of density 2500 overlapping by `overlap` (m) under
// `law`, with `extra` commands before the run.
std::string two_spheres_log(const std::string &name, const std::string &law, double overlap,
                            const std::string &extra)
{
  {
    deck::Lammps lmp(name);
    lmp.command(deck::si_sphere_box("-0.01 0.01 -0.01 0.01 -0.01 0.01") +
                "create_atoms 1 single 0 0 0\ncreate_atoms 1 single 0 0 " +
                num(2e-3 - overlap) + R"(
set group all diameter 2e-3
set group all density 2500
pair_style granular/exact
)" + "pair_coeff * * " + law + "\n" + extra + "\nrun 0");
  }
  return deck::read_text(name);
}

}    // namespace

// Likely mistakes that are legal warn with their numbers (from ports of LAMMPS' example decks):
// a swapped 'classic <kt> <mu>' (mu = 4000), for a wall's law words too, and spheres that start
// overlapping by a quarter of their radius. A deck without them prints neither warning.
TEST(DeckLinear, LikelyMistakesWarnWithTheirNumbers)
{
  auto log_of = [](const std::string &name, const std::string &law, double overlap) {
    return two_spheres_log(name, law, overlap,
                           "fix w all wall/gran/exact " + law + " zplane -0.005 NULL");
  };
  const std::string swapped =
      log_of("swapped.log", "hooke 2e5 tangential classic 0.5 4000", 2.4e-4);
  for (const char *warning :
       {"WARNING: pair_coeff for granular/exact: mu = 4000 is unusually large",
        "WARNING: fix wall/gran/exact: mu = 4000 is unusually large",
        "WARNING: Pair granular/exact: the largest overlap of the contacts the run starts with "
        "(those without a history yet) is 24 % of the smaller radius"})
    EXPECT_NE(swapped.find(warning), std::string::npos) << warning;
  const std::string fine = log_of("fine.log", "hooke 2e5 tangential classic 1.6e5 0.5", 1e-5);
  EXPECT_EQ(fine.find("unusually large"), std::string::npos);
  EXPECT_EQ(fine.find("largest overlap"), std::string::npos);
  EXPECT_EQ(fine.find("resolves a contact"), std::string::npos);
}

// A time step that resolves a linear contact in fewer than 10 steps warns with the numbers: two
// spheres of 1.047e-5 kg with k_n = 2e5 N/m last pi sqrt(m/(2 k)) = 1.607e-5 s, 3.2 steps of
// 5e-6 s; with 1e-7 s (161 steps) it is silent.
TEST(DeckLinear, CoarseTimeStepWarnsWithTheContactDuration)
{
  auto log_of = [](const std::string &name, const char *dt) {
    return two_spheres_log(name, "hooke 2e5 tangential classic 1.6e5 0.5", 1e-6,
                           std::string("timestep ") + dt);
  };
  const std::string coarse = log_of("coarse.log", "5e-6");
  const char *warning = "WARNING: Pair granular/exact: the time step 5e-06 resolves a contact of "
                        "two of the lightest spheres (mass 1.05e-05) with normal stiffness 2e+05 "
                        "in only 3.21 steps (its duration pi sqrt(m/(2 k)) = 1.61e-05)";
  EXPECT_NE(coarse.find(warning), std::string::npos) << coarse.substr(coarse.find("WARNING"), 400);
  EXPECT_EQ(log_of("fine_dt.log", "1e-7").find("resolves a contact"), std::string::npos);
}

// Hertz contacts (catalogue hertz, jaeger) have no fixed duration: the warning takes Hertz's
// collision time at the largest approach speed the run starts with. Two glass spheres (R 1 mm,
// E 7e10, nu 0.25) approaching at 2 m/s collide for 2.868 (m*^2/(R* E*^2 v))^(1/5) = 5.2e-6 s:
// a time step of 1e-6 resolves it in 5.2 steps and warns, 1e-8 does not; spheres at rest (no
// collision to resolve) do not warn either.
TEST(DeckLinear, CoarseTimeStepWarnsForHertzImpacts)
{
  const double mass = 2500.0 * 4.0 / 3.0 * M_PI * 1e-9, Estar = 7e10 / (2.0 * (1.0 - 0.0625));
  const double duration =
      2.868 * std::pow((0.5 * mass) * (0.5 * mass) / (0.5e-3 * Estar * Estar * 2.0), 0.2);
  std::printf("  Hertz collision time at 2 m/s: %.4g s\n", duration);
  for (const char *law : {"hertz 7e10 0.25 tangential dd 0.5", "hertz 7e10 0.25 tangential jaeger 0.5"}) {
    SCOPED_TRACE(law);
    auto log_of = [&](const std::string &name, const char *dt, bool moving) {
      return two_spheres_log(name, law, 1e-6,
                             std::string("timestep ") + dt +
                                 (moving ? "\nvelocity all set 0 0 0\nset atom 1 vz 1\nset atom 2 vz -1"
                                         : ""));
    };
    const std::string coarse = log_of("hertz_coarse.log", "1e-6", true);
    char expected[256];
    std::snprintf(expected, sizeof(expected),
                  "in only %.3g steps (its duration 2.868 (m*^2/(R* E*^2 v))^(1/5) = %.3g)",
                  duration / 1e-6, duration);
    EXPECT_NE(coarse.find(expected), std::string::npos)
        << expected << "\n" << coarse.substr(coarse.rfind("WARNING") == std::string::npos ? 0 : coarse.rfind("WARNING"), 500);
    EXPECT_NE(coarse.find("approach speed 2 with E* = 3.73e+10"), std::string::npos);
    EXPECT_EQ(log_of("hertz_fine.log", "1e-8", true).find("Hertz impact"), std::string::npos);
    EXPECT_EQ(log_of("hertz_rest.log", "1e-6", false).find("Hertz impact"), std::string::npos);
  }
}
