// Percent agreement and positive / negative specific agreement: analytic
// standard errors, item bootstrap replicates and leave-one-unit-out values
// from each item's (m, x) on a label.
// See DESIGN.md, Algorithms: Percent and specific agreement.
#ifndef MLAGREEMENT_AGREEMENT_SHARES_H
#define MLAGREEMENT_AGREEMENT_SHARES_H

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "boot_units.h"
#include "estimators.h"
#include "influence.h"
#include "rng.h"

namespace mlagreement {

enum Share { kObserved = 0, kPositive = 1, kNegative = 2, kShares = 3 };

struct ShareInfluence {
  double estimate[kShares] = {kNA, kNA, kNA};
  double sum_sq[kShares] = {kNA, kNA, kNA};
  double n = 0;
};

namespace detail {
// A label's percent and specific agreement sums, fed as
// LabelCoefficientSums (influence.h).
class LabelShareSums {
 public:
  explicit LabelShareSums(const LabelSummary& s)
      : n_(s.n_rated), pos_den_(s.pos_den), neg_den_(s.neg_den) {
    out_.n = s.n_rated;
    if (!(s.n_pairable > 0)) return;
    out_.estimate[kObserved] = 1.0 - s.d_obs;
    out_.estimate[kPositive] = ratio_or_nan(s.pos_num, s.pos_den);
    out_.estimate[kNegative] = ratio_or_nan(s.neg_num, s.neg_den);
    active_ = s.n_rated > 1;
    scale_ = s.n_rated / s.n_pairable;
  }
  bool active() const { return active_; }
  void add(double x, double m, double items) {
    const double y = m - x, n = n_;
    double dev[kShares];
    dev[kObserved] = (m >= 2 ? scale_ * (1.0 - 2.0 * x * y / (m * (m - 1.0))) : 0.0) -
                     out_.estimate[kObserved];
    // t_i - est = n (a_i - est b_i) / B, zero for items with m = 1
    dev[kPositive] = m >= 2 ? n * (x * (x - 1.0) - out_.estimate[kPositive] * x * (m - 1.0)) / pos_den_ : 0.0;
    dev[kNegative] = m >= 2 ? n * (y * (y - 1.0) - out_.estimate[kNegative] * y * (m - 1.0)) / neg_den_ : 0.0;
    for (int k = 0; k < kShares; ++k) sum_[k] += static_cast<long double>(items) * dev[k] * dev[k];
  }
  ShareInfluence result() const {
    ShareInfluence out = out_;
    if (!active_) return out;
    for (int k = 0; k < kShares; ++k) {
      if (!std::isnan(out.estimate[k])) out.sum_sq[k] = static_cast<double>(sum_[k]);
    }
    return out;
  }

 private:
  double n_, pos_den_, neg_den_;
  ShareInfluence out_;
  bool active_ = false;
  double scale_ = 0;
  long double sum_[kShares] = {0.0L, 0.0L, 0.0L};
};
}  // namespace detail

// Label j's coefficient sums (every baseline) and share sums from one read
// of its cells; s: the kernel's summary of label j.
struct LabelInfluence {
  Influence coefficient;
  ShareInfluence shares;
};

template <typename Cells>
LabelInfluence label_influence(const Cells& c, std::size_t j, const LabelSummary& s) {
  detail::LabelCoefficientSums coefficient(s);
  detail::LabelShareSums shares(s);
  if (coefficient.active() || shares.active()) {
    detail::for_each_rated_cell(c, j, [&](double x, double m, double items) {
      coefficient.add(x, m, items);
      shares.add(x, m, items);
    });
  }
  return {coefficient.result(), shares.result()};
}

// Corpus percent agreement comes with the coefficients: corpus_influence()
// and single_label_influence() (influence.h).

// Per-item parts of specific agreement (items x labels; zero unless m >= 2):
// a = x (x - 1), b = x (m - 1), and the same for the negatives.
struct SpecificItems {
  std::size_t n_items = 0, n_labels = 0;
  std::vector<double> pos_a, pos_b, neg_a, neg_b;
};

inline SpecificItems specific_items(const int* x, const int* m, std::size_t n_items, std::size_t n_labels) {
  SpecificItems it;
  it.n_items = n_items;
  it.n_labels = n_labels;
  const std::size_t cells = n_items * n_labels;
  it.pos_a.assign(cells, 0.0);
  it.pos_b.assign(cells, 0.0);
  it.neg_a.assign(cells, 0.0);
  it.neg_b.assign(cells, 0.0);
  for (std::size_t c = 0; c < cells; ++c) {
    if (m[c] < 2) continue;
    const double mc = m[c], xc = x[c], yc = mc - xc;
    it.pos_a[c] = xc * (xc - 1.0);
    it.pos_b[c] = xc * (mc - 1.0);
    it.neg_a[c] = yc * (yc - 1.0);
    it.neg_b[c] = yc * (mc - 1.0);
  }
  return it;
}

// Positive (columns 0 .. k - 1) and negative (k .. 2k - 1) agreement for
// item multiplicities v (nullptr: once) into out[col * stride].
template <typename V>
void specific_values(const SpecificItems& it, const V* v, double* out, std::size_t stride) {
  const std::size_t n = it.n_items, k = it.n_labels;
  for (std::size_t j = 0; j < k; ++j) {
    double pa = 0, pb = 0, na = 0, nb = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double w = v == nullptr ? 1.0 : static_cast<double>(v[i]);
      if (w == 0.0) continue;
      const std::size_t c = j * n + i;
      pa += w * it.pos_a[c];
      pb += w * it.pos_b[c];
      na += w * it.neg_a[c];
      nb += w * it.neg_b[c];
    }
    out[j * stride] = ratio_or_nan(pa, pb);
    out[(k + j) * stride] = ratio_or_nan(na, nb);
  }
}

// Item bootstrap replicates of one stream (out: n_rep x 2k).
inline void specific_replicates(const SpecificItems& it, const UnitDesign& u, std::uint64_t seed,
                                int stream, std::size_t n_rep, double* out) {
  for_each_item_draw(u, seed, stream, n_rep, [&](std::size_t r, const std::uint32_t* iw) {
    specific_values(it, iw, out + r, n_rep);
  });
}

// Leave-one-unit-out values by subtraction from the full sums (n_units x 2k).
inline void specific_jackknife(const SpecificItems& it, std::size_t n_units, const int* unit_start,
                               const int* unit_items, double* out) {
  const std::size_t n = it.n_items, k = it.n_labels;
  std::vector<double> full(4 * k, 0.0);  // pos_a, pos_b, neg_a, neg_b per label
  for (std::size_t j = 0; j < k; ++j) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t c = j * n + i;
      full[4 * j] += it.pos_a[c];
      full[4 * j + 1] += it.pos_b[c];
      full[4 * j + 2] += it.neg_a[c];
      full[4 * j + 3] += it.neg_b[c];
    }
  }
  for (std::size_t u = 0; u < n_units; ++u) {
    for (std::size_t j = 0; j < k; ++j) {
      double s[4] = {full[4 * j], full[4 * j + 1], full[4 * j + 2], full[4 * j + 3]};
      for (int t = unit_start[u]; t < unit_start[u + 1]; ++t) {
        const std::size_t c = j * n + static_cast<std::size_t>(unit_items[t]);
        s[0] -= it.pos_a[c];
        s[1] -= it.pos_b[c];
        s[2] -= it.neg_a[c];
        s[3] -= it.neg_b[c];
      }
      out[j * n_units + u] = ratio_or_nan(s[0], s[1]);
      out[(k + j) * n_units + u] = ratio_or_nan(s[2], s[3]);
    }
  }
}

}  // namespace mlagreement

#endif
