// Pairwise annotator statistics over the items two annotators share.
//
// One pass over the items: the non-empty records of each item are visited
// pair by pair, and for every pair of annotators (a < b) and label j four
// counts are accumulated:
//   n2   items where both decided on j (pairable),
//   dis  of those, items where they disagree,
//   n1   items where at least one of the two decided on j (rated),
//   psum 2 * x / m summed over the rated items (x positives, m decisions),
// plus the number of items the pair shares. Only pairs that share an item are
// ever created, so sparse designs cost sum_i m_i^2 k, never n_annotators^2 k.
// The counts are then reduced to the pair's statistics (as mla() computes them
// on the two-annotator subset): Hamming agreement, label-averaged observed
// disagreement and pooled-marginal chance disagreement.
// Per annotator: positive decisions, decisions and non-empty records.
// Pure C++: no R headers.
#ifndef MLAGREEMENT_PAIRS_H
#define MLAGREEMENT_PAIRS_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cmath>
#include <unordered_map>
#include <vector>

#include "counts.h"
#include "estimators.h"

namespace mlagreement {

struct PairResult {
  std::vector<int> a, b;  // 0-based annotators, a < b
  std::vector<double> n_items, n_decisions, agree;
  // d_obs, w, observed, estimate: NaN when undefined (estimator kernel)
  std::vector<double> d_obs, w, n_labels_used, observed, estimate;
  std::vector<double> ann_positives, ann_decisions, ann_items;
  // Per annotator over their pairs: agreeing and joint decisions, and the
  // shared-item weights and weighted coefficients of the defined pairs, and
  // the three per-annotator shares (NaN when undefined).
  std::vector<double> ann_agree, ann_joint, ann_wsum, ann_esum;
  std::vector<double> ann_prevalence, ann_observed, ann_estimate;
  // Pooled over every pair (agreement over joint decisions; coefficients
  // weighted by shared items).
  double pooled_observed = kNA, pooled_estimate = kNA;
};

namespace detail {

// Label counts of one pair. Each count is bounded by 2 * n_items, and R item
// indices are < 2^31, so 32-bit unsigned counters cannot overflow; they halve
// the memory of designs with very many pairs.
struct PairLabel {
  std::uint32_t n2 = 0, dis = 0, n1 = 0, psum = 0;
};

// Pair index lookup: a dense table for few annotators, a hash map otherwise.
class PairIndex {
 public:
  explicit PairIndex(std::uint64_t n_ann) : n_ann_(n_ann) {
    if (n_ann <= kDenseMax) dense_.assign(n_ann * n_ann, -1);
  }
  // Returns the index of (a, b), or -1 when the pair is new (then registers `next`).
  std::int64_t find_or_add(std::uint64_t a, std::uint64_t b, std::int64_t next) {
    const std::uint64_t key = a * n_ann_ + b;
    if (!dense_.empty()) {
      std::int64_t& slot = dense_[key];
      if (slot >= 0) return slot;
      slot = next;
      return -1;
    }
    auto found = map_.find(key);
    if (found != map_.end()) return found->second;
    map_.emplace(key, next);
    return -1;
  }

 private:
  static constexpr std::uint64_t kDenseMax = 2048;
  std::uint64_t n_ann_;
  std::vector<std::int64_t> dense_;
  std::unordered_map<std::uint64_t, std::int64_t> map_;
};

// Reduces the label counts of each pair (k per pair, in pair order) to its
// statistics with the estimator kernel, and sums them per annotator.
inline void reduce_pairs(const PairLabel* lab, std::size_t k, std::size_t n_annotators,
                         PairResult& out) {
  const std::size_t n_pairs = out.a.size();
  out.n_decisions.assign(n_pairs, 0.0);
  out.agree.assign(n_pairs, 0.0);
  out.d_obs.assign(n_pairs, kNA);
  out.w.assign(n_pairs, kNA);
  out.n_labels_used.assign(n_pairs, 0.0);
  out.observed.assign(n_pairs, kNA);
  out.estimate.assign(n_pairs, kNA);
  out.ann_agree.assign(n_annotators, 0.0);
  out.ann_joint.assign(n_annotators, 0.0);
  out.ann_wsum.assign(n_annotators, 0.0);
  out.ann_esum.assign(n_annotators, 0.0);
  PairPool pool;
  for (std::size_t p = 0; p < n_pairs; ++p) {
    const PairEstimate e = pooled_pair(lab + p * k, k);
    out.n_decisions[p] = e.n_decisions;
    out.agree[p] = e.agree;
    out.n_labels_used[p] = e.n_labels_used;
    out.d_obs[p] = e.d_obs;
    out.w[p] = e.w;
    out.observed[p] = e.observed;
    out.estimate[p] = e.estimate;
    pool.add(e, out.n_items[p]);
    for (int c : {out.a[p], out.b[p]}) {
      const std::size_t cc = static_cast<std::size_t>(c);
      out.ann_agree[cc] += e.agree;
      out.ann_joint[cc] += e.n_decisions;
      if (std::isnan(e.estimate)) continue;
      out.ann_wsum[cc] += out.n_items[p];
      out.ann_esum[cc] += out.n_items[p] * e.estimate;
    }
  }
  out.pooled_observed = pool.observed();
  out.pooled_estimate = pool.estimate();
  out.ann_prevalence.assign(n_annotators, kNA);
  out.ann_observed.assign(n_annotators, kNA);
  out.ann_estimate.assign(n_annotators, kNA);
  for (std::size_t c = 0; c < n_annotators; ++c) {
    out.ann_prevalence[c] = ratio_or_nan(out.ann_positives[c], out.ann_decisions[c]);
    out.ann_observed[c] = ratio_or_nan(out.ann_agree[c], out.ann_joint[c]);
    out.ann_estimate[c] = ratio_or_nan(out.ann_esum[c], out.ann_wsum[c]);
  }
}

}  // namespace detail

// `interrupted()` is polled between items, about every 2^24 label comparisons
// (a fraction of a second); when it returns true the pass stops and
// pair_sums() returns false with `out` incomplete. The work is
// sum_i m_i (m_i - 1) / 2 * k for m_i records of item i, which for dense
// designs with many annotators runs for minutes.
template <typename T, typename Codes, typename Interrupted>
bool pair_sums(const RecordView<T>& v, const Codes& codes, PairResult& out,
               Interrupted&& interrupted) {
  const std::size_t k = v.n_labels;
  const std::size_t n_rec = v.n_records;
  out.ann_positives.assign(v.n_annotators, 0.0);
  out.ann_decisions.assign(v.n_annotators, 0.0);
  out.ann_items.assign(v.n_annotators, 0.0);

  // Non-empty records, bucketed by item (counting sort).
  std::vector<std::size_t> start(v.n_items + 1, 0);
  std::vector<unsigned char> keep(n_rec, 0);
  for (std::size_t r = 0; r < n_rec; ++r) {
    double pos = 0, dec = 0;
    for (std::size_t j = 0; j < k; ++j) {
      const T val = v.values[j * n_rec + r];
      if (!codes.decided(val)) continue;
      dec += 1;
      pos += codes.positive(val);
    }
    if (dec == 0) continue;
    const std::size_t c = v.annotator_of(r);
    keep[r] = 1;
    out.ann_positives[c] += pos;
    out.ann_decisions[c] += dec;
    out.ann_items[c] += 1;
    ++start[v.item_of(r) + 1];
  }
  for (std::size_t i = 0; i < v.n_items; ++i) start[i + 1] += start[i];
  std::vector<std::size_t> fill(start.begin(), start.end() - 1);
  std::vector<std::size_t> order(start[v.n_items]);
  for (std::size_t r = 0; r < n_rec; ++r) {
    if (keep[r]) order[fill[v.item_of(r)]++] = r;
  }

  detail::PairIndex index(v.n_annotators);
  std::vector<detail::PairLabel> lab;
  std::vector<T> row_r(k);
  constexpr std::uint64_t kPollWork = std::uint64_t{1} << 24;
  std::uint64_t work = 0;
  for (std::size_t i = 0; i < v.n_items; ++i) {
    std::size_t* first = order.data() + start[i];
    std::size_t* last = order.data() + start[i + 1];
    const std::uint64_t n_i = static_cast<std::uint64_t>(last - first);
    work += n_i * n_i * k / 2 + 1;
    if (work >= kPollWork) {
      work = 0;
      if (interrupted()) return false;
    }
    std::sort(first, last, [&v](std::size_t r, std::size_t s) {
      return v.annotator_of(r) < v.annotator_of(s);
    });
    for (std::size_t* p = first; p < last; ++p) {
      const std::size_t r = *p;
      const std::uint64_t ar = v.annotator_of(r);
      for (std::size_t j = 0; j < k; ++j) row_r[j] = v.values[j * n_rec + r];
      for (std::size_t* q = p + 1; q < last; ++q) {
        const std::size_t s = *q;
        const std::uint64_t as = v.annotator_of(s);
        if (as == ar) continue;  // cannot happen: one record per (item, annotator)
        const std::int64_t next = static_cast<std::int64_t>(out.a.size());
        std::int64_t pid = index.find_or_add(ar, as, next);
        if (pid < 0) {
          pid = next;
          out.a.push_back(static_cast<int>(ar));
          out.b.push_back(static_cast<int>(as));
          out.n_items.push_back(0.0);
          lab.resize(lab.size() + k);
        }
        out.n_items[static_cast<std::size_t>(pid)] += 1;
        detail::PairLabel* pl = lab.data() + static_cast<std::size_t>(pid) * k;
        for (std::size_t j = 0; j < k; ++j) {
          const T vr = row_r[j];
          const T vs = v.values[j * n_rec + s];
          const bool nr = !codes.decided(vr), ns = !codes.decided(vs);
          if (nr && ns) continue;
          pl[j].n1 += 1;
          if (!nr && !ns) {
            const int xr = codes.positive(vr), xs = codes.positive(vs);
            pl[j].n2 += 1;
            pl[j].dis += (xr != xs);
            pl[j].psum += static_cast<std::uint32_t>(xr + xs);
          } else {
            pl[j].psum += static_cast<std::uint32_t>(2 * (nr ? codes.positive(vs) : codes.positive(vr)));
          }
        }
      }
    }
  }

  detail::reduce_pairs(lab.data(), k, v.n_annotators, out);
  return true;
}

}  // namespace mlagreement

#endif
