// The annotator-specific ("conger") baseline (Conger 1980, as irrCAC's
// conger.kappa.raw()): point estimates from annotator x label tallies,
// influence terms and item replicates from the records.
// See DESIGN.md, Algorithms: Annotator-specific chance.
#ifndef MLAGREEMENT_CONGER_H
#define MLAGREEMENT_CONGER_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "estimators.h"

namespace mlagreement {

// Annotator x label tallies (column-major, annotators x labels).
struct AnnotatorTallies {
  std::size_t n_annotators = 0, n_labels = 0;
  std::vector<double> positives, decisions;
};

template <typename View, typename Codes>
AnnotatorTallies annotator_tallies(const View& v, const Codes& codes) {
  AnnotatorTallies t;
  t.n_annotators = v.n_annotators;
  t.n_labels = v.n_labels;
  t.positives.assign(t.n_annotators * t.n_labels, 0.0);
  t.decisions.assign(t.n_annotators * t.n_labels, 0.0);
  for (std::size_t j = 0; j < v.n_labels; ++j) {
    const auto* col = v.column(j);
    double* pos = t.positives.data() + j * t.n_annotators;
    double* dec = t.decisions.data() + j * t.n_annotators;
    if (v.annotator == nullptr) {  // dense: annotator a owns records a * n_items, ...
      for (std::size_t a = 0; a < v.n_annotators; ++a) {
        std::int64_t d = 0, p = 0;
        const auto* first = col + a * v.n_items;
        // a run-time trip count: -O2's cheap vectoriser would leave it scalar
#ifdef _OPENMP
#pragma omp simd reduction(+ : d, p)
#endif
        for (std::size_t i = 0; i < v.n_items; ++i) {
          d += codes.decided(first[i]);
          p += codes.positive(first[i]);
        }
        dec[a] = static_cast<double>(d);
        pos[a] = static_cast<double>(p);
      }
      continue;
    }
    for (std::size_t r = 0; r < v.n_records; ++r) {
      const std::size_t a = v.annotator_of(r);
      dec[a] += codes.decided(col[r]);
      pos[a] += codes.positive(col[r]);
    }
  }
  return t;
}

// Chance disagreement of a binary label from its annotators' positives and
// decisions; NaN with fewer than two annotators with decisions.
inline double conger_binary_disagreement(const double* pos, const double* dec, std::size_t n,
                                         double* n_raters = nullptr) {
  long double sp = 0, sq = 0, spq = 0, r = 0;
  for (std::size_t g = 0; g < n; ++g) {
    if (!(dec[g] > 0)) continue;
    const long double p = pos[g] / static_cast<long double>(dec[g]);
    const long double q = (dec[g] - pos[g]) / static_cast<long double>(dec[g]);
    sp += p;
    sq += q;
    spq += p * q;
    r += 1;
  }
  if (n_raters) *n_raters = static_cast<double>(r);
  if (r < 2) return kNA;
  return static_cast<double>(2.0L * (sp * sq - spq) / (r * (r - 1)));
}

// pe of q categories with weights W (q x q) from the annotators' category
// counts (n x q, column-major; rows with dec <= 0 left out).
inline double conger_weighted_chance(const double* counts, const double* dec, std::size_t n,
                                     std::size_t q, const double* W) {
  std::vector<long double> S(q, 0.0L), p(q);
  long double diag = 0, r = 0;
  for (std::size_t g = 0; g < n; ++g) {
    if (!(dec[g] > 0)) continue;
    r += 1;
    for (std::size_t k = 0; k < q; ++k) {
      p[k] = counts[g + k * n] / static_cast<long double>(dec[g]);
      S[k] += p[k];
    }
    for (std::size_t k = 0; k < q; ++k)
      for (std::size_t l = 0; l < q; ++l) diag += W[k + l * q] * p[k] * p[l];
  }
  if (r < 2) return kNA;
  long double cross = 0;
  for (std::size_t k = 0; k < q; ++k)
    for (std::size_t l = 0; l < q; ++l) cross += W[k + l * q] * S[k] * S[l];
  return static_cast<double>((cross - diag) / (r * (r - 1)));
}

// One problem (one label, or the categories of a single-label design):
// category(r) the record's category or -1; mult the items' multiplicities
// (nullptr: once). With `terms`, each item's pa_i - pe and pe_i - pe.
struct CongerProblem {
  double n = 0, n2 = 0, pa = kNA, pe = kNA, estimate = kNA;
  std::vector<unsigned char> rated, pairable;
  std::vector<double> a, e;  // pa_i - pe, pe_i - pe
};

template <typename View, typename CategoryOf>
CongerProblem conger_problem(const View& v, CategoryOf category, std::size_t q, const double* W,
                             const double* mult, bool terms) {
  const std::size_t N = v.n_items, J = v.n_annotators;
  CongerProblem out;
  std::vector<double> item_cnt(N * q, 0.0), ann_cnt(J * q, 0.0), ann_n(J, 0.0);
  for (std::size_t r = 0; r < v.n_records; ++r) {
    const int c = category(r);
    if (c < 0) continue;
    const std::size_t i = v.item_of(r), g = v.annotator_of(r);
    const double w = mult ? mult[i] : 1.0;
    item_cnt[i * q + static_cast<std::size_t>(c)] += 1.0;
    ann_cnt[g + static_cast<std::size_t>(c) * J] += w;
    ann_n[g] += w;
  }
  out.pe = conger_weighted_chance(ann_cnt.data(), ann_n.data(), J, q, W);
  std::vector<double> pa_i(N, 0.0);
  out.rated.assign(N, 0);
  out.pairable.assign(N, 0);
  long double pa_sum = 0;
  for (std::size_t i = 0; i < N; ++i) {
    const double* x = item_cnt.data() + i * q;
    double ri = 0, agree = 0;
    for (std::size_t k = 0; k < q; ++k) {
      ri += x[k];
      for (std::size_t l = 0; l < q; ++l) agree += W[k + l * q] * x[k] * x[l];
    }
    const double w = mult ? mult[i] : 1.0;
    if (ri >= 1 && w > 0) {
      out.rated[i] = 1;
      out.n += w;
    }
    if (ri >= 2 && w > 0) {
      out.pairable[i] = 1;
      out.n2 += w;
      pa_i[i] = (agree - ri) / (ri * (ri - 1));
      pa_sum += w * pa_i[i];
    }
  }
  if (out.n2 > 0) out.pa = static_cast<double>(pa_sum / out.n2);
  if (out.n2 > 0 && 1.0 - out.pe > 0) out.estimate = (out.pa - out.pe) / (1.0 - out.pe);
  if (!terms || std::isnan(out.pe)) return out;
  // lambda parts: const_g and B_gc (annotators with decisions only)
  std::vector<double> cst(J, 0.0), B(J * q, 0.0), S(q, 0.0);
  double r = 0;
  for (std::size_t g = 0; g < J; ++g) {
    if (!(ann_n[g] > 0)) continue;
    r += 1;
    for (std::size_t k = 0; k < q; ++k) S[k] += ann_cnt[g + k * J] / ann_n[g];
  }
  double C = 0;
  for (std::size_t g = 0; g < J; ++g) {
    if (!(ann_n[g] > 0)) continue;
    for (std::size_t k = 0; k < q; ++k) {
      const double vgk = S[k] - ann_cnt[g + k * J] / ann_n[g];
      double wp = 0;
      for (std::size_t l = 0; l < q; ++l) wp += W[k + l * q] * ann_cnt[g + l * J] / ann_n[g];
      cst[g] += wp * vgk;
      for (std::size_t c = 0; c < q; ++c) B[g + c * J] += W[k + c * q] * vgk;
    }
    C += cst[g];
  }
  std::vector<double> lam(N, C);
  for (std::size_t rec = 0; rec < v.n_records; ++rec) {
    const int c = category(rec);
    if (c < 0) continue;
    const std::size_t i = v.item_of(rec), g = v.annotator_of(rec);
    lam[i] += out.n / ann_n[g] * (B[g + static_cast<std::size_t>(c) * J] - cst[g]);
  }
  out.a.assign(N, 0.0);
  out.e.assign(N, 0.0);
  for (std::size_t i = 0; i < N; ++i) {
    if (out.pairable[i]) out.a[i] = pa_i[i] - out.pe;
    if (out.rated[i]) out.e[i] = lam[i] / (r * (r - 1)) - out.pe;
  }
  return out;
}

// The binary category of label j of record r (-1: no decision).
template <typename View, typename Codes>
struct BinaryCategory {
  const View& v;
  const Codes& codes;
  std::size_t j;
  int operator()(std::size_t r) const {
    const auto value = v.column(j)[r];
    return codes.decided(value) ? codes.positive(value) : -1;
  }
};

// The category of each record of a one-hot design (-1: no decisions).
template <typename View, typename Codes>
std::vector<int> single_label_categories(const View& v, const Codes& codes) {
  std::vector<int> cat(v.n_records, -1);
  for (std::size_t j = 0; j < v.n_labels; ++j) {
    const auto* col = v.column(j);
    for (std::size_t r = 0; r < v.n_records; ++r)
      if (codes.decided(col[r]) && codes.positive(col[r])) cat[r] = static_cast<int>(j);
  }
  return cat;
}

// The item bootstrap and jackknife of the binary labels: an item's agreement
// does not change between replicates, so it is computed once.
struct BinaryItems {
  std::size_t n_items = 0, n_labels = 0;
  std::vector<double> pa;                    // items x labels: agreement of pairable items
  std::vector<unsigned char> rated, pairable;  // items x labels
};

template <typename View, typename Codes>
BinaryItems binary_items(const View& v, const Codes& codes) {
  BinaryItems b;
  b.n_items = v.n_items;
  b.n_labels = v.n_labels;
  const std::size_t N = v.n_items;
  b.pa.assign(N * v.n_labels, 0.0);
  b.rated.assign(N * v.n_labels, 0);
  b.pairable.assign(N * v.n_labels, 0);
  std::vector<double> x(N), m(N);
  for (std::size_t j = 0; j < v.n_labels; ++j) {
    std::fill(x.begin(), x.end(), 0.0);
    std::fill(m.begin(), m.end(), 0.0);
    const auto* col = v.column(j);
    for (std::size_t r = 0; r < v.n_records; ++r) {
      const std::size_t i = v.item_of(r);
      m[i] += codes.decided(col[r]);
      x[i] += codes.positive(col[r]);
    }
    for (std::size_t i = 0; i < N; ++i) {
      const std::size_t at = i + j * N;
      b.rated[at] = m[i] >= 1;
      b.pairable[at] = m[i] >= 2;
      if (m[i] >= 2) b.pa[at] = 1.0 - 2.0 * x[i] * (m[i] - x[i]) / (m[i] * (m[i] - 1.0));
    }
  }
  return b;
}

// Label coefficients (out[0..k-1]) and the corpus coefficient (*corpus) for
// item multiplicities mult; pos/dec: scratch of n_annotators.
template <typename View, typename Codes>
void binary_replicate(const View& v, const Codes& codes, const BinaryItems& b, const double* mult,
                      double* out, double* corpus, std::vector<double>& pos, std::vector<double>& dec) {
  const std::size_t N = v.n_items, J = v.n_annotators;
  long double d_sum = 0, w_sum = 0;
  bool any = false;
  for (std::size_t j = 0; j < v.n_labels; ++j) {
    long double n2 = 0, pa = 0;
    for (std::size_t i = 0; i < N; ++i) {
      const std::size_t at = i + j * N;
      if (!b.pairable[at]) continue;
      n2 += mult[i];
      pa += mult[i] * b.pa[at];
    }
    out[j] = kNA;
    if (!(n2 > 0)) continue;
    pos.assign(J, 0.0);
    dec.assign(J, 0.0);
    const auto* col = v.column(j);
    if (v.annotator == nullptr) {  // dense: annotator a owns records a * N, ...
      for (std::size_t a = 0; a < J; ++a) {
        const auto* first = col + a * N;
        double d = 0, p = 0;
        for (std::size_t i = 0; i < N; ++i) {
          d += mult[i] * codes.decided(first[i]);
          p += mult[i] * codes.positive(first[i]);
        }
        dec[a] = d;
        pos[a] = p;
      }
    } else {
      for (std::size_t r = 0; r < v.n_records; ++r) {
        const double w = mult[v.item_of(r)];
        const std::size_t a = v.annotator_of(r);
        dec[a] += w * codes.decided(col[r]);
        pos[a] += w * codes.positive(col[r]);
      }
    }
    const double w = conger_binary_disagreement(pos.data(), dec.data(), J);
    const double d = static_cast<double>(1.0L - pa / n2);
    out[j] = w > 0 ? 1.0 - d / w : kNA;
    if (std::isnan(w)) continue;
    any = true;
    d_sum += d;
    w_sum += w;
  }
  *corpus = (any && w_sum > 0) ? static_cast<double>((w_sum - d_sum) / w_sum) : kNA;
}

// The multi-label corpus coefficient over labels with a pairable item.
inline double conger_corpus(const std::vector<CongerProblem>& labels) {
  long double d = 0, w = 0;
  bool any = false;
  for (const CongerProblem& p : labels) {
    if (!(p.n2 > 0) || std::isnan(p.pe)) continue;
    any = true;
    d += 1.0L - p.pa;
    w += 1.0L - p.pe;
  }
  if (!any || !(w > 0)) return kNA;
  return static_cast<double>((w - d) / w);
}

// Influence sums (sum over items of (c_i* - c)^2, and n) of one problem.
inline void conger_label_influence(const CongerProblem& p, double* sum_sq, double* n) {
  *n = p.n;
  *sum_sq = kNA;
  if (std::isnan(p.estimate) || p.a.empty() || !(p.n > 1)) return;
  const double w = 1.0 - p.pe, c = p.estimate;
  long double s = 0;
  for (std::size_t i = 0; i < p.rated.size(); ++i) {
    if (!p.rated[i]) continue;
    const double ci = p.n / p.n2 * p.a[i] / w - 2.0 * (1.0 - c) * p.e[i] / w;
    s += (ci - c) * (ci - c);
  }
  *sum_sq = static_cast<double>(s);
}

// The same for the corpus coefficient (formula: DESIGN.md).
inline void conger_corpus_influence(const std::vector<CongerProblem>& labels, double c,
                                    double* sum_sq, double* n_out) {
  *sum_sq = kNA;
  *n_out = 0;
  if (labels.empty()) return;
  const std::size_t N = labels[0].rated.size();
  std::vector<unsigned char> rated(N, 0);
  double W = 0;
  for (const CongerProblem& p : labels) {
    if (!(p.n2 > 0) || std::isnan(p.pe)) continue;
    W += 1.0 - p.pe;
    for (std::size_t i = 0; i < N; ++i) rated[i] |= p.rated[i];
  }
  double n = 0;
  for (unsigned char r : rated) n += r;
  *n_out = n;
  if (std::isnan(c) || !(n > 1) || !(W > 0)) return;
  std::vector<double> num(N, 0.0);
  for (const CongerProblem& p : labels) {
    if (!(p.n2 > 0) || std::isnan(p.pe) || p.a.empty()) continue;
    for (std::size_t i = 0; i < N; ++i) {
      if (p.pairable[i]) num[i] += n / p.n2 * p.a[i];
      if (p.rated[i]) num[i] -= (1.0 - c) * 2.0 * n / p.n * p.e[i];
    }
  }
  long double s = 0;
  for (std::size_t i = 0; i < N; ++i) {
    if (!rated[i]) continue;
    const double ci = num[i] / W;
    s += (ci - c) * (ci - c);
  }
  *sum_sq = static_cast<double>(s);
}

}  // namespace mlagreement

#endif
