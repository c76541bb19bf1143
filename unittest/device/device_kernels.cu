// Every src/contact/ law as CUDA device code, through the one kernel entry ge::contact_step
// (contact_law.hpp): the linear law (classic and refined, with viscous damping), the Jaeger
// contact with a bounded record (capacity 8, viscous damping) and ten catalogue laws (every
// tangential model T1-T10 on a normal model and dashpot it is valid with, Yade rolling and
// twisting, combined), each pressed at its setup step; and the Coulomb constraint's contact
// set-up, warm start, sweeps and dissipation. Each is called from a __global__ function and
// from a host loop over the same contacts and steps (contact_scenarios.cuh); the device's
// results must equal the host's.
//
// Compiled by CTest when nvcc is found (unittest/CMakeLists.txt). Without a CUDA device the
// program exits with 77 after its compile-time work is done (CTest: skipped). With one it
// runs `kSteps` steps of `kContacts` contacts per law and compares:
//   * after the first step (the set-up evaluation and one advance): <= 1e-13 relative,
//   * after every step up to kSteps: <= 1e-10 relative,
// relative to the scale of each output over all contacts (a force to the largest force).
// Built with -fmad=false the device does the same additions and products as the host, in the
// same order: what differs is the last bit of the math library's exp/log/pow/cbrt/sin/cos,
// which the steps carry on; every comparison is also reported as the share of outputs that are
// equal bit for bit.
#include "check_cuda.cuh"
#include "contact_scenarios.cuh"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

using namespace ge_device;

constexpr int kContacts = 4096;
constexpr int kSteps = 200;
constexpr int kCoulombSweeps = 8;

// the catalogue families are FAMILY_CATALOGUE + CatalogueKind
enum Family : int { FAMILY_CLASSIC, FAMILY_REFINED, FAMILY_JAEGER, FAMILY_COULOMB, FAMILY_CATALOGUE,
                    FAMILIES = FAMILY_CATALOGUE + CAT_KINDS };

const char *family_name(int f)
{
  static const char *names[FAMILIES] = {
      "linear classic", "linear refined", "jaeger capacity 8", "coulomb",
      "hertz tsuji dd + rolling, twisting yade", "hls walton_braun",
      "hooke restitution spring_dashpot maw", "hooke viscous sliding", "hooke viscous",
      "hertz kk viscous_sliding", "hooke viscous spring_sliding + yade combined",
      "hertz bshp lth", "hertz tsuji eta zzy", "hertz tsuji en tti"};
  return names[f];
}

GE_INLINE int outputs_of(int family)
{
  return family == FAMILY_COULOMB ? COULOMB_OUTPUTS : CONTACT_OUTPUTS;
}

// the law of a family that goes through the one kernel entry, ge::contact_step
GE_INLINE ge::ContactLaw law_of(int family)
{
  switch (family) {
    case FAMILY_CLASSIC: return linear_contact_law(false);
    case FAMILY_REFINED: return linear_contact_law(true);
    case FAMILY_JAEGER: return jaeger_contact_law();
    default: return catalogue_contact_law(family - FAMILY_CATALOGUE);
  }
}

constexpr int kStateDoubles = 16;    // room for the largest fixed state (catalogue: 11)

// All the per-contact memory of one family, laid out the same on host and device.
struct Arrays {
  double *state;               // kStateDoubles per contact
  ge::JaegerVertex *vertex;    // kJaegerRoom per contact (Jaeger only)
  int *count;                  // vertices in use (Jaeger only)
  double *out;                 // kMaxOutputs per contact per step
};
constexpr int kMaxOutputs = 16;

// Steps [first, last) of contact c of a family: the one function both sides run.
GE_INLINE void advance_contact(int family, int c, int first, int last, const Arrays &a)
{
  double *state = a.state + (size_t) c * kStateDoubles;
  for (int k = first; k < last; k++) {
    double *out = a.out + ((size_t) k * kContacts + c) * kMaxOutputs;
    if (family == FAMILY_COULOMB) {
      coulomb_contact_step(c, k, kCoulombSweeps, state, out);
    } else {
      // (every law but Jaeger's ignores the vertices)
      const bool jaeger = family == FAMILY_JAEGER;
      law_contact_step(law_of(family), c, k, state,
                       jaeger ? a.vertex + (size_t) c * kJaegerRoom : nullptr,
                       jaeger ? a.count + c : nullptr, out);
    }
  }
}

__global__ void advance_on_device(int family, int first, int last, Arrays a)
{
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < kContacts) advance_contact(family, c, first, last, a);
}

struct HostArrays {
  std::vector<double> state, out;
  std::vector<ge::JaegerVertex> vertex;
  std::vector<int> count;
  HostArrays()
      : state((size_t) kContacts * kStateDoubles, 0.0),
        out((size_t) kSteps * kContacts * kMaxOutputs, 0.0),
        vertex((size_t) kContacts * kJaegerRoom, ge::JaegerVertex{0, 0, 0, 0}), count(kContacts, 0)
  {
  }
  Arrays view() { return {state.data(), vertex.data(), count.data(), out.data()}; }
};

struct DeviceArrays {
  Arrays a{};
  DeviceArrays()
  {
    CHECK_CUDA(cudaMalloc(&a.state, sizeof(double) * kContacts * kStateDoubles));
    CHECK_CUDA(cudaMalloc(&a.vertex, sizeof(ge::JaegerVertex) * kContacts * kJaegerRoom));
    CHECK_CUDA(cudaMalloc(&a.count, sizeof(int) * kContacts));
    CHECK_CUDA(cudaMalloc(&a.out, sizeof(double) * kSteps * kContacts * kMaxOutputs));
    CHECK_CUDA(cudaMemset(a.state, 0, sizeof(double) * kContacts * kStateDoubles));
    CHECK_CUDA(cudaMemset(a.vertex, 0, sizeof(ge::JaegerVertex) * kContacts * kJaegerRoom));
    CHECK_CUDA(cudaMemset(a.count, 0, sizeof(int) * kContacts));
  }
  ~DeviceArrays()
  {
    cudaFree(a.state);
    cudaFree(a.vertex);
    cudaFree(a.count);
    cudaFree(a.out);
  }
};

struct Difference {
  double worst = 0.0;    // largest |device - host| / scale
  int worst_step = -1, worst_output = -1;
  long equal = 0, total = 0;
};

// Steps [first, last): each output compared relative to its largest magnitude over all
// contacts and all compared steps.
Difference compare(int family, const std::vector<double> &host, const std::vector<double> &dev,
                   int first, int last)
{
  Difference d;
  const int n = outputs_of(family);
  for (int o = 0; o < n; o++) {
    double scale = 0.0;
    for (int k = first; k < last; k++)
      for (int c = 0; c < kContacts; c++)
        scale = std::fmax(scale, std::fabs(host[((size_t) k * kContacts + c) * kMaxOutputs + o]));
    // the Coulomb sweep's last change is already relative to (mu F_n)^2: round-off of a converged
    // solve (1e-30 and less) is compared on that scale, not on its own
    if (family == FAMILY_COULOMB && o == 4) scale = 1.0;
    if (scale == 0.0) scale = 1.0;
    for (int k = first; k < last; k++)
      for (int c = 0; c < kContacts; c++) {
        const size_t at = ((size_t) k * kContacts + c) * kMaxOutputs + o;
        const double diff = std::fabs(dev[at] - host[at]) / scale;
        d.total++;
        if (std::memcmp(&dev[at], &host[at], sizeof(double)) == 0) d.equal++;
        if (!(diff <= d.worst)) {    // NaN counts as worst
          d.worst = diff;
          d.worst_step = k;
          d.worst_output = o;
        }
      }
  }
  return d;
}

bool report(const char *what, int family, const Difference &d, double tolerance)
{
  const bool ok = d.worst <= tolerance;
  std::printf("%-6s %-46s %-10s worst %.3e (step %d, output %d) tol %.0e, bitwise equal %.4f\n",
              ok ? "ok" : "FAILED", family_name(family), what, d.worst, d.worst_step,
              d.worst_output, tolerance, (double) d.equal / (double) d.total);
  return ok;
}

// The share of contact-steps that slid, as a check that the scenarios reach every branch.
double share_sliding(int family, const std::vector<double> &out)
{
  if (family == FAMILY_COULOMB) return -1.0;
  const int flag = 15;
  long n = 0;
  for (int k = 1; k < kSteps; k++)
    for (int c = 0; c < kContacts; c++)
      n += out[((size_t) k * kContacts + c) * kMaxOutputs + flag] != 0.0;
  return (double) n / ((double) (kSteps - 1) * kContacts);
}


bool all_finite(const std::vector<double> &v)
{
  for (double x : v)
    if (!std::isfinite(x)) return false;
  return true;
}

}    // namespace

int main()
{
  // the host's results first: every output finite, and the scenarios reach the sliding branches
  for (int kind = 0; kind < CAT_KINDS; kind++)
    if (const char *e = catalogue_law_error(kind)) {
      std::printf("FAILED: catalogue law %d of the scenarios is invalid: %s\n", kind, e);
      return 1;
    }
  std::vector<HostArrays> host(FAMILIES);
  bool host_ok = true;
  for (int family = 0; family < FAMILIES; family++) {
    for (int c = 0; c < kContacts; c++) advance_contact(family, c, 0, kSteps, host[family].view());
    const bool finite = all_finite(host[family].out);
    const double sliding = share_sliding(family, host[family].out);
    std::printf("host   %-46s %s", family_name(family), finite ? "finite" : "NOT FINITE");
    if (sliding >= 0.0) std::printf(", %.1f %% of the contact-steps slid", 100 * sliding);
    std::printf("\n");
    // (T1 is always on the cone and T2 never: each has one branch)
    const bool one_branch = family == FAMILY_CATALOGUE + CAT_HOOKE_SLIDING ||
                            family == FAMILY_CATALOGUE + CAT_HOOKE_VISCOUS;
    const bool reaches = sliding < 0.0 || one_branch || (sliding > 0.02 && sliding < 0.98);
    host_ok = host_ok && finite && reaches;
  }
  if (!host_ok) {
    std::printf("FAILED: the host scenarios are not finite or do not reach both branches\n");
    return 1;
  }

  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("skipped: the device code compiled, but no CUDA device is present to run it\n");
    return 77;
  }
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);

  int failed = 0, passed = 0;
  for (int family = 0; family < FAMILIES; family++) {
    DeviceArrays dev;
    const int threads = 128, blocks = (kContacts + threads - 1) / threads;
    advance_on_device<<<blocks, threads>>>(family, 0, kSteps, dev.a);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    const std::vector<double> &h = host[family].out;
    std::vector<double> dev_out(h.size());
    CHECK_CUDA(cudaMemcpy(dev_out.data(), dev.a.out, sizeof(double) * dev_out.size(),
                          cudaMemcpyDeviceToHost));
    const bool first = report("first step", family, compare(family, h, dev_out, 0, 2), 1e-13);
    const bool all = report("200 steps", family, compare(family, h, dev_out, 0, kSteps), 1e-10);
    (first ? passed : failed)++;
    (all ? passed : failed)++;
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
