// The observed information of the annotator model at its estimates, for
// standard errors: minus the Hessian of the observed log-likelihood by
// Louis' identity, binary (observed_information()) and q-class
// (class_information()). See DESIGN.md, Algorithms: Annotator model.
#ifndef MLAGREEMENT_ANNOTATOR_MODEL_INFO_H
#define MLAGREEMENT_ANNOTATOR_MODEL_INFO_H

#include <cstddef>
#include <cstdint>
#include <vector>

#include "mlagreement/annotator_model.h"

namespace mlagreement {

namespace detail {

struct InfoEntry {
  std::size_t index;
  double g1, g0, d1, d0;
};

// Adds one response's Bernoulli log-density terms (`agree`: the response is
// what theta is the probability of).
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
// converged binary fit.
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

namespace detail {

// One term of the gradient g_z of an item's log(p_z prod_d pi_a(z, y_d)).
struct ClassComponent {
  std::size_t index;
  int z;
  double g;
};

inline void add_component(std::vector<ClassComponent>& e, std::size_t index, int z, double g) {
  for (ClassComponent& c : e)
    if (c.index == index && c.z == z) { c.g += g; return; }
  e.push_back(ClassComponent{index, z, g});
}

// The components of one item's g_z, all z (r = q - 1 free entries per row,
// the last entry balancing the sum).
inline void class_components(const ClassProblem& pr, std::size_t i, const ClassModelOptions& o,
                             const ClassModelFit& fit, std::vector<ClassComponent>& e) {
  const int q = o.q, r = q - 1;
  const std::vector<double>& prev = fit.prevalence[0];
  const std::vector<double>& conf = fit.confusion[0];
  e.clear();
  for (int t = 0; t < r; ++t) {
    e.push_back(ClassComponent{static_cast<std::size_t>(t), t, 1.0 / prev[t]});
    e.push_back(ClassComponent{static_cast<std::size_t>(t), r, -1.0 / prev[r]});
  }
  for (std::int64_t d = pr.start[i]; d < pr.start[i + 1]; ++d) {
    const std::size_t a = static_cast<std::size_t>(pr.annotator[d]);
    const int y = pr.response[d];
    for (int z = 0; z < q; ++z) {
      const double* pi = &conf[(a * q + z) * q];
      if (o.one_coin) {
        add_component(e, r + a, z, y == z ? 1.0 / pi[z] : -1.0 / (1.0 - pi[z]));
        continue;
      }
      const std::size_t base = r + (a * q + z) * r;
      if (y < r) add_component(e, base + y, z, 1.0 / pi[y]);
      else for (int t = 0; t < r; ++t) add_component(e, base + t, z, -1.0 / pi[r]);
    }
  }
}

// The sum over items of -sum_z mu_z D_z from the posterior weights `cnt`.
inline void add_class_curvature(const ClassCounts& cnt, std::size_t n_annotators,
                                const ClassModelOptions& o, const ClassModelFit& fit,
                                std::size_t P, std::vector<double>& H) {
  const int q = o.q, r = q - 1;
  const std::vector<double>& prev = fit.prevalence[0];
  const std::vector<double>& conf = fit.confusion[0];
  for (int t = 0; t < r; ++t)
    for (int s = 0; s < r; ++s)
      H[t * P + s] += cnt.prev[r] / (prev[r] * prev[r]) +
                      (t == s ? cnt.prev[t] / (prev[t] * prev[t]) : 0.0);
  for (std::size_t a = 0; a < n_annotators; ++a) {
    if (o.one_coin) {
      double agree = 0, total = 0;
      for (int z = 0; z < q; ++z)
        for (int y = 0; y < q; ++y) {
          total += cnt.cell[(a * q + z) * q + y];
          if (y == z) agree += cnt.cell[(a * q + z) * q + y];
        }
      const double acc = conf[a * q * q];
      const std::size_t k = r + a;
      H[k * P + k] += agree / (acc * acc) + (total - agree) / ((1 - acc) * (1 - acc));
      continue;
    }
    for (int z = 0; z < q; ++z) {
      const double* c = &cnt.cell[(a * q + z) * q];
      const double* pi = &conf[(a * q + z) * q];
      const std::size_t base = r + (a * q + z) * r;
      const double last = c[r] / (pi[r] * pi[r]);
      for (int t = 0; t < r; ++t)
        for (int s = 0; s < r; ++s)
          H[(base + t) * P + base + s] += last + (t == s ? c[t] / (pi[t] * pi[t]) : 0.0);
    }
  }
}

}  // namespace detail

// Minus the Hessian (P x P, column-major) of a converged single-label fit in
// its free parameters (layout: DESIGN.md).
inline std::vector<double> class_information(const ClassProblem& pr, std::size_t n_annotators,
                                             const ClassModelOptions& o,
                                             const ClassModelFit& fit) {
  const int q = o.q;
  const std::size_t r = static_cast<std::size_t>(q - 1);
  const std::size_t P = r + (o.one_coin ? 1 : q * r) * n_annotators;
  std::vector<double> H(P * P, 0.0);
  detail::ClassCounts cnt;
  cnt.reset(n_annotators, q);
  std::vector<detail::ClassComponent> e;
  for (std::size_t i = 0; i < pr.n_items; ++i) {
    if (pr.start[i + 1] == pr.start[i]) continue;
    const double* mu = &fit.posterior[0][i * q];
    detail::add_item(pr, i, mu, q, cnt);
    detail::class_components(pr, i, o, fit, e);
    // the posterior covariance of g: (u, v) and (v, u) get the same double
    for (std::size_t s = 0; s < e.size(); ++s) {
      const detail::ClassComponent& u = e[s];
      for (std::size_t t = s; t < e.size(); ++t) {
        const detail::ClassComponent& v = e[t];
        const double h = mu[u.z] * u.g * v.g * ((u.z == v.z ? 1.0 : 0.0) - mu[v.z]);
        H[v.index * P + u.index] -= h;
        if (t != s) H[u.index * P + v.index] -= h;
      }
    }
  }
  detail::add_class_curvature(cnt, n_annotators, o, fit, P, H);
  return H;
}

}  // namespace mlagreement

#endif
