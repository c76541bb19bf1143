// Two spheres of radius 1 mm and density 2500 (SI units) driven one step at a time by prescribed
// motion: p (atom 1) held at the origin, q (atom 2) above it. step_to(overlap, shift) moves q
// down to the total overlap `overlap` and spins it about -y (+y for a negative shift) so that
// its contact point, in the middle of the overlap, moves by `shift` along x while the line of
// centres stays fixed: one step of exactly that normal and tangential movement. The contact's
// compute pair/local values (the columns given) are read summed over the contacts.
#pragma once

#include "deck_util.hpp"

#include <cmath>
#include <sstream>
#include <string>

namespace deck {

class DrivenPair {
 public:
  static constexpr double kRadius = 1e-3, kDt = 1e-6;

  // the spheres start with the total overlap `overlap` (0: just touching); `columns`: the
  // pair/local values to sum (e.g. "p1 p7"). With `law_of_q`, q is of type 2 with that law and
  // p of type 1 with `law`: their contact has the law pair granular/exact mixes from the two
  DrivenPair(const std::string &law, double overlap, const std::string &columns,
             const std::string &law_of_q = "") :
      overlap_(overlap)
  {
    lmp_.command(si_sphere_box("-0.01 0.01 -0.01 0.01 -0.01 0.01", law_of_q.empty() ? 1 : 2));
    lmp_.command("atom_modify sort 0 0\ncreate_atoms 1 single 0 0 0\ncreate_atoms 1 single 0 0 " +
                 num(2.0 * kRadius - overlap));
    lmp_.command(R"(
set             group all diameter 2e-3
set             group all density 2500
group           p id 1
group           q id 2
pair_style      granular/exact
timestep        1e-6
fix             hold p move linear 0 0 0
thermo          1
)");
    std::string sums, thermo, column;
    std::istringstream words(columns);
    for (int k = 1; words >> column; k++) {
      sums += " c_c[" + std::to_string(k) + "]";
      thermo += " c_sum[" + std::to_string(k) + "]";
    }
    lmp_.command("compute c all pair/local " + columns + "\ncompute sum all reduce sum" + sums +
                 " inputs local\nthermo_style custom step" + thermo + "\nthermo_modify norm no");
    if (law_of_q.empty()) {
      lmp_.command("pair_coeff * * " + law);
    } else {
      lmp_.command("set atom 2 type 2\npair_coeff 1 1 " + law + "\npair_coeff 2 2 " + law_of_q);
    }
  }

  void step_to(double overlap, double shift)
  {
    const double vz = -(overlap - overlap_) / kDt;    // q's centre moves down by the change
    overlap_ = overlap;
    // the contact point lies R - overlap/2 below q's centre (at the end of the step)
    const double omega = shift / ((kRadius - 0.5 * overlap) * kDt);
    if (omega == 0.0) {
      lmp_.command("fix drive q move linear 0 0 " + num(vz));
    } else {
      double *xq = static_cast<double **>(lammps_extract_atom(lmp_.handle(), "x"))[1];
      const std::string centre = num(xq[0]) + " " + num(xq[1]) + " " + num(xq[2]);
      // rotation rate 2 pi / period about -y (omega > 0: the contact point moves along +x)
      const std::string axis = omega > 0 ? "0 -1 0 " : "0 1 0 ";
      lmp_.command("fix drive q move transrot 0 0 " + num(vz) + " " + centre + " " + axis +
                   num(2.0 * M_PI / std::fabs(omega)));
    }
    lmp_.command("run 1\nunfix drive");
  }
  double overlap() const { return overlap_; }
  // column k (from 0) of the pair/local values, summed over the contacts
  double sum(int k) { return lmp_.compute_vector("sum", k); }

 private:
  Lammps lmp_;
  double overlap_;
};

}    // namespace deck
