// R glue for the JSON event parser (inst/include/mlagreement/json_events.h):
// the events become the R values jsonlite::parse_json() gives (objects named
// lists, arrays unnamed lists, scalars of length one, null NULL).
#include <Rcpp.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "glue-file.h"
#include "mlagreement/json_events.h"
#include "mlagreement/json_lines.h"

namespace {

using glue::File;
using glue::json_error_list;
using glue::seek_to;

// Values waiting for their container live on a stack held in an R list (so
// the collector sees them); an object's keys sit in a parallel character
// stack at the slots of their values. A container takes its slot when it
// opens, so that the keys inside it cannot overwrite its own key.
class RValueBuilder {
 public:
  RValueBuilder() : values_(Rf_allocVector(VECSXP, 1024)), keys_(Rf_allocVector(STRSXP, 1024)) {}

  void null_value() { push(R_NilValue); }
  void bool_value(bool b) { push(Rf_ScalarLogical(b ? TRUE : FALSE)); }
  void integer_value(int v) { push(Rf_ScalarInteger(v)); }
  void double_value(double v) { push(Rf_ScalarReal(v)); }
  void string_value(const char* s, std::size_t n) { push(Rf_ScalarString(mkchar(s, n))); }
  void begin_object() { push(R_NilValue); }
  void begin_array() { push(R_NilValue); }
  void key(const char* s, std::size_t n) {
    reserve();
    SET_STRING_ELT(keys_, n_, mkchar(s, n));
  }
  void end_object(std::size_t n) { close(static_cast<R_xlen_t>(n), true); }
  void end_array(std::size_t n) { close(static_cast<R_xlen_t>(n), false); }

  R_xlen_t size() const { return n_; }
  SEXP at(R_xlen_t k) const { return VECTOR_ELT(values_, k); }
  // The values on the stack as one list (the records of a chunk).
  SEXP take_all() {
    Rcpp::List out(n_);
    for (R_xlen_t k = 0; k < n_; ++k) SET_VECTOR_ELT(out, k, VECTOR_ELT(values_, k));
    n_ = 0;
    return out;
  }

 private:
  Rcpp::List values_;
  Rcpp::CharacterVector keys_;
  R_xlen_t n_ = 0;
  std::size_t events_ = 0;

  static SEXP mkchar(const char* s, std::size_t n) {
    return Rf_mkCharLenCE(s, static_cast<int>(n), CE_UTF8);
  }
  // Room for one more value; an interrupt check every 2^20 values.
  void reserve() {
    if ((++events_ & 0xFFFFF) == 0) Rcpp::checkUserInterrupt();
    if (n_ < Rf_xlength(values_)) return;
    const R_xlen_t size = 2 * Rf_xlength(values_);
    values_ = Rf_xlengthgets(values_, size);
    keys_ = Rf_xlengthgets(keys_, size);
  }
  void push(SEXP v) {
    PROTECT(v);
    reserve();
    SET_VECTOR_ELT(values_, n_++, v);
    UNPROTECT(1);
  }
  void close(R_xlen_t n, bool named) {
    const R_xlen_t start = n_ - n;
    SEXP out = PROTECT(Rf_allocVector(VECSXP, n));
    for (R_xlen_t k = 0; k < n; ++k) SET_VECTOR_ELT(out, k, VECTOR_ELT(values_, start + k));
    if (named) {
      SEXP nm = PROTECT(Rf_allocVector(STRSXP, n));
      for (R_xlen_t k = 0; k < n; ++k) SET_STRING_ELT(nm, k, STRING_ELT(keys_, start + k));
      Rf_setAttrib(out, R_NamesSymbol, nm);
      UNPROTECT(1);
    }
    n_ = start;
    SET_VECTOR_ELT(values_, n_ - 1, out);  // the slot taken at the opening
    UNPROTECT(1);
  }
};

using Parser = mlagreement::JsonEventParser<RValueBuilder>;

Rcpp::List parse_buffer(const char* begin, const char* end, const std::vector<std::string>& ids,
                        const char* unit) {
  RValueBuilder builder;
  Parser parser(builder, ids, unit);
  if (!parser.parse(begin, end, 1, true)) {
    return Rcpp::List::create(Rcpp::Named("value") = R_NilValue,
                              Rcpp::Named("error") = glue::status_error(parser.status()));
  }
  return Rcpp::List::create(Rcpp::Named("value") = builder.at(0),
                            Rcpp::Named("error") = R_NilValue);
}

}  // namespace

// One JSON document held in a string: list(value, error).
// [[Rcpp::export(rng = false)]]
Rcpp::List parse_json_text_cpp(const std::string& txt, Rcpp::CharacterVector id_fields) {
  const std::vector<std::string> ids = Rcpp::as<std::vector<std::string>>(id_fields);
  return parse_buffer(txt.data(), txt.data() + txt.size(), ids, "input");
}

// One JSON document, a whole file: list(value, error).
// [[Rcpp::export(rng = false)]]
Rcpp::List parse_json_file_cpp(const std::string& path, Rcpp::CharacterVector id_fields) {
  const std::vector<std::string> ids = Rcpp::as<std::vector<std::string>>(id_fields);
  std::vector<char> buf;
  const bool failed = !glue::read_whole_file(path, buf);
  if (failed) {
    return Rcpp::List::create(Rcpp::Named("value") = R_NilValue,
                              Rcpp::Named("error") = json_error_list("io", 0, ""));
  }
  return parse_buffer(buf.data(), buf.data() + buf.size(), ids, "file");
}

// Up to `max_records` objects of a JSON-lines file from byte `offset` on,
// whose first line is `line + 1`: list(records, line, offset, last_line,
// eof, error); `offset` and `last_line` resume the next chunk.
// [[Rcpp::export(rng = false)]]
Rcpp::List parse_json_lines_cpp(const std::string& path, Rcpp::CharacterVector id_fields,
                                double offset, double line, double max_records, double block_bytes) {
  const std::vector<std::string> ids = Rcpp::as<std::vector<std::string>>(id_fields);
  File file(std::fopen(path.c_str(), "rb"));
  if (!file || !seek_to(file.get(), offset)) {
    return Rcpp::List::create(Rcpp::Named("error") = json_error_list("io", static_cast<long>(line), ""));
  }
  mlagreement::BlockLineReader reader(file.get(), static_cast<std::size_t>(block_bytes));
  RValueBuilder builder;
  Parser parser(builder, ids, "line");
  std::vector<int> lines;
  const mlagreement::ValueLinesResult res = mlagreement::scan_value_lines(
      reader, parser, static_cast<long>(line), static_cast<long>(max_records),
      [&lines](long l) { lines.push_back(static_cast<int>(l)); });
  const Rcpp::RObject error = glue::value_lines_error(res);
  return Rcpp::List::create(
      Rcpp::Named("records") = builder.take_all(),
      Rcpp::Named("line") = Rcpp::IntegerVector(lines.begin(), lines.end()),
      Rcpp::Named("offset") = offset + static_cast<double>(reader.consumed()),
      Rcpp::Named("last_line") = static_cast<double>(res.line),
      Rcpp::Named("eof") = res.eof, Rcpp::Named("error") = error);
}
