// The one kernel entry, ge::contact_step (src/contact/contact_law.hpp), for every law family:
// frame invariance (a configuration turned rigidly by a fixed rotation gives the turned forces),
// the wall as the limit of a sphere of infinite radius and mass, and the entry's bookkeeping
// (the pair's force and torques balance the contact's moment of momentum).
#include "law_families.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using ge::Vec3;
using namespace ge_device;

// a rotation matrix from a rotation vector (Rodrigues), and its action
struct Rotation {
  double m[3][3];
  explicit Rotation(const Vec3 &axis_angle)
  {
    const double a = ge::norm(axis_angle);
    const Vec3 k = a > 0.0 ? (1.0 / a) * axis_angle : Vec3{0, 0, 1};    // (no turn: identity)
    const double c = std::cos(a), s = std::sin(a), t = 1.0 - c;
    const double kx = k.x, ky = k.y, kz = k.z;
    const double r[3][3] = {{c + kx * kx * t, kx * ky * t - kz * s, kx * kz * t + ky * s},
                            {ky * kx * t + kz * s, c + ky * ky * t, ky * kz * t - kx * s},
                            {kz * kx * t - ky * s, kz * ky * t + kx * s, c + kz * kz * t}};
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) m[i][j] = r[i][j];
  }
  Vec3 operator()(const Vec3 &v) const
  {
    return {m[0][0] * v.x + m[0][1] * v.y + m[0][2] * v.z,
            m[1][0] * v.x + m[1][1] * v.y + m[1][2] * v.z,
            m[2][0] * v.x + m[2][1] * v.y + m[2][2] * v.z};
  }
};

ge::ContactBodies turned(const ge::ContactBodies &b, const Rotation &Q)
{
  ge::ContactBodies t = b;
  t.normal = Q(b.normal);
  t.v_i = Q(b.v_i);
  t.v_j = Q(b.v_j);
  t.omega_i = Q(b.omega_i);
  t.omega_j = Q(b.omega_j);
  return t;
}

// Differences of two runs of one contact: forces relative to the largest force of the
// reference run, torques and moments relative to R times that force.
struct Differences {
  double scale = 0.0;
  std::vector<double> force, torque;
  void add_force(const Vec3 &reference, const Vec3 &other)
  {
    scale = std::fmax(scale, ge::norm(reference));
    force.push_back(ge::norm(other - reference));
  }
  void add_torque(const Vec3 &reference, const Vec3 &other)
  {
    torque.push_back(ge::norm(other - reference));
  }
  double worst() const
  {
    double w = 0.0;
    for (double d : force) w = std::fmax(w, d / scale);
    for (double d : torque) w = std::fmax(w, d / (kRadius * scale));
    return w;
  }
};

}    // namespace

// The whole configuration turned by a fixed rotation Q: every step's force, torques and moment
// are Q times the unturned ones, and the energies and sliding flags are the same, for every law
// over 200 steps of 64 contacts (the Jaeger frame is set up from global axes, which the turned
// contact sees differently: its force must not depend on them).
TEST(ContactLaw, FrameInvariance)
{
  const Rotation Q(Vec3{0.7, -1.9, 0.4});
  for (const Family &f : families()) {
    double worst = 0.0;
    int flags_differ = 0;
    for (int c = 0; c < 64; c++) {
      Contact a, b;
      Differences d;
      for (int k = 0; k < 200; k++) {
        const ge::ContactBodies bodies = bodies_at(c, k);
        const ge::ContactResult ra = a.step(f.law, bodies);
        const ge::ContactResult rb = b.step(f.law, turned(bodies, Q));
        d.add_force(Q(ra.force_i), rb.force_i);
        d.add_torque(Q(ra.torque_i), rb.torque_i);
        d.add_torque(Q(ra.torque_j), rb.torque_j);
        d.add_torque(Q(ra.moment), rb.moment);
        flags_differ += ra.sliding != rb.sliding;
      }
      worst = std::fmax(worst, d.worst());
    }
    std::printf("  %-20s largest |F(Q x) - Q F(x)| / max|F| %.2e, sliding flags differ %d\n",
                f.name.c_str(), worst, flags_differ);
    EXPECT_LE(worst, 1e-12) << f.name;
    EXPECT_EQ(flags_differ, 0) << f.name;
  }
}

// Body i on a body j at rest that does not turn its normal (a plane wall, or a sphere so large
// that i's movement turns it by nothing): the normal of contact c's first step throughout, i
// moving along it by the change of the overlap and spinning so that its contact point moves by
// the scenario's tangential movement d (-omega_i dt x b_i = d, b_i = -r_i n), on top of its
// rotation of the step.
ge::ContactBodies on_resting_body(std::uint64_t c, std::uint64_t k)
{
  const Movement m = movement(c, k);
  ge::ContactBodies b = bodies_at(c, k);
  b.normal = normal_at(c, 0);
  b.v_i = (-m.approach / kDt) * b.normal;    // x_i - x_j = (distance) n: closer by the approach
  b.v_j = Vec3{0, 0, 0};
  b.omega_i = (1.0 / kDt) * m.rot_i +
              (1.0 / (b.r_i * kDt)) * ge::cross(b.normal, ge::project_onto_plane(m.d, b.normal));
  b.omega_j = Vec3{0, 0, 0};
  return b;
}

// The wall is body j with R_j, m_j -> infinity: a sphere on a sphere of 1e9 times its radius
// and mass (at rest, not spinning) feels the force of the wall (lever arm 0, the effective
// radius and mass of the sphere alone) to O(1e-9) - for the laws without Yade moments, whose
// wall convention (R_j = R_i) is not a limit. Hertz, Jaeger and the dashpots read the effective
// radius and mass; the sphere's torque must not see the partner's lever arm. (Both take the
// movement a real sphere can make on them, on_resting_body: on the large sphere a tangential
// translation of i, or a normal that wanders, would turn the line of centres by the movement
// over 1e6 m, which the Jaeger and refined laws measure from the normals.)
TEST(ContactLaw, WallIsTheLimitOfAnInfiniteSphere)
{
  const double big = 1e9;
  for (const Family &f : families()) {
    if (ge::has_moments(f.law)) continue;
    double worst = 0.0;
    for (int c = 0; c < 32; c++) {
      Contact sphere, wall;
      Differences d;
      for (int k = 0; k < 100; k++) {
        ge::ContactBodies on_sphere = on_resting_body(c, k);
        ge::ContactBodies on_wall = on_sphere;
        on_sphere.radius_j = big * kRadius;
        on_sphere.r_j = big * kRadius - 0.5 * on_sphere.overlap;
        on_sphere.rbar = ge::effective_radius(kRadius, big * kRadius);
        on_sphere.mbar = ge::effective_mass(4e-6, big * 4e-6);
        on_wall.radius_j = kRadius;
        on_wall.r_j = 0.0;
        on_wall.rbar = ge::effective_radius(kRadius, INFINITY);
        on_wall.mbar = ge::effective_mass(4e-6, INFINITY);
        const ge::ContactResult rs = sphere.step(f.law, on_sphere);
        const ge::ContactResult rw = wall.step(f.law, on_wall);
        d.add_force(rw.force_i, rs.force_i);
        d.add_torque(rw.torque_i, rs.torque_i);
      }
      worst = std::fmax(worst, d.worst());
    }
    std::printf("  %-20s largest |F_sphere - F_wall| / max|F| %.2e\n", f.name.c_str(), worst);
    // (the laws that read neither the effective radius nor the effective mass agree exactly)
    EXPECT_LE(worst, 1e-8) << f.name;
  }
}

// The contact's forces on the two bodies have no net moment about any point: with the force on
// j equal and opposite to that on i, the torques about the centres satisfy
// t_i + t_j + (x_i - x_j) x F_i = 0 where the Yade moment (-M on i, +M on j) cancels; checked
// for every law at every step (a wrong lever arm or a torque of the wrong sign fails it).
TEST(ContactLaw, ForcesAndTorquesConserveAngularMomentum)
{
  for (const Family &f : families()) {
    double worst = 0.0;
    for (int c = 0; c < 32; c++) {
      Contact con;
      for (int k = 0; k < 100; k++) {
        const ge::ContactBodies b = bodies_at(c, k);
        const ge::ContactResult r = con.step(f.law, b);
        const Vec3 branch = (2.0 * kRadius - b.overlap) * b.normal;    // x_i - x_j
        const Vec3 total = r.torque_i + r.torque_j + ge::cross(branch, r.force_i);
        const double scale = kRadius * ge::norm(r.force_i);
        if (scale > 0.0) worst = std::fmax(worst, ge::norm(total) / scale);
      }
    }
    std::printf("  %-20s largest |t_i + t_j + l x F| / (R |F|) %.2e\n", f.name.c_str(), worst);
    EXPECT_LE(worst, 1e-14) << f.name;
  }
}

// A sphere carried rigidly by a turning wall (a drum): the same spin as the wall, its contact
// point moving with the wall's material point, the normal turning with both. The Yade moments
// measure the rotation of i relative to j, so they stay zero, and so does the tangential force;
// a wall whose spin the moments ignored would load the rolling spring by the drum's turn.
TEST(ContactLaw, SphereCarriedByATurningWallFeelsNoMoment)
{
  const ge::ContactLaw law = catalogue_contact_law(CAT_HERTZ_DD_YADE);
  const Vec3 spin{0.0, 0.0, 40.0};    // rad/s about z
  const double overlap = 2e-6, dt = 1e-6;
  for (const bool wall_turns : {true, false}) {
    Contact con;
    double largest_moment = 0.0, largest_tangential = 0.0, normal_force = 0.0;
    for (int k = 0; k <= 200; k++) {
      const Rotation turn(Vec3{0.0, 0.0, 40.0 * dt * k});
      ge::ContactBodies b;
      b.normal = turn(Vec3{-1.0, 0.0, 0.0});    // from the drum's wall (at x = R_d) inwards
      b.overlap = overlap;
      b.r_i = kRadius - 0.5 * overlap;
      const Vec3 centre = (0.01 - kRadius + overlap) * turn(Vec3{1.0, 0.0, 0.0});
      b.v_i = ge::cross(spin, centre);
      b.omega_i = spin;
      b.v_j = b.v_i + ge::cross(spin, (-b.r_i) * b.normal);    // the wall at the contact
      b.omega_j = wall_turns ? spin : Vec3{0, 0, 0};
      b.radius_i = b.radius_j = kRadius;
      b.rbar = kRadius;
      b.mbar = 4e-6;
      b.dt = dt;
      b.advance = k > 0;
      const ge::ContactResult r = con.step(law, b);
      normal_force = ge::dot(r.force_i, b.normal);
      largest_moment = std::fmax(largest_moment, ge::norm(r.moment));
      largest_tangential = std::fmax(
          largest_tangential, ge::norm(ge::project_onto_plane(r.force_i, b.normal)));
    }
    std::printf("  wall spin %s: largest |M| %.3e N m, |F_t| %.3e N (F_n %.3e N)\n",
                wall_turns ? "seen" : "ignored", largest_moment, largest_tangential,
                normal_force);
    if (wall_turns) {
      EXPECT_LE(largest_moment, 1e-12 * kRadius * normal_force);
      EXPECT_LE(largest_tangential, 1e-9 * normal_force);
    } else {
      EXPECT_GT(largest_moment, 1e-3 * kRadius * normal_force);
    }
  }
}
