// R glue for the counting pass of the sparse records layout
// (mlagreement/sparse_records.h); its label sets are built in glue-sets.h.
#include <Rcpp.h>

#include <stdexcept>
#include <vector>

#include "glue-view.h"
#include "mlagreement/sparse_records.h"

// item, annotator: 0-based record ids; start, label: each record's selected
// labels; cols: 0-based labels to count, in table order. Returns what
// count_decisions_cpp() returns for the same records held densely.
// [[Rcpp::export(rng = false)]]
Rcpp::List count_sparse_cpp(const Rcpp::IntegerVector& item, int n_items,
                            const Rcpp::IntegerVector& annotator, int n_annotators,
                            const Rcpp::IntegerVector& start, const Rcpp::IntegerVector& label,
                            int n_labels, const Rcpp::IntegerVector& cols, int max_m,
                            bool keep_counts) {
  const R_xlen_t n = item.size();
  if (annotator.size() != n || start.size() != n + 1 || n_items < 1 || n_labels < 1 ||
      n_annotators < 0 || max_m < 1 || cols.size() < 1 || label.size() != start[n]) {
    throw std::invalid_argument("Internal error: inconsistent sparse records.");
  }
  std::vector<int> col_of_label(static_cast<std::size_t>(n_labels), -1);
  for (R_xlen_t c = 0; c < cols.size(); ++c) {
    if (cols[c] < 0 || cols[c] >= n_labels || col_of_label[static_cast<std::size_t>(cols[c])] >= 0) {
      throw std::invalid_argument("Internal error: bad label columns of a sparse count.");
    }
    col_of_label[static_cast<std::size_t>(cols[c])] = static_cast<int>(c);
  }
  const int k = static_cast<int>(cols.size());
  const mlagreement::SparseRecords s{static_cast<std::size_t>(n), static_cast<std::size_t>(n_labels),
                                     item.begin(), static_cast<std::size_t>(n_items),
                                     annotator.begin(), static_cast<std::size_t>(n_annotators),
                                     start.begin(), label.begin()};
  Rcpp::IntegerMatrix x = keep_counts ? Rcpp::IntegerMatrix(n_items, k) : Rcpp::IntegerMatrix(0, 0);
  Rcpp::IntegerMatrix m = keep_counts ? Rcpp::IntegerMatrix(n_items, k) : Rcpp::IntegerMatrix(0, 0);
  Rcpp::IntegerVector item_annotators(n_items), annotator_records(n_annotators);
  Rcpp::NumericVector d_sum(n_items);
  Rcpp::IntegerVector n_pairable(n_items);
  mlagreement::CountOutput out{keep_counts ? x.begin() : nullptr, keep_counts ? m.begin() : nullptr,
                               item_annotators.begin(), annotator_records.begin()};
  mlagreement::TallyOutput tally{{}, d_sum.begin(), n_pairable.begin()};
  tally.table.reset(static_cast<std::size_t>(k), static_cast<std::size_t>(max_m));
  mlagreement::count_sparse(s, col_of_label.data(), static_cast<std::size_t>(k), out, tally);
  return Rcpp::List::create(
      Rcpp::Named("x") = keep_counts ? static_cast<SEXP>(x) : R_NilValue,
      Rcpp::Named("m") = keep_counts ? static_cast<SEXP>(m) : R_NilValue,
      Rcpp::Named("item_annotators") = item_annotators,
      Rcpp::Named("annotator_records") = annotator_records,
      Rcpp::Named("tally") = glue::wrap_tally(tally, d_sum, n_pairable),
      Rcpp::Named("bad_index") = -1.0,
      Rcpp::Named("n_decisions") = static_cast<double>(out.n_decisions),
      Rcpp::Named("n_nonempty_records") = static_cast<double>(out.n_nonempty_records));
}
