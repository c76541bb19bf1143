// The friction problem of one step of `tangential coulomb` in memory, as the parallel Newton
// solver (coulomb_newton_parallel.hpp) reads it: each contact's terms (the fields of
// ge::CoulombContact and ge::CoulombCoupling that an iteration reads) and its two bodies, every
// body's totals of the other forces, and the start forces. FixCoulombFrictionExact builds it for
// a solve on a Kokkos device and writes it for `fix_modify export`; unittest/device/
// coulomb_problem.hpp reads that file back. LAMMPS-free host code; ContactTerms is also read by
// device code.
#pragma once

#include "contact/coulomb_constraint.hpp"

#include <cmath>
#include <vector>

namespace ge_coulomb_problem {

using ge::Vec3;

// The preconditioner a solve in a Kokkos execution space asks for (fix_modify GE_COULOMB
// preconditioner): the space's own (Auto: diagonal blocks on a device, symmetric Gauss-Seidel on
// host threads, SolveInSpace), or either of them
enum class PreconditionerChoice { Auto, GaussSeidel, Diagonal };

// How the solves in a Kokkos execution space run (fix_modify GE_COULOMB preconditioner, graphs)
struct SpaceChoices {
  PreconditionerChoice preconditioner = PreconditionerChoice::Auto;
  bool graphs = false;    // each batch of iterations as one Kokkos graph (KokkosLoops::batch)
};

// What a contact's iteration reads: the fields of CoulombContact and CoulombCoupling that the
// APGD step and the natural residual use, 16 doubles, and its two bodies.
struct ContactTerms {
  Vec3 normal, rate0;
  double rho_i, rho_j, cap;
  double w_i, q_i, w_j, q_j, mass;
  double inv_row;
  int i, j;    // j < 0: a wall (its side of the totals is scratch)

  // a contact's terms from the fix's records (the inverse of contact() and coupling())
  GE_INLINE static ContactTerms of(const ge::CoulombContact &c, const ge::CoulombCoupling &k,
                         double inv_row, int i, int j)
  {
    ContactTerms t;
    t.normal = c.normal;
    t.rate0 = c.rate0;
    t.rho_i = c.rho_i;
    t.rho_j = c.rho_j;
    t.cap = c.cap;
    t.w_i = k.w_i;
    t.q_i = k.q_i;
    t.w_j = k.w_j;
    t.q_j = k.q_j;
    t.mass = k.mass;
    t.inv_row = inv_row;
    t.i = i;
    t.j = j < 0 ? -1 : j;
    return t;
  }

  GE_INLINE ge::CoulombContact contact() const
  {
    ge::CoulombContact c;
    c.normal = normal;
    c.rate0 = rate0;
    c.rho_i = rho_i;
    c.rho_j = rho_j;
    c.cap = cap;
    return c;
  }
  GE_INLINE ge::CoulombCoupling coupling() const
  {
    ge::CoulombCoupling k;
    k.w_i = w_i;
    k.q_i = q_i;
    k.w_j = w_j;
    k.q_j = q_j;
    k.mass = mass;
    return k;
  }
};

struct Problem {
  int nbodies = 0;
  double tol = 0.0;
  bool extrapolated = false;    // the start forces are the extrapolated ones (fix vector 11)
  std::vector<double> total0;    // 6 per body: every force but the friction
  std::vector<ContactTerms> terms;
  std::vector<Vec3> start;       // the warm start
  std::vector<Vec3> position;    // per body: its centre (copies shifted by whole boxes)
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};    // the box (x and y periodic; tiled: t boxes)
};

// the problem without its contacts: its bodies, box and settings (for a copy of the problem whose
// contacts are placed in another order)
inline Problem bodies_of(const Problem &p)
{
  Problem q;
  q.nbodies = p.nbodies;
  q.tol = p.tol;
  q.extrapolated = p.extrapolated;
  q.total0 = p.total0;
  q.position = p.position;
  for (int m = 0; m < 3; m++) {
    q.lo[m] = p.lo[m];
    q.hi[m] = p.hi[m];
  }
  return q;
}

// R_c of every contact (ge::coulomb_row_bound) from each body's contacts and lever arms:
// FixCoulombFrictionExact::compute_row_bounds on one process
inline void set_row_bounds(Problem &p)
{
  std::vector<double> count(p.nbodies, 0.0), levers(p.nbodies, 0.0);
  for (const ContactTerms &t : p.terms) {
    count[t.i] += 1.0;
    levers[t.i] += t.rho_i;
    if (t.j < 0) continue;
    count[t.j] += 1.0;
    levers[t.j] += t.rho_j;
  }
  for (ContactTerms &t : p.terms) {
    ge::CoulombCoupling k = t.coupling();
    const double r = ge::coulomb_row_bound(k, count[t.i], levers[t.i], t.j < 0 ? 0.0 : count[t.j],
                                           t.j < 0 ? 0.0 : levers[t.j]);
    t.inv_row = r > 0.0 ? 1.0 / r : 0.0;
  }
}

// ------------------------------------------------------------------------------------------
// the contacts' moves gathered by body (no atomics; each body in a fixed order)

// each body's contacts in the contacts' order: body b's are side[body_start[b] ..
// body_start[b + 1]), 2 k for contact k's side i, 2 k + 1 for its side j
// (contact k's bodies: body_i(k) and body_j(k), < 0 a wall)
template <class I, class J>
void body_lists(int nb, int nc, I body_i, J body_j, std::vector<int> &body_start,
                std::vector<int> &side)
{
  body_start.assign(nb + 1, 0);
  for (int k = 0; k < nc; k++) {
    body_start[body_i(k) + 1]++;
    if (body_j(k) >= 0) body_start[body_j(k) + 1]++;
  }
  for (int b = 0; b < nb; b++) body_start[b + 1] += body_start[b];
  side.assign(body_start[nb], 0);
  std::vector<int> fill(body_start.begin(), body_start.end() - 1);
  for (int k = 0; k < nc; k++) {
    side[fill[body_i(k)]++] = 2 * k;
    if (body_j(k) >= 0) side[fill[body_j(k)]++] = 2 * k + 1;
  }
}

inline void body_lists(const Problem &p, std::vector<int> &body_start, std::vector<int> &side)
{
  body_lists(
      p.nbodies, static_cast<int>(p.terms.size()), [&](int k) { return p.terms[k].i; },
      [&](int k) { return p.terms[k].j; }, body_start, side);
}

// sum += the moves of body b's contacts, in the order of its list: what the fix's in-place adds
// add to the body, in the same order
GE_INLINE void add_body_moves(const int *body_start, const int *side, const ContactTerms *terms,
                              const Vec3 *move, int b, double sum[6])
{
  for (int e = body_start[b]; e < body_start[b + 1]; e++) {
    const int k = side[e] >> 1;
    double di[6] = {0, 0, 0, 0, 0, 0}, dj[6] = {0, 0, 0, 0, 0, 0};
    ge::coulomb_add_pair(terms[k].contact(), di, dj, move[k]);
    // (each branch with fixed indices: the shares stay in registers)
    if (side[e] & 1)
      for (int m = 0; m < 6; m++) sum[m] += dj[m];
    else
      for (int m = 0; m < 6; m++) sum[m] += di[m];
  }
}

// ------------------------------------------------------------------------------------------
// the totals of the forces and the true error, on the host, in the contacts' order

inline double *side_of_j(std::vector<double> &totals, int j, double *wall_side)
{
  return j >= 0 ? &totals[6 * (size_t) j] : wall_side;
}

// the totals of the forces F, summed in the contacts' order
inline std::vector<double> totals_of(const Problem &p, const std::vector<Vec3> &force)
{
  std::vector<double> totals = p.total0;
  double wall_side[6] = {0, 0, 0, 0, 0, 0};
  for (size_t k = 0; k < p.terms.size(); k++) {
    if (ge::is_zero(force[k])) continue;
    const ContactTerms &t = p.terms[k];
    ge::coulomb_add_pair(t.contact(), &totals[6 * (size_t) t.i], side_of_j(totals, t.j, wall_side),
                         force[k]);
  }
  return totals;
}

inline Vec3 rate_at(const ContactTerms &t, std::vector<double> &totals, double *wall_side)
{
  return ge::coulomb_rate(t.contact(), t.coupling(), &totals[6 * (size_t) t.i],
                          side_of_j(totals, t.j, wall_side));
}

inline double largest_natural_residual(const Problem &p, const std::vector<Vec3> &force,
                                       std::vector<double> &totals)
{
  double largest = 0.0, wall_side[6] = {0, 0, 0, 0, 0, 0};
  for (size_t k = 0; k < p.terms.size(); k++) {
    const ContactTerms &t = p.terms[k];
    largest = std::fmax(largest, ge::coulomb_natural_residual(t.contact(), t.coupling(), force[k],
                                                              rate_at(t, totals, wall_side)));
  }
  return largest;
}

}    // namespace ge_coulomb_problem
