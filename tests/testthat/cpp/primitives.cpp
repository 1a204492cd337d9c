// Unit-test harness for the low-level building blocks of
// inst/include/mlagreement/: exact 128-bit sums (uint128.h), double-double
// arithmetic (ddouble.h), the random streams (rng.h), the EM M-step's
// constrained row (annotator_model.h) and the JSON extractor's text buffer
// (json_fields.h). Compiled with Rcpp::sourceCpp() against the installed
// headers by cpp_harness() in helper-cpp.R; the checks are in
// test-cpp-primitives.R.
// [[Rcpp::depends(dqrng)]]
#include <Rcpp.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "mlagreement/annotator_model.h"
#include "mlagreement/ddouble.h"
#include "mlagreement/json_fields.h"
#include "mlagreement/rng.h"
#include "mlagreement/uint128.h"

namespace mla = mlagreement;

// ---------------------------------------------------------------- uint128 ----
// sum_i sign_i a_i b_i, a_i and b_i decimal strings of unsigned 64-bit
// integers, accumulated as positive and negative parts; the decimal result,
// or "negative" when the negative part is larger.
// [[Rcpp::export]]
std::string u128_dot(const Rcpp::CharacterVector& a, const Rcpp::CharacterVector& b,
                     const Rcpp::IntegerVector& sign) {
  if (a.size() != b.size() || a.size() != sign.size()) Rcpp::stop("lengths differ");
  mla::U128 pos, neg;
  for (R_xlen_t i = 0; i < a.size(); ++i) {
    const std::uint64_t x = std::strtoull(a[i], nullptr, 10), y = std::strtoull(b[i], nullptr, 10);
    mla::add_product(sign[i] >= 0 ? pos : neg, x, y);
  }
  if (mla::less(pos, neg)) return "negative";
  return mla::to_decimal(mla::sub(pos, neg));
}

// ---------------------------------------------------------------- ddouble ----
// op: "+", "-", "*", "/" on double-doubles (x_hi, x_lo) and (y_hi, y_lo);
// returns the (hi, lo) of each result as a 2-column matrix.
// [[Rcpp::export]]
Rcpp::NumericMatrix dd_op(std::string op, const Rcpp::NumericVector& x_hi,
                          const Rcpp::NumericVector& x_lo, const Rcpp::NumericVector& y_hi,
                          const Rcpp::NumericVector& y_lo) {
  const R_xlen_t n = x_hi.size();
  if (x_lo.size() != n || y_hi.size() != n || y_lo.size() != n) Rcpp::stop("lengths differ");
  Rcpp::NumericMatrix out(n, 2);
  for (R_xlen_t i = 0; i < n; ++i) {
    const mla::dd x(x_hi[i], x_lo[i]), y(y_hi[i], y_lo[i]);
    mla::dd r;
    if (op == "+") r = x + y;
    else if (op == "-") r = x - y;
    else if (op == "*") r = x * y;
    else if (op == "/") r = x / y;
    else Rcpp::stop("unknown op");
    out(i, 0) = r.hi;
    out(i, 1) = r.lo;
  }
  return out;
}

// The double-double sum of x, left to right: (hi, lo).
// [[Rcpp::export]]
Rcpp::NumericVector dd_sum(const Rcpp::NumericVector& x) {
  mla::dd s;
  for (double v : x) s = s + mla::dd(v);
  return Rcpp::NumericVector::create(s.hi, s.lo);
}

// ------------------------------------------------------------------- rng ----
// n bounded draws in [0, range) from stream `stream` of the 64-bit seed
// (hi, lo), as doubles (range may exceed R's integers).
// [[Rcpp::export]]
Rcpp::NumericVector bounded_draws(int seed_hi, int seed_lo, int stream, double range, int n) {
  mla::Rng rng = mla::stream_rng(mla::combine_seed(seed_hi, seed_lo), stream);
  const std::uint32_t r = static_cast<std::uint32_t>(range);
  Rcpp::NumericVector out(n);
  for (double& v : out) v = static_cast<double>(mla::bounded_u32(rng, r));
  return out;
}

// First replicate of each of the kStreams + 1 block boundaries for n replicates.
// [[Rcpp::export]]
Rcpp::NumericVector stream_blocks(double n) {
  Rcpp::NumericVector out(mla::kStreams + 1);
  for (int k = 0; k <= mla::kStreams; ++k)
    out[k] = static_cast<double>(mla::block_begin(k, static_cast<std::size_t>(n)));
  return out;
}

// -------------------------------------------------------- annotator_model ----
// The M-step's constrained maximiser of sum_l c_l log pi_l over
// pi_l >= floor, sum_l pi_l = 1, started from `pi` (kept when c is all 0).
// [[Rcpp::export]]
Rcpp::NumericVector ds_constrained_row(const Rcpp::NumericVector& c, double floor,
                                       const Rcpp::NumericVector& pi) {
  if (c.size() != pi.size()) Rcpp::stop("lengths differ");
  std::vector<double> out(pi.begin(), pi.end());
  mla::detail::constrained_row(&c[0], static_cast<int>(c.size()), floor, out.data());
  return Rcpp::NumericVector(out.begin(), out.end());
}

// ------------------------------------------------------------ json_fields ----
// Texts of the lengths given added to one JsonEmissions (a length above the
// buffer of "x" is not read: it is longer than an R string); the stored
// texts (NA where none) and whether the emissions were marked overlong.
// [[Rcpp::export]]
Rcpp::List emission_texts(const Rcpp::NumericVector& lengths) {
  mla::JsonEmissions em;
  std::vector<std::size_t> at;
  std::vector<std::uint32_t> len;
  const std::string text(64, 'x');
  for (double n : lengths) {
    const bool none = Rcpp::NumericVector::is_na(n);
    em.add_text(none ? nullptr : text.data(), none ? 0 : static_cast<std::size_t>(n), at, len);
  }
  Rcpp::CharacterVector out(static_cast<R_xlen_t>(len.size()));
  for (std::size_t k = 0; k < len.size(); ++k) {
    out[static_cast<R_xlen_t>(k)] = len[k] == mla::JsonEmissions::kNoText
                                        ? NA_STRING
                                        : Rf_mkCharLen(em.buffer.data() + at[k], static_cast<int>(len[k]));
  }
  return Rcpp::List::create(Rcpp::Named("text") = out, Rcpp::Named("overlong") = em.overlong);
}
