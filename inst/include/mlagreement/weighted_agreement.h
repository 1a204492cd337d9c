// Weighted single-label agreement (Gwet 2014, as irrCAC) with a q x q
// agreement-weight matrix: estimate, influence terms, item bootstrap and
// jackknife from per-item parts built once. The glue includes
// RcppArmadillo.h first. See DESIGN.md, Algorithms: Weighted single-label
// agreement.
#ifndef MLAGREEMENT_WEIGHTED_AGREEMENT_H
#define MLAGREEMENT_WEIGHTED_AGREEMENT_H

#include <armadillo>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "boot_units.h"
#include "influence_sums.h"
#include "rng.h"

namespace mlagreement {

constexpr int kWeightedCoefficients = 3;  // fleiss, ac1 (AC2), pabak (Brennan-Prediger)

// Per-item parts: u (q x n, column i = X[i, ] / r_i for rated items, else 0),
// d (item disagreement, NaN unless pairable).
struct WeightedItems {
  arma::mat u;
  std::vector<double> d;
  std::vector<unsigned char> rated, pairable;
  arma::mat W;
  double sum_w = 0;
  std::size_t n_items = 0, q = 0;
};

inline WeightedItems weighted_items(const arma::mat& X, const arma::mat& W) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  WeightedItems it;
  it.n_items = X.n_rows;
  it.q = X.n_cols;
  it.W = W;
  it.sum_w = arma::accu(W);
  const arma::vec r = arma::sum(X, 1);
  const arma::vec disagree = arma::sum((X * (1.0 - W)) % X, 1);  // X_i' (1 - W) X_i
  it.u.zeros(it.q, it.n_items);
  it.d.assign(it.n_items, nan);
  it.rated.assign(it.n_items, 0);
  it.pairable.assign(it.n_items, 0);
  for (std::size_t i = 0; i < it.n_items; ++i) {
    if (r[i] >= 1.0) {
      it.rated[i] = 1;
      it.u.col(i) = X.row(i).t() / r[i];
    }
    if (r[i] >= 2.0) {
      it.pairable[i] = 1;
      it.d[i] = disagree[i] / (r[i] * (r[i] - 1.0));
    }
  }
  return it;
}

struct WeightedSums {
  double d_sum = 0, n_pairable = 0, n_rated = 0;
  arma::vec pi_sum;
};

// v: multiplicity of each item (nullptr: every item once).
template <typename V>
WeightedSums weighted_sums(const WeightedItems& it, const V* v) {
  WeightedSums s;
  s.pi_sum.zeros(it.q);
  for (std::size_t i = 0; i < it.n_items; ++i) {
    const double vi = v == nullptr ? 1.0 : static_cast<double>(v[i]);
    if (vi == 0.0) continue;
    if (it.rated[i]) {
      s.pi_sum += vi * it.u.col(i);
      s.n_rated += vi;
    }
    if (it.pairable[i]) {
      s.d_sum += vi * it.d[i];
      s.n_pairable += vi;
    }
  }
  return s;
}

struct WeightedAgreement {
  double d_obs = std::numeric_limits<double>::quiet_NaN();   // 1 - pa
  double w[kWeightedCoefficients];                            // 1 - pe
  double estimate[kWeightedCoefficients];                     // (pa - pe) / (1 - pe)
  arma::vec pi;
};

inline WeightedAgreement weighted_coefficients(const WeightedItems& it, const WeightedSums& s) {
  WeightedAgreement out;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (int b = 0; b < kWeightedCoefficients; ++b) out.w[b] = out.estimate[b] = nan;
  if (s.n_pairable == 0.0 || it.q == 0) return out;
  out.pi = s.pi_sum / s.n_rated;
  out.d_obs = s.d_sum / s.n_pairable;
  const double qd = static_cast<double>(it.q);
  const double pe[kWeightedCoefficients] = {
      arma::as_scalar(out.pi.t() * it.W * out.pi),
      it.q > 1 ? it.sum_w * arma::accu(out.pi % (1.0 - out.pi)) / (qd * (qd - 1.0)) : 1.0,
      it.sum_w / (qd * qd)};
  for (int b = 0; b < kWeightedCoefficients; ++b) {
    out.w[b] = 1.0 - pe[b];
    if (out.w[b] > 0.0) out.estimate[b] = (out.w[b] - out.d_obs) / out.w[b];
  }
  return out;
}

inline WeightedAgreement weighted_agreement(const WeightedItems& it) {
  return weighted_coefficients(it, weighted_sums<double>(it, nullptr));
}

// Gwet's influence terms: sum over rated items of (c_i* - c)^2, n = rated
// items; and from the same pass weighted percent agreement's, pa = 1 - D_o
// (irrCAC's pa.coeff.raw), t_i = (n / n2) [r_i >= 2] (1 - d_i).
inline CorpusInfluence weighted_influence(const WeightedItems& it) {
  const WeightedAgreement a = weighted_agreement(it);
  CorpusInfluence out;
  double n = 0, n2 = 0;
  for (std::size_t i = 0; i < it.n_items; ++i) {
    n += it.rated[i];
    n2 += it.pairable[i];
  }
  out.coefficient.n = out.observed.n = n;
  if (!(n2 > 0) || !(n > 1)) return out;
  const double qd = static_cast<double>(it.q);
  const arma::vec w_pi = it.W * a.pi;
  const arma::vec not_pi = 1.0 - a.pi;
  const double ac2_scale = it.q > 1 ? it.sum_w / (qd * (qd - 1.0)) : 0.0;
  const double pa = 1.0 - a.d_obs;
  long double sum[kWeightedCoefficients] = {0.0L, 0.0L, 0.0L}, sum_observed = 0.0L;
  for (std::size_t i = 0; i < it.n_items; ++i) {
    if (!it.rated[i]) continue;
    const double pe_item[kWeightedCoefficients] = {
        arma::dot(it.u.col(i), w_pi), ac2_scale * arma::dot(it.u.col(i), not_pi), 0.0};
    for (int b = 0; b < kWeightedCoefficients; ++b) {
      const double pe = 1.0 - a.w[b], c = a.estimate[b];
      const double observed = it.pairable[i] ? n / n2 * ((1.0 - it.d[i]) - pe) / a.w[b] : 0.0;
      const double chance = b == 2 ? 0.0 : 2.0 * (1.0 - c) * (pe_item[b] - pe) / a.w[b];
      const double dev = observed - chance - c;
      sum[b] += static_cast<long double>(dev) * dev;
    }
    const double dev = (it.pairable[i] ? n / n2 * (1.0 - it.d[i]) : 0.0) - pa;
    sum_observed += static_cast<long double>(dev) * dev;
  }
  for (int b = 0; b < kWeightedCoefficients; ++b) {
    if (!std::isnan(a.estimate[b])) out.coefficient.sum_sq[b] = static_cast<double>(sum[b]);
  }
  out.observed.sum_sq[0] = static_cast<double>(sum_observed);
  return out;
}

// Item bootstrap replicates of one stream (out: n_rep x 3).
inline void weighted_replicates(const WeightedItems& it, const UnitDesign& u, std::uint64_t seed,
                                int stream, std::size_t n_rep, double* out) {
  for_each_item_draw(u, seed, stream, n_rep, [&](std::size_t r, const std::uint32_t* iw) {
    const WeightedAgreement a = weighted_coefficients(it, weighted_sums(it, iw));
    for (int b = 0; b < kWeightedCoefficients; ++b) out[b * n_rep + r] = a.estimate[b];
  });
}

// Leave-one-unit-out coefficients (out: n_units x 3).
inline void weighted_jackknife(const WeightedItems& it, std::size_t n_units, const int* unit_start,
                               const int* unit_items, double* out) {
  const WeightedSums full = weighted_sums<double>(it, nullptr);
  for (std::size_t k = 0; k < n_units; ++k) {
    WeightedSums s = full;
    for (int t = unit_start[k]; t < unit_start[k + 1]; ++t) {
      const std::size_t i = static_cast<std::size_t>(unit_items[t]);
      if (it.rated[i]) {
        s.pi_sum -= it.u.col(i);
        s.n_rated -= 1.0;
      }
      if (it.pairable[i]) {
        s.d_sum -= it.d[i];
        s.n_pairable -= 1.0;
      }
    }
    const WeightedAgreement a = weighted_coefficients(it, s);
    for (int b = 0; b < kWeightedCoefficients; ++b) out[b * n_units + k] = a.estimate[b];
  }
}

}  // namespace mlagreement

#endif
