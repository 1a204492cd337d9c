// The estimates of labels with structure from the label tables of
// label_groups.h's pass: per variable from the kernel, then weighted means.
// See DESIGN.md, Algorithms: Labels with structure.
#ifndef MLAGREEMENT_STRUCTURED_ESTIMATES_H
#define MLAGREEMENT_STRUCTURED_ESTIMATES_H

#include <cmath>
#include <cstddef>
#include <vector>

#include "ddouble.h"
#include "estimators.h"
#include "label_table.h"
#include "nominal_floor.h"
#include "single_label.h"

namespace mlagreement {

// One variable's observed and chance disagreement (double-double).
struct VariableSummary {
  bool pairable = false;
  dd d_obs, w[kBaselines];
  bool has_floor = false;  // summarised with its eq. 7 floor
  dd d_max;
};

// A variable's columns in the pass's tables: a free label (one column, its
// categories x and m - x) or a group (its labels' columns, then "none").
struct StructureVariable {
  std::size_t first = 0, n_labels = 1;
  bool group = false;
};

// A group's categories as a single-label design, from the summaries of the
// table's columns; "none" only when some record uses it.
inline std::vector<LabelSummary> group_categories(const std::vector<LabelSummary>& ls,
                                                  std::size_t first, std::size_t n_labels) {
  std::vector<LabelSummary> cats;
  for (std::size_t c = first; c <= first + n_labels; ++c) {
    if (c == first + n_labels && !(ls[c].positives > 0)) break;
    cats.push_back(ls[c]);
  }
  return cats;
}

inline VariableSummary group_variable(const std::vector<LabelSummary>& ls, std::size_t first,
                                      std::size_t n_labels) {
  VariableSummary v;
  const std::vector<LabelSummary> cats = group_categories(ls, first, n_labels);
  dd d_sum, pq_sum;
  for (const LabelSummary& s : cats) {
    if (!(s.n_pairable > 0)) return v;
    d_sum = d_sum + s.d_obs_dd;
    pq_sum = pq_sum + s.p_dd * s.q_dd;
  }
  const double q = static_cast<double>(cats.size());
  v.pairable = true;
  v.d_obs = d_sum / dd(2.0);  // as summarise_single_label()
  v.w[kFleiss] = pq_sum;
  v.w[kAc1] = q > 1 ? dd(1.0) - pq_sum / dd(q - 1.0) : dd(0.0);
  v.w[kPabak] = dd(1.0) - dd(1.0) / dd(q);
  return v;
}

// The summaries of a group's columns of a table (its labels and "none"), at
// their column positions, as group_categories() and group_variable() read them.
inline std::vector<LabelSummary> group_column_summaries(const LabelTable& t, std::size_t first,
                                                        std::size_t n_labels) {
  std::vector<LabelSummary> ls(first + n_labels + 1);
  for (std::size_t c = first; c < ls.size(); ++c) ls[c] = summarise_label(t, c, false);
  return ls;
}

// With its eq. 7 floor (nominal_floor.h): the fit's, not the replicates'.
inline VariableSummary group_variable(const LabelTable& t, std::size_t first, std::size_t n_labels) {
  VariableSummary v = group_variable(group_column_summaries(t, first, n_labels), first, n_labels);
  if (!v.pairable) return v;
  const NominalFloor f = nominal_floor(t, first, n_labels + 1);
  v.has_floor = f.defined;
  v.d_max = f.d_max;
  return v;
}

inline VariableSummary label_variable(const LabelSummary& s) {
  VariableSummary v;
  if (!(s.n_pairable > 0)) return v;
  v.pairable = true;
  v.d_obs = s.d_obs_dd;
  v.has_floor = !std::isnan(s.d_max);
  v.d_max = s.d_max_dd;
  for (int b = 0; b < kBaselines; ++b) v.w[b] = chance_disagreement(b, s.p_dd, s.q_dd);
  return v;
}

inline VariableSummary label_variable(const LabelTable& t, std::size_t j, bool with_floor = false) {
  return label_variable(summarise_label(t, j, with_floor));
}

// The corpus as a weighted mean over variables (DESIGN.md).
struct StructuredCorpus {
  double n_used = 0, observed = kNA;
  double expected[kBaselines] = {kNA, kNA, kNA}, w[kBaselines] = {kNA, kNA, kNA};
  double estimate[kBaselines] = {kNA, kNA, kNA};
  // eq. 7 floors, u-weighted as the estimate; only when every pairable
  // variable has its floor
  double floor_observed = kNA, floor[kBaselines] = {kNA, kNA, kNA};
  std::vector<double> weight;  // variables x baselines, column-major
};

inline StructuredCorpus structured_corpus(const std::vector<VariableSummary>& vars,
                                          const std::vector<double>& u) {
  StructuredCorpus c;
  const std::size_t n = vars.size();
  c.weight.assign(n * kBaselines, kNA);
  dd d, w[kBaselines], total, d_max;
  bool floors = true;
  for (std::size_t v = 0; v < n; ++v) {
    if (!vars[v].pairable) continue;
    c.n_used += 1;
    total = total + dd(u[v]);
    d = d + dd(u[v]) * vars[v].d_obs;
    floors = floors && vars[v].has_floor;
    if (floors) d_max = d_max + dd(u[v]) * vars[v].d_max;
    for (int b = 0; b < kBaselines; ++b) w[b] = w[b] + dd(u[v]) * vars[v].w[b];
  }
  if (!(total.hi > 0.0)) return c;
  c.observed = 1.0 - (d / total).value();
  if (floors) c.floor_observed = 1.0 - (d_max / total).value();
  for (int b = 0; b < kBaselines; ++b) {
    c.w[b] = (w[b] / total).value();
    c.expected[b] = 1.0 - c.w[b];
    c.estimate[b] = coefficient(d, w[b]);
    if (floors) c.floor[b] = coefficient(d_max, w[b]);
    if (!(w[b].hi > 0.0)) continue;
    for (std::size_t v = 0; v < n; ++v) {
      if (vars[v].pairable) c.weight[b * n + v] = (dd(u[v]) * vars[v].w[b] / w[b]).value();
    }
  }
  return c;
}

// What a replicate of a structured fit reports: the corpus coefficients,
// then per baseline the n_closed labels' and the groups' coefficients (the
// rows of tidy(fit, "label")); vars and their weights u as in the fit.
struct StructureStats {
  std::size_t n_closed = 0;
  std::vector<StructureVariable> vars;
  std::vector<double> u;
  std::size_t n_groups() const {
    std::size_t g = 0;
    for (const StructureVariable& v : vars) g += v.group;
    return g;
  }
  std::size_t n_stats() const { return kBaselines * (1 + n_closed + n_groups()); }
};

inline VariableSummary variable_summary(const std::vector<LabelSummary>& ls,
                                       const StructureVariable& v) {
  return v.group ? group_variable(ls, v.first, v.n_labels) : label_variable(ls[v.first]);
}

// A replicate's statistics into out[s * stride]; ls: the summaries of every
// column of the pass's tables (the closed labels first, then the groups'
// categories), from a table or from an annotator replicate's records.
inline void write_structure_stats(const std::vector<LabelSummary>& ls, const StructureStats& s,
                                  double* out, std::size_t stride) {
  std::vector<VariableSummary> vars;
  for (const StructureVariable& v : s.vars) vars.push_back(variable_summary(ls, v));
  const StructuredCorpus c = structured_corpus(vars, s.u);
  const std::size_t rows = s.n_closed + s.n_groups();
  for (int b = 0; b < kBaselines; ++b) {
    const std::size_t base = static_cast<std::size_t>(kBaselines) + static_cast<std::size_t>(b) * rows;
    out[static_cast<std::size_t>(b) * stride] = c.estimate[b];
    for (std::size_t j = 0; j < s.n_closed; ++j) out[(base + j) * stride] = label_coefficient(ls[j], b);
    std::size_t g = s.n_closed;
    for (std::size_t v = 0; v < vars.size(); ++v) {
      if (!s.vars[v].group) continue;
      out[(base + g++) * stride] = vars[v].pairable ? coefficient(vars[v].d_obs, vars[v].w[b]) : kNA;
    }
  }
}

// One variable's coincidences: binary for a free label, nominal for a group.
struct VariableAlpha {
  double d_obs = kNA, d_exp = kNA;
};

inline VariableAlpha label_alpha(const LabelTable& t, std::size_t j) {
  VariableAlpha a;
  detail::binary_alpha(t, j, a.d_obs, a.d_exp);
  return a;
}

inline VariableAlpha group_alpha(const LabelTable& t, std::size_t first, std::size_t n_categories) {
  const std::size_t mm = t.max_m;
  const NominalAlpha na = nominal_alpha(t.cnt.data() + first * mm, t.sx.data() + first * mm,
                                        t.sdis.data() + first * mm, mm, n_categories);
  VariableAlpha a;
  a.d_obs = na.d_obs;
  a.d_exp = na.d_exp;
  return a;
}

// alpha = 1 - sum_v u_v D_o,v / sum_v u_v D_e,v over variables with pairable
// values.
inline HammingAlpha structured_alpha(const std::vector<VariableAlpha>& vars,
                                     const std::vector<double>& u) {
  long double o = 0.0L, e = 0.0L, total = 0.0L;
  HammingAlpha a;
  for (std::size_t v = 0; v < vars.size(); ++v) {
    if (vars[v].d_obs != vars[v].d_obs) continue;  // NaN: no pairable value
    a.n_labels_used += 1;
    o += u[v] * static_cast<long double>(vars[v].d_obs);
    e += u[v] * static_cast<long double>(vars[v].d_exp);
    total += u[v];
  }
  if (!(total > 0.0L)) return a;
  a.observed = static_cast<double>(o / total);
  a.expected = static_cast<double>(e / total);
  return a;
}

}  // namespace mlagreement

#endif
