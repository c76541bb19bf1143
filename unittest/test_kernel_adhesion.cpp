// Kernel tests of the adhesive normal models (contact/adhesion.hpp): JKR (Johnson, Kendall &
// Roberts 1971) and DMT (Derjaguin, Muller & Toporov 1975) against their closed forms (Johnson,
// Contact Mechanics, 1985, section 5.5, with the work of adhesion w = 2 gamma), and the way the
// catalogue law carries them (the friction cap on F_n + 2 F_po, the stored JKR contact).
#include "contact/adhesion.hpp"
#include "contact/catalogue_law.hpp"
#include "contact/contact_law.hpp"
#include "contact/normal_models.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace ge;

namespace {

constexpr double kPi = 3.14159265358979323846;

// glass-like spheres in SI (R = 1 mm, E = 70 GPa, nu = 0.25) and a strong adhesion, so that the
// adhesive terms are far from round-off: gamma = 5 J/m^2 gives delta_po = -25.5 nm
constexpr double kEbar = 70e9 / (2.0 * (1.0 - 0.0625)), kRbar = 0.5e-3, kGamma = 5.0;

// (J1): the overlap of contact radius a
double jkr_overlap_of_radius(double a)
{
  return a * a / kRbar - 2.0 * std::sqrt(kPi * kGamma * a / kEbar);
}

NormalParams jkr_params()
{
  NormalParams p;
  p.model = NORMAL_JKR;
  p.Ebar = kEbar;
  p.gamma = kGamma;
  return p;
}

}    // namespace

// The contact radius solves (J1) to round-off on the stable branch, from the break overlap to
// deep compression, and grows with the overlap.
TEST(AdhesionKernel, JkrContactRadiusSolvesTheOverlapRelation)
{
  const double d_po = jkr_break_overlap(kEbar, kRbar, kGamma);
  double previous = 0.0;
  for (double t = 0.0; t <= 1.0; t += 1.0 / 64) {
    // from delta_po up to 1000 |delta_po| (about 4 um, a Hertz force of ~ 0.1 kN)
    const double delta = d_po + (1000.0 * std::fabs(d_po) - d_po) * t * t * t;
    const double a = jkr_contact_radius(delta, kEbar, kRbar, kGamma);
    // the residual of (J1) relative to its largest term
    const double scale = std::fmax(a * a / kRbar, std::fabs(delta));
    EXPECT_LE(std::fabs(jkr_overlap_of_radius(a) - delta) / scale, 4e-15) << "delta " << delta;
    EXPECT_GT(a, previous);
    previous = a;
  }
}

// Johnson's closed forms: at the making of contact (delta = 0) a^3 = 4 pi gamma Rbar^2/Ebar and
// F = -(8/3) pi gamma Rbar; at the break overlap (J3) the force is the pull-off force
// -3 pi gamma Rbar, the least force of the curve (a^3 = 9 pi gamma Rbar^2/(4 Ebar)).
TEST(AdhesionKernel, JkrForceMatchesJohnsonsClosedForms)
{
  const double a0 = jkr_contact_radius(0.0, kEbar, kRbar, kGamma);
  EXPECT_NEAR(a0 / std::cbrt(4.0 * kPi * kGamma * kRbar * kRbar / kEbar), 1.0, 1e-14);
  const double F0 = jkr_force_of_radius(a0, kEbar, kRbar, kGamma);
  EXPECT_NEAR(F0 / (-8.0 / 3.0 * kPi * kGamma * kRbar), 1.0, 1e-13);

  const double d_po = jkr_break_overlap(kEbar, kRbar, kGamma);
  EXPECT_NEAR(d_po / -std::cbrt(3.0 * kPi * kPi * kGamma * kGamma * kRbar / (16.0 * kEbar * kEbar)),
              1.0, 1e-15);
  const double a_po = jkr_contact_radius(d_po, kEbar, kRbar, kGamma);
  EXPECT_NEAR(a_po / std::cbrt(9.0 * kPi * kGamma * kRbar * kRbar / (4.0 * kEbar)), 1.0, 1e-14);
  const double F_po = jkr_force_of_radius(a_po, kEbar, kRbar, kGamma);
  EXPECT_NEAR(F_po / -jkr_pulloff_force(kGamma, kRbar), 1.0, 1e-13);
  EXPECT_DOUBLE_EQ(jkr_pulloff_force(kGamma, kRbar), 3.0 * kPi * kGamma * kRbar);
  // the least force of the stable branch
  for (double t = 0.0; t <= 1.0; t += 1.0 / 256) {
    const double delta = d_po + 4.0 * std::fabs(d_po) * t;
    const double F =
        jkr_force_of_radius(jkr_contact_radius(delta, kEbar, kRbar, kGamma), kEbar, kRbar, kGamma);
    EXPECT_GE(F, F_po * (1.0 + 1e-13));
  }
}

// The stored energy (J4) is the work of the force: V(0) = 0 and dV/d delta = F (central
// differences, second order), V > 0 on the attractive part.
TEST(AdhesionKernel, JkrEnergyIsTheWorkOfTheForce)
{
  const double a0 = jkr_contact_radius(0.0, kEbar, kRbar, kGamma);
  const double F0 = jkr_force_of_radius(a0, kEbar, kRbar, kGamma);
  const double d_po = jkr_break_overlap(kEbar, kRbar, kGamma);
  EXPECT_LE(std::fabs(jkr_energy_of_radius(a0, kEbar, kRbar, kGamma)),
            1e-12 * std::fabs(F0 * d_po));
  auto V = [](double delta) {
    return jkr_energy_of_radius(jkr_contact_radius(delta, kEbar, kRbar, kGamma), kEbar, kRbar,
                                kGamma);
  };
  for (double delta : {0.9 * d_po, 0.5 * d_po, 0.1 * d_po, -d_po, -10.0 * d_po, -100.0 * d_po}) {
    const double h = 1e-4 * std::fabs(d_po);
    const double dV = (V(delta + h) - V(delta - h)) / (2.0 * h);
    const double F =
        jkr_force_of_radius(jkr_contact_radius(delta, kEbar, kRbar, kGamma), kEbar, kRbar, kGamma);
    EXPECT_NEAR(dV / F, 1.0, 1e-6) << "delta " << delta;
  }
  // parting the surfaces works against the adhesion: the hysteresis energy is V(delta_po) > 0,
  // the integral of |F| over [delta_po, 0] (Simpson, 2000 panels)
  double integral = 0.0;
  const int n = 2000;
  for (int k = 0; k <= n; k++) {
    const double delta = d_po * (1.0 - double(k) / n);
    const double F =
        jkr_force_of_radius(jkr_contact_radius(delta, kEbar, kRbar, kGamma), kEbar, kRbar, kGamma);
    integral += (k == 0 || k == n ? 1.0 : k % 2 ? 4.0 : 2.0) * -F;
  }
  integral *= std::fabs(d_po) / n / 3.0;
  EXPECT_NEAR(jkr_hysteresis_energy(kEbar, kRbar, kGamma) / integral, 1.0, 1e-6);
  EXPECT_NEAR(jkr_hysteresis_energy(kEbar, kRbar, kGamma) / V(d_po), 1.0, 1e-6);
}

// gamma = 0: JKR is the Hertz contact (a^2 = Rbar delta), breaking at delta = 0.
TEST(AdhesionKernel, JkrWithoutAdhesionIsHertz)
{
  EXPECT_EQ(jkr_break_overlap(kEbar, kRbar, 0.0), -0.0);
  for (double delta : {1e-9, 1e-7, 3e-6}) {
    const double a = jkr_contact_radius(delta, kEbar, kRbar, 0.0);
    EXPECT_NEAR(a * a / (kRbar * delta), 1.0, 1e-15);
    const double F = jkr_force_of_radius(a, kEbar, kRbar, 0.0);
    EXPECT_NEAR(F / hertz_force(hertz_constant(kEbar, kRbar), delta), 1.0, 1e-14);
    EXPECT_NEAR(jkr_energy_of_radius(a, kEbar, kRbar, 0.0) / (0.4 * F * delta), 1.0, 1e-14);
  }
  EXPECT_EQ(jkr_contact_radius(0.0, kEbar, kRbar, 0.0), 0.0);
}

// DMT (D1): the Hertz force less 4 pi gamma Rbar while delta > 0, nothing otherwise; its energy
// is the work of that force.
TEST(AdhesionKernel, DmtIsHertzLessTheConstantPull)
{
  NormalParams p;
  p.model = NORMAL_DMT;
  p.Ebar = kEbar;
  p.gamma = kGamma;
  const double F_po = 4.0 * kPi * kGamma * kRbar, K = hertz_constant(kEbar, kRbar);
  EXPECT_DOUBLE_EQ(dmt_pulloff_force(kGamma, kRbar), F_po);
  for (double delta : {1e-12, 1e-9, 2e-7}) {
    const NormalResult r = normal_elastic(p, delta, kRbar, nullptr, true);
    EXPECT_NEAR(r.F_el, K * delta * std::sqrt(delta) - F_po, 1e-15 * F_po);
    EXPECT_EQ(r.F_pulloff, F_po);
    EXPECT_EQ(r.hertz_overlap, delta);
    EXPECT_NEAR(r.energy, 0.4 * K * delta * delta * std::sqrt(delta) - F_po * delta,
                1e-15 * F_po * delta);
  }
  const NormalResult apart = normal_elastic(p, -1e-9, kRbar, nullptr, true);
  EXPECT_EQ(apart.F_el, 0.0);
  EXPECT_EQ(apart.energy, 0.0);
  // the pull-off force is the largest pull: at delta -> 0+
  EXPECT_NEAR(normal_elastic(p, 1e-15, kRbar, nullptr, true).F_el / -F_po, 1.0, 1e-9);
}

// The JKR state: a contact is made when the surfaces touch (delta > 0), not before; once made it
// holds after they part, down to the break overlap, where goes_on_apart() ends it. The dashpots
// and tangential models see the overlap of the Hertz contact of the same radius, a^2/Rbar.
TEST(AdhesionKernel, JkrContactIsMadeAtTouchingAndHoldsToTheBreak)
{
  const NormalParams p = jkr_params();
  const double d_po = jkr_break_overlap(kEbar, kRbar, kGamma);
  double made = 0.0;
  // approaching: no force before touching, the state stays unmade
  NormalResult r = normal_elastic(p, 0.5 * d_po, kRbar, &made, true);
  EXPECT_EQ(r.F_el, 0.0);
  EXPECT_EQ(made, 0.0);
  // touching: made, on the JKR curve
  r = normal_elastic(p, 1e-12, kRbar, &made, true);
  EXPECT_EQ(made, 1.0);
  EXPECT_NEAR(r.F_el / (-8.0 / 3.0 * kPi * kGamma * kRbar), 1.0, 1e-3);
  // parting: still attracting, with the contact radius of (J1)
  r = normal_elastic(p, 0.5 * d_po, kRbar, &made, true);
  const double a = jkr_contact_radius(0.5 * d_po, kEbar, kRbar, kGamma);
  EXPECT_EQ(r.F_el, jkr_force_of_radius(a, kEbar, kRbar, kGamma));
  EXPECT_EQ(r.hertz_overlap, a * a / kRbar);
  EXPECT_EQ(r.K_HZ, hertz_constant(kEbar, kRbar));
  EXPECT_LT(r.F_el, 0.0);
  EXPECT_EQ(made, 1.0);

  ContactLaw law{};
  law.tangential = LAW_CATALOGUE;
  law.normal = LAW_JKR;
  law.cat.normal = p;
  EXPECT_TRUE(holds_apart(law));
  EXPECT_TRUE(goes_on_apart(law, 0.999 * d_po, kRbar, 1.0));
  EXPECT_FALSE(goes_on_apart(law, 1.001 * d_po, kRbar, 1.0));
  EXPECT_FALSE(goes_on_apart(law, 0.5 * d_po, kRbar, 0.0));    // never made: no contact
  law.cat.normal.model = NORMAL_DMT;
  EXPECT_FALSE(holds_apart(law));
  EXPECT_FALSE(goes_on_apart(law, 0.5 * d_po, kRbar, 1.0));
}

// The friction of an adhesive contact is capped by mu (F_n + 2 F_po) (Thornton & Yin 1991):
// F_n^c of the catalogue law, with and without a dashpot, and with a DMT contact.
TEST(AdhesionKernel, FrictionCapCountsTwiceThePulloffForce)
{
  CatalogueLaw law;
  law.normal = jkr_params();
  double state[CATALOGUE_STATE_SIZE] = {};
  const double delta = 1e-9;
  CatalogueNormalForce nf = catalogue_normal_force(law, delta, 0.0, kRbar, 1e-5, state, true);
  const double F_po = jkr_pulloff_force(kGamma, kRbar);
  EXPECT_EQ(nf.elastic.F_pulloff, F_po);
  EXPECT_DOUBLE_EQ(nf.F_cap, nf.elastic.F_el + 2.0 * F_po);
  EXPECT_EQ(nf.F_applied, nf.elastic.F_el);
  EXPECT_EQ(nf.energy, nf.elastic.energy);
  EXPECT_EQ(state[CS_NORMAL], 1.0);
  // a viscous dashpot acts on the JKR contact, also with the surfaces apart
  law.damping = damping_viscous(2.0);
  const double d_po = jkr_break_overlap(kEbar, kRbar, kGamma);
  nf = catalogue_normal_force(law, 0.5 * d_po, -3e-3, kRbar, 1e-5, state, true);
  EXPECT_EQ(nf.F_applied, nf.elastic.F_el + 2.0 * -3e-3);
  EXPECT_DOUBLE_EQ(nf.F_cap, nf.elastic.F_el - 6e-3 + 2.0 * F_po);

  law.normal.model = NORMAL_DMT;
  law.damping = damping_none();
  nf = catalogue_normal_force(law, delta, 0.0, kRbar, 1e-5, state, true);
  EXPECT_DOUBLE_EQ(nf.F_cap, hertz_force(hertz_constant(kEbar, kRbar), delta) + 4.0 * kPi * kGamma * kRbar);
}
