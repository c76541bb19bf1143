// Contact scenarios that drive every src/contact/ entry point the same way on the host and on a
// CUDA device: each contact is one independent problem whose movement in every step comes from an
// integer hash of (contact, step), so the host and the device see the same inputs bit for bit.
// Used by unittest/device/device_kernels.cu (device == host) and by
// bench/device/kernel_throughput.cu (contact-steps per second).
#pragma once

#include "contact/contact_law.hpp"

#include <cstdint>

namespace ge_device {

using ge::Vec3;

// ------------------------------------------------------------------------------------------------
// Inputs: a counter-based generator (splitmix64), exact on host and device.

GE_INLINE std::uint64_t mix(std::uint64_t z)
{
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// uniform in [-1, 1) from (contact, step, slot); 53 bits, exact in double
GE_INLINE double uniform(std::uint64_t contact, std::uint64_t step, std::uint64_t slot)
{
  const std::uint64_t bits = mix(mix(contact * 0x100000001B3ull + step) ^ (slot * 0xD6E8FEB8ull));
  return (double) (bits >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

GE_INLINE Vec3 random_vec3(std::uint64_t c, std::uint64_t step, std::uint64_t slot)
{
  return {uniform(c, step, slot), uniform(c, step, slot + 1), uniform(c, step, slot + 2)};
}

GE_INLINE Vec3 unit(const Vec3 &v) { return (1.0 / ge::norm(v)) * v; }

// The geometry of contact c at the end of step k (k = 0: the state it starts from): a normal that
// wanders, an overlap that breathes around its own mean (always > 0), and a tangential movement
// of the step that reverses now and then, so contacts stick, slip and unload.
struct Movement {
  Vec3 normal;
  double overlap;       // total overlap, length units of radius 1e-3
  double approach;      // overlap increase over the step
  Vec3 d;               // tangential movement of the step (in the end-of-step tangent plane)
  Vec3 mean_rotation;   // rotation of the contact frame over the step
  Vec3 rot_i, rot_j;    // rotations of the two spheres over the step
};

constexpr double kRadius = 1e-3;

GE_INLINE double overlap_at(std::uint64_t c, std::uint64_t k)
{
  const double mean = 1e-5 * (1.5 + uniform(c, 0, 90));
  const double swing = 0.6 * mean * uniform(c, k, 91);
  return mean + swing;
}

GE_INLINE Vec3 normal_at(std::uint64_t c, std::uint64_t k)
{
  const Vec3 base = unit(random_vec3(c, 0, 10));
  // a small turn per step, accumulated in closed form so step k needs no loop
  const Vec3 drift = (1e-3 * (double) k) * unit(random_vec3(c, 0, 20));
  return unit(base + drift);
}

GE_INLINE Movement movement(std::uint64_t c, std::uint64_t k)
{
  Movement m;
  m.normal = normal_at(c, k);
  m.overlap = overlap_at(c, k);
  m.approach = k == 0 ? 0.0 : m.overlap - overlap_at(c, k - 1);
  // the scale of the step's tangential movement: up to a few times what the spring holds
  const double scale = 4e-6 * (uniform(c, k, 30) + (k % 7 < 4 ? 1.2 : -1.2));
  m.d = scale * ge::project_onto_plane(random_vec3(c, 0, 40) + 0.5 * random_vec3(c, k, 50),
                                       m.normal);
  m.rot_i = 2e-3 * random_vec3(c, k, 60);
  m.rot_j = 2e-3 * random_vec3(c, k, 70);
  m.mean_rotation = 0.5 * (m.rot_i + m.rot_j);
  return m;
}

constexpr double kDt = 1e-6;

// ------------------------------------------------------------------------------------------------
// The laws of the scenarios.

GE_INLINE ge::LinearParams linear_law(bool refined)
{
  ge::LinearParams p =
      refined ? ge::refined_params(2e5, 1.6e5, 0.4) : ge::classic_params(2e5, 1.6e5, 0.4);
  p.eta_n = 0.02;
  p.eta_t = 0.01;
  return p;
}

// One catalogue law per tangential model (T1-T10), each on a normal model and dashpot it is
// valid with, and Yade rolling and twisting moments on two of them.
enum CatalogueKind : int {
  CAT_HERTZ_DD_YADE = 0,       // T6 on hertz + tsuji en (exact), rolling and twisting yade
  CAT_HLS_WALTON_BRAUN = 1,    // T10 on the Walton-Braun hysteretic spring
  CAT_HOOKE_MAW = 2,           // T5 with Maw's truncation on hooke + restitution
  CAT_HOOKE_SLIDING = 3,       // T1 on hooke + viscous
  CAT_HOOKE_VISCOUS = 4,       // T2 on hooke
  CAT_HERTZ_VISCOUS_SLIDING = 5,    // T3 on hertz + kk
  CAT_HOOKE_SPRING_SLIDING_YADE = 6,    // T4 on hooke + viscous, rolling yade combined
  CAT_HERTZ_LTH = 7,           // T7 on hertz + bshp
  CAT_HERTZ_ZZY = 8,           // T8 on hertz + tsuji eta
  CAT_HERTZ_TTI = 9,           // T9 on hertz + tsuji en, its dashpot from tsuji's eta_n
  CAT_KINDS = 10
};

GE_INLINE void set_hertz(ge::CatalogueLaw &law)
{
  const ge::HertzParams h = ge::hertz_params(7e10, 0.25, 5e10, 0.3);
  law.normal.model = ge::NORMAL_HERTZ;
  law.normal.Ebar = ge::hertz_effective_modulus(h);
  law.gbar = ge::hertz_effective_shear_modulus(h);
  law.nubar = 0.5 * (h.nu_i + h.nu_j);
}

GE_INLINE void set_hooke(ge::CatalogueLaw &law)
{
  law.normal.model = ge::NORMAL_HOOKE;
  law.normal.hooke.kn = 2e5;
}

GE_INLINE ge::CatalogueLaw catalogue_law(int kind)
{
  using TM = ge::TangentialModel;
  ge::CatalogueLaw law;
  ge::TangentialParams &t = law.tangential;
  t.mu = 0.4;
  switch (kind) {
    case CAT_HERTZ_DD_YADE:
      set_hertz(law);
      law.damping = ge::damping_tsuji_en(0.8, true);
      t.model = TM::DD;
      t.mu = 0.5;
      t.eta_t = 0.01;
      law.yade.rolling.active = law.yade.twisting.active = true;
      law.yade.rolling.use_beta = law.yade.twisting.use_beta = true;
      law.yade.rolling.k = 0.3;
      law.yade.twisting.k = 0.2;
      law.yade.rolling.eta = 0.05;
      law.yade.twisting.eta = 0.08;
      break;
    case CAT_HLS_WALTON_BRAUN:
      law.normal.model = ge::NORMAL_HLS;
      law.normal.hls = ge::hls_variable(2e5, 3.0);
      t.model = TM::WaltonBraun;
      t.mu = 0.3;
      t.kt = 1.5e5;
      break;
    case CAT_HOOKE_MAW:
      set_hooke(law);
      law.damping = ge::damping_restitution(0.7);
      t.model = TM::SpringDashpot;
      t.mu = 0.35;
      t.kt = 1.2e5;
      t.eta_t = 0.005;
      t.maw = true;
      law.limit_damping = true;
      break;
    case CAT_HOOKE_SLIDING:
      set_hooke(law);
      law.damping = ge::damping_viscous(0.02);
      t.model = TM::Sliding;
      break;
    case CAT_HOOKE_VISCOUS:
      set_hooke(law);
      t.model = TM::Viscous;
      t.eta_t = 0.02;
      break;
    case CAT_HERTZ_VISCOUS_SLIDING:
      set_hertz(law);
      law.damping = ge::damping_kk(2e3);
      t.model = TM::ViscousSliding;
      t.eta_t = 0.5;
      break;
    case CAT_HOOKE_SPRING_SLIDING_YADE:
      set_hooke(law);
      law.damping = ge::damping_viscous(0.02);
      t.model = TM::SpringSliding;
      t.kt = 1.6e5;
      law.yade.rolling.active = true;
      law.yade.rolling.k = 2e-3;
      law.yade.rolling.eta = 0.1;
      law.yade.combined = true;
      break;
    case CAT_HERTZ_LTH:
      set_hertz(law);
      law.damping = ge::damping_bshp(1e-6);
      t.model = TM::LTH;
      t.eta_t = 0.2;
      break;
    case CAT_HERTZ_ZZY:
      set_hertz(law);
      law.damping = ge::damping_tsuji_eta(5.0);
      t.model = TM::ZZY;
      t.eta_t = 1e-3;
      break;
    default:    // CAT_HERTZ_TTI
      set_hertz(law);
      law.damping = ge::damping_tsuji_en(0.6, false);
      t.model = TM::TTI;
      law.tti_eta_from_tsuji = true;
      break;
  }
  return law;
}

// nullptr if the law of `kind` is one the parser accepts (host only: the scenarios' own check)
inline const char *catalogue_law_error(int kind)
{
  const ge::CatalogueLaw law = catalogue_law(kind);
  if (const char *e = ge::validate(law.normal)) return e;
  if (const char *e = ge::validate(law.damping)) return e;
  if (const char *e = ge::validate_combination(law.normal.model, law.damping.model)) return e;
  if (const char *e = ge::tangential_params_error(law.tangential)) return e;
  if (law.yade.rolling.active || law.yade.twisting.active) {
    if (const char *e = ge::yade_moment_params_error(law.yade)) return e;
    if (const char *e = ge::yade_moment_tangential_error(law.yade, law.tangential.model)) return e;
  }
  return nullptr;
}

constexpr int kJaegerCapacity = 8;
constexpr int kJaegerRoom = kJaegerCapacity + 1;    // a step pushes before it merges

GE_INLINE ge::JaegerMaterial jaeger_law()
{
  return ge::jaeger_material(7e10, 0.25, 0.4, 0.0, kJaegerCapacity);
}

// ------------------------------------------------------------------------------------------------
// The laws of the scenarios as the one kernel entry takes them (contact_law.hpp).
GE_INLINE ge::ContactLaw linear_contact_law(bool refined)
{
  ge::ContactLaw law;
  law.tangential = refined ? ge::LAW_REFINED : ge::LAW_CLASSIC;
  law.damping = ge::LAW_DAMPING_VISCOUS;
  law.linear = linear_law(refined);
  return law;
}

GE_INLINE ge::ContactLaw jaeger_contact_law()
{
  ge::ContactLaw law;
  law.normal = ge::LAW_HERTZ;
  law.tangential = ge::LAW_JAEGER;
  law.damping = ge::LAW_DAMPING_VISCOUS;    // the viscous terms on top of the Jaeger forces
  law.linear.eta_n = 0.02;
  law.linear.eta_t = 0.01;
  law.jaeger = jaeger_law();
  return law;
}

GE_INLINE ge::ContactLaw catalogue_contact_law(int kind)
{
  ge::ContactLaw law;
  law.tangential = ge::LAW_CATALOGUE;
  law.damping = ge::LAW_DAMPING_CATALOGUE;
  law.cat = catalogue_law(kind);
  law.normal = law.cat.normal.model;
  return law;
}

// x_i - x_j of contact c at the end of step k: along the normal, at the distance of the overlap
GE_INLINE Vec3 centre_offset(std::uint64_t c, std::uint64_t k)
{
  return (2.0 * kRadius - overlap_at(c, k)) * normal_at(c, k);
}

// Two spheres of radius kRadius at step k of contact c, as ge::contact_step takes them, with the
// kinematics of two real spheres (the laws measure the turn of the line of centres from the
// normals, design notes: Jaeger frame): their centres move apart by the change of x_i - x_j over
// the step (half each: the line of centres turns with the normal, its length follows the
// overlap), and the tangential movement d of the step (of j's contact point relative to i's) is
// made by an equal spin s of both, (r_i + r_j) s x n = d/dt, on top of their rotations of the
// step.
GE_INLINE ge::ContactBodies bodies_at(std::uint64_t c, std::uint64_t k)
{
  const Movement m = movement(c, k);
  ge::ContactBodies b;
  b.normal = m.normal;
  b.overlap = m.overlap;
  b.r_i = b.r_j = kRadius - 0.5 * m.overlap;
  const Vec3 chord = k == 0 ? Vec3{0, 0, 0} : centre_offset(c, k) - centre_offset(c, k - 1);
  b.v_i = (0.5 / kDt) * chord;
  b.v_j = -1.0 * b.v_i;
  const Vec3 s = (1.0 / ((b.r_i + b.r_j) * kDt)) * ge::cross(m.normal, m.d);
  b.omega_i = (1.0 / kDt) * m.rot_i + s;
  b.omega_j = (1.0 / kDt) * m.rot_j + s;
  b.radius_i = b.radius_j = kRadius;
  b.rbar = 0.5 * kRadius;
  b.mbar = 2e-6;
  b.dt = kDt;
  b.advance = k > 0;    // step 0 is a run's setup: the contact is pressed to its overlap
  return b;
}

// One step of one contact through the one kernel entry: forces, torques, moment, energies and
// the sliding flag into out[] (CONTACT_OUTPUTS doubles); the state (and, for the Jaeger law,
// the vertices and their count) updated in place.
constexpr int CONTACT_OUTPUTS = 16;
GE_INLINE void law_contact_step(const ge::ContactLaw &law, std::uint64_t c, std::uint64_t k,
                                double *state, ge::JaegerVertex *vertices, int *count, double *out)
{
  const ge::ContactBodies b = bodies_at(c, k);
  ge::JaegerHistory h{vertices, count ? *count : 0, kJaegerRoom};
  ge::ContactResult r;
  ge::contact_step(law, b, state, &h, r);
  if (count) *count = h.count;
  ge::store(r.force_i, out);
  ge::store(r.torque_i, out + 3);
  ge::store(r.torque_j, out + 6);
  ge::store(r.moment, out + 9);
  out[12] = r.energy_n;
  out[13] = r.energy_t;
  out[14] = r.energy_moment;
  out[15] = r.sliding ? 1.0 : 0.0;
}

// Coulomb: two free spheres in contact, pressed and sheared; one step is the contact's set-up
// from the bodies, the warm start from the stored force and `sweeps` projected Gauss-Seidel
// updates on the pair's own totals (the contact alone: the exact stick or slip force); outputs:
// the force, the step's dissipation, the last change, and the force a Newton step on the face
// would give (5-7).
constexpr int COULOMB_OUTPUTS = 8;
GE_INLINE void coulomb_contact_step(std::uint64_t c, std::uint64_t k, int sweeps, double *stored,
                                    double *out)
{
  const Movement m = movement(c, k);
  ge::CoulombBody bi, bj;
  bi.radius = bj.radius = kRadius;
  bi.x = (kRadius - 0.5 * m.overlap) * m.normal;
  bj.x = (-(kRadius - 0.5 * m.overlap)) * m.normal;
  bi.v = (1.0 / kDt) * (-0.5) * m.d;
  bj.v = (1.0 / kDt) * 0.5 * m.d;
  bi.omega = (1.0 / kDt) * m.rot_i;
  bj.omega = (1.0 / kDt) * m.rot_j;
  const double mass = 8.4e-6, inertia = 0.4 * mass * kRadius * kRadius;
  bi.inv_mass = bj.inv_mass = 1.0 / mass;
  bi.inv_inertia = bj.inv_inertia = 1.0 / inertia;
  const double fn = 2e5 * m.overlap, cap = 0.4 * fn;
  ge::CoulombContact con;
  ge::set_coulomb_sphere_contact(con, bi, bj, cap, kDt, ge::CoulombKinematics::Geometric);
  const ge::CoulombCoupling cp =
      ge::coulomb_coupling(con, bi.inv_mass, bi.inv_inertia, bj.inv_mass, bj.inv_inertia, 1.0);
  const ge::CoulombSweepTerms<double> t = ge::coulomb_sweep_terms(con, cp);
  const Vec3 warm = ge::coulomb_warm_start(ge::vec3(stored), con.normal, cap);
  double force[3] = {warm.x, warm.y, warm.z};
  // the pair's totals hold the applied gravity-like load and the warm-started friction
  double total_i[6] = {0, 0, 0, 0, 0, 0}, total_j[6] = {0, 0, 0, 0, 0, 0};
  const Vec3 load = 1e-2 * random_vec3(c, k, 80);
  ge::store(load, total_i);
  ge::coulomb_add_pair(con, total_i, total_j, warm);
  double change2 = 0.0;
  bool stick = true;
  for (int s = 0; s < sweeps; s++)
    change2 = ge::coulomb_sweep_step(t, 1.0, force, total_i, total_j, stick);
  const Vec3 f{force[0], force[1], force[2]};
  const Vec3 rate = ge::coulomb_rate(con, cp, total_i, total_j);
  ge::store(f, stored);
  ge::store(f, out);
  out[3] = ge::coulomb_step_dissipation(con, f, rate, kDt);
  out[4] = change2;
  // the Newton kernels (solver newton) on the contact's face, from its left rate: one
  // preconditioned step along the face and the force it leads to (not kept in the state)
  const ge::CoulombFace face = ge::coulomb_face(con, cp, f, rate);
  const Vec3 r = ge::coulomb_onto_face(face, -1.0 * rate);
  const Vec3 p = ge::coulomb_face_precondition(face, r);
  double change_i[6] = {0, 0, 0, 0, 0, 0}, change_j[6] = {0, 0, 0, 0, 0, 0};
  ge::coulomb_add_pair(con, change_i, change_j, p);
  const Vec3 d_p = ge::coulomb_rate_change(con, cp, change_i, change_j);
  const Vec3 q = ge::coulomb_face_operator(face, d_p, p);
  const double pq = ge::dot(p, q);
  const Vec3 step = pq > 0.0 ? (ge::dot(r, p) / pq) * p : Vec3{0, 0, 0};
  ge::store(ge::coulomb_newton_force(con, face, f, step), out + 5);
}

}    // namespace ge_device
