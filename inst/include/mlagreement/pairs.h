// Pairwise annotator statistics over the items two annotators share, in one
// pass over the items, and per-annotator sums.
// See DESIGN.md, Algorithms: Annotator pairs.
#ifndef MLAGREEMENT_PAIRS_H
#define MLAGREEMENT_PAIRS_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cmath>
#include <vector>

#include "counts.h"
#include "estimators.h"
#include "pair_index.h"

namespace mlagreement {

struct PairResult {
  std::vector<int> a, b;  // 0-based annotators, a < b
  std::vector<double> n_items, n_decisions, agree;
  // d_obs, w, observed, estimate: NaN when undefined (estimator kernel)
  std::vector<double> d_obs, w, n_labels_used, observed, estimate;
  std::vector<double> ann_positives, ann_decisions, ann_items;
  // Per annotator over their pairs, and the per-annotator shares.
  std::vector<double> ann_agree, ann_joint, ann_wsum, ann_esum;
  std::vector<double> ann_prevalence, ann_observed, ann_estimate;
  // Pooled over every pair.
  double pooled_observed = kNA, pooled_estimate = kNA;
};

namespace detail {

// Label counts of one pair: each is at most 2 * n_items < 2^32, so 32-bit
// counters cannot overflow; they halve the memory of designs with many pairs.
struct PairLabel {
  std::uint32_t n2 = 0, dis = 0, n1 = 0, psum = 0;
};

// Visitor of visit_item_pairs(): registers new pairs and adds each
// comparison to its pair's shared items and label counts (k per pair).
template <typename T, typename Codes>
struct PairLabelCounter {
  const RecordView<T>& v;
  const Codes& codes;
  PairResult& out;
  std::vector<PairLabel>& lab;
  std::vector<T> row_r;  // the values of the record being compared
  std::size_t annotator(std::size_t r) const { return v.annotator_of(r); }
  void new_pair(std::uint64_t a, std::uint64_t b) {
    out.a.push_back(static_cast<int>(a));
    out.b.push_back(static_cast<int>(b));
    out.n_items.push_back(0.0);
    lab.resize(lab.size() + v.n_labels);
  }
  void start_record(std::size_t r) {
    for (std::size_t j = 0; j < v.n_labels; ++j) row_r[j] = v.values[j * v.n_records + r];
  }
  void compare(std::size_t pid, std::size_t, std::size_t s) {
    const std::size_t k = v.n_labels, n_rec = v.n_records;
    out.n_items[pid] += 1;
    PairLabel* pl = lab.data() + pid * k;
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
};

// Per annotator: positives, decisions and non-empty records; the non-empty
// records bucketed by item.
template <typename T, typename Codes>
ItemBuckets count_annotators(const RecordView<T>& v, const Codes& codes, PairResult& out) {
  const std::size_t k = v.n_labels, n_rec = v.n_records;
  out.ann_positives.assign(v.n_annotators, 0.0);
  out.ann_decisions.assign(v.n_annotators, 0.0);
  out.ann_items.assign(v.n_annotators, 0.0);
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
  }
  return bucket_by_item(v.n_items, keep, [&v](std::size_t r) { return v.item_of(r); });
}

// Each pair's counts to its statistics by the kernel, summed per annotator.
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

// `interrupted()` is polled about every 2^24 label comparisons; when it is
// true, returns false with `out` incomplete.
template <typename T, typename Codes, typename Interrupted>
bool pair_sums(const RecordView<T>& v, const Codes& codes, PairResult& out,
               Interrupted&& interrupted) {
  const std::size_t k = v.n_labels;
  detail::ItemBuckets items = detail::count_annotators(v, codes, out);
  std::vector<detail::PairLabel> lab;
  detail::PairLabelCounter<T, Codes> counter{v, codes, out, lab, std::vector<T>(k)};
  if (!detail::visit_item_pairs(items, v.n_annotators, k, counter, interrupted)) return false;

  detail::reduce_pairs(lab.data(), k, v.n_annotators, out);
  return true;
}
}  // namespace mlagreement

#endif
