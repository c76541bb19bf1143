// The stuck contacts' linear system of an exported friction problem (coulomb_problem.hpp), and
// three preconditioners for conjugate gradients on it: why the friction solve of a deep or wide
// bed needs thousands of iterations, and what a preconditioner does about it (the design notes,
// "Coulomb solvers": "What the soft modes are").
//
// With the sliding contacts left out and the stuck ones held at rest, the friction forces F_S of
// the stuck contacts solve D_SS F_S = b, D_SS = T J M^-1 J^T T the contacts' tangential
// compliance (J: the contact-point velocities of the bodies' motions, T: the projections onto the
// tangent planes; 3D eq. (24) is its diagonal, 1/m_t). Its soft modes set how many iterations
// every solver of the friction problem takes, APGD included.
//   - StuckSystem: D_SS, matrix-free over the contacts, from the kernels' own coulomb_add_pair and
//     coulomb_relative_acceleration; stuck = the warm start inside its disk.
//   - jacobi_preconditioner: the contacts' masses m_t (APGD's diagonal, to within R_c).
//   - SsorPreconditioner: symmetric successive over-relaxation, a forward and a backward
//     Gauss-Seidel sweep over the contacts (in their order, or coloured: use_coloured_order);
//     eisenstat_ssor_cg: CG with it at the cost of the two sweeps and no product with D_SS.
//   - StarSchwarz: additive Schwarz over the bodies' stars (all stuck contacts of a body solved
//     together, a dense 3k x 3k block each).
//   - TwoLevel: a symmetric V(1,1) of Jacobi smoothing and a Galerkin coarse correction whose
//     coarse space is smoothed aggregation over spatial cells: per cell, the forces T_c sigma n_c
//     of the nine uniform stress tensors sigma (a uniform stress is what the long force chains
//     carry), one Jacobi step of smoothing, the coarse matrix factored densely.
//   - constraint_ratio: 2 N_c / 6 N, the stuck tangential constraints per degree of freedom.
//   - solve_stuck_set_from_warm_start: the step's own problem as a linear one on the warm
//     start's stuck set (what an active-set method does where the set is right).
//   - solve_apgd_then_newton_cg: APGD to find the face, then Newton-CG steps on it.
// Host code; a study, not used by the fix.
#pragma once

#include "coulomb_problem.hpp"

#include <array>
#include <map>
#include <random>

namespace ge_coulomb_problem {

using Forces = std::vector<Vec3>;

inline double dot_all(const Forces &a, const Forces &b)
{
  double s = 0.0;
  for (size_t k = 0; k < a.size(); k++) s += ge::dot(a[k], b[k]);
  return s;
}

// D_SS over the stuck contacts, stuck local index s = contact S[s]
class StuckSystem {
 public:
  explicit StuckSystem(const Problem &problem) : p(problem)
  {
    for (size_t c = 0; c < p.terms.size(); c++) {
      const ContactTerms &t = p.terms[c];
      if (t.mass > 0.0 && t.cap > 0.0 && ge::norm(p.start[c]) < t.cap * (1.0 - 1e-9))
        S.push_back(static_cast<int>(c));
    }
    inv_mass.assign(p.nbodies, 0.0);
    inv_inertia.assign(p.nbodies, 0.0);
    for (const ContactTerms &t : p.terms) {
      inv_mass[t.i] = t.w_i;
      if (t.rho_i > 0.0) inv_inertia[t.i] = t.q_i / t.rho_i;
      if (t.j < 0) continue;
      inv_mass[t.j] = t.w_j;
      if (t.rho_j > 0.0) inv_inertia[t.j] = t.q_j / t.rho_j;
    }
    on_body.resize(p.nbodies);
    for (size_t s = 0; s < S.size(); s++) {
      on_body[terms(s).i].push_back(static_cast<int>(s));
      if (terms(s).j >= 0) on_body[terms(s).j].push_back(static_cast<int>(s));
    }
    g.assign(6 * (size_t) p.nbodies, 0.0);
    use_natural_order();
  }
  size_t size() const { return S.size(); }
  const ContactTerms &terms(size_t s) const { return p.terms[S[s]]; }
  double mass(size_t s) const { return terms(s).mass; }
  const Vec3 &normal(size_t s) const { return terms(s).normal; }
  const std::vector<int> &contacts_of(int body) const { return on_body[body]; }
  bool moves(int body) const { return inv_mass[body] > 0.0 || inv_inertia[body] > 0.0; }
  double body_inv_mass(int body) const { return inv_mass[body]; }
  double body_inv_inertia(int body) const { return inv_inertia[body]; }

  // y = D_SS x
  void apply(const Forces &x, Forces &y) const
  {
    for (size_t s = 0; s < size(); s++) add(s, x[s]);
    y.resize(size());
    for (size_t s = 0; s < size(); s++) y[s] = rate(s);
    clear();
  }
  // y = D_SS x for an x on a few contacts: y on the contacts that share a body with them
  using Sparse = std::vector<std::pair<int, Vec3>>;
  void apply_sparse(const Sparse &x, Sparse &y) const
  {
    spread(x);
    y.clear();
    if (listed.size() != size()) listed.assign(size(), 0);
    for (int b : touched)
      for (int s : on_body[b])
        if (!listed[s]) {
          listed[s] = 1;
          y.push_back({s, rate(s)});
        }
    for (const auto &e : y) listed[e.first] = 0;
    for (int b : touched)
      for (int m = 0; m < 6; m++) g[6 * (size_t) b + m] = 0.0;
    clear_wall();
  }
  // the generalised forces J^T x on the bodies (6 per body) of an x on a few contacts
  void body_forces(const Sparse &x, std::vector<std::pair<int, std::array<double, 6>>> &out) const
  {
    spread(x);
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    out.clear();
    for (int b : touched) {
      std::array<double, 6> h;
      for (int m = 0; m < 6; m++) {
        h[m] = g[6 * (size_t) b + m];
        g[6 * (size_t) b + m] = 0.0;
      }
      out.push_back({b, h});
    }
    clear_wall();
  }

  // A Gauss-Seidel sweep over the stuck contacts, from zero, relaxed by omega (the contact's own
  // block of D_SS is 1/m_t on its tangent plane): out_s = omega m_s (rhs_s - (L out)_s) forward,
  // the triangular solve (D/omega + L) out = rhs, or with (U out)_s backward, (D/omega + U) out =
  // rhs; L and U the couplings to the contacts before and after s in the sweeps' order
  void sweep(const Forces &rhs, Forces &out, double omega, bool forward) const
  {
    out.resize(size());
    for (size_t m = 0; m < size(); m++) {
      const size_t s = order[forward ? m : size() - 1 - m];
      out[s] = omega * mass(s) * (rhs[s] - rate(s));
      add(s, out[s]);
    }
    clear();
  }

  // the sweeps' order: the contacts' own (natural) or by colours, no two contacts of a colour
  // on one body (greedy, in the natural order), so that a colour's contacts do not wait for
  // each other's totals; returns the colours
  int use_natural_order()
  {
    order.resize(size());
    for (size_t s = 0; s < size(); s++) order[s] = static_cast<int>(s);
    return 1;
  }
  int use_coloured_order(int block = 0)
  {
    std::vector<unsigned long long> used(p.nbodies, 0ull);
    std::vector<int> colour(size());
    int colours = 0;
    for (size_t s = 0; s < size(); s++) {
      const ContactTerms &t = terms(s);
      unsigned long long taken = used[t.i] | (t.j >= 0 ? used[t.j] : 0ull);
      int c = 0;
      while (c < 63 && (taken >> c & 1ull)) c++;
      colour[s] = c;
      colours = std::max(colours, c + 1);
      used[t.i] |= 1ull << c;
      if (t.j >= 0) used[t.j] |= 1ull << c;
    }
    order.resize(size());
    for (size_t s = 0; s < size(); s++) order[s] = static_cast<int>(s);
    if (block <= 0) {
      std::stable_sort(order.begin(), order.end(),
                       [&](int a, int b) { return colour[a] < colour[b]; });
      return colours;
    }
    // within blocks of `block` contacts of the natural order only, coloured afresh (locality)
    std::fill(used.begin(), used.end(), 0ull);
    for (size_t first = 0; first < size(); first += block) {
      const size_t last = std::min(size(), first + block);
      for (size_t s = first; s < last; s++) {
        const ContactTerms &t = terms(s);
        unsigned long long taken = used[t.i] | (t.j >= 0 ? used[t.j] : 0ull);
        int c = 0;
        while (c < 63 && (taken >> c & 1ull)) c++;
        colour[s] = c;
        used[t.i] |= 1ull << c;
        if (t.j >= 0) used[t.j] |= 1ull << c;
      }
      for (size_t s = first; s < last; s++) {
        used[terms(s).i] = 0ull;
        if (terms(s).j >= 0) used[terms(s).j] = 0ull;
      }
      std::stable_sort(order.begin() + first, order.begin() + last,
                       [&](int a, int b) { return colour[a] < colour[b]; });
    }
    return colours;
  }

  const Problem &p;
  std::vector<int> S;
  std::vector<int> order;

 private:
  std::vector<double> inv_mass, inv_inertia;    // per body: ftm2v/m, ftm2v/I
  std::vector<std::vector<int>> on_body;        // per body: its stuck contacts
  mutable std::vector<double> g;                // per body: generalised forces (all zero between uses)
  mutable double wall[6] = {0, 0, 0, 0, 0, 0};  // a wall's side (never read: w = q = 0)
  mutable std::vector<int> touched;
  mutable std::vector<char> listed;

  double *side_j(int j) const { return j >= 0 ? &g[6 * (size_t) j] : wall; }
  void add(size_t s, const Vec3 &f) const
  {
    const ContactTerms &t = terms(s);
    ge::coulomb_add_pair(t.contact(), &g[6 * (size_t) t.i], side_j(t.j), f);
  }
  Vec3 rate(size_t s) const
  {
    const ContactTerms &t = terms(s);
    return ge::project_onto_plane(
        ge::coulomb_relative_acceleration(t.contact(), t.coupling(), &g[6 * (size_t) t.i],
                                          side_j(t.j)),
        t.normal);
  }
  // x's forces into the bodies' generalised forces; `touched` lists those bodies
  void spread(const Sparse &x) const
  {
    touched.clear();
    for (const auto &e : x) {
      add(e.first, e.second);
      touched.push_back(terms(e.first).i);
      if (terms(e.first).j >= 0) touched.push_back(terms(e.first).j);
    }
  }
  void clear() const
  {
    std::fill(g.begin(), g.end(), 0.0);
    clear_wall();
  }
  void clear_wall() const { std::fill(wall, wall + 6, 0.0); }
};

// twice the median branch length of the contacts: the spheres' diameter, for cell sizes
inline double median_contact_diameter(const Problem &p)
{
  std::vector<double> rho;
  for (const ContactTerms &t : p.terms) rho.push_back(t.rho_i);
  std::nth_element(rho.begin(), rho.begin() + rho.size() / 2, rho.end());
  return 2.0 * rho[rho.size() / 2];
}

// a random consistent right-hand side b = D_SS z (z tangential, normal deviates)
inline Forces random_consistent_rhs(const StuckSystem &D, unsigned seed)
{
  std::mt19937 gen(seed);
  std::normal_distribution<double> deviate;
  Forces z(D.size()), b;
  for (size_t s = 0; s < D.size(); s++)
    z[s] = ge::project_onto_plane(Vec3{deviate(gen), deviate(gen), deviate(gen)}, D.normal(s));
  D.apply(z, b);
  return b;
}

// the largest eigenvalue of diag(m_t) D_SS (power iteration)
inline double largest_scaled_eigenvalue(const StuckSystem &D, int iterations = 60)
{
  Forces x = random_consistent_rhs(D, 3), y;
  double lambda = 0.0;
  for (int it = 0; it < iterations; it++) {
    const double size = std::sqrt(dot_all(x, x));
    for (Vec3 &e : x) e = (1.0 / size) * e;
    D.apply(x, y);
    for (size_t s = 0; s < D.size(); s++) y[s] = D.mass(s) * y[s];
    lambda = std::sqrt(dot_all(y, y));
    x.swap(y);
  }
  return lambda;
}

// Preconditioned conjugate gradients for A x = r0: x starts at zero, r holds r0 and ends as
// the residual; stops when done(r) or after `most` iterations; returns the iterations taken.
template <class Apply, class Precondition, class Done>
int preconditioned_cg(const Apply &apply, const Precondition &precondition, const Done &done,
                      int most, Forces &x, Forces &r)
{
  const size_t n = r.size();
  x.assign(n, Vec3{0, 0, 0});
  Forces z, dir, q;
  precondition(r, z);
  dir = z;
  double rz = dot_all(r, z);
  int iterations = 0;
  while (!done(r) && iterations < most) {
    iterations++;
    apply(dir, q);
    const double alpha = rz / dot_all(dir, q);
    for (size_t k = 0; k < n; k++) {
      x[k] = x[k] + alpha * dir[k];
      r[k] = r[k] - alpha * q[k];
    }
    precondition(r, z);
    const double rz_next = dot_all(r, z);
    const double beta = rz_next / rz;
    rz = rz_next;
    for (size_t k = 0; k < n; k++) dir[k] = z[k] + beta * dir[k];
  }
  return iterations;
}

struct CgResult {
  int iterations = 0;         // < 0: not converged in that many
  double true_residual = 0;   // |b - D x| / |b| recomputed at the end
  double seconds = 0;
};

// preconditioned conjugate gradients from x = 0 to |r| <= rtol |b|
template <class Preconditioner>
CgResult conjugate_gradients(const StuckSystem &D, const Forces &b, const Preconditioner &prec,
                             double rtol, int most, Forces &x)
{
  const auto started = std::chrono::steady_clock::now();
  CgResult res;
  const double size_b = std::sqrt(dot_all(b, b));
  Forces r = b, q;
  const auto apply = [&D](const Forces &v, Forces &out) { D.apply(v, out); };
  const auto done = [&](const Forces &left) { return std::sqrt(dot_all(left, left)) <= rtol * size_b; };
  const int iterations = preconditioned_cg(apply, prec, done, most, x, r);
  res.iterations = done(r) ? iterations : -most;
  D.apply(x, q);
  for (size_t s = 0; s < D.size(); s++) r[s] = b[s] - q[s];
  res.true_residual = std::sqrt(dot_all(r, r)) / size_b;
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return res;
}

// z = diag(m_t) r
struct JacobiPreconditioner {
  const StuckSystem &D;
  void operator()(const Forces &r, Forces &z) const
  {
    z.resize(D.size());
    for (size_t s = 0; s < D.size(); s++) z[s] = D.mass(s) * r[s];
  }
};

// Symmetric positive definite 3k x 3k block of D_SS over a set of contacts, with 1/m_t n n^T
// added on each contact's normal (where D_SS is blind), factored by Cholesky.
class ContactBlock {
 public:
  ContactBlock(const StuckSystem &D, const std::vector<int> &contacts) : members(contacts)
  {
    const int k = static_cast<int>(contacts.size());
    n3 = 3 * k;
    L.assign((size_t) n3 * n3, 0.0);
    std::map<int, int> where;
    for (int a = 0; a < k; a++) where[contacts[a]] = a;
    StuckSystem::Sparse x(1), y;
    for (int a = 0; a < k; a++) {
      const Vec3 &n = D.normal(contacts[a]);
      const double nn[3] = {n.x, n.y, n.z};
      for (int m = 0; m < 3; m++) {
        Vec3 e{m == 0 ? 1.0 : 0.0, m == 1 ? 1.0 : 0.0, m == 2 ? 1.0 : 0.0};
        x[0] = {contacts[a], ge::project_onto_plane(e, n)};
        D.apply_sparse(x, y);
        for (const auto &r : y) {
          const auto it = where.find(r.first);
          if (it == where.end()) continue;
          const double v[3] = {r.second.x, r.second.y, r.second.z};
          for (int q = 0; q < 3; q++) at(3 * it->second + q, 3 * a + m) = v[q];
        }
        for (int q = 0; q < 3; q++) at(3 * a + q, 3 * a + m) += nn[q] * nn[m] / D.mass(contacts[a]);
      }
    }
    factor();
  }
  // out += weight * T (block^-1 r) on the members
  void solve_add(const StuckSystem &D, const Forces &r, double weight, Forces &out,
                 std::vector<double> &v) const
  {
    v.resize(n3);
    for (size_t a = 0; a < members.size(); a++) {
      v[3 * a] = r[members[a]].x;
      v[3 * a + 1] = r[members[a]].y;
      v[3 * a + 2] = r[members[a]].z;
    }
    for (int i = 0; i < n3; i++) {
      double s = v[i];
      for (int q = 0; q < i; q++) s -= L[(size_t) i * n3 + q] * v[q];
      v[i] = s / L[(size_t) i * n3 + i];
    }
    for (int i = n3 - 1; i >= 0; i--) {
      double s = v[i];
      for (int q = i + 1; q < n3; q++) s -= L[(size_t) q * n3 + i] * v[q];
      v[i] = s / L[(size_t) i * n3 + i];
    }
    for (size_t a = 0; a < members.size(); a++) {
      const Vec3 f{v[3 * a], v[3 * a + 1], v[3 * a + 2]};
      out[members[a]] = out[members[a]] + weight * ge::project_onto_plane(f, D.normal(members[a]));
    }
  }
  std::vector<int> members;

 private:
  int n3 = 0;
  std::vector<double> L;
  double &at(int r, int c) { return L[(size_t) r * n3 + c]; }
  void factor()
  {
    // D_SS is symmetric only to roundoff: take the mean of the two triangles
    for (int r = 0; r < n3; r++)
      for (int c = 0; c < r; c++) at(r, c) = at(c, r) = 0.5 * (at(r, c) + at(c, r));
    for (int j = 0; j < n3; j++) {
      double d = at(j, j);
      for (int q = 0; q < j; q++) d -= at(j, q) * at(j, q);
      d = std::sqrt(std::fmax(d, 1e-14 * at(j, j)));
      at(j, j) = d;
      for (int r = j + 1; r < n3; r++) {
        double t = at(r, j);
        for (int q = 0; q < j; q++) t -= at(r, q) * at(j, q);
        at(r, j) = t / d;
      }
    }
  }
};

// symmetric successive over-relaxation (SSOR; omega = 1: symmetric Gauss-Seidel): a forward
// sweep, then a backward one, M = (omega / (2 - omega)) (D/omega + L) D^-1 (D/omega + U)
struct SsorPreconditioner {
  const StuckSystem &D;
  double omega = 1.0;
  // y = (D/omega + L)^-1 r, then z = (D/omega + U)^-1 ((2 - omega)/omega) D y
  void operator()(const Forces &r, Forces &z) const
  {
    D.sweep(r, y, omega, true);
    for (size_t s = 0; s < D.size(); s++) y[s] = ((2.0 - omega) / (omega * D.mass(s))) * y[s];
    D.sweep(y, z, omega, false);
  }
  mutable Forces y;
};

// SSOR-preconditioned CG in Eisenstat's form (S. C. Eisenstat, SIAM J. Sci. Stat. Comput. 2,
// 1981): CG on the split system E^-1 A E^-T y = E^-1 b, E = (D/omega + L) Dt^-1/2, Dt =
// ((2 - omega)/omega) D, whose operator is applied by one backward and one forward sweep and no
// product with A: with A = (D/omega + L) + (D/omega + U) - K, K = (2/omega - 1) D,
//   (D/omega + L)^-1 A (D/omega + U)^-1 v = t + (D/omega + L)^-1 (v - K t),  t = (D/omega + U)^-1 v.
// x = E^-T y gathers alpha t of every iteration. The same iterates as CG with the SSOR
// preconditioner (exact arithmetic). Its residual is E^-1 (b - D_SS x): the true one, for the
// stop at |b - D_SS x| <= rtol |b|, is recomputed every 10 iterations (not timed).
inline CgResult eisenstat_ssor_cg(const StuckSystem &D, const Forces &b, double omega,
                                  double rtol, int most, Forces &x)
{
  const auto started = std::chrono::steady_clock::now();
  const size_t n = D.size();
  std::vector<double> half(n);    // Dt^1/2 per contact
  for (size_t s = 0; s < n; s++) half[s] = std::sqrt((2.0 - omega) / (omega * D.mass(s)));
  Forces r(n), t, y, w(n), v(n), dir, q(n);
  D.sweep(b, y, omega, true);    // (D/omega + L)^-1 b
  for (size_t s = 0; s < n; s++) r[s] = half[s] * y[s];
  x.assign(n, Vec3{0, 0, 0});
  dir = r;
  double rr = dot_all(r, r);
  double untimed = 0.0;
  const double size_b = std::sqrt(dot_all(b, b));
  auto reached = [&]() {
    const auto paused = std::chrono::steady_clock::now();
    Forces left;
    D.apply(x, left);
    for (size_t s = 0; s < n; s++) left[s] = b[s] - left[s];
    const bool done = std::sqrt(dot_all(left, left)) <= rtol * size_b;
    untimed += std::chrono::duration<double>(std::chrono::steady_clock::now() - paused).count();
    return done;
  };
  int iterations = 0;
  for (; iterations < most && rr > 0.0; iterations++) {
    if (iterations % 10 == 0 && iterations > 0 && reached()) break;
    for (size_t s = 0; s < n; s++) v[s] = half[s] * dir[s];
    D.sweep(v, t, omega, false);    // t = (D/omega + U)^-1 v
    for (size_t s = 0; s < n; s++) w[s] = v[s] - ((2.0 / omega - 1.0) / D.mass(s)) * t[s];
    D.sweep(w, y, omega, true);
    for (size_t s = 0; s < n; s++) q[s] = half[s] * (t[s] + y[s]);
    const double alpha = rr / dot_all(dir, q);
    for (size_t s = 0; s < n; s++) {
      x[s] = x[s] + alpha * t[s];
      r[s] = r[s] - alpha * q[s];
    }
    const double rr_next = dot_all(r, r);
    for (size_t s = 0; s < n; s++) dir[s] = r[s] + (rr_next / rr) * dir[s];
    rr = rr_next;
  }
  CgResult res;
  res.iterations = iterations;
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() -
      untimed;
  D.apply(x, q);
  for (size_t s = 0; s < n; s++) r[s] = b[s] - q[s];
  res.true_residual = std::sqrt(dot_all(r, r) / dot_all(b, b));
  return res;
}

// additive Schwarz over the stars of the moving bodies (each contact in one or two stars, each
// star's solve weighted 1/2); contacts in no star get the Jacobi step
class StarSchwarz {
 public:
  explicit StarSchwarz(const StuckSystem &system) : D(system)
  {
    covered.assign(D.size(), 0);
    for (int b = 0; b < D.p.nbodies; b++) {
      if (!D.moves(b) || D.contacts_of(b).empty()) continue;
      stars.emplace_back(D, D.contacts_of(b));
      for (int s : D.contacts_of(b)) covered[s] = 1;
    }
  }
  void operator()(const Forces &r, Forces &z) const
  {
    z.assign(D.size(), Vec3{0, 0, 0});
    for (const ContactBlock &star : stars) star.solve_add(D, r, 0.5, z, scratch);
    for (size_t s = 0; s < D.size(); s++)
      if (!covered[s]) z[s] = D.mass(s) * r[s];
  }
  size_t count() const { return stars.size(); }

 private:
  const StuckSystem &D;
  std::vector<ContactBlock> stars;
  std::vector<char> covered;
  mutable std::vector<double> scratch;
};

// the coarse space and the V(1,1) cycle (see the header comment)
class TwoLevel {
 public:
  TwoLevel(const StuckSystem &system, double cell, double largest_eigenvalue, bool smooth)
      : D(system), omega(4.0 / (3.0 * largest_eigenvalue))
  {
    tentative_columns(cell);
    if (smooth) smooth_columns();
    factor(coarse_matrix());
  }
  void operator()(const Forces &r, Forces &z) const
  {
    const size_t n = D.size();
    z.resize(n);
    t2.resize(n);
    for (size_t s = 0; s < n; s++) z[s] = (omega * D.mass(s)) * r[s];
    D.apply(z, t1);
    for (size_t s = 0; s < n; s++) t2[s] = r[s] - t1[s];
    coarse_correct(t2, z);
    D.apply(z, t1);
    for (size_t s = 0; s < n; s++) z[s] = z[s] + (omega * D.mass(s)) * (r[s] - t1[s]);
  }
  // x += P Ac^+ P^T r
  void coarse_correct(const Forces &r, Forces &x) const
  {
    std::vector<double> rc(nc);
    for (int c = 0; c < nc; c++) {
      double s = 0.0;
      for (const auto &e : P[c]) s += ge::dot(e.second, r[e.first]);
      rc[c] = s;
    }
    coarse_solve(rc);
    for (int c = 0; c < nc; c++)
      for (const auto &e : P[c]) x[e.first] = x[e.first] + rc[c] * e.second;
  }
  // the largest |P^T r| of one column
  double largest_restriction(const Forces &r) const
  {
    double largest = 0.0;
    for (const StuckSystem::Sparse &col : P) {
      double s = 0.0;
      for (const auto &e : col) s += ge::dot(e.second, r[e.first]);
      largest = std::fmax(largest, std::fabs(s));
    }
    return largest;
  }
  int coarse_size() const { return nc; }
  int dropped_pivots() const { return ndropped; }

 private:
  const StuckSystem &D;
  double omega;
  std::vector<StuckSystem::Sparse> P;
  int nc = 0, ndropped = 0;
  std::vector<double> U;    // Ac = U^T diag U, row k: the pivot, then the pivot times U's row
  std::vector<char> dropped;
  mutable Forces t1, t2;

  // the cell of each stuck contact's point, then per cell the 9 stress columns orthonormalised
  void tentative_columns(double cell)
  {
    const Problem &p = D.p;
    int ncell[3];
    for (int m = 0; m < 3; m++)
      ncell[m] = std::max(1, static_cast<int>(std::floor((p.hi[m] - p.lo[m]) / cell)));
    std::map<long, std::vector<int>> cells;
    for (size_t s = 0; s < D.size(); s++) {
      const ContactTerms &t = D.terms(s);
      const Vec3 point = p.position[t.i] - t.rho_i * t.normal;
      const double c[3] = {point.x, point.y, point.z};
      long key = 0;
      for (int m = 2; m >= 0; m--) {
        const double length = p.hi[m] - p.lo[m];
        double r = c[m] - p.lo[m];
        if (m < 2) r -= length * std::floor(r / length);
        const int idx = std::min(ncell[m] - 1, std::max(0, static_cast<int>(std::floor(r / cell))));
        key = key * ncell[m] + idx;
      }
      cells[key].push_back(static_cast<int>(s));
    }
    for (const auto &cellc : cells) {
      const std::vector<int> &members = cellc.second;
      std::vector<Forces> cols;
      for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
          Forces v(members.size());
          for (size_t k = 0; k < members.size(); k++) {
            const Vec3 &n = D.normal(members[k]);
            const double nb = b == 0 ? n.x : b == 1 ? n.y : n.z;
            const Vec3 sigma_n{a == 0 ? nb : 0.0, a == 1 ? nb : 0.0, a == 2 ? nb : 0.0};
            v[k] = ge::project_onto_plane(sigma_n, n);
          }
          const double size0 = std::sqrt(dot_all(v, v));
          for (const Forces &c : cols) {
            const double along = dot_all(c, v);
            for (size_t k = 0; k < v.size(); k++) v[k] = v[k] - along * c[k];
          }
          const double size = std::sqrt(dot_all(v, v));
          if (size0 == 0.0 || size <= 1e-6 * size0) continue;
          for (Vec3 &e : v) e = (1.0 / size) * e;
          cols.push_back(v);
        }
      for (const Forces &c : cols) {
        StuckSystem::Sparse col;
        for (size_t k = 0; k < c.size(); k++) col.push_back({members[k], c[k]});
        P.push_back(col);
      }
    }
    nc = static_cast<int>(P.size());
  }
  // P <- (I - omega diag(m_t) D_SS) P
  void smooth_columns()
  {
    StuckSystem::Sparse y;
    for (StuckSystem::Sparse &col : P) {
      D.apply_sparse(col, y);
      std::map<int, Vec3> merged(col.begin(), col.end());
      for (const auto &e : y) {
        Vec3 &m = merged.try_emplace(e.first, Vec3{0, 0, 0}).first->second;
        m = m - (omega * D.mass(e.first)) * e.second;
      }
      col.assign(merged.begin(), merged.end());
    }
  }
  // Ac = (J^T P)^T M^-1 (J^T P), summed body by body
  std::vector<double> coarse_matrix() const
  {
    std::vector<std::vector<std::pair<int, std::array<double, 6>>>> per_body(D.p.nbodies);
    std::vector<std::pair<int, std::array<double, 6>>> h;
    for (int c = 0; c < nc; c++) {
      D.body_forces(P[c], h);
      for (const auto &e : h) per_body[e.first].push_back({c, e.second});
    }
    std::vector<double> A((size_t) nc * nc, 0.0);
    for (int b = 0; b < D.p.nbodies; b++) {
      const double w = D.body_inv_mass(b), u = D.body_inv_inertia(b);
      for (const auto &e1 : per_body[b])
        for (const auto &e2 : per_body[b]) {
          double v = 0.0;
          for (int m = 0; m < 3; m++) v += w * e1.second[m] * e2.second[m];
          for (int m = 3; m < 6; m++) v += u * e1.second[m] * e2.second[m];
          A[(size_t) e1.first * nc + e2.first] += v;
        }
    }
    return A;
  }
  // U^T diag U without pivoting; pivots below 1e-12 of the largest diagonal are dropped (Ac is
  // semi-definite where the coarse forces include a self-stress)
  void factor(std::vector<double> A)
  {
    double largest = 0.0;
    for (int k = 0; k < nc; k++) largest = std::fmax(largest, A[(size_t) k * nc + k]);
    dropped.assign(nc, 0);
    for (int k = 0; k < nc; k++) {
      double *row = &A[(size_t) k * nc];
      const double d = row[k];
      if (d <= 1e-12 * largest) {
        dropped[k] = 1;
        ndropped++;
        for (int j = k; j < nc; j++) row[j] = 0.0;
        continue;
      }
      for (int j = k + 1; j < nc; j++) {
        const double f = row[j] / d;
        if (f == 0.0) continue;
        double *below = &A[(size_t) j * nc];
        for (int i = j; i < nc; i++) below[i] -= f * row[i];
      }
    }
    U.swap(A);
  }
  void coarse_solve(std::vector<double> &r) const
  {
    for (int k = 0; k < nc; k++) {
      if (dropped[k]) {
        r[k] = 0.0;
        continue;
      }
      const double *row = &U[(size_t) k * nc];
      const double f = r[k] / row[k];
      for (int j = k + 1; j < nc; j++) r[j] -= f * row[j];
    }
    for (int k = 0; k < nc; k++)
      if (!dropped[k]) r[k] /= U[(size_t) k * nc + k];
    for (int k = nc - 1; k >= 0; k--) {
      if (dropped[k]) continue;
      const double *row = &U[(size_t) k * nc];
      double s = r[k];
      for (int j = k + 1; j < nc; j++) s -= row[j] / row[k] * r[j];
      r[k] = s;
    }
  }
};

// the largest m_t |r_c| / (mu F_n) of rates r: the natural residual of a stuck contact whose
// force stays inside its disk
inline double largest_scaled_rate(const StuckSystem &D, const Forces &r)
{
  double largest = 0.0;
  for (size_t s = 0; s < D.size(); s++)
    largest = std::fmax(largest, D.mass(s) * ge::norm(r[s]) / D.terms(s).cap);
  return largest;
}

// The step's own problem solved as a linear one: the stuck contacts (those of the warm start)
// held at rest with the sliding ones held at their warm-start forces, by diagonally
// preconditioned CG from the warm start until every stuck contact's m_t |s| / (mu F_n) is
// below tol/2 (or `most` iterations); then the natural residual of the whole problem at the
// result. Where the warm start's stuck set is the solution's, that residual is at most tol and
// the step is solved; where a contact must start to slide, the linear solve pushes forces
// outside their disks and the residual is large.
struct WarmStartSolve {
  int iterations = 0;
  double start_residual = 0.0;    // the natural residual of the warm start
  double residual = 0.0;          // that of the result, over all contacts
  int outside = 0;                // stuck contacts whose force left the disk
  double seconds = 0.0;
};

inline WarmStartSolve solve_stuck_set_from_warm_start(const Problem &p, const StuckSystem &D,
                                                      double tol, int most)
{
  const auto started = std::chrono::steady_clock::now();
  WarmStartSolve out;
  std::vector<double> totals = totals_of(p, p.start);
  out.start_residual = largest_natural_residual(p, p.start, totals);
  double wall[6] = {0, 0, 0, 0, 0, 0};
  Forces r(D.size()), x;
  for (size_t s = 0; s < D.size(); s++) r[s] = -1.0 * rate_at(D.terms(s), totals, wall);
  const auto apply = [&D](const Forces &v, Forces &out) { D.apply(v, out); };
  const auto done = [&](const Forces &left) { return largest_scaled_rate(D, left) <= 0.5 * tol; };
  out.iterations = preconditioned_cg(apply, JacobiPreconditioner{D}, done, most, x, r);
  std::vector<Vec3> force = p.start;
  for (size_t s = 0; s < D.size(); s++) {
    force[D.S[s]] = p.start[D.S[s]] + x[s];
    if (ge::norm(force[D.S[s]]) > D.terms(s).cap) out.outside++;
  }
  totals = totals_of(p, force);
  out.residual = largest_natural_residual(p, force, totals);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return out;
}

// A hybrid measured as the next solver to try: `apgd` APGD iterations (the host algorithm of
// the fix) to find which contacts stick and which slide, then Newton steps on that face of the
// problem, each solved by preconditioned CG: a stuck contact's force is free in its tangent
// plane, a sliding contact's only along its rim, e = n x F/|F|, and held at |F| = mu F_n. The
// rim's condition (s parallel to -F) linearised in the turn of F along e is
//     e . (D delta) + (|s| / (mu F_n)) (e . delta) = -e . s
// (the projection onto a disk has the derivative (|s|/cap) on its rim: without it the steps
// overshoot and the residual grows). After each Newton step the sliding forces are put back on
// their rims, stuck forces that left their disk are clipped (they slide from then on), and
// sliding contacts whose rate points along their force are released; until the natural residual
// is at most tol.
struct HybridSolve {
  int apgd = 0, cg = 0, newton = 0;    // iterations of each phase, Newton steps
  double residual = 0.0;               // the natural residual at the end
  double seconds = 0.0;
};

inline HybridSolve solve_apgd_then_newton_cg(const Problem &p, int apgd, int cg_most,
                                             int newton_most)
{
  const auto started = std::chrono::steady_clock::now();
  HybridSolve out;
  Problem run = p;
  run.tol = 0.0;    // exactly `apgd` iterations
  std::vector<Vec3> force = solve_on_host(run, apgd).force;
  out.apgd = apgd;
  Problem every = p;    // D over every contact with a mass and a cap
  for (Vec3 &f : every.start) f = Vec3{0, 0, 0};
  const StuckSystem D(every);
  const size_t n = D.size();
  double wall[6] = {0, 0, 0, 0, 0, 0};
  std::vector<double> totals = totals_of(p, force);
  out.residual = largest_natural_residual(p, force, totals);
  while (out.residual > p.tol && out.newton < newton_most) {
    out.newton++;
    // the face: the rims' directions and curvature terms
    std::vector<char> sliding(n);
    std::vector<double> curvature(n, 0.0);
    Forces along(n), r(n);
    for (size_t k = 0; k < n; k++) {
      const double cap = D.terms(k).cap;
      const Vec3 &f = force[D.S[k]];
      const Vec3 rate = rate_at(D.terms(k), totals, wall);
      r[k] = -1.0 * rate;
      sliding[k] = ge::norm(f) >= cap * (1.0 - 1e-9);
      if (!sliding[k]) continue;
      along[k] = ge::cross(D.normal(k), (1.0 / ge::norm(f)) * f);
      curvature[k] = ge::norm(rate) / cap;
    }
    auto onto_face = [&](Forces &v) {
      for (size_t k = 0; k < n; k++)
        if (sliding[k]) v[k] = ge::dot(v[k], along[k]) * along[k];
    };
    auto apply = [&](const Forces &x, Forces &y) {
      D.apply(x, y);
      for (size_t k = 0; k < n; k++)
        if (sliding[k]) y[k] = y[k] + curvature[k] * x[k];
      onto_face(y);
    };
    auto precondition = [&](const Forces &v, Forces &z) {
      z.resize(n);
      for (size_t k = 0; k < n; k++) z[k] = (1.0 / (1.0 / D.mass(k) + curvature[k])) * v[k];
      onto_face(z);
    };
    onto_face(r);
    Forces delta;
    const auto done = [&](const Forces &left) { return largest_scaled_rate(D, left) <= 0.3 * p.tol; };
    out.cg += preconditioned_cg(apply, precondition, done, cg_most, delta, r);
    // back onto the disks: rims for the sliding, clipped where a stuck force left its disk
    for (size_t k = 0; k < n; k++) {
      const double cap = D.terms(k).cap;
      Vec3 f = force[D.S[k]] + delta[k];
      const double size = ge::norm(f);
      if (sliding[k] || size > cap) f = (cap / size) * f;
      force[D.S[k]] = f;
    }
    totals = totals_of(p, force);
    // a sliding contact whose rate now points along its force sticks
    bool released = false;
    for (size_t k = 0; k < n; k++)
      if (sliding[k] && ge::dot(rate_at(D.terms(k), totals, wall), force[D.S[k]]) > 0.0) {
        force[D.S[k]] = (1.0 - 1e-6) * force[D.S[k]];
        released = true;
      }
    if (released) totals = totals_of(p, force);
    out.residual = largest_natural_residual(p, force, totals);
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return out;
}

// 2 N_c / 6 N: the stuck tangential constraints (two per contact) per degree of freedom of the
// moving bodies, over the whole problem and (slabs > 0) in horizontal slabs by the height of the
// contact point and of the body's centre
inline std::vector<double> constraint_ratio(const StuckSystem &D, int slabs)
{
  const Problem &p = D.p;
  const int bins = std::max(1, slabs);
  std::vector<double> constraints(bins + 1, 0.0), freedoms(bins + 1, 0.0);
  const double height = p.hi[2] > p.lo[2] ? p.hi[2] - p.lo[2] : 1.0;
  double top = p.lo[2];
  for (int b = 0; b < p.nbodies; b++)
    if (D.moves(b)) top = std::fmax(top, p.position[b].z);
  const double span = top > p.lo[2] ? top - p.lo[2] : height;
  auto bin_of = [&](double z) {
    return std::min(bins - 1, std::max(0, static_cast<int>((z - p.lo[2]) / span * bins)));
  };
  for (size_t s = 0; s < D.size(); s++) {
    const ContactTerms &t = D.terms(s);
    constraints[0] += 2.0;
    constraints[1 + bin_of(p.position[t.i].z - t.rho_i * t.normal.z)] += 2.0;
  }
  for (int b = 0; b < p.nbodies; b++)
    if (D.moves(b)) {
      freedoms[0] += 6.0;
      freedoms[1 + bin_of(p.position[b].z)] += 6.0;
    }
  std::vector<double> ratio;
  for (int k = 0; k <= (slabs > 0 ? bins : 0); k++)
    ratio.push_back(freedoms[k] > 0.0 ? constraints[k] / freedoms[k] : 0.0);
  return ratio;
}

}    // namespace ge_coulomb_problem
