// Analytic standard errors: Gwet's linearisation over items, as irrCAC
// implements it (fleiss.kappa.raw(), gwet.ac1.raw(), bp.coeff.raw()),
// generalised to multi-label corpus coefficients. The point values come from
// the estimator kernel (estimators.h, single_label.h); this file only adds
// each item's influence term c_i*, whose mean is the coefficient c, and
// returns sum_i (c_i* - c)^2 over the n sampled items. R turns it into
// var = (1 - f) / (n (n - 1)) * sum (finite-population correction f = n / N).
//
// One label (irrCAC's binary case; n = items rated on it, n2 = pairable ones,
// w = 1 - A_e its chance disagreement, d_i = 2 x (m - x) / (m (m - 1))):
//   c_i  = (n / n2) [m_i >= 2] (w - d_i) / w            observed part
//   c_i* = c_i - (1 - c) e'(p) (x_i / m_i - p) / w       chance part
// with e'(p) = dA_e/dp = 4p - 2 (Fleiss), 2 - 4p (AC1), 0 (PABAK).
// Corpus (means over the L labels with a pairable item, n = items rated on
// one of them, W and D the corpus chance and observed disagreement):
//   O_i     = mean_j (n / n2_j) [m_ij >= 2] (w_j - d_ij)
//   delta_i = mean_j e'_j(p_j) (n / n1_j) [m_ij >= 1] (x_ij / m_ij - p_j)
//   c_i*    = (O_i - (1 - c) delta_i) / W
// which is the one-label formula when L = 1.
//
// An item's terms depend on its cell (i, j) only through the cell's class
// (m, x) (cell_codes.h). So a label's sum is one term per class times the
// class's items, and a corpus term c_i* is a sum over labels of per-class
// terms: tables per label, one lookup and add per cell. Cells come from the
// stored codes of a dense array or from the x/m tables of the records layout
// (cell by cell when there are too many classes to tabulate).
// Pure C++: no R headers.
#ifndef MLAGREEMENT_INFLUENCE_H
#define MLAGREEMENT_INFLUENCE_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
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

// dA_e / dp for one binary label: A_e = 1 - 2pq (Fleiss), 2pq (AC1), 1/2.
inline double chance_slope(int baseline, double p) {
  switch (baseline) {
    case kFleiss: return 4.0 * p - 2.0;
    case kAc1: return 2.0 - 4.0 * p;
    default: return 0.0;
  }
}

namespace detail {
inline double pair_disagreement(double x, double m) { return 2.0 * x * (m - x) / (m * (m - 1.0)); }

// Whether the cells' classes are tabulated: codes, and no more classes than
// items (otherwise the tables would cost more than the items).
template <typename Cells>
bool tabulated(const Cells& c) {
  return c.side > 0 && c.side * c.side <= c.n_items;
}

// Items of each class of column j (side * side bins), chunk by chunk.
template <typename Cells>
std::vector<std::int64_t> class_counts(const Cells& c, std::size_t j) {
  std::vector<std::int64_t> bins(c.side * c.side, 0);
  for (std::size_t start = 0; start < c.n_items; start += kCellChunk) {
    c.add_class_counts(j, start, std::min(kCellChunk, c.n_items - start), bins.data());
  }
  return bins;
}
}  // namespace detail

// Label j, all baselines; s = the kernel's summary of label j. With class
// codes, one term per class weighted by its items; otherwise item by item.
template <typename Cells>
Influence label_influence(const Cells& c, std::size_t j, const LabelSummary& s) {
  Influence out;
  out.n = s.n_rated;
  if (!(s.n_pairable > 0) || !(s.n_rated > 1)) return out;
  const double scale = s.n_rated / s.n_pairable;
  double w[kBaselines], est[kBaselines], slope[kBaselines];
  for (int b = 0; b < kBaselines; ++b) {
    w[b] = label_chance_disagreement(s, b);
    est[b] = label_coefficient(s, b);
    slope[b] = chance_slope(b, s.p);
  }
  const auto dev_of = [&](int b, double x, double m) {
    const double obs = m >= 2 ? scale * (w[b] - detail::pair_disagreement(x, m)) / w[b] : 0.0;
    return obs - (1.0 - est[b]) * slope[b] * (x / m - s.p) / w[b] - est[b];
  };
  long double sum[kBaselines] = {0.0L, 0.0L, 0.0L};
  if (detail::tabulated(c)) {
    const std::vector<std::int64_t> items = detail::class_counts(c, j);
    for (std::size_t code = c.side; code < items.size(); ++code) {  // m >= 1
      if (items[code] == 0) continue;
      const double m = static_cast<double>(code / c.side), x = static_cast<double>(code % c.side);
      for (int b = 0; b < kBaselines; ++b) {
        const double dev = dev_of(b, x, m);
        sum[b] += static_cast<long double>(items[code]) * dev * dev;
      }
    }
  } else {
    for (std::size_t i = 0; i < c.n_items; ++i) {
      const int m = c.m_at(j, i);
      if (m < 1) continue;
      for (int b = 0; b < kBaselines; ++b) {
        const double dev = dev_of(b, c.x_at(j, i), m);
        sum[b] += static_cast<long double>(dev) * dev;
      }
    }
  }
  for (int b = 0; b < kBaselines; ++b) {
    if (!std::isnan(est[b])) out.sum_sq[b] = static_cast<double>(sum[b]);
  }
  return out;
}

namespace detail {

// Items per chunk of the pooled pass: a chunk's sums stay in L1.
constexpr std::size_t kInfluenceChunk = 1024;

// sum_i (t_ib - est_b)^2 over the items decided on one of the columns cols,
// t_ib = sum_u T_u,b(cell (i, cols[u])); add(u, j, i, t) adds the three
// T_u,b of one cell to t. The corpus terms of both designs are such sums.
template <typename Cells, typename Add>
Influence pooled_sums(const Cells& c, const std::vector<std::size_t>& cols, const double* est,
                      Add add) {
  Influence out;
  long double sum[kBaselines] = {0.0L, 0.0L, 0.0L};
  double t[kInfluenceChunk * kBaselines];
  unsigned char rated[kInfluenceChunk];
  for (std::size_t start = 0; start < c.n_items; start += kInfluenceChunk) {
    const std::size_t len = std::min(kInfluenceChunk, c.n_items - start);
    std::fill(t, t + len * kBaselines, 0.0);
    std::fill(rated, rated + len, static_cast<unsigned char>(0));
    for (std::size_t u = 0; u < cols.size(); ++u) {
      for (std::size_t i = 0; i < len; ++i) rated[i] |= add(u, cols[u], start + i, t + i * kBaselines);
    }
    for (std::size_t i = 0; i < len; ++i) {
      if (!rated[i]) continue;
      out.n += 1;
      for (int b = 0; b < kBaselines; ++b) {
        const double dev = t[i * kBaselines + b] - est[b];
        sum[b] += static_cast<long double>(dev) * dev;
      }
    }
  }
  for (int b = 0; b < kBaselines; ++b) {
    if (!std::isnan(est[b])) out.sum_sq[b] = static_cast<double>(sum[b]);
  }
  return out;
}

// One chunk of tabulated_sums() when every column has one m on its items
// (complete data): the terms straight from the x nibbles, two items a byte,
// four items at a time; the same sums, in the same order, as from codes.
template <typename Cells>
bool common_m_sums(const Cells& c, const std::vector<std::size_t>& cols, const double* est,
                   const std::vector<double>& tables, std::size_t start, std::size_t len,
                   Influence& out, long double* sum) {
  const std::size_t k = cols.size(), n_classes = c.side * c.side;
  if (len % 4 != 0 || k > 64) return false;
  const std::uint8_t* x_bytes[64];
  const double* base[64];
  bool rated = false;
  for (std::size_t u = 0; u < k; ++u) {
    int m = 0;
    if (!c.common_m(cols[u], start, &x_bytes[u], &m)) return false;
    base[u] = &tables[(u * n_classes + static_cast<std::size_t>(m) * c.side) * kBaselines];
    rated |= m > 0;
  }
  if (!rated) return true;  // no decision in the chunk
  double chunk_sum[kBaselines] = {0.0, 0.0, 0.0};
  for (std::size_t i0 = 0; i0 < len; i0 += 4) {
    double a0 = 0, a1 = 0, a2 = 0, b0 = 0, b1 = 0, b2 = 0;
    double c0 = 0, c1 = 0, c2 = 0, d0 = 0, d1 = 0, d2 = 0;
    for (std::size_t u = 0; u < k; ++u) {
      const std::uint8_t lo = x_bytes[u][i0 / 2], hi = x_bytes[u][i0 / 2 + 1];
      const double* pa = base[u] + (lo & 15) * kBaselines;
      const double* pb = base[u] + (lo >> 4) * kBaselines;
      const double* pc = base[u] + (hi & 15) * kBaselines;
      const double* pd = base[u] + (hi >> 4) * kBaselines;
      a0 += pa[0]; a1 += pa[1]; a2 += pa[2];
      b0 += pb[0]; b1 += pb[1]; b2 += pb[2];
      c0 += pc[0]; c1 += pc[1]; c2 += pc[2];
      d0 += pd[0]; d1 += pd[1]; d2 += pd[2];
    }
    const double t[4][kBaselines] = {{a0, a1, a2}, {b0, b1, b2}, {c0, c1, c2}, {d0, d1, d2}};
    for (int l = 0; l < 4; ++l) {
      for (int b = 0; b < kBaselines; ++b) {
        const double dev = t[l][b] - est[b];
        chunk_sum[b] += dev * dev;
      }
    }
  }
  out.n += static_cast<double>(len);
  for (int b = 0; b < kBaselines; ++b) sum[b] += chunk_sum[b];
  return true;
}

// pooled_sums() by class: tables[(u * side^2 + code) * 3 + b] = T_u,b. A
// chunk's codes of every column, then item by item with the sums in
// registers (labels in order, so an item's sum is the same in any layout).
template <typename Cells>
Influence tabulated_sums(const Cells& c, const std::vector<std::size_t>& cols, const double* est,
                         const std::vector<double>& tables) {
  const std::size_t n_classes = c.side * c.side, k = cols.size();
  Influence out;
  long double sum[kBaselines] = {0.0L, 0.0L, 0.0L};
  // item-major (codes[i * k + u]): one item's codes share cache lines
  std::vector<std::uint16_t> codes(k * kCellChunk);
  for (std::size_t start = 0; start < c.n_items; start += kCellChunk) {
    const std::size_t len = std::min(kCellChunk, c.n_items - start);
    if (common_m_sums(c, cols, est, tables, start, len, out, sum)) continue;
    for (std::size_t u = 0; u < k; ++u) c.chunk_codes(cols[u], start, len, &codes[u], k);
    // four items at a time: their sums are independent chains of adds
    // (written out: compilers keep an indexed lane array in memory). A
    // chunk's squares are summed in double, the chunks in long double.
    double chunk_sum[kBaselines] = {0.0, 0.0, 0.0};
    const auto add_item = [&](double t0, double t1, double t2, std::size_t rated) {
      if (rated == 0) return;
      out.n += 1;
      const double d0 = t0 - est[0], d1 = t1 - est[1], d2 = t2 - est[2];
      chunk_sum[0] += d0 * d0;
      chunk_sum[1] += d1 * d1;
      chunk_sum[2] += d2 * d2;
    };
    std::size_t i0 = 0;
    for (; i0 + 4 <= len; i0 += 4) {
      const std::uint16_t* item = &codes[i0 * k];
      double a0 = 0, a1 = 0, a2 = 0, b0 = 0, b1 = 0, b2 = 0;
      double c0 = 0, c1 = 0, c2 = 0, d0 = 0, d1 = 0, d2 = 0;
      std::size_t ra = 0, rb = 0, rc = 0, rd = 0;
      for (std::size_t u = 0; u < k; ++u) {
        const double* tab = &tables[u * n_classes * kBaselines];
        const std::size_t ca = item[u], cb = item[k + u], cc = item[2 * k + u], cd = item[3 * k + u];
        const double* pa = tab + ca * kBaselines;
        const double* pb = tab + cb * kBaselines;
        const double* pc = tab + cc * kBaselines;
        const double* pd = tab + cd * kBaselines;
        a0 += pa[0]; a1 += pa[1]; a2 += pa[2];
        b0 += pb[0]; b1 += pb[1]; b2 += pb[2];
        c0 += pc[0]; c1 += pc[1]; c2 += pc[2];
        d0 += pd[0]; d1 += pd[1]; d2 += pd[2];
        // code >= side exactly when m >= 1 (m = 0: x = 0, code 0)
        ra |= ca; rb |= cb; rc |= cc; rd |= cd;
      }
      add_item(a0, a1, a2, ra);
      add_item(b0, b1, b2, rb);
      add_item(c0, c1, c2, rc);
      add_item(d0, d1, d2, rd);
    }
    for (; i0 < len; ++i0) {
      const std::uint16_t* item = &codes[i0 * k];
      double a0 = 0, a1 = 0, a2 = 0;
      std::size_t ra = 0;
      for (std::size_t u = 0; u < k; ++u) {
        const double* pa = &tables[(u * n_classes + item[u]) * kBaselines];
        a0 += pa[0]; a1 += pa[1]; a2 += pa[2];
        ra |= item[u];
      }
      add_item(a0, a1, a2, ra);
    }
    for (int b = 0; b < kBaselines; ++b) sum[b] += chunk_sum[b];
  }
  for (int b = 0; b < kBaselines; ++b) {
    if (!std::isnan(est[b])) out.sum_sq[b] = static_cast<double>(sum[b]);
  }
  return out;
}

// pooled_sums() with the cell terms term(u, m, x, T) (m >= 1; 0 for m = 0)
// tabulated by class when the cells have codes, else computed per cell.
template <typename Cells, typename Term>
Influence pooled_influence(const Cells& c, const std::vector<std::size_t>& cols,
                           const double* est, Term term) {
  if (!tabulated(c)) {
    return pooled_sums(c, cols, est, [&](std::size_t u, std::size_t j, std::size_t i, double* t) {
      const int m = c.m_at(j, i);
      if (m < 1) return static_cast<unsigned char>(0);
      double cell[kBaselines];
      term(u, static_cast<double>(m), static_cast<double>(c.x_at(j, i)), cell);
      for (int b = 0; b < kBaselines; ++b) t[b] += cell[b];
      return static_cast<unsigned char>(1);
    });
  }
  const std::size_t side = c.side, n_classes = side * side, k = cols.size();
  std::vector<double> tables(k * n_classes * kBaselines, 0.0);
  for (std::size_t u = 0; u < k; ++u) {
    for (std::size_t m = 1; m < side; ++m) {
      for (std::size_t x = 0; x <= m; ++x) {
        term(u, static_cast<double>(m), static_cast<double>(x),
             &tables[((u * n_classes) + m * side + x) * kBaselines]);
      }
    }
  }
  return tabulated_sums(c, cols, est, tables);
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

}  // namespace detail

// Corpus level of a multi-label fit from the kernel's label summaries and
// corpus summary: c_i* = sum over the used labels j of
//   (n / L) ([m >= 2] (w_j - d) / n2_j - (1 - c) e' [m >= 1] (x / m - p_j) / n1_j) / W.
template <typename Cells>
Influence corpus_influence(const Cells& c, const std::vector<LabelSummary>& labels,
                           const CorpusSummary& corpus) {
  std::vector<std::size_t> used;
  for (std::size_t j = 0; j < labels.size(); ++j) {
    if (labels[j].n_pairable > 0) used.push_back(j);
  }
  Influence out;
  out.n = detail::items_decided(c, used, labels);
  if (!(corpus.n_labels_used > 0) || !(out.n > 1)) return out;
  const double scale = out.n / corpus.n_labels_used;  // n / L
  const double sign[kBaselines] = {1.0, -1.0, 0.0};   // e'_AC1 = -e'_Fleiss, PABAK 0
  const double* est = corpus.estimate;
  const auto term = [&](std::size_t u, double m, double x, double* t) {
    const LabelSummary& s = labels[used[u]];
    const double chance = chance_slope(kFleiss, s.p) / s.n_rated * (x / m - s.p);
    const double d = m >= 2 ? detail::pair_disagreement(x, m) : 0.0;
    for (int b = 0; b < kBaselines; ++b) {
      const double obs = m >= 2 ? (label_chance_disagreement(s, b) - d) / s.n_pairable : 0.0;
      t[b] = scale * (obs - (1.0 - est[b]) * sign[b] * chance) / corpus.w[b];
    }
  };
  Influence f = detail::pooled_influence(c, used, est, term);
  f.n = out.n;
  return f;
}

// Corpus level of a single-label design (q categories, one-hot labels; every
// record decides every category, so an item's r = m is the same on each):
// irrCAC's multi-category formulas, pe_i - pe = sum_k (u_ik - pi_k) pi_k
// (Fleiss), its negative over q - 1 (AC1, as sum_k u_ik = sum_k pi_k = 1), 0
// (Brennan-Prediger). pi = the kernel's category prevalences; w, est =
// summarise_single_label(); labels: the categories' summaries.
template <typename Cells>
Influence single_label_influence(const Cells& c, const std::vector<LabelSummary>& labels,
                                 const std::vector<double>& pi, const double* w, const double* est) {
  Influence out;
  const std::size_t q = c.n_labels;
  if (q == 0) return out;
  out.n = labels[0].n_rated;
  if (!(labels[0].n_pairable > 0) || !(out.n > 1)) return out;
  const double scale = out.n / labels[0].n_pairable;
  const double factor[kBaselines] = {1.0, q > 1 ? -1.0 / (static_cast<double>(q) - 1.0) : 0.0,
                                     0.0};
  std::vector<std::size_t> all(q);
  for (std::size_t k = 0; k < q; ++k) all[k] = k;
  const auto term = [&](std::size_t k, double r, double x, double* t) {
    const double chance = (x / r - pi[k]) * pi[k];
    const double dis = r >= 2 ? x * (r - x) / (r * (r - 1.0)) : 0.0;
    for (int b = 0; b < kBaselines; ++b) {
      // the observed part scale (w - sum_k dis_k) / w, its constant on category 0
      const double obs = r >= 2 ? scale * ((k == 0 ? 1.0 : 0.0) - dis / w[b]) : 0.0;
      t[b] = obs - 2.0 * (1.0 - est[b]) * factor[b] * chance / w[b];
    }
  };
  Influence f = detail::pooled_influence(c, all, est, term);
  f.n = out.n;
  return f;
}

}  // namespace mlagreement

#endif
