// lmp for GRANULAR-EXACT: a LAMMPS main program (same structure and error handling as LAMMPS's
// src/main.cpp) whose LAMMPS instance has granularexactplugin.so loaded, so input decks can use
// the plugin's styles without a `plugin load` line -- also after a `clear` command.
//
// Plugin path: $GRANULAR_EXACT_PLUGIN if set (set it to an empty string to load nothing), else
// <directory of this executable>/granularexactplugin.so. A plugin that fails to load is an error.
//
// LAMMPS' `clear` unloads every plugin and then auto-loads the *plugin.so files found in the
// directories of $LAMMPS_PLUGIN_PATH (as does the creation of the instance). The plugin's
// directory is therefore put first on that path; an explicit plugin_load() remains the fallback
// (and gives the error message) when auto-loading did not register the styles.

#include "error.h"
#include "exceptions.h"
#include "input.h"
#include "lammps.h"
#include "library.h"
#include "plugin.h"

#include <mpi.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include <unistd.h>

using namespace LAMMPS_NS;

namespace {

void finalize()
{
  lammps_kokkos_finalize();
  lammps_python_finalize();
#if defined(GE_HAVE_LAMMPS_PLUGIN_FINALIZE)
  lammps_plugin_finalize();
#endif
}

std::string plugin_path()
{
  if (const char *env = std::getenv("GRANULAR_EXACT_PLUGIN")) return env;
  char exe[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (n > 0) {
    std::string dir(exe, static_cast<std::size_t>(n));
    const auto slash = dir.rfind('/');
    if (slash != std::string::npos) return dir.substr(0, slash) + "/granularexactplugin.so";
  }
#if defined(GE_DEFAULT_PLUGIN_PATH)
  return GE_DEFAULT_PLUGIN_PATH;
#else
  return "granularexactplugin.so";
#endif
}

// Put the plugin's directory first on LAMMPS_PLUGIN_PATH when its file name is one LAMMPS
// auto-loads (*plugin.so).
void enable_auto_load(const std::string &path)
{
  const std::string suffix = "plugin.so";
  const auto slash = path.rfind('/');
  if (slash == std::string::npos || path.size() < suffix.size() ||
      path.compare(path.size() - suffix.size(), suffix.size(), suffix) != 0)
    return;
  std::string dirs = path.substr(0, slash);
  if (const char *old = std::getenv("LAMMPS_PLUGIN_PATH"))
    if (*old) dirs += std::string(":") + old;
  setenv("LAMMPS_PLUGIN_PATH", dirs.c_str(), 1);
}

void load_plugin(LAMMPS *lmp, const std::string &path)
{
  if (path.empty()) return;
  if (lammps_has_style(lmp, "pair", "granular/exact")) return;    // auto-loaded
  if (plugin_load(path.c_str(), lmp) == 0)
    lmp->error->all(FLERR,
                    "GRANULAR-EXACT: could not load the plugin " + path +
                        " (set GRANULAR_EXACT_PLUGIN to its path, or to an empty string to skip it)");
}

}    // namespace

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm lammps_comm = MPI_COMM_WORLD;

  try {
    const std::string plugin = plugin_path();
    enable_auto_load(plugin);
    auto *lammps = new LAMMPS(argc, argv, lammps_comm);
    load_plugin(lammps, plugin);
    lammps->input->file();
    delete lammps;
  } catch (LAMMPSAbortException &ae) {
    finalize();
    MPI_Abort(ae.get_universe(), 1);
  } catch (LAMMPSException &) {
    finalize();
    MPI_Barrier(lammps_comm);
    MPI_Finalize();
    exit(1);
  } catch (fmt::format_error &fe) {
    fprintf(stderr, "fmt::format_error: %s\n", fe.what());
    finalize();
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
  } catch (std::bad_alloc &ae) {
    fprintf(stderr, "C++ memory allocation failed: %s\n", ae.what());
    finalize();
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
  } catch (std::exception &e) {
    fprintf(stderr, "Exception: %s\n", e.what());
    finalize();
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
  }
  finalize();
  MPI_Barrier(lammps_comm);
  MPI_Finalize();
}
