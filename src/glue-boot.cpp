// R glue for the bootstrap engines (mlagreement/boot_*.h).
#include <Rcpp.h>

#include <cstdint>
#include <vector>

#include "glue-interrupt.h"
#include "glue-view.h"
#include "mlagreement/boot_items.h"
#include "mlagreement/boot_jackknife.h"
#include "mlagreement/boot_records.h"
#include "mlagreement/boot_streams.h"
#include "mlagreement/boot_units.h"

namespace {

namespace mla = mlagreement;

mla::CorpusStatistic corpus_statistic(bool single_label) {
  return single_label ? mla::CorpusStatistic::single_label : mla::CorpusStatistic::multi_label;
}


void nan_to_na(Rcpp::NumericMatrix& out) { glue::nan_to_na(out); }

// A structured fit's replicate statistics from R's description (NULL for
// other fits): n_closed, free (0-based columns), group_first, group_size,
// weights.
struct Structure {
  bool present = false;
  mla::StructureStats stats;
  const mla::StructureStats* get() const { return present ? &stats : nullptr; }
};

Structure structure_of(const Rcpp::Nullable<Rcpp::List>& description) {
  Structure s;
  if (description.isNull()) return s;
  const Rcpp::List d(description.get());
  s.present = true;
  s.stats.n_closed = static_cast<std::size_t>(Rcpp::as<int>(d["n_closed"]));
  const Rcpp::IntegerVector free = d["free"], first = d["group_first"], size = d["group_size"];
  for (int j : free) s.stats.vars.push_back({static_cast<std::size_t>(j), 1, false});
  for (R_xlen_t g = 0; g < first.size(); ++g) {
    s.stats.vars.push_back({static_cast<std::size_t>(first[g]), static_cast<std::size_t>(size[g]), true});
  }
  const Rcpp::NumericVector u = d["weights"];
  s.stats.u.assign(u.begin(), u.end());
  if (s.stats.u.size() != s.stats.vars.size()) Rcpp::stop("Internal error: one weight per variable expected.");
  return s;
}

mla::DrawnAnnotators drawn_annotators(const Rcpp::IntegerVector& slot, int n_drawn,
                                      bool single_label, const Structure& structure) {
  return mla::DrawnAnnotators{INTEGER_RO(slot), static_cast<std::size_t>(n_drawn),
                              corpus_statistic(single_label), structure.get()};
}

// Statistics per replicate: a structured fit's, or n_boot_stats() of k labels.
std::size_t n_stats(const Structure& s, std::size_t k) {
  return s.present ? s.stats.n_stats() : mla::n_boot_stats(k);
}

// A bootstrap run in chunks (boot_run() in R/boot.R): the streams' cursor and
// the R x n_stats replicate matrix, which the external pointer protects and
// only boot_run_result_cpp() hands out.
struct BootRun {
  mla::StreamCursor cursor;
  double* out;
  std::size_t n_out;
};

BootRun& boot_run_of(SEXP run) {
  Rcpp::XPtr<BootRun> p(run);
  if (p.get() == nullptr) Rcpp::stop("Internal error: the bootstrap run is no longer valid.");
  return *p;
}

// One chunk: up to per_stream replicates of every stream, then re-raises a
// Ctrl-C seen by the workers. Returns the replicates done so far.
template <typename MakeScratch, typename Replicate>
double run_chunk(BootRun& run, double per_stream, int threads, MakeScratch&& make_scratch,
                 Replicate&& replicate, const char* what) {
  Rcpp::checkUserInterrupt();  // main thread, between chunks
  glue::InterruptScope interrupts;
  const bool ok = mla::advance_streams(run.cursor, static_cast<std::size_t>(per_stream), threads,
                                       make_scratch, replicate);
  interrupts.rethrow();
  if (!ok) Rcpp::stop("Internal error: the %s bootstrap failed (out of memory?).", what);
  return static_cast<double>(run.cursor.done());
}

// uint16 codes while the classes that occur fit, uint32 beyond.
bool small_codes(std::size_t n_classes) { return 1 + n_classes <= 65535; }

// The raw codes of boot_codes_cpp() with their class table (attributes), as a
// view of Code (uint16 or uint32, by the number of classes) passed to f.
template <typename F>
auto with_codes(const Rcpp::RawVector& codes, std::size_t n_items, std::size_t k,
                std::size_t max_m, bool single_label, const Structure& structure, F f) {
  const Rcpp::IntegerVector start = codes.attr("class_start"), cm = codes.attr("class_m"),
                            cx = codes.attr("class_x");
  const std::size_t n_classes = static_cast<std::size_t>(cm.size());
  const std::size_t bytes = small_codes(n_classes) ? sizeof(std::uint16_t) : sizeof(std::uint32_t);
  if (static_cast<std::size_t>(start.size()) != k + 1 || static_cast<std::size_t>(cx.size()) != n_classes ||
      static_cast<std::size_t>(codes.size()) != n_items * k * bytes)
    Rcpp::stop("Internal error: class codes do not match the design.");
  auto view = [&](auto* p) {
    auto cc = mla::class_codes(p, n_items, k, max_m, INTEGER_RO(start), INTEGER_RO(cm), INTEGER_RO(cx));
    cc.corpus = corpus_statistic(single_label);
    cc.structure = structure.get();
    return cc;
  };
  if (bytes == sizeof(std::uint16_t)) return f(view(reinterpret_cast<const std::uint16_t*>(RAW_RO(codes))));
  return f(view(reinterpret_cast<const std::uint32_t*>(RAW_RO(codes))));
}

void run_weights(const Rcpp::IntegerMatrix& x, const Rcpp::IntegerMatrix& m, std::size_t max_m,
                 const Rcpp::IntegerMatrix& w, bool single_label, const Structure& structure,
                 Rcpp::NumericMatrix& out) {
  const std::size_t n = static_cast<std::size_t>(x.nrow());
  const std::size_t k = static_cast<std::size_t>(x.ncol());
  const mla::ClassTable tab = mla::class_table(x.begin(), m.begin(), n, k);
  std::vector<std::uint32_t> codes(n * k);
  mla::build_codes(x.begin(), m.begin(), n, k, tab, codes.data());
  mla::ClassCodes<std::uint32_t> cc = mla::class_codes(codes.data(), n, k, max_m, tab);
  cc.corpus = corpus_statistic(single_label);
  cc.structure = structure.get();
  std::vector<std::int64_t> bins(cc.n_bins);
  std::vector<mla::LabelSummary> ls(cc.n_labels);
  mla::LabelTable t;
  for (int b = 0; b < w.ncol(); ++b) {
    mla::fill_bins(cc, w.begin() + static_cast<std::size_t>(b) * n, bins.data());
    mla::stats_from_bins(cc, bins.data(), t, ls, out.begin() + b, static_cast<std::size_t>(out.nrow()));
  }
}

}  // namespace

// Class codes of every (item, label) cell, built once per bootstrap: a raw
// vector holding uint16 codes (uint32 when more classes occur) with the class
// table as attributes class_start, class_m, class_x (see ClassTable).
// [[Rcpp::export(rng = false)]]
Rcpp::RawVector boot_codes_cpp(const Rcpp::IntegerMatrix& x, const Rcpp::IntegerMatrix& m) {
  const std::size_t n = static_cast<std::size_t>(x.nrow());
  const std::size_t k = static_cast<std::size_t>(x.ncol());
  const mla::ClassTable tab = mla::class_table(x.begin(), m.begin(), n, k);
  const bool small = small_codes(tab.n_classes());
  Rcpp::RawVector out(static_cast<R_xlen_t>(n * k * (small ? sizeof(std::uint16_t) : sizeof(std::uint32_t))));
  if (small) {
    mla::build_codes(x.begin(), m.begin(), n, k, tab, reinterpret_cast<std::uint16_t*>(RAW(out)));
  } else {
    mla::build_codes(x.begin(), m.begin(), n, k, tab, reinterpret_cast<std::uint32_t*>(RAW(out)));
  }
  out.attr("class_start") = Rcpp::IntegerVector(tab.start.begin(), tab.start.end());
  out.attr("class_m") = Rcpp::IntegerVector(tab.m.begin(), tab.m.end());
  out.attr("class_x") = Rcpp::IntegerVector(tab.x.begin(), tab.x.end());
  return out;
}

// The state of a bootstrap run of n_rep replicates with n_labels label rows
// per baseline.
// [[Rcpp::export(rng = false)]]
SEXP boot_run_cpp(const Rcpp::IntegerVector& seed, double n_rep, int n_labels) {
  const std::size_t k = static_cast<std::size_t>(n_labels);
  Rcpp::NumericMatrix out(static_cast<int>(n_rep), static_cast<int>(mla::n_boot_stats(k)));
  BootRun* run = new BootRun{mla::StreamCursor(mla::combine_seed(seed[0], seed[1]),
                                               static_cast<std::size_t>(n_rep)),
                             out.begin(), static_cast<std::size_t>(out.nrow())};
  return Rcpp::XPtr<BootRun>(run, true, R_NilValue, out);
}

// The replicates of a finished run (undefined coefficients as NA).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix boot_run_result_cpp(SEXP run) {
  BootRun& r = boot_run_of(run);
  if (r.cursor.done() != r.cursor.n_rep) Rcpp::stop("Internal error: the bootstrap run is unfinished.");
  Rcpp::NumericMatrix out(R_ExternalPtrProtected(run));
  nan_to_na(out);
  return out;
}

// Item (or cluster) bootstrap: the next chunk of `run`, up to per_stream
// replicates per stream. unit_of_item: 0-based unit per item, or integer(0)
// when units are items; order/start: units grouped by stratum; structure:
// a structured fit's statistics (structure_of()), or NULL.
// [[Rcpp::export(rng = false)]]
double boot_items_cpp(SEXP run, const Rcpp::RawVector& codes, int n_items, int n_labels,
                      int max_m, const Rcpp::IntegerVector& unit_of_item, int n_units,
                      const Rcpp::IntegerVector& order, const Rcpp::IntegerVector& start,
                      double per_stream, int threads, bool single_label,
                      Rcpp::Nullable<Rcpp::List> structure = R_NilValue) {
  BootRun& r = boot_run_of(run);
  const Structure st = structure_of(structure);
  const std::size_t n = static_cast<std::size_t>(n_items);
  const std::size_t k = static_cast<std::size_t>(n_labels);
  const std::size_t mm = static_cast<std::size_t>(max_m);
  const mla::UnitDesign u = glue::unit_design(n, unit_of_item, n_units, order, start);
  const auto chunk = [&](const auto& cc) {
    return run_chunk(r, per_stream, threads, [&] {
      mla::ItemScratch w;
      w.init(cc, u);
      return w;
    }, [&](mla::ItemScratch& w, mla::Rng& rng, std::size_t row) {
      mla::item_replicate(cc, u, rng, w, r.out + row, r.n_out);
    }, "item");
  };
  return with_codes(codes, n, k, mm, single_label, st, chunk);
}

// Leave-one-unit-out coefficients (n_units x n_stats).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix boot_jack_items_cpp(const Rcpp::RawVector& codes, int n_items, int n_labels,
                                        int max_m, const Rcpp::IntegerVector& unit_start,
                                        const Rcpp::IntegerVector& unit_items, int threads,
                                        bool single_label,
                                        Rcpp::Nullable<Rcpp::List> structure = R_NilValue) {
  const std::size_t n = static_cast<std::size_t>(n_items);
  const std::size_t k = static_cast<std::size_t>(n_labels);
  const std::size_t mm = static_cast<std::size_t>(max_m);
  const Structure st = structure_of(structure);
  Rcpp::NumericMatrix out(static_cast<int>(unit_start.size() - 1), static_cast<int>(n_stats(st, k)));
  const std::size_t nu = static_cast<std::size_t>(out.nrow());
  const bool ok = with_codes(codes, n, k, mm, single_label, st, [&](const auto& cc) {
    return mla::jackknife_items(cc, nu, unit_start.begin(), unit_items.begin(), threads, out.begin());
  });
  if (!ok) Rcpp::stop("Internal error: the jackknife failed (out of memory?).");
  nan_to_na(out);
  return out;
}

// Coefficients for given item multiplicities (n_items x B) -> B x n_stats.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix boot_stats_items_cpp(const Rcpp::IntegerMatrix& x, const Rcpp::IntegerMatrix& m,
                                         int max_m, const Rcpp::IntegerMatrix& w,
                                         bool single_label,
                                         Rcpp::Nullable<Rcpp::List> structure = R_NilValue) {
  const std::size_t k = static_cast<std::size_t>(x.ncol());
  const Structure st = structure_of(structure);
  Rcpp::NumericMatrix out(w.ncol(), static_cast<int>(n_stats(st, k)));
  const std::size_t mm = static_cast<std::size_t>(max_m);
  run_weights(x, m, mm, w, single_label, st, out);
  nan_to_na(out);
  return out;
}

// Annotator (both = false) or two-way bootstrap on the records of `view`:
// the next chunk of `run`; slot: each annotator's 0-based index among the
// n_drawn drawn annotators, or -1.
// [[Rcpp::export(rng = false)]]
double boot_records_cpp(SEXP run, const Rcpp::List& view, const Rcpp::IntegerVector& slot,
                        int n_drawn, bool both, const Rcpp::IntegerVector& unit_of_item, int n_units,
                        const Rcpp::IntegerVector& order, const Rcpp::IntegerVector& start,
                        double per_stream, int threads, bool single_label,
                        Rcpp::Nullable<Rcpp::List> structure = R_NilValue) {
  BootRun& r = boot_run_of(run);
  const Structure st = structure_of(structure);
  const mla::DrawnAnnotators d = drawn_annotators(slot, n_drawn, single_label, st);
  return glue::with_record_view(view, [&](const auto& v, const auto& codes) {
    const mla::UnitDesign u = glue::unit_design(v.n_items, unit_of_item, n_units, order, start);
    return run_chunk(r, per_stream, threads, [&] { return mla::record_replicate_scratch(v, d, u); },
                     [&](mla::RecordReplicateScratch& w, mla::Rng& rng, std::size_t row) {
                       mla::records_replicate(v, codes, d, u, both, rng, w, r.out + row, r.n_out);
                     }, "annotator");
  });
}

// Leave-one-annotator-out coefficients (n_drawn x n_stats) of the annotator
// bootstrap's statistic, without a J x J multiplicity matrix.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix boot_jack_records_cpp(const Rcpp::List& view, const Rcpp::IntegerVector& slot,
                                          int n_drawn, int threads, bool single_label,
                                          Rcpp::Nullable<Rcpp::List> structure = R_NilValue) {
  const Structure st = structure_of(structure);
  const mla::DrawnAnnotators d = drawn_annotators(slot, n_drawn, single_label, st);
  return glue::with_record_view(view, [&](const auto& v, const auto& codes) {
    Rcpp::NumericMatrix out(n_drawn, static_cast<int>(n_stats(st, v.n_labels)));
    bool failed = false;
    glue::InterruptScope interrupts;
    mla::jackknife_annotators(v, codes, d, threads, out.begin(), failed);
    interrupts.rethrow();
    if (failed) Rcpp::stop("Internal error: the annotator jackknife failed (out of memory?).");
    nan_to_na(out);
    return out;
  });
}

// Coefficients for given multiplicities of the drawn annotators (n_drawn x B)
// and of the items (n_items x B, or a 0-column matrix for all ones);
// structure as boot_items_cpp().
// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix boot_stats_records_cpp(const Rcpp::List& view, const Rcpp::IntegerVector& slot,
                                           int n_drawn, const Rcpp::IntegerMatrix& aw,
                                           const Rcpp::IntegerMatrix& iw, bool single_label,
                                           Rcpp::Nullable<Rcpp::List> structure = R_NilValue) {
  const Structure st = structure_of(structure);
  const mla::DrawnAnnotators d = drawn_annotators(slot, n_drawn, single_label, st);
  return glue::with_record_view(view, [&](const auto& v, const auto& codes) {
    Rcpp::NumericMatrix out(aw.ncol(), static_cast<int>(n_stats(st, v.n_labels)));
    mla::RecordScratch s;
    for (int b = 0; b < aw.ncol(); ++b) {
      const int* a = aw.begin() + static_cast<std::size_t>(b) * d.n_drawn;
      const int* w = iw.ncol() > 0 ? iw.begin() + static_cast<std::size_t>(b) * v.n_items : nullptr;
      mla::records_stats(v, codes, d, a, w, s, out.begin() + b, static_cast<std::size_t>(out.nrow()));
    }
    nan_to_na(out);
    return out;
  });
}

// [[Rcpp::export(rng = false)]]
int boot_streams_cpp() { return mlagreement::kStreams; }
