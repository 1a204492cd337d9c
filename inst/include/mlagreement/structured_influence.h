// Analytic standard errors of labels with structure: each item's influence
// term c_i* over the variables (free labels and groups) of the structure
// pass's item tables, returned as sum_i (c_i* - c)^2 as influence.h does.
// See DESIGN.md, Algorithms: Analytic standard errors.
#ifndef MLAGREEMENT_STRUCTURED_INFLUENCE_H
#define MLAGREEMENT_STRUCTURED_INFLUENCE_H

#include <cmath>
#include <cstddef>
#include <vector>

#include "estimators.h"
#include "influence_sums.h"
#include "label_table.h"
#include "structured_estimates.h"

namespace mlagreement {

namespace detail {

// What an item's terms need of one variable, from the kernel's summaries.
struct VariableTerms {
  VariableSummary summary;
  double n_rated = 0, n_pairable = 0, q = 2;
  std::vector<double> pi;  // a free label: p; a group: its categories' prevalences
};

inline VariableTerms variable_terms(const LabelTable& t, const StructureVariable& v) {
  VariableTerms out;
  std::vector<LabelSummary> cats;
  if (v.group) {
    const std::vector<LabelSummary> ls = group_column_summaries(t, v.first, v.n_labels);
    cats = group_categories(ls, v.first, v.n_labels);
    out.summary = group_variable(ls, v.first, v.n_labels);
    out.q = static_cast<double>(cats.size());
  } else {
    cats.push_back(summarise_label(t, v.first, false));
    out.summary = label_variable(cats.front());
  }
  out.n_rated = cats.front().n_rated;
  out.n_pairable = cats.front().n_pairable;
  for (const LabelSummary& s : cats) out.pi.push_back(s.p);
  return out;
}

// dw_b/dpi_c = factor_b (1 - 2 pi_c): w = sum_c pi_c (1 - pi_c) (Fleiss),
// 1 - that / (q - 1) (AC1), 1 - 1/q (PABAK); a free label is the q = 2 case.
inline double chance_factor(int baseline, double q) {
  switch (baseline) {
    case kFleiss: return 1.0;
    case kAc1: return q > 1.0 ? -1.0 / (q - 1.0) : 0.0;
    default: return 0.0;
  }
}

// An item's pair disagreement d and chance deviation sum_c (1 - 2 pi_c)
// (x_c/m - pi_c) on variable v (m: its decisions).
template <typename Cells>
void item_variable_terms(const Cells& c, const StructureVariable& v, const VariableTerms& vt,
                         std::size_t i, double m, double& d, double& chance) {
  d = 0.0;
  chance = 0.0;
  if (!v.group) {
    const double x = c.x_at(v.first, i), p = vt.pi[0];
    if (m >= 2) d = 2.0 * x * (m - x) / (m * (m - 1.0));
    chance = 2.0 * (1.0 - 2.0 * p) * (x / m - p);
    return;
  }
  for (std::size_t k = 0; k < vt.pi.size(); ++k) {
    const double x = c.x_at(v.first + k, i);
    if (m >= 2) d += x * (m - x) / (m * (m - 1.0));
    chance += (1.0 - 2.0 * vt.pi[k]) * (x / m - vt.pi[k]);
  }
}

}  // namespace detail

// The corpus of the variables `vars` with weights u, as structured_corpus():
// c_i* = sum_v u_v ([m >= 2] (n / n2_v) (w_vb - d_iv)
//        + (1 - c_b) (n / n1_v) dw_vb/dpi . (x_i/m_i - pi_v)) / (U W_b),
// n: items with a decision on a pairable variable (DESIGN.md); percent
// agreement as irrCAC's pa.coeff.raw(): A_i* = sum_v u_v [m >= 2] (n / n2_v)
// (1 - d_iv) / U.
template <typename Cells>
CorpusInfluence structured_influence(const Cells& c, const LabelTable& t,
                                     const std::vector<StructureVariable>& vars,
                                     const std::vector<double>& u) {
  std::vector<detail::VariableTerms> terms;
  std::vector<VariableSummary> summaries;
  for (const StructureVariable& v : vars) {
    terms.push_back(detail::variable_terms(t, v));
    summaries.push_back(terms.back().summary);
  }
  const StructuredCorpus corpus = structured_corpus(summaries, u);
  CorpusInfluence result;
  Influence& out = result.coefficient;
  double total = 0.0;
  for (std::size_t v = 0; v < vars.size(); ++v) {
    if (terms[v].summary.pairable) total += u[v];
  }
  std::vector<char> rated(c.n_items, 0);
  for (std::size_t v = 0; v < vars.size(); ++v) {
    if (!terms[v].summary.pairable) continue;
    for (std::size_t i = 0; i < c.n_items; ++i) rated[i] |= c.m_at(vars[v].first, i) >= 1;
  }
  for (char r : rated) out.n += r;
  result.observed.n = out.n;
  if (!(total > 0.0) || !(out.n > 1)) return result;
  // variable by variable over its columns (contiguous), into each item's
  // observed-agreement term and its three coefficient terms
  const std::size_t n = c.n_items;
  std::vector<double> agree(n, 0.0), term(n * kBaselines, 0.0);
  for (std::size_t v = 0; v < vars.size(); ++v) {
    const detail::VariableTerms& vt = terms[v];
    if (!vt.summary.pairable) continue;
    const double obs_scale = u[v] * out.n / vt.n_pairable;
    double w[kBaselines], chance_scale[kBaselines];
    for (int b = 0; b < kBaselines; ++b) {
      w[b] = vt.summary.w[b].value();
      chance_scale[b] =
          u[v] * (1.0 - corpus.estimate[b]) * detail::chance_factor(b, vt.q) * out.n / vt.n_rated;
    }
    for (std::size_t i = 0; i < n; ++i) {
      const double m = c.m_at(vars[v].first, i);
      if (m < 1) continue;
      double d, chance;
      detail::item_variable_terms(c, vars[v], vt, i, m, d, chance);
      const double pairs = m >= 2 ? obs_scale : 0.0;
      agree[i] += pairs * (1.0 - d);
      for (int b = 0; b < kBaselines; ++b) {
        term[i * kBaselines + b] += pairs * (w[b] - d) + chance_scale[b] * chance;
      }
    }
  }
  long double sum[kBaselines] = {0.0L, 0.0L, 0.0L}, sum_observed = 0.0L;
  for (std::size_t i = 0; i < n; ++i) {
    if (!rated[i]) continue;
    for (int b = 0; b < kBaselines; ++b) {
      const double dev = term[i * kBaselines + b] / (total * corpus.w[b]) - corpus.estimate[b];
      sum[b] += static_cast<long double>(dev) * dev;
    }
    const double dev = agree[i] / total - corpus.observed;
    sum_observed += static_cast<long double>(dev) * dev;
  }
  for (int b = 0; b < kBaselines; ++b) {
    if (!std::isnan(corpus.estimate[b])) out.sum_sq[b] = static_cast<double>(sum[b]);
  }
  result.observed.sum_sq[0] = static_cast<double>(sum_observed);
  return result;
}

}  // namespace mlagreement

#endif
