// R glue for the weighted single-label coefficients (weighted_agreement.h).
#include <RcppArmadillo.h>

#include <algorithm>

#include "glue-view.h"
#include "mlagreement/boot_units.h"
#include "mlagreement/rng.h"
#include "mlagreement/weighted_agreement.h"

namespace {

namespace mla = mlagreement;

mla::WeightedItems items_of(const Rcpp::IntegerMatrix& counts, const Rcpp::NumericMatrix& weights) {
  if (weights.nrow() != counts.ncol() || weights.ncol() != counts.ncol()) {
    Rcpp::stop("Internal error: weights must be q x q.");
  }
  arma::mat X(static_cast<arma::uword>(counts.nrow()), static_cast<arma::uword>(counts.ncol()));
  std::copy(counts.begin(), counts.end(), X.begin());
  const arma::mat W(const_cast<double*>(weights.begin()), weights.nrow(), weights.ncol(), false, true);
  return mla::weighted_items(X, W);
}

}  // namespace

// counts: items x categories ratings; weights: q x q with unit diagonal.
// [[Rcpp::export(rng = false)]]
Rcpp::List weighted_agreement_cpp(const Rcpp::IntegerMatrix& counts,
                                  const Rcpp::NumericMatrix& weights) {
  const mla::WeightedItems it = items_of(counts, weights);
  const mla::WeightedAgreement a = mla::weighted_agreement(it);
  return Rcpp::List::create(
      Rcpp::Named("d_obs") = a.d_obs,
      Rcpp::Named("w") = Rcpp::NumericVector(a.w, a.w + mla::kWeightedCoefficients),
      Rcpp::Named("estimate") = glue::na_vector(a.estimate),
      Rcpp::Named("item_d") = Rcpp::wrap(it.d));
}

// Sums of squared influence deviations (one per coefficient), n, and the
// weighted percent agreement's (observed_sum_sq).
// [[Rcpp::export(rng = false)]]
Rcpp::List weighted_influence_cpp(const Rcpp::IntegerMatrix& counts,
                                  const Rcpp::NumericMatrix& weights) {
  return glue::wrap_corpus_influence(mla::weighted_influence(items_of(counts, weights)));
}

// Item (or cluster) bootstrap replicates (n_rep x 3) with the draws of
// boot_items_cpp() for the same seed and units.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix weighted_boot_cpp(const Rcpp::IntegerMatrix& counts,
                                      const Rcpp::NumericMatrix& weights,
                                      const Rcpp::IntegerVector& seed, int n_rep,
                                      const Rcpp::IntegerVector& unit_of_item, int n_units,
                                      const Rcpp::IntegerVector& order,
                                      const Rcpp::IntegerVector& start) {
  const mla::WeightedItems it = items_of(counts, weights);
  const mla::UnitDesign u = glue::unit_design(it.n_items, unit_of_item, n_units, order, start);
  Rcpp::NumericMatrix out(n_rep, mla::kWeightedCoefficients);
  glue::for_each_stream(seed, [&](std::uint64_t s, int stream) {
    mla::weighted_replicates(it, u, s, stream, static_cast<std::size_t>(n_rep), out.begin());
  });
  return glue::nan_to_na(out);
}

// Leave-one-unit-out coefficients (n_units x 3).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix weighted_jack_cpp(const Rcpp::IntegerMatrix& counts,
                                      const Rcpp::NumericMatrix& weights,
                                      const Rcpp::IntegerVector& unit_start,
                                      const Rcpp::IntegerVector& unit_items) {
  const mla::WeightedItems it = items_of(counts, weights);
  return glue::unit_rows(unit_start, mla::kWeightedCoefficients, [&](std::size_t nu, double* out) {
    mla::weighted_jackknife(it, nu, unit_start.begin(), unit_items.begin(), out);
  });
}
