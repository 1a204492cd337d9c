// Labels with structure (issue 16, parts 1-3): a taxonomy whose selected
// children imply their ancestors, mutually exclusive groups of labels that
// are one nominal variable each, and weights per variable.
//
// One pass over the records closes each record under the taxonomy, checks
// that it selects at most one label of each group, and counts per item the
// closed labels and the categories of each group. The result is a label
// table (label_table.h) whose first k columns are the closed binary labels
// and whose other columns are the groups' categories (the group's labels in
// order, then "none"), so the estimator kernel (estimators.h,
// replicate_stats.h, single_label.h) turns it into estimates as it does for
// the plain counting pass. The weighted combination of the variables is
// here too (structured_corpus(), structured_alpha()).
// Pure C++: no R headers.
#ifndef MLAGREEMENT_LABEL_GROUPS_H
#define MLAGREEMENT_LABEL_GROUPS_H

#include <cstddef>
#include <cstdint>
#include <vector>

#include "counts.h"
#include "ddouble.h"
#include "estimators.h"
#include "label_table.h"
#include "replicate_stats.h"
#include "single_label.h"

namespace mlagreement {

// The structure in the kernel's terms (0-based label indices).
struct LabelStructure {
  std::vector<int> parent;             // per label: parent, or -1 (root)
  std::vector<int> closure_order;      // labels with a parent, deepest first
  std::vector<std::vector<int>> groups;  // the labels of each group
  std::vector<int> free;               // labels in no group
  std::vector<double> weight;          // per variable: free labels, then groups
};

struct StructurePass {
  IntTable table;             // k closed labels, then each group's categories
  std::vector<double> item_disagreement;  // weighted, NaN without a pairable variable
  std::int64_t bad_record = -1;  // first record selecting two labels of a group
  int bad_group = -1;
};

namespace detail {

// Column of the first category of group g (after the k closed labels).
inline std::vector<std::size_t> group_offsets(const LabelStructure& s, std::size_t k) {
  std::vector<std::size_t> off(s.groups.size() + 1, k);
  for (std::size_t g = 0; g < s.groups.size(); ++g) off[g + 1] = off[g] + s.groups[g].size() + 1;
  return off;
}

// Adds one item's counts (x[c] of m[c] decisions per column) to the table.
inline void tally_item(const std::vector<int>& x, const std::vector<int>& m, IntTable& t) {
  for (std::size_t c = 0; c < x.size(); ++c) {
    if (m[c] == 0) continue;
    const std::size_t at = c * t.max_m + static_cast<std::size_t>(m[c]) - 1;
    t.cnt[at] += 1;
    t.sx[at] += x[c];
    t.sdis[at] += static_cast<std::int64_t>(x[c]) * (m[c] - x[c]);
  }
}

// The item's weighted disagreement over its pairable variables: per free
// label 2x(m-x)/(m(m-1)), per group sum_c x_c(m-x_c)/(m(m-1)).
inline double item_variable_disagreement(const LabelStructure& s, const std::vector<std::size_t>& off,
                                         const std::vector<int>& x, const std::vector<int>& m) {
  double num = 0.0, den = 0.0;
  for (std::size_t f = 0; f < s.free.size(); ++f) {
    const std::size_t c = static_cast<std::size_t>(s.free[f]);
    const double mm = m[c];
    if (mm < 2) continue;
    num += s.weight[f] * 2.0 * x[c] * (mm - x[c]) / (mm * (mm - 1.0));
    den += s.weight[f];
  }
  for (std::size_t g = 0; g < s.groups.size(); ++g) {
    const double mm = m[off[g]];
    if (mm < 2) continue;
    double dis = 0.0;
    for (std::size_t c = off[g]; c < off[g + 1]; ++c) dis += static_cast<double>(x[c]) * (mm - x[c]);
    const double u = s.weight[s.free.size() + g];
    num += u * dis / (mm * (mm - 1.0));
    den += u;
  }
  return den > 0.0 ? num / den : kNA;
}

}  // namespace detail

// The pass. Records are grouped by item through per-item count buffers
// (items x columns), so the records may come in any order.
template <typename T, typename Codes>
StructurePass structure_pass(const RecordView<T>& v, const Codes& codes, const LabelStructure& s,
                             std::size_t max_m) {
  const std::size_t k = v.n_labels, n = v.n_items;
  const std::vector<std::size_t> off = detail::group_offsets(s, k);
  const std::size_t n_cols = off.back();
  StructurePass out;
  out.table.reset(n_cols, max_m);
  std::vector<int> x(n * n_cols, 0), m(n * n_cols, 0);
  std::vector<int> pos(k), dec(k);
  std::vector<const T*> col(k);
  for (std::size_t j = 0; j < k; ++j) col[j] = v.column(j);
  for (std::size_t r = 0; r < v.n_records; ++r) {
    int any = 0;
    for (std::size_t j = 0; j < k; ++j) {
      pos[j] = codes.positive(col[j][r]);
      dec[j] = codes.decided(col[j][r]);
      any |= dec[j];
    }
    if (!any) continue;  // an absent record
    for (int j : s.closure_order) {  // a selected child selects its parent
      if (pos[static_cast<std::size_t>(j)]) {
        pos[static_cast<std::size_t>(s.parent[j])] = 1;
        dec[static_cast<std::size_t>(s.parent[j])] = 1;
      }
    }
    int* xi = x.data() + v.item_of(r) * n_cols;
    int* mi = m.data() + v.item_of(r) * n_cols;
    for (std::size_t j = 0; j < k; ++j) {
      xi[j] += pos[j];
      mi[j] += dec[j];
    }
    for (std::size_t g = 0; g < s.groups.size(); ++g) {
      int n_pos = 0, all_decided = 1;
      std::size_t category = s.groups[g].size();  // "none"
      for (std::size_t l = 0; l < s.groups[g].size(); ++l) {
        const std::size_t j = static_cast<std::size_t>(s.groups[g][l]);
        if (pos[j]) { ++n_pos; category = l; }
        all_decided &= dec[j];
      }
      if (n_pos > 1 && out.bad_record < 0) {
        out.bad_record = static_cast<std::int64_t>(r);
        out.bad_group = static_cast<int>(g);
      }
      // a selected label decides the group; "none" needs every label decided
      if (n_pos == 0 && !all_decided) continue;
      xi[off[g] + category] += 1;
      for (std::size_t c = off[g]; c < off[g + 1]; ++c) mi[c] += 1;
    }
  }
  out.item_disagreement.assign(n, kNA);
  std::vector<int> xs(n_cols), ms(n_cols);
  for (std::size_t i = 0; i < n; ++i) {
    xs.assign(x.begin() + i * n_cols, x.begin() + (i + 1) * n_cols);
    ms.assign(m.begin() + i * n_cols, m.begin() + (i + 1) * n_cols);
    detail::tally_item(xs, ms, out.table);
    out.item_disagreement[i] = detail::item_variable_disagreement(s, off, xs, ms);
  }
  return out;
}

// One variable of the corpus: its observed and chance disagreement (per
// baseline), in double-double, and whether it has a pairable item.
struct VariableSummary {
  bool pairable = false;
  dd d_obs, w[kBaselines];
};

// A group's categories as a single-label design (summarise_single_label()):
// "none" is a category only when some record uses it, so a group that every
// record answers is the single-label design of its labels.
inline std::vector<LabelSummary> group_categories(const LabelTable& t, std::size_t first,
                                                  std::size_t n_labels) {
  std::vector<LabelSummary> cats;
  for (std::size_t c = first; c <= first + n_labels; ++c) {
    LabelSummary ls = summarise_label(t, c, false);
    if (c == first + n_labels && !(ls.positives > 0)) break;
    cats.push_back(ls);
  }
  return cats;
}

inline VariableSummary group_variable(const LabelTable& t, std::size_t first, std::size_t n_labels) {
  VariableSummary v;
  const std::vector<LabelSummary> cats = group_categories(t, first, n_labels);
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

inline VariableSummary label_variable(const LabelTable& t, std::size_t j) {
  VariableSummary v;
  const LabelSummary s = summarise_label(t, j, false);
  if (!(s.n_pairable > 0)) return v;
  v.pairable = true;
  v.d_obs = s.d_obs_dd;
  for (int b = 0; b < kBaselines; ++b) v.w[b] = chance_disagreement(b, s.p_dd, s.q_dd);
  return v;
}

// The corpus as a weighted mean over variables u_v:
//   estimate_b = sum_v u_v (w_vb - d_v) / sum_v u_v w_vb,
// eq. 6 weights u_v w_vb / sum_v u_v w_vb; observed and chance agreement
// the u-weighted means of 1 - d_v and 1 - w_vb over the pairable variables.
struct StructuredCorpus {
  double n_used = 0, observed = kNA;
  double expected[kBaselines] = {kNA, kNA, kNA}, w[kBaselines] = {kNA, kNA, kNA};
  double estimate[kBaselines] = {kNA, kNA, kNA};
  std::vector<double> weight;  // variables x baselines, column-major
};

inline StructuredCorpus structured_corpus(const std::vector<VariableSummary>& vars,
                                          const std::vector<double>& u) {
  StructuredCorpus c;
  const std::size_t n = vars.size();
  c.weight.assign(n * kBaselines, kNA);
  dd d, w[kBaselines], total;
  for (std::size_t v = 0; v < n; ++v) {
    if (!vars[v].pairable) continue;
    c.n_used += 1;
    total = total + dd(u[v]);
    d = d + dd(u[v]) * vars[v].d_obs;
    for (int b = 0; b < kBaselines; ++b) w[b] = w[b] + dd(u[v]) * vars[v].w[b];
  }
  if (!(total.hi > 0.0)) return c;
  c.observed = 1.0 - (d / total).value();
  for (int b = 0; b < kBaselines; ++b) {
    c.w[b] = (w[b] / total).value();
    c.expected[b] = 1.0 - c.w[b];
    c.estimate[b] = coefficient(d, w[b]);
    if (!(w[b].hi > 0.0)) continue;
    for (std::size_t v = 0; v < n; ++v) {
      if (vars[v].pairable) c.weight[b * n + v] = (dd(u[v]) * vars[v].w[b] / w[b]).value();
    }
  }
  return c;
}

// Krippendorff's coincidences of one variable: binary for a free label (as
// hamming_alpha()), nominal over the categories for a group (nominal_alpha()).
struct VariableAlpha {
  double d_obs = kNA, d_exp = kNA;
};

inline VariableAlpha label_alpha(const LabelTable& t, std::size_t j) {
  VariableAlpha a;
  long double n = 0.0L, n1 = 0.0L, dis = 0.0L;
  for (std::size_t slot = 1; slot < t.max_m; ++slot) {
    const double m = static_cast<double>(slot + 1);
    const std::size_t at = j * t.max_m + slot;
    n += t.cnt[at] * m;
    n1 += t.sx[at];
    dis += t.sdis[at] * (2.0 / (m - 1.0));
  }
  const double nd = static_cast<double>(n), n1d = static_cast<double>(n1);
  if (!(nd > 0.0)) return a;
  a.d_obs = static_cast<double>(dis) / nd;
  a.d_exp = nd > 1.0 ? 2.0 * n1d * (nd - n1d) / (nd * (nd - 1.0)) : 0.0;
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

// alpha = 1 - sum_v u_v D_o,v / sum_v u_v D_e,v over the variables with
// pairable values; observed and expected are the u-weighted means.
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
