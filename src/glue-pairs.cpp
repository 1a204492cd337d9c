// R glue for the pairwise annotator statistics: unwrap, call the core, wrap.
#include <Rcpp.h>

#include <new>

#include "glue-interrupt.h"
#include "glue-view.h"
#include "mlagreement/pairs.h"

namespace {

// Undefined values (NaN in the core) become NA.
Rcpp::NumericVector as_numeric(const std::vector<double>& v) {
  Rcpp::NumericVector out(v.begin(), v.end());
  return glue::nan_to_na(out);
}

template <typename T, typename Codes>
Rcpp::List run_pairs(const mlagreement::RecordView<T>& view, const Codes& codes) {
  mlagreement::PairResult res;
  glue::InterruptScope interrupts;
  try {
    mlagreement::pair_sums(view, codes, res, [] { return mlagreement::interrupted(); });
  } catch (const std::bad_alloc&) {
    // the last line of defence (R estimates the size first): R raises a
    // classed error (pair_sums_checked())
    return Rcpp::List::create(Rcpp::Named("out_of_memory") = true);
  }
  interrupts.rethrow();
  return Rcpp::List::create(
      Rcpp::Named("a") = Rcpp::IntegerVector(res.a.begin(), res.a.end()),
      Rcpp::Named("b") = Rcpp::IntegerVector(res.b.begin(), res.b.end()),
      Rcpp::Named("n_items") = as_numeric(res.n_items),
      Rcpp::Named("n_decisions") = as_numeric(res.n_decisions),
      Rcpp::Named("agree") = as_numeric(res.agree),
      Rcpp::Named("w") = as_numeric(res.w),
      Rcpp::Named("observed") = as_numeric(res.observed),
      Rcpp::Named("estimate") = as_numeric(res.estimate),
      Rcpp::Named("ann_items") = as_numeric(res.ann_items),
      Rcpp::Named("ann_joint") = as_numeric(res.ann_joint),
      Rcpp::Named("ann_prevalence") = as_numeric(res.ann_prevalence),
      Rcpp::Named("ann_observed") = as_numeric(res.ann_observed),
      Rcpp::Named("ann_estimate") = as_numeric(res.ann_estimate),
      Rcpp::Named("pooled_observed") = glue::nan_to_na(res.pooled_observed),
      Rcpp::Named("pooled_estimate") = glue::nan_to_na(res.pooled_estimate));
}

}  // namespace

// view: annotation_view() of the object (every label), values already
// validated as 0/1/NA.
// [[Rcpp::export(rng = false)]]
Rcpp::List pair_sums_cpp(const Rcpp::List& view) {
  return glue::with_record_view(view, [](const auto& v, const auto& codes) {
    return run_pairs(v, codes);
  });
}
