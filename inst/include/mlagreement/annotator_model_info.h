// The observed information of the binary annotator model (q = 2) at its
// estimates, for standard errors: minus the Hessian of the observed
// log-likelihood, item by item by Louis' identity, which for a two-class
// mixture is exact: with mu_z the posterior of class z, g_z and D_z the
// gradient and (diagonal) Hessian of log(p_z prod_d pi(a_d, z, y_d)),
//   d2 l_i = sum_z mu_z D_z + mu_1 mu_0 (g_1 - g_0)(g_1 - g_0)'.
// Parameters of a group: the prevalences P(z = 1) of its labels, then per
// annotator (sensitivity, specificity) (two-coin) or the accuracy (one-coin).
// Pure C++: no R headers.
#ifndef MLAGREEMENT_ANNOTATOR_MODEL_INFO_H
#define MLAGREEMENT_ANNOTATOR_MODEL_INFO_H

#include <cstddef>
#include <vector>

#include "mlagreement/annotator_model.h"

namespace mlagreement {

namespace detail {

struct InfoEntry {
  std::size_t index;
  double g1, g0, d1, d0;
};

// Adds the Bernoulli log-density terms of one response to an entry:
// `agree` when the response matches what `theta` is the probability of.
inline void add_bernoulli(double theta, bool agree, double& g, double& d) {
  if (agree) { g += 1.0 / theta; d -= 1.0 / (theta * theta); }
  else { g -= 1.0 / (1.0 - theta); d -= 1.0 / ((1.0 - theta) * (1.0 - theta)); }
}

inline InfoEntry& entry_for(std::vector<InfoEntry>& e, std::size_t index) {
  for (InfoEntry& x : e)
    if (x.index == index) return x;
  e.push_back(InfoEntry{index, 0, 0, 0, 0});
  return e.back();
}

}  // namespace detail

// Minus the Hessian (P x P, column-major) of each parameter group of a
// converged binary fit: P = labels in the group + annotators x (2 two-coin,
// 1 one-coin).
inline std::vector<std::vector<double>> observed_information(
    const std::vector<ClassProblem>& problems, std::size_t n_annotators,
    const ClassModelOptions& o, const ClassModelFit& fit) {
  const std::size_t n_prob = problems.size();
  const std::size_t n_groups = o.pooled ? 1 : n_prob;
  const std::size_t n_prev = o.pooled ? n_prob : 1;
  const std::size_t per = o.one_coin ? 1 : 2;
  const std::size_t P = n_prev + per * n_annotators;
  std::vector<std::vector<double>> info(n_groups, std::vector<double>(P * P, 0.0));
  std::vector<detail::InfoEntry> e;
  for (std::size_t j = 0; j < n_prob; ++j) {
    const ClassProblem& pr = problems[j];
    const std::size_t g = o.pooled ? 0 : j;
    const std::vector<double>& conf = fit.confusion[g];
    const double p = fit.prevalence[j][1];
    std::vector<double>& H = info[g];
    const std::size_t prev_index = o.pooled ? j : 0;
    for (std::size_t i = 0; i < pr.n_items; ++i) {
      if (pr.start[i + 1] == pr.start[i]) continue;
      const double mu1 = fit.posterior[j][2 * i + 1], mu0 = 1.0 - mu1;
      e.clear();
      e.push_back(detail::InfoEntry{prev_index, 1.0 / p, -1.0 / (1.0 - p),
                                    -1.0 / (p * p), -1.0 / ((1.0 - p) * (1.0 - p))});
      for (std::int64_t d = pr.start[i]; d < pr.start[i + 1]; ++d) {
        const std::size_t a = static_cast<std::size_t>(pr.annotator[d]);
        const int y = pr.response[d];
        const double sens = conf[(a * 2 + 1) * 2 + 1], spec = conf[(a * 2 + 0) * 2 + 0];
        if (o.one_coin) {
          detail::InfoEntry& x = detail::entry_for(e, n_prev + a);
          detail::add_bernoulli(sens, y == 1, x.g1, x.d1);
          detail::add_bernoulli(sens, y == 0, x.g0, x.d0);
        } else {
          detail::InfoEntry& s1 = detail::entry_for(e, n_prev + 2 * a);
          detail::add_bernoulli(sens, y == 1, s1.g1, s1.d1);
          detail::InfoEntry& s0 = detail::entry_for(e, n_prev + 2 * a + 1);
          detail::add_bernoulli(spec, y == 0, s0.g0, s0.d0);
        }
      }
      const double w = mu1 * mu0;
      // entries are distinct parameters; the same double goes to (u, v) and (v, u)
      for (std::size_t a = 0; a < e.size(); ++a) {
        const detail::InfoEntry& u = e[a];
        H[u.index * P + u.index] -= mu1 * u.d1 + mu0 * u.d0 + w * (u.g1 - u.g0) * (u.g1 - u.g0);
        for (std::size_t b = a + 1; b < e.size(); ++b) {
          const detail::InfoEntry& v = e[b];
          const double h = w * (u.g1 - u.g0) * (v.g1 - v.g0);
          H[v.index * P + u.index] -= h;
          H[u.index * P + v.index] -= h;
        }
      }
    }
  }
  return info;
}

}  // namespace mlagreement

#endif
