// Fitting the annotator model: plain EM or SQUAREM cycles, and the stopping
// rule. See DESIGN.md, Algorithms: Annotator model.
#ifndef MLAGREEMENT_ANNOTATOR_MODEL_FIT_H
#define MLAGREEMENT_ANNOTATOR_MODEL_FIT_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <new>
#include <utility>
#include <vector>

#include "mlagreement/annotator_model.h"
#include "mlagreement/threads.h"

namespace mlagreement {

namespace detail {

// Whether EM has converged: the log-likelihood still to gain, projected by
// Aitken's acceleration from the last two gains (rate a = d1 / d0, limit
// l + d1 / (1 - a)), is at most tol, or no gain is left above rounding.
// Why not a relative change: DESIGN.md.
inline bool em_converged(const std::vector<double>& trace, double tol) {
  const std::size_t t = trace.size();
  if (t < 2) return false;
  const double d1 = trace[t - 1] - trace[t - 2];
  if (!(tol > 0)) return d1 <= 0;
  if (d1 <= 64 * std::numeric_limits<double>::epsilon() * std::fabs(trace[t - 1])) return true;
  if (t < 3) return false;
  const double d0 = trace[t - 2] - trace[t - 3];
  if (d0 <= 0) return false;
  const double a = d1 / d0;
  return a < 1 && d1 / (1 - a) <= tol;
}

}  // namespace detail

// The parameters of a fit (laid out as in ClassModelFit).
struct ClassParams {
  std::vector<std::vector<double>> prevalence, confusion;
};

// The two halves of an EM step for every problem; the binary keys and the
// E-step weights persist between calls.
class ClassEm {
 public:
  ClassEm(const std::vector<ClassProblem>& problems, std::size_t n_annotators,
          const ClassModelOptions& o)
      : problems_(problems), n_ann_(n_annotators), o_(o),
        n_groups_(o.pooled ? 1 : problems.size()), counts_(problems.size()),
        ll_(problems.size()), bin_(o.q == 2 ? problems.size() : 0), acc_(bin_.size()) {
    for (std::size_t j = 0; j < bin_.size(); ++j) bin_[j] = detail::binary_index(problems[j], n_ann_);
  }

  void start(std::vector<std::vector<double>>& post) {
    post.resize(problems_.size());
    for (std::size_t j = 0; j < problems_.size(); ++j) {
      counts_[j].reset(n_ann_, o_.q);
      post[j].assign(problems_[j].n_items * o_.q, 0.0);
      detail::start_counts(problems_[j], o_.q, post[j], counts_[j]);
    }
  }

  // M-step from the last E-step's weights (or the start's); parameters
  // without weight keep their value.
  void m_step(ClassParams& p) const {
    std::vector<double> cell;
    for (std::size_t j = 0; j < problems_.size(); ++j)
      detail::constrained_row(counts_[j].prev.data(), o_.q, o_.floor, p.prevalence[j].data());
    for (std::size_t g = 0; g < n_groups_; ++g) {
      cell = counts_[g].cell;
      if (o_.pooled)
        for (std::size_t j = 1; j < problems_.size(); ++j)
          for (std::size_t s = 0; s < cell.size(); ++s) cell[s] += counts_[j].cell[s];
      detail::m_step_confusion(cell, n_ann_, o_, p.confusion[g]);
    }
  }

  // E-step at p; the log-likelihood summed in problem order. False when
  // interrupted.
  bool e_step(const ClassParams& p, std::vector<std::vector<double>>& post, double& total) {
    const int q = o_.q;
    const std::size_t n_prob = problems_.size();
    std::vector<std::vector<double>> log_prev(n_prob), log_conf(n_groups_), w(n_groups_),
        l0(n_groups_);
    for (std::size_t j = 0; j < n_prob; ++j) log_prev[j] = detail::logs(p.prevalence[j]);
    for (std::size_t g = 0; g < n_groups_; ++g) {
      log_conf[g] = detail::logs(p.confusion[g]);
      if (q == 2) detail::binary_tables(log_conf[g], n_ann_, w[g], l0[g]);
    }
    bool stop = false, failed = false;
#ifdef _OPENMP
#pragma omp parallel for num_threads(o_.threads) schedule(dynamic) reduction(|| : stop, failed)
#endif
    for (std::ptrdiff_t jj = 0; jj < static_cast<std::ptrdiff_t>(n_prob); ++jj) {
      const std::size_t j = static_cast<std::size_t>(jj);
      guarded(failed, [&] {
        const std::size_t g = o_.pooled ? 0 : j;
        if (q == 2) {
          ll_[j] = detail::e_step_binary(problems_[j], bin_[j], log_prev[j], w[g], l0[g], post[j],
                                         acc_[j], counts_[j], stop);
        } else {
          counts_[j].reset(n_ann_, q);
          ll_[j] = detail::e_step(problems_[j], q, log_prev[j], log_conf[g], post[j], counts_[j],
                                  stop);
        }
      });
    }
    if (failed) throw std::bad_alloc();
    if (stop || interrupted()) return false;
    total = 0;
    for (std::size_t j = 0; j < n_prob; ++j) total += ll_[j];
    return true;
  }

  std::vector<detail::ClassCounts>& counts() { return counts_; }

 private:
  const std::vector<ClassProblem>& problems_;
  std::size_t n_ann_;
  ClassModelOptions o_;
  std::size_t n_groups_;
  std::vector<detail::ClassCounts> counts_;
  std::vector<double> ll_;
  std::vector<detail::BinaryIndex> bin_;
  std::vector<std::vector<double>> acc_;
};

namespace detail {

// Calls f(out, a, b, c) on every parameter of same-shaped sets, in order.
template <typename F>
void for_each_parameter(ClassParams& out, const ClassParams& a, const ClassParams& b,
                        const ClassParams& c, F f) {
  for (std::size_t j = 0; j < out.prevalence.size(); ++j)
    for (std::size_t l = 0; l < out.prevalence[j].size(); ++l)
      f(out.prevalence[j][l], a.prevalence[j][l], b.prevalence[j][l], c.prevalence[j][l]);
  for (std::size_t g = 0; g < out.confusion.size(); ++g)
    for (std::size_t s = 0; s < out.confusion[g].size(); ++s)
      f(out.confusion[g][s], a.confusion[g][s], b.confusion[g][s], c.confusion[g][s]);
}

// Rows clamped to [floor, 1 - floor] and renormalised (an extrapolated point
// can leave the simplex).
inline void into_simplex(ClassParams& p, int q, double floor) {
  auto fix = [&](double* row) {
    double total = 0;
    for (int l = 0; l < q; ++l) total += row[l] = std::min(1.0 - floor, std::max(floor, row[l]));
    for (int l = 0; l < q; ++l) row[l] /= total;
  };
  for (auto& prev : p.prevalence) fix(prev.data());
  for (auto& conf : p.confusion)
    for (std::size_t r = 0; r < conf.size(); r += q) fix(&conf[r]);
}

// The parameters before the first M-step (DESIGN.md).
inline ClassParams start_params(std::size_t n_prob, std::size_t n_annotators,
                                const ClassModelOptions& o) {
  const int q = o.q;
  ClassParams p;
  p.prevalence.assign(n_prob, std::vector<double>(q, 1.0 / q));
  std::vector<double> conf(n_annotators * q * q);
  for (std::size_t a = 0; a < n_annotators; ++a)
    for (int z = 0; z < q; ++z)
      for (int y = 0; y < q; ++y) conf[(a * q + z) * q + y] = y == z ? 0.7 : 0.3 / (q - 1);
  p.confusion.assign(o.pooled ? 1 : n_prob, conf);
  return p;
}

}  // namespace detail

// Fits by EM from the soft majority vote, plain or in SQUAREM cycles
// (o.accelerate), until em_converged() or max_iter E-steps (DESIGN.md).
inline ClassModelFit fit_class_model(const std::vector<ClassProblem>& problems,
                                     std::size_t n_annotators, const ClassModelOptions& o) {
  const int q = o.q;
  ClassModelFit fit;
  ClassParams cur = detail::start_params(problems.size(), n_annotators, o);
  ClassEm em(problems, n_annotators, o);
  em.start(fit.posterior);
  auto finish = [&](bool interrupted) {
    fit.interrupted = interrupted;
    fit.prevalence = std::move(cur.prevalence);
    fit.confusion = std::move(cur.confusion);
    return fit;
  };
  // one EM step from `p` (in place); false when interrupted
  auto em_step = [&](ClassParams& p, double& ll) {
    em.m_step(p);
    ++fit.iterations;
    return em.e_step(p, fit.posterior, ll);
  };
  double ll0 = 0;
  if (o.max_iter < 1) return finish(false);
  if (!em_step(cur, ll0)) return finish(true);
  fit.trace.push_back(ll0);
  double step_max = 1;
  while (fit.iterations < o.max_iter && !detail::em_converged(fit.trace, o.tol)) {
    // a cycle takes up to 4 E-steps: plain steps finish the budget exactly
    if (!o.accelerate || fit.iterations + 4 > o.max_iter) {
      if (!em_step(cur, ll0)) return finish(true);
      fit.trace.push_back(ll0);
      continue;
    }
    ClassParams p1 = cur, p2;
    double ll1 = 0, ll2 = 0;
    if (!em_step(p1, ll1)) return finish(true);
    p2 = p1;
    if (!em_step(p2, ll2)) return finish(true);
    double sr2 = 0, sv2 = 0;
    detail::for_each_parameter(p2, cur, p1, p2, [&](double&, double t0, double t1, double t2) {
      sr2 += (t1 - t0) * (t1 - t0);
      sv2 += (t2 - 2 * t1 + t0) * (t2 - 2 * t1 + t0);
    });
    const double alpha = sv2 > 0 ? std::min(step_max, std::max(1.0, std::sqrt(sr2 / sv2))) : 1.0;
    bool kept_p2 = true;
    if (alpha > 1.01) {
      // theta2's E-step is the fallback: keep its weights and posteriors
      const std::vector<detail::ClassCounts> counts2 = em.counts();
      const std::vector<std::vector<double>> post2 = fit.posterior;
      ClassParams pe = p2;
      detail::for_each_parameter(pe, cur, p1, p2, [&](double& out, double t0, double t1, double t2) {
        out = t0 + 2 * alpha * (t1 - t0) + alpha * alpha * (t2 - 2 * t1 + t0);
      });
      detail::into_simplex(pe, q, o.floor);
      double lle = 0, llnew = 0;
      if (!em.e_step(pe, fit.posterior, lle)) return finish(true);
      ++fit.iterations;
      if (!em_step(pe, llnew)) return finish(true);
      if (llnew >= ll0) {
        cur = std::move(pe);
        ll0 = llnew;
        kept_p2 = false;
      } else {
        em.counts() = counts2;
        fit.posterior = post2;
        if (alpha == step_max) step_max = std::max(1.0, step_max / 4);
      }
    }
    if (kept_p2) {
      cur = std::move(p2);
      ll0 = ll2;
    }
    if (alpha == step_max) step_max *= 4;
    fit.trace.push_back(ll0);
  }
  fit.converged = detail::em_converged(fit.trace, o.tol);
  return finish(false);
}

}  // namespace mlagreement

#endif
