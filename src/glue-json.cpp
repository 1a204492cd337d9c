// R glue for the JSON-lines scanner: unwrap, call the core, wrap. Nothing else.
#include <Rcpp.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "glue-file.h"
#include "mlagreement/json_lines.h"

namespace {

// A character vector filled one string at a time, grown by doubling (only
// pointers are copied; the strings live in R's string cache).
class GrowingStrings {
 public:
  GrowingStrings() : v_(1024) {}
  void push(const mlagreement::JsonField& f) {
    if (n_ == v_.size()) v_ = Rf_xlengthgets(v_, 2 * v_.size());
    SEXP s = f.kind == mlagreement::JsonKind::scalar
                 ? Rf_mkCharLenCE(f.text.data(), static_cast<int>(f.text.size()), CE_UTF8)
                 : NA_STRING;
    SET_STRING_ELT(v_, n_++, s);
  }
  SEXP finish() { return Rf_xlengthgets(v_, n_); }

 private:
  Rcpp::CharacterVector v_;
  R_xlen_t n_ = 0;
};

struct ColumnSink {
  std::vector<int> line;
  std::vector<GrowingStrings> columns;
  explicit ColumnSink(std::size_t n) : columns(n) {}
  void operator()(long line_no, const std::vector<mlagreement::JsonField>& values) {
    if ((line.size() & 0xFFF) == 0xFFF) Rcpp::checkUserInterrupt();  // every 4096 lines
    line.push_back(static_cast<int>(line_no));
    for (std::size_t k = 0; k < values.size(); ++k) columns[k].push(values[k]);
  }
};

const char* const kErrorNames[] = {"none", "io", "bad_utf8", "nul_byte", "invalid_json",
                                   "not_object", "field_missing", "field_nested", "label_guess",
                                   "empty"};
const char* const kKindNames[] = {"absent", "null", "scalar", "array", "object"};

Rcpp::List error_list(const mlagreement::ScanResult& res) {
  return Rcpp::List::create(
      Rcpp::Named("kind") = kErrorNames[static_cast<int>(res.error)],
      Rcpp::Named("line") = static_cast<double>(res.line),
      Rcpp::Named("field") = static_cast<int>(res.field) + 1,
      Rcpp::Named("value") = kKindNames[static_cast<int>(res.kind)],
      Rcpp::Named("affected") = static_cast<double>(res.affected),
      Rcpp::Named("detail") = res.detail,
      Rcpp::Named("keys") = Rcpp::wrap(res.keys),
      Rcpp::Named("found") = Rcpp::wrap(res.found));
}


}  // namespace

// fields: the top-level fields to take, "" at `guess` (1-based, 0 for none)
// for the label to find among `candidates`. Returns list(line, values, fields,
// error), error NULL or a list describing the first fault.
// [[Rcpp::export(rng = false)]]
Rcpp::List read_json_lines_cpp(const std::string& path, Rcpp::CharacterVector fields,
                               Rcpp::LogicalVector required, int guess,
                               Rcpp::CharacterVector candidates, double block_bytes) {
  std::vector<std::string> names = Rcpp::as<std::vector<std::string>>(fields);
  const std::vector<std::string> cand = Rcpp::as<std::vector<std::string>>(candidates);
  std::vector<bool> req(names.size());
  for (std::size_t k = 0; k < names.size(); ++k) req[k] = required[k] == TRUE;
  glue::File file(std::fopen(path.c_str(), "rb"));
  if (!file) {
    mlagreement::ScanResult res;
    res.error = mlagreement::ScanError::io;
    return Rcpp::List::create(Rcpp::Named("error") = error_list(res));
  }
  ColumnSink sink(names.size());
  const std::size_t guess_at = guess > 0 ? static_cast<std::size_t>(guess - 1) : names.size();
  const mlagreement::ScanResult res = mlagreement::scan_json_lines(
      file.get(), static_cast<std::size_t>(block_bytes), names, req, guess_at, cand, sink);
  Rcpp::List values(names.size());
  for (std::size_t k = 0; k < names.size(); ++k) values[k] = sink.columns[k].finish();
  Rcpp::RObject error = R_NilValue;
  if (res.error != mlagreement::ScanError::none) error = error_list(res);
  return Rcpp::List::create(
      Rcpp::Named("line") = Rcpp::IntegerVector(sink.line.begin(), sink.line.end()),
      Rcpp::Named("values") = values, Rcpp::Named("fields") = Rcpp::wrap(names),
      Rcpp::Named("error") = error);
}
