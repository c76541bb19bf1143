/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: one atom that has a property, over all processes, for an
   error message that names it (collective).
------------------------------------------------------------------------- */

#ifndef GE_AN_ATOM_WHERE_H
#define GE_AN_ATOM_WHERE_H

#include "atom.h"
#include "lmptype.h"

#include <mpi.h>

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

}    // namespace LAMMPS_NS

#endif
