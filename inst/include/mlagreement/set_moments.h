// Pair counts by intersection size from label-subset counts, exactly: the
// shared steps of the subset-counting methods of set_expected.h.
// See DESIGN.md, Algorithms: Expected set disagreement.
#ifndef MLAGREEMENT_SET_MOMENTS_H
#define MLAGREEMENT_SET_MOMENTS_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "sets.h"
#include "uint128.h"
#include "threads.h"

namespace mlagreement {

namespace detail {

// Subset counting takes at most 22 labels in use: codes fit 32 bits, low
// halves 16 bits, and the work (up to 2^k per set) stays bounded.
constexpr std::size_t kMaxSubsetLabels = 22;
constexpr double kCountingBytes = 256.0 * 1024 * 1024;  // memory cap of hashed counting's rows

// Distinct sets recoded to the labels in use (numbered by decreasing
// frequency, so the low bits hold the most frequent), with size classes.
struct CompactSets {
  std::size_t k = 0;                // labels in use
  std::vector<std::uint64_t> code;  // per distinct set (filled when k <= 64)
  std::vector<int> cls_size;        // set sizes present, ascending
  std::size_t max_size = 0;         // largest set
  std::vector<int> cls_of_size;     // class of each size 0..largest, -1 when absent
  double sum_pow = 0;               // sum over distinct sets of 2^|s|
};

// How many distinct sets hold each label (nw * 64 slots).
inline std::vector<std::size_t> label_frequencies(const SetData& d) {
  const std::size_t S = d.n_sets(), nw = d.n_words;
  std::vector<std::size_t> freq(nw * 64, 0);
  if (nw != 1) {
    for (std::size_t s = 0; s < S; ++s) {
      for (std::size_t w = 0; w < nw; ++w) {
        for (std::uint64_t m = d.bits[s * nw + w]; m; m &= m - 1) {
          ++freq[w * 64 + static_cast<std::size_t>(ctz64(m))];
        }
      }
    }
    return freq;
  }
  // one word: histograms of the byte values, then the labels from those
  // (looping over the bits of each set mispredicts on every set)
  std::uint64_t any = 0U;
  for (std::size_t s = 0; s < S; ++s) any |= d.bits[s];
  std::size_t nb = 0;  // bytes in use
  while (nb < 8 && (any >> (8 * nb)) != 0U) ++nb;
  std::vector<std::size_t> bytes(8 * 256, 0);
  for (std::size_t s = 0; s < S; ++s) {
    const std::uint64_t x = d.bits[s];
    for (std::size_t q = 0; q < nb; ++q) ++bytes[q * 256 + ((x >> (8 * q)) & 0xffU)];
  }
  for (std::size_t q = 0; q < nb; ++q) {
    for (std::size_t v = 1; v < 256; ++v) {
      for (std::size_t bit = 0; bit < 8; ++bit) {
        if ((v >> bit) & 1U) freq[q * 8 + bit] += bytes[q * 256 + v];
      }
    }
  }
  return freq;
}

// The size classes of the distinct sets and the sum of 2^|s|.
inline void size_classes(const SetData& d, CompactSets& c) {
  std::vector<std::size_t> n_of_size;
  for (int a : d.size) {
    const std::size_t aa = static_cast<std::size_t>(a);
    if (aa >= n_of_size.size()) n_of_size.resize(aa + 1, 0);
    ++n_of_size[aa];
  }
  c.cls_of_size.assign(n_of_size.size(), -1);
  for (std::size_t a = 0; a < n_of_size.size(); ++a) {
    if (n_of_size[a] == 0) continue;
    c.cls_of_size[a] = static_cast<int>(c.cls_size.size());
    c.cls_size.push_back(static_cast<int>(a));
    c.sum_pow += static_cast<double>(n_of_size[a]) * std::ldexp(1.0, static_cast<int>(a));
  }
  c.max_size = c.cls_of_size.empty() ? 0 : c.cls_of_size.size() - 1;
}

// c.code: each distinct set over the labels in use, label used[p] -> bit p (k <= 64).
inline void recode_sets(const SetData& d, const std::vector<std::size_t>& used, CompactSets& c) {
  const std::size_t S = d.n_sets(), nw = d.n_words;
  std::vector<std::uint64_t> bit_of(nw * 64, 0U);
  for (std::size_t p = 0; p < c.k; ++p) bit_of[used[p]] = std::uint64_t{1} << p;
  c.code.assign(S, 0U);
  if (nw != 1) {
    for (std::size_t s = 0; s < S; ++s) {
      std::uint64_t code = 0U;
      for (std::size_t w = 0; w < nw; ++w) {
        for (std::uint64_t m = d.bits[s * nw + w]; m; m &= m - 1) {
          code |= bit_of[w * 64 + static_cast<std::size_t>(ctz64(m))];
        }
      }
      c.code[s] = code;
    }
    return;
  }
  // one word: the new code byte by byte from tables (no loop over bits)
  std::size_t n_bytes = 0;
  for (std::size_t p = 0; p < c.k; ++p) n_bytes = std::max(n_bytes, used[p] / 8 + 1);
  std::vector<std::uint64_t> by_byte(n_bytes * 256, 0U);
  for (std::size_t q = 0; q < n_bytes; ++q) {
    for (std::size_t v = 1; v < 256; ++v) {
      std::uint64_t code = 0U;
      for (std::size_t bit = 0; bit < 8; ++bit) {
        if ((v >> bit) & 1U) code |= bit_of[q * 8 + bit];
      }
      by_byte[q * 256 + v] = code;
    }
  }
  for (std::size_t s = 0; s < S; ++s) {
    const std::uint64_t x = d.bits[s];
    std::uint64_t code = 0U;
    for (std::size_t q = 0; q < n_bytes; ++q) code |= by_byte[q * 256 + ((x >> (8 * q)) & 0xffU)];
    c.code[s] = code;
  }
}

inline CompactSets compact_sets(const SetData& d) {
  CompactSets c;
  const std::vector<std::size_t> freq = label_frequencies(d);
  std::vector<std::size_t> used;
  for (std::size_t j = 0; j < freq.size(); ++j) {
    if (freq[j] > 0) used.push_back(j);
  }
  std::stable_sort(used.begin(), used.end(),
                   [&](std::size_t u, std::size_t v) { return freq[u] > freq[v]; });
  c.k = used.size();
  size_classes(d, c);
  if (c.k <= 64) recode_sets(d, used, c);
  return c;
}

// N(a, b, i) for size classes x <= y (sizes a = cls_size[x] <= b), at
// (x * W + y) * K1 + i, K1 = largest size + 1.
struct PairHistogram {
  std::size_t W = 0, K1 = 0;
  std::vector<std::uint64_t> n;
};

// Whether n^2 binom(k, floor(k / 2)) < 2^64 (k: the largest set size), so
// that every C(q, a, b) and every partial sum of it fits 64 bits.
inline bool moments_fit_64(double n_values, std::size_t k) {
  std::uint64_t binom = 1;
  for (std::size_t j = 1; j <= k / 2; ++j) binom = binom * (k - k / 2 + j) / j;
  const std::uint64_t n = static_cast<std::uint64_t>(n_values);
  const U128 nn = mul_64x64(n, n);
  if (nn.hi != 0) return false;
  return mul_64x64(nn.lo, binom).hi == 0;
}

// cq[x * W + y] += row[x] row[y] for x <= y over the non-zero range; the
// 64-bit version (32-bit counts into 64-bit sums) vectorises.
template <typename Cell>
inline void accumulate_row(const std::uint32_t* row, std::size_t W, Cell* cq) {
  std::size_t lo = 0, hi = W;
  while (lo < hi && row[lo] == 0U) ++lo;
  while (hi > lo && row[hi - 1] == 0U) --hi;
  for (std::size_t x = lo; x < hi; ++x) {
    const std::uint64_t vx = row[x];
    if (vx == 0U) continue;
    Cell* cx = cq + x * W;
#ifdef _OPENMP
#pragma omp simd
#endif
    for (std::size_t y = x; y < hi; ++y) add_product(cx[y], vx, row[y]);
  }
}

// C(q, x, y) += T_x[Q] T_y[Q] over rows Q (|Q| = q_of(r)), C at
// (q * W + x) * W + y; per-thread integer sums.
template <typename Cell, typename QOf>
void accumulate_rows(const std::uint32_t* rows, std::size_t n_rows, std::size_t W, std::size_t K1,
                     QOf q_of, int threads, std::vector<U128>& C) {
  const std::size_t cells = K1 * W * W;
  const int nt = team_size(threads);
  std::vector<Cell> acc(static_cast<std::size_t>(nt) * cells);
  const std::int64_t R = static_cast<std::int64_t>(n_rows);
#ifdef _OPENMP
#pragma omp parallel num_threads(nt)
#endif
  {
    Cell* a = acc.data() + static_cast<std::size_t>(thread_slot()) * cells;
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
    for (std::int64_t r = 0; r < R; ++r) {
      if (interrupted_at(r, 64)) continue;  // the result is discarded
      accumulate_row(rows + static_cast<std::size_t>(r) * W, W,
                     a + static_cast<std::size_t>(q_of(static_cast<std::size_t>(r))) * W * W);
    }
  }
  C.assign(cells, U128());
  for (int t = 0; t < nt; ++t) {
    for (std::size_t c = 0; c < cells; ++c) add_to(C[c], acc[static_cast<std::size_t>(t) * cells + c]);
  }
}

// N(a, b, i) = sum_{q >= i} (-1)^(q - i) binom(q, i) C(q, a, b), in 128 bits.
// Returns false if a result is negative or above 2^64 (cannot happen).
inline bool invert_moments(const std::vector<U128>& C, const CompactSets& c, std::size_t K1,
                           PairHistogram& h) {
  const std::size_t W = c.cls_size.size();
  std::vector<std::uint64_t> binom(K1 * K1, 0);
  for (std::size_t q = 0; q < K1; ++q) {
    binom[q * K1] = 1;
    for (std::size_t i = 1; i <= q; ++i) {
      binom[q * K1 + i] = binom[(q - 1) * K1 + i - 1] + (i < q ? binom[(q - 1) * K1 + i] : 0);
    }
  }
  h.W = W;
  h.K1 = K1;
  h.n.assign(W * W * K1, 0);
  for (std::size_t x = 0; x < W; ++x) {
    const std::size_t a = static_cast<std::size_t>(c.cls_size[x]);
    for (std::size_t y = x; y < W; ++y) {
      for (std::size_t i = 0; i <= a; ++i) {
        U128 pos, neg;
        for (std::size_t q = i; q <= a; ++q) {
          const U128 term = mul_128x64(C[(q * W + x) * W + y], binom[q * K1 + i]);
          add_to((q - i) % 2 == 0 ? pos : neg, term);
        }
        if (less(pos, neg)) return false;
        const U128 r = sub(pos, neg);
        if (r.hi != 0) return false;
        h.n[(x * W + y) * K1 + i] = r.lo;
      }
    }
  }
  return true;
}

}  // namespace detail

}  // namespace mlagreement

#endif
