// Unit-test harness for the label-set family of inst/include/mlagreement/:
// distinct label sets of the records (sets.h, set_build.h) and the expected
// set disagreement with its exact counting methods (set_alpha.h). Compiled
// with Rcpp::sourceCpp() against the installed headers by cpp_harness() in
// helper-cpp.R; the checks are in test-cpp-sets.R.
// [[Rcpp::depends(dqrng)]]
#include <Rcpp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "mlagreement/set_alpha.h"
#include "mlagreement/set_build.h"

namespace mla = mlagreement;

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

