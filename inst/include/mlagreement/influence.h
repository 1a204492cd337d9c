// Analytic standard errors: each item's influence term c_i* (Gwet's
// linearisation over items, as irrCAC, generalised to multi-label corpus
// coefficients), returned as sum_i (c_i* - c)^2; R makes the variance.
// See DESIGN.md, Algorithms: Analytic standard errors.
#ifndef MLAGREEMENT_INFLUENCE_H
#define MLAGREEMENT_INFLUENCE_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cell_codes.h"
#include "estimators.h"
#include "influence_sums.h"
#include "replicate_stats.h"

namespace mlagreement {

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

// Items of each class of column j (side * side bins), chunk by chunk.
template <typename Cells>
std::vector<std::int64_t> class_counts(const Cells& c, std::size_t j) {
  std::vector<std::int64_t> bins(c.side * c.side, 0);
  for (std::size_t start = 0; start < c.n_items; start += kCellChunk) {
    c.add_class_counts(j, start, std::min(kCellChunk, c.n_items - start), bins.data());
  }
  return bins;
}

// f(x, m, items) for the cells of label j with m >= 1: per class weighted by
// its items when the cells carry codes, else per item.
template <typename Cells, typename F>
void for_each_rated_cell(const Cells& c, std::size_t j, F&& f) {
  if (tabulated(c)) {
    const std::vector<std::int64_t> items = class_counts(c, j);
    for (std::size_t code = c.side; code < items.size(); ++code) {
      if (items[code] != 0) {
        f(static_cast<double>(code % c.side), static_cast<double>(code / c.side),
          static_cast<double>(items[code]));
      }
    }
    return;
  }
  for (std::size_t i = 0; i < c.n_items; ++i) {
    const int m = c.m_at(j, i);
    if (m >= 1) f(static_cast<double>(c.x_at(j, i)), static_cast<double>(m), 1.0);
  }
}

// A label's sums of every baseline, fed class by class (add(x, m, items),
// m >= 1) by a read of its cells (label_influence(), agreement_shares.h);
// s: the kernel's summary of the label.
class LabelCoefficientSums {
 public:
  explicit LabelCoefficientSums(const LabelSummary& s) : p_(s.p) {
    out_.n = s.n_rated;
    active_ = s.n_pairable > 0 && s.n_rated > 1;
    if (!active_) return;
    scale_ = s.n_rated / s.n_pairable;
    for (int b = 0; b < kBaselines; ++b) {
      w_[b] = label_chance_disagreement(s, b);
      est_[b] = label_coefficient(s, b);
      slope_[b] = chance_slope(b, s.p);
    }
  }
  bool active() const { return active_; }
  void add(double x, double m, double items) {
    const double pairs = m >= 2 ? pair_disagreement(x, m) : 0.0;
    for (int b = 0; b < kBaselines; ++b) {
      const double obs = m >= 2 ? scale_ * (w_[b] - pairs) / w_[b] : 0.0;
      const double dev = obs - (1.0 - est_[b]) * slope_[b] * (x / m - p_) / w_[b] - est_[b];
      sum_[b] += static_cast<long double>(items) * dev * dev;
    }
  }
  Influence result() const {
    Influence out = out_;
    if (!active_) return out;
    for (int b = 0; b < kBaselines; ++b) {
      if (!std::isnan(est_[b])) out.sum_sq[b] = static_cast<double>(sum_[b]);
    }
    return out;
  }

 private:
  Influence out_;
  bool active_ = false;
  double p_, scale_ = 0, w_[kBaselines] = {0, 0, 0}, est_[kBaselines] = {0, 0, 0},
         slope_[kBaselines] = {0, 0, 0};
  long double sum_[kBaselines] = {0.0L, 0.0L, 0.0L};
};
}  // namespace detail

// Corpus level of a multi-label fit (c_i*: DESIGN.md), and percent
// agreement, the mean over used labels, from the same pass: its cell term
// [m >= 2] scale (1 - d) / n2_j is the coefficients' observed part.
template <typename Cells>
CorpusInfluence corpus_influence(const Cells& c, const std::vector<LabelSummary>& labels,
                                 const CorpusSummary& corpus) {
  const detail::CorpusItems ci = detail::corpus_items(c, labels, corpus);
  if (!ci.ok) return ci.undefined();
  const std::vector<std::size_t>& used = ci.used;
  const double scale = ci.scale;  // n / L
  const double sign[kBaselines] = {1.0, -1.0, 0.0};   // e'_AC1 = -e'_Fleiss, PABAK 0
  const double est[detail::kLanes] = {corpus.estimate[0], corpus.estimate[1], corpus.estimate[2],
                                      1.0 - corpus.d_obs};
  // T_b = scale (obs_b - (1 - c_b) sign_b chance) / W_b, obs_b = [m >= 2] (w_jb - d) / n2_j
  detail::TwoSums form;
  for (int b = 0; b < kBaselines; ++b) {
    form.beta[b] = -scale / corpus.w[b];
    form.gamma[b] = -scale * (1.0 - est[b]) * sign[b] / corpus.w[b];
  }
  form.beta[detail::kObservedLane] = -scale;
  const auto parts = [&](std::size_t u, double m, double x, double* alpha, double& p, double& q) {
    const LabelSummary& s = labels[used[u]];
    q = chance_slope(kFleiss, s.p) / s.n_rated * (x / m - s.p);
    p = m >= 2 ? detail::pair_disagreement(x, m) / s.n_pairable : 0.0;
    for (int b = 0; b < kBaselines; ++b) {
      alpha[b] = m >= 2 ? scale * label_chance_disagreement(s, b) / s.n_pairable / corpus.w[b] : 0.0;
    }
    alpha[detail::kObservedLane] = m >= 2 ? scale / s.n_pairable : 0.0;
  };
  CorpusInfluence f = detail::pooled_influence(c, used, est, form, parts);
  f.coefficient.n = f.observed.n = ci.n;
  return f;
}

// Corpus level of a single-label design (one-hot categories, r = m on every
// category): irrCAC's multi-category formulas (DESIGN.md), and percent
// agreement (est 1 - D_o) from the same pass; pi: the kernel's category
// prevalences; s: summarise_single_label().
template <typename Cells>
CorpusInfluence single_label_influence(const Cells& c, const std::vector<LabelSummary>& labels,
                                       const std::vector<double>& pi, const SingleLabelCorpus& s) {
  CorpusInfluence out;
  const std::size_t q = c.n_labels;
  if (q == 0 || labels.empty()) return out;
  out.coefficient.n = out.observed.n = labels[0].n_rated;
  const double n = labels[0].n_rated;
  if (!(labels[0].n_pairable > 0) || !(n > 1)) return out;
  const double scale = n / labels[0].n_pairable;
  const double factor[kBaselines] = {1.0, q > 1 ? -1.0 / (static_cast<double>(q) - 1.0) : 0.0,
                                     0.0};
  const double est[detail::kLanes] = {s.estimate[0], s.estimate[1], s.estimate[2], 1.0 - s.d_obs};
  std::vector<std::size_t> all(q);
  for (std::size_t k = 0; k < q; ++k) all[k] = k;
  // T_b = [r >= 2] scale ([k = 0] - dis / w_b) - 2 (1 - c_b) factor_b chance / w_b:
  // the observed part scale (w - sum_k dis_k) / w, its constant on category 0
  // (a record's categories sum to one: counted once); percent agreement's
  // [r >= 2] scale ([k = 0] - dis)
  detail::TwoSums form;
  for (int b = 0; b < kBaselines; ++b) {
    form.beta[b] = -scale / s.w[b];
    form.gamma[b] = -2.0 * (1.0 - est[b]) * factor[b] / s.w[b];
  }
  form.beta[detail::kObservedLane] = -scale;
  const auto parts = [&](std::size_t k, double r, double x, double* alpha, double& p, double& q) {
    q = (x / r - pi[k]) * pi[k];
    p = r >= 2 ? x * (r - x) / (r * (r - 1.0)) : 0.0;
    for (int l = 0; l < detail::kLanes; ++l) alpha[l] = r >= 2 && k == 0 ? scale : 0.0;
  };
  CorpusInfluence f = detail::pooled_influence(c, all, est, form, parts);
  f.coefficient.n = f.observed.n = n;
  return f;
}

}  // namespace mlagreement

#endif
