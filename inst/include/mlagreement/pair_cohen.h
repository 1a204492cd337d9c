// Each annotator pair's own Cohen kappa (the conger baseline of conger.h for
// two annotators) on the cells both decided: per label, with n_j shared
// decisions, A and B positives and `agree` agreeing cells,
//   D_o,j = 1 - agree / n_j,  D_e,j = pA (1 - pB) + pB (1 - pA),  kappa_j = 1 - D_o,j / D_e,j;
// the pair's multi-label coefficient is 1 - sum_j D_o,j / sum_j D_e,j over
// its labels with a shared decision (eq. 6 for two annotators). A
// single-label design gives Cohen's kappa over the q categories. Light's
// kappa is the mean of these over pairs (R/light.R).
// Pure C++: no R headers.
#ifndef MLAGREEMENT_PAIR_COHEN_H
#define MLAGREEMENT_PAIR_COHEN_H

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "estimators.h"

namespace mlagreement {

struct PairCohen {
  std::vector<double> corpus;  // one per pair
  std::vector<double> label;   // pairs x labels, column-major
};

// Records of each annotator sorted by item: (item, record).
template <typename View>
std::vector<std::vector<std::pair<std::size_t, std::size_t>>> records_by_annotator(const View& v) {
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> out(v.n_annotators);
  for (std::size_t r = 0; r < v.n_records; ++r) out[v.annotator_of(r)].push_back({v.item_of(r), r});
  for (auto& a : out) std::sort(a.begin(), a.end());
  return out;
}

namespace detail {
inline double cohen_binary(double n, double pa, double pb, double agree, double* d_o, double* d_e) {
  *d_o = kNA;
  *d_e = kNA;
  if (!(n > 0)) return kNA;
  const double A = pa / n, B = pb / n;
  *d_o = 1.0 - agree / n;
  *d_e = A * (1.0 - B) + B * (1.0 - A);
  return *d_e > 0 ? 1.0 - *d_o / *d_e : kNA;
}
}  // namespace detail

// Pairs (a[p], b[p]), 0-based annotators; single: q categories (the labels),
// with category(r) the record's category or -1.
template <typename View, typename Codes, typename CategoryOf>
PairCohen pair_cohen(const View& v, const Codes& codes, const int* a, const int* b, std::size_t n_pairs,
                     bool single, CategoryOf category) {
  const std::size_t k = v.n_labels;
  const auto by_ann = records_by_annotator(v);
  PairCohen out;
  out.corpus.assign(n_pairs, kNA);
  out.label.assign(n_pairs * k, kNA);
  std::vector<double> n(k), pa(k), pb(k), agree(k), ma(single ? k : 0), mb(single ? k : 0);
  for (std::size_t p = 0; p < n_pairs; ++p) {
    std::fill(n.begin(), n.end(), 0.0);
    std::fill(pa.begin(), pa.end(), 0.0);
    std::fill(pb.begin(), pb.end(), 0.0);
    std::fill(agree.begin(), agree.end(), 0.0);
    std::fill(ma.begin(), ma.end(), 0.0);
    std::fill(mb.begin(), mb.end(), 0.0);
    double n_cat = 0, agree_cat = 0;
    const auto& A = by_ann[static_cast<std::size_t>(a[p])];
    const auto& B = by_ann[static_cast<std::size_t>(b[p])];
    std::size_t s = 0, t = 0;
    while (s < A.size() && t < B.size()) {
      if (A[s].first < B[t].first) { ++s; continue; }
      if (B[t].first < A[s].first) { ++t; continue; }
      const std::size_t ra = A[s].second, rb = B[t].second;
      for (std::size_t j = 0; j < k; ++j) {
        const auto va = v.column(j)[ra];
        const auto vb = v.column(j)[rb];
        if (!codes.decided(va) || !codes.decided(vb)) continue;
        const int xa = codes.positive(va), xb = codes.positive(vb);
        n[j] += 1;
        pa[j] += xa;
        pb[j] += xb;
        agree[j] += xa == xb ? 1 : 0;
      }
      if (single) {
        const int ca = category(ra), cb = category(rb);
        if (ca >= 0 && cb >= 0) {
          n_cat += 1;
          agree_cat += ca == cb ? 1 : 0;
          ma[static_cast<std::size_t>(ca)] += 1;
          mb[static_cast<std::size_t>(cb)] += 1;
        }
      }
      ++s;
      ++t;
    }
    long double d_sum = 0, w_sum = 0;
    bool any = false;
    for (std::size_t j = 0; j < k; ++j) {
      double d_o, d_e;
      out.label[p + j * n_pairs] = detail::cohen_binary(n[j], pa[j], pb[j], agree[j], &d_o, &d_e);
      if (!(n[j] > 0)) continue;
      any = true;
      d_sum += d_o;
      w_sum += d_e;
    }
    if (single) {
      if (n_cat > 0) {
        double pe = 0;
        for (std::size_t c = 0; c < k; ++c) pe += ma[c] * mb[c] / (n_cat * n_cat);
        const double po = agree_cat / n_cat;
        out.corpus[p] = pe < 1.0 ? (po - pe) / (1.0 - pe) : kNA;
      }
    } else if (any && w_sum > 0) {
      out.corpus[p] = static_cast<double>((w_sum - d_sum) / w_sum);
    }
  }
  return out;
}

}  // namespace mlagreement

#endif
