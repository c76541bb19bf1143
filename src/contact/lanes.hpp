// Two lanes of doubles: the same arithmetic on two independent problems at once, in one SIMD
// register where the target has one (SSE2 on every x86-64, NEON on AArch64), with the GCC/Clang
// vector extension. A kernel written for a number type R then runs on one problem with
// R = double (host and device code) or on two with R = Lanes2 (host code).
//
// Header-only, no allocation, no virtual calls, no LAMMPS.
#pragma once

#include "contact/vec3.hpp"

#include <cmath>

namespace ge {

// the scalar forms (R = double): a comparison gives a bool
GE_INLINE bool all_of(bool mask) { return mask; }
GE_INLINE double lanes_sqrt(double a) { return std::sqrt(a); }
GE_INLINE double lanes_select(bool mask, double if_true, double if_false)
{
  return mask ? if_true : if_false;
}

#if !defined(__CUDACC__) && !defined(__HIPCC__)
#if !defined(__GNUC__)
#error "GRANULAR-EXACT needs GCC or Clang (vector extensions, contact/lanes.hpp)"
#endif

#define GE_HAVE_LANES2 1
typedef double Lanes2 __attribute__((vector_size(16)));
// a comparison of two Lanes2 gives all bits set (true) or clear (false) in each lane
typedef long long LaneMask2 __attribute__((vector_size(16)));

inline bool all_of(LaneMask2 mask) { return mask[0] != 0 && mask[1] != 0; }
inline Lanes2 lanes_sqrt(Lanes2 a) { return Lanes2{std::sqrt(a[0]), std::sqrt(a[1])}; }
// bitwise, so a lane not chosen may hold anything (an inf or NaN of a lane that has no use for it)
inline Lanes2 lanes_select(LaneMask2 mask, Lanes2 if_true, Lanes2 if_false)
{
  return (Lanes2)((mask & (LaneMask2) if_true) | (~mask & (LaneMask2) if_false));
}
#else
#define GE_HAVE_LANES2 0
#endif

}    // namespace ge
