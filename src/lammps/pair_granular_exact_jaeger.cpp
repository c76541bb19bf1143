/* ----------------------------------------------------------------------
   GRANULAR-EXACT: pair style granular/exact, the Jaeger contact (hertz + tangential jaeger) on
   the compact store (the class is in pair_granular_exact.h; compute, init and I/O in
   pair_granular_exact.cpp)
------------------------------------------------------------------------- */

#include "pair_granular_exact.h"

#include "atom.h"
#include "fix_contact_history_exact.h"
#include "force.h"
#include "update.h"

#include <cmath>

using namespace LAMMPS_NS;
using ge::Vec3;

/* ----------------------------------------------------------------------
   one Jaeger contact (compact store). The record holds the state as seen from p, the atom with
   the lower tag (q the other): fixed part [0..3] frame quaternion, [4..5] tangential force in
   the contact frame, [6] sliding flag; items: the history vertices.
------------------------------------------------------------------------- */

void PairGranularExact::jaeger_contact(int i, int j, bigint &slot, const Law &lw, bool advance,
                                       double weight, double *tally)
{
  double **x = atom->x;
  double **v = atom->v;
  double **omega = atom->omega;
  double *radius = atom->radius;
  const int nlocal = atom->nlocal;
  const int newton_pair = force->newton_pair;
  const double dt = update->dt;

  const bool i_is_p = atom->tag[i] < atom->tag[j];
  const int p = i_is_p ? i : j, q = i_is_p ? j : i;
  const Vec3 pq = ge::vec3(x[q]) - ge::vec3(x[p]);
  const double r = ge::norm(pq);
  const Vec3 n = (1.0 / r) * pq;
  const double Rp = radius[p], Rq = radius[q];
  const double delta = 0.5 * (Rp + Rq - r);    // half-overlap (spec section 1)

  // lever arms to the contact point in the middle of the overlap: a rigid-body motion of the pair
  // moves both contact points alike, so it gives no tangential translation
  const Vec3 bp = (Rp - delta) * n, bq = (-(Rq - delta)) * n;
  const Vec3 wp = ge::vec3(omega[p]), wq = ge::vec3(omega[q]);
  const Vec3 vrel = (ge::vec3(v[q]) + ge::cross(wq, bq)) - (ge::vec3(v[p]) + ge::cross(wp, bp));

  ge::JaegerInput in;
  in.normal = n;
  in.delta = delta;
  in.translation = dt * vrel;
  in.mean_rotation = (0.5 * dt) * (wp + wq);
  in.R = 2.0 * Rp * Rq / (Rp + Rq);

  // room for one more vertex; with a capacity M the record never needs more than M + 1
  const int max_room = lw.jaeger.capacity > 0 ? lw.jaeger.capacity + 1 : MAXSMALLINT;
  FixContactHistoryExact *store = fix_compact;
  if (slot < 0) slot = store->create(ge::jaeger_room_needed(lw.jaeger, 0));
  store->reserve(slot, ge::jaeger_room_needed(lw.jaeger, store->count(slot)), max_room);
  // the record's fixed part follows its top vertex, where a push writes: the step works on a
  // copy (nfixed >= JAEGER_FIXED_SIZE: [0..3] frame, [4..5] force, [6] sliding flag)
  double fixed[MAX_FIXED_SIZE];
  const double *stored = store->state(slot);
  store->copy_fixed<JAEGER_FIXED_SIZE>(stored, fixed);
  const bigint first = store->first_item(slot);
  ge::JaegerHistory history{reinterpret_cast<ge::JaegerVertex *>(store->items(slot)),
                            store->count(slot), store->room(slot)};
  ge::JaegerResult res;
  if (advance) {
    ge::jaeger_contact_step(lw.jaeger, in, fixed, history, res);
    fixed[6] = res.sliding ? 1.0 : 0.0;
    slot = store->place_header<JAEGER_FIXED_SIZE>(first, history.count, history.room, fixed);
  } else {
    // a contact present at a run's setup with no stored state: pressed to its overlap first
    if (ge::jaeger_press(lw.jaeger, in, fixed, history)) {
      fixed[6] = 0.0;
      slot = store->place_header<JAEGER_FIXED_SIZE>(first, history.count, history.room, fixed);
    }
    ge::jaeger_current_force(lw.jaeger, in, fixed, res);
  }

  // viscous terms, as for the linear laws: the normal force never attracts
  double N = res.N;
  Vec3 T = res.T;
  if (lw.damping == DAMPING_VISCOUS && dt > 0.0) {
    const double approach_rate = -ge::dot(vrel, n);
    N = N + lw.linear.eta_n * approach_rate;
    if (N < 0.0) N = 0.0;
    T = T + lw.linear.eta_t * ge::project_onto_plane(vrel, n);
  }

  // force on q = N n - T (spec section 1), on p the opposite; torques b x F
  const Vec3 Fq = N * n - T;
  const Vec3 tq = ge::cross(bq, Fq), tp = ge::cross(bp, -Fq);
  const Vec3 Fi = i_is_p ? -Fq : Fq;
  const Vec3 ti = i_is_p ? tp : tq, tj = i_is_p ? tq : tp;
  const Vec3 dx = ge::vec3(x[i]) - ge::vec3(x[j]);
  add_pair_force(i, j, Fi, dx);
  double **torque = atom->torque;
  torque[i][0] += ti.x;
  torque[i][1] += ti.y;
  torque[i][2] += ti.z;
  if (newton_pair || j < nlocal) {
    torque[j][0] += tj.x;
    torque[j][1] += tj.y;
    torque[j][2] += tj.z;
  }

  if (!eflag_global) return;
  tally[0] += weight * 0.8 * res.N * delta;    // Hertz energy: int N d(2 delta) = (4/5) N delta
  tally[4] += weight;
  tally[5] += weight * fixed[6];
  add_branch_force_product(weight, dx, Fi, tally + 6);
  tally[15] += weight * history.count;
  tally[16] += weight;
}

/* ----------------------------------------------------------------------
   single() of a Jaeger contact: p1 Hertz normal force, p2 |tangential force|, p3 0 (no work is
   tracked), p4 sliding flag, p5 number of stored history vertices, p6 overlap, p7-p9 tangential
   force on i. No viscous terms (see single()).
------------------------------------------------------------------------- */

double PairGranularExact::single_jaeger(int i, int j, const Law &lw, const double *state,
                                        double rsq, double &fforce)
{
  const bool i_is_p = atom->tag[i] < atom->tag[j];
  const int p = i_is_p ? i : j, q = i_is_p ? j : i;
  const Vec3 pq = ge::vec3(atom->x[q]) - ge::vec3(atom->x[p]);
  const double r = std::sqrt(rsq);
  const double Rp = atom->radius[p], Rq = atom->radius[q];
  ge::JaegerInput in;
  in.normal = (1.0 / r) * pq;
  in.delta = 0.5 * (Rp + Rq - r);
  in.translation = Vec3{0, 0, 0};
  in.mean_rotation = Vec3{0, 0, 0};
  in.R = 2.0 * Rp * Rq / (Rp + Rq);
  ge::JaegerResult res;
  ge::jaeger_current_force(lw.jaeger, in, state, res);

  // compute pair/local: force = fforce * r, the normal force pushing i away from j
  fforce = res.N / r;
  const Vec3 Ti = i_is_p ? res.T : -res.T;    // tangential part of the force on i
  svector[0] = res.N;
  svector[1] = ge::norm(res.T);
  svector[3] = state[6];
  svector[4] = FixContactHistoryExact::count_of_state(state);
  svector[5] = 2.0 * in.delta;
  svector[6] = Ti.x;
  svector[7] = Ti.y;
  svector[8] = Ti.z;
  return 0.0;
}
