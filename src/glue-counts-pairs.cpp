// R glue for the annotator-pair tables of a summary
// (R/annotation-counts-pairs.R): pairs.h's per-pair label counts from the
// records, and the pair statistics from those counts (detail::reduce_pairs()).
#include <Rcpp.h>

#include <cstdint>
#include <vector>

#include "glue-pairs.h"
#include "glue-view.h"
#include "mlagreement/pairs.h"

namespace {

bool never_interrupted() { return false; }

template <typename T, typename Codes>
Rcpp::List pair_tables(const mlagreement::RecordView<T>& v, const Codes& codes) {
  mlagreement::PairResult res;
  mlagreement::detail::ItemBuckets items = mlagreement::detail::count_annotators(v, codes, res);
  std::vector<mlagreement::detail::PairLabel> lab;
  mlagreement::detail::PairLabelCounter<T, Codes> counter{v, codes, res, lab, std::vector<T>(v.n_labels)};
  mlagreement::detail::visit_item_pairs(items, v.n_annotators, v.n_labels, counter, never_interrupted);
  const std::size_t n = lab.size();
  Rcpp::NumericVector n2(n), dis(n), n1(n), psum(n);
  for (std::size_t x = 0; x < n; ++x) {
    n2[x] = lab[x].n2;
    dis[x] = lab[x].dis;
    n1[x] = lab[x].n1;
    psum[x] = lab[x].psum;
  }
  return Rcpp::List::create(
      Rcpp::Named("a") = Rcpp::IntegerVector(res.a.begin(), res.a.end()),
      Rcpp::Named("b") = Rcpp::IntegerVector(res.b.begin(), res.b.end()),
      Rcpp::Named("n_items") = Rcpp::wrap(res.n_items),
      Rcpp::Named("n2") = n2, Rcpp::Named("dis") = dis, Rcpp::Named("n1") = n1,
      Rcpp::Named("psum") = psum,
      Rcpp::Named("ann_positives") = Rcpp::wrap(res.ann_positives),
      Rcpp::Named("ann_decisions") = Rcpp::wrap(res.ann_decisions),
      Rcpp::Named("ann_items") = Rcpp::wrap(res.ann_items));
}

}  // namespace

// The raw pair counts of a view (annotation_view() of every label): pairs
// (0-based a < b) with their shared items, and per pair k label counts
// (pair-major: label fastest); per annotator positives, decisions, records.
// [[Rcpp::export(rng = false)]]
Rcpp::List counts_pair_tables_cpp(const Rcpp::List& view) {
  return glue::with_record_view(view, [](const auto& v, const auto& codes) {
    return pair_tables(v, codes);
  });
}

// annotator_agreement()'s pair sums (the list pair_sums_cpp() returns) from
// the raw counts: label counts pair-major, k per pair.
// [[Rcpp::export(rng = false)]]
Rcpp::List counts_pair_reduce_cpp(const Rcpp::IntegerVector& a, const Rcpp::IntegerVector& b,
                                  const Rcpp::NumericVector& n_items, const Rcpp::NumericVector& n2,
                                  const Rcpp::NumericVector& dis, const Rcpp::NumericVector& n1,
                                  const Rcpp::NumericVector& psum, int k,
                                  const Rcpp::NumericVector& ann_positives,
                                  const Rcpp::NumericVector& ann_decisions,
                                  const Rcpp::NumericVector& ann_items) {
  mlagreement::PairResult res;
  res.a.assign(a.begin(), a.end());
  res.b.assign(b.begin(), b.end());
  res.n_items.assign(n_items.begin(), n_items.end());
  res.ann_positives.assign(ann_positives.begin(), ann_positives.end());
  res.ann_decisions.assign(ann_decisions.begin(), ann_decisions.end());
  res.ann_items.assign(ann_items.begin(), ann_items.end());
  const std::size_t n = static_cast<std::size_t>(n2.size());
  if (n != res.a.size() * static_cast<std::size_t>(k)) {
    Rcpp::stop("Internal error: the pair label counts have the wrong size.");
  }
  std::vector<mlagreement::detail::PairLabel> lab(n);
  for (std::size_t x = 0; x < n; ++x) {
    lab[x].n2 = static_cast<std::uint32_t>(n2[x]);
    lab[x].dis = static_cast<std::uint32_t>(dis[x]);
    lab[x].n1 = static_cast<std::uint32_t>(n1[x]);
    lab[x].psum = static_cast<std::uint32_t>(psum[x]);
  }
  mlagreement::detail::reduce_pairs(lab.data(), static_cast<std::size_t>(k), res.ann_items.size(), res);
  return glue::wrap_pair_result(res);
}
