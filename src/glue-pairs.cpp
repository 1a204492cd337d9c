// R glue for the pairwise annotator statistics: unwrap, call the core, wrap.
#include <Rcpp.h>

#include "mlagreement/pairs.h"

namespace {

Rcpp::NumericMatrix as_matrix(const std::vector<double>& v, std::size_t n_pairs,
                              std::size_t k) {
  // pair-major storage -> pairs x labels column-major matrix
  Rcpp::NumericMatrix out(static_cast<int>(n_pairs), static_cast<int>(k));
  for (std::size_t p = 0; p < n_pairs; ++p) {
    for (std::size_t j = 0; j < k; ++j) out[j * n_pairs + p] = v[p * k + j];
  }
  return out;
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
  mlagreement::pair_sums(view, codes, res);
  const std::size_t np = res.a.size();
  return Rcpp::List::create(
      Rcpp::Named("a") = Rcpp::IntegerVector(res.a.begin(), res.a.end()),
      Rcpp::Named("b") = Rcpp::IntegerVector(res.b.begin(), res.b.end()),
      Rcpp::Named("n_items") = Rcpp::NumericVector(res.n_items.begin(), res.n_items.end()),
      Rcpp::Named("n2") = as_matrix(res.n2, np, k),
      Rcpp::Named("dis") = as_matrix(res.dis, np, k),
      Rcpp::Named("n1") = as_matrix(res.n1, np, k),
      Rcpp::Named("psum") = as_matrix(res.psum, np, k),
      Rcpp::Named("ann_positives") =
          Rcpp::NumericVector(res.ann_positives.begin(), res.ann_positives.end()),
      Rcpp::Named("ann_decisions") =
          Rcpp::NumericVector(res.ann_decisions.begin(), res.ann_decisions.end()),
      Rcpp::Named("ann_items") = Rcpp::NumericVector(res.ann_items.begin(), res.ann_items.end()));
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
                       mlagreement::IntCodes{NA_INTEGER});
    case LGLSXP:
      return run_pairs(LOGICAL_RO(values), n, n_labels, item, n_items, annotator, n_annotators,
                       mlagreement::IntCodes{NA_LOGICAL});
    case REALSXP:
      return run_pairs(REAL_RO(values), n, n_labels, item, n_items, annotator, n_annotators,
                       mlagreement::RealCodes{});
    default:
      Rcpp::stop("Internal error: unsupported storage type for `values`.");
  }
}
