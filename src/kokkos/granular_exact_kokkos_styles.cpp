/* ----------------------------------------------------------------------
   GRANULAR-EXACT: registration of the Kokkos styles (called by the plugin's
   lammpsplugin_init() when LAMMPS was built with KOKKOS)
------------------------------------------------------------------------- */

#include "granular_exact_kokkos_styles.h"

#include "fix_neigh_history_exact_kokkos.h"
#include "fix_wall_gran_exact_kokkos.h"
#include "lammpsplugin.h"
#include "pair_granular_exact_kokkos.h"
#include "version.h"

using namespace LAMMPS_NS;

namespace {

template <class DeviceType> Pair *granular_exact_kokkos_creator(LAMMPS *lmp)
{
  return new PairGranularExactKokkos<DeviceType>(lmp);
}

Fix *neigh_history_exact_kokkos_creator(LAMMPS *lmp, int argc, char **argv)
{
  return new FixNeighHistoryExactKokkos(lmp, argc, argv);
}

Fix *contact_history_exact_kokkos_creator(LAMMPS *lmp, int argc, char **argv)
{
  return new FixContactHistoryExactKokkos(lmp, argc, argv);
}

Fix *wall_gran_exact_kokkos_creator(LAMMPS *lmp, int argc, char **argv)
{
  return new FixWallGranExactKokkos(lmp, argc, argv);
}

}    // namespace

void ge_register_kokkos_styles(void *lmp, void *handle, void *regfunc)
{
  auto register_plugin = (lammpsplugin_regfunc) regfunc;
  lammpsplugin_t plugin;
  plugin.version = LAMMPS_VERSION;
  plugin.style = "pair";
  plugin.author = "GRANULAR-EXACT developers";
  plugin.handle = handle;
  // granular/exact/kk and /kk/device run in Kokkos' default execution space (a GPU where Kokkos
  // has one), /kk/host in its host space
  plugin.info = "GRANULAR-EXACT pair style granular/exact, Kokkos variant";
  for (const char *name : {"granular/exact/kk", "granular/exact/kk/device"}) {
    plugin.name = name;
    plugin.creator.v1 = (lammpsplugin_factory1 *) &granular_exact_kokkos_creator<LMPDeviceType>;
    (*register_plugin)(&plugin, lmp);
  }
  plugin.name = "granular/exact/kk/host";
  plugin.creator.v1 = (lammpsplugin_factory1 *) &granular_exact_kokkos_creator<LMPHostType>;
  (*register_plugin)(&plugin, lmp);

  // internal: the history store in the execution space that granular/exact/kk makes
  plugin.style = "fix";
  plugin.name = "NEIGH_HISTORY/EXACT/KK";
  plugin.info = "GRANULAR-EXACT per-contact history in the Kokkos execution space (internal)";
  plugin.creator.v2 = (lammpsplugin_factory2 *) &neigh_history_exact_kokkos_creator;
  (*register_plugin)(&plugin, lmp);
  plugin.name = "CONTACT_HISTORY/EXACT/KK";    // (the compact form: Jaeger's items)
  plugin.creator.v2 = (lammpsplugin_factory2 *) &contact_history_exact_kokkos_creator;
  (*register_plugin)(&plugin, lmp);

  // the walls: in the execution space where they have a form there (fix_wall_gran_exact_kokkos.h)
  plugin.info = "GRANULAR-EXACT fix wall/gran/exact, Kokkos variant";
  plugin.creator.v2 = (lammpsplugin_factory2 *) &wall_gran_exact_kokkos_creator;
  for (const char *name : {"wall/gran/exact/kk", "wall/gran/exact/kk/device"}) {
    plugin.name = name;
    (*register_plugin)(&plugin, lmp);
  }
}
