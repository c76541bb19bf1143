// A step's friction problem of `tangential coulomb` as `fix_modify GE_COULOMB export` writes it
// (fix_coulomb_friction_exact.cpp says the file's layout), read back and optionally tiled across
// its periodic box, and the host's APGD solve of it: FixCoulombFrictionExact::solve_apgd and
// true_error_below_tol in the same order, so that it takes the fix's iterations to the bit.
// Used by the deck test of the export and by bench/device/coulomb_apgd.cu, which solves the
// same problems on a GPU. Host code; ContactTerms is also read by device kernels.
#pragma once

#include "contact/coulomb_constraint.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace ge_coulomb_problem {

using ge::Vec3;

// What a contact's iteration reads: the fields of CoulombContact and CoulombCoupling that the
// APGD step and the natural residual use, 16 doubles, and its two bodies.
struct ContactTerms {
  Vec3 normal, rate0;
  double rho_i, rho_j, cap;
  double w_i, q_i, w_j, q_j, mass;
  double inv_row;
  int i, j;    // j < 0: a wall (its side of the totals is scratch)

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

// ------------------------------------------------------------------------------------------
// the file of fix_modify export (fix_coulomb_friction_exact.cpp says its layout), tiled

template <class T> void read_into(FILE *fp, T *p, size_t n, const char *file)
{
  if (fread(p, sizeof(T), n, fp) != n) {
    std::fclose(fp);
    throw std::runtime_error(std::string(file) + " is shorter than its header says");
  }
}

inline Problem read_problem(const char *file, int tile)
{
  FILE *fp = std::fopen(file, "rb");
  if (!fp) {
    throw std::runtime_error(std::string("cannot open ") + file);
  }
  char magic[8];
  read_into(fp, magic, 8, file);
  const bool version1 = std::memcmp(magic, "GECLMB01", 8) == 0;
  if (!version1 && std::memcmp(magic, "GECLMB02", 8) != 0) {
    std::fclose(fp);
    throw std::runtime_error(std::string(file) + " is not a friction problem of fix_modify export");
  }
  int64_t counts[2];
  read_into(fp, counts, 2, file);
  double box[7];
  read_into(fp, box, 7, file);
  int64_t start_kind = 0;
  if (!version1) read_into(fp, &start_kind, 1, file);
  const int nb = static_cast<int>(counts[0]), nc = static_cast<int>(counts[1]);
  std::vector<double> body(9 * (size_t) nb);
  read_into(fp, body.data(), body.size(), file);
  std::vector<int32_t> ij(2 * (size_t) nc);
  std::vector<double> row(20 * (size_t) nc);
  for (int k = 0; k < nc; k++) {
    read_into(fp, &ij[2 * k], 2, file);
    read_into(fp, &row[20 * (size_t) k], 20, file);
  }
  std::fclose(fp);

  const double length[2] = {box[3] - box[0], box[4] - box[1]};
  Problem p;
  p.tol = box[6];
  p.extrapolated = start_kind == 1;
  p.nbodies = nb * tile * tile;
  p.total0.resize(6 * (size_t) p.nbodies);
  for (int copy = 0; copy < tile * tile; copy++)
    for (int b = 0; b < nb; b++) {
      for (int m = 0; m < 6; m++) p.total0[6 * ((size_t) copy * nb + b) + m] = body[9 * b + 3 + m];
      p.position.push_back({body[9 * b] + (copy / tile) * length[0],
                            body[9 * b + 1] + (copy % tile) * length[1], body[9 * b + 2]});
    }
  for (int m = 0; m < 3; m++) {
    p.lo[m] = box[m];
    p.hi[m] = m < 2 ? box[m] + tile * length[m] : box[3 + m];
  }
  for (int a = 0; a < tile; a++)
    for (int b = 0; b < tile; b++)
      for (int k = 0; k < nc; k++) {
        const double *r = &row[20 * (size_t) k];
        const int i = ij[2 * k], j = ij[2 * k + 1];
        ContactTerms t;
        t.normal = {r[0], r[1], r[2]};
        t.rate0 = {r[3], r[4], r[5]};
        t.rho_i = r[6];
        t.rho_j = r[7];
        t.cap = r[8];
        t.w_i = r[9];
        t.q_i = r[10];
        t.w_j = r[11];
        t.q_j = r[12];
        t.mass = r[13];
        t.inv_row = 0.0;
        t.i = (a * tile + b) * nb + i;
        t.j = -1;
        if (j >= 0) {
          // the partner as listed is the owner shifted by whole boxes: its copy in that tile
          int shift[2];
          for (int m = 0; m < 2; m++)
            shift[m] = static_cast<int>(
                std::lround((body[9 * i + m] - body[9 * j + m] - r[17 + m]) / length[m]));
          const int aj = ((a + shift[0]) % tile + tile) % tile;
          const int bj = ((b + shift[1]) % tile + tile) % tile;
          t.j = (aj * tile + bj) * nb + j;
        }
        p.terms.push_back(t);
        p.start.push_back({r[14], r[15], r[16]});
      }
  // R_c (ge::coulomb_row_bound) from each body's contacts and lever arms, as compute_row_bounds()
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
  return p;
}

// ------------------------------------------------------------------------------------------
// the contacts' moves gathered by body (no atomics; each body in a fixed order)

// each body's contacts in the contacts' order: body b's are side[body_start[b] ..
// body_start[b + 1]), 2 k for contact k's side i, 2 k + 1 for its side j
inline void body_lists(const Problem &p, std::vector<int> &body_start, std::vector<int> &side)
{
  const int nc = static_cast<int>(p.terms.size()), nb = p.nbodies;
  body_start.assign(nb + 1, 0);
  for (const ContactTerms &t : p.terms) {
    body_start[t.i + 1]++;
    if (t.j >= 0) body_start[t.j + 1]++;
  }
  for (int b = 0; b < nb; b++) body_start[b + 1] += body_start[b];
  side.assign(body_start[nb], 0);
  std::vector<int> fill(body_start.begin(), body_start.end() - 1);
  for (int k = 0; k < nc; k++) {
    side[fill[p.terms[k].i]++] = 2 * k;
    if (p.terms[k].j >= 0) side[fill[p.terms[k].j]++] = 2 * k + 1;
  }
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
// the host algorithm (solve_apgd and true_error_below_tol of the fix, in the same order)

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

struct Solve {
  std::vector<Vec3> force;
  int iterations = 0;
  double residual = 0.0;    // the largest natural residual, from the solve's own totals
  double seconds = 0.0;
};

inline Solve solve_on_host(const Problem &p, int most)
{
  const auto started = std::chrono::steady_clock::now();
  Solve s;
  s.force = p.start;
  const size_t nc = p.terms.size();
  std::vector<double> total = totals_of(p, s.force), total_next(total.size());
  std::vector<Vec3> y = s.force;
  double wall_side[6] = {0, 0, 0, 0, 0, 0};
  double theta = 1.0, change_tol = p.tol;
  while (s.iterations < most) {
    s.iterations++;
    bool done = s.iterations == most;
    const double next_theta = ge::coulomb_apgd_next_theta(theta);
    const double momentum = done ? 0.0 : ge::coulomb_apgd_momentum(theta, next_theta);
    total_next = total;
    double largest = 0.0, slope = 0.0;
    for (size_t k = 0; k < nc; k++) {
      const ContactTerms &t = p.terms[k];
      const ge::CoulombApgdMove move =
          ge::coulomb_apgd_step(t.contact(), t.coupling(), t.inv_row, momentum,
                                &total[6 * (size_t) t.i], side_of_j(total, t.j, wall_side),
                                s.force[k], y[k]);
      if (move.change2 > largest * move.cap2) largest = move.change2 / move.cap2;
      slope += move.slope;
      ge::coulomb_add_pair(t.contact(), &total_next[6 * (size_t) t.i],
                           side_of_j(total_next, t.j, wall_side), move.y_change);
    }
    std::swap(total, total_next);
    const bool check = !done && std::sqrt(largest) <= change_tol;
    if (slope > 0.0 || check) {
      theta = 1.0;
      if (momentum != 0.0)
        for (size_t k = 0; k < nc; k++) {
          const ContactTerms &t = p.terms[k];
          ge::coulomb_add_pair(t.contact(), &total[6 * (size_t) t.i],
                               side_of_j(total, t.j, wall_side), s.force[k] - y[k]);
          y[k] = s.force[k];
        }
    } else {
      theta = next_theta;
    }
    if (check) {
      const double error = largest_natural_residual(p, s.force, total);
      if (error <= p.tol) done = true;
      else change_tol *= std::fmax(p.tol / error, 1e-3);
    }
    if (done) break;
  }
  s.residual = largest_natural_residual(p, s.force, total);
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return s;
}

// the largest difference of two solves' rates (the contact velocities after the step / tau)
inline double largest_rate_difference(const Problem &p, const std::vector<Vec3> &a,
                                      const std::vector<Vec3> &b)
{
  std::vector<double> ta = totals_of(p, a), tb = totals_of(p, b);
  double largest = 0.0, wall_a[6] = {0, 0, 0, 0, 0, 0}, wall_b[6] = {0, 0, 0, 0, 0, 0};
  for (const ContactTerms &t : p.terms)
    largest = std::fmax(largest, ge::norm(rate_at(t, ta, wall_a) - rate_at(t, tb, wall_b)));
  return largest;
}

}    // namespace ge_coulomb_problem
