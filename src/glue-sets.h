// Glue shared by the set statistics (glue-sets.cpp), the set tables of the
// summaries (glue-counts-sets.cpp): the label sets of the records, built by
// the set engine from R's values. Glue only: it sees R's API.
#ifndef MLAGREEMENT_GLUE_SETS_H
#define MLAGREEMENT_GLUE_SETS_H

#include <Rcpp.h>

#include "mlagreement/set_build.h"
#include "mlagreement/sparse_records.h"

namespace glue {

namespace detail {

// values: records x labels (R's column-major layout; a dense items x
// annotators x labels array already is one), or for the sparse layout the
// list(start, label) of its selected labels; item, annotator: 0-based ids of
// each record, or length 0 for the dense layout.
template <typename T, typename Codes>
void build_sets_of(const T* values, R_xlen_t n_values, int n_labels,
                   const Rcpp::IntegerVector& item, int n_items,
                   const Rcpp::IntegerVector& annotator, int n_annotators, const Codes& codes,
                   bool annotators, mlagreement::SetData& out) {
  const std::size_t k = static_cast<std::size_t>(n_labels);
  mlagreement::RecordView<T> view{values,
                                  static_cast<std::size_t>(n_values) / k,
                                  k,
                                  item.size() > 0 ? INTEGER_RO(item) : nullptr,
                                  static_cast<std::size_t>(n_items),
                                  annotator.size() > 0 ? INTEGER_RO(annotator) : nullptr,
                                  static_cast<std::size_t>(n_annotators)};
  mlagreement::build_sets(view, codes, out, annotators);
}

// The sparse records layout (annotation_view(sets = TRUE) of a sparse
// object): values = list(start, label), the selected labels of each record.
inline void build_sparse_sets(const Rcpp::List& values, int n_labels, const Rcpp::IntegerVector& item,
                              int n_items, const Rcpp::IntegerVector& annotator, int n_annotators,
                              bool annotators, mlagreement::SetData& out) {
  const Rcpp::IntegerVector start = values["start"];
  const Rcpp::IntegerVector label = values["label"];
  const R_xlen_t n = item.size();
  if (annotator.size() != n || start.size() != n + 1 || label.size() != start[n] ||
      n_labels < 1 || n_items < 1 || n_annotators < 0) {
    Rcpp::stop("Internal error: inconsistent sparse records.");
  }
  const mlagreement::SparseRecords s{static_cast<std::size_t>(n), static_cast<std::size_t>(n_labels),
                                     INTEGER_RO(item), static_cast<std::size_t>(n_items),
                                     INTEGER_RO(annotator), static_cast<std::size_t>(n_annotators),
                                     INTEGER_RO(start), INTEGER_RO(label)};
  mlagreement::build_sets_sparse(s, annotators, out);
}

}  // namespace detail

// annotators: whether out.rec_annotator is needed (pair measures only)
inline void build_record_sets(SEXP values, int n_labels, const Rcpp::IntegerVector& item,
                              int n_items, const Rcpp::IntegerVector& annotator, int n_annotators,
                              bool annotators, mlagreement::SetData& out) {
  const R_xlen_t n = Rf_xlength(values);
  switch (TYPEOF(values)) {
    case INTSXP:
      detail::build_sets_of(INTEGER_RO(values), n, n_labels, item, n_items, annotator, n_annotators,
                            mlagreement::SetIntCodes{NA_INTEGER}, annotators, out);
      break;
    case LGLSXP:
      detail::build_sets_of(LOGICAL_RO(values), n, n_labels, item, n_items, annotator, n_annotators,
                            mlagreement::SetIntCodes{NA_LOGICAL}, annotators, out);
      break;
    case REALSXP:
      detail::build_sets_of(REAL_RO(values), n, n_labels, item, n_items, annotator, n_annotators,
                            mlagreement::SetRealCodes{}, annotators, out);
      break;
    case VECSXP:  // the sparse layout: the sets come straight from its selected labels
      detail::build_sparse_sets(Rcpp::List(values), n_labels, item, n_items, annotator, n_annotators,
                                annotators, out);
      break;
    default:
      Rcpp::stop("Internal error: unsupported storage type for `values`.");
  }
}

}  // namespace glue

#endif  // MLAGREEMENT_GLUE_SETS_H
