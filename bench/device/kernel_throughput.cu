// Throughput of the src/contact/ kernels on a CUDA device, without LAMMPS: contact-steps per
// second of the linear law (classic, refined), a catalogue law with Yade moments and the Jaeger
// contact with a bounded record (capacity 16), over device arrays of N contacts, against the same
// loop on one host core. It measures the kernels and their memory traffic (each contact reads its
// geometry and state and writes its state and force every step), not neighbour lists, pair
// loops or force sums: an upper bound for what a /kk pair style can reach, and the layout
// choice it must make (state per contact in one block, or each state entry in its own array).
//
// Usage: kernel_throughput [contacts (default 4194304)] [steps (default 50)]
// Build:  nvcc -std=c++17 -O3 -arch=sm_90 -I src -o kernel_throughput \
//             bench/device/kernel_throughput.cu
// (bench/device/run.sh builds it and the device check together; bench/README.md has figures.)
#include "../../unittest/device/check_cuda.cuh"
#include "../../unittest/device/contact_scenarios.cuh"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using namespace ge_device;

// The geometry of a contact as a pair loop hands it to the kernel, read from memory each step.
struct Geometry {
  Vec3 normal;
  double overlap;
  Vec3 d;
  Vec3 rot_i, rot_j;
};

// step k of the benchmark: the overlap breathes by 5 % on a 6-step cycle and the tangential
// movement reverses every 4 steps, so contacts stick, slide and unload (what slid is counted)
GE_INLINE double overlap_factor(int k) { return (k % 6) < 3 ? 1.0 : 1.05; }
GE_INLINE double direction(int k) { return (k % 8) < 4 ? 1.0 : -1.0; }

// the laws called directly, then through the one kernel entry ge::contact_step (which takes the
// bodies' velocities and spins, as a pair style's functor would)
enum Family : int { F_CLASSIC, F_REFINED, F_CATALOGUE_YADE, F_JAEGER16, F_ENTRY_REFINED,
                    F_ENTRY_CATALOGUE_YADE, F_ENTRY_JAEGER16, FAMILIES };
const char *kNames[FAMILIES] = {"classic",          "refined",
                                "hertz+tsuji+dd+yade", "jaeger capacity 16",
                                "contact_step refined", "contact_step dd+yade",
                                "contact_step jaeger16"};
constexpr int kCapacity = 16, kRoom = kCapacity + 1;
constexpr int kLinearState = ge::LINEAR_HISTORY_SIZE, kCatalogueState = ge::CATALOGUE_STATE_SIZE;

// Layout of the per-contact state: BLOCK = one contiguous block per contact (what the host
// stores keep), ENTRY = entry m of every contact in one array (state[m * n + c]), copied into
// registers around the kernel call.
enum Layout : int { BLOCK, ENTRY };

struct Data {
  int n;
  const Geometry *geometry;
  double *state;                // kCatalogueState (>= kLinearState) or Jaeger's 6 per contact
  ge::JaegerVertex *vertex;     // kRoom per contact, contact-major
  int *count;
  double *force;                // 3 per contact (entry-major)
  unsigned *sliding;            // contact-steps that slid
};

template <int S, Layout L> struct StateAccess {
  GE_INLINE static void load(const Data &d, int c, double *s)
  {
    for (int m = 0; m < S; m++)
      s[m] = L == BLOCK ? d.state[(size_t) c * S + m] : d.state[(size_t) m * d.n + c];
  }
  GE_INLINE static void save(const Data &d, int c, const double *s)
  {
    for (int m = 0; m < S; m++) {
      if (L == BLOCK) d.state[(size_t) c * S + m] = s[m];
      else d.state[(size_t) m * d.n + c] = s[m];
    }
  }
};

GE_INLINE void write_force(const Data &d, int c, double fn, const Vec3 &n, const Vec3 &ft)
{
  d.force[c] = fn * n.x + ft.x;
  d.force[(size_t) d.n + c] = fn * n.y + ft.y;
  d.force[(size_t) 2 * d.n + c] = fn * n.z + ft.z;
}

template <int family, Layout L>
GE_INLINE void step_contact(const Data &d, int c, int k)
{
  const Geometry g = d.geometry[c];
  const double overlap = g.overlap * overlap_factor(k);
  const double approach = overlap - g.overlap * overlap_factor(k - 1);
  const Vec3 du = direction(k) * g.d;
  const Vec3 mean_rotation = 0.5 * (g.rot_i + g.rot_j);
  bool slid = false;
  if constexpr (family == F_CLASSIC || family == F_REFINED) {
    const ge::LinearParams p = linear_law(family == F_REFINED);
    double h[kLinearState];
    StateAccess<kLinearState, L>::load(d, c, h);
    ge::LinearStep s{g.normal, overlap, approach, du, mean_rotation, kDt};
    ge::LinearResult r;
    ge::linear_step(p, s, h, r);
    StateAccess<kLinearState, L>::save(d, c, h);
    write_force(d, c, r.fn, g.normal, r.ft);
    slid = r.sliding;
  } else if constexpr (family == F_CATALOGUE_YADE) {
    const ge::CatalogueLaw law = catalogue_law(CAT_HERTZ_DD_YADE);
    double h[kCatalogueState];
    StateAccess<kCatalogueState, L>::load(d, c, h);
    ge::LinearStep ls{g.normal, overlap, approach, du, mean_rotation, kDt};
    ge::CatalogueStep s;
    ge::set_kinematics(ls, s);
    s.rbar = 0.5 * kRadius;
    s.mbar = 2e-6;
    s.rot_i = g.rot_i;
    s.rot_j = g.rot_j;
    s.radius_i = s.radius_j = kRadius;
    ge::CatalogueResult r;
    ge::catalogue_step(law, s, h, r);
    StateAccess<kCatalogueState, L>::save(d, c, h);
    write_force(d, c, r.fn, g.normal, r.ft);
    slid = r.sliding;
  } else if constexpr (family >= F_ENTRY_REFINED) {
    ge::ContactLaw law;
    if constexpr (family == F_ENTRY_REFINED) law = linear_contact_law(true);
    else if constexpr (family == F_ENTRY_CATALOGUE_YADE)
      law = catalogue_contact_law(CAT_HERTZ_DD_YADE);
    else {
      law = jaeger_contact_law();
      law.jaeger = ge::jaeger_material(7e10, 0.25, 0.4, 0.0, kCapacity);
    }
    constexpr int S = family == F_ENTRY_JAEGER16 ? ge::JAEGER_FIXED_SIZE : kCatalogueState;
    double h[S];
    StateAccess<S, L>::load(d, c, h);
    ge::ContactBodies b;
    b.normal = g.normal;
    b.overlap = overlap;
    b.v_i = (-0.5 / kDt) * (du + approach * g.normal);
    b.v_j = -1.0 * b.v_i;
    b.omega_i = (1.0 / kDt) * g.rot_i;
    b.omega_j = (1.0 / kDt) * g.rot_j;
    b.r_i = b.r_j = kRadius - 0.5 * overlap;
    b.radius_i = b.radius_j = kRadius;
    b.rbar = 0.5 * kRadius;
    b.mbar = 2e-6;
    b.dt = kDt;
    ge::JaegerHistory hist{d.vertex + (size_t) c * kRoom, d.count[c], kRoom};
    ge::ContactResult r;
    ge::contact_step(law, b, h, &hist, r);
    if constexpr (family == F_ENTRY_JAEGER16) d.count[c] = hist.count;
    StateAccess<S, L>::save(d, c, h);
    write_force(d, c, 0.0, g.normal, r.force_i);
    slid = r.sliding;
  } else {
    const ge::JaegerMaterial m = ge::jaeger_material(7e10, 0.25, 0.4, 0.0, kCapacity);
    double h[ge::JAEGER_STATE_SIZE];
    StateAccess<ge::JAEGER_STATE_SIZE, L>::load(d, c, h);
    ge::JaegerInput in{g.normal, 0.5 * overlap, -1.0 * du, mean_rotation, kRadius};
    ge::JaegerHistory hist{d.vertex + (size_t) c * kRoom, d.count[c], kRoom};
    ge::JaegerResult r;
    ge::jaeger_contact_step(m, in, h, hist, r);
    d.count[c] = hist.count;
    StateAccess<ge::JAEGER_STATE_SIZE, L>::save(d, c, h);
    write_force(d, c, r.N, g.normal, -1.0 * r.T);
    slid = r.sliding;
  }
  if (slid) d.sliding[c]++;
}

template <int family, Layout L> __global__ void step_all(Data d, int k)
{
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < d.n) step_contact<family, L>(d, c, k);
}

__global__ void make_geometry(Geometry *g, int n)
{
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n) return;
  const Movement m = movement(c, 1);
  g[c] = Geometry{m.normal, m.overlap, m.d, m.rot_i, m.rot_j};
}

struct DeviceData {
  Data d{};
  Geometry *geometry = nullptr;
  explicit DeviceData(int n)
  {
    d.n = n;
    CHECK_CUDA(cudaMalloc(&geometry, sizeof(Geometry) * n));
    CHECK_CUDA(cudaMalloc(&d.state, sizeof(double) * n * kCatalogueState));
    CHECK_CUDA(cudaMalloc(&d.vertex, sizeof(ge::JaegerVertex) * (size_t) n * kRoom));
    CHECK_CUDA(cudaMalloc(&d.count, sizeof(int) * n));
    CHECK_CUDA(cudaMalloc(&d.force, sizeof(double) * 3 * n));
    CHECK_CUDA(cudaMalloc(&d.sliding, sizeof(unsigned) * n));
    make_geometry<<<(n + 255) / 256, 256>>>(geometry, n);
    CHECK_CUDA(cudaGetLastError());
    d.geometry = geometry;
  }
  void reset()
  {
    CHECK_CUDA(cudaMemset(d.state, 0, sizeof(double) * d.n * kCatalogueState));
    CHECK_CUDA(cudaMemset(d.count, 0, sizeof(int) * d.n));
    CHECK_CUDA(cudaMemset(d.sliding, 0, sizeof(unsigned) * d.n));
  }
  ~DeviceData()
  {
    cudaFree(geometry);
    cudaFree(d.state);
    cudaFree(d.vertex);
    cudaFree(d.count);
    cudaFree(d.force);
    cudaFree(d.sliding);
  }
};

// seconds per step on the device (after `warm` steps that fill the histories), and the share
// of the timed contact-steps that slid
template <int family, Layout L>
double device_seconds_per_step(DeviceData &dd, int warm, int steps, double *slid)
{
  dd.reset();
  const int threads = 128, blocks = (dd.d.n + threads - 1) / threads;
  for (int k = 1; k <= warm; k++) step_all<family, L><<<blocks, threads>>>(dd.d, k);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemset(dd.d.sliding, 0, sizeof(unsigned) * dd.d.n));
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  for (int k = warm + 1; k <= warm + steps; k++) step_all<family, L><<<blocks, threads>>>(dd.d, k);
  cudaEventRecord(stop);
  CHECK_CUDA(cudaEventSynchronize(stop));
  CHECK_CUDA(cudaGetLastError());
  float ms = 0.0f;
  cudaEventElapsedTime(&ms, start, stop);
  std::vector<unsigned> sliding(dd.d.n);
  CHECK_CUDA(cudaMemcpy(sliding.data(), dd.d.sliding, sizeof(unsigned) * dd.d.n,
                        cudaMemcpyDeviceToHost));
  double total = 0.0;
  for (unsigned s : sliding) total += s;
  *slid = total / ((double) dd.d.n * steps);
  return 1e-3 * ms / steps;
}

// the same steps on one host core, BLOCK layout (as the host stores keep it)
template <int family> double host_seconds_per_step(int n, int warm, int steps)
{
  std::vector<Geometry> geometry(n);
  for (int c = 0; c < n; c++) {
    const Movement m = movement(c, 1);
    geometry[c] = Geometry{m.normal, m.overlap, m.d, m.rot_i, m.rot_j};
  }
  std::vector<double> state((size_t) n * kCatalogueState, 0.0), force(3 * (size_t) n);
  std::vector<ge::JaegerVertex> vertex((size_t) n * kRoom);
  std::vector<int> count(n, 0);
  std::vector<unsigned> sliding(n, 0);
  Data d{n, geometry.data(), state.data(), vertex.data(), count.data(), force.data(),
         sliding.data()};
  for (int k = 1; k <= warm; k++)
    for (int c = 0; c < n; c++) step_contact<family, BLOCK>(d, c, k);
  const auto t0 = std::chrono::steady_clock::now();
  for (int k = warm + 1; k <= warm + steps; k++)
    for (int c = 0; c < n; c++) step_contact<family, BLOCK>(d, c, k);
  const auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count() / steps;
}

// one law: both layouts on the device, interleaved, medians of three; then one host core
template <int family> void measure(DeviceData &dd, int warm, int steps, int host_n, int host_steps)
{
  const int n = dd.d.n;
  double slid_block = 0.0, slid_entry = 0.0, block[3], entry[3];
  for (int r = 0; r < 3; r++) {
    block[r] = device_seconds_per_step<family, BLOCK>(dd, warm, steps, &slid_block);
    entry[r] = device_seconds_per_step<family, ENTRY>(dd, warm, steps, &slid_entry);
  }
  auto median3 = [](const double *v) {
    return std::fmax(std::fmin(v[0], v[1]), std::fmin(std::fmax(v[0], v[1]), v[2]));
  };
  const double tb = median3(block), te = median3(entry);
  const double th = host_seconds_per_step<family>(host_n, warm, host_steps);
  const double host_rate = host_n / th, best = n / std::fmin(tb, te);
  std::printf("%-22s %14.3e %14.3e %14.3e %7.1f%% %12.1f\n", kNames[family], n / tb, n / te,
              host_rate, 100.0 * slid_block, best / host_rate);
  if (slid_block != slid_entry)
    std::printf("  (the layouts slid differently: %.4f %.4f)\n", slid_block, slid_entry);
}

}    // namespace

int main(int argc, char **argv)
{
  const int n = argc > 1 ? std::atoi(argv[1]) : 4194304;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 50;
  const int warm = 24, host_n = 65536, host_steps = 8;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device: nothing to measure\n");
    return 77;
  }
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d contacts, %d timed steps after %d; host: one core, %d contacts\n",
              prop.name, n, steps, warm, host_n);
  std::printf("%-22s %14s %14s %14s %8s %12s\n", "law", "block [c-s/s]", "entry [c-s/s]",
              "host 1 core", "slid", "GPU/1 core");
  DeviceData dd(n);
  measure<F_CLASSIC>(dd, warm, steps, host_n, host_steps);
  measure<F_REFINED>(dd, warm, steps, host_n, host_steps);
  measure<F_CATALOGUE_YADE>(dd, warm, steps, host_n, host_steps);
  measure<F_JAEGER16>(dd, warm, steps, host_n, host_steps);
  measure<F_ENTRY_REFINED>(dd, warm, steps, host_n, host_steps);
  measure<F_ENTRY_CATALOGUE_YADE>(dd, warm, steps, host_n, host_steps);
  measure<F_ENTRY_JAEGER16>(dd, warm, steps, host_n, host_steps);
  return 0;
}
