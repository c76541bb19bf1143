// Helpers for deck tests: a LAMMPS instance with the plugin loaded (library API), dump readers
// and comparisons that do not depend on atom order or on which atom of a pair lists it.
#pragma once

#include "library.h"
#include "packing_files.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace deck {

// One LAMMPS instance on this process, plugin loaded, screen and log off.
class Lammps {
 public:
  // (`more`: further command-line arguments, e.g. -k on t 1 -sf kk)
  explicit Lammps(const std::string &log = "none", const std::vector<std::string> &more = {})
  {
    std::vector<const char *> args = {"lmp", "-log", log.c_str(), "-screen", "none", "-nocite"};
    for (const std::string &a : more) args.push_back(a.c_str());
    handle_ = lammps_open_no_mpi(static_cast<int>(args.size()), const_cast<char **>(args.data()),
                                 nullptr);
    command("plugin load " GE_PLUGIN_PATH);
    if (!lammps_has_style(handle_, "pair", "granular/exact"))
      ADD_FAILURE() << "the plugin did not register pair style granular/exact";
  }
  ~Lammps() { lammps_close(handle_); }
  Lammps(const Lammps &) = delete;
  Lammps &operator=(const Lammps &) = delete;

  // Run commands; a LAMMPS error fails the test with its message.
  void command(const std::string &text)
  {
    lammps_commands_string(handle_, text.c_str());
    if (lammps_has_error(handle_)) {
      char msg[2048];
      lammps_get_last_error_message(handle_, msg, sizeof(msg));
      ADD_FAILURE() << "LAMMPS error: " << msg << "\nin: " << text;
    }
  }

  // Run commands that must fail; returns the error message ("" if none was raised).
  std::string error_of(const std::string &text)
  {
    lammps_commands_string(handle_, text.c_str());
    if (!lammps_has_error(handle_)) return "";
    char msg[2048];
    lammps_get_last_error_message(handle_, msg, sizeof(msg));
    return msg;
  }

  // the value of an equal-style variable now (a missing variable fails the test)
  double variable(const std::string &name)
  {
    auto *value = static_cast<double *>(lammps_extract_variable(handle_, name.c_str(), nullptr));
    if (value == nullptr) {
      ADD_FAILURE() << "no equal-style variable '" << name << "'";
      return std::nan("");
    }
    const double result = *value;
    lammps_free(value);
    return result;
  }
  double thermo(const std::string &keyword) { return lammps_get_thermo(handle_, keyword.c_str()); }
  // value k of the global vector of compute `id` now (NaN if there is none)
  double compute_vector(const std::string &id, int k)
  {
    auto *v = static_cast<double *>(
        lammps_extract_compute(handle_, id.c_str(), LMP_STYLE_GLOBAL, LMP_TYPE_VECTOR));
    return v ? v[k] : NAN;
  }
  void *handle() { return handle_; }

 private:
  void *handle_;
};

// A whole text file (a log), empty if it cannot be read.
inline std::string read_text(const std::string &path)
{
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// the number after the last `marker` in a log (NaN if absent)
// the rows of a file written by fix print (numbers separated by blanks), comment lines skipped
inline std::vector<std::vector<double>> read_rows(const std::string &path)
{
  std::vector<std::vector<double>> rows;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::vector<double> row;
    for (double v; words >> v;) row.push_back(v);
    rows.push_back(row);
  }
  return rows;
}

inline double value_after(const std::string &log, const std::string &marker)
{
  const auto at = log.rfind(marker);
  if (at == std::string::npos) return NAN;
  return std::strtod(log.c_str() + at + marker.size(), nullptr);
}

inline std::string source_path(const std::string &relative)
{
  return std::string(GE_SOURCE_DIR) + "/" + relative;
}

// Full precision in input text (std::to_string prints 6 decimals: 2.956e-6 -> "0.000003").
inline std::string num(double x)
{
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.17g", x);
  return buf;
}

// The start of the small decks: finite spheres in a closed box `block` (xlo xhi ylo yhi zlo
// zhi, and region options) with `types` atom types, atoms addressable by tag, ghost velocities
// on; in SI or LJ units.
inline std::string sphere_box(const std::string &units, const std::string &block, int types)
{
  return "units " + units + "\natom_style sphere\natom_modify map array\nboundary f f f\n"
         "comm_modify vel yes\nregion box block " + block + "\ncreate_box " +
      std::to_string(types) + " box\n";
}
inline std::string si_sphere_box(const std::string &block, int types = 1)
{
  return sphere_box("si", block, types);
}
inline std::string lj_sphere_box(const std::string &block, int types = 1)
{
  return sphere_box("lj", block, types);
}

// Two unit spheres (LJ units, diameter and mass 1) 1.2 apart meeting head-on at relative speed 1
// under `pair_coeff * * <law>`, integrated with time step `dt`; each step's "is sphere 2 pushed"
// (fx[2] > 1e-9, 1 or 0) is printed to `record_file`. The deck up to the run.
inline std::string head_on_collision(const std::string &law, double dt,
                                     const std::string &record_file)
{
  return lj_sphere_box("-3 3 -3 3 -3 3") + R"(
create_atoms    1 single -0.6 0 0
create_atoms    1 single  0.6 0 0
set             group all diameter 1.0
set             group all mass 1.0
velocity        all set 0 0 0
set             atom 1 vx  0.5
set             atom 2 vx -0.5
pair_style      granular/exact
pair_coeff      * * )" + law + "\ntimestep " + num(dt) + R"(
fix             integrate all nve/sphere
variable        pushing equal "fx[2] > 1e-9"
fix             record all print 1 "${pushing}" file )" + record_file + " screen no\n";
}

// The number of lines "1" in a file (steps recorded as pushing by head_on_collision()).
inline int count_ones(const std::string &path)
{
  std::ifstream in(path);
  int n = 0;
  for (std::string line; std::getline(in, line);) n += (line == "1");
  return n;
}

// Run build/lmp under mpiexec with a time limit; returns the exit status.
inline int run_mpi(int nprocs, const std::string &deck, const std::string &vars,
                   const std::string &log)
{
  const std::string cmd = "timeout 280 " GE_MPIEXEC " -n " + std::to_string(nprocs) +
      " " GE_MPIEXEC_FLAGS " " GE_LMP_PATH " -nocite -screen none -log " + log + " -in " +
      deck + " " + vars + " > " + log + ".out 2>&1";
  return std::system(cmd.c_str());
}

// Run examples/<example>/<input> with build/lmp in the example's own directory (where it writes
// its data files), with the command-line arguments `vars` (e.g. "-var n 10"); its screen output
// goes to <test work dir>/<example>.out (the returned path). *status: the exit status.
inline std::string run_example(const std::string &example, const std::string &input, int *status,
                               const std::string &vars = "")
{
  const std::string out = std::string(GE_TEST_WORK_DIR) + "/" + example + ".out";
  const std::string cmd = "cd " + source_path("examples/" + example) + " && timeout 250 " +
      GE_LMP_PATH + " -nocite -log none -in " + input + " " + vars + " > " + out + " 2>&1";
  *status = std::system(cmd.c_str());
  return out;
}

// An empty two-type box (LJ units) with pair granular/exact defined and no pair_coeff: the
// setup of the bad-input tests.
const char *const kEmptyGranularBox = R"(
units lj
atom_style sphere
region box block 0 4 0 4 0 4
create_box 2 box
comm_modify vel yes
pair_style granular/exact
)";

// The same with a box closed in z (for walls), without the pair style.
const char *const kEmptyWallBox = R"(
units lj
atom_style sphere
boundary p p f
region box block 0 4 0 4 0 4
create_box 1 box
comm_modify vel yes
)";

// A command that must fail, and a piece of the message it must give.
struct BadInput {
  const char *command;
  const char *message;
};

// Each command, run after `setup` in a fresh LAMMPS, stops with an error containing its message.
template <std::size_t N> void expect_rejected(const std::string &setup, const BadInput (&cases)[N])
{
  for (const BadInput &c : cases) {
    Lammps lmp;
    lmp.command(setup);
    const std::string msg = lmp.error_of(c.command);
    EXPECT_NE(msg.find(c.message), std::string::npos)
        << "input: " << c.command << "\nexpected message containing: " << c.message
        << "\ngot: " << (msg.empty() ? std::string("(no error)") : msg);
  }
}

}    // namespace deck
