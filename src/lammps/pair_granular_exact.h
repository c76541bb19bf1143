/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: pair style granular/exact.
   Glue between LAMMPS (neighbour lists, per-contact history, forces, virial,
   output) and the contact laws of src/contact/.
------------------------------------------------------------------------- */

#ifndef GE_PAIR_GRANULAR_EXACT_H
#define GE_PAIR_GRANULAR_EXACT_H

#include "contact_history_client.h"
#include "coulomb_friction_tally.h"
#include "held_contacts.h"
#include "sphere_pair_services.h"
#include "pair.h"

#include <vector>

#include "contact/contact_law.hpp"

#include "recorded_atom_id.h"

#include <string>

namespace LAMMPS_NS {

class PairGranularExact : public Pair,
                          public ContactHistoryClient,
                          public CoulombFrictionTally,
                          public SpherePairServices {
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

  // one type pair's contact law, as given by pair_coeff (or mixed): the plain law struct the
  // kernels take (src/contact/contact_law.hpp), read and mixed by ContactLawWords
  using Law = ge::ContactLaw;
  // the law is `tangential coulomb` (its friction is solved by the friction fix)
  static bool is_coulomb(const Law &lw) { return ge::is_coulomb(lw); }
  // For the history stores (ContactHistoryClient): a neighbour build keeps only the contacts
  // that touch, so one that ended since the last force evaluation is dropped before the force
  // loop sees it end. The stores call work_before_build() in pre_exchange() and
  // work_after_build() at the end of post_neighbor(): the work the listed contacts hold before
  // and after, whose difference is that of the dropped ones, goes to the work of ended contacts.
  void work_before_build() override;
  void work_after_build() override;
  void ended_work(double work[2]) const override;
  const HistoryProvenance &history_laws() const override { return laws_of_history; }
  void contacts_matched() override;
  // the fix that solves the friction of `tangential coulomb` (created on first use)
  FixCoulombFrictionExact *friction_fix() override;
  // that fix while some law uses it (as of the last init), else nullptr: walls hand it their
  // `tangential coulomb` contacts
  FixCoulombFrictionExact *active_friction_fix() const override { return friction; }
  // the friction the fix solved for one of the contacts the force loop handed it: the pair's
  // contact stress (pvector[6..14]) includes it
  void tally_friction(int i, const ge::Vec3 &branch, const ge::Vec3 &force_on_i) override;

  // the mass of the body atom i belongs to: its rigid body's with fix rigid or rigid/small (a
  // clump moves as one, so its mass enters the effective masses), else its own
  double body_mass(int i) const override;
  const double *clump_masses() const override { return fix_rigid ? mass_rigid : nullptr; }
  int pack_forward_comm(int, int *, double *, int, int *) override;
  void unpack_forward_comm(int, int, double *) override;

  // fixed part of a record of the compact store: a Jaeger contact's frame quaternion (4),
  // tangential force (2) and sliding flag (1), or, with other laws in the same pair style, the
  // state of a linear or catalogue contact
  static constexpr int JAEGER_FIXED_SIZE = ge::JAEGER_FIXED_SIZE;
  static constexpr int MAX_FIXED_SIZE = ge::CONTACT_STATE_MAX;

  enum { NORMAL_HOOKE = ge::LAW_HOOKE, NORMAL_HERTZ = ge::LAW_HERTZ, NORMAL_HLS = ge::LAW_HLS,
         NORMAL_JKR = ge::LAW_JKR, NORMAL_DMT = ge::LAW_DMT };
  enum { DAMPING_NONE = ge::LAW_DAMPING_NONE, DAMPING_VISCOUS = ge::LAW_DAMPING_VISCOUS,
         DAMPING_CATALOGUE = ge::LAW_DAMPING_CATALOGUE };
  enum { TANGENTIAL_CLASSIC = ge::LAW_CLASSIC, TANGENTIAL_REFINED = ge::LAW_REFINED,
         TANGENTIAL_JAEGER = ge::LAW_JAEGER, TANGENTIAL_CATALOGUE = ge::LAW_CATALOGUE };

 protected:
  Law **law;                     // law[itype][jtype]
  double cutoff_global;          // from 'cutoff', or -1: radius based
  // per-contact history: LAMMPS' fixed-width neighbour history (a value block for every
  // neighbour slot) or the compact store (a record per touching contact, variable length)
  enum { HISTORY_NEIGH = 0, HISTORY_COMPACT = 1 };
  int history_mode;              // of the store (before it exists: of the restart file)
  bool history_given;            // 'history' was set in pair_style ...
  int history_requested;         // ... to this
  class FixNeighHistoryExact *fix_neigh;
  class FixContactHistoryExact *fix_compact;
  std::string id_history;        // ID of the history fix
  std::string id_friction;       // ID of the friction fix of `tangential coulomb`
  // that fix while some law uses it: the force loop gathers its contacts of sphere pairs
  class FixCoulombFrictionExact *friction;
  int neighprev;                 // search hint for single()
  double *onerad_dynamic, *maxrad_dynamic;

  // work of the contacts that ended on this process (half per side with newton off):
  // [0] tangential work, [1] dissipation; saved in restart files by the history fix
  double ended[2];

  // The contacts' work and dissipation feed no force: they are tracked while an output reads
  // them (compute pair, compute pair/local), or always with 'work yes' (track_work_for_run()).
  bool work_always = false;      // pair_style ... work yes
  bool work_tracked = true;      // this run's laws track it
  // the first and last step advanced without tracking it since it was last tracked (-1: none)
  bigint work_gap[2] = {-1, -1};
  void track_work_for_run();
  bool outputs_read_work() const;
  void note_untracked_step();

  void allocate();
  std::vector<int> restart_layout(int format) const;
  int restart_format = 0;          // of the restart file the laws were read from (0: none)
  int restart_store_width = -1;    // its history store's width (format 3), else -1
  // the values per contact the laws keep in a store of `mode` (as restart format `format`
  // kept them)
  int laws_store_width(int mode, int format = RESTART_FORMAT) const;
  int store_width() const;    // of the history store (the laws' before it exists)
  // the time-step checks have run (once per pair style, with atoms: check_time_steps())
  bool linear_time_step_checked = false, hertz_time_step_checked = false;
  void warn_doubtful_setup();
  void check_time_steps();
  virtual void owned_atom_extremes(double local[4]);
  template <class Store> void warn_large_overlaps(Store store);
  // the warning of warn_large_overlaps(), given this process's largest overlap / smaller radius
  // of the contacts without a history (collective)
  void say_largest_overlap(double largest) const;
  void warn_coarse_time_step(double lightest);
  void warn_coarse_hertz_time_step(double mass, double radius, double fastest);

  // The history store (pair_granular_exact_history.cpp): made at the first run's setup, where
  // it takes the contacts of a restart file, and made anew between runs where the laws need
  // the other kind of store or more values per contact, taking the contacts of the old one.
  void create_history_fix();
  int wanted_history_mode() const;
  class Fix *make_history_store(int mode, int width);
  virtual void remove_history_store();
  // the fix style of the neighbour store (a Kokkos variant may keep its own, which writes the
  // same restart data), and whether the store made is the kind this run wants
  virtual std::string history_store(int mode, int width) const;
  virtual bool store_is_wanted_kind() const { return true; }
  bool take_restart_contacts(HeldContacts &held);
  void adopt_contacts(const HeldContacts &held);
  // The laws the stored contacts were made with (from the last run's setup, or from the
  // restart file: the store's data, or the laws the pair style read), by type pair; at the
  // first neighbour build of a run the contacts whose law changed since are carried over to
  // their new law (src/contact/law_change.hpp), those of unknown law dropped, with one
  // warning that says what became of them.
  HistoryProvenance laws_of_history;
  bool law_change_pending = false;    // some type pair's law changed since (this run's setup)
  bool laws_recorded = false;         // laws_of_history holds this run's laws
  bool laws_from_file = false;        // ... or a restart file's, whose contacts it holds
  ge::ContactLaw law_in_use(int i, int j) const;    // law[i][j], or the mix init_one makes
  bool laws_changed() const;
  void record_laws_of_history();
  virtual void carry_contacts_to_their_laws(double *counts);
  // one contact (i, j) of the neighbour store, its `nvalues` values (seen from the atom with the
  // lower tag), carried to the law of its type pair; false: the contact ended (values zeroed)
  bool carry_contact_to_its_law(int i, int j, double *values, int nvalues, double *counts);
  double *law_change_count(int i, int j, double *counts, const Law *&from) const;
  ge::ContactBodies law_change_bodies(int i, int j) const;
  bool change_law(const Law *from, int i, int j, const ge::ContactBodies &b,
                  const double *old_state, double *new_state, ge::JaegerHistory &history,
                  double *count) const;
  void report_law_changes(const std::vector<double> &counts) const;
  void check_radii() const;
  void check_periodic_images() const;
  bigint contacts_held() const;    // stored contacts on all processes (collective)
  // Each atom's ID when the histories were last keyed by IDs (a fix property/atom created with
  // the history fix, so the values travel with the atoms): commands that renumber atoms between
  // runs would attach the histories to other partners (check_atom_ids()).
  std::string id_atom_ids;
  bool atom_ids_recorded = false;    // the fix existed before this setup (not made just now)
  bool atom_ids_made = false;        // this pair style made the fix
  virtual void create_atom_id_fix();
  void check_atom_ids();
  // where the recorded IDs are (nullptr: nowhere yet), and that check_atom_ids() rewrote them: a
  // Kokkos variant may keep them in its store in the execution space
  virtual double *recorded_ids() { return recorded_atom_ids(atom); }
  virtual void recorded_ids_changed() {}
  double listed_before[2];    // work_before_build(): [tangential work, dissipation]
  bool listed_before_valid = false;
  static void add_contact_work(const Law &lw, const double *history, double weight,
                               double sums[2]);
  template <class Store> void listed_work(Store store, double sums[2]) const;
  // JKR: a made contact whose surfaces are apart holds down to its break overlap
  template <class Store>
  bool held_apart(Store store, int i, int jj, int j, const Law &lw, double rsq,
                  double radsum) const;
  static double break_distance(const Law &lw, double r1, double r2);
  double largest_break_distance(double r1, double r2) const;
  void check_skin_holds(int i, int j, double reach) const;
  // the work the listed contacts hold (a Kokkos variant sums its slots in the execution space)
  virtual void listed_work(double sums[2]);
  bool coulomb_settings(ge::CoulombSolverSettings &settings) const;
  void check_coulomb_setup() const;
  void place_friction_fix();
  // FAMILY: ge::LawFamily of every law of the pair style, or -1 (mixed, or Jaeger laws);
  // MOMENTS: whether a law may have Yade moments (loop_kind() picks both)
  template <int FAMILY, bool MOMENTS, class Store>
  void compute_contacts(Store store, bool advance, double *tally);
  template <class Store> void compute_contacts_of_kind(Store store, bool advance, double *tally);
  void jaeger_contact(int i, int j, bigint &slot, const Law &lw, bool advance, double weight,
                      double *tally);
  double catalogue_mass(int i, int j) const;    // (pair_granular_exact_bodies.h)
  double own_body_mass(int i) const;
  // single() of contact (p, q), p the atom with the lower tag: svector with the tangential force
  // on p
  void single_linear(int p, int q, const Law &lw, const double *state, double rsq,
                     double &fforce);
  void single_catalogue(int p, int q, const Law &lw, const double *state, double rsq,
                        double &fforce);
  int freeze_group_bit;
  class Fix *fix_rigid;          // the rigid-body fix, if any (one at a time)
  double *mass_rigid;            // per owned and ghost atom: its body's mass, 0 if in none
  int nmax_rigid;
  void update_body_masses();
  const double *stored_state(int i, int slot) const;
  // single() of contact (i, j) with the state `stored` (nullptr: none)
  void single_from_state(int i, int j, int itype, int jtype, double rsq, const double *stored,
                         double &fforce);
  void single_jaeger(int p, int q, const Law &lw, const double *state, double rsq,
                     double &fforce);
  bool any_law(int tangential) const;
  bool any_linear_law() const;    // classic or refined: the laws that keep a contact's work
  // f(law) for every type pair i <= j that has a law: given by pair_coeff, or to be mixed from
  // its two types' laws (the setup checks look at the laws before init_one() has mixed them)
  template <class F> void for_each_law(F f) const;    // (pair_granular_exact.cpp)
  ge::ContactBodies bodies_of(int i, int j, const ge::Vec3 &dx, double rsq, const Law &lw,
                              bool advance) const;
  double inverse_inertia(int i) const;    // 1/I of atom i for the Yade dashpots (bodies.h)
  void apply_contact(int i, int j, const ge::ContactResult &r, bool i_is_p, const ge::Vec3 &dx);
  void tally_contact(const Law &lw, const ge::ContactResult &r, bool i_is_p, const double *state,
                     double weight, const ge::Vec3 &dx, double *tally) const;
  void coulomb_normal_contact(int i, int j, const ge::Vec3 &dx, double rsq, double *state,
                              const Law &lw, bool advance, double weight, double *tally);
  // (i_is_p: the state, and so its friction force, is seen from i)
  void hand_to_friction(int i, int j, const ge::Vec3 &normal, double distance, double *state,
                        const Law &lw, double F_cap, bool i_is_p);
  static void add_branch_force_product(double weight, const ge::Vec3 &l, const ge::Vec3 &force,
                                       double *sum);
  void add_pair_force(int i, int j, const ge::Vec3 &on_i, const ge::Vec3 &dx);
};

}    // namespace LAMMPS_NS

#endif
