// Unit-test harness for the counting pass of inst/include/mlagreement/:
// value codes (counts.h). Compiled with Rcpp::sourceCpp() against the
// installed headers by cpp_harness() in helper-cpp.R; the checks are in
// test-cpp-estimators.R.
// [[Rcpp::depends(dqrng)]]
#include <Rcpp.h>

#include "mlagreement/counts.h"

namespace mla = mlagreement;

// ---------------------------------------------------------- value codes ----
template <typename Codes, typename T>
Rcpp::IntegerMatrix classify(const Codes& codes, const T* v, R_xlen_t n) {
  Rcpp::IntegerMatrix out(n, 3);
  for (R_xlen_t i = 0; i < n; ++i) {
    out(i, 0) = codes.decided(v[i]);
    out(i, 1) = codes.invalid(v[i]) != 0 ? 1 : 0;
    out(i, 2) = codes.positive(v[i]);
  }
  Rcpp::colnames(out) = Rcpp::CharacterVector::create("decided", "invalid", "positive");
  return out;
}

// The counting pass's classification of each value (integer, logical or
// double storage): decided, invalid, positive.
// [[Rcpp::export]]
Rcpp::IntegerMatrix value_codes(SEXP v) {
  switch (TYPEOF(v)) {
    case INTSXP: return classify(mla::IntCodes{}, INTEGER_RO(v), Rf_xlength(v));
    case LGLSXP: return classify(mla::IntCodes{}, LOGICAL_RO(v), Rf_xlength(v));
    case REALSXP: return classify(mla::RealCodes{}, REAL_RO(v), Rf_xlength(v));
    default: Rcpp::stop("unsupported type");
  }
}

