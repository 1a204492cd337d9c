// Unit-test harness for the counting pass and the estimator kernel of
// inst/include/mlagreement/: value codes (counts.h), the tally (tally.h,
// label_table.h), Hamming estimates (estimators.h, replicate_stats.h,
// single_label.h), the analytic standard errors' sums (influence.h,
// influence_sums.h over cell_codes.h's CountCells), weighted single-label
// agreement (weighted_agreement.h) and the coincidence alphas and weights
// (coincidence.h). Compiled with Rcpp::sourceCpp() against the installed
// headers by cpp_harness() in helper-cpp.R; the checks, against values
// worked out by hand, are in test-cpp-estimators.R. Undefined values stay
// NaN here (the package's glue turns them into NA).
// [[Rcpp::depends(RcppArmadillo, dqrng)]]
// RcppArmadillo's plugin asks for C++11, older than the headers' standard
// [[Rcpp::plugins(cpp17)]]
#include <RcppArmadillo.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "mlagreement/agreement_shares.h"
#include "mlagreement/coincidence.h"
#include "mlagreement/counts.h"
#include "mlagreement/estimators.h"
#include "mlagreement/influence.h"
#include "mlagreement/label_groups.h"
#include "mlagreement/structure_records.h"
#include "mlagreement/nominal_floor.h"
#include "mlagreement/replicate_stats.h"
#include "mlagreement/single_label.h"
#include "mlagreement/structured_influence.h"
#include "mlagreement/tally.h"
#include "mlagreement/weighted_agreement.h"

namespace mla = mlagreement;

namespace {

// The tally of items x labels tables x, m and the kernel's label summaries.
struct Fit {
  std::size_t n_items = 0, k = 0, max_m = 0;
  mla::IntTable table;
  std::vector<double> item_d;  // NaN where no label is pairable
  std::vector<mla::LabelSummary> labels;
};

Fit fit_of(const Rcpp::IntegerMatrix& x, const Rcpp::IntegerMatrix& m) {
  if (x.nrow() != m.nrow() || x.ncol() != m.ncol()) Rcpp::stop("x and m differ in shape");
  Fit f;
  f.n_items = static_cast<std::size_t>(x.nrow());
  f.k = static_cast<std::size_t>(x.ncol());
  f.max_m = m.size() > 0 ? static_cast<std::size_t>(Rcpp::max(m)) : 0;
  f.item_d.assign(f.n_items, 0.0);
  mla::TallyOutput out{mla::IntTable(), f.item_d.data()};
  mla::tally_counts(x.begin(), m.begin(), f.n_items, f.k, f.max_m, 1, out);
  f.table = out.table;
  for (std::size_t j = 0; j < f.k; ++j) f.labels.push_back(mla::summarise_label(f.table, j));
  return f;
}

template <typename V>
Rcpp::NumericMatrix table_matrix(const V& v, std::size_t rows, std::size_t cols) {
  Rcpp::NumericMatrix out(static_cast<int>(rows), static_cast<int>(cols));
  for (std::size_t s = 0; s < v.size(); ++s) out[static_cast<R_xlen_t>(s)] = static_cast<double>(v[s]);
  return out;
}

Rcpp::NumericVector three(const double* v) { return Rcpp::NumericVector(v, v + mla::kBaselines); }

Rcpp::List influence_list(const mla::Influence& f) {
  return Rcpp::List::create(Rcpp::Named("sum_sq") = three(f.sum_sq), Rcpp::Named("n") = f.n);
}

// A corpus pass: the coefficients' sums and percent agreement's.
Rcpp::List influence_list(const mla::CorpusInfluence& f) {
  Rcpp::List out = influence_list(f.coefficient);
  out["observed_sum_sq"] = f.observed.sum_sq[0];
  return out;
}

}  // namespace

// ---------------------------------------------------------- value codes ----
template <typename Codes, typename T>
Rcpp::IntegerMatrix classify(const Codes& codes, const T* v, R_xlen_t n) {
  Rcpp::IntegerMatrix out(n, 3);
  for (R_xlen_t i = 0; i < n; ++i) {
    out(i, 0) = codes.decided(v[i]);
    out(i, 1) = codes.invalid(v[i]) != 0 ? 1 : 0;
    out(i, 2) = codes.positive(v[i]);
  }
  Rcpp::colnames(out) = Rcpp::CharacterVector::create("decided", "invalid", "positive");
  return out;
}

// The counting pass's classification of each value (integer, logical or
// double storage): decided, invalid, positive.
// [[Rcpp::export]]
Rcpp::IntegerMatrix value_codes(SEXP v) {
  switch (TYPEOF(v)) {
    case INTSXP: return classify(mla::IntCodes{}, INTEGER_RO(v), Rf_xlength(v));
    case LGLSXP: return classify(mla::IntCodes{}, LOGICAL_RO(v), Rf_xlength(v));
    case REALSXP: return classify(mla::RealCodes{}, REAL_RO(v), Rf_xlength(v));
    default: Rcpp::stop("unsupported type");
  }
}

// ----------------------------------------------------------------- tally ----
// The tally of x, m (items x labels): cnt, sx, sdis (max_m x labels, row m)
// and each item's disagreement (mean over its pairable labels).
// [[Rcpp::export]]
Rcpp::List tally_table(const Rcpp::IntegerMatrix& x, const Rcpp::IntegerMatrix& m) {
  const Fit f = fit_of(x, m);
  return Rcpp::List::create(
      Rcpp::Named("cnt") = table_matrix(f.table.cnt, f.max_m, f.k),
      Rcpp::Named("sx") = table_matrix(f.table.sx, f.max_m, f.k),
      Rcpp::Named("sdis") = table_matrix(f.table.sdis, f.max_m, f.k),
      Rcpp::Named("item_disagreement") = Rcpp::NumericVector(f.item_d.begin(), f.item_d.end()));
}

// ------------------------------------------------------------ estimators ----
// Label level: the summaries' fields (one per label) and labels x baselines
// matrices of chance disagreement, coefficient, floor, reason and eq. 6 weight.
// [[Rcpp::export]]
Rcpp::List kernel_labels(const Rcpp::IntegerMatrix& x, const Rcpp::IntegerMatrix& m) {
  const Fit f = fit_of(x, m);
  const int k = static_cast<int>(f.k);
  Rcpp::NumericVector n_rated(k), n_pairable(k), p(k), q(k), d_obs(k), d_max(k), pos(k), neg(k);
  Rcpp::NumericMatrix chance(k, mla::kBaselines), estimate(k, mla::kBaselines),
      floor(k, mla::kBaselines), weight(k, mla::kBaselines);
  Rcpp::IntegerMatrix reason(k, mla::kBaselines);
  for (int b = 0; b < mla::kBaselines; ++b) {
    const std::vector<double> w = mla::label_weights(f.labels, b);
    for (int j = 0; j < k; ++j) weight(j, b) = w[static_cast<std::size_t>(j)];
  }
  for (int j = 0; j < k; ++j) {
    const mla::LabelSummary& s = f.labels[static_cast<std::size_t>(j)];
    n_rated[j] = s.n_rated;
    n_pairable[j] = s.n_pairable;
    p[j] = s.p;
    q[j] = s.q;
    d_obs[j] = s.d_obs;
    d_max[j] = s.d_max;
    pos[j] = mla::ratio_or_nan(s.pos_num, s.pos_den);
    neg[j] = mla::ratio_or_nan(s.neg_num, s.neg_den);
    for (int b = 0; b < mla::kBaselines; ++b) {
      chance(j, b) = mla::label_chance_disagreement(s, b);
      estimate(j, b) = mla::label_coefficient(s, b);
      floor(j, b) = mla::label_floor(s, b);
      reason(j, b) = mla::label_reason(s, b);
    }
  }
  return Rcpp::List::create(
      Rcpp::Named("n_rated") = n_rated, Rcpp::Named("n_pairable") = n_pairable,
      Rcpp::Named("p") = p, Rcpp::Named("q") = q, Rcpp::Named("d_obs") = d_obs,
      Rcpp::Named("d_max") = d_max, Rcpp::Named("positive") = pos, Rcpp::Named("negative") = neg,
      Rcpp::Named("chance") = chance, Rcpp::Named("estimate") = estimate,
      Rcpp::Named("floor") = floor, Rcpp::Named("reason") = reason,
      Rcpp::Named("weight") = weight);
}

// Corpus level (means over labels with a pairable item) and the item rows:
// observed disagreement and its coefficient against each corpus chance
// disagreement (items x baselines).
// [[Rcpp::export]]
Rcpp::List kernel_corpus(const Rcpp::IntegerMatrix& x, const Rcpp::IntegerMatrix& m) {
  const Fit f = fit_of(x, m);
  const mla::CorpusSummary c = mla::summarise_corpus(f.labels);
  const int n = static_cast<int>(f.n_items);
  Rcpp::NumericVector item_d(n);
  Rcpp::NumericMatrix item_coef(n, mla::kBaselines);
  for (int i = 0; i < n; ++i) {
    item_d[i] = f.item_d[static_cast<std::size_t>(i)];
    for (int b = 0; b < mla::kBaselines; ++b) item_coef(i, b) = mla::item_coefficient(item_d[i], c.w[b]);
  }
  return Rcpp::List::create(
      Rcpp::Named("n_labels_used") = c.n_labels_used, Rcpp::Named("d_obs") = c.d_obs,
      Rcpp::Named("d_max") = c.d_max, Rcpp::Named("w") = three(c.w),
      Rcpp::Named("estimate") = three(c.estimate), Rcpp::Named("floor") = three(c.floor),
      Rcpp::Named("reason") = Rcpp::IntegerVector(c.reason, c.reason + mla::kBaselines),
      Rcpp::Named("item_d") = item_d, Rcpp::Named("item_coef") = item_coef);
}

// Hamming alpha's observed and expected disagreement; for one-hot tables of
// a single-label design, the corpus coefficients and nominal alpha.
// [[Rcpp::export]]
Rcpp::List kernel_alpha(const Rcpp::IntegerMatrix& x, const Rcpp::IntegerMatrix& m) {
  const Fit f = fit_of(x, m);
  const mla::HammingAlpha h = mla::hamming_alpha(f.table);
  const mla::SingleLabelCorpus sl = mla::summarise_single_label(f.labels);
  const std::vector<double> cnt(f.table.cnt.begin(), f.table.cnt.end()),
      sx(f.table.sx.begin(), f.table.sx.end()), sdis(f.table.sdis.begin(), f.table.sdis.end());
  const mla::NominalAlpha na = mla::nominal_alpha(cnt.data(), sx.data(), sdis.data(), f.max_m, f.k);
  return Rcpp::List::create(
      Rcpp::Named("hamming") = Rcpp::NumericVector::create(
          Rcpp::Named("observed") = h.observed, Rcpp::Named("expected") = h.expected,
          Rcpp::Named("n_labels_used") = h.n_labels_used),
      Rcpp::Named("single") = Rcpp::List::create(Rcpp::Named("d_obs") = sl.d_obs,
                                                 Rcpp::Named("w") = three(sl.w),
                                                 Rcpp::Named("estimate") = three(sl.estimate)),
      Rcpp::Named("nominal") = Rcpp::NumericVector::create(
          Rcpp::Named("d_obs") = na.d_obs, Rcpp::Named("d_exp") = na.d_exp,
          Rcpp::Named("alpha") = na.alpha));
}

// An annotator pair's pooled coefficient from its label counts (one row per
// label: n2, dis, n1, psum), and the pool of the pairs given with their
// shared items (pair: 0-based pair of each row).
// [[Rcpp::export]]
Rcpp::List pair_pooled(const Rcpp::NumericMatrix& rows, const Rcpp::IntegerVector& pair,
                       const Rcpp::NumericVector& n_items) {
  struct Row {
    double n2, dis, n1, psum;
  };
  mla::PairPool pool;
  Rcpp::NumericMatrix est(n_items.size(), 4);
  for (R_xlen_t v = 0; v < n_items.size(); ++v) {
    std::vector<Row> labels;
    for (int r = 0; r < rows.nrow(); ++r) {
      if (pair[r] == v) labels.push_back({rows(r, 0), rows(r, 1), rows(r, 2), rows(r, 3)});
    }
    const mla::PairEstimate e = mla::pooled_pair(labels.data(), labels.size());
    pool.add(e, n_items[v]);
    est(v, 0) = e.observed;
    est(v, 1) = e.d_obs;
    est(v, 2) = e.w;
    est(v, 3) = e.estimate;
  }
  Rcpp::colnames(est) = Rcpp::CharacterVector::create("observed", "d_obs", "w", "estimate");
  return Rcpp::List::create(Rcpp::Named("pairs") = est,
                            Rcpp::Named("pooled") = Rcpp::NumericVector::create(
                                Rcpp::Named("observed") = pool.observed(),
                                Rcpp::Named("estimate") = pool.estimate()));
}

// ------------------------------------------------------------- influence ----
// The analytic SE's sums over the cells of x, m (CountCells; side 0 reads
// cell by cell, side > max(m) by class when side^2 <= items): labels x
// baselines sums, items per label and the labels' percent / positive /
// negative agreement sums, the corpus sums, and the single-label corpus sums
// of one-hot tables.
// [[Rcpp::export]]
Rcpp::List influence_sums(const Rcpp::IntegerMatrix& x, const Rcpp::IntegerMatrix& m, int side) {
  const Fit f = fit_of(x, m);
  const mla::CountCells cells{x.begin(), m.begin(), f.n_items, f.k, static_cast<std::size_t>(side)};
  Rcpp::NumericMatrix label_sq(static_cast<int>(f.k), mla::kBaselines);
  Rcpp::NumericMatrix share_sq(static_cast<int>(f.k), mla::kShares);
  Rcpp::NumericVector label_n(static_cast<int>(f.k));
  for (std::size_t j = 0; j < f.k; ++j) {
    const mla::LabelInfluence l = mla::label_influence(cells, j, f.labels[j]);
    label_n[static_cast<R_xlen_t>(j)] = l.coefficient.n;
    for (int b = 0; b < mla::kBaselines; ++b) label_sq(static_cast<int>(j), b) = l.coefficient.sum_sq[b];
    for (int s = 0; s < mla::kShares; ++s) share_sq(static_cast<int>(j), s) = l.shares.sum_sq[s];
  }
  const mla::CorpusInfluence corpus = mla::corpus_influence(cells, f.labels, mla::summarise_corpus(f.labels));
  const mla::SingleLabelCorpus sl = mla::summarise_single_label(f.labels);
  std::vector<double> pi(f.k);
  for (std::size_t j = 0; j < f.k; ++j) pi[j] = f.labels[j].p;
  const mla::CorpusInfluence single = mla::single_label_influence(cells, f.labels, pi, sl);
  return Rcpp::List::create(
      Rcpp::Named("label") = Rcpp::List::create(Rcpp::Named("sum_sq") = label_sq,
                                                Rcpp::Named("n") = label_n,
                                                Rcpp::Named("share_sum_sq") = share_sq),
      Rcpp::Named("corpus") = influence_list(corpus), Rcpp::Named("single") = influence_list(single));
}

// Labels with structure: the corpus sums of free labels (0-based columns)
// and groups (first column, labels; "none" the next column) with weights u
// over the columns of x, m, and percent agreement's sum.
// [[Rcpp::export]]
Rcpp::List structured_sums(const Rcpp::IntegerMatrix& x, const Rcpp::IntegerMatrix& m,
                           const Rcpp::IntegerVector& free, const Rcpp::IntegerVector& group_first,
                           const Rcpp::IntegerVector& group_size, const Rcpp::NumericVector& u) {
  const Fit f = fit_of(x, m);
  mla::LabelTable t;
  t.reset(f.k, f.max_m);
  for (std::size_t s = 0; s < f.table.cnt.size(); ++s) {
    t.cnt[s] = static_cast<double>(f.table.cnt[s]);
    t.sx[s] = static_cast<double>(f.table.sx[s]);
    t.sdis[s] = static_cast<double>(f.table.sdis[s]);
  }
  const mla::CountCells cells{x.begin(), m.begin(), f.n_items, f.k, 0};
  std::vector<mla::StructureVariable> vars;
  for (int j : free) vars.push_back({static_cast<std::size_t>(j), 1, false});
  for (R_xlen_t g = 0; g < group_first.size(); ++g) {
    vars.push_back({static_cast<std::size_t>(group_first[g]), static_cast<std::size_t>(group_size[g]), true});
  }
  const mla::CorpusInfluence inf =
      mla::structured_influence(cells, t, vars, std::vector<double>(u.begin(), u.end()));
  return influence_list(inf);
}

// Each record's structure columns (label_groups.h) of a records x labels
// matrix of 0/1/NA (dense layout, one item) under a taxonomy (0-based
// parent, -1 for roots; closure order deepest first) and groups (0-based
// labels), -1 where undecided; bad: the first record breaking a group.
// [[Rcpp::export]]
Rcpp::List structure_columns(const Rcpp::IntegerMatrix& values, const Rcpp::IntegerVector& parent,
                             const Rcpp::IntegerVector& closure_order, const Rcpp::List& groups) {
  mla::LabelStructure s;
  s.parent.assign(parent.begin(), parent.end());
  s.closure_order.assign(closure_order.begin(), closure_order.end());
  for (R_xlen_t g = 0; g < groups.size(); ++g) {
    const Rcpp::IntegerVector labels = groups[g];
    s.groups.emplace_back(labels.begin(), labels.end());
  }
  const std::size_t n = static_cast<std::size_t>(values.nrow());
  const mla::RecordView<int> v{values.begin(), n, static_cast<std::size_t>(values.ncol()), nullptr, n,
                               nullptr, 1};
  std::size_t n_cols = s.parent.size();
  for (const std::vector<int>& g : s.groups) n_cols += g.size() + 1;
  Rcpp::IntegerMatrix out(static_cast<int>(n), static_cast<int>(n_cols));
  int bad_group = -1;
  const std::int64_t bad = mla::structure_records(v, mla::IntCodes{}, s, -1, out.begin(), bad_group);
  return Rcpp::List::create(Rcpp::Named("columns") = out, Rcpp::Named("bad") = static_cast<double>(bad),
                            Rcpp::Named("bad_group") = bad_group);
}

// The eq. 7 floor of a nominal variable (nominal_floor.h): the largest mean
// disagreement over pairable items; n_items[s] items with s + 1 decisions,
// totals per category. NaN when undefined or beyond max_work.
// [[Rcpp::export]]
double nominal_max_disagreement(const Rcpp::NumericVector& n_items, const Rcpp::NumericVector& totals,
                                double max_work = 2e8) {
  const mla::NominalFloor f = mla::nominal_floor(std::vector<double>(n_items.begin(), n_items.end()),
                                                 std::vector<double>(totals.begin(), totals.end()), max_work);
  return f.defined ? f.d_max.value() : NAN;
}

// ------------------------------------------------------ weighted / alpha ----
// Weighted Fleiss, AC2 and Brennan-Prediger of items x categories counts X
// with agreement weights W: estimates, prevalences, influence sums, and the
// influence sum of weighted percent agreement (the same pass).
// [[Rcpp::export]]
Rcpp::List weighted_fit(const arma::mat& X, const arma::mat& W) {
  const mla::WeightedItems it = mla::weighted_items(X, W);
  const mla::WeightedAgreement a = mla::weighted_agreement(it);
  const mla::CorpusInfluence f = mla::weighted_influence(it);
  return Rcpp::List::create(
      Rcpp::Named("d_obs") = a.d_obs, Rcpp::Named("w") = three(a.w),
      Rcpp::Named("estimate") = three(a.estimate),
      Rcpp::Named("pi") = Rcpp::NumericVector(a.pi.begin(), a.pi.end()),
      Rcpp::Named("influence") = influence_list(f.coefficient),
      Rcpp::Named("observed_sum_sq") = f.observed.sum_sq[0]);
}

// Krippendorff's alpha parts of counts X under a metric (0 nominal,
// 1 ordinal, 2 interval, 3 ratio) with category values.
// [[Rcpp::export]]
Rcpp::List coincidence_fit(const arma::mat& X, int metric, const arma::vec& values) {
  const mla::CoincidenceAlpha a =
      mla::coincidence_alpha(X, static_cast<mla::CategoryMetric>(metric), values);
  return Rcpp::List::create(Rcpp::Named("d_obs") = a.d_obs, Rcpp::Named("d_exp") = a.d_exp,
                            Rcpp::Named("n_items") = a.n_items, Rcpp::Named("n_values") = a.n_values,
                            Rcpp::Named("coincidence") = a.coincidence, Rcpp::Named("delta") = a.delta);
}

// irrCAC's weight matrix of a scheme (0 identity ... 7 bipolar) for values.
// [[Rcpp::export]]
arma::mat category_weights(int scheme, const arma::vec& values) {
  return mla::agreement_weights(static_cast<mla::WeightScheme>(scheme), values);
}
