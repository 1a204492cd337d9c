// R glue for the pairwise annotator statistics: unwrap, call the core, wrap.
#include <Rcpp.h>

#include "mlagreement/pairs.h"

namespace {

// True when the user pressed Ctrl-C. R_CheckUserInterrupt() would longjmp
// over C++ frames; R_ToplevelExec() contains the jump, so the core returns
// normally (freeing its memory) and the interrupt is re-raised from here.
void check_interrupt(void*) { R_CheckUserInterrupt(); }
bool user_interrupted() { return R_ToplevelExec(check_interrupt, nullptr) == FALSE; }

Rcpp::NumericVector as_numeric(const std::vector<double>& v) {
  return Rcpp::NumericVector(v.begin(), v.end());
}

template <typename T, typename Codes>
Rcpp::List run_pairs(const T* values, R_xlen_t n_values, int n_labels,
                     const Rcpp::IntegerVector& item, int n_items,
                     const Rcpp::IntegerVector& annotator, int n_annotators,
                     const Codes& codes) {
  const std::size_t k = static_cast<std::size_t>(n_labels);
  mlagreement::RecordView<T> view{values, static_cast<std::size_t>(n_values) / k, k,
                                  item.size() > 0 ? INTEGER_RO(item) : nullptr,
                                  static_cast<std::size_t>(n_items),
                                  annotator.size() > 0 ? INTEGER_RO(annotator) : nullptr,
                                  static_cast<std::size_t>(n_annotators)};
  mlagreement::PairResult res;
  if (!mlagreement::pair_sums(view, codes, res, user_interrupted)) {
    throw Rcpp::internal::InterruptedException();  // Rcpp's wrapper calls Rf_onintr()
  }
  return Rcpp::List::create(
      Rcpp::Named("a") = Rcpp::IntegerVector(res.a.begin(), res.a.end()),
      Rcpp::Named("b") = Rcpp::IntegerVector(res.b.begin(), res.b.end()),
      Rcpp::Named("n_items") = as_numeric(res.n_items),
      Rcpp::Named("n_decisions") = as_numeric(res.n_decisions),
      Rcpp::Named("agree") = as_numeric(res.agree),
      Rcpp::Named("d_obs") = as_numeric(res.d_obs),
      Rcpp::Named("w") = as_numeric(res.w),
      Rcpp::Named("n_labels_used") = as_numeric(res.n_labels_used),
      Rcpp::Named("ann_positives") = as_numeric(res.ann_positives),
      Rcpp::Named("ann_decisions") = as_numeric(res.ann_decisions),
      Rcpp::Named("ann_items") = as_numeric(res.ann_items),
      Rcpp::Named("ann_agree") = as_numeric(res.ann_agree),
      Rcpp::Named("ann_joint") = as_numeric(res.ann_joint),
      Rcpp::Named("ann_wsum") = as_numeric(res.ann_wsum),
      Rcpp::Named("ann_esum") = as_numeric(res.ann_esum));
}

}  // namespace

// values: records x labels (column-major; a dense items x annotators x labels
// array is one), already validated as 0/1/NA. item, annotator: 0-based ids of
// each record, or length 0 for the dense layout.
// [[Rcpp::export(rng = false)]]
Rcpp::List pair_sums_cpp(SEXP values, int n_labels, const Rcpp::IntegerVector& item,
                         int n_items, const Rcpp::IntegerVector& annotator, int n_annotators) {
  const R_xlen_t n = Rf_xlength(values);
  switch (TYPEOF(values)) {
    case INTSXP:
      return run_pairs(INTEGER_RO(values), n, n_labels, item, n_items, annotator, n_annotators,
                       mlagreement::IntCodes{});
    case LGLSXP:
      return run_pairs(LOGICAL_RO(values), n, n_labels, item, n_items, annotator, n_annotators,
                       mlagreement::IntCodes{});
    case REALSXP:
      return run_pairs(REAL_RO(values), n, n_labels, item, n_items, annotator, n_annotators,
                       mlagreement::RealCodes{});
    default:
      Rcpp::stop("Internal error: unsupported storage type for `values`.");
  }
}
