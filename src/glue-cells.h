// Shared glue: the item x label cells (cell_codes.h) of the bundle
// item_cells() builds in R (R/annotations.R).
#ifndef MLAGREEMENT_GLUE_CELLS_H
#define MLAGREEMENT_GLUE_CELLS_H

#include <Rcpp.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "mlagreement/cell_codes.h"

namespace glue {

// f(cells) with the packed class codes of `bundle` (x4, m4 or NULL, chunk_m:
// raw vectors over all labels, see CountOutput in counts.h) for the k labels
// its 0-based label_cols name.
template <typename F>
auto with_stored_cells(const Rcpp::List& bundle, std::size_t k, F f) {
  const Rcpp::IntegerVector cols = bundle["label_cols"];
  const std::size_t n_items = static_cast<std::size_t>(Rcpp::as<int>(bundle["n_items"]));
  const Rcpp::RawVector x4 = bundle["x4"], chunk_m = bundle["chunk_m"];
  const std::size_t per_label = mlagreement::nibble_bytes(n_items);
  const std::size_t n_cols = per_label > 0 ? static_cast<std::size_t>(x4.size()) / per_label : 0;
  const std::size_t n_chunks = (n_items + mlagreement::kCellChunk - 1) / mlagreement::kCellChunk;
  const bool has_m4 = !Rf_isNull(bundle["m4"]);
  if (static_cast<std::size_t>(cols.size()) != k || static_cast<std::size_t>(x4.size()) != n_cols * per_label ||
      static_cast<std::size_t>(chunk_m.size()) != n_chunks * n_cols ||
      Rcpp::as<int>(bundle["chunk"]) != static_cast<int>(mlagreement::kCellChunk) ||
      (has_m4 && Rf_xlength(bundle["m4"]) != x4.size())) {
    Rcpp::stop("Internal error: class codes do not match the design.");
  }
  mlagreement::PackedCells c;
  c.n_items = n_items;
  c.n_labels = k;
  c.chunk_m = reinterpret_cast<const std::int8_t*>(RAW_RO(chunk_m));
  c.chunk_stride = n_cols;
  const std::uint8_t* m4 = has_m4 ? RAW_RO(bundle["m4"]) : nullptr;
  for (const int col : cols) {
    if (col < 0 || static_cast<std::size_t>(col) >= n_cols) Rcpp::stop("Internal error: label out of range.");
    const std::size_t offset = static_cast<std::size_t>(col) * per_label;
    c.x_cols.push_back(RAW_RO(x4) + offset);
    if (has_m4) c.m_cols.push_back(m4 + offset);
    c.label_of.push_back(static_cast<std::size_t>(col));
  }
  return f(c);
}

// f(cells) with the cells of `bundle` for k labels: its stored codes, or its
// x/m tables of those labels. max_m: the label tables' rows (every m must be
// at most max_m for the tables to be read by class).
template <typename F>
auto with_cells(const Rcpp::List& bundle, std::size_t k, std::size_t max_m, F f) {
  if (!Rf_isNull(bundle["x4"])) {
    if (max_m > static_cast<std::size_t>(mlagreement::kPackedMaxM)) {
      Rcpp::stop("Internal error: class codes do not match the design.");
    }
    return with_stored_cells(bundle, k, f);
  }
  const std::size_t n_items = static_cast<std::size_t>(Rcpp::as<int>(bundle["n_items"]));
  const Rcpp::IntegerMatrix x = bundle["x"], m = bundle["m"];
  if (static_cast<std::size_t>(x.nrow()) != n_items || x.nrow() != m.nrow() ||
      static_cast<std::size_t>(x.ncol()) != k || m.ncol() != x.ncol()) {
    Rcpp::stop("Internal error: item tables and label tables of different shapes.");
  }
  const int largest = m.size() > 0 ? *std::max_element(m.begin(), m.end()) : 0;
  const std::size_t side = max_m + 1;
  const bool by_class =
      static_cast<std::size_t>(largest) <= max_m && side * side <= mlagreement::kMaxCellClasses;
  return f(mlagreement::CountCells{INTEGER_RO(x), INTEGER_RO(m), n_items, k, by_class ? side : 0});
}

}  // namespace glue

#endif
