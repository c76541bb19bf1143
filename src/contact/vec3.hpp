// Small 3-vector algebra and exact rotations shared by every contact law.
// Header-only, no allocation, no virtual calls, no LAMMPS: callable from host and device code.
#pragma once

#include <cmath>

// The one portability macro: a kernel function is callable from host and device code. With
// Kokkos (its headers included before these) it is what Kokkos marks its own functions with, for
// whichever backend Kokkos was built; under nvcc or hipcc without Kokkos, __host__ __device__;
// otherwise plain inline. Functions that only the host needs (the validators, which return
// messages for LAMMPS errors) are plain `inline`.
#if defined(KOKKOS_INLINE_FUNCTION)
#define GE_INLINE KOKKOS_INLINE_FUNCTION
#elif defined(__CUDACC__) || defined(__HIPCC__)
#define GE_INLINE __host__ __device__ inline
#else
#define GE_INLINE inline
#endif

// The same, inlined into the caller whatever the compiler's size heuristics say: for a law's
// step called once per contact from a force loop that has just written the step's inputs to
// memory. Called through a function, the step reads those inputs 16 bytes at a time across the
// 8-byte stores that wrote them, and each such load waits for the stores to retire (a failed
// store-to-load forward): 13 % of a step of bench/in.bench_linear with the refined law.
#if defined(KOKKOS_FORCEINLINE_FUNCTION)
#define GE_FORCE_INLINE KOKKOS_FORCEINLINE_FUNCTION
#elif defined(__CUDACC__) || defined(__HIPCC__)
#define GE_FORCE_INLINE __host__ __device__ __forceinline__
#elif defined(__GNUC__)
#define GE_FORCE_INLINE [[gnu::always_inline]] inline
#else
#define GE_FORCE_INLINE inline
#endif

namespace ge {

struct Vec3 {
  double x, y, z;
};

GE_INLINE Vec3 vec3(const double *p) { return {p[0], p[1], p[2]}; }
GE_INLINE void store(const Vec3 &v, double *p)
{
  p[0] = v.x;
  p[1] = v.y;
  p[2] = v.z;
}

GE_INLINE Vec3 operator+(const Vec3 &a, const Vec3 &b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
GE_INLINE Vec3 operator-(const Vec3 &a, const Vec3 &b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
GE_INLINE Vec3 operator-(const Vec3 &a) { return {-a.x, -a.y, -a.z}; }
GE_INLINE Vec3 operator*(double s, const Vec3 &a) { return {s * a.x, s * a.y, s * a.z}; }
GE_INLINE double dot(const Vec3 &a, const Vec3 &b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
GE_INLINE Vec3 cross(const Vec3 &a, const Vec3 &b)
{
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
GE_INLINE double norm(const Vec3 &a) { return std::sqrt(dot(a, a)); }
GE_INLINE bool is_zero(const Vec3 &a) { return a.x == 0.0 && a.y == 0.0 && a.z == 0.0; }
GE_INLINE bool same(const Vec3 &a, const Vec3 &b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

// Component of v in the plane normal to the unit vector n.
GE_INLINE Vec3 project_onto_plane(const Vec3 &v, const Vec3 &n) { return v - dot(v, n) * n; }

// A rotation given by its rotation vector theta (axis theta/|theta|, angle |theta|), ready to
// apply (Rodrigues' formula) to several vectors:
//   R v = v + sinc * (theta x v) + versc * theta x (theta x v),
//   sinc = sin(t)/t, versc = (1 - cos t)/t^2, t = |theta|.
// Below t = 0.1 (every practical DEM step) both come from their Taylor series, exact to double
// precision (first omitted terms < 2e-22) and without trigonometric calls; above, from sin/cos.
struct Rotation {
  Vec3 theta;
  double t2, sinc, versc;
};

GE_INLINE Rotation rotation_from_vector(const Vec3 &theta)
{
  const double t2 = dot(theta, theta);
  Rotation r{theta, t2, 1.0, 0.5};
  if (t2 < 1e-4) {
    // t < 1e-2 (the usual step): four terms, first omitted < 3e-22
    constexpr double s1 = 1.0 / 6, s2 = 1.0 / 20, s3 = 1.0 / 42;
    constexpr double v1 = 1.0 / 12, v2 = 1.0 / 30, v3 = 1.0 / 56;
    r.sinc = 1.0 - t2 * s1 * (1.0 - t2 * s2 * (1.0 - t2 * s3));
    r.versc = 0.5 * (1.0 - t2 * v1 * (1.0 - t2 * v2 * (1.0 - t2 * v3)));
  } else if (t2 < 1e-2) {
    // Horner forms of sum_k (-t^2)^k / (2k+1)!  and  sum_k (-t^2)^k / (2k+2)!, k = 0..5
    // (multiplications by constant reciprocals: divisions here would cost more than sin/cos)
    constexpr double s1 = 1.0 / 6, s2 = 1.0 / 20, s3 = 1.0 / 42, s4 = 1.0 / 72, s5 = 1.0 / 110;
    constexpr double v1 = 1.0 / 12, v2 = 1.0 / 30, v3 = 1.0 / 56, v4 = 1.0 / 90, v5 = 1.0 / 132;
    r.sinc = 1.0 - t2 * s1 * (1.0 - t2 * s2 * (1.0 - t2 * s3 * (1.0 - t2 * s4 * (1.0 - t2 * s5))));
    const double versc_inner = 1.0 - t2 * v3 * (1.0 - t2 * v4 * (1.0 - t2 * v5));
    r.versc = 0.5 * (1.0 - t2 * v1 * (1.0 - t2 * v2 * versc_inner));
  } else {
    const double t = std::sqrt(t2);
    const double h = std::sin(0.5 * t);
    r.sinc = std::sin(t) / t;
    r.versc = 2.0 * h * h / t2;
  }
  return r;
}

GE_INLINE Vec3 rotate(const Rotation &r, const Vec3 &v)
{
  // theta x (theta x v) = theta (theta.v) - t^2 v: one cross product instead of two
  return (1.0 - r.versc * r.t2) * v + r.sinc * cross(r.theta, v) +
         (r.versc * dot(r.theta, v)) * r.theta;
}

// Rotate v by the rotation vector theta.
GE_INLINE Vec3 rotate_by_vector(const Vec3 &v, const Vec3 &theta)
{
  if (is_zero(theta)) return v;
  return rotate(rotation_from_vector(theta), v);
}

// tan(t/2)/t for t^2 = t2: below t = 0.1 (any practical DEM step) the Taylor series of
// tan(x)/x, x = t/2, through x^10 (first omitted term < 1e-18 relative), tan otherwise.
GE_INLINE double tan_half_over_angle(double t2)
{
  if (t2 < 1e-2) {
    const double y = 0.25 * t2;    // x^2
    constexpr double c1 = 1.0 / 3, c2 = 2.0 / 15, c3 = 17.0 / 315, c4 = 62.0 / 2835,
                     c5 = 1382.0 / 155925;
    // Estrin's scheme: a short chain of dependent operations
    const double y2 = y * y;
    return 0.5 * ((1.0 + c1 * y) + y2 * ((c2 + c3 * y) + y2 * (c4 + c5 * y)));
  }
  const double t = std::sqrt(t2);
  return std::tan(0.5 * t) / t;
}

// The rotation vector (axis times angle) of the unit quaternion (w, v)/|(w, v)| for w > 0 (a
// turn below pi): 2 atan(|v|/w) v/|v|. Below |v|/w = 1e-2 (any practical DEM step) from the
// Taylor series of atan(x)/x through x^8 (first omitted term < 1e-21 relative), without
// trigonometric calls; above, from atan2.
GE_INLINE Vec3 rotation_vector_of_quaternion(double w, const Vec3 &v)
{
  const double v2 = dot(v, v), x2 = v2 / (w * w);
  if (x2 < 1e-4) {
    constexpr double c1 = 1.0 / 3, c2 = 1.0 / 5, c3 = 1.0 / 7, c4 = 1.0 / 9;
    return ((2.0 / w) * (1.0 - x2 * (c1 - x2 * (c2 - x2 * (c3 - x2 * c4))))) * v;
  }
  const double s = std::sqrt(v2);
  return (2.0 * std::atan2(s, w) / s) * v;
}

// tan(psi/2) of the twist about the unit normal n by the component of the rotation vector theta
// along it, (theta.n) tan(t/2)/t with t = |theta|: the twist of the swing-twist decomposition
// of theta about n (the exact form of Kuhn's twirl, Kuhn 2011 eqs. 12-15), as the Jaeger frame
// and the linear laws' update_frame take it.
GE_INLINE double twist_tan_half(const Vec3 &theta, const Vec3 &n)
{
  return dot(theta, n) * tan_half_over_angle(dot(theta, theta));
}

// A turn of a contact's normal over a step by less than kTurnFloor (rad) is taken for round-off:
// a frame carried by quaternions keeps its normal to a few 1e-16 of the actual one, and a
// stored normal compared with one computed anew differs by as much (design notes: Jaeger
// frame). Where the laws measure the turn of the line of centres, a turn of that size is not
// measured (the movement is taken to first order, exact to round-off there).
constexpr double kTurnFloor = 1e-14;
GE_INLINE bool turn_resolved(const Vec3 &n_old, const Vec3 &n_new)
{
  const Vec3 c = cross(n_old, n_new);
  return dot(c, c) > kTurnFloor * kTurnFloor;
}

// The rotation vector of the rotation that twists about the unit vector a by psi,
// tan(psi/2) = u, and then carries a onto the unit vector b by the smallest rotation: the log of
// the quaternion product (1 + a.b, a x b) (x) (1, u a), with 1 + a.b = 2 - |a - b|^2/2 formed
// without cancellation. For a rigid rotation theta of a pair whose normal is a before and b
// after it, and u = twist_tan_half(theta, a), it is theta itself (to round-off).
GE_INLINE Vec3 swing_twist_rotation_vector(const Vec3 &a, const Vec3 &b, double u)
{
  const Vec3 d = a - b, c = cross(a, b);
  const double w = 2.0 - 0.5 * dot(d, d);
  // (w, c) (x) (1, u a) = (w - u c.a, u w a + c + u c x a), c.a = 0 to round-off
  return rotation_vector_of_quaternion(w - u * dot(c, a), (u * w) * a + c + u * cross(c, a));
}

// Rotate v by the smallest rotation that carries the unit vector a onto the unit vector b
// (axis a x b), in the form
//   R v = v - [(a+b).v / (1 + a.b)] (a+b) + 2 (a.v) b
// (check: R a = b, and v orthogonal to a and b is unchanged). a == b gives the identity only
// to roundoff; callers that need it bit for bit test for it. Antiparallel a, b have no unique
// smallest rotation; the caller never
// asks for one (a contact normal cannot flip within a step), and v is then only projected onto
// the plane normal to b.
GE_INLINE Vec3 rotate_a_to_b(const Vec3 &v, const Vec3 &a, const Vec3 &b)
{
  const Vec3 amb = a - b, apb = a + b;
  const double e = 0.5 * dot(amb, amb);    // 1 - a.b, without cancellation
  // 1/(1 + a.b) = 1/(2 - e) = 1/(2 (1 - h)), h = e/2: for the small tilts of a time step (below
  // 0.045 rad) 1/(1-h) = (1+h)(1+h^2)(1+h^4) + O(h^8) (< 4e-27), a division otherwise
  double inv_one_plus_c;
  if (e < 1e-3) {
    const double h = 0.5 * e, h2 = h * h;
    inv_one_plus_c = 0.5 * ((1.0 + h) * (1.0 + h2)) * (1.0 + h2 * h2);
  } else {
    if (2.0 - e < 1e-12) return project_onto_plane(v, b);
    inv_one_plus_c = 1.0 / (2.0 - e);
  }
  return v - (dot(apb, v) * inv_one_plus_c) * apb + (2.0 * dot(a, v)) * b;
}

}    // namespace ge
