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

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "counts.h"
#include "ddouble.h"
#include "estimators.h"
#include "label_table.h"
#include "replicate_stats.h"
#include "single_label.h"
#include "tally.h"

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

// Records per block and items per chunk of the pass: a block's 0/1 values
// (labels x block) and counters (columns x block) stay in cache.
constexpr std::size_t kStructureBlock = 1024;

// Column of the first category of group g (after the k closed labels).
inline std::vector<std::size_t> group_offsets(const LabelStructure& s, std::size_t k) {
  std::vector<std::size_t> off(s.groups.size() + 1, k);
  for (std::size_t g = 0; g < s.groups.size(); ++g) off[g + 1] = off[g] + s.groups[g].size() + 1;
  return off;
}

// Work buffers of one block, label-major (row j holds label j's len values).
struct Block {
  std::size_t len = 0;
  std::vector<int> pos, dec, n_pos, answered;
};

// Reads `len` consecutive records starting at `first` into the block.
template <typename T, typename Codes>
void read_block(const RecordView<T>& v, const Codes& codes, std::size_t first, std::size_t len,
                Block& b) {
  b.len = len;
  for (std::size_t j = 0; j < v.n_labels; ++j) {
    const T* col = v.column(j) + first;
    int* p = b.pos.data() + j * len;
    int* d = b.dec.data() + j * len;
    for (std::size_t i = 0; i < len; ++i) {
      p[i] = codes.positive(col[i]);
      d[i] = codes.decided(col[i]);
    }
  }
}

// A selected child selects (and decides) its parent; deepest labels first,
// so one sweep closes every record.
inline void close_block(const LabelStructure& s, Block& b) {
  const std::size_t len = b.len;
  for (int j : s.closure_order) {
    const int* child = b.pos.data() + static_cast<std::size_t>(j) * len;
    const std::size_t p = static_cast<std::size_t>(s.parent[static_cast<std::size_t>(j)]);
    int* pp = b.pos.data() + p * len;
    int* pd = b.dec.data() + p * len;
    for (std::size_t i = 0; i < len; ++i) {
      pp[i] |= child[i];
      pd[i] |= child[i];
    }
  }
}

// Adds the block's closed labels and group categories to the counters x, m
// (column c at x + c * len). A group is decided by a selected label, or
// (category "none") when all its labels are decided. Returns the position
// in the block of the first record selecting two labels of a group (its
// group in bad_group), or -1.
inline std::ptrdiff_t add_block(const LabelStructure& s, const std::vector<std::size_t>& off,
                                std::size_t k, Block& b, int* x, int* m, int& bad_group) {
  const std::size_t len = b.len;
  for (std::size_t q = 0; q < k * len; ++q) {
    x[q] += b.pos[q];
    m[q] += b.dec[q];
  }
  std::ptrdiff_t bad = -1;
  for (std::size_t g = 0; g < s.groups.size(); ++g) {
    std::fill(b.n_pos.begin(), b.n_pos.begin() + len, 0);
    std::fill(b.answered.begin(), b.answered.begin() + len, 1);
    for (std::size_t l = 0; l < s.groups[g].size(); ++l) {
      const std::size_t j = static_cast<std::size_t>(s.groups[g][l]);
      const int* p = b.pos.data() + j * len;
      const int* d = b.dec.data() + j * len;
      int* cat = x + (off[g] + l) * len;
      for (std::size_t i = 0; i < len; ++i) {
        b.n_pos[i] += p[i];
        b.answered[i] &= d[i];
        cat[i] += p[i];
      }
    }
    int* none = x + (off[g + 1] - 1) * len;
    int several = 0;
    for (std::size_t i = 0; i < len; ++i) {
      const int selected = b.n_pos[i] > 0;
      none[i] += b.answered[i] & (selected ^ 1);
      b.answered[i] |= selected;
      several |= b.n_pos[i] > 1;
    }
    for (std::size_t c = off[g]; c < off[g + 1]; ++c) {
      int* mc = m + c * len;
      for (std::size_t i = 0; i < len; ++i) mc[i] += b.answered[i];
    }
    if (several && bad < 0) {
      for (std::size_t i = 0; i < len; ++i) {
        if (b.n_pos[i] > 1) {
          bad = static_cast<std::ptrdiff_t>(i);
          bad_group = static_cast<int>(g);
          break;
        }
      }
    }
  }
  return bad;
}

// Adds `len` items' counts (column c at x + c * stride) to the table and
// writes their weighted disagreement over the pairable variables: per free
// label 2x(m-x)/(m(m-1)), per group sum_c x_c(m-x_c)/(m(m-1)).
inline void tally_items(const LabelStructure& s, const std::vector<std::size_t>& off,
                        const int* x, const int* m, std::size_t stride, std::size_t len,
                        const std::vector<double>& factor, IntTable& t, double* item_d) {
  std::vector<double> d_scratch(len);
  std::vector<int> n_scratch(len);
  for (std::size_t c = 0; c < off.back(); ++c) {
    tally_label_chunk(x + c * stride, m + c * stride, len, c, factor.data(), t, d_scratch.data(),
                      n_scratch.data());
  }
  const std::size_t n_free = s.free.size();
  for (std::size_t i = 0; i < len; ++i) {
    double num = 0.0, den = 0.0;
    for (std::size_t f = 0; f < n_free; ++f) {
      const std::size_t at = static_cast<std::size_t>(s.free[f]) * stride + i;
      if (m[at] < 2) continue;
      num += s.weight[f] * factor[static_cast<std::size_t>(m[at])] * x[at] * (m[at] - x[at]);
      den += s.weight[f];
    }
    for (std::size_t g = 0; g + 1 < off.size(); ++g) {
      const int mm = m[off[g] * stride + i];
      if (mm < 2) continue;
      double dis = 0.0;
      for (std::size_t c = off[g]; c < off[g + 1]; ++c) {
        const int xc = x[c * stride + i];
        dis += static_cast<double>(xc) * (mm - xc);
      }
      num += s.weight[n_free + g] * 0.5 * factor[static_cast<std::size_t>(mm)] * dis;
      den += s.weight[n_free + g];
    }
    item_d[i] = den > 0.0 ? num / den : kNA;
  }
}

}  // namespace detail

// The pass, in blocks of records. Dense arrays: a chunk of items at a time,
// annotator by annotator, with the chunk's counters in cache. Records
// layout: blocks of records scattered into per-item counters (items x
// columns), tallied at the end.
template <typename T, typename Codes>
StructurePass structure_pass(const RecordView<T>& v, const Codes& codes, const LabelStructure& s,
                             std::size_t max_m) {
  constexpr std::size_t kB = detail::kStructureBlock;
  const std::size_t k = v.n_labels, n = v.n_items;
  const std::vector<std::size_t> off = detail::group_offsets(s, k);
  const std::size_t n_cols = off.back();
  const std::vector<double> factor = pair_factors(max_m);
  StructurePass out;
  out.table.reset(n_cols, max_m);
  out.item_disagreement.assign(n, kNA);
  detail::Block b;
  b.pos.resize(k * kB);
  b.dec.resize(k * kB);
  b.n_pos.resize(kB);
  b.answered.resize(kB);
  std::vector<int> x(n_cols * kB), m(n_cols * kB);
  const auto add = [&](std::size_t first_record) {
    int g = -1;
    const std::ptrdiff_t bad = detail::add_block(s, off, k, b, x.data(), m.data(), g);
    if (bad >= 0 && out.bad_record < 0) {
      out.bad_record = static_cast<std::int64_t>(first_record) + bad;
      out.bad_group = g;
    }
  };
  if (v.item == nullptr) {
    const std::size_t n_blocks = n > 0 ? v.n_records / n : 0;
    for (std::size_t start = 0; start < n; start += kB) {
      const std::size_t len = std::min(kB, n - start);
      std::fill(x.begin(), x.end(), 0);
      std::fill(m.begin(), m.end(), 0);
      for (std::size_t c = 0; c < n_blocks; ++c) {
        detail::read_block(v, codes, c * n + start, len, b);
        detail::close_block(s, b);
        add(c * n + start);  // counters laid out with stride len, as the block
      }
      detail::tally_items(s, off, x.data(), m.data(), len, len, factor, out.table,
                          out.item_disagreement.data() + start);
    }
    return out;
  }
  std::vector<int> xs(n_cols * n, 0), ms(n_cols * n, 0);
  for (std::size_t start = 0; start < v.n_records; start += kB) {
    const std::size_t len = std::min(kB, v.n_records - start);
    std::fill(x.begin(), x.end(), 0);
    std::fill(m.begin(), m.end(), 0);
    detail::read_block(v, codes, start, len, b);
    detail::close_block(s, b);
    add(start);
    for (std::size_t c = 0; c < n_cols; ++c) {
      for (std::size_t q = 0; q < len; ++q) {
        const std::size_t at = c * n + static_cast<std::size_t>(v.item[start + q]);
        xs[at] += x[c * len + q];
        ms[at] += m[c * len + q];
      }
    }
  }
  for (std::size_t start = 0; start < n; start += kB) {
    const std::size_t len = std::min(kB, n - start);
    detail::tally_items(s, off, xs.data() + start, ms.data() + start, n, len, factor, out.table,
                        out.item_disagreement.data() + start);
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
