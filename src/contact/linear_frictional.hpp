// Linear-frictional contact: linear normal spring, linear tangential spring with a Coulomb
// slider, optional viscous contact damping -- in the conventional ("classic") form and in the
// refined form of M.R. Kuhn, K. Suzuki and A. Daouadji, "Linear-frictional contact model for 3D
// discrete element simulations of granular systems", IJNME 121 (2020), arXiv:2001.02952.
//
// All four within-step refinements of the paper are switches; with every switch off the law is
// the classic one (add k_t*dxi, project onto the new tangent plane, cap at mu*f_n: Eqs. 1-3).
//  onset     contact begins at the fraction alpha_0 of the step where the overlap crosses zero;
//            only the movement after it loads the tangential spring.
//  slip      elastic then slip within the step: the fraction alpha_s at which the elastic force
//            path f0 + k_t*d*s meets the (linearly growing or shrinking) friction cone
//            |f| = mu*f_n(s) (Eqs. 9-14; a quadratic with the roundoff guards of lines 25-26).
//  direction during slip the force direction turns towards the movement (Eqs. 16-21). The
//            rate form de/ds = k_t (d - (e.d) e) / (mu f_n(s)) is integrated exactly: with
//            phi the angle between e and d, tan(phi/2) decays as exp(-x),
//            x = (k_t|d|/mu) * integral ds / f_n(s)  -- the closed form of Eq. 18.
//  twirl     the stored force is carried into the new contact frame by an exact rotation: the
//            mean rotation of the two particles, (omega_i+omega_j)/2 * dt, as a twist about the
//            old normal (the twirl of Eq. 23, made exact) followed by the smallest tilt onto the
//            actual new normal (see update_frame). Magnitude is preserved and a rigid-body
//            motion of the pair leaves the co-rotated force unchanged to roundoff, however many
//            steps. With twirl off the force is only projected onto the new plane (Eq. 22),
//            which is what the classic law and LAMMPS' linear_history do.
// An extra switch, projection, exists only to reproduce the paper's "neither adjustment" case
// of Fig. 6: with projection off (and twirl off) the stored force is not moved at all.
//
// Work (lines 51-53 of the listing): per step the normal work (f_n1^2 - f_n0^2)/(2 k_n), the
// tangential work done on the contact dW_t = dW_rev + dW_irrev, the elastic (recoverable) part
// dW_rev = (|f1|^2 - |f0|^2)/(2 k_t), and the dissipated part dW_irrev >= 0: the exact integral
// of mu f_n(s) * (slip rate) over the slip stage with the direction refinement, and the
// backward-Euler return-map value |f1| (|f_trial| - |f1|)/k_t without it. None of it feeds back
// into the forces: with LinearParams::work off (no output reads it) the step skips it, and the
// forces and the rest of the history are the same bit for bit.
//
// Conventions: n is the unit normal pointing from particle j to particle i; forces are those on
// particle i; d = -dxi is the tangential movement of j's contact point relative to i's over the
// step (the direction in which the spring force on i grows). History entries are in the frame
// of the contact, see HistoryIndex.
#pragma once

#include "contact/vec3.hpp"

namespace ge {

struct LinearParams {
  double kn = 0.0;       // normal stiffness (force/length), > 0
  double kt = 0.0;       // tangential stiffness (force/length), > 0
  double mu = 0.0;       // friction coefficient, >= 0
  double eta_n = 0.0;    // normal viscous damping (force/velocity)
  double eta_t = 0.0;    // tangential viscous damping (force/velocity)
  bool onset = false;
  bool slip = false;
  bool direction = false;
  bool twirl = false;
  bool projection = true;
  // Track each contact's work and dissipation (H_WORK_T, H_DISS_T, H_DISS_DAMP). They never
  // feed back into the forces; only outputs read them, so the glue clears this where none does
  // and the step skips the exact slip-dissipation integral. Not a law field (not in restarts).
  bool work = true;
};

// Classic law: all refinements off, projection only.
GE_INLINE LinearParams classic_params(double kn, double kt, double mu)
{
  LinearParams p;
  p.kn = kn;
  p.kt = kt;
  p.mu = mu;
  return p;
}

// Refined law of Kuhn et al.: all four refinements on.
GE_INLINE LinearParams refined_params(double kn, double kt, double mu)
{
  LinearParams p = classic_params(kn, kt, mu);
  p.onset = p.slip = p.direction = p.twirl = true;
  return p;
}

// Per-contact history (doubles), as seen from body i: entries 0-5 are vectors of the i-j
// geometry (they would change sign seen from j), the rest scalars of the contact itself. The
// glue passes the atom with the lower tag as i and copies the history to the partner verbatim.
enum HistoryIndex : int {
  H_FT = 0,          // tangential spring force on i at the end of the last step (3)
  H_NORMAL = 3,      // unit normal at the end of the last step (3); zero = not yet set
  H_OVERLAP = 6,     // overlap at the end of the last step
  H_WORK_T = 7,      // cumulative tangential work done on the contact
  H_DISS_T = 8,      // cumulative frictional dissipation
  H_DISS_DAMP = 9,   // cumulative viscous dissipation
  H_SLIP = 10,       // 1 if sliding at the end of the last step
  LINEAR_HISTORY_SIZE = 11
};

// The movement of one time step, as seen by the contact.
struct LinearStep {
  Vec3 normal;         // unit normal at the end of the step (j -> i)
  double overlap;      // overlap at the end of the step (> 0)
  double approach;     // normal approach during the step (overlap increase), = -v_rel.n dt
  Vec3 d;              // tangential movement of the step (force grows along it), orthogonal to n
  Vec3 mean_rotation;  // (omega_i + omega_j)/2 * dt
  double dt;           // time step (for the viscous terms only)
};

// The movement of one step of a contact from the velocities LAMMPS' velocity Verlet hands the
// force computation (after the position update, with the half-step v and omega: v dt is exactly
// the movement just taken). n: unit normal (j -> i) at the end of the step; vrel = v_i - v_j;
// lever_spin = r_i omega_i + r_j omega_j with the contact-point lever arms r; frame_spin: the
// spin of the contact frame, (omega_i + omega_j)/2. Shared by the pair style and the walls
// (a wall: v_j = omega_j = 0).
GE_FORCE_INLINE LinearStep step_from_velocities(const Vec3 &n, double overlap, const Vec3 &vrel,
                                          const Vec3 &lever_spin, const Vec3 &frame_spin,
                                          double dt)
{
  const Vec3 vt = project_onto_plane(vrel - cross(lever_spin, n), n);
  LinearStep s;
  s.normal = n;
  s.overlap = overlap;
  s.approach = -dot(vrel, n) * dt;
  s.d = (-dt) * vt;    // the spring force on i grows against i's tangential movement
  s.mean_rotation = dt * frame_spin;
  s.dt = dt;
  return s;
}

struct LinearResult {
  double fn_elastic = 0.0;    // k_n * overlap
  double fn = 0.0;            // normal force incl. damping, never attractive
  Vec3 ft_spring{0, 0, 0};    // tangential spring-slider force (what is stored)
  Vec3 ft{0, 0, 0};           // tangential force incl. damping
  double work_n = 0.0;        // normal elastic work of the step
  double work_t = 0.0;        // tangential work done on the contact in the step
  double work_t_rev = 0.0;    // its recoverable part
  double work_t_irrev = 0.0;  // its dissipated part (>= 0)
  double diss_damp = 0.0;     // viscous dissipation of the step (>= 0)
  bool sliding = false;
};

namespace detail {

// Scale f to the length `limit` (f != 0). One expression shared by every path so that the
// refined law with all switches off reproduces the classic law bit for bit.
// f along its own direction with length `limit` (f != 0). |f|^2 under- or overflows where a
// component is below about 1e-154 or above 1e154 (a force on the cone of mu = 1e-200 gave 1/0 at
// a contact's onset): there the direction is taken from f scaled by its largest component.
GE_INLINE Vec3 scale_to_length(const Vec3 &f, double limit)
{
  const double f2 = dot(f, f);
  if (f2 > 1e-300 && f2 < 1e300) return (limit / std::sqrt(f2)) * f;
  const double m = std::fmax(std::fabs(f.x), std::fmax(std::fabs(f.y), std::fabs(f.z)));
  const Vec3 g = (1.0 / m) * f;
  return (limit / norm(g)) * g;
}

// Carry the force stored at the end of the last step into the frame of this step.
// twirl: the mean rotation theta of the pair, written as twist about the old normal followed by
// the smallest tilt (swing-twist decomposition, exact: R(theta) = S(n0 -> R n0) T(n0, psi),
// tan(psi/2) = (theta.n0) tan(t/2)/t, t = |theta|). The tilt is taken onto the actual new
// normal, so a rigid-body motion of the pair (n1 = R n0) rotates the force by exactly R, and any
// motion preserves its magnitude. The twist is Kuhn et al.'s twirl (Eq. 23) made exact.
GE_FORCE_INLINE Vec3 update_frame(const Vec3 &f, const Vec3 &n_old, const Vec3 &n_new,
                            const Vec3 &mean_rotation, const LinearParams &p)
{
  if (p.twirl) {
    // Every increment k_t d carries a roundoff part along the normal (d is projected in
    // floating point) and a rotation would keep it: drop it from the stored force first, so it
    // cannot accumulate over the life of a contact (it is ~1e-16 |f|; the magnitude is kept).
    const Vec3 fp = project_onto_plane(f, n_old);
    const double u = dot(mean_rotation, n_old) *
        tan_half_over_angle(dot(mean_rotation, mean_rotation));    // tan(psi/2)
    // twist by psi about n_old: cos psi = (1-u^2)/(1+u^2), sin psi = 2u/(1+u^2). The common
    // factor 1/(1+u^2) is applied last, off the chain of dependent operations; below
    // u^2 = 1e-3 it is (1-a)(1+a^2)(1+a^4) + O(a^8), a = u^2 (< 1e-24), a division otherwise.
    const double u2 = u * u, u4 = u2 * u2;
    const double inv = u2 < 1e-3 ? ((1.0 - u2) * (1.0 + u4)) * (1.0 + u4 * u4) : 1.0 / (1.0 + u2);
    const Vec3 g = (1.0 - u2) * fp + (2.0 * u) * cross(n_old, fp);
    const Vec3 tilted = same(n_old, n_new) ? g : rotate_a_to_b(g, n_old, n_new);
    return inv * tilted;
  }
  if (p.projection) return project_onto_plane(f, n_new);
  return f;
}

// exp(y) and log(1+y) for the small arguments of most slip steps from their Taylor series
// (|y| < 1e-3: first omitted terms < 2e-21 relative), the library functions otherwise.
GE_INLINE double exp_of(double y)
{
  if (std::fabs(y) < 1e-3) {
    constexpr double c3 = 1.0 / 3, c4 = 1.0 / 4, c5 = 1.0 / 5, c6 = 1.0 / 6;
    return 1.0 +
           y * (1.0 + 0.5 * y * (1.0 + y * c3 * (1.0 + y * c4 * (1.0 + y * c5 * (1.0 + y * c6)))));
  }
  return std::exp(y);
}
GE_INLINE double expm1_of(double y)
{
  if (std::fabs(y) < 1e-3) {
    constexpr double c3 = 1.0 / 3, c4 = 1.0 / 4, c5 = 1.0 / 5, c6 = 1.0 / 6;
    return y * (1.0 + 0.5 * y * (1.0 + y * c3 * (1.0 + y * c4 * (1.0 + y * c5 * (1.0 + y * c6)))));
  }
  return std::expm1(y);
}
GE_INLINE double log1p_of(double y)
{
  if (std::fabs(y) < 1e-3) {
    constexpr double c2 = 1.0 / 2, c3 = 1.0 / 3, c4 = 1.0 / 4, c5 = 1.0 / 5, c6 = 1.0 / 6;
    return y * (1.0 - y * (c2 - y * (c3 - y * (c4 - y * (c5 - y * c6)))));
  }
  return std::log1p(y);
}

// Gauss-Legendre nodes/weights on [0,1].
struct GaussRule {
  int n;
  double x[8];
  double w[8];
};
GE_INLINE GaussRule gauss2()
{
  return {2, {0.21132486540518712, 0.78867513459481288}, {0.5, 0.5}};
}
GE_INLINE GaussRule gauss4()
{
  return {4,
          {0.069431844202973712, 0.33000947820757187, 0.66999052179242813, 0.93056815579702629},
          {0.17392742256872693, 0.32607257743127307, 0.32607257743127307, 0.17392742256872693}};
}
GE_INLINE GaussRule gauss8()
{
  return {8,
          {0.019855071751231856, 0.10166676129318664, 0.23723379504183550, 0.40828267875217510,
           0.59171732124782490, 0.76276620495816450, 0.89833323870681336, 0.98014492824876814},
          {0.050614268145188130, 0.11119051722668724, 0.15685332293894364, 0.18134189168918100,
           0.18134189168918100, 0.15685332293894364, 0.11119051722668724, 0.050614268145188130}};
}

// I = int_0^X e^{2 beta x} (cos phi(x) - beta) dx, the scaled frictional dissipation of the slip
// stage, with cos phi(x) = ((1+c0) - (1-c0) e^{-2x}) / ((1+c0) + (1-c0) e^{-2x}) (the exact
// direction solution, c0 = cos phi at slip onset, written with 1 +- c0 so it stays accurate near
// c0 = -1). Slip continues only while cos phi >= beta, so the integrand is >= 0.
//   The direction turns within x ~ 1 of the front where r(x) = rho e^{-2x}, rho = (1-c0)/(1+c0),
// falls through 1; beyond x_c, where r <= 1/100, cos phi = 1 - 2 sum_k (-1)^(k+1) r^k is a series
// whose terms integrate in closed form against e^{2 beta x} (notes: slip dissipation): the
// front [0, x_c] is sampled by Gauss-Legendre (clamped integrand, positive weights: the
// dissipation stays non-negative), the rest is summed. (A large slip step, as in collisions,
// used to need ~20 panels of 8 points, 320 exponentials, to reach its end.) Most slip steps of a
// sliding contact start with the direction already within 11 degrees of the movement (r <= 1/100
// from x = 0): they are the series alone, with no exponential at all (notes: slip dissipation).
// From the caller: q_X = e^{-2X}, E_X = e^{2 beta X} and G_X = int_0^X e^{2 beta x} dx (the slip
// stage has them in closed form: E_X = (f_n1/F_s)^2).
GE_INLINE double slip_dissipation_integral(double X, double beta, double one_plus_c0,
                                           double one_minus_c0, double q_X, double E_X,
                                           double G_X)
{
  auto integrand = [&](double x) {
    const double r = one_minus_c0 * exp_of(-2.0 * x);
    const double c = (one_plus_c0 - r) / (one_plus_c0 + r);
    const double g = c - beta;
    return g > 0.0 ? exp_of(2.0 * beta * x) * g : 0.0;
  };
  auto quadrature = [&](double Y) {
    double I = 0.0;
    if (!(Y > 0.0)) return I;
    const double scale = Y * (2.0 * std::fabs(beta) > 1.0 ? 2.0 * std::fabs(beta) : 1.0);
    // error of an n-point rule ~ scale^(2n) (the integrand is analytic over a width ~1):
    // below 1e-4 (most slip steps) two points are exact to double precision
    const GaussRule rule = scale <= 1e-4 ? gauss2() : (scale <= 0.25 ? gauss4() : gauss8());
    const int panels = scale <= 1.0 ? 1 : static_cast<int>(std::ceil(scale));
    const double h = Y / panels;
    if (panels == 1) {
      for (int q = 0; q < rule.n; ++q) I += h * rule.w[q] * integrand(rule.x[q] * h);
      return I;
    }
    // several panels: the exponentials of a node advance by the panel's factors (two
    // exponentials per node of the first panel and two per panel, not two per node)
    double down[8], up[8];
    for (int q = 0; q < rule.n; ++q) {
      down[q] = one_minus_c0 * std::exp(-2.0 * rule.x[q] * h);
      up[q] = std::exp(2.0 * beta * rule.x[q] * h);
    }
    const double down_panel = std::exp(-2.0 * h), up_panel = std::exp(2.0 * beta * h);
    for (int k = 0; k < panels; ++k) {
      for (int q = 0; q < rule.n; ++q) {
        const double r = down[q];
        const double g = (one_plus_c0 - r) / (one_plus_c0 + r) - beta;
        if (g > 0.0) I += h * rule.w[q] * up[q] * g;
        down[q] *= down_panel;
        up[q] *= up_panel;
      }
    }
    return I;
  };
  // where r = rho e^{-2x} reaches 1/100 (with 1/4 the series' terms cancel to 5e-10 of I where
  // cos phi - beta is small): x_c, with r(x_c) = r_c = 1/100; or x_c = 0 when r(0) = rho is
  // below it already
  const double rho = one_minus_c0 / one_plus_c0;
  double x_c = 0.0, r_c = rho;
  if (rho > 0.01) {
    x_c = 0.5 * std::log(100.0 * rho);
    r_c = 0.01;
  }
  if (X <= x_c) return quadrature(X);
  // past x_c: cos phi >= 0.98 and rising; the series needs it above beta there (else the clamp
  // may act: sample the whole range)
  if (!((1.0 - r_c) / (1.0 + r_c) > beta)) return quadrature(X);
  // int_{x_c}^X e^{2 beta x} (1 - beta - 2 sum_{k>=1} (-1)^{k+1} r(x)^k) dx, term k:
  // [e^{2 beta x} r^k]_{x_c}^{X} / (2 beta - 2k); e^{2 beta x} r^k shrinks by r per k
  const double b2 = 2.0 * beta;
  const double len = X - x_c;
  double E_c = 1.0, growth = G_X;    // e^{2 beta x_c}, int_{x_c}^X e^{2 beta x} dx
  if (x_c > 0.0) {
    E_c = std::exp(b2 * x_c);
    growth = (b2 * len == 0.0) ? len : E_c * (expm1_of(b2 * len) / b2);
  }
  double I = (x_c > 0.0 ? quadrature(x_c) : 0.0) + (1.0 - beta) * growth;
  const double r_X = rho * q_X;
  double t_c = E_c, t_X = E_X, sign = 1.0;
  for (int k = 1; k <= 12; ++k) {
    t_c *= r_c;
    t_X *= r_X;
    // t_X - t_c = t_c (e^{(2 beta - 2k) len} - 1): in that form where the exponent is small
    // (a short slip), where the difference would cancel
    const double y = (b2 - 2.0 * k) * len;
    const double term = (std::fabs(y) < 1e-3 ? t_c * expm1_of(y) : t_X - t_c) / (b2 - 2.0 * k);
    I -= 2.0 * sign * term;
    sign = -sign;
    // (the next term is below r_c t_c / 2 <= t_c / 200 of I: 1e-16 |I| leaves it at 5e-19)
    if (std::fabs(t_c) <= 1e-16 * std::fabs(I)) break;
  }
  return I;
}

// Exact slip stage (direction refinement): the force stays on the cone |f| = mu f_n(u) while
// its direction e turns towards the movement d. Starts at force f_s (|f_s| = mu*Fs, or zero at
// contact onset), normal force Fs growing at rate G per unit of step, for a length Ls.
// fn1 = Fs + G Ls is passed as computed from the final overlap, so that the final force lies on
// exactly the cone of the step's end even when Fs + G Ls cancels. Returns the final force and
// adds the dissipation of the stage to *dissipation (none is computed where it is null).
GE_INLINE Vec3 slip_with_rotation(const Vec3 &f_s, double Fs, double G, double Ls, double fn1,
                                  const Vec3 &d, const Vec3 &normal, const LinearParams &p,
                                  double *dissipation)
{
  const double cap1 = p.mu * fn1;
  const double dnorm = norm(d);
  const double mean_fn_times_length = 0.5 * (Fs + fn1) * Ls;    // int f_n du (f_n linear)
  const bool has_direction = !is_zero(f_s);

  if (dnorm == 0.0) {
    // no tangential movement: the cone shrinks radially, lambda = -mu G >= 0
    if (dissipation) *dissipation += -(p.mu * p.mu * G / p.kt) * mean_fn_times_length;
    return has_direction ? scale_to_length(f_s, cap1) : f_s;
  }
  const Vec3 dhat = (1.0 / dnorm) * d;
  const Vec3 e_s = has_direction ? scale_to_length(f_s, 1.0) : dhat;
  const double c0 = dot(e_s, dhat);
  if (!has_direction || Fs == 0.0 || c0 >= 1.0 || c0 <= -1.0) {
    // aligned (or exactly opposed) with the movement: the direction does not change
    const double c = c0 >= 1.0 || !has_direction ? 1.0 : (c0 <= -1.0 ? -1.0 : c0);
    const double rate = p.mu * (dnorm * c - p.mu * G / p.kt);
    if (rate > 0.0 && dissipation) *dissipation += rate * mean_fn_times_length;
    return cap1 * e_s;
  }
  // x = (k_t |d| / mu) int du / f_n(u)  (Eq. 18 in closed form)
  const double a = p.kt * dnorm / p.mu;
  const double u = G * Ls / Fs;    // f_n grows by the factor 1 + u over the stage
  const double X = (G == 0.0) ? a * Ls / Fs : (a / G) * log1p_of(u);
  const Vec3 sum = e_s + dhat, diff = e_s - dhat;
  const double one_plus_c0 = 0.5 * dot(sum, sum);
  const double one_minus_c0 = 0.5 * dot(diff, diff);
  const double eX = exp_of(-X);
  const double q = eX * eX;
  const double D = one_plus_c0 + one_minus_c0 * q;
  const double A = 2.0 * eX / D;                            // sin(phi1)/sin(phi0)
  const double B = (one_plus_c0 - one_minus_c0 * q) / D - c0 * A;
  Vec3 e1 = A * e_s + B * dhat;
  // Nearly opposed e_s and d leave the plane of the turn ill-conditioned (A, B ~ 1/sin phi0):
  // the turn happens in the tangent plane, so remove the roundoff normal to it.
  if (p.projection) e1 = project_onto_plane(e1, normal);
  if (!dissipation) return scale_to_length(e1, cap1);

  // f_n = F_s e^{beta x} along the stage (d f_n/dx = G f_n/a), so e^{2 beta X} = (1 + u)^2 and
  // int_0^X e^{2 beta x} dx = (e^{2 beta X} - 1)/(2 beta) = (a L_s/F_s)(1 + u/2): no exponential
  const double beta = p.mu * G / (p.kt * dnorm);
  const double E_X = (1.0 + u) * (1.0 + u), G_X = (a * Ls / Fs) * (1.0 + 0.5 * u);
  *dissipation += (p.mu * p.mu * Fs * Fs / p.kt) *
      slip_dissipation_integral(X, beta, one_plus_c0, one_minus_c0, q, E_X, G_X);
  return scale_to_length(e1, cap1);
}

// Fraction (from the start u = 0 of the loaded interval) at which the elastic path
// f(u) = f0 + k_t d u first leaves the cone |f| <= mu (F0 + G u). |f| - mu f_n is convex in u,
// so the crossing is unique; g(u) = |f|^2 - mu^2 f_n^2 = A u^2 + 2 B u + C (Eqs. 9-14).
GE_INLINE double elastic_fraction(const Vec3 &f0, double F0, double G, double L, const Vec3 &d,
                                  const LinearParams &p)
{
  const double mu2 = p.mu * p.mu;
  double C = dot(f0, f0) - mu2 * F0 * F0;
  const double B = p.kt * dot(f0, d) - mu2 * F0 * G;
  const double A = p.kt * p.kt * dot(d, d) - mu2 * G * G;
  // guards (lines 25-26): a start on the cone within roundoff counts as on the cone
  if (C >= 0.0) {
    if (B >= 0.0) return 0.0;    // on the cone and moving outwards: slip from the start
    C = 0.0;                     // on the cone but unloading inwards first
  }
  const double disc = B * B - A * C;
  const double root = disc > 0.0 ? std::sqrt(disc) : 0.0;
  double u;
  if (B > 0.0) u = -C / (B + root);
  else if (A > 0.0) u = (root - B) / A;
  else u = L;    // no outward crossing within roundoff: treat the whole step as elastic
  return u < 0.0 ? 0.0 : (u > L ? L : u);
}

}    // namespace detail

// Set the history of a contact first seen without a movement increment (run setup).
GE_INLINE void linear_init_history(double *h, const Vec3 &normal, double overlap)
{
  for (int k = 0; k < LINEAR_HISTORY_SIZE; ++k) h[k] = 0.0;
  store(normal, h + H_NORMAL);
  h[H_OVERLAP] = overlap;
}

GE_INLINE bool linear_history_set(const double *h) { return !is_zero(vec3(h + H_NORMAL)); }

GE_FORCE_INLINE void add_viscous_terms(const LinearParams &p, const LinearStep &s, LinearResult &r)
{
  r.fn = r.fn_elastic;
  r.ft = r.ft_spring;
  if (s.dt <= 0.0 || (p.eta_n == 0.0 && p.eta_t == 0.0)) return;
  const double rate_n = s.approach / s.dt;
  double fn_total = r.fn_elastic + p.eta_n * rate_n;
  if (fn_total < 0.0) fn_total = 0.0;    // the contact never attracts
  r.fn = fn_total;
  r.ft = r.ft_spring + (p.eta_t / s.dt) * s.d;
  // dissipation of the dashpots: (damping part of f_n) * approach + eta_t |d|^2 / dt
  r.diss_damp = (fn_total - r.fn_elastic) * s.approach + (p.eta_t / s.dt) * dot(s.d, s.d);
}

// Forces of a contact at the end of a step, without advancing its history (used at run setup
// and by single()): stored force carried to the current normal, no movement increment.
GE_INLINE void linear_current_force(const LinearParams &p, const LinearStep &s, const double *h,
                                    LinearResult &r)
{
  r = LinearResult();
  r.fn_elastic = p.kn * s.overlap;
  if (linear_history_set(h)) {
    // at the same geometry (a run boundary, a restart) the stored force itself, bit for bit
    const Vec3 f = vec3(h + H_FT), n_old = vec3(h + H_NORMAL);
    r.ft_spring = same(n_old, s.normal) ? f : rotate_a_to_b(f, n_old, s.normal);
  }
  r.sliding = h[H_SLIP] != 0.0;
  add_viscous_terms(p, s, r);
  r.diss_damp = 0.0;
}

// Advance one contact by one step. h: history (LINEAR_HISTORY_SIZE doubles), updated in place.
GE_FORCE_INLINE void linear_step(const LinearParams &p, const LinearStep &s, double *h,
                                 LinearResult &r)
{
  using namespace detail;
  r = LinearResult();
  const bool known = linear_history_set(h);

  // overlap at the start of the step: stored (exact continuity of the cone), else from the
  // approach of this step (a contact that formed during the step)
  const double zeta1 = s.overlap;
  const double zeta0 = known ? h[H_OVERLAP] : zeta1 - s.approach;
  const double fn1 = p.kn * zeta1;

  // loaded interval [alpha0, 1] of the step, of length L; f_n(u) = F0 + G u on it
  double L = 1.0, F0;
  if (zeta0 < 0.0) {
    F0 = 0.0;
    if (p.onset) L = zeta1 / (zeta1 - zeta0);    // 1 - alpha_0, alpha_0 = -zeta0/(zeta1-zeta0)
  } else {
    F0 = p.kn * zeta0;
  }
  const double G = (L == 1.0) ? fn1 - F0 : (fn1 - F0) / L;

  Vec3 f0 = known ? update_frame(vec3(h + H_FT), vec3(h + H_NORMAL), s.normal, s.mean_rotation, p)
                  : Vec3{0, 0, 0};
  const Vec3 &d = s.d;

  const double cap1 = p.mu * fn1;
  const Vec3 trial = f0 + (p.kt * L) * d;
  double dissipation = 0.0;
  Vec3 f1;
  if (dot(trial, trial) <= cap1 * cap1) {
    f1 = trial;    // elastic throughout
  } else if (cap1 == 0.0) {
    // frictionless (mu = 0): no tangential force; a stored one (mu changed) is released
    r.sliding = true;
    f1 = Vec3{0, 0, 0};
    if (p.work) dissipation = dot(f0, f0) / (2.0 * p.kt);
  } else {
    r.sliding = true;
    const double u_s = p.slip ? elastic_fraction(f0, F0, G, L, d, p) : 0.0;
    const Vec3 f_s = f0 + (p.kt * u_s) * d;
    const double Ls = L - u_s;
    if (p.direction) {
      f1 = slip_with_rotation(f_s, F0 + G * u_s, G, Ls, fn1, d, s.normal, p,
                              p.work ? &dissipation : nullptr);
    } else {
      const Vec3 trial_s = f_s + (p.kt * Ls) * d;
      f1 = cap1 > 0.0 ? scale_to_length(trial_s, cap1) : Vec3{0, 0, 0};
      // return map, backward Euler
      if (p.work) dissipation = cap1 * (norm(trial_s) - cap1) / p.kt;
    }
  }

  r.fn_elastic = fn1;
  r.ft_spring = f1;
  add_viscous_terms(p, s, r);
  store(f1, h + H_FT);
  store(s.normal, h + H_NORMAL);
  h[H_OVERLAP] = zeta1;
  if (p.work) {
    // (one division for both: 1/(2 kn) = kt h, 1/(2 kt) = kn h)
    const double h_inv = 0.5 / (p.kn * p.kt);
    r.work_n = (fn1 * fn1 - F0 * F0) * (p.kt * h_inv);
    r.work_t_rev = (dot(f1, f1) - dot(f0, f0)) * (p.kn * h_inv);
    r.work_t_irrev = dissipation;
    r.work_t = r.work_t_rev + r.work_t_irrev;
    h[H_WORK_T] += r.work_t;
    h[H_DISS_T] += r.work_t_irrev;
    h[H_DISS_DAMP] += r.diss_damp;
  }
  h[H_SLIP] = r.sliding ? 1.0 : 0.0;
}

}    // namespace ge
