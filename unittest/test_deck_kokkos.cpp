// pair_style granular/exact/kk (src/kokkos/) against the host style granular/exact: the same
// kernels and the same histories, so the same run. Every run is its own process (build/lmp; a
// process initialises Kokkos once, with one thread count): the host style, and /kk with the
// OpenMP backend at 1 and 2 threads (`-k on t N -sf kk`) and under mpirun.
//
// With one thread /kk adds every contact's forces in the host style's order. With two threads
// the forces of a pair reach its atoms by atomic additions in whatever order the threads come,
// so sums are reordered (round-off, which a dense sheared packing amplifies over the steps).
//
// Skipped, with a message, when LAMMPS has no KOKKOS package (tools/test.sh --kokkos DIR builds
// one).
#include "packing_state.hpp"
#include "tumbling_pair.hpp"

#include "lammps.h"
#include "neighbor.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

#ifdef GE_HAVE_KOKKOS
#define GE_NEEDS_KOKKOS()
#else
#define GE_NEEDS_KOKKOS()                                                                        \
  GTEST_SKIP() << "this LAMMPS has no KOKKOS package: the /kk styles are not built (run "       \
                  "tools/test.sh --kokkos <Kokkos source tree>)"
#endif

using deck::num;

// the law families of /kk on the packing (unittest/decks/kokkos_families.txt, which the GPU check
// bench/device/run_kokkos_gpu.sh reads too)
struct Family {
  std::string name, store, contact;
  std::string deck_variables;    // more -var of the packing deck
};

std::string trimmed(const std::string &s)
{
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

std::vector<Family> read_families()
{
  std::vector<Family> families;
  std::istringstream in(deck::read_text(packing::kDecks + "/kokkos_families.txt"));
  std::string line;
  while (std::getline(in, line)) {
    if (trimmed(line).empty() || trimmed(line)[0] == '#') continue;
    std::vector<std::string> fields;
    std::istringstream row(line);
    std::string field;
    while (std::getline(row, field, '|')) fields.push_back(trimmed(field));
    fields.resize(4);
    families.push_back({fields[0], fields[1], fields[2],
                        fields[3].empty() ? "" : " " + fields[3]});
  }
  return families;
}

const std::vector<Family> kFamilies = read_families();

// the family called `name` (a test that names a missing one fails)
Family family(const std::string &name)
{
  for (const Family &f : kFamilies)
    if (f.name == name) return f;
  ADD_FAILURE() << "no law family '" << name << "' in kokkos_families.txt";
  return {name, "neigh", "", ""};
}

bool is_coulomb(const Family &f)
{
  return f.contact.find("tangential coulomb") != std::string::npos;
}

// the lowest and highest z of the atoms (the wall packing's walls are at 0 and 8)
std::pair<double, double> z_range(const packing::State &s)
{
  double zmin = 1e9, zmax = -1e9;
  for (const auto &[id, row] : s.atoms) {
    zmin = std::min(zmin, row[2]);
    zmax = std::max(zmax, row[2]);
  }
  return {zmin, zmax};
}

const char *const kKokkos1 = " -k on t 1 -sf kk";
const char *const kKokkos2 = " -k on t 2 -sf kk";
// where the pair style says its list and histories live
const char *const kInSpace =
    "Pair granular/exact/kk: the neighbour list and the contact histories stay in the execution "
    "space";
const char *const kOnHost = "Pair granular/exact/kk: the neighbour list is built on the host";

std::string packing_vars(const Family &f, int nsteps, const char *newton = "on")
{
  return std::string("-var newton ") + newton + " -var nsteps " + std::to_string(nsteps) +
      " -var contact \"" + f.contact + "\" -var history " + f.store + f.deck_variables;
}

// the packing run in its own process: its state at the end
packing::State run(const Family &f, int nsteps, const std::string &how, const std::string &out,
                   int ranks = 1, const char *newton = "on", int *moved = nullptr)
{
  int changed = 0;
  packing::State s = packing::mpi_state(ranks, packing_vars(f, nsteps, newton) + how,
                                        out, &changed);
  if (moved) *moved = changed;
  return s;
}

// a deck written to `name`.in and run by build/lmp (one process); its log (declared here, for
// host_pair_under_kokkos())
std::string run_deck(const std::string &name, const std::string &text, const std::string &how,
                     int *rc = nullptr);

// Appends to <out>.totals the global vector of the pair style (compute totals, 18 values) and the
// pressure tensor (from the virial) at the end of a packing run.
std::string print_totals()
{
  std::string text;
  for (int t = 1; t <= 18; t++)
    text += "print \"GE_T" + std::to_string(t) + " $(c_totals[" + std::to_string(t) +
        "]:%.17g)\" append ${out}.totals screen no\n";
  return text + "print \"GE_P $(pxx:%.17g) $(pyy:%.17g) $(pzz:%.17g) $(pxy:%.17g) "
                "$(pxz:%.17g) $(pyz:%.17g)\" append ${out}.totals screen no\n";
}

// The packing `deck_file` in a Kokkos run (`how`: -k on ... -sf kk), with the pair style /kk
// or, with `host_pair`, the host style granular/exact (the rest of the run - atom style,
// integrator, communication - is the Kokkos one either way). `vars`: the deck's variables.
// Writes <out>.totals (the pair's global vector and the pressure tensor at the end).
packing::State packing_under_kokkos(const std::string &deck_file, const std::string &vars,
                                    const std::string &how, const std::string &out,
                                    bool host_pair)
{
  const bool has_totals = deck::read_text(deck_file).find("compute         totals") !=
      std::string::npos;
  std::string text = "variable packing_dir index " + packing::kDecks + "\ninclude " + deck_file + "\n";
  if (host_pair) {
    text += "suffix off\npair_style granular/exact history ${history}\npair_coeff * * "
            "${contact}\nsuffix on\n";
    if (has_totals) text += "uncompute totals\ncompute totals all pair granular/exact\n";
  }
  text += "run ${nsteps}\n";
  // (the pressure tensor in the thermo output makes LAMMPS ask the pair for its virial)
  if (has_totals) text += "thermo_style custom step ke pxx pyy pzz pxy pxz pyz c_totals[1]\n";
  text += "run 0 post no\ninclude " + packing::kWriteState + "\n";
  if (has_totals) text += print_totals();
  std::remove((out + ".totals").c_str());
  run_deck(out, text, vars + how + " -var out " + out);
  const std::string log = deck::read_text(out + ".log");
  EXPECT_NE(log.find(host_pair ? "(1) pair granular/exact," : "(1) pair granular/exact/kk,"),
            std::string::npos)
      << out << ": not the pair style asked for";
  return packing::read_state(out);
}

packing::State host_pair_under_kokkos(const std::string &deck_file, const std::string &vars,
                                      const std::string &how, const std::string &out)
{
  return packing_under_kokkos(deck_file, vars, how, out, true);
}

packing::State host_pair_under_kokkos(const Family &f, int nsteps, const std::string &how,
                                      const std::string &out)
{
  return host_pair_under_kokkos(packing::kPacking, packing_vars(f, nsteps), how, out);
}

// a deck written to `name`.in and run by build/lmp (one process); its log
std::string run_deck(const std::string &name, const std::string &text, const std::string &how,
                     int *rc)
{
  {
    std::ofstream d(name + ".in");
    d << text;
  }
  const int status = deck::run_mpi(1, name + ".in", how, name + ".log");
  if (rc) *rc = status;
  else EXPECT_EQ(status, 0) << name << ": see " << name << ".log";
  return deck::read_text(name + ".log");
}

}    // namespace

// The plugin registers the /kk styles, and `-sf kk` picks them.
TEST(DeckKokkos, SuffixPicksTheKokkosStyle)
{
  GE_NEEDS_KOKKOS();
  const std::string log = run_deck("suffix", R"(
units lj
atom_style sphere
region box block 0 4 0 4 0 4
create_box 1 box
create_atoms 1 single 1 1 1
set group all diameter 1.0
set group all density 1.0
comm_modify vel yes
pair_style granular/exact
pair_coeff * * hooke 2000 tangential classic 1600 0.4
run 0
)",
                                   kKokkos1);
  EXPECT_NE(log.find("pair granular/exact/kk"), std::string::npos) << log;
}

// After one step, forces, torques and every contact's state of /kk equal the host style's to
// 1e-13, for every law family; after 200 steps of the sheared packing (many sliding contacts,
// contacts forming and ending) positions, velocities, forces and states to 1e-10, with one and
// two threads. The coulomb families' friction (solver newton, one process) is solved by the
// host fix on one thread and in the execution space on two, in another order than the host
// fix's: both solves end within tol 1e-13 of mu F_n, not at one iterate, so after one step on
// two threads they agree to 1e-12 (measured 1.2e-13 and 3.4e-13).
TEST(DeckKokkos, EveryLawFamilyEqualsTheHostStyle)
{
  GE_NEEDS_KOKKOS();
  ASSERT_EQ(kFamilies.size(), 12u) << "the families of unittest/decks/kokkos_families.txt";
  for (const Family &f : kFamilies) {
    SCOPED_TRACE(f.name);
    const std::string p = std::string("family_") + f.name;
    const packing::State host1 = run(f, 1, "", p + "_host1");
    const packing::State kk1 = run(f, 1, kKokkos1, p + "_kk1");
    packing::expect_same_state(host1, kk1, 1e-13, (p + ": 1 step, /kk t 1 vs host").c_str());
    if (is_coulomb(f))
      packing::expect_same_state(host1, run(f, 1, kKokkos2, p + "_kk1t2"), 1e-12,
                                 (p + ": 1 step, /kk t 2 vs host").c_str());
    const packing::State host = run(f, 200, "", p + "_host");
    packing::expect_same_state(host, run(f, 200, kKokkos1, p + "_kkt1"), 1e-10,
                               (p + ": 200 steps, /kk t 1 vs host").c_str());
    packing::expect_same_state(host, run(f, 200, kKokkos2, p + "_kkt2"), 1e-10,
                               (p + ": 200 steps, /kk t 2 vs host").c_str());
    // the run had contacts to show: sliding ones (pair/local p4) among them
    int sliding = 0;
    for (const auto &[ids, row] : host.pairs) sliding += row[3] != 0.0;
    std::printf("  %s: %d of %zu contacts sliding at the end\n", f.name.c_str(), sliding,
                host.pairs.size());
  }
}

// Within one Kokkos run (the same atom style, integrator and communication), /kk with one thread
// is the host style bit for bit: the same kernels, the same histories, the forces added in the
// same order. (Between a Kokkos run and a plain one, the Kokkos integrator and communication
// round differently: the host style itself differs by about 1e-11 after 200 steps.) The coulomb
// families too: on one thread the host fix solves their friction under /kk, with the contacts the
// force loop hands it.
TEST(DeckKokkos, OneThreadEqualsTheHostStyleBitForBit)
{
  GE_NEEDS_KOKKOS();
  for (const Family &f : kFamilies) {
    SCOPED_TRACE(f.name);
    const std::string p = std::string("bits_") + f.name;
    const packing::State host = host_pair_under_kokkos(f, 200, kKokkos1, p + "_host");
    const packing::State kk =
        packing_under_kokkos(packing::kPacking, packing_vars(f, 200), kKokkos1, p + "_kk", false);
    ASSERT_GT(host.pairs.size(), 1000u);
    EXPECT_EQ(deck::max_relative_difference(host.atoms, kk.atoms), 0.0) << p;
    EXPECT_EQ(deck::max_relative_difference(host.pairs, kk.pairs), 0.0) << p;
    // the global vector (energies, works, counts, the contact stress, Jaeger vertices) and the
    // virial's pressure tensor, to every digit
    const std::string host_totals = deck::read_text(p + "_host.totals");
    EXPECT_EQ(std::count(host_totals.begin(), host_totals.end(), '\n'), 19) << host_totals;
    EXPECT_EQ(host_totals, deck::read_text(p + "_kk.totals")) << p;
  }
}

// The contacts' work is tracked on the device as on the host: only while an output reads it.
// The refined packing under /kk without the outputs that read it (compute pair, pair/local)
// moves exactly as with them, and its contacts hold no work.
TEST(DeckKokkos, UntrackedWorkChangesNoForce)
{
  GE_NEEDS_KOKKOS();
  const Family f = family("refined");
  packing::State states[2];
  for (int k = 0; k < 2; ++k) {
    const std::string out = k ? "work_unread_kk" : "work_read_kk";
    std::string text = "variable packing_dir index " + packing::kDecks + "\ninclude " +
        packing::kPacking + "\n";
    if (k)
      text += "uncompute contacts\nuncompute ids\nuncompute totals\nthermo_style custom step ke\n";
    text += "run ${nsteps}\n";
    if (k) text += packing::kContactOutputs;
    text += "run 0 post no\ninclude " + packing::kWriteState + "\n";
    run_deck(out, text, packing_vars(f, 200) + kKokkos1 + " -var out " + out);
    EXPECT_NE(deck::read_text(out + ".log").find("(1) pair granular/exact/kk,"),
              std::string::npos);
    states[k] = packing::read_state(out);
  }
  ASSERT_GT(states[0].pairs.size(), 1000u);
  EXPECT_EQ(deck::max_relative_difference(states[0].atoms, states[1].atoms), 0.0);
  double largest_work = 0.0;
  for (auto &[ids, row] : states[1].pairs) {
    EXPECT_EQ(row[2], 0.0);
    EXPECT_EQ(row[4], 0.0);
    largest_work = std::max(largest_work, std::fabs(states[0].pairs[ids][4]));
    row[2] = states[0].pairs[ids][2];
    row[4] = states[0].pairs[ids][4];
  }
  EXPECT_GT(largest_work, 0.0);
  EXPECT_EQ(deck::max_relative_difference(states[0].pairs, states[1].pairs), 0.0);
}

// The package's wall fix beside the /kk pair style (both runs take the wall's Kokkos form: in
// the execution space for the catalogue law, on the host for Jaeger's and for coulomb): the
// packing thrown against two walls runs as with the host pair style, bit for bit on one thread,
// for a stateful catalogue law with Yade moments, for Jaeger's law with a capacity and for
// `tangential coulomb` (whose friction fix, on
// the host, solves the wall contacts together with those the /kk force loop hands it: on one
// thread, by its own loops; at the default tol: bit for bit needs no solve far below it).
TEST(DeckKokkos, WallFixWorksBesideTheKokkosPair)
{
  GE_NEEDS_KOKKOS();
  Family coulomb = family("coulomb");
  coulomb.contact = coulomb.contact.substr(0, coulomb.contact.find(" tol "));
  for (const Family &f : {family("catalogue_yade"), family("jaeger_capacity16"), coulomb}) {
    SCOPED_TRACE(f.name + ": " + f.contact);
    const std::string p = std::string("walls_") + f.name;
    const std::string wall_material = f.name != "catalogue_yade" ? "wall 2e4 0.3" : "";
    const std::string vars = packing_vars(f, 300) + " -var wall_material \"" + wall_material +
        "\" -var walls_at \"zplane 0 8\"";
    const packing::State host =
        host_pair_under_kokkos(packing::kWallPacking, vars, kKokkos1, p + "_host");
    int moved = 0;
    const packing::State kk =
        packing::mpi_state(1, vars + kKokkos1, p + "_kk", &moved, packing::kWallPacking);
    const std::string log = deck::read_text(p + "_kk.log");
    EXPECT_NE(log.find("(1) pair granular/exact/kk"), std::string::npos);
    EXPECT_NE(log.find("fix wall/gran/exact"), std::string::npos);
    ASSERT_GT(host.pairs.size(), 1000u);
    EXPECT_EQ(deck::max_relative_difference(host.atoms, kk.atoms), 0.0) << p;
    EXPECT_EQ(deck::max_relative_difference(host.pairs, kk.pairs), 0.0) << p;
    // the walls were hit: atoms near them were pushed back (z within [0, 8])
    const auto [zmin, zmax] = z_range(kk);
    std::printf("  %s: z of the atoms in [%.3f, %.3f]\n", f.name.c_str(), zmin, zmax);
    EXPECT_GT(zmin, 0.0);
    EXPECT_LT(zmax, 8.0);
  }
}

// The friction of sphere pairs and of walls is one problem: solved in the execution space
// (solver newton, one process, two threads), the packing thrown against two walls moves as with
// the host style, to 1e-10 after 200 steps at tol 1e-13 (the two solves end at other iterates
// within tol: EveryLawFamilyEqualsTheHostStyle). The wall contacts were in the problem: the atoms
// stayed between the walls.
TEST(DeckKokkos, CoulombNewtonInTheExecutionSpaceTakesTheWallContacts)
{
  GE_NEEDS_KOKKOS();
  const Family f = family("coulomb");
  const std::string p = "walls_newton_coulomb";
  const std::string vars = packing_vars(f, 200) +
      " -var wall_material \"wall 2e4 0.3\" -var walls_at \"zplane 0 8\"";
  const packing::State host =
      host_pair_under_kokkos(packing::kWallPacking, vars, kKokkos1, p + "_host");
  int moved = 0;
  const packing::State kk =
      packing::mpi_state(1, vars + kKokkos2, p + "_kk", &moved, packing::kWallPacking);
  const std::string log = deck::read_text(p + "_kk.log");
  EXPECT_NE(log.find("(solver newton) is solved in the host threads of the Kokkos execution "
                     "space"),
            std::string::npos)
      << log;
  // (the spheres' contacts made from their histories in the execution space, the walls' on the
  // host by the wall fixes, all solved together there)
  EXPECT_NE(log.find("200 of the 200 steps of this run solved in the host threads of the Kokkos "
                     "execution space, 200 of them made from the contacts' histories"),
            std::string::npos)
      << log;
  ASSERT_GT(host.pairs.size(), 1000u);
  packing::expect_same_state(host, kk, 1e-10, (p + ": /kk vs host").c_str());
  const auto [zmin, zmax] = z_range(kk);
  std::printf("  z of the atoms in [%.3f, %.3f]\n", zmin, zmax);
  EXPECT_GT(zmin, 0.0);
  EXPECT_LT(zmax, 8.0);
}

// The friction step made from the slots, solved and stored in the execution space (host threads
// here; a GPU in bench/device/run_kokkos_gpu.sh) gives the outputs of the host style on the
// run's last step: its contacts and stuck contacts counted alike, the same start chosen, and the
// sums over its contacts - the largest stuck slip, the dissipation, the friction's share of the
// pair's contact stress and of the pressure - as the host style's to the solves' tolerance.
// (The outputs are of the last step of `run`: `run 0` is run setup, solved on the host.)
TEST(DeckKokkos, CoulombStepInTheExecutionSpaceGivesTheHostStylesOutputs)
{
  GE_NEEDS_KOKKOS();
  const Family f = family("coulomb");
  // f_GE_COULOMB 1 contacts, 2 stuck, 5 largest stuck slip, 6 dissipation rate, 8 dissipated,
  // 9 true error, 11 extrapolated start; the pair's contact stress c_totals[7..15]; the pressure
  const int fix_outputs[] = {1, 2, 5, 6, 8, 9, 11};
  const auto outputs = [&](bool host_pair, const std::string &out,
                           const std::string &choices = "") {
    std::string text = "variable packing_dir index " + packing::kDecks + "\ninclude " +
        packing::kPacking + "\n";
    if (host_pair)
      text += "suffix off\npair_style granular/exact history ${history}\npair_coeff * * "
              "${contact}\nsuffix on\nuncompute totals\ncompute totals all pair "
              "granular/exact\n";
    if (!choices.empty()) text += "fix_modify GE_COULOMB " + choices + "\n";
    text += "thermo_style custom step ke pxx pyy pzz pxy pxz pyz c_totals[1] f_GE_COULOMB[1]\n"
            "run ${nsteps}\nprint \"GE_OUT";
    for (int n : fix_outputs) text += " $(f_GE_COULOMB[" + std::to_string(n) + "]:%.17g)";
    for (int t = 7; t <= 15; t++) text += " $(c_totals[" + std::to_string(t) + "]:%.17g)";
    for (const char *p : {"pxx", "pyy", "pzz", "pxy", "pxz", "pyz"})
      text += std::string(" $(") + p + ":%.17g)";
    text += "\"\n";
    const std::string log =
        run_deck(out, text, packing_vars(f, 200) + (host_pair ? kKokkos1 : kKokkos2));
    std::vector<double> values;
    std::istringstream in(log.substr(log.rfind("GE_OUT") + 6));
    for (double v; values.size() < 7 + 9 + 6 && in >> v;) values.push_back(v);
    return std::make_pair(values, log);
  };
  const auto [host, host_log] = outputs(true, "coulomb_outputs_host");
  ASSERT_EQ(host.size(), 22u) << host_log;
  EXPECT_GT(host[0], 1000.0);
  EXPECT_GT(host[1], 0.5 * host[0]);
  EXPECT_LT(host[1], host[0]);    // (some contacts slide)
  // host threads' own preconditioner (symmetric Gauss-Seidel in colours), and a GPU's (the
  // contacts' diagonal blocks: the passes of a device's Krylov iterations, run on host threads),
  // also with each batch of iterations recorded and run as a Kokkos graph
  const auto expect_close = [](const std::vector<double> &a, const std::vector<double> &b,
                               size_t first, size_t count, const char *what) {
    double scale = 0.0, largest = 0.0;
    for (size_t k = first; k < first + count; k++) scale = std::max(scale, std::fabs(a[k]));
    for (size_t k = first; k < first + count; k++)
      largest = std::max(largest, std::fabs(a[k] - b[k]) / scale);
    std::printf("  %s: largest difference %.3e of the largest magnitude %.6e\n", what, largest,
                scale);
    EXPECT_GT(scale, 0.0) << what;
    EXPECT_LE(largest, 1e-10) << what;
  };
  std::vector<double> diagonal_outputs;
  for (const char *preconditioner : {"auto", "diagonal", "diagonal_graphs"}) {
    SCOPED_TRACE(preconditioner);
    const bool graphs = std::string(preconditioner) == "diagonal_graphs";
    const auto [kk, kk_log] = outputs(
        false, std::string("coulomb_outputs_kk_") + preconditioner,
        graphs ? "preconditioner diagonal graphs yes"
               : std::string("preconditioner ") + preconditioner);
    ASSERT_EQ(kk.size(), 22u) << kk_log;
    EXPECT_NE(kk_log.find("200 of the 200 steps of this run solved in the host threads of the "
                          "Kokkos execution space, 200 of them made from the contacts' histories "
                          "and stored there too"),
              std::string::npos)
        << kk_log;
    EXPECT_NE(kk_log.find(std::string("its Krylov iterations preconditioned by ") +
                          (std::string(preconditioner) == "auto"
                               ? "symmetric Gauss-Seidel in colours ("
                               : graphs ? "the contacts' diagonal blocks, its iterations run as "
                                          "Kokkos graphs ("
                                        : "the contacts' diagonal blocks (")),
              std::string::npos)
        << kk_log;
    // (a graph runs the same passes in the same order: the same run to the last bit)
    if (std::string(preconditioner) == "diagonal") diagonal_outputs = kk;
    if (graphs) EXPECT_EQ(kk, diagonal_outputs) << "graphs change nothing";
    EXPECT_EQ(kk[0], host[0]) << "contacts";
    EXPECT_EQ(kk[1], host[1]) << "stuck contacts";
    EXPECT_EQ(kk[6], host[6]) << "the start (extrapolated or not)";
    EXPECT_LE(kk[5], 1e-13) << "true error";
    expect_close(host, kk, 2, 1, "largest stuck slip");
    expect_close(host, kk, 3, 1, "dissipation rate");
    expect_close(host, kk, 4, 1, "dissipated energy");
    expect_close(host, kk, 7, 9, "the pair's contact stress");
    expect_close(host, kk, 16, 6, "pressure tensor");
  }
}

namespace {

// the hub deck (unittest/decks/in.coulomb_hub) with `spheres` small ones, 200 steps with the
// host style and with /kk on two threads: the /kk run's log, and the largest relative difference
// of the atoms' states at the end
std::pair<std::string, double> hub_against_host_style(int spheres, const std::string &name)
{
  const auto deck = [](const std::string &out) {
    return "include " + deck::source_path("unittest/decks/in.coulomb_hub") + R"(
run 200
print "HUB contacts ${hub}"
write_dump all custom )" + out + R"(.atoms id proc xu yu zu vx vy vz fx fy fz omegax omegay omegaz tqx tqy tqz modify format float %.17g sort id
)";
  };
  const std::string vars = std::string(kKokkos2) + " -var spheres " + std::to_string(spheres);
  run_deck(name + "_host", deck(name + "_host"), vars + " -var host_pair yes");
  const std::string log = run_deck(name + "_kk", deck(name + "_kk"), vars);
  EXPECT_NE(log.find("(1) pair granular/exact/kk"), std::string::npos) << log;
  const double hub = deck::value_after(log, "HUB contacts");
  std::printf("  the hub touches %.0f spheres\n", hub);
  EXPECT_GE(hub, spheres);
  const auto host = deck::read_atom_dump(name + "_host.atoms");
  const auto kk = deck::read_atom_dump(name + "_kk.atoms");
  EXPECT_EQ(host.size(), static_cast<size_t>(spheres + 1));
  const double d = deck::max_relative_difference(host, kk);
  std::printf("  %s: /kk vs host after 200 steps: max relative difference %.3e\n", name.c_str(), d);
  return {log, d};
}

}    // namespace

// A large sphere among small ones (unittest/decks/in.coulomb_hub: 120 contacts on one sphere)
// needs more colours than 64, and on host threads the friction's solve goes back to the fix's
// own loops (its colour passes would be a chain of small fork-joins: bench/README.md, "Colours
// for a sphere with many contacts"); the log says so once per run, and the spheres move as with
// the host style, to the solves' tolerance (1e-13) after 200 steps.
TEST(DeckKokkos, CoulombHubOfManyContactsIsSolvedByTheFixOnHostThreads)
{
  GE_NEEDS_KOKKOS();
  const auto [log, d] = hub_against_host_style(120, "hub");
  EXPECT_NE(log.find("200 of the 200 steps of this run solved by the fix's own loops on one "
                     "core: the solver in the host threads of the Kokkos execution space "
                     "does not take a problem whose contacts need more than 64 colours"),
            std::string::npos)
      << log;
  EXPECT_LE(d, 1e-10);
}

// With 48 small spheres the hub's contacts need 48 colours, which host threads take: the whole
// friction step runs in the execution space, with a body that does not move (the hub: no
// integrator) and a host fix's forces (fix addforce) among the other forces, and the spheres
// move as with the host style, to the solves' tolerance.
TEST(DeckKokkos, CoulombHubOfFewerContactsIsMadeAndSolvedInTheExecutionSpace)
{
  GE_NEEDS_KOKKOS();
  const auto [log, d] = hub_against_host_style(48, "hub48");
  EXPECT_NE(log.find("200 of the 200 steps of this run solved in the host threads of the Kokkos "
                     "execution space, 200 of them made from the contacts' histories"),
            std::string::npos)
      << log;
  EXPECT_LE(d, 1e-10);
}

// Newton off (a pair with a ghost partner computed on both processes, half its tallies each)
// gives the newton-on host run; under mpirun with 2 ranks, where atoms and their contacts move
// between processes, /kk gives the serial host run, and with 3 ranks too. `tangential coulomb`
// too, on 2 and 3 ranks (its friction fix solves across the processes with the contacts the /kk
// force loops hand it; it needs newton on).
TEST(DeckKokkos, NewtonOffAndMpiEqualTheSerialHostRun)
{
  GE_NEEDS_KOKKOS();
  for (const Family &f : {family("refined"), family("catalogue_yade"), family("jaeger_capacity16"),
                          family("coulomb")}) {
    SCOPED_TRACE(f.name);
    const bool coulomb = f.name == "coulomb";
    const int steps = 300;
    const std::string p = std::string("mpi_") + f.name;
    const packing::State host = run(f, steps, "", p + "_host");
    if (!coulomb)
      packing::expect_same_state(host, run(f, steps, kKokkos1, p + "_newtonoff", 1, "off"), 1e-10,
                                 (p + ": /kk newton off vs host newton on").c_str());
    int moved = 0;
    const packing::State np2 = run(f, steps, kKokkos1, p + "_np2", 2, "on", &moved);
    std::printf("  2 ranks: %d atoms changed process\n", moved);
    EXPECT_GT(moved, 10);
    packing::expect_same_state(host, np2, 1e-10, (p + ": /kk on 2 ranks vs serial host").c_str());
    const packing::State np3 = run(f, steps, kKokkos1, p + "_np3", 3, "on", &moved);
    std::printf("  3 ranks: %d atoms changed process\n", moved);
    EXPECT_GT(moved, 10);
    packing::expect_same_state(host, np3, 1e-10, (p + ": /kk on 3 ranks vs serial host").c_str());
  }
}

// A restart written by the host style continues under /kk, and one written under /kk continues
// under the host style, as the uninterrupted host run (with the same run boundary). One half of
// each crossed run is a Kokkos run: to the tolerance of /kk against the plain host run (the
// Kokkos integrator rounds differently; the pair itself is exact, OneThreadEqualsTheHostStyle).
// For `tangential coulomb` the restart holds the friction the fix solved last (which /kk keeps in
// host copies of the states until they go back to its slots).
TEST(DeckKokkos, RestartsCrossBetweenHostAndKokkos)
{
  GE_NEEDS_KOKKOS();
  for (const Family &f : {family("refined"), family("catalogue_yade"), family("jaeger_capacity16"),
                          family("coulomb")}) {
    SCOPED_TRACE(f.name);
    const std::string p = std::string("restart_") + f.name;
    const int n = 150;
    const std::string start = "variable packing_dir index " + packing::kDecks + "\ninclude " +
        packing::kPacking + "\nrun " + std::to_string(n) + "\n";
    const std::string finish = "run 0 post no\ninclude " + packing::kWriteState + "\n";
    const std::string vars = packing_vars(f, n);
    // the uninterrupted host run, split at the same step
    run_deck(p + "_split", start + "run " + std::to_string(n) + "\n" + finish,
             vars + " -var out " + p + "_split");
    for (const char *writer : {"host", "kk"}) {
      const bool kk_writes = std::string(writer) == "kk";
      const std::string file = p + "_" + writer + ".restart";
      run_deck(p + "_write_" + writer, start + "write_restart " + file + "\n",
               vars + (kk_writes ? kKokkos1 : ""));
      run_deck(p + "_read_" + writer,
               packing::restarted_packing(file) + "run " + std::to_string(n) + "\n" + finish,
               std::string("-var out ") + p + "_from_" + writer + (kk_writes ? "" : kKokkos1));
      packing::expect_same_state(
          packing::read_state(p + "_split"), packing::read_state(p + "_from_" + writer), 1e-10,
          (p + (kk_writes ? ": /kk restart continued by the host style"
                          : ": host restart continued by /kk"))
              .c_str());
    }
  }
}

// Jaeger with `capacity 16` under /kk holds the records of the host style: the same number of
// vertices in every contact (pair/local p5), after a loaded packing's long histories.
TEST(DeckKokkos, JaegerCapacityRecordsEqualTheHostStyle)
{
  GE_NEEDS_KOKKOS();
  const Family f = family("jaeger_capacity16");
  const std::string vars = packing_vars(f, 200);
  const std::string deck = "variable packing_dir index " + packing::kDecks + "\ninclude " +
      packing::kLoadedPacking + "\nrun 200\nrun 0 post no\ninclude " + packing::kWriteState + "\n";
  run_deck("jaeger_records_host", deck, vars + " -var out jaeger_records_host");
  run_deck("jaeger_records_kk", deck, vars + kKokkos1 + " -var out jaeger_records_kk");
  const packing::State host = packing::read_state("jaeger_records_host");
  const packing::State kk = packing::read_state("jaeger_records_kk");
  packing::expect_same_state(host, kk, 1e-10, "Jaeger capacity 16: /kk vs host");
  int full = 0;
  for (const auto &[ids, row] : host.pairs) {
    full += row[4] >= 16.0;
    const auto it = kk.pairs.find(ids);
    if (it != kk.pairs.end()) EXPECT_EQ(row[4], it->second[4]) << "vertices of " << ids.first;
  }
  std::printf("  %d of %zu contacts hold the full 16 vertices\n", full, host.pairs.size());
  EXPECT_GT(full, 10);
}

// The refined law's projection and twirl under /kk: a packing rotated rigidly by 90 degrees
// returns, counter-rotated, its stress tensor (Kuhn, Suzuki & Daouadji 2020, Fig. 6).
TEST(DeckKokkos, RigidRotationRestoresTheStress)
{
  GE_NEEDS_KOKKOS();
  const std::string log = run_deck(
      "rotation",
      "include " + deck::source_path("examples/rigid_rotation/in.packing") +
          "\npair_coeff * * hooke 2000 damping viscous 3 1 tangential refined 1600 0.5\ninclude " +
          deck::source_path("examples/rigid_rotation/in.rotate") +
          "\nprint \"GE_ERR $(v_err:%.17g)\"\n",
      kKokkos1);
  const double err = deck::value_after(log, "GE_ERR ");
  std::printf("  relative error of the counter-rotated stress under /kk: %.3e\n", err);
  EXPECT_LE(err, 1e-10);
}

// A pre-sheared Jaeger contact (`capacity 8`, the Jaeger law of /kk) carried through a rigid
// rotation about an oblique axis under /kk (issue 46, item 1; the deck of
// DeckJaeger.PreShearedContactKeepsItsForceThroughARigidRotation, unittest/tumbling_pair.hpp),
// its centres moved along their chords and by fix move rotate: the force turned back into the
// starting frame is the one before the rotation to round-off, as on the host.
TEST(DeckKokkos, PreShearedJaegerContactKeepsItsForceThroughARigidRotation)
{
  GE_NEEDS_KOKKOS();
  for (const bool chord : {true, false}) {
    const std::string name = std::string("kk_rotation_") + (chord ? "chord" : "rotate");
    const deck::TumblingPair t = deck::tumbling_pair(
        name, "hertz 75e9 0.25 tangential jaeger 0.4 capacity 8", 0.4, 100, chord, kKokkos1);
    const std::string log = deck::read_text(name + ".log");
    EXPECT_NE(log.find("pair granular/exact/kk"), std::string::npos) << name << ": not /kk";
    std::printf("  /kk %-11s: |F_t| = %.2f mu F_n; co-rotated F_t changes by %.2e mu F_n, F_n "
                "by %.2e\n",
                chord ? "chords" : "move rotate", t.sheared, t.T_miss, t.N_miss);
    EXPECT_GT(t.sheared, 0.3);
    EXPECT_LE(t.T_miss, 1e-12) << name;
    EXPECT_LE(t.N_miss, 1e-12) << name;
  }
}

// A head-on collision of two spheres under /kk: the spring-dashpot restitution coefficient and
// contact duration (closed forms as in DeckLinear.HeadOnCollisionMatchesSpringDashpot).
TEST(DeckKokkos, HeadOnCollisionMatchesSpringDashpot)
{
  GE_NEEDS_KOKKOS();
  const double kn = 2.0e4, eta = 20.0, mass = 1.0, v0 = 1.0;
  const double m = mass / 2;
  const double w0 = std::sqrt(kn / m), g = eta / (2 * m), wd = std::sqrt(w0 * w0 - g * g);
  const double t_star = (M_PI - std::atan(eta * wd / (kn - eta * g))) / wd;
  const double e_expected =
      -std::exp(-g * t_star) * (std::cos(wd * t_star) - g / wd * std::sin(wd * t_star));
  const double dt = t_star / 5000;
  const int nsteps = static_cast<int>(std::ceil((0.2 / v0 + 2 * t_star) / dt));
  const std::string log = run_deck(
      "collision",
      deck::head_on_collision("hooke " + num(kn) + " damping viscous " + num(eta) +
                                  " 0 tangential refined 1000 0.5",
                              dt, "collision_pushing.txt") +
          "run " + std::to_string(nsteps) + "\nprint \"GE_E $(abs(vx[2]-vx[1]):%.17g)\"\n",
      kKokkos1);
  const double e = deck::value_after(log, "GE_E ") / v0;
  const int steps_in_contact = deck::count_ones("collision_pushing.txt");
  const double duration = steps_in_contact * dt;
  std::printf("  /kk: restitution %.6f (analytic %.6f), contact duration %.6f (analytic %.6f)\n",
              e, e_expected, duration, t_star);
  EXPECT_NEAR(e / e_expected, 1.0, 1e-3);
  EXPECT_NEAR(duration / t_star, 1.0, 1e-3);
}

// Rigid clumps beside /kk: their body masses (found on the host) enter the catalogue's effective
// mass. Two dumbbells (two touching glass spheres of radius 1 mm in a fix rigid body each) meet
// head-on at 1 m/s; `damping restitution 0.9` is built on the bodies' reduced mass, so they part
// at 0.9 m/s (with the spheres' masses they would part faster: the dashpot would be too weak).
TEST(DeckKokkos, RigidClumpsCollideWithTheirBodyMass)
{
  GE_NEEDS_KOKKOS();
  const double radius = 1.0e-3, gap = 1.0e-8, front = radius + gap / 2;
  const double duration = std::sqrt(2.0) * 6.38478867e-6;    // LSD contact of the two bodies
  const std::string log = run_deck(
      "dumbbells",
      deck::si_sphere_box("-1e-2 1e-2 -1e-2 1e-2 -1e-2 1e-2", 1) + "create_atoms 1 single " +
          num(-front) + " 0 0\ncreate_atoms 1 single " + num(front) +
          " 0 0\ncreate_atoms 1 single " + num(-front - 2 * radius) +
          " 0 0\ncreate_atoms 1 single " + num(front + 2 * radius) +
          " 0 0\nset group all diameter " + num(2 * radius) +
          "\nset group all density 2500\ngroup left id 1 3\ngroup right id 2 4\n"
          "neigh_modify exclude group left left exclude group right right\n"
          "velocity left set 0.5 0 0\nvelocity right set -0.5 0 0\npair_style granular/exact\n"
          "pair_coeff * * hooke 1.26909318e6 damping restitution 0.9 tangential sliding 0.3\n"
          "timestep " + num(duration / 20000) +
          "\nfix bodies all rigid group 2 left right\ncompute_modify thermo_temp extra/dof 0\n"
          "run 24000\nprint \"GE_SEPARATION $(vx[2]-vx[1]:%.17g)\"\n",
      kKokkos1);
  EXPECT_NE(log.find("(1) pair granular/exact/kk"), std::string::npos);
  const double separation = deck::value_after(log, "GE_SEPARATION ");
  std::printf("  /kk: the dumbbells part at %.6f m/s (0.9 expected)\n", separation);
  EXPECT_NEAR(separation, 0.9, 1e-4);
}

// LAMMPS' KOKKOS package fixes a GPU run's neighbour bin size at the first init; a command that
// initialises LAMMPS before any pair style (reset_atoms id, velocity ... loop geom) fixes it at
// 0, one bin for the whole box (measured on an H100: 81,536 spheres did not finish 300 steps in
// 45 s, LAMMPS' gran/hooke/history/kk neither). granular/exact/kk finds that state (the user flag
// set with no size, which neigh_modify never makes) and clears it, so that the neighbour's init
// sizes the bins from the cutoff, and warns. The OpenMP backend never makes the state: it is made
// here by hand, and the run then bins as a plain one does (half the 1.3 cutoff).
TEST(DeckKokkos, BinsOfAnInitBeforeThePairStyleAreSizedAgain)
{
  GE_NEEDS_KOKKOS();
  const Family f = family("refined");
  deck::Lammps lmp("bins.log", {"-k", "on", "t", "1", "-sf", "kk"});
  lmp.command("variable packing_dir index " + packing::kDecks + "\nvariable newton index on\n" +
              "variable nsteps index 1\nvariable contact index \"" + f.contact +
              "\"\nvariable history index " + f.store + "\ninclude " + packing::kPacking);
  auto *lammps = static_cast<LAMMPS_NS::LAMMPS *>(lmp.handle());
  lammps->neighbor->binsizeflag = 1;    // what set_binsize_kokkos leaves after such an init
  lammps->neighbor->binsize_user = 0.0;
  lmp.command("run 1");
  EXPECT_EQ(lammps->neighbor->binsizeflag, 0);
  const std::string log = deck::read_text("bins.log");
  EXPECT_NE(log.find("the neighbour bins were fixed at the size of the box"), std::string::npos);
  EXPECT_NE(log.find("binsize = 0.65,"), std::string::npos) << log;
  // a size the user gave stays
  lmp.command("neigh_modify binsize 0.9\nrun 1");
  EXPECT_EQ(lammps->neighbor->binsizeflag, 1);
  EXPECT_EQ(lammps->neighbor->binsize_user, 0.9);
}


// Laws whose step is not a fixed-size kernel stop under /kk with the alternative.
TEST(DeckKokkos, LawsThatRunOnlyOnTheHostAreRefused)
{
  GE_NEEDS_KOKKOS();
  const struct {
    const char *law, *message;
  } cases[] = {
      {"hertz 2e4 0.3 tangential jaeger 0.5", "'tangential jaeger' without 'capacity M'"},
  };
  int k = 0;
  for (const auto &c : cases) {
    SCOPED_TRACE(c.law);
    int rc = 0;
    const std::string log = run_deck("refused" + std::to_string(k++), std::string(R"(
units lj
atom_style sphere
region box block 0 4 0 4 0 4
create_box 1 box
create_atoms 1 single 1 1 1
create_atoms 1 single 1.9 1 1
set group all diameter 1.0
set group all density 1.0
comm_modify vel yes
pair_style granular/exact
pair_coeff * * )") + c.law + "\nfix integrate all nve/sphere\nrun 1\n",
                                     kKokkos1, &rc);
    EXPECT_NE(rc, 0);
    EXPECT_NE(log.find(c.message), std::string::npos) << log;
  }
}

// `tangential coulomb` under /kk says once where its friction is solved: with solver newton on
// one process and two threads in the execution space (a note in the log); with another solver, or
// on one thread, where the host fix's loops are the faster form, on the host by one core per
// process (a warning: nobody should expect a GPU's speed from it). A run solved in the space ends
// with the time of its solves and of the host's work around them, counting its own steps. With
// newton off, the KOKKOS package's default on a GPU, the run stops and says what to pass.
TEST(DeckKokkos, CoulombUnderKokkosSaysWhereItsFrictionIsSolved)
{
  GE_NEEDS_KOKKOS();
  const auto deck = [](const char *newton, const char *solver) {
    return std::string("units lj\natom_style sphere\nnewton ") + newton + R"(
region box block 0 4 0 4 0 4
create_box 1 box
create_atoms 1 single 1 1 1
create_atoms 1 single 1.95 1 1
set group all diameter 1.0
set group all density 1.0
comm_modify vel yes
pair_style granular/exact
pair_coeff * * hooke 2000 tangential coulomb 0.5 )" + solver + R"(
fix integrate all nve/sphere
run 2
run 2
)";
  };
  const auto times_said = [](const std::string &log, const std::string &words) {
    size_t said = 0;
    for (size_t at = log.find(words); at != std::string::npos; at = log.find(words, at + 1))
      said++;
    return said;
  };
  const std::string in_space =
      "(solver newton) is solved in the host threads of the Kokkos execution space";
  const std::string on_host = "the friction of 'tangential coulomb' is solved on the host";
  struct Case {
    const char *name, *solver, *how, *why;    // why: nullptr where it is solved in the space
  };
  for (const Case &c :
       {Case{"newton_t2", "", kKokkos2, nullptr},
        Case{"newton_t1", "", kKokkos1, "one host thread, where the host style's loops are faster"},
        Case{"gs_t2", "solver gs", kKokkos2, "solver gs and apgd run on the host"}}) {
    SCOPED_TRACE(c.name);
    int rc = 0;
    const std::string log = run_deck(std::string("coulomb_kk_") + c.name, deck("on", c.solver),
                                     c.how, &rc);
    EXPECT_EQ(rc, 0) << log;
    // (two runs: said once)
    EXPECT_EQ(times_said(log, in_space), c.why ? 0u : 1u) << log;
    EXPECT_EQ(times_said(log, on_host), c.why ? 1u : 0u) << log;
    if (c.why) EXPECT_NE(log.find(c.why), std::string::npos) << log;
    // each run ends with where its steps' time went, counting its own steps
    const std::string report = "2 of the 2 steps of this run solved in the host threads of the "
                               "Kokkos execution space, 2 of them made from the contacts' "
                               "histories and stored there too";
    EXPECT_EQ(times_said(log, report), c.why ? 0u : 2u) << log;
  }
  int rc = 0;
  const std::string off = run_deck("coulomb_kk_newton_off", deck("off", ""), kKokkos1, &rc);
  EXPECT_NE(rc, 0);
  EXPECT_NE(off.find("needs 'newton on'"), std::string::npos) << off;
  EXPECT_NE(off.find("-pk kokkos newton on neigh half"), std::string::npos) << off;
}

// A law changed between runs, also to one that needs the other store or a wider one (the
// contacts carried over to the new law: pair_granular_exact_history.cpp), gives the host style's
// run under /kk: the conversion is made in the host store at the first neighbour build, before
// the slots are filled.
TEST(DeckKokkos, LawChangesBetweenRunsEqualTheHostStyle)
{
  GE_NEEDS_KOKKOS();
  const struct {
    const char *name, *before, *after;
  } changes[] = {
      {"classic_to_jaeger", "hooke 2000 tangential classic 1600 0.4",
       "hertz 2e4 0.3 tangential jaeger 0.5 capacity 16"},
      {"jaeger_to_refined_yade", "hertz 2e4 0.3 tangential jaeger 0.5 capacity 16",
       "hooke 2000 tangential refined 1600 0.4 rolling yade kr 0.05 eta 0.3"},
      {"refined_to_walton_braun", "hooke 2000 tangential refined 1600 0.4",
       "hooke 2000 tangential walton_braun 1600 0.4"},
  };
  for (const auto &c : changes) {
    SCOPED_TRACE(c.name);
    // (pair_style again, without 'history': the store is then the laws' choice, and changes
    // with them)
    const std::string deck = "variable packing_dir index " + packing::kDecks + "\ninclude " +
        packing::kPacking + "\npair_style granular/exact\nrun 100\npair_coeff * * " + c.after +
        "\nrun 100\nrun 0 post no\ninclude " + packing::kWriteState + "\n";
    const std::string vars = std::string("-var newton on -var nsteps 100 -var contact \"") +
        c.before + "\" -var history neigh";
    const std::string host = std::string("law_change_host_") + c.name;
    const std::string kk = std::string("law_change_kk_") + c.name;
    const std::string log_host = run_deck(host, deck, vars + " -var out " + host);
    const std::string log_kk = run_deck(kk, deck, vars + kKokkos1 + " -var out " + kk);
    EXPECT_NE(log_kk.find("(1) pair granular/exact/kk,"), std::string::npos);
    EXPECT_NE(log_kk.find("while"), std::string::npos) << "the law change's warning";
    packing::expect_same_state(packing::read_state(host), packing::read_state(kk), 1e-10,
                               (std::string(c.name) + ": /kk vs host").c_str());
  }
}

// The largest Jaeger capacity the stores hold (2^26 - 2): the host style keeps the records it
// needs (the run equals capacity 64's, which no contact reaches either); /kk keeps M + 1
// vertices in every neighbour slot and stops with an error that names the capacity and the
// memory (M >= 536,870,911 segfaulted, 2^30 ran with wrong physics, 1e7 to 5.3e8 stopped with a
// bare Kokkos allocation error).
TEST(DeckKokkos, JaegerCapacityAtItsBoundIsClear)
{
  GE_NEEDS_KOKKOS();
  const std::string deck = std::string(deck::kEmptyGranularBox) +
      "create_atoms 1 single 1 1 1\ncreate_atoms 1 single 1.95 1 1\n"
      "set group all diameter 1.0\nset group all density 1.0\nvelocity all set 0 0 0\n"
      "set atom 1 vy 0.1\npair_coeff * * hertz 1e4 0.3 tangential jaeger 0.5 capacity ${M}\n"
      "fix 1 all nve/sphere\ntimestep 1e-3\nrun 300\n"
      "print \"GE_V $(vy[1]:%.17g) $(vx[2]:%.17g)\"\n";
  const std::string bound = run_deck("capacity_bound", "atom_modify map array\n" + deck,
                                     "-var M 67108862");
  const std::string small = run_deck("capacity_64", "atom_modify map array\n" + deck, "-var M 64");
  ASSERT_NE(bound.rfind("GE_V "), std::string::npos);
  EXPECT_EQ(bound.substr(bound.rfind("GE_V ")), small.substr(small.rfind("GE_V ")));
  int rc = 0;
  const std::string kk =
      run_deck("capacity_bound_kk", "atom_modify map array\n" + deck, "-var M 67108862" + std::string(kKokkos1), &rc);
  EXPECT_NE(rc, 0);
  EXPECT_NE(kk.find("'tangential jaeger capacity 67108862' keeps 67108863 vertices in each of the"),
            std::string::npos)
      << kk;
  // (newton off: the store in the execution space, whose partners keep the room)
  rc = 0;
  const std::string in_space = run_deck("capacity_bound_kk_in_space",
                                        "atom_modify map array\nnewton off\n" + deck,
                                        "-var M 67108862" + std::string(kKokkos1), &rc);
  EXPECT_NE(rc, 0);
  EXPECT_NE(in_space.find("'tangential jaeger capacity 67108862' keeps 67108863 vertices in each "
                          "of the"),
            std::string::npos)
      << in_space;
  const std::string fits = run_deck("capacity_64_kk_in_space",
                                    "atom_modify map array\nnewton off\n" + deck,
                                    "-var M 64" + std::string(kKokkos1));
  EXPECT_NE(fits.find(kInSpace), std::string::npos);
  // (against the plain host run: LAMMPS' Kokkos integrator rounds differently)
  double vy_fits = 0, vx_fits = 0, vy_small = 0, vx_small = 0;
  ASSERT_EQ(std::sscanf(fits.c_str() + fits.rfind("GE_V "), "GE_V %lf %lf", &vy_fits, &vx_fits), 2);
  ASSERT_EQ(std::sscanf(small.c_str() + small.rfind("GE_V "), "GE_V %lf %lf", &vy_small, &vx_small),
            2);
  EXPECT_NEAR(vy_fits, vy_small, 1e-13 * std::fabs(vy_small));
  EXPECT_NEAR(vx_fits, vx_small, 1e-13 * std::fabs(vx_small));
}

namespace {
// The whole numbers on the rest of the line of `log` from `at` on
std::vector<long> counts_after(const std::string &log, size_t at)
{
  std::vector<long> counts;
  const std::string line = log.substr(at, log.find('\n', at) - at);
  for (size_t p = 0; p < line.size();) {
    if (std::isdigit(static_cast<unsigned char>(line[p]))) {
      size_t len = 0;
      counts.push_back(std::stol(line.substr(p), &len));
      p += len;
    } else {
      p++;
    }
  }
  return counts;
}

// The counts of the crossings line /kk writes at the end of the nth run of a log (0 first):
// [builds, copies to the execution space, copies to the host, ... at builds, ... for host reads,
// ... to the friction fix, atom-data syncs]; and LAMMPS' "Neighbor list builds" of that run.
std::vector<long> crossings_of_run(const std::string &log, int nth, long *lammps_builds)
{
  const std::string mark = "Pair granular/exact/kk crossings in this run";
  size_t at = 0;
  for (int k = 0; k <= nth; k++) {
    at = log.find(mark, k == 0 ? 0 : at + 1);
    if (at == std::string::npos) {
      ADD_FAILURE() << "no crossings line for run " << nth;
      return {};
    }
  }
  const std::vector<long> counts = counts_after(log, at + mark.size());
  const std::string builds = "Neighbor list builds = ";
  const size_t b = log.find(builds, at);
  *lammps_builds = b == std::string::npos ? -1 : std::stol(log.substr(b + builds.size()));
  return counts;
}
}    // namespace

// On a plain run (no output that reads contacts, no restart) the histories cross between the
// execution space and the host only around neighbour builds: one copy up after each build, one
// copy down before each build of the run and at its end; between builds nothing. The skin is
// small so that the sheared packing rebuilds several times. A dump of compute pair/local then
// reads the contacts on the host: those copies are counted too (the counter is not blind).
TEST(DeckKokkos, HistoriesCrossOnlyAroundNeighbourBuilds)
{
  GE_NEEDS_KOKKOS();
  const Family f = family("refined");
  const std::string log = run_deck("crossings", "variable packing_dir index " + packing::kDecks +
                                       "\ninclude " + packing::kPacking + R"(
neighbor 0.03 bin
run 300
dump local all local 100 crossings.pairs c_contacts[1]
run 200
)",
                                   " " + packing_vars(f, 0) + kKokkos1);
  long n = 0;
  const std::vector<long> plain = crossings_of_run(log, 0, &n);
  ASSERT_EQ(plain.size(), 7u) << log;
  EXPECT_GE(n, 3) << "the packing should rebuild its list several times";
  EXPECT_EQ(plain[0], n + 1) << "builds: the setup's and the run's";
  EXPECT_EQ(plain[1], n + 1) << "one copy to the execution space per build";
  EXPECT_EQ(plain[2], n + 1) << "copies to the host: before each build of the run, at its end";
  EXPECT_EQ(plain[3], n + 1);
  EXPECT_EQ(plain[4], 0) << "no host reads between builds";
  EXPECT_EQ(plain[5], 0) << "no friction fix";
  EXPECT_LE(plain[6], 1) << "atom data to the host by the pair: at the setup only";
  const std::vector<long> dumped = crossings_of_run(log, 1, &n);
  ASSERT_EQ(dumped.size(), 7u) << log;
  EXPECT_GT(dumped[4], 0) << "compute pair/local reads the histories on the host";
  EXPECT_EQ(dumped[2], dumped[3] + dumped[4] + dumped[5]);
}

namespace {
// the atom IDs of each snapshot of an unsorted dump, in the order the process held them
std::vector<std::vector<long>> ids_in_local_order(const std::string &dump)
{
  std::istringstream in(deck::read_text(dump));
  std::vector<std::vector<long>> snapshots;
  std::string line;
  bool atoms = false;
  while (std::getline(in, line)) {
    if (line.rfind("ITEM: ATOMS", 0) == 0) {
      snapshots.emplace_back();
      atoms = true;
    } else if (line.rfind("ITEM:", 0) == 0) {
      atoms = false;
    } else if (atoms && !trimmed(line).empty()) {
      snapshots.back().push_back(std::stol(line));
    }
  }
  return snapshots;
}
}    // namespace

// LAMMPS' atom sort reorders the atoms (and the history store's per-atom data with them) at
// neighbour builds: with sorting every 10 steps the run equals the same run without sorting.
// The order of the sums differs (the list follows the atoms' order), so to round-off, the
// tolerance of /kk against the host style. The small skin makes the packing rebuild (sorting is
// done only at a build); the order of the atoms, at the setup and at the end, shows that sorting
// happened during the run (and that nothing reorders them without it).
TEST(DeckKokkos, AtomSortingOnEqualsOff)
{
  GE_NEEDS_KOKKOS();
  for (const Family &f : {family("refined"), family("jaeger_capacity16")}) {
    SCOPED_TRACE(f.name);
    const std::string p = std::string("sort_") + f.name;
    auto sorted_run = [&](const std::string &sort, const std::string &out, const char *how) {
      {
        std::ofstream d(out + ".deck");
        d << "include " << packing::kPacking << "\nneighbor 0.03 bin\natom_modify sort " << sort
          << "\ndump order all custom 300 " << out << ".order id\n";
      }
      int moved = 0;
      return packing::mpi_state(1, packing_vars(f, 300) + how, out, &moved, out + ".deck");
    };
    const packing::State on = sorted_run("10 0.65", p + "_on", kKokkos1);
    const packing::State off = sorted_run("0 0.0", p + "_off", kKokkos1);
    // (snapshots at the setup, after its sort, and at the end)
    const auto order_on = ids_in_local_order(p + "_on.order");
    const auto order_off = ids_in_local_order(p + "_off.order");
    ASSERT_GE(order_on.size(), 2u);
    ASSERT_GE(order_off.size(), 2u);
    ASSERT_EQ(order_on.back().size(), 512u);
    EXPECT_NE(order_on.front(), order_on.back()) << "the run sorted the atoms";
    EXPECT_EQ(order_off.front(), order_off.back()) << "nothing else reorders them";
    packing::expect_same_state(off, on, 1e-10, (p + ": /kk sort on vs off").c_str());
    packing::expect_same_state(sorted_run("10 0.65", p + "_host", ""), on, 1e-10,
                               (p + ": /kk sort on vs host sort on").c_str());
  }
}

/* ----------------------------------------------------------------------
   The neighbour list and the histories in the execution space (newton off, the neighbour store:
   FixNeighHistoryExactKokkos). The list is LAMMPS' Kokkos list, whose neighbours come in
   another order than the host list's: the forces are summed in another order, so these runs
   equal the host style to round-off (the tolerance of /kk against it), not bit for bit.
------------------------------------------------------------------------- */

namespace {
// the families without `tangential coulomb`, of both stores' forms (Jaeger's vertices and
// 'history compact' in the compact form)
const char *const kInSpaceFamilies[] = {"classic",         "refined",      "catalogue_yade",
                                        "catalogue_hertz", "refined_yade", "jkr_yade",
                                        "refined_compact", "jaeger_capacity16"};
// the Kokkos exchange and atom sort in the execution space (on a host backend LAMMPS runs them
// on the host unless told)
const char *const kDeviceComm = " -pk kokkos newton off comm device sort device";
const char *const kHostKokkosComm = " -pk kokkos newton off comm host";
}    // namespace

// Every family of the neighbour store runs with its list and histories in the execution space,
// at 1 and 2 threads, as the host style does (its pair/local outputs, read by single() from the
// slots, included); the others say why they stay on the host.
TEST(DeckKokkos, NewtonOffKeepsListAndHistoriesInTheExecutionSpace)
{
  GE_NEEDS_KOKKOS();
  for (const char *name : kInSpaceFamilies) {
    const Family f = family(name);
    SCOPED_TRACE(f.name);
    const std::string p = std::string("in_space_") + f.name;
    const packing::State host = run(f, 200, "", p + "_host");
    ASSERT_GT(host.pairs.size(), 1000u);
    for (const char *how : {kKokkos1, kKokkos2}) {
      const std::string out = p + (how == kKokkos1 ? "_kkt1" : "_kkt2");
      const packing::State kk = run(f, 200, how, out, 1, "off");
      packing::expect_same_state(host, kk, 1e-10, (out + ": /kk newton off vs host").c_str());
      const std::string log = deck::read_text(out + ".log");
      EXPECT_NE(log.find(kInSpace), std::string::npos) << out;
      EXPECT_EQ(log.find(kOnHost), std::string::npos) << out;
    }
  }
  // (`tangential coulomb` needs newton on, which keeps the histories on the host too)
  const std::string out = "in_space_refused_newton_on";
  run(family("refined"), 1, kKokkos1, out, 1, "on");
  EXPECT_NE(deck::read_text(out + ".log").find(std::string(kOnHost) +
                                               " and the contact histories are kept there "
                                               "between neighbour builds (newton on"),
            std::string::npos);
}

// The histories migrate with their atoms between processes, through LAMMPS' Kokkos exchange in
// the execution space and through its host exchange, and are sorted with them on the device: 2
// and 3 ranks, newton off, equal the serial host run.
TEST(DeckKokkos, HistoriesInTheExecutionSpaceMigrateAndSortWithTheirAtoms)
{
  GE_NEEDS_KOKKOS();
  for (const char *name : {"refined", "catalogue_yade", "jkr_yade", "jaeger_capacity16"}) {
    const Family f = family(name);
    SCOPED_TRACE(f.name);
    const int steps = 300;
    const std::string p = std::string("in_space_mpi_") + f.name;
    const packing::State host = run(f, steps, "", p + "_host");
    for (int ranks : {2, 3}) {
      for (const char *comm : {"", kDeviceComm, kHostKokkosComm}) {
        // (LAMMPS' Kokkos exchange run on the host hands host buffers: the store takes the
        // classic exchange then, once for each form of the store)
        if (comm == kHostKokkosComm && f.name != "refined" && f.name != "jaeger_capacity16")
          continue;
        const std::string out = p + "_np" + std::to_string(ranks) +
            (comm == kHostKokkosComm ? "_kokkos_host" : *comm ? "_device" : "_host");
        int moved = 0;
        const packing::State kk =
            run(f, steps, std::string(kKokkos1) + comm, out, ranks, "off", &moved);
        std::printf("  %s: %d atoms changed process\n", out.c_str(), moved);
        EXPECT_GT(moved, 10);
        packing::expect_same_state(host, kk, 1e-10, (out + ": /kk vs serial host").c_str());
        const std::string log = deck::read_text(out + ".log");
        EXPECT_NE(log.find(kInSpace), std::string::npos) << out;
        // (LAMMPS says when a fix sends its exchange or sort back to the host)
        if (comm == kDeviceComm) {
          EXPECT_EQ(log.find("not compatible with sending data in Kokkos communication"),
                    std::string::npos) << out;
          EXPECT_EQ(log.find("not compatible with Kokkos sorting on device"), std::string::npos)
              << out;
        }
      }
    }
  }
}

// A restart written by the store in the execution space continues under the host style, and
// one written by the host style continues in the execution space, as the uninterrupted run
TEST(DeckKokkos, RestartsCrossBetweenTheHostAndTheStoreInTheExecutionSpace)
{
  GE_NEEDS_KOKKOS();
  for (const char *name : {"refined", "catalogue_yade", "jaeger_capacity16"}) {
    const Family f = family(name);
    SCOPED_TRACE(f.name);
    const std::string p = std::string("in_space_restart_") + f.name;
    const int n = 150;
    const std::string start = "variable packing_dir index " + packing::kDecks + "\ninclude " +
        packing::kPacking + "\nrun " + std::to_string(n) + "\n";
    const std::string finish = "run 0 post no\ninclude " + packing::kWriteState + "\n";
    const std::string vars = packing_vars(f, n, "off");
    run_deck(p + "_split", start + "run " + std::to_string(n) + "\n" + finish,
             vars + " -var out " + p + "_split");
    for (const char *writer : {"host", "kk"}) {
      const bool kk_writes = std::string(writer) == "kk";
      const std::string file = p + "_" + writer + ".restart";
      const std::string wlog = run_deck(p + "_write_" + writer, start + "write_restart " + file +
                                            "\n",
                                        vars + (kk_writes ? kKokkos1 : ""));
      const std::string rlog = run_deck(
          p + "_read_" + writer,
          packing::restarted_packing(file) + "run " + std::to_string(n) + "\n" + finish,
          // (LAMMPS keeps its newton setting over a restart file's: KOKKOS' default on a host
          // backend is on)
          std::string("-var out ") + p + "_from_" + writer +
              (kk_writes ? "" : std::string(kKokkos1) + " -pk kokkos newton off"));
      EXPECT_NE((kk_writes ? wlog : rlog).find(kInSpace), std::string::npos);
      packing::expect_same_state(
          packing::read_state(p + "_split"), packing::read_state(p + "_from_" + writer), 1e-10,
          (p + (kk_writes ? ": restart of the store in the execution space, continued by the "
                            "host style"
                          : ": host restart continued in the execution space"))
              .c_str());
    }
  }
}

// In the execution space nothing crosses on a plain run: the histories never go to the host
// (builds, the run's end, between builds), nor atom data; compute pair/local reads the slots on
// the host once per output step
TEST(DeckKokkos, NothingCrossesWhereHistoriesStayInTheExecutionSpace)
{
  GE_NEEDS_KOKKOS();
  // (both forms of the store: the neighbour form, and the compact one with Jaeger's vertices)
  for (const char *name : {"refined", "jaeger_capacity16"}) {
    const Family f = family(name);
    SCOPED_TRACE(f.name);
    const std::string out = std::string("in_space_crossings_") + f.name;
    const std::string log = run_deck(out, "variable packing_dir index " + packing::kDecks +
                                              "\ninclude " + packing::kPacking +
                                              "\nneighbor 0.03 bin\nrun 300\ndump local all "
                                              "local 100 " + out + ".pairs c_contacts[1]\nrun 200\n",
                                     " " + packing_vars(f, 0, "off") + kKokkos1);
    long n = 0;
    const std::vector<long> plain = crossings_of_run(log, 0, &n);
    ASSERT_EQ(plain.size(), 7u) << log;
    EXPECT_GE(n, 3) << "the packing should rebuild its list several times";
    EXPECT_EQ(plain[0], n + 1) << "builds: the setup's and the run's";
    EXPECT_EQ(plain[1], 0) << "no copy to the execution space";
    EXPECT_EQ(plain[2], 0) << "no copy to the host";
    EXPECT_EQ(plain[6], 0) << "no atom data to the host";
    const std::vector<long> dumped = crossings_of_run(log, 1, &n);
    ASSERT_EQ(dumped.size(), 7u) << log;
    EXPECT_EQ(dumped[1], 0);
    EXPECT_EQ(dumped[4], 3) << "compute pair/local at steps 300, 400 and 500";
  }
}

// A law change between runs is carried over in the execution space's slots as the host style
// carries its contacts; so is a change that needs the other store (to Jaeger's compact one) and
// back
TEST(DeckKokkos, LawChangesInTheExecutionSpaceEqualTheHostStyle)
{
  GE_NEEDS_KOKKOS();
  const struct {
    const char *name, *before, *after;
  } changes[] = {
      {"refined_to_walton_braun", "hooke 2000 tangential refined 1600 0.4",
       "hooke 2000 tangential walton_braun 1600 0.4"},
      {"classic_to_jaeger", "hooke 2000 tangential classic 1600 0.4",
       "hertz 2e4 0.3 tangential jaeger 0.5 capacity 16"},
      {"jaeger_to_refined_yade", "hertz 2e4 0.3 tangential jaeger 0.5 capacity 16",
       "hooke 2000 tangential refined 1600 0.4 rolling yade kr 0.05 eta 0.3"},
  };
  for (const auto &c : changes) {
    SCOPED_TRACE(c.name);
    const std::string deck = "variable packing_dir index " + packing::kDecks + "\ninclude " +
        packing::kPacking + "\npair_style granular/exact\nrun 100\npair_coeff * * " + c.after +
        "\nrun 100\nrun 0 post no\ninclude " + packing::kWriteState + "\n";
    const std::string vars = std::string("-var newton off -var nsteps 100 -var contact \"") +
        c.before + "\" -var history neigh";
    const std::string host = std::string("in_space_law_change_host_") + c.name;
    const std::string kk = std::string("in_space_law_change_kk_") + c.name;
    run_deck(host, deck, vars + " -var out " + host);
    const std::string log_kk = run_deck(kk, deck, vars + kKokkos1 + " -var out " + kk);
    // (a Jaeger law's compact store stays when the law changes, in the execution space too)
    EXPECT_NE(log_kk.find(kInSpace), std::string::npos);
    EXPECT_EQ(log_kk.find(kOnHost), std::string::npos);
    EXPECT_NE(log_kk.find("while"), std::string::npos) << "the law change's warning";
    packing::expect_same_state(packing::read_state(host), packing::read_state(kk), 1e-10,
                               (std::string(c.name) + ": /kk vs host").c_str());
  }
}

// The renumbering guard holds in the execution space, where the store there keeps the atom IDs
// (they travel with the atoms; a fix property/atom would send every exchange through the host):
// deleting an atom with 'compress yes' between runs renumbers the others and stops while contacts
// are held; 'compress no' keeps the IDs and goes on. A far sphere (ID 1, deleted) and two touching.
TEST(DeckKokkos, RenumberedAtomsAreRejectedInTheExecutionSpace)
{
  GE_NEEDS_KOKKOS();
  const std::string spheres = std::string(deck::kEmptyGranularBox) +
      "newton off on\ncreate_atoms 1 single 3.5 3.5 3.5\ncreate_atoms 1 single 1 1 1\n"
      "create_atoms 1 single 1.9 1 1\nset group all diameter 1.0\nset group all density 1.0\n"
      "group far id 1\nfix integrate all nve/sphere\npair_style granular/exact history neigh\n"
      "pair_coeff * * hooke 1000 tangential classic 800 0.5\nrun 5\n";
  for (const char *deleted : {"compress_yes", "compress_no"}) {
    SCOPED_TRACE(deleted);
    const std::string name = std::string("in_space_renumbered_") + deleted;
    const std::string words = std::string(deleted) == "compress_yes" ? "compress yes" : "compress no";
    int rc = 0;
    const std::string log =
        run_deck(name, spheres + "delete_atoms group far " + words + "\nrun 5\n", kKokkos1, &rc);
    EXPECT_NE(log.find(kInSpace), std::string::npos) << log;
    EXPECT_EQ(log.find("property/atom"), std::string::npos) << "no fix property/atom: " << log;
    if (words == "compress yes") {
      EXPECT_NE(rc, 0);
      EXPECT_NE(log.find("atom IDs were changed since the last run"), std::string::npos) << log;
    } else {
      EXPECT_EQ(rc, 0) << log;
    }
  }
}

/* ----------------------------------------------------------------------
   fix wall/gran/exact/kk: the walls in the execution space
------------------------------------------------------------------------- */

namespace {
const char *const kWallCrossings = "Fix walls wall/gran/exact/kk crossings in this run";
const char *const kWallOnHost = "has no form in the execution space";

struct WallCase {
  const char *family;
  const std::string *deck;
  const char *where;     // the wall style words (planes), or the cylinder's motion words
  const char *material;  // the 'wall ...' words, or ""
  // the region packing's: the wall region's and the fill region's arguments, the push
  const char *region = "", *fill = "", *push = "0.2";
};

std::string wall_vars(const WallCase &c, int nsteps, const char *newton)
{
  const bool region = c.deck == &packing::kRegionPacking;
  const std::string where_var = c.deck == &packing::kCylinderPacking ? "wall_motion"
                                : region                             ? "wall_options"
                                                                     : "walls_at";
  std::string vars = packing_vars(family(c.family), nsteps, newton) + " -var wall_material \"" +
      c.material + "\" -var " + where_var + " \"" + c.where + "\"";
  if (region)
    vars += std::string(" -var wall_region \"") + c.region + "\" -var fill_region \"" + c.fill +
        "\" -var push " + c.push;
  return vars;
}

// A wall packing in its own process(es): its state at the end; <out>.walls the walls' global
// vector and the pressure tensor (the walls' virial in it) of the last step, <out>.wall_atoms
// the walls' per-atom `contacts` where asked, and with `host_pair` (the pair style granular/exact
// on the host: /kk gives no per-atom virial) each atom's stress of the walls' virial
packing::State wall_run(const WallCase &c, const std::string &vars, const std::string &how,
                        const std::string &out, int ranks = 1, int *moved = nullptr,
                        bool host_pair = false, const char *processors = nullptr)
{
  const bool contacts = std::string(c.where).find("contacts") != std::string::npos;
  const std::string driver = out + ".driver.in";
  {
    std::ofstream d(driver);
    d << "variable packing_dir index " << packing::kDecks << "\n";
    if (processors) d << "processors " << processors << "\n";
    d << "include " << *c.deck << "\n";
    if (host_pair && how.find("-sf kk") != std::string::npos)
      d << "suffix off\npair_style granular/exact history ${history}\npair_coeff * * "
           "${contact}\nsuffix on\n";
    d << "fix_modify walls virial yes\n"
      << "thermo_style custom step ke pxx pyy pzz pxy pxz pyz f_walls[4]\n"
      << "write_dump all custom ${out}.start id proc modify sort id\n"
      << "run ${nsteps}\n"
      << "print \"$(f_walls[1]:%.17g) $(f_walls[2]:%.17g) $(f_walls[3]:%.17g) "
         "$(f_walls[4]:%.17g) $(f_walls[5]:%.17g) $(f_walls[6]:%.17g) $(f_walls[7]:%.17g) "
         "$(pxx:%.17g) "
         "$(pyy:%.17g) $(pzz:%.17g) $(pxy:%.17g) $(pxz:%.17g) $(pyz:%.17g)\" file ${out}.walls "
         "screen no\n";
    if (host_pair) d << "compute wall_stress all stress/atom NULL fix\n";
    d << "dump wall_atoms all custom 1 ${out}.wall_atoms id x" << (host_pair ? " c_wall_stress[*]" : "")
      << (contacts ? " f_walls[*]" : "") << "\n"
      << "dump_modify wall_atoms format float %.17g sort id\n"
      << "run 0 post no\nundump wall_atoms\ninclude " << packing::kWriteState << "\n";
  }
  const int rc = deck::run_mpi(ranks, driver, vars + how + " -var out " + out, out + ".log");
  EXPECT_EQ(rc, 0) << "see " << out << ".log";
  if (moved) {
    *moved = 0;
    const auto start = deck::read_atom_dump(out + ".start");
    const auto end = deck::read_atom_dump(out + ".atoms");
    for (const auto &[id, row] : start)
      if (end.count(id)) *moved += (row[0] != end.at(id)[0]);
  }
  return packing::read_state(out);
}

std::map<int, std::vector<double>> wall_totals(const std::string &out)
{
  std::map<int, std::vector<double>> rows;
  std::istringstream in(deck::read_text(out + ".walls"));
  double v;
  while (in >> v) rows[0].push_back(v);
  return rows;
}

// The run of `out` and its reference agree: atoms and contacts, the walls' totals and virial,
// each atom's wall stress and `contacts`
void expect_same_walls(const std::string &ref, const std::string &out, double tolerance)
{
  packing::expect_same_state(packing::read_state(ref), packing::read_state(out), tolerance,
                             (out + " vs " + ref).c_str());
  const auto a = wall_totals(ref), b = wall_totals(out);
  ASSERT_EQ(a.at(0).size(), 13u) << ref;
  EXPECT_GT(std::fabs(a.at(0)[3]), 10.0) << ref << ": the walls should be touched";
  // (the force on the group and the pressure tensor are vectors whose components may cancel to
  // a small one, here 1e-3 of the terms summed: each compared relative to its vector's size,
  // the scale of its summation order's round-off; the other totals each relative to itself)
  const auto scale_of = [](const std::vector<double> &t, size_t from, size_t to) {
    double most = 0.0;
    for (size_t k = from; k < to; k++) most = std::max(most, std::fabs(t[k]));
    return most;
  };
  for (size_t k = 0; k < a.at(0).size(); k++) {
    const double scale = k < 3 ? scale_of(a.at(0), 0, 3)
                               : k >= 7 ? scale_of(a.at(0), 7, 13) : std::fabs(a.at(0)[k]);
    EXPECT_LE(std::fabs(a.at(0)[k] - b.at(0)[k]), tolerance * scale)
        << out << ": the walls' total " << k << ", " << a.at(0)[k] << " against " << b.at(0)[k];
  }
  const auto sa = deck::read_atom_dump(ref + ".wall_atoms");
  const auto sb = deck::read_atom_dump(out + ".wall_atoms");
  EXPECT_LE(deck::max_relative_difference(sa, sb), tolerance) << out << ": per-atom outputs";
}

// the counts of the wall's crossings line at the end of the first run of a log: [steps, history
// copies to the host, atom-data syncs, contacts copies, clump-mass uploads]
std::vector<long> wall_crossings(const std::string &log)
{
  const size_t at = log.find(kWallCrossings);
  if (at == std::string::npos) return {};
  return counts_after(log, at + std::strlen(kWallCrossings));
}
// A wall case run by the host fix and in the execution space at 1 thread (and 2): the same
// atoms, contacts, totals, virial and per-atom outputs to 1e-10 after 300 steps; the wall ran in
// the execution space, and no wall history and only the run setup's atom data went to the host
void walls_in_space_equal_the_host_fix(const WallCase &c, const std::string &p, bool two_threads)
{
  wall_run(c, wall_vars(c, 300, "on"), "", p + "_host");
  for (const char *how : {kKokkos1, kKokkos2}) {
    if (how == kKokkos2 && !two_threads) continue;
    const std::string out = p + (how == kKokkos1 ? "_kkt1" : "_kkt2");
    wall_run(c, wall_vars(c, 300, "off"), how, out);
    expect_same_walls(p + "_host", out, 1e-10);
    const std::string log = deck::read_text(out + ".log");
    EXPECT_EQ(log.find(kWallOnHost), std::string::npos) << out;
    const std::vector<long> crossed = wall_crossings(log);
    ASSERT_EQ(crossed.size(), 5u) << out << ": " << log;
    EXPECT_EQ(crossed[0], 300) << out;
    EXPECT_EQ(crossed[1], 0) << out << ": no wall history to the host";
    EXPECT_EQ(crossed[2], 2) << out << ": atom data to the host at the run's setup only";
  }
}
}    // namespace


// The planes and the cylinder, at rest, wiggled and sheared (the cylinder turning about its
// axis), with the linear laws, the catalogue with Yade moments, JKR (its contacts held apart)
// and Jaeger's law of capacity 16 (the walls' vertices held among the totals), run in the
// execution space at 1 and 2 threads as the host fix runs them: the same
// atoms and contacts, the walls' totals, virial, per-atom stress and `contacts` to 1e-10 after
// 300 steps. No wall history went to the host.
TEST(DeckKokkos, WallsInTheExecutionSpaceEqualTheHostFix)
{
  GE_NEEDS_KOKKOS();
  const WallCase cases[] = {
      {"refined", &packing::kWallPacking, "zplane 0 8 contacts", ""},
      {"catalogue_yade", &packing::kWallPacking, "zplane 0 8 shear x 0.5", ""},
      {"jkr_yade", &packing::kWallPacking, "zplane 0 8 wiggle z 0.1 0.4", "wall 1.8e4 0.3"},
      {"catalogue_hertz", &packing::kWallPacking, "zplane 0 8 wiggle x 0.2 0.5", "wall rigid"},
      {"jaeger_capacity16", &packing::kWallPacking, "zplane 0 8 shear x 0.5 contacts",
       "wall 2e4 0.3"},
      {"classic", &packing::kCylinderPacking, "shear x 0.5 contacts", ""},
      {"jaeger_capacity16", &packing::kCylinderPacking, "shear x 1.0", "wall rigid"},
      {"catalogue_yade", &packing::kCylinderPacking, "wiggle z 0.2 0.5", ""},
      {"refined_yade", &packing::kCylinderPacking, "", ""},
  };
  int n = 0;
  for (const WallCase &c : cases) {
    const std::string p = "kk_walls_" + std::to_string(n++) + "_" + c.family;
    SCOPED_TRACE(p + ": " + c.where);
    walls_in_space_equal_the_host_fix(c, p, std::string(c.where).find("shear") != std::string::npos);
  }
}

// The region walls that have a form in the execution space, each against the faces it has:
// a box rocking about z (spheres in its edges and corners touch two and three faces), a drum
// turning about z with its end caps, a bowl swaying along x, a funnel (a cone from inside), a
// spire (a cone from outside, its side, caps and rims), a
// tilted floor, a pillar and a turning bar from outside (their edges and rims), a cone about x
// swaying along its axis
const WallCase kRegionCases[] = {
    {"refined", &packing::kRegionPacking, "contacts", "",
     "block -5.1 5.1 -5.1 5.1 0.9 11.1 units box rotate v_theta 0 0 6 0 0 1",
     "block -4.9 4.9 -4.9 4.9 1.1 10.9 units box", "-0.1"},
    {"catalogue_yade", &packing::kRegionPacking, "contacts", "",
     "cylinder z 0 0 5.1 0.9 11.1 units box rotate v_turn 0 0 0 0 0 1",
     "cylinder z 0 0 4.7 1.1 10.9 units box", "-0.1"},
    {"jkr_yade", &packing::kRegionPacking, "", "wall 1.8e4 0.3",
     "sphere 0 0 6 5.3 units box move v_sway NULL NULL", "sphere 0 0 6 4.8 units box", "-0.1"},
    {"classic", &packing::kRegionPacking, "contacts", "", "cone z 0 0 3.6 6.6 0.9 11.1 units box",
     "cone z 0 0 3.2 6.2 1.1 10.9 units box", "-0.1"},
    {"catalogue_hertz", &packing::kRegionPacking, "", "wall rigid",
     "plane 0 0 0.5 0.1 0.05 1 units box", "block -7 7 -7 7 2.5 9 units box"},
    {"refined_yade", &packing::kRegionPacking, "contacts", "",
     "block -2 2 -2 2 4 8 units box side out",
     "block -2.6 2.6 -2.6 2.6 3.4 8.6 units box side out", "-0.2"},
    {"catalogue_yade", &packing::kRegionPacking, "", "",
     "cylinder x 0 6 2 -4 4 units box side out rotate v_turn 0 0 6 1 0 0",
     "cylinder x 0 6 2.6 -4.6 4.6 units box side out", "-0.2"},
    {"catalogue_hertz", &packing::kRegionPacking, "contacts", "wall 2e4 0.3",
     "cone x 0 6 3.5 6 -6.1 6.1 units box move v_sway NULL NULL",
     "cone x 0 6 3.1 5.6 -5.9 5.9 units box", "-0.1"},
    {"catalogue_yade", &packing::kRegionPacking, "contacts", "",
     "cone y 0 6 2.5 1 -3 3 units box side out rotate v_theta 0 0 6 0 1 0",
     "cone y 0 6 3.1 1.6 -3.6 3.6 units box side out", "-0.2"},
};

// Region walls in the execution space as the host fix runs them (which reads LAMMPS' own
// region surfaces): the same atoms and contacts, the walls' totals, virial and per-atom
// `contacts` to 1e-10 after 300 steps, at 1 thread and, for the moving regions, at 2; no wall
// history went to the host. Spheres in the box's edges and corners touch several faces.
TEST(DeckKokkos, RegionWallsInTheExecutionSpaceEqualTheHostFix)
{
  GE_NEEDS_KOKKOS();
  int n = 0;
  for (const WallCase &c : kRegionCases) {
    const std::string p = "kk_regions_" + std::to_string(n++) + "_" + c.family;
    SCOPED_TRACE(p + ": " + c.region);
    walls_in_space_equal_the_host_fix(c, p, std::string(c.region).find(" v_") != std::string::npos);
    if (n == 1) {
      // (the dump's columns: id, x, then the `contacts` array: [0] the atom's wall contacts)
      int most = 0;
      for (const auto &[id, row] : deck::read_atom_dump(p + "_kkt1.wall_atoms"))
        most = std::max(most, static_cast<int>(row.at(1)));
      EXPECT_GE(most, 2) << "spheres in the box's edges touch two faces or more";
    }
  }
}

// The walls' histories migrate with their atoms between processes, through LAMMPS' Kokkos
// exchange in the execution space and through its host exchange, and are sorted with them: 2
// and 3 ranks equal the serial host run, and LAMMPS reports no fix sending its exchange or
// sort back to the host.
TEST(DeckKokkos, WallHistoriesMigrateAndSortWithTheirAtoms)
{
  GE_NEEDS_KOKKOS();
  // (the processes side by side along x, across which the packing is sheared between the walls;
  // Jaeger's rows go through the host exchange in the host fix's form)
  const WallCase cases[] = {
      {"catalogue_yade", &packing::kWallPacking, "zplane 0 8 shear x 0.5", ""},
      {"jaeger_capacity16", &packing::kWallPacking, "zplane 0 8 shear x 0.5", "wall 2e4 0.3"},
      kRegionCases[1]};
  for (const WallCase &c : cases) {
  SCOPED_TRACE(c.family);
  const std::string p = std::string("kk_walls_mpi_") + c.family +
      (c.deck == &packing::kRegionPacking ? "_region" : "");
  wall_run(c, wall_vars(c, 300, "on"), "", p + "_host");
  for (int ranks : {2, 3}) {
    for (const char *comm : {kDeviceComm, kHostKokkosComm}) {
      if (comm == kHostKokkosComm && ranks == 3) continue;
      const std::string out =
          p + "_np" + std::to_string(ranks) + (comm == kDeviceComm ? "_device" : "_kokkos_host");
      int moved = 0;
      wall_run(c, wall_vars(c, 300, "off"), std::string(kKokkos1) + comm, out, ranks, &moved,
               false, "* * 1");
      std::printf("  %s: %d atoms changed process\n", out.c_str(), moved);
      EXPECT_GT(moved, 10);
      expect_same_walls(p + "_host", out, 1e-10);
      const std::string log = deck::read_text(out + ".log");
      if (comm == kDeviceComm) {
        EXPECT_EQ(log.find("not compatible with sending data in Kokkos communication"),
                  std::string::npos) << out;
        EXPECT_EQ(log.find("not compatible with Kokkos sorting on device"), std::string::npos)
            << out;
        const std::vector<long> crossed = wall_crossings(log);
        ASSERT_EQ(crossed.size(), 5u) << out;
        EXPECT_EQ(crossed[1], 0) << out << ": no wall history to the host";
      }
    }
  }
  }
}

// A restart written with the walls in the execution space continues under the host fix, and
// one written by the host fix continues in the execution space, as the uninterrupted run: the
// walls' per-atom histories are the host fix's restart data, under its name.
TEST(DeckKokkos, WallRestartsCrossBetweenTheHostAndTheExecutionSpace)
{
  GE_NEEDS_KOKKOS();
  const WallCase cases[] = {
      {"catalogue_yade", &packing::kWallPacking, "zplane 0 8 shear x 0.5", ""},
      {"jaeger_capacity16", &packing::kWallPacking, "zplane 0 8 shear x 0.5", "wall 2e4 0.3"},
      kRegionCases[0], kRegionCases[1]};
  for (const WallCase &c : cases) {
  SCOPED_TRACE(c.family);
  const bool region = c.deck == &packing::kRegionPacking;
  const std::string p = std::string("kk_walls_restart_") + c.family + (region ? "_region" : "");
  // (a restart file keeps no regions or variables)
  const std::string walls =
      region ? "variable packing_dir index " + packing::kDecks + "\ninclude " + packing::kDecks +
              "/in.region_packing_wall\nfix walls all wall/gran/exact ${contact} region wall "
              "${wall_material} ${wall_options}\n"
             : "fix walls all wall/gran/exact ${contact} ${walls_at} ${wall_material}\n";
  const int n = 150;
  const std::string vars = wall_vars(c, n, "off");
  const std::string start = "variable packing_dir index " + packing::kDecks + "\ninclude " +
      *c.deck + "\nrun " + std::to_string(n) + "\n";
  const std::string finish = "run 0 post no\ninclude " + packing::kWriteState + "\n";
  run_deck(p + "_split", start + "run " + std::to_string(n) + "\n" + finish,
           vars + " -var out " + p + "_split");
  for (const char *writer : {"host", "kk"}) {
    const bool kk_writes = std::string(writer) == "kk";
    const std::string file = p + "_" + writer + ".restart";
    const std::string wlog = run_deck(p + "_write_" + writer, start + "write_restart " + file + "\n",
                                      vars + (kk_writes ? kKokkos1 : ""));
    const std::string rlog = run_deck(
        p + "_read_" + writer,
        packing::restarted_packing(file) + walls + "run " + std::to_string(n) + "\n" + finish,
        vars + " -var out " + p + "_from_" + writer +
            (kk_writes ? "" : std::string(kKokkos1) + " -pk kokkos newton off"));
    EXPECT_NE(rlog.find("Resetting peratom fix info from restart file:\n  fix style: "
                        "wall/gran/exact, fix ID: walls"),
              std::string::npos)
        << rlog;
    EXPECT_NE((kk_writes ? wlog : rlog).find(kWallCrossings), std::string::npos);
    packing::expect_same_state(packing::read_state(p + "_split"),
                               packing::read_state(p + "_from_" + writer), 1e-10,
                               (p + (kk_writes ? ": restart of the walls in the execution "
                                                 "space, continued by the host fix"
                                               : ": host restart continued in the execution "
                                                 "space"))
                                   .c_str());
  }
  }
}

// A Jaeger wall continued from a restart with a smaller capacity (16 -> 2): the records read
// hold more vertices than the rows' room; the rows widen to keep them (with a warning that
// gives the room and its bytes), and the next steps merge them down as the host fix's do: the
// continued run equals the host fix's.
TEST(DeckKokkos, WallJaegerRecordsOfALargerCapacityAreKept)
{
  GE_NEEDS_KOKKOS();
  const WallCase c{"jaeger_capacity16", &packing::kWallPacking, "zplane 0 8 shear x 0.5",
                   "wall 2e4 0.3"};
  const std::string p = "kk_walls_capacity";
  const int n = 150;
  const std::string vars = wall_vars(c, n, "off");
  const std::string file = p + ".restart";
  run_deck(p + "_write",
           "variable packing_dir index " + packing::kDecks + "\ninclude " + *c.deck + "\nrun " +
               std::to_string(n) + "\nprint \"$(f_walls[6])\" file " + p + ".vertices\n" +
               "write_restart " + file + "\n",
           vars);
  EXPECT_GT(std::stod(deck::read_text(p + ".vertices")), 128.0 * 3.0)
      << "the walls' contacts should hold more vertices than capacity 2 keeps";
  const std::string smaller = "fix walls all wall/gran/exact hertz 2e4 0.3 tangential jaeger "
                              "0.5 capacity 2 ${walls_at} ${wall_material}\nrun " +
      std::to_string(n) + "\nrun 0 post no\ninclude " + packing::kWriteState + "\n";
  for (const char *where : {"host", "kk"}) {
    const bool kk = std::string(where) == "kk";
    const std::string log =
        run_deck(p + "_" + where, packing::restarted_packing(file) + smaller,
                 vars + " -var out " + p + "_" + where +
                     (kk ? std::string(kKokkos1) + " -pk kokkos newton off" : ""));
    if (kk) {
      EXPECT_NE(log.find("more than 'capacity 2' keeps; every atom's row now has room for"),
                std::string::npos)
          << log;
      EXPECT_EQ(log.find(kWallOnHost), std::string::npos) << log;
    }
  }
  packing::expect_same_state(packing::read_state(p + "_host"), packing::read_state(p + "_kk"),
                             1e-10, (p + ": capacity 16 -> 2 under the host fix and /kk").c_str());
}

// A region wall without a form in the execution space (a face left open; the Jaeger law on a
// region): the wall says so once and runs as the host fix, with the host fix's results
TEST(DeckKokkos, WallsWithoutAFormInTheExecutionSpaceRunOnTheHostAndSaySo)
{
  GE_NEEDS_KOKKOS();
  const WallCase cases[] = {
      {"refined", &packing::kRegionPacking, "", "",
       "block -5.1 5.1 -5.1 5.1 0.9 11.1 open 6 units box",
       "block -4.9 4.9 -4.9 4.9 1.1 10.9 units box", "-0.1"},
      {"jaeger_capacity16", &packing::kWallPacking, "region slab", "wall 2e4 0.3"},
  };
  for (const WallCase &c : cases) {
    const std::string p = std::string("kk_walls_on_host_") + c.family;
    SCOPED_TRACE(p);
    wall_run(c, wall_vars(c, 200, "on"), "", p + "_host");
    wall_run(c, wall_vars(c, 200, "on"), kKokkos1, p + "_kk");
    expect_same_walls(p + "_host", p + "_kk", 1e-10);
    const std::string log = deck::read_text(p + "_kk.log");
    const size_t warned = log.find(kWallOnHost);
    EXPECT_NE(warned, std::string::npos) << log;
    EXPECT_EQ(log.find(kWallCrossings), std::string::npos);
  }
}

// The walls' per-atom virial (fix_modify virial yes, compute stress/atom) in the execution space,
// on the steps that ask for it: beside the host pair style (pair granular/exact/kk gives no
// per-atom virial), as the host fix's
TEST(DeckKokkos, WallPerAtomVirialInTheExecutionSpaceEqualsTheHostFix)
{
  GE_NEEDS_KOKKOS();
  const WallCase c{"catalogue_yade", &packing::kWallPacking, "zplane 0 8 shear x 0.5 contacts", ""};
  const std::string p = "kk_walls_vatom";
  wall_run(c, wall_vars(c, 200, "on"), "", p + "_host", 1, nullptr, true);
  wall_run(c, wall_vars(c, 200, "on"), kKokkos1, p + "_kk", 1, nullptr, true);
  expect_same_walls(p + "_host", p + "_kk", 1e-10);
  const auto rows = deck::read_atom_dump(p + "_kk.wall_atoms");
  int stressed = 0;
  for (const auto &[id, row] : rows) stressed += row.at(3) != 0.0;    // (after x y z: s_xx)
  EXPECT_GT(stressed, 10) << "atoms at the walls carry their virial";
  EXPECT_EQ(wall_crossings(deck::read_text(p + "_kk.log")).at(1), 0);
}
