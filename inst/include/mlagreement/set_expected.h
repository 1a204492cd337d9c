// Expected disagreement of Krippendorff's alpha with set distances:
//   sum over ordered pairs of pairable values of d(r, s),
// where d (Jaccard or MASI) depends only on the two set sizes a, b and the
// intersection size i. The values are compressed to S distinct sets s with
// counts c_s, so the sum is sum over (a, b, i) of N(a, b, i) d(a, b, i), with
// N(a, b, i) the number of ordered pairs of values of sizes a and b whose
// sets share i labels (pairs of a value with itself included: d = 0 there).
//
// Four ways to get the sum (choose_expected_method() picks by estimated
// work; all are exact up to the final floating-point sum):
//
// 1. pairs (ExpectedMethod::pairs): every pair of distinct sets, O(S^2)
//    intersections. Works for any number of labels; the only method when
//    more than 64 labels are in use or some set has more than 22 labels.
//
// 2. sparse subset counting (sparse; at most 22 labels in use). Recode the sets to
//    the k labels in use. For a subset Q of the labels and a size class b let
//    T_b[Q] = sum of c_t over sets t of size b containing Q. Then, for
//    classes a <= b,
//      C(q, a, b) = sum over |Q| = q of T_a[Q] T_b[Q]
//                 = sum over pairs (s of size a, t of size b) of c_s c_t binom(|s n t|, q),
//    and binomial inversion gives the pair histogram exactly:
//      N(a, b, i) = sum over q >= i of (-1)^(q - i) binom(q, i) C(q, a, b).
//    T is held as one row of W counters (W = number of size classes) per
//    subset Q that occurs. The labels (numbered by decreasing frequency) are
//    split into high and low halves; the rows sharing a high part QH form a
//    cache-sized block, filled by the sets whose high part contains QH (each
//    adds its count to the rows of the subsets of its low part), multiplied
//    out and cleared (set_sparse.h). Work: sum_s 2^|s| row updates plus, per
//    row, about (size classes in range)^2 / 2 products; memory: one block
//    per thread. Cheap when sets are small, whatever their number.
//
// 3. dense subset counting (dense; at most 22 labels in use, 2^k x W table
//    within a memory cap). The same rows, indexed by Q itself, filled by the
//    superset-sum (zeta) transform over the k bits: k 2^(k-1) W additions
//    of contiguous memory, then 2^k rows of products. For designs where most
//    of the 2^k sets occur (many labels with prevalence near 1/2), where
//    both other methods are slow: S^2 pairs, or sum_s 2^|s| updates.
//
// 5. postings (set_postings.h): for more than 64 labels in use, pairs of
//    sets that share a label through an inverted index; the others are
//    disjoint (distance 1 for Jaccard and MASI).
//
// 4. hashed subset counting (hashed; at most 64 labels in use, sets of at
//    most 22 labels; chosen only above 22 labels in use): the rows of 2,
//    found through a hash table on the 64-bit subset codes, a random access
//    per update. For many labels with small sets, where S^2 pairs would be
//    slow. Gives up (pairs instead) when the rows outgrow the memory cap.
//
// Exactness and the shared counting steps: set_moments.h.
//
// Pure C++: no R headers.
#ifndef MLAGREEMENT_SET_EXPECTED_H
#define MLAGREEMENT_SET_EXPECTED_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "set_custom.h"
#include "set_moments.h"
#include "set_sparse.h"
#include "hash_tables.h"
#include "sets.h"

namespace mlagreement {

namespace detail {

// Hashed counting (for more than 22 labels in use, at most 64, and sets of at most
// 22 labels): the rows of sparse counting for the subsets that occur, found through
// a hash table on the 64-bit subset codes. Each distinct set adds its count
// to the rows of its 2^|s| subsets, a random access each, so it pays when
// sets are small and the S^2 pairs many.
// Memory of hashed counting: rows of W counters plus a 16-byte slot (table half
// full) per subset that occurs; estimated with one subset in 4 new.
constexpr double kHashedRowBytes = 36.0;
inline double hashed_bytes(const CompactSets& c, double rows) {
  return rows * (4.0 * static_cast<double>(c.cls_size.size()) + kHashedRowBytes);
}
inline double hashed_rows_estimate(const CompactSets& c) {
  return std::min(c.sum_pow / 4.0, std::ldexp(1.0, static_cast<int>(std::min<std::size_t>(c.k, 62))));
}

// Returns 1 when done, 0 on an internal error, -1 when the rows outgrow
// twice the memory cap (the caller then uses pairs).
template <typename Cell>
int histogram_hashed(const SetData& d, const CompactSets& c, int threads, PairHistogram& h) {
  const std::size_t W = c.cls_size.size(), K1 = c.cls_of_size.size();
  CodeTable<std::uint64_t> table(6);  // subset code -> row
  std::vector<std::uint32_t> rows;
  std::vector<std::uint8_t> row_q;
  for (std::size_t s = 0; s < d.n_sets(); ++s) {
    if (interrupted_at(static_cast<std::int64_t>(s), 64)) return 0;  // the result is discarded
    const std::size_t x = static_cast<std::size_t>(c.cls_of_size[static_cast<std::size_t>(d.size[s])]);
    const std::uint32_t cnt = static_cast<std::uint32_t>(d.count[s]);
    const std::uint64_t mask = c.code[s];
    for (std::uint64_t sub = mask;; sub = (sub - 1U) & mask) {
      const std::size_t slots = table.slots();
      std::int64_t row = table.find_or_add(sub, static_cast<std::uint32_t>(row_q.size()));
      if (row < 0) {
        row = static_cast<std::int64_t>(row_q.size());
        rows.resize(rows.size() + W, 0U);
        row_q.push_back(static_cast<std::uint8_t>(popcount64(sub)));
        // the table doubled: give up when the rows outgrow twice the cap
        if (2 * row_q.size() > slots &&
            hashed_bytes(c, static_cast<double>(row_q.size())) > 2.0 * kDenseBytes) {
          return -1;
        }
      }
      rows[static_cast<std::size_t>(row) * W + x] += cnt;
      if (sub == 0U) break;
    }
  }
  std::vector<U128> C;
  accumulate_rows<Cell>(rows.data(), row_q.size(), W, K1,
                        [&](std::size_t r) { return row_q[r]; }, threads, C);
  return invert_moments(C, c, K1, h) ? 1 : 0;
}

inline double dense_bytes(const CompactSets& c) {
  return std::ldexp(1.0, static_cast<int>(c.k)) * static_cast<double>(c.cls_size.size()) * 4.0;
}

// Dense counting: rows indexed by Q, filled by the superset-sum transform: for
// each bit j, row(Q) += row(Q | j) for the Q without j. For a fixed j these
// are blocks of 2^j contiguous rows, so the inner loop adds contiguous memory.
template <typename Cell>
bool histogram_dense(const SetData& d, const CompactSets& c, int threads, PairHistogram& h) {
  const std::size_t W = c.cls_size.size(), K1 = c.cls_of_size.size(), k = c.k;
  const std::size_t n_rows = std::size_t{1} << k;
  std::vector<std::uint32_t> T(n_rows * W, 0U);
  for (std::size_t s = 0; s < d.n_sets(); ++s) {
    const std::size_t x = static_cast<std::size_t>(c.cls_of_size[static_cast<std::size_t>(d.size[s])]);
    T[static_cast<std::size_t>(c.code[s]) * W + x] += static_cast<std::uint32_t>(d.count[s]);
  }
  constexpr std::size_t kPiece = 1 << 14;  // elements per parallel work unit
  for (std::size_t j = 0; j < k; ++j) {
    const std::size_t len = (std::size_t{1} << j) * W;  // elements per block
    const std::size_t pieces = (len + kPiece - 1) / kPiece;
    const std::int64_t units = static_cast<std::int64_t>((n_rows >> (j + 1)) * pieces);
    std::uint32_t* base = T.data();
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) schedule(static)
#endif
    for (std::int64_t u = 0; u < units; ++u) {
      if (interrupted_at(u, 16)) continue;  // the result is discarded
      const std::size_t blk = static_cast<std::size_t>(u) / pieces, pc = static_cast<std::size_t>(u) % pieces;
      const std::size_t from = pc * kPiece, to = std::min(len, from + kPiece);
      std::uint32_t* dst = base + blk * 2 * len;
      const std::uint32_t* src = dst + len;
#ifdef _OPENMP
#pragma omp simd
#endif
      for (std::size_t e = from; e < to; ++e) dst[e] += src[e];
    }
  }
  (void)threads;
  std::vector<U128> C;
  accumulate_rows<Cell>(T.data(), n_rows, W, K1,
                       [](std::size_t r) { return popcount64(static_cast<std::uint64_t>(r)); },
                       threads, C);
  return invert_moments(C, c, K1, h);
}

// sum over (a, b, i) of the ordered pairs times the distances; pairs of
// different classes are met once, so they count twice.
inline void expected_from_histogram(const PairHistogram& h, const CompactSets& c,
                                    const SizeDistances* custom, double& sum_j, double& sum_m,
                                    std::vector<double>& sum_c) {
  sum_j = sum_m = 0;
  const std::size_t n_custom = custom != nullptr ? custom->n : 0;
  sum_c.assign(n_custom, 0.0);
  for (std::size_t x = 0; x < h.W; ++x) {
    const int a = c.cls_size[x];
    for (std::size_t y = x; y < h.W; ++y) {
      const int b = c.cls_size[y];
      const double w = x < y ? 2.0 : 1.0;
      for (int i = 0; i <= a; ++i) {
        const std::uint64_t n = h.n[(x * h.W + y) * h.K1 + static_cast<std::size_t>(i)];
        if (n == 0) continue;
        const double wn = w * static_cast<double>(n);
        sum_j += wn * (1.0 - jaccard_similarity(a, b, i));
        sum_m += wn * (1.0 - masi_similarity(a, b, i));
        for (std::size_t t = 0; t < n_custom; ++t) sum_c[t] += wn * custom->value(t, a, b, i);
      }
    }
  }
}

// Pairs: every pair of distinct sets, O(S^2). Each set's row is summed
// in a fixed order, so results do not depend on threads.
inline void expected_by_pairs(const SetData& d, const SimTable& sim, const SizeDistances* custom,
                              int threads, double& sum_j, double& sum_m, std::vector<double>& sum_c) {
  const std::size_t S = d.n_sets();
  const std::size_t n_custom = custom != nullptr ? custom->n : 0;
  std::vector<double> rj(S, 0.0), rm(S, 0.0), rc(S * n_custom, 0.0);
  const std::int64_t SS = static_cast<std::int64_t>(S);
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) schedule(dynamic, 16)
#endif
  for (std::int64_t si = 0; si < SS; ++si) {
    if (interrupted()) continue;  // the result is discarded
    const int s = static_cast<int>(si);
    const int a = d.size[static_cast<std::size_t>(s)];
    double accj = 0, accm = 0;
    for (int t = s + 1; t < static_cast<int>(S); ++t) {
      const int b = d.size[static_cast<std::size_t>(t)];
      const int i = d.intersect(s, t);
      const double ct = d.count[static_cast<std::size_t>(t)];
      accj += ct * (1.0 - sim.jaccard(a, b, i));
      accm += ct * (1.0 - sim.masi_sim(a, b, i));
      for (std::size_t c = 0; c < n_custom; ++c) rc[static_cast<std::size_t>(si) * n_custom + c] += ct * custom->value(c, a, b, i);
    }
    const double cs = d.count[static_cast<std::size_t>(s)];
    rj[static_cast<std::size_t>(s)] = cs * accj;
    rm[static_cast<std::size_t>(s)] = cs * accm;
    for (std::size_t c = 0; c < n_custom; ++c) rc[static_cast<std::size_t>(si) * n_custom + c] *= cs;
  }
  (void)threads;
  sum_j = sum_m = 0;
  sum_c.assign(n_custom, 0.0);
  for (std::size_t s = 0; s < S; ++s) {
    sum_j += 2.0 * rj[s];
    sum_m += 2.0 * rm[s];
    for (std::size_t c = 0; c < n_custom; ++c) sum_c[c] += 2.0 * rc[s * n_custom + c];
  }
}

}  // namespace detail

// The algorithms of the expected disagreement (see the top of the file);
// automatic: chosen by estimated work (choose_expected_method()); postings
// (set_postings.h) only for the built-in distances (set_alpha.h decides).
enum class ExpectedMethod { automatic, pairs, sparse, dense, hashed, postings };

// The method to run for a request. Sparse and dense counting need at most
// kMaxSubsetLabels labels in use, hashed counting at most 64 labels in use
// and sets of at most kMaxSubsetLabels labels; a requested method that
// cannot run falls back to pairs, and dense counting to sparse above the
// memory cap.
//
// Estimated work in nanoseconds, fitted on 1e5 random records over 20
// labels (bench/alpha.R; 4,956 to 95,355 distinct sets) and 40 labels:
// a pair of sets 2.8; blocked counting 1.1 per subset update plus about 30
// per row (at most 2^k rows, and about one per 8 updates); dense counting,
// per each of the 2^k rows, 0.12 per transform addition (k W of them) and
// 0.3 W^2 for the products; hashed counting 15 to 80 per subset update
// (random accesses into tables that outgrow the caches), taken as 40. Only
// the order matters: a wrong choice costs time, never accuracy. The counting
// methods also pay about 2 microseconds of set-up.
inline ExpectedMethod choose_expected_method(const SetData& d, const detail::CompactSets& c,
                                             ExpectedMethod requested) {
  const bool counts_ok = static_cast<double>(d.n_values()) < 4000000000.0;
  const bool blocked_ok = counts_ok && c.k <= detail::kMaxSubsetLabels;
  const bool dense_ok = blocked_ok && detail::dense_bytes(c) <= detail::kDenseBytes;
  const bool hashed_ok =
      counts_ok && c.k <= 64 && c.max_size <= detail::kMaxSubsetLabels &&
      detail::hashed_bytes(c, detail::hashed_rows_estimate(c)) <= detail::kDenseBytes;
  using M = ExpectedMethod;
  switch (requested) {
    case M::pairs:
      return M::pairs;
    case M::postings:
      return M::postings;
    case M::sparse:
      return blocked_ok ? M::sparse : M::pairs;
    case M::dense:
      return dense_ok ? M::dense : (blocked_ok ? M::sparse : M::pairs);
    case M::hashed:
      return hashed_ok ? M::hashed : M::pairs;
    case M::automatic:
      break;
  }
  const double S = static_cast<double>(d.n_sets());
  const double W = static_cast<double>(c.cls_size.size());
  const double k = static_cast<double>(c.k);
  const double rows = std::ldexp(1.0, static_cast<int>(std::min<std::size_t>(c.k, 62)));
  // counting methods: plus about 2 microseconds of set-up (tables, accumulators)
  const double cost_rows = 2000.0 + 30.0 * std::min(rows, c.sum_pow / 8.0);
  double best = 2.8 * S * (S - 1.0) / 2.0;
  M choice = M::pairs;
  if (blocked_ok && 1.1 * c.sum_pow + cost_rows < best) {
    best = 1.1 * c.sum_pow + cost_rows;
    choice = M::sparse;
  }
  const double cost_dense = 2000.0 + rows * (0.12 * k * W + 0.3 * W * W);
  if (dense_ok && cost_dense < best) {
    best = cost_dense;
    choice = M::dense;
  }
  if (!blocked_ok && hashed_ok && 2000.0 + 40.0 * c.sum_pow < best) choice = M::hashed;
  return choice;
}

}  // namespace mlagreement

#endif
