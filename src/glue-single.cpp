// R glue for the single-label (categorical) coefficients.
#include <Rcpp.h>

#include "glue-view.h"
#include "mlagreement/single_label.h"

// cnt, sx, sdis: max_m x categories label tables of the one-hot design.
// [[Rcpp::export(rng = false)]]
Rcpp::List single_label_estimates_cpp(const Rcpp::NumericMatrix& cnt,
                                      const Rcpp::NumericMatrix& sx,
                                      const Rcpp::NumericMatrix& sdis) {
  namespace mla = mlagreement;
  if (sx.nrow() != cnt.nrow() || sdis.nrow() != cnt.nrow() || sx.ncol() != cnt.ncol() ||
      sdis.ncol() != cnt.ncol()) {
    Rcpp::stop("Internal error: label tables of different shapes.");
  }
  const mla::SingleLabelSummary s = mla::summarise_single_label(
      cnt.begin(), sx.begin(), sdis.begin(), static_cast<std::size_t>(cnt.nrow()),
      static_cast<std::size_t>(cnt.ncol()));
  const int nb = mla::SingleLabelSummary::kCoefficients;
  Rcpp::NumericVector w(s.w, s.w + nb), estimate(s.estimate, s.estimate + nb);
  return Rcpp::List::create(
      Rcpp::Named("n_rated") = s.n_rated, Rcpp::Named("n_pairable") = s.n_pairable,
      Rcpp::Named("q") = s.q, Rcpp::Named("d_obs") = glue::nan_to_na(s.d_obs),
      Rcpp::Named("w") = glue::nan_to_na(w), Rcpp::Named("estimate") = glue::nan_to_na(estimate),
      Rcpp::Named("alpha_d_obs") = glue::nan_to_na(s.alpha_d_obs),
      Rcpp::Named("alpha_d_exp") = glue::nan_to_na(s.alpha_d_exp),
      Rcpp::Named("alpha") = glue::nan_to_na(s.alpha));
}
