// R glue for the annotator-specific baseline (conger.h) and the annotator
// pairs' Cohen kappas (pair_cohen.h).
#include <Rcpp.h>

#include <cstdint>
#include <vector>

#include "glue-view.h"
#include "mlagreement/boot_units.h"
#include "mlagreement/conger.h"
#include "mlagreement/estimators.h"
#include "mlagreement/pair_cohen.h"
#include "mlagreement/rng.h"

namespace {

namespace mla = mlagreement;

const double kIdentity2[4] = {1.0, 0.0, 0.0, 1.0};

// The problems of every label (binary) of a view, with item multiplicities.
template <typename View, typename Codes>
std::vector<mla::CongerProblem> label_problems(const View& v, const Codes& codes, const double* mult,
                                               bool terms) {
  std::vector<mla::CongerProblem> out(v.n_labels);
  for (std::size_t j = 0; j < v.n_labels; ++j) {
    out[j] = mla::conger_problem(v, mla::BinaryCategory<View, Codes>{v, codes, j}, 2, kIdentity2,
                                 mult, terms);
  }
  return out;
}

// The single-label problem (q categories, weights W).
template <typename View>
mla::CongerProblem category_problem(const View& v, const std::vector<int>& cat,
                                    const Rcpp::NumericMatrix& W, const double* mult, bool terms) {
  return mla::conger_problem(v, [&](std::size_t r) { return cat[r]; }, v.n_labels, W.begin(),
                             mult, terms);
}

}  // namespace

// Positives and decisions per annotator and label (annotators x labels).
// [[Rcpp::export(rng = false)]]
Rcpp::List conger_tallies_cpp(const Rcpp::List& view) {
  return glue::with_record_view(view, [&](const auto& v, const auto& codes) {
    const mla::AnnotatorTallies t = mla::annotator_tallies(v, codes);
    const int J = static_cast<int>(t.n_annotators), k = static_cast<int>(t.n_labels);
    Rcpp::NumericMatrix pos(J, k), dec(J, k);
    std::copy(t.positives.begin(), t.positives.end(), pos.begin());
    std::copy(t.decisions.begin(), t.decisions.end(), dec.begin());
    return Rcpp::List::create(Rcpp::Named("positives") = pos, Rcpp::Named("decisions") = dec);
  });
}

// Label and corpus estimates under the conger baseline from the label tables
// (observed disagreement, floors) and the annotator tallies (chance).
// [[Rcpp::export(rng = false)]]
Rcpp::List conger_estimates_cpp(const Rcpp::NumericMatrix& cnt, const Rcpp::NumericMatrix& sx,
                                const Rcpp::NumericMatrix& sdis, const Rcpp::NumericMatrix& pos,
                                const Rcpp::NumericMatrix& dec) {
  const mla::LabelTable table = glue::label_table(cnt, sx, sdis);
  const std::size_t k = table.n_labels, J = static_cast<std::size_t>(pos.nrow());
  Rcpp::NumericVector expected(k), estimate(k), weight(k), floor(k), raters(k);
  Rcpp::IntegerVector reason(k);
  mla::dd d, dm, w;
  long double w_total = 0;
  double used = 0;
  std::vector<double> wj(k);
  for (std::size_t j = 0; j < k; ++j) {
    const mla::LabelSummary s = mla::summarise_label(table, j);
    wj[j] = mla::conger_binary_disagreement(pos.begin() + j * J, dec.begin() + j * J, J, &raters[j]);
    const bool pairable = s.n_pairable > 0;
    if (!pairable) wj[j] = mla::kNA;
    expected[j] = 1.0 - wj[j];
    estimate[j] = pairable ? mla::coefficient(s.d_obs_dd, mla::dd(wj[j])) : mla::kNA;
    floor[j] = pairable ? mla::coefficient(s.d_max_dd, mla::dd(wj[j])) : mla::kNA;
    reason[j] = !(s.n_rated > 0) ? mla::kNotRated
                : !pairable       ? mla::kNotPairable
                : wj[j] == 0.0    ? mla::kConstantLabel
                                  : mla::kDefined;
    if (!pairable) continue;
    used += 1;
    d = d + s.d_obs_dd;
    dm = dm + s.d_max_dd;
    w = w + mla::dd(wj[j]);
    w_total += wj[j];
  }
  for (std::size_t j = 0; j < k; ++j) {
    weight[j] = (!std::isnan(wj[j]) && w_total > 0) ? wj[j] / static_cast<double>(w_total) : mla::kNA;
  }
  double c_obs = mla::kNA, c_exp = mla::kNA, c_est = mla::kNA, c_fo = mla::kNA, c_floor = mla::kNA;
  int c_reason = mla::kDefined;
  if (used > 0) {
    const mla::dd n(used);
    c_obs = 1.0 - (d / n).value();
    c_exp = 1.0 - (w / n).value();
    c_est = mla::coefficient(d, w);
    c_fo = 1.0 - (dm / n).value();
    c_floor = mla::coefficient(dm, w);
    if (!(w.hi > 0)) c_reason = mla::kAllConstant;
  }
  Rcpp::List label = Rcpp::List::create(
      Rcpp::Named("expected") = glue::nan_to_na(expected), Rcpp::Named("estimate") = glue::nan_to_na(estimate),
      Rcpp::Named("weight") = glue::nan_to_na(weight), Rcpp::Named("floor") = glue::nan_to_na(floor),
      Rcpp::Named("n_annotators") = raters, Rcpp::Named("reason") = reason);
  Rcpp::List corpus = Rcpp::List::create(
      Rcpp::Named("observed") = glue::nan_to_na(c_obs), Rcpp::Named("expected") = glue::nan_to_na(c_exp),
      Rcpp::Named("estimate") = glue::nan_to_na(c_est), Rcpp::Named("floor_observed") = glue::nan_to_na(c_fo),
      Rcpp::Named("floor") = glue::nan_to_na(c_floor), Rcpp::Named("reason") = c_reason);
  return Rcpp::List::create(Rcpp::Named("label") = label, Rcpp::Named("corpus") = corpus);
}

// Conger's pe of a single-label design: per annotator category counts
// (annotators x q), decisions per annotator, weights (q x q).
// [[Rcpp::export(rng = false)]]
double conger_chance_cpp(const Rcpp::NumericMatrix& counts, const Rcpp::NumericVector& decisions,
                         const Rcpp::NumericMatrix& weights) {
  return glue::nan_to_na(mla::conger_weighted_chance(counts.begin(), decisions.begin(),
                                                     static_cast<std::size_t>(counts.nrow()),
                                                     static_cast<std::size_t>(counts.ncol()),
                                                     weights.begin()));
}

// Influence sums: label rows (single = FALSE or TRUE: every label's binary
// problem), or the corpus row (the labels' corpus, or with single = TRUE the
// q-category problem with `weights`).
// [[Rcpp::export(rng = false)]]
Rcpp::List conger_influence_cpp(const Rcpp::List& view, bool corpus, bool single,
                                const Rcpp::NumericMatrix& weights) {
  return glue::with_record_view(view, [&](const auto& v, const auto& codes) {
    if (corpus && single) {
      const mla::CongerProblem p =
          category_problem(v, mla::single_label_categories(v, codes), weights, nullptr, true);
      double s, n;
      mla::conger_label_influence(p, &s, &n);
      return Rcpp::List::create(Rcpp::Named("sum_sq") = glue::nan_to_na(s), Rcpp::Named("n") = n,
                                Rcpp::Named("estimate") = glue::nan_to_na(p.estimate));
    }
    const std::vector<mla::CongerProblem> labels = label_problems(v, codes, nullptr, true);
    if (corpus) {
      const double c = mla::conger_corpus(labels);
      double s, n;
      mla::conger_corpus_influence(labels, c, &s, &n);
      return Rcpp::List::create(Rcpp::Named("sum_sq") = glue::nan_to_na(s), Rcpp::Named("n") = n,
                                Rcpp::Named("estimate") = glue::nan_to_na(c));
    }
    Rcpp::NumericVector s(labels.size()), n(labels.size()), est(labels.size());
    for (std::size_t j = 0; j < labels.size(); ++j) {
      mla::conger_label_influence(labels[j], &s[j], &n[j]);
      est[j] = labels[j].estimate;
    }
    return Rcpp::List::create(Rcpp::Named("sum_sq") = glue::nan_to_na(s), Rcpp::Named("n") = n,
                              Rcpp::Named("estimate") = glue::nan_to_na(est));
  });
}

// Item bootstrap replicates (n_rep x (1 + labels): corpus, then labels) with
// the draws of every other item engine of the same seed and units.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix conger_boot_cpp(const Rcpp::List& view, bool single,
                                    const Rcpp::NumericMatrix& weights,
                                    const Rcpp::IntegerVector& seed, int n_rep,
                                    const Rcpp::IntegerVector& unit_of_item, int n_units,
                                    const Rcpp::IntegerVector& order,
                                    const Rcpp::IntegerVector& start) {
  return glue::with_record_view(view, [&](const auto& v, const auto& codes) {
    const mla::UnitDesign u = glue::unit_design(v.n_items, unit_of_item, n_units, order, start);
    const std::size_t k = v.n_labels, R = static_cast<std::size_t>(n_rep);
    Rcpp::NumericMatrix out(n_rep, static_cast<int>(k + 1));
    const std::vector<int> cat = single ? mla::single_label_categories(v, codes) : std::vector<int>();
    const mla::BinaryItems items = mla::binary_items(v, codes);
    std::vector<double> mult(v.n_items), row(k), pos, dec;
    glue::for_each_stream(seed, [&](std::uint64_t s, int stream) {
      mla::for_each_item_draw(u, s, stream, R, [&](std::size_t r, const std::uint32_t* w) {
        for (std::size_t i = 0; i < v.n_items; ++i) mult[i] = w[i];
        double corpus;
        mla::binary_replicate(v, codes, items, mult.data(), row.data(), &corpus, pos, dec);
        if (single) corpus = category_problem(v, cat, weights, mult.data(), false).estimate;
        out(static_cast<int>(r), 0) = corpus;
        for (std::size_t j = 0; j < k; ++j) out(static_cast<int>(r), static_cast<int>(j + 1)) = row[j];
      });
    });
    return glue::nan_to_na(out);
  });
}

// Leave-one-unit-out values of the conger rows (n_units x (1 + labels)).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix conger_jack_cpp(const Rcpp::List& view, bool single,
                                    const Rcpp::NumericMatrix& weights,
                                    const Rcpp::IntegerVector& unit_start,
                                    const Rcpp::IntegerVector& unit_items) {
  return glue::with_record_view(view, [&](const auto& v, const auto& codes) {
    const std::size_t k = v.n_labels;
    const int nu = static_cast<int>(unit_start.size() - 1);
    Rcpp::NumericMatrix out(nu, static_cast<int>(k + 1));
    const std::vector<int> cat = single ? mla::single_label_categories(v, codes) : std::vector<int>();
    const mla::BinaryItems items = mla::binary_items(v, codes);
    std::vector<double> mult(v.n_items, 1.0), row(k), pos, dec;
    for (int u = 0; u < nu; ++u) {
      if (u % 64 == 0) Rcpp::checkUserInterrupt();
      for (int t = unit_start[u]; t < unit_start[u + 1]; ++t) mult[static_cast<std::size_t>(unit_items[t])] = 0.0;
      double corpus;
      mla::binary_replicate(v, codes, items, mult.data(), row.data(), &corpus, pos, dec);
      if (single) corpus = category_problem(v, cat, weights, mult.data(), false).estimate;
      out(u, 0) = corpus;
      for (std::size_t j = 0; j < k; ++j) out(u, static_cast<int>(j + 1)) = row[j];
      for (int t = unit_start[u]; t < unit_start[u + 1]; ++t) mult[static_cast<std::size_t>(unit_items[t])] = 1.0;
    }
    return glue::nan_to_na(out);
  });
}

// Each pair's own Cohen kappa (corpus: one per pair; label: pairs x labels)
// on the cells both annotators decided; a, b: 0-based annotators.
// [[Rcpp::export(rng = false)]]
Rcpp::List pair_cohen_cpp(const Rcpp::List& view, const Rcpp::IntegerVector& a,
                          const Rcpp::IntegerVector& b, bool single) {
  return glue::with_record_view(view, [&](const auto& v, const auto& codes) {
    const std::vector<int> cat = single ? mla::single_label_categories(v, codes) : std::vector<int>();
    const std::size_t np = static_cast<std::size_t>(a.size());
    const mla::PairCohen pc = mla::pair_cohen(v, codes, a.begin(), b.begin(), np, single,
                                              [&](std::size_t r) { return cat[r]; });
    Rcpp::NumericVector corpus(pc.corpus.begin(), pc.corpus.end());
    Rcpp::NumericMatrix label(static_cast<int>(np), static_cast<int>(v.n_labels));
    std::copy(pc.label.begin(), pc.label.end(), label.begin());
    return Rcpp::List::create(Rcpp::Named("corpus") = glue::nan_to_na(corpus),
                              Rcpp::Named("label") = glue::nan_to_na(label));
  });
}
