// Analytic standard errors: Gwet's linearisation over items, as irrCAC
// implements it (fleiss.kappa.raw(), gwet.ac1.raw(), bp.coeff.raw()),
// generalised to multi-label corpus coefficients. The point values come from
// the estimator kernel (estimators.h, single_label.h); this file only adds
// each item's influence term c_i*, whose mean is the coefficient c, and
// returns sum_i (c_i* - c)^2 over the n sampled items. R turns it into
// var = (1 - f) / (n (n - 1)) * sum (finite-population correction f = n / N).
//
// One label (irrCAC's binary case; n = items rated on it, n2 = pairable ones,
// w = 1 - A_e its chance disagreement, d_i = 2 x (m - x) / (m (m - 1))):
//   c_i  = (n / n2) [m_i >= 2] (w - d_i) / w            observed part
//   c_i* = c_i - (1 - c) e'(p) (x_i / m_i - p) / w       chance part
// with e'(p) = dA_e/dp = 4p - 2 (Fleiss), 2 - 4p (AC1), 0 (PABAK).
// Corpus (means over the L labels with a pairable item, n = items rated on
// one of them, W and D the corpus chance and observed disagreement):
//   O_i     = mean_j (n / n2_j) [m_ij >= 2] (w_j - d_ij)
//   delta_i = mean_j e'_j(p_j) (n / n1_j) [m_ij >= 1] (x_ij / m_ij - p_j)
//   c_i*    = (O_i - (1 - c) delta_i) / W
// which is the one-label formula when L = 1. Pure C++: no R headers.
#ifndef MLAGREEMENT_INFLUENCE_H
#define MLAGREEMENT_INFLUENCE_H

#include <cmath>
#include <cstddef>
#include <vector>

#include "estimators.h"

namespace mlagreement {

// Items x labels tables, column-major: x positives, m decisions.
struct ItemCounts {
  const int* x;
  const int* m;
  std::size_t n_items, n_labels;
  int x_at(std::size_t i, std::size_t j) const { return x[i + j * n_items]; }
  int m_at(std::size_t i, std::size_t j) const { return m[i + j * n_items]; }
};

// Sum of squared deviations of the influence terms and the number of
// sampled items; sum_sq is NaN where the coefficient is undefined.
struct Influence {
  double sum_sq[kBaselines] = {kNA, kNA, kNA};
  double n = 0;
};

// dA_e / dp for one binary label: A_e = 1 - 2pq (Fleiss), 2pq (AC1), 1/2.
inline double chance_slope(int baseline, double p) {
  switch (baseline) {
    case kFleiss: return 4.0 * p - 2.0;
    case kAc1: return 2.0 - 4.0 * p;
    default: return 0.0;
  }
}

namespace detail {
inline double pair_disagreement(double x, double m) { return 2.0 * x * (m - x) / (m * (m - 1.0)); }
}  // namespace detail

// Side of the (m, x) class tables of one label (index m * side + x) when
// the tables are smaller than the items and max_m is known; 0 otherwise
// (terms computed item by item). An item's terms depend on its cell only
// through (m, x), so a table holds the same values without a division per cell.
inline std::size_t class_side(std::size_t max_m, std::size_t n_items) {
  const std::size_t side = max_m + 1;
  return max_m > 0 && side * side <= n_items ? side : 0;
}

// Whether every m of column j is at most max_m (the tables' rows).
inline bool within_tables(const int* ms, std::size_t n, std::size_t max_m) {
  bool ok = true;
  for (std::size_t i = 0; i < n; ++i) ok &= static_cast<std::size_t>(ms[i]) <= max_m;
  return ok;
}

// Label j, all baselines; s = the kernel's summary of label j; max_m: the
// rows of the label tables (0: unknown). One pass over the items for the
// three baselines; each baseline's sum runs in item order.
inline Influence label_influence(const ItemCounts& c, std::size_t j, const LabelSummary& s,
                                 std::size_t max_m = 0) {
  Influence out;
  out.n = s.n_rated;
  if (!(s.n_pairable > 0) || !(s.n_rated > 1)) return out;
  const double scale = s.n_rated / s.n_pairable;
  double w[kBaselines], est[kBaselines], slope[kBaselines];
  for (int b = 0; b < kBaselines; ++b) {
    w[b] = label_chance_disagreement(s, b);
    est[b] = label_coefficient(s, b);
    slope[b] = chance_slope(b, s.p);
  }
  const auto dev_of = [&](int b, double x, double m) {
    const double obs = m >= 2 ? scale * (w[b] - detail::pair_disagreement(x, m)) / w[b] : 0.0;
    return obs - (1.0 - est[b]) * slope[b] * (x / m - s.p) / w[b] - est[b];
  };
  const int* xs = c.x + j * c.n_items;
  const int* ms = c.m + j * c.n_items;
  std::size_t side = class_side(max_m, c.n_items);
  if (side > 0 && !within_tables(ms, c.n_items, max_m)) side = 0;
  std::vector<double> table(side * side * kBaselines, 0.0);
  for (std::size_t m = 1; m < side; ++m) {
    for (std::size_t x = 0; x <= m; ++x) {
      for (int b = 0; b < kBaselines; ++b) {
        table[(m * side + x) * kBaselines + b] = dev_of(b, static_cast<double>(x), static_cast<double>(m));
      }
    }
  }
  long double sum[kBaselines] = {0.0L, 0.0L, 0.0L};
  for (std::size_t i = 0; i < c.n_items; ++i) {
    const int m = ms[i];
    if (m < 1) continue;
    for (int b = 0; b < kBaselines; ++b) {
      const double dev = side > 0 ? table[(static_cast<std::size_t>(m) * side + static_cast<std::size_t>(xs[i])) * kBaselines + b]
                                  : dev_of(b, xs[i], m);
      sum[b] += static_cast<long double>(dev) * dev;
    }
  }
  for (int b = 0; b < kBaselines; ++b) {
    if (!std::isnan(est[b])) out.sum_sq[b] = static_cast<double>(sum[b]);
  }
  return out;
}

// Corpus level of a multi-label fit from the kernel's label summaries and
// corpus summary (one pass over the tables, labels outer for column order).
inline Influence corpus_influence(const ItemCounts& c, const std::vector<LabelSummary>& labels,
                                  const CorpusSummary& corpus, std::size_t max_m = 0) {
  Influence out;
  const std::size_t n = c.n_items;
  // per item: sum_j [pair] w_jb / n2_j (3), sum_j [pair] d_ij / n2_j,
  // sum_j [rated] (4 p_j - 2)(x/m - p_j) / n1_j, rated on a used label
  std::vector<double> w_sum(n * kBaselines, 0.0), d_sum(n, 0.0), p_sum(n, 0.0);
  std::vector<char> rated(n, 0);
  for (std::size_t j = 0; j < labels.size(); ++j) {
    const LabelSummary& s = labels[j];
    if (!(s.n_pairable > 0)) continue;
    double w[kBaselines];
    for (int b = 0; b < kBaselines; ++b) w[b] = label_chance_disagreement(s, b) / s.n_pairable;
    const double slope = chance_slope(kFleiss, s.p) / s.n_rated;
    const auto p_of = [&](double x, double m) { return slope * (x / m - s.p); };
    const auto d_of = [&](double x, double m) { return detail::pair_disagreement(x, m) / s.n_pairable; };
    const int* xs = c.x + j * n;
    const int* ms = c.m + j * n;
    std::size_t side = class_side(max_m, n);
    if (side > 0 && !within_tables(ms, n, max_m)) side = 0;
    std::vector<double> p_term(side * side, 0.0), d_term(side * side, 0.0);
    for (std::size_t m = 1; m < side; ++m) {
      for (std::size_t x = 0; x <= m; ++x) {
        p_term[m * side + x] = p_of(static_cast<double>(x), static_cast<double>(m));
        if (m >= 2) d_term[m * side + x] = d_of(static_cast<double>(x), static_cast<double>(m));
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      const int m = ms[i];
      if (m < 1) continue;
      const std::size_t cell = static_cast<std::size_t>(m) * side + static_cast<std::size_t>(xs[i]);
      rated[i] = 1;
      p_sum[i] += side > 0 ? p_term[cell] : p_of(xs[i], m);
      if (m < 2) continue;
      d_sum[i] += side > 0 ? d_term[cell] : d_of(xs[i], m);
      for (int b = 0; b < kBaselines; ++b) w_sum[i * kBaselines + b] += w[b];
    }
  }
  for (std::size_t i = 0; i < n; ++i) out.n += rated[i];
  if (!(corpus.n_labels_used > 0) || !(out.n > 1)) return out;
  const double scale = out.n / corpus.n_labels_used;  // n / L
  const double sign[kBaselines] = {1.0, -1.0, 0.0};   // e'_AC1 = -e'_Fleiss, PABAK 0
  for (int b = 0; b < kBaselines; ++b) {
    const double est = corpus.estimate[b], big_w = corpus.w[b];
    if (std::isnan(est)) continue;
    long double sum = 0.0L;
    for (std::size_t i = 0; i < n; ++i) {
      if (!rated[i]) continue;
      const double obs = scale * (w_sum[i * kBaselines + b] - d_sum[i]);
      const double chance = scale * sign[b] * p_sum[i];
      const double dev = (obs - (1.0 - est) * chance) / big_w - est;
      sum += static_cast<long double>(dev) * dev;
    }
    out.sum_sq[b] = static_cast<double>(sum);
  }
  return out;
}

// Corpus level of a single-label design (q categories, one-hot labels; every
// record decides every category, so r_i = m_i1): irrCAC's multi-category
// formulas, pe_i - pe = sum_k (u_ik - pi_k) pi_k (Fleiss), its negative over
// q - 1 (AC1, as sum_k u_ik = sum_k pi_k = 1), 0 (Brennan-Prediger).
// pi = the kernel's category prevalences; w, est = summarise_single_label().
inline Influence single_label_influence(const ItemCounts& c, const std::vector<double>& pi,
                                        const double* w, const double* est) {
  Influence out;
  const std::size_t n = c.n_items, q = c.n_labels;
  if (q == 0) return out;
  std::vector<double> dis(n, 0.0), chance(n, 0.0);
  double n_rated = 0, n_pairable = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const int r = c.m_at(i, 0);
    n_rated += r >= 1;
    n_pairable += r >= 2;
  }
  for (std::size_t k = 0; k < q; ++k) {
    for (std::size_t i = 0; i < n; ++i) {
      const double r = c.m_at(i, 0);
      if (r < 1) continue;
      const double x = c.x_at(i, k);
      chance[i] += (x / r - pi[k]) * pi[k];
      if (r >= 2) dis[i] += x * (r - x) / (r * (r - 1.0));
    }
  }
  out.n = n_rated;
  if (!(n_pairable > 0) || !(n_rated > 1)) return out;
  const double scale = n_rated / n_pairable;
  const double factor[kBaselines] = {1.0, q > 1 ? -1.0 / (static_cast<double>(q) - 1.0) : 0.0,
                                     0.0};
  for (int b = 0; b < kBaselines; ++b) {
    if (std::isnan(est[b])) continue;
    long double sum = 0.0L;
    for (std::size_t i = 0; i < n; ++i) {
      const int r = c.m_at(i, 0);
      if (r < 1) continue;
      const double obs = r >= 2 ? scale * (w[b] - dis[i]) / w[b] : 0.0;
      const double dev = obs - 2.0 * (1.0 - est[b]) * factor[b] * chance[i] / w[b] - est[b];
      sum += static_cast<long double>(dev) * dev;
    }
    out.sum_sq[b] = static_cast<double>(sum);
  }
  return out;
}

}  // namespace mlagreement

#endif
