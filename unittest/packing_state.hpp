// Shared by the deck tests that run the packing decks (unittest/decks/in.sheared_packing,
// in.wall_packing): writing, reading and comparing their state, running them under mpirun, and
// the restart and MPI invariance check.
#pragma once

#include "deck_util.hpp"

#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace packing {

const std::string kDecks = deck::source_path("unittest/decks");
const std::string kPacking = kDecks + "/in.sheared_packing";
const std::string kLoadedPacking = kDecks + "/in.loaded_packing";
const std::string kWallPacking = kDecks + "/in.wall_packing";
const std::string kCylinderPacking = kDecks + "/in.cylinder_packing";
const std::string kRegionPacking = kDecks + "/in.region_packing";
const std::string kWriteState = deck::source_path("unittest/decks/in.write_state");

using deck::num;

inline void write_state(deck::Lammps &lmp, const std::string &out)
{
  lmp.command("variable out index " + out + "\ninclude " + kWriteState);
}

// The pair style's global vector (compute `totals`), as of the last thermo output.
inline std::vector<double> pair_totals(deck::Lammps &lmp)
{
  auto *v = static_cast<double *>(
      lammps_extract_compute(lmp.handle(), "totals", LMP_STYLE_GLOBAL, LMP_TYPE_VECTOR));
  if (!v) return {};
  return std::vector<double>(v, v + 17);
}

inline void expect_same_state(const State &a, const State &b, double tolerance, const char *what)
{
  ASSERT_GT(a.pairs.size(), 1000u) << what << ": too few contacts to test anything";
  const double d_atoms = deck::max_relative_difference(a.atoms, b.atoms);
  const double d_pairs = deck::max_relative_difference(a.pairs, b.pairs);
  std::printf("  %s: %zu atoms, %zu contacts, max relative difference atoms %.3e, contacts %.3e\n",
              what, a.atoms.size(), a.pairs.size(), d_atoms, d_pairs);
  EXPECT_LE(d_atoms, tolerance) << what;
  EXPECT_LE(d_pairs, tolerance) << what;
}


// The packing's per-contact outputs, as in.sheared_packing defines them (in.write_state dumps
// them): every contact's values through compute pair/local, and its two atoms' IDs.
const std::string kContactOutputs = R"(
compute         contacts all pair/local p1 p2 p3 p4 p5 p6 p7 p8 p9
compute         ids all property/local patom1 patom2
)";

// Commands that continue the packing in a fresh LAMMPS from a restart file, restoring what a
// restart file does not hold: ghost velocities, neighbour settings, fixes and computes.
inline std::string restarted_packing(const std::string &file)
{
  return "read_restart " + file + R"(
comm_modify     vel yes
neighbor        0.2 bin
neigh_modify    delay 0 every 1 check yes
fix             integrate all nve/sphere)" + kContactOutputs;
}

// Run the packing deck under mpirun with `ranks` processes and read its final state; `moved` gets
// the number of atoms that changed their owning process during the run.
inline State mpi_state(int ranks, const std::string &vars, const std::string &out, int *moved,
                       const std::string &deck_file = kPacking)
{
  // named after `out`: ctest runs the tests of one file in parallel in one directory
  const std::string driver = out + ".driver.in";
  {
    std::ofstream d(driver);
    d << "variable packing_dir index " << kDecks << "\n"
      << "include " << deck_file << "\n"
      << "write_dump all custom ${out}.start id proc modify sort id\n"
      << "run ${nsteps}\n"
      // re-establish ghosts (fix deform remaps owned atoms at the end of a step) before reading
      // every contact with compute pair/local; no movement, the stored state is unchanged
      << "run 0 post no\n"
      << "include " << kWriteState << "\n";
  }
  const int rc = deck::run_mpi(ranks, driver, vars + " -var out " + out, out + ".log");
  EXPECT_EQ(rc, 0) << "mpirun with " << ranks << " ranks failed, see " << out << ".log.out";
  *moved = 0;
  const auto start = deck::read_atom_dump(out + ".start");
  const auto end = deck::read_atom_dump(out + ".atoms");
  for (const auto &[id, row] : start)
    if (end.count(id)) *moved += (row[0] != end.at(id)[0]);
  return read_state(out);
}

// The contact law a packing deck runs with: the words of pair_coeff (and of the walls), the
// history store (neigh|compact), the walls' material words (in.wall_packing), if any, and where
// the walls are (in.wall_packing: planes, or the region `slab` of the same planes).
struct Law {
  std::string contact, store, wall_material;
  std::string walls_at = "zplane 0 8";
  std::vector<std::pair<std::string, std::string>> deck_variables = {};    // other index variables
};

// LAMMPS commands that run `deck_file` (up to its `run`) with `law`
inline std::string packing_commands(const std::string &deck_file, const Law &law,
                                    const std::string &newton, int nsteps)
{
  std::string variables;
  for (const auto &[name, value] : law.deck_variables)
    variables += "variable " + name + " index " + value + "\n";
  return variables + "variable newton index " + newton + "\nvariable nsteps index " + std::to_string(nsteps) +
      "\nvariable contact index \"" + law.contact + "\"\nvariable history index " + law.store +
      "\nvariable wall_material index \"" + law.wall_material + "\"\nvariable walls_at index \"" +
      law.walls_at + "\"\ninclude " + deck_file + "\n";
}

// For a law without velocity-dependent forces on the packing `deck_file`:
// run n + run n in one process == run n + write_restart + read_restart + run n, to roundoff;
// `redefine` is what the deck sets that a restart file does not hold. The uninterrupted process
// makes the same run boundary as the restarted one: LAMMPS builds its neighbour lists and ghosts
// anew at every run's setup, which reorders sums, and in a dense packing that round-off grows
// (`run 2n` and `run n` + `run n` of the catalogue packing with pressed hls contacts differ by
// 3.7e-12 after n = 200 more steps; the restart equals the split run to all printed digits).
// Then the deck under mpirun: serial == the in-process `run 2n`, and 4 ranks (atoms migrate) ==
// serial. `inspect` sees the in-process `run 2n`.
inline void expect_restart_and_mpi_invariance(const std::string &deck_file, const Law &law,
                                              const std::string &redefine,
                                              const std::string &prefix, int n,
                                              const std::function<void(deck::Lammps &)> &inspect)
{
  {
    deck::Lammps lmp;
    lmp.command(packing_commands(deck_file, law, "on", n) + "run " + std::to_string(2 * n));
    inspect(lmp);
    write_state(lmp, prefix + "_uninterrupted");
  }
  {
    deck::Lammps lmp;
    lmp.command(packing_commands(deck_file, law, "on", n) + "run " + std::to_string(n) +
                "\nrun " + std::to_string(n));
    write_state(lmp, prefix + "_split");
  }
  {
    deck::Lammps lmp;
    lmp.command(packing_commands(deck_file, law, "on", n) + "run " + std::to_string(n) +
                "\nwrite_restart " + prefix + "_half.restart");
  }
  {
    deck::Lammps lmp;
    lmp.command(restarted_packing(prefix + "_half.restart") + redefine + "\nrun " +
                std::to_string(n));
    write_state(lmp, prefix + "_restarted");
  }
  const State uninterrupted = read_state(prefix + "_uninterrupted");
  expect_same_state(read_state(prefix + "_split"), read_state(prefix + "_restarted"), 1e-12,
                    (prefix + ": restart vs uninterrupted").c_str());

  std::string vars = "-var newton on -var nsteps " + std::to_string(2 * n) +
      " -var contact \"" + law.contact + "\" -var history " + law.store +
      " -var wall_material \"" + law.wall_material + "\" -var walls_at \"" + law.walls_at + "\"";
  for (const auto &[name, value] : law.deck_variables) vars += " -var " + name + " " + value;
  int moved = 0;
  const State serial = mpi_state(1, vars, prefix + "_np1", &moved, deck_file);
  const State parallel = mpi_state(4, vars, prefix + "_np4", &moved, deck_file);
  std::printf("  4 ranks: %d atoms changed process\n", moved);
  EXPECT_GT(moved, 10);
  expect_same_state(uninterrupted, serial, 1e-12, (prefix + ": in-process vs mpirun serial").c_str());
  expect_same_state(serial, parallel, 1e-10, (prefix + ": serial vs 4 ranks").c_str());
}

}    // namespace packing
