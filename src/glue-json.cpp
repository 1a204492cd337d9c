// R glue for the JSON-lines scanner (mlagreement/json_lines.h).
#include <Rcpp.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "glue-file.h"
#include "mlagreement/hash_tables.h"
#include "mlagreement/json_lines.h"

namespace {

// A text column kept as ids into its distinct values while the file is
// scanned, R strings made once per value at the end: no R allocation, so no
// garbage collection (which cannot be interrupted) runs inside the scan.
class InternedColumn {
 public:
  void push(const mlagreement::JsonField& f) {
    ids_.push_back(f.kind == mlagreement::JsonKind::scalar ? distinct_.intern(f.text) : -1);
  }
  // Polls for an interrupt every 2^16 strings made and cells filled.
  SEXP finish() const {
    Rcpp::CharacterVector levels(distinct_.size());
    for (std::size_t k = 0; k < distinct_.size(); ++k) {
      if ((k & 0xFFFF) == 0xFFFF) Rcpp::checkUserInterrupt();
      const int id = static_cast<int>(k);
      SET_STRING_ELT(levels, k, Rf_mkCharLenCE(distinct_.data(id),
                                               static_cast<int>(distinct_.length(id)), CE_UTF8));
    }
    Rcpp::CharacterVector out(ids_.size());
    for (std::size_t i = 0; i < ids_.size(); ++i) {
      if ((i & 0xFFFF) == 0xFFFF) Rcpp::checkUserInterrupt();
      SET_STRING_ELT(out, i, ids_[i] < 0 ? NA_STRING : STRING_ELT(levels, ids_[i]));
    }
    return out;
  }

 private:
  mlagreement::detail::StringTable distinct_;
  std::vector<int> ids_;
};

struct ColumnSink {
  std::vector<int> line;
  std::vector<InternedColumn> columns;
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
