// R glue for labels with structure (mlagreement/label_groups.h,
// structured_estimates.h).
#include <Rcpp.h>

#include <algorithm>
#include <vector>

#include "glue-view.h"
#include "mlagreement/label_groups.h"
#include "mlagreement/structure_records.h"
#include "mlagreement/structured_estimates.h"
#include "mlagreement/structured_influence.h"

namespace {

namespace mla = mlagreement;

constexpr int kB = mla::kBaselines;

// structure: structure_core() (R/label-structure-fit.R), 0-based indices.
mla::LabelStructure label_structure(const Rcpp::List& structure, std::size_t n_labels) {
  const Rcpp::IntegerVector parent = structure["parent"], closure_order = structure["closure_order"],
                            free = structure["free"];
  const Rcpp::List groups = structure["groups"];
  const Rcpp::NumericVector weights = structure["weights"];
  mla::LabelStructure s;
  s.parent.assign(parent.begin(), parent.end());
  s.closure_order.assign(closure_order.begin(), closure_order.end());
  s.free.assign(free.begin(), free.end());
  for (R_xlen_t g = 0; g < groups.size(); ++g) {
    const Rcpp::IntegerVector labels = groups[g];
    s.groups.emplace_back(labels.begin(), labels.end());
  }
  s.weight.assign(weights.begin(), weights.end());
  if (s.weight.size() != s.free.size() + s.groups.size()) {
    Rcpp::stop("Internal error: one weight per variable expected.");
  }
  if (s.parent.size() != n_labels) Rcpp::stop("Internal error: one parent per label expected.");
  return s;
}

std::size_t n_structure_columns(const mla::LabelStructure& s) {
  std::size_t n = s.parent.size();
  for (const std::vector<int>& g : s.groups) n += g.size() + 1;
  return n;
}

Rcpp::NumericMatrix as_matrix(const std::vector<std::int64_t>& v, std::size_t nrow, std::size_t ncol) {
  Rcpp::NumericMatrix out(static_cast<int>(nrow), static_cast<int>(ncol));
  std::transform(v.begin(), v.end(), out.begin(), [](std::int64_t c) { return static_cast<double>(c); });
  return out;
}

}  // namespace

// bundle: annotation_view(); structure: structure_core(); keep_items: also
// the items x columns counts x and m.
// [[Rcpp::export(rng = false)]]
Rcpp::List structure_pass_cpp(const Rcpp::List& bundle, const Rcpp::List& structure, int max_m,
                              bool keep_items = false) {
  Rcpp::IntegerMatrix item_x, item_m;  // zero-filled, written by the pass
  const mla::StructurePass p = glue::with_record_view(bundle, [&](const auto& view, auto codes) {
    const mla::LabelStructure s = label_structure(structure, view.n_labels);
    mla::ItemCounts items;
    if (keep_items) {
      const int n_cols = static_cast<int>(n_structure_columns(s));
      item_x = Rcpp::IntegerMatrix(static_cast<int>(view.n_items), n_cols);
      item_m = Rcpp::IntegerMatrix(static_cast<int>(view.n_items), n_cols);
      items.x = item_x.begin();
      items.m = item_m.begin();
    }
    return mla::structure_pass(view, codes, s, static_cast<std::size_t>(max_m), items);
  });
  const std::size_t mm = p.table.max_m, nc = p.table.n_labels;
  Rcpp::NumericVector d(p.item_disagreement.begin(), p.item_disagreement.end());
  Rcpp::List out = Rcpp::List::create(
      Rcpp::Named("cnt") = as_matrix(p.table.cnt, mm, nc),
      Rcpp::Named("sx") = as_matrix(p.table.sx, mm, nc),
      Rcpp::Named("sdis") = as_matrix(p.table.sdis, mm, nc),
      Rcpp::Named("item_disagreement") = glue::nan_to_na(d),
      Rcpp::Named("bad_record") = static_cast<double>(p.bad_record),
      Rcpp::Named("bad_group") = p.bad_group);
  if (keep_items) {
    out["x"] = item_x;
    out["m"] = item_m;
  }
  return out;
}

// Each record's structure columns (structure_records.h),
// NA where the record does not decide them: records x columns.
// [[Rcpp::export(rng = false)]]
Rcpp::IntegerMatrix structure_records_cpp(const Rcpp::List& bundle, const Rcpp::List& structure) {
  return glue::with_record_view(bundle, [&](const auto& view, auto codes) {
    const mla::LabelStructure s = label_structure(structure, view.n_labels);
    Rcpp::IntegerMatrix out(static_cast<int>(view.n_records), static_cast<int>(n_structure_columns(s)));
    int bad_group = -1;
    if (mla::structure_records(view, codes, s, NA_INTEGER, out.begin(), bad_group) >= 0) {
      Rcpp::stop("Internal error: a record of a fitted structure breaks a group.");
    }
    return out;
  });
}

// Influence sums of labels with structure from the pass's item tables x, m
// and label tables: corpus = TRUE, of the corpus (sum_sq per baseline, n,
// observed_sum_sq of percent agreement); FALSE, of each variable alone
// (variables x baselines, n and observed_sum_sq per variable).
// [[Rcpp::export(rng = false)]]
Rcpp::List structured_influence_cpp(const Rcpp::IntegerMatrix& x, const Rcpp::IntegerMatrix& m,
                                    const Rcpp::NumericMatrix& cnt, const Rcpp::NumericMatrix& sx,
                                    const Rcpp::NumericMatrix& sdis,
                                    const Rcpp::IntegerVector& free,
                                    const Rcpp::IntegerVector& group_first,
                                    const Rcpp::IntegerVector& group_size,
                                    const Rcpp::NumericVector& weights, bool corpus) {
  const mla::LabelTable t = glue::label_table(cnt, sx, sdis);
  if (x.ncol() != cnt.ncol() || m.ncol() != x.ncol() || m.nrow() != x.nrow()) {
    Rcpp::stop("Internal error: item tables and label tables of different shapes.");
  }
  const mla::CountCells cells{INTEGER_RO(x), INTEGER_RO(m), static_cast<std::size_t>(x.nrow()),
                              static_cast<std::size_t>(x.ncol()), 0};
  std::vector<mla::StructureVariable> vars;
  for (int j : free) vars.push_back({static_cast<std::size_t>(j), 1, false});
  for (R_xlen_t g = 0; g < group_first.size(); ++g) {
    vars.push_back({static_cast<std::size_t>(group_first[g]), static_cast<std::size_t>(group_size[g]), true});
  }
  const std::vector<double> u(weights.begin(), weights.end());
  if (u.size() != vars.size()) Rcpp::stop("Internal error: one weight per variable expected.");
  if (corpus) {
    return glue::wrap_corpus_influence(mla::structured_influence(cells, t, vars, u));
  }
  const int nv = static_cast<int>(vars.size());
  Rcpp::NumericMatrix sum_sq(nv, kB);
  Rcpp::NumericVector n(nv), observed(nv);
  for (int v = 0; v < nv; ++v) {
    const mla::CorpusInfluence f =
        mla::structured_influence(cells, t, {vars[static_cast<std::size_t>(v)]}, {1.0});
    n[v] = f.coefficient.n;
    observed[v] = f.observed.sum_sq[0];
    for (int b = 0; b < kB; ++b) sum_sq(v, b) = f.coefficient.sum_sq[b];
  }
  return Rcpp::List::create(Rcpp::Named("sum_sq") = glue::nan_to_na(sum_sq), Rcpp::Named("n") = n,
                            Rcpp::Named("observed_sum_sq") = glue::nan_to_na(observed));
}

// The variables' estimates from a table whose first columns are labels and
// whose groups' categories start at group_first (0-based; each group has
// n_labels + 1 columns, "none" last): per variable, corpus and alpha.
// [[Rcpp::export(rng = false)]]
Rcpp::List structured_estimates_cpp(const Rcpp::NumericMatrix& cnt, const Rcpp::NumericMatrix& sx,
                                    const Rcpp::NumericMatrix& sdis,
                                    const Rcpp::IntegerVector& free,
                                    const Rcpp::IntegerVector& group_first,
                                    const Rcpp::IntegerVector& group_size,
                                    const Rcpp::NumericVector& weights) {
  const mla::LabelTable t = glue::label_table(cnt, sx, sdis);
  std::vector<mla::VariableSummary> vars;
  std::vector<mla::VariableAlpha> alphas;
  for (int j : free) {
    vars.push_back(mla::label_variable(t, static_cast<std::size_t>(j), /*with_floor=*/true));
    alphas.push_back(mla::label_alpha(t, static_cast<std::size_t>(j)));
  }
  for (R_xlen_t g = 0; g < group_first.size(); ++g) {
    const std::size_t first = static_cast<std::size_t>(group_first[g]);
    const std::size_t size = static_cast<std::size_t>(group_size[g]);
    vars.push_back(mla::group_variable(t, first, size));
    alphas.push_back(mla::group_alpha(t, first, size + 1));
  }
  const std::vector<double> u(weights.begin(), weights.end());
  if (u.size() != vars.size()) Rcpp::stop("Internal error: one weight per variable expected.");
  const mla::StructuredCorpus c = mla::structured_corpus(vars, u);
  const mla::HammingAlpha a = mla::structured_alpha(alphas, u);
  const int nv = static_cast<int>(vars.size());
  Rcpp::NumericVector observed(nv), alpha_obs(nv), alpha_exp(nv);
  Rcpp::NumericMatrix expected(nv, kB), estimate(nv, kB), floor(nv, kB),
      weight(nv, kB, c.weight.begin());
  for (int v = 0; v < nv; ++v) {
    const mla::VariableSummary& s = vars[static_cast<std::size_t>(v)];
    observed[v] = s.pairable ? 1.0 - s.d_obs.value() : mla::kNA;
    alpha_obs[v] = alphas[static_cast<std::size_t>(v)].d_obs;
    alpha_exp[v] = alphas[static_cast<std::size_t>(v)].d_exp;
    for (int b = 0; b < kB; ++b) {
      expected(v, b) = s.pairable ? 1.0 - s.w[b].value() : mla::kNA;
      estimate(v, b) = s.pairable ? mla::coefficient(s.d_obs, s.w[b]) : mla::kNA;
      floor(v, b) = s.has_floor ? mla::coefficient(s.d_max, s.w[b]) : mla::kNA;
    }
  }
  return Rcpp::List::create(
      Rcpp::Named("variable") = Rcpp::List::create(
          Rcpp::Named("observed") = glue::nan_to_na(observed),
          Rcpp::Named("expected") = glue::nan_to_na(expected),
          Rcpp::Named("estimate") = glue::nan_to_na(estimate),
          Rcpp::Named("floor") = glue::nan_to_na(floor),
          Rcpp::Named("weight") = glue::nan_to_na(weight),
          Rcpp::Named("alpha_observed") = glue::nan_to_na(alpha_obs),
          Rcpp::Named("alpha_expected") = glue::nan_to_na(alpha_exp)),
      Rcpp::Named("corpus") = Rcpp::List::create(
          Rcpp::Named("n_used") = c.n_used, Rcpp::Named("observed") = glue::nan_to_na(c.observed),
          Rcpp::Named("expected") = glue::na_vector(c.expected),
          Rcpp::Named("w") = glue::na_vector(c.w),
          Rcpp::Named("estimate") = glue::na_vector(c.estimate),
          Rcpp::Named("floor_observed") = glue::nan_to_na(c.floor_observed),
          Rcpp::Named("floor") = glue::na_vector(c.floor)),
      Rcpp::Named("alpha") = Rcpp::List::create(
          Rcpp::Named("observed") = glue::nan_to_na(a.observed),
          Rcpp::Named("expected") = glue::nan_to_na(a.expected),
          Rcpp::Named("n_used") = a.n_labels_used));
}
