// Shared main() of the deck tests (unittest/test_deck_*.cpp, see unittest/CMakeLists.txt).
//
// * Initialises MPI once per process (LAMMPS instances on MPI_COMM_WORLD need it) and finalises it
//   after the tests.
// * Restores the environment to what it was before MPI_Init. A process that calls MPI_Init without
//   mpirun becomes an Open MPI "singleton", which puts OMPI_MCA_ess=singleton, PMIX_* etc. into its
//   environment; an `mpirun` started from it with std::system() inherits them and fails at once
//   (exit 1, no output). The variables are only read during MPI_Init, so removing them afterwards is
//   safe, and tests can spawn `mpirun ... lmp` runs freely.
// * With more than one rank (when run under mpiexec), only rank 0 prints gtest output; the exit code
//   is failing if any rank failed.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <map>
#include <string>

extern char **environ;

namespace {

std::map<std::string, std::string> environment()
{
  std::map<std::string, std::string> env;
  for (char **e = environ; e && *e; ++e) {
    const std::string entry(*e);
    const auto eq = entry.find('=');
    if (eq != std::string::npos) env[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  return env;
}

void restore_environment(const std::map<std::string, std::string> &before)
{
  for (const auto &[name, value] : environment()) {
    const auto it = before.find(name);
    if (it == before.end())
      unsetenv(name.c_str());
    else if (it->second != value)
      setenv(name.c_str(), it->second.c_str(), 1);
  }
}

}    // namespace

int main(int argc, char **argv)
{
  const auto env_before_mpi = environment();
  MPI_Init(&argc, &argv);
  restore_environment(env_before_mpi);

  ::testing::InitGoogleTest(&argc, argv);

  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me != 0) {
    auto &listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }

  const int rc = RUN_ALL_TESTS();
  int rc_all = 0;
  MPI_Allreduce(&rc, &rc_all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return rc_all;
}
