// Sparse (blocked) subset counting for the expected set disagreement (at
// most 22 labels in use).
// See DESIGN.md, Algorithms: Expected set disagreement.
#ifndef MLAGREEMENT_SET_SPARSE_H
#define MLAGREEMENT_SET_SPARSE_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
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

// cq[x * W + y] += row[x] row[y] for 0 <= x <= y < L, zeros included, L
// fixed at compile time (fully unrolled, no loop branches); clears the row.
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

// Products of one row over size classes lo .. hi - 1, then the row cleared.
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

// The sets in sparse counting's order and the index tables the blocks read
// (shared, read-only).
struct SparseLayout {
  std::size_t W = 0, K1 = 0, kL = 0, nH = 0, nL = 0, nwords = 0;
  // per set, ordered by (high part, size of the low part): low part, size class, count
  std::vector<std::uint32_t> low, cls, cnt;
  std::vector<std::size_t> gstart;   // group g (one high part) owns sets gstart[g] .. gstart[g + 1] - 1
  std::vector<std::uint32_t> ghigh;  // high part of each group
  std::vector<std::size_t> gwork;    // updates of each group when its sets add to the subsets of their low parts
  std::vector<std::size_t> bstart;   // block QH takes the groups bgroups[bstart[QH] .. bstart[QH + 1] - 1]
  std::vector<std::uint32_t> bgroups;
  std::vector<std::size_t> lstart;   // row offsets sub * W of the subsets of each low part: loff[lstart[m] ..]
  std::vector<std::uint32_t> loff;
  std::vector<std::size_t> lo_of_q;      // first size class a subset of q labels can meet
  std::vector<std::uint64_t> size_mask;  // the low subsets of each size, as bitmaps of nwords words
  std::size_t dense_work = 0;  // a block above this many updates takes the superset sums
};

// Sets ordered by (high part, size of the low part) (counting sort), grouped.
inline void order_sets(const SetData& d, const CompactSets& c, SparseLayout& L) {
  const std::size_t S = d.n_sets(), kL = L.kL;
  const std::uint32_t maskL = (std::uint32_t{1} << kL) - 1U;
  const std::size_t nkey = L.nH * (kL + 1);
  std::vector<std::size_t> kstart(nkey + 1, 0);
  std::vector<std::size_t> key(S);
  for (std::size_t s = 0; s < S; ++s) {
    const std::uint32_t lw = static_cast<std::uint32_t>(c.code[s]) & maskL;
    key[s] = static_cast<std::size_t>(c.code[s] >> kL) * (kL + 1) + static_cast<std::size_t>(popcount64(lw));
    ++kstart[key[s] + 1];
  }
  for (std::size_t b = 0; b < nkey; ++b) kstart[b + 1] += kstart[b];
  L.low.resize(S);
  L.cls.resize(S);
  L.cnt.resize(S);
  std::vector<std::size_t> fill(kstart.begin(), kstart.end() - 1);
  for (std::size_t s = 0; s < S; ++s) {
    const std::size_t p = fill[key[s]]++;
    L.low[p] = static_cast<std::uint32_t>(c.code[s]) & maskL;
    L.cls[p] = static_cast<std::uint32_t>(c.cls_of_size[static_cast<std::size_t>(d.size[s])]);
    L.cnt[p] = static_cast<std::uint32_t>(d.count[s]);
  }
  for (std::size_t b = 0; b < L.nH; ++b) {
    const std::size_t from = kstart[b * (kL + 1)], to = kstart[(b + 1) * (kL + 1)];
    if (from == to) continue;
    L.gstart.push_back(from);
    L.ghigh.push_back(static_cast<std::uint32_t>(b));
  }
  L.gstart.push_back(S);
  L.gwork.assign(L.ghigh.size(), 0);
  for (std::size_t g = 0; g < L.ghigh.size(); ++g) {
    for (std::size_t p = L.gstart[g]; p < L.gstart[g + 1]; ++p) L.gwork[g] += std::size_t{1} << popcount64(L.low[p]);
  }
}

// Groups of each block (CSR): the groups whose high part contains QH
// (subsets of m by sub = (sub - 1) & m: few, no tables needed).
inline void block_groups(SparseLayout& L) {
  const std::size_t G = L.ghigh.size(), nH = L.nH;
  L.bstart.assign(nH + 1, 0);
  for (std::size_t g = 0; g < G; ++g) {
    const std::uint32_t m = L.ghigh[g];
    for (std::uint32_t sub = m;; sub = (sub - 1U) & m) {
      ++L.bstart[sub + 1];
      if (sub == 0U) break;
    }
  }
  for (std::size_t b = 0; b < nH; ++b) L.bstart[b + 1] += L.bstart[b];
  L.bgroups.resize(L.bstart[nH]);
  std::vector<std::size_t> fill(L.bstart.begin(), L.bstart.end() - 1);
  for (std::size_t g = 0; g < G; ++g) {
    const std::uint32_t m = L.ghigh[g];
    for (std::uint32_t sub = m;; sub = (sub - 1U) & m) {
      L.bgroups[fill[sub]++] = static_cast<std::uint32_t>(g);
      if (sub == 0U) break;
    }
  }
}

// Row offsets of the subsets of each low part that occurs; the size tables.
inline void row_tables(const CompactSets& c, SparseLayout& L) {
  const std::size_t nL = L.nL, W = L.W;
  L.lstart.assign(nL + 1, 0);
  std::vector<std::uint8_t> seen(nL, 0U);
  for (std::uint32_t lp : L.low) seen[lp] = 1U;
  for (std::size_t m = 0; m < nL; ++m) {
    L.lstart[m + 1] = L.lstart[m] + (seen[m] != 0U ? std::size_t{1} << popcount64(m) : 0);
  }
  L.loff.resize(L.lstart[nL]);
  for (std::size_t m = 0; m < nL; ++m) {
    if (L.lstart[m + 1] == L.lstart[m]) continue;
    std::uint32_t* o = L.loff.data() + L.lstart[m];
    const std::uint32_t mm = static_cast<std::uint32_t>(m);
    for (std::uint32_t sub = mm;; sub = (sub - 1U) & mm) {
      *o++ = static_cast<std::uint32_t>(sub * W);
      if (sub == 0U) break;
    }
  }
  L.lo_of_q.assign(L.K1, W);  // sets of at least q labels
  for (std::size_t q = 0; q < L.K1; ++q) {
    for (std::size_t x = 0; x < W; ++x) {
      if (static_cast<std::size_t>(c.cls_size[x]) >= q) {
        L.lo_of_q[q] = x;
        break;
      }
    }
  }
  L.size_mask.assign((L.kL + 1) * L.nwords, 0U);
  for (std::size_t sub = 0; sub < nL; ++sub) {
    L.size_mask[static_cast<std::size_t>(popcount64(sub)) * L.nwords + sub / 64] |= std::uint64_t{1} << (sub % 64);
  }
}

inline SparseLayout sparse_layout(const SetData& d, const CompactSets& c) {
  SparseLayout L;
  L.W = c.cls_size.size();
  L.K1 = c.cls_of_size.size();
  L.kL = sparse_low_bits(c.k);
  L.nH = std::size_t{1} << (c.k - L.kL);
  L.nL = std::size_t{1} << L.kL;
  L.nwords = (L.nL + 63) / 64;
  order_sets(d, c, L);
  block_groups(L);
  row_tables(c, L);
  // superset sums: kL nL W / 2 contiguous, vectorised additions, each about
  // 4 times cheaper than an update
  L.dense_work = L.kL * L.nL * L.W / 8;
  return L;
}

// Fills block b from the sets of its groups and marks their low parts;
// returns the largest size class met.
inline std::uint32_t fill_block(const SparseLayout& L, std::size_t b, std::uint32_t* const blk,
                                std::uint64_t* const mark) {
  const std::size_t W = L.W;
  const std::uint32_t* const off = L.loff.data();
  std::uint32_t top = 0;
  std::size_t work = 0;
  for (std::size_t e = L.bstart[b]; e < L.bstart[b + 1]; ++e) work += L.gwork[L.bgroups[e]];
  if (work <= L.dense_work) {
    for (std::size_t e = L.bstart[b]; e < L.bstart[b + 1]; ++e) {
      const std::size_t g = L.bgroups[e];
      for (std::size_t p = L.gstart[g]; p < L.gstart[g + 1]; ++p) {
        std::uint32_t* const col = blk + L.cls[p];
        const std::uint32_t cp = L.cnt[p], lp = L.low[p];
        top = std::max(top, L.cls[p]);
        mark[lp >> 6] |= std::uint64_t{1} << (lp & 63U);
        const std::uint32_t* const f1 = off + L.lstart[lp + 1];
        for (const std::uint32_t* f = off + L.lstart[lp]; f < f1; ++f) col[*f] += cp;
      }
    }
    return top;
  }
  // many updates: each set adds to its low part's row only, then the
  // superset sums over the kL low bits
  for (std::size_t e = L.bstart[b]; e < L.bstart[b + 1]; ++e) {
    const std::size_t g = L.bgroups[e];
    for (std::size_t p = L.gstart[g]; p < L.gstart[g + 1]; ++p) {
      const std::uint32_t lp = L.low[p];
      top = std::max(top, L.cls[p]);
      mark[lp >> 6] |= std::uint64_t{1} << (lp & 63U);
      blk[lp * W + L.cls[p]] += L.cnt[p];
    }
  }
  for (std::size_t j = 0; j < L.kL; ++j) {
    const std::size_t len = (std::size_t{1} << j) * W;  // elements per run
    for (std::size_t base = 0; base < L.nL * W; base += 2 * len) {
      std::uint32_t* dst = blk + base;
      const std::uint32_t* src = dst + len;
#ifdef _OPENMP
#pragma omp simd
#endif
      for (std::size_t t = 0; t < len; ++t) dst[t] += src[t];
    }
  }
  return top;
}

// Rows in use: the down-closure of the marked low parts.
inline void close_marks(std::uint64_t* mark, std::size_t nwords, std::size_t kL) {
  static const std::uint64_t kHalf[6] = {0x5555555555555555ULL, 0x3333333333333333ULL,
                                         0x0f0f0f0f0f0f0f0fULL, 0x00ff00ff00ff00ffULL,
                                         0x0000ffff0000ffffULL, 0x00000000ffffffffULL};
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
}

// Products of the rows in use of block b into a, rows taken by subset size
// (q = |QH| + |QL| < K1 for every row in use); the rows are cleared.
template <typename Cell>
void multiply_block(const SparseLayout& L, std::size_t b, std::uint32_t top, std::uint32_t* const blk,
                    const std::uint64_t* const mark, Cell* const a) {
  const std::size_t W = L.W, nwords = L.nwords;
  const std::size_t qb = static_cast<std::size_t>(popcount64(b)), hi = top + 1U;
  for (std::size_t pc = 0; pc <= L.kL && qb + pc < L.K1; ++pc) {
    const std::size_t q = qb + pc, lo = std::min(L.lo_of_q[q], hi);
    const FixedProducts f = fixed_products(hi - lo);
    Cell* const aq = a + q * W * W;
    const std::uint64_t* const sm = L.size_mask.data() + pc * nwords;
    for (std::size_t w = 0; w < nwords; ++w) {
      for (std::uint64_t m = mark[w] & sm[w]; m; m &= m - 1) {
        std::uint32_t* row = blk + (w * 64 + static_cast<std::size_t>(lowest_bit(m))) * W;
        accumulate_clear(row, lo, W, f, aq);
      }
    }
  }
}

// False on an internal error; throws std::bad_alloc when memory runs out.
template <typename Cell>
bool histogram_sparse(const SetData& d, const CompactSets& c, int threads, PairHistogram& h) {
  const SparseLayout L = sparse_layout(d, c);
  const std::size_t cells = L.K1 * L.W * L.W;
  const int nt = team_size(threads);
  std::vector<Cell> acc(static_cast<std::size_t>(nt) * cells);
  const std::int64_t NH = static_cast<std::int64_t>(L.nH);
  bool failed = false;
#ifdef _OPENMP
#pragma omp parallel num_threads(nt) reduction(|| : failed)
#endif
  {
    // per-thread scratch, allocated in the guard; the loop body allocates
    // nothing (a thread that leaves the loop early would stall the others)
    std::vector<std::uint32_t> block;
    std::vector<std::uint64_t> used;  // low parts, then all rows in use
    const bool ready = guarded(failed, [&] {
      block.assign(L.nL * L.W, 0U);
      used.assign(L.nwords, 0U);
    });
    Cell* a = acc.data() + static_cast<std::size_t>(thread_slot()) * cells;
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 4)
#endif
    for (std::int64_t bi = 0; bi < NH; ++bi) {
      const std::size_t b = static_cast<std::size_t>(bi);
      if (!ready || L.bstart[b] == L.bstart[b + 1] || interrupted()) continue;
      const std::uint32_t top = fill_block(L, b, block.data(), used.data());
      close_marks(used.data(), L.nwords, L.kL);
      multiply_block(L, b, top, block.data(), used.data(), a);
      std::fill(used.begin(), used.end(), std::uint64_t{0});
    }
  }
  if (failed) throw std::bad_alloc();
  std::vector<U128> C(cells);
  for (int t = 0; t < nt; ++t) {
    for (std::size_t x = 0; x < cells; ++x) add_to(C[x], acc[static_cast<std::size_t>(t) * cells + x]);
  }
  return invert_moments(C, c, L.K1, h);
}

}  // namespace detail

}  // namespace mlagreement

#endif
