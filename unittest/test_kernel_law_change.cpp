// A contact's state carried from one law to another (src/contact/law_change.hpp): after the
// change the new law gives the old law's elastic tangential force (capped at its own friction
// limit) and its own normal force of a contact pressed to that overlap, keeps them over a step
// that does not move the contact, keeps the Yade relative rotation where both laws have the
// moments, and copies a state of the same kind verbatim. Every family of the kernel scenarios
// (linear, Jaeger, every catalogue tangential model) to every other, on contacts loaded by the
// scenarios' wandering movement.
#include "contact/law_change.hpp"
#include "law_families.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace {

using ge::Vec3;
using namespace ge_device;

ge::ContactBodies at_rest(ge::ContactBodies b)
{
  b.v_i = b.v_j = b.omega_i = b.omega_j = Vec3{0, 0, 0};
  b.dt = 0.0;
  b.advance = false;
  return b;
}

// the same geometry one step later, with nothing moving
ge::ContactBodies still_step(ge::ContactBodies b)
{
  b = at_rest(b);
  b.dt = kDt;
  b.advance = true;
  return b;
}

// the contact force's parts along and across the normal
Vec3 tangential_part(const ge::ContactResult &r, const Vec3 &n)
{
  return ge::project_onto_plane(r.force_i, n);
}
double normal_part(const ge::ContactResult &r, const Vec3 &n) { return ge::dot(r.force_i, n); }

// contact c loaded under `law` for `steps` steps of the scenarios' movement
Contact loaded(const ge::ContactLaw &law, int c, int steps)
{
  Contact contact;
  for (int k = 0; k <= steps; k++) contact.step(law, bodies_at(c, k));
  return contact;
}

// the friction limit of `law` at the geometry of b: mu times the normal force of its caps
double friction_limit(const ge::ContactLaw &law, const ge::ContactBodies &b)
{
  Contact fresh;
  const ge::ContactResult r = fresh.step(law, at_rest(b));
  if (law.tangential == ge::LAW_CATALOGUE) return law.cat.tangential.mu * r.fn_cap;
  const double fn = normal_part(r, b.normal);
  // (the Jaeger law's normal points from p to q: the force on i is -N n there)
  return (law.tangential == ge::LAW_JAEGER ? law.jaeger.mu : law.linear.mu) * std::fabs(fn);
}

constexpr int kContacts = 24;
constexpr int kSteps = 40;

}    // namespace

TEST(LawChange, TheNewLawGivesTheOldTangentialForceCappedAtItsLimit)
{
  int carried = 0, capped = 0, lost = 0;
  for (const Family &from : families()) {
    for (const Family &to : families()) {
      if (ge::state_kind(from.law) == ge::state_kind(to.law)) continue;
      for (int c = 0; c < kContacts; c++) {
        Contact old = loaded(from.law, c, kSteps);
        const ge::ContactBodies b = bodies_at(c, kSteps);
        Contact probe = old;
        const Vec3 F_old = tangential_part(probe.step(from.law, at_rest(b)), b.normal);
        Contact now = old;    // (the record's vertices: the step works on them)
        ge::LawChangeResult lc;
        ge::change_contact_law(from.law, to.law, b, old.state, now.state, now.history, lc);
        const std::string where = from.name + " -> " + to.name + ", contact " + std::to_string(c);
        ASSERT_FALSE(lc.contact_lost) << where;
        const ge::ContactResult r = now.step(to.law, at_rest(b));
        const Vec3 F_new = tangential_part(r, b.normal);
        // the normal force is the new law's of a contact pressed to this overlap
        Contact pressed;
        const ge::ContactResult rp = pressed.step(to.law, at_rest(b));
        // (to round-off: the Jaeger law's tangential force is in its frame's plane)
        EXPECT_NEAR(normal_part(r, b.normal), normal_part(rp, b.normal),
                    1e-13 * std::fabs(normal_part(rp, b.normal)))
            << where;
        const bool from_keeps = !(from.law.tangential == ge::LAW_CATALOGUE &&
                                  ge::tangential_state_size(from.law.cat.tangential.model) == 0);
        const bool to_keeps = !(to.law.tangential == ge::LAW_CATALOGUE &&
                                ge::tangential_state_size(to.law.cat.tangential.model) == 0);
        if (!from_keeps || ge::is_zero(F_old)) {
          EXPECT_FALSE(lc.force_carried) << where;
          EXPECT_EQ(ge::norm(F_new), ge::norm(tangential_part(rp, b.normal))) << where;
          continue;
        }
        if (!to_keeps) {
          EXPECT_TRUE(lc.force_lost) << where;
          lost++;
          continue;
        }
        ASSERT_TRUE(lc.force_carried) << where;
        const double limit = friction_limit(to.law, b);
        if (lc.capped) {
          // on the new law's cone, along the old force (an old force that was on a cone of the
          // same size is capped or not by round-off)
          EXPECT_GE(ge::norm(F_old), limit * (1.0 - 1e-12)) << where;
          EXPECT_NEAR(ge::norm(F_new), limit, 1e-12 * limit) << where;
          EXPECT_NEAR(ge::dot(F_new, F_old), ge::norm(F_new) * ge::norm(F_old),
                      1e-12 * ge::norm(F_new) * ge::norm(F_old))
              << where;
          capped++;
        } else {
          EXPECT_LE(ge::norm(F_old), limit * (1.0 + 1e-12)) << where;
          EXPECT_LE(ge::norm(F_new - F_old), 1e-12 * ge::norm(F_old)) << where;
          carried++;
        }
        // a step that moves nothing keeps the force (the converted state is the law's own)
        Contact next = now;
        const Vec3 F_still = tangential_part(next.step(to.law, still_step(b)), b.normal);
        EXPECT_LE(ge::norm(F_still - F_new), 1e-12 * ge::norm(F_new)) << where;
      }
    }
  }
  // (every branch was taken: the forces of the Hertz laws exceed the Hooke laws' limits)
  EXPECT_GT(carried, 100);
  EXPECT_GT(capped, 100);
  EXPECT_GT(lost, 10);
}

TEST(LawChange, AStateOfTheSameKindIsCopiedVerbatim)
{
  const ge::ContactLaw classic = linear_contact_law(false), refined = linear_contact_law(true);
  ASSERT_EQ(ge::state_kind(classic), ge::state_kind(refined));
  Contact old = loaded(classic, 3, kSteps);
  Contact now;
  ge::LawChangeResult lc;
  ge::change_contact_law(classic, refined, bodies_at(3, kSteps), old.state, now.state,
                         now.history, lc);
  EXPECT_TRUE(lc.same_kind);
  for (int k = 0; k < ge::CONTACT_STATE_MAX; k++) EXPECT_EQ(now.state[k], old.state[k]) << k;
}

// Rolling yade added to, or taken from, a law: the base state stays as it is (bit for bit: the
// spring and the Jaeger vertices), the relative rotation starts at zero or is dropped; between
// two laws with the moments it is kept.
TEST(LawChange, TheYadeMomentsComeAndGoWithoutTouchingTheRest)
{
  ge::ContactLaw plain = jaeger_contact_law();
  ge::ContactLaw with_moments = plain;
  with_moments.cat.yade = catalogue_law(CAT_HERTZ_DD_YADE).yade;
  const int c = 5;
  Contact old = loaded(with_moments, c, kSteps);
  ASSERT_FALSE(ge::is_zero(ge::vec3(old.state + ge::JAEGER_MOMENT_STATE)));
  Contact now = old;
  ge::LawChangeResult lc;
  ge::change_contact_law(with_moments, plain, bodies_at(c, kSteps), old.state, now.state,
                         now.history, lc);
  EXPECT_TRUE(lc.moments_lost);
  for (int k = 0; k < ge::JAEGER_FIXED_SIZE; k++) EXPECT_EQ(now.state[k], old.state[k]) << k;
  EXPECT_EQ(now.history.count, old.history.count);
  for (int k = ge::JAEGER_FIXED_SIZE; k < ge::CONTACT_STATE_MAX; k++) EXPECT_EQ(now.state[k], 0.0);

  // between two families with the moments: the relative rotation goes along
  const ge::ContactLaw dd = catalogue_contact_law(CAT_HERTZ_DD_YADE);
  Contact cat;
  ge::change_contact_law(with_moments, dd, bodies_at(c, kSteps), old.state, cat.state,
                         cat.history, lc);
  EXPECT_TRUE(lc.moments_kept);
  for (int k = 0; k < ge::YADE_MOMENT_STATE_SIZE; k++)
    EXPECT_EQ(cat.state[ge::CS_YADE + k], old.state[ge::JAEGER_MOMENT_STATE + k]) << k;
}

// A force carried into the Jaeger law is the load history of a proportional loading: the one
// vertex that Kuhn's procedure records for a contact pressed and sheared in proportion from the
// origin to (N, T) in one elastic step (its force slope T/N, its displacement slope kappa T/N).
TEST(LawChange, AForceCarriedIntoTheJaegerLawIsAProportionalLoadHistory)
{
  const ge::ContactLaw jaeger = jaeger_contact_law();
  const ge::ContactLaw classic = linear_contact_law(false);
  const int c = 7;
  Contact old = loaded(classic, c, kSteps);
  const ge::ContactBodies b = bodies_at(c, kSteps);
  Contact now;
  ge::LawChangeResult lc;
  ge::change_contact_law(classic, jaeger, b, old.state, now.state, now.history, lc);
  ASSERT_TRUE(lc.force_carried);
  ASSERT_EQ(now.history.count, 1);

  // the same contact made under the Jaeger law by a proportional path from the origin to the
  // converted point (N, T): the normal press and the tangential shift in one elastic step
  Contact proportional;
  proportional.history.count = 0;
  const ge::JaegerMaterial &m = jaeger.jaeger;
  const double delta = 0.5 * b.overlap, C_H = ge::jaeger_hertz_constant(m, 2.0 * b.rbar);
  const double theta[2] = {now.vertex[0].theta1, now.vertex[0].theta2};
  // an elastic segment of force slope theta has displacement slope kappa theta: du = kappa
  // theta delta
  const double du[2] = {m.kappa * theta[0] * delta, m.kappa * theta[1] * delta};
  double T[2] = {0.0, 0.0};
  ge::jaeger_step(m, C_H, delta, du, T, proportional.history);
  ASSERT_EQ(proportional.history.count, 1);
  EXPECT_NEAR(proportional.vertex[0].theta1, theta[0], 1e-12 * m.mu);
  EXPECT_NEAR(proportional.vertex[0].theta2, theta[1], 1e-12 * m.mu);
  EXPECT_NEAR(T[0], now.state[4], 1e-12 * m.mu * proportional.vertex[0].N);
  EXPECT_NEAR(T[1], now.state[5], 1e-12 * m.mu * proportional.vertex[0].N);
}
