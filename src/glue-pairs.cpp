// R glue for the pairwise annotator statistics (mlagreement/pairs.h).
#include <Rcpp.h>

#include <new>

#include "glue-interrupt.h"
#include "glue-pairs.h"
#include "glue-view.h"
#include "mlagreement/pairs.h"

namespace {

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
  return glue::wrap_pair_result(res);
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
