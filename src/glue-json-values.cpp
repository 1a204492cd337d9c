// R glue for the JSON event parser (inst/include/mlagreement/json_events.h):
// the events become the R values jsonlite::parse_json() gives (objects named
// lists, arrays unnamed lists, scalars of length one, null NULL).
#include <Rcpp.h>

#include <string>
#include <vector>

#include "glue-file.h"
#include "mlagreement/json_events.h"
#include "mlagreement/json_lines.h"

namespace {

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
