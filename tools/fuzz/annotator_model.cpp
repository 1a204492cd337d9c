// Fuzz target 8: the annotator model's EM (annotator_model.h) and its
// observed information (annotator_model_info.h). A design from the bytes
// (records in any order, items without records, missing decisions) becomes
// one binary problem per label, or with a byte one problem whose category is
// a record's first selected label; the fit (two-coin or one-coin, pooled or
// not, 1 to 30 iterations, 1 or 2 threads) is compared with a plain EM over
// the design's records kept here (relative tolerance 1e-7; the parameters
// only where some annotator is informative, see uninformative()); the
// log-likelihood must not decrease, posteriors are probabilities (NaN only
// for items without decisions), parameters lie in [floor, 1 - floor] with
// rows summing to 1, two thread counts give the same doubles, and the
// information (binary, or multi-class for single-label problems) is
// symmetric and finite.
#include <cmath>
#include <cstdint>
#include <vector>

#include "fuzz_common.h"
#include "mlagreement/annotator_model_fit.h"
#include "mlagreement/annotator_model_info.h"

namespace mla = mlagreement;

namespace {

// (item, annotator, response) of every decision of problem j, record order.
struct Decision { int item, annotator, y; };

std::vector<std::vector<Decision>> decisions(const fuzz::Design& d, bool single) {
  std::vector<std::vector<Decision>> out(single ? 1 : d.K);
  for (std::size_t r = 0; r < d.n_records(); ++r) {
    if (single) {
      for (int j = 0; j < d.K; ++j)
        if (d.at(r, j) == 1) { out[0].push_back({d.item[r], d.annotator[r], j}); break; }
      continue;
    }
    for (int j = 0; j < d.K; ++j)
      if (d.at(r, j) != fuzz::kNA) out[j].push_back({d.item[r], d.annotator[r], d.at(r, j)});
  }
  return out;
}

mla::ClassProblem to_problem(const std::vector<Decision>& dec, int N) {
  mla::ClassProblem pr;
  pr.n_items = static_cast<std::size_t>(N);
  pr.start.assign(N + 1, 0);
  for (int i = 0; i < N; ++i) {
    for (const Decision& x : dec)
      if (x.item == i) { pr.annotator.push_back(x.annotator); pr.response.push_back(static_cast<std::uint8_t>(x.y)); }
    pr.start[i + 1] = static_cast<std::int64_t>(pr.annotator.size());
  }
  return pr;
}

void clamp_row(std::vector<double>& c, double fl) {  // constrained argmax, by its KKT rule
  std::vector<bool> fixed(c.size(), false);
  for (;;) {
    double mass = 1, free_c = 0;
    for (std::size_t l = 0; l < c.size(); ++l) { if (fixed[l]) mass -= fl; else free_c += c[l]; }
    bool more = false;
    for (std::size_t l = 0; l < c.size(); ++l)
      if (!fixed[l] && c[l] * mass / free_c < fl) { fixed[l] = true; more = true; }
    if (!more) {
      for (std::size_t l = 0; l < c.size(); ++l) c[l] = fixed[l] ? fl : c[l] * mass / free_c;
      return;
    }
  }
}

// The plain EM: trace of log-likelihoods after `iters` iterations.
std::vector<double> naive_em(const std::vector<std::vector<Decision>>& dec, int N, int A, int q,
                             const mla::ClassModelOptions& o, std::vector<std::vector<double>>& conf) {
  const std::size_t P = dec.size(), G = o.pooled ? 1 : P;
  std::vector<double> start(A * q * q);
  for (int a = 0; a < A; ++a)
    for (int z = 0; z < q; ++z)
      for (int y = 0; y < q; ++y) start[(a * q + z) * q + y] = y == z ? 0.7 : 0.3 / (q - 1);
  conf.assign(G, start);
  std::vector<std::vector<double>> post(P, std::vector<double>(N * q, 0.0)), prev(P);
  std::vector<std::vector<int>> m(P, std::vector<int>(N, 0));
  for (std::size_t j = 0; j < P; ++j) {
    for (const Decision& x : dec[j]) { post[j][x.item * q + x.y] += 1; ++m[j][x.item]; }
    for (int i = 0; i < N; ++i)
      for (int z = 0; z < q; ++z) if (m[j][i] > 0) post[j][i * q + z] /= m[j][i];
  }
  std::vector<double> trace;
  for (int it = 0; it < o.max_iter; ++it) {
    std::vector<std::vector<double>> cell(G, std::vector<double>(A * q * q, 0.0));
    for (std::size_t j = 0; j < P; ++j) {
      std::vector<double> c(q, 0.0);
      for (int i = 0; i < N; ++i)
        if (m[j][i] > 0) for (int z = 0; z < q; ++z) c[z] += post[j][i * q + z];
      clamp_row(c, o.floor);
      prev[j] = c;
      for (const Decision& x : dec[j])
        for (int z = 0; z < q; ++z) cell[o.pooled ? 0 : j][(x.annotator * q + z) * q + x.y] += post[j][x.item * q + z];
    }
    for (std::size_t g = 0; g < G; ++g)
      for (int a = 0; a < A; ++a) {
        double agree = 0, total = 0;
        for (int z = 0; z < q; ++z) {
          std::vector<double> row(cell[g].begin() + (a * q + z) * q, cell[g].begin() + (a * q + z + 1) * q);
          double s = 0;
          for (double v : row) s += v;
          total += s;
          agree += row[z];
          if (!o.one_coin && s > 0) {
            clamp_row(row, o.floor);
            for (int y = 0; y < q; ++y) conf[g][(a * q + z) * q + y] = row[y];
          }
        }
        if (o.one_coin && total > 0) {
          const double acc = std::fmin(1 - (q - 1) * o.floor, std::fmax(o.floor, agree / total));
          for (int z = 0; z < q; ++z)
            for (int y = 0; y < q; ++y) conf[g][(a * q + z) * q + y] = y == z ? acc : (1 - acc) / (q - 1);
        }
      }
    double ll = 0;
    for (std::size_t j = 0; j < P; ++j) {
      const std::vector<double>& cf = conf[o.pooled ? 0 : j];
      for (int i = 0; i < N; ++i) {
        if (m[j][i] == 0) continue;
        std::vector<double> lw(q);
        for (int z = 0; z < q; ++z) lw[z] = std::log(prev[j][z]);
        for (const Decision& x : dec[j])
          if (x.item == i) for (int z = 0; z < q; ++z) lw[z] += std::log(cf[(x.annotator * q + z) * q + x.y]);
        double mx = lw[0], s = 0;
        for (double v : lw) mx = std::fmax(mx, v);
        for (double v : lw) s += std::exp(v - mx);
        ll += mx + std::log(s);
        for (int z = 0; z < q; ++z) post[j][i * q + z] = std::exp(lw[z] - mx) / s;
      }
    }
    trace.push_back(ll);
  }
  return trace;
}

// Whether every annotator of a group answers (nearly) alike whatever the
// class: then the likelihood is flat in the prevalence, EM creeps along a
// ridge and rounding alone moves the parameters (the log-likelihood still
// matches).
bool uninformative(const std::vector<double>& conf, int A, int q) {
  for (int a = 0; a < A; ++a)
    for (int y = 0; y < q; ++y) {
      double lo = 1, hi = 0;
      for (int z = 0; z < q; ++z) {
        lo = std::fmin(lo, conf[(a * q + z) * q + y]);
        hi = std::fmax(hi, conf[(a * q + z) * q + y]);
      }
      if (hi - lo > 1e-3) return false;
    }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Bytes in(data, size);
  fuzz::DesignLimits lim;
  lim.min_annotators = 2;
  lim.whole_records = true;  // single-label records are decided whole or missing
  const fuzz::Design d = fuzz::decode_design(in, lim);
  const bool single = in.flag() && d.K >= 2;
  mla::ClassModelOptions o;
  o.q = single ? d.K : 2;
  o.one_coin = in.flag();
  o.pooled = !single && in.flag();
  o.max_iter = in.range(1, 30);
  o.tol = 0;
  o.threads = in.threads();
  const auto dec = decisions(d, single);
  std::vector<mla::ClassProblem> problems;
  for (const auto& v : dec) problems.push_back(to_problem(v, d.N));
  const mla::ClassModelFit fit = mla::fit_class_model(problems, static_cast<std::size_t>(d.A), o);
  mla::ClassModelOptions o2 = o;
  o2.threads = 3 - o.threads;
  const mla::ClassModelFit fit2 = mla::fit_class_model(problems, static_cast<std::size_t>(d.A), o2);
  std::vector<std::vector<double>> conf;
  // as many iterations as the fit ran (it stops early at an exact fixed point)
  mla::ClassModelOptions o_naive = o;
  o_naive.max_iter = static_cast<int>(fit.trace.size());
  fuzz::expect(fit.trace.size() == fit2.trace.size(), "threads: iterations");
  fuzz::expect(fit.converged || fit.iterations == o.max_iter, "iterations");
  const std::vector<double> trace = naive_em(dec, d.N, d.A, o.q, o_naive, conf);
  for (std::size_t t = 0; t < trace.size(); ++t) {
    fuzz::expect_near(fit.trace[t], trace[t], "log-likelihood", 1e-7);
    fuzz::expect_eq(fit2.trace[t], fit.trace[t], "threads: log-likelihood");
    if (t > 0) fuzz::expect(fit.trace[t] >= fit.trace[t - 1] - 1e-9 * std::fabs(fit.trace[t]), "monotone");
  }
  for (std::size_t g = 0; g < conf.size(); ++g)
    for (std::size_t s = 0; s < conf[g].size(); ++s) {
      if (!uninformative(conf[g], d.A, o.q)) fuzz::expect_near(fit.confusion[g][s], conf[g][s], "confusion", 1e-7);
      if (!(fit.confusion[g][s] >= o.floor * (1 - 1e-9) && fit.confusion[g][s] <= 1 - o.floor * (1 - 1e-9))) fuzz::fail("bounds", fit.confusion[g][s], o.floor);
      fuzz::expect_eq(fit2.confusion[g][s], fit.confusion[g][s], "threads: confusion");
    }
  // posteriors sum to 1, NaN exactly for items without decisions
  auto check_posteriors = [&](const mla::ClassModelFit& f, const char* what) {
    for (std::size_t j = 0; j < problems.size(); ++j)
      for (int i = 0; i < d.N; ++i) {
        double s = 0;
        for (int z = 0; z < o.q; ++z) s += f.posterior[j][i * o.q + z];
        const bool none = problems[j].start[i + 1] == problems[j].start[i];
        fuzz::expect(none ? std::isnan(s) : std::fabs(s - 1) < 1e-12, what);
      }
  };
  check_posteriors(fit, "posterior");
  const std::size_t A = static_cast<std::size_t>(d.A);
  // SQUAREM: within max_iter E-steps, kept points never lose, parameters
  // within bounds, rows of posteriors summing to 1, the same on any threads
  mla::ClassModelOptions oa = o;
  oa.accelerate = true;
  const mla::ClassModelFit fa = mla::fit_class_model(problems, A, oa);
  oa.threads = 3 - o.threads;
  const mla::ClassModelFit fa2 = mla::fit_class_model(problems, A, oa);
  fuzz::expect(fa.iterations <= o.max_iter && fa.trace.size() == fa2.trace.size(), "accelerated: iterations");
  for (std::size_t t = 0; t < fa.trace.size(); ++t) {
    fuzz::expect_eq(fa2.trace[t], fa.trace[t], "accelerated threads: log-likelihood");
    if (t > 0) fuzz::expect(fa.trace[t] >= fa.trace[t - 1] - 1e-9 * std::fabs(fa.trace[t]), "accelerated: monotone");
  }
  if (!fa.trace.empty()) fuzz::expect(fa.trace.back() >= fit.trace[0] - 1e-9 * std::fabs(fit.trace[0]), "accelerated: start");
  for (std::size_t g = 0; g < fa.confusion.size(); ++g)
    for (double p : fa.confusion[g])
      if (!(p >= o.floor * (1 - 1e-9) && p <= 1 - o.floor * (1 - 1e-9))) fuzz::fail("accelerated: bounds", p, o.floor);
  check_posteriors(fa, "accelerated: posterior");
  const auto info = single ? std::vector<std::vector<double>>{mla::class_information(problems[0], A, o, fit)}
                           : mla::observed_information(problems, A, o, fit);
  for (const auto& h : info) {
    const std::size_t P = static_cast<std::size_t>(std::sqrt(static_cast<double>(h.size())) + 0.5);
    fuzz::expect(P * P == h.size(), "square information");
    for (std::size_t u = 0; u < P; ++u) {
      fuzz::expect(std::isfinite(h[u * P + u]), "finite information");
      for (std::size_t v = 0; v < u; ++v) fuzz::expect_eq(h[u * P + v], h[v * P + u], "symmetric information");
    }
  }
  return 0;
}
