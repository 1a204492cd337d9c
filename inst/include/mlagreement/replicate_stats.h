// What a fit and each bootstrap replicate report at corpus level, and the
// layout of a replicate's statistics.
// See DESIGN.md, Algorithms: The estimator kernel.
#ifndef MLAGREEMENT_REPLICATE_STATS_H
#define MLAGREEMENT_REPLICATE_STATS_H

#include <cstddef>
#include <vector>

#include "ddouble.h"
#include "estimators.h"

namespace mlagreement {

// A bootstrap replicate's statistics: kBaselines corpus coefficients, then
// label coefficients baseline-major (slot kBaselines + b * k + j), the row
// order of tidy(fit, "label").
inline std::size_t n_boot_stats(std::size_t k) {
  return static_cast<std::size_t>(kBaselines) * (1 + k);
}

// Which corpus coefficients a fit reports: the Hamming-based MLA
// coefficients, or, on single-label designs (one-hot categories), Fleiss'
// kappa, Gwet's AC1 and Brennan-Prediger for q categories.
enum class CorpusStatistic { multi_label, single_label };

// Single-label corpus coefficients from the one-hot labels' summaries, as
// disagreements in double-double (formulas: DESIGN.md).
struct SingleLabelCorpus {
  double d_obs = kNA;
  double w[kBaselines] = {kNA, kNA, kNA};
  double estimate[kBaselines] = {kNA, kNA, kNA};
  dd w_dd[kBaselines];  // w in double-double, for the floor's coefficients
};

inline SingleLabelCorpus summarise_single_label(const std::vector<LabelSummary>& ls) {
  SingleLabelCorpus c;
  const double q = static_cast<double>(ls.size());
  dd d_sum, pq_sum;
  for (const LabelSummary& s : ls) {
    if (!(s.n_pairable > 0)) return c;
    d_sum = d_sum + s.d_obs_dd;
    pq_sum = pq_sum + s.p_dd * s.q_dd;
  }
  if (ls.empty()) return c;
  const dd d = d_sum / dd(2.0);
  const dd w[kBaselines] = {pq_sum, q > 1 ? dd(1.0) - pq_sum / dd(q - 1.0) : dd(0.0),
                            dd(1.0) - dd(1.0) / dd(q)};
  c.d_obs = d.value();
  for (int b = 0; b < kBaselines; ++b) {
    c.w[b] = w[b].value();
    c.w_dd[b] = w[b];
    c.estimate[b] = coefficient(d, w[b]);
  }
  return c;
}

// Coefficients of one replicate into out[s * stride].
inline void write_stats(const std::vector<LabelSummary>& ls, double* out, std::size_t stride,
                        CorpusStatistic corpus = CorpusStatistic::multi_label) {
  const CorpusSummary c = summarise_corpus(ls);
  const SingleLabelCorpus sl = corpus == CorpusStatistic::single_label
      ? summarise_single_label(ls) : SingleLabelCorpus();
  const std::size_t k = ls.size();
  const std::size_t nb = static_cast<std::size_t>(kBaselines);
  for (std::size_t b = 0; b < nb; ++b) {
    out[b * stride] = corpus == CorpusStatistic::single_label ? sl.estimate[b] : c.estimate[b];
    for (std::size_t j = 0; j < k; ++j) {
      out[(nb + b * k + j) * stride] = label_coefficient(ls[j], static_cast<int>(b));
    }
  }
}

}  // namespace mlagreement

#endif
