// The estimator kernel: (x, m) counts or weighted counts to Hamming
// estimates (coefficients, eq. 6 weights, eq. 7 floors, specific agreement,
// item and pair values, reasons for undefined values; NaN when undefined).
// See DESIGN.md, Algorithms: The estimator kernel.
#ifndef MLAGREEMENT_ESTIMATORS_H
#define MLAGREEMENT_ESTIMATORS_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "ddouble.h"
#include "label_table.h"

namespace mlagreement {

constexpr double kNA = std::numeric_limits<double>::quiet_NaN();

enum Baseline { kFleiss = 0, kAc1 = 1, kPabak = 2 };
constexpr int kBaselines = 3;

// Why a value is undefined (0: it is defined). R maps the codes to text.
enum Reason {
  kDefined = 0,
  kConstantLabel = 1,  // label: chance disagreement 0 under the baseline
  kNotPairable = 2,    // label: decisions, but no item with two
  kNotRated = 3,       // label: no decisions at all
  kAllConstant = 4     // corpus: chance disagreement 0 on every label
};

struct LabelSummary {
  double n_rated = 0;     // items with >= 1 decision (or their weight)
  double n_pairable = 0;  // items with >= 2 decisions
  double decisions = 0, positives = 0;
  double p = kNA, q = kNA;        // mean over rated items of x/m and (m-x)/m
  double d_obs = kNA;             // observed disagreement, mean over pairable items
  double d_max = kNA;             // largest feasible disagreement (eq. 7 floor)
  double pos_num = 0, pos_den = 0, neg_num = 0, neg_den = 0;
  dd p_dd, q_dd, d_obs_dd, d_max_dd;  // the same in double-double, for the coefficients
};

// Per-label sums the summaries are means of: Acc is dd for label tables,
// double for the annotator bootstrap's weighted counts.
template <typename Acc>
struct LabelSums {
  double n_rated = 0, n_pairable = 0, decisions = 0, positives = 0;
  Acc p_sum{}, q_sum{}, d_sum{};  // sums of x/m, (m-x)/m, 2x(m-x)/pairs
  double pos_num = 0, pos_den = 0, neg_num = 0, neg_den = 0;
};

namespace detail {

inline dd mean_of(const dd& sum, double n) { return sum / dd(n); }
inline dd mean_of(double sum, double n) { return dd(sum / n); }

// Largest sum over pairable items of 2x(m-x)/(m(m-1)) with the positives
// fixed: separable and concave in each x, so greedy on marginal gains is
// exact (m = 1 absorbs a positive at zero gain). Equal-m items share one
// gain sequence: sum(m) entries, not one per item.
template <typename Count>
dd max_disagreement(const Count* cnt, std::size_t max_m, double positives) {
  struct Gain {
    double value, numerator, denominator, multiplicity;  // value = numerator / denominator
  };
  std::vector<Gain> gains;
  for (std::size_t s = 0; s < max_m; ++s) {
    const double n = static_cast<double>(cnt[s]);
    if (n == 0.0) continue;
    const double m = static_cast<double>(s + 1);
    if (s == 0) {
      gains.push_back({0.0, 0.0, 1.0, n});
      continue;
    }
    for (std::size_t x = 0; x <= s; ++x) {
      const double num = 2.0 * (m - 2.0 * static_cast<double>(x) - 1.0);
      const double den = m * (m - 1.0);
      gains.push_back({num / den, num, den, n});
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

// Means from the sums (prevalences over rated, disagreement over pairable items).
template <typename Acc>
LabelSummary summarise_sums(const LabelSums<Acc>& a) {
  LabelSummary s;
  s.n_rated = a.n_rated;
  s.n_pairable = a.n_pairable;
  s.decisions = a.decisions;
  s.positives = a.positives;
  s.pos_num = a.pos_num;
  s.pos_den = a.pos_den;
  s.neg_num = a.neg_num;
  s.neg_den = a.neg_den;
  if (s.n_rated > 0) {
    s.p_dd = detail::mean_of(a.p_sum, s.n_rated);
    s.q_dd = detail::mean_of(a.q_sum, s.n_rated);
    s.p = s.p_dd.value();
    s.q = s.q_dd.value();
  }
  if (s.n_pairable > 0) {
    s.d_obs_dd = detail::mean_of(a.d_sum, s.n_pairable);
    s.d_obs = s.d_obs_dd.value();
  }
  return s;
}

// Label j of a table; with_floor = false skips the eq. 7 floor (a sort).
template <typename Count>
LabelSummary summarise_label(const CountTable<Count>& t, std::size_t j, bool with_floor = true) {
  const std::size_t mm = t.max_m;
  const Count* cnt = t.cnt.data() + j * mm;
  const Count* sx = t.sx.data() + j * mm;
  const Count* sdis = t.sdis.data() + j * mm;
  LabelSums<dd> a;
  for (std::size_t slot = 0; slot < mm; ++slot) {
    const double n = static_cast<double>(cnt[slot]);
    if (n == 0.0) continue;
    const double m = static_cast<double>(slot + 1);
    const double x = static_cast<double>(sx[slot]);
    const double dis = static_cast<double>(sdis[slot]);
    const double neg = m * n - x;  // sum of (m - x)
    a.n_rated += n;
    a.decisions += m * n;
    a.positives += x;
    a.p_sum = a.p_sum + dd(x) / dd(m);
    a.q_sum = a.q_sum + dd(neg) / dd(m);
    if (slot == 0) continue;
    a.n_pairable += n;
    a.d_sum = a.d_sum + dd(2.0 * dis) / dd(m * (m - 1.0));
    // sum x(x-1) = m*sum(x) - sum(x(m-x)) - sum(x); same for negatives.
    a.pos_num += m * x - dis - x;
    a.pos_den += (m - 1.0) * x;
    a.neg_num += m * neg - dis - neg;
    a.neg_den += (m - 1.0) * neg;
  }
  LabelSummary s = summarise_sums(a);
  if (s.n_pairable > 0 && with_floor) {
    s.d_max_dd = detail::max_disagreement(cnt, mm, s.positives) / dd(s.n_pairable);
    s.d_max = s.d_max_dd.value();
  }
  return s;
}

// Every label of a table, as summarise_label().
template <typename Count>
std::vector<LabelSummary> summarise_labels(const CountTable<Count>& t, bool with_floor = true) {
  std::vector<LabelSummary> out(t.n_labels);
  for (std::size_t j = 0; j < t.n_labels; ++j) out[j] = summarise_label(t, j, with_floor);
  return out;
}

// num / den, NaN when den is not positive (specific agreement, pooled shares).
inline double ratio_or_nan(double num, double den) { return den > 0.0 ? num / den : kNA; }

// 1 - A_e for one label: the chance disagreement of the baseline model.
inline dd chance_disagreement(int baseline, const dd& p, const dd& q) {
  switch (baseline) {
    case kFleiss: return dd(2.0) * p * q;
    case kAc1: return p * p + q * q;
    default: return dd(0.5);
  }
}

// Coefficient 1 - d / w; NaN when undefined.
inline double coefficient(double d_obs, double w) {
  if (!(w > 0.0) || std::isnan(d_obs)) return kNA;
  return 1.0 - d_obs / w;
}

// (w - d) / w in double-double: full relative precision when observed and
// chance disagreement agree to many digits.
inline double coefficient(const dd& d_obs, const dd& w) {
  if (!(w.hi > 0.0) || std::isnan(d_obs.hi)) return kNA;
  return ((w - d_obs) / w).value();
}

// Chance disagreement, coefficient and floor of one label (NaN without a
// pairable item).
inline double label_chance_disagreement(const LabelSummary& s, int baseline) {
  if (!(s.n_pairable > 0)) return kNA;
  return chance_disagreement(baseline, s.p_dd, s.q_dd).value();
}
inline double label_coefficient(const LabelSummary& s, int baseline) {
  if (!(s.n_pairable > 0)) return kNA;
  return coefficient(s.d_obs_dd, chance_disagreement(baseline, s.p_dd, s.q_dd));
}
inline double label_floor(const LabelSummary& s, int baseline) {
  if (!(s.n_pairable > 0)) return kNA;
  return coefficient(s.d_max_dd, chance_disagreement(baseline, s.p_dd, s.q_dd));
}
inline int label_reason(const LabelSummary& s, int baseline) {
  if (!(s.n_rated > 0)) return kNotRated;
  if (!(s.n_pairable > 0)) return kNotPairable;
  return label_chance_disagreement(s, baseline) == 0.0 ? kConstantLabel : kDefined;
}

// Corpus-level values: means over labels with a pairable item.
struct CorpusSummary {
  double n_labels_used = 0;
  double d_obs = kNA, d_max = kNA;
  double w[kBaselines] = {kNA, kNA, kNA};
  double estimate[kBaselines] = {kNA, kNA, kNA};
  double floor[kBaselines] = {kNA, kNA, kNA};
  int reason[kBaselines] = {kDefined, kDefined, kDefined};
};

inline CorpusSummary summarise_corpus(const std::vector<LabelSummary>& labels) {
  CorpusSummary c;
  dd d, dm, w[kBaselines];
  for (const LabelSummary& s : labels) {
    if (!(s.n_pairable > 0)) continue;
    c.n_labels_used += 1;
    d = d + s.d_obs_dd;
    dm = dm + s.d_max_dd;
    for (int b = 0; b < kBaselines; ++b) w[b] = w[b] + chance_disagreement(b, s.p_dd, s.q_dd);
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
      if (!(c.w[b] > 0.0)) c.reason[b] = kAllConstant;
    }
  }
  return c;
}

// Eq. 6 weights: chance disagreements normalised to sum to 1 over the
// pairable labels (NaN elsewhere), summed in long double as R's colSums().
inline std::vector<double> label_weights(const std::vector<LabelSummary>& labels, int baseline) {
  std::vector<double> out(labels.size());
  long double total = 0.0L;
  for (std::size_t j = 0; j < labels.size(); ++j) {
    out[j] = label_chance_disagreement(labels[j], baseline);
    if (!std::isnan(out[j])) total += out[j];
  }
  const double sum = static_cast<double>(total);
  for (double& w : out) w = sum > 0.0 ? w / sum : kNA;
  return out;
}

// An item's coefficient against a corpus chance disagreement w (section 3.2;
// its disagreement: item_disagreement() in tally.h).
inline double item_coefficient(double d_obs, double w) {
  return (w > 0.0) ? 1.0 - d_obs / w : kNA;
}

// An annotator pair's pooled-marginal coefficient from its label counts
// (pairs.h): the kernel's value on the two-annotator subset.
struct PairEstimate {
  double n_decisions = 0, agree = 0, n_labels_used = 0;
  double d_obs = kNA, w = kNA, observed = kNA, estimate = kNA;
};

template <typename L>
PairEstimate pooled_pair(const L* labels, std::size_t k) {
  PairEstimate e;
  double dis = 0, d_sum = 0, w_sum = 0;
  for (std::size_t j = 0; j < k; ++j) {
    const double n2 = labels[j].n2;
    e.n_decisions += n2;
    dis += labels[j].dis;
    if (labels[j].n2 == 0) continue;
    const double prev =
        static_cast<double>(labels[j].psum) / (2.0 * static_cast<double>(labels[j].n1));
    e.n_labels_used += 1;
    d_sum += static_cast<double>(labels[j].dis) / n2;
    w_sum += 2.0 * prev * (1.0 - prev);
  }
  e.agree = e.n_decisions - dis;
  if (e.n_labels_used > 0) {
    e.d_obs = d_sum / e.n_labels_used;
    e.w = w_sum / e.n_labels_used;
  }
  e.observed = ratio_or_nan(e.agree, e.n_decisions);
  e.estimate = coefficient(e.d_obs, e.w);
  return e;
}

// Pooled over pairs (agreement over joint decisions, coefficients weighted
// by shared items); long double sums in pair order, as R's sum().
struct PairPool {
  long double agree = 0, n_decisions = 0, weighted = 0, weight = 0;
  void add(const PairEstimate& e, double n_items) {
    agree += e.agree;
    n_decisions += e.n_decisions;
    if (std::isnan(e.estimate)) return;
    weighted += e.estimate * n_items;
    weight += n_items;
  }
  double observed() const {
    return ratio_or_nan(static_cast<double>(agree), static_cast<double>(n_decisions));
  }
  double estimate() const {
    return ratio_or_nan(static_cast<double>(weighted), static_cast<double>(weight));
  }
};

// Hamming alpha from a label table, pooled over labels (DESIGN.md); sums and
// means in long double, as R's colSums() and mean().
struct HammingAlpha {
  double observed = kNA, expected = kNA, n_labels_used = 0;
};

namespace detail {
// R's mean() of doubles: a long double sum, refined by a second pass.
inline double r_mean(const std::vector<double>& x) {
  const long double n = static_cast<long double>(x.size());
  long double s = 0.0L;
  for (double v : x) s += v;
  s /= n;
  if (std::isfinite(static_cast<double>(s))) {
    long double t = 0.0L;
    for (double v : x) t += (v - s);
    s += t / n;
  }
  return static_cast<double>(s);
}

// Label j's binary alpha: observed and expected disagreement over the
// pairable values; false (outputs untouched) when no item has two decisions.
template <typename Count>
bool binary_alpha(const CountTable<Count>& t, std::size_t j, double& d_obs, double& d_exp) {
  long double n = 0.0L, n1 = 0.0L, dis = 0.0L;
  for (std::size_t slot = 1; slot < t.max_m; ++slot) {
    const double m = static_cast<double>(slot + 1);
    const std::size_t at = j * t.max_m + slot;
    n += static_cast<double>(t.cnt[at]) * m;
    n1 += static_cast<double>(t.sx[at]);
    dis += static_cast<double>(t.sdis[at]) * (2.0 / (m - 1.0));
  }
  const double nd = static_cast<double>(n), n1d = static_cast<double>(n1);
  if (!(nd > 0.0)) return false;
  d_obs = static_cast<double>(dis) / nd;
  d_exp = nd > 1.0 ? 2.0 * n1d * (nd - n1d) / (nd * (nd - 1.0)) : 0.0;
  return true;
}
}  // namespace detail

template <typename Count>
HammingAlpha hamming_alpha(const CountTable<Count>& t) {
  std::vector<double> observed, expected;
  for (std::size_t j = 0; j < t.n_labels; ++j) {
    double d_obs, d_exp;
    if (!detail::binary_alpha(t, j, d_obs, d_exp)) continue;
    observed.push_back(d_obs);
    expected.push_back(d_exp);
  }
  HammingAlpha a;
  a.n_labels_used = static_cast<double>(observed.size());
  if (observed.empty()) return a;
  a.observed = detail::r_mean(observed);
  a.expected = detail::r_mean(expected);
  return a;
}

}  // namespace mlagreement

#endif
