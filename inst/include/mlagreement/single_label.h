// Krippendorff's nominal alpha of a single-label design from the label
// tables of its one-hot labels, in double-double.
// See DESIGN.md, Algorithms: The estimator kernel.
#ifndef MLAGREEMENT_SINGLE_LABEL_H
#define MLAGREEMENT_SINGLE_LABEL_H

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "ddouble.h"

namespace mlagreement {

struct NominalAlpha {
  double d_obs = std::numeric_limits<double>::quiet_NaN();
  double d_exp = std::numeric_limits<double>::quiet_NaN();
  double alpha = std::numeric_limits<double>::quiet_NaN();
};

// cnt, sx, sdis: column-major max_m x q tables (row m - 1: items with m
// decisions, their sum of x and of x (m - x)).
inline NominalAlpha nominal_alpha(const double* cnt, const double* sx, const double* sdis,
                                  std::size_t max_m, std::size_t q) {
  NominalAlpha a;
  if (q == 0) return a;
  dd n_values, observed;
  for (std::size_t slot = 1; slot < max_m; ++slot) {
    n_values = n_values + dd(static_cast<double>(slot + 1) * cnt[slot]);
  }
  if (!(n_values.hi > 1.0)) return a;
  dd expected;
  for (std::size_t k = 0; k < q; ++k) {
    dd total;
    for (std::size_t slot = 1; slot < max_m; ++slot) {
      const std::size_t at = k * max_m + slot;
      observed = observed + dd(sdis[at]) / dd(static_cast<double>(slot));
      total = total + dd(sx[at]);
    }
    expected = expected + total * (n_values - total);
  }
  const dd d_o = observed / n_values;
  const dd d_e = expected / (n_values * (n_values - dd(1.0)));
  a.d_obs = d_o.value();
  a.d_exp = d_e.value();
  if (d_e.hi > 0.0) a.alpha = ((d_e - d_o) / d_e).value();
  return a;
}

}  // namespace mlagreement

#endif
