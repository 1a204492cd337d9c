// Per-label tables and per-item disagreement from the x/m counts of a chunk
// of items, tallied while the chunk is in L1 (dense pass) or from stored
// tables. See DESIGN.md, Algorithms: The counting pass.
#ifndef MLAGREEMENT_TALLY_H
#define MLAGREEMENT_TALLY_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "label_table.h"
#include "threads.h"

namespace mlagreement {

// 2 / (m (m - 1)) for m = 0..max_m (0 where undefined).
inline std::vector<double> pair_factors(std::size_t max_m) {
  std::vector<double> f(max_m + 1, 0.0);
  for (std::size_t m = 2; m <= max_m; ++m) {
    f[m] = 2.0 / (static_cast<double>(m) * static_cast<double>(m - 1));
  }
  return f;
}

// Whether some of m[0 .. len - 1] differs from m[0]: an OR of XORs (SSE2 has
// no 32-bit integer min/max); `omp simd` because -O2's cheap vectoriser
// skips loops with a run-time trip count.
inline bool m_differs(const int* m, std::size_t len) {
  const int m0 = m[0];
  int differ = 0;
#ifdef _OPENMP
#pragma omp simd reduction(| : differ)
#endif
  for (std::size_t i = 1; i < len; ++i) differ |= m[i] ^ m0;
  return differ != 0;
}

// Adds label j's counts of `len` items to the table and to the items'
// disagreement sums (d_sum, n_pairable point at the chunk's first item).
inline void tally_label_chunk(const int* x, const int* m, std::size_t len, std::size_t j,
                              const double* factor, IntTable& t, double* d_sum,
                              int* n_pairable) {
  std::int64_t* cnt = t.cnt.data() + j * t.max_m;
  std::int64_t* sx = t.sx.data() + j * t.max_m;
  std::int64_t* sdis = t.sdis.data() + j * t.max_m;
  if (len == 0) return;
  const int m0 = m[0];
  const bool differ = m_differs(m, len);
  // Common case, every item of the chunk has the same m >= 2 (complete data):
  // branch-free loops the compiler vectorises. x(m - x) < 2^31 for m <= 46340.
  // The sums are integers, so they may be reordered (vectorised) exactly.
  if (!differ && m0 >= 2 && m0 <= 46340) {
    const int mi = m0;
    const double f = factor[mi];
    std::int64_t sum_x = 0, sum_dis = 0;
#ifdef _OPENMP
#pragma omp simd reduction(+ : sum_x, sum_dis)
#endif
    for (std::size_t i = 0; i < len; ++i) {
      const int dis = x[i] * (mi - x[i]);
      sum_x += x[i];
      sum_dis += dis;
      d_sum[i] += static_cast<double>(dis) * f;
      n_pairable[i] += 1;
    }
    const std::size_t slot = static_cast<std::size_t>(mi) - 1;
    cnt[slot] += static_cast<std::int64_t>(len);
    sx[slot] += sum_x;
    sdis[slot] += sum_dis;
    return;
  }
  for (std::size_t i = 0; i < len; ++i) {
    const int mi = m[i];
    if (mi == 0) continue;
    const std::size_t slot = static_cast<std::size_t>(mi) - 1;
    const std::int64_t xi = x[i];
    const std::int64_t dis = xi * (mi - xi);
    cnt[slot] += 1;
    sx[slot] += xi;
    sdis[slot] += dis;
    if (mi >= 2) {
      d_sum[i] += static_cast<double>(dis) * factor[mi];
      n_pairable[i] += 1;
    }
  }
}

// Item level: mean over the item's pairable labels of 2x(m-x)/(m(m-1)), NaN
// without one (section 3.2).
inline double item_disagreement(double d_sum, double n_pairable) {
  return n_pairable > 0.0 ? d_sum / n_pairable : std::numeric_limits<double>::quiet_NaN();
}

// One chunk's per-item sums over its labels: finish() writes each item's
// disagreement, so the pass keeps no per-item sums beside its result.
class ItemChunk {
 public:
  explicit ItemChunk(std::size_t chunk) : d_sum_(chunk), n_pairable_(chunk) {}
  void start(std::size_t len) {
    len_ = len;
    std::fill(d_sum_.begin(), d_sum_.begin() + len, 0.0);
    std::fill(n_pairable_.begin(), n_pairable_.begin() + len, 0);
  }
  double* d_sum() { return d_sum_.data(); }
  int* n_pairable() { return n_pairable_.data(); }
  void finish(double* item_d) const {
    for (std::size_t i = 0; i < len_; ++i) item_d[i] = item_disagreement(d_sum_[i], n_pairable_[i]);
  }

 private:
  std::vector<double> d_sum_;
  std::vector<int> n_pairable_;
  std::size_t len_ = 0;
};

struct TallyOutput {
  IntTable table;
  double* item_disagreement;  // n_items, every one written by the pass
};

// Tallies stored x/m tables (items x labels, column-major) in item chunks.
inline void tally_counts(const int* x, const int* m, std::size_t n_items, std::size_t n_labels,
                         std::size_t max_m, int threads, TallyOutput& out) {
  constexpr std::size_t kChunk = 4096;
  const std::vector<double> factor = pair_factors(max_m);
  const std::int64_t n_chunks = static_cast<std::int64_t>((n_items + kChunk - 1) / kChunk);
  out.table.reset(n_labels, max_m);
  std::vector<IntTable> partial(static_cast<std::size_t>(team_size(threads)));
  for (IntTable& p : partial) p.reset(n_labels, max_m);
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
#endif
  {
    IntTable& mine = partial[static_cast<std::size_t>(thread_slot())];
    ItemChunk items(kChunk);
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
    for (std::int64_t ch = 0; ch < n_chunks; ++ch) {
      const std::size_t start = static_cast<std::size_t>(ch) * kChunk;
      const std::size_t len = std::min(kChunk, n_items - start);
      items.start(len);
      for (std::size_t j = 0; j < n_labels; ++j) {
        tally_label_chunk(x + j * n_items + start, m + j * n_items + start, len, j,
                          factor.data(), mine, items.d_sum(), items.n_pairable());
      }
      items.finish(out.item_disagreement + start);
    }
  }
  for (const IntTable& p : partial) out.table.add(p);
}

}  // namespace mlagreement

#endif
