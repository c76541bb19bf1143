/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: one atom that has a property, over all processes, for an
   error message that names it (collective).
------------------------------------------------------------------------- */

#ifndef GE_AN_ATOM_WHERE_H
#define GE_AN_ATOM_WHERE_H

#include "atom.h"
#include "error.h"
#include "lmptype.h"

#include <mpi.h>

#include <cmath>

namespace LAMMPS_NS {

// The ID of an owned atom i (on any process) with holds(i), or 0 if there is none.
template <class Predicate> tagint an_atom_where(Atom *atom, MPI_Comm world, Predicate holds)
{
  tagint here = 0;
  for (int i = 0; i < atom->nlocal && here == 0; i++)
    if (holds(i)) here = atom->tag[i];
  tagint anywhere = 0;
  MPI_Allreduce(&here, &anywhere, 1, MPI_LMP_TAGINT, MPI_MAX, world);
  return anywhere;
}

// The forces of a run's setup (the first the laws give for the atoms as they are): one that is
// not finite stops the run, naming the atom (collective). Parameters at the edge of the doubles,
// or a mass of 1e-300, ran on with NaN in the thermo output.
inline void check_finite_forces(Atom *atom, MPI_Comm world, Error *error, const char *who)
{
  // (owned and ghost atoms: a ghost's force reaches its owner only after this, newton on)
  double **f = atom->f, **t = atom->torque_flag ? atom->torque : nullptr;
  tagint here = 0;
  for (int i = 0; i < atom->nlocal + atom->nghost && here == 0; i++) {
    bool finite = std::isfinite(f[i][0]) && std::isfinite(f[i][1]) && std::isfinite(f[i][2]);
    if (t) finite = finite && std::isfinite(t[i][0]) && std::isfinite(t[i][1]) && std::isfinite(t[i][2]);
    if (!finite) here = atom->tag[i];
  }
  tagint bad = 0;
  MPI_Allreduce(&here, &bad, 1, MPI_LMP_TAGINT, MPI_MAX, world);
  if (bad != 0)
    error->all(FLERR,
               "{}: the force or torque on atom {} is not finite when the run starts (a "
               "parameter, a mass or a size at the edge of the double-precision numbers, or "
               "atoms at the same position?); check the inputs of the contacts of that atom",
               who, bad);
}

}    // namespace LAMMPS_NS

#endif
