// R glue for percent and specific agreement (mlagreement/agreement_shares.h).
#include <Rcpp.h>

#include <vector>

#include "glue-cells.h"
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

// Per label: estimate and sum_sq (labels x {observed, positive, negative})
// and n. The corpus percent agreement's sums come with the coefficients'
// (mla_influence_cpp()).
// [[Rcpp::export(rng = false)]]
Rcpp::List share_influence_cpp(const Rcpp::List& cells, const Rcpp::NumericMatrix& cnt,
                               const Rcpp::NumericMatrix& sx, const Rcpp::NumericMatrix& sdis) {
  const std::vector<mla::LabelSummary> labels =
      mla::summarise_labels(glue::label_table(cnt, sx, sdis), false);
  const std::size_t k = labels.size();
  return glue::with_cells(cells, k, static_cast<std::size_t>(cnt.nrow()), [&](const auto& c) {
    Rcpp::NumericMatrix est(static_cast<int>(k), mla::kShares), sum_sq(static_cast<int>(k), mla::kShares);
    Rcpp::NumericVector n(static_cast<int>(k));
    for (std::size_t j = 0; j < k; ++j) {
      const mla::ShareInfluence f = mla::label_share_influence(c, j, labels[j]);
      n[static_cast<R_xlen_t>(j)] = f.n;
      for (int s = 0; s < mla::kShares; ++s) {
        est(static_cast<int>(j), s) = f.estimate[s];
        sum_sq(static_cast<int>(j), s) = f.sum_sq[s];
      }
    }
    return Rcpp::List::create(Rcpp::Named("estimate") = glue::nan_to_na(est),
                              Rcpp::Named("sum_sq") = glue::nan_to_na(sum_sq), Rcpp::Named("n") = n);
  });
}

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
