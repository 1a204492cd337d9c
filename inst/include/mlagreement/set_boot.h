// Bootstrap replicates of Krippendorff's alpha over items from per-item
// summaries, never from the records (R/alpha-intervals.R).
// See DESIGN.md, Algorithms: Label sets.
#ifndef MLAGREEMENT_SET_BOOT_H
#define MLAGREEMENT_SET_BOOT_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
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

// From the records of the pairable groups (set_build.h) and each group's
// item; items without a group get no sets.
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

// c_i' D c_i per item (D: S x S, column-major; its diagonal is 0).
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

// Replicates run kLanes at a time, multiplicities item-major; each
// replicate's sums keep the order of one replicate alone, so results do
// not depend on the blocking.
constexpr std::size_t kLanes = 8;

// Two replicates' values as one SSE2-sized vector (GCC/clang extension, a
// plain pair elsewhere); lane-wise IEEE operations equal the scalar loop.
#if defined(__GNUC__)
typedef double LanePair __attribute__((vector_size(16)));
inline LanePair splat(double d) {
  LanePair v = {d, d};
  return v;
}
#else
struct LanePair {
  double lo, hi;
};
inline LanePair operator*(LanePair a, LanePair b) { return {a.lo * b.lo, a.hi * b.hi}; }
inline LanePair& operator+=(LanePair& a, LanePair b) {
  a.lo += b.lo;
  a.hi += b.hi;
  return a;
}
inline LanePair splat(double d) { return {d, d}; }
#endif

inline LanePair load_pair(const double* x) {
  LanePair v;
  std::memcpy(&v, x, sizeof v);
  return v;
}

// kLanes partial sums held in registers (members, not an array, so the
// compiler keeps them out of memory).
struct LaneSums {
  LanePair p0 = splat(0.0), p1 = splat(0.0), p2 = splat(0.0), p3 = splat(0.0);
  void add_scaled(double d, const double* x) {  // += d * x[0 .. kLanes - 1]
    const LanePair s = splat(d);
    p0 += s * load_pair(x);
    p1 += s * load_pair(x + 2);
    p2 += s * load_pair(x + 4);
    p3 += s * load_pair(x + 6);
  }
  void store(double* out) const {
    std::memcpy(out, &p0, sizeof p0);
    std::memcpy(out + 2, &p1, sizeof p1);
    std::memcpy(out + 4, &p2, sizeof p2);
    std::memcpy(out + 6, &p3, sizeof p3);
  }
};
static_assert(kLanes == 8, "LaneSums holds 8 lanes");

// Row s's contribution x_sb (2 z_sb + d_ss x_sb) to the quadratic forms.
inline void add_row_form(const LaneSums& z, double dss, const double* xs, double* acc) {
  double zb[kLanes];
  z.store(zb);
  for (std::size_t b = 0; b < kLanes; ++b) acc[b] += xs[b] * (2.0 * zb[b] + dss * xs[b]);
}

// za += sum_{t < n} ca[t] x_t and zb likewise, in order of t: two columns
// share each load, eight independent sums in flight (latency bound).
inline void two_column_sums(const double* ca, const double* cb, std::size_t n, const double* X,
                            LaneSums& za, LaneSums& zb) {
  for (std::size_t t = 0; t < n; ++t) {
    const double* x = X + t * kLanes;
    za.add_scaled(ca[t], x);
    zb.add_scaled(cb[t], x);
  }
}

// Quadratic forms x_b' D x_b of the kLanes count vectors in X (set-major)
// from the lower triangle, in index order; rows s and s + 1 together.
inline void one_distance_forms(const double* D, std::size_t S, const double* X, double* acc) {
  std::size_t s = 0;
  for (; s + 2 <= S; s += 2) {
    LaneSums za, zb;
    const double* ca = D + s * S;
    const double* cb = ca + S;
    two_column_sums(ca, cb, s, X, za, zb);
    zb.add_scaled(cb[s], X + s * kLanes);  // row s + 1's last term, t = s
    add_row_form(za, ca[s], X + s * kLanes, acc);
    add_row_form(zb, cb[s + 1], X + (s + 1) * kLanes, acc);
  }
  if (s < S) {
    LaneSums z;
    const double* c = D + s * S;
    for (std::size_t t = 0; t < s; ++t) z.add_scaled(c[t], X + t * kLanes);
    add_row_form(z, c[s], X + s * kLanes, acc);
  }
}

// The same for two distances at once (row by row): acc_a, acc_b.
inline void two_distance_forms(const double* Da, const double* Db, std::size_t S, const double* X,
                               double* acc_a, double* acc_b) {
  for (std::size_t s = 0; s < S; ++s) {
    LaneSums za, zb;
    two_column_sums(Da + s * S, Db + s * S, s, X, za, zb);
    add_row_form(za, Da[s * S + s], X + s * kLanes, acc_a);
    add_row_form(zb, Db[s * S + s], X + s * kLanes, acc_b);
  }
}

// All distances, two at a time (one load of x_t for both): q is
// n_distances x kLanes.
inline void block_quadratic_forms(const std::vector<const double*>& D, std::size_t S,
                                  const double* X, double* q) {
  std::fill(q, q + D.size() * kLanes, 0.0);
  std::size_t d = 0;
  for (; d + 2 <= D.size(); d += 2) {
    two_distance_forms(D[d], D[d + 1], S, X, q + d * kLanes, q + (d + 1) * kLanes);
  }
  if (d < D.size()) one_distance_forms(D[d], S, X, q + d * kLanes);
}

// Item sums (p x kLanes) and set counts (S x kLanes) of the kLanes
// replicates whose multiplicities wt holds (item-major: wt[i * kLanes + b]).
inline void lane_item_sums(const AlphaBootInput& in, const double* rows, const std::int32_t* wt,
                           double* acc, double* X) {
  const std::size_t p = in.n_terms;
  const bool sets = !in.D.empty();
  for (std::size_t i = 0; i < in.n_items; ++i) {
    double w[kLanes];
    for (std::size_t b = 0; b < kLanes; ++b) w[b] = static_cast<double>(wt[i * kLanes + b]);
    const double* row = rows + i * p;
    for (std::size_t j = 0; j < p; ++j) {
      double* a = acc + j * kLanes;
      const double r = row[j];
      for (std::size_t b = 0; b < kLanes; ++b) a[b] += w[b] * r;
    }
    if (!sets) continue;
    const ItemSetCounts& c = *in.sets;
    for (std::size_t e = c.start[i]; e < c.start[i + 1]; ++e) {
      double* x = X + static_cast<std::size_t>(c.set[e]) * kLanes;
      const double n = c.count[e];
      for (std::size_t b = 0; b < kLanes; ++b) x[b] += w[b] * n;
    }
  }
}

// Replicates [r0, r1) of stream st, kLanes at a time (the last block padded
// with zero multiplicities) into rows r - row0 of sums (x n_terms) and quad
// (x n_distances), column-major; rows: the terms item-major.
inline void alpha_boot_stream(const AlphaBootInput& in, const double* rows, const UnitDesign& u,
                              std::uint64_t seed, int st, std::size_t n_rep, std::size_t row0,
                              std::size_t n_out, double* sums, double* quad) {
  const std::size_t r0 = block_begin(st, n_rep), r1 = block_begin(st + 1, n_rep);
  if (r1 == r0) return;
  Rng rng = stream_rng(seed, st);
  std::vector<std::uint32_t> unit_w(u.n_units), buf(u.unit_of_item ? u.n_items : 0);
  const std::size_t S = in.D.empty() ? 0 : in.n_sets, p = in.n_terms, nd = in.D.size();
  std::vector<std::int32_t> wt(in.n_items * kLanes);
  std::vector<double> acc(p * kLanes), X(S * kLanes), q(nd * kLanes);
  for (std::size_t b0 = r0; b0 < r1; b0 += kLanes) {
    if (interrupted()) return;  // the replicates are discarded
    const std::size_t nb = std::min(kLanes, r1 - b0);
    if (nb < kLanes) std::fill(wt.begin(), wt.end(), 0);  // padded lanes draw nothing
    for (std::size_t b = 0; b < nb; ++b) {
      draw_units(rng, u, unit_w.data());
      const std::uint32_t* w = item_weights(u, unit_w.data(), buf.data());
      for (std::size_t i = 0; i < in.n_items; ++i) wt[i * kLanes + b] = static_cast<std::int32_t>(w[i]);
    }
    std::fill(acc.begin(), acc.end(), 0.0);
    std::fill(X.begin(), X.end(), 0.0);
    lane_item_sums(in, rows, wt.data(), acc.data(), X.data());
    const std::size_t out0 = b0 - row0;
    for (std::size_t j = 0; j < p; ++j) {
      for (std::size_t b = 0; b < nb; ++b) sums[j * n_out + out0 + b] = acc[j * kLanes + b];
    }
    if (nd == 0) continue;
    block_quadratic_forms(in.D, S, X.data(), q.data());
    for (std::size_t d = 0; d < nd; ++d) {
      for (std::size_t b = 0; b < nb; ++b) quad[d * n_out + out0 + b] = q[d * kLanes + b];
    }
  }
}

// The replicates of streams [s0, s1), streams in parallel; false if a thread
// ran out of memory.
inline bool alpha_boot(const AlphaBootInput& in, const UnitDesign& u, std::uint64_t seed,
                       std::size_t n_rep, int s0, int s1, int threads, double* sums, double* quad) {
  std::vector<double> rows(in.n_items * in.n_terms);
  for (std::size_t j = 0; j < in.n_terms; ++j) {
    for (std::size_t i = 0; i < in.n_items; ++i) rows[i * in.n_terms + j] = in.terms[j * in.n_items + i];
  }
  const std::size_t row0 = block_begin(s0, n_rep), n_out = block_begin(s1, n_rep) - row0;
  // streams poll the interrupt flag themselves
  return parallel_for_each(static_cast<std::size_t>(s1 - s0), threads, 1, 0, [&](std::size_t k) {
    alpha_boot_stream(in, rows.data(), u, seed, s0 + static_cast<int>(k), n_rep, row0, n_out, sums, quad);
  });
}

}  // namespace mlagreement

#endif
