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
// 1. pairs: every pair of distinct sets, O(S^2) intersections. Any labels,
//    any distances; the only method for user distances over more than 64
//    labels in use, for sets of more than 22 labels and for 2^32 values or
//    more.
//
// 2. sparse subset counting (at most 22 labels in use; set_sparse.h).
//    Recode the sets to the k labels in use. For a subset Q of the labels
//    and a size class b let T_b[Q] = sum of c_t over sets t of size b
//    containing Q. Then, for classes a <= b,
//      C(q, a, b) = sum over |Q| = q of T_a[Q] T_b[Q]
//                 = sum over pairs (s of size a, t of size b) of c_s c_t binom(|s n t|, q),
//    and binomial inversion gives the pair histogram exactly:
//      N(a, b, i) = sum over q >= i of (-1)^(q - i) binom(q, i) C(q, a, b).
//    Work: sum_s 2^|s| row updates plus a few products per subset, in
//    cache-sized blocks: cheap when sets are small, whatever their number.
//
// 3. hashed subset counting (23 to 64 labels in use, sets of at most 22
//    labels): the rows of 2 found through a hash table on the 64-bit subset
//    codes, a random access per update. Gives up (pairs instead) when the
//    rows outgrow the memory cap.
//
// 4. postings (set_postings.h; more than 64 labels in use, built-in
//    distances): pairs of sets that share a label through an inverted
//    index; the others are disjoint (distance 1 for Jaccard and MASI).
//
// bench/README.md has the designs that need each of them.
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
#include <new>
#include <vector>

#include "set_custom.h"
#include "set_moments.h"
#include "set_sparse.h"
#include "hash_tables.h"
#include "sets.h"
#include "threads.h"

namespace mlagreement {

namespace detail {

// Hashed counting: the rows of sparse counting for the subsets that occur,
// found through a hash table on the 64-bit subset codes. Each distinct set
// adds its count to the rows of its 2^|s| subsets, a random access each, so
// it pays when sets are small and the S^2 pairs many.
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
            hashed_bytes(c, static_cast<double>(row_q.size())) > 2.0 * kCountingBytes) {
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
  const bool done = parallel_for_each(S, threads, 16, 1, [&](std::size_t s) {
    const int a = d.size[s];
    double* rcs = rc.data() + s * n_custom;
    double accj = 0, accm = 0;
    for (std::size_t t = s + 1; t < S; ++t) {
      const int b = d.size[t];
      const int i = d.intersect(static_cast<int>(s), static_cast<int>(t));
      const double ct = d.count[t];
      accj += ct * (1.0 - sim.jaccard(a, b, i));
      accm += ct * (1.0 - sim.masi_sim(a, b, i));
      for (std::size_t c = 0; c < n_custom; ++c) rcs[c] += ct * custom->value(c, a, b, i);
    }
    const double cs = d.count[s];
    rj[s] = cs * accj;
    rm[s] = cs * accm;
    for (std::size_t c = 0; c < n_custom; ++c) rcs[c] *= cs;
  });
  if (!done) throw std::bad_alloc();  // outside the parallel region; the glue reports it
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
// none: not computed. Postings (set_postings.h) apply to the built-in
// distances only (set_alpha.h decides).
enum class ExpectedMethod { none, pairs, sparse, hashed, postings };

// The name the R side reports.
inline const char* method_name(ExpectedMethod m) noexcept {
  static const char* const kNames[] = {"none", "pairs", "sparse", "hashed", "postings"};
  return kNames[static_cast<int>(m)];
}

// The total count of the distinct sets: the pairable values (exact: integer
// counts below 2^53).
inline double total_count(const SetData& d) {
  double n = 0;
  for (double c : d.count) n += c;
  return n;
}

// The method among pairs and subset counting with the least estimated work.
// Sparse counting needs at most kMaxSubsetLabels labels in use, hashed
// counting at most 64 labels in use and sets of at most kMaxSubsetLabels
// labels; both need fewer than 2^32 values (32-bit rows).
//
// Estimated work in nanoseconds, fitted on 1e5 random records over 20
// labels (bench/alpha.R; 4,956 to 95,355 distinct sets) and 40 labels:
// a pair of sets 2.8; blocked counting 1.1 per subset update plus about 30
// per row (at most 2^k rows, and about one per 8 updates); hashed counting
// 15 to 80 per subset update (random accesses into tables that outgrow the
// caches), taken as 40. Only the order matters: a wrong choice costs time,
// never accuracy. The counting methods also pay about 2 microseconds of
// set-up.
inline ExpectedMethod choose_expected_method(const SetData& d, const detail::CompactSets& c) {
  const bool counts_ok = total_count(d) < 4000000000.0;
  const bool blocked_ok = counts_ok && c.k <= detail::kMaxSubsetLabels;
  const bool hashed_ok =
      counts_ok && c.k <= 64 && c.max_size <= detail::kMaxSubsetLabels &&
      detail::hashed_bytes(c, detail::hashed_rows_estimate(c)) <= detail::kCountingBytes;
  using M = ExpectedMethod;
  const double S = static_cast<double>(d.n_sets());
  const double rows = std::ldexp(1.0, static_cast<int>(std::min<std::size_t>(c.k, 62)));
  const double cost_pairs = 2.8 * S * (S - 1.0) / 2.0;
  const double cost_blocked = 2000.0 + 1.1 * c.sum_pow + 30.0 * std::min(rows, c.sum_pow / 8.0);
  if (blocked_ok) return cost_blocked < cost_pairs ? M::sparse : M::pairs;
  if (hashed_ok && 2000.0 + 40.0 * c.sum_pow < cost_pairs) return M::hashed;
  return M::pairs;
}

}  // namespace mlagreement

#endif
