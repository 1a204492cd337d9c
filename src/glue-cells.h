// R glue shared by the glue files that read item x label cells
// (src/mlagreement/cell_codes.h) from the bundle item_cells() builds in R
// (R/annotations.R). Glue only: it sees Rcpp.
#ifndef MLAGREEMENT_GLUE_CELLS_H
#define MLAGREEMENT_GLUE_CELLS_H

#include <Rcpp.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "mlagreement/cell_codes.h"

namespace glue {

// f(cells) with the stored class codes of `bundle` (a raw vector, `bytes`
// per cell, items x all labels) for the k labels its 0-based label_cols name.
template <typename F>
auto with_stored_cells(const Rcpp::List& bundle, std::size_t k, F f) {
  const Rcpp::IntegerVector cols = bundle["label_cols"];
  const std::size_t n_items = static_cast<std::size_t>(Rcpp::as<int>(bundle["n_items"]));
  const Rcpp::RawVector codes = bundle["codes"];
  const int bytes = Rcpp::as<int>(bundle["bytes"]);
  const std::size_t side = static_cast<std::size_t>(Rcpp::as<int>(bundle["side"]));
  const std::size_t per_label = n_items * static_cast<std::size_t>(bytes);
  const std::size_t n_cols = per_label > 0 ? static_cast<std::size_t>(codes.size()) / per_label : 0;
  if (static_cast<std::size_t>(cols.size()) != k || mlagreement::cell_code_bytes(side) != bytes ||
      static_cast<std::size_t>(codes.size()) != n_cols * per_label) {
    Rcpp::stop("Internal error: class codes do not match the design.");
  }
  const auto view = [&](const auto* first) {
    using Code = std::remove_cv_t<std::remove_pointer_t<decltype(first)>>;
    mlagreement::StoredCells<Code> c;
    c.n_items = n_items;
    c.n_labels = k;
    c.side = side;
    for (const int col : cols) {
      if (col < 0 || static_cast<std::size_t>(col) >= n_cols) Rcpp::stop("Internal error: label out of range.");
      c.columns.push_back(first + static_cast<std::size_t>(col) * n_items);
    }
    return c;
  };
  if (bytes == 1) return f(view(reinterpret_cast<const std::uint8_t*>(RAW_RO(codes))));
  return f(view(reinterpret_cast<const std::uint16_t*>(RAW_RO(codes))));
}

// f(cells) with the cells of `bundle` for k labels: its stored codes, or its
// x/m tables of those labels. max_m: the label tables' rows (every m must be
// at most max_m for the tables to be read by class).
template <typename F>
auto with_cells(const Rcpp::List& bundle, std::size_t k, std::size_t max_m, F f) {
  if (!Rf_isNull(bundle["codes"])) {
    if (static_cast<std::size_t>(Rcpp::as<int>(bundle["side"])) < max_m + 1) {
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
