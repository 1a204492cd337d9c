// The sums behind the analytic standard errors (influence.h): sum_i
// (t_ib - est_b)^2 with t_ib a sum of per-cell terms over labels.
// See DESIGN.md, Algorithms: Analytic standard errors.
#ifndef MLAGREEMENT_INFLUENCE_SUMS_H
#define MLAGREEMENT_INFLUENCE_SUMS_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "cell_codes.h"
#include "estimators.h"

namespace mlagreement {

// Sum of squared deviations of the influence terms and the number of
// sampled items; sum_sq is NaN where the coefficient is undefined.
struct Influence {
  double sum_sq[kBaselines] = {kNA, kNA, kNA};
  double n = 0;
};

// The coefficients' sums and, in sum_sq[0] of `observed`, percent
// agreement's: one pass over the items gives both.
struct CorpusInfluence {
  Influence coefficient, observed;
};

namespace detail {

// The lanes of a pooled pass: the three baselines' coefficients, then percent
// agreement (the same observed part of a cell, no chance part).
constexpr int kLanes = kBaselines + 1;
constexpr int kObservedLane = kBaselines;

// Whether the cells' classes are tabulated: codes, and no more classes than
// items (otherwise the tables would cost more than the items).
template <typename Cells>
bool tabulated(const Cells& c) {
  return c.side > 0 && c.side * c.side <= c.n_items;
}

// Items per chunk of the pooled pass: a chunk's sums stay in L1.
constexpr std::size_t kInfluenceChunk = 1024;

// The lanes' sums of squared deviations as the coefficients' and percent
// agreement's results (NaN where the estimate is undefined).
inline CorpusInfluence lane_results(const long double* sum, double n, const double* est) {
  CorpusInfluence out;
  out.coefficient.n = out.observed.n = n;
  for (int b = 0; b < kBaselines; ++b) {
    if (!std::isnan(est[b])) out.coefficient.sum_sq[b] = static_cast<double>(sum[b]);
  }
  if (!std::isnan(est[kObservedLane])) out.observed.sum_sq[0] = static_cast<double>(sum[kObservedLane]);
  return out;
}

// sum_i (t_il - est_l)^2 over the items decided on one of cols, where
// add(u, j, i, t) adds a cell's kLanes terms T_u,l to t.
template <typename Cells, typename Add>
CorpusInfluence pooled_sums(const Cells& c, const std::vector<std::size_t>& cols, const double* est,
                            Add add) {
  long double sum[kLanes] = {0.0L, 0.0L, 0.0L, 0.0L};
  double n = 0;
  double t[kInfluenceChunk * kLanes];
  unsigned char rated[kInfluenceChunk];
  for (std::size_t start = 0; start < c.n_items; start += kInfluenceChunk) {
    const std::size_t len = std::min(kInfluenceChunk, c.n_items - start);
    std::fill(t, t + len * kLanes, 0.0);
    std::fill(rated, rated + len, static_cast<unsigned char>(0));
    for (std::size_t u = 0; u < cols.size(); ++u) {
      for (std::size_t i = 0; i < len; ++i) rated[i] |= add(u, cols[u], start + i, t + i * kLanes);
    }
    for (std::size_t i = 0; i < len; ++i) {
      if (!rated[i]) continue;
      n += 1;
      for (int l = 0; l < kLanes; ++l) {
        const double dev = t[i * kLanes + l] - est[l];
        sum[l] += static_cast<long double>(dev) * dev;
      }
    }
  }
  return lane_results(sum, n, est);
}

// A cell's term of lane l in two-sum form T_l = alpha_l(u, m) +
// beta_l P(u, m, x) + gamma_l Q(u, m, x), beta and gamma the same for every
// cell (observed part P, chance part Q): with one m per chunk and column an
// item's sums are a chunk constant plus two sums of table values.
struct TwoSums {
  double beta[kLanes] = {0.0, 0.0, 0.0, 0.0};
  double gamma[kLanes] = {0.0, 0.0, 0.0, 0.0};
  std::vector<double> alpha;  // (u * side^2 + code) * kLanes + l
  std::vector<double> pq;     // (u * side^2 + code) * 2 + {0: P, 1: Q}
};

// Two doubles as one vector (GCC/clang vector extension: SIMD where the
// target has it, else scalar): an item's (P, Q), or two of its lanes.
typedef double PQ __attribute__((vector_size(16)));

// (P, Q) tables of label pairs: entry x_a | x_b << 4 of pair v sums labels
// 2v and 2v + 1, so two cells are one look-up; rebuilt when an m changes.
struct PairTables {
  std::vector<double> pq;        // v * 512 + entry * 2 + {P, Q}
  std::vector<int> m_a, m_b;     // the m each pair's table was built for
  explicit PairTables(std::size_t k) : pq((k / 2) * 512, 0.0), m_a(k / 2, -1), m_b(k / 2, -1) {}
  const double* get(std::size_t v, const double* ta, int ma, const double* tb, int mb,
                    std::size_t side) {
    double* t = &pq[v * 512];
    if (m_a[v] != ma || m_b[v] != mb) {
      for (std::size_t xb = 0; xb < side; ++xb) {
        for (std::size_t xa = 0; xa < side; ++xa) {
          t[(xa | xb << 4) * 2] = ta[xa * 2] + tb[xb * 2];
          t[(xa | xb << 4) * 2 + 1] = ta[xa * 2 + 1] + tb[xb * 2 + 1];
        }
      }
      m_a[v] = ma;
      m_b[v] = mb;
    }
    return t;
  }
};

inline PQ load_pq(const double* p) {
  PQ v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// One chunk of tabulated_sums() when every column has one m (complete data):
// sums of P and Q straight from the x nibbles, four items at a time.
template <typename Cells>
bool common_m_sums(const Cells& c, const std::vector<std::size_t>& cols, const double* est,
                   const TwoSums& ts, PairTables& pairs, std::size_t start, std::size_t len,
                   double& n, long double* sum) {
  const std::size_t k = cols.size(), n_classes = c.side * c.side;
  if (len % 4 != 0 || k > 64 || c.side > 16) return false;
  const std::uint8_t* x_bytes[64];
  const double* base[64];
  int ms[64];
  double constant[kLanes] = {0.0, 0.0, 0.0, 0.0};
  bool rated = false;
  for (std::size_t u = 0; u < k; ++u) {
    if (!c.common_m(cols[u], start, &x_bytes[u], &ms[u])) return false;
    const std::size_t row = u * n_classes + static_cast<std::size_t>(ms[u]) * c.side;
    base[u] = &ts.pq[row * 2];
    if (ms[u] > 0) {
      for (int l = 0; l < kLanes; ++l) constant[l] += ts.alpha[row * kLanes + l];
    }
    rated |= ms[u] > 0;
  }
  if (!rated) return true;  // no decision in the chunk
  const double* pair_base[32];
  for (std::size_t v = 0; v < k / 2; ++v) {
    pair_base[v] = pairs.get(v, base[2 * v], ms[2 * v], base[2 * v + 1], ms[2 * v + 1], c.side);
  }
  double chunk_sum[kLanes] = {0.0, 0.0, 0.0, 0.0}, offset[kLanes];
  for (int l = 0; l < kLanes; ++l) offset[l] = constant[l] - est[l];
  for (std::size_t i0 = 0; i0 < len; i0 += 4) {
    PQ sa = {0.0, 0.0}, sb = {0.0, 0.0}, sc = {0.0, 0.0}, sd = {0.0, 0.0};
    for (std::size_t v = 0; v < k / 2; ++v) {
      const std::uint8_t* xa = x_bytes[2 * v] + i0 / 2;
      const std::uint8_t* xb = x_bytes[2 * v + 1] + i0 / 2;
      const unsigned lo_a = xa[0], hi_a = xa[1], lo_b = xb[0], hi_b = xb[1];
      const double* t = pair_base[v];
      sa += load_pq(t + ((lo_a & 15u) | (lo_b & 15u) << 4) * 2);
      sb += load_pq(t + ((lo_a >> 4) | (lo_b & 0xF0u)) * 2);
      sc += load_pq(t + ((hi_a & 15u) | (hi_b & 15u) << 4) * 2);
      sd += load_pq(t + ((hi_a >> 4) | (hi_b & 0xF0u)) * 2);
    }
    if (k % 2 == 1) {
      const std::uint8_t lo = x_bytes[k - 1][i0 / 2], hi = x_bytes[k - 1][i0 / 2 + 1];
      const double* t = base[k - 1];
      sa += load_pq(t + (lo & 15u) * 2);
      sb += load_pq(t + (lo >> 4) * 2);
      sc += load_pq(t + (hi & 15u) * 2);
      sd += load_pq(t + (hi >> 4) * 2);
    }
    // the four items' deviations, written out so that nothing is a call
    const PQ four[4] = {sa, sb, sc, sd};
    for (int l = 0; l < kLanes; ++l) {
      for (int i = 0; i < 4; ++i) {
        const double dev = offset[l] + ts.beta[l] * four[i][0] + ts.gamma[l] * four[i][1];
        chunk_sum[l] += dev * dev;
      }
    }
  }
  n += static_cast<double>(len);
  for (int l = 0; l < kLanes; ++l) sum[l] += chunk_sum[l];
  return true;
}

// pooled_sums() by class (tables[(u * side^2 + code) * kLanes + l] = T_u,l),
// labels in order so an item's sum is the same in any layout.
template <typename Cells>
CorpusInfluence tabulated_sums(const Cells& c, const std::vector<std::size_t>& cols, const double* est,
                               const std::vector<double>& tables, const TwoSums& ts) {
  const std::size_t n_classes = c.side * c.side, k = cols.size();
  long double sum[kLanes] = {0.0L, 0.0L, 0.0L, 0.0L};
  double n = 0;
  // item-major (codes[i * k + u]): one item's codes share cache lines
  std::vector<std::uint16_t> codes(k * kCellChunk);
  PairTables pairs(k);
  for (std::size_t start = 0; start < c.n_items; start += kCellChunk) {
    const std::size_t len = std::min(kCellChunk, c.n_items - start);
    if (common_m_sums(c, cols, est, ts, pairs, start, len, n, sum)) continue;
    for (std::size_t u = 0; u < k; ++u) c.chunk_codes(cols[u], start, len, &codes[u], k);
    // an item's four lanes as two two-lane vectors; squares in double per
    // chunk, chunks in long double
    double chunk_sum[kLanes] = {0.0, 0.0, 0.0, 0.0};
    const auto add_item = [&](PQ lo, PQ hi, std::size_t rated) {
      if (rated == 0) return;
      n += 1;
      const double dev[kLanes] = {lo[0] - est[0], lo[1] - est[1], hi[0] - est[2], hi[1] - est[3]};
      for (int l = 0; l < kLanes; ++l) chunk_sum[l] += dev[l] * dev[l];
    };
    std::size_t i0 = 0;
    for (; i0 + 4 <= len; i0 += 4) {  // four items at a time
      const std::uint16_t* item = &codes[i0 * k];
      PQ a_lo = {0, 0}, a_hi = {0, 0}, b_lo = {0, 0}, b_hi = {0, 0};
      PQ c_lo = {0, 0}, c_hi = {0, 0}, d_lo = {0, 0}, d_hi = {0, 0};
      std::size_t ra = 0, rb = 0, rc = 0, rd = 0;
      for (std::size_t u = 0; u < k; ++u) {
        const double* tab = &tables[u * n_classes * kLanes];
        const std::size_t ca = item[u], cb = item[k + u], cc = item[2 * k + u], cd = item[3 * k + u];
        a_lo += load_pq(tab + ca * kLanes);
        a_hi += load_pq(tab + ca * kLanes + 2);
        b_lo += load_pq(tab + cb * kLanes);
        b_hi += load_pq(tab + cb * kLanes + 2);
        c_lo += load_pq(tab + cc * kLanes);
        c_hi += load_pq(tab + cc * kLanes + 2);
        d_lo += load_pq(tab + cd * kLanes);
        d_hi += load_pq(tab + cd * kLanes + 2);
        // code >= side exactly when m >= 1 (m = 0: x = 0, code 0)
        ra |= ca; rb |= cb; rc |= cc; rd |= cd;
      }
      add_item(a_lo, a_hi, ra);
      add_item(b_lo, b_hi, rb);
      add_item(c_lo, c_hi, rc);
      add_item(d_lo, d_hi, rd);
    }
    for (; i0 < len; ++i0) {
      const std::uint16_t* item = &codes[i0 * k];
      PQ lo = {0, 0}, hi = {0, 0};
      std::size_t rated = 0;
      for (std::size_t u = 0; u < k; ++u) {
        const double* cell = &tables[(u * n_classes + item[u]) * kLanes];
        lo += load_pq(cell);
        hi += load_pq(cell + 2);
        rated |= item[u];
      }
      add_item(lo, hi, rated);
    }
    for (int l = 0; l < kLanes; ++l) sum[l] += chunk_sum[l];
  }
  return lane_results(sum, n, est);
}

// pooled_sums() with the cell terms in two-sum form (parts(u, m, x, alpha,
// P, Q), m >= 1; alpha of kLanes), tabulated by class when the cells have
// codes; est: the three coefficients, then percent agreement.
template <typename Cells, typename Parts>
CorpusInfluence pooled_influence(const Cells& c, const std::vector<std::size_t>& cols,
                                 const double* est, TwoSums form, Parts parts) {
  // T_l of one cell; its P and Q in pq[0], pq[1]
  const auto term = [&](std::size_t u, double m, double x, double* t, double* pq, double* alpha) {
    parts(u, m, x, alpha, pq[0], pq[1]);
    for (int l = 0; l < kLanes; ++l) t[l] = alpha[l] + form.beta[l] * pq[0] + form.gamma[l] * pq[1];
  };
  if (!tabulated(c)) {
    return pooled_sums(c, cols, est, [&](std::size_t u, std::size_t j, std::size_t i, double* t) {
      const int m = c.m_at(j, i);
      if (m < 1) return static_cast<unsigned char>(0);
      double cell[kLanes], pq[2], alpha[kLanes];
      term(u, static_cast<double>(m), static_cast<double>(c.x_at(j, i)), cell, pq, alpha);
      for (int l = 0; l < kLanes; ++l) t[l] += cell[l];
      return static_cast<unsigned char>(1);
    });
  }
  const std::size_t side = c.side, n_classes = side * side, k = cols.size();
  std::vector<double> tables(k * n_classes * kLanes, 0.0);
  form.alpha.assign(k * n_classes * kLanes, 0.0);
  form.pq.assign(k * n_classes * 2, 0.0);
  for (std::size_t u = 0; u < k; ++u) {
    for (std::size_t m = 1; m < side; ++m) {
      for (std::size_t x = 0; x <= m; ++x) {
        const std::size_t row = u * n_classes + m * side + x;
        // alpha does not depend on x: kept on the class row of x = 0 (m)
        term(u, static_cast<double>(m), static_cast<double>(x), &tables[row * kLanes],
             &form.pq[row * 2], &form.alpha[(u * n_classes + m * side) * kLanes]);
      }
    }
  }
  return tabulated_sums(c, cols, est, tables, form);
}

// Items decided on one of the columns cols: n_items when one column decides
// every item (complete data), else one pass over the cells.
template <typename Cells>
double items_decided(const Cells& c, const std::vector<std::size_t>& cols,
                     const std::vector<LabelSummary>& labels) {
  for (const std::size_t j : cols) {
    if (labels[j].n_rated == static_cast<double>(c.n_items)) return labels[j].n_rated;
  }
  std::vector<unsigned char> decided(c.n_items, 0);
  for (const std::size_t j : cols) {
    for (std::size_t i = 0; i < c.n_items; ++i) decided[i] |= static_cast<unsigned char>(c.m_at(j, i) > 0);
  }
  double n = 0;
  for (const unsigned char d : decided) n += d;
  return n;
}

// What every corpus-level influence of a multi-label fit starts from: the
// labels of the corpus mean (some item with two decisions), the items
// decided on them (n) and n / L; ok = false: too little for an influence.
struct CorpusItems {
  std::vector<std::size_t> used;
  double n = 0, scale = 0;
  bool ok = false;
  // The result before any sum: n set, sums undefined.
  CorpusInfluence undefined() const {
    CorpusInfluence out;
    out.coefficient.n = out.observed.n = n;
    return out;
  }
};

template <typename Cells>
CorpusItems corpus_items(const Cells& c, const std::vector<LabelSummary>& labels,
                         const CorpusSummary& corpus) {
  CorpusItems ci;
  for (std::size_t j = 0; j < labels.size(); ++j) {
    if (labels[j].n_pairable > 0) ci.used.push_back(j);
  }
  ci.n = items_decided(c, ci.used, labels);
  ci.ok = corpus.n_labels_used > 0 && ci.n > 1;
  if (ci.ok) ci.scale = ci.n / corpus.n_labels_used;
  return ci;
}

}  // namespace detail

}  // namespace mlagreement

#endif
