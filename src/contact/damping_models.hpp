// Normal damping models of the catalogue (Rangel's "DEM contact force models", [R] below): the
// dashpot force F_n^vis that is added to the elastic force of normal_models.hpp, the clamp
// (`limit_damping`, F_n^c), the parameter validation and the model combinations that are
// rejected. The project's conventions and corrections are in doc/design_notes.md, cited as
// "notes: <section>".
//
// Conventions: delta = total overlap (> 0 in contact), delta_dot = approach rate
// (> 0 while the particles close, = -v_c.n), forces repulsive when positive. Every dashpot is
// linear in delta_dot and returns 0 for delta <= 0. No damping model has per-contact state: the
// coefficients that depend on mbar, k_n or K_HZ are recomputed per contact, so a polydisperse
// pair gets its own value.
//
// Header-only, no allocation, no virtual calls, no LAMMPS: callable from host and device code.
#pragma once

#include "contact/normal_models.hpp"

#include <cmath>

namespace ge {

enum DampingModel : int {
  DAMPING_NONE = 0,
  DAMPING_VISCOUS = 1,        // viscous <eta_n>
  DAMPING_RESTITUTION = 2,    // restitution <e_n>         (hooke only)
  DAMPING_BSHP = 3,           // bshp <A>                  (hertz only)
  DAMPING_KK = 4,             // kk <eta_n>                (hertz only)
  DAMPING_TSUJI = 5,          // tsuji en <e_n> [exact] | tsuji eta <eta_n>   (hertz only)
  DAMPING_MASS_VELOCITY = 6   // mass_velocity <gamma_n>   (every normal model but hls)
};

struct DampingParams {
  DampingModel model = DAMPING_NONE;
  double eta = 0.0;      // viscous [N s/m], kk [N s m^-3/2], tsuji eta form [kg m^-1/4 s^-1],
                         // mass_velocity gamma_n [1/s]
  double alpha = 0.0;    // restitution and tsuji en: the factor of sqrt(mbar k) in eta_n
  double A = 0.0;        // bshp: the (mixed) relaxation time Abar [s]
  double e_n = 0.0;      // restitution / tsuji en: the requested coefficient (for reporting only)
  bool tsuji_from_e = false;    // tsuji: eta_n = alpha sqrt(mbar K_HZ) (en form) or eta given
};

namespace damping_detail {
constexpr double kPi = 3.14159265358979323846;
}    // namespace damping_detail

// ------------------------------------------------------------------------------------------------
// Coefficient correlations.

// LSD (hooke + linear dashpot): eta_n = alpha sqrt(mbar k_n) with
// alpha = -2 ln e / sqrt(ln^2 e + pi^2): the exact restitution of the linear spring-dashpot
// (T_c = pi/W, e = exp(-eta T_c/(2 mbar))). e = 1 gives 0 exactly.
GE_INLINE double restitution_alpha(double e_n)
{
  const double l = std::log(e_n);
  return -2.0 * l / std::sqrt(l * l + damping_detail::kPi * damping_detail::kPi);
}

// Tsuji dashpot eta_n = alpha sqrt(mbar K_HZ): Norouzi et al.'s correlation, [R]'s choice and our
// `tsuji en`: alpha = -2.2664 ln e / sqrt(ln^2 e + 10.1354). Gives e = 0.89998 for 0.9.
GE_INLINE double tsuji_alpha_norouzi(double e_n)
{
  const double l = std::log(e_n);
  return -2.2664 * l / std::sqrt(l * l + 10.1354);
}

// The sqrt(5) form (LAMMPS' coeff_restitution for non-Hooke normals), our
// `tsuji en <e> exact`: alpha = -sqrt(5) ln e / sqrt(ln^2 e + pi^2); matches the target to better
// than 1e-4 over 0.5 <= e <= 0.95 (notes: Catalogue corrections; checked by the tests).
GE_INLINE double tsuji_alpha_exact(double e_n)
{
  const double l = std::log(e_n);
  return -2.2360679774997896964 * l / std::sqrt(l * l + damping_detail::kPi * damping_detail::kPi);
}

// ------------------------------------------------------------------------------------------------
// Parameter sets (already validated arguments; see validate_* below).

GE_INLINE DampingParams damping_none() { return DampingParams(); }

// LAMMPS' `damping mass_velocity` and the `gran/*` styles' normal dashpot: eta_n = gamma_n mbar,
// so that a polydisperse deck damps each pair by its own effective mass
GE_INLINE DampingParams damping_mass_velocity(double gamma_n)
{
  DampingParams p;
  p.model = DAMPING_MASS_VELOCITY;
  p.eta = gamma_n;
  return p;
}

GE_INLINE DampingParams damping_viscous(double eta_n)
{
  DampingParams p;
  p.model = DAMPING_VISCOUS;
  p.eta = eta_n;
  return p;
}

GE_INLINE DampingParams damping_restitution(double e_n)
{
  DampingParams p;
  p.model = DAMPING_RESTITUTION;
  p.e_n = e_n;
  p.alpha = restitution_alpha(e_n);
  return p;
}

// Abar = (A_i + A_j)/2 (arithmetic mean after Poeschel & Schwager).
GE_INLINE double bshp_mixed_A(double A_i, double A_j) { return 0.5 * (A_i + A_j); }

GE_INLINE DampingParams damping_bshp(double A)
{
  DampingParams p;
  p.model = DAMPING_BSHP;
  p.A = A;
  return p;
}

GE_INLINE DampingParams damping_kk(double eta_n)
{
  DampingParams p;
  p.model = DAMPING_KK;
  p.eta = eta_n;
  return p;
}

// exact = false: Norouzi ([R]'s choice), true: the sqrt(5) form (`tsuji en <e> exact`).
GE_INLINE DampingParams damping_tsuji_en(double e_n, bool exact)
{
  DampingParams p;
  p.model = DAMPING_TSUJI;
  p.e_n = e_n;
  p.alpha = exact ? tsuji_alpha_exact(e_n) : tsuji_alpha_norouzi(e_n);
  p.tsuji_from_e = true;
  return p;
}

GE_INLINE DampingParams damping_tsuji_eta(double eta_n)
{
  DampingParams p;
  p.model = DAMPING_TSUJI;
  p.eta = eta_n;
  return p;
}

// ------------------------------------------------------------------------------------------------
// Validation (notes: Catalogue conventions). nullptr = valid.

namespace damping_detail {
// `message` unless x is finite and >= 0 (a dashpot coefficient or a relaxation time)
inline const char *unless_non_negative(double x, const char *message)
{
  return normal_detail::finite(x) && x >= 0.0 ? nullptr : message;
}
// `message` unless 0 < e <= 1 (a restitution coefficient)
inline const char *unless_restitution(double e, const char *message)
{
  return normal_detail::finite(e) && e > 0.0 && e <= 1.0 ? nullptr : message;
}
}    // namespace damping_detail

inline const char *validate_damping_viscous(double eta_n)
{
  return damping_detail::unless_non_negative(eta_n,
                                             "damping viscous: eta_n must be finite and >= 0");
}
// e_n = 0 is rejected: the critically damped LSD never returns to delta = 0.
inline const char *validate_damping_restitution(double e_n)
{
  return damping_detail::unless_restitution(
      e_n, "damping restitution: e_n must be finite with 0 < e_n <= 1");
}
inline const char *validate_damping_bshp(double A)
{
  return damping_detail::unless_non_negative(A, "damping bshp: A must be finite and >= 0");
}
inline const char *validate_damping_kk(double eta_n)
{
  return damping_detail::unless_non_negative(eta_n, "damping kk: eta_n must be finite and >= 0");
}
inline const char *validate_damping_tsuji_en(double e_n)
{
  return damping_detail::unless_restitution(
      e_n, "damping tsuji en: e_n must be finite with 0 < e_n <= 1");
}
inline const char *validate_damping_tsuji_eta(double eta_n)
{
  return damping_detail::unless_non_negative(eta_n,
                                             "damping tsuji eta: eta_n must be finite and >= 0");
}

inline const char *validate(const DampingParams &p)
{
  switch (p.model) {
    case DAMPING_NONE: return nullptr;
    case DAMPING_VISCOUS: return validate_damping_viscous(p.eta);
    case DAMPING_MASS_VELOCITY:
      return damping_detail::unless_non_negative(
          p.eta, "damping mass_velocity: gamma_n must be finite and >= 0");
    case DAMPING_RESTITUTION:
      if (!normal_detail::finite(p.alpha) || !(p.alpha >= 0.0))
        return "damping restitution: e_n must be finite with 0 < e_n <= 1";
      return nullptr;
    case DAMPING_BSHP: return validate_damping_bshp(p.A);
    case DAMPING_KK: return validate_damping_kk(p.eta);
    case DAMPING_TSUJI:
      if (p.tsuji_from_e) {
        if (!normal_detail::finite(p.alpha) || !(p.alpha >= 0.0))
          return "damping tsuji en: e_n must be finite with 0 < e_n <= 1";
        return nullptr;
      }
      return validate_damping_tsuji_eta(p.eta);
  }
  return "damping: unknown model";
}

// Combinations rejected (notes: Catalogue corrections): restitution needs hooke
// (no closed form on hertz); bshp, kk, tsuji are defined on the Hertz spring; hls takes no
// damping (it dissipates through its hysteresis).
inline const char *validate_combination(NormalModel normal, DampingModel damping)
{
  if (normal == NORMAL_HLS && damping != DAMPING_NONE)
    return "hls: damping must be none (hls dissipates through its hysteresis)";
  if (damping == DAMPING_RESTITUTION && normal != NORMAL_HOOKE)
    return "damping restitution requires normal hooke";
  if ((damping == DAMPING_BSHP || damping == DAMPING_KK || damping == DAMPING_TSUJI) &&
      !is_hertzian(normal))
    return "damping bshp, kk and tsuji require normal hertz, jkr or dmt";
  return nullptr;
}

// ------------------------------------------------------------------------------------------------
// Dashpot forces F_n^vis, each linear in the approach rate delta_dot.

// viscous: eta_n delta_dot.
GE_INLINE double viscous_damping_force(double eta_n, double delta, double delta_dot)
{
  return delta > 0.0 ? eta_n * delta_dot : 0.0;
}

// restitution (LSD): eta_n delta_dot, eta_n = alpha(e_n) sqrt(mbar k_n) per contact.
GE_INLINE double restitution_eta(double alpha, double mbar, double kn)
{
  return alpha * std::sqrt(mbar * kn);
}
GE_INLINE double restitution_damping_force(double alpha, double mbar, double kn, double delta,
                                           double delta_dot)
{
  return delta > 0.0 ? restitution_eta(alpha, mbar, kn) * delta_dot : 0.0;
}

// bshp: K_HZ Abar delta^{1/2} delta_dot (Poeschel & Schwager's F = K_HZ(delta^{3/2} +
// A delta^{1/2} delta_dot)). [erratum] in [R]: (4/3) Ebar sqrt(Rbar Abar) printed; with A a
// time only (4/3) Ebar sqrt(Rbar) Abar is a force. Equal to kk with eta = K_HZ Abar.
// (the *_from_root forms take sqrt(delta) of an overlap delta > 0 from a caller that has it)
GE_INLINE double bshp_damping_from_root(double K_HZ, double A, double sqrt_delta, double delta_dot)
{
  return (K_HZ * A) * sqrt_delta * delta_dot;
}
GE_INLINE double bshp_damping_force(double K_HZ, double A, double delta, double delta_dot)
{
  return delta > 0.0 ? bshp_damping_from_root(K_HZ, A, std::sqrt(delta), delta_dot) : 0.0;
}

// kk (Kuwabara & Kono): eta_n delta^{1/2} delta_dot.
GE_INLINE double kk_damping_from_root(double eta_n, double sqrt_delta, double delta_dot)
{
  return eta_n * sqrt_delta * delta_dot;
}
GE_INLINE double kk_damping_force(double eta_n, double delta, double delta_dot)
{
  return delta > 0.0 ? kk_damping_from_root(eta_n, std::sqrt(delta), delta_dot) : 0.0;
}

// tsuji (TTI): eta_n delta^{1/4} delta_dot, eta_n = alpha(e) sqrt(mbar K_HZ) per contact (en form)
// or given (eta form). The restitution of the Hertz + delta^{1/4} oscillator depends on alpha only
// (it is independent of the impact speed).
GE_INLINE double tsuji_eta(double alpha, double mbar, double K_HZ)
{
  return alpha * std::sqrt(mbar * K_HZ);
}
GE_INLINE double tsuji_damping_from_root(double eta_n, double sqrt_delta, double delta_dot)
{
  return eta_n * std::sqrt(sqrt_delta) * delta_dot;
}
GE_INLINE double tsuji_damping_force(double eta_n, double delta, double delta_dot)
{
  return delta > 0.0 ? tsuji_damping_from_root(eta_n, std::sqrt(delta), delta_dot) : 0.0;
}

// What a dashpot needs to know of the contact.
struct DampingInput {
  double delta = 0.0;        // total overlap
  double delta_dot = 0.0;    // approach rate (> 0 closing)
  double mbar = 0.0;         // effective mass of the pair
  double kn = 0.0;           // linear stiffness of the normal model (NormalResult::kn)
  double K_HZ = 0.0;         // Hertz constant of the contact (NormalResult::K_HZ)
  double sqrt_delta = -1.0;  // sqrt(delta) where the caller has it (NormalResult::sqrt_overlap),
                             // < 0: the dashpot takes the root itself
};

namespace damping_detail {
GE_INLINE double sqrt_of_delta(const DampingInput &in)
{
  return in.sqrt_delta >= 0.0 ? in.sqrt_delta : std::sqrt(in.delta);
}
}    // namespace damping_detail

// F_n^vis of the model. The combination is assumed valid (validate_combination).
GE_FORCE_INLINE double damping_force(const DampingParams &p, const DampingInput &in)
{
  switch (p.model) {
    case DAMPING_NONE: return 0.0;
    case DAMPING_VISCOUS: return viscous_damping_force(p.eta, in.delta, in.delta_dot);
    case DAMPING_MASS_VELOCITY:
      return viscous_damping_force(p.eta * in.mbar, in.delta, in.delta_dot);
    case DAMPING_RESTITUTION:
      return restitution_damping_force(p.alpha, in.mbar, in.kn, in.delta, in.delta_dot);
    // (the root of delta taken once, shared with the Hertz force: the same numbers)
    case DAMPING_BSHP:
      return in.delta > 0.0
          ? bshp_damping_from_root(in.K_HZ, p.A, damping_detail::sqrt_of_delta(in), in.delta_dot)
          : 0.0;
    case DAMPING_KK:
      return in.delta > 0.0
          ? kk_damping_from_root(p.eta, damping_detail::sqrt_of_delta(in), in.delta_dot)
          : 0.0;
    case DAMPING_TSUJI:
      if (!(in.delta > 0.0)) return 0.0;
      return tsuji_damping_from_root(p.tsuji_from_e ? tsuji_eta(p.alpha, in.mbar, in.K_HZ) : p.eta,
                                     damping_detail::sqrt_of_delta(in), in.delta_dot);
  }
  return 0.0;
}

// ------------------------------------------------------------------------------------------------
// The clamp (notes: Catalogue conventions). F_n^c = max(F_el + F_vis, 0), the compressive part
// of the total normal force: it is the |F_n| of every friction/moment cap (LAMMPS uses |F_tot|
// instead, [differs]).
GE_INLINE double normal_force_compressive(double F_el, double F_vis)
{
  const double f = F_el + F_vis;
  return f > 0.0 ? f : 0.0;
}

// The normal force applied to the particles. With limit_damping (Rangel's "reduction of collision
// time") it never attracts; without it (the default, so that the closed-form LSD results
// hold) the dashpot may pull during the end of a rebound.
GE_INLINE double normal_force_applied(double F_el, double F_vis, bool limit_damping)
{
  return limit_damping ? normal_force_compressive(F_el, F_vis) : F_el + F_vis;
}

}    // namespace ge
