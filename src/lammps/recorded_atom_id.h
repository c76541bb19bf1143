/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: the atom ID each atom had at the last run's setup, kept by
   pair granular/exact in a fix property/atom (PairGranularExact::
   check_atom_ids): the histories know their partners by ID, so IDs changed
   between runs are an error while contacts are held.
------------------------------------------------------------------------- */

#ifndef GE_RECORDED_ATOM_ID_H
#define GE_RECORDED_ATOM_ID_H

#include "atom.h"

namespace LAMMPS_NS {

// the per-atom double vector of the fix property/atom (its name there: d_GE_history_atom_id)
constexpr const char *kRecordedAtomIdName = "GE_history_atom_id";

// the recorded IDs (0: none, an atom created since), or nullptr where the pair style has not
// made the vector yet
inline double *recorded_atom_ids(Atom *atom)
{
  int is_double = 0, columns = 0;
  const int index = atom->find_custom(kRecordedAtomIdName, is_double, columns);
  if (index < 0 || !is_double || columns != 0) return nullptr;
  return atom->dvector[index];
}

// An atom just created (create_atoms, read_data, fix pour, fix deposit) is recorded with the ID
// it has then: fix pour and fix deposit give it before they call the fixes' set_arrays(), read
// data reads it; create_atoms gives it after (0: none recorded, the next run's setup records
// it, and the atom holds no contact before that run). Otherwise LAMMPS would leave the atom
// what its slot last held: another atom's ID where an atom was deleted or moved from the slot
// (taken for a renumbered atom), or an atom created during a run would escape the check until
// the next run's setup (a delete_atoms with 'compress yes' right after a pour, or a restart file
// written by the restart command during it). Called from the history fixes' set_arrays()
// (create_attribute).
inline void record_created_atom_id(Atom *atom, int i)
{
  if (double *was = recorded_atom_ids(atom)) was[i] = static_cast<double>(atom->tag[i]);
}

}    // namespace LAMMPS_NS

#endif
