// R glue for the counting pass (mlagreement/counts.h).
#include <Rcpp.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <stdexcept>

#include "glue-view.h"
#include "mlagreement/cell_codes.h"
#include "mlagreement/counts.h"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace {

// After the dense pass: whether some chunk's items differ in m on a label, so
// the m nibbles are kept; then the chunks that the pass left to their common m
// get theirs too (every byte written: identical() objects stay identical).
bool complete_m4(const mlagreement::CountOutput& out, std::size_t n_items, std::size_t k) {
  const std::size_t chunk = mlagreement::kCellChunk;
  const std::size_t n_chunks = (n_items + chunk - 1) / chunk;
  bool any = false;
  for (std::size_t c = 0; c < n_chunks * k && !any; ++c) any = out.chunk_m[c] < 0;
  if (!any) return false;
  const std::size_t per_label = mlagreement::nibble_bytes(n_items);
  for (std::size_t ch = 0; ch < n_chunks; ++ch) {
    const std::size_t start = ch * chunk, len = std::min(chunk, n_items - start);
    for (std::size_t j = 0; j < k; ++j) {
      const int m = out.chunk_m[ch * k + j];
      if (m < 0) continue;
      std::uint8_t* dst = out.m4 + j * per_label + start / 2;
      std::fill(dst, dst + len / 2, static_cast<std::uint8_t>(m | (m << 4)));
      if (len % 2 == 1) dst[len / 2] = static_cast<std::uint8_t>(m);
    }
  }
  return true;
}

template <typename T, typename Codes>
Rcpp::List run_counts(const mlagreement::RecordView<T>& view, const Codes& codes, int max_m,
                      bool keep_counts, bool keep_codes, int threads) {
  const int n_items = static_cast<int>(view.n_items);
  const int k = static_cast<int>(view.n_labels);
  // The dense pass needs no item x label tables for its label tables and
  // writes every cell once when asked to keep them (so no zero fill); the
  // records pass scatters into zeroed tables, so it always keeps them.
  const bool dense = view.item == nullptr;
  const bool keep = keep_counts || !dense;
  glue::CountResult r(n_items, static_cast<int>(view.n_annotators), k, max_m, keep, !dense);
  // packed class codes: dense layout only (the records layout keeps x and m)
  const bool packed = keep_codes && dense && max_m <= mlagreement::kPackedMaxM;
  const std::size_t n_chunks = (view.n_items + mlagreement::kCellChunk - 1) / mlagreement::kCellChunk;
  const R_xlen_t nibbles = packed ? static_cast<R_xlen_t>(mlagreement::nibble_bytes(view.n_items)) * k : 0;
  // x4 is written in full; m4 only where a chunk's items differ in m.
  Rcpp::RawVector x4 = glue::fresh_vector<Rcpp::RawVector>(nibbles), m4(Rcpp::no_init(nibbles));
  Rcpp::RawVector chunk_m(Rcpp::no_init(packed ? static_cast<R_xlen_t>(n_chunks) * k : 0));
  if (packed) {
    r.out.x4 = RAW(x4);
    r.out.m4 = RAW(m4);
    r.out.chunk_m = reinterpret_cast<std::int8_t*>(RAW(chunk_m));
  }
  mlagreement::count_decisions(view, codes, threads, r.out, r.tally);
  const bool keep_m4 = packed && r.out.bad_index < 0 && complete_m4(r.out, view.n_items, view.n_labels);
  Rcpp::List res = r.wrap(static_cast<double>(r.out.bad_index));
  res.push_back(packed ? static_cast<SEXP>(Rcpp::List::create(
                             Rcpp::Named("x4") = x4,
                             Rcpp::Named("m4") = keep_m4 ? static_cast<SEXP>(m4) : R_NilValue,
                             Rcpp::Named("chunk_m") = chunk_m,
                             Rcpp::Named("chunk") = static_cast<int>(mlagreement::kCellChunk)))
                       : R_NilValue,
                "cells");
  return res;
}

}  // namespace

// view: annotation_view() (the labels to count as label_cols); max_m: the
// most records of one item; keep_counts: x and m for the dense layout too;
// keep_codes: a dense array's packed class codes (`cells`; NULL for the
// records layout or more than 15 annotators). bad_index >= 0: the first
// invalid value.
// [[Rcpp::export(rng = false)]]
Rcpp::List count_decisions_cpp(const Rcpp::List& view, int max_m, bool keep_counts, int threads,
                               bool keep_codes = false) {
  // IntCodes relies on R's integer and logical NA being INT_MIN.
  if (NA_INTEGER != INT_MIN || NA_LOGICAL != INT_MIN) {
    Rcpp::stop("Internal error: unexpected NA representation.");
  }
  if (max_m < 1 || threads < 1) {
    throw std::invalid_argument("Internal error: max_m and threads must be >= 1.");
  }
  return glue::with_record_view(view, [&](const auto& v, const auto& codes) {
    return run_counts(v, codes, max_m, keep_counts, keep_codes, threads);
  });
}

// Number of values other than 0, 1 and NA in the labels of `view` (the
// message of a bad value; R would need a full-size temporary to count them).
// [[Rcpp::export(rng = false)]]
double count_invalid_cpp(const Rcpp::List& view) {
  return glue::with_record_view(view, [&](const auto& v, const auto& codes) {
    return static_cast<double>(mlagreement::count_invalid(v, codes));
  });
}

// [[Rcpp::export(rng = false)]]
int max_threads_cpp() {
#ifdef _OPENMP
  return omp_get_num_procs();
#else
  return 1;
#endif
}
