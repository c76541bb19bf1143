/* ----------------------------------------------------------------------
   GRANULAR-EXACT: the words of a contact law (see the header): reading and checking the law
   words of pair_coeff and fix wall/gran/exact, mixing two types' laws, the state kind of a law
------------------------------------------------------------------------- */

#include "contact_law_words.h"

#include "comm.h"
#include "error.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

using namespace LAMMPS_NS;
using ge::ContactLaw;

const char *const ContactLawWords::GRAMMAR =
    "pair_coeff I J <normal> <args> [damping <model> <args>] tangential <model> <args> "
    "[limit_damping]; normal: hooke <kn> | hertz <E> <nu> [<E_J> <nu_J>] | jkr|dmt <E> <nu> "
    "[<E_J> <nu_J>] <gamma> | hls <kL> <e_n> | "
    "hls <kL> kU <kU> | hls <kL> variable <S>; damping: none | viscous <eta_n> [<eta_t>] | "
    "mass_velocity <gamma_n> | restitution <e_n> | bshp <A> | kk <eta_n> | tsuji en <e_n> [exact] | "
    "tsuji eta <eta_n>; "
    "tangential: classic <kt> <mu> | refined <kt> <mu> [onset|slip|direction|twirl|projection "
    "yes|no] | jaeger <mu> [approx <lambda>] [capacity <M>|exact] | sliding <mu> | viscous "
    "<eta_t> | viscous_sliding <eta_t> <mu> | spring_sliding <kt> <mu> | spring_dashpot <kt> "
    "<eta_t>|et <e_t> <mu> [maw] | dd <mu> [<eta_t>] | lth <mu> <eta_t> | zzy <mu> <eta> | tti "
    "<mu> [eta <eta_t>] | walton_braun <kt0> <mu> | coulomb <mu> [solver gs|apgd|newton] [sweeps <K>] "
    "[tol <t>] [warm "
    "extrapolate|yes|no] [kinematics geometric|none|material]; then (any law) [rolling yade kr <K_b> | "
    "beta <beta> eta <eta_b> | cap none [damp <gamma_b>] [combined]] [twisting yade kr <K_tw> | "
    "beta <beta> eta <eta_tw> | cap none [damp <gamma_tw>]]";

/* ----------------------------------------------------------------------
   reading the model words of a pair_coeff line (or of the wall fix), with an error for every
   bad value
------------------------------------------------------------------------- */

class ContactLawWords::CoeffReader {
 public:
  CoeffReader(LAMMPS *lmp, int narg, char **arg, int first, const char *context) :
      lmp(lmp), narg(narg), arg(arg), pos(first), context(context)
  {
  }
  bool done() const { return pos >= narg; }
  const char *what() const { return context; }
  bool next_is(const char *word) const { return pos < narg && strcmp(arg[pos], word) == 0; }
  const char *peek() const { return pos < narg ? arg[pos] : ""; }
  // the next word starts an option of the whole law (parse_law_options() reads and checks it)
  bool at_law_option() const
  {
    return next_is("limit_damping") || next_is("rolling") || next_is("twisting");
  }
  // the next word reads as a number (an optional value rather than a keyword)
  bool next_is_number() const { return is_number_at(pos); }
  // how many words from the next one on read as numbers
  int numbers_ahead() const
  {
    int n = 0;
    while (is_number_at(pos + n)) n++;
    return n;
  }
  // a kernel validator's message (nullptr: valid) becomes an error
  void check(const char *message) const
  {
    if (message) fail("{}", message);
  }
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
  double positive(const char *name)
  {
    return in_range(name, number(name, [](double v) { return v > 0.0; }, "> 0"));
  }
  double non_negative(const char *name)
  {
    return in_range(name, number(name, [](double v) { return v >= 0.0; }, ">= 0"));
  }
  // The laws compare squared forces (a force against its friction cone) in double precision:
  // with every stiffness, modulus, friction coefficient and dashpot within 1e-100 to 1e100
  // the squares of the forces of any geometry stay representable (a refined contact with
  // mu = 1e-200 gave NaN at its onset, a stiffness of 1e308 NaN in the thermo output). A
  // physical value in any system of units lies far inside it.
  double in_range(const char *name, double value) const
  {
    constexpr double kSmallest = 1e-100, kLargest = 1e100;
    if (value != 0.0 && !(value >= kSmallest && value <= kLargest))
      fail("{} = {:g} is outside the magnitudes the laws keep exact, {:g} to {:g} (or 0 where 0 "
           "is allowed): they compare squared forces in double precision; a physical value in "
           "any system of units lies far inside it",
           name, value, kSmallest, kLargest);
    return value;
  }
  // (a word that is not a number names the value expected there: a missing value shows up as
  // the next keyword read in its place)
  template <class Check> double number(const char *name, Check ok, const char *rule)
  {
    const char *text = word();
    if (!utils::is_double(text)) fail("{} must be a number {}, not '{}'", name, rule, text);
    const double value = utils::numeric(FLERR, text, false, lmp);
    if (!ok(value)) fail("{} = {} must be {}", name, text, rule);
    return value;
  }
  int integer_at_least(const char *name, int low)
  {
    const char *text = word();
    if (!utils::is_integer(text)) fail("{} must be an integer >= {}, not '{}'", name, low, text);
    const int value = utils::inumeric(FLERR, text, false, lmp);
    if (value < low) fail("{} = {} must be an integer >= {}", name, text, low);
    return value;
  }
  // an option of a keyword list given a second time (the last one would silently win)
  void first_time(const std::string &key, std::vector<std::string> &seen) const
  {
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) fail("'{}' is given twice", key);
    seen.push_back(key);
  }
  bool yes_no(const char *name)
  {
    const char *text = word();
    if (strcmp(text, "yes") == 0) return true;
    if (strcmp(text, "no") == 0) return false;
    fail("{} must be 'yes' or 'no', not '{}'", name, text);
    return false;
  }
  bool is_number_at(int k) const
  {
    if (k >= narg) return false;
    char *end = nullptr;
    std::strtod(arg[k], &end);
    return end != arg[k] && *end == '\0';
  }
  template <typename... Args>
  [[noreturn]] void fail(const std::string &format, Args &&...args) const
  {
    lmp->error->all(FLERR, std::string("Incorrect ") + context + ": " +
                               fmt::format(format, std::forward<Args>(args)...));
    throw;    // not reached: error->all() does not return
  }

 private:
  LAMMPS *lmp;
  int narg;
  const char *context;    // what is being read, for the messages
  char **arg;
  int pos;
};

ContactLaw ContactLawWords::parse(int narg, char **arg, int first, const char *context)
{
  ContactLaw lw{};    // (zeroed: a law leaves the members of the others as zeros, not as garbage)
  lw.normal = ge::LAW_HOOKE;
  lw.damping = ge::LAW_DAMPING_NONE;
  lw.tangential = ge::LAW_CLASSIC;
  lw.hertz = ge::HertzParams();
  CoeffReader in(lmp, narg, arg, first, context);
  parse_normal(in, lw);
  parse_damping(in, lw);
  parse_tangential(in, lw);
  parse_law_options(in, lw);
  reject_leftover(in);
  if (lw.tangential == ge::LAW_CATALOGUE) check_catalogue_law(in, lw);
  else if (lw.damping == ge::LAW_DAMPING_CATALOGUE) check_spring_damping(in, lw);
  warn_unusual_friction(in, lw);
  return lw;
}

// The linear laws and the Jaeger contact take the catalogue's dashpots defined on their normal
// spring: the linear spring (hooke) the LSD of a restitution coefficient, the Hertz spring of
// the Jaeger contact bshp, kk and tsuji (LAMMPS' hertz/material with mindlin and a restitution
// damping ports to tsuji). A dashpot defined on the other spring is an error that names the one
// that gives the same physics.
void ContactLawWords::check_spring_damping(CoeffReader &in, const ContactLaw &lw)
{
  in.check(ge::validate(lw.cat.damping));
  const bool jaeger = lw.tangential == ge::LAW_JAEGER;
  const ge::NormalModel spring = jaeger ? ge::NORMAL_HERTZ : ge::NORMAL_HOOKE;
  if (const char *message = ge::validate_combination(spring, lw.cat.damping.model))
    in.fail("{} ('tangential {}' is built on the {} contact: it takes damping none, viscous{}; "
            "for a restitution coefficient independent of the impact speed give '{}')",
            message, jaeger ? "jaeger" : lw.tangential == ge::LAW_REFINED ? "refined" : "classic",
            jaeger ? "Hertz" : "linear (hooke)",
            jaeger ? ", mass_velocity, bshp, kk or tsuji" : ", mass_velocity or restitution",
            jaeger ? "damping tsuji en <e>" : "damping restitution <e>");
}

// A friction coefficient above 2 is legal but rarely meant: a swapped 'classic <kt> <mu>'
// (classic 0.5 4000) reads mu = 4000 and ran silently
void ContactLawWords::warn_unusual_friction(const CoeffReader &in, const ContactLaw &lw)
{
  const bool viscous_only = lw.tangential == ge::LAW_CATALOGUE &&
      lw.cat.tangential.model == ge::TangentialModel::Viscous;
  const double mu = lw.tangential == ge::LAW_JAEGER     ? lw.jaeger.mu
      : lw.tangential == ge::LAW_CATALOGUE              ? lw.cat.tangential.mu
                                                        : lw.linear.mu;
  if (viscous_only || !(mu > 2.0) || comm->me != 0) return;
  error->warning(FLERR,
                 "{}: mu = {} is unusually large for a friction coefficient (usually 0.1 to 1): "
                 "check the order of the values after the tangential model (e.g. 'classic <kt> "
                 "<mu>', 'spring_sliding <kt> <mu>')",
                 in.what(), mu);
}

// the options of the whole law, after its tangential model (all go with the catalogue laws)
void ContactLawWords::parse_law_options(CoeffReader &in, ContactLaw &lw)
{
  while (in.next_is("rolling") || in.next_is("twisting")) {
    const bool rolling = in.next_is("rolling");
    in.word();
    parse_yade_spring(in, lw, rolling);
  }
  if (in.next_is("limit_damping")) {
    in.word();
    const bool catalogue_dashpot = lw.damping == ge::LAW_DAMPING_CATALOGUE;
    if (lw.tangential != ge::LAW_CATALOGUE && !catalogue_dashpot)
      in.fail("'limit_damping' is an option of the catalogue laws and dashpots; the {} law with "
              "damping none or viscous never lets the normal force attract",
              lw.tangential == ge::LAW_JAEGER ? "jaeger" : "linear");
    lw.cat.limit_damping = true;
  }
}

// words left after the law are an error; a known word out of its place is told where it goes
void ContactLawWords::reject_leftover(const CoeffReader &in)
{
  if (in.done()) return;
  const std::string word = in.peek();
  for (const char *option : {"onset", "slip", "direction", "twirl", "projection", "approx",
                             "capacity", "solver", "sweeps", "tol", "warm", "kinematics", "damping",
                             "rolling", "twisting", "limit_damping"})
    if (word == option)
      in.fail("'{}' is out of place: the words go in the order <normal model> [damping ...] "
              "tangential <model> <args> [its options] [rolling ...] [twisting ...] "
              "[limit_damping]",
              word);
  in.fail("unexpected argument '{}'; usage: {}", word, GRAMMAR);
}

void ContactLawWords::parse_normal(CoeffReader &in, ContactLaw &lw)
{
  if (in.done()) in.fail("missing normal model; usage: {}", GRAMMAR);
  const char *model = in.word();
  ge::NormalParams &cat = lw.cat.normal;
  if (strcmp(model, "hooke") == 0) {
    lw.normal = ge::LAW_HOOKE;
    in.need(1, "hooke");
    lw.linear.kn = in.positive("kn");
    cat.model = ge::NORMAL_HOOKE;
    cat.hooke.kn = lw.linear.kn;
  } else if (strcmp(model, "hertz") == 0 || strcmp(model, "jkr") == 0 ||
             strcmp(model, "dmt") == 0) {
    parse_hertzian(in, lw, model);
  } else if (strcmp(model, "hls") == 0) {
    lw.normal = ge::LAW_HLS;
    cat.model = ge::NORMAL_HLS;
    in.need(2, "hls");
    const double kL = in.positive("kL (loading stiffness)");
    if (in.next_is("kU")) {
      in.word();
      in.need(1, "hls kU");
      const double kU = in.positive("kU (unloading stiffness)");
      in.check(ge::validate_hls_constant(kL, kU));
      cat.hls = ge::hls_constant(kL, kU);
    } else if (in.next_is("variable")) {
      in.word();
      in.need(1, "hls variable");
      const double S = in.non_negative("S");
      in.check(ge::validate_hls_variable(kL, S));
      cat.hls = ge::hls_variable(kL, S);
    } else {
      if (!in.next_is_number())
        in.fail("hls expects <e_n>, 'kU <kU>' or 'variable <S>' after kL, not '{}'", in.peek());
      const double e_n =
          in.number("e_n", [](double v) { return v > 0.0 && v <= 1.0; }, "in (0, 1]");
      in.check(ge::validate_hls_restitution(kL, e_n));
      cat.hls = ge::hls_from_restitution(kL, e_n);
    }
  } else {
    in.fail("unknown normal model '{}' (expected 'hooke', 'hertz', 'jkr', 'dmt' or 'hls'); "
            "usage: {}",
            model, GRAMMAR);
  }
}

// `hertz <E> <nu> [<E_J> <nu_J>]` and the adhesive `jkr|dmt <E> <nu> [<E_J> <nu_J>] <gamma>`
// (adhesion.hpp; gamma the surface energy of one surface, as in LAMMPS' pair granular)
void ContactLawWords::parse_hertzian(CoeffReader &in, ContactLaw &lw, const char *model)
{
  ge::NormalParams &cat = lw.cat.normal;
  const bool adhesive = strcmp(model, "hertz") != 0;
  lw.normal = !adhesive ? ge::LAW_HERTZ : model[0] == 'j' ? ge::LAW_JKR : ge::LAW_DMT;
  cat.model = !adhesive ? ge::NORMAL_HERTZ : model[0] == 'j' ? ge::NORMAL_JKR : ge::NORMAL_DMT;
  const int values = adhesive ? 3 : 2;
  in.need(values, model);
  // (more numbers than that: the two-material form, two more; any other count is a mistake
  // whose message would otherwise name the next keyword as a missing value)
  const int given = in.numbers_ahead();
  if (given > values && given != values + 2)
    in.fail("{} takes {} numbers, or {} with two materials ({}), not {}", model, values,
            values + 2,
            adhesive ? "<E> <nu> [<E_J> <nu_J>] <gamma>" : "<E> <nu> [<E_J> <nu_J>]", given);
  const bool two_materials = given > values;
  const double E = in.positive("E (Young's modulus)");
  const double nu = in.number(
      "nu (Poisson ratio)", [](double v) { return v > -1.0 && v <= 0.5; }, "in (-1, 0.5]");
  lw.hertz = ge::hertz_params(E, nu);
  if (two_materials) {    // E and nu of type J
    in.need(values, fmt::format("{} with two materials", model).c_str());
    const double E_j = in.positive("E_J (Young's modulus of type J)");
    const double nu_j = in.number(
        "nu_J (Poisson ratio of type J)", [](double v) { return v > -1.0 && v <= 0.5; },
        "in (-1, 0.5]");
    lw.hertz = ge::hertz_params(E, nu, E_j, nu_j);
  }
  if (adhesive) cat.gamma = in.non_negative("gamma (surface energy)");
  cat.Ebar = ge::hertz_effective_modulus(lw.hertz);
  lw.cat.gbar = ge::hertz_effective_shear_modulus(lw.hertz);
  lw.cat.nubar = 0.5 * (lw.hertz.nu_i + lw.hertz.nu_j);
  if (const char *warning = ge::hertz_warning(lw.hertz))
    if (comm->me == 0) error->warning(FLERR, "{}: {}", in.what(), warning);
}

// (each value is range-checked as it is read; check_catalogue_law validates the whole model)
void ContactLawWords::parse_damping(CoeffReader &in, ContactLaw &lw)
{
  if (!in.next_is("damping")) return;
  in.word();
  in.need(1, "damping");
  const std::string model = in.word();
  ge::DampingParams &cat = lw.cat.damping;
  if (model == "none") {
    lw.damping = ge::LAW_DAMPING_NONE;
  } else if (model == "viscous") {
    // eta_n, and eta_t for the linear and Jaeger laws (the catalogue laws take their tangential
    // dashpot from the tangential model)
    lw.damping = ge::LAW_DAMPING_VISCOUS;
    in.need(1, "damping viscous");
    lw.linear.eta_n = in.non_negative("eta_n");
    lw.linear.eta_t = in.next_is_number() ? in.non_negative("eta_t") : -1.0;
    cat = ge::damping_viscous(lw.linear.eta_n);
  } else if (model == "mass_velocity") {
    lw.damping = ge::LAW_DAMPING_CATALOGUE;
    in.need(1, "damping mass_velocity");
    cat = ge::damping_mass_velocity(in.non_negative("gamma_n (per unit of effective mass)"));
  } else if (model == "restitution") {
    lw.damping = ge::LAW_DAMPING_CATALOGUE;
    in.need(1, "damping restitution");
    const double e = in.number("e_n", [](double v) { return v > 0.0 && v <= 1.0; }, "in (0, 1]");
    cat = ge::damping_restitution(e);
  } else if (model == "bshp") {
    lw.damping = ge::LAW_DAMPING_CATALOGUE;
    in.need(1, "damping bshp");
    const double A = in.non_negative("A");
    cat = ge::damping_bshp(A);
  } else if (model == "kk") {
    lw.damping = ge::LAW_DAMPING_CATALOGUE;
    in.need(1, "damping kk");
    const double eta = in.non_negative("eta_n");
    cat = ge::damping_kk(eta);
  } else if (model == "tsuji") {
    lw.damping = ge::LAW_DAMPING_CATALOGUE;
    in.need(2, "damping tsuji");
    const std::string form = in.word();
    if (form == "en") {
      const double e = in.number("e_n", [](double v) { return v > 0.0 && v <= 1.0; }, "in (0, 1]");
      bool exact = false;
      if (in.next_is("exact")) {
        in.word();
        exact = true;
      }
      cat = ge::damping_tsuji_en(e, exact);
    } else if (form == "eta") {
      const double eta = in.non_negative("eta_n");
      cat = ge::damping_tsuji_eta(eta);
    } else {
      in.fail("damping tsuji expects 'en <e_n> [exact]' or 'eta <eta_n>', not '{}'", form);
    }
  } else {
    in.fail("unknown damping model '{}' (expected none, viscous, mass_velocity, restitution, bshp, "
            "kk or tsuji)",
            model);
  }
}

void ContactLawWords::parse_tangential(CoeffReader &in, ContactLaw &lw)
{
  if (!in.next_is("tangential"))
    in.fail("expected 'tangential' {}; usage: {}",
            in.done() ? std::string("at the end") : fmt::format("but found '{}'", in.peek()),
            GRAMMAR);
  in.word();
  if (in.done()) in.fail("tangential expects a model and its values; usage: {}", GRAMMAR);
  const std::string model = in.word();
  if (model == "jaeger") {
    parse_jaeger(in, lw);
    return;
  }
  if (model != "classic" && model != "refined") {
    parse_catalogue_tangential(in, lw, model);
    return;
  }
  parse_linear_tangential(in, lw, model);
}

// `tangential jaeger <mu> [approx <lambda>] [capacity <M>|exact]`, on the Hertz contact
void ContactLawWords::parse_jaeger(CoeffReader &in, ContactLaw &lw)
{
  // exact Cattaneo-Mindlin-Deresiewicz (Jaeger) needs the Hertz contact it is built on
  if (lw.normal == ge::LAW_JKR || lw.normal == ge::LAW_DMT)
    in.fail("'tangential jaeger' cannot go with '{}': the Jaeger solution is exact for the "
            "Hertz pressure, and adhesion changes the pressure under the contact (JKR's has a "
            "singular rim), so its tangential tractions are not Mindlin-Deresiewicz's; use a "
            "catalogue tangential model (e.g. 'dd <mu>' or 'tti <mu>', Mindlin's stiffness on "
            "the adhesive contact radius)",
            lw.normal == ge::LAW_JKR ? "jkr" : "dmt");
  if (lw.normal != ge::LAW_HERTZ)
    in.fail("'tangential jaeger' needs the normal model 'hertz <E> <nu>' (the Jaeger solution "
            "is built on the Hertz contact)");
  lw.tangential = ge::LAW_JAEGER;
  in.need(1, "tangential jaeger");
  const double mu = in.non_negative("mu");
  double lambda = 0.0;
  int capacity = 0;
  std::vector<std::string> seen;
  while (!in.done() && !in.at_law_option()) {
    const std::string key = in.word();
    in.first_time(key, seen);
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
        if (!utils::is_integer(in.peek()))
          in.fail("capacity expects an integer M >= 2 or 'exact', not '{}'", in.peek());
        // (checked as a number first: M past 2^31 - 1 is not an int)
        const double requested = std::strtod(in.peek(), nullptr);
        if (requested > JAEGER_CAPACITY_MAX)
          in.fail("capacity M = {} would keep up to {:.0f} history vertices of {} bytes per "
                  "contact ({:.4g} GiB for each contact, and under /kk for each neighbour slot); "
                  "a contact's record holds at most {} vertices: give M <= {} (16 to 64 follow "
                  "the Mindlin-Deresiewicz paths closely; 'capacity exact' keeps the whole "
                  "history)",
                  in.peek(), requested + 1.0, sizeof(ge::JaegerVertex),
                  (requested + 1.0) * sizeof(ge::JaegerVertex) / 1073741824.0,
                  JAEGER_CAPACITY_MAX + 1, JAEGER_CAPACITY_MAX);
        capacity = in.integer_at_least("capacity M", 2);
      }
    } else {
      in.fail("unexpected argument '{}' of 'tangential jaeger' (expected 'approx <lambda>' or "
              "'capacity <M>|exact')",
              key);
    }
  }
  // (two materials: Mindlin's effective moduli, notes: Jaeger materials)
  lw.jaeger = ge::jaeger_material_of_pair(lw.hertz.E_i, lw.hertz.nu_i, lw.hertz.E_j,
                                          lw.hertz.nu_j, mu, lambda, capacity);
  if (lw.damping == ge::LAW_DAMPING_VISCOUS && lw.linear.eta_t < 0.0)
    in.fail("damping viscous with 'tangential jaeger' expects 2 values: <eta_n> <eta_t>");
}

// `tangential classic|refined <kt> <mu>` and the switches of refined, on the Hooke contact
void ContactLawWords::parse_linear_tangential(CoeffReader &in, ContactLaw &lw,
                                              const std::string &model)
{
  ge::LinearParams &p = lw.linear;
  if (lw.normal != ge::LAW_HOOKE)
    in.fail("'tangential {}' needs the normal model 'hooke <kn>' (its within-step algorithm uses "
            "the linear normal spring{})",
            model,
            lw.normal == ge::LAW_JKR || lw.normal == ge::LAW_DMT
                ? "; adhesion (jkr, dmt) has no linear spring: use a catalogue tangential "
                  "model, e.g. 'spring_sliding <kt> <mu>' or 'dd <mu>'"
                : "");
  lw.tangential = model == "classic" ? ge::LAW_CLASSIC : ge::LAW_REFINED;
  in.need(2, ("tangential " + model).c_str());
  p.kt = in.positive("kt");
  p.mu = in.non_negative("mu");

  if (lw.damping == ge::LAW_DAMPING_VISCOUS && p.eta_t < 0.0)
    in.fail("damping viscous with 'tangential {}' expects 2 values: <eta_n> <eta_t>", model);
  const bool refined = lw.tangential == ge::LAW_REFINED;
  p.onset = p.slip = p.direction = p.twirl = refined;
  p.projection = true;
  std::vector<std::string> seen;
  while (!in.done() && !in.at_law_option()) {    // (parse_law_options() reads those)
    const std::string key = in.peek();
    const bool is_switch = key == "onset" || key == "slip" || key == "direction" ||
        key == "twirl" || key == "projection";
    if (!is_switch) break;    // (reject_leftover() says what is wrong)
    if (!refined)
      in.fail("'{}' is an option of 'tangential refined'; 'tangential classic' takes only <kt> "
              "<mu>",
              key);
    in.first_time(key, seen);
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

/* ----------------------------------------------------------------------
   the tangential models of the catalogue (Rangel's notes, section 4)
------------------------------------------------------------------------- */

void ContactLawWords::parse_catalogue_tangential(CoeffReader &in, ContactLaw &lw,
                                                   const std::string &model)
{
  using TM = ge::TangentialModel;
  ge::TangentialParams &t = lw.cat.tangential;
  lw.tangential = ge::LAW_CATALOGUE;
  auto mu = [&]() { return in.non_negative("mu"); };
  auto eta_t = [&]() { return in.non_negative("eta_t"); };
  const std::string what = "tangential " + model;
  if (model == "sliding") {
    t.model = TM::Sliding;
    in.need(1, what.c_str());
    t.mu = mu();
  } else if (model == "viscous") {
    t.model = TM::Viscous;
    in.need(1, what.c_str());
    t.eta_t = eta_t();
  } else if (model == "viscous_sliding") {
    t.model = TM::ViscousSliding;
    in.need(2, what.c_str());
    t.eta_t = eta_t();
    t.mu = mu();
  } else if (model == "spring_sliding") {
    t.model = TM::SpringSliding;
    in.need(2, what.c_str());
    t.kt = in.positive("kt");
    t.mu = mu();
  } else if (model == "spring_dashpot") {
    t.model = TM::SpringDashpot;
    in.need(3, what.c_str());
    t.kt = in.positive("kt");
    if (in.next_is("et")) {
      in.word();
      in.need(2, "spring_dashpot et");
      t.e_t = in.number("e_t", [](double v) { return v >= 0.0 && v <= 1.0; }, "in [0, 1]");
      t.use_et = true;
    } else {
      t.eta_t = eta_t();
    }
    t.mu = mu();
    if (in.next_is("maw")) {
      in.word();
      t.maw = true;
    }
  } else if (model == "dd") {
    t.model = TM::DD;
    in.need(1, what.c_str());
    t.mu = mu();
    if (in.next_is_number()) t.eta_t = eta_t();
  } else if (model == "lth") {
    t.model = TM::LTH;
    in.need(2, what.c_str());
    t.mu = mu();
    t.eta_t = in.non_negative("eta_t (fraction of critical damping)");
  } else if (model == "zzy") {
    t.model = TM::ZZY;
    in.need(2, what.c_str());
    t.mu = mu();
    t.eta_t = in.non_negative("eta (viscosity)");
  } else if (model == "tti") {
    t.model = TM::TTI;
    in.need(1, what.c_str());
    t.mu = mu();
    if (in.next_is("eta")) {
      in.word();
      in.need(1, "tti eta");
      t.eta_t = eta_t();
    } else {
      lw.cat.tti_eta_from_tsuji = true;    // by definition the tsuji normal eta_n (catalogue 2.3)
    }
  } else if (model == "walton_braun") {
    t.model = TM::WaltonBraun;
    in.need(2, what.c_str());
    t.kt = in.positive("kt0");
    t.mu = mu();
  } else if (model == "coulomb") {
    t.model = TM::Coulomb;
    in.need(1, what.c_str());
    t.mu = mu();
    parse_coulomb_options(in, lw);
    // the normal force of the paper's eq. (7) never attracts: without it a damped contact
    // pulling apart would still have a friction limit of the wrong sign
    lw.cat.limit_damping = true;
  } else {
    in.fail("unknown tangential model '{}' (expected classic, refined, jaeger, sliding, viscous, "
            "viscous_sliding, spring_sliding, spring_dashpot, dd, lth, zzy, tti, walton_braun or "
            "coulomb)",
            model);
  }
}

// `tangential coulomb <mu>` options: the solver's settings (doc/design_notes.md, "Coulomb
// sweeps")
void ContactLawWords::parse_coulomb_options(CoeffReader &in, ContactLaw &lw)
{
  ge::CoulombSolverSettings &c = lw.coulomb;
  c = ge::CoulombSolverSettings();
  // the default solver is the one that reaches tol on deep beds (bench/README.md, "The default
  // solver"); its default budget is large, as it runs to tol, while a solver chosen by name
  // keeps the budget of 20
  c.solver = ge::CoulombSolver::Newton;
  std::vector<std::string> seen;
  while (!in.done() && !in.at_law_option()) {
    const std::string key = in.word();
    in.first_time(key, seen);
    if (key == "sweeps") {
      in.need(1, "coulomb sweeps");
      c.sweeps = in.integer_at_least("sweeps (most sweeps or iterations per step)", 1);
    } else if (key == "tol") {
      in.need(1, "coulomb tol");
      c.tol = in.number(
          "tol (largest force change per sweep, relative to mu F_n)",
          [](double v) { return v > 0.0 && v < 1.0; }, "in (0, 1)");
    } else if (key == "solver") {
      in.need(1, "coulomb solver");
      const std::string name = in.word();
      if (name == "gs") c.solver = ge::CoulombSolver::GaussSeidel;
      else if (name == "apgd") c.solver = ge::CoulombSolver::APGD;
      else if (name == "newton") c.solver = ge::CoulombSolver::Newton;
      else
        in.fail("coulomb solver must be 'gs' (projected Gauss-Seidel), 'apgd' (accelerated "
                "projected gradient) or 'newton' (APGD, then Newton steps by conjugate "
                "gradients), not '{}'",
                name);
    } else if (key == "warm") {
      in.need(1, "coulomb warm");
      const std::string start = in.word();
      if (start == "extrapolate") c.warm = ge::CoulombWarmStart::Extrapolated;
      else if (start == "yes") c.warm = ge::CoulombWarmStart::Previous;
      else if (start == "no") c.warm = ge::CoulombWarmStart::Zero;
      else
        in.fail("coulomb warm must be 'extrapolate' (the previous step's forces plus their last "
                "change), 'yes' (the previous step's forces) or 'no' (zero), not '{}'",
                start);
    } else if (key == "kinematics") {
      in.need(1, "coulomb kinematics");
      const std::string form = in.word();
      if (form == "geometric") c.kinematics = ge::CoulombKinematics::Geometric;
      else if (form == "none") c.kinematics = ge::CoulombKinematics::None;
      else if (form == "material") c.kinematics = ge::CoulombKinematics::Material;
      else
        in.fail("coulomb kinematics must be 'geometric', 'none' or 'material', not '{}'", form);
    } else {
      in.fail("unexpected argument '{}' after 'tangential coulomb <mu>' (options: solver gs|apgd|newton, "
              "sweeps <K>, tol <t>, warm extrapolate|yes|no, kinematics geometric|none|material)",
              key);
    }
  }
  const bool sweeps_given = std::find(seen.begin(), seen.end(), "sweeps") != seen.end();
  if (!sweeps_given)
    c.sweeps = c.solver == ge::CoulombSolver::Newton ? ge::kCoulombNewtonDefaultSweeps
                                                     : ge::kCoulombBudgetDefaultSweeps;
}

// combinations the catalogue's text forbids, with the reason
void ContactLawWords::check_catalogue_law(CoeffReader &in, ContactLaw &lw)
{
  using TM = ge::TangentialModel;
  if (lw.damping == ge::LAW_DAMPING_VISCOUS && lw.linear.eta_t >= 0.0)
    in.fail("damping viscous takes only <eta_n> with a catalogue tangential model (its "
            "tangential dashpot is part of the tangential model)");
  lw.linear.eta_t = 0.0;
  in.check(ge::validate(lw.cat.normal));
  in.check(ge::validate(lw.cat.damping));
  in.check(ge::validate_combination(lw.cat.normal.model, lw.cat.damping.model));
  in.check(ge::tangential_params_error(lw.cat.tangential));
  const TM m = lw.cat.tangential.model;
  const bool needs_hertz = m == TM::DD || m == TM::LTH ||
      m == TM::ZZY || m == TM::TTI;
  if (needs_hertz && !ge::is_hertzian(lw.cat.normal.model))
    in.fail("this tangential model is defined on the Hertz contact (it uses the shear modulus "
            "and Poisson ratio): give 'hertz <E> <nu>' (or 'jkr'/'dmt <E> <nu> <gamma>')");
  if (ge::is_adhesive(lw.cat.normal.model)) check_adhesive_law(in, lw);
  in.check(ge::yade_moment_tangential_error(lw.cat.yade, m));
  if (lw.cat.tti_eta_from_tsuji && lw.cat.damping.model != ge::DAMPING_TSUJI)
    in.fail("'tangential tti' without 'eta <eta_t>' takes its dashpot from 'damping tsuji', "
            "which is not given");
}

// what adhesion (jkr, dmt) cannot go with, and why
void ContactLawWords::check_adhesive_law(CoeffReader &in, const ContactLaw &lw)
{
  const char *model = lw.normal == ge::LAW_JKR ? "jkr" : "dmt";
  if (ge::is_coulomb(lw))
    in.fail("'tangential coulomb' cannot go with '{}': its constraint friction is solved with "
            "a normal force that never attracts (Sakamaki et al.'s eq. 7), which would take the "
            "adhesion away; use a catalogue tangential model (e.g. 'spring_sliding <kt> <mu>', "
            "'dd <mu>')",
            model);
  if (lw.cat.limit_damping)
    in.fail("'limit_damping' cannot go with '{}': it keeps the normal force from attracting, "
            "and adhesion attracts",
            model);
}

// `rolling|twisting yade kr <K> | beta <beta>  eta <eta> | cap none  [damp <gamma>] [combined]`
// (doc/design_notes.md, "Yade moments")
void ContactLawWords::parse_yade_spring(CoeffReader &in, ContactLaw &lw, bool rolling)
{
  const char *name = rolling ? "rolling" : "twisting";
  ge::YadeSpringParams &spring = rolling ? lw.cat.yade.rolling : lw.cat.yade.twisting;
  if (spring.active) in.fail("'{} yade' is given twice", name);
  if (!in.next_is("yade"))
    in.fail("{} expects the model 'yade', not '{}'", name, in.done() ? "" : in.peek());
  in.word();
  spring.active = true;
  in.need(4, fmt::format("{} yade", name).c_str());
  const std::string stiffness = in.word();
  if (stiffness == "kr") spring.k = in.positive("kr (moment per radian)");
  else if (stiffness == "beta") {
    spring.use_beta = true;
    spring.k = in.positive("beta");
  } else
    in.fail("{} yade expects 'kr <K>' or 'beta <beta>', not '{}'", name, stiffness);
  const std::string cap = in.word();
  if (cap == "eta") spring.eta = in.non_negative("eta (moment cap coefficient)");
  else if (cap == "cap") {
    const std::string none = in.word();
    if (none != "none") in.fail("{} yade: 'cap' expects 'none', not '{}'", name, none);
    spring.capped = false;
  } else
    in.fail("{} yade expects 'eta <eta>' or 'cap none' after its stiffness, not '{}'", name, cap);
  if (in.next_is("damp")) {
    in.word();
    in.need(1, fmt::format("{} yade damp", name).c_str());
    spring.gamma = in.non_negative("damp (gamma, moment time per radian)");
  }
  if (rolling && in.next_is("combined")) {
    in.word();
    lw.cat.yade.combined = true;
  }
  in.check(ge::yade_moment_params_error(lw.cat.yade));
}

/* ----------------------------------------------------------------------
   mixing for I != J when only I I and J J were given: same models and switches
   required; stiffnesses, damping coefficients and friction coefficient are
   geometric means (as LAMMPS' pair granular does for hooke).
------------------------------------------------------------------------- */

namespace {
bool same_yade_spring(const ge::YadeSpringParams &a, const ge::YadeSpringParams &b)
{
  return a.active == b.active && a.use_beta == b.use_beta && a.k == b.k && a.capped == b.capped &&
      a.eta == b.eta && a.gamma == b.gamma;
}
bool same_yade(const ge::YadeMomentParams &a, const ge::YadeMomentParams &b)
{
  return a.combined == b.combined && same_yade_spring(a.rolling, b.rolling) &&
      same_yade_spring(a.twisting, b.twisting);
}

// every model choice and every number of two catalogue laws, other than those mix_catalogue
// combines (Hertz materials, mu, bshp A), agree
bool same_catalogue_settings(const ContactLaw &a, const ContactLaw &b)
{
  const ge::NormalParams &na = a.cat.normal, &nb = b.cat.normal;
  const ge::DampingParams &da = a.cat.damping, &db = b.cat.damping;
  const ge::TangentialParams &ta = a.cat.tangential, &tb = b.cat.tangential;
  return a.normal == b.normal && a.damping == b.damping &&
         a.cat.limit_damping == b.cat.limit_damping &&
         a.cat.tti_eta_from_tsuji == b.cat.tti_eta_from_tsuji && na.model == nb.model &&
         na.hooke.kn == nb.hooke.kn && na.hls.kL == nb.hls.kL && na.hls.kU0 == nb.hls.kU0 &&
         na.hls.S == nb.hls.S && da.model == db.model && da.eta == db.eta && da.alpha == db.alpha &&
         da.tsuji_from_e == db.tsuji_from_e && ta.model == tb.model && ta.kt == tb.kt &&
         ta.eta_t == tb.eta_t && ta.e_t == tb.e_t && ta.use_et == tb.use_et && ta.maw == tb.maw &&
         same_yade(a.cat.yade, b.cat.yade) && ge::same_settings(a.coulomb, b.coulomb);
}
}    // namespace

/* ----------------------------------------------------------------------
   mixing of catalogue laws by the physical rules of doc/design_notes.md, "Catalogue
   conventions": the Hertz materials combine into the two-material form (Ebar, Gbar, mean nu),
   mu = min(mu_I, mu_J), bshp A = (A_I + A_J)/2. Every other coefficient has no physical mixing
   rule, so it must agree (no geometric means, unlike LAMMPS); otherwise the type pair needs its
   own pair_coeff.
------------------------------------------------------------------------- */

ContactLaw ContactLawWords::mix_catalogue(const ContactLaw &a, const ContactLaw &b) const
{
  if (!same_catalogue_settings(a, b))
    error->all(FLERR,
               "Pair granular/exact cannot mix these catalogue laws: only the Hertz materials, mu "
               "and bshp A have a mixing rule (catalogue 1.2), and the two types differ in "
               "another model or value; give this type pair its own pair_coeff");
  ContactLaw m = a;
  if (ge::is_hertzian(a.cat.normal.model)) {
    m.hertz = ge::hertz_params(a.hertz.E_i, a.hertz.nu_i, b.hertz.E_i, b.hertz.nu_i);
    // (the work of adhesion of two surfaces 2 gamma: its geometric mean, Berthelot's rule, as
    // LAMMPS mixes cohesion)
    m.cat.normal.gamma = std::sqrt(a.cat.normal.gamma * b.cat.normal.gamma);
    m.cat.normal.Ebar = ge::hertz_effective_modulus(m.hertz);
    m.cat.gbar = ge::hertz_effective_shear_modulus(m.hertz);
    m.cat.nubar = 0.5 * (m.hertz.nu_i + m.hertz.nu_j);
  }
  m.cat.tangential.mu = std::min(a.cat.tangential.mu, b.cat.tangential.mu);
  m.cat.damping.A = 0.5 * (a.cat.damping.A + b.cat.damping.A);
  return m;
}

ContactLaw ContactLawWords::mix(const ContactLaw &a, const ContactLaw &b) const
{
  if (a.tangential == ge::LAW_CATALOGUE || b.tangential == ge::LAW_CATALOGUE) {
    if (a.tangential != b.tangential)
      error->all(FLERR,
                 "Pair granular/exact cannot mix a catalogue law with a classic, refined or "
                 "jaeger law; give this type pair its own pair_coeff");
    return mix_catalogue(a, b);
  }
  const ge::LinearParams &pa = a.linear, &pb = b.linear;
  const bool same_models = a.normal == b.normal && a.damping == b.damping &&
      a.tangential == b.tangential && pa.onset == pb.onset && pa.slip == pb.slip &&
      pa.direction == pb.direction && pa.twirl == pb.twirl && pa.projection == pb.projection &&
      same_yade(a.cat.yade, b.cat.yade);
  if (!same_models)
    error->all(FLERR,
               "Pair granular/exact cannot mix coefficients of types with different models or "
               "switches; give this type pair its own pair_coeff");
  ContactLaw m = a;
  m.linear.eta_n = std::sqrt(pa.eta_n * pb.eta_n);
  m.linear.eta_t = std::sqrt(pa.eta_t * pb.eta_t);
  const ge::DampingParams &da = a.cat.damping, &db = b.cat.damping;
  if (a.damping == ge::LAW_DAMPING_CATALOGUE &&
      (da.model != db.model || da.eta != db.eta || da.alpha != db.alpha || da.A != db.A ||
       da.tsuji_from_e != db.tsuji_from_e || a.cat.limit_damping != b.cat.limit_damping))
    error->all(FLERR,
               "Pair granular/exact cannot mix '{}' laws with different dampings (the catalogue's "
               "dashpots have no mixing rule); give this type pair its own pair_coeff",
               a.tangential == ge::LAW_JAEGER ? "tangential jaeger" : "linear");
  if (a.tangential == ge::LAW_JAEGER) {
    if (a.jaeger.lambda != b.jaeger.lambda || a.jaeger.capacity != b.jaeger.capacity)
      error->all(FLERR,
                 "Pair granular/exact cannot mix 'tangential jaeger' with different approx or "
                 "capacity settings; give this type pair its own pair_coeff");
    // two materials: the pair of the two types' (Mindlin's effective moduli; one material: as
    // before, bit for bit)
    m.hertz = ge::hertz_params(a.hertz.E_i, a.hertz.nu_i, b.hertz.E_i, b.hertz.nu_i);
    m.jaeger = ge::jaeger_material_of_pair(a.hertz.E_i, a.hertz.nu_i, b.hertz.E_i, b.hertz.nu_i,
                                           std::sqrt(a.jaeger.mu * b.jaeger.mu), a.jaeger.lambda,
                                           a.jaeger.capacity);
    return m;
  }
  m.linear.kn = std::sqrt(pa.kn * pb.kn);
  m.linear.kt = std::sqrt(pa.kt * pb.kt);
  m.linear.mu = std::sqrt(pa.mu * pb.mu);
  return m;
}


/* ----------------------------------------------------------------------
   the law in the words of pair_coeff, without its numbers
------------------------------------------------------------------------- */

std::string ContactLawWords::describe(const ContactLaw &lw)
{
  static const char *const normal[] = {"hooke", "hertz", "hls", "jkr", "dmt"};
  static const char *const catalogue[] = {"",     "sliding", "viscous", "viscous_sliding",
                                          "spring_sliding", "spring_dashpot", "dd", "lth",
                                          "zzy",  "tti",     "walton_braun", "coulomb"};
  const int n = lw.tangential == ge::LAW_CATALOGUE ? static_cast<int>(lw.cat.normal.model)
                                                   : lw.normal;
  std::string words = std::string(n >= 0 && n < 5 ? normal[n] : "?") + " tangential ";
  if (lw.tangential == ge::LAW_CLASSIC) words += "classic";
  else if (lw.tangential == ge::LAW_REFINED) words += "refined";
  else if (lw.tangential == ge::LAW_JAEGER) words += "jaeger";
  else {
    const int m = static_cast<int>(lw.cat.tangential.model);
    words += m >= 1 && m <= 11 ? catalogue[m] : "?";
  }
  if (lw.cat.yade.rolling.active) words += " rolling yade";
  if (lw.cat.yade.twisting.active) words += " twisting yade";
  return words;
}
