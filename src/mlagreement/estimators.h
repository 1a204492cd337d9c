// Hamming-based estimators from the label tables (paper sections 3.1-3.5,
// with Gwet's unequal-raters conventions for missing decisions).
//
// Disagreement is computed directly (2pq, 2x(m-x)/(m(m-1))) rather than as
// 1 - agreement, so rare labels keep full relative precision.
#ifndef MLAGREEMENT_ESTIMATORS_H
#define MLAGREEMENT_ESTIMATORS_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

#include "ddouble.h"
#include "label_table.h"

namespace mlagreement {

constexpr double kNA = std::numeric_limits<double>::quiet_NaN();

struct LabelSummary {
  double n_rated = 0;     // items with >= 1 decision
  double n_pairable = 0;  // items with >= 2 decisions
  double decisions = 0, positives = 0;
  double p = kNA, q = kNA;        // mean over rated items of x/m and (m-x)/m
  double d_obs = kNA;             // observed disagreement, mean over pairable items
  double d_max = kNA;             // largest feasible disagreement (eq. 7 floor)
  double pos_num = 0, pos_den = 0, neg_num = 0, neg_den = 0;
  dd p_dd, q_dd, d_obs_dd, d_max_dd;  // the same in double-double, for the coefficients
};

namespace detail {

// Largest sum over pairable items of 2x(m-x)/(m(m-1)) with the positive total
// fixed. The objective is separable and concave in each item's x, so taking the
// `positives` largest marginal gains (greedy) is exact. Items with m = 1 absorb
// a positive at zero gain. Equal-m items share one gain sequence, so the list
// holds sum(m) entries, not one per item.
inline dd max_disagreement(const double* cnt, std::size_t max_m, double positives) {
  struct Gain {
    double value, numerator, denominator, multiplicity;  // value = numerator / denominator
  };
  std::vector<Gain> gains;
  for (std::size_t s = 0; s < max_m; ++s) {
    if (cnt[s] == 0.0) continue;
    const double m = static_cast<double>(s + 1);
    if (s == 0) {
      gains.push_back({0.0, 0.0, 1.0, cnt[s]});
      continue;
    }
    for (std::size_t x = 0; x <= s; ++x) {
      const double num = 2.0 * (m - 2.0 * static_cast<double>(x) - 1.0);
      const double den = m * (m - 1.0);
      gains.push_back({num / den, num, den, cnt[s]});
    }
  }
  std::sort(gains.begin(), gains.end(),
            [](const Gain& a, const Gain& b) { return a.value > b.value; });
  double left = positives;
  dd total;
  for (const Gain& g : gains) {
    if (left <= 0.0) break;
    const double take = std::min(left, g.multiplicity);
    total = total + dd(take * g.numerator) / dd(g.denominator);
    left -= take;
  }
  return total;
}

}  // namespace detail

// with_floor = false skips the eq. 7 floor (a sort per label), which the
// bootstrap replicates do not report.
inline LabelSummary summarise_label(const LabelTable& t, std::size_t j, bool with_floor = true) {
  LabelSummary s;
  const std::size_t mm = t.max_m;
  const double* cnt = t.cnt.data() + j * mm;
  const double* sx = t.sx.data() + j * mm;
  const double* sdis = t.sdis.data() + j * mm;
  dd p_sum, q_sum, d_sum;
  for (std::size_t slot = 0; slot < mm; ++slot) {
    if (cnt[slot] == 0.0) continue;
    const double m = static_cast<double>(slot + 1);
    const double neg = m * cnt[slot] - sx[slot];  // sum of (m - x)
    s.n_rated += cnt[slot];
    s.decisions += m * cnt[slot];
    s.positives += sx[slot];
    p_sum = p_sum + dd(sx[slot]) / dd(m);
    q_sum = q_sum + dd(neg) / dd(m);
    if (slot == 0) continue;
    s.n_pairable += cnt[slot];
    d_sum = d_sum + dd(2.0 * sdis[slot]) / dd(m * (m - 1.0));
    // sum x(x-1) = m*sum(x) - sum(x(m-x)) - sum(x); same for negatives.
    s.pos_num += m * sx[slot] - sdis[slot] - sx[slot];
    s.pos_den += (m - 1.0) * sx[slot];
    s.neg_num += m * neg - sdis[slot] - neg;
    s.neg_den += (m - 1.0) * neg;
  }
  if (s.n_rated > 0) {
    s.p_dd = p_sum / dd(s.n_rated);
    s.q_dd = q_sum / dd(s.n_rated);
    s.p = s.p_dd.value();
    s.q = s.q_dd.value();
  }
  if (s.n_pairable > 0) {
    s.d_obs_dd = d_sum / dd(s.n_pairable);
    s.d_obs = s.d_obs_dd.value();
    if (with_floor) {
      s.d_max_dd = detail::max_disagreement(cnt, mm, s.positives) / dd(s.n_pairable);
      s.d_max = s.d_max_dd.value();
    }
  }
  return s;
}

enum Baseline { kFleiss = 0, kAc1 = 1, kPabak = 2 };
constexpr int kBaselines = 3;

// 1 - A_e for one label: the chance disagreement of the baseline model.
inline double chance_disagreement(int baseline, double p, double q) {
  switch (baseline) {
    case kFleiss: return 2.0 * p * q;
    case kAc1: return p * p + q * q;
    default: return 0.5;
  }
}

inline dd chance_disagreement_dd(int baseline, const dd& p, const dd& q) {
  switch (baseline) {
    case kFleiss: return dd(2.0) * p * q;
    case kAc1: return p * p + q * q;
    default: return dd(0.5);
  }
}

// Coefficient 1 - D_o / (1 - A_e); NaN when undefined.
inline double coefficient(double d_obs, double w) {
  if (!(w > 0.0) || std::isnan(d_obs)) return kNA;
  return 1.0 - d_obs / w;
}

// The same as (w - d) / w in double-double: full relative precision even
// when observed and chance disagreement agree to many digits.
inline double coefficient(const dd& d_obs, const dd& w) {
  if (!(w.hi > 0.0) || std::isnan(d_obs.hi)) return kNA;
  return ((w - d_obs) / w).value();
}

// Label coefficient and normalised floor under one baseline.
inline double label_coefficient(const LabelSummary& s, int baseline) {
  if (!(s.n_pairable > 0)) return kNA;
  return coefficient(s.d_obs_dd, chance_disagreement_dd(baseline, s.p_dd, s.q_dd));
}
inline double label_floor(const LabelSummary& s, int baseline) {
  if (!(s.n_pairable > 0)) return kNA;
  return coefficient(s.d_max_dd, chance_disagreement_dd(baseline, s.p_dd, s.q_dd));
}

// Corpus-level values: means over labels with a pairable item.
struct CorpusSummary {
  double n_labels_used = 0;
  double d_obs = kNA, d_max = kNA;
  double w[kBaselines] = {kNA, kNA, kNA};
  double estimate[kBaselines] = {kNA, kNA, kNA};
  double floor[kBaselines] = {kNA, kNA, kNA};
};

inline CorpusSummary summarise_corpus(const std::vector<LabelSummary>& labels) {
  CorpusSummary c;
  dd d, dm, w[kBaselines];
  for (const LabelSummary& s : labels) {
    if (!(s.n_pairable > 0)) continue;
    c.n_labels_used += 1;
    d = d + s.d_obs_dd;
    dm = dm + s.d_max_dd;
    for (int b = 0; b < kBaselines; ++b) w[b] = w[b] + chance_disagreement_dd(b, s.p_dd, s.q_dd);
  }
  if (c.n_labels_used > 0) {
    const dd n(c.n_labels_used);
    c.d_obs = (d / n).value();
    c.d_max = (dm / n).value();
    for (int b = 0; b < kBaselines; ++b) {
      c.w[b] = (w[b] / n).value();
      // the common factor 1/n cancels in (w - d) / w
      c.estimate[b] = coefficient(d, w[b]);
      c.floor[b] = coefficient(dm, w[b]);
    }
  }
  return c;
}

}  // namespace mlagreement

#endif
