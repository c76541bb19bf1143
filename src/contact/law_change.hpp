// A contact's state carried from the law it was made with to another law: a user who settles a
// bed with one law and goes on with another (between runs, or after read_restart) keeps the
// contacts' forces where the new law can hold them. The state layout of every law is that of
// contact_law.hpp; state_kind() names it, and two laws of the same kind read each other's
// states as their own.
//
// What carries over (doc/design_notes.md, "Law changes"):
//  * a law of the same kind: the state, verbatim;
//  * the same family and base state (a linear law with or without Yade moments, the Jaeger law
//    with or without them, a catalogue law with the same tangential model): the base state
//    verbatim (the Jaeger vertices too), the moments as below;
//  * otherwise the contact is recorded anew as the new law records a contact that exists when
//    a run starts (pressed along its normal to its overlap: contact_law.hpp), keeping
//      - the normal model's own state where both laws have the same one (the hls maximum
//        overlap, a made jkr contact),
//      - the elastic tangential force of the old law (what its state gives at the current
//        geometry, without dashpots), put into the new law's state so that the new law gives
//        the same force, capped at the new law's friction limit at this overlap: the linear
//        laws' spring force, the catalogue's spring vectors xi = -F/K_t (T4-T6, T9; T7 and T8
//        through the inverse of their elastic curve), T10's force on its virgin curve, the
//        friction solver's start of `tangential coulomb`, and for the Jaeger law the load history
//        of a proportional loading from the origin to (N, F) (one vertex of slope F/N, Kuhn
//        2011, section 3: a contact pressed and sheared along one direction in proportion);
//      - the Yade relative rotation where both laws have the moments.
//   A new law with no tangential state (T1-T3) cannot hold the force: it is lost.
//
// Header-only, no allocation, no virtual calls, no LAMMPS: callable from host and device code.
#pragma once

#include "contact/contact_law.hpp"

namespace ge {

// What change_contact_law() did to one contact.
struct LawChangeResult {
  bool same_kind = false;         // the same layout: nothing changed
  bool base_kept = false;         // the same base state: kept as it is, but the moments
  bool force_carried = false;     // the old law's tangential force is now the new law's
  bool capped = false;            // ... capped at the new law's friction limit
  bool force_lost = false;        // the old law had a tangential force the new one cannot hold
  bool moments_kept = false;      // the Yade relative rotation carried over
  bool moments_lost = false;      // the old law had moments, the new one has none
  bool contact_lost = false;      // the new law holds no contact at this geometry (apart)
};

namespace law_change_detail {

GE_INLINE bool keeps_force(const ContactLaw &law)
{
  if (law.tangential != LAW_CATALOGUE) return true;
  return tangential_state_size(law.cat.tangential.model) > 0;
}

// The bodies at rest at the contact's geometry: no step, no dashpot, no rotation.
GE_INLINE ContactBodies at_rest(ContactBodies b)
{
  b.v_i = b.v_j = b.omega_i = b.omega_j = b.v_wall_centre = Vec3{0, 0, 0};
  b.dt = 0.0;
  b.advance = false;
  b.energies = false;
  return b;
}

// The elastic tangential force on body i that `law` gives from `state` at the geometry of `b`
// (at rest); false where the law keeps no tangential force. The state is not changed.
GE_INLINE bool elastic_tangential_force(const ContactLaw &law, const ContactBodies &b,
                                        const double *state, const JaegerHistory &history,
                                        Vec3 &force)
{
  force = Vec3{0, 0, 0};
  if (!keeps_force(law)) return false;
  if (is_coulomb(law)) {
    // the friction the solver applied in the last step (the pair's step holds none of it)
    if (state[TS_CF_SOLVED] != 0.0) force = vec3(state + TS_CF_FORCE);
  } else {
    double copy[CONTACT_STATE_MAX];
    for (int k = 0; k < contact_state_size(law); k++) copy[k] = state[k];
    JaegerHistory h = history;    // (read only: a contact with a state is not pressed)
    ContactResult r;
    contact_step(law, b, copy, &h, r);
    force = r.force_i;
  }
  force = project_onto_plane(force, b.normal);
  return true;
}

// Give the new law's fresh (pressed) state the tangential force F on body i, capped at the law's
// friction limit at this geometry; returns whether it was capped.
GE_INLINE bool set_tangential_force(const ContactLaw &law, const ContactBodies &b, Vec3 F,
                                    double *state, JaegerHistory &history)
{
  if (law.tangential == LAW_CLASSIC || law.tangential == LAW_REFINED) {
    const double cap = law.linear.mu * law.linear.kn * (b.overlap > 0.0 ? b.overlap : 0.0);
    const bool capped = tangential_detail::coulomb_cap(F, cap);
    store(F, state + H_FT);
    state[H_SLIP] = capped ? 1.0 : 0.0;
    return capped;
  }
  if (law.tangential == LAW_JAEGER) {
    // p = i: the tangential force on p is T (force on q = N n - T, jaeger.hpp); the pressed
    // history holds one vertex (delta, N, 0): its slope becomes T/N, a proportional loading
    if (history.count != 1) return false;
    JaegerVertex &v = history.vertex[0];
    const bool capped = tangential_detail::coulomb_cap(F, law.jaeger.mu * v.N);
    double T[2];
    jaeger_to_local(state, F, T);
    state[4] = T[0];
    state[5] = T[1];
    v.theta1 = v.N > 0.0 ? T[0] / v.N : 0.0;
    v.theta2 = v.N > 0.0 ? T[1] / v.N : 0.0;
    state[JAEGER_STATE_SIZE] = capped ? 1.0 : 0.0;
    return capped;
  }
  // the catalogue: its cap and the overlap of its Hertz contact at this geometry
  const CatalogueLaw &c = law.cat;
  double scratch[CONTACT_STATE_MAX];
  for (int k = 0; k < contact_state_size(law); k++) scratch[k] = state[k];
  const CatalogueNormalForce nf =
      catalogue_normal_force(c, b.overlap, 0.0, b.rbar, b.mbar, scratch, false);
  const double F_cap = nf.F_cap, mu_fn = c.tangential.mu * F_cap;
  const bool capped = tangential_detail::coulomb_cap(F, mu_fn);
  double *t = state + CS_TANGENTIAL;
  TangentialStep ts;
  ts.overlap = nf.elastic.hertz_overlap;
  ts.rbar = b.rbar;
  ts.gbar = c.gbar;
  switch (c.tangential.model) {
    case TangentialModel::SpringSliding:
    case TangentialModel::SpringDashpot:
      if (c.tangential.kt > 0.0) store((-1.0 / c.tangential.kt) * F, t + TS_XI);
      break;
    case TangentialModel::DD:
    case TangentialModel::TTI: {
      const double K = tangential_detail::hertz_tangential_stiffness(
          c.tangential.model == TangentialModel::DD ? 16.0 / 3.0 : 8.0, ts);
      if (K > 0.0) store((-1.0 / K) * F, t + TS_XI);
      break;
    }
    case TangentialModel::LTH:
    case TangentialModel::ZZY: {
      // F_el = mu F_n^c [1 - (1 - r)^{3/2}], r = |xi|/delta_t^max: r = 1 - (1 - |F|/(mu F_n^c))^{2/3}
      const double dtmax = lth_slip_length(c.tangential.mu, ts.overlap, c.nubar);
      const double f = norm(F);
      if (f > 0.0 && mu_fn > 0.0 && dtmax > 0.0) {
        const double rest = 1.0 - f / mu_fn;
        const double r = 1.0 - std::cbrt((rest > 0.0 ? rest : 0.0) * (rest > 0.0 ? rest : 0.0));
        store((-r * dtmax / f) * F, t + TS_XI);
      }
      break;
    }
    case TangentialModel::WaltonBraun:    // on the virgin loading curve: no turning point yet
      store(F, t + TS_WB_T);
      t[TS_WB_TSTAR] = 0.0;
      t[TS_WB_SENSE] = 1.0;
      t[TS_WB_NPREV] = F_cap;
      break;
    case TangentialModel::Coulomb:    // the solver's start in the next step
      store(F, t + TS_CF_FORCE);
      t[TS_CF_FN] = F_cap;
      t[TS_CF_SLIDING] = capped ? 1.0 : 0.0;
      t[TS_CF_SOLVED] = 1.0;
      break;
    default: break;    // T1-T3 keep nothing (keeps_force() is false for them)
  }
  state[CS_SLIDING] = capped ? 1.0 : 0.0;
  return capped;
}

GE_INLINE bool same_base_state(const ContactLaw &from, const ContactLaw &to)
{
  if (family_of(from) != family_of(to)) return false;
  if (family_of(to) != FAMILY_CATALOGUE) return true;
  return from.cat.tangential.model == to.cat.tangential.model &&
      from.cat.normal.model == to.cat.normal.model;
}

// the normal model's own state (the hls maximum overlap, the jkr made flag), where both
// catalogue laws have the same one
GE_INLINE bool same_normal_state(const ContactLaw &from, const ContactLaw &to)
{
  return family_of(from) == FAMILY_CATALOGUE && family_of(to) == FAMILY_CATALOGUE &&
      from.cat.normal.model == to.cat.normal.model &&
      normal_state_size(to.cat.normal.model) > 0;
}

}    // namespace law_change_detail

// The state of a contact made with law `from` (old_state; the Jaeger vertices in `history`)
// as law `to` keeps it (new_state, CONTACT_STATE_MAX doubles; a Jaeger `to` needs room for one
// vertex in `history`, whose count is set). b: the pair at the contact's current geometry, i
// the body the states are seen from (the atom with the lower tag), with the effective radius
// and mass set. old_state and new_state are distinct.
GE_INLINE void change_contact_law(const ContactLaw &from, const ContactLaw &to,
                                  const ContactBodies &b, const double *old_state,
                                  double *new_state, JaegerHistory &history, LawChangeResult &r)
{
  using namespace law_change_detail;
  r = LawChangeResult();
  const int old_size = contact_state_size(from), new_size = contact_state_size(to);
  for (int k = 0; k < CONTACT_STATE_MAX; k++) new_state[k] = 0.0;
  if (state_kind(from) == state_kind(to)) {
    for (int k = 0; k < old_size; k++) new_state[k] = old_state[k];
    r.same_kind = true;
    return;
  }
  const ContactBodies rest = at_rest(b);
  const int moments_from = moment_state_offset(from);
  if (same_base_state(from, to)) {
    // the base state (and the Jaeger vertices) as they are; only the moments differ
    r.base_kept = true;
    const int common = old_size < new_size ? old_size : new_size;
    for (int k = 0; k < common; k++)
      if (k < moments_from || k >= moments_from + int(YADE_MOMENT_STATE_SIZE))
        new_state[k] = old_state[k];
  } else {
    Vec3 F;
    const bool had_force = elastic_tangential_force(from, rest, old_state, history, F);
    // the new law's record of a contact that exists when a run starts
    history.count = 0;
    ContactResult pressed;
    contact_step(to, rest, new_state, &history, pressed);
    if (same_normal_state(from, to)) new_state[CS_NORMAL] = old_state[CS_NORMAL];
    if (!(b.overlap > 0.0) && !goes_on_apart(to, b.overlap, b.rbar, new_state[CS_NORMAL])) {
      r.contact_lost = true;
      for (int k = 0; k < CONTACT_STATE_MAX; k++) new_state[k] = 0.0;
      history.count = 0;
      return;
    }
    if (had_force && !is_zero(F)) {
      if (keeps_force(to)) {
        r.capped = set_tangential_force(to, rest, F, new_state, history);
        r.force_carried = true;
      } else {
        r.force_lost = true;
      }
    }
  }
  if (has_moments(from) && has_moments(to)) {
    for (int k = 0; k < YADE_MOMENT_STATE_SIZE; k++)
      new_state[moment_state_offset(to) + k] = old_state[moments_from + k];
    r.moments_kept = true;
  } else if (has_moments(from)) {
    r.moments_lost = true;
  }
}

}    // namespace ge
