// A step's friction problem of `tangential coulomb` as `fix_modify GE_COULOMB export` writes it
// (fix_coulomb_friction_exact.cpp says the file's layout), read back and optionally tiled across
// its periodic box, and the host's APGD solve of it: FixCoulombFrictionExact::solve_apgd and
// true_error_below_tol in the same order, so that it takes the fix's iterations to the bit.
// Used by the deck test of the export and by bench/device/coulomb_apgd.cu, which solves the
// same problems on a GPU. Host code; ContactTerms is also read by device kernels.
#pragma once

#include "kokkos/coulomb_friction_problem.hpp"

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
  set_row_bounds(p);
  return p;
}

// ------------------------------------------------------------------------------------------
// the host algorithm (solve_apgd and true_error_below_tol of the fix, in the same order)

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
