/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: pair style granular/exact.
   Glue between LAMMPS (neighbour lists, per-contact history, forces, virial,
   output) and the contact laws of src/contact/.
------------------------------------------------------------------------- */

#ifndef GE_PAIR_GRANULAR_EXACT_H
#define GE_PAIR_GRANULAR_EXACT_H

#include "pair.h"

#include "contact/linear_frictional.hpp"

#include <string>

namespace LAMMPS_NS {

class PairGranularExact : public Pair {
 public:
  PairGranularExact(class LAMMPS *);
  ~PairGranularExact() override;

  void compute(int, int) override;
  void settings(int, char **) override;
  void coeff(int, char **) override;
  void init_style() override;
  double init_one(int, int) override;
  void write_restart(FILE *) override;
  void read_restart(FILE *) override;
  void write_restart_settings(FILE *) override;
  void read_restart_settings(FILE *) override;
  double single(int, int, int, int, double, double, double, double &) override;
  void transfer_history(double *, double *, int, int) override;
  double memory_usage() override;
#if GE_LAMMPS_VERSION < 20260000
  double atom2cut(int) override;
  double radii2cut(double, double) override;
#endif

  // one type pair's contact law, as given by pair_coeff (or mixed)
  struct Law {
    ge::LinearParams linear;
    int damping;       // DAMPING_NONE or DAMPING_VISCOUS
    int tangential;    // TANGENTIAL_CLASSIC or TANGENTIAL_REFINED
  };
  enum { DAMPING_NONE = 0, DAMPING_VISCOUS = 1 };
  enum { TANGENTIAL_CLASSIC = 0, TANGENTIAL_REFINED = 1 };

 protected:
  Law **law;                     // law[itype][jtype]
  double cutoff_global;          // from 'cutoff', or -1: radius based
  // per-contact history: LAMMPS' fixed-width neighbour history (a value block for every
  // neighbour slot) or the compact store (a record per touching contact, variable length)
  enum { HISTORY_NEIGH = 0, HISTORY_COMPACT = 1 };
  int history_mode;
  class FixNeighHistoryExact *fix_neigh;
  class FixContactHistoryExact *fix_compact;
  std::string id_history;        // ID of the history fix
  int neighprev;                 // search hint for single()
  double *onerad_dynamic, *maxrad_dynamic;

  // work of the contacts that ended on this process (half per side with newton off):
  // [0] tangential work, [1] dissipation; saved in restart files by the history fix
  double ended[2];

  void allocate();
  void create_history_fix();
  template <class Store> void compute_contacts(Store store, bool advance, double *tally);
  const double *stored_state(int i, int slot) const;
  Law parse_law(int narg, char **arg, int first);
  Law mix_laws(const Law &a, const Law &b) const;
  // geometry of a touching pair (i, j): branch vector, distance, contact-point radii
  struct PairGeometry {
    ge::Vec3 dx;
    double r, ri, rj;
  };
  PairGeometry pair_geometry(int i, int j, const ge::Vec3 &dx, double rsq) const;
  ge::LinearStep contact_step(int i, int j, const PairGeometry &g, double dt) const;
  static void add_branch_force_product(double weight, const ge::LinearStep &s,
                                       const ge::LinearResult &r, const ge::Vec3 &dx,
                                       double *sum);
  void apply_contact(int i, int j, const ge::LinearResult &r, const ge::LinearStep &s,
                     const PairGeometry &g, int nlocal, int newton_pair);
};

}    // namespace LAMMPS_NS

#endif
