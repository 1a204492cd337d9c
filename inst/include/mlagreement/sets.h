// Label sets of the records (SetData) and the set similarities, functions of
// (|A|, |B|, |A n B|) only, with their table (SimTable).
// See DESIGN.md, Algorithms: Label sets.
#ifndef MLAGREEMENT_SETS_H
#define MLAGREEMENT_SETS_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "counts.h"

namespace mlagreement {

namespace detail {

inline int popcount64(std::uint64_t x) noexcept {
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
  return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
}

// Index of the lowest set bit of x != 0 (de Bruijn multiplication).
inline int ctz64(std::uint64_t x) noexcept {
  static const unsigned char kIndex[64] = {
      0,  1,  2,  53, 3,  7,  54, 27, 4,  38, 41, 8,  34, 55, 48, 28, 62, 5,  39, 46, 44, 42,
      22, 9,  24, 35, 59, 56, 49, 18, 29, 11, 63, 52, 6,  26, 37, 40, 33, 47, 61, 45, 43, 21,
      23, 58, 17, 10, 51, 25, 36, 32, 60, 20, 57, 16, 50, 31, 19, 15, 30, 14, 13, 12};
  return kIndex[((x & (~x + 1)) * 0x022fdd63cc95386dULL) >> 58];
}

}  // namespace detail

// Similarities of sets of sizes a, b sharing i labels; two empty sets are
// identical, an empty and a non-empty set disjoint.
inline double jaccard_similarity(int a, int b, int i) noexcept {
  const int u = a + b - i;
  return u == 0 ? 1.0 : static_cast<double>(i) / static_cast<double>(u);
}

// MASI (Passonneau 2006): Jaccard x monotonicity (1 identical, 2/3 one set a
// subset of the other, 1/3 overlap, 0 disjoint), with exact thirds.
inline double masi_similarity(int a, int b, int i) noexcept {
  if (i == a && i == b) return 1.0;  // identical, including two empty sets
  if (i == 0) return 0.0;            // disjoint (an empty set is disjoint from any other)
  const double jac = static_cast<double>(i) / static_cast<double>(a + b - i);
  return (i == a || i == b) ? jac * (2.0 / 3.0) : jac * (1.0 / 3.0);
}

// Dice (F1 of one set against the other); two empty sets agree fully.
inline double dice_similarity(int a, int b, int i) noexcept {
  return a + b == 0 ? 1.0 : 2.0 * static_cast<double>(i) / static_cast<double>(a + b);
}

// Similarities from a table when no set exceeds kMaxTabulated labels (a
// look-up instead of a division); the same values as the functions above.
struct SimTable {
  static constexpr int kMaxTabulated = 40;
  std::size_t K1 = 0;
  std::vector<double> jac, masi;
  explicit SimTable(int max_size) {
    if (max_size > kMaxTabulated) return;
    K1 = static_cast<std::size_t>(max_size) + 1;
    jac.assign(K1 * K1 * K1, 0.0);
    masi.assign(K1 * K1 * K1, 0.0);
    for (std::size_t a = 0; a < K1; ++a) {
      for (std::size_t b = 0; b < K1; ++b) {
        for (std::size_t i = 0; i <= std::min(a, b); ++i) {
          const int ia = static_cast<int>(a), ib = static_cast<int>(b), ii = static_cast<int>(i);
          jac[(a * K1 + b) * K1 + i] = jaccard_similarity(ia, ib, ii);
          masi[(a * K1 + b) * K1 + i] = masi_similarity(ia, ib, ii);
        }
      }
    }
  }
  std::size_t at(int a, int b, int i) const noexcept {
    return (static_cast<std::size_t>(a) * K1 + static_cast<std::size_t>(b)) * K1 + static_cast<std::size_t>(i);
  }
  double jaccard(int a, int b, int i) const noexcept {
    return K1 != 0 ? jac[at(a, b, i)] : jaccard_similarity(a, b, i);
  }
  double masi_sim(int a, int b, int i) const noexcept {
    return K1 != 0 ? masi[at(a, b, i)] : masi_similarity(a, b, i);
  }
};

// Missing-value codes of R's storage types (independent of counts.h).
struct SetIntCodes {
  int na;
  bool is_na(int v) const noexcept { return v == na; }
  bool positive(int v) const noexcept { return v == 1; }
};
struct SetRealCodes {
  bool is_na(double v) const noexcept { return v != v; }
  bool positive(double v) const noexcept { return v == 1.0; }
};

// Pairable items only (at least two complete records); bad_record >= 0: a
// record with some but not all labels missing.
struct SetData {
  std::size_t n_words = 0;
  std::vector<std::uint64_t> bits;  // distinct sets, set-major (n_sets x n_words)
  std::vector<int> size;            // labels in each distinct set
  std::vector<double> count;        // pairable records with each distinct set
  std::vector<std::size_t> start;   // pairable item g owns records start[g] .. start[g + 1] - 1
  std::vector<int> rec_set;         // distinct set of each kept record
  std::vector<int> rec_annotator;   // 0-based annotator of each kept record (when asked for)
  std::int64_t bad_record = -1;
  std::size_t n_sets() const noexcept { return size.size(); }
  std::size_t n_items() const noexcept { return start.empty() ? 0 : start.size() - 1; }
  std::size_t n_values() const noexcept { return rec_set.size(); }
  int intersect(int s, int t) const noexcept {
    const std::uint64_t* x = bits.data() + static_cast<std::size_t>(s) * n_words;
    const std::uint64_t* y = bits.data() + static_cast<std::size_t>(t) * n_words;
    int n = 0;
    for (std::size_t w = 0; w < n_words; ++w) n += detail::popcount64(x[w] & y[w]);
    return n;
  }
};

}  // namespace mlagreement

#endif
