// Compares the states two runs of a packing deck wrote (unittest/decks/in.write_state: OUT.atoms
// and OUT.pairs) as the deck tests compare them: the largest difference of matching atoms and of
// matching contacts, each relative to the largest magnitude of its column. For machines with
// neither LAMMPS's test harness nor GoogleTest, e.g. the GPU check of
// bench/device/run_kokkos_gpu.sh.
//
// Usage: compare_packing_states [--atoms-only] OUT_A OUT_B TOLERANCE
// Prints one line; exits 1 when either difference exceeds TOLERANCE, when a state is missing or
// the runs have different atoms or contacts (difference inf), or when A has fewer than 1,000
// contacts (too few to test anything). With --atoms-only, OUT.atoms alone, for a small deck that
// writes no contacts (its atoms compared as above).
#include "packing_files.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char **argv)
{
  const bool atoms_only = argc > 1 && std::strcmp(argv[1], "--atoms-only") == 0;
  if (atoms_only) {
    argv++;
    argc--;
  }
  if (argc != 4) {
    std::fprintf(stderr, "usage: compare_packing_states [--atoms-only] OUT_A OUT_B TOLERANCE\n");
    return 2;
  }
  char *end = nullptr;
  const double tolerance = std::strtod(argv[3], &end);
  if (*end != '\0' || !(tolerance >= 0.0)) {
    std::fprintf(stderr, "compare_packing_states: TOLERANCE '%s' is not a non-negative number\n",
                 argv[3]);
    return 2;
  }
  if (atoms_only) {
    const auto a = deck::read_atom_dump(std::string(argv[1]) + ".atoms");
    const auto b = deck::read_atom_dump(std::string(argv[2]) + ".atoms");
    const double d_atoms = deck::max_relative_difference(a, b);
    const bool same = d_atoms <= tolerance;    // (inf where an atom is missing or A has none)
    std::printf("%s vs %s: %zu atoms, max relative difference %.3e (tolerance %.1e): %s\n",
                argv[1], argv[2], a.size(), d_atoms, tolerance, same ? "same" : "DIFFERENT");
    return same ? 0 : 1;
  }
  const packing::State a = packing::read_state(argv[1]);
  const packing::State b = packing::read_state(argv[2]);
  const double d_atoms = deck::max_relative_difference(a.atoms, b.atoms);
  const double d_pairs = deck::max_relative_difference(a.pairs, b.pairs);
  const bool enough = a.pairs.size() >= 1000;
  const bool same = enough && d_atoms <= tolerance && d_pairs <= tolerance;
  std::printf("%s vs %s: %zu atoms, %zu contacts, max relative difference atoms %.3e, contacts "
              "%.3e (tolerance %.1e): %s\n",
              argv[1], argv[2], a.atoms.size(), a.pairs.size(), d_atoms, d_pairs, tolerance,
              same ? "same" : (enough ? "DIFFERENT" : "TOO FEW CONTACTS"));
  return same ? 0 : 1;
}
