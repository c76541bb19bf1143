// Contacts that exist when histories start: spheres created overlapping, so that the first run's
// setup finds a contact with no stored state. Every law records it as pressed normally to its
// current overlap with no tangential history (the Jaeger law's closed-form checks are in
// test_deck_jaeger.cpp); its first step then starts from that state, not from a contact formed
// during the step.
#include "driven_pair.hpp"

#include <cmath>
#include <cstdio>
#include <string>

namespace {

using deck::num;

constexpr double kRadius = 1e-3, kDt = 1e-6;

// the columns the pair tests read: the elastic normal force (0) and the tangential force on
// atom 1 along x (1) of the one contact (deck::DrivenPair: two 1 mm spheres driven step by step)
const char *const kForces = "p1 p7";

}    // namespace

// The Walton-Braun hysteretic spring (`hls kL e_n`): a contact that exists at the first run's
// setup was loaded to its overlap delta_0 on the loading line, so delta_max = delta_0. When its
// first step unloads it to delta_1 = 0.8 delta_0 the force follows the unloading line
// K_U (delta_1 - delta_res), K_U = k_L/e_n^2, delta_res = delta_0 (1 - e_n^2) (Walton & Braun
// 1986) - not the loading line k_L delta_1 of a contact formed during that step.
TEST(DeckFirstContact, HlsContactUnloadsFromTheOverlapItWasMadeWith)
{
  const double kL = 2e5, e = 0.8, overlap0 = 2e-5;
  deck::DrivenPair pair("hls " + num(kL) + " " + num(e) + " tangential sliding 0.3", overlap0,
                        kForces);
  const double overlap1 = 0.8 * overlap0;
  pair.step_to(overlap1, 0.0);    // q moves up: the overlap shrinks
  const double kU = kL / (e * e), residual = overlap0 * (1.0 - e * e);
  const double expected = kU * (overlap1 - residual);
  std::printf("  F after the first step %.12g N, unloading line %.12g N, loading line %.12g N\n",
              pair.sum(0), expected, kL * overlap1);
  EXPECT_NEAR(pair.sum(0), expected, 1e-12 * kL * overlap0);
}

// The same against a plane wall (fix wall/gran/exact with the hls law words).
TEST(DeckFirstContact, WallHlsContactUnloadsFromTheOverlapItWasMadeWith)
{
  const double kL = 2e5, e = 0.8, overlap0 = 2e-5;
  deck::Lammps lmp;
  lmp.command(deck::si_sphere_box("-0.01 0.01 -0.01 0.01 -0.01 0.01"));
  lmp.command("create_atoms 1 single 0 0 " + num(kRadius - overlap0));
  lmp.command(R"(
set             group all diameter 2e-3
set             group all density 2500
pair_style      granular/exact
timestep        1e-6
thermo          1
)");
  const std::string law = "hls " + num(kL) + " " + num(e) + " tangential sliding 0.3";
  lmp.command("pair_coeff * * " + law);
  lmp.command("fix floor all wall/gran/exact " + law + " zplane 0 NULL");
  const double overlap1 = 0.8 * overlap0;
  lmp.command("fix drive all move linear 0 0 " + num((overlap0 - overlap1) / kDt) +
              "\nrun 1\nunfix drive");
  auto *v = static_cast<double *>(
      lammps_extract_fix(lmp.handle(), "floor", LMP_STYLE_GLOBAL, LMP_TYPE_VECTOR, 2, 0));
  const double normal_force = v ? *v : NAN;
  lammps_free(v);
  const double kU = kL / (e * e), residual = overlap0 * (1.0 - e * e);
  const double expected = kU * (overlap1 - residual);
  std::printf("  F after the first step %.12g N, unloading line %.12g N\n", normal_force,
              expected);
  EXPECT_NEAR(normal_force, expected, 1e-12 * kL * overlap0);
}

// The refined law: a contact that exists at the setup is known with its overlap, so its first
// step starts at that overlap (no within-step onset) with no tangential force. A first step that
// presses further by a and moves q's contact point along x by d gives the elastic force k_t d
// over the whole step while it stays inside the cone, and mu k_n delta_1 against the movement
// once it slides.
TEST(DeckFirstContact, RefinedContactStartsAtItsOverlapWithNoTangentialForce)
{
  const double kn = 2e5, kt = 1.6e5, mu = 0.4, overlap0 = 2e-5, a = 4e-6;
  const std::string law =
      "hooke " + num(kn) + " tangential refined " + num(kt) + " " + num(mu);
  for (const double d : {1e-6, 2e-5}) {
    SCOPED_TRACE("d = " + num(d));
    deck::DrivenPair pair(law, overlap0, kForces);
    pair.step_to(overlap0 + a, d);
    const double overlap1 = overlap0 + a;
    const double elastic = kt * d, cap = mu * kn * overlap1;
    // q moves along +x: the force on p (atom 1) follows it
    const double expected = std::fmin(elastic, cap);
    std::printf("  d %g: F_n %.12g N (k_n delta_1 %.12g), F_t on p %.12g N (expected %.12g)\n",
                d, pair.sum(0), kn * overlap1, pair.sum(1), expected);
    EXPECT_NEAR(pair.sum(0), kn * overlap1, 1e-12 * kn * overlap1);
    EXPECT_NEAR(pair.sum(1), expected, 1e-10 * cap);
  }
}
