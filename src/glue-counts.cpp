// R glue for the counting pass: unwrap, call the core, wrap. Nothing else.
#include <Rcpp.h>

#include <climits>

#include "mlagreement/counts.h"

#ifdef _OPENMP
#include <omp.h>
#endif

// Label tables (max_m x labels) and item disagreement as an R list.
static Rcpp::List wrap_tally(const mlagreement::TallyOutput& t, const Rcpp::NumericVector& d_sum,
                      const Rcpp::IntegerVector& n_pairable) {
  const int k = static_cast<int>(t.table.n_labels);
  const int mm = static_cast<int>(t.table.max_m);
  Rcpp::NumericMatrix cnt(mm, k), sx(mm, k), sdis(mm, k);
  for (std::size_t s = 0; s < t.table.cnt.size(); ++s) {
    cnt[s] = static_cast<double>(t.table.cnt[s]);
    sx[s] = static_cast<double>(t.table.sx[s]);
    sdis[s] = static_cast<double>(t.table.sdis[s]);
  }
  return Rcpp::List::create(Rcpp::Named("cnt") = cnt, Rcpp::Named("sx") = sx,
                            Rcpp::Named("sdis") = sdis, Rcpp::Named("d_sum") = d_sum,
                            Rcpp::Named("n_pairable") = n_pairable);
}

namespace {

template <typename T, typename Codes>
Rcpp::List run_counts(const T* values, R_xlen_t n_values, int n_labels,
                      const Rcpp::IntegerVector& label_cols, const Rcpp::IntegerVector& item,
                      int n_items, const Rcpp::IntegerVector& annotator, int n_annotators,
                      int max_m, bool keep_counts, int threads, const Codes& codes) {
  const std::size_t n_records = static_cast<std::size_t>(n_values) / static_cast<std::size_t>(n_labels);
  // labels counted: the columns in label_cols, or all
  const bool subset = label_cols.size() > 0;
  const std::size_t k = subset ? static_cast<std::size_t>(label_cols.size())
                               : static_cast<std::size_t>(n_labels);
  if (subset) n_labels = static_cast<int>(k);
  // The dense pass needs no item x label tables for its label tables and
  // writes every cell once when asked to keep them (so no zero fill); the
  // records pass scatters into zeroed tables, so it always keeps them.
  const bool dense = item.size() == 0;
  const bool keep = keep_counts || !dense;
  Rcpp::IntegerMatrix x = !keep ? Rcpp::IntegerMatrix(0, 0)
                          : dense ? Rcpp::IntegerMatrix(Rcpp::no_init(n_items, n_labels))
                                  : Rcpp::IntegerMatrix(n_items, n_labels);
  Rcpp::IntegerMatrix m = !keep ? Rcpp::IntegerMatrix(0, 0)
                          : dense ? Rcpp::IntegerMatrix(Rcpp::no_init(n_items, n_labels))
                                  : Rcpp::IntegerMatrix(n_items, n_labels);
  Rcpp::IntegerVector item_annotators(n_items), annotator_records(n_annotators);
  Rcpp::NumericVector d_sum(n_items);
  Rcpp::IntegerVector n_pairable(n_items);
  mlagreement::RecordView<T> view{values, n_records, k,
                                  item.size() > 0 ? INTEGER_RO(item) : nullptr,
                                  static_cast<std::size_t>(n_items),
                                  annotator.size() > 0 ? INTEGER_RO(annotator) : nullptr,
                                  static_cast<std::size_t>(n_annotators),
                                  subset ? INTEGER_RO(label_cols) : nullptr};
  mlagreement::CountOutput out{keep ? x.begin() : nullptr, keep ? m.begin() : nullptr,
                               item_annotators.begin(),
                               annotator_records.begin()};
  mlagreement::TallyOutput tally{{}, d_sum.begin(), n_pairable.begin()};
  tally.table.reset(k, static_cast<std::size_t>(max_m));
  mlagreement::count_decisions(view, codes, threads, out, tally);
  return Rcpp::List::create(
      Rcpp::Named("x") = keep ? static_cast<SEXP>(x) : R_NilValue,
      Rcpp::Named("m") = keep ? static_cast<SEXP>(m) : R_NilValue,
      Rcpp::Named("item_annotators") = item_annotators,
      Rcpp::Named("annotator_records") = annotator_records,
      Rcpp::Named("tally") = wrap_tally(tally, d_sum, n_pairable),
      Rcpp::Named("bad_index") = static_cast<double>(out.bad_index),
      Rcpp::Named("n_decisions") = static_cast<double>(out.n_decisions),
      Rcpp::Named("n_nonempty_records") = static_cast<double>(out.n_nonempty_records));
}

}  // namespace

// values: records x labels in R's column-major layout (a dense items x
// annotators x labels array already is one); n_labels: its columns;
// label_cols: 0-based columns to count (length 0: all; validated in R, and
// values are then known to be valid); item, annotator: 0-based ids of
// each record, or length 0 for the dense layout; max_m: the largest number of
// records of one item; keep_counts: return the items x labels tables x and m
// for the dense layout too (the records layout always returns them).
// Validated in R except the values, which are checked here in the same pass
// (bad_index >= 0 reports the first invalid one).
// [[Rcpp::export(rng = false)]]
Rcpp::List count_decisions_cpp(SEXP values, int n_labels, const Rcpp::IntegerVector& label_cols,
                               const Rcpp::IntegerVector& item,
                               int n_items, const Rcpp::IntegerVector& annotator,
                               int n_annotators, int max_m, bool keep_counts, int threads) {
  const R_xlen_t n = Rf_xlength(values);
  // IntCodes relies on R's integer and logical NA being INT_MIN.
  if (NA_INTEGER != INT_MIN || NA_LOGICAL != INT_MIN) {
    Rcpp::stop("Internal error: unexpected NA representation.");
  }
  switch (TYPEOF(values)) {
    case INTSXP:
      return run_counts(INTEGER_RO(values), n, n_labels, label_cols, item, n_items, annotator,
                        n_annotators, max_m, keep_counts, threads, mlagreement::IntCodes{});
    case LGLSXP:
      return run_counts(LOGICAL_RO(values), n, n_labels, label_cols, item, n_items, annotator,
                        n_annotators, max_m, keep_counts, threads, mlagreement::IntCodes{});
    case REALSXP:
      return run_counts(REAL_RO(values), n, n_labels, label_cols, item, n_items, annotator,
                        n_annotators, max_m, keep_counts, threads, mlagreement::RealCodes{});
    default:
      Rcpp::stop("Internal error: unsupported storage type for `values`.");
  }
}

// [[Rcpp::export(rng = false)]]
int max_threads_cpp() {
#ifdef _OPENMP
  return omp_get_num_procs();
#else
  return 1;
#endif
}
