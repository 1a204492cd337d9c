// Per-label tables of the sufficient statistics, grouped by the number of
// decisions m an item has on that label. Every label-level and corpus-level
// Hamming estimator is a function of these small tables, so they are what a
// bootstrap replicate recomputes (with item multiplicities as weights).
#ifndef MLAGREEMENT_LABEL_TABLE_H
#define MLAGREEMENT_LABEL_TABLE_H

#include <cstddef>
#include <vector>

namespace mlagreement {

// For label j and m = 1..max_m (slot j * max_m + m - 1):
//   cnt  = items with exactly m decisions,
//   sx   = their positive decisions, sum of x,
//   sdis = sum of x * (m - x), half the disagreeing ordered pairs.
// Sums of integers stay exact in double up to 2^53.
struct LabelTable {
  std::size_t n_labels = 0, max_m = 0;
  std::vector<double> cnt, sx, sdis;
  void reset(std::size_t k, std::size_t mm) {
    n_labels = k;
    max_m = mm;
    cnt.assign(k * mm, 0.0);
    sx.assign(k * mm, 0.0);
    sdis.assign(k * mm, 0.0);
  }
};

// weight: item multiplicities (nullptr = every item once).
inline void fill_label_table(const int* x, const int* m, std::size_t n_items, std::size_t n_labels,
                             std::size_t max_m, const double* weight, LabelTable& t) {
  t.reset(n_labels, max_m);
  for (std::size_t j = 0; j < n_labels; ++j) {
    const int* xj = x + j * n_items;
    const int* mj = m + j * n_items;
    double* cnt = t.cnt.data() + j * max_m;
    double* sx = t.sx.data() + j * max_m;
    double* sdis = t.sdis.data() + j * max_m;
    for (std::size_t i = 0; i < n_items; ++i) {
      const int mi = mj[i];
      if (mi == 0) continue;
      const double w = weight ? weight[i] : 1.0;
      if (w == 0.0) continue;
      const double xi = xj[i];
      const std::size_t slot = static_cast<std::size_t>(mi) - 1;
      cnt[slot] += w;
      sx[slot] += w * xi;
      sdis[slot] += w * xi * static_cast<double>(mi - xj[i]);
    }
  }
}

// Item-level observed disagreement: sum over labels with m >= 2 of
// 2 x (m - x) / (m (m - 1)), and the number of such labels.
inline void item_disagreement(const int* x, const int* m, std::size_t n_items,
                              std::size_t n_labels, double* d_sum, int* n_pairable) {
  for (std::size_t i = 0; i < n_items; ++i) {
    d_sum[i] = 0.0;
    n_pairable[i] = 0;
  }
  for (std::size_t j = 0; j < n_labels; ++j) {
    const int* xj = x + j * n_items;
    const int* mj = m + j * n_items;
    for (std::size_t i = 0; i < n_items; ++i) {
      const double mi = mj[i];
      if (mi < 2) continue;
      const double xi = xj[i];
      d_sum[i] += 2.0 * xi * (mi - xi) / (mi * (mi - 1.0));
      ++n_pairable[i];
    }
  }
}

}  // namespace mlagreement

#endif
