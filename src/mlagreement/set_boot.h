// Bootstrap replicates of Krippendorff's alpha over items from per-item
// summaries (R/alpha-intervals.R), never from the records.
//
// Alpha is a ratio of item sums: every distance's observed disagreement is
// sum_i w_i obs_i / n(w) with n(w) = sum_i w_i m_i, and Hamming's per-label
// terms are item sums too, so a replicate's linear part is W %*% terms. The
// expected disagreement of a set distance needs the reweighted counts of the
// distinct sets, n_s(w) = sum_i w_i c_is, and their quadratic form
// Q(w) = sum_{s,t} n_s n_t d(s, t) (D_e = Q / (n (n - 1))), with a dense
// S x S distance matrix per distance (the caller checks that it fits).
//
// Draws: the item streams of the bootstrap engines (boot_units.h, rng.h):
// replicate b of seed s draws the same multiplicities as mla_boot()'s item
// replicate b, whatever thread runs it. Each replicate's sums run in one
// fixed order, so results do not depend on the thread count.
//
// Pure C++: no R headers.
#ifndef MLAGREEMENT_SET_BOOT_H
#define MLAGREEMENT_SET_BOOT_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "boot_units.h"
#include "rng.h"
#include "threads.h"

namespace mlagreement {

// Distinct-set counts of each item, compressed by item: item i holds
// set[start[i]] .. set[start[i + 1] - 1] (ascending) with their counts.
struct ItemSetCounts {
  std::vector<std::size_t> start;
  std::vector<int> set;
  std::vector<double> count;
};

// From the records of the pairable groups (group g owns rec_set[gstart[g]]
// .. rec_set[gstart[g + 1] - 1], set_build.h) and the item of each group;
// items without a group get no sets.
inline ItemSetCounts item_set_counts(const double* gstart, std::size_t n_groups, const int* rec_set,
                                     const int* item_of_group, std::size_t n_items) {
  std::vector<std::vector<int>> per_item(n_items);
  for (std::size_t g = 0; g < n_groups; ++g) {
    std::vector<int>& v = per_item[static_cast<std::size_t>(item_of_group[g])];
    v.assign(rec_set + static_cast<std::size_t>(gstart[g]), rec_set + static_cast<std::size_t>(gstart[g + 1]));
    std::sort(v.begin(), v.end());
  }
  ItemSetCounts out;
  out.start.assign(n_items + 1, 0);
  for (std::size_t i = 0; i < n_items; ++i) {
    const std::vector<int>& v = per_item[i];
    for (std::size_t r = 0; r < v.size(); ++r) {
      if (r > 0 && v[r] == v[r - 1]) {
        out.count.back() += 1.0;
      } else {
        out.set.push_back(v[r]);
        out.count.push_back(1.0);
      }
    }
    out.start[i + 1] = out.set.size();
  }
  return out;
}

// c_i' D c_i for each item (the ordered within-item record pairs' distance
// sum, plus the diagonal d(s, s) which is 0 for a distance). D: S x S,
// column-major.
inline void item_quadratic_forms(const ItemSetCounts& c, const double* D, std::size_t S, double* out) {
  const std::size_t n = c.start.size() - 1;
  for (std::size_t i = 0; i < n; ++i) {
    double q = 0.0;
    for (std::size_t a = c.start[i]; a < c.start[i + 1]; ++a) {
      const double* col = D + static_cast<std::size_t>(c.set[a]) * S;
      for (std::size_t b = c.start[i]; b < c.start[i + 1]; ++b) {
        q += c.count[a] * c.count[b] * col[c.set[b]];
      }
    }
    out[i] = q;
  }
}

// What every replicate computes.
struct AlphaBootInput {
  std::size_t n_items = 0;
  std::size_t n_terms = 0;
  const double* terms = nullptr;        // n_items x n_terms, column-major
  const ItemSetCounts* sets = nullptr;  // nullptr: no set distance
  std::size_t n_sets = 0;
  std::vector<const double*> D;  // S x S per set distance, column-major, symmetric
};

// Quadratic forms x_b' D_d x_b of the B count vectors in X (S x B,
// set-major: X[s * B + b]) for every distance d, from the lower triangles:
// q_db = sum_s x_sb (2 z_dsb + d_ss x_sb) with z_dsb = sum_{t < s} d_ts x_tb.
// The distances share each pass over X (one load of x_tb for all of them);
// the innermost loop runs over the block's replicates: independent sums,
// vectorised where OpenMP's simd is available (it reorders no sum of one
// replicate, so every q_db is summed in the same order as alone).
inline void block_quadratic_forms(const std::vector<const double*>& D, std::size_t S,
                                  const double* X, std::size_t B, std::vector<double>& z,
                                  double* q) {
  const std::size_t nd = D.size();
  z.assign(nd * B, 0.0);
  for (std::size_t k = 0; k < nd * B; ++k) q[k] = 0.0;
  for (std::size_t s = 0; s < S; ++s) {
    std::fill(z.begin(), z.end(), 0.0);
    for (std::size_t t = 0; t < s; ++t) {
      const double* x = X + t * B;
      for (std::size_t d = 0; d < nd; ++d) {
        const double dts = D[d][s * S + t];  // column s = row s (symmetric)
        if (dts == 0.0) continue;
        double* zb = z.data() + d * B;
#ifdef _OPENMP
#pragma omp simd
#endif
        for (std::size_t b = 0; b < B; ++b) zb[b] += dts * x[b];
      }
    }
    const double* xs = X + s * B;
    for (std::size_t d = 0; d < nd; ++d) {
      const double dss = D[d][s * S + s];
      const double* zb = z.data() + d * B;
      for (std::size_t b = 0; b < B; ++b) q[d * B + b] += xs[b] * (2.0 * zb[b] + dss * xs[b]);
    }
  }
}

// Replicates [r0, r1) of stream st: sums (replicates x n_terms) and quad
// (replicates x n_distances), both column-major. rows: the
// terms item-major (rows[i * n_terms + j]), so an item's terms are added
// to the replicate's sums together (in item order for every column).
// Rows of sums and quad are replicates minus row0, n_out rows in all.
inline void alpha_boot_stream(const AlphaBootInput& in, const double* rows, const UnitDesign& u,
                              std::uint64_t seed, int st, std::size_t n_rep, std::size_t row0,
                              std::size_t n_out, double* sums, double* quad) {
  const std::size_t r0 = block_begin(st, n_rep), r1 = block_begin(st + 1, n_rep), B = r1 - r0;
  if (B == 0) return;
  Rng rng = stream_rng(seed, st);
  std::vector<std::uint32_t> unit_w(u.n_units), buf(u.unit_of_item ? u.n_items : 0);
  const std::size_t S = in.sets ? in.n_sets : 0, p = in.n_terms;
  std::vector<double> X(S * B, 0.0), z, q(in.D.size() * B), acc(p);
  for (std::size_t b = 0; b < B; ++b) {
    draw_units(rng, u, unit_w.data());
    const std::uint32_t* w = item_weights(u, unit_w.data(), buf.data());
    std::fill(acc.begin(), acc.end(), 0.0);
    for (std::size_t i = 0; i < in.n_items; ++i) {
      if (w[i] == 0U) continue;
      const double wi = static_cast<double>(w[i]);
      const double* row = rows + i * p;
      for (std::size_t j = 0; j < p; ++j) acc[j] += wi * row[j];
      if (S == 0) continue;
      const ItemSetCounts& c = *in.sets;
      for (std::size_t a = c.start[i]; a < c.start[i + 1]; ++a) {
        X[static_cast<std::size_t>(c.set[a]) * B + b] += wi * c.count[a];
      }
    }
    for (std::size_t j = 0; j < p; ++j) sums[j * n_out + r0 - row0 + b] = acc[j];
  }
  if (in.D.empty()) return;
  block_quadratic_forms(in.D, S, X.data(), B, z, q.data());
  for (std::size_t d = 0; d < in.D.size(); ++d) {
    for (std::size_t b = 0; b < B; ++b) quad[d * n_out + r0 - row0 + b] = q[d * B + b];
  }
}

// The replicates of streams [s0, s1) of n_rep (rows block_begin(s0) ..
// block_begin(s1) - 1 of sums and quad), streams in parallel. Returns false
// if a thread failed (out of memory).
inline bool alpha_boot(const AlphaBootInput& in, const UnitDesign& u, std::uint64_t seed,
                       std::size_t n_rep, int s0, int s1, int threads, double* sums, double* quad) {
  std::vector<double> rows(in.n_items * in.n_terms);
  for (std::size_t j = 0; j < in.n_terms; ++j) {
    for (std::size_t i = 0; i < in.n_items; ++i) rows[i * in.n_terms + j] = in.terms[j * in.n_items + i];
  }
  const std::size_t row0 = block_begin(s0, n_rep), n_out = block_begin(s1, n_rep) - row0;
  bool failed = false;
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) reduction(|| : failed)
#endif
  for (int st = s0; st < s1; ++st) {
    guarded(failed, [&] {
      alpha_boot_stream(in, rows.data(), u, seed, st, n_rep, row0, n_out, sums, quad);
    });
  }
  (void)threads;
  return !failed;
}

}  // namespace mlagreement

#endif
