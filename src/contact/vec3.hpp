// Small 3-vector algebra and exact rotations shared by every contact law.
// Header-only, no allocation, no virtual calls, no LAMMPS: callable from host and device code.
#pragma once

#include <cmath>

// The one portability macro: host+device inlining under CUDA/HIP/Kokkos, plain inline otherwise.
#if defined(__CUDACC__) || defined(__HIPCC__)
#define GE_INLINE __host__ __device__ inline
#else
#define GE_INLINE inline
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

// Rotate v by the rotation vector theta (axis theta/|theta|, angle |theta|), Rodrigues' formula.
// sin(t)/t and (1-cos t)/t^2 are evaluated without cancellation for small angles.
GE_INLINE Vec3 rotate_by_vector(const Vec3 &v, const Vec3 &theta)
{
  const double t2 = dot(theta, theta);
  if (t2 == 0.0) return v;
  const double t = std::sqrt(t2);
  double sinc, versc;    // sin(t)/t, (1 - cos t)/t^2
  if (t < 1e-4) {
    sinc = 1.0 - t2 / 6.0 * (1.0 - t2 / 20.0);
    versc = 0.5 * (1.0 - t2 / 12.0 * (1.0 - t2 / 30.0));
  } else {
    const double h = std::sin(0.5 * t);
    sinc = std::sin(t) / t;
    versc = 2.0 * h * h / t2;
  }
  const Vec3 txv = cross(theta, v);
  return v + sinc * txv + versc * cross(theta, txv);
}

// Rotate v by the smallest rotation that carries the unit vector a onto the unit vector b
// (axis a x b). Written without normalising the axis so it is exact as a -> b:
//   R v = (a.b) v + (a x b) x v + [(a x b).v / (1 + a.b)] (a x b).
// a == b returns v unchanged, bit for bit. Antiparallel a, b have no unique smallest rotation;
// the caller never asks for one (a contact normal cannot flip within a step), and v is then
// only projected onto the plane normal to b.
GE_INLINE Vec3 rotate_a_to_b(const Vec3 &v, const Vec3 &a, const Vec3 &b)
{
  if (same(a, b)) return v;
  const double c = dot(a, b);
  if (1.0 + c < 1e-12) return project_onto_plane(v, b);
  const Vec3 axb = cross(a, b);
  return c * v + cross(axb, v) + (dot(axb, v) / (1.0 + c)) * axb;
}

}    // namespace ge
