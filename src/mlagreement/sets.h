// Set statistics of a multi-label annotation design.
//
// Krippendorff's alpha with set distances (Jaccard, MASI) and the comparison
// measures of the paper (average pairwise MASI / Jaccard, Augmented kappa,
// Am, boot-F1) need the full label sets, not only the (x, m) tables. Records
// are compressed to bitsets; the (usually few) distinct sets are kept once, so
// the expected disagreement of alpha is O(S^2) in the number S of distinct
// sets, not in the number of records. Every set similarity used here is a
// function of (|A|, |B|, |A n B|) only.
//
// Pure C++: no R headers (dqrng's xoshiro.h is header-only and R-free).
#ifndef MLAGREEMENT_SETS_H
#define MLAGREEMENT_SETS_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include <xoshiro.h>

#include "counts.h"

namespace mlagreement {

namespace detail {

inline int popcount64(std::uint64_t x) noexcept {
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
  return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
}

inline std::uint64_t mix64(std::uint64_t z) noexcept {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Unbiased integer in [0, range) (Lemire 2019, 32-bit multiply with rejection);
// written out so results do not depend on the standard library.
template <typename RNG>
inline std::uint32_t bounded(RNG& rng, std::uint32_t range) {
  std::uint64_t m = (rng() >> 32) * static_cast<std::uint64_t>(range);
  std::uint32_t low = static_cast<std::uint32_t>(m);
  if (low < range) {
    const std::uint32_t threshold = static_cast<std::uint32_t>(-range) % range;
    while (low < threshold) {
      m = (rng() >> 32) * static_cast<std::uint64_t>(range);
      low = static_cast<std::uint32_t>(m);
    }
  }
  return static_cast<std::uint32_t>(m >> 32);
}

}  // namespace detail

// Similarities of two sets with sizes a, b and intersection size i.
// Two empty sets are identical (similarity 1); an empty and a non-empty set
// are disjoint (0).
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

// Missing-value conventions of the storage types R hands us (kept here so the
// set routines do not depend on the counting pass's internals).
struct SetIntCodes {
  int na;
  bool is_na(int v) const noexcept { return v == na; }
  bool positive(int v) const noexcept { return v == 1; }
};
struct SetRealCodes {
  bool is_na(double v) const noexcept { return v != v; }
  bool positive(double v) const noexcept { return v == 1.0; }
};

// The records of a design as label sets. Only items with at least two
// complete records (pairable items) are kept; whole missing records are
// absent, records with some but not all labels missing are an error
// (bad_record >= 0).
struct SetData {
  std::size_t n_words = 0;
  std::vector<std::uint64_t> bits;  // distinct sets, set-major (n_sets x n_words)
  std::vector<int> size;            // labels in each distinct set
  std::vector<double> count;        // pairable records with each distinct set
  std::vector<std::size_t> start;   // pairable item g owns records start[g] .. start[g + 1] - 1
  std::vector<int> rec_set;         // distinct set of each kept record
  std::vector<int> rec_annotator;   // 0-based annotator of each kept record
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

template <typename T, typename Codes>
void build_sets(const RecordView<T>& v, const Codes& codes, SetData& out) {
  const std::size_t k = v.n_labels, n = v.n_records, W = (k + 63) / 64;
  out = SetData();
  out.n_words = W;
  std::vector<std::uint64_t> rbits(n * W, 0);
  std::vector<std::uint32_t> n_na(n, 0);
  for (std::size_t j = 0; j < k; ++j) {
    const T* col = v.values + j * n;
    const std::size_t w = j / 64;
    const std::uint64_t bit = std::uint64_t{1} << (j % 64);
    for (std::size_t r = 0; r < n; ++r) {
      const T val = col[r];
      if (codes.is_na(val)) {
        ++n_na[r];
      } else if (codes.positive(val)) {
        rbits[r * W + w] |= bit;
      }
    }
  }
  std::vector<std::size_t> per_item(v.n_items, 0);
  for (std::size_t r = 0; r < n; ++r) {
    if (n_na[r] == 0) {
      ++per_item[v.item_of(r)];
    } else if (n_na[r] < k) {
      out.bad_record = static_cast<std::int64_t>(r);
      return;
    }
  }
  // Group the complete records of pairable items by item (counting sort).
  std::vector<std::size_t> slot(v.n_items, 0);
  std::size_t total = 0, g = 0;
  out.start.push_back(0);
  for (std::size_t i = 0; i < v.n_items; ++i) {
    if (per_item[i] >= 2) {
      slot[i] = total;
      total += per_item[i];
      out.start.push_back(total);
      ++g;
    } else {
      slot[i] = static_cast<std::size_t>(-1);
    }
  }
  if (g == 0) out.start.clear();
  std::vector<std::size_t> rec(total);
  for (std::size_t r = 0; r < n; ++r) {
    if (n_na[r] != 0) continue;
    const std::size_t i = v.item_of(r);
    if (slot[i] == static_cast<std::size_t>(-1)) continue;
    rec[slot[i]++] = r;
  }
  // Distinct sets by open addressing on the bit words.
  std::size_t cap = 16;
  while (cap < 2 * total + 16) cap <<= 1;
  std::vector<int> table(cap, -1);
  out.rec_set.resize(total);
  out.rec_annotator.resize(total);
  for (std::size_t q = 0; q < total; ++q) {
    const std::size_t r = rec[q];
    const std::uint64_t* x = rbits.data() + r * W;
    std::uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (std::size_t w = 0; w < W; ++w) h = detail::mix64(h ^ x[w]);
    std::size_t pos = static_cast<std::size_t>(h) & (cap - 1);
    int id = -1;
    while (table[pos] >= 0) {
      const std::uint64_t* y = out.bits.data() + static_cast<std::size_t>(table[pos]) * W;
      if (std::equal(x, x + W, y)) {
        id = table[pos];
        break;
      }
      pos = (pos + 1) & (cap - 1);
    }
    if (id < 0) {
      id = static_cast<int>(out.size.size());
      table[pos] = id;
      out.bits.insert(out.bits.end(), x, x + W);
      int s = 0;
      for (std::size_t w = 0; w < W; ++w) s += detail::popcount64(x[w]);
      out.size.push_back(s);
      out.count.push_back(0.0);
    }
    out.count[static_cast<std::size_t>(id)] += 1.0;
    out.rec_set[q] = id;
    out.rec_annotator[q] = static_cast<int>(v.annotator_of(r));
  }
}

}  // namespace mlagreement

#endif
