// R glue for the analytic standard errors (mlagreement/influence.h): point
// values from the label tables, influence terms from item_cells().
#include <Rcpp.h>

#include <vector>

#include "glue-cells.h"
#include "glue-view.h"
#include "mlagreement/estimators.h"
#include "mlagreement/replicate_stats.h"
#include "mlagreement/influence.h"
#include "mlagreement/single_label.h"

namespace {

namespace mla = mlagreement;

}  // namespace

// cells: item_cells() of the fit's labels; cnt, sx, sdis: the same labels'
// tables by m. corpus = TRUE: the corpus sums, one per baseline (sum_sq), the
// items sampled (n) and percent agreement's (observed_sum_sq); FALSE: labels x
// baselines sums and n per label.
// [[Rcpp::export(rng = false)]]
Rcpp::List mla_influence_cpp(const Rcpp::List& cells, const Rcpp::NumericMatrix& cnt,
                             const Rcpp::NumericMatrix& sx, const Rcpp::NumericMatrix& sdis,
                             bool corpus) {
  const std::vector<mla::LabelSummary> labels =
      mla::summarise_labels(glue::label_table(cnt, sx, sdis), false);  // no floors needed
  const std::size_t k = labels.size();
  const std::size_t max_m = static_cast<std::size_t>(cnt.nrow());
  return glue::with_cells(cells, k, max_m, [&](const auto& c) {
    if (corpus) {
      return glue::wrap_corpus_influence(mla::corpus_influence(c, labels, mla::summarise_corpus(labels)));
    }
    Rcpp::NumericMatrix sum_sq(static_cast<int>(k), mla::kBaselines);
    Rcpp::NumericVector n(static_cast<int>(k));
    for (std::size_t j = 0; j < k; ++j) {
      const mla::Influence f = mla::label_influence(c, j, labels[j]);
      n[static_cast<R_xlen_t>(j)] = f.n;
      for (int b = 0; b < mla::kBaselines; ++b) sum_sq(static_cast<int>(j), b) = f.sum_sq[b];
    }
    return Rcpp::List::create(Rcpp::Named("sum_sq") = glue::nan_to_na(sum_sq),
                              Rcpp::Named("n") = n);
  });
}

// The corpus rows of a single-label design (categories = labels), as
// mla_influence_cpp(corpus = TRUE).
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
