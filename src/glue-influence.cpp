// R glue for the analytic standard errors (src/mlagreement/influence.h):
// the kernel's point values from the label tables, the influence terms from
// the items x labels tables. Unwrap, call, wrap; undefined values become NA.
#include <Rcpp.h>

#include <algorithm>
#include <vector>

#include "glue-view.h"
#include "mlagreement/estimators.h"
#include "mlagreement/replicate_stats.h"
#include "mlagreement/influence.h"
#include "mlagreement/single_label.h"

namespace {

namespace mla = mlagreement;

std::vector<mla::LabelSummary> label_summaries(const Rcpp::NumericMatrix& cnt,
                                               const Rcpp::NumericMatrix& sx,
                                               const Rcpp::NumericMatrix& sdis) {
  const mla::LabelTable t = glue::label_table(cnt, sx, sdis);
  std::vector<mla::LabelSummary> out(t.n_labels);
  for (std::size_t j = 0; j < t.n_labels; ++j) out[j] = mla::summarise_label(t, j, false);
  return out;
}

mla::ItemCounts item_counts(const Rcpp::IntegerMatrix& x, const Rcpp::IntegerMatrix& m,
                            std::size_t k) {
  if (x.nrow() != m.nrow() || static_cast<std::size_t>(x.ncol()) != k ||
      static_cast<std::size_t>(m.ncol()) != k) {
    Rcpp::stop("Internal error: item tables and label tables of different shapes.");
  }
  return mla::ItemCounts{INTEGER_RO(x), INTEGER_RO(m), static_cast<std::size_t>(x.nrow()), k};
}

Rcpp::NumericVector sum_sq_vector(const mla::Influence& f) {
  Rcpp::NumericVector out(f.sum_sq, f.sum_sq + mla::kBaselines);
  return glue::nan_to_na(out);
}

}  // namespace

// x, m: items x labels tables; cnt, sx, sdis: the same labels' tables by m.
// sum_sq: labels x baselines and one per baseline; n: items sampled.
// [[Rcpp::export(rng = false)]]
Rcpp::List mla_influence_cpp(const Rcpp::IntegerMatrix& x, const Rcpp::IntegerMatrix& m,
                             const Rcpp::NumericMatrix& cnt, const Rcpp::NumericMatrix& sx,
                             const Rcpp::NumericMatrix& sdis) {
  const std::vector<mla::LabelSummary> labels = label_summaries(cnt, sx, sdis);
  const std::size_t k = labels.size();
  const mla::ItemCounts c = item_counts(x, m, k);
  Rcpp::NumericMatrix label_sum_sq(static_cast<int>(k), mla::kBaselines);
  Rcpp::NumericVector label_n(static_cast<int>(k));
  for (std::size_t j = 0; j < k; ++j) {
    const mla::Influence f =
        mla::label_influence(c, j, labels[j], static_cast<std::size_t>(cnt.nrow()));
    label_n[static_cast<R_xlen_t>(j)] = f.n;
    for (int b = 0; b < mla::kBaselines; ++b) label_sum_sq(static_cast<int>(j), b) = f.sum_sq[b];
  }
  const mla::Influence corpus = mla::corpus_influence(c, labels, mla::summarise_corpus(labels),
                                                        static_cast<std::size_t>(cnt.nrow()));
  return Rcpp::List::create(
      Rcpp::Named("label_sum_sq") = glue::nan_to_na(label_sum_sq),
      Rcpp::Named("label_n") = label_n, Rcpp::Named("corpus_sum_sq") = sum_sq_vector(corpus),
      Rcpp::Named("corpus_n") = corpus.n);
}

// The corpus rows of a single-label design (categories = labels).
// [[Rcpp::export(rng = false)]]
Rcpp::List single_label_influence_cpp(const Rcpp::IntegerMatrix& x, const Rcpp::IntegerMatrix& m,
                                      const Rcpp::NumericMatrix& cnt,
                                      const Rcpp::NumericMatrix& sx,
                                      const Rcpp::NumericMatrix& sdis) {
  const std::vector<mla::LabelSummary> labels = label_summaries(cnt, sx, sdis);
  const std::size_t q = labels.size();
  const mla::ItemCounts c = item_counts(x, m, q);
  const mla::SingleLabelCorpus s = mla::summarise_single_label(labels);
  std::vector<double> pi(q);
  for (std::size_t k = 0; k < q; ++k) pi[k] = labels[k].p;
  const mla::Influence f = mla::single_label_influence(c, pi, s.w, s.estimate);
  return Rcpp::List::create(Rcpp::Named("corpus_sum_sq") = sum_sq_vector(f),
                            Rcpp::Named("corpus_n") = f.n);
}
