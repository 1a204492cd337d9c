// R glue for the estimator kernel (mlagreement/estimators.h).
#include <Rcpp.h>

#include <algorithm>
#include <vector>

#include "glue-view.h"
#include "mlagreement/estimators.h"
#include "mlagreement/nominal_floor.h"
#include "mlagreement/replicate_stats.h"
#include "mlagreement/single_label.h"
#include "mlagreement/tally.h"

namespace {

namespace mla = mlagreement;

constexpr int kB = mla::kBaselines;

// Label level: one value per label, or labels x baselines.
Rcpp::List label_estimates(const std::vector<mla::LabelSummary>& labels) {
  const int k = static_cast<int>(labels.size());
  Rcpp::NumericVector n_rated(k), n_pairable(k), decisions(k), positives(k), prevalence(k),
      observed(k), positive_agreement(k), negative_agreement(k);
  Rcpp::NumericMatrix expected(k, kB), estimate(k, kB), weight(k, kB), floor(k, kB);
  Rcpp::IntegerMatrix reason(k, kB);
  for (int b = 0; b < kB; ++b) {
    const std::vector<double> w = mla::label_weights(labels, b);
    std::copy(w.begin(), w.end(), weight.begin() + static_cast<std::size_t>(b) * k);
  }
  for (int j = 0; j < k; ++j) {
    const mla::LabelSummary& s = labels[static_cast<std::size_t>(j)];
    n_rated[j] = s.n_rated;
    n_pairable[j] = s.n_pairable;
    decisions[j] = s.decisions;
    positives[j] = s.positives;
    prevalence[j] = s.p;
    observed[j] = 1.0 - s.d_obs;
    positive_agreement[j] = mla::ratio_or_nan(s.pos_num, s.pos_den);
    negative_agreement[j] = mla::ratio_or_nan(s.neg_num, s.neg_den);
    for (int b = 0; b < kB; ++b) {
      expected(j, b) = 1.0 - mla::label_chance_disagreement(s, b);
      estimate(j, b) = mla::label_coefficient(s, b);
      floor(j, b) = mla::label_floor(s, b);
      reason(j, b) = mla::label_reason(s, b);
    }
  }
  return Rcpp::List::create(
      Rcpp::Named("n_rated") = n_rated, Rcpp::Named("n_pairable") = n_pairable,
      Rcpp::Named("decisions") = decisions, Rcpp::Named("positives") = positives,
      Rcpp::Named("prevalence") = glue::nan_to_na(prevalence),
      Rcpp::Named("observed") = glue::nan_to_na(observed),
      Rcpp::Named("expected") = glue::nan_to_na(expected),
      Rcpp::Named("estimate") = glue::nan_to_na(estimate),
      Rcpp::Named("weight") = glue::nan_to_na(weight),
      Rcpp::Named("floor") = glue::nan_to_na(floor),
      Rcpp::Named("positive_agreement") = glue::nan_to_na(positive_agreement),
      Rcpp::Named("negative_agreement") = glue::nan_to_na(negative_agreement),
      Rcpp::Named("reason") = reason);
}

// Corpus level: one value per baseline.
Rcpp::List corpus_estimates(const mla::CorpusSummary& c) {
  Rcpp::NumericVector expected(kB);
  for (int b = 0; b < kB; ++b) expected[b] = 1.0 - c.w[b];
  return Rcpp::List::create(
      Rcpp::Named("n_labels_used") = c.n_labels_used,
      Rcpp::Named("observed") = glue::nan_to_na(1.0 - c.d_obs),
      Rcpp::Named("expected") = glue::nan_to_na(expected),
      Rcpp::Named("estimate") = glue::na_vector(c.estimate),
      Rcpp::Named("floor_observed") = glue::nan_to_na(1.0 - c.d_max),
      Rcpp::Named("floor") = glue::na_vector(c.floor), Rcpp::Named("w") = glue::na_vector(c.w),
      Rcpp::Named("reason") = Rcpp::IntegerVector(c.reason, c.reason + kB));
}

}  // namespace

// cnt, sx, sdis: max_m x labels tables from the counting pass or a tally.
// [[Rcpp::export(rng = false)]]
Rcpp::List mla_table_estimates_cpp(const Rcpp::NumericMatrix& cnt, const Rcpp::NumericMatrix& sx,
                                   const Rcpp::NumericMatrix& sdis) {
  const std::vector<mla::LabelSummary> labels = mla::summarise_labels(glue::label_table(cnt, sx, sdis));
  return Rcpp::List::create(Rcpp::Named("label") = label_estimates(labels),
                            Rcpp::Named("corpus") = corpus_estimates(mla::summarise_corpus(labels)));
}

// Items' observed disagreement from stored items x labels tables x and m (a
// summary's per-item tables), by the counting pass's own tally.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector cells_item_disagreement_cpp(const Rcpp::IntegerMatrix& x,
                                                const Rcpp::IntegerMatrix& m, int threads) {
  const std::size_t n = static_cast<std::size_t>(x.nrow()), k = static_cast<std::size_t>(x.ncol());
  const int max_m = m.size() > 0 ? *std::max_element(m.begin(), m.end()) : 0;
  Rcpp::NumericVector item_d(x.nrow());
  mla::TallyOutput tally{{}, item_d.begin()};
  mla::tally_counts(x.begin(), m.begin(), n, k, static_cast<std::size_t>(std::max(max_m, 0)),
                    threads, tally);
  return glue::nan_to_na(item_d);
}

// Item agreement (1 - d) and coefficients (items x baselines) against the
// corpus chance disagreement w of each baseline; d: the counting pass's
// item_disagreement.
// [[Rcpp::export(rng = false)]]
Rcpp::List mla_item_estimates_cpp(const Rcpp::NumericVector& d, const Rcpp::NumericVector& w) {
  const R_xlen_t n = d.size();
  Rcpp::NumericVector observed(n);
  const int nb = static_cast<int>(w.size());  // the fit's baselines (conger included when asked)
  Rcpp::NumericMatrix estimate(static_cast<int>(n), nb);
  for (R_xlen_t i = 0; i < n; ++i) observed[i] = 1.0 - d[i];
  for (int b = 0; b < nb; ++b) {
    for (R_xlen_t i = 0; i < n; ++i) estimate(i, b) = mla::item_coefficient(d[i], w[b]);
  }
  return Rcpp::List::create(Rcpp::Named("observed") = glue::nan_to_na(observed),
                            Rcpp::Named("estimate") = glue::nan_to_na(estimate));
}

// Hamming alpha's observed and expected disagreement from the label tables
// (NA when no label has an item with two decisions).
// [[Rcpp::export(rng = false)]]
Rcpp::List hamming_alpha_cpp(const Rcpp::NumericMatrix& cnt, const Rcpp::NumericMatrix& sx,
                             const Rcpp::NumericMatrix& sdis) {
  const mla::HammingAlpha a = mla::hamming_alpha(glue::label_table(cnt, sx, sdis));
  return Rcpp::List::create(Rcpp::Named("observed") = glue::nan_to_na(a.observed),
                            Rcpp::Named("expected") = glue::nan_to_na(a.expected),
                            Rcpp::Named("n_labels_used") = a.n_labels_used);
}

// Single-label (categorical) corpus coefficients, nominal alpha and (with
// with_floor) the eq. 7 floor from the label tables of the one-hot design.
// [[Rcpp::export(rng = false)]]
Rcpp::List single_label_estimates_cpp(const Rcpp::NumericMatrix& cnt,
                                      const Rcpp::NumericMatrix& sx,
                                      const Rcpp::NumericMatrix& sdis, bool with_floor = true) {
  const mla::LabelTable t = glue::label_table(cnt, sx, sdis);
  const mla::SingleLabelCorpus c = mla::summarise_single_label(mla::summarise_labels(t, false));
  const mla::NominalAlpha a = mla::nominal_alpha(t.cnt.data(), t.sx.data(), t.sdis.data(),
                                                 t.max_m, t.n_labels);
  const mla::NominalFloor f = with_floor ? mla::nominal_floor(t, 0, t.n_labels) : mla::NominalFloor();
  double floor[kB] = {mla::kNA, mla::kNA, mla::kNA};
  for (int b = 0; f.defined && b < kB; ++b) floor[b] = mla::coefficient(f.d_max, c.w_dd[b]);
  return Rcpp::List::create(
      Rcpp::Named("q") = static_cast<double>(t.n_labels),
      Rcpp::Named("d_obs") = glue::nan_to_na(c.d_obs), Rcpp::Named("w") = glue::na_vector(c.w),
      Rcpp::Named("estimate") = glue::na_vector(c.estimate),
      Rcpp::Named("floor_observed") = f.defined ? 1.0 - f.d_max.value() : NA_REAL,
      Rcpp::Named("floor") = glue::na_vector(floor),
      Rcpp::Named("alpha_d_obs") = glue::nan_to_na(a.d_obs),
      Rcpp::Named("alpha_d_exp") = glue::nan_to_na(a.d_exp),
      Rcpp::Named("alpha") = glue::nan_to_na(a.alpha));
}
