/* ----------------------------------------------------------------------
   GRANULAR-EXACT: pair style granular/exact, the Jaeger contact (hertz + tangential jaeger) on
   the compact store (the class is in pair_granular_exact.h; compute, init and I/O in
   pair_granular_exact.cpp)
------------------------------------------------------------------------- */

#include "pair_granular_exact.h"
#include "pair_granular_exact_bodies.h"

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
  // the law's body i is p (the Jaeger state is kept as seen from it)
  const bool i_is_p = atom->tag[i] < atom->tag[j];
  const int p = i_is_p ? i : j, q = i_is_p ? j : i;
  const Vec3 dx = ge::vec3(atom->x[i]) - ge::vec3(atom->x[j]);
  const Vec3 dx_pq = i_is_p ? dx : -dx;    // x_p - x_q
  const ge::ContactBodies b = bodies_of(p, q, dx_pq, ge::dot(dx, dx), lw, advance);

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
  // a step changes the record, and so does the press of a contact with no stored state at a
  // run's setup
  const bool changes = advance || !ge::jaeger_frame_set(fixed);
  ge::ContactResult r;
  ge::contact_step(lw, b, fixed, &history, r);
  if (changes)
    slot = store->place_header<JAEGER_FIXED_SIZE>(first, history.count, history.room, fixed);

  apply_contact(i, j, r, i_is_p, dx);

  if (!eflag_global) return;
  tally_contact(lw, r, i_is_p, fixed, weight, dx, tally);
  tally[15] += weight * history.count;
  tally[16] += weight;
}

/* ----------------------------------------------------------------------
   single() of a Jaeger contact: p1 Hertz normal force, p2 |tangential force|, p3 0 (no work is
   tracked), p4 sliding flag, p5 number of stored history vertices, p6 overlap, p7-p9 tangential
   force on i. No viscous terms (see single()).
------------------------------------------------------------------------- */

void PairGranularExact::single_jaeger(int p, int q, const Law &lw, const double *state,
                                      double rsq, double &fforce)
{
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

  // compute pair/local: force = fforce * r, the normal force pushing the atoms apart; the
  // tangential part of the force on p is T (on q: N n - T)
  fforce = res.N / r;
  svector[0] = res.N;
  svector[1] = ge::norm(res.T);
  svector[3] = state[6];
  svector[4] = FixContactHistoryExact::count_of_state(state);
  svector[5] = 2.0 * in.delta;
  svector[6] = res.T.x;
  svector[7] = res.T.y;
  svector[8] = res.T.z;
}
