// Single-label designs with structured categories: Krippendorff's alpha with
// the nominal, ordinal, interval and ratio metrics, and irrCAC's agreement
// weights, from the items x categories counts. The glue includes
// RcppArmadillo.h first. See DESIGN.md, Algorithms: Categorical metrics.
#ifndef MLAGREEMENT_COINCIDENCE_H
#define MLAGREEMENT_COINCIDENCE_H

#include <armadillo>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace mlagreement {

enum class CategoryMetric { nominal = 0, ordinal = 1, interval = 2, ratio = 3 };

// irrCAC's weight names, in its order.
enum class WeightScheme {
  identity = 0, linear = 1, quadratic = 2, ordinal = 3, radical = 4, ratio = 5, circular = 6,
  bipolar = 7
};

// Krippendorff's squared metric differences delta_ck (DESIGN.md); values:
// the categories' numeric values, marginals: n_c (ordinal).
inline arma::mat metric_distances(CategoryMetric metric, const arma::vec& values,
                                  const arma::vec& marginals) {
  const arma::uword q = values.n_elem;
  arma::mat delta(q, q, arma::fill::zeros);
  const arma::vec cum = arma::cumsum(marginals);  // cum[k] = n_0 + ... + n_k
  for (arma::uword c = 0; c < q; ++c) {
    for (arma::uword k = 0; k < q; ++k) {
      if (c == k) continue;
      const double vc = values[c], vk = values[k];
      switch (metric) {
        case CategoryMetric::nominal:
          delta(c, k) = 1.0;
          break;
        case CategoryMetric::ordinal: {
          const arma::uword lo = std::min(c, k), hi = std::max(c, k);
          const double between = cum[hi] - (lo > 0 ? cum[lo - 1] : 0.0);
          const double d = between - (marginals[c] + marginals[k]) / 2.0;
          delta(c, k) = d * d;
          break;
        }
        case CategoryMetric::interval:
          delta(c, k) = (vc - vk) * (vc - vk);
          break;
        case CategoryMetric::ratio: {
          const double s = vc + vk;  // R refuses negative values, so s = 0 only when c = k
          delta(c, k) = s == 0.0 ? 0.0 : ((vc - vk) / s) * ((vc - vk) / s);
          break;
        }
      }
    }
  }
  return delta;
}

// irrCAC's weight matrices (identity.weights() ... bipolar.weights()) on the
// category values; "ordinal" always uses the ranks 1..q.
inline arma::mat agreement_weights(WeightScheme scheme, const arma::vec& values) {
  const arma::uword q = values.n_elem;
  arma::mat w(q, q, arma::fill::eye);
  if (scheme == WeightScheme::identity || q < 2) return w;
  const double lo = values.min(), hi = values.max(), range = hi - lo;
  for (arma::uword k = 0; k < q; ++k) {
    for (arma::uword l = 0; l < q; ++l) {
      const double a = values[k], b = values[l];
      switch (scheme) {
        case WeightScheme::linear:
          w(k, l) = 1.0 - std::fabs(a - b) / std::fabs(range);
          break;
        case WeightScheme::quadratic:
          w(k, l) = 1.0 - (a - b) * (a - b) / (range * range);
          break;
        case WeightScheme::ordinal: {
          const double n = std::fabs(static_cast<double>(k) - static_cast<double>(l)) + 1.0;
          w(k, l) = n * (n - 1.0) / 2.0;  // rescaled below
          break;
        }
        case WeightScheme::radical:
          w(k, l) = 1.0 - std::sqrt(std::fabs(a - b)) / std::sqrt(std::fabs(range));
          break;
        case WeightScheme::ratio: {
          // a category at 0 agrees with itself (irrCAC's 0 / 0 is NaN there)
          const double r = k == l ? 0.0 : (a - b) / (a + b), scale = range / (hi + lo);
          w(k, l) = 1.0 - r * r / (scale * scale);
          break;
        }
        case WeightScheme::circular: {
          const double s = std::sin(arma::datum::pi * (a - b) / (range + 1.0));
          w(k, l) = s * s;  // rescaled below
          break;
        }
        case WeightScheme::bipolar:
          w(k, l) = k == l ? 0.0 : (a - b) * (a - b) / ((a + b - 2.0 * lo) * (2.0 * hi - (a + b)));
          break;
        case WeightScheme::identity:
          break;
      }
    }
  }
  // irrCAC turns these disagreements into weights as 1 - w / max(w)
  if (scheme == WeightScheme::ordinal || scheme == WeightScheme::circular ||
      scheme == WeightScheme::bipolar) {
    w = 1.0 - w / w.max();
  }
  return w;
}

inline arma::vec item_ratings(const arma::mat& X) { return arma::sum(X, 1); }

struct CoincidenceAlpha {
  double d_obs = std::numeric_limits<double>::quiet_NaN();
  double d_exp = std::numeric_limits<double>::quiet_NaN();
  double n_items = 0, n_values = 0;  // pairable items and their values
  arma::mat coincidence;             // o_ck, q x q
  arma::mat delta;                   // the metric used
};

// The ordinal metric takes its marginals from the coincidences.
inline CoincidenceAlpha coincidence_alpha(const arma::mat& X, CategoryMetric metric,
                                          const arma::vec& values) {
  CoincidenceAlpha out;
  const arma::vec m = item_ratings(X);
  const arma::uvec pairable = arma::find(m >= 2.0);
  out.n_items = static_cast<double>(pairable.n_elem);
  const arma::mat Xp = X.rows(pairable);
  const arma::vec inv = 1.0 / (m.elem(pairable) - 1.0);
  // X' diag(inv) X minus the self-pairs on the diagonal
  out.coincidence = Xp.t() * (Xp.each_col() % inv);
  out.coincidence.diag() -= Xp.t() * inv;
  const arma::vec marginals = arma::sum(out.coincidence, 1);
  const double n = arma::accu(marginals);
  out.n_values = n;
  out.delta = metric_distances(metric, values, marginals);
  if (n < 2.0) return out;
  out.d_obs = arma::accu(out.coincidence % out.delta) / n;
  out.d_exp = arma::as_scalar(marginals.t() * out.delta * marginals) / (n * (n - 1.0));
  return out;
}

}  // namespace mlagreement

#endif
