/* ----------------------------------------------------------------------
   GRANULAR-EXACT: pair style granular/exact, reading and mixing the contact laws of pair_coeff
   (the class is in pair_granular_exact.h; compute, init and I/O in pair_granular_exact.cpp)
------------------------------------------------------------------------- */

#include "pair_granular_exact.h"

#include "atom.h"
#include "error.h"
#include "memory.h"

#include <cmath>
#include <cstring>
#include <string>

using namespace LAMMPS_NS;

namespace {
const char *const GRAMMAR =
    "pair_coeff I J hooke <kn> [damping none | damping viscous <eta_n> <eta_t>] "
    "tangential classic <kt> <mu> | tangential refined <kt> <mu> [onset yes|no] [slip yes|no] "
    "[direction yes|no] [twirl yes|no] [projection yes|no]; or pair_coeff I J hertz <E> <nu> "
    "[damping ...] tangential jaeger <mu> [approx <lambda>] [capacity <M>|exact]";
}    // namespace

/* ----------------------------------------------------------------------
   reading the model words of a pair_coeff line, with an error for every bad value
------------------------------------------------------------------------- */

class PairGranularExact::CoeffReader {
 public:
  CoeffReader(LAMMPS *lmp, int narg, char **arg, int first) :
      lmp(lmp), narg(narg), arg(arg), pos(first)
  {
  }
  bool done() const { return pos >= narg; }
  bool next_is(const char *word) const { return pos < narg && strcmp(arg[pos], word) == 0; }
  const char *peek() const { return pos < narg ? arg[pos] : ""; }
  // `count` more words must follow (the values of `what`)
  void need(int count, const char *what) const
  {
    if (pos + count > narg) fail("{} expects {} value(s); usage: {}", what, count, GRAMMAR);
  }
  const char *word()
  {
    if (done()) fail("missing argument at the end; usage: {}", GRAMMAR);
    return arg[pos++];
  }
  double positive(const char *name) { return number(name, [](double v) { return v > 0.0; }, "> 0"); }
  double non_negative(const char *name)
  {
    return number(name, [](double v) { return v >= 0.0; }, ">= 0");
  }
  template <class Check> double number(const char *name, Check ok, const char *rule)
  {
    const char *text = word();
    const double value = utils::numeric(FLERR, text, false, lmp);
    if (!ok(value)) fail("{} = {} must be {}", name, text, rule);
    return value;
  }
  int integer_at_least(const char *name, int low)
  {
    const char *text = word();
    const int value = utils::inumeric(FLERR, text, false, lmp);
    if (value < low) fail("{} = {} must be an integer >= {}", name, text, low);
    return value;
  }
  bool yes_no(const char *name)
  {
    const char *text = word();
    if (strcmp(text, "yes") == 0) return true;
    if (strcmp(text, "no") == 0) return false;
    fail("{} must be 'yes' or 'no', not '{}'", name, text);
    return false;
  }
  template <typename... Args> [[noreturn]] void fail(const std::string &format, Args &&...args) const
  {
    lmp->error->all(FLERR, "Incorrect pair_coeff for granular/exact: " +
                               fmt::format(format, std::forward<Args>(args)...));
    throw;    // not reached: error->all() does not return
  }

 private:
  LAMMPS *lmp;
  int narg;
  char **arg;
  int pos;
};

PairGranularExact::Law PairGranularExact::parse_law(int narg, char **arg, int first)
{
  Law lw;
  lw.normal = NORMAL_HOOKE;
  lw.damping = DAMPING_NONE;
  lw.tangential = TANGENTIAL_CLASSIC;
  lw.young = lw.poisson = 0.0;
  CoeffReader in(lmp, narg, arg, first);
  parse_normal(in, lw);
  parse_damping(in, lw);
  parse_tangential(in, lw);
  if (!in.done()) in.fail("unexpected argument '{}'; usage: {}", in.peek(), GRAMMAR);
  return lw;
}

void PairGranularExact::parse_normal(CoeffReader &in, Law &lw)
{
  if (in.done()) in.fail("missing normal model; usage: {}", GRAMMAR);
  const char *model = in.word();
  if (strcmp(model, "hooke") == 0) {
    lw.normal = NORMAL_HOOKE;
    in.need(1, "hooke");
    lw.linear.kn = in.positive("kn");
  } else if (strcmp(model, "hertz") == 0) {
    lw.normal = NORMAL_HERTZ;
    in.need(2, "hertz");
    lw.young = in.positive("E (Young's modulus)");
    lw.poisson = in.number(
        "nu (Poisson ratio)", [](double v) { return v > -1.0 && v < 0.5; }, "in (-1, 0.5)");
  } else {
    in.fail("unknown normal model '{}' (expected 'hooke' or 'hertz'); usage: {}", model, GRAMMAR);
  }
}

void PairGranularExact::parse_damping(CoeffReader &in, Law &lw)
{
  if (!in.next_is("damping")) return;
  in.word();
  in.need(1, "damping");
  const char *model = in.word();
  if (strcmp(model, "none") == 0) {
    lw.damping = DAMPING_NONE;
  } else if (strcmp(model, "viscous") == 0) {
    lw.damping = DAMPING_VISCOUS;
    in.need(2, "damping viscous");
    lw.linear.eta_n = in.non_negative("eta_n");
    lw.linear.eta_t = in.non_negative("eta_t");
  } else {
    in.fail("unknown damping model '{}' (expected 'none' or 'viscous')", model);
  }
}

void PairGranularExact::parse_tangential(CoeffReader &in, Law &lw)
{
  if (!in.next_is("tangential"))
    in.fail("expected 'tangential' {}; usage: {}",
            in.done() ? std::string("at the end") : fmt::format("but found '{}'", in.peek()),
            GRAMMAR);
  in.word();
  if (in.done()) in.fail("tangential expects a model and its values; usage: {}", GRAMMAR);
  const std::string model = in.word();
  ge::LinearParams &p = lw.linear;

  if (model == "jaeger") {
    // exact Cattaneo-Mindlin-Deresiewicz (Jaeger) needs the Hertz contact it is built on
    if (lw.normal != NORMAL_HERTZ)
      in.fail("'tangential jaeger' needs the normal model 'hertz <E> <nu>' (the Jaeger solution "
              "is built on the Hertz contact of elastically identical spheres)");
    lw.tangential = TANGENTIAL_JAEGER;
    in.need(1, "tangential jaeger");
    const double mu = in.non_negative("mu");
    double lambda = 0.0;
    int capacity = 0;
    while (!in.done()) {
      const std::string key = in.word();
      if (key == "approx") {
        in.need(1, "approx");
        lambda = in.number("approx lambda", [](double v) { return v >= 0.0 && v <= 2.0; },
                           "in [0, 2] (merge elastic segments whose slopes differ by lambda*mu)");
      } else if (key == "capacity") {
        in.need(1, "capacity");
        if (in.next_is("exact")) {
          in.word();
          capacity = 0;
        } else {
          capacity = in.integer_at_least("capacity M", 2);
        }
      } else {
        in.fail("unexpected argument '{}' of 'tangential jaeger' (expected 'approx <lambda>' or "
                "'capacity <M>|exact')",
                key);
      }
    }
    lw.jaeger = ge::jaeger_material(lw.young, lw.poisson, mu, lambda, capacity);
    return;
  }

  if (lw.normal == NORMAL_HERTZ)
    in.fail("the normal model 'hertz' is available with 'tangential jaeger' only (found "
            "'tangential {}')",
            model);
  if (model == "classic") lw.tangential = TANGENTIAL_CLASSIC;
  else if (model == "refined") lw.tangential = TANGENTIAL_REFINED;
  else in.fail("unknown tangential model '{}' (expected 'classic', 'refined' or 'jaeger')", model);
  in.need(2, ("tangential " + model).c_str());
  p.kt = in.positive("kt");
  p.mu = in.non_negative("mu");

  const bool refined = lw.tangential == TANGENTIAL_REFINED;
  p.onset = p.slip = p.direction = p.twirl = refined;
  p.projection = true;
  while (!in.done()) {
    const std::string key = in.peek();
    const bool is_switch = key == "onset" || key == "slip" || key == "direction" ||
        key == "twirl" || key == "projection";
    if (!is_switch) in.fail("unexpected argument '{}'; usage: {}", key, GRAMMAR);
    if (!refined)
      in.fail("'{}' is an option of 'tangential refined'; 'tangential classic' takes only <kt> "
              "<mu>",
              key);
    in.word();
    if (in.done()) in.fail("{} expects 1 value ('yes' or 'no')", key);
    const bool value = in.yes_no(key.c_str());
    if (key == "onset") p.onset = value;
    else if (key == "slip") p.slip = value;
    else if (key == "direction") p.direction = value;
    else if (key == "twirl") p.twirl = value;
    else p.projection = value;
  }
  if (!p.projection && p.twirl)
    in.fail("'projection no' needs 'twirl no' (the exact frame rotation of 'twirl yes' includes "
            "the projection)");
}

bool PairGranularExact::any_law(int tangential) const
{
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++)
      if (setflag[i][j] && law[i][j].tangential == tangential) return true;
  return false;
}

/* ---------------------------------------------------------------------- */

void PairGranularExact::coeff(int narg, char **arg)
{
  if (narg < 2)
    error->all(FLERR, "Incorrect pair_coeff for granular/exact: usage: {}", GRAMMAR);
  if (!allocated) allocate();

  int ilo, ihi, jlo, jhi;
  utils::bounds(FLERR, arg[0], 1, atom->ntypes, ilo, ihi, error);
  utils::bounds(FLERR, arg[1], 1, atom->ntypes, jlo, jhi, error);

  const Law lw = parse_law(narg, arg, 2);

  int count = 0;
  for (int i = ilo; i <= ihi; i++) {
    for (int j = MAX(jlo, i); j <= jhi; j++) {
      law[i][j] = law[j][i] = lw;
      setflag[i][j] = 1;
      count++;
    }
  }
  if (count == 0) error->all(FLERR, "Incorrect pair_coeff for granular/exact: no type pair in {} {}",
                             arg[0], arg[1]);
}

/* ----------------------------------------------------------------------
   mixing for I != J when only I I and J J were given: same models and switches
   required; stiffnesses, damping coefficients and friction coefficient are
   geometric means (as LAMMPS' pair granular does for hooke).
------------------------------------------------------------------------- */

PairGranularExact::Law PairGranularExact::mix_laws(const Law &a, const Law &b) const
{
  const ge::LinearParams &pa = a.linear, &pb = b.linear;
  const bool same_models = a.normal == b.normal && a.damping == b.damping &&
      a.tangential == b.tangential && pa.onset == pb.onset && pa.slip == pb.slip &&
      pa.direction == pb.direction && pa.twirl == pb.twirl && pa.projection == pb.projection;
  if (!same_models)
    error->all(FLERR,
               "Pair granular/exact cannot mix coefficients of types with different models or "
               "switches; give this type pair its own pair_coeff");
  Law m = a;
  m.linear.eta_n = std::sqrt(pa.eta_n * pb.eta_n);
  m.linear.eta_t = std::sqrt(pa.eta_t * pb.eta_t);
  if (a.tangential == TANGENTIAL_JAEGER) {
    // the Jaeger (Cattaneo-Mindlin) solution holds for elastically identical spheres only
    if (a.young != b.young || a.poisson != b.poisson)
      error->all(FLERR,
                 "Pair granular/exact: 'tangential jaeger' needs elastically identical spheres, "
                 "but the two types have E = {} and {}, nu = {} and {}; give the type pair its own "
                 "pair_coeff if one material is meant",
                 a.young, b.young, a.poisson, b.poisson);
    if (a.jaeger.lambda != b.jaeger.lambda || a.jaeger.capacity != b.jaeger.capacity)
      error->all(FLERR,
                 "Pair granular/exact cannot mix 'tangential jaeger' with different approx or "
                 "capacity settings; give this type pair its own pair_coeff");
    m.jaeger.mu = std::sqrt(a.jaeger.mu * b.jaeger.mu);
    return m;
  }
  m.linear.kn = std::sqrt(pa.kn * pb.kn);
  m.linear.kt = std::sqrt(pa.kt * pb.kt);
  m.linear.mu = std::sqrt(pa.mu * pb.mu);
  return m;
}
