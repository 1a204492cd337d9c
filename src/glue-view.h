// Shared glue: the bundle annotation_view() builds in R (R/annotations.R)
// as a core RecordView of the right value type; NaN to NA.
#ifndef MLAGREEMENT_GLUE_VIEW_H
#define MLAGREEMENT_GLUE_VIEW_H

#include <Rcpp.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <type_traits>

#include "glue-memory.h"
#include "mlagreement/boot_units.h"
#include "mlagreement/counts.h"
#include "mlagreement/label_table.h"
#include "mlagreement/rng.h"

namespace glue {

// The unit design of the item bootstrap from R's 0-based vectors
// (unit_of_item: integer(0) when units are items; order/start: units
// grouped by stratum).
inline mlagreement::UnitDesign unit_design(std::size_t n_items, const Rcpp::IntegerVector& unit_of_item,
                            int n_units, const Rcpp::IntegerVector& order,
                            const Rcpp::IntegerVector& start) {
  mlagreement::UnitDesign u;
  u.n_items = n_items;
  u.n_units = static_cast<std::size_t>(n_units);
  u.unit_of_item = unit_of_item.size() > 0 ? unit_of_item.begin() : nullptr;
  u.order = order.begin();
  u.start = start.begin();
  u.n_strata = static_cast<std::size_t>(start.size() - 1);
  return u;
}

// The max_m x labels tables R holds (counting pass, `tally`) as a kernel table.
inline mlagreement::LabelTable label_table(const Rcpp::NumericMatrix& cnt, const Rcpp::NumericMatrix& sx,
                            const Rcpp::NumericMatrix& sdis) {
  mlagreement::LabelTable t;
  t.reset(static_cast<std::size_t>(cnt.ncol()), static_cast<std::size_t>(cnt.nrow()));
  std::copy(cnt.begin(), cnt.end(), t.cnt.begin());
  std::copy(sx.begin(), sx.end(), t.sx.begin());
  std::copy(sdis.begin(), sdis.end(), t.sdis.begin());
  return t;
}

// Undefined values (NaN in the core) become NA.
inline void nan_to_na(double* first, double* last) {
  for (double* p = first; p < last; ++p)
    if (std::isnan(*p)) *p = NA_REAL;
}
template <typename V>
V& nan_to_na(V& v) {
  nan_to_na(v.begin(), v.end());
  return v;
}
inline double nan_to_na(double x) { return std::isnan(x) ? NA_REAL : x; }

// Label tables (max_m x labels) and item disagreement of a counting pass
// (dense, records or sparse layout) as the R list count_labels() returns.
inline Rcpp::List wrap_tally(const mlagreement::TallyOutput& t,
                              const Rcpp::NumericVector& item_disagreement) {
  const int k = static_cast<int>(t.table.n_labels);
  const int mm = static_cast<int>(t.table.max_m);
  Rcpp::NumericMatrix cnt(mm, k), sx(mm, k), sdis(mm, k);
  for (std::size_t s = 0; s < t.table.cnt.size(); ++s) {
    cnt[s] = static_cast<double>(t.table.cnt[s]);
    sx[s] = static_cast<double>(t.table.sx[s]);
    sdis[s] = static_cast<double>(t.table.sdis[s]);
  }
  return Rcpp::List::create(Rcpp::Named("cnt") = cnt, Rcpp::Named("sx") = sx,
                            Rcpp::Named("sdis") = sdis,
                            Rcpp::Named("item_disagreement") = item_disagreement);
}

// The R vectors a counting pass (dense, records or sparse layout) writes
// into, and the list count_decisions_cpp() returns of them. x, m: items x k
// when kept (zeroed unless the pass writes every cell), else 0 x 0.
struct CountResult {
  Rcpp::IntegerMatrix x, m;
  Rcpp::IntegerVector item_annotators, annotator_records;
  Rcpp::NumericVector item_disagreement;  // NA where no label is pairable
  mlagreement::CountOutput out;
  mlagreement::TallyOutput tally;
  bool keep;

  CountResult(int n_items, int n_annotators, int k, int max_m, bool keep_xm, bool zeroed)
      : x(table(n_items, k, keep_xm, zeroed)), m(table(n_items, k, keep_xm, zeroed)),
        item_annotators(zeroed_vector<Rcpp::IntegerVector>(n_items)), annotator_records(n_annotators),
        item_disagreement(zeroed_vector<Rcpp::NumericVector>(n_items)),
        out{keep_xm ? x.begin() : nullptr, keep_xm ? m.begin() : nullptr, item_annotators.begin(),
            annotator_records.begin()},
        tally{{}, item_disagreement.begin()},
        keep(keep_xm) {
    tally.table.reset(static_cast<std::size_t>(k), static_cast<std::size_t>(max_m));
  }
  CountResult(const CountResult&) = delete;
  CountResult& operator=(const CountResult&) = delete;

  Rcpp::List wrap(double bad_index) {
    nan_to_na(item_disagreement);
    return Rcpp::List::create(
        Rcpp::Named("x") = keep ? static_cast<SEXP>(x) : R_NilValue,
        Rcpp::Named("m") = keep ? static_cast<SEXP>(m) : R_NilValue,
        Rcpp::Named("item_annotators") = item_annotators,
        Rcpp::Named("annotator_records") = annotator_records,
        Rcpp::Named("tally") = wrap_tally(tally, item_disagreement),
        Rcpp::Named("bad_index") = bad_index,
        Rcpp::Named("n_decisions") = static_cast<double>(out.n_decisions),
        Rcpp::Named("n_nonempty_records") = static_cast<double>(out.n_nonempty_records));
  }

 private:
  static Rcpp::IntegerMatrix table(int n_items, int k, bool keep_xm, bool zeroed) {
    if (!keep_xm) return Rcpp::IntegerMatrix(0, 0);
    Rcpp::IntegerMatrix t = fresh_matrix<Rcpp::IntegerMatrix>(n_items, k);
    if (zeroed) std::fill(t.begin(), t.end(), 0);
    return t;
  }
};

inline const int* ids_or_null(const Rcpp::IntegerVector& v) {
  return v.size() > 0 ? INTEGER_RO(v) : nullptr;
}

// Calls f(view, codes) with the view of `bundle` (values, n_labels: columns
// of values, label_cols: 0-based columns to read or integer(0) for all,
// item/annotator: 0-based ids or integer(0) for the dense layout, n_items,
// n_annotators) and the missing-value conventions of its storage type.
template <typename F>
auto with_record_view(const Rcpp::List& bundle, F&& f) {
  SEXP values = bundle["values"];
  const int n_labels = Rcpp::as<int>(bundle["n_labels"]);
  const Rcpp::IntegerVector label_cols = bundle["label_cols"];
  const Rcpp::IntegerVector item = bundle["item"];
  const Rcpp::IntegerVector annotator = bundle["annotator"];
  // every pass divides by these (records per label, dense record layout)
  if (n_labels < 1 || Rcpp::as<int>(bundle["n_items"]) < 1) {
    throw std::invalid_argument("Internal error: a record view needs labels and items.");
  }
  const std::size_t n_records =
      static_cast<std::size_t>(Rf_xlength(values)) / static_cast<std::size_t>(n_labels);
  const std::size_t k = label_cols.size() > 0 ? static_cast<std::size_t>(label_cols.size())
                                              : static_cast<std::size_t>(n_labels);
  const auto make = [&](const auto* first) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(first)>>;
    return mlagreement::RecordView<T>{
        first, n_records, k, ids_or_null(item),
        static_cast<std::size_t>(Rcpp::as<int>(bundle["n_items"])), ids_or_null(annotator),
        static_cast<std::size_t>(Rcpp::as<int>(bundle["n_annotators"])), ids_or_null(label_cols)};
  };
  switch (TYPEOF(values)) {
    case INTSXP: return f(make(INTEGER_RO(values)), mlagreement::IntCodes{});
    case LGLSXP: return f(make(LOGICAL_RO(values)), mlagreement::IntCodes{});
    case REALSXP: return f(make(REAL_RO(values)), mlagreement::RealCodes{});
    default: Rcpp::stop("Internal error: unsupported storage type for `values`.");
  }
}

// A fixed set of values (one per baseline or coefficient) as an R vector.
template <std::size_t N>
Rcpp::NumericVector na_vector(const double (&v)[N]) {
  Rcpp::NumericVector out(v, v + N);
  return nan_to_na(out);
}

// A corpus pass's sums (CorpusInfluence, influence_sums.h) as R's
// list(sum_sq, n, observed_sum_sq): the coefficients' per baseline, the items
// sampled, then percent agreement's.
template <typename CorpusInfluence>
Rcpp::List wrap_corpus_influence(const CorpusInfluence& f) {
  Rcpp::NumericVector observed = Rcpp::NumericVector::create(f.observed.sum_sq[0]);
  return Rcpp::List::create(Rcpp::Named("sum_sq") = na_vector(f.coefficient.sum_sq),
                            Rcpp::Named("n") = f.coefficient.n,
                            Rcpp::Named("observed_sum_sq") = nan_to_na(observed));
}

// run(seed, stream) for every stream of an item bootstrap in turn, Ctrl-C
// checked between streams: the draws of boot_items_cpp() for the same seed.
template <typename F>
void for_each_stream(const Rcpp::IntegerVector& seed, F&& run) {
  const std::uint64_t s = mlagreement::combine_seed(seed[0], seed[1]);
  for (int stream = 0; stream < mlagreement::kStreams; ++stream) {
    Rcpp::checkUserInterrupt();
    run(s, stream);
  }
}

// Leave-one-unit-out values (units x n_col) that fill(n_units, out) writes;
// unit_start: R's 0-based unit offsets (one more than units).
template <typename F>
Rcpp::NumericMatrix unit_rows(const Rcpp::IntegerVector& unit_start, int n_col, F&& fill) {
  const std::size_t nu = static_cast<std::size_t>(unit_start.size() - 1);
  Rcpp::NumericMatrix out(static_cast<int>(nu), n_col);
  fill(nu, out.begin());
  return nan_to_na(out);
}

}  // namespace glue

#endif
