// R glue for the single-label structured coefficients (coincidence.h) and
// the label substitution table (substitution.h).
#include <RcppArmadillo.h>

#include "glue-view.h"

#include "mlagreement/coincidence.h"
#include "mlagreement/coincidence_boot.h"
#include "mlagreement/rng.h"
#include "mlagreement/substitution.h"

namespace {

arma::mat as_double_matrix(const Rcpp::IntegerMatrix& x) {
  arma::mat out(static_cast<arma::uword>(x.nrow()), static_cast<arma::uword>(x.ncol()));
  std::copy(x.begin(), x.end(), out.begin());
  return out;
}

arma::vec as_vec(const Rcpp::NumericVector& v) { return arma::vec(v.begin(), v.size()); }

Rcpp::NumericMatrix wrap_matrix(const arma::mat& m) {
  Rcpp::NumericMatrix out(static_cast<int>(m.n_rows), static_cast<int>(m.n_cols));
  std::copy(m.begin(), m.end(), out.begin());
  return out;
}

}  // namespace

// counts: items x categories ratings; metric: 0 nominal, 1 ordinal,
// 2 interval, 3 ratio; values: the categories' numeric values.
// [[Rcpp::export(rng = false)]]
Rcpp::List category_alpha_cpp(const Rcpp::IntegerMatrix& counts, int metric,
                              const Rcpp::NumericVector& values) {
  if (values.size() != counts.ncol()) Rcpp::stop("Internal error: one value per category.");
  if (metric < 0 || metric > 3) Rcpp::stop("Internal error: unknown metric.");
  const mlagreement::CoincidenceAlpha a = mlagreement::coincidence_alpha(
      as_double_matrix(counts), static_cast<mlagreement::CategoryMetric>(metric), as_vec(values));
  return Rcpp::List::create(
      Rcpp::Named("observed") = a.d_obs, Rcpp::Named("expected") = a.d_exp,
      Rcpp::Named("n_items") = a.n_items, Rcpp::Named("n_values") = a.n_values,
      Rcpp::Named("coincidence") = wrap_matrix(a.coincidence),
      Rcpp::Named("delta") = wrap_matrix(a.delta));
}

// scheme: irrCAC's weights in its order (identity, linear, quadratic,
// ordinal, radical, ratio, circular, bipolar).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix category_weights_cpp(int scheme, const Rcpp::NumericVector& values) {
  if (scheme < 0 || scheme > 7) Rcpp::stop("Internal error: unknown weight scheme.");
  return wrap_matrix(mlagreement::agreement_weights(static_cast<mlagreement::WeightScheme>(scheme),
                                                    as_vec(values)));
}

// values: records x labels (0/1/NA, integer, logical or double); item:
// 0-based item of each record.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix label_substitution_cpp(SEXP values, int n_labels, const Rcpp::IntegerVector& item,
                                           int n_items) {
  const std::size_t k = static_cast<std::size_t>(n_labels);
  const std::size_t n = static_cast<std::size_t>(Rf_xlength(values)) / k;
  if (static_cast<std::size_t>(item.size()) != n) Rcpp::stop("Internal error: one item per record.");
  const int* it = INTEGER_RO(item);
  const std::size_t N = static_cast<std::size_t>(n_items);
  arma::mat out;
  switch (TYPEOF(values)) {
    case INTSXP:
      out = mlagreement::label_substitution(INTEGER_RO(values), n, k, it, N, [](int v) { return v == 1; });
      break;
    case LGLSXP:
      out = mlagreement::label_substitution(LOGICAL_RO(values), n, k, it, N, [](int v) { return v == 1; });
      break;
    case REALSXP:
      out = mlagreement::label_substitution(REAL_RO(values), n, k, it, N, [](double v) { return v == 1.0; });
      break;
    default:
      Rcpp::stop("Internal error: unsupported storage type for `values`.");
  }
  return wrap_matrix(out);
}

// Item bootstrap replicates of alpha (counts: items x categories) with the
// item draws of mla_boot() for the same seed.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector category_alpha_boot_cpp(const Rcpp::IntegerMatrix& counts, int metric,
                                            const Rcpp::NumericVector& values,
                                            const Rcpp::IntegerVector& seed, int n_rep) {
  if (metric < 0 || metric > 3) Rcpp::stop("Internal error: unknown metric.");
  const mlagreement::CoincidenceItems it = mlagreement::coincidence_items(
      as_double_matrix(counts), static_cast<mlagreement::CategoryMetric>(metric), as_vec(values));
  const std::size_t n = static_cast<std::size_t>(counts.nrow());
  const Rcpp::IntegerVector order = Rcpp::seq(0, static_cast<int>(n) - 1);
  const Rcpp::IntegerVector start = Rcpp::IntegerVector::create(0, static_cast<int>(n));
  const mlagreement::UnitDesign u =
      glue::unit_design(n, Rcpp::IntegerVector(0), static_cast<int>(n), order, start);
  Rcpp::NumericVector out(n_rep);
  glue::for_each_stream(seed, [&](std::uint64_t s, int stream) {
    mlagreement::coincidence_replicates(it, u, s, stream, static_cast<std::size_t>(n_rep), out.begin());
  });
  return glue::nan_to_na(out);
}

// Alpha with each pairable item left out in turn.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector category_alpha_jack_cpp(const Rcpp::IntegerMatrix& counts, int metric,
                                            const Rcpp::NumericVector& values) {
  if (metric < 0 || metric > 3) Rcpp::stop("Internal error: unknown metric.");
  const mlagreement::CoincidenceItems it = mlagreement::coincidence_items(
      as_double_matrix(counts), static_cast<mlagreement::CategoryMetric>(metric), as_vec(values));
  const std::vector<double> jack = mlagreement::coincidence_jackknife(it);
  Rcpp::NumericVector out(jack.begin(), jack.end());
  return glue::nan_to_na(out);
}
