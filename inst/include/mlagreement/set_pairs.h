// Annotator-pair comparison measures of the paper: Augmented kappa, Am and
// boot-F1. See DESIGN.md, Algorithms: Label sets.
#ifndef MLAGREEMENT_SET_PAIRS_H
#define MLAGREEMENT_SET_PAIRS_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>
#include <vector>

#include "pair_index.h"
#include "rng.h"
#include "sets.h"
#include "threads.h"

namespace mlagreement {

struct PairMeasures {
  std::vector<int> a, b;               // annotators, a < b
  std::vector<double> n_shared;        // items both annotated (complete records)
  std::vector<double> f1_observed;     // mean Dice over shared items
  std::vector<double> f1_chance;       // mean over replicates of the resampled mean Dice
  std::vector<double> ak_observed;     // Augmented kappa P_o
  std::vector<double> ak_expected;     // Augmented kappa P_e
  std::vector<double> am_observed;     // Am A_o
  std::vector<double> am_expected;     // Am A_e
};

namespace detail {

// The comparisons of each annotator pair (the two records' distinct sets,
// the smaller annotator's first), pairs ordered by (a, b), each in item order.
struct PairSets {
  std::vector<int> a, b;
  std::vector<std::size_t> start;
  std::vector<int> set_a, set_b;
  std::size_t n_pairs() const noexcept { return a.size(); }
};

// Collects the comparisons of visit_item_pairs() (pair_index.h).
struct SetComparisons {
  const SetData& d;
  std::vector<std::pair<int, int>> pairs;  // in order of first appearance
  std::vector<int> pair, set_a, set_b;     // per comparison
  std::size_t annotator(std::size_t r) const { return static_cast<std::size_t>(d.rec_annotator[r]); }
  void new_pair(std::uint64_t a, std::uint64_t b) { pairs.emplace_back(static_cast<int>(a), static_cast<int>(b)); }
  void start_record(std::size_t) {}
  void compare(std::size_t p, std::size_t r, std::size_t s) {
    pair.push_back(static_cast<int>(p));
    set_a.push_back(d.rec_set[r]);
    set_b.push_back(d.rec_set[s]);
  }
};

inline PairSets pair_sets(const SetData& d, std::size_t n_annotators) {
  ItemBuckets items{d.start, std::vector<std::size_t>(d.n_values())};
  for (std::size_t r = 0; r < items.order.size(); ++r) items.order[r] = r;
  SetComparisons seen{d, {}, {}, {}, {}};
  visit_item_pairs(items, n_annotators, 1, seen, [] { return interrupted(); });
  const std::size_t P = seen.pairs.size();
  std::vector<int> order(P);
  for (std::size_t p = 0; p < P; ++p) order[p] = static_cast<int>(p);
  std::sort(order.begin(), order.end(), [&](int u, int v) { return seen.pairs[u] < seen.pairs[v]; });
  std::vector<std::size_t> rank(P);
  PairSets out;
  out.a.resize(P);
  out.b.resize(P);
  for (std::size_t p = 0; p < P; ++p) {
    rank[static_cast<std::size_t>(order[p])] = p;
    out.a[p] = seen.pairs[static_cast<std::size_t>(order[p])].first;
    out.b[p] = seen.pairs[static_cast<std::size_t>(order[p])].second;
  }
  out.start.assign(P + 1, 0);
  for (int p : seen.pair) ++out.start[rank[static_cast<std::size_t>(p)] + 1];
  for (std::size_t p = 0; p < P; ++p) out.start[p + 1] += out.start[p];
  out.set_a.resize(seen.pair.size());
  out.set_b.resize(seen.pair.size());
  std::vector<std::size_t> fill(out.start.begin(), out.start.end() - 1);
  for (std::size_t e = 0; e < seen.pair.size(); ++e) {
    const std::size_t q = fill[rank[static_cast<std::size_t>(seen.pair[e])]]++;
    out.set_a[q] = seen.set_a[e];
    out.set_b[q] = seen.set_b[e];
  }
  return out;
}

// Augmented kappa weights: one unit of mass split over the labels of set s
// (slot n_labels: the empty set).
inline void add_label_weights(const SetData& d, int s, std::size_t n_labels, std::vector<double>& w) {
  const int sz = d.size[static_cast<std::size_t>(s)];
  if (sz == 0) {
    w[n_labels] += 1.0;
    return;
  }
  const double share = 1.0 / sz;
  const std::uint64_t* x = d.bits.data() + static_cast<std::size_t>(s) * d.n_words;
  for (std::size_t word = 0; word < d.n_words; ++word) {
    std::uint64_t bits = x[word];
    std::size_t j = word * 64;
    while (bits) {
      if (bits & 1ULL) w[j] += share;
      bits >>= 1;
      ++j;
    }
  }
}

// Am: label pairs of a set of sz labels among kk by value (neither, one, both).
inline void add_label_pair_values(int sz, double kk, double* v) {
  const double s = sz, rest = kk - sz;
  v[0] += rest * (rest - 1.0) / 2.0;
  v[1] += s * rest;
  v[2] += s * (s - 1.0) / 2.0;
}

// Mean over R replicates of the mean Dice of the comparisons b .. e - 1,
// both sides drawn with replacement (pair p's own stream, rng.h).
inline double boot_f1_chance(const SetData& d, const PairSets& ps, std::size_t p, int R,
                             std::uint64_t seed) {
  const std::size_t b = ps.start[p], e = ps.start[p + 1];
  Rng rng = pair_stream(seed, p);
  const std::uint32_t range = static_cast<std::uint32_t>(e - b);
  double chance = 0;
  for (int rep = 0; rep < R; ++rep) {
    if (interrupted_at(rep, 16)) return 0.0;  // the result is discarded
    double acc = 0;
    for (std::size_t q = 0; q < e - b; ++q) {
      const int s = ps.set_a[b + bounded_u32(rng, range)];
      const int t = ps.set_b[b + bounded_u32(rng, range)];
      acc += dice_similarity(d.size[s], d.size[t], s == t ? d.size[s] : d.intersect(s, t));
    }
    chance += acc / static_cast<double>(e - b);
  }
  return R > 0 ? chance / R : 0.0;
}

// The measures of pair p into slot p of out (sized by the caller).
inline void measure_pair(const SetData& d, const PairSets& ps, std::size_t p, std::size_t n_labels,
                         int k_used, int R, std::uint64_t seed, PairMeasures& out) {
  const std::size_t b = ps.start[p], e = ps.start[p + 1];
  const double n = static_cast<double>(e - b);
  const double kk = static_cast<double>(k_used);
  const double label_pairs = kk * (kk - 1.0) / 2.0;
  std::vector<double> wa(n_labels + 1, 0.0), wb(n_labels + 1, 0.0);  // last slot: empty set
  double dice = 0, po = 0, ao = 0;
  double va[3] = {0, 0, 0}, vb[3] = {0, 0, 0};
  for (std::size_t q = b; q < e; ++q) {
    const int s = ps.set_a[q], t = ps.set_b[q];
    const int A = d.size[s], B = d.size[t];
    const int i = d.intersect(s, t);
    dice += dice_similarity(A, B, i);
    if (A == 0 && B == 0) {
      po += 1.0;
    } else if (A > 0 && B > 0) {
      po += static_cast<double>(i) / (static_cast<double>(A) * B);
    }
    add_label_weights(d, s, n_labels, wa);
    add_label_weights(d, t, n_labels, wb);
    const double n10 = A - i, n01 = B - i, z = kk - n10 - n01;
    ao += z * (z - 1.0) / 2.0 + n10 * n01;
    add_label_pair_values(A, kk, va);
    add_label_pair_values(B, kk, vb);
  }
  double pe = 0;
  for (std::size_t j = 0; j <= n_labels; ++j) pe += (wa[j] / n) * (wb[j] / n);
  double ae = 0;
  if (label_pairs > 0) {
    for (int v = 0; v < 3; ++v) ae += (va[v] / (n * label_pairs)) * (vb[v] / (n * label_pairs));
  }
  out.n_shared[p] = n;
  out.f1_observed[p] = dice / n;
  out.f1_chance[p] = boot_f1_chance(d, ps, p, R, seed);
  out.ak_observed[p] = po / n;
  out.ak_expected[p] = pe;
  out.am_observed[p] = label_pairs > 0 ? ao / (n * label_pairs) : 0.0;
  out.am_expected[p] = ae;
}

}  // namespace detail

// k_used: the label inventory of Am. Throws std::bad_alloc when memory runs
// out.
inline PairMeasures pair_measures(const SetData& d, std::size_t n_labels, std::size_t n_annotators,
                                  int k_used, int R, std::uint64_t seed, int threads) {
  const detail::PairSets ps = detail::pair_sets(d, n_annotators);
  const std::size_t P = ps.n_pairs();
  PairMeasures out;
  out.a = ps.a;
  out.b = ps.b;
  for (std::vector<double>* col : {&out.n_shared, &out.f1_observed, &out.f1_chance, &out.ak_observed,
                                   &out.ak_expected, &out.am_observed, &out.am_expected}) {
    col->resize(P);
  }
  const bool done = parallel_for_each(P, threads, 1, 1, [&](std::size_t p) {
    detail::measure_pair(d, ps, p, n_labels, k_used, R, seed, out);
  });
  if (!done) throw std::bad_alloc();
  return out;
}

}  // namespace mlagreement

#endif
