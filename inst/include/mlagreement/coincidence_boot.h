// Item bootstrap and jackknife of alpha with the nominal, ordinal, interval
// and ratio metrics, by reweighting per-item coincidences. The glue includes
// RcppArmadillo.h first. See DESIGN.md, Algorithms: Categorical metrics.
#ifndef MLAGREEMENT_COINCIDENCE_BOOT_H
#define MLAGREEMENT_COINCIDENCE_BOOT_H

#include <armadillo>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "boot_units.h"
#include "coincidence.h"
#include "rng.h"

namespace mlagreement {

// 1 - D_o / D_e of a coincidence matrix; NaN when D_e is 0 or n < 2.
inline double alpha_of_coincidence(const arma::mat& o, CategoryMetric metric, const arma::vec& values) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const arma::vec marginals = arma::sum(o, 1);
  const double n = arma::accu(marginals);
  if (!(n >= 2.0)) return nan;
  const arma::mat delta = metric_distances(metric, values, marginals);
  const double d_obs = arma::accu(o % delta) / n;
  const double d_exp = arma::as_scalar(marginals.t() * delta * marginals) / (n * (n - 1.0));
  return d_exp > 0.0 ? 1.0 - d_obs / d_exp : nan;
}

// The pairable items of X: their rows, 1 / (m - 1) and item indices.
struct CoincidenceItems {
  arma::mat Xp;
  arma::vec inv;
  arma::uvec item;
  CategoryMetric metric = CategoryMetric::nominal;
  arma::vec values;
};

inline CoincidenceItems coincidence_items(const arma::mat& X, CategoryMetric metric, const arma::vec& values) {
  CoincidenceItems it;
  const arma::vec m = item_ratings(X);
  it.item = arma::find(m >= 2.0);
  it.Xp = X.rows(it.item);
  it.inv = 1.0 / (m.elem(it.item) - 1.0);
  it.metric = metric;
  it.values = values;
  return it;
}

// Coincidences with multiplicity v_u of pairable item u.
inline arma::mat weighted_coincidence(const CoincidenceItems& it, const arma::vec& v) {
  const arma::vec s = it.inv % v;
  arma::mat o = it.Xp.t() * (it.Xp.each_col() % s);
  o.diag() -= it.Xp.t() * s;
  return o;
}

// Replicates r in [first, last) of stream `stream` over the n_items items
// of u (one unit per item, no strata); out[r] = alpha.
inline void coincidence_replicates(const CoincidenceItems& it, const UnitDesign& u, std::uint64_t seed,
                                   int stream, std::size_t n_rep, double* out) {
  arma::vec v(it.item.n_elem);
  for_each_item_draw(u, seed, stream, n_rep, [&](std::size_t r, const std::uint32_t* iw) {
    for (arma::uword p = 0; p < it.item.n_elem; ++p) v[p] = static_cast<double>(iw[it.item[p]]);
    out[r] = alpha_of_coincidence(weighted_coincidence(it, v), it.metric, it.values);
  });
}

// Alpha with each pairable item left out in turn (one value per pairable item).
inline std::vector<double> coincidence_jackknife(const CoincidenceItems& it) {
  const arma::mat full = weighted_coincidence(it, arma::ones<arma::vec>(it.item.n_elem));
  std::vector<double> out(it.item.n_elem);
  for (arma::uword p = 0; p < it.item.n_elem; ++p) {
    const arma::vec x = it.Xp.row(p).t();
    arma::mat part = x * x.t();
    part.diag() -= x;
    out[p] = alpha_of_coincidence(full - part * it.inv[p], it.metric, it.values);
  }
  return out;
}

}  // namespace mlagreement

#endif
