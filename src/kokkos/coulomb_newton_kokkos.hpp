/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: the Kokkos backend of the parallel Newton solver of
   `tangential coulomb` (coulomb_newton_parallel.hpp): every pass of the
   solver a Kokkos parallel_for or parallel_reduce in the execution space
   Space (a GPU, or host threads), its arrays in Space's memory.
------------------------------------------------------------------------- */

#ifndef GE_COULOMB_NEWTON_KOKKOS_H
#define GE_COULOMB_NEWTON_KOKKOS_H

#include <Kokkos_Core.hpp>
#include <Kokkos_Graph.hpp>

#include "coulomb_newton_parallel.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

namespace ge_coulomb_problem {

// A reduction's value: the largest value and four sums (Partial), joined as Slots are
struct PartialTotal {
  double largest;
  double sum[4];
};

// slots (largest and sums) += a reduction's total
KOKKOS_INLINE_FUNCTION unsigned long long bits_of(double v)
{
#if defined(__CUDA_ARCH__)
  return static_cast<unsigned long long>(__double_as_longlong(v));
#else
  unsigned long long bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits;
#endif
}

KOKKOS_INLINE_FUNCTION void add_to_slots(Slots &slots, const PartialTotal &total)
{
  if (total.largest > largest_of(slots)) slots.largest = bits_of(total.largest);
  for (int m = 0; m < 4; m++) slots.sum[m] += total.sum[m];
}

// nothing to do after a reduction
struct NothingThen {
  KOKKOS_INLINE_FUNCTION void operator()() const {}
};

// A reduction pass: its total goes into the caller's slots, and the control that follows it
// (`then`) runs, in its final step (on a device, by one thread of the last block of the
// reduction's own kernel), not in passes of their own. Each pass is a kernel launch, and at
// these sizes a Krylov iteration's time is mostly launches: with the diagonal blocks it is three
// kernels this way, not six.
template <class F, class Then = NothingThen> struct ReducePass {
  F f;
  Slots *slots;
  Then then;
  using value_type = PartialTotal;
  KOKKOS_INLINE_FUNCTION void init(value_type &v) const
  {
    v.largest = 0.0;
    for (double &s : v.sum) s = 0.0;
  }
  KOKKOS_INLINE_FUNCTION void join(value_type &into, const value_type &from) const
  {
    if (from.largest > into.largest) into.largest = from.largest;
    for (int m = 0; m < 4; m++) into.sum[m] += from.sum[m];
  }
  KOKKOS_INLINE_FUNCTION void final(value_type &total) const
  {
    add_to_slots(*slots, total);
    then();
  }
  KOKKOS_INLINE_FUNCTION void operator()(int k, value_type &into) const
  {
    const Partial part = f(k);
    if (part.largest > into.largest) into.largest = part.largest;
    for (int m = 0; m < 4; m++) into.sum[m] += part.sum[m];
  }
};

template <class F> struct EachPass {
  F f;
  KOKKOS_INLINE_FUNCTION void operator()(int k) const { f(k); }
};

template <class F> struct SinglePass {
  F f;
  KOKKOS_INLINE_FUNCTION void operator()(int) const { f(); }
};

// How a solve runs in the execution space Space (the offloaded solve and the friction step
// alike). Its Krylov iterations are preconditioned on a GPU by the contacts' diagonal blocks
// (2.1 to 5.9 times faster there than the fix's symmetric Gauss-Seidel, bench/README.md "The
// Newton solver on a GPU"), on host threads by symmetric Gauss-Seidel in colours (half the
// diagonal one's iterations, 1.2 to 1.3 times faster on one thread: bench/README.md, "Newton in
// the execution space"). On host threads each colour of a sweep is a fork and join of the
// threads: a sphere with many contacts (each of them a colour of its own) makes the sweeps a
// chain of small passes, and the fix's own loops are the faster solve (120 spheres on a large
// one: 0.35 against 5.0 ms per step on 2 threads), so they take at most kHostColours colours. A
// device's Krylov iterations (diagonal blocks) sweep no colours: it takes any number.
template <class Space> struct SolveInSpace {
  static constexpr bool on_host =
      std::is_same<typename Space::memory_space, Kokkos::HostSpace>::value;
  static constexpr int kHostColours = 64;
  static bool takes(const Schedule &schedule)
  {
    return !on_host || schedule.colours() <= kHostColours;
  }
  static constexpr Preconditioner preconditioner(PreconditionerChoice asked)
  {
    return asked == PreconditionerChoice::GaussSeidel ? Preconditioner::SymmetricGaussSeidel
        : asked == PreconditionerChoice::Diagonal     ? Preconditioner::Diagonal
        : on_host                                     ? Preconditioner::SymmetricGaussSeidel
                                                      : Preconditioner::Diagonal;
  }
  // for the log
  static const char *preconditioner_name(PreconditionerChoice asked)
  {
    return preconditioner(asked) == Preconditioner::Diagonal
        ? "the contacts' diagonal blocks"
        : "symmetric Gauss-Seidel in colours";
  }
};

// The backend: the passes run in order on Space's default instance. The solver allocates the
// same arrays in the same order every solve; released blocks are kept and handed out again, so a
// solve per step does not allocate device memory once the sizes have been seen.
template <class Space> class KokkosLoops {
 public:
  using memory_space = typename Space::memory_space;

  KokkosLoops() = default;
  KokkosLoops(const KokkosLoops &) = delete;
  KokkosLoops &operator=(const KokkosLoops &) = delete;
  ~KokkosLoops()
  {
    for (Block &b : blocks_) Kokkos::kokkos_free<memory_space>(b.data);
  }

  template <class T> T *alloc(size_t n)
  {
    const size_t bytes = sizeof(T) * (n > 0 ? n : 1);
    void *data = take_block(bytes);
    zero(data, bytes);
    return static_cast<T *>(data);
  }
  template <class T> void release(T *p)
  {
    for (Block &b : blocks_)
      if (b.data == p) b.in_use = false;
  }
  template <class T> void upload(T *to, const T *from, size_t n)
  {
    if (n == 0) return;
    Kokkos::deep_copy(Space(), bytes_view(to, sizeof(T) * n), host_bytes(from, sizeof(T) * n));
    synchronize();
  }
  template <class T> void download(T *to, const T *from, size_t n)
  {
    if (n == 0) return;
    Kokkos::deep_copy(Space(), host_bytes(to, sizeof(T) * n), bytes_view(from, sizeof(T) * n));
    synchronize();
  }
  void synchronize() { Space().fence(); }

  template <class F> void each(int begin, int end, F f)
  {
    if (end > begin) launch("ge::coulomb_each", begin, end, EachPass<F>{f});
  }
  // (a colour's contacts share no body: their order does not matter)
  template <class F> void each_reversed(int begin, int end, F f) { each(begin, end, f); }
  template <class F> void reduce(int begin, int end, F f, Slots *slots)
  {
    reduce(begin, end, f, slots, NothingThen{});
  }
  template <class F, class Then> void reduce(int begin, int end, F f, Slots *slots, Then then)
  {
    if (end <= begin) {
      single(then);
      return;
    }
    Kokkos::View<PartialTotal, memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>> into(
        reduction_total());
    if (recording_)
      *recording_ = recording_->then_parallel_reduce("ge::coulomb_reduce", policy(begin, end),
                                                     ReducePass<F, Then>{f, slots, then}, into);
    else
      Kokkos::parallel_reduce("ge::coulomb_reduce", policy(begin, end),
                              ReducePass<F, Then>{f, slots, then}, into);
  }
  template <class F> void single(F f) { launch("ge::coulomb_single", 0, 1, SinglePass<F>{f}); }

  // A batch's passes as one Kokkos graph (a CUDA graph on a GPU: one launch for all its kernels),
  // recorded at its first batch and submitted at every one; without graphs (the default), each
  // pass is launched by itself. A graph keeps the ranges and arrays of its passes: the solver
  // that records it is one solve's (ParallelNewton is made for each).
  void use_graphs(bool on) { graphs_ = on; }
  struct Graph {
    std::unique_ptr<Kokkos::Experimental::Graph<Space>> graph;
  };
  template <class Body> void batch(Graph &g, int n, Body body)
  {
    if (!graphs_) {
      for (int b = 0; b < n; b++) body();
      return;
    }
    if (!g.graph) {
      reduction_total();    // (allocated before recording: no allocation inside a graph)
      g.graph = std::make_unique<Kokkos::Experimental::Graph<Space>>(
          Kokkos::Experimental::create_graph(Space(), [&](auto root) {
            Node last = root;
            recording_ = &last;
            for (int b = 0; b < n; b++) body();
            recording_ = nullptr;
          }));
      g.graph->instantiate();
    }
    g.graph->submit();
  }

 private:
  struct Block {
    void *data;
    size_t bytes;
    bool in_use;
  };
  std::vector<Block> blocks_;
  PartialTotal *total_ = nullptr;
  // where a reduction's kernel leaves its total (its final step has added it to the slots)
  PartialTotal *reduction_total()
  {
    if (!total_) total_ = alloc<PartialTotal>(1);
    return total_;
  }
  using Node = Kokkos::Experimental::GraphNodeRef<Space>;
  Node *recording_ = nullptr;    // the last pass of a graph being recorded (batch)
  bool graphs_ = false;

  // a pass over [begin, end): launched now, or the next node of the graph being recorded
  template <class Pass> void launch(const char *name, int begin, int end, const Pass &pass)
  {
    if (recording_)
      *recording_ = recording_->then_parallel_for(name, policy(begin, end), pass);
    else
      Kokkos::parallel_for(name, policy(begin, end), pass);
  }
  static Kokkos::RangePolicy<Space, Kokkos::IndexType<int>> policy(int begin, int end)
  {
    return Kokkos::RangePolicy<Space, Kokkos::IndexType<int>>(Space(), begin, end);
  }
  template <class Memory>
  using Bytes = Kokkos::View<unsigned char *, Memory, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  static Bytes<memory_space> bytes_view(const void *data, size_t bytes)
  {
    return Bytes<memory_space>(static_cast<unsigned char *>(const_cast<void *>(data)), bytes);
  }
  static Bytes<Kokkos::HostSpace> host_bytes(const void *data, size_t bytes)
  {
    return Bytes<Kokkos::HostSpace>(static_cast<unsigned char *>(const_cast<void *>(data)), bytes);
  }
  // `bytes` of the block at `data` zeroed in 8-byte words (Kokkos fills a byte view on host threads
  // byte by byte, about 10 ms per solve of the 72-layer bed's arrays on 2 threads)
  static void zero(void *data, size_t bytes)
  {
    const size_t words = bytes / sizeof(std::uint64_t);
    Kokkos::deep_copy(Space(),
                      Kokkos::View<std::uint64_t *, memory_space,
                                   Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                          static_cast<std::uint64_t *>(data), words),
                      std::uint64_t(0));
    const size_t tail = bytes - words * sizeof(std::uint64_t);
    if (tail > 0)
      Kokkos::deep_copy(Space(),
                        bytes_view(static_cast<unsigned char *>(data) + bytes - tail, tail),
                        static_cast<unsigned char>(0));
  }
  // the smallest free block that holds `bytes`, or a new one
  void *take_block(size_t bytes)
  {
    Block *best = nullptr;
    for (Block &b : blocks_)
      if (!b.in_use && b.bytes >= bytes && (!best || b.bytes < best->bytes)) best = &b;
    if (!best) {
      blocks_.push_back({Kokkos::kokkos_malloc<memory_space>("ge::coulomb_solve", bytes), bytes,
                         false});
      best = &blocks_.back();
    }
    best->in_use = true;
    return best->data;
  }
};

}    // namespace ge_coulomb_problem

#endif
