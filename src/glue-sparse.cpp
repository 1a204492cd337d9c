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
  glue::CountResult r(n_items, n_annotators, k, max_m, keep_counts, true);
  mlagreement::count_sparse(s, col_of_label.data(), static_cast<std::size_t>(k), r.out, r.tally);
  return r.wrap(-1.0);
}
