// Each annotator pair's own Cohen kappa on the cells both decided, per label
// and pooled (Light's kappa is their mean, R/light.R).
// See DESIGN.md, Algorithms: Annotator-specific chance.
#ifndef MLAGREEMENT_PAIR_COHEN_H
#define MLAGREEMENT_PAIR_COHEN_H

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "estimators.h"

namespace mlagreement {

struct PairCohen {
  std::vector<double> corpus;  // one per pair
  std::vector<double> label;   // pairs x labels, column-major
};

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

// Records grouped by item (counting sort).
template <typename View>
void records_by_item(const View& v, std::vector<std::size_t>& start, std::vector<std::size_t>& rec) {
  start.assign(v.n_items + 1, 0);
  for (std::size_t r = 0; r < v.n_records; ++r) ++start[v.item_of(r) + 1];
  for (std::size_t i = 0; i < v.n_items; ++i) start[i + 1] += start[i];
  std::vector<std::size_t> next(start.begin(), start.end() - 1);
  rec.resize(v.n_records);
  for (std::size_t r = 0; r < v.n_records; ++r) rec[next[v.item_of(r)]++] = r;
}
}  // namespace detail

// Pairs (a[p], b[p]), 0-based; single: q categories, category(r) the
// record's category or -1. One pass over the record pairs within items.
template <typename View, typename Codes, typename CategoryOf>
PairCohen pair_cohen(const View& v, const Codes& codes, const int* a, const int* b, std::size_t n_pairs,
                     bool single, CategoryOf category) {
  const std::size_t k = v.n_labels, J = v.n_annotators;
  std::unordered_map<std::uint64_t, std::size_t> slot;
  slot.reserve(n_pairs);
  for (std::size_t p = 0; p < n_pairs; ++p) {
    slot[static_cast<std::uint64_t>(a[p]) * J + static_cast<std::uint64_t>(b[p])] = p;
  }
  // per pair and label: shared decisions, positives of a, of b, agreements
  std::vector<std::uint32_t> n(n_pairs * k, 0), pa(n_pairs * k, 0), pb(n_pairs * k, 0),
      agree(n_pairs * k, 0);
  std::vector<std::uint32_t> n_cat(single ? n_pairs : 0, 0), agree_cat(single ? n_pairs : 0, 0);
  std::vector<std::uint32_t> ma(single ? n_pairs * k : 0, 0), mb(single ? n_pairs * k : 0, 0);
  std::vector<std::size_t> start, rec;
  detail::records_by_item(v, start, rec);
  for (std::size_t i = 0; i < v.n_items; ++i) {
    for (std::size_t s = start[i]; s < start[i + 1]; ++s) {
      for (std::size_t t = s + 1; t < start[i + 1]; ++t) {
        std::size_t ra = rec[s], rb = rec[t];
        std::size_t ga = v.annotator_of(ra), gb = v.annotator_of(rb);
        auto it = slot.find(static_cast<std::uint64_t>(ga) * J + gb);
        if (it == slot.end()) {
          it = slot.find(static_cast<std::uint64_t>(gb) * J + ga);
          if (it == slot.end()) continue;
          std::swap(ra, rb);
        }
        const std::size_t p = it->second;
        for (std::size_t j = 0; j < k; ++j) {
          const auto va = v.column(j)[ra];
          const auto vb = v.column(j)[rb];
          if (!codes.decided(va) || !codes.decided(vb)) continue;
          const int xa = codes.positive(va), xb = codes.positive(vb);
          const std::size_t at = p + j * n_pairs;
          ++n[at];
          pa[at] += static_cast<std::uint32_t>(xa);
          pb[at] += static_cast<std::uint32_t>(xb);
          agree[at] += xa == xb ? 1u : 0u;
        }
        if (!single) continue;
        const int ca = category(ra), cb = category(rb);
        if (ca < 0 || cb < 0) continue;
        ++n_cat[p];
        agree_cat[p] += ca == cb ? 1u : 0u;
        ++ma[p + static_cast<std::size_t>(ca) * n_pairs];
        ++mb[p + static_cast<std::size_t>(cb) * n_pairs];
      }
    }
  }
  PairCohen out;
  out.corpus.assign(n_pairs, kNA);
  out.label.assign(n_pairs * k, kNA);
  for (std::size_t p = 0; p < n_pairs; ++p) {
    long double d_sum = 0, w_sum = 0;
    bool any = false;
    for (std::size_t j = 0; j < k; ++j) {
      const std::size_t at = p + j * n_pairs;
      double d_o, d_e;
      out.label[at] = detail::cohen_binary(n[at], pa[at], pb[at], agree[at], &d_o, &d_e);
      if (n[at] == 0) continue;
      any = true;
      d_sum += d_o;
      w_sum += d_e;
    }
    if (single) {
      if (n_cat[p] == 0) continue;
      const double nc = n_cat[p];
      double pe = 0;
      for (std::size_t c = 0; c < k; ++c) pe += ma[p + c * n_pairs] / nc * (mb[p + c * n_pairs] / nc);
      const double po = agree_cat[p] / nc;
      out.corpus[p] = pe < 1.0 ? (po - pe) / (1.0 - pe) : kNA;
    } else if (any && w_sum > 0) {
      out.corpus[p] = static_cast<double>((w_sum - d_sum) / w_sum);
    }
  }
  return out;
}

}  // namespace mlagreement

#endif
