/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: the words of a contact law. Reads and checks the law words of pair_coeff
   for pair granular/exact (also the law words of fix wall/gran/exact), mixes the laws of two
   types, and names the per-contact state a law keeps. Needs no pair style: only LAMMPS for
   its errors, warnings and number parsing.
------------------------------------------------------------------------- */

#ifndef GE_CONTACT_LAW_WORDS_H
#define GE_CONTACT_LAW_WORDS_H

#include "pointers.h"

#include "contact/contact_law.hpp"

#include <string>

namespace LAMMPS_NS {

class ContactLawWords : protected Pointers {
 public:
  explicit ContactLawWords(class LAMMPS *lmp) : Pointers(lmp) {}

  // the usage of pair_coeff, quoted by the errors about its words
  static const char *const GRAMMAR;
  // the largest `capacity M` of the Jaeger law: a record of the compact store holds at most
  // 2^26 - 1 vertices (FixContactHistoryExact::MAX_ROOM), and a step needs room for M + 1
  static constexpr int JAEGER_CAPACITY_MAX = (1 << 26) - 2;

  // the contact law of words arg[first, narg) (pair_coeff grammar); `context` names the command
  // in error messages ("Incorrect <context>: ...")
  ge::ContactLaw parse(int narg, char **arg, int first, const char *context);
  // the law of a type pair I J without its own pair_coeff, from those of I I and J J (an error
  // where the two cannot be mixed)
  ge::ContactLaw mix(const ge::ContactLaw &a, const ge::ContactLaw &b) const;
  // the law's words in short, for messages: "hertz tangential jaeger rolling yade"
  static std::string describe(const ge::ContactLaw &lw);

 private:
  class CoeffReader;
  void parse_law_options(CoeffReader &in, ge::ContactLaw &lw);
  static void reject_leftover(const CoeffReader &in);
  void parse_normal(CoeffReader &in, ge::ContactLaw &lw);
  void parse_hertzian(CoeffReader &in, ge::ContactLaw &lw, const char *model);
  void check_adhesive_law(CoeffReader &in, const ge::ContactLaw &lw);
  void check_spring_damping(CoeffReader &in, const ge::ContactLaw &lw);
  void parse_damping(CoeffReader &in, ge::ContactLaw &lw);
  void parse_tangential(CoeffReader &in, ge::ContactLaw &lw);
  void parse_jaeger(CoeffReader &in, ge::ContactLaw &lw);
  void parse_linear_tangential(CoeffReader &in, ge::ContactLaw &lw, const std::string &model);
  void parse_catalogue_tangential(CoeffReader &in, ge::ContactLaw &lw, const std::string &model);
  void check_catalogue_law(CoeffReader &in, ge::ContactLaw &lw);
  void parse_yade_spring(CoeffReader &in, ge::ContactLaw &lw, bool rolling);
  void parse_coulomb_options(CoeffReader &in, ge::ContactLaw &lw);
  void warn_unusual_friction(const CoeffReader &in, const ge::ContactLaw &lw);
  ge::ContactLaw mix_catalogue(const ge::ContactLaw &a, const ge::ContactLaw &b) const;
};

}    // namespace LAMMPS_NS

#endif
