// R glue for the analytic standard errors (mlagreement/influence.h,
// agreement_shares.h): point values from the label tables, influence terms
// from item_cells().
#include <Rcpp.h>

#include <vector>

#include "glue-cells.h"
#include "glue-view.h"
#include "mlagreement/agreement_shares.h"
#include "mlagreement/estimators.h"
#include "mlagreement/influence.h"
#include "mlagreement/replicate_stats.h"
#include "mlagreement/single_label.h"

namespace {

namespace mla = mlagreement;

}  // namespace

// cells: item_cells() of the fit's labels; cnt, sx, sdis: the same labels'
// tables by m. The corpus sums, one per baseline (sum_sq), the items sampled
// (n) and percent agreement's (observed_sum_sq).
// [[Rcpp::export(rng = false)]]
Rcpp::List corpus_influence_cpp(const Rcpp::List& cells, const Rcpp::NumericMatrix& cnt,
                                const Rcpp::NumericMatrix& sx, const Rcpp::NumericMatrix& sdis) {
  const std::vector<mla::LabelSummary> labels =
      mla::summarise_labels(glue::label_table(cnt, sx, sdis), false);  // no floors needed
  return glue::with_cells(cells, labels.size(), static_cast<std::size_t>(cnt.nrow()), [&](const auto& c) {
    return glue::wrap_corpus_influence(mla::corpus_influence(c, labels, mla::summarise_corpus(labels)));
  });
}

// Per label, as corpus_influence_cpp(): the coefficients' sums (sum_sq, labels
// x baselines), n, and shares = list(estimate, sum_sq, n) of percent,
// positive and negative agreement (labels x 3), from one read of each label.
// [[Rcpp::export(rng = false)]]
Rcpp::List label_influence_cpp(const Rcpp::List& cells, const Rcpp::NumericMatrix& cnt,
                               const Rcpp::NumericMatrix& sx, const Rcpp::NumericMatrix& sdis) {
  const std::vector<mla::LabelSummary> labels =
      mla::summarise_labels(glue::label_table(cnt, sx, sdis), false);
  const std::size_t k = labels.size();
  const int nk = static_cast<int>(k);
  return glue::with_cells(cells, k, static_cast<std::size_t>(cnt.nrow()), [&](const auto& c) {
    Rcpp::NumericMatrix sum_sq(nk, mla::kBaselines), share_est(nk, mla::kShares), share_sq(nk, mla::kShares);
    Rcpp::NumericVector n(nk);
    for (std::size_t j = 0; j < k; ++j) {
      const mla::LabelInfluence f = mla::label_influence(c, j, labels[j]);
      const int r = static_cast<int>(j);
      n[r] = f.coefficient.n;
      for (int b = 0; b < mla::kBaselines; ++b) sum_sq(r, b) = f.coefficient.sum_sq[b];
      for (int s = 0; s < mla::kShares; ++s) {
        share_est(r, s) = f.shares.estimate[s];
        share_sq(r, s) = f.shares.sum_sq[s];
      }
    }
    Rcpp::List shares = Rcpp::List::create(Rcpp::Named("estimate") = glue::nan_to_na(share_est),
                                           Rcpp::Named("sum_sq") = glue::nan_to_na(share_sq),
                                           Rcpp::Named("n") = n);
    return Rcpp::List::create(Rcpp::Named("sum_sq") = glue::nan_to_na(sum_sq), Rcpp::Named("n") = n,
                              Rcpp::Named("shares") = shares);
  });
}

// The corpus rows of a single-label design (categories = labels), as
// corpus_influence_cpp().
// [[Rcpp::export(rng = false)]]
Rcpp::List single_label_influence_cpp(const Rcpp::List& cells, const Rcpp::NumericMatrix& cnt,
                                      const Rcpp::NumericMatrix& sx,
                                      const Rcpp::NumericMatrix& sdis) {
  const std::vector<mla::LabelSummary> labels =
      mla::summarise_labels(glue::label_table(cnt, sx, sdis), false);  // no floors needed
  const std::size_t q = labels.size();
  const mla::SingleLabelCorpus s = mla::summarise_single_label(labels);
  std::vector<double> pi(q);
  for (std::size_t k = 0; k < q; ++k) pi[k] = labels[k].p;
  return glue::with_cells(cells, q, static_cast<std::size_t>(cnt.nrow()), [&](const auto& c) {
    return glue::wrap_corpus_influence(mla::single_label_influence(c, labels, pi, s));
  });
}

// The x and m tables (items x labels) of stored class codes.
// [[Rcpp::export(rng = false)]]
Rcpp::List decode_cells_cpp(const Rcpp::List& cells) {
  const Rcpp::IntegerVector cols = cells["label_cols"];
  const std::size_t k = static_cast<std::size_t>(cols.size());
  return glue::with_stored_cells(cells, k, [&](const auto& c) {
    const int n = static_cast<int>(c.n_items), nk = static_cast<int>(k);
    Rcpp::IntegerMatrix x = glue::fresh_matrix<Rcpp::IntegerMatrix>(n, nk);
    Rcpp::IntegerMatrix m = glue::fresh_matrix<Rcpp::IntegerMatrix>(n, nk);
    mla::decode_cells(c, x.begin(), m.begin());
    return Rcpp::List::create(Rcpp::Named("x") = x, Rcpp::Named("m") = m);
  });
}
