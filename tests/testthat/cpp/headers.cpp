// Unit-test harness for the pure C++ headers of inst/include/mlagreement/,
// compiled with Rcpp::sourceCpp() against the installed headers by
// helper-cpp.R (the include paths are set there). Each function unwraps R values, calls one header routine and
// wraps the result; the checks themselves are in the R test file.
// [[Rcpp::depends(dqrng)]]
#include <Rcpp.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "glue-view.h"
#include "mlagreement/annotator_model.h"
#include "mlagreement/boot_items.h"
#include "mlagreement/boot_units.h"
#include "mlagreement/counts.h"
#include "mlagreement/ddouble.h"
#include "mlagreement/json_fields.h"
#include "mlagreement/rng.h"
#include "mlagreement/set_alpha.h"
#include "mlagreement/set_build.h"
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

// ------------------------------------------------------------ label sets ----
// The distinct label sets of integer records (records x labels, NA missing):
// item = 0-based item of each record, or integer(0) for the dense layout
// (record r = i + n_items * annotator).
// [[Rcpp::export]]
Rcpp::List label_sets(const Rcpp::IntegerMatrix& values, const Rcpp::IntegerVector& item,
                      int n_items, const Rcpp::IntegerVector& annotator, int n_annotators) {
  mla::RecordView<int> view{values.begin(),
                            static_cast<std::size_t>(values.nrow()),
                            static_cast<std::size_t>(values.ncol()),
                            item.size() > 0 ? item.begin() : nullptr,
                            static_cast<std::size_t>(n_items),
                            annotator.size() > 0 ? annotator.begin() : nullptr,
                            static_cast<std::size_t>(n_annotators)};
  mla::SetData d;
  mla::build_sets(view, mla::SetIntCodes{NA_INTEGER}, d, true);
  if (d.bad_record >= 0) return Rcpp::List::create(Rcpp::Named("bad_record") = static_cast<double>(d.bad_record));
  // members of each distinct set (1-based labels), from its bit words
  Rcpp::List members(d.n_sets());
  for (std::size_t s = 0; s < d.n_sets(); ++s) {
    std::vector<int> in;
    for (std::size_t w = 0; w < d.n_words; ++w) {
      const std::uint64_t word = d.bits[s * d.n_words + w];
      for (int b = 0; b < 64; ++b)
        if ((word >> b) & 1u) in.push_back(static_cast<int>(w * 64 + b) + 1);
    }
    members[s] = Rcpp::IntegerVector(in.begin(), in.end());
  }
  return Rcpp::List::create(
      Rcpp::Named("bad_record") = -1.0, Rcpp::Named("members") = members,
      Rcpp::Named("size") = Rcpp::IntegerVector(d.size.begin(), d.size.end()),
      Rcpp::Named("count") = Rcpp::NumericVector(d.count.begin(), d.count.end()),
      Rcpp::Named("start") = Rcpp::NumericVector(d.start.begin(), d.start.end()),
      Rcpp::Named("rec_set") = Rcpp::IntegerVector(d.rec_set.begin(), d.rec_set.end()),
      Rcpp::Named("rec_annotator") = Rcpp::IntegerVector(d.rec_annotator.begin(), d.rec_annotator.end()));
}

// The expected set disagreement D_e (Jaccard, MASI) of distinct sets with
// counts (sets: 1-based labels of each set, of n_labels), with the method
// the engine chose and whether it summed in 128 bits.
// [[Rcpp::export]]
Rcpp::List expected_set_sums(const Rcpp::List& sets, const Rcpp::NumericVector& count, int n_labels) {
  mla::SetData d;
  d.n_words = (static_cast<std::size_t>(n_labels) + 63) / 64;
  d.bits.assign(static_cast<std::size_t>(sets.size()) * d.n_words, 0U);
  d.count.assign(count.begin(), count.end());
  int max_size = 0;
  for (R_xlen_t s = 0; s < sets.size(); ++s) {
    const Rcpp::IntegerVector lab = sets[s];
    for (int j : lab) {
      d.bits[static_cast<std::size_t>(s) * d.n_words + static_cast<std::size_t>(j - 1) / 64] |=
          std::uint64_t{1} << (static_cast<std::size_t>(j - 1) % 64);
    }
    d.size.push_back(static_cast<int>(lab.size()));
    max_size = std::max(max_size, d.size.back());
  }
  const mla::SimTable sim(max_size);
  mla::SetAlpha a;
  double ej = 0, em = 0;
  mla::detail::expected_sums(d, sim, nullptr, 1, a, ej, em);
  const double n = mla::total_count(d);
  return Rcpp::List::create(
      Rcpp::Named("method") = mla::method_name(a.method), Rcpp::Named("wide_sums") = a.wide_sums,
      Rcpp::Named("failed") = a.failed, Rcpp::Named("expected_jaccard") = ej / (n * (n - 1.0)),
      Rcpp::Named("expected_masi") = em / (n * (n - 1.0)));
}

// -------------------------------------------------------------- bootstrap ----

// The multiplicities the engines draw for each replicate (mode 0 items,
// 1 annotators, 2 both): item (n_items x n_rep), annotator (n_annotators x n_rep).
// [[Rcpp::export]]
Rcpp::List boot_draws(int mode, int n_items, int n_annotators,
                      const Rcpp::IntegerVector& unit_of_item, int n_units,
                      const Rcpp::IntegerVector& order, const Rcpp::IntegerVector& start,
                      const Rcpp::IntegerVector& seed, int n_rep) {
  const mla::UnitDesign u = glue::unit_design(n_items, unit_of_item, n_units, order, start);
  Rcpp::IntegerMatrix items(mode == 1 ? 0 : n_items, n_rep);
  Rcpp::IntegerMatrix anns(mode == 0 ? 0 : n_annotators, n_rep);
  mla::boot_draws(mode, u, static_cast<std::size_t>(n_annotators), mla::combine_seed(seed[0], seed[1]),
                  static_cast<std::size_t>(n_rep), items.begin(), anns.begin());
  return Rcpp::List::create(Rcpp::Named("item") = items, Rcpp::Named("annotator") = anns);
}

// Item bootstrap replicates (all streams, `threads` threads) from the count
// tables x, m (items x labels), units = items, one stratum.
// [[Rcpp::export]]
Rcpp::NumericMatrix boot_items(const Rcpp::IntegerMatrix& x, const Rcpp::IntegerMatrix& m,
                               const Rcpp::IntegerVector& seed, int n_rep, int threads) {
  const std::size_t n = static_cast<std::size_t>(x.nrow()), k = static_cast<std::size_t>(x.ncol());
  const std::size_t max_m = static_cast<std::size_t>(Rcpp::max(m));
  const mla::ClassTable tab = mla::class_table(x.begin(), m.begin(), n, k);
  std::vector<std::uint32_t> codes(n * k);
  mla::build_codes(x.begin(), m.begin(), n, k, tab, codes.data());
  Rcpp::IntegerVector order = Rcpp::seq(0, static_cast<int>(n) - 1);
  Rcpp::IntegerVector start = Rcpp::IntegerVector::create(0, static_cast<int>(n));
  const mla::UnitDesign u = glue::unit_design(n, Rcpp::IntegerVector(), static_cast<int>(n),
                                        order, start);
  Rcpp::NumericMatrix out(n_rep, static_cast<int>(mla::n_boot_stats(k)));
  const bool ok = mla::boot_items(mla::class_codes(codes.data(), n, k, max_m, tab), u,
                                  mla::combine_seed(seed[0], seed[1]), static_cast<std::size_t>(n_rep),
                                  0, mla::kStreams, threads, out.begin(),
                                  static_cast<std::size_t>(n_rep));
  if (!ok) Rcpp::stop("boot_items failed");
  for (double& v : out)
    if (std::isnan(v)) v = NA_REAL;
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
