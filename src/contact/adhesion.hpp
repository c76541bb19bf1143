// Adhesive normal models of the catalogue: JKR (Johnson, Kendall & Roberts, Proc. R. Soc. Lond.
// A 324 (1971) 301) and DMT (Derjaguin, Muller & Toporov, J. Colloid Interface Sci. 53 (1975)
// 314), for two elastic spheres of effective modulus Ebar and effective radius Rbar
// (normal_models.hpp) and surface energy gamma (energy per area of ONE surface, as LAMMPS'
// `pair granular jkr|dmt` reads its "cohesion": the work of adhesion is w = 2 gamma). The
// derivation of the forms below: doc/design_notes.md, "Adhesion".
//
// JKR (Johnson, Contact Mechanics, 1985, eqs. 5.3-5.6 with w = 2 gamma): the contact radius a
// and the total overlap delta are tied by
//     delta = a^2/Rbar - 2 sqrt(pi gamma a / Ebar),                                   (J1)
// and the force (repulsive positive) is
//     F = 4 Ebar a^3/(3 Rbar) - 4 sqrt(pi gamma Ebar) a^{3/2}.                        (J2)
// A contact forms when the surfaces touch (delta = 0, where a = a_0, a_0^{3/2} = 2 Rbar g,
// g = sqrt(pi gamma/Ebar), and F = -(8/3) pi gamma Rbar) and holds while the spheres part,
// delta < 0, down to the overlap of the pull-off force, the least force of (J2),
//     F_po = 3 pi gamma Rbar   at   delta_po = -(3 pi^2 gamma^2 Rbar/(16 Ebar^2))^{1/3}  (J3)
// where it breaks (the force jumps to 0): LAMMPS' criterion, so that ported decks keep their
// numbers. The energy the bond stores from its making at delta = 0 (eq. J4 below) is released
// there: a cycle of making and breaking dissipates V(delta_po), the JKR hysteresis.
//
// DMT: the Hertz force less a constant pull, for delta > 0 only (no hysteresis: contact is made
// and broken at delta = 0):
//     F = (4/3) Ebar sqrt(Rbar) delta^{3/2} - F_po,  F_po = 4 pi gamma Rbar.             (D1)
//
// Both models hand the dashpots and the Hertz-based tangential models the overlap of the Hertz
// contact with the same contact radius, delta_a = a^2/Rbar (JKR: a from (J1); DMT: delta): their
// stiffnesses, written with the contact radius (Mindlin's 8 G a, the dashpots' sqrt(Rbar delta)
// = a), then follow the adhesive contact's own radius, as in LAMMPS.
//
// Units: any consistent set. Header-only, no allocation, no virtual calls, no LAMMPS: callable
// from host and device code.
#pragma once

#include "contact/vec3.hpp"

#include <cmath>

namespace ge {

namespace adhesion_detail {
constexpr double kPi = 3.14159265358979323846;
GE_INLINE bool finite(double x) { return x - x == 0.0; }
}    // namespace adhesion_detail

// The surface energy must be finite and >= 0 (0: the model is Hertz's). nullptr if valid.
inline const char *validate_surface_energy(double gamma)
{
  if (!adhesion_detail::finite(gamma) || !(gamma >= 0.0))
    return "jkr/dmt: gamma (surface energy) must be finite and >= 0";
  return nullptr;
}

// ------------------------------------------------------------------------------------------------
// JKR

// Pull-off force 3 pi gamma Rbar (J3): the largest pull a JKR contact resists.
GE_INLINE double jkr_pulloff_force(double gamma, double Rbar)
{
  return 3.0 * adhesion_detail::kPi * gamma * Rbar;
}

// The overlap at which a made JKR contact breaks, delta_po < 0 (J3); 0 for gamma = 0.
GE_INLINE double jkr_break_overlap(double Ebar, double Rbar, double gamma)
{
  const double pi = adhesion_detail::kPi;
  return -std::cbrt(3.0 * pi * pi * gamma * gamma * Rbar / (16.0 * Ebar * Ebar));
}

// The JKR forms below, written with g = sqrt(pi gamma/Ebar), the one quantity they share: a
// caller that needs several of them for one contact computes g once (jkr_g) and calls the
// adhesion_detail forms; the public ones take (Ebar, Rbar, gamma).
GE_INLINE double jkr_g(double Ebar, double gamma)
{
  return std::sqrt(adhesion_detail::kPi * gamma / Ebar);
}

namespace adhesion_detail {

// Contact radius of (J1) on its stable branch (da/d delta > 0) for delta >= delta_po. With
// s = sqrt(a), (J1) is the quartic f(s) = s^4 - c s - d = 0, c = 2 Rbar g, d = Rbar delta. f is
// convex for s > 0, and its root on the stable branch is at most
// s_0 = max((2c)^{1/3}, (2 max(d, 0))^{1/4}) (if s^4 = c s + d, then s^4 <= 2 c s or s^4 <= 2 d);
// Newton's method started there therefore falls monotonically onto the root, and stops when a
// step no longer lowers s: the root to the last bit, in about six steps.
GE_INLINE double jkr_contact_radius(double delta, double Rbar, double g)
{
  const double c = 2.0 * Rbar * g, d = Rbar * delta;
  double s = std::fmax(std::cbrt(2.0 * c), std::sqrt(std::sqrt(2.0 * std::fmax(d, 0.0))));
  if (!(s > 0.0)) return 0.0;    // gamma = 0 and delta <= 0: no contact
  for (int k = 0; k < 64; k++) {
    const double s2 = s * s;
    const double f = s2 * s2 - c * s - d;
    const double next = s - f / (4.0 * s2 * s - c);
    if (!(next < s)) break;
    s = next;
  }
  return s * s;
}

// The force (J2) at contact radius a.
GE_INLINE double jkr_force_of_radius(double a, double Ebar, double Rbar, double g)
{
  return 4.0 * Ebar * (a * a * a / (3.0 * Rbar) - g * a * std::sqrt(a));
}

// The energy stored in a JKR contact at contact radius a since it was made at delta = 0:
// V = int_0^delta F d delta' = U(a) - U(a_0) with (from (J1) and (J2))
//     U(a) = Ebar [ (8/15) a^5/Rbar^2 - (8/3) g a^{7/2}/Rbar + 2 g^2 a^2 ],           (J4)
// a_0^{3/2} = 2 Rbar g. V > 0 also for delta < 0: parting the surfaces works against the
// adhesion.
GE_INLINE double jkr_energy_U(double a, double Ebar, double Rbar, double g)
{
  const double a2 = a * a;
  return Ebar * ((8.0 / 15.0) * a2 * a2 * a / (Rbar * Rbar) -
                 (8.0 / 3.0) * g * a2 * a * std::sqrt(a) / Rbar + 2.0 * g * g * a2);
}
GE_INLINE double jkr_energy_of_radius(double a, double Ebar, double Rbar, double g)
{
  const double a0 = std::cbrt(4.0 * Rbar * Rbar * g * g);
  return jkr_energy_U(a, Ebar, Rbar, g) - jkr_energy_U(a0, Ebar, Rbar, g);
}

}    // namespace adhesion_detail

GE_INLINE double jkr_contact_radius(double delta, double Ebar, double Rbar, double gamma)
{
  return adhesion_detail::jkr_contact_radius(delta, Rbar, jkr_g(Ebar, gamma));
}
GE_INLINE double jkr_force_of_radius(double a, double Ebar, double Rbar, double gamma)
{
  return adhesion_detail::jkr_force_of_radius(a, Ebar, Rbar, jkr_g(Ebar, gamma));
}
GE_INLINE double jkr_energy_of_radius(double a, double Ebar, double Rbar, double gamma)
{
  return adhesion_detail::jkr_energy_of_radius(a, Ebar, Rbar, jkr_g(Ebar, gamma));
}

// The energy a JKR contact holds when it breaks, V(delta_po): what a cycle of making and breaking
// dissipates (the contact radius there is a_po, a_po^3 = 9 pi gamma Rbar^2/(4 Ebar)).
GE_INLINE double jkr_hysteresis_energy(double Ebar, double Rbar, double gamma)
{
  const double a_po =
      std::cbrt(9.0 * adhesion_detail::kPi * gamma * Rbar * Rbar / (4.0 * Ebar));
  return jkr_energy_of_radius(a_po, Ebar, Rbar, gamma);
}

// ------------------------------------------------------------------------------------------------
// DMT

// Pull-off force 4 pi gamma Rbar (D1).
GE_INLINE double dmt_pulloff_force(double gamma, double Rbar)
{
  return 4.0 * adhesion_detail::kPi * gamma * Rbar;
}

}    // namespace ge
