// Jaeger contact: Hertz normal force and the exact Cattaneo-Mindlin-Deresiewicz tangential force
// of two elastically identical spheres for any sequence of finite movements, through Jaeger's
// equivalent load history as implemented by M. R. Kuhn, "Implementation of the Jaeger contact
// model for discrete element simulations", IJNME 2011 (arXiv:1812.10374).
// The algebra below is the project's reconstruction of the procedure the paper describes; it is
// explained in doc/design_notes.md, whose sections are cited as "notes: <section>".
//
// Conventions: half-overlap delta = (r_p + r_q - |x_q - x_p|)/2, tangential
// half-shift u of q relative to p, N = C_H delta^{3/2}. T points along the accumulated elastic
// shift of q relative to p (a stretched spring): the force on q is N n - T.
//
// State of one contact: a stack of history vertices (delta*_i, N*_i, theta*_i), i = 1..n, with
// the origin (0, 0) as the implicit vertex 0, the previous tangential force T (local 2-vector) and
// a unit quaternion q for the contact frame. Segment i runs from vertex i-1 to vertex i with force
// slope theta*_i = dT/dN (|theta*_i| <= mu) and displacement slope kappa theta*_i; every vertex is
// the apex of the cone |u - u_i| <= mu kappa (delta - delta*_i) and the cones are nested.
//
// Departures from the plain procedure (notes: Jaeger history), where it fails on valid input; the
// tests StepsEndingOnAStoredVertex, SymmetricCyclesAtConstantLoadFollowMasing and
// UnloadingAlongTheSegmentNearTheBackwardCone show each failure and its fix:
//  * after an elimination the new point lies on the cone of the vertex below, so c = 0 up to
//    round-off. A plain root test rejects it when round-off makes it negative (or 0/0: a step
//    that retraces an elastic step, pure normal unloading back onto a stored delta*, a round-off
//    continued loading at the peak of a cycle) and the walk slides down to gross sliding,
//    |T| = mu N instead of the force of that vertex. Here a point in or on the cone of the vertex
//    gives s = 0: the distance outside the apex's cone does not increase along the segment
//    (the segment is no steeper than the cone), so the apex stays at the vertex.
//  * c/(sqrt(B^2 + A c) - B) cancels catastrophically for B > 0, A c << B^2 (unloading with a
//    movement along the segment, new point near the backward cone): 5e-5 mu N off when |D|
//    exceeds mu kappa |L| by 1e-12 relative, gross sliding when they are equal. For B > 0 the
//    conjugate (B + sqrt)/A is used, and the discriminant is formed without cancellation.
//  * a cut within tol_delta of the vertex below is taken at that vertex, and a cut within
//    tol_delta of the current indentation at delta itself: no segment of round-off length is
//    created (notes: Jaeger history, tolerances) and the top vertex is the current state.
// Header-only, no allocation, no virtual calls, no LAMMPS: callable from host and device code.
#pragma once

#include "contact/vec3.hpp"

namespace ge {

struct JaegerMaterial {
  double E_hat = 0.0;    // plane-strain modulus E^ = E/(1-nu^2) = 2G/(1-nu); two materials: 2 E*
  double kappa = 0.0;    // k_n/k_t = (2-nu)/(2(1-nu)); two materials: E*/(4 G*)
  double mu = 0.0;       // friction coefficient
  double lambda = 0.0;   // Kuhn's approximation: merge successive elastic segments whose slopes
                         // differ by <= lambda*mu (0 = off) (notes: Jaeger merging)
  int capacity = 0;      // at most this many stored vertices per contact, merging by the
                         // least-cost rule of notes: Jaeger merging (0 = exact, unbounded)
};

GE_INLINE JaegerMaterial jaeger_material(double E_young, double nu, double mu, double lambda,
                                         int capacity)
{
  JaegerMaterial m;
  m.E_hat = E_young / (1.0 - nu * nu);
  m.kappa = (2.0 - nu) / (2.0 * (1.0 - nu));
  m.mu = mu;
  m.lambda = lambda;
  m.capacity = capacity;
  return m;
}

// Two elastic bodies of different materials (E_i, nu_i) and (E_j, nu_j); E_j = infinity: a rigid
// body (a wall). Mindlin's compliances combine as E* = [(1-nu_i^2)/E_i + (1-nu_j^2)/E_j]^-1 and
// G* = [(2-nu_i)/G_i + (2-nu_j)/G_j]^-1, G = E/(2(1+nu)): the Hertz force is
// (4/3) E* sqrt(R*) (2 delta)^{3/2} (E^ = 2 E*) and k_n/k_t = 2 E* a / (8 G* a) = E*/(4 G*). The
// approximation (notes: Jaeger materials): the coupling of normal and tangential tractions
// between dissimilar materials (Dundurs' beta != 0) is neglected, as in the effective-modulus
// form of Mindlin's solution. Identical materials give jaeger_material() bit for bit.
GE_INLINE JaegerMaterial jaeger_material_of_pair(double E_i, double nu_i, double E_j, double nu_j,
                                                 double mu, double lambda, int capacity)
{
  if (E_i == E_j && nu_i == nu_j) return jaeger_material(E_i, nu_i, mu, lambda, capacity);
  const double G_i = E_i / (2.0 * (1.0 + nu_i));
  const double E_compliance = (1.0 - nu_i * nu_i) / E_i + (E_j < INFINITY ? (1.0 - nu_j * nu_j) / E_j : 0.0);
  const double G_compliance =
      (2.0 - nu_i) / G_i + (E_j < INFINITY ? (2.0 - nu_j) / (E_j / (2.0 * (1.0 + nu_j))) : 0.0);
  JaegerMaterial m = jaeger_material(E_i, nu_i, mu, lambda, capacity);
  const double E_star = 1.0 / E_compliance, G_star = 1.0 / G_compliance;
  m.E_hat = 2.0 * E_star;
  m.kappa = E_star / (4.0 * G_star);
  return m;
}

// C_H = (4/3) E^ sqrt(R), R = 2 r_p r_q/(r_p + r_q): with the half-overlap this is the classical
// Hertz law (4/3) E* sqrt(R*) (2 delta)^{3/2}, E* = E^/2, R* = R/2.
GE_INLINE double jaeger_hertz_constant(const JaegerMaterial &m, double R)
{
  return (4.0 / 3.0) * m.E_hat * std::sqrt(R);
}

// One stored history vertex (delta*, N*, theta*): 32 bytes, the four numbers of Kuhn's entries.
// N* = C_H delta*^{3/2} is stored rather than recomputed: a vertex that becomes the equivalent
// point (Kuhn lines 25/41) then gives back its force exactly, and the stack walk needs
// no square root per visited vertex.
struct JaegerVertex {
  double delta, N, theta1, theta2;
};

// View of one contact's history stack in caller-owned memory. vertex[0..count-1] are vertices
// 1..count (vertex 0, the origin, is implicit). The kernel never writes beyond vertex[room-1].
struct JaegerHistory {
  JaegerVertex *vertex;
  int count;
  int room;
};

// A step pushes at most one vertex (after eliminations and merges), so the caller provides
// room >= count + 1 before each step; with capacity M > 0 the count never exceeds M after a
// step, so room = M + 1 suffices forever. (Should the caller provide less, the kernel merges by
// the least-cost rule before a push instead of writing past room.)
GE_INLINE int jaeger_room_needed(const JaegerMaterial &m, int count)
{
  (void) m;
  return count + 1;
}

// What a step did (optional output of jaeger_step, for diagnostics and tests).
enum JaegerStepKind : int {
  JAEGER_SEPARATED = 0,      // delta <= 0: history cleared, no force
  JAEGER_NO_MOVEMENT = 1,    // the point did not move (within tol_delta): nothing changed
  JAEGER_ELASTIC = 2,        // inside the top cone: one elastic segment pushed (Kuhn line 15)
  JAEGER_PARTIAL_SLIP = 3,   // equivalent point found on a stored segment (eq. C)
  JAEGER_GROSS_SLIP = 4      // every segment eliminated: sliding on the whole contact
};
struct JaegerStepInfo {
  int kind = JAEGER_SEPARATED;
  int eliminated = 0;        // segments removed by repetitive elimination
  bool cut_on_slip = false;  // the equivalent point lies on a slip segment (Kuhn eq. 7)
};

namespace jaeger_detail {

constexpr double kTolDelta = 1e-14;    // zero length, relative to delta (notes: Jaeger history)
constexpr double kEpsSlope = 1e-9;     // |theta| >= mu (1 - eps) is a slip slope (same)
constexpr double kLossless = 1e-12;    // slopes this close (relative to mu) are identical

struct V2 {
  double x, y;
};
GE_INLINE V2 operator+(const V2 &a, const V2 &b) { return {a.x + b.x, a.y + b.y}; }
GE_INLINE V2 operator-(const V2 &a, const V2 &b) { return {a.x - b.x, a.y - b.y}; }
GE_INLINE V2 operator*(double s, const V2 &a) { return {s * a.x, s * a.y}; }
GE_INLINE double dot(const V2 &a, const V2 &b) { return a.x * b.x + a.y * b.y; }
GE_INLINE double cross(const V2 &a, const V2 &b) { return a.x * b.y - a.y * b.x; }
GE_INLINE double norm(const V2 &a) { return std::sqrt(dot(a, a)); }
GE_INLINE V2 slope(const JaegerVertex &v) { return {v.theta1, v.theta2}; }

GE_INLINE double hertz(double C_H, double delta) { return C_H * delta * std::sqrt(delta); }

GE_INLINE bool is_slip(const V2 &theta, double mu) { return norm(theta) >= mu * (1.0 - kEpsSlope); }

// Back-off s = delta*_k - delta* >= 0 of the equivalent apex along the top segment (slope theta)
// such that the new point (L, D) relative to vertex k lies on the apex's cone (eq. C of
// notes: Jaeger history):
//   |D + kappa theta s| = mu kappa (L + s),   i.e.  A s^2 - 2 B s - c = 0.
// The signed distance of the point outside the apex's cone does not increase with s (the
// segment's slope is at most the cone's), so the admissible root is the first s where it reaches
// zero; it is the larger root, and L + s >= 0 holds for it. Returns -1 when there is none (a
// slip segment in continued loading: the segment is eliminated).
GE_INLINE double backoff(const V2 &theta, const V2 &D, double L, double mu, double kappa,
                         bool slip_segment)
{
  const double mk = mu * kappa;
  const double c = dot(D, D) - (mk * L) * (mk * L);
  // Already in the cone of vertex k (also on its boundary, where round-off decides the sign of
  // c): the apex stays at the vertex. Without this the root formulas give s = 0- or 0/0 and the
  // walk wrongly goes on down to gross sliding.
  if (L >= 0.0 && c <= 0.0) return 0.0;
  const double B = kappa * (dot(D, theta) - mu * mk * L);
  double s;
  if (slip_segment) {
    // A = 0 (Kuhn's lines 28-35, eq. 7): unloading within the cone has the linear root; B >= 0
    // is continued loading, the cone grows past the whole segment
    if (B >= 0.0) return -1.0;
    s = c / (-2.0 * B);
  } else {
    const double A = kappa * kappa * (mu * mu - dot(theta, theta));
    // B^2 + A c = kappa^2 (mu^2 |w|^2 - (w x theta)^2), w = D - kappa L theta: the same number
    // without the cancellation of two nearly equal terms (exact zero for pure normal unloading
    // of a theta = 0 segment, the double root of eq. C)
    const V2 w = D - (kappa * L) * theta;
    const double wx = cross(w, theta);
    const double disc = kappa * kappa * (mu * mu * dot(w, w) - wx * wx);
    const double sq = disc > 0.0 ? std::sqrt(disc) : 0.0;
    // the larger root (B + sq)/A in the form that does not cancel (Kuhn's eqs. 5/6)
    s = B > 0.0 ? (B + sq) / A : c / (sq - B);
  }
  // round-off guards only: the exact root is >= 0 and >= -L
  if (!(s >= 0.0)) s = 0.0;
  return s < -L ? -L : s;
}

// Remove stored vertex j (vertex j+1, never the top one): its two segments become one whose
// slope is the Delta N-weighted mean, so T = sum theta* Delta N* is kept exactly and the merged
// slope, a convex combination, keeps |theta| <= mu and the cones nested (notes: Jaeger merging).
GE_INLINE void merge_vertex(JaegerHistory &h, int j)
{
  JaegerVertex *v = h.vertex;
  const double N0 = j > 0 ? v[j - 1].N : 0.0;
  const double dN1 = v[j].N - N0, dN2 = v[j + 1].N - v[j].N;
  const double w = 1.0 / (dN1 + dN2);
  v[j + 1].theta1 = (dN1 * v[j].theta1 + dN2 * v[j + 1].theta1) * w;
  v[j + 1].theta2 = (dN1 * v[j].theta2 + dN2 * v[j + 1].theta2) * w;
  for (int i = j; i + 1 < h.count; ++i) v[i] = v[i + 1];
  --h.count;
}

// Merge the two top-most segments while their slopes differ by at most `threshold` (only
// elastic ones if elastic_only). Only a push can create a new similar pair, and it is on top,
// so looking at the top pair after each push keeps the whole stack reduced.
GE_INLINE void merge_top(JaegerHistory &h, double mu, double threshold, bool elastic_only)
{
  while (h.count >= 2) {
    const V2 a = slope(h.vertex[h.count - 2]), b = slope(h.vertex[h.count - 1]);
    if (elastic_only && (is_slip(a, mu) || is_slip(b, mu))) return;
    if (norm(a - b) > threshold) return;
    merge_vertex(h, h.count - 2);
  }
}

// The interior vertex whose removal moves the force-space polyline least (notes: Jaeger merging):
// cost_j = |theta*_j - theta*_{j+1}| dN1 dN2/(dN1 + dN2). The base of an active slip segment on
// top is kept. With nothing else to choose (two vertices, slip on top) vertex 1 goes.
GE_INLINE int cheapest_vertex(const JaegerHistory &h, double mu)
{
  const JaegerVertex *v = h.vertex;
  const int n = h.count;
  const bool top_slip = is_slip(slope(v[n - 1]), mu);
  // cost^2 = num/den with num = |dtheta|^2 (dN1 dN2)^2, den = (dN1 + dN2)^2, compared by cross
  // multiplication: no root or division per vertex (this scan runs after every push)
  int best_j = 0;
  double best_num = -1.0, best_den = 1.0;
  double N0 = 0.0;
  for (int j = 0; j + 1 < n; ++j) {
    const double dN1 = v[j].N - N0, dN2 = v[j + 1].N - v[j].N;
    N0 = v[j].N;
    if (j == n - 2 && top_slip) continue;
    const V2 d = slope(v[j]) - slope(v[j + 1]);
    const double P = dN1 * dN2, S = dN1 + dN2;
    const double num = dot(d, d) * (P * P), den = S * S;
    if (best_num < 0.0 || num * best_den < best_num * den) {
      best_num = num;
      best_den = den;
      best_j = j;
    }
  }
  return best_j;
}

// Kuhn's approximation, then the lossless merge and the capacity bound, after every push.
GE_INLINE void reduce(const JaegerMaterial &m, JaegerHistory &h)
{
  if (m.lambda > 0.0) merge_top(h, m.mu, m.lambda * m.mu, true);
  if (m.capacity > 0) {
    merge_top(h, m.mu, kLossless * m.mu, false);    // lossless: no corner, nothing changes
    while (h.count > m.capacity) merge_vertex(h, cheapest_vertex(h, m.mu));
  }
}

// Push a vertex. A caller that left no room (room < count + 1, a broken contract) gets a merge
// by the least-cost rule first instead of a write past vertex[room-1].
GE_INLINE void push(JaegerHistory &h, const JaegerVertex &v, double mu)
{
  if (h.room <= 0) return;
  while (h.count >= h.room && h.count >= 2) merge_vertex(h, cheapest_vertex(h, mu));
  if (h.count >= h.room) {
    // room == count == 1: fold the stored vertex into the new segment (Delta N-weighted)
    JaegerVertex &u = h.vertex[0];
    const double w = 1.0 / v.N;
    const double t1 = (u.N * u.theta1 + (v.N - u.N) * v.theta1) * w;
    const double t2 = (u.N * u.theta2 + (v.N - u.N) * v.theta2) * w;
    u = {v.delta, v.N, t1, t2};
    return;
  }
  h.vertex[h.count++] = v;
}

}    // namespace jaeger_detail

// The tangential procedure (Kuhn's Figs. 2-3, with the merges of notes: Jaeger merging) in the
// local 2-D frame: delta = half-overlap at the end of the step, du = tangential half-shift of q
// relative to p during the step, T = previous tangential force, updated in place. Returns N.
// delta <= 0 clears the history and T.
GE_INLINE double jaeger_step(const JaegerMaterial &m, double C_H, double delta, const double du[2],
                             double T[2], JaegerHistory &h, JaegerStepInfo *info)
{
  using namespace jaeger_detail;
  JaegerStepInfo local;
  JaegerStepInfo &out = info ? *info : local;
  out = JaegerStepInfo();
  if (!(delta > 0.0)) {    // contact lost
    h.count = 0;
    T[0] = T[1] = 0.0;
    return 0.0;
  }
  const double N = hertz(C_H, delta);
  const double tol = kTolDelta * delta;
  const double mu = m.mu, kappa = m.kappa;
  int k = h.count;
  // the new point relative to the top vertex (= the state at the end of the last step)
  double L = delta - (k > 0 ? h.vertex[k - 1].delta : 0.0);
  V2 D = {du[0], du[1]};

  // ---- elastic (stick) step: the point is in the top cone (Kuhn line 15)
  const double reach = mu * kappa * L;    // radius of the top cone at the new point
  if (L >= 0.0 && dot(D, D) <= reach * reach) {
    if (L <= tol) {
      out.kind = JAEGER_NO_MOVEMENT;
      return N;
    }
    const V2 theta = (1.0 / (kappa * L)) * D;    // |theta| <= mu (line 17)
    const double Nk = k > 0 ? h.vertex[k - 1].N : 0.0;
    T[0] += theta.x * (N - Nk);                   // (E), Kuhn line 18
    T[1] += theta.y * (N - Nk);
    push(h, {delta, N, theta.x, theta.y}, mu);
    reduce(m, h);
    out.kind = JAEGER_ELASTIC;
    return N;
  }

  // ---- slip: walk down to the segment that holds the equivalent point (Kuhn's Fig. 3)
  V2 Tk = {T[0], T[1]};    // force at vertex k
  double d_eq = 0.0, N_eq = 0.0;
  V2 T_eq = {0.0, 0.0}, D_eq = D;    // gross sliding unless a segment holds the point
  while (k > 0) {
    JaegerVertex &top = h.vertex[k - 1];
    const double d_below = k > 1 ? h.vertex[k - 2].delta : 0.0;
    const double N_below = k > 1 ? h.vertex[k - 2].N : 0.0;
    const V2 theta = slope(top);
    const double ell = top.delta - d_below;
    const bool slip_segment = is_slip(theta, mu);
    const double s = backoff(theta, D, L, mu, kappa, slip_segment);
    // on this segment, unless the cut is within tol_delta of the vertex below: then that vertex
    // is the equivalent point (found on the next pass with s = 0), and no segment of round-off
    // length is left behind (notes: Jaeger history, tolerances)
    if (s >= 0.0 && ell - s > tol) {
      out.cut_on_slip = slip_segment;
      if (s <= tol) {
        // delta* is vertex k itself: reuse its stored values (lines 25/41)
        d_eq = top.delta;
        N_eq = top.N;
        T_eq = Tk;
      } else {
        // delta* = delta (pure normal unloading on this segment, the double root of eq. C):
        // take the current values exactly, so the top vertex is the current state
        const bool at_current = L + s <= tol;
        d_eq = at_current ? delta : top.delta - s;
        N_eq = at_current ? N : hertz(C_H, d_eq);
        T_eq = Tk - (top.N - N_eq) * theta;
        top.delta = d_eq;    // truncate the top segment (lines 49-51)
        top.N = N_eq;
      }
      D_eq = D + (kappa * s) * theta;    // new point relative to the equivalent apex
      break;
    }
    // the point has left the cone of vertex k-1 too: eliminate segment k (lines 50-53)
    D = D + (kappa * ell) * theta;
    L += ell;
    Tk = Tk - (top.N - N_below) * theta;
    --k;
    h.count = k;
    ++out.eliminated;
    if (k == 0) Tk = {0.0, 0.0};    // exact value at the origin: no round-off carried over
    D_eq = D;
  }
  out.kind = k > 0 ? JAEGER_PARTIAL_SLIP : JAEGER_GROSS_SLIP;

  // ---- new slip segment from delta* to delta, force slope mu towards the point (lines 62-67)
  const double dn = norm(D_eq);
  const V2 theta_new = dn > 0.0 ? (mu / dn) * D_eq : V2{0.0, 0.0};
  T[0] = T_eq.x + theta_new.x * (N - N_eq);
  T[1] = T_eq.y + theta_new.y * (N - N_eq);
  if (delta - d_eq > tol) push(h, {delta, N, theta_new.x, theta_new.y}, mu);    // lines 70-71
  reduce(m, h);
  return N;
}

GE_INLINE double jaeger_step(const JaegerMaterial &m, double C_H, double delta, const double du[2],
                             double T[2], JaegerHistory &h)
{
  return jaeger_step(m, C_H, delta, du, T, h, nullptr);
}

// ------------------------------------------------------------------------------------------------
// Contact frame (Kuhn section 3.2; notes: Jaeger frame): unit quaternion q = (q0, q1, q2, q3),
// scalar first, local -> global, local axis 3 = the contact normal. All zero = not set.

namespace jaeger_detail {

// a (x) b (Hamilton product)
GE_INLINE void quat_mul(const double a[4], const double b[4], double out[4])
{
  out[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  out[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  out[2] = a[0] * b[2] + a[2] * b[0] + a[3] * b[1] - a[1] * b[3];
  out[3] = a[0] * b[3] + a[3] * b[0] + a[1] * b[2] - a[2] * b[1];
}

GE_INLINE void quat_normalize(double q[4])
{
  const double s = 1.0 / std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (int i = 0; i < 4; ++i) q[i] *= s;
}

// The rotation vector of the frame's rotation from q_old to q_new (both unit, q_new near q_old),
// the log of q_new (x) q_old*, formed as |q_old|^2 + (q_new - q_old) (x) q_old*: the difference
// of two nearby quaternions is exact (or small), so the rotation comes with the relative
// precision of its own size, where the product of the two unit quaternions would carry an
// absolute error of 1e-16 into it. It is the frame's actual rotation, round-off of q_new
// included: that round-off then comes back in the next step's rotation, and the lengths arm x
// turn of a path sum to the arm times its whole turn (notes: Jaeger frame) instead of taking up
// 1e-16 arm in every step (3e-12 of mu N after 100 steps).
GE_INLINE Vec3 frame_turn(const double q_old[4], const double q_new[4])
{
  const double conj[4] = {q_old[0], -q_old[1], -q_old[2], -q_old[3]};
  const double dq[4] = {q_new[0] - q_old[0], q_new[1] - q_old[1], q_new[2] - q_old[2],
                        q_new[3] - q_old[3]};
  double p[4];
  quat_mul(dq, conj, p);
  const double w = q_old[0] * q_old[0] + q_old[1] * q_old[1] + q_old[2] * q_old[2] +
      q_old[3] * q_old[3] + p[0];
  return rotation_vector_of_quaternion(w, Vec3{p[1], p[2], p[3]});
}

}    // namespace jaeger_detail

GE_INLINE bool jaeger_frame_set(const double q[4])
{
  return q[0] != 0.0 || q[1] != 0.0 || q[2] != 0.0 || q[3] != 0.0;
}

// Columns of R(q): the local axes in the global frame.
GE_INLINE Vec3 jaeger_frame_axis1(const double q[4])
{
  return {1.0 - 2.0 * (q[2] * q[2] + q[3] * q[3]), 2.0 * (q[1] * q[2] + q[0] * q[3]),
          2.0 * (q[1] * q[3] - q[0] * q[2])};
}
GE_INLINE Vec3 jaeger_frame_axis2(const double q[4])
{
  return {2.0 * (q[1] * q[2] - q[0] * q[3]), 1.0 - 2.0 * (q[1] * q[1] + q[3] * q[3]),
          2.0 * (q[2] * q[3] + q[0] * q[1])};
}
// R(a) e3 |a|^2 for a quaternion a of any norm (the quadratic form of R without the identity
// term's normalisation): the frame normal of a unit quaternion, scaled by |a|^2 otherwise
GE_INLINE Vec3 jaeger_frame_normal_of_product(const double a[4])
{
  return {2.0 * (a[1] * a[3] + a[0] * a[2]), 2.0 * (a[2] * a[3] - a[0] * a[1]),
          a[0] * a[0] - a[1] * a[1] - a[2] * a[2] + a[3] * a[3]};
}

// R(q) e3: the frame's normal
GE_INLINE Vec3 jaeger_frame_normal(const double q[4])
{
  return {2.0 * (q[1] * q[3] + q[0] * q[2]), 2.0 * (q[2] * q[3] - q[0] * q[1]),
          1.0 - 2.0 * (q[1] * q[1] + q[2] * q[2])};
}

// Initial frame, local e3 -> n, from two Euler angles (notes: Jaeger frame; atan2: accurate
// also for n near -e3, where acos loses digits).
GE_INLINE void jaeger_frame_init(double q[4], const Vec3 &n)
{
  // a normal along +-e3 (horizontal walls, vertical contacts) takes the exact frame: through the
  // Euler angles, n = -e3 has cos(pi/2) = 6e-17 in q, so the normal leaked into axis 1 at 1e-16
  // and a pure normal press gave a tangential force of round-off size
  if (n.x == 0.0 && n.y == 0.0) {
    const bool up = n.z > 0.0;
    q[0] = up ? 1.0 : 0.0;    // identity, or the half turn about e1 (axes e1, -e2, -e3)
    q[1] = up ? 0.0 : 1.0;
    q[2] = q[3] = 0.0;
    return;
  }
  const double alpha = std::atan2(n.y, n.x);
  const double beta = std::atan2(std::sqrt(n.x * n.x + n.y * n.y), n.z);
  const double ca = std::cos(0.5 * alpha), sa = std::sin(0.5 * alpha);
  const double cb = std::cos(0.5 * beta), sb = std::sin(0.5 * beta);
  q[0] = ca * cb;
  q[1] = -sa * sb;
  q[2] = ca * sb;
  q[3] = sa * cb;
  jaeger_detail::quat_normalize(q);
}

// Carry the frame through one step (Kuhn's twirl and tilt, made exact): the step's mean
// rotation theta = (dphi_p + dphi_q)/2 is split into a twist about the old normal, by psi with
// tan(psi/2) = (theta.n_old) tan(t/2)/t, t = |theta|, and the smallest tilt onto the new normal
// (the swing-twist decomposition used by the linear law's update_frame):
// q <- tilt (x) twist (x) q.
// For a rigid-body rotation of the pair (n_new = R(theta) n_old) the product is R(theta) itself,
// so the local force is unchanged to round-off however many steps. The tilt starts from the
// frame's own normal after the twist, not from n_old: then R(q) e3 = n_new to round-off after
// every update whatever n_old the caller passes, and no error accumulates.
// turn (if given): the rotation vector of the frame's rotation over the step, tilt (x) twist
// (notes: Jaeger frame). Returns whether the normal turned measurably (by more than kTurnFloor,
// vec3.hpp): false for a tilt of round-off size, and where the normal reversed and the frame was
// restarted (no rotation carries it; turn is then zero).
GE_FORCE_INLINE bool jaeger_frame_update(double q[4], const Vec3 &n_old, const Vec3 &n_new,
                                         const Vec3 &mean_rotation, Vec3 *turn = nullptr)
{
  using jaeger_detail::quat_mul;
  using jaeger_detail::quat_normalize;
  const double q_old[4] = {q[0], q[1], q[2], q[3]};
  double a[4] = {q[0], q[1], q[2], q[3]};
  const double u = twist_tan_half(mean_rotation, n_old);    // tan(psi/2)
  // (1, u n_old) is the twist quaternion times 1/cos(psi/2), so |a|^2 = 1 + u^2 (q is unit):
  // the frame normal of the unnormalised product is scaled by 1/(1 + u^2) instead of
  // normalising a here; the single normalisation comes after the tilt
  double inv_norm2 = 1.0;
  if (u != 0.0) {
    const double tw[4] = {1.0, u * n_old.x, u * n_old.y, u * n_old.z};
    quat_mul(tw, q, a);
    inv_norm2 = 1.0 / (1.0 + u * u);
  }
  const Vec3 m_raw = jaeger_frame_normal_of_product(a);
  const Vec3 m = inv_norm2 * m_raw;
  if (same(m, n_new)) {
    quat_normalize(a);
    for (int i = 0; i < 4; ++i) q[i] = a[i];
    if (turn) *turn = jaeger_detail::frame_turn(q_old, q);
    return false;
  }
  // min-arc quaternion (1 + m.n, m x n), 1 + m.n = 2 - |m - n|^2/2 without cancellation
  const Vec3 d = m - n_new, c = cross(m, n_new);
  const double w = 2.0 - 0.5 * dot(d, d);
  if (w <= 1e-12) {
    // the normal reversed within one step (not a physical contact): no unique tilt, restart
    jaeger_frame_init(q, n_new);
    if (turn) *turn = Vec3{0, 0, 0};
    return false;
  }
  const double tilt[4] = {w, c.x, c.y, c.z};
  quat_mul(tilt, a, q);
  quat_normalize(q);
  if (turn) *turn = jaeger_detail::frame_turn(q_old, q);
  return dot(c, c) > kTurnFloor * kTurnFloor;
}

GE_INLINE Vec3 jaeger_to_global(const double q[4], double t1, double t2)
{
  return t1 * jaeger_frame_axis1(q) + t2 * jaeger_frame_axis2(q);
}

GE_INLINE void jaeger_to_local(const double q[4], const Vec3 &v, double out[2])
{
  out[0] = dot(jaeger_frame_axis1(q), v);
  out[1] = dot(jaeger_frame_axis2(q), v);
}

// ------------------------------------------------------------------------------------------------
// Per-contact driver (notes: Jaeger frame).

struct JaegerInput {
  Vec3 normal;          // unit normal p -> q at the end of the step
  double delta;         // half-overlap at the end of the step (> 0 in contact)
  Vec3 translation;     // contact translation of q relative to p during the step (global; only
                        // its tangential part is used)
  Vec3 mean_rotation;   // (dphi_p + dphi_q)/2, rotation vector of the step
  double R;             // averaged radius
  // The turn of the line of centres (notes: Jaeger frame). arm: the signed distance from p's
  // centre to q's centre of curvature, x_q - x_p = arm * normal at the end of the step (two
  // spheres: their centre distance; a concave wall: negative); centre_shift: the part of
  // `translation` that is the movement of q's centre of curvature relative to p's centre. With
  // arm = 0 (a flat wall, or not known) the translation is taken as it is.
  Vec3 centre_shift{0, 0, 0};
  double arm = 0.0;
};

struct JaegerResult {
  double N = 0;
  Vec3 T{0, 0, 0};             // global tangential force; force on q = N n - T
  double T_local[2] = {0, 0};
  bool sliding = false;        // the force is on the friction cone, |T| = mu N (gross sliding)
};

// Number of doubles of the per-contact state: q (4), T_local (2).
constexpr int JAEGER_STATE_SIZE = 6;

namespace jaeger_detail {
GE_INLINE bool on_cone(const double T[2], double mu, double N)
{
  const double cap = mu * N * (1.0 - kEpsSlope);
  return T[0] * T[0] + T[1] * T[1] >= cap * cap;
}

// The movement of q's contact point relative to p's over a step whose frame turned by the
// rotation vector `turn` (notes: Jaeger frame). Kuhn's contact translation (his eqs. 10-11) is
// first order: the chord of the centres plus the spins times their lever arms. Here the step is
// the rigid rotation of the pair with its frame followed by the movement relative to the frame,
// at the end-of-step geometry (where the lever arms of the spins are taken): the spins count
// relative to the turn, (dphi - turn) x b, and the centres move by the turn of their line and a
// change of their distance, whose tangential part is the arc arm * turn x n. So the centres'
// chord in the translation is replaced by that arc. Then a rigid rotation of the pair moves the
// contact by nothing, whatever the size of the step (the chord and the spins' first-order lever
// terms differ at second order in the rotation theta, by arm (theta.n) theta x n / 2 for an axis
// oblique to the normal: 20 % of mu N over 90 degrees in 100 steps), and a pair whose line of
// centres turns by an angle while their distance changes from d0 to d1 moves by d1 angle, the
// lever arms' sum at the end of the step, not by the chord's d0 sin(angle): the first-order
// difference (d0 - d1) angle is what the translation-driven Mindlin-Deresiewicz path missed by.
GE_INLINE Vec3 turned_movement(const JaegerInput &in, const Vec3 &turn)
{
  if (in.arm == 0.0) return in.translation;
  return (in.translation - in.centre_shift) + in.arm * cross(turn, in.normal);
}
}    // namespace jaeger_detail

// state[0..3] = q, state[4..5] = T_local (kept in the local frame, notes: Jaeger frame:
// the stored force turns with the frame, so a rigid rotation leaves it unchanged); all zero = new
// contact. A new contact starts with a frame from its normal, an empty history, T = 0, and is
// then driven by the full tangential half-shift of its first step (notes: Jaeger history).
GE_FORCE_INLINE void jaeger_contact_step(const JaegerMaterial &m, const JaegerInput &in,
                                         double state[6], JaegerHistory &h, JaegerResult &r)
{
  r = JaegerResult();
  double *q = state, *T = state + 4;
  if (!(in.delta > 0.0)) {
    h.count = 0;
    for (int i = 0; i < JAEGER_STATE_SIZE; ++i) state[i] = 0.0;
    return;
  }
  // a new contact takes its first step's translation as it is (no turn of the frame is known)
  Vec3 move = in.translation;
  if (!jaeger_frame_set(q)) {
    jaeger_frame_init(q, in.normal);
    h.count = 0;
    T[0] = T[1] = 0.0;
  } else {
    // (a turn of round-off size leaves the first-order translation, exact to round-off there)
    Vec3 turn;
    if (jaeger_frame_update(q, jaeger_frame_normal(q), in.normal, in.mean_rotation, &turn))
      move = jaeger_detail::turned_movement(in, turn);
  }
  // half-shift in the end-of-step frame; its axes 1, 2 span the tangent plane of in.normal, so
  // the normal part of the movement drops out (the axes serve both ways, computed once)
  const Vec3 e1 = jaeger_frame_axis1(q), e2 = jaeger_frame_axis2(q);
  double du[2] = {0.5 * dot(e1, move), 0.5 * dot(e2, move)};
  r.N = jaeger_step(m, jaeger_hertz_constant(m, in.R), in.delta, du, T, h);
  r.T_local[0] = T[0];
  r.T_local[1] = T[1];
  r.T = T[0] * e1 + T[1] * e2;
  r.sliding = jaeger_detail::on_cone(T, m.mu, r.N);
}

// A contact that exists when its history starts (the setup of a run with no stored state for
// it: a packing created or read with overlaps, the first `run`) is recorded as pressed along its
// normal to its current half-overlap with no tangential movement: the frame from its normal,
// T = 0 and the one elastic vertex (delta, N, theta = 0) that a monotonic normal loading leaves in
// the equivalent load history (Kuhn 2011, section 3: the elastic step of Fig. 2 from the origin
// with D = 0). Its first step then starts from that state, as in Mindlin and Deresiewicz's
// problem of a contact pressed and then loaded tangentially, instead of taking the whole overlap
// as formed in that step together with the step's tangential movement. Needs room for one
// vertex. Returns false, changing nothing, for a contact with a state or not touching.
GE_INLINE bool jaeger_press(const JaegerMaterial &m, const JaegerInput &in, double state[6],
                            JaegerHistory &h)
{
  if (!(in.delta > 0.0) || jaeger_frame_set(state)) return false;
  jaeger_frame_init(state, in.normal);
  h.count = 0;
  state[4] = state[5] = 0.0;
  const double no_shift[2] = {0.0, 0.0};
  jaeger_step(m, jaeger_hertz_constant(m, in.R), in.delta, no_shift, state + 4, h);
  return true;
}

// Forces of a contact at its current geometry without advancing it (run setup, single()): the
// stored force, carried from the frame's normal onto in.normal by the smallest rotation.
GE_INLINE void jaeger_current_force(const JaegerMaterial &m, const JaegerInput &in,
                                    const double state[6], JaegerResult &r)
{
  r = JaegerResult();
  if (!(in.delta > 0.0)) return;
  r.N = jaeger_detail::hertz(jaeger_hertz_constant(m, in.R), in.delta);
  const double *q = state, *T = state + 4;
  if (!jaeger_frame_set(q)) return;    // new contact: no tangential force yet
  r.T_local[0] = T[0];
  r.T_local[1] = T[1];
  const Vec3 t = jaeger_to_global(q, T[0], T[1]), n = jaeger_frame_normal(q);
  // the frame's normal matches the normal of its last step only to round-off (a few 1e-16): at
  // the same geometry (run setup, restart) return the step's own force bit for bit
  const Vec3 dn = n - in.normal;
  r.T = dot(dn, dn) <= 1e-28 ? t : rotate_a_to_b(t, n, in.normal);
  r.sliding = jaeger_detail::on_cone(T, m.mu, r.N);
}

}    // namespace ge
