/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: the contact laws field by field, for restart files.

   A restart file holds each law as a list of numbers, one per field of
   ge::ContactLaw, in the order visit_law_fields() names them, after a header
   with the format version and the layout of the per-contact histories
   (pair_granular_exact.cpp). A law struct that gains, loses or reorders a
   member no longer matches the sizes checked below: the build stops until the
   list here and the format version are brought up to date, instead of files
   being read with their members shifted.
------------------------------------------------------------------------- */

#ifndef GE_CONTACT_LAW_IO_H
#define GE_CONTACT_LAW_IO_H

#include "contact/contact_law.hpp"

#include <type_traits>

namespace LAMMPS_NS {

// The format of the restart files this build writes; it reads formats 2 to 6 too (see
// pair_granular_exact.cpp, read_restart_settings()). Format 6 adds no law field: its settings
// carry 'work yes' and the steps whose work was not tracked. Format 7 adds none either: a
// `tangential coulomb` contact keeps 3 more values (the last change of its friction force,
// COULOMB_STATE_SIZE; older files are read with it zero), and its `warm` field may be 2
// (extrapolate; 0 and 1 were no and yes).
constexpr int RESTART_FORMAT = 7;

// Every field of a law, in file order: f(member) for each (int, double, bool or enum), as the
// restart format `format` has them (format 3 added the dashpots of the Yade moments, at the end;
// a format 2 file leaves them at 0, which was the only behaviour then; format 4 added the surface
// energy of jkr and dmt, which no earlier file can hold; format 5 the solver of `tangential
// coulomb`, Gauss-Seidel in every earlier file).
template <class Law, class F> void visit_law_fields(Law &lw, F &&f, int format = RESTART_FORMAT)
{
  f(lw.normal);
  f(lw.damping);
  f(lw.tangential);
  auto &lin = lw.linear;
  f(lin.kn), f(lin.kt), f(lin.mu), f(lin.eta_n), f(lin.eta_t);
  f(lin.onset), f(lin.slip), f(lin.direction), f(lin.twirl), f(lin.projection);
  auto &jg = lw.jaeger;
  f(jg.E_hat), f(jg.kappa), f(jg.mu), f(jg.lambda), f(jg.capacity);
  auto &hz = lw.hertz;
  f(hz.E_i), f(hz.nu_i), f(hz.E_j), f(hz.nu_j);
  auto &cat = lw.cat;
  f(cat.normal.model), f(cat.normal.hooke.kn), f(cat.normal.Ebar);
  f(cat.normal.hls.kL), f(cat.normal.hls.kU0), f(cat.normal.hls.S);
  f(cat.damping.model), f(cat.damping.eta), f(cat.damping.alpha), f(cat.damping.A);
  f(cat.damping.e_n), f(cat.damping.tsuji_from_e);
  f(cat.tangential.model), f(cat.tangential.mu), f(cat.tangential.kt), f(cat.tangential.eta_t);
  f(cat.tangential.e_t), f(cat.tangential.use_et), f(cat.tangential.maw);
  f(cat.gbar), f(cat.nubar), f(cat.tti_eta_from_tsuji), f(cat.limit_damping);
  for (auto *spring : {&cat.yade.rolling, &cat.yade.twisting}) {
    f(spring->active), f(spring->use_beta), f(spring->k), f(spring->capped), f(spring->eta);
  }
  f(cat.yade.combined);
  f(lw.coulomb.sweeps), f(lw.coulomb.tol), f(lw.coulomb.warm), f(lw.coulomb.kinematics);
  if (format >= 3) f(cat.yade.rolling.gamma), f(cat.yade.twisting.gamma);
  if (format >= 4) f(cat.normal.gamma);
  if (format >= 5) f(lw.coulomb.solver);
}

// The number of fields visit_law_fields() names (written to the file, checked on reading).
inline int law_field_count(int format = RESTART_FORMAT)
{
  ge::ContactLaw lw;
  int n = 0;
  visit_law_fields(lw, [&n](auto &) { ++n; }, format);
  return n;
}

// A field as the number the file holds, and back.
template <class T> double field_value(const T &x)
{
  if constexpr (std::is_enum_v<T>) return static_cast<double>(static_cast<int>(x));
  else return static_cast<double>(x);
}
template <class T> void set_field(T &x, double value)
{
  if constexpr (std::is_enum_v<T>) x = static_cast<T>(static_cast<int>(value));
  else if constexpr (std::is_same_v<T, bool>) x = value != 0.0;
  else x = static_cast<T>(value);
}

// The structs as visit_law_fields() knows them (x86-64 and AArch64 layouts): a member added to
// one of them stops the build here until it is listed above and RESTART_FORMAT is raised.
// (LinearParams::work is set for each run, not kept: it fits in the padding of the switches)
static_assert(sizeof(ge::LinearParams) == 48, "ge::LinearParams changed: update visit_law_fields");
static_assert(sizeof(ge::JaegerMaterial) == 40,
              "ge::JaegerMaterial changed: update visit_law_fields");
static_assert(sizeof(ge::HertzParams) == 32, "ge::HertzParams changed: update visit_law_fields");
static_assert(sizeof(ge::NormalParams) == 56, "ge::NormalParams changed: update visit_law_fields");
static_assert(sizeof(ge::DampingParams) == 48,
              "ge::DampingParams changed: update visit_law_fields");
static_assert(sizeof(ge::TangentialParams) == 48,
              "ge::TangentialParams changed: update visit_law_fields");
static_assert(sizeof(ge::YadeMomentParams) == 88,
              "ge::YadeMomentParams changed: update visit_law_fields");
static_assert(sizeof(ge::CatalogueLaw) == 264, "ge::CatalogueLaw changed: update visit_law_fields");
static_assert(sizeof(ge::CoulombSolverSettings) == 24,
              "ge::CoulombSolverSettings changed: update visit_law_fields");
static_assert(sizeof(ge::ContactLaw) == 424, "ge::ContactLaw changed: update visit_law_fields");

}    // namespace LAMMPS_NS

#endif
