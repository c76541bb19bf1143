// The Newton solver of `tangential coulomb` (FixCoulombFrictionExact::solve_newton, the default,
// notes: Coulomb Newton) on a CUDA device, without LAMMPS. The friction problem of one step of a
// settled bed, as `fix_modify GE_COULOMB export` wrote it (bench/device/export_problems.sh with
// SOLVER=newton), is solved to the same true error (largest natural residual <= tol, relative to
// mu F_n) three ways, by the same code (src/kokkos/coulomb_newton_parallel.hpp):
//   host   plain loops on one core, one contact per colour: the fix's algorithm to the bit (the
//          deck test ExportedNewtonProblemSolvesAsTheFixDoes);
//   colour plain loops on one core, the contacts by colour: the device's order;
//   diag   the same with the Krylov iterations preconditioned by the diagonal blocks instead
//          (fewer passes per iteration, more iterations);
//   device the passes as CUDA kernels (both preconditioners): one thread per contact (per body for the totals), the
//          Gauss-Seidel sweeps of the preconditioner one kernel per colour, the reductions
//          warp shuffles and one atomic per block, the control in one-thread kernels, and the
//          APGD and Krylov iterations launched as CUDA graphs of `batch` iterations, after each
//          of which the host reads whether the loop ended.
// The device's forces are checked on the host: their totals summed again in order, their largest
// natural residual, and the rates (the contact velocities after the step / tau; g dt units for
// these beds' g = 1) against the colour-order host solve's.
//
// Usage: coulomb_newton PROBLEM [tile (1)] [host solves: 1|0 (1)] [most iterations (1000000)]
//                       [batch (8)]
// Build:  bench/device/build.sh DIR (nvcc with --extended-lambda)
#include "../../unittest/device/check_cuda.cuh"
#include "../../src/kokkos/coulomb_newton_parallel.hpp"
#include "../../unittest/device/coulomb_problem.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <vector>

namespace {

using namespace ge_coulomb_problem;

constexpr int kThreads = 128;

template <class F> __global__ void each_kernel(int begin, int end, F f)
{
  const int k = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (k < end) f(k);
}

// the block's largest value and sums: warp shuffles, then one warp over the block's warps, then
// one atomic per slot
template <class F> __global__ void reduce_kernel(int begin, int end, F f, Slots *slots)
{
  __shared__ double shared[kThreads / 32][5];
  const int k = begin + blockIdx.x * blockDim.x + threadIdx.x;
  Partial part;
  if (k < end) part = f(k);
  double v[5] = {part.largest, part.sum[0], part.sum[1], part.sum[2], part.sum[3]};
  for (int offset = 16; offset > 0; offset /= 2) {
    v[0] = fmax(v[0], __shfl_down_sync(0xffffffffu, v[0], offset));
    for (int m = 1; m < 5; m++) v[m] += __shfl_down_sync(0xffffffffu, v[m], offset);
  }
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0)
    for (int m = 0; m < 5; m++) shared[warp][m] = v[m];
  __syncthreads();
  if (threadIdx.x != 0) return;
  for (int w = 1; w < kThreads / 32; w++) {
    v[0] = fmax(v[0], shared[w][0]);
    for (int m = 1; m < 5; m++) v[m] += shared[w][m];
  }
  atomicMax(&slots->largest, static_cast<unsigned long long>(__double_as_longlong(v[0])));
  for (int m = 0; m < 4; m++)
    if (v[m + 1] != 0.0) atomicAdd(&slots->sum[m], v[m + 1]);
}

template <class F> __global__ void single_kernel(F f) { f(); }

// The CUDA backend of ParallelNewton: every pass a kernel on one stream.
struct CudaBackend {
  cudaStream_t stream;
  CudaBackend() { CHECK_CUDA(cudaStreamCreate(&stream)); }
  ~CudaBackend() { cudaStreamDestroy(stream); }

  template <class T> T *alloc(size_t n)
  {
    T *p;
    CHECK_CUDA(cudaMalloc(&p, sizeof(T) * std::max<size_t>(n, 1)));
    CHECK_CUDA(cudaMemset(p, 0, sizeof(T) * std::max<size_t>(n, 1)));
    return p;
  }
  template <class T> void release(T *p) { CHECK_CUDA(cudaFree(p)); }
  template <class T> void upload(T *to, const T *from, size_t n)
  {
    CHECK_CUDA(cudaMemcpyAsync(to, from, sizeof(T) * n, cudaMemcpyHostToDevice, stream));
    synchronize();
  }
  template <class T> void download(T *to, const T *from, size_t n)
  {
    CHECK_CUDA(cudaMemcpyAsync(to, from, sizeof(T) * n, cudaMemcpyDeviceToHost, stream));
    synchronize();
  }
  void synchronize() { CHECK_CUDA(cudaStreamSynchronize(stream)); }

  static int blocks(int n) { return (n + kThreads - 1) / kThreads; }
  template <class F> void each(int begin, int end, F f)
  {
    if (end > begin) each_kernel<<<blocks(end - begin), kThreads, 0, stream>>>(begin, end, f);
  }
  template <class F> void each_reversed(int begin, int end, F f) { each(begin, end, f); }
  template <class F> void reduce(int begin, int end, F f, Slots *slots)
  {
    if (end > begin)
      reduce_kernel<<<blocks(end - begin), kThreads, 0, stream>>>(begin, end, f, slots);
  }
  // (the reduction's blocks add into the slots atomically: what follows is a kernel of its own)
  template <class F, class Then> void reduce(int begin, int end, F f, Slots *slots, Then then)
  {
    reduce(begin, end, f, slots);
    single(then);
  }
  template <class F> void single(F f) { single_kernel<<<1, 1, 0, stream>>>(f); }

  struct Graph {
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    ~Graph()
    {
      if (exec) cudaGraphExecDestroy(exec);
      if (graph) cudaGraphDestroy(graph);
    }
  };
  // n copies of the body's passes, captured once into a graph and launched
  template <class Body> void batch(Graph &g, int n, Body body)
  {
    if (!g.exec) {
      CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
      for (int b = 0; b < n; b++) body();
      CHECK_CUDA(cudaStreamEndCapture(stream, &g.graph));
      CHECK_CUDA(cudaGraphInstantiate(&g.exec, g.graph, 0));
    }
    CHECK_CUDA(cudaGraphLaunch(g.exec, stream));
  }
};

void report(const char *who, const Problem &p, const NewtonResult &s)
{
  std::vector<double> totals = totals_of(p, s.force);
  std::printf("  %-6s %6d iterations (%d APGD + %d Krylov, %d Newton steps, %d missed) %10.3f "
              "ms/solve  %8.2f us/iteration  natural residual %.2e (own %.2e)\n",
              who, s.iterations, s.apgd, s.krylov, s.newton_steps, s.misses, 1e3 * s.seconds,
              1e6 * s.seconds / std::max(s.iterations, 1),
              largest_natural_residual(p, s.force, totals), s.residual);
}

}    // namespace

int main(int argc, char **argv)
{
  if (argc < 2) {
    std::fprintf(stderr, "usage: coulomb_newton PROBLEM [tile] [host solves 1|0] [most iterations] "
                         "[batch]\n");
    return 2;
  }
  const int tile = argc > 2 ? std::atoi(argv[2]) : 1;
  const bool on_host = argc > 3 ? std::atoi(argv[3]) != 0 : true;
  const int most = argc > 4 ? std::atoi(argv[4]) : 1000000;
  const int batch = argc > 5 ? std::atoi(argv[5]) : 8;
  if (tile < 1 || most < 1 || batch < 1) {
    std::fprintf(stderr, "coulomb_newton: tile, most iterations and batch must be positive\n");
    return 2;
  }
  Problem p;
  try {
    p = read_problem(argv[1], tile);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "coulomb_newton: %s\n", e.what());
    return 1;
  }
  Schedule colours;
  const Problem coloured = coloured_problem(p, colours);
  std::printf("%s x %d^2: %d bodies, %zu contacts, tol %.0e, %s start, %d colours\n", argv[1],
              tile, p.nbodies, p.terms.size(), p.tol,
              p.extrapolated ? "extrapolated" : "previous", colours.colours());
  const Preconditioner kinds[2] = {Preconditioner::SymmetricGaussSeidel, Preconditioner::Diagonal};
  const char *const kind_names[2] = {"symmetric Gauss-Seidel", "diagonal"};
  NewtonResult colour_host[2];
  if (on_host) {
    HostLoops loops;
    {
      ParallelNewton<HostLoops> natural(loops, p, natural_schedule(p), p.extrapolated);
      report("host", p, natural.solve(most));
    }
    for (int kind = 0; kind < 2; kind++) {
      ParallelNewton<HostLoops> by_colour(loops, coloured, colours, coloured.extrapolated, batch,
                                          kinds[kind]);
      colour_host[kind] = by_colour.solve(most);
      report(kind == 0 ? "colour" : "diag", coloured, colour_host[kind]);
    }
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("  (no CUDA device: the host solves only)\n");
    return on_host ? 0 : 1;
  }
  CudaBackend cuda;
  for (int kind = 0; kind < 2; kind++) {
    std::printf("  on the device, preconditioned by %s:\n", kind_names[kind]);
    ParallelNewton<CudaBackend> device(cuda, coloured, colours, coloured.extrapolated, batch,
                                       kinds[kind]);
    device.solve(most);    // (a warm-up: modules, graphs)
    std::vector<Vec3> first;
    for (int repeat = 0; repeat < 3; repeat++) {
      const NewtonResult s = device.solve(most);
      report("device", coloured, s);
      if (on_host && repeat == 0)
        std::printf("    %.1fx the host solve's speed in the same order; largest difference of "
                    "the rates from it %.2e (g dt at g = 1)\n",
                    colour_host[kind].seconds / s.seconds,
                    largest_rate_difference(coloured, colour_host[kind].force, s.force));
      if (first.empty()) first = s.force;
      else if (repeat == 2)
        std::printf("    run again: %s forces\n",
                    std::memcmp(first.data(), s.force.data(), sizeof(Vec3) * first.size()) == 0
                        ? "the same"
                        : "other (the sums' order)");
    }
  }
  return 0;
}
