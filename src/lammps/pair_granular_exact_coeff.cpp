/* ----------------------------------------------------------------------
   GRANULAR-EXACT: pair style granular/exact, pair_coeff: the type pairs a law is given to (the
   law words are read by ContactLawWords, contact_law_words.h; the class is in
   pair_granular_exact.h; compute, init and I/O in pair_granular_exact.cpp)
------------------------------------------------------------------------- */

#include "pair_granular_exact.h"

#include "contact_law_io.h"
#include "contact_law_words.h"

#include "atom.h"
#include "error.h"

using namespace LAMMPS_NS;

bool PairGranularExact::any_law(int tangential) const
{
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++)
      if (setflag[i][j] && law[i][j].tangential == tangential) return true;
  return false;
}

bool PairGranularExact::any_linear_law() const
{
  return any_law(TANGENTIAL_CLASSIC) || any_law(TANGENTIAL_REFINED);
}

/* ----------------------------------------------------------------------
   doubles per contact in the history store: the largest state of the laws (a Jaeger-only
   compact store holds its 7 (10 with Yade moments); LAMMPS' neighbour store at least the linear
   laws' 11)
------------------------------------------------------------------------- */

int PairGranularExact::laws_store_width(int mode, int format) const
{
  // (restart formats before 7: `tangential coulomb` kept the catalogue's state alone)
  auto state_size = [format](const Law &lw) {
    return (format < 7 && ge::is_coulomb(lw)) ? int(ge::CATALOGUE_STATE_SIZE)
                                              : ge::contact_state_size(lw);
  };
  int width = mode == HISTORY_COMPACT ? int(ge::JAEGER_FIXED_SIZE) : int(ge::LINEAR_HISTORY_SIZE);
  if (mode == HISTORY_COMPACT && (any_linear_law() || any_law(TANGENTIAL_CATALOGUE)))
    width = int(ge::LINEAR_HISTORY_SIZE);
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++)
      if (setflag[i][j]) width = MAX(width, state_size(law[i][j]));
  return width;
}

/* ---------------------------------------------------------------------- */

void PairGranularExact::coeff(int narg, char **arg)
{
  if (narg < 2)
    error->all(FLERR, "Incorrect pair_coeff for granular/exact: usage: {}",
               ContactLawWords::GRAMMAR);
  if (!allocated) allocate();

  int ilo, ihi, jlo, jhi;
  utils::bounds(FLERR, arg[0], 1, atom->ntypes, ilo, ihi, error);
  utils::bounds(FLERR, arg[1], 1, atom->ntypes, jlo, jhi, error);

  const Law lw = ContactLawWords(lmp).parse(narg, arg, 2, "pair_coeff for granular/exact");
  const bool two_materials = lw.normal == NORMAL_HERTZ && !ge::one_material(lw.hertz);
  for (int i = ilo; two_materials && i <= ihi; i++)
    if (i >= jlo && i <= jhi)
      error->all(FLERR,
                 "Incorrect pair_coeff for granular/exact: 'hertz <E_I> <nu_I> <E_J> <nu_J>' "
                 "gives two materials, but types {} {} are one: give 'hertz <E> <nu>' for I = J",
                 i, i);
  // (its outputs can then be named before the run; init_style() moves it to the end)
  if (is_coulomb(lw)) friction_fix();

  int count = 0;
  for (int i = ilo; i <= ihi; i++) {
    for (int j = MAX(jlo, i); j <= jhi; j++) {
      law[i][j] = law[j][i] = lw;
      setflag[i][j] = 1;
      count++;
    }
  }
  if (count == 0)
    error->all(FLERR, "Incorrect pair_coeff for granular/exact: no type pair in {} {}", arg[0],
               arg[1]);
}
