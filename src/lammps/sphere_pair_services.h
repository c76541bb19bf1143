/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: what fix wall/gran/exact needs from pair granular/exact,
   whose spheres it holds: the mass of the body a sphere belongs to (a clump
   of fix rigid moves as one, so its mass enters the effective mass of a wall
   contact) and the friction solver of `tangential coulomb`, which solves the
   pair's and the walls' contacts together.
------------------------------------------------------------------------- */

#ifndef GE_SPHERE_PAIR_SERVICES_H
#define GE_SPHERE_PAIR_SERVICES_H

namespace LAMMPS_NS {

class FixCoulombFrictionExact;

class SpherePairServices {
 public:
  // the mass of the body atom i belongs to: its rigid body's with fix rigid or rigid/small,
  // else its own (owned and ghost atoms)
  virtual double body_mass(int i) const = 0;
  // the same for every owned and ghost atom at once where the spheres are in clumps (0: an atom
  // in no body), nullptr where each is its own body (body_mass() is then its rmass)
  virtual const double *clump_masses() const = 0;
  // the friction solver, made on first use (a wall with `tangential coulomb` asks when it is
  // defined, so that its outputs can be named before the run)
  virtual FixCoulombFrictionExact *friction_fix() = 0;
  // the solver this run uses, placed by the pair's init (nullptr: no law uses it)
  virtual FixCoulombFrictionExact *active_friction_fix() const = 0;

 protected:
  ~SpherePairServices() = default;    // (not deleted through this interface)
};

}    // namespace LAMMPS_NS

#endif
