// R glue for the counting pass: unwrap, call the core, wrap. Nothing else.
#include <Rcpp.h>

#include "mlagreement/counts.h"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace {

template <typename T, typename Codes>
Rcpp::List run_counts(const T* values, R_xlen_t n_values, int n_labels,
                      const Rcpp::IntegerVector& item, int n_items,
                      const Rcpp::IntegerVector& annotator, int n_annotators, int threads,
                      const Codes& codes) {
  const std::size_t k = static_cast<std::size_t>(n_labels);
  const std::size_t n_records = static_cast<std::size_t>(n_values) / k;
  Rcpp::IntegerMatrix x(n_items, n_labels), m(n_items, n_labels);
  Rcpp::IntegerVector item_annotators(n_items), annotator_records(n_annotators);
  mlagreement::RecordView<T> view{values, n_records, k,
                                  item.size() > 0 ? INTEGER_RO(item) : nullptr,
                                  static_cast<std::size_t>(n_items),
                                  annotator.size() > 0 ? INTEGER_RO(annotator) : nullptr,
                                  static_cast<std::size_t>(n_annotators)};
  mlagreement::CountOutput out{x.begin(), m.begin(), item_annotators.begin(),
                               annotator_records.begin()};
  mlagreement::count_decisions(view, codes, threads, out);
  return Rcpp::List::create(
      Rcpp::Named("x") = x, Rcpp::Named("m") = m,
      Rcpp::Named("item_annotators") = item_annotators,
      Rcpp::Named("annotator_records") = annotator_records,
      Rcpp::Named("bad_index") = static_cast<double>(out.bad_index),
      Rcpp::Named("n_decisions") = static_cast<double>(out.n_decisions),
      Rcpp::Named("n_nonempty_records") = static_cast<double>(out.n_nonempty_records));
}

}  // namespace

// values: records x labels in R's column-major layout (a dense items x
// annotators x labels array already is one); item, annotator: 0-based ids of
// each record, or length 0 for the dense layout. Validated in R except the values,
// which are checked here in the same pass (bad_index >= 0 reports the first).
// [[Rcpp::export(rng = false)]]
Rcpp::List count_decisions_cpp(SEXP values, int n_labels, const Rcpp::IntegerVector& item,
                               int n_items, const Rcpp::IntegerVector& annotator,
                               int n_annotators, int threads) {
  const R_xlen_t n = Rf_xlength(values);
  switch (TYPEOF(values)) {
    case INTSXP:
      return run_counts(INTEGER_RO(values), n, n_labels, item, n_items, annotator, n_annotators, threads,
                        mlagreement::IntCodes{NA_INTEGER});
    case LGLSXP:
      return run_counts(LOGICAL_RO(values), n, n_labels, item, n_items, annotator, n_annotators, threads,
                        mlagreement::IntCodes{NA_LOGICAL});
    case REALSXP:
      return run_counts(REAL_RO(values), n, n_labels, item, n_items, annotator, n_annotators, threads,
                        mlagreement::RealCodes{});
    default:
      Rcpp::stop("Internal error: unsupported storage type for `values`.");
  }
}

// [[Rcpp::export(rng = false)]]
int max_threads_cpp() {
#ifdef _OPENMP
  return omp_get_num_procs();
#else
  return 1;
#endif
}
