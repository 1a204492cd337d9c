// The latent-class annotator model of Dawid and Skene (1979): problems,
// E- and M-steps (binary per label, pooled, one-coin, multi-class).
// See DESIGN.md, Algorithms: Annotator model.
#ifndef MLAGREEMENT_ANNOTATOR_MODEL_H
#define MLAGREEMENT_ANNOTATOR_MODEL_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>
#include <vector>

#include "mlagreement/threads.h"

namespace mlagreement {

// One latent-class problem: the decisions grouped by item (item i owns
// start[i] .. start[i + 1] - 1); missing decisions are absent, never zeros.
struct ClassProblem {
  std::size_t n_items = 0;
  std::vector<std::int64_t> start;    // n_items + 1
  std::vector<int> annotator;         // 0-based
  std::vector<std::uint8_t> response;  // 0..q-1
};

struct ClassModelOptions {
  int q = 2;
  bool one_coin = false;
  bool pooled = false;
  int max_iter = 500;
  double tol = 1e-8;  // log-likelihood still to gain (em_converged())
  bool accelerate = false;  // SQUAREM cycles instead of plain EM steps
  // parameters kept in [floor, 1 - floor]: a response an annotator "never"
  // gives would otherwise give every class zero likelihood
  double floor = 1e-6;
  int threads = 1;
};

struct ClassModelFit {
  // per problem: q prevalences; posterior n_items x q (item-major, NaN for
  // items without decisions)
  std::vector<std::vector<double>> prevalence, posterior;
  // per parameter group (one per problem, or one when pooled):
  // n_annotators x q x q, entry [(a * q + z) * q + y] = P(y | z)
  std::vector<std::vector<double>> confusion;
  std::vector<double> trace;  // observed log-likelihood after each E-step
  int iterations = 0;
  bool converged = false;
  bool interrupted = false;
};

namespace detail {

// argmax of sum_l c_l log pi_l over pi_l >= floor, sum_l pi_l = 1 (KKT:
// pi_l = max(floor, c_l / lambda)); keeps `pi` when there is no weight.
inline void constrained_row(const double* c, int q, double floor, double* pi) {
  double total = 0;
  for (int l = 0; l < q; ++l) total += c[l];
  if (!(total > 0)) return;
  std::vector<char> fixed(static_cast<std::size_t>(q), 0);
  for (;;) {
    int n_fixed = 0;
    double free_c = 0;
    for (int l = 0; l < q; ++l) {
      if (fixed[l]) ++n_fixed; else free_c += c[l];
    }
    const double free_mass = 1.0 - n_fixed * floor;
    bool changed = false;
    for (int l = 0; l < q; ++l) {
      if (fixed[l]) continue;
      const double v = c[l] * free_mass / free_c;
      if (v < floor) { fixed[l] = 1; changed = true; }
    }
    if (!changed) {
      for (int l = 0; l < q; ++l) pi[l] = fixed[l] ? floor : c[l] * free_mass / free_c;
      return;
    }
  }
}

// An E-step's weights (or the start's): per annotator q x q posterior sums
// by (true class, response), per class the posterior sum.
struct ClassCounts {
  std::vector<double> cell, prev;
  void reset(std::size_t n_annotators, int q) {
    cell.assign(n_annotators * static_cast<std::size_t>(q * q), 0.0);
    prev.assign(static_cast<std::size_t>(q), 0.0);
  }
};

inline void add_item(const ClassProblem& pr, std::size_t i, const double* mu, int q,
                     ClassCounts& cnt) {
  for (int z = 0; z < q; ++z) cnt.prev[z] += mu[z];
  for (std::int64_t d = pr.start[i]; d < pr.start[i + 1]; ++d) {
    double* cell = &cnt.cell[static_cast<std::size_t>(pr.annotator[d]) * q * q];
    const int y = pr.response[d];
    for (int z = 0; z < q; ++z) cell[z * q + y] += mu[z];
  }
}

// The start: each item's share of decisions per class (soft majority vote).
inline void start_counts(const ClassProblem& pr, int q, std::vector<double>& post,
                         ClassCounts& cnt) {
  for (std::size_t i = 0; i < pr.n_items; ++i) {
    double* mu = &post[i * q];
    const std::int64_t m = pr.start[i + 1] - pr.start[i];
    if (m == 0) {
      std::fill(mu, mu + q, std::numeric_limits<double>::quiet_NaN());
      continue;
    }
    std::fill(mu, mu + q, 0.0);
    for (std::int64_t d = pr.start[i]; d < pr.start[i + 1]; ++d) mu[pr.response[d]] += 1.0;
    for (int z = 0; z < q; ++z) mu[z] /= static_cast<double>(m);
    add_item(pr, i, mu, q, cnt);
  }
}

// The fixed part of a binary problem: per decision the key 2a + y, per key
// its decisions, and the items with decisions.
struct BinaryIndex {
  std::vector<std::int32_t> key;
  std::vector<double> n_key;
  double n_decided = 0;
};

inline BinaryIndex binary_index(const ClassProblem& pr, std::size_t n_annotators) {
  BinaryIndex b;
  b.key.resize(pr.annotator.size());
  b.n_key.assign(2 * n_annotators, 0.0);
  for (std::size_t d = 0; d < b.key.size(); ++d) {
    b.key[d] = static_cast<std::int32_t>(2 * pr.annotator[d] + pr.response[d]);
    b.n_key[b.key[d]] += 1.0;
  }
  for (std::size_t i = 0; i < pr.n_items; ++i) b.n_decided += pr.start[i + 1] > pr.start[i];
  return b;
}

// Per key of a binary group: the log-odds step w = log P(y | 1) -
// log P(y | 0), and log P(y | 0).
inline void binary_tables(const std::vector<double>& log_conf, std::size_t n_annotators,
                          std::vector<double>& w, std::vector<double>& l0) {
  w.resize(2 * n_annotators);
  l0.resize(2 * n_annotators);
  for (std::size_t a = 0; a < n_annotators; ++a)
    for (int y = 0; y < 2; ++y) {
      l0[2 * a + y] = log_conf[a * 4 + y];
      w[2 * a + y] = log_conf[a * 4 + 2 + y] - log_conf[a * 4 + y];
    }
}

// The E-step of a binary problem in one pass over its decisions (DESIGN.md).
inline double e_step_binary(const ClassProblem& pr, const BinaryIndex& bi,
                            const std::vector<double>& log_prev, const std::vector<double>& w,
                            const std::vector<double>& l0, std::vector<double>& post,
                            std::vector<double>& acc, ClassCounts& cnt, bool& stop) {
  double ll = bi.n_decided * log_prev[0], prod = 1;
  for (std::size_t s = 0; s < l0.size(); ++s) ll += bi.n_key[s] * l0[s];
  int n_prod = 0;
  double prev0 = 0, prev1 = 0;
  acc.assign(2 * w.size(), 0.0);
  const std::int32_t* key = bi.key.data();
  const double prior = log_prev[1] - log_prev[0];
  for (std::size_t i = 0; i < pr.n_items; ++i) {
    if (interrupted_at(static_cast<std::int64_t>(i), 4096)) { stop = true; return ll; }
    const std::int64_t first = pr.start[i], last = pr.start[i + 1];
    if (first == last) continue;
    double s = prior;
    for (std::int64_t d = first; d < last; ++d) s += w[key[d]];
    const double e = std::exp(-std::fabs(s));
    // both from e: 1 - mu1 would lose the relative precision of a tiny mu0,
    // which an M-step cell made of such posteriors divides by
    const double big = 1.0 / (1.0 + e), small = e / (1.0 + e);
    const double mu1 = s > 0 ? big : small, mu0 = s > 0 ? small : big;
    ll += std::max(s, 0.0);
    prod *= 1.0 + e;
    if (++n_prod == 256) { ll += std::log(prod); prod = 1; n_prod = 0; }
    post[2 * i] = mu0;
    post[2 * i + 1] = mu1;
    prev0 += mu0;
    prev1 += mu1;
    for (std::int64_t d = first; d < last; ++d) {
      double* c = &acc[2 * static_cast<std::size_t>(key[d])];
      c[0] += mu0;
      c[1] += mu1;
    }
  }
  cnt.prev[0] = prev0;
  cnt.prev[1] = prev1;
  // acc[(2 a + y) * 2 + z] to cell[(a * 2 + z) * 2 + y]
  for (std::size_t a = 0; a < w.size() / 2; ++a)
    for (int z = 0; z < 2; ++z)
      for (int y = 0; y < 2; ++y) cnt.cell[(a * 2 + z) * 2 + y] = acc[(2 * a + y) * 2 + z];
  return ll + std::log(prod);
}

// One E-step from log parameters: posteriors, log-likelihood and the next
// M-step's weights in one pass.
inline double e_step(const ClassProblem& pr, int q, const std::vector<double>& log_prev,
                     const std::vector<double>& log_conf, std::vector<double>& post,
                     ClassCounts& cnt, bool& stop) {
  double ll = 0;
  std::vector<double> lw(static_cast<std::size_t>(q));
  for (std::size_t i = 0; i < pr.n_items; ++i) {
    if (interrupted_at(static_cast<std::int64_t>(i), 4096)) { stop = true; return ll; }
    if (pr.start[i + 1] == pr.start[i]) continue;
    for (int z = 0; z < q; ++z) lw[z] = log_prev[z];
    for (std::int64_t d = pr.start[i]; d < pr.start[i + 1]; ++d) {
      const double* lc = &log_conf[static_cast<std::size_t>(pr.annotator[d]) * q * q];
      const int y = pr.response[d];
      for (int z = 0; z < q; ++z) lw[z] += lc[z * q + y];
    }
    const double mx = *std::max_element(lw.begin(), lw.end());
    double s = 0;
    double* mu = &post[i * q];
    for (int z = 0; z < q; ++z) { mu[z] = std::exp(lw[z] - mx); s += mu[z]; }
    for (int z = 0; z < q; ++z) mu[z] /= s;
    ll += mx + std::log(s);
    add_item(pr, i, mu, q, cnt);
  }
  return ll;
}

// The M-step of one parameter group from its summed weights `cell`.
inline void m_step_confusion(const std::vector<double>& cell, std::size_t n_annotators,
                             const ClassModelOptions& o, std::vector<double>& conf) {
  const int q = o.q;
  for (std::size_t a = 0; a < n_annotators; ++a) {
    const double* c = &cell[a * q * q];
    double* pi = &conf[a * q * q];
    if (!o.one_coin) {
      for (int z = 0; z < q; ++z) constrained_row(c + z * q, q, o.floor, pi + z * q);
      continue;
    }
    double agree = 0, total = 0;
    for (int z = 0; z < q; ++z) {
      agree += c[z * q + z];
      for (int y = 0; y < q; ++y) total += c[z * q + y];
    }
    if (!(total > 0)) continue;
    // off-diagonal (1 - acc) / (q - 1) stays >= floor as well
    const double acc = std::min(1.0 - (q - 1) * o.floor, std::max(o.floor, agree / total));
    for (int z = 0; z < q; ++z)
      for (int y = 0; y < q; ++y) pi[z * q + y] = y == z ? acc : (1.0 - acc) / (q - 1);
  }
}

inline std::vector<double> logs(const std::vector<double>& v) {
  std::vector<double> out(v.size());
  for (std::size_t s = 0; s < v.size(); ++s) out[s] = std::log(v[s]);
  return out;
}

}  // namespace detail

}  // namespace mlagreement

#endif
