// Glue shared by the annotator-pair statistics (glue-pairs.cpp) and the pair
// tables of the summaries (glue-counts-pairs.cpp): a PairResult as R's list,
// undefined values (NaN in the core) as NA. Glue only: it sees R's API.
#ifndef MLAGREEMENT_GLUE_PAIRS_H
#define MLAGREEMENT_GLUE_PAIRS_H

#include <Rcpp.h>

#include <vector>

#include "glue-view.h"
#include "mlagreement/pairs.h"

namespace glue {

inline Rcpp::NumericVector as_numeric_na(const std::vector<double>& v) {
  Rcpp::NumericVector out(v.begin(), v.end());
  return nan_to_na(out);
}

inline Rcpp::List wrap_pair_result(mlagreement::PairResult& res) {
  return Rcpp::List::create(
      Rcpp::Named("a") = Rcpp::IntegerVector(res.a.begin(), res.a.end()),
      Rcpp::Named("b") = Rcpp::IntegerVector(res.b.begin(), res.b.end()),
      Rcpp::Named("n_items") = as_numeric_na(res.n_items),
      Rcpp::Named("n_decisions") = as_numeric_na(res.n_decisions),
      Rcpp::Named("agree") = as_numeric_na(res.agree),
      Rcpp::Named("w") = as_numeric_na(res.w),
      Rcpp::Named("observed") = as_numeric_na(res.observed),
      Rcpp::Named("estimate") = as_numeric_na(res.estimate),
      Rcpp::Named("ann_items") = as_numeric_na(res.ann_items),
      Rcpp::Named("ann_joint") = as_numeric_na(res.ann_joint),
      Rcpp::Named("ann_prevalence") = as_numeric_na(res.ann_prevalence),
      Rcpp::Named("ann_observed") = as_numeric_na(res.ann_observed),
      Rcpp::Named("ann_estimate") = as_numeric_na(res.ann_estimate),
      Rcpp::Named("pooled_observed") = nan_to_na(res.pooled_observed),
      Rcpp::Named("pooled_estimate") = nan_to_na(res.pooled_estimate));
}

}  // namespace glue

#endif  // MLAGREEMENT_GLUE_PAIRS_H
