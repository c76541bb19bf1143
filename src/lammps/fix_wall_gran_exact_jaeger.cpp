/* ----------------------------------------------------------------------
   GRANULAR-EXACT: fix wall/gran/exact, the Jaeger contact (hertz + tangential jaeger) against a
   wall (the class is in fix_wall_gran_exact.h).

   The wall is a half-space of the sphere's own material (the Cattaneo-Mindlin solution holds
   for elastically identical bodies, Kuhn 2011): the pair kernel with the wall as
   partner q, R_q -> infinity (or a region face's radius of curvature). The averaged radius
   R = 2 R_p R_q/(R_p + R_q) -> 2 R_i on a flat wall, and both
   bodies still take half of the overlap (identical compliance), so delta = overlap/2 and
   N = (4/3) E^ sqrt(2 R_i) (overlap/2)^{3/2} = (4/3) E* sqrt(R_i) overlap^{3/2}, E* = E^/2.
------------------------------------------------------------------------- */

#include "fix_wall_gran_exact.h"

#include "atom.h"
#include "update.h"

#include "contact/jaeger.hpp"

using namespace LAMMPS_NS;
using ge::Vec3;

/* ----------------------------------------------------------------------
   one sphere-wall Jaeger contact: the sphere is p (its record holds the state as seen from
   it), the wall q; the normal p -> q points into the wall. The record grows by one vertex
   before a step when full (to capacity + 1 at most), so the kernel never merges for lack of
   room.
------------------------------------------------------------------------- */

void FixWallGranExact::jaeger_contact(int i, int slot, const Touch &t, bool advance,
                                      const PointMotion &wall)
{
  std::vector<double> &rec = jaeger_records[static_cast<size_t>(i) * nslot + slot];
  if (rec.empty()) rec.assign(jaeger_vertices, 0.0);
  constexpr int VERTEX_DOUBLES = sizeof(ge::JaegerVertex) / sizeof(double);
  const int count = static_cast<int>(rec[JAEGER_COUNT]);
  int room = (static_cast<int>(rec.size()) - jaeger_vertices) / VERTEX_DOUBLES;
  const int needed = ge::jaeger_room_needed(law.jaeger, count);
  // a step may push a vertex, and so may the press of a new contact at a run's setup
  const bool fresh = !ge::jaeger_frame_set(rec.data() + JAEGER_STATE);
  if ((advance || fresh) && room < needed) {
    // double the room (amortised growth), within capacity + 1 when a capacity is set
    room = needed > 2 * room ? needed : 2 * room;
    if (law.jaeger.capacity > 0 && room > law.jaeger.capacity + 1) room = law.jaeger.capacity + 1;
    if (room < needed) room = needed;
    rec.resize(jaeger_vertices + static_cast<size_t>(VERTEX_DOUBLES) * room, 0.0);
  }
  // [state (JAEGER_STATE_SIZE), sliding flag]: the fixed part of the law's state
  double *state = rec.data() + JAEGER_STATE;
  ge::JaegerHistory history{reinterpret_cast<ge::JaegerVertex *>(rec.data() + jaeger_vertices),
                            count, room};
  ge::ContactResult r;
  ge::contact_step(law, bodies_of(i, t, advance, wall), state, &history, r);
  rec[JAEGER_COUNT] = history.count;
  apply_wall_force(i, t, r.force_i, r.torque_i - r.moment, r.energy_n);
  totals[5] += rec[JAEGER_COUNT];
  totals[6] += r.energy_moment;
}
