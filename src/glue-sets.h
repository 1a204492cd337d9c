// Shared glue: the label sets of the records of R's view bundle (dense,
// records or sparse layout).
#ifndef MLAGREEMENT_GLUE_SETS_H
#define MLAGREEMENT_GLUE_SETS_H

#include <Rcpp.h>

#include <vector>

#include "glue-view.h"
#include "mlagreement/set_alpha.h"
#include "mlagreement/set_build.h"
#include "mlagreement/set_custom.h"
#include "mlagreement/sparse_records.h"

namespace glue {

namespace detail {

// The missing-value convention of each storage type for the label sets
// (logical and integer share NA_INTEGER).
inline mlagreement::SetRealCodes set_codes(const double*) { return mlagreement::SetRealCodes{}; }
inline mlagreement::SetIntCodes set_codes(const int*) { return mlagreement::SetIntCodes{NA_INTEGER}; }

// The sparse records layout (annotation_view(sets = TRUE) of a sparse
// object): values = list(start, label), the selected labels of each record.
inline void build_sparse_sets(const Rcpp::List& view, bool annotators, mlagreement::SetData& out) {
  const Rcpp::List values = view["values"];
  const Rcpp::IntegerVector start = values["start"];
  const Rcpp::IntegerVector label = values["label"];
  const Rcpp::IntegerVector item = view["item"];
  const Rcpp::IntegerVector annotator = view["annotator"];
  const int n_labels = Rcpp::as<int>(view["n_labels"]);
  const int n_items = Rcpp::as<int>(view["n_items"]);
  const int n_annotators = Rcpp::as<int>(view["n_annotators"]);
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

// User set-size distances tabulated in R: custom is a K1 x K1 x K1 x n array
// (i fastest, then b, then a; K1 = max_size + 1) of d(a, b, i).
inline mlagreement::SizeDistances size_distances(const Rcpp::NumericVector& custom, int max_size,
                                                 int n_custom) {
  mlagreement::SizeDistances table;
  table.K1 = static_cast<std::size_t>(max_size) + 1;
  table.n = static_cast<std::size_t>(n_custom);
  if (static_cast<std::size_t>(custom.size()) != table.n * table.cells()) {
    Rcpp::stop("Internal error: the distance tables have the wrong size.");
  }
  table.d.assign(custom.begin(), custom.end());
  return table;
}

// What R turns into a classed error: the first partial record (>= 0), or
// running out of memory (R names the design's size).
inline Rcpp::List bad_record(const mlagreement::SetData& d) {
  return Rcpp::List::create(Rcpp::Named("bad_record") = static_cast<double>(d.bad_record));
}
inline Rcpp::List out_of_memory() {
  return Rcpp::List::create(Rcpp::Named("bad_record") = -1.0, Rcpp::Named("out_of_memory") = true);
}

// The distinct sets as a list of 1-based label indices.
inline Rcpp::List set_label_list(const mlagreement::SetData& d) {
  Rcpp::List sets(static_cast<R_xlen_t>(d.n_sets()));
  for (std::size_t s = 0; s < d.n_sets(); ++s) {
    std::vector<int> lab = mlagreement::set_labels(d, s);
    for (int& j : lab) ++j;
    sets[static_cast<R_xlen_t>(s)] = Rcpp::wrap(lab);
  }
  return sets;
}

// The label sets of the records of `view` (annotation_view(), R/annotations.R):
// dense and records layouts through the one record view, the sparse layout
// from its selected labels. annotators: whether out.rec_annotator is needed
// (pair measures only).
inline void build_record_sets(const Rcpp::List& view, bool annotators, mlagreement::SetData& out) {
  SEXP values = view["values"];
  if (TYPEOF(values) == VECSXP) {
    detail::build_sparse_sets(view, annotators, out);
    return;
  }
  with_record_view(view, [&](const auto& v, auto) {
    mlagreement::build_sets(v, detail::set_codes(v.values), out, annotators);
    return 0;
  });
}

}  // namespace glue

#endif  // MLAGREEMENT_GLUE_SETS_H
