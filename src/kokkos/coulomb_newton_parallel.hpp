// The Newton solver of `tangential coulomb` (FixCoulombFrictionExact::solve_newton, notes: Coulomb
// Newton) written as the passes a GPU runs, once for three backends: HostLoops (plain loops, one
// core) here, KokkosLoops (coulomb_newton_kokkos.hpp), with which pair granular/exact/kk solves
// the fix's problem in its execution space, and the CUDA backend of the device benchmark
// bench/device/coulomb_newton.cu. The problem: coulomb_friction_problem.hpp (the fix's in memory,
// or an exported step read back by unittest/device/coulomb_problem.hpp).
//
// Every pass is one of
//   each(begin, end, f)            f(k) for every k of the range, in parallel;
//   reduce(begin, end, f, slots)   the same, f returning a Partial: its largest value and up to
//                                  four sums go into `slots`;
//   reduce(begin, end, f, slots, then)
//                                  the same, then `then()` once, as a single pass would (a
//                                  Kokkos device runs it at the end of the reduction's kernel);
//   single(f)                      the scalar control (momentum, restarts, the Krylov scalars);
//   batch(graph, n, body)          n copies of the passes `body` makes, one CUDA graph on a
//                                  device; every pass of the batch first reads the control and
//                                  does nothing once the loop it belongs to has ended.
// The Gauss-Seidel sweeps of the preconditioner run colour by colour: the contacts are ordered
// by colour (no two contacts of a colour share a body), and a sweep is one pass per colour, the
// contacts of a colour in parallel. A contact's move reaches its bodies' totals by `gather`:
// each body sums its contacts' moves in the contacts' order, with no atomics.
//
// With one contact per "colour" in the contacts' order (natural_schedule) HostLoops does what the
// fix does, operation for operation: the deck test
// DeckCoulomb.ExportedNewtonProblemSolvesAsTheFixDoes checks that it takes the fix's iterations
// and ends at its natural residual bit for bit. With the colours (coloured_problem) it is the
// device's algorithm in one order: the device differs from it only in the order of its sums and
// in fused multiply-adds. The Krylov iterations take the fix's preconditioner (symmetric
// Gauss-Seidel) or, as a device runs best, the diagonal blocks (Preconditioner).
#pragma once

#include "coulomb_friction_problem.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#if defined(__CUDACC__)
#define GE_PASS [=] __host__ __device__
#else
#define GE_PASS [=]
#endif

namespace ge_coulomb_problem {

// What a pass's reduction returns per contact: the largest value (non-negative) and sums.
struct Partial {
  double largest = 0.0;
  double sum[4] = {0.0, 0.0, 0.0, 0.0};
};

// Where a reduction ends: the largest value as its bits (non-negative doubles order as their
// bits, so a device takes it with atomicMax) and the sums.
struct Slots {
  unsigned long long largest;
  double sum[4];
};

GE_INLINE double largest_of(const Slots &s)
{
#if defined(__CUDA_ARCH__)
  return __longlong_as_double(static_cast<long long>(s.largest));
#else
  double v;
  std::memcpy(&v, &s.largest, sizeof v);
  return v;
#endif
}

GE_INLINE void clear(Slots &s)
{
  s.largest = 0;
  for (double &x : s.sum) x = 0.0;
}

// The scalar state of the solve, where the passes read it (device memory on a GPU).
struct Control {
  // APGD (FixCoulombFrictionExact::apgd_iterations)
  int running, iterations, most, last, parity, check, take_back;
  double theta, next_theta, momentum, change_tol, tol;
  // conjugate residuals (FixCoulombFrictionExact::newton_step)
  int cr_running, cr_iterations, cr_most, checked_at, pending, cr_check;
  double alpha, beta, rr, r_ar, ap_ap, checked_largest, checked_rr, stop;
  Slots slots, check_slots;
};

// The per-contact and per-body arrays of the solve (device pointers on a GPU).
struct View {
  int nc, nb;
  const ContactTerms *terms;
  Vec3 *force, *y, *before, *move;
  ge::CoulombFace *face;
  double *half;
  Vec3 *x, *p, *u, *s, *ap, *up, *r;
  double *totals[2];    // 6 per body: the totals of the forces (APGD: of y and of the next y)
  double *dir;          // 6 per body: the totals of the Krylov directions
  const int *body_start, *side;    // body b's contacts: side[body_start[b] .. body_start[b + 1])
  Control *control;
};

// A contact's totals of j: its partner's, or (a wall) a zero row of the caller's, which the
// contact's coupling multiplies by zero and whose changes nobody reads
GE_INLINE double *side_j(double *totals, const ContactTerms &t, double *scratch)
{
  return t.j >= 0 ? &totals[6 * (size_t) t.j] : scratch;
}

GE_INLINE double *side_i(double *totals, const ContactTerms &t)
{
  return &totals[6 * (size_t) t.i];
}

GE_INLINE ge::CoulombSweepTerms<double> sweep_terms(const ContactTerms &t)
{
  return ge::coulomb_sweep_terms(t.contact(), t.coupling());
}

// The colour ranges of a sweep: colour c is contacts [start[c], start[c + 1]); `original`: the
// index in the problem it was made from of each contact (coloured_problem)
struct Schedule {
  std::vector<int> start, original;
  int colours() const { return static_cast<int>(start.size()) - 1; }
};

// one contact per colour, in the contacts' order: the fix's sweeps
inline Schedule natural_schedule(const Problem &p)
{
  Schedule s;
  for (int k = 0; k <= static_cast<int>(p.terms.size()); k++) s.start.push_back(k);
  return s;
}

// The colours of the problem's contacts (greedy, in the contacts' order: the first colour that
// none of the contacts before it on either body has), as the colours' ranges and the contacts
// placed in them; within a colour the contacts keep their order (a counting sort: one pass to
// colour, one to place). Each body's colours in use are bits in words of 64; a contact finds a
// free colour among the first 2 d - 1 (d the most contacts of a body: at most 2 d - 2 are taken
// on its two bodies), so a body with many contacts (a large sphere among small ones) only adds
// colours.
// Contact k's bodies are body_i[k] and body_j[k] (< 0: a wall).
inline Schedule colour_schedule(int nbodies, size_t nc, const int *body_i, const int *body_j)
{
  std::vector<int> degree(nbodies, 0);
  int most = 0;
  for (size_t k = 0; k < nc; k++) {
    most = std::max(most, ++degree[body_i[k]]);
    if (body_j[k] >= 0) most = std::max(most, ++degree[body_j[k]]);
  }
  const size_t words = (2 * (size_t) std::max(most, 1) - 1 + 63) / 64;
  std::vector<uint64_t> used(words * nbodies, 0);
  std::vector<int> colour(nc), count(64 * words + 1, 0);
  int colours = 0;
  for (size_t k = 0; k < nc; k++) {
    const int i = body_i[k], j = body_j[k];
    uint64_t *on_i = &used[words * i], *on_j = j >= 0 ? &used[words * j] : nullptr;
    size_t w = 0;
    uint64_t taken = 0;
    for (; w < words; w++) {
      taken = on_i[w] | (on_j ? on_j[w] : 0);
      if (~taken != 0) break;
    }
    int bit = 0;
    while (taken >> bit & 1) bit++;
    const int c = static_cast<int>(64 * w) + bit;
    colour[k] = c;
    count[c + 1]++;
    on_i[w] |= uint64_t(1) << bit;
    if (on_j) on_j[w] |= uint64_t(1) << bit;
    colours = std::max(colours, c + 1);
  }
  Schedule schedule;
  schedule.start.assign(count.begin(), count.begin() + colours + 1);
  for (int c = 0; c < colours; c++) schedule.start[c + 1] += schedule.start[c];
  schedule.original.resize(nc);
  std::vector<int> next(schedule.start.begin(), schedule.start.end() - 1);
  for (size_t k = 0; k < nc; k++) schedule.original[next[colour[k]]++] = static_cast<int>(k);
  return schedule;
}

inline Schedule colour_schedule(const Problem &p)
{
  std::vector<int> body_i(p.terms.size()), body_j(p.terms.size());
  for (size_t k = 0; k < p.terms.size(); k++) {
    body_i[k] = p.terms[k].i;
    body_j[k] = p.terms[k].j;
  }
  return colour_schedule(p.nbodies, p.terms.size(), body_i.data(), body_j.data());
}

// the problem with its contacts in the schedule's order (colour_schedule)
inline Problem in_schedule_order(const Problem &p, const Schedule &schedule)
{
  const size_t nc = p.terms.size();
  Problem q = bodies_of(p);
  q.terms.resize(nc);
  q.start.resize(nc);
  for (size_t n = 0; n < nc; n++) {
    q.terms[n] = p.terms[schedule.original[n]];
    q.start[n] = p.start[schedule.original[n]];
  }
  return q;
}

// the problem with its contacts ordered by colour, and the colours' ranges
inline Problem coloured_problem(const Problem &p, Schedule &schedule)
{
  schedule = colour_schedule(p);
  return in_schedule_order(p, schedule);
}

// to[b] = from[b] + the moves of b's contacts, in the order of its list (from == to: in place;
// from null: from zero)
GE_INLINE void gather_body(const View &v, int b, const double *from, double *to)
{
  double sum[6];
  for (int m = 0; m < 6; m++) sum[m] = from ? from[6 * (size_t) b + m] : 0.0;
  add_body_moves(v.body_start, v.side, v.terms, v.move, b, sum);
  for (int m = 0; m < 6; m++) to[6 * (size_t) b + m] = sum[m];
}

GE_INLINE Vec3 rate_at(const View &v, int k, const double *totals)
{
  const ContactTerms &t = v.terms[k];
  double scratch[6] = {0, 0, 0, 0, 0, 0};
  return ge::coulomb_rate(t.contact(), t.coupling(), side_i(const_cast<double *>(totals), t),
                          side_j(const_cast<double *>(totals), t, scratch));
}

// The backend of plain loops (one core): every pass runs in order, a batch is its body run n
// times.
struct HostLoops {
  template <class T> T *alloc(size_t n) { return new T[std::max<size_t>(n, 1)](); }
  template <class T> void release(T *p) { delete[] p; }
  template <class T> void upload(T *to, const T *from, size_t n) { std::copy(from, from + n, to); }
  template <class T> void download(T *to, const T *from, size_t n) { std::copy(from, from + n, to); }
  void synchronize() {}

  template <class F> void each(int begin, int end, F f)
  {
    for (int k = begin; k < end; k++) f(k);
  }
  // (in reverse: with one contact per colour, the fix's backward sweep)
  template <class F> void each_reversed(int begin, int end, F f)
  {
    for (int k = end - 1; k >= begin; k--) f(k);
  }
  template <class F> void reduce(int begin, int end, F f, Slots *slots)
  {
    double largest = largest_of(*slots);
    for (int k = begin; k < end; k++) {
      const Partial part = f(k);
      if (part.largest > largest) largest = part.largest;
      for (int m = 0; m < 4; m++) slots->sum[m] += part.sum[m];
    }
    std::memcpy(&slots->largest, &largest, sizeof largest);
  }
  template <class F, class Then> void reduce(int begin, int end, F f, Slots *slots, Then then)
  {
    reduce(begin, end, f, slots);
    then();
  }
  template <class F> void single(F f) { f(); }
  struct Graph {};
  template <class Body> void batch(Graph &, int n, Body body)
  {
    for (int b = 0; b < n; b++) body();
  }
};

// The preconditioner of the Krylov iterations: symmetric Gauss-Seidel in Eisenstat's form (the
// fix's; three sweeps of one pass per colour per iteration, one of them only where the true
// residual is checked) or the diagonal blocks, symmetrically (S A S, S = D^-1/2 on the face: two
// passes over the contacts and one over the bodies per iteration, the true residual S^-1 r_hat
// read in the first; more iterations, far fewer passes)
enum class Preconditioner { SymmetricGaussSeidel, Diagonal };

struct NewtonResult {
  std::vector<Vec3> force;
  std::vector<double> totals;    // 6 per body: the totals of every force, these included
  int iterations = 0, apgd = 0, krylov = 0, newton_steps = 0, misses = 0;
  double residual = 0.0, seconds = 0.0;
  double stuck_rate = 0.0;    // the largest |s| of a contact inside its disk (measure_residual)
  bool close_start = false;    // the start counted as close (the fix's close_start)
};

// A problem whose arrays are already in the backend's memory (a friction step built there from
// the contacts' histories): the terms and start forces in the schedule's order, every body's
// totals of the other forces (6 per body) and the body lists (body_lists). The solver reads them
// and leaves them to their owner; its forces stay in its memory (ParallelNewton::forces()).
struct ProblemInPlace {
  int nc = 0, nb = 0;
  double tol = 0.0;
  const ContactTerms *terms = nullptr;
  const Vec3 *start = nullptr;
  const double *total0 = nullptr;
  const int *body_start = nullptr, *side = nullptr;
};

// The solver over a backend B. The problem's contacts are swept in the schedule's colours.
template <class B> class ParallelNewton {
 public:
  ParallelNewton(B &backend, const ProblemInPlace &q, const Schedule &schedule,
                 bool extrapolated_start, int batch, Preconditioner preconditioner)
      : b_(backend), p_(nullptr), in_place_(q), tol_(q.tol), schedule_(schedule),
        extrapolated_(extrapolated_start), batch_(batch),
        diagonal_(preconditioner == Preconditioner::Diagonal)
  {
    v_.nc = q.nc;
    v_.nb = q.nb;
    v_.terms = q.terms;
    v_.body_start = q.body_start;
    v_.side = q.side;
    allocate_work(q.nc, q.nb);
  }

  ParallelNewton(B &backend, const Problem &p, const Schedule &schedule, bool extrapolated_start,
                 int batch = 8,
                 Preconditioner preconditioner = Preconditioner::SymmetricGaussSeidel)
      : b_(backend), p_(&p), tol_(p.tol), schedule_(schedule),
        extrapolated_(extrapolated_start), batch_(batch),
        diagonal_(preconditioner == Preconditioner::Diagonal)
  {
    const size_t nc = p.terms.size(), nb = p.nbodies;
    v_.nc = static_cast<int>(nc);
    v_.nb = static_cast<int>(nb);
    ContactTerms *terms = b_.template alloc<ContactTerms>(nc);
    b_.upload(terms, p.terms.data(), nc);
    v_.terms = terms;
    allocate_work(nc, nb);
    std::vector<int> body_start, side;
    body_lists(p, body_start, side);
    int *bs = b_.template alloc<int>(body_start.size()), *sd = b_.template alloc<int>(side.size());
    b_.upload(bs, body_start.data(), body_start.size());
    b_.upload(sd, side.data(), side.size());
    v_.body_start = bs;
    v_.side = sd;
  }

  ~ParallelNewton()
  {
    for (Vec3 *a : {v_.force, v_.y, v_.before, v_.move, v_.x, v_.p, v_.u, v_.s, v_.ap, v_.up, v_.r})
      b_.release(a);
    b_.release(v_.face);
    b_.release(v_.half);
    for (int m = 0; m < 2; m++) b_.release(v_.totals[m]);
    b_.release(v_.dir);
    b_.release(v_.control);
    if (!p_) return;    // (a problem in place: its owner's arrays)
    b_.release(const_cast<ContactTerms *>(v_.terms));
    b_.release(const_cast<int *>(v_.body_start));
    b_.release(const_cast<int *>(v_.side));
  }

  // The solve from the problem's start, at most `most` APGD and Krylov iterations together
  // (the fix's `sweeps`): solve_newton of the fix. A problem in place keeps its forces here
  // (forces()); the totals come back either way.
  NewtonResult solve(int most)
  {
    Control c{};
    c.tol = tol_;
    b_.upload(v_.control, &c, 1);
    if (p_) {
      // the start as the fix's: the warm forces' totals summed in the contacts' order
      std::vector<double> total = totals_of(*p_, p_->start);
      b_.upload(v_.totals[0], total.data(), total.size());
      b_.upload(v_.force, p_->start.data(), p_->start.size());
    } else {
      start_in_place();
    }
    b_.synchronize();
    const auto started = std::chrono::steady_clock::now();

    NewtonResult out;
    const double tol = tol_;
    double error = true_error();
    close_ = extrapolated_ || error <= ge::kCoulombNewtonCloseStart;
    const bool near_start = error <= ge::kCoulombNewtonCloseStart && error > tol;
    int used = 0, phase = near_start ? ge::kCoulombNewtonFirstApgdNear
                          : close_   ? ge::kCoulombNewtonFirstApgdClose
                                     : ge::kCoulombNewtonFirstApgd;
    int misses = 0;
    while (used < most) {
      const int longest = misses < ge::kCoulombNewtonMisses ? phase : most - used;
      const int apgd = apgd_iterations(std::min(longest, most - used));
      used += apgd;
      out.apgd += apgd;
      if (apgd > 0) error = true_error();
      if (error <= tol || apgd < longest || misses >= ge::kCoulombNewtonMisses) break;
      bool improved = true;
      while (used < most && improved) {
        copy_before();
        const int krylov_most =
            ge::kCoulombNewtonCgPerApgd * std::max(phase, ge::kCoulombNewtonApgdAfterStep);
        const int krylov_cap = std::min(krylov_most, most - used);
        const int krylov = newton_step(krylov_cap);
        used += krylov;
        out.krylov += krylov;
        out.newton_steps++;
        take_newton_step();
        release_sliding();
        double after = true_error();
        if (after > tol) {
          const int settle = apgd_iterations(std::min(ge::kCoulombNewtonApgdAfterStep, most - used));
          used += settle;
          out.apgd += settle;
          after = true_error();
        }
        improved = after <= 0.5 * error;
        if (!improved) {
          if (krylov >= krylov_cap) misses++;    // (the fix's rule: ge::kCoulombNewtonMisses)
          phase = std::max(2 * phase, ge::kCoulombNewtonFirstApgdClose);
          if (after > error) restore_before();
          break;
        }
        error = after;
        if (error <= tol) break;
      }
      if (error <= tol) break;
    }
    out.residual = true_error();
    out.stuck_rate = largest_stuck_rate();
    b_.synchronize();
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    out.iterations = used;
    out.misses = misses;
    out.close_start = close_;
    if (p_) {
      out.force.resize(p_->terms.size());
      b_.download(out.force.data(), v_.force, out.force.size());
    }
    out.totals.resize(6 * (size_t) v_.nb);
    b_.download(out.totals.data(), v_.totals[read_control().parity], out.totals.size());
    return out;
  }

  // the forces of the last solve, in the backend's memory, in the schedule's order
  const Vec3 *forces() const { return v_.force; }

  // ---------------------------------------------------------------------------------------------
  // the passes (public: a CUDA device lambda's enclosing function must be accessible)

  // a problem in place: the forces from its start, and the totals of those forces, each body's
  // gathered in the order of its list
  void start_in_place()
  {
    const View v = v_;
    const Vec3 *start = in_place_.start;
    const double *total0 = in_place_.total0;
    b_.each(0, v.nc, GE_PASS(int k) {
      v.force[k] = start[k];
      v.move[k] = start[k];
    });
    b_.each(0, v.nb, GE_PASS(int b) { gather_body(v, b, total0, v.totals[0]); });
  }

  // the largest natural residual of the forces, from their totals (reduced_true_error)
  double true_error()
  {
    const View v = v_;
    Control *ctl = v.control;
    b_.single(GE_PASS() { clear(ctl->slots); });
    b_.reduce(0, v.nc, GE_PASS(int k)->Partial {
      Partial part;
      const ContactTerms &t = v.terms[k];
      const Vec3 rate = rate_at(v, k, v.totals[ctl->parity]);
      part.largest = ge::coulomb_natural_residual(t.contact(), t.coupling(), v.force[k], rate);
      return part;
    }, &ctl->slots);
    return largest_of(read_control().slots);
  }

  // the largest rate |s| that a contact inside its disk keeps with the forces' totals: the fix's
  // stuck velocity over tau (measure_residual)
  double largest_stuck_rate()
  {
    const View v = v_;
    Control *ctl = v.control;
    b_.single(GE_PASS() { clear(ctl->slots); });
    b_.reduce(0, v.nc, GE_PASS(int k)->Partial {
      Partial part;
      if (ge::coulomb_on_rim(v.terms[k].contact(), v.force[k])) return part;
      const Vec3 rate = rate_at(v, k, v.totals[ctl->parity]);
      part.largest = ge::dot(rate, rate);
      return part;
    }, &ctl->slots);
    return std::sqrt(largest_of(read_control().slots));
  }

  Control read_control()
  {
    Control c;
    b_.download(&c, v_.control, 1);
    return c;
  }

  // at most `most` APGD iterations from the forces: apgd_iterations of the fix (its pass adds
  // every contact's move to a copy of the totals; here each body gathers its contacts' moves)
  int apgd_iterations(int most)
  {
    if (most <= 0) return 0;
    const View v = v_;
    Control *ctl = v.control;
    b_.each(0, v.nc, GE_PASS(int k) { v.y[k] = v.force[k]; });
    b_.single(GE_PASS() {
      ctl->running = 1;
      ctl->iterations = 0;
      ctl->most = most;
      ctl->theta = 1.0;
      ctl->change_tol = ctl->tol;
      begin_apgd_iteration(ctl);
    });
    Control c;
    do {
      b_.batch(apgd_graph_, batch_, [&] { apgd_iteration(); });
      c = read_control();
    } while (c.running);
    return c.iterations;
  }

  GE_INLINE static void begin_apgd_iteration(Control *c)
  {
    c->iterations++;
    c->last = c->iterations == c->most;
    c->next_theta = ge::coulomb_apgd_next_theta(c->theta);
    c->momentum = c->last ? 0.0 : ge::coulomb_apgd_momentum(c->theta, c->next_theta);
    clear(c->slots);
    clear(c->check_slots);
  }

  void apgd_iteration()
  {
    const View v = v_;
    Control *ctl = v.control;
    b_.reduce(0, v.nc, GE_PASS(int k)->Partial {
      Partial part;
      if (!ctl->running) return part;
      const ContactTerms &t = v.terms[k];
      double scratch[6] = {0, 0, 0, 0, 0, 0};
      double *totals = v.totals[ctl->parity];
      const ge::CoulombApgdMove move = ge::coulomb_apgd_step(
          t.contact(), t.coupling(), t.inv_row, ctl->momentum, side_i(totals, t),
          side_j(totals, t, scratch), v.force[k], v.y[k]);
      part.largest = move.change2 / move.cap2;
      part.sum[0] = move.slope;
      v.move[k] = move.y_change;
      return part;
    }, &ctl->slots, GE_PASS() {
      // (what the moves' sums decide: the totals of y move to the other parity, gathered next)
      if (!ctl->running) return;
      ctl->parity = 1 - ctl->parity;
      ctl->check = !ctl->last && std::sqrt(largest_of(ctl->slots)) <= ctl->change_tol;
      const bool restart = ctl->slots.sum[0] > 0.0 || ctl->check;
      ctl->take_back = restart && ctl->momentum != 0.0;
      ctl->theta = restart ? 1.0 : ctl->next_theta;
    });
    b_.each(0, v.nb, GE_PASS(int body) {
      if (ctl->running) gather_body(v, body, v.totals[1 - ctl->parity], v.totals[ctl->parity]);
    });
    // a restart: y becomes the forces, their difference goes into the totals of y
    b_.each(0, v.nc, GE_PASS(int k) {
      if (!ctl->running || !ctl->take_back) return;
      v.move[k] = v.force[k] - v.y[k];
      v.y[k] = v.force[k];
    });
    b_.each(0, v.nb, GE_PASS(int body) {
      if (ctl->running && ctl->take_back)
        gather_body(v, body, v.totals[ctl->parity], v.totals[ctl->parity]);
    });
    b_.reduce(0, v.nc, GE_PASS(int k)->Partial {
      Partial part;
      if (!ctl->running || !ctl->check) return part;
      const ContactTerms &t = v.terms[k];
      part.largest = ge::coulomb_natural_residual(t.contact(), t.coupling(), v.force[k],
                                                  rate_at(v, k, v.totals[ctl->parity]));
      return part;
    }, &ctl->check_slots, GE_PASS() {
      if (!ctl->running) return;
      bool done = ctl->last;
      if (ctl->check) {
        const double error = largest_of(ctl->check_slots);
        if (error <= ctl->tol) done = true;
        else ctl->change_tol *= std::fmax(ctl->tol / error, 1e-3);
      }
      if (done) ctl->running = 0;
      else begin_apgd_iteration(ctl);
    });
  }

  void copy_before()
  {
    const View v = v_;
    b_.each(0, v.nc, GE_PASS(int k) { v.before[k] = v.force[k]; });
  }

  // the forces before the Newton step again, with their totals
  void restore_before()
  {
    const View v = v_;
    Control *ctl = v.control;
    b_.each(0, v.nc, GE_PASS(int k) {
      v.move[k] = v.before[k] - v.force[k];
      v.force[k] = v.before[k];
    });
    b_.each(0, v.nb, GE_PASS(int body) {
      gather_body(v, body, v.totals[ctl->parity], v.totals[ctl->parity]);
    });
  }

  void clear_directions(bool only_on_check = false)
  {
    const View v = v_;
    Control *ctl = v.control;
    if (only_on_check)
      b_.each(0, 6 * v.nb, GE_PASS(int m) {
        if (ctl->cr_check) v.dir[m] = 0.0;
      });
    else
      b_.each(0, 6 * v.nb, GE_PASS(int m) {
        if (ctl->cr_running) v.dir[m] = 0.0;
      });
  }

  // The Newton step on the face of the forces by conjugate residuals preconditioned with
  // symmetric Gauss-Seidel in Eisenstat's form (newton_step of the fix), or with the diagonal
  // blocks. Returns the iterations.
  int newton_step(int most)
  {
    const View v = v_;
    Control *ctl = v.control;
    b_.single(GE_PASS() {
      clear(ctl->slots);
      ctl->cr_running = 1;
    });
    clear_directions();
    if (diagonal_) start_diagonal_system(most);
    else start_gauss_seidel_system(most);
    Control c;
    do {
      b_.batch(cr_graph_, batch_, [&] {
        if (diagonal_) diagonal_iteration();
        else cr_iteration();
      });
      c = read_control();
    } while (c.cr_running);
    // the last update, where it is still pending
    b_.each(0, v.nc, GE_PASS(int k) {
      if (ctl->pending) cr_update_contact(v, k, ctl->alpha, ctl->beta);
    });
    b_.single(GE_PASS() { ctl->pending = 0; });
    return c.cr_iterations;
  }

  // the Krylov iteration's start from the system's residual (the largest left rate squared in
  // the slots' largest, |r_hat|^2 in their first sum)
  void start_krylov(int most)
  {
    const View v = v_;
    Control *ctl = v.control;
    const double reduction =
        close_ ? ge::kCoulombNewtonCgReductionClose : ge::kCoulombNewtonCgReduction;
    const double stop_of_tol = ge::kCoulombNewtonCgStopOfTol * tol_;
    b_.single(GE_PASS() {
      ctl->rr = ctl->slots.sum[0];
      const double largest = largest_of(ctl->slots);
      ctl->stop = std::fmax(stop_of_tol, reduction * std::sqrt(largest));
      ctl->cr_iterations = ctl->checked_at = 0;
      ctl->cr_most = most;
      ctl->checked_largest = largest;
      ctl->checked_rr = ctl->rr;
      ctl->r_ar = ctl->ap_ap = 0.0;
      ctl->pending = ctl->cr_check = 0;
      ctl->cr_running = most > 0 && ctl->rr > 0.0;
      clear(ctl->slots);
    });
  }

  // the system at the forces: faces, D^1/2, x = 0, r_hat = E^-1 b by a forward sweep
  void start_gauss_seidel_system(int most)
  {
    const View v = v_;
    Control *ctl = v.control;
    for (int c = 0; c < schedule_.colours(); c++)
      b_.reduce(schedule_.start[c], schedule_.start[c + 1], GE_PASS(int k)->Partial {
        Partial part;
        const ContactTerms &t = v.terms[k];
        const ge::CoulombSweepTerms<double> terms = sweep_terms(t);
        const Vec3 rhs = start_contact_system(v, k, v.totals[ctl->parity]);
        const ge::CoulombFace &face = v.face[k];
        part.largest = ge::coulomb_scaled_residual2(terms, rhs);
        double scratch[6] = {0, 0, 0, 0, 0, 0};
        Vec3 lower;
        const Vec3 y = ge::coulomb_face_sweep_step(terms, face, rhs, side_i(v.dir, t),
                                                   side_j(v.dir, t, scratch), lower);
        v.r[k] = v.half[k] * y;
        part.sum[0] = ge::dot(v.r[k], v.r[k]);
        return part;
      }, &ctl->slots);
    start_krylov(most);
  }

  // the system at the forces with the diagonal preconditioner: faces, D^1/2, x = 0,
  // r_hat = S b (S = D^-1/2 = 1/half on the face)
  void start_diagonal_system(int most)
  {
    const View v = v_;
    Control *ctl = v.control;
    b_.reduce(0, v.nc, GE_PASS(int k)->Partial {
      Partial part;
      const Vec3 rhs = start_contact_system(v, k, v.totals[ctl->parity]);
      part.largest = ge::coulomb_scaled_residual2(sweep_terms(v.terms[k]), rhs);
      v.r[k] = std::sqrt(v.face[k].inverse_diagonal) * rhs;
      part.sum[0] = ge::dot(v.r[k], v.r[k]);
      return part;
    }, &ctl->slots);
    start_krylov(most);
  }

  // One Krylov iteration with the diagonal preconditioner: each contact takes the last update
  // and writes z = S r_hat (and reads its true left rate, S^-1 r_hat), the bodies gather the
  // totals of z, and each contact takes q = S A z from them; the stop is checked at every
  // iteration, on the residual the last update left.
  void diagonal_iteration()
  {
    const View v = v_;
    Control *ctl = v.control;
    b_.reduce(0, v.nc, GE_PASS(int k)->Partial {
      Partial part;
      if (!ctl->cr_running) return part;
      if (ctl->pending) cr_update_contact(v, k, ctl->alpha, ctl->beta);
      const ge::CoulombFace &face = v.face[k];
      const Vec3 z = std::sqrt(face.inverse_diagonal) * v.r[k];
      v.u[k] = z;
      v.move[k] = z;
      part.largest = ge::coulomb_scaled_residual2(sweep_terms(v.terms[k]), v.half[k] * v.r[k]);
      return part;
    }, &ctl->check_slots);
    b_.each(0, v.nb, GE_PASS(int body) {
      if (ctl->cr_running) gather_body(v, body, nullptr, v.dir);
    });
    b_.reduce(0, v.nc, GE_PASS(int k)->Partial {
      if (!ctl->cr_running) return Partial{};
      const ContactTerms &t = v.terms[k];
      const ge::CoulombFace &face = v.face[k];
      double scratch[6] = {0, 0, 0, 0, 0, 0};
      const Vec3 product = ge::coulomb_face_operator(
          face, ge::coulomb_rate_change(sweep_terms(t), side_i(v.dir, t), side_j(v.dir, t, scratch)),
          v.u[k]);
      const Vec3 q = std::sqrt(face.inverse_diagonal) * product;
      v.s[k] = q;
      return krylov_sums(v.r[k], q, v.ap[k]);
    }, &ctl->slots, GE_PASS() {
      if (!ctl->cr_running) return;
      const double left = largest_of(ctl->check_slots);
      clear(ctl->check_slots);
      if (take_krylov_sums(ctl, left <= ctl->stop * ctl->stop))
        ctl->cr_running = ctl->cr_iterations < ctl->cr_most && ctl->rr > 0.0;
    });
  }

  // A contact's part of the Newton system at the forces: its face and D^1/2, its Krylov vectors
  // zero (the first iteration's step and direction scale them by zero), and its right-hand side
  // b, the rate on the face (returned)
  GE_INLINE static Vec3 start_contact_system(const View &v, int k, const double *totals)
  {
    const ContactTerms &t = v.terms[k];
    const Vec3 rate = rate_at(v, k, totals);
    const ge::CoulombFace face = ge::coulomb_face(t.contact(), t.coupling(), v.force[k], rate);
    v.face[k] = face;
    v.half[k] = face.inverse_diagonal > 0.0 ? 1.0 / std::sqrt(face.inverse_diagonal) : 0.0;
    v.x[k] = v.p[k] = v.u[k] = v.s[k] = Vec3{0, 0, 0};
    v.ap[k] = v.up[k] = Vec3{0, 0, 0};
    return ge::coulomb_onto_face(face, -1.0 * rate);
  }

  // a contact's four sums of a Krylov iteration, from its q = A_hat r_hat: (r_hat, q), |q|^2,
  // (q, A_hat p), (r_hat, A_hat p)
  GE_INLINE static Partial krylov_sums(const Vec3 &r, const Vec3 &q, const Vec3 &ap)
  {
    Partial part;
    part.sum[0] = ge::dot(r, q);
    part.sum[1] = ge::dot(q, q);
    part.sum[2] = ge::dot(q, ap);
    part.sum[3] = ge::dot(r, ap);
    return part;
  }

  // The iteration's scalars from the sums (the first iteration: p = r_hat): beta, |A_hat p|^2 and
  // (r_hat, A_hat p) of the next p by the recursion, then alpha and |r_hat|^2 after the update,
  // which becomes pending. Returns false, and ends the loop, where `stop` or where nothing more
  // is to be gained along p.
  GE_INLINE static bool take_krylov_sums(Control *c, bool stop)
  {
    c->cr_iterations++;
    c->pending = 0;    // (the iteration's first pass took the last one)
    const double *all = c->slots.sum;
    const double beta = c->cr_iterations == 1 ? 0.0 : all[0] / c->r_ar;
    const double r_ar = all[0];
    const double ap_ap = all[1] + 2.0 * beta * all[2] + beta * beta * c->ap_ap;
    const double r_ap = all[0] + beta * all[3];
    clear(c->slots);
    if (stop || !(r_ar > 0.0) || !(ap_ap > 0.0)) {
      c->cr_running = 0;
      return false;
    }
    c->r_ar = r_ar;
    c->ap_ap = ap_ap;
    c->alpha = r_ar / ap_ap;
    c->beta = beta;
    c->pending = 1;
    c->rr = std::fmax(c->rr - 2.0 * c->alpha * r_ap + c->alpha * c->alpha * ap_ap, 0.0);
    return true;
  }

  GE_INLINE static void cr_update_contact(const View &v, int k, double alpha, double beta)
  {
    v.p[k] = v.r[k] + beta * v.p[k];
    v.ap[k] = v.s[k] + beta * v.ap[k];
    v.up[k] = v.u[k] + beta * v.up[k];
    v.x[k] = v.x[k] + alpha * v.up[k];
    v.r[k] = v.r[k] - alpha * v.ap[k];
  }

  void cr_iteration()
  {
    const View v = v_;
    Control *ctl = v.control;
    const int colours = schedule_.colours();
    const int check_every = ge::kCoulombNewtonCgCheckEvery;
    // t = E^-T r_hat backward from zero totals, each contact first taking the last update
    clear_directions();
    for (int c = colours - 1; c >= 0; c--)
      b_.each_reversed(schedule_.start[c], schedule_.start[c + 1], GE_PASS(int k) {
        if (!ctl->cr_running) return;
        if (ctl->pending) cr_update_contact(v, k, ctl->alpha, ctl->beta);
        const ContactTerms &t = v.terms[k];
        double scratch[6] = {0, 0, 0, 0, 0, 0};
        Vec3 upper;
        v.u[k] = ge::coulomb_face_sweep_step(sweep_terms(t), v.face[k], v.half[k] * v.r[k],
                                             side_i(v.dir, t), side_j(v.dir, t, scratch), upper);
        v.s[k] = upper;
      });
    // y = (D + L)^-1 U t forward from zero totals, and q = A_hat r_hat = D^1/2 (t + y)
    clear_directions();
    for (int c = 0; c < colours; c++)
      b_.reduce(schedule_.start[c], schedule_.start[c + 1], GE_PASS(int k)->Partial {
        if (!ctl->cr_running) return Partial{};
        const ContactTerms &t = v.terms[k];
        double scratch[6] = {0, 0, 0, 0, 0, 0};
        Vec3 lower;
        const Vec3 y = ge::coulomb_face_sweep_step(sweep_terms(t), v.face[k], v.s[k],
                                                   side_i(v.dir, t), side_j(v.dir, t, scratch),
                                                   lower);
        const Vec3 q = v.half[k] * (v.u[k] + y);
        v.s[k] = q;
        return krylov_sums(v.r[k], q, v.ap[k]);
      }, &ctl->slots);
    // the Krylov scalars; whether the true residual is to be checked
    b_.single(GE_PASS() {
      if (!ctl->cr_running || !take_krylov_sums(ctl, false)) return;
      const bool predicted = ctl->checked_largest * ctl->rr <= ctl->stop * ctl->stop * ctl->checked_rr;
      ctl->cr_check = predicted || ctl->cr_iterations - ctl->checked_at >= check_every;
      if (ctl->cr_check) clear(ctl->check_slots);
      else ctl->cr_running = ctl->cr_iterations < ctl->cr_most && ctl->rr > 0.0;
    });
    // a check: the update taken, and r = E r_hat = D^1/2 r_hat + L z, z = D^-1/2 r_hat, forward
    b_.each(0, v.nc, GE_PASS(int k) {
      if (ctl->cr_check) cr_update_contact(v, k, ctl->alpha, ctl->beta);
    });
    clear_directions(true);
    for (int c = 0; c < colours; c++)
      b_.reduce(schedule_.start[c], schedule_.start[c + 1], GE_PASS(int k)->Partial {
        Partial part;
        if (!ctl->cr_check) return part;
        const ContactTerms &t = v.terms[k];
        const ge::CoulombSweepTerms<double> terms = sweep_terms(t);
        const ge::CoulombFace &face = v.face[k];
        double scratch[6] = {0, 0, 0, 0, 0, 0};
        double *total_i = side_i(v.dir, t), *total_j = side_j(v.dir, t, scratch);
        const Vec3 r = v.half[k] * v.r[k] + ge::coulomb_face_coupling(terms, face, total_i, total_j);
        part.largest = ge::coulomb_scaled_residual2(terms, r);
        ge::coulomb_add_pair(terms, total_i, total_j, (face.inverse_diagonal * v.half[k]) * v.r[k]);
        return part;
      }, &ctl->check_slots);
    b_.single(GE_PASS() {
      if (!ctl->cr_check) return;
      ctl->cr_check = 0;
      ctl->pending = 0;
      ctl->checked_largest = largest_of(ctl->check_slots);
      ctl->checked_rr = ctl->rr;
      ctl->checked_at = ctl->cr_iterations;
      ctl->cr_running = !(ctl->checked_largest <= ctl->stop * ctl->stop) &&
          ctl->cr_iterations < ctl->cr_most && ctl->rr > 0.0;
    });
  }

  // the forces moved by the step, back onto their disks (take_newton_step of the fix)
  void take_newton_step()
  {
    const View v = v_;
    Control *ctl = v.control;
    b_.each(0, v.nc, GE_PASS(int k) {
      const ContactTerms &t = v.terms[k];
      const Vec3 next = ge::coulomb_newton_force(t.contact(), v.face[k], v.force[k], v.x[k]);
      v.move[k] = next - v.force[k];
      v.force[k] = next;
    });
    b_.each(0, v.nb, GE_PASS(int body) {
      gather_body(v, body, v.totals[ctl->parity], v.totals[ctl->parity]);
    });
  }

  // a sliding contact whose rate now points along its force sticks: into its disk (release_
  // sliding of the fix; colour by colour, as the fix reads each rate after the contacts before
  // it have moved)
  void release_sliding()
  {
    const View v = v_;
    Control *ctl = v.control;
    for (int c = 0; c < schedule_.colours(); c++)
      b_.each(schedule_.start[c], schedule_.start[c + 1], GE_PASS(int k) {
        double *totals = v.totals[ctl->parity];
        if (!v.face[k].sliding || ge::dot(rate_at(v, k, totals), v.force[k]) <= 0.0) return;
        const ContactTerms &t = v.terms[k];
        const Vec3 change = -1e-6 * v.force[k];
        double scratch[6] = {0, 0, 0, 0, 0, 0};
        ge::coulomb_add_pair(t.contact(), side_i(totals, t), side_j(totals, t, scratch), change);
        v.force[k] = v.force[k] + change;
      });
  }

 private:
  // the per-contact and per-body arrays of the iterations, and the control
  void allocate_work(size_t nc, size_t nb)
  {
    for (Vec3 **a : {&v_.force, &v_.y, &v_.before, &v_.move, &v_.x, &v_.p, &v_.u, &v_.s, &v_.ap,
                     &v_.up, &v_.r})
      *a = b_.template alloc<Vec3>(nc);
    v_.face = b_.template alloc<ge::CoulombFace>(nc);
    v_.half = b_.template alloc<double>(nc);
    for (int m = 0; m < 2; m++) v_.totals[m] = b_.template alloc<double>(6 * nb);
    v_.dir = b_.template alloc<double>(6 * nb);
    v_.control = b_.template alloc<Control>(1);
  }

  B &b_;
  const Problem *p_;    // null: a problem in place (in_place_)
  ProblemInPlace in_place_{};
  double tol_;
  Schedule schedule_;
  bool extrapolated_, close_ = false;
  int batch_;
  bool diagonal_;
  View v_{};
  typename B::Graph apgd_graph_, cr_graph_;
};

}    // namespace ge_coulomb_problem
