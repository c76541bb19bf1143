// A contact law changed while contacts hold a history (between runs, or after read_restart,
// with or without `pair_style none` and the pair style defined anew): each contact is read
// only by the law that wrote it. Where the new law keeps the same state it goes on as it is;
// otherwise it is carried over to the new law (src/contact/law_change.hpp): the normal state
// of the new law at the contact's overlap, the old elastic tangential force capped at the new
// friction limit, the Yade rotation where both laws have moments; one warning per type pair
// says so. Checked on the sheared packing (about 3,000 contacts, many sliding): where the two
// laws give the same force for the same state (classic and spring_sliding with one k_t, a law
// with and without Yade moments, whose rotation starts at zero) the forces and torques on every
// atom after the change equal those before it.
#include "packing_state.hpp"

#include <gmock/gmock.h>

#include <cmath>
#include <string>
#include <vector>

namespace {

using namespace packing;

// the columns of the atom dump (after the owning process): x 0-2, v 3-5, f 6-8, omega 9-11,
// torque 12-14
std::map<long, std::vector<double>> forces_and_torques(const State &s, bool torques)
{
  std::map<long, std::vector<double>> out;
  for (const auto &[id, row] : s.atoms) {
    out[id] = {row[6], row[7], row[8]};
    if (torques) out[id].insert(out[id].end(), {row[12], row[13], row[14]});
  }
  return out;
}

// (torques: false where the old law's moments are dropped)
void expect_same_forces(const State &before, const State &after, double tolerance,
                        const std::string &what, bool torques = true)
{
  ASSERT_GT(before.pairs.size(), 1000u) << what << ": too few contacts to test anything";
  const double d = deck::max_relative_difference(forces_and_torques(before, torques),
                                                 forces_and_torques(after, torques));
  std::printf("  %s: %zu contacts, forces and torques differ by %.3e\n", what.c_str(),
              before.pairs.size(), d);
  EXPECT_LE(d, tolerance) << what;
}

// the packing with `contact` for 200 steps (no dashpots: the forces at the end of a step are
// those of the state it stored), its state written to `out`
std::string sheared(const std::string &contact, const std::string &store = "neigh")
{
  return packing_commands(kPacking, Law{contact, store}, "on", 200) + "run 200\n";
}

const std::string kClassic = "hooke 2000 damping none tangential classic 1600 0.4";

std::string log_of(const std::string &path) { return deck::read_text(path); }

}    // namespace

// Between runs: the new law gives the same forces where it keeps the same spring
TEST(DeckLawChange, BetweenRunsTheNewLawTakesTheContactForces)
{
  struct Case {
    std::string before, after, store, says;
    bool torques = true;    // the torques too (not where the old law's moments are dropped)
  };
  const Case cases[] = {
      // the linear spring into the catalogue's Cundall-Strack spring of the same k_t
      {kClassic, "hooke 2000 tangential spring_sliding 1600 0.4", "neigh",
       "keeping their tangential force"},
      // Walton and Braun's spring on its virgin curve, K_t0 = k_t: the same force
      {"hooke 2000 damping none tangential refined 1600 0.4",
       "hooke 2000 tangential walton_braun 1600 0.4", "compact", "keeping their tangential force"},
      // rolling and twisting yade added: 3 values more per contact (a wider store), starting at
      // zero: no moment yet
      {kClassic, kClassic + " rolling yade beta 0.3 eta 0.05 twisting yade beta 0.2 eta 0.05", "neigh",
       "their state as it is, apart from the Yade moments"},
      // ... and taken away again
      {kClassic + " rolling yade beta 0.3 eta 0.05", kClassic, "neigh",
       "their Yade relative rotation dropped", false},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.before + " -> " + c.after);
    deck::Lammps lmp("law_change_between.log");
    lmp.command(sheared(c.before, c.store));
    write_state(lmp, "between_before");
    lmp.command("pair_coeff * * " + c.after + "\nrun 0\nvariable out delete");
    write_state(lmp, "between_after");
    expect_same_forces(read_state("between_before"), read_state("between_after"), 1e-12,
                       c.before + " -> " + c.after, c.torques);
    EXPECT_THAT(log_of("law_change_between.log"), testing::HasSubstr(c.says));
  }
}

// The way users settle a bed with a spring law and go on with exact friction: the spring's
// force is the friction solver's first guess; the normal forces are the same law's
TEST(DeckLawChange, ASettledSpringLawGoesOnWithCoulombFriction)
{
  deck::Lammps lmp("law_change_coulomb.log");
  lmp.command(sheared("hooke 2000 damping viscous 12 6 tangential classic 1600 0.4"));
  const double contacts = pair_totals(lmp)[4];
  lmp.command("pair_coeff * * hooke 2000 damping viscous 12 tangential coulomb 0.4\nrun 20");
  EXPECT_NEAR(pair_totals(lmp)[4], contacts, 0.05 * contacts);
  const std::string log = log_of("law_change_coulomb.log");
  EXPECT_THAT(log, testing::HasSubstr("changed from 'hooke tangential classic' to 'hooke "
                                      "tangential coulomb'"));
  EXPECT_THAT(log, testing::HasSubstr("keeping their tangential force"));
}

// After read_restart the histories reach the new law only through its conversion: the
// documented way to change the law (`pair_style none`, the pair style and its pair_coeff anew)
// and a plain pair_coeff give the forces of the file's state (they were read as the new law's
// records before: every contact sliding, the kinetic energy 20 times too large)
TEST(DeckLawChange, AfterReadRestartTheNewLawTakesTheFilesForces)
{
  {
    deck::Lammps lmp;
    lmp.command(sheared(kClassic) + "write_restart change.restart");
    write_state(lmp, "restart_before");
  }
  const State before = read_state("restart_before");
  const std::string redefinitions[] = {
      "pair_style none\npair_style granular/exact\n",    // the documented way
      "",                                                  // the pair style as read
  };
  for (const std::string &redefine : redefinitions) {
    SCOPED_TRACE(redefine);
    for (const std::string after : {std::string("hooke 2000 tangential spring_sliding 1600 0.4"),
                                    kClassic + " rolling yade beta 0.3 eta 0.05"}) {
      deck::Lammps lmp;
      lmp.command(restarted_packing("change.restart") + "\n" + redefine + "pair_coeff * * " +
                  after + "\nrun 0");
      write_state(lmp, "restart_after");
      expect_same_forces(before, read_state("restart_after"), 1e-12, after);
    }
  }
}

// The same law after read_restart and `pair_style none`: the file's histories go on as they
// are (the restart equals the run split at the same step), and the log says so; the same with
// the compact store asked for (it dropped every history before, silently)
TEST(DeckLawChange, AfterReadRestartTheSameLawGoesOnWithTheFilesHistories)
{
  {
    deck::Lammps lmp;
    lmp.command(sheared(kClassic) + "write_restart same.restart\nrun 100");
    write_state(lmp, "same_split");
  }
  const State split = read_state("same_split");
  for (const std::string store : {"", " history neigh", " history compact"}) {
    deck::Lammps lmp;
    lmp.command(restarted_packing("same.restart") + "\npair_style none\npair_style "
                "granular/exact" + store + "\npair_coeff * * " + kClassic + "\nrun 100");
    write_state(lmp, "same_restarted");
    expect_same_state(split, read_state("same_restarted"), 1e-12,
                      ("same law, pair style anew" + store).c_str());
  }
}
