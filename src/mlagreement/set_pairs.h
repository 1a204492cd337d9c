// Annotator-pair comparison measures of the paper: Augmented kappa, Am and
// boot-F1, from the label sets of the records. Pure C++: no R headers.
#ifndef MLAGREEMENT_SET_PAIRS_H
#define MLAGREEMENT_SET_PAIRS_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include <xoshiro.h>

#include "sets.h"

namespace mlagreement {

// ---------------------------------------------------------------------------
// Annotator-pair measures: Augmented kappa, Am, boot-F1.

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

// k_used: size of the label inventory of Am (labels selected at least once).
// Chance of boot-F1: in each of R replicates, both annotators' sets on the
// shared items are drawn with replacement (independently) from their own
// sets on those items; pair p uses its own generator stream, seeded from
// (seed, p), so results do not depend on the number of threads.
inline PairMeasures pair_measures(const SetData& d, std::size_t n_labels, int k_used,
                                  int R, std::uint64_t seed, int threads) {
  PairMeasures out;
  const std::size_t G = d.n_items();
  // Enumerate the annotator pairs of every item.
  std::unordered_map<std::uint64_t, int> index;
  std::vector<std::pair<int, int>> pairs;
  std::vector<int> entry_pair;
  std::vector<int> entry_sa, entry_sb;
  for (std::size_t g = 0; g < G; ++g) {
    for (std::size_t r = d.start[g]; r < d.start[g + 1]; ++r) {
      for (std::size_t q = r + 1; q < d.start[g + 1]; ++q) {
        int aa = d.rec_annotator[r], bb = d.rec_annotator[q];
        int sa = d.rec_set[r], sb = d.rec_set[q];
        if (aa > bb) {
          std::swap(aa, bb);
          std::swap(sa, sb);
        }
        const std::uint64_t key = (static_cast<std::uint64_t>(aa) << 32) | static_cast<std::uint32_t>(bb);
        auto it = index.find(key);
        int p;
        if (it == index.end()) {
          p = static_cast<int>(pairs.size());
          index.emplace(key, p);
          pairs.emplace_back(aa, bb);
        } else {
          p = it->second;
        }
        entry_pair.push_back(p);
        entry_sa.push_back(sa);
        entry_sb.push_back(sb);
      }
    }
  }
  // Order pairs by (a, b) and group the entries by pair.
  const std::size_t P = pairs.size();
  std::vector<int> order(P);
  for (std::size_t p = 0; p < P; ++p) order[p] = static_cast<int>(p);
  std::sort(order.begin(), order.end(), [&](int u, int v) { return pairs[u] < pairs[v]; });
  std::vector<int> rank(P);
  for (std::size_t p = 0; p < P; ++p) rank[static_cast<std::size_t>(order[p])] = static_cast<int>(p);
  std::vector<std::size_t> pstart(P + 1, 0);
  for (int p : entry_pair) ++pstart[static_cast<std::size_t>(rank[static_cast<std::size_t>(p)]) + 1];
  for (std::size_t p = 0; p < P; ++p) pstart[p + 1] += pstart[p];
  std::vector<int> esa(entry_pair.size()), esb(entry_pair.size());
  {
    std::vector<std::size_t> fill(pstart.begin(), pstart.end() - 1);
    for (std::size_t e = 0; e < entry_pair.size(); ++e) {
      const std::size_t p = static_cast<std::size_t>(rank[static_cast<std::size_t>(entry_pair[e])]);
      esa[fill[p]] = entry_sa[e];
      esb[fill[p]] = entry_sb[e];
      ++fill[p];
    }
  }
  out.a.resize(P);
  out.b.resize(P);
  out.n_shared.resize(P);
  out.f1_observed.resize(P);
  out.f1_chance.resize(P);
  out.ak_observed.resize(P);
  out.ak_expected.resize(P);
  out.am_observed.resize(P);
  out.am_expected.resize(P);
  const double kk = static_cast<double>(k_used);
  const double label_pairs = kk * (kk - 1.0) / 2.0;
  const std::int64_t PP = static_cast<std::int64_t>(P);
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
#endif
  for (std::int64_t pi = 0; pi < PP; ++pi) {
    const std::size_t p = static_cast<std::size_t>(pi);
    const std::size_t b = pstart[p], e = pstart[p + 1];
    const double n = static_cast<double>(e - b);
    std::vector<double> wa(n_labels + 1, 0.0), wb(n_labels + 1, 0.0);  // last slot: empty set
    double dice = 0, po = 0, ao = 0;
    double va[3] = {0, 0, 0}, vb[3] = {0, 0, 0};
    auto add_weights = [&](int s, std::vector<double>& w) {
      const int sz = d.size[s];
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
    };
    auto add_values = [&](int sz, double* v) {
      const double s = sz, rest = kk - sz;
      v[0] += rest * (rest - 1.0) / 2.0;
      v[1] += s * rest;
      v[2] += s * (s - 1.0) / 2.0;
    };
    for (std::size_t q = b; q < e; ++q) {
      const int s = esa[q], t = esb[q];
      const int A = d.size[s], B = d.size[t];
      const int i = d.intersect(s, t);
      dice += dice_similarity(A, B, i);
      if (A == 0 && B == 0) {
        po += 1.0;
      } else if (A > 0 && B > 0) {
        po += static_cast<double>(i) / (static_cast<double>(A) * B);
      }
      add_weights(s, wa);
      add_weights(t, wb);
      const double n10 = A - i, n01 = B - i, z = kk - n10 - n01;
      ao += z * (z - 1.0) / 2.0 + n10 * n01;
      add_values(A, va);
      add_values(B, vb);
    }
    double pe = 0;
    for (std::size_t j = 0; j <= n_labels; ++j) pe += (wa[j] / n) * (wb[j] / n);
    double ae = 0;
    if (label_pairs > 0) {
      for (int v = 0; v < 3; ++v) ae += (va[v] / (n * label_pairs)) * (vb[v] / (n * label_pairs));
    }
    // boot-F1 chance.
    dqrng::xoshiro256plus rng(detail::mix64(seed + 0x9e3779b97f4a7c15ULL * (p + 1)));
    const std::uint32_t range = static_cast<std::uint32_t>(e - b);
    double chance = 0;
    for (int rep = 0; rep < R; ++rep) {
      double acc = 0;
      for (std::size_t q = 0; q < e - b; ++q) {
        const int s = esa[b + detail::bounded(rng, range)];
        const int t = esb[b + detail::bounded(rng, range)];
        acc += dice_similarity(d.size[s], d.size[t], s == t ? d.size[s] : d.intersect(s, t));
      }
      chance += acc / n;
    }
    out.a[p] = pairs[static_cast<std::size_t>(order[p])].first;
    out.b[p] = pairs[static_cast<std::size_t>(order[p])].second;
    out.n_shared[p] = n;
    out.f1_observed[p] = dice / n;
    out.f1_chance[p] = R > 0 ? chance / R : 0.0;
    out.ak_observed[p] = po / n;
    out.ak_expected[p] = pe;
    out.am_observed[p] = label_pairs > 0 ? ao / (n * label_pairs) : 0.0;
    out.am_expected[p] = ae;
  }
  (void)threads;
  return out;
}

}  // namespace mlagreement

#endif
