// R glue for the ingestion of long decision tables (mlagreement/ingest.h).
#include <Rcpp.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "glue-memory.h"
#include "mlagreement/ingest.h"
#include "mlagreement/record_view.h"

namespace {

// A coded column from R's list(x = <integer>, offset = <number>, pos = <integer>).
mlagreement::CodedColumn coded_column(const Rcpp::List& col) {
  const Rcpp::IntegerVector x = col["x"];
  const Rcpp::IntegerVector pos = col["pos"];
  return mlagreement::CodedColumn{INTEGER_RO(x),
                                  static_cast<std::int64_t>(Rcpp::as<double>(col["offset"])),
                                  INTEGER_RO(pos), static_cast<std::size_t>(pos.size()),
                                  NA_INTEGER};
}

template <typename F>
std::vector<std::size_t> distinct_of(SEXP v, int* codes, F&& run) {
  const std::size_t n = static_cast<std::size_t>(Rf_xlength(v));
  switch (TYPEOF(v)) {
    case STRSXP: {
      // one CHARSXP per distinct (string, encoding) in R's global cache
      const SEXP* s = STRING_PTR_RO(v);
      return run(n, [s](std::size_t r) { return reinterpret_cast<std::uintptr_t>(s[r]); }, codes);
    }
    case REALSXP: {
      const double* d = REAL_RO(v);
      return run(n, [d](std::size_t r) {
        std::uint64_t b;
        std::memcpy(&b, d + r, sizeof b);
        return b;
      }, codes);
    }
    case INTSXP:
    case LGLSXP: {
      const int* x = TYPEOF(v) == INTSXP ? INTEGER_RO(v) : LOGICAL_RO(v);
      return run(n, [x](std::size_t r) {
        return static_cast<std::uint64_t>(static_cast<std::uint32_t>(x[r]));
      }, codes);
    }
    default:
      throw std::invalid_argument("Internal error: distinct values of an unsupported type.");
  }
}

}  // namespace

// 1-based codes of the values of `v` (character, double, integer or logical)
// in order of first occurrence, and the 1-based first row of each distinct
// bit pattern (R merges equal values with different bits).
// [[Rcpp::export(rng = false)]]
Rcpp::List distinct_codes_cpp(SEXP v) {
  Rcpp::IntegerVector codes = glue::fresh_vector<Rcpp::IntegerVector>(Rf_xlength(v));
  const auto run = [](std::size_t n, auto key_at, int* out) {
    return mlagreement::distinct_codes(n, key_at, out);
  };
  const std::vector<std::size_t> first = distinct_of(v, codes.begin(), run);
  Rcpp::IntegerVector first_row(first.size());
  for (std::size_t j = 0; j < first.size(); ++j) first_row[j] = static_cast<int>(first[j] + 1);
  return Rcpp::List::create(Rcpp::Named("codes") = codes, Rcpp::Named("first") = first_row);
}

// Which of the slots 1..span the integers x - offset occupy.
// [[Rcpp::export(rng = false)]]
Rcpp::LogicalVector present_slots_cpp(const Rcpp::IntegerVector& x, double offset, double span) {
  const std::vector<unsigned char> present = mlagreement::present_slots(
      INTEGER_RO(x), static_cast<std::size_t>(x.size()), static_cast<std::int64_t>(offset),
      static_cast<std::size_t>(span));
  return Rcpp::LogicalVector(present.begin(), present.end());
}

// Records and their records x labels decisions from coded item, annotator
// and label columns (repeats resolved by `keep_last`); status 0, or the
// reason (1 label, 2 value, 3 repeat) with the 1-based `row` and `count`.
// [[Rcpp::export(rng = false)]]
Rcpp::List ingest_decisions_cpp(const Rcpp::List& item, int n_items, const Rcpp::List& annotator,
                                int n_annotators, const Rcpp::List& label, int n_labels,
                                SEXP values, bool keep_last) {
  if (NA_INTEGER != INT_MIN || NA_LOGICAL != INT_MIN) {
    Rcpp::stop("Internal error: unexpected NA representation.");
  }
  const std::size_t n = static_cast<std::size_t>(Rf_xlength(values));
  const mlagreement::DecisionIngest ingest(coded_column(item), static_cast<std::size_t>(n_items),
                                           coded_column(annotator),
                                           static_cast<std::size_t>(n_annotators), n);
  const int n_rec = static_cast<int>(ingest.n_records());
  // ingest.fill() writes every cell
  Rcpp::IntegerMatrix out = glue::fresh_matrix<Rcpp::IntegerMatrix>(n_rec, n_labels);
  const mlagreement::CodedColumn lab = coded_column(label);
  const std::size_t k = static_cast<std::size_t>(n_labels);
  const auto fill = [&](const auto* v, const auto& codes) {
    return ingest.fill(lab, k, v, codes, NA_INTEGER, keep_last, out.begin());
  };
  mlagreement::IngestResult res;
  switch (TYPEOF(values)) {
    case INTSXP: res = fill(INTEGER_RO(values), mlagreement::IntCodes{}); break;
    case LGLSXP: res = fill(LOGICAL_RO(values), mlagreement::IntCodes{}); break;
    case REALSXP: res = fill(REAL_RO(values), mlagreement::RealCodes{}); break;
    default: throw std::invalid_argument("Internal error: decisions of an unsupported type.");
  }
  // on an error only status, row and count are read
  const std::vector<int>& ri = ingest.record_item();
  const std::vector<int>& ra = ingest.record_annotator();
  return Rcpp::List::create(Rcpp::Named("status") = static_cast<int>(res.status),
                            Rcpp::Named("row") = static_cast<double>(res.row) + 1,
                            Rcpp::Named("count") = static_cast<double>(res.count),
                            Rcpp::Named("item") = glue::fresh_copy<Rcpp::IntegerVector>(ri),
                            Rcpp::Named("annotator") = glue::fresh_copy<Rcpp::IntegerVector>(ra),
                            Rcpp::Named("values") = out);
}

// The records of coded item and annotator columns: list(index = the 1-based
// record of each row, item, annotator = those of each record).
// [[Rcpp::export(rng = false)]]
Rcpp::List ingest_records_cpp(const Rcpp::List& item, int n_items, const Rcpp::List& annotator,
                              int n_annotators) {
  const Rcpp::IntegerVector x = item["x"];
  const std::size_t n = static_cast<std::size_t>(x.size());
  const mlagreement::DecisionIngest ingest(coded_column(item), static_cast<std::size_t>(n_items),
                                           coded_column(annotator),
                                           static_cast<std::size_t>(n_annotators), n);
  Rcpp::IntegerVector index = glue::fresh_vector<Rcpp::IntegerVector>(static_cast<R_xlen_t>(n));
  ingest.row_records(index.begin());
  const std::vector<int>& ri = ingest.record_item();
  const std::vector<int>& ra = ingest.record_annotator();
  return Rcpp::List::create(Rcpp::Named("index") = index,
                            Rcpp::Named("item") = glue::fresh_copy<Rcpp::IntegerVector>(ri),
                            Rcpp::Named("annotator") = glue::fresh_copy<Rcpp::IntegerVector>(ra));
}
