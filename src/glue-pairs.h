// Shared glue: a PairResult (pairs.h) as R's list, NaN as NA.
#ifndef MLAGREEMENT_GLUE_PAIRS_H
#define MLAGREEMENT_GLUE_PAIRS_H

#include <Rcpp.h>

#include <utility>
#include <vector>

#include "glue-view.h"
#include "mlagreement/pairs.h"

namespace glue {

inline Rcpp::List wrap_pair_result(mlagreement::PairResult& res) {
  // Per-pair and per-annotator columns, in the order R reads them.
  const std::pair<const char*, const std::vector<double>*> columns[] = {
      {"n_items", &res.n_items},         {"n_decisions", &res.n_decisions},
      {"agree", &res.agree},             {"w", &res.w},
      {"observed", &res.observed},       {"estimate", &res.estimate},
      {"ann_items", &res.ann_items},     {"ann_joint", &res.ann_joint},
      {"ann_prevalence", &res.ann_prevalence}, {"ann_observed", &res.ann_observed},
      {"ann_estimate", &res.ann_estimate}};
  Rcpp::List out;
  out.push_back(Rcpp::IntegerVector(res.a.begin(), res.a.end()), "a");
  out.push_back(Rcpp::IntegerVector(res.b.begin(), res.b.end()), "b");
  for (const auto& col : columns) {
    Rcpp::NumericVector v(col.second->begin(), col.second->end());
    out.push_back(nan_to_na(v), col.first);
  }
  out.push_back(nan_to_na(res.pooled_observed), "pooled_observed");
  out.push_back(nan_to_na(res.pooled_estimate), "pooled_estimate");
  return out;
}

}  // namespace glue

#endif  // MLAGREEMENT_GLUE_PAIRS_H
