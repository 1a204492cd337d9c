// R glue for the annotator model: the records as one decision list per
// problem (mlagreement/annotator_model.h), the estimates as R vectors.
#include <Rcpp.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "glue-interrupt.h"
#include "glue-view.h"
#include "mlagreement/annotator_model_fit.h"
#include "mlagreement/annotator_model_info.h"

namespace {

using mlagreement::ClassProblem;

// The records' responses grouped by item, in record order: response(r) is
// record r's response, or negative when the record is absent.
template <typename T, typename Response>
ClassProblem grouped_problem(const mlagreement::RecordView<T>& v, Response response) {
  ClassProblem pr;
  pr.n_items = v.n_items;
  pr.start.assign(v.n_items + 1, 0);
  for (std::size_t r = 0; r < v.n_records; ++r)
    if (response(r) >= 0) ++pr.start[v.item_of(r) + 1];
  for (std::size_t i = 0; i < v.n_items; ++i) pr.start[i + 1] += pr.start[i];
  std::vector<std::int64_t> next(pr.start.begin(), pr.start.end() - 1);
  pr.annotator.resize(static_cast<std::size_t>(pr.start[v.n_items]));
  pr.response.resize(pr.annotator.size());
  for (std::size_t r = 0; r < v.n_records; ++r) {
    const int y = response(r);
    if (y < 0) continue;
    const std::int64_t d = next[v.item_of(r)]++;
    pr.annotator[d] = static_cast<int>(v.annotator_of(r));
    pr.response[d] = static_cast<std::uint8_t>(y);
  }
  return pr;
}

// The decisions of label column j (binary).
template <typename T, typename Codes>
ClassProblem binary_problem(const mlagreement::RecordView<T>& v, const Codes& codes,
                            std::size_t j) {
  const T* col = v.column(j);
  return grouped_problem(v, [&](std::size_t r) {
    return codes.decided(col[r]) ? static_cast<int>(codes.positive(col[r])) : -1;
  });
}

// One problem whose response is the category (column) a record selects;
// records without decisions are absent (single-label records are all
// decided with exactly one positive, or all missing: checked in R).
template <typename T, typename Codes>
ClassProblem category_problem(const mlagreement::RecordView<T>& v, const Codes& codes) {
  std::vector<int> cat(v.n_records, -1);
  for (std::size_t j = 0; j < v.n_labels; ++j) {
    const T* col = v.column(j);
    for (std::size_t r = 0; r < v.n_records; ++r)
      if (codes.decided(col[r]) && codes.positive(col[r])) cat[r] = static_cast<int>(j);
  }
  return grouped_problem(v, [&](std::size_t r) { return cat[r]; });
}

Rcpp::List wrap_fit(const std::vector<ClassProblem>& problems, std::size_t n_annotators,
                    const mlagreement::ClassModelOptions& o,
                    const mlagreement::ClassModelFit& fit, bool single, bool info) {
  const int q = o.q;
  const std::size_t n_prob = problems.size();
  const std::size_t n_items = problems[0].n_items;
  // multi-label: items x labels of P(z = 1); single-label: items x categories
  const int n_col = single ? q : static_cast<int>(n_prob);
  Rcpp::NumericMatrix post(static_cast<int>(n_items), n_col), prev(q, static_cast<int>(n_prob));
  Rcpp::IntegerMatrix item_n(static_cast<int>(n_items), static_cast<int>(n_prob));
  Rcpp::IntegerMatrix ann_n(static_cast<int>(n_annotators), static_cast<int>(n_prob));
  for (std::size_t j = 0; j < n_prob; ++j) {
    const ClassProblem& pr = problems[j];
    for (int z = 0; z < q; ++z) prev(z, static_cast<int>(j)) = fit.prevalence[j][z];
    for (std::size_t i = 0; i < n_items; ++i) {
      item_n(static_cast<int>(i), static_cast<int>(j)) =
          static_cast<int>(pr.start[i + 1] - pr.start[i]);
      if (single) {
        for (int z = 0; z < q; ++z) post(static_cast<int>(i), z) = fit.posterior[j][i * q + z];
      } else {
        post(static_cast<int>(i), static_cast<int>(j)) = fit.posterior[j][i * 2 + 1];
      }
    }
    for (int a : pr.annotator) ++ann_n(a, static_cast<int>(j));
  }
  Rcpp::List conf(fit.confusion.size());
  for (std::size_t g = 0; g < fit.confusion.size(); ++g)
    conf[g] = Rcpp::NumericVector(fit.confusion[g].begin(), fit.confusion[g].end());
  Rcpp::List info_list;
  if (info) {
    const auto I =
        single ? std::vector<std::vector<double>>{mlagreement::class_information(
                     problems[0], n_annotators, o, fit)}
               : mlagreement::observed_information(problems, n_annotators, o, fit);
    for (const auto& m : I) {
      const int P = static_cast<int>(std::sqrt(static_cast<double>(m.size())) + 0.5);
      Rcpp::NumericMatrix h(P, P);
      std::copy(m.begin(), m.end(), h.begin());
      info_list.push_back(h);
    }
  }
  return Rcpp::List::create(
      Rcpp::Named("posterior") = glue::nan_to_na(post), Rcpp::Named("prevalence") = prev,
      Rcpp::Named("confusion") = conf,
      Rcpp::Named("trace") = Rcpp::NumericVector(fit.trace.begin(), fit.trace.end()),
      Rcpp::Named("iterations") = fit.iterations, Rcpp::Named("converged") = fit.converged,
      Rcpp::Named("item_n") = item_n, Rcpp::Named("annotator_n") = ann_n,
      Rcpp::Named("information") = info_list);
}

}  // namespace

// view: annotation_view() of the object (values validated as 0/1/NA);
// single: one problem with a category per record (single-label designs);
// info: also the observed information (one matrix per parameter group).
// [[Rcpp::export(rng = false)]]
Rcpp::List annotator_model_cpp(const Rcpp::List& view, bool single, bool one_coin, bool pooled,
                               int max_iter, double tol, bool accelerate, double floor,
                               int threads, bool info) {
  return glue::with_record_view(view, [&](const auto& v, const auto& codes) {
    mlagreement::check_view_extents(v);
    std::vector<ClassProblem> problems;
    if (single) {
      problems.push_back(category_problem(v, codes));
    } else {
      problems.resize(v.n_labels);
      for (std::size_t j = 0; j < v.n_labels; ++j) problems[j] = binary_problem(v, codes, j);
    }
    mlagreement::ClassModelOptions o;
    o.q = single ? static_cast<int>(v.n_labels) : 2;
    o.one_coin = one_coin;
    o.pooled = pooled && !single;
    o.max_iter = max_iter;
    o.tol = tol;
    o.accelerate = accelerate;
    o.floor = floor;
    o.threads = threads;
    mlagreement::ClassModelFit fit;
    {
      glue::InterruptScope interrupts;
      fit = mlagreement::fit_class_model(problems, v.n_annotators, o);
      interrupts.rethrow();
    }
    return wrap_fit(problems, v.n_annotators, o, fit, single, info && o.q >= 2);
  });
}
