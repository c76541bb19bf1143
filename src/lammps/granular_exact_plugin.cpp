// Plugin entry point: registers the GRANULAR-EXACT styles with a running LAMMPS.
#include "lammpsplugin.h"
#include "version.h"

#include "fix_contact_history_exact.h"
#include "fix_coulomb_friction_exact.h"
#include "fix_neigh_history_exact.h"
#include "fix_wall_gran_exact.h"
#include "pair_granular_exact.h"
#ifdef GE_HAVE_KOKKOS
#include "granular_exact_kokkos_styles.h"
#endif

using namespace LAMMPS_NS;

static Pair *granular_exact_creator(LAMMPS *lmp)
{
  return new PairGranularExact(lmp);
}

static Fix *neigh_history_exact_creator(LAMMPS *lmp, int argc, char **argv)
{
  return new FixNeighHistoryExact(lmp, argc, argv);
}

static Fix *wall_gran_exact_creator(LAMMPS *lmp, int argc, char **argv)
{
  return new FixWallGranExact(lmp, argc, argv);
}

static Fix *contact_history_exact_creator(LAMMPS *lmp, int argc, char **argv)
{
  return new FixContactHistoryExact(lmp, argc, argv);
}

static Fix *coulomb_friction_exact_creator(LAMMPS *lmp, int argc, char **argv)
{
  return new FixCoulombFrictionExact(lmp, argc, argv);
}

// (the one symbol LAMMPS looks up in the plugin: visible, while the rest is hidden)
extern "C" __attribute__((visibility("default"))) void lammpsplugin_init(void *lmp, void *handle,
                                                                         void *regfunc)
{
  auto register_plugin = (lammpsplugin_regfunc) regfunc;
  lammpsplugin_t plugin;
  plugin.version = LAMMPS_VERSION;
  plugin.style = "pair";
  plugin.name = "granular/exact";
  plugin.info = "GRANULAR-EXACT pair style granular/exact (refined linear-frictional contact)";
  plugin.author = "GRANULAR-EXACT developers";
  plugin.creator.v1 = (lammpsplugin_factory1 *) &granular_exact_creator;
  plugin.handle = handle;
  (*register_plugin)(&plugin, lmp);

  plugin.style = "fix";
  plugin.name = "wall/gran/exact";
  plugin.info = "GRANULAR-EXACT frictional walls with the laws of pair granular/exact";
  plugin.creator.v2 = (lammpsplugin_factory2 *) &wall_gran_exact_creator;
  (*register_plugin)(&plugin, lmp);

  // internal: the per-contact history fix the pair style creates
  plugin.style = "fix";
  plugin.name = "NEIGH_HISTORY/EXACT";
  plugin.info = "GRANULAR-EXACT per-contact history (internal, created by pair granular/exact)";
  plugin.creator.v2 = (lammpsplugin_factory2 *) &neigh_history_exact_creator;
  (*register_plugin)(&plugin, lmp);

  // internal: the compact, variable-length per-contact history (pair_style ... history compact)
  plugin.name = "CONTACT_HISTORY/EXACT";
  plugin.info =
      "GRANULAR-EXACT compact per-contact history (internal, created by pair granular/exact)";
  plugin.creator.v2 = (lammpsplugin_factory2 *) &contact_history_exact_creator;
  (*register_plugin)(&plugin, lmp);

  // internal: the friction solver of `tangential coulomb`
  plugin.name = "COULOMB_FRICTION/EXACT";
  plugin.info =
      "GRANULAR-EXACT exact Coulomb friction solver (internal, created by pair granular/exact)";
  plugin.creator.v2 = (lammpsplugin_factory2 *) &coulomb_friction_exact_creator;
  (*register_plugin)(&plugin, lmp);

#ifdef GE_HAVE_KOKKOS
  // granular/exact/kk, /kk/device, /kk/host (a LAMMPS built with KOKKOS)
  ge_register_kokkos_styles(lmp, handle, regfunc);
#endif
}
