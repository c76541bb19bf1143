// The APGD solver of `tangential coulomb` (FixCoulombFrictionExact::solve_apgd, notes: Coulomb
// solvers) on a CUDA device, without LAMMPS: the friction problem of one step of a settled bed,
// as `fix_modify GE_COULOMB export` wrote it (bench/in.coulomb_solve with export yes), is solved
// to the same true error (largest natural residual <= tol, relative to mu F_n) by the host
// algorithm on one core and by the same algorithm as device kernels: one thread per contact
// calls ge::coulomb_apgd_step (src/contact/coulomb_constraint.hpp), adds its move into the
// totals of the next point with atomics, and the iteration's two reductions (the largest
// change, the slope of the restart test) and the true-error check are device reductions. The
// control (momentum, restart, stop) runs in one-thread kernels, so the host only launches:
// a CUDA graph of `batch` iterations at a time, after which it reads whether the solve ended.
//
// A problem can be tiled t x t across its periodic box (the bed's contacts that cross the box
// join the neighbouring copy): the same problem t^2 times over, with the same solution and, in
// exact arithmetic, the same iterations, to measure larger beds.
//
// The device's forces are checked on the host: their totals summed again in order, their
// largest natural residual, and the rates (the contact velocities after the step, g dt units
// for these beds' g = 1) against the host solve's, which are unique where the forces need not
// be.
//
// Usage: coulomb_apgd PROBLEM [tile (1)] [host solve: 1|0 (1)] [most iterations (1000000)]
// Build:  bench/device/build.sh DIR (with the device check and the kernel throughput benchmark)
#include "../../unittest/device/check_cuda.cuh"
#include "../../unittest/device/coulomb_problem.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace {

using namespace ge_coulomb_problem;

// ------------------------------------------------------------------------------------------
// the device algorithm: the same steps as kernels over the contacts and bodies; the scalar
// control in one-thread kernels, so that `batch` iterations are one CUDA graph

struct Control {
  int iterations, most, last, finished;
  int parity;            // which of the two totals buffers holds the totals of y
  int check, take_back;
  double theta, next_theta, momentum, change_tol, tol;
  unsigned long long largest;    // the iteration's largest relative change squared (its bits)
  double slope;
  unsigned long long error;      // the largest natural residual of a check (its bits)
};

// How the contacts' moves reach the totals of their bodies: ATOMIC, each contact adds its move
// into both bodies' totals (double atomicAdd; the order of the sums, and so the last bits, vary
// from run to run); GATHER, each contact writes its move and each body then sums those of its
// contacts in a fixed order (a contact list per body): no atomics, the same bits on every run.
enum Variant { ATOMIC, GATHER };
const char *kVariantNames[2] = {"atomic", "gather"};

struct DeviceData {
  int nc, nb;
  const ContactTerms *terms;
  Vec3 *force, *y;
  Vec3 *move;                // GATHER: each contact's move of this pass
  const int *body_start;     // GATHER: body b's contacts are side[body_start[b] .. body_start[b+1])
  const int *side;           //   2 k for contact k's side i, 2 k + 1 for its side j
  double *totals[2];         // 6 per body, then 6 of scratch for the walls' side
  Control *control;
};

__device__ double *device_side(double *totals, int j, int nb)
{
  return &totals[6 * (size_t) (j >= 0 ? j : nb)];
}

// (non-negative doubles order as their bits)
__device__ void max_into(unsigned long long *slot, double value)
{
  for (int offset = 16; offset > 0; offset /= 2)
    value = fmax(value, __shfl_down_sync(0xffffffffu, value, offset));
  if ((threadIdx.x & 31) == 0) atomicMax(slot, (unsigned long long) __double_as_longlong(value));
}

__device__ void sum_into(double *slot, double value)
{
  for (int offset = 16; offset > 0; offset /= 2)
    value += __shfl_down_sync(0xffffffffu, value, offset);
  if ((threadIdx.x & 31) == 0) atomicAdd(slot, value);
}

// a contact's move into the totals of both bodies, atomically (ATOMIC)
__device__ void add_atomically(const ContactTerms &t, double *totals, int nb, const Vec3 &move)
{
  double di[6] = {0, 0, 0, 0, 0, 0}, dj[6] = {0, 0, 0, 0, 0, 0};
  ge::coulomb_add_pair(t.contact(), di, dj, move);
  double *ti = &totals[6 * (size_t) t.i], *tj = device_side(totals, t.j, nb);
  for (int m = 0; m < 6; m++) {
    atomicAdd(ti + m, di[m]);
    if (t.j >= 0) atomicAdd(tj + m, dj[m]);
  }
}

__device__ void add_move(const DeviceData &d, Variant variant, int k, const ContactTerms &t,
                         double *totals, const Vec3 &move)
{
  if (variant == ATOMIC) add_atomically(t, totals, d.nb, move);
  else d.move[k] = move;
}

// GATHER: to[b] = from[b] + the moves of b's contacts, in the order of its list (from == to:
// in place)
__global__ void gather_moves(DeviceData d, int into_next, int only_on_take_back)
{
  const Control *c = d.control;
  if (c->finished || (only_on_take_back && !c->take_back)) return;
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= d.nb) return;
  // this pass's moves: from the totals of y into the next point's buffer; a restart's: in place
  const double *from = d.totals[c->parity];
  double *to = d.totals[into_next ? 1 - c->parity : c->parity];
  double sum[6];
  for (int m = 0; m < 6; m++) sum[m] = from[6 * (size_t) b + m];
  add_body_moves(d.body_start, d.side, d.terms, d.move, b, sum);
  for (int m = 0; m < 6; m++) to[6 * (size_t) b + m] = sum[m];
}

// the next iteration's momentum (notes: Coulomb solvers), as solve_apgd() begins an iteration
__device__ void begin_next_iteration(Control *c)
{
  c->iterations++;
  c->last = c->iterations == c->most;
  c->next_theta = ge::coulomb_apgd_next_theta(c->theta);
  c->momentum = c->last ? 0.0 : ge::coulomb_apgd_momentum(c->theta, c->next_theta);
  c->largest = 0;
  c->slope = 0.0;
}

__global__ void begin_first_iteration(Control *c) { begin_next_iteration(c); }

// ATOMIC: the next point's totals start as those of y
__global__ void copy_totals(DeviceData d)
{
  const Control *c = d.control;
  if (c->finished) return;
  const int n = 6 * (d.nb + 1);
  const double *from = d.totals[c->parity];
  double *to = d.totals[1 - c->parity];
  for (int m = blockIdx.x * blockDim.x + threadIdx.x; m < n; m += gridDim.x * blockDim.x)
    to[m] = from[m];
}

__global__ void step_contacts(DeviceData d, Variant variant)
{
  Control *c = d.control;
  if (c->finished) return;
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  double relative2 = 0.0, slope = 0.0;
  if (k < d.nc) {
    const ContactTerms t = d.terms[k];
    double *totals = d.totals[c->parity];
    Vec3 force = d.force[k], y = d.y[k];
    const ge::CoulombApgdMove move =
        ge::coulomb_apgd_step(t.contact(), t.coupling(), t.inv_row, c->momentum,
                              &totals[6 * (size_t) t.i], device_side(totals, t.j, d.nb), force, y);
    d.force[k] = force;
    d.y[k] = y;
    relative2 = move.change2 / move.cap2;
    slope = move.slope;
    add_move(d, variant, k, t, d.totals[1 - c->parity], move.y_change);
  }
  max_into(&c->largest, relative2);
  sum_into(&c->slope, slope);
}

__global__ void end_iteration(Control *c)
{
  if (c->finished) return;
  c->parity = 1 - c->parity;
  c->check = !c->last && sqrt(__longlong_as_double((long long) c->largest)) <= c->change_tol;
  const bool restart = c->slope > 0.0 || c->check;
  c->take_back = restart && c->momentum != 0.0;
  c->theta = restart ? 1.0 : c->next_theta;
  c->error = 0;
}

// a restart: y becomes the forces, their difference goes into the totals of y
__global__ void take_momentum_back(DeviceData d, Variant variant)
{
  const Control *c = d.control;
  if (c->finished || !c->take_back) return;
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= d.nc) return;
  add_move(d, variant, k, d.terms[k], d.totals[c->parity], d.force[k] - d.y[k]);
  d.y[k] = d.force[k];
}

__global__ void measure_error(DeviceData d)
{
  Control *c = d.control;
  if (c->finished || !c->check) return;
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  double error = 0.0;
  if (k < d.nc) {
    const ContactTerms t = d.terms[k];
    double *totals = d.totals[c->parity];
    const Vec3 rate = ge::coulomb_rate(t.contact(), t.coupling(), &totals[6 * (size_t) t.i],
                                       device_side(totals, t.j, d.nb));
    error = ge::coulomb_natural_residual(t.contact(), t.coupling(), d.force[k], rate);
  }
  max_into(&c->error, error);
}

// the true error decides (true_error_below_tol of the fix); then the next iteration begins
__global__ void end_check(Control *c)
{
  if (c->finished) return;
  if (c->check) {
    const double error = __longlong_as_double((long long) c->error);
    if (error <= c->tol) c->finished = 1;
    else c->change_tol *= fmax(c->tol / error, 1e-3);
  }
  if (c->last) c->finished = 1;
  if (!c->finished) begin_next_iteration(c);
}

struct DeviceSolve {
  Solve solve;
  double seconds_per_iteration = 0.0;
};

template <class T> T *to_device(const std::vector<T> &host)
{
  T *p;
  CHECK_CUDA(cudaMalloc(&p, sizeof(T) * std::max<size_t>(host.size(), 1)));
  CHECK_CUDA(cudaMemcpy(p, host.data(), sizeof(T) * host.size(), cudaMemcpyHostToDevice));
  return p;
}

DeviceSolve solve_on_device(const Problem &p, int most, int batch, Variant variant)
{
  const int nc = static_cast<int>(p.terms.size()), nb = p.nbodies;
  // each body's contacts, in the contacts' order (GATHER)
  std::vector<int> body_start, side;
  body_lists(p, body_start, side);

  DeviceData d;
  d.nc = nc;
  d.nb = nb;
  ContactTerms *terms = to_device(p.terms);
  d.terms = terms;
  int *body_start_d = to_device(body_start), *side_d = to_device(side);
  d.body_start = body_start_d;
  d.side = side_d;
  // the start as the host's: the warm forces' totals (summed on the host), y = F
  std::vector<double> total = totals_of(p, p.start);
  total.resize(6 * (size_t) (nb + 1), 0.0);
  d.force = to_device(p.start);
  d.y = to_device(p.start);
  d.move = to_device(std::vector<Vec3>(nc, Vec3{0, 0, 0}));
  d.totals[0] = to_device(total);
  d.totals[1] = to_device(total);
  Control control{};
  control.most = most;
  control.theta = 1.0;
  control.change_tol = control.tol = p.tol;
  d.control = to_device(std::vector<Control>(1, control));

  const int threads = 128, blocks = (nc + threads - 1) / threads;
  const int body_blocks = (nb + threads - 1) / threads;
  const int copy_blocks = std::min(1024, (6 * (nb + 1) + threads - 1) / threads);
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  begin_first_iteration<<<1, 1, 0, stream>>>(d.control);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  for (int b = 0; b < batch; b++) {
    if (variant == ATOMIC) copy_totals<<<copy_blocks, threads, 0, stream>>>(d);
    step_contacts<<<blocks, threads, 0, stream>>>(d, variant);
    if (variant == GATHER) gather_moves<<<body_blocks, threads, 0, stream>>>(d, 1, 0);
    end_iteration<<<1, 1, 0, stream>>>(d.control);
    take_momentum_back<<<blocks, threads, 0, stream>>>(d, variant);
    if (variant == GATHER) gather_moves<<<body_blocks, threads, 0, stream>>>(d, 0, 1);
    measure_error<<<blocks, threads, 0, stream>>>(d);
    end_check<<<1, 1, 0, stream>>>(d.control);
  }
  CHECK_CUDA(cudaStreamEndCapture(stream, &graph));
  CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));

  CHECK_CUDA(cudaStreamSynchronize(stream));
  const auto started = std::chrono::steady_clock::now();
  do {
    CHECK_CUDA(cudaGraphLaunch(exec, stream));
    CHECK_CUDA(cudaMemcpyAsync(&control, d.control, sizeof(Control), cudaMemcpyDeviceToHost,
                               stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
  } while (!control.finished);
  DeviceSolve s;
  s.solve.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  s.solve.iterations = control.iterations;
  s.seconds_per_iteration = s.solve.seconds / control.iterations;
  s.solve.force.resize(nc);
  CHECK_CUDA(cudaMemcpy(s.solve.force.data(), d.force, sizeof(Vec3) * nc, cudaMemcpyDeviceToHost));

  CHECK_CUDA(cudaGraphExecDestroy(exec));
  CHECK_CUDA(cudaGraphDestroy(graph));
  CHECK_CUDA(cudaStreamDestroy(stream));
  for (void *q : {(void *) terms, (void *) body_start_d, (void *) side_d, (void *) d.force,
                  (void *) d.y, (void *) d.move, (void *) d.totals[0], (void *) d.totals[1],
                  (void *) d.control})
    CHECK_CUDA(cudaFree(q));
  return s;
}

void report(const char *who, const Problem &p, const Solve &s, double per_iteration)
{
  std::vector<double> totals = totals_of(p, s.force);
  std::printf("  %-6s %8d iterations  %10.3f ms/solve  %9.3f us/iteration  natural residual %.2e\n",
              who, s.iterations, 1e3 * s.seconds, 1e6 * per_iteration,
              largest_natural_residual(p, s.force, totals));
}

}    // namespace

int main(int argc, char **argv)
{
  if (argc < 2) {
    std::fprintf(stderr, "usage: coulomb_apgd PROBLEM [tile] [host solve 1|0] [most iterations]\n");
    return 2;
  }
  const int tile = argc > 2 ? std::atoi(argv[2]) : 1;
  const bool on_host = argc > 3 ? std::atoi(argv[3]) != 0 : true;
  const int most = argc > 4 ? std::atoi(argv[4]) : 1000000;
  const int batch = 16;
  if (tile < 1 || most < 1) {
    std::fprintf(stderr, "coulomb_apgd: tile and most iterations must be positive\n");
    return 2;
  }
  Problem p;
  try {
    p = read_problem(argv[1], tile);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "coulomb_apgd: %s\n", e.what());
    return 1;
  }
  std::printf("%s x %d^2: %d bodies, %zu contacts, tol %.0e\n", argv[1], tile, p.nbodies,
              p.terms.size(), p.tol);
  Solve host;
  if (on_host) {
    host = solve_on_host(p, most);
    report("host", p, host, host.seconds / host.iterations);
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("  (no CUDA device: the host solve only)\n");
    return on_host ? 0 : 1;
  }
  solve_on_device(p, std::min(most, 2 * batch), batch, ATOMIC);    // (a warm-up: module, graph)
  std::vector<Vec3> first_gather;
  for (Variant variant : {ATOMIC, GATHER, GATHER}) {
    const DeviceSolve device = solve_on_device(p, most, batch, variant);
    report(kVariantNames[variant], p, device.solve, device.seconds_per_iteration);
    if (on_host)
      std::printf("    %.1fx the host's speed; largest difference of the rates from the host's "
                  "%.2e (g dt at g = 1)\n",
                  host.seconds / device.solve.seconds,
                  largest_rate_difference(p, host.force, device.solve.force));
    if (variant == GATHER && first_gather.empty()) first_gather = device.solve.force;
    else if (variant == GATHER)
      std::printf("    gather, run again: %s forces\n",
                  std::memcmp(first_gather.data(), device.solve.force.data(),
                              sizeof(Vec3) * first_gather.size()) == 0
                      ? "the same"
                      : "DIFFERENT");
  }
  return 0;
}
