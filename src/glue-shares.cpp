// R glue for percent and specific agreement (mlagreement/agreement_shares.h).
#include <Rcpp.h>

#include <vector>

#include "glue-view.h"
#include "mlagreement/agreement_shares.h"
#include "mlagreement/boot_units.h"
#include "mlagreement/estimators.h"
#include "mlagreement/rng.h"
#include "mlagreement/replicate_stats.h"

namespace {

namespace mla = mlagreement;

mla::SpecificItems specific_of(const Rcpp::IntegerMatrix& x, const Rcpp::IntegerMatrix& m) {
  if (x.nrow() != m.nrow() || x.ncol() != m.ncol()) Rcpp::stop("Internal error: x and m differ in shape.");
  return mla::specific_items(x.begin(), m.begin(), static_cast<std::size_t>(x.nrow()),
                             static_cast<std::size_t>(x.ncol()));
}

}  // namespace

// Item (or cluster) bootstrap replicates of positive and negative specific
// agreement (n_rep x 2k: positive of every label, then negative) with the
// draws of boot_items_cpp() for the same seed and units.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix specific_boot_cpp(const Rcpp::IntegerMatrix& x, const Rcpp::IntegerMatrix& m,
                                      const Rcpp::IntegerVector& seed, int n_rep,
                                      const Rcpp::IntegerVector& unit_of_item, int n_units,
                                      const Rcpp::IntegerVector& order, const Rcpp::IntegerVector& start) {
  const mla::SpecificItems it = specific_of(x, m);
  const mla::UnitDesign u = glue::unit_design(it.n_items, unit_of_item, n_units, order, start);
  Rcpp::NumericMatrix out(n_rep, static_cast<int>(2 * it.n_labels));
  glue::for_each_stream(seed, [&](std::uint64_t s, int stream) {
    mla::specific_replicates(it, u, s, stream, static_cast<std::size_t>(n_rep), out.begin());
  });
  return glue::nan_to_na(out);
}

// Leave-one-unit-out positive and negative agreement (n_units x 2k).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix specific_jack_cpp(const Rcpp::IntegerMatrix& x, const Rcpp::IntegerMatrix& m,
                                      const Rcpp::IntegerVector& unit_start,
                                      const Rcpp::IntegerVector& unit_items) {
  const mla::SpecificItems it = specific_of(x, m);
  return glue::unit_rows(unit_start, static_cast<int>(2 * it.n_labels), [&](std::size_t nu, double* out) {
    mla::specific_jackknife(it, nu, unit_start.begin(), unit_items.begin(), out);
  });
}
