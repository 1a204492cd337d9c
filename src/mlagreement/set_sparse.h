// Method 2 of set_expected.h: sparse (blocked) subset counting.
//
// The k labels in use are split into kH high and kL = k - kH low bits, so a
// subset is Q = (QH, QL). The rows T[Q] (W size-class counters each, see
// set_moments.h) with one high part QH form a block of at most 2^kL rows,
// small enough for the cache; blocks are independent. Sets are grouped by
// their high part sH; a block QH visits the groups with sH containing QH
// (listed beforehand by enumerating the subsets of every sH), and each set
// of those adds its count to the rows of the subsets of its low part. Then
// the block's rows are multiplied out and cleared. Work: sum_s 2^|s| row
// updates plus, per row, the products of its size classes. A block that
// would take more updates than kL 2^kL W / 8 (the blocks of small QH, which
// most sets visit: on the bench design the block QH = {} alone took half of
// all updates) instead adds each set to the row of its low part only and
// takes the superset sums over the kL low bits (contiguous, vectorised).
//
// What makes it fast (measured on 1e5 records, 20 labels, 25,810 distinct
// sets, 2.6 million updates; bench/alpha.R): branch mispredictions, not
// arithmetic, dominated, so
// * an update is a single add (offsets sub * W precomputed per low part);
//   the rows in use are not marked per update but found afterwards as the
//   down-closure of the marked low parts (a bitmap, kL word-wide passes);
// * within a group the sets are ordered by the size of their low part, so
//   the trip counts of the update loop repeat (predictable loop exits);
// * the products of a row run over the whole range of size classes a
//   subset of that size can meet in the block (zeros included), unrolled
//   for each length of that range, with the rows taken by subset size so
//   the length repeats. Skipping zero classes costs more in mispredictions
//   than the extra multiplications.
//
// Pure C++: no R headers.
#ifndef MLAGREEMENT_SET_SPARSE_H
#define MLAGREEMENT_SET_SPARSE_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "set_moments.h"
#include "sets.h"
#include "threads.h"


namespace mlagreement {

namespace detail {

// Index of the lowest set bit of x != 0.
inline int lowest_bit(std::uint64_t x) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_ctzll(x);
#else
  return ctz64(x);
#endif
}

// cq[x * W + y] += row[x] row[y] for 0 <= x <= y < L, zeros included, with
// the range length L fixed at compile time: fully unrolled, no loop
// branches. row and cq start at the first size class of the range. The row
// is cleared on the way (its entries outside the range are zero already).
template <std::size_t L>
void accumulate_fixed(std::uint32_t* row, std::size_t W, std::uint64_t* cq) {
  std::uint64_t v[L + 1];
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 24
#endif
  for (std::size_t x = 0; x < L; ++x) {
    v[x] = row[x];
    row[x] = 0U;
  }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 24
#endif
  for (std::size_t x = 0; x < L; ++x) {
    std::uint64_t* cx = cq + x * W;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 24
#endif
    for (std::size_t y = x; y < L; ++y) cx[y] += v[x] * v[y];
  }
}
using FixedProducts = void (*)(std::uint32_t*, std::size_t, std::uint64_t*);
// L <= kMaxSubsetLabels + 1 (sizes 0..22)
inline FixedProducts fixed_products(std::size_t L) {
  static const FixedProducts table[kMaxSubsetLabels + 2] = {
      accumulate_fixed<0>,  accumulate_fixed<1>,  accumulate_fixed<2>,  accumulate_fixed<3>,
      accumulate_fixed<4>,  accumulate_fixed<5>,  accumulate_fixed<6>,  accumulate_fixed<7>,
      accumulate_fixed<8>,  accumulate_fixed<9>,  accumulate_fixed<10>, accumulate_fixed<11>,
      accumulate_fixed<12>, accumulate_fixed<13>, accumulate_fixed<14>, accumulate_fixed<15>,
      accumulate_fixed<16>, accumulate_fixed<17>, accumulate_fixed<18>, accumulate_fixed<19>,
      accumulate_fixed<20>, accumulate_fixed<21>, accumulate_fixed<22>, accumulate_fixed<23>};
  return table[L];
}
static_assert(kMaxSubsetLabels == 22, "extend the table of fixed_products()");

// Products of one row over the size classes lo .. hi - 1 (f: fixed_products(hi - lo)),
// then the row cleared.
inline void accumulate_clear(std::uint32_t* row, std::size_t lo, std::size_t W, FixedProducts f,
                             std::uint64_t* cq) {
  f(row + lo, W, cq + lo * W + lo);
}
// 128-bit sums (designs with more than about 2^32 / binom(M, M/2) values):
// skipping zeros pays there.
inline void accumulate_clear(std::uint32_t* row, std::size_t, std::size_t W, FixedProducts, U128* cq) {
  accumulate_row(row, W, cq);
  std::fill(row, row + W, 0U);
}

// Low bits of the split: blocks of 2^kL rows of W counters.
inline std::size_t sparse_low_bits(std::size_t k) { return k / 2; }

template <typename Cell>
bool histogram_sparse(const SetData& d, const CompactSets& c, int threads, PairHistogram& h) {
  const std::size_t W = c.cls_size.size(), K1 = c.cls_of_size.size(), k = c.k;
  const std::size_t kL = sparse_low_bits(k), kH = k - kL;
  const std::uint32_t maskL = (std::uint32_t{1} << kL) - 1U;
  const std::size_t S = d.n_sets();
  const std::size_t nH = std::size_t{1} << kH, nL = std::size_t{1} << kL;
  // sets ordered by (high part, size of the low part) (counting sort), grouped
  const std::size_t nkey = nH * (kL + 1);
  std::vector<std::size_t> kstart(nkey + 1, 0);
  std::vector<std::size_t> key(S);
  for (std::size_t s = 0; s < S; ++s) {
    const std::uint32_t lw = static_cast<std::uint32_t>(c.code[s]) & maskL;
    key[s] = static_cast<std::size_t>(c.code[s] >> kL) * (kL + 1) + static_cast<std::size_t>(popcount64(lw));
    ++kstart[key[s] + 1];
  }
  for (std::size_t b = 0; b < nkey; ++b) kstart[b + 1] += kstart[b];
  std::vector<std::uint32_t> low(S), cls(S), cnt(S);
  {
    std::vector<std::size_t> fill(kstart.begin(), kstart.end() - 1);
    for (std::size_t s = 0; s < S; ++s) {
      const std::size_t p = fill[key[s]]++;
      low[p] = static_cast<std::uint32_t>(c.code[s]) & maskL;
      cls[p] = static_cast<std::uint32_t>(c.cls_of_size[static_cast<std::size_t>(d.size[s])]);
      cnt[p] = static_cast<std::uint32_t>(d.count[s]);
    }
  }
  std::vector<std::size_t> gstart;  // group g owns sets gstart[g] .. gstart[g + 1] - 1
  std::vector<std::uint32_t> ghigh;
  for (std::size_t b = 0; b < nH; ++b) {
    const std::size_t from = kstart[b * (kL + 1)], to = kstart[(b + 1) * (kL + 1)];
    if (from == to) continue;
    gstart.push_back(from);
    ghigh.push_back(static_cast<std::uint32_t>(b));
  }
  gstart.push_back(S);
  const std::size_t G = ghigh.size();
  // updates of each group when its sets add to the subsets of their low parts
  std::vector<std::size_t> gwork(G, 0);
  for (std::size_t g = 0; g < G; ++g) {
    for (std::size_t p = gstart[g]; p < gstart[g + 1]; ++p) gwork[g] += std::size_t{1} << popcount64(low[p]);
  }
  // groups of each block (CSR): the groups whose high part contains QH
  // (subsets of m by sub = (sub - 1) & m: few, no tables needed)
  std::vector<std::size_t> bstart(nH + 1, 0);
  for (std::size_t g = 0; g < G; ++g) {
    const std::uint32_t m = ghigh[g];
    for (std::uint32_t sub = m;; sub = (sub - 1U) & m) {
      ++bstart[sub + 1];
      if (sub == 0U) break;
    }
  }
  for (std::size_t b = 0; b < nH; ++b) bstart[b + 1] += bstart[b];
  std::vector<std::uint32_t> bgroups(bstart[nH]);
  {
    std::vector<std::size_t> fill(bstart.begin(), bstart.end() - 1);
    for (std::size_t g = 0; g < G; ++g) {
      const std::uint32_t m = ghigh[g];
      for (std::uint32_t sub = m;; sub = (sub - 1U) & m) {
        bgroups[fill[sub]++] = static_cast<std::uint32_t>(g);
        if (sub == 0U) break;
      }
    }
  }
  // row offsets sub * W of the subsets of each low part that occurs
  std::vector<std::size_t> lstart(nL + 1, 0);
  {
    std::vector<std::uint8_t> seen(nL, 0U);
    for (std::size_t p = 0; p < S; ++p) seen[low[p]] = 1U;
    for (std::size_t m = 0; m < nL; ++m) {
      lstart[m + 1] = lstart[m] + (seen[m] != 0U ? std::size_t{1} << popcount64(m) : 0);
    }
  }
  std::vector<std::uint32_t> loff(lstart[nL]);
  for (std::size_t m = 0; m < nL; ++m) {
    if (lstart[m + 1] == lstart[m]) continue;
    std::uint32_t* o = loff.data() + lstart[m];
    const std::uint32_t mm = static_cast<std::uint32_t>(m);
    for (std::uint32_t sub = mm;; sub = (sub - 1U) & mm) {
      *o++ = static_cast<std::uint32_t>(sub * W);
      if (sub == 0U) break;
    }
  }
  // first size class a subset of q labels can meet (sets of at least q labels)
  std::vector<std::size_t> lo_of_q(K1, W);
  for (std::size_t q = 0; q < K1; ++q) {
    for (std::size_t x = 0; x < W; ++x) {
      if (static_cast<std::size_t>(c.cls_size[x]) >= q) {
        lo_of_q[q] = x;
        break;
      }
    }
  }
  // the low subsets of each size, as bitmaps
  const std::size_t nwords = (nL + 63) / 64;
  std::vector<std::uint64_t> size_mask((kL + 1) * nwords, 0U);
  for (std::size_t sub = 0; sub < nL; ++sub) {
    size_mask[static_cast<std::size_t>(popcount64(sub)) * nwords + sub / 64] |= std::uint64_t{1} << (sub % 64);
  }
  static const std::uint64_t kHalf[6] = {0x5555555555555555ULL, 0x3333333333333333ULL,
                                         0x0f0f0f0f0f0f0f0fULL, 0x00ff00ff00ff00ffULL,
                                         0x0000ffff0000ffffULL, 0x00000000ffffffffULL};
  const std::size_t cells = K1 * W * W;
  // a block above this many updates takes the superset sums instead (kL nL W / 2
  // additions of contiguous memory, vectorised: measured about 4 times
  // cheaper each than an update)
  const std::size_t dense_work = kL * nL * W / 8;
  const int nt = team_size(threads);
  std::vector<Cell> acc(static_cast<std::size_t>(nt) * cells);
  const std::int64_t NH = static_cast<std::int64_t>(nH);
#ifdef _OPENMP
#pragma omp parallel num_threads(nt)
#endif
  {
    Cell* a = acc.data() + static_cast<std::size_t>(thread_slot()) * cells;
    std::vector<std::uint32_t> block(nL * W, 0U);
    std::vector<std::uint64_t> used(nwords, 0U);  // low parts, then all rows in use
    std::uint32_t* const blk = block.data();
    std::uint64_t* const mark = used.data();
    const std::uint32_t* const off = loff.data();
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 4)
#endif
    for (std::int64_t bi = 0; bi < NH; ++bi) {
      const std::size_t b = static_cast<std::size_t>(bi);
      if (bstart[b] == bstart[b + 1]) continue;
      std::uint32_t top = 0;  // largest size class met
      std::size_t work = 0;
      for (std::size_t e = bstart[b]; e < bstart[b + 1]; ++e) work += gwork[bgroups[e]];
      if (work <= dense_work) {
        for (std::size_t e = bstart[b]; e < bstart[b + 1]; ++e) {
          const std::size_t g = bgroups[e];
          for (std::size_t p = gstart[g]; p < gstart[g + 1]; ++p) {
            std::uint32_t* const col = blk + cls[p];
            const std::uint32_t cp = cnt[p], lp = low[p];
            top = std::max(top, cls[p]);
            mark[lp >> 6] |= std::uint64_t{1} << (lp & 63U);
            const std::uint32_t* const f1 = off + lstart[lp + 1];
            for (const std::uint32_t* f = off + lstart[lp]; f < f1; ++f) col[*f] += cp;
          }
        }
      } else {
        // many updates (the blocks of small QH, which most sets visit): each
        // set adds to its low part's row only, then the superset sums over
        // the kL low bits, adding contiguous runs of rows
        for (std::size_t e = bstart[b]; e < bstart[b + 1]; ++e) {
          const std::size_t g = bgroups[e];
          for (std::size_t p = gstart[g]; p < gstart[g + 1]; ++p) {
            const std::uint32_t lp = low[p];
            top = std::max(top, cls[p]);
            mark[lp >> 6] |= std::uint64_t{1} << (lp & 63U);
            blk[lp * W + cls[p]] += cnt[p];
          }
        }
        for (std::size_t j = 0; j < kL; ++j) {
          const std::size_t len = (std::size_t{1} << j) * W;  // elements per run
          for (std::size_t base = 0; base < nL * W; base += 2 * len) {
            std::uint32_t* dst = blk + base;
            const std::uint32_t* src = dst + len;
#ifdef _OPENMP
#pragma omp simd
#endif
            for (std::size_t t = 0; t < len; ++t) dst[t] += src[t];
          }
        }
      }
      // rows in use: the down-closure of the marked low parts
      for (std::size_t j = 0; j < kL && j < 6; ++j) {
        const unsigned sh = 1U << j;
        for (std::size_t w = 0; w < nwords; ++w) mark[w] |= (mark[w] >> sh) & kHalf[j];
      }
      for (std::size_t j = 6; j < kL; ++j) {
        const std::size_t step = std::size_t{1} << (j - 6);
        for (std::size_t w = 0; w < nwords; ++w) {
          if ((w & step) == 0) mark[w] |= mark[w | step];
        }
      }
      // products, rows taken by subset size (q = |QH| + |QL| < K1 for every row in use)
      const std::size_t qb = static_cast<std::size_t>(popcount64(b)), hi = top + 1U;
      for (std::size_t pc = 0; pc <= kL && qb + pc < K1; ++pc) {
        const std::size_t q = qb + pc, lo = std::min(lo_of_q[q], hi);
        const FixedProducts f = fixed_products(hi - lo);
        Cell* const aq = a + q * W * W;
        const std::uint64_t* const sm = size_mask.data() + pc * nwords;
        for (std::size_t w = 0; w < nwords; ++w) {
          for (std::uint64_t m = mark[w] & sm[w]; m; m &= m - 1) {
            std::uint32_t* row = blk + (w * 64 + static_cast<std::size_t>(lowest_bit(m))) * W;
            accumulate_clear(row, lo, W, f, aq);
          }
        }
      }
      std::fill(mark, mark + nwords, std::uint64_t{0});
    }
  }
  std::vector<U128> C(cells);
  for (int t = 0; t < nt; ++t) {
    for (std::size_t x = 0; x < cells; ++x) add_to(C[x], acc[static_cast<std::size_t>(t) * cells + x]);
  }
  return invert_moments(C, c, K1, h);
}

}  // namespace detail

}  // namespace mlagreement

#endif
