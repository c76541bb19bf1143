// Normal contact models of the catalogue (Rangel's "DEM contact force models", [R] below; the
// project's conventions and corrections: doc/design_notes.md, "notes: <section>"): the elastic
// normal force F_n^el of N1 `hooke`, N2 `hertz` and N3 `hls` (Walton & Braun's hysteretic linear
// spring), and of the adhesive `jkr` and `dmt` (their forms: adhesion.hpp), the effective
// quantities they need, the per-contact state of HLS and JKR and the parameter validation
// (notes: Catalogue conventions). The dashpots are in damping_models.hpp.
//
// Conventions: delta = R_i + R_j - |x_i - x_j| is the TOTAL overlap (contact iff
// delta > 0); a positive force is repulsive. Every function returns 0 for delta <= 0.
// The Jaeger kernel (jaeger.hpp) writes Hertz with the HALF overlap delta_h = delta/2 and its own
// constant C_H = (4/3) E^ sqrt(2 Rbar), E^ = E/(1-nu^2) of the (common) material; the same spheres
// give the same force with K_HZ = C_H / 2^{3/2} here (hertz_constant_from_half_overlap below).
//
// Units: any consistent set (LAMMPS unit style); the SI units in comments are for orientation.
// Header-only, no allocation, no virtual calls, no LAMMPS: callable from host and device code.
#pragma once

#include "contact/adhesion.hpp"
#include "contact/vec3.hpp"

#include <cmath>

namespace ge {

// ------------------------------------------------------------------------------------------------
// Effective quantities (notes: Catalogue conventions). A wall is R_j = m_j = infinity (the caller
// passes INFINITY or uses the one-body value directly).

namespace normal_detail {
// Finite and not NaN (NaN and inf are rejected). x - x is NaN for inf and NaN.
GE_INLINE bool finite(double x) { return x - x == 0.0; }
}    // namespace normal_detail

// Rbar = R_i R_j/(R_i + R_j); R_j = inf (a plane wall) gives R_i.
GE_INLINE double effective_radius(double Ri, double Rj)
{
  if (!normal_detail::finite(Rj)) return Ri;
  return Ri * Rj / (Ri + Rj);
}

// mbar = m_i m_j/(m_i + m_j); m_j = inf (a wall) gives m_i.
GE_INLINE double effective_mass(double mi, double mj)
{
  if (!normal_detail::finite(mj)) return mi;
  return mi * mj / (mi + mj);
}

// Ebar = [(1-nu_i^2)/E_i + (1-nu_j^2)/E_j]^-1. Identical spheres: E/(2(1-nu^2)).
GE_INLINE double effective_modulus(double E_i, double nu_i, double E_j, double nu_j)
{
  return 1.0 / ((1.0 - nu_i * nu_i) / E_i + (1.0 - nu_j * nu_j) / E_j);
}

// Rigid wall (E_w = inf): Ebar = E_i/(1-nu_i^2), twice the same-material value that LAMMPS' wall
// mixing gives ([differs], notes: Catalogue conventions).
GE_INLINE double effective_modulus_rigid_wall(double E_i, double nu_i)
{
  return E_i / (1.0 - nu_i * nu_i);
}

// ------------------------------------------------------------------------------------------------
// N1 `hooke <kn>`: F = k_n delta. State: none.

struct HookeParams {
  double kn = 0.0;    // normal stiffness [N/m], finite, > 0
};

// nullptr if valid, otherwise a message naming the argument and its range.
inline const char *validate(const HookeParams &p)
{
  if (!normal_detail::finite(p.kn) || !(p.kn > 0.0)) return "hooke: kn must be finite and > 0";
  return nullptr;
}

GE_INLINE double hooke_force(const HookeParams &p, double delta)
{
  return delta > 0.0 ? p.kn * delta : 0.0;
}

// ------------------------------------------------------------------------------------------------
// N2 `hertz <E> <nu>` | `hertz <E_I> <nu_I> <E_J> <nu_J>`:
// F = K_HZ delta^{3/2}, K_HZ = (4/3) Ebar sqrt(Rbar), delta the total overlap. State: none.

struct HertzParams {
  double E_i = 0.0, nu_i = 0.0;    // Young's modulus [Pa] > 0 and Poisson ratio in (-1, 0.5]
  double E_j = 0.0, nu_j = 0.0;    // the partner's; the two-number form copies (E, nu)
};

// The two-number form: both bodies share (E, nu).
GE_INLINE HertzParams hertz_params(double E, double nu) { return {E, nu, E, nu}; }
// The four-number form (I != J, mixed as in notes: Catalogue conventions).
GE_INLINE HertzParams hertz_params(double E_i, double nu_i, double E_j, double nu_j)
{
  return {E_i, nu_i, E_j, nu_j};
}
// Both bodies of one material (the two-number form, or four numbers that repeat it).
GE_INLINE bool one_material(const HertzParams &p) { return p.E_i == p.E_j && p.nu_i == p.nu_j; }

inline const char *validate(const HertzParams &p)
{
  using normal_detail::finite;
  if (!finite(p.E_i) || !(p.E_i > 0.0)) return "hertz: E (of I) must be finite and > 0";
  if (!finite(p.nu_i) || !(p.nu_i > -1.0 && p.nu_i <= 0.5))
    return "hertz: nu (of I) must be finite with -1 < nu <= 0.5";
  if (!finite(p.E_j) || !(p.E_j > 0.0)) return "hertz: E (of J) must be finite and > 0";
  if (!finite(p.nu_j) || !(p.nu_j > -1.0 && p.nu_j <= 0.5))
    return "hertz: nu (of J) must be finite with -1 < nu <= 0.5";
  return nullptr;
}

// -1 < nu < 0 is accepted but deserves a warning (auxetic material). nullptr if none.
inline const char *hertz_warning(const HertzParams &p)
{
  if (p.nu_i < 0.0 || p.nu_j < 0.0)
    return "hertz: negative Poisson ratio (auxetic material) accepted";
  return nullptr;
}

GE_INLINE double hertz_effective_modulus(const HertzParams &p)
{
  return effective_modulus(p.E_i, p.nu_i, p.E_j, p.nu_j);
}

// K_HZ = (4/3) Ebar sqrt(Rbar) [N/m^{3/2}] for the TOTAL overlap. Per contact: Rbar
// varies in a polydisperse system, Ebar is per type pair.
GE_INLINE double hertz_constant(double Ebar, double Rbar)
{
  return (4.0 / 3.0) * Ebar * std::sqrt(Rbar);
}

// (from_root: with sqrt(delta) of an overlap delta > 0 that the caller keeps for its dashpot)
GE_INLINE double hertz_force_from_root(double K_HZ, double delta, double sqrt_delta)
{
  return K_HZ * delta * sqrt_delta;
}
GE_INLINE double hertz_force(double K_HZ, double delta)
{
  return delta > 0.0 ? hertz_force_from_root(K_HZ, delta, std::sqrt(delta)) : 0.0;
}

// Conversion to and from the half-overlap convention of jaeger.hpp: N = C_H delta_h^{3/2} with
// delta_h = delta/2 equals K_HZ delta^{3/2} iff K_HZ = C_H / 2^{3/2}. With jaeger_hertz_constant
// (C_H = (4/3) E/(1-nu^2) sqrt(R), R = 2 Rbar) this is (4/3) [E/(2(1-nu^2))] sqrt(Rbar) = K_HZ of
// two spheres of the same material: the Jaeger force and hertz_force agree for the same spheres.
constexpr double kTwoToThreeHalves = 2.8284271247461900976;    // 2^{3/2}
GE_INLINE double hertz_constant_from_half_overlap(double C_H) { return C_H / kTwoToThreeHalves; }
GE_INLINE double half_overlap_constant_from_hertz(double K_HZ) { return K_HZ * kTwoToThreeHalves; }

// ------------------------------------------------------------------------------------------------
// N3 `hls`: elastic-perfectly-plastic hysteretic linear spring of Walton & Braun (1986) in a
// history form ([ours], notes: Catalogue corrections):
//   delta_max <- max(delta_max, delta)            (the state, 1 double, transfer factor +1)
//   F_max = k_L delta_max,  K_U = K_U(delta_max),  delta_0 = delta_max (1 - k_L/K_U)
//   F = max(0, min(k_L delta, K_U (delta - delta_0)))
// Loading follows the virgin line k_L delta; unloading and reloading follow the unloading line
// K_U (delta - delta_0) until it meets the virgin line again at delta_max (Walton & Braun's rule:
// no velocity sign needed, no jump on re-approach, unlike [R]'s sign-of-rate switch). The force
// vanishes at the residual overlap delta_0 while the spheres still overlap; the state is reset
// only when the geometric contact is lost (delta <= 0): the residual deformation is forgotten
// then ([R]), not when F reaches 0.
//
// The three input forms are one law, K_U(delta_max) = kU0 + S F_max:
//   hls <kL> <e_n>           kU0 = k_L/e_n^2, S = 0   (0 < e_n <= 1)
//   hls <kL> kU <kU>         kU0 = kU,        S = 0   (kU >= k_L)
//   hls <kL> variable <S>    kU0 = k_L,       S >= 0  (S = 0 is elastic)
// Damping must be `none` (validate_combination in damping_models.hpp).

struct HlsParams {
  double kL = 0.0;     // loading stiffness [N/m] > 0
  double kU0 = 0.0;    // unloading stiffness at F_max = 0 [N/m] >= kL
  double S = 0.0;      // growth of K_U with F_max [1/m] >= 0
};

// Raw-argument checks, for the glue before it builds HlsParams.
inline const char *validate_hls_restitution(double kL, double e_n)
{
  using normal_detail::finite;
  if (!finite(kL) || !(kL > 0.0)) return "hls: kL must be finite and > 0";
  if (!finite(e_n) || !(e_n > 0.0 && e_n <= 1.0))
    return "hls: e_n must be finite with 0 < e_n <= 1";
  return nullptr;
}
inline const char *validate_hls_constant(double kL, double kU)
{
  using normal_detail::finite;
  if (!finite(kL) || !(kL > 0.0)) return "hls: kL must be finite and > 0";
  if (!finite(kU) || !(kU >= kL)) return "hls: kU must be finite and >= kL";
  return nullptr;
}
inline const char *validate_hls_variable(double kL, double S)
{
  using normal_detail::finite;
  if (!finite(kL) || !(kL > 0.0)) return "hls: kL must be finite and > 0";
  if (!finite(S) || !(S >= 0.0)) return "hls: variable S must be finite and >= 0";
  return nullptr;
}
inline const char *validate(const HlsParams &p)
{
  using normal_detail::finite;
  if (!finite(p.kL) || !(p.kL > 0.0)) return "hls: kL must be finite and > 0";
  if (!finite(p.kU0) || !(p.kU0 >= p.kL)) return "hls: kU must be finite and >= kL";
  if (!finite(p.S) || !(p.S >= 0.0)) return "hls: variable S must be finite and >= 0";
  return nullptr;
}

// K_U = k_L/e_n^2: the binary-collision restitution is then sqrt(k_L/K_U) = e_n ([R]).
GE_INLINE HlsParams hls_from_restitution(double kL, double e_n)
{
  return {kL, kL / (e_n * e_n), 0.0};
}
GE_INLINE HlsParams hls_constant(double kL, double kU) { return {kL, kU, 0.0}; }
GE_INLINE HlsParams hls_variable(double kL, double S) { return {kL, kL, S}; }

constexpr int HLS_STATE_SIZE = 1;    // delta_max

// K_U(delta_max) = kU0 + S k_L delta_max (the variable form K_U = k_L + S F_max).
GE_INLINE double hls_unloading_stiffness(const HlsParams &p, double delta_max)
{
  return p.kU0 + p.S * (p.kL * delta_max);
}

// delta_0 = delta_max (1 - k_L/K_U) = delta_max (K_U - k_L)/K_U: zero for K_U = k_L (elastic),
// without the cancellation of 1 - k_L/K_U.
GE_INLINE double hls_residual_overlap(const HlsParams &p, double delta_max)
{
  const double kU = hls_unloading_stiffness(p, delta_max);
  return delta_max * ((kU - p.kL) / kU);
}

// Force at overlap delta for the stored delta_max, without touching the state (run setup,
// single()): the state is taken as dm = max(delta_max, delta), what hls_step would store.
// Since delta <= dm and K_U >= k_L, the unloading line K_U (delta - delta_0) never exceeds the
// virgin line k_L delta, so min(k_L delta, K_U (delta - delta_0)) is the unloading line,
// written here as F_max - K_U (dm - delta) (the same, as K_U delta_0 = K_U dm - F_max): it is
// k_L delta exactly on the virgin line (delta = dm), where the other form loses the last bits to
// the cancellation in K_U delta - K_U delta_0.
GE_INLINE double hls_force(const HlsParams &p, double delta, double delta_max)
{
  if (!(delta > 0.0)) return 0.0;
  const double dm = delta > delta_max ? delta : delta_max;
  const double kU = hls_unloading_stiffness(p, dm);
  const double f = p.kL * dm - kU * (dm - delta);
  return f > 0.0 ? f : 0.0;
}

// One step with history update: delta_max <- max(delta_max, delta), or 0 when the geometric
// contact is lost (notes: Catalogue corrections). Returns F_n^el.
GE_INLINE double hls_step(const HlsParams &p, double delta, double &delta_max)
{
  if (!(delta > 0.0)) {
    delta_max = 0.0;
    return 0.0;
  }
  if (delta > delta_max) delta_max = delta;
  return hls_force(p, delta, delta_max);
}

// ------------------------------------------------------------------------------------------------
// One entry point for the glue: the model of a type pair, evaluated per contact.

enum NormalModel : int {
  NORMAL_HOOKE = 0,
  NORMAL_HERTZ = 1,
  NORMAL_HLS = 2,
  NORMAL_JKR = 3,    // jkr <E> <nu> <gamma>: Ebar as hertz, gamma the surface energy
  NORMAL_DMT = 4     // dmt <E> <nu> <gamma>
};

struct NormalParams {
  NormalModel model = NORMAL_HOOKE;
  HookeParams hooke;     // NORMAL_HOOKE
  double Ebar = 0.0;     // NORMAL_HERTZ, _JKR, _DMT: hertz_effective_modulus (or the wall's)
  HlsParams hls;         // NORMAL_HLS
  double gamma = 0.0;    // NORMAL_JKR, _DMT: surface energy (of one surface) [J/m^2]
};

GE_INLINE bool is_adhesive(NormalModel m) { return m == NORMAL_JKR || m == NORMAL_DMT; }
// the Hertz contact and the adhesive ones built on it
GE_INLINE bool is_hertzian(NormalModel m) { return m == NORMAL_HERTZ || is_adhesive(m); }

inline const char *validate(const NormalParams &p)
{
  switch (p.model) {
    case NORMAL_HOOKE: return validate(p.hooke);
    case NORMAL_HERTZ:
    case NORMAL_JKR:
    case NORMAL_DMT:
      if (!normal_detail::finite(p.Ebar) || !(p.Ebar > 0.0))
        return "hertz/jkr/dmt: effective modulus must be finite and > 0";
      return is_adhesive(p.model) ? validate_surface_energy(p.gamma) : nullptr;
    case NORMAL_HLS: return validate(p.hls);
  }
  return "normal: unknown model";
}

// Number of state doubles per contact: 1 for hls (delta_max) and jkr (1 once the contact is
// made: it then holds past delta = 0), 0 otherwise.
GE_INLINE int normal_state_size(NormalModel m)
{
  return m == NORMAL_HLS || m == NORMAL_JKR ? HLS_STATE_SIZE : 0;
}

// The overlap down to which a contact that was made holds (< 0 for JKR with gamma > 0; 0: it
// ends when the surfaces part).
GE_INLINE double normal_break_overlap(const NormalParams &p, double Rbar)
{
  return p.model == NORMAL_JKR ? jkr_break_overlap(p.Ebar, Rbar, p.gamma) : 0.0;
}

// What the dashpots of damping_models.hpp need besides the kinematics.
struct NormalResult {
  double F_el = 0.0;    // elastic normal force (>= 0 unless adhesive)
  double kn = 0.0;      // linear stiffness: k_n (hooke) or k_L (hls); 0 for hertz, jkr, dmt
  double K_HZ = 0.0;    // Hertz constant (4/3) Ebar sqrt(Rbar) of this contact; 0 otherwise
  double F_pulloff = 0.0;       // jkr, dmt: the pull-off force (adhesion.hpp); 0 otherwise
  double hertz_overlap = 0.0;   // what the dashpots and tangential models take as the overlap:
                                // delta, or for jkr a^2/Rbar (adhesion.hpp)
  double energy = 0.0;          // jkr: the energy the contact stores (adhesion.hpp, J4)
  double sqrt_overlap = -1.0;   // hertz: sqrt(hertz_overlap), for the dashpot and the tangential
                                // stiffness to share (< 0: not computed)
};

// A JKR contact: made (state[0] = 1) when delta > 0; a made one holds down to the break overlap
// (the glue ends it there: normal_break_overlap), where its force is that of (J2).
GE_INLINE void jkr_elastic(const NormalParams &p, double delta, double Rbar, double *state,
                           bool update, NormalResult &r)
{
  r.K_HZ = hertz_constant(p.Ebar, Rbar);
  r.F_pulloff = jkr_pulloff_force(p.gamma, Rbar);
  const bool made = state[0] != 0.0 || delta > 0.0;
  if (update) state[0] = made ? 1.0 : 0.0;
  if (!made) return;
  // (never below the break overlap, where the stable branch of (J1) ends)
  const double d = std::fmax(delta, jkr_break_overlap(p.Ebar, Rbar, p.gamma));
  const double g = jkr_g(p.Ebar, p.gamma);
  const double a = adhesion_detail::jkr_contact_radius(d, Rbar, g);
  r.F_el = adhesion_detail::jkr_force_of_radius(a, p.Ebar, Rbar, g);
  r.hertz_overlap = a * a / Rbar;
  r.energy = adhesion_detail::jkr_energy_of_radius(a, p.Ebar, Rbar, g);
}

// Elastic force of one contact. state: normal_state_size(p.model) doubles owned by the caller
// (all zero = fresh contact); update = LAMMPS' history_update (false: state read only).
GE_FORCE_INLINE NormalResult normal_elastic(const NormalParams &p, double delta, double Rbar,
                                      double *state, bool update)
{
  NormalResult r;
  r.hertz_overlap = delta;
  switch (p.model) {
    case NORMAL_HOOKE:
      r.kn = p.hooke.kn;
      r.F_el = hooke_force(p.hooke, delta);
      break;
    case NORMAL_HERTZ:
      // hertz_force with its root kept: the dashpot's and the tangential model's delta^{1/2}
      // and delta^{1/4} start from it (one square root fewer each, the same numbers)
      r.K_HZ = hertz_constant(p.Ebar, Rbar);
      if (delta > 0.0) {
        r.sqrt_overlap = std::sqrt(delta);
        r.F_el = hertz_force_from_root(r.K_HZ, delta, r.sqrt_overlap);
      }
      break;
    case NORMAL_HLS:
      r.kn = p.hls.kL;
      r.F_el = update ? hls_step(p.hls, delta, state[0]) : hls_force(p.hls, delta, state[0]);
      break;
    case NORMAL_JKR: jkr_elastic(p, delta, Rbar, state, update, r); break;
    case NORMAL_DMT:
      // (D1): contact only while delta > 0
      r.K_HZ = hertz_constant(p.Ebar, Rbar);
      r.F_pulloff = dmt_pulloff_force(p.gamma, Rbar);
      if (delta > 0.0) {
        r.F_el = hertz_force(r.K_HZ, delta) - r.F_pulloff;
        r.energy = 0.4 * hertz_force(r.K_HZ, delta) * delta - r.F_pulloff * delta;
      }
      break;
  }
  return r;
}

}    // namespace ge
