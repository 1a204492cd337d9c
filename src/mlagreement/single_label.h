// Single-label (categorical) coefficients from the label tables of the
// one-hot design: category k is label k, every record decides every label,
// so item i has m_i = r_i ratings and x_ik = r_ik of them in category k.
// Gwet's unequal-raters formulas, as irrCAC implements them:
//   pa   = mean over items with r_i >= 2 of sum_k r_ik (r_ik - 1) / (r_i (r_i - 1))
//   pi_k = mean over items with r_i >= 1 of r_ik / r_i
//   Fleiss pe = sum_k pi_k^2, AC1 pe = sum_k pi_k (1 - pi_k) / (q - 1),
//   Brennan-Prediger pe = 1 / q,
// and Krippendorff's nominal alpha from the same tables (coincidences within
// units with >= 2 values). Everything is computed as disagreement, in
// double-double, so rare categories keep their precision:
//   1 - pa = mean_i sum_k r_ik (r_i - r_ik) / (r_i (r_i - 1)) = mean_i sum_k sdis / (m (m - 1)).
// Pure C++: no R headers.
#ifndef MLAGREEMENT_SINGLE_LABEL_H
#define MLAGREEMENT_SINGLE_LABEL_H

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "ddouble.h"

namespace mlagreement {

struct SingleLabelSummary {
  static constexpr int kCoefficients = 3;  // fleiss, ac1, pabak (Brennan-Prediger)
  double n_rated = 0, n_pairable = 0, q = 0;
  double d_obs = std::numeric_limits<double>::quiet_NaN();  // 1 - pa
  double w[kCoefficients];         // 1 - pe
  double estimate[kCoefficients];  // (pa - pe) / (1 - pe)
  double alpha_d_obs = std::numeric_limits<double>::quiet_NaN();
  double alpha_d_exp = std::numeric_limits<double>::quiet_NaN();
  double alpha = std::numeric_limits<double>::quiet_NaN();
  SingleLabelSummary() {
    for (int b = 0; b < kCoefficients; ++b) {
      w[b] = std::numeric_limits<double>::quiet_NaN();
      estimate[b] = std::numeric_limits<double>::quiet_NaN();
    }
  }
};

namespace detail {
// (w - d) / w in double-double; NaN when w is not positive.
inline double ratio_coefficient(const dd& d, const dd& w) {
  if (!(w.hi > 0.0) || std::isnan(d.hi)) return std::numeric_limits<double>::quiet_NaN();
  return ((w - d) / w).value();
}
}  // namespace detail

// cnt, sx, sdis: column-major max_m x q tables (row m - 1: items with m
// decisions, their sum of x and of x (m - x)). All categories share the
// items' m (R checks that the design is single-label).
inline SingleLabelSummary summarise_single_label(const double* cnt, const double* sx,
                                                 const double* sdis, std::size_t max_m,
                                                 std::size_t q) {
  SingleLabelSummary s;
  s.q = static_cast<double>(q);
  if (q == 0) return s;
  dd d_sum, sum_pq, alpha_do, n_values;
  for (std::size_t slot = 0; slot < max_m; ++slot) {
    const double m = static_cast<double>(slot + 1);
    s.n_rated += cnt[slot];
    if (slot == 0) continue;
    s.n_pairable += cnt[slot];
    n_values = n_values + dd(m * cnt[slot]);
  }
  if (!(s.n_rated > 0)) return s;
  std::vector<dd> pairable_total(q);
  for (std::size_t k = 0; k < q; ++k) {
    dd p_sum;
    for (std::size_t slot = 0; slot < max_m; ++slot) {
      const std::size_t at = k * max_m + slot;
      if (cnt[at] == 0.0) continue;
      const double m = static_cast<double>(slot + 1);
      p_sum = p_sum + dd(sx[at]) / dd(m);
      if (slot == 0) continue;
      d_sum = d_sum + dd(sdis[at]) / dd(m * (m - 1.0));
      alpha_do = alpha_do + dd(sdis[at]) / dd(m - 1.0);
      pairable_total[k] = pairable_total[k] + dd(sx[at]);
    }
    const dd p = p_sum / dd(s.n_rated);
    sum_pq = sum_pq + p * (dd(1.0) - p);
  }
  if (!(s.n_pairable > 0)) return s;
  const dd d = d_sum / dd(s.n_pairable);
  s.d_obs = d.value();
  const dd w[SingleLabelSummary::kCoefficients] = {
      sum_pq,
      q > 1 ? dd(1.0) - sum_pq / dd(s.q - 1.0) : dd(0.0),
      dd(1.0) - dd(1.0) / dd(s.q)};
  for (int b = 0; b < SingleLabelSummary::kCoefficients; ++b) {
    s.w[b] = w[b].value();
    s.estimate[b] = detail::ratio_coefficient(d, w[b]);
  }
  // nominal alpha: D_o = sum_u sum_c n_uc (m_u - n_uc) / (m_u - 1) / n..,
  // D_e = sum_c n_c (n.. - n_c) / (n.. (n.. - 1))
  dd expected;
  for (std::size_t k = 0; k < q; ++k) {
    expected = expected + pairable_total[k] * (n_values - pairable_total[k]);
  }
  const dd d_o = alpha_do / n_values;
  const dd d_e = expected / (n_values * (n_values - dd(1.0)));
  s.alpha_d_obs = d_o.value();
  s.alpha_d_exp = d_e.value();
  s.alpha = detail::ratio_coefficient(d_o, d_e);
  return s;
}

}  // namespace mlagreement

#endif
