// R glue for the Hamming estimators (MLA, floors, specific agreement).
#include <Rcpp.h>

#include <vector>

#include "mlagreement/estimators.h"

// cnt, sx, sdis: max_m x labels tables from the counting pass or a tally.
// [[Rcpp::export(rng = false)]]
Rcpp::List mla_table_estimates_cpp(const Rcpp::NumericMatrix& cnt, const Rcpp::NumericMatrix& sx,
                                   const Rcpp::NumericMatrix& sdis) {
  namespace mla = mlagreement;
  const std::size_t mm = static_cast<std::size_t>(cnt.nrow());
  const std::size_t k = static_cast<std::size_t>(cnt.ncol());
  mla::LabelTable table;
  table.reset(k, mm);
  std::copy(cnt.begin(), cnt.end(), table.cnt.begin());
  std::copy(sx.begin(), sx.end(), table.sx.begin());
  std::copy(sdis.begin(), sdis.end(), table.sdis.begin());
  std::vector<mla::LabelSummary> labels(k);
  for (std::size_t j = 0; j < k; ++j) labels[j] = mla::summarise_label(table, j);
  const mla::CorpusSummary corpus = mla::summarise_corpus(labels);

  const int kk = static_cast<int>(k);
  Rcpp::NumericVector n_rated(kk), n_pairable(kk), decisions(kk), positives(kk), p(kk), q(kk),
      d_obs(kk), d_max(kk), pos_num(kk), pos_den(kk), neg_num(kk), neg_den(kk);
  Rcpp::NumericMatrix w(kk, mla::kBaselines), estimate(kk, mla::kBaselines),
      floor(kk, mla::kBaselines);
  for (std::size_t j = 0; j < k; ++j) {
    const mla::LabelSummary& s = labels[j];
    n_rated[j] = s.n_rated;
    n_pairable[j] = s.n_pairable;
    decisions[j] = s.decisions;
    positives[j] = s.positives;
    p[j] = s.p;
    q[j] = s.q;
    d_obs[j] = s.d_obs;
    d_max[j] = s.d_max;
    pos_num[j] = s.pos_num;
    pos_den[j] = s.pos_den;
    neg_num[j] = s.neg_num;
    neg_den[j] = s.neg_den;
    for (int b = 0; b < mla::kBaselines; ++b) {
      w(j, b) = mla::chance_disagreement_dd(b, s.p_dd, s.q_dd).value();
      estimate(j, b) = mla::label_coefficient(s, b);
      floor(j, b) = mla::label_floor(s, b);
    }
  }
  Rcpp::NumericVector corpus_w(corpus.w, corpus.w + mla::kBaselines);
  Rcpp::NumericVector corpus_estimate(corpus.estimate, corpus.estimate + mla::kBaselines);
  Rcpp::NumericVector corpus_floor(corpus.floor, corpus.floor + mla::kBaselines);
  return Rcpp::List::create(
      Rcpp::Named("label") = Rcpp::List::create(
          Rcpp::Named("n_rated") = n_rated, Rcpp::Named("n_pairable") = n_pairable,
          Rcpp::Named("decisions") = decisions, Rcpp::Named("positives") = positives,
          Rcpp::Named("p") = p, Rcpp::Named("q") = q, Rcpp::Named("d_obs") = d_obs,
          Rcpp::Named("d_max") = d_max, Rcpp::Named("pos_num") = pos_num,
          Rcpp::Named("pos_den") = pos_den, Rcpp::Named("neg_num") = neg_num,
          Rcpp::Named("neg_den") = neg_den, Rcpp::Named("w") = w,
          Rcpp::Named("estimate") = estimate, Rcpp::Named("floor") = floor),
      Rcpp::Named("corpus") = Rcpp::List::create(
          Rcpp::Named("n_labels_used") = corpus.n_labels_used,
          Rcpp::Named("d_obs") = corpus.d_obs, Rcpp::Named("d_max") = corpus.d_max,
          Rcpp::Named("w") = corpus_w, Rcpp::Named("estimate") = corpus_estimate,
          Rcpp::Named("floor") = corpus_floor));
}
