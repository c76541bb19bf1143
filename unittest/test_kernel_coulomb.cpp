// Kernel tests of the exact Coulomb friction as a constraint (contact/coulomb_constraint.hpp;
// Sakamaki et al. 2021, "3D" below; the project's reading is in doc/design_notes.md, cited as
// "notes: <section>"): the tangential reduced mass (3D eq. 24), the 1D rule table and the paper's
// Lagrange-parameter construction (notes: Coulomb projection), the dead-beat property, frame
// invariance and rigid-body objectivity (notes: Coulomb kinematics), the warm start, and small
// velocity-Verlet simulations laid out as in LAMMPS (half-kick, drift, forces at the new positions
// with the half-step velocities, half-kick) for the cases of notes: Coulomb checks, cited as
// "check (x)": the incline (a1, a2), slide to roll (d), spin + roll (e1), wrong-mass chatter (e2)
// and the tetrahedron (c2, projected Gauss-Seidel sweeps of notes: Coulomb sweeps). Every expected
// value is an analytic solution, an invariance or a balance law, never a recorded output of the
// kernel.
#include "contact/coulomb_constraint.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <utility>
#include <vector>

using namespace ge;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kG = 9.81;
const Vec3 kZero{0, 0, 0};
const Vec3 kUp{0, 0, 1};
const double kWallTotal[6] = {0, 0, 0, 0, 0, 0};

// Parameters of notes: Coulomb checks: R = 0.01 m, density 1000 kg/m^3, I = 0.4 m R^2, linear
// normal spring k_n = 1e4 N/m with damping ratio 0.3 (eq. 7 truncation), tau = 2e-5 s.
struct Material {
  double R = 0.01, density = 1000.0;
  double m = 4.0 / 3.0 * kPi * R * R * R * density;
  double I = 0.4 * m * R * R;
  double kn = 1e4, zeta = 0.3, dt = 2e-5;
};
const Material mat;

Vec3 random_vec(std::mt19937 &rng, double scale)
{
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  return Vec3{scale * u(rng), scale * u(rng), scale * u(rng)};
}

Vec3 random_unit(std::mt19937 &rng)
{
  for (;;) {
    const Vec3 v = random_vec(rng, 1.0);
    const double s = norm(v);
    if (s > 0.1 && s <= 1.0) return (1.0 / s) * v;
  }
}

// ------------------------------------------------------------------------------------------------
// One sphere on the immovable floor z = 0 (normal +z), gravity g (tilted for the incline, as in
// notes: Coulomb checks). One coulomb_update per step on totals that hold every
// non-friction force: with a single contact this is the exact solve.
struct WallSphere {
  double mu = 0.6;
  Vec3 g{0, 0, -kG};
  bool rotation = true;
  CoulombKinematics kin = CoulombKinematics::Geometric;
  double zeta = mat.zeta;
  double mass_factor = 1.0;    // the trial force uses mass_factor * m_t (check (e2))

  Vec3 x{0, 0, mat.R}, v{0, 0, 0}, w{0, 0, 0};
  double total[6] = {0, 0, 0, 0, 0, 0};

  // the last force evaluation
  bool contact = false, stick = false;
  double fn = 0.0, overlap = 0.0, tau_last = 0.0;
  Vec3 friction{0, 0, 0}, vt{0, 0, 0}, rate_after{0, 0, 0};
  CoulombContact c;
  double dissipated = 0.0;    // sum of coulomb_step_dissipation
  long steps = 0;

  double inv_inertia() const { return rotation ? 1.0 / mat.I : 0.0; }

  CoulombBody body() const
  {
    CoulombBody b;
    b.x = x;
    b.v = v;
    b.omega = w;
    b.radius = mat.R;
    b.inv_mass = 1.0 / mat.m;
    b.inv_inertia = inv_inertia();
    return b;
  }

  // start at rest on the floor at the equilibrium overlap of the normal load
  void place_at_equilibrium()
  {
    x = Vec3{0, 0, mat.R - equilibrium_overlap()};
  }
  double equilibrium_overlap() const { return mat.m * (-g.z) / mat.kn; }
  double rho() const { return mat.R - 0.5 * equilibrium_overlap(); }

  void forces(double tau)
  {
    for (double &t : total) t = 0.0;
    store(mat.m * g, total);
    overlap = mat.R - x.z;
    contact = overlap > 0.0;
    friction = kZero;
    stick = false;
    fn = 0.0;
    vt = kZero;
    rate_after = kZero;
    tau_last = tau;
    if (!contact) return;
    fn = std::max(mat.kn * overlap - 2.0 * zeta * std::sqrt(mat.kn * mat.m) * dot(kUp, v), 0.0);
    total[2] += fn;
    c = coulomb_wall_contact(body(), kUp, overlap, kZero, mu * fn, tau, kin);
    vt = c.v_t;
    const Vec3 s = coulomb_rate(c, total, 1.0 / mat.m, inv_inertia(), kWallTotal, 0.0, 0.0, 1.0);
    CoulombContact trial = c;
    trial.inv_mt = c.inv_mt / mass_factor;
    friction = coulomb_update(trial, kZero, s, 1.0, stick);
    coulomb_add_to(total, c.r_i, friction);
    rate_after = coulomb_rate(c, total, 1.0 / mat.m, inv_inertia(), kWallTotal, 0.0, 0.0, 1.0);
    dissipated += coulomb_step_dissipation(c, friction, rate_after, tau);
  }

  void kick(double h)
  {
    v = v + (h / mat.m) * vec3(total);
    if (rotation) w = w + (h / mat.I) * vec3(total + 3);
  }

  // LAMMPS' setup: forces at the initial state, tau = half step (the first half-kick)
  void setup() { forces(0.5 * mat.dt); }

  void step()
  {
    kick(0.5 * mat.dt);
    x = x + mat.dt * v;
    forces(mat.dt);
    kick(0.5 * mat.dt);
    ++steps;
  }

  double time() const { return steps * mat.dt; }
  double kinetic() const { return 0.5 * mat.m * dot(v, v) + 0.5 * mat.I * dot(w, w); }
};

// gravity of an incline tilted by alpha about y, downhill along +x
Vec3 incline_gravity(double alpha) { return Vec3{kG * std::sin(alpha), 0.0, -kG * std::cos(alpha)}; }

// ------------------------------------------------------------------------------------------------
// Several spheres (some fixed) on the floor z = 0 with the projected Gauss-Seidel sweeps of
// notes: Coulomb sweeps: warm start, sweeps until max |dF|/cap <= tol.
struct Packing {
  struct Particle {
    Vec3 x{0, 0, 0}, v{0, 0, 0}, w{0, 0, 0};
    double R = mat.R, m = mat.m, I = mat.I;
    bool fixed = false;
  };
  struct Contact {
    int i = 0, j = -1;    // j < 0: the floor
    CoulombContact c;
    double fn = 0.0;
    Vec3 F{0, 0, 0};
    bool stick = false;
  };

  double mu = 0.6;
  Vec3 g{0, 0, -kG};
  CoulombKinematics kin = CoulombKinematics::Geometric;
  bool warm = true;
  int max_sweeps = 200;
  double tol = 1e-12;

  std::vector<Particle> p;
  std::vector<double> total;
  std::vector<Contact> contacts;
  std::map<std::pair<int, int>, Vec3> stored;
  int last_sweeps = 0;
  double last_res = 0.0;
  long steps = 0;

  void add(const Vec3 &x, bool fixed = false)
  {
    Particle q;
    q.x = x;
    q.fixed = fixed;
    p.push_back(q);
  }
  double im(int k) const { return (k < 0 || p[k].fixed) ? 0.0 : 1.0 / p[k].m; }
  double iI(int k) const { return (k < 0 || p[k].fixed) ? 0.0 : 1.0 / p[k].I; }
  CoulombBody body(int k) const
  {
    CoulombBody b;
    b.x = p[k].x;
    b.v = p[k].v;
    b.omega = p[k].w;
    b.radius = p[k].R;
    b.inv_mass = im(k);
    b.inv_inertia = iI(k);
    return b;
  }
  double *tot(int k) { return &total[6 * k]; }
  const double *tot(int k) const { return k < 0 ? kWallTotal : &total[6 * k]; }

  Vec3 rate(const Contact &c) const
  {
    return coulomb_rate(c.c, tot(c.i), im(c.i), iI(c.i), tot(c.j), im(c.j), iI(c.j), 1.0);
  }
  void apply(const Contact &c, const Vec3 &dF)
  {
    coulomb_add_to(tot(c.i), c.c.r_i, dF);
    if (c.j >= 0) coulomb_add_to(tot(c.j), c.c.r_j, -dF);
  }

  // normal forces and contact geometry at the current positions (velocities: half step)
  void normal_forces(double tau)
  {
    total.assign(6 * p.size(), 0.0);
    contacts.clear();
    const double sqk = std::sqrt(mat.kn);
    for (int k = 0; k < (int) p.size(); ++k) {
      if (p[k].fixed) continue;
      store(p[k].m * g, tot(k));
      const double overlap = p[k].R - p[k].x.z;
      if (overlap <= 0.0) continue;
      Contact ct;
      ct.i = k;
      ct.j = -1;
      ct.fn = std::max(mat.kn * overlap - 2.0 * mat.zeta * sqk * std::sqrt(p[k].m) * p[k].v.z, 0.0);
      tot(k)[2] += ct.fn;
      ct.c = coulomb_wall_contact(body(k), kUp, overlap, kZero, mu * ct.fn, tau, kin);
      contacts.push_back(ct);
    }
    for (int i = 0; i < (int) p.size(); ++i)
      for (int j = i + 1; j < (int) p.size(); ++j) {
        if (p[i].fixed && p[j].fixed) continue;
        const Vec3 dx = p[i].x - p[j].x;
        const double d = norm(dx);
        const double overlap = p[i].R + p[j].R - d;
        if (overlap <= 0.0) continue;
        const Vec3 n = (1.0 / d) * dx;
        const double meff = 1.0 / (im(i) + im(j));
        Contact ct;
        ct.i = i;
        ct.j = j;
        ct.fn = std::max(mat.kn * overlap -
                             2.0 * mat.zeta * sqk * std::sqrt(meff) * dot(n, p[i].v - p[j].v),
                         0.0);
        coulomb_add_to(tot(i), kZero, ct.fn * n);
        coulomb_add_to(tot(j), kZero, -ct.fn * n);
        ct.c = coulomb_sphere_contact(body(i), body(j), mu * ct.fn, tau, kin);
        contacts.push_back(ct);
      }
  }

  // projected Gauss-Seidel; returns the residual max |dF|/cap of each sweep
  std::vector<double> solve(bool warm_start, int sweeps, double tolerance)
  {
    std::vector<double> history;
    for (auto &ct : contacts) {
      ct.F = kZero;
      if (warm_start) {
        const auto it = stored.find({ct.i, ct.j});
        if (it != stored.end()) ct.F = coulomb_warm_start(it->second, ct.c.normal, ct.c.cap);
      }
      apply(ct, ct.F);
    }
    last_sweeps = 0;
    for (int k = 0; k < sweeps; ++k) {
      double res = 0.0;
      for (auto &ct : contacts) {
        const Vec3 Fn = coulomb_update(ct.c, ct.F, rate(ct), 1.0, ct.stick);
        const Vec3 dF = Fn - ct.F;
        apply(ct, dF);
        ct.F = Fn;
        if (ct.c.cap > 0.0) res = std::max(res, norm(dF) / ct.c.cap);
      }
      history.push_back(res);
      last_sweeps = k + 1;
      last_res = res;
      if (res <= tolerance) break;
    }
    stored.clear();
    for (const auto &ct : contacts) stored[{ct.i, ct.j}] = ct.F;
    return history;
  }

  void forces(double tau)
  {
    normal_forces(tau);
    solve(warm, max_sweeps, tol);
  }

  void kick(double h)
  {
    for (int k = 0; k < (int) p.size(); ++k) {
      if (p[k].fixed) continue;
      p[k].v = p[k].v + (h / p[k].m) * vec3(tot(k));
      p[k].w = p[k].w + (h / p[k].I) * vec3(tot(k) + 3);
    }
  }
  void setup() { forces(0.5 * mat.dt); }
  void step()
  {
    kick(0.5 * mat.dt);
    for (auto &q : p)
      if (!q.fixed) q.x = q.x + mat.dt * q.v;
    forces(mat.dt);
    kick(0.5 * mat.dt);
    ++steps;
  }
  double kinetic() const
  {
    double e = 0.0;
    for (const auto &q : p)
      if (!q.fixed) e += 0.5 * q.m * dot(q.v, q.v) + 0.5 * q.I * dot(q.w, q.w);
    return e;
  }
  const Contact *find(int i, int j) const
  {
    for (const auto &ct : contacts)
      if (ct.i == i && ct.j == j) return &ct;
    return nullptr;
  }
};

// The tetrahedron of check (c2): three base spheres on the floor, centres on a triangle of side
// 2R(1+gap), a fourth on top at the contact height; released at rest.
Packing tetrahedron(double mu, double gap)
{
  Packing pk;
  pk.mu = mu;
  const double R = mat.R, side = 2.0 * R * (1.0 + gap), rc = side / std::sqrt(3.0);
  for (int k = 0; k < 3; ++k) {
    const double a = 2.0 * kPi * k / 3.0;
    pk.add(Vec3{rc * std::cos(a), rc * std::sin(a), R});
  }
  pk.add(Vec3{0.0, 0.0, R + std::sqrt(4.0 * R * R - rc * rc)});
  return pk;
}

// ================================================================================================
// 1. Tangential reduced mass (3D eq. 24; notes: Coulomb kinematics)

TEST(CoulombKernel, ReducedMassClosedForms)
{
  const double m = mat.m, R = mat.R;
  CoulombBody sphere;
  sphere.radius = R;
  sphere.inv_mass = 1.0 / m;
  sphere.inv_inertia = 1.0 / (0.4 * m * R * R);
  const CoulombBody wall;    // immovable: 1/m = 1/I = 0

  // solid sphere on a wall, rho = R: m_t = (2/7) m
  EXPECT_NEAR(coulomb_inverse_tangential_mass(sphere, wall, R, 0.0), 3.5 / m, 1e-14 * 3.5 / m);
  // two equal spheres: 1/m_t = (7/2)(2/m)
  EXPECT_NEAR(coulomb_inverse_tangential_mass(sphere, sphere, R, R), 3.5 * 2.0 / m,
              1e-14 * 7.0 / m);
  // rotation off: the translational part only
  CoulombBody norot = sphere;
  norot.inv_inertia = 0.0;
  CoulombBody heavy = norot;
  heavy.inv_mass = 1.0 / (3.0 * m);
  EXPECT_NEAR(coulomb_inverse_tangential_mass(norot, heavy, R, 2.0 * R), 1.0 / m + 1.0 / (3.0 * m),
              1e-15 / m);
  // a fixed partner contributes nothing, whatever its branch length
  EXPECT_EQ(coulomb_inverse_tangential_mass(sphere, wall, R, 123.0),
            coulomb_inverse_tangential_mass(sphere, wall, R, 0.0));
  // 2D discs (I = m R^2 / 2): the factor is 3
  CoulombBody disc = sphere;
  disc.inv_inertia = 1.0 / (0.5 * m * R * R);
  EXPECT_NEAR(coulomb_inverse_tangential_mass(disc, wall, R, 0.0), 3.0 / m, 1e-14 * 3.0 / m);

  // the contact builders use the soft branch length rho = R - overlap/2
  const double overlap = 4e-5;
  sphere.x = Vec3{0, 0, R - overlap};
  const CoulombContact cw = coulomb_wall_contact(sphere, kUp, overlap, kZero, 1.0, mat.dt,
                                                 CoulombKinematics::Geometric);
  const double rho = R - 0.5 * overlap;
  EXPECT_NEAR(cw.inv_mt, 1.0 / m + rho * rho / (0.4 * m * R * R), 1e-14 / m);
  EXPECT_NEAR(norm(cw.r_i), rho, 1e-15 * R);
  EXPECT_NEAR(dot(cw.r_i, kUp), -rho, 1e-15 * R);    // from the centre down to P

  CoulombBody a = sphere, b = sphere;
  b.radius = 2.0 * R;
  b.inv_mass = 1.0 / (8.0 * m);
  b.inv_inertia = 1.0 / (0.4 * 8.0 * m * 4.0 * R * R);
  a.x = Vec3{0.3 * R, -0.2 * R, 0.1 * R};
  const Vec3 dir = (1.0 / std::sqrt(14.0)) * Vec3{1, 2, 3};
  b.x = a.x - (3.0 * R - overlap) * dir;
  const CoulombContact cs = coulomb_sphere_contact(a, b, 1.0, mat.dt, CoulombKinematics::Geometric);
  const double rho_a = R - 0.5 * overlap, rho_b = 2.0 * R - 0.5 * overlap;
  EXPECT_NEAR(cs.inv_mt,
              a.inv_mass + b.inv_mass + rho_a * rho_a * a.inv_inertia + rho_b * rho_b * b.inv_inertia,
              1e-13 / m);
  // both branch vectors end at the same point P (objectivity)
  const Vec3 P_a = a.x + cs.r_i, P_b = b.x + cs.r_j;
  EXPECT_LE(norm(P_a - P_b), 1e-15);
  EXPECT_NEAR(dot(cs.normal, dir), 1.0, 1e-15);    // n from j to i
}

// Two touching spheres of random sizes, masses, positions and motion; j is immovable on every
// 5th trial, i does not turn on every 7th.
void random_touching_pair(std::mt19937 &rng, int trial, CoulombBody &i, CoulombBody &j)
{
  auto uniform = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
  i.radius = mat.R * uniform(0.5, 1.5);
  j.radius = mat.R * uniform(0.5, 1.5);
  i.inv_mass = 1.0 / (mat.m * uniform(0.2, 2.2));
  j.inv_mass = trial % 5 == 0 ? 0.0 : 1.0 / (mat.m * uniform(0.2, 2.2));
  i.inv_inertia = trial % 7 == 0 ? 0.0 : i.inv_mass / (0.4 * i.radius * i.radius);
  j.inv_inertia = j.inv_mass / (0.4 * j.radius * j.radius);
  const Vec3 n = random_unit(rng);
  j.x = random_vec(rng, mat.R);
  i.x = j.x + (0.99 * (i.radius + j.radius)) * n;
  i.v = random_vec(rng, 1.0);
  j.v = random_vec(rng, 1.0);
  i.omega = random_vec(rng, 100.0);
  j.omega = random_vec(rng, 100.0);
}

// The Delassus diagonal block W_cc = P_n/m_t (notes: Coulomb sweeps): a friction increment dF at P
// (on i, -dF on j) changes the contact rate by exactly inv_mt dF in every tangent direction
// (isotropic for spheres: (r x e).I^-1.(r x e) = rho^2/I), and a normal force changes no tangential
// rate (no normal-tangential coupling).
TEST(CoulombKernel, ReducedMassIsTheTangentialResponse)
{
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    CoulombBody i, j;
    random_touching_pair(rng, trial, i, j);
    const CoulombContact c = coulomb_sphere_contact(i, j, 1.0, mat.dt, CoulombKinematics::Geometric);

    double ti[6], tj[6];
    for (int k = 0; k < 6; ++k) {
      ti[k] = std::uniform_real_distribution<double>(-0.1, 0.1)(rng);
      tj[k] = std::uniform_real_distribution<double>(-0.1, 0.1)(rng);
    }
    const Vec3 s0 = coulomb_rate(c, ti, i.inv_mass, i.inv_inertia, tj, j.inv_mass, j.inv_inertia, 1.0);

    // tangential increment
    const Vec3 dF = project_onto_plane(random_vec(rng, 0.01), c.normal);
    double ti1[6], tj1[6];
    std::copy(ti, ti + 6, ti1);
    std::copy(tj, tj + 6, tj1);
    coulomb_add_to(ti1, c.r_i, dF);
    coulomb_add_to(tj1, c.r_j, -dF);
    const Vec3 s1 = coulomb_rate(c, ti1, i.inv_mass, i.inv_inertia, tj1, j.inv_mass, j.inv_inertia, 1.0);
    const Vec3 expect = c.inv_mt * dF;
    EXPECT_LE(norm((s1 - s0) - expect), 1e-10 * norm(expect) + 1e-12 * norm(s0));

    // normal increment: no tangential response
    double ti2[6], tj2[6];
    std::copy(ti, ti + 6, ti2);
    std::copy(tj, tj + 6, tj2);
    coulomb_add_to(ti2, c.r_i, 0.05 * c.normal);
    coulomb_add_to(tj2, c.r_j, -0.05 * c.normal);
    const Vec3 s2 = coulomb_rate(c, ti2, i.inv_mass, i.inv_inertia, tj2, j.inv_mass, j.inv_inertia, 1.0);
    EXPECT_LE(norm(s2 - s0), 1e-12 * norm(s0));
  }
}

// The sweeps' forms against the definitions: the coupled rate equals
// rate0 + P_n(a_i - a_j) with a = ftm2v (f/m + (T/I) x r) written out here; the one-pass update
// equals coulomb_update() of that rate; coulomb_add_pair() equals the force dF at P on i and -dF on
// j with their torques r x F. Random bodies (some immovable or not turning), ftm2v != 1, caps
// that make about half of the contacts slide.
TEST(CoulombKernel, SweepFormsMatchTheDefinitions)
{
  std::mt19937 rng(11);
  auto uniform = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
  const double ftm2v = 2.5;
  int sliding = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    CoulombBody i, j;
    random_touching_pair(rng, trial, i, j);
    const CoulombContact c = coulomb_sphere_contact(i, j, 1.0, mat.dt, CoulombKinematics::Geometric);
    const CoulombCoupling k =
        coulomb_coupling(c, i.inv_mass, i.inv_inertia, j.inv_mass, j.inv_inertia, ftm2v);
    double ti[6], tj[6];
    for (int m = 0; m < 6; ++m) {
      ti[m] = uniform(-0.1, 0.1);
      tj[m] = uniform(-0.1, 0.1);
    }
    const Vec3 a_i = ftm2v * (i.inv_mass * vec3(ti) + cross(i.inv_inertia * vec3(ti + 3), c.r_i));
    const Vec3 a_j = ftm2v * (j.inv_mass * vec3(tj) + cross(j.inv_inertia * vec3(tj + 3), c.r_j));
    const Vec3 rate = c.rate0 + project_onto_plane(a_i - a_j, c.normal);
    const Vec3 coupled = coulomb_rate(c, k, ti, tj);
    EXPECT_LE(norm(coupled - rate), 1e-14 * norm(rate));
    EXPECT_NEAR(k.mass, 1.0 / (ftm2v * c.inv_mt), 1e-15 * k.mass);

    CoulombContact capped = c;
    capped.cap = uniform(0.0, 2.0) * norm(rate) / (ftm2v * c.inv_mt);
    const Vec3 force = project_onto_plane(random_vec(rng, 0.5 * capped.cap), c.normal);
    bool stick_definition = false, stick_one_pass = false;
    const Vec3 by_definition = coulomb_update(capped, k, force, rate, stick_definition);
    const Vec3 one_pass = coulomb_update(capped, k, force, ti, tj, stick_one_pass);
    EXPECT_LE(norm(one_pass - by_definition), 1e-13 * (norm(by_definition) + norm(force)));
    EXPECT_EQ(stick_one_pass, stick_definition);
    sliding += stick_definition ? 0 : 1;

    const Vec3 dF = project_onto_plane(random_vec(rng, 0.01), c.normal);
    double ti_pair[6], tj_pair[6], ti_each[6], tj_each[6];
    std::copy(ti, ti + 6, ti_pair);
    std::copy(tj, tj + 6, tj_pair);
    std::copy(ti, ti + 6, ti_each);
    std::copy(tj, tj + 6, tj_each);
    coulomb_add_pair(c, ti_pair, tj_pair, dF);
    coulomb_add_to(ti_each, c.r_i, dF);
    coulomb_add_to(tj_each, c.r_j, -dF);
    for (int m = 0; m < 6; ++m) {
      EXPECT_NEAR(ti_pair[m], ti_each[m], 1e-16);
      EXPECT_NEAR(tj_pair[m], tj_each[m], 1e-16);
    }
  }
  EXPECT_GT(sliding, 300);
  EXPECT_LT(sliding, 700);
}

#if GE_HAVE_LANES2    // (host vector lanes: not under a CUDA compiler)
// A sweep step on two lanes (two contacts that share no body, ge::Lanes2) is the same as the two
// steps one after the other, to the bit: each lane does the same IEEE operations. Random pairs
// of contacts with relaxation, with caps that make one lane, both or neither slide (the mixed
// masks exercise the lane select). The step itself is the one-pass update plus its change.
TEST(CoulombKernel, TwoLaneSweepStepEqualsTwoSteps)
{
  std::mt19937 rng(23);
  auto uniform = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
  const double ftm2v = 2.5;
  int mixed = 0, both_slide = 0, both_stick = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    CoulombSweepTerms<double> t[2];
    double relax[2], force[2][3], ti[2][6], tj[2][6];
    for (int lane = 0; lane < 2; ++lane) {
      CoulombBody i, j;
      random_touching_pair(rng, 2 * trial + lane, i, j);
      CoulombContact c = coulomb_sphere_contact(i, j, 1.0, mat.dt, CoulombKinematics::Geometric);
      const CoulombCoupling k =
          coulomb_coupling(c, i.inv_mass, i.inv_inertia, j.inv_mass, j.inv_inertia, ftm2v);
      for (int m = 0; m < 6; ++m) {
        ti[lane][m] = uniform(-0.1, 0.1);
        tj[lane][m] = uniform(-0.1, 0.1);
      }
      c.cap = uniform(0.0, 2.0) * norm(coulomb_rate(c, k, ti[lane], tj[lane])) / (ftm2v * c.inv_mt);
      t[lane] = coulomb_sweep_terms(c, k);
      relax[lane] = uniform(0.25, 1.0);
      const Vec3 f = project_onto_plane(random_vec(rng, 0.5 * c.cap), c.normal);
      force[lane][0] = f.x;
      force[lane][1] = f.y;
      force[lane][2] = f.z;
    }
    // one after the other
    double one_force[2][3], one_ti[2][6], one_tj[2][6], one_relative2[2];
    bool one_stick[2];
    std::copy(&force[0][0], &force[0][0] + 6, &one_force[0][0]);
    std::copy(&ti[0][0], &ti[0][0] + 12, &one_ti[0][0]);
    std::copy(&tj[0][0], &tj[0][0] + 12, &one_tj[0][0]);
    for (int lane = 0; lane < 2; ++lane)
      one_relative2[lane] = coulomb_sweep_step(t[lane], relax[lane], one_force[lane], one_ti[lane],
                                               one_tj[lane], one_stick[lane]);
    // at once
    auto lanes = [](double a, double b) { return Lanes2{a, b}; };
    const CoulombSweepTerms<Lanes2> both = coulomb_sweep_lanes(t[0], t[1]);
    Lanes2 lane_force[3], lane_ti[6], lane_tj[6];
    for (int m = 0; m < 3; ++m) lane_force[m] = lanes(force[0][m], force[1][m]);
    for (int m = 0; m < 6; ++m) {
      lane_ti[m] = lanes(ti[0][m], ti[1][m]);
      lane_tj[m] = lanes(tj[0][m], tj[1][m]);
    }
    LaneMask2 stick;
    const Lanes2 relative2 = coulomb_sweep_step(both, lanes(relax[0], relax[1]), lane_force,
                                                lane_ti, lane_tj, stick);
    for (int lane = 0; lane < 2; ++lane) {
      EXPECT_EQ(stick[lane] != 0, one_stick[lane]);
      EXPECT_EQ(relative2[lane], one_relative2[lane]);
      for (int m = 0; m < 3; ++m) EXPECT_EQ(lane_force[m][lane], one_force[lane][m]);
      for (int m = 0; m < 6; ++m) {
        EXPECT_EQ(lane_ti[m][lane], one_ti[lane][m]);
        EXPECT_EQ(lane_tj[m][lane], one_tj[lane][m]);
      }
    }
    if (one_stick[0] != one_stick[1]) ++mixed;
    else if (one_stick[0]) ++both_stick;
    else ++both_slide;

    // and the step is the one-pass update, relaxed: F + relax (update(F) - F)
    CoulombContact c;
    c.normal = Vec3{t[0].n[0], t[0].n[1], t[0].n[2]};
    c.rate0 = Vec3{t[0].rate0[0], t[0].rate0[1], t[0].rate0[2]};
    c.rho_i = t[0].rho_i;
    c.rho_j = t[0].rho_j;
    c.cap = t[0].cap;
    CoulombCoupling k{t[0].w_i, t[0].q_i, t[0].w_j, t[0].q_j, t[0].mass};
    bool stick_update = false;
    const Vec3 f0{force[0][0], force[0][1], force[0][2]};
    const Vec3 updated = coulomb_update(c, k, f0, ti[0], tj[0], stick_update);
    const Vec3 expected = f0 + relax[0] * (updated - f0);
    EXPECT_LE(norm(Vec3{one_force[0][0], one_force[0][1], one_force[0][2]} - expected),
              1e-15 * (norm(expected) + norm(f0)));
  }
  EXPECT_GT(mixed, 200);
  EXPECT_GT(both_slide, 100);
  EXPECT_GT(both_stick, 100);
}
#endif    // GE_HAVE_LANES2

// ================================================================================================
// 2. One dimension: rule table and Filippov/Lagrange construction (notes: Coulomb projection)

// A non-rotating sphere on the floor (m_t = m) moving along x with velocity v, a non-friction
// tangential force f_ext: the kernel's friction (x component) for bound cap = mu F_N.
double kernel_friction_1d(double v, double f_ext, double cap, double tau, bool &stick, Vec3 *full = nullptr)
{
  CoulombBody b;
  b.radius = mat.R;
  b.inv_mass = 1.0 / mat.m;
  b.inv_inertia = 0.0;
  b.x = Vec3{0, 0, mat.R - 4e-6};
  b.v = Vec3{v, 0, 0};
  const CoulombContact c = coulomb_wall_contact(b, kUp, 4e-6, kZero, cap, tau,
                                                CoulombKinematics::Geometric);
  double total[6] = {f_ext, 0.0, 0.04, 0.0, 0.0, 0.0};    // normal load irrelevant
  const Vec3 s = coulomb_rate(c, total, b.inv_mass, 0.0, kWallTotal, 0.0, 0.0, 1.0);
  const Vec3 F = coulomb_update(c, kZero, s, 1.0, stick);
  if (full) *full = F;
  return F.x;
}

// The paper's construction (3D section 3.1, delta = tau): one-sided accelerations in the delta
// form, the four cases, lambda = a_I/(a_I + a_II) on the switching surface.
double paper_friction_1d(double m, double v, double f_ext, double cap, double tau, int &kase)
{
  const double fI = f_ext - cap, fII = f_ext + cap;
  const double aI = v / tau + fI / m, aII = -(v / tau + fII / m);
  if (aI <= 0.0 && aII <= 0.0) {
    kase = 3;
    const double lambda = aI / (aI + aII);
    return (2.0 * lambda - 1.0) * cap;    // f(lambda) - f_ext
  }
  if (aI > 0.0) {
    kase = 1;    // crosses into (or stays in) region I, v > 0
    return -cap;
  }
  kase = 2;
  return cap;
}

TEST(CoulombKernel, RuleTable1D)
{
  const double tau = mat.dt, m = mat.m, cap = 0.6 * mat.m * kG;
  const double fmax = cap / m;
  struct Row {
    const char *name;
    double v, f_ext;
    double expect;    // analytic friction
    bool stick;
  };
  const double vs = tau * fmax;    // velocity scale of one step of friction
  const Row rows[] = {
      // R1 sliding, no reversal even with friction (u > tau f_max): dynamic friction -cap
      {"R1", 0.1, 0.5 * cap, -cap, false},
      {"R1 slow", 1.5 * vs, -0.3 * cap, -cap, false},
      // R2 reversal within the step that friction can hold: F = -m u / tau (v brought to rest)
      {"R2", 0.5 * vs, -0.2 * cap, -(m * 0.5 * vs / tau - 0.2 * cap), true},
      // R3 reversal, drive beats friction: slip through, the friction flips to +cap
      {"R3", 0.5 * vs, -2.5 * cap, cap, false},
      // R4 stuck, |a_nf| <= f_max: stays stuck with F = -f_ext - m v / tau
      {"R4", 0.0, 0.7 * cap, -0.7 * cap, true},
      {"R4 residual v", 1e-3 * vs, 0.7 * cap, -0.7 * cap - m * 1e-3 * vs / tau, true},
      // R5 stuck, |a_nf| > f_max: breaks loose, mu F_N opposite to a_nf
      {"R5", 0.0, 1.3 * cap, -cap, false},
      {"R5 residual v", 1e-3 * vs, -1.3 * cap, cap, false},
  };
  for (const Row &r : rows) {
    for (const double sign : {1.0, -1.0}) {    // the mirror rows v < 0
      bool stick = false;
      Vec3 F;
      const double f = kernel_friction_1d(sign * r.v, sign * r.f_ext, cap, tau, stick, &F);
      EXPECT_NEAR(f, sign * r.expect, 1e-12 * cap) << r.name << " sign " << sign;
      EXPECT_EQ(stick, r.stick) << r.name << " sign " << sign;
      EXPECT_EQ(F.y, 0.0) << r.name;
      EXPECT_EQ(F.z, 0.0) << r.name;
      // the reversal test of 3D eq. (26) with the sg = -sign(v) estimate agrees with the rows
      if (r.v != 0.0) {
        const double v = sign * r.v, a_nf = sign * r.f_ext / m;
        const double vest = v + tau * (a_nf - (v > 0 ? 1.0 : -1.0) * fmax);
        const bool reversal = v * vest < 0.0;
        const bool is_R1 = r.name[1] == '1';
        EXPECT_EQ(reversal, !is_R1) << r.name;
      }
    }
  }
}

TEST(CoulombKernel, ProjectionEqualsLagrangeConstruction1D)
{
  // "one projection" (notes: Coulomb projection): random states, the paper's lambda construction
  // (cases 1-3) and the kernel's projection give the same force and the same stick decision.
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const double tau = mat.dt, m = mat.m, cap = 0.6 * mat.m * kG, fmax = cap / m;
  int counts[4] = {0, 0, 0, 0};
  for (int k = 0; k < 20000; ++k) {
    const double v = (k % 3 == 0 ? 100.0 : 3.0) * tau * fmax * u(rng);
    const double f_ext = 3.0 * cap * u(rng);
    bool stick = false;
    int kase = 0;
    const double fk = kernel_friction_1d(v, f_ext, cap, tau, stick);
    const double fp = paper_friction_1d(m, v, f_ext, cap, tau, kase);
    ++counts[kase];
    ASSERT_NEAR(fk, fp, 1e-12 * cap) << "v " << v << " f_ext " << f_ext;
    ASSERT_EQ(stick, kase == 3) << "v " << v << " f_ext " << f_ext;
    // |F| <= cap always; the stick force is -f_ext - m v / tau
    ASSERT_LE(std::fabs(fk), cap * (1.0 + 1e-15));
    if (stick) {
      ASSERT_NEAR(fk, -f_ext - m * v / tau, 1e-12 * cap);
    }
  }
  EXPECT_GT(counts[1], 1000);
  EXPECT_GT(counts[2], 1000);
  EXPECT_GT(counts[3], 1000);
  // case 4 (Painleve) cannot occur: a_I + a_II = -2 cap/m <= 0
}

// 3D: the result is the projection of F_trial = -m_t(v_t/tau + a_t^nf) onto the disk |F| <= cap;
// sliding is antiparallel to u = v_t + tau a_t^nf (maximal dissipation), and the rate that remains
// after a slip step is antiparallel to the friction with size (|F_trial| - cap)/m_t.
TEST(CoulombKernel, ProjectionOntoFrictionDisk3D)
{
  std::mt19937 rng(5);
  int nstick = 0, nslip = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    CoulombBody i, j;
    i.radius = mat.R;
    j.radius = 1.5 * mat.R;
    i.inv_mass = 1.0 / mat.m;
    i.inv_inertia = 1.0 / mat.I;
    j.inv_mass = 1.0 / (2.0 * mat.m);
    j.inv_inertia = 1.0 / (2.0 * mat.I);
    const Vec3 n = random_unit(rng);
    i.x = random_vec(rng, mat.R);
    j.x = i.x - (2.49 * mat.R) * n;
    // scales: v_t/tau ~ 5 m/s^2, a_t^nf ~ 30 m/s^2, m_t ~ 8e-4 kg: |F_trial| ~ 0.03 N
    i.v = random_vec(rng, 1e-4);
    j.v = random_vec(rng, 1e-4);
    i.omega = random_vec(rng, 1e-2);
    j.omega = random_vec(rng, 1e-2);
    const double cap = std::uniform_real_distribution<double>(0.0, 0.04)(rng);
    const auto kin = static_cast<CoulombKinematics>(trial % 3);
    const CoulombContact c = coulomb_sphere_contact(i, j, cap, mat.dt, kin);
    double ti[6], tj[6];
    for (int k = 0; k < 6; ++k) {
      const double scale = k < 3 ? 0.1 : 0.1 * mat.R;    // forces, torques
      ti[k] = std::uniform_real_distribution<double>(-scale, scale)(rng);
      tj[k] = std::uniform_real_distribution<double>(-scale, scale)(rng);
    }
    // the non-friction rate: s_nf = v_t/tau + a_t^nf
    const Vec3 s_nf = coulomb_rate(c, ti, i.inv_mass, i.inv_inertia, tj, j.inv_mass, j.inv_inertia, 1.0);
    const Vec3 trial_force = (-1.0 / c.inv_mt) * s_nf;    // -m_t (v_t/tau + a_t^nf)
    // include a current estimate F_c in the totals: the result must not depend on it
    const Vec3 Fc = project_onto_plane(random_vec(rng, 0.1), c.normal);
    coulomb_add_to(ti, c.r_i, Fc);
    coulomb_add_to(tj, c.r_j, -Fc);
    const Vec3 s = coulomb_rate(c, ti, i.inv_mass, i.inv_inertia, tj, j.inv_mass, j.inv_inertia, 1.0);
    bool stick = false;
    const Vec3 F = coulomb_update(c, Fc, s, 1.0, stick);
    const double scale = norm(trial_force) + cap;
    EXPECT_LE(std::fabs(dot(F, c.normal)), 1e-15 * scale);
    const double tsize = norm(trial_force);
    if (tsize <= cap * (1.0 - 1e-9)) {
      ++nstick;
      EXPECT_TRUE(stick);
      EXPECT_LE(norm(F - trial_force), 1e-9 * scale);
    } else if (tsize >= cap * (1.0 + 1e-9)) {
      ++nslip;
      EXPECT_FALSE(stick);
      EXPECT_NEAR(norm(F), cap, 1e-14 * cap);
      EXPECT_LE(norm(F - (cap / tsize) * trial_force), 1e-9 * scale);
      // the rate that remains: (|F_trial| - cap)/m_t opposite to F
      coulomb_add_to(ti, c.r_i, F - Fc);
      coulomb_add_to(tj, c.r_j, Fc - F);
      const Vec3 s1 = coulomb_rate(c, ti, i.inv_mass, i.inv_inertia, tj, j.inv_mass, j.inv_inertia, 1.0);
      const Vec3 expect = (-(tsize - cap) * c.inv_mt / tsize) * trial_force;
      EXPECT_LE(norm(s1 - expect), 1e-9 * norm(s_nf));
    }
  }
  EXPECT_GT(nstick, 200);
  EXPECT_GT(nslip, 200);
}

// The velocity-dependent part of the contact rate (notes: Coulomb kinematics) is the time
// derivative of v_t for force-free motion (constant v, omega): the branch vectors follow the
// geometric contact point (mid-overlap) and the tangent plane turns with n. Central differences of
// v_t (built by the kernel itself at t +- h) against rate0 - v_t/tau, tangential part.
Vec3 kinematic_rate(const CoulombContact &c, double tau) { return c.rate0 - (1.0 / tau) * c.v_t; }

TEST(CoulombKernel, GeometricRateIsTheTimeDerivative)
{
  std::mt19937 rng(29);
  const double tau = 1.0;    // any tau: 1 avoids the cancellation of v_t/tau
  const double h = 1e-6;
  double worst_geo = 0.0, best_material = 1e300, worst_none_wall = 0.0;
  for (int trial = 0; trial < 200; ++trial) {
    CoulombBody i, j;
    i.radius = mat.R;
    j.radius = 1.4 * mat.R;
    i.inv_mass = 1.0 / mat.m;
    j.inv_mass = 1.0 / mat.m;
    const Vec3 n = random_unit(rng);
    j.x = random_vec(rng, 0.05);
    i.x = j.x + (0.98 * (i.radius + j.radius)) * n;
    i.v = random_vec(rng, 1.0);
    j.v = random_vec(rng, 1.0);
    i.omega = random_vec(rng, 100.0);
    j.omega = random_vec(rng, 100.0);
    auto at = [&](double t, CoulombKinematics kin) {
      CoulombBody a = i, b = j;
      a.x = a.x + t * a.v;
      b.x = b.x + t * b.v;
      return coulomb_sphere_contact(a, b, 1.0, tau, kin);
    };
    const CoulombContact c0 = at(0.0, CoulombKinematics::Geometric);
    const Vec3 fd = project_onto_plane((1.0 / (2.0 * h)) * (at(h, CoulombKinematics::Geometric).v_t -
                                                             at(-h, CoulombKinematics::Geometric).v_t),
                                       c0.normal);
    const double scale = norm(fd) + dot(i.v - j.v, i.v - j.v) / 0.02 + 1e4 * 0.02;
    const Vec3 geo = kinematic_rate(c0, tau);
    worst_geo = std::max(worst_geo, norm(geo - fd) / scale);
    EXPECT_LE(norm(geo - fd), 1e-6 * scale) << "trial " << trial;
    const Vec3 material = kinematic_rate(at(0.0, CoulombKinematics::Material), tau);
    best_material = std::min(best_material, norm(material - fd) / scale);

    // sphere on a wall moving off/into it (n . v != 0), rolling and spinning
    CoulombBody s = i;
    const double overlap0 = 5e-6;
    s.x = (mat.R - overlap0) * n;    // wall through the origin, normal n
    auto wall_at = [&](double t, CoulombKinematics kin) {
      CoulombBody a = s;
      a.x = a.x + t * a.v;
      return coulomb_wall_contact(a, n, mat.R - dot(a.x, n), kZero, 1.0, tau, kin);
    };
    const CoulombContact w0 = wall_at(0.0, CoulombKinematics::Geometric);
    const Vec3 wfd = project_onto_plane((1.0 / (2.0 * h)) * (wall_at(h, CoulombKinematics::Geometric).v_t -
                                                              wall_at(-h, CoulombKinematics::Geometric).v_t),
                                        n);
    const double wscale = norm(wfd) + norm(s.v) * norm(s.omega);
    EXPECT_LE(norm(kinematic_rate(w0, tau) - wfd), 1e-6 * wscale) << "trial " << trial;
    // kin none drops omega x (rho_dot n): off by that term exactly
    const Vec3 none = kinematic_rate(wall_at(0.0, CoulombKinematics::None), tau);
    const Vec3 dropped = project_onto_plane(cross(s.omega, -0.5 * dot(n, s.v) * n), n);
    worst_none_wall = std::max(worst_none_wall, norm(none + dropped - wfd) / wscale);
    EXPECT_LE(norm(none + dropped - wfd), 1e-6 * wscale) << "trial " << trial;
  }
  std::printf("  d v_t/dt: geometric error %.1e, material error >= %.1e (relative)\n", worst_geo,
              best_material);
  // the material-point form of 3D eq. (20) is not the rate of a sphere's contact point
  EXPECT_GT(best_material, 1e-3);
}

// ================================================================================================
// 3. Dead-beat (notes: Coulomb projection): after a stick update the next half-step tangential
//    velocity v_t + tau a_t = tau s is zero to round-off, for every kinematics option and for
//    ftm2v != 1.

TEST(CoulombKernel, DeadBeatStick)
{
  std::mt19937 rng(3);
  double worst = 0.0;
  for (int trial = 0; trial < 600; ++trial) {
    CoulombBody i, j;
    i.radius = mat.R;
    j.radius = 0.7 * mat.R;
    i.inv_mass = 1.0 / mat.m;
    i.inv_inertia = 1.0 / mat.I;
    j.inv_mass = trial % 4 == 0 ? 0.0 : 1.0 / (0.343 * mat.m);
    j.inv_inertia = trial % 4 == 0 ? 0.0 : 1.0 / (0.343 * 0.49 * mat.I);
    const Vec3 n = random_unit(rng);
    i.x = random_vec(rng, 0.1);
    j.x = i.x - (1.69 * mat.R) * n;
    const double vscale = 1.0;
    i.v = random_vec(rng, vscale);
    j.v = random_vec(rng, vscale);
    i.omega = random_vec(rng, vscale / mat.R);
    j.omega = random_vec(rng, vscale / mat.R);
    const double ftm2v = trial % 2 == 0 ? 1.0 : 1.0 / 48.88821291 / 48.88821291;    // real units
    const auto kin = static_cast<CoulombKinematics>(trial % 3);
    const CoulombContact c = coulomb_sphere_contact(i, j, 1e9, mat.dt, kin);    // always sticks
    double ti[6], tj[6];
    for (int k = 0; k < 6; ++k) {
      ti[k] = std::uniform_real_distribution<double>(-1.0, 1.0)(rng) / ftm2v;
      tj[k] = std::uniform_real_distribution<double>(-1.0, 1.0)(rng) / ftm2v;
    }
    const Vec3 Fc = project_onto_plane(random_vec(rng, 0.1 / ftm2v), c.normal);
    coulomb_add_to(ti, c.r_i, Fc);
    coulomb_add_to(tj, c.r_j, -Fc);
    const Vec3 s = coulomb_rate(c, ti, i.inv_mass, i.inv_inertia, tj, j.inv_mass, j.inv_inertia, ftm2v);
    bool stick = false;
    const Vec3 F = coulomb_update(c, Fc, s, ftm2v, stick);
    ASSERT_TRUE(stick);
    coulomb_add_to(ti, c.r_i, F - Fc);
    coulomb_add_to(tj, c.r_j, Fc - F);
    const Vec3 s1 = coulomb_rate(c, ti, i.inv_mass, i.inv_inertia, tj, j.inv_mass, j.inv_inertia, ftm2v);
    const double v_next = mat.dt * norm(s1);
    worst = std::max(worst, v_next / vscale);
    EXPECT_LE(v_next, 1e-12 * vscale) << "trial " << trial;
  }
  std::printf("  dead-beat: max |v_t,next| / v = %.2e\n", worst);
}

// The same with the bodies actually kicked: wall contact, kinematics None (then the rate is
// exactly v_t/tau + a_t): after v += tau a, omega += tau alpha the contact point is at relative
// rest to round-off, in both tangent directions.
TEST(CoulombKernel, DeadBeatKick)
{
  std::mt19937 rng(13);
  for (int trial = 0; trial < 200; ++trial) {
    CoulombBody b;
    b.radius = mat.R;
    b.inv_mass = 1.0 / mat.m;
    b.inv_inertia = 1.0 / mat.I;
    const double overlap = 3e-6;
    const Vec3 n = random_unit(rng);
    b.x = (mat.R - overlap) * n;    // wall through the origin with normal n
    b.v = project_onto_plane(random_vec(rng, 0.1), n);
    b.omega = random_vec(rng, 10.0);
    const CoulombContact c = coulomb_wall_contact(b, n, overlap, kZero, 1e9, mat.dt,
                                                  CoulombKinematics::None);
    double t[6];
    for (double &x : t) x = std::uniform_real_distribution<double>(-0.05, 0.05)(rng);
    const Vec3 s = coulomb_rate(c, t, b.inv_mass, b.inv_inertia, kWallTotal, 0.0, 0.0, 1.0);
    bool stick = false;
    const Vec3 F = coulomb_update(c, kZero, s, 1.0, stick);
    ASSERT_TRUE(stick);
    coulomb_add_to(t, c.r_i, F);
    const Vec3 v1 = b.v + (mat.dt * b.inv_mass) * vec3(t);
    const Vec3 w1 = b.omega + (mat.dt * b.inv_inertia) * vec3(t + 3);
    const Vec3 vt1 = project_onto_plane(v1 + cross(w1, c.r_i), n);
    EXPECT_LE(norm(vt1), 1e-15 * (norm(b.v) + mat.R * norm(b.omega))) << "trial " << trial;
  }
}

// ================================================================================================
// 4. Incline, non-rotating sphere ("block", check (a1)), mu = 0.6

TEST(CoulombIncline, NonRotatingRestsExactlyBelowFrictionAngle)
{
  WallSphere s;
  s.rotation = false;
  const double alpha = std::atan(0.8 * s.mu);
  s.g = incline_gravity(alpha);
  s.place_at_equilibrium();
  s.setup();
  double max_vt = 0.0;
  while (s.time() < 2.0 - 0.5 * mat.dt) {
    s.step();
    max_vt = std::max(max_vt, norm(s.vt));
    ASSERT_TRUE(s.stick) << "t = " << s.time();
  }
  const double d = 2.0 * mat.R;
  std::printf("  incline 0.8 mu, rotation off: x(2 s) = %.3e m, y = %.3e, max |v_t| = %.3e, F_t/F_N = %.15f\n",
              s.x.x, s.x.y, max_vt, norm(s.friction) / s.fn);
  EXPECT_LE(std::fabs(s.x.x), 1e-12 * d);    // check (b): creep c <= 1e-12
  EXPECT_LE(std::fabs(s.x.y), 1e-12 * d);
  EXPECT_LE(max_vt, 1e-15);
  // the static friction carries the downhill load: F_t/F_N = tan(alpha) = 0.48
  EXPECT_NEAR(norm(s.friction) / s.fn, std::tan(alpha), 1e-12);
  EXPECT_LT(s.friction.x, 0.0);    // uphill
}

TEST(CoulombIncline, NonRotatingAtFrictionAngleKeepsItsVelocity)
{
  // tan(alpha) = mu: zero net force at rest and in sliding (check (a1))
  for (const double v0 : {0.0, 0.1}) {
    WallSphere s;
    s.rotation = false;
    const double alpha = std::atan(s.mu);
    s.g = incline_gravity(alpha);
    s.place_at_equilibrium();
    s.v.x = v0;
    s.setup();
    while (s.time() < 2.0 - 0.5 * mat.dt) s.step();
    std::printf("  incline 1.0 mu, v0 = %g: x(2 s) = %.12e, v(2 s) = %.12e\n", v0, s.x.x, s.v.x);
    // the net force is m g (sin a - mu cos a) = 0 up to the round-off of tan/atan: 1e-15 g
    EXPECT_NEAR(s.v.x, v0, 2.0 * 1e-12 * kG);
    EXPECT_NEAR(s.x.x, 2.0 * v0, 2.0 * 1e-12 * kG);
  }
}

TEST(CoulombIncline, NonRotatingSlidesAboveFrictionAngle)
{
  WallSphere s;
  s.rotation = false;
  const double alpha = std::atan(1.2 * s.mu);
  s.g = incline_gravity(alpha);
  s.place_at_equilibrium();
  s.setup();
  const double T = 0.5;
  while (s.time() < T - 0.5 * mat.dt) {
    s.step();
    ASSERT_FALSE(s.stick);
  }
  const double a = kG * (std::sin(alpha) - s.mu * std::cos(alpha));    // 0.955338227 m/s^2
  std::printf("  incline 1.2 mu, rotation off: a = %.12f (expected %.12f), x = %.12f (%.12f)\n",
              s.v.x / T, a, s.x.x, 0.5 * a * T * T);
  // constant forces: velocity Verlet is exact, the errors are round-off (a looser bound would do)
  EXPECT_NEAR(s.v.x / T, a, 1e-9 * a);
  EXPECT_NEAR(s.x.x, 0.5 * a * T * T, 1e-9 * 0.5 * a * T * T);
  EXPECT_NEAR(norm(s.friction), s.mu * s.fn, 1e-14 * s.mu * s.fn);
  EXPECT_LE(std::fabs(s.x.y), 1e-15);
}

TEST(CoulombIncline, NonRotatingSlipToStick)
{
  // check (a1): 0.8 mu, thrown downhill at 0.5 m/s: decelerates at g(mu cos a - sin a), stops at
  // x = v0^2/(2b) (a stop resolved inside the step: |dx| <= b tau^2), then exact rest.
  WallSphere s;
  s.rotation = false;
  const double alpha = std::atan(0.8 * s.mu), v0 = 0.5;
  s.g = incline_gravity(alpha);
  s.place_at_equilibrium();
  s.v.x = v0;
  s.setup();
  const double b = kG * (s.mu * std::cos(alpha) - std::sin(alpha));    // 1.061273 m/s^2
  const double t_stop = v0 / b, x_stop = v0 * v0 / (2.0 * b);
  double t_stick = -1.0, x_at_stick = 0.0;
  while (s.time() < 2.0 - 0.5 * mat.dt) {
    s.step();
    if (t_stick < 0.0 && s.stick) {
      t_stick = s.time();
      x_at_stick = s.x.x;
    }
    if (t_stick >= 0.0) {
      ASSERT_TRUE(s.stick) << "t = " << s.time();
    }
  }
  std::printf("  slip to stick: t_stick = %.7f (t_stop %.7f), x = %.10f (x_stop %.10f), v = %.3e\n",
              t_stick, t_stop, s.x.x, x_stop, s.v.x);
  EXPECT_LE(std::fabs(t_stick - t_stop), mat.dt);
  EXPECT_NEAR(s.x.x, x_stop, b * mat.dt * mat.dt);
  // the stick step brings the half-step velocity to zero: from then on the sphere does not move
  EXPECT_LE(std::fabs(s.x.x - x_at_stick), 1e-12 * 2.0 * mat.R);
  EXPECT_LE(std::fabs(s.v.x), 1e-15);
  EXPECT_NEAR(norm(s.friction) / s.fn, std::tan(alpha), 1e-12);
}

TEST(CoulombIncline, NonRotatingReversalSlipsThrough)
{
  // check (a1): 1.2 mu, thrown uphill at 1 m/s: stops at t1 = v0/a_up, slides back at
  // a_down = g(sin a - mu cos a). The reversal is resolved within one step: the friction of at most
  // one step is off, so |v(1 s) - v_exact| <= 2 mu g cos(a) tau, and with the stick step of rule R2
  // (reversal that friction holds for one step) the error is below a_down tau.
  WallSphere s;
  s.rotation = false;
  const double alpha = std::atan(1.2 * s.mu), v0 = -1.0;
  s.g = incline_gravity(alpha);
  s.place_at_equilibrium();
  s.v.x = v0;
  s.setup();
  const double a_up = kG * (std::sin(alpha) + s.mu * std::cos(alpha));
  const double a_down = kG * (std::sin(alpha) - s.mu * std::cos(alpha));
  const double t1 = -v0 / a_up, x1 = -v0 * v0 / (2.0 * a_up);
  int nstick = 0;
  double t_first_stick = -1.0;
  while (s.time() < 1.0 - 0.5 * mat.dt) {
    s.step();
    if (s.stick) {
      ++nstick;
      if (t_first_stick < 0.0) t_first_stick = s.time();
    }
  }
  const double T = s.time();
  const double v_exact = a_down * (T - t1), x_exact = x1 + 0.5 * a_down * (T - t1) * (T - t1);
  std::printf("  reversal: stick steps %d at t = %.7f (t1 = %.7f); v(1) = %.9f (%.9f), x(1) = %.9f (%.9f)\n",
              nstick, t_first_stick, t1, s.v.x, v_exact, s.x.x, x_exact);
  EXPECT_LE(nstick, 1);    // no spurious sticking after the reversal
  if (nstick == 1) {
    EXPECT_LE(std::fabs(t_first_stick - t1), mat.dt);
    EXPECT_NEAR(s.v.x, v_exact, a_down * mat.dt);
  }
  EXPECT_NEAR(s.v.x, v_exact, 2.0 * s.mu * kG * std::cos(alpha) * mat.dt);
  EXPECT_NEAR(s.x.x, x_exact,
              2.0 * s.mu * kG * std::cos(alpha) * mat.dt * (T - t1) + a_up * mat.dt * mat.dt);
}

// ================================================================================================
// 5. Free (rotating) sphere on the incline at tan(alpha) = 0.8 mu: rolls without slip (check (a2))

TEST(CoulombIncline, RotatingSphereRollsWithoutSlip)
{
  WallSphere s;
  const double alpha = std::atan(0.8 * s.mu);
  s.g = incline_gravity(alpha);
  s.place_at_equilibrium();
  const double rho = s.rho();
  const Vec3 x0 = s.x;
  s.setup();
  const double T = 0.2;
  double max_slip = 0.0;
  while (s.time() < T - 0.5 * mat.dt) {
    s.step();
    ASSERT_TRUE(s.stick);
    max_slip = std::max(max_slip, norm(s.vt));
  }
  const double a = kG * std::sin(alpha) / (1.0 + mat.I / (mat.m * rho * rho));
  const double a_meas = s.v.x / T;
  const double work = mat.m * dot(s.g, s.x - x0);    // m g sin(a) * distance (+ 0 normal)
  const double ek = s.kinetic();
  std::printf("  rolling 0.8 mu: a = %.12f (soft %.12f, rigid 5/7 g sin a = %.12f), max |v_slip| = %.2e,"
              " E_kin/work - 1 = %.2e, F_t/F_N = %.9f\n",
              a_meas, a, 5.0 / 7.0 * kG * std::sin(alpha), max_slip, ek / work - 1.0,
              norm(s.friction) / s.fn);
  // constant forces: velocity Verlet is exact, the errors are round-off (a looser bound would do)
  EXPECT_NEAR(a_meas, a, 1e-9 * a);
  EXPECT_LE(max_slip, 1e-12);
  EXPECT_NEAR(ek, work, 1e-9 * work);
  // the rolling condition at the full step: v = omega rho (no slip)
  EXPECT_NEAR(s.w.y * rho, s.v.x, 1e-12 * s.v.x);
  // F_t/F_N = tan(a) / (1 + m rho^2/I) (rigid: (2/7) tan a)
  EXPECT_NEAR(norm(s.friction) / s.fn, std::tan(alpha) / (1.0 + mat.m * rho * rho / mat.I), 1e-9);
}

// ================================================================================================
// 6. Slide to roll on a flat floor (check (d))

TEST(CoulombFloor, SlideToRoll)
{
  WallSphere s;
  s.mu = 0.5;
  s.place_at_equilibrium();
  const double v0 = 1.0, rho = s.rho();
  s.v.x = v0;
  const double e0 = s.kinetic();
  s.setup();
  const double t_star = v0 / (s.mu * kG * (1.0 + mat.m * rho * rho / mat.I));
  const double v_f = v0 / (1.0 + mat.I / (mat.m * rho * rho));
  double t_stick = -1.0, max_F_after = 0.0;
  bool slipped_after = false;
  while (s.time() < 0.2 - 0.5 * mat.dt) {
    const bool was_stuck = t_stick >= 0.0;
    s.step();
    if (t_stick < 0.0 && s.stick) t_stick = s.time();
    if (was_stuck) {
      max_F_after = std::max(max_F_after, norm(s.friction));
      if (!s.stick) slipped_after = true;
    }
  }
  const double lost = e0 - s.kinetic();
  const double lost_exact = 0.5 * mat.m * v0 * v0 * (1.0 - v_f / v0);    // (2/7) of E_0, rigid
  std::printf("  slide to roll: t_stick = %.7f, t* = %.7f (%.2f tau), v = %.12f (v_f %.12f, rel %.1e),"
              " |F| after = %.2e N, dissipated %.12e / lost %.12e / exact %.12e\n",
              t_stick, t_star, (t_stick - t_star) / mat.dt, s.v.x, v_f, s.v.x / v_f - 1.0,
              max_F_after, s.dissipated, lost, lost_exact);
  EXPECT_LE(std::fabs(t_stick - t_star), mat.dt);
  EXPECT_FALSE(slipped_after);
  // exact in the discrete scheme (angular momentum about P is conserved step by step)
  EXPECT_NEAR(s.v.x, v_f, 1e-9 * v_f);
  EXPECT_NEAR(s.w.y * rho, v_f, 1e-9 * v_f);
  EXPECT_LE(max_F_after, 1e-9 * mat.m * kG);
  // energy: the friction's step dissipation adds up to the kinetic energy lost (no other force
  // does work on the flat floor), which is I/(m rho^2 + I) of E_0 (rigid 2/7)
  EXPECT_NEAR(s.dissipated, lost, 1e-9 * lost);
  EXPECT_NEAR(lost, lost_exact, 1e-9 * lost_exact);
  // the angular momentum about the contact point is conserved by the friction: m v rho + I w
  EXPECT_NEAR(mat.m * s.v.x * rho + mat.I * s.w.y, mat.m * v0 * rho, 1e-9 * mat.m * v0 * rho);
}

// ================================================================================================
// 7. Wrong-mass chatter (3D section 4.2, check (e2)): a trial force with m~ = c m_t (single pass,
//    no warm start). One stick step maps the scaled rate u = v_t/tau + a_t^nf to (1 - c) u +
//    a_t^nf: a stable loop for 0 < c < 2 whose fixed point is the exact static force -m_t a_t^nf
//    with a steady slip velocity v* = tau a_t^nf (1 - c)/c (zero only for c = 1); for c > 2 it
//    diverges until the Coulomb cap and the contact chatters.

struct ChatterResult {
  double max_dF = 0.0, min_slip = 1e300, max_slip = 0.0;
  double slip = 0.0, F = 0.0, cap = 0.0;
  int stick_flips = 0;
};

ChatterResult rolling_with_mass_factor(double c_factor)
{
  WallSphere s;
  const double alpha = std::atan(0.8 * s.mu);
  s.g = incline_gravity(alpha);
  s.mass_factor = c_factor;
  s.place_at_equilibrium();
  s.setup();
  ChatterResult r;
  const double T = 0.2, window = 0.19;
  Vec3 F_prev = s.friction;
  bool stick_prev = s.stick;
  while (s.time() < T - 0.5 * mat.dt) {
    s.step();
    if (s.time() > window) {
      r.max_dF = std::max(r.max_dF, norm(s.friction - F_prev));
      r.min_slip = std::min(r.min_slip, norm(s.vt));
      r.max_slip = std::max(r.max_slip, norm(s.vt));
      if (s.stick != stick_prev) ++r.stick_flips;
    }
    F_prev = s.friction;
    stick_prev = s.stick;
  }
  r.slip = s.vt.x;
  r.F = s.friction.x;
  r.cap = s.mu * s.fn;
  return r;
}

TEST(CoulombIncline, WrongMassChatter)
{
  WallSphere ref;
  const double alpha = std::atan(0.8 * ref.mu);
  ref.g = incline_gravity(alpha);
  const double rho = ref.rho();
  const double a_nf = kG * std::sin(alpha);    // gravity drives the centre only
  const double m_t = 1.0 / (1.0 / mat.m + rho * rho / mat.I);
  const double F_static = -m_t * a_nf;

  for (const double c : {1.0, 1.5, 1.9}) {
    const ChatterResult r = rolling_with_mass_factor(c);
    const double v_star = mat.dt * a_nf * (1.0 - c) / c;
    std::printf("  m~/m_t = %.1f: slip %.6e (v* %.6e), F %.9e (static %.9e), max dF/cap %.1e, flips %d\n",
                c, r.slip, v_star, r.F, F_static, r.max_dF / r.cap, r.stick_flips);
    EXPECT_EQ(r.stick_flips, 0) << c;
    EXPECT_LE(r.max_dF, 1e-9 * r.cap) << c;    // settled: no chatter
    EXPECT_NEAR(r.F, F_static, 1e-9 * std::fabs(F_static)) << c;
    if (c == 1.0)
      EXPECT_LE(std::fabs(r.slip), 1e-15);    // dead-beat: no slip at all
    else
      EXPECT_NEAR(r.slip, v_star, 1e-6 * std::fabs(v_star)) << c;
  }
  for (const double c : {2.1, 3.5}) {
    const ChatterResult r = rolling_with_mass_factor(c);
    std::printf("  m~/m_t = %.1f: slip in [%.3e, %.3e] m/s, max dF/cap %.3f, stick flips %d\n", c,
                r.min_slip, r.max_slip, r.max_dF / r.cap, r.stick_flips);
    // chatter: the friction keeps jumping by a sizeable part of the cap and the contact keeps
    // slipping at about tau mu g (the prototype: 0.7-1.1e-4 m/s at c = 3.5)
    EXPECT_GT(r.max_dF, 0.1 * r.cap) << c;
    EXPECT_GT(r.stick_flips, 100) << c;
    EXPECT_GT(r.max_slip, 1e-6) << c;
  }
}

// ================================================================================================
// 8. Spin + roll on a flat floor (check (e1)): the geometric contact point keeps the path
//    straight; the material-point term of 3D eq. (20) pushes the ball sideways.

double spin_roll_drift(CoulombKinematics kin, double *y_end = nullptr)
{
  WallSphere s;
  s.kin = kin;
  s.place_at_equilibrium();
  const double rho = s.rho(), v0 = 1.0;
  s.v = Vec3{0, v0, 0};
  s.w = Vec3{-v0 / rho, 0, 50.0};    // rolling along +y: v + omega x r_i = 0 at P
  s.setup();
  while (s.time() < 1.0 - 0.5 * mat.dt) s.step();
  if (y_end) *y_end = s.x.y;
  return s.x.x;
}

TEST(CoulombFloor, SpinRollPathStaysStraight)
{
  double y_geo = 0.0, y_none = 0.0;
  const double geo = spin_roll_drift(CoulombKinematics::Geometric, &y_geo);
  const double none = spin_roll_drift(CoulombKinematics::None, &y_none);
  const double material = spin_roll_drift(CoulombKinematics::Material);
  std::printf("  spin + roll, lateral drift x(1 s): geometric %.3e, none %.3e, material %.3e m;"
              " y(1 s) = %.15f\n", geo, none, material, y_geo);
  EXPECT_LE(std::fabs(geo), 1e-12);
  EXPECT_LE(std::fabs(none), 1e-12);
  EXPECT_GT(std::fabs(material), 1e-5);
  // no rolling resistance: the rolling speed is kept
  EXPECT_NEAR(y_geo, 1.0, 1e-12);
  EXPECT_NEAR(y_none, 1.0, 1e-12);
}

// ================================================================================================
// 9. Objectivity (notes: Coulomb kinematics) and the warm start (notes: Coulomb sweeps)

TEST(CoulombKernel, RigidBodyMotionNeedsNoFriction)
{
  // two spheres moving as one rigid body: v_t = 0, and with the totals that produce the rigid-body
  // accelerations (centripetal, no torque) the rate is zero, so the friction stays zero. The
  // material-point form agrees for rigid motion; dropping the quadratic terms
  // leaves the rate d P_n(Omega x (Omega x n)) (the O(tau) lag of kin none).
  std::mt19937 rng(17);
  for (int trial = 0; trial < 300; ++trial) {
    CoulombBody i, j;
    i.radius = mat.R;
    j.radius = 1.3 * mat.R;
    const double mi = mat.m, mj = 2.197 * mat.m;
    i.inv_mass = 1.0 / mi;
    j.inv_mass = 1.0 / mj;
    i.inv_inertia = 1.0 / (0.4 * mi * i.radius * i.radius);
    j.inv_inertia = 1.0 / (0.4 * mj * j.radius * j.radius);
    const Vec3 n = random_unit(rng);
    j.x = random_vec(rng, 0.05);
    const double d = 0.995 * (i.radius + j.radius);
    i.x = j.x + d * n;
    const Vec3 xc = random_vec(rng, 0.05);
    const Vec3 V = random_vec(rng, 1.0), Omega = random_vec(rng, 100.0);
    i.v = V + cross(Omega, i.x - xc);
    j.v = V + cross(Omega, j.x - xc);
    i.omega = Omega;
    j.omega = Omega;
    const Vec3 ai = cross(Omega, cross(Omega, i.x - xc)), aj = cross(Omega, cross(Omega, j.x - xc));
    double ti[6] = {mi * ai.x, mi * ai.y, mi * ai.z, 0, 0, 0};
    double tj[6] = {mj * aj.x, mj * aj.y, mj * aj.z, 0, 0, 0};
    const double vscale = norm(V) + norm(Omega) * (norm(i.x - xc) + norm(j.x - xc));
    const double ascale = dot(Omega, Omega) * (d + norm(i.x - xc) + norm(j.x - xc));

    for (const auto kin : {CoulombKinematics::Geometric, CoulombKinematics::Material,
                           CoulombKinematics::None}) {
      const CoulombContact c = coulomb_sphere_contact(i, j, 1.0, mat.dt, kin);
      EXPECT_LE(norm(c.v_t), 1e-15 * vscale);
      const Vec3 s = coulomb_rate(c, ti, i.inv_mass, i.inv_inertia, tj, j.inv_mass, j.inv_inertia, 1.0);
      // v_t/tau is round-off / tau: allow that and the round-off of the accelerations
      const double tol = 1e-14 * vscale / mat.dt + 1e-13 * ascale;
      if (kin == CoulombKinematics::None) {
        const Vec3 lag = d * project_onto_plane(cross(Omega, cross(Omega, n)), n);
        EXPECT_LE(norm(s - lag), tol);
      } else {
        EXPECT_LE(norm(s), tol) << "kin " << static_cast<int>(kin);
        bool stick = false;
        const Vec3 F = coulomb_update(c, kZero, s, 1.0, stick);
        EXPECT_TRUE(stick);
        EXPECT_LE(norm(F), tol / c.inv_mt);
      }
    }
  }
}

// Frame invariance: rotating the whole state (positions, velocities, spins, totals) rotates the
// friction; a common translation velocity (Galilean boost) changes nothing.
TEST(CoulombKernel, FrameInvariance)
{
  std::mt19937 rng(19);
  for (int trial = 0; trial < 300; ++trial) {
    CoulombBody i, j;
    i.radius = mat.R;
    j.radius = 0.8 * mat.R;
    i.inv_mass = 1.0 / mat.m;
    j.inv_mass = 1.0 / (0.512 * mat.m);
    i.inv_inertia = 1.0 / mat.I;
    j.inv_inertia = 1.0 / (0.512 * 0.64 * mat.I);
    const Vec3 n = random_unit(rng);
    j.x = random_vec(rng, 0.05);
    i.x = j.x + (1.79 * mat.R) * n;
    i.v = random_vec(rng, 0.01);
    j.v = random_vec(rng, 0.01);
    i.omega = random_vec(rng, 1.0);
    j.omega = random_vec(rng, 1.0);
    double ti[6], tj[6];
    for (int k = 0; k < 6; ++k) {
      ti[k] = std::uniform_real_distribution<double>(-0.05, 0.05)(rng);
      tj[k] = std::uniform_real_distribution<double>(-0.05, 0.05)(rng);
    }
    const double cap = std::uniform_real_distribution<double>(0.0, 0.1)(rng);
    const auto kin = static_cast<CoulombKinematics>(trial % 3);
    auto solve = [&](const CoulombBody &a, const CoulombBody &b, const double *ta, const double *tb,
                     bool &stick) {
      const CoulombContact c = coulomb_sphere_contact(a, b, cap, mat.dt, kin);
      const Vec3 s = coulomb_rate(c, ta, a.inv_mass, a.inv_inertia, tb, b.inv_mass, b.inv_inertia, 1.0);
      return coulomb_update(c, kZero, s, 1.0, stick);
    };
    bool stick0 = false;
    const Vec3 F0 = solve(i, j, ti, tj, stick0);

    // rotation
    const Vec3 theta = random_vec(rng, 3.0);
    auto Q = [&](const Vec3 &v) { return rotate_by_vector(v, theta); };
    CoulombBody qi = i, qj = j;
    for (CoulombBody *b : {&qi, &qj}) {
      b->x = Q(b->x);
      b->v = Q(b->v);
      b->omega = Q(b->omega);
    }
    double qti[6], qtj[6];
    store(Q(vec3(ti)), qti);
    store(Q(vec3(ti + 3)), qti + 3);
    store(Q(vec3(tj)), qtj);
    store(Q(vec3(tj + 3)), qtj + 3);
    bool stick1 = false;
    const Vec3 F1 = solve(qi, qj, qti, qtj, stick1);
    const double scale = norm(F0) + 1e-3 * cap;
    if (std::fabs(norm(F0) - cap) > 1e-9 * cap) {
      EXPECT_EQ(stick0, stick1);
    }
    EXPECT_LE(norm(F1 - Q(F0)), 1e-9 * scale) << "trial " << trial;

    // Galilean boost
    CoulombBody bi = i, bj = j;
    const Vec3 V = random_vec(rng, 0.1);
    bi.v = bi.v + V;
    bj.v = bj.v + V;
    bool stick2 = false;
    const Vec3 F2 = solve(bi, bj, ti, tj, stick2);
    EXPECT_LE(norm(F2 - F0), 1e-9 * scale) << "trial " << trial;

    // exchanging the roles of i and j: the friction on j is -F (action = reaction)
    bool stick3 = false;
    const Vec3 F3 = solve(j, i, tj, ti, stick3);
    EXPECT_LE(norm(F3 + F0), 1e-9 * scale) << "trial " << trial;
  }
}

// The friction's dissipation of a step summed over bodies (coulomb_body_dissipation, plus
// coulomb_wall_dissipation for the walls' own motion) equals its sum over contacts
// (coulomb_step_dissipation): the power of a contact's force at its contact points is that of its
// force and torque on the bodies. A chain of random spheres (some immovable, some not turning),
// each also touching a moving, accelerating wall, with arbitrary friction forces in the tangent
// planes and arbitrary other forces in the totals: the identity holds for any of them.
TEST(CoulombKernel, DissipationByBodiesEqualsByContacts)
{
  std::mt19937 rng(31);
  auto uniform = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
  const double ftm2v = 2.5, tau = mat.dt;
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 6;
    std::vector<CoulombBody> b(n);
    for (int k = 0; k < n; ++k) {
      b[k].radius = mat.R * uniform(0.5, 1.5);
      b[k].inv_mass = (k + trial) % 5 == 0 ? 0.0 : 1.0 / (mat.m * uniform(0.2, 2.2));
      b[k].inv_inertia = (k + trial) % 4 == 1 ? 0.0 : b[k].inv_mass / (0.4 * b[k].radius * b[k].radius);
      b[k].v = random_vec(rng, 1.0);
      b[k].omega = random_vec(rng, 100.0);
      if (k > 0)
        b[k].x = b[k - 1].x + (0.99 * (b[k].radius + b[k - 1].radius)) * random_unit(rng);
    }
    std::vector<double> total(6 * n), friction(6 * n, 0.0);
    for (double &t : total) t = uniform(-0.1, 0.1);
    struct Applied {
      CoulombContact c;
      int i, j;    // j < 0: a wall
      Vec3 F;
    };
    std::vector<Applied> contacts;
    for (int k = 0; k + 1 < n; ++k) {
      Applied a{coulomb_sphere_contact(b[k + 1], b[k], 1.0, tau, CoulombKinematics::Geometric),
                k + 1, k, kZero};
      contacts.push_back(a);
    }
    for (int k = 0; k < n; ++k) {
      const double overlap = 0.01 * b[k].radius;
      Applied a{coulomb_moving_wall_contact(b[k], random_unit(rng), overlap, kZero,
                                            random_vec(rng, 1.0), random_vec(rng, 10.0), 1.0,
                                            tau, CoulombKinematics::Geometric),
                k, -1, kZero};
      contacts.push_back(a);
    }
    for (Applied &a : contacts) {
      a.F = project_onto_plane(random_vec(rng, 0.05), a.c.normal);
      if (a.j >= 0) {
        coulomb_add_pair(a.c, &total[6 * a.i], &total[6 * a.j], a.F);
        coulomb_add_pair(a.c, &friction[6 * a.i], &friction[6 * a.j], a.F);
      } else {
        coulomb_add_to(&total[6 * a.i], a.c.r_i, a.F);
        coulomb_add_to(&friction[6 * a.i], a.c.r_i, a.F);
      }
    }
    double by_contacts = 0.0, by_bodies = 0.0, scale = 0.0;
    for (const Applied &a : contacts) {
      const bool wall = a.j < 0;
      const CoulombBody &i = b[a.i];
      const double wall_side[6] = {0, 0, 0, 0, 0, 0};
      const CoulombCoupling k =
          coulomb_coupling(a.c, i.inv_mass, i.inv_inertia, wall ? 0.0 : b[a.j].inv_mass,
                           wall ? 0.0 : b[a.j].inv_inertia, ftm2v);
      const Vec3 rate = coulomb_rate(a.c, k, &total[6 * a.i], wall ? wall_side : &total[6 * a.j]);
      const double d = coulomb_step_dissipation(a.c, a.F, rate, tau);
      by_contacts += d;
      scale += std::fabs(d);
      if (wall) by_bodies += coulomb_wall_dissipation(a.c, a.F, i.v, i.omega, tau);
    }
    for (int k = 0; k < n; ++k)
      by_bodies += coulomb_body_dissipation(vec3(&friction[6 * k]), vec3(&friction[6 * k + 3]),
                                            b[k].v, b[k].omega, &total[6 * k],
                                            ftm2v * b[k].inv_mass, ftm2v * b[k].inv_inertia, tau);
    EXPECT_NEAR(by_bodies, by_contacts, 1e-13 * scale) << "trial " << trial;
  }
}

TEST(CoulombKernel, WarmStart)
{
  // in the plane and below the cap: unchanged
  const Vec3 stored{0.3, -0.4, 0.0};
  const Vec3 same_plane = coulomb_warm_start(stored, kUp, 1.0);
  EXPECT_EQ(same_plane.x, stored.x);
  EXPECT_EQ(same_plane.y, stored.y);
  EXPECT_EQ(same_plane.z, 0.0);
  // above the cap: clipped to the cap, direction kept
  const Vec3 clipped = coulomb_warm_start(stored, kUp, 0.2);
  EXPECT_NEAR(norm(clipped), 0.2, 1e-16);
  EXPECT_NEAR(clipped.x / clipped.y, stored.x / stored.y, 1e-15);
  // zero and normal forces
  EXPECT_TRUE(is_zero(coulomb_warm_start(kZero, kUp, 1.0)));
  EXPECT_TRUE(is_zero(coulomb_warm_start(Vec3{0, 0, 0.7}, kUp, 1.0)));

  std::mt19937 rng(23);
  for (int trial = 0; trial < 500; ++trial) {
    const Vec3 n0 = random_unit(rng);
    const Vec3 F = project_onto_plane(random_vec(rng, 1.0), n0);
    // generic plane, below the cap: unchanged to round-off
    const Vec3 F_same = coulomb_warm_start(F, n0, 2.0);
    EXPECT_LE(norm(F_same - F), 1e-15 * norm(F) * 4);
    // a tilted plane (the normal turned by a small angle, as within a step)
    const Vec3 n1 = rotate_by_vector(n0, random_vec(rng, 0.05));
    const double cap = std::uniform_real_distribution<double>(0.0, 2.0)(rng);
    const Vec3 G = coulomb_warm_start(F, n1, cap);
    EXPECT_LE(std::fabs(dot(G, n1)), 1e-15 * norm(F) * 4);          // in the new plane
    EXPECT_NEAR(norm(G), std::min(norm(F), cap), 1e-14 * norm(F));    // size kept, then clipped
    const Vec3 P = project_onto_plane(F, n1);                         // along the projection
    EXPECT_LE(norm(cross(G, P)), 1e-14 * norm(G) * norm(P));
    EXPECT_GT(dot(G, P), 0.0);
  }
}

// The extrapolated start (notes: Coulomb warm start): a friction force that follows a load
// linear in time, F(t) = A + B t, is found exactly one step ahead from its last two values; the
// result is then a warm start (onto the turned plane, clipped to the cap). The change stored for
// it is zero unless both forces are solutions and the older one is a force at all.
TEST(CoulombKernel, ExtrapolatedStartFollowsALinearLoad)
{
  std::mt19937 rng(29);
  for (int trial = 0; trial < 200; ++trial) {
    const Vec3 n = random_unit(rng);
    const Vec3 A = project_onto_plane(random_vec(rng, 1.0), n);
    const Vec3 B = project_onto_plane(random_vec(rng, 0.01), n);
    const Vec3 F_prev = A + B, F_now = A + 2.0 * B, F_next = A + 3.0 * B;
    const Vec3 change = coulomb_force_change(F_now, F_prev, true);
    const Vec3 start = coulomb_extrapolated_start(F_now, change, n, 10.0);
    EXPECT_LE(norm(start - F_next), 1e-14 * norm(F_next)) << "trial " << trial;
    // the previous force alone is a whole step of the load behind
    EXPECT_NEAR(norm(coulomb_warm_start(F_now, n, 10.0) - F_next), norm(B), 1e-14);
    // clipped to a cap below the extrapolated size, along it
    const double cap = 0.5 * norm(F_next);
    const Vec3 clipped = coulomb_extrapolated_start(F_now, change, n, cap);
    EXPECT_NEAR(norm(clipped), cap, 1e-14 * cap);
    EXPECT_LE(norm(cross(clipped, F_next)), 1e-13 * norm(clipped) * norm(F_next));
    // onto a turned plane
    const Vec3 n1 = rotate_by_vector(n, random_vec(rng, 0.05));
    EXPECT_LE(std::fabs(dot(coulomb_extrapolated_start(F_now, change, n1, 10.0), n1)),
              1e-14 * norm(F_next));
  }
  const Vec3 old_force{0.2, 0.1, 0.0}, new_force{0.25, 0.05, 0.0};
  const Vec3 change = coulomb_force_change(new_force, old_force, true);
  EXPECT_DOUBLE_EQ(change.x, 0.05);
  EXPECT_DOUBLE_EQ(change.y, -0.05);
  // an unconverged solve on either side, a new contact or one without friction: no change
  EXPECT_TRUE(is_zero(coulomb_force_change(new_force, old_force, false)));
  EXPECT_TRUE(is_zero(coulomb_force_change(new_force, kZero, true)));
  // no change: the extrapolated start is the warm start
  const Vec3 warm = coulomb_warm_start(new_force, kUp, 0.2);
  const Vec3 same = coulomb_extrapolated_start(new_force, kZero, kUp, 0.2);
  EXPECT_EQ(same.x, warm.x);
  EXPECT_EQ(same.y, warm.y);
  EXPECT_EQ(same.z, warm.z);
}

// ================================================================================================
// 10. Many contacts: the tetrahedron of check (c2), solved with projected Gauss-Seidel sweeps
//     (notes: Coulomb sweeps). At rest the line of action of the top force on each base sphere
//     passes through that sphere's floor contact point (moment balance about it), which fixes the
//     mobilised ratio at the top contacts: rigid value tan(theta/2), sin(theta) = (1+gap)/sqrt(3).

double tetra_mu_c(double gap)
{
  const double theta = std::asin((1.0 + gap) / std::sqrt(3.0));
  return std::tan(0.5 * theta);
}

TEST(CoulombPacking, TetrahedronStaticEquilibrium)
{
  const double gap = 0.01, mu = 0.6;
  Packing pk = tetrahedron(mu, gap);
  pk.setup();
  std::vector<Vec3> x_mid;
  int max_sweeps_late = 0;
  const long n_settle = std::lround(0.3 / mat.dt), n_creep = std::lround(0.1 / mat.dt);
  for (long k = 0; k < n_settle + n_creep; ++k) {
    if (k == n_settle) {
      x_mid.clear();
      for (const auto &q : pk.p) x_mid.push_back(q.x);
    }
    pk.step();
    ASSERT_LE(pk.last_res, pk.tol) << "sweeps did not converge at step " << k;
    if (k >= n_settle) max_sweeps_late = std::max(max_sweeps_late, pk.last_sweeps);
  }
  ASSERT_EQ(pk.contacts.size(), 6u);
  const double d = 2.0 * mat.R;
  double creep = 0.0;
  for (int k = 0; k < 4; ++k) creep = std::max(creep, norm(pk.p[k].x - x_mid[k]));

  // every contact stuck, and the converged rates are zero to the solver tolerance
  double max_rate = 0.0;
  for (const auto &ct : pk.contacts) {
    EXPECT_TRUE(ct.stick);
    max_rate = std::max(max_rate, norm(pk.rate(ct)));
  }
  double ratio_top = 0.0, worst_dir = 0.0, worst_torque = 0.0;
  for (int k = 0; k < 3; ++k) {
    const auto *top = pk.find(k, 3);
    const auto *floor = pk.find(k, -1);
    ASSERT_NE(top, nullptr);
    ASSERT_NE(floor, nullptr);
    const Vec3 n = top->c.normal;                     // from the top sphere to base sphere k
    const Vec3 P = pk.p[k].x + top->c.r_i;            // top contact point
    const Vec3 Q = pk.p[k].x + floor->c.r_i;          // floor contact point
    const Vec3 QP = Q - P;
    // force on base k from the top: F_N n + F, parallel to Q - P
    const Vec3 expect = (1.0 / dot(n, QP)) * project_onto_plane(QP, n);    // F / F_N
    worst_dir = std::max(worst_dir, norm((1.0 / top->fn) * top->F - expect) / norm(expect));
    ratio_top = norm(top->F) / top->fn;
    // torque balance of base k: rho_top |F_top| = rho_floor |F_floor|
    const double mt = norm(top->c.r_i) * norm(top->F), mf = norm(floor->c.r_i) * norm(floor->F);
    worst_torque = std::max(worst_torque, std::fabs(mt - mf) / mt);
  }
  std::printf("  tetrahedron mu = %.2f: creep over 0.1 s = %.2e d, max sweeps at rest %d, max |s| = %.2e,"
              " top ratio %.6f (rigid mu_c %.6f), direction error %.2e, torque balance %.2e, E_kin %.2e\n",
              mu, creep / d, max_sweeps_late, max_rate, ratio_top, tetra_mu_c(gap), worst_dir,
              worst_torque, pk.kinetic());
  EXPECT_LE(creep, 1e-10 * d);    // check (b): converged sweeps, c <= 1e-10 (pyramid), 1e-9 (heap)
  EXPECT_LE(max_rate, 1e-9 * kG);
  EXPECT_LE(worst_dir, 1e-8);
  EXPECT_LE(worst_torque, 1e-8);
  // soft contacts shift the geometry by O(delta/R) ~ 1e-4
  EXPECT_NEAR(ratio_top, tetra_mu_c(gap), 1e-3 * tetra_mu_c(gap));

  // a cold solve of the settled state: the single direct pass (sweeps 1, warm no)
  // leaves a residual; the sweeps converge to the same motion (s = 0 at every stuck contact)
  pk.normal_forces(mat.dt);
  pk.stored.clear();
  const std::vector<double> one = pk.solve(false, 1, 0.0);
  double rate_one = 0.0;
  for (const auto &ct : pk.contacts) rate_one = std::max(rate_one, norm(pk.rate(ct)));
  pk.normal_forces(mat.dt);
  pk.stored.clear();
  const std::vector<double> hist = pk.solve(false, 5000, 1e-15);
  double rate_conv = 0.0;
  bool all_stuck = true;
  for (const auto &ct : pk.contacts) {
    rate_conv = std::max(rate_conv, norm(pk.rate(ct)));
    all_stuck = all_stuck && ct.stick;
  }
  int below = -1;
  for (int k = 0; k < (int) hist.size(); ++k)
    if (hist[k] <= 1e-10) {
      below = k + 1;
      break;
    }
  std::printf("  cold solve: 1 sweep leaves max |s| = %.2e m/s^2; %zu sweeps to %.1e (1e-10 after %d),"
              " then max |s| = %.2e m/s^2\n",
              rate_one, hist.size(), hist.back(), below, rate_conv);
  EXPECT_GT(rate_one, 1e-3 * kG);
  EXPECT_GT(below, 0);
  EXPECT_TRUE(all_stuck);
  EXPECT_LE(rate_conv, 1e-12 * kG);
}

TEST(CoulombPacking, TetrahedronThreshold)
{
  // check (c2) pass criterion: holds at 1.02 mu_c, collapses at 0.98 mu_c
  const double gap = 0.01, mu_c = tetra_mu_c(gap), d = 2.0 * mat.R;
  for (const double f : {0.98, 1.02}) {
    Packing pk = tetrahedron(f * mu_c, gap);
    const double z0 = pk.p[3].x.z;
    pk.setup();
    const long n = std::lround(0.5 / mat.dt);
    for (long k = 0; k < n; ++k) pk.step();
    const double drop = z0 - pk.p[3].x.z;
    std::printf("  tetrahedron mu = %.3f mu_c: top sphere dropped %.3e d in 0.5 s\n", f, drop / d);
    if (f < 1.0)
      EXPECT_GT(drop, 0.01 * d);
    else
      EXPECT_LT(drop, 1e-3 * d);    // elastic settling only (the prototype: ~4e-4 d)
  }
}

}    // namespace

// The Newton step on the face (ge::coulomb_face and the functions after it) for one sphere
// sliding on a fixed wall: the force must end on its rim, against the rate its velocity part
// alone gives. Started on the rim 0.5 rad from the solution, the exact one-contact Newton step
// (the 1-D conjugate-gradient solve along e = n x F/|F|) turns it with quadratic convergence:
// the angle to the solution drops as its square (error_{k+1} <= error_k^2). Without the rim's
// curvature term |s|/(mu F_n) the steps overshoot: the angle does not even halve.
TEST(CoulombKernel, NewtonOnTheRimConvergesQuadratically)
{
  ge::CoulombContact c;
  c.normal = {0, 0, 1};
  c.rho_i = 0.5;
  c.inv_mt = 1.0;    // the sphere's translation alone (no spin integrated): m_t = 1
  c.cap = 1.0;
  c.rate0 = {2.0, 1.0, 0.0};    // stopping it would take 2.2 mu F_n: it slides
  const ge::CoulombCoupling k = ge::coulomb_coupling(c, 1.0, 0.0, 0.0, 0.0, 1.0);
  const ge::Vec3 solution = (-1.0 / ge::norm(c.rate0)) * c.rate0;
  auto rate_at = [&](const ge::Vec3 &force) {
    double total_i[6] = {0, 0, 0, 0, 0, 0}, total_j[6] = {0, 0, 0, 0, 0, 0};
    ge::coulomb_add_pair(c, total_i, total_j, force);
    return ge::coulomb_rate(c, k, total_i, total_j);
  };
  auto angle = [&](const ge::Vec3 &force) {
    return std::acos(std::fmin(1.0, ge::dot(force, solution) / ge::norm(force)));
  };
  for (bool curvature : {true, false}) {
    const double turn = 0.5;
    const double a0 = std::atan2(solution.y, solution.x) + turn;
    ge::Vec3 force{std::cos(a0), std::sin(a0), 0.0};
    std::vector<double> errors = {angle(force)};
    for (int step = 0; step < 3; step++) {
      ge::CoulombFace face = ge::coulomb_face(c, k, force, rate_at(force));
      ASSERT_TRUE(face.sliding);
      if (!curvature) face.curvature = 0.0, face.inverse_diagonal = k.mass;
      const ge::Vec3 r = ge::coulomb_onto_face(face, -1.0 * rate_at(force));
      // D e: the rate change a unit force along e makes
      double change_i[6] = {0, 0, 0, 0, 0, 0}, change_j[6] = {0, 0, 0, 0, 0, 0};
      ge::coulomb_add_pair(c, change_i, change_j, face.along);
      const ge::Vec3 d_e = ge::coulomb_rate_change(c, k, change_i, change_j);
      const ge::Vec3 q = ge::coulomb_face_operator(face, d_e, face.along);
      const ge::Vec3 x = (ge::dot(face.along, r) / ge::dot(face.along, q)) * face.along;
      force = ge::coulomb_newton_force(c, face, force, x);
      EXPECT_NEAR(ge::norm(force), c.cap, 1e-15);
      errors.push_back(angle(force));
    }
    std::printf("  %s curvature: angle to the solution %.3e %.3e %.3e %.3e\n",
                curvature ? "with" : "without", errors[0], errors[1], errors[2], errors[3]);
    if (curvature) {
      for (int s = 0; s < 2; s++) EXPECT_LE(errors[s + 1], errors[s] * errors[s]) << s;
      EXPECT_LE(errors[3], 1e-12);
    } else {
      EXPECT_GT(errors[1], 0.5 * errors[0]);
    }
  }
}

// The Newton CG's symmetric Gauss-Seidel preconditioner runs in Eisenstat's form, which is exact
// only if a sweep step inverts the contact's own block of the Newton operator exactly: from
// zero totals, y = coulomb_face_sweep_step(rhs) gives back rhs through the operator's row
// (coulomb_face_operator of the rate change y itself makes), for stuck and sliding contacts of
// random touching spheres (some immovable, some not turning), to roundoff; the coupling it reads
// from totals that another contact's y made is that contact's share of the operator.
TEST(CoulombKernel, SweepStepInvertsTheContactsOwnBlock)
{
  std::mt19937 rng(41);
  for (int trial = 0; trial < 200; ++trial) {
    CoulombBody i, j;
    random_touching_pair(rng, trial, i, j);
    const CoulombContact c =
        coulomb_sphere_contact(i, j, 1.0, mat.dt, CoulombKinematics::Geometric);
    const CoulombCoupling k =
        coulomb_coupling(c, i.inv_mass, i.inv_inertia, j.inv_mass, j.inv_inertia, 1.0);
    const CoulombSweepTerms<double> t = coulomb_sweep_terms(c, k);
    // every other trial on its rim (slides), with a rate against its force
    const Vec3 tangent = project_onto_plane(random_vec(rng, 1.0), c.normal);
    const Vec3 force = (trial % 2 ? 1.0 : 0.5) * (c.cap / norm(tangent)) * tangent;
    const Vec3 rate = -0.3 * force + 0.1 * cross(c.normal, force);
    const CoulombFace face = coulomb_face(c, k, force, rate);
    ASSERT_EQ(face.sliding, trial % 2 == 1);
    // (a rate: tangential)
    const Vec3 rhs = coulomb_onto_face(face, project_onto_plane(random_vec(rng, 1.0), c.normal));
    double ti[6] = {0, 0, 0, 0, 0, 0}, tj[6] = {0, 0, 0, 0, 0, 0};
    Vec3 coupling;
    const Vec3 y = coulomb_face_sweep_step(t, face, rhs, ti, tj, coupling);
    EXPECT_EQ(norm(coupling), 0.0);
    // the operator's row at y: the rate change y's own totals make, and its curvature
    const Vec3 row = coulomb_face_operator(face, coulomb_rate_change(t, ti, tj), y);
    EXPECT_LE(norm(row - rhs), 1e-12 * norm(rhs)) << trial;
    // a second step from the same totals reads y's share: D_cc y without the curvature
    coulomb_face_sweep_step(t, face, rhs, ti, tj, coupling);
    EXPECT_LE(norm(coupling + face.curvature * y - rhs), 1e-12 * norm(rhs)) << trial;
  }
}

// The face of a contact: a force inside its disk is free in the tangent plane; one on its rim
// only along e = n x F/|F|; a contact without friction has no freedom. A Newton step that takes
// a free force outside its disk is clipped onto the rim; a sliding force goes back onto it.
TEST(CoulombKernel, NewtonFaceOfAContact)
{
  ge::CoulombContact c;
  c.normal = {0, 0, 1};
  c.inv_mt = 2.0;
  c.cap = 1.0;
  const ge::CoulombCoupling k = ge::coulomb_coupling(c, 2.0, 0.0, 0.0, 0.0, 1.0);
  const ge::Vec3 v{0.3, -0.2, 0.7};
  const ge::CoulombFace inside = ge::coulomb_face(c, k, {0.5, 0.0, 0.0}, {1.0, 0.0, 0.0});
  EXPECT_FALSE(inside.sliding);
  EXPECT_EQ(inside.curvature, 0.0);
  EXPECT_DOUBLE_EQ(inside.inverse_diagonal, 0.5);    // m_t
  EXPECT_EQ(ge::norm(ge::coulomb_onto_face(inside, v) - v), 0.0);
  const ge::CoulombFace rim = ge::coulomb_face(c, k, {0.0, 1.0, 0.0}, {0.0, -3.0, 0.0});
  EXPECT_TRUE(rim.sliding);
  EXPECT_NEAR(ge::norm(rim.along - ge::Vec3{-1.0, 0.0, 0.0}), 0.0, 1e-15);
  EXPECT_DOUBLE_EQ(rim.curvature, 3.0);
  EXPECT_DOUBLE_EQ(rim.inverse_diagonal, 1.0 / (2.0 + 3.0));
  EXPECT_NEAR(ge::norm(ge::coulomb_onto_face(rim, v) - ge::Vec3{0.3, 0.0, 0.0}), 0.0, 1e-15);
  ge::CoulombContact frictionless = c;
  frictionless.cap = 0.0;
  const ge::CoulombFace none = ge::coulomb_face(frictionless, k, {0, 0, 0}, {1, 0, 0});
  EXPECT_EQ(ge::norm(ge::coulomb_onto_face(none, v)), 0.0);
  // clipped where a free force leaves its disk; kept where it stays inside
  EXPECT_NEAR(ge::norm(ge::coulomb_newton_force(c, inside, {0.5, 0, 0}, {1.5, 0, 0}) -
                       ge::Vec3{1.0, 0, 0}),
              0.0, 1e-15);
  EXPECT_EQ(ge::norm(ge::coulomb_newton_force(c, inside, {0.5, 0, 0}, {0.2, 0.1, 0}) -
                     ge::Vec3{0.7, 0.1, 0}),
            0.0);
  // back onto the rim after a turn along it
  EXPECT_NEAR(ge::norm(ge::coulomb_newton_force(c, rim, {0.0, 1.0, 0.0}, {-0.1, 0, 0})), 1.0,
              1e-15);
}
