// R glue shared by the glue files: the bundle annotation_view() builds in R
// (R/annotations.R) as a core RecordView of the right value type. Glue only:
// it sees Rcpp, so it lives next to the glue-*.cpp files, not in mlagreement/.
#ifndef MLAGREEMENT_GLUE_VIEW_H
#define MLAGREEMENT_GLUE_VIEW_H

#include <Rcpp.h>

#include <cmath>
#include <cstddef>
#include <type_traits>

#include "mlagreement/counts.h"

namespace glue {

inline const int* ids_or_null(const Rcpp::IntegerVector& v) {
  return v.size() > 0 ? INTEGER_RO(v) : nullptr;
}

// Calls f(view, codes) with the view of `bundle` (values, n_labels: columns
// of values, label_cols: 0-based columns to read or integer(0) for all,
// item/annotator: 0-based ids or integer(0) for the dense layout, n_items,
// n_annotators) and the missing-value conventions of its storage type.
template <typename F>
auto with_record_view(const Rcpp::List& bundle, F&& f) {
  SEXP values = bundle["values"];
  const int n_labels = Rcpp::as<int>(bundle["n_labels"]);
  const Rcpp::IntegerVector label_cols = bundle["label_cols"];
  const Rcpp::IntegerVector item = bundle["item"];
  const Rcpp::IntegerVector annotator = bundle["annotator"];
  const std::size_t n_records =
      static_cast<std::size_t>(Rf_xlength(values)) / static_cast<std::size_t>(n_labels);
  const std::size_t k = label_cols.size() > 0 ? static_cast<std::size_t>(label_cols.size())
                                              : static_cast<std::size_t>(n_labels);
  const auto make = [&](const auto* first) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(first)>>;
    return mlagreement::RecordView<T>{
        first, n_records, k, ids_or_null(item),
        static_cast<std::size_t>(Rcpp::as<int>(bundle["n_items"])), ids_or_null(annotator),
        static_cast<std::size_t>(Rcpp::as<int>(bundle["n_annotators"])), ids_or_null(label_cols)};
  };
  switch (TYPEOF(values)) {
    case INTSXP: return f(make(INTEGER_RO(values)), mlagreement::IntCodes{});
    case LGLSXP: return f(make(LOGICAL_RO(values)), mlagreement::IntCodes{});
    case REALSXP: return f(make(REAL_RO(values)), mlagreement::RealCodes{});
    default: Rcpp::stop("Internal error: unsupported storage type for `values`.");
  }
}

// Undefined values (NaN in the core) become NA.
inline void nan_to_na(double* first, double* last) {
  for (double* p = first; p < last; ++p)
    if (std::isnan(*p)) *p = NA_REAL;
}
template <typename V>
V& nan_to_na(V& v) {
  nan_to_na(v.begin(), v.end());
  return v;
}
inline double nan_to_na(double x) { return std::isnan(x) ? NA_REAL : x; }

}  // namespace glue

#endif
