// Expected disagreement of alpha with set distances: the methods (pairs,
// sparse and hashed subset counting, postings) and the choice among them.
// See DESIGN.md, Algorithms: Expected set disagreement.
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
// through a hash table on the 64-bit subset codes. Memory: W counters plus a
// 16-byte slot (table half full) per row; estimated with one subset in 4 new.
constexpr double kHashedRowBytes = 36.0;
inline double hashed_bytes(const CompactSets& c, double rows) {
  return rows * (4.0 * static_cast<double>(c.cls_size.size()) + kHashedRowBytes);
}
inline double hashed_rows_estimate(const CompactSets& c) {
  return std::min(c.sum_pow / 4.0, std::ldexp(1.0, static_cast<int>(std::min<std::size_t>(c.k, 62))));
}

// 1 done, 0 internal error, -1 rows over twice the memory cap (use pairs).
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

// sum over (a, b, i) of ordered pairs times distances; pairs of different
// classes are met once, so they count twice.
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

// Pairs: every pair of distinct sets, each set's row summed in a fixed order.
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

// none: D_e not computed; postings apply to the built-in distances only
// (set_alpha.h decides).
enum class ExpectedMethod { none, pairs, sparse, hashed, postings };

// The name the R side reports.
inline const char* method_name(ExpectedMethod m) noexcept {
  static const char* const kNames[] = {"none", "pairs", "sparse", "hashed", "postings"};
  return kNames[static_cast<int>(m)];
}

// The pairable values (exact: integer counts below 2^53).
inline double total_count(const SetData& d) {
  double n = 0;
  for (double c : d.count) n += c;
  return n;
}

// The method among pairs and subset counting with the least estimated work
// in ns (constants fitted with bench/alpha.R); see DESIGN.md for the limits
// of each method.
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
