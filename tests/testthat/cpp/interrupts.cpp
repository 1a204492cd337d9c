// Unit-test harness for Ctrl-C: the interrupt flag of mlagreement/threads.h,
// the long loops that poll it, and the glue's InterruptScope
// (src/glue-interrupt.h). Compiled by helper-cpp.R like the other harnesses. The
// harness arms its own copy of the flag with a check that reports Ctrl-C at
// its n-th call, so no signal and no timing is involved; the checks are in
// test-boot-interrupts.R.
// [[Rcpp::depends(dqrng)]]
#include <Rcpp.h>
#include <R_ext/libextern.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "glue-interrupt.h"
#include "glue-memory.h"
#include "glue-sets.h"
#include "glue-view.h"
#include "mlagreement/boot_items.h"
#include "mlagreement/boot_jackknife.h"
#include "mlagreement/boot_streams.h"
#include "mlagreement/pairs.h"
#include "mlagreement/set_alpha.h"
#include "mlagreement/set_custom.h"
#include "mlagreement/set_pairs.h"
#include "mlagreement/threads.h"

// What R's SIGINT handler sets; R_CheckUserInterrupt() then raises the
// interrupt (declared by R_ext/GraphicsDevice.h for graphics devices).
extern "C" {
LibExtern int R_interrupts_pending;
}

namespace mla = mlagreement;

namespace {

int polls = 0;      // calls of the check since the countdown was armed
int report_at = 0;  // the call that reports Ctrl-C (0: none)

bool countdown_check() { return ++polls == report_at; }

// Arms the flag on this thread with the countdown, checked at every poll,
// for the lifetime of the object.
struct Countdown {
  explicit Countdown(int at) {
    polls = 0;
    report_at = at;
    mla::interrupt_flag().arm(countdown_check, 0);
  }
  ~Countdown() { mla::interrupt_flag().disarm(); }
  Countdown(const Countdown&) = delete;
  Countdown& operator=(const Countdown&) = delete;
};

// The class codes of count tables x, m (items x labels), as the item engines read them.
struct ItemCodes {
  mla::ClassTable tab;
  std::vector<std::uint32_t> codes;
  ItemCodes(const Rcpp::IntegerMatrix& x, const Rcpp::IntegerMatrix& m)
      : tab(mla::class_table(x.begin(), m.begin(), x.nrow(), x.ncol())),
        codes(static_cast<std::size_t>(x.nrow()) * x.ncol()) {
    mla::build_codes(x.begin(), m.begin(), x.nrow(), x.ncol(), tab, codes.data());
  }
  mla::ClassCodes<std::uint32_t> view(const Rcpp::IntegerMatrix& m) const {
    return mla::class_codes(codes.data(), m.nrow(), m.ncol(), static_cast<std::size_t>(Rcpp::max(m)), tab);
  }
};

// n_rep item replicates, units = items, in one chunk (advance_streams(), as
// the glue runs a chunk); unfinished rows stay NA.
Rcpp::NumericMatrix stream_replicates(const Rcpp::IntegerMatrix& x, const Rcpp::IntegerMatrix& m,
                                      int n_rep, int threads, mla::StreamCursor& cursor) {
  const ItemCodes ic(x, m);
  const auto cc = ic.view(m);
  const int n = x.nrow();
  const Rcpp::IntegerVector order = Rcpp::seq(0, n - 1);
  const Rcpp::IntegerVector start = Rcpp::IntegerVector::create(0, n);
  const mla::UnitDesign u = glue::unit_design(n, Rcpp::IntegerVector(), n, order, start);
  Rcpp::NumericMatrix out(n_rep, static_cast<int>(mla::n_boot_stats(x.ncol())));
  std::fill(out.begin(), out.end(), NA_REAL);
  const bool ok = mla::advance_streams(cursor, static_cast<std::size_t>(n_rep), threads, [&] {
    mla::ItemScratch w;
    w.init(cc, u);
    return w;
  }, [&](mla::ItemScratch& w, mla::Rng& rng, std::size_t row) {
    mla::item_replicate(cc, u, rng, w, out.begin() + row, static_cast<std::size_t>(n_rep));
  });
  if (!ok) Rcpp::stop("advance_streams failed");
  return out;
}

// The sets of records given as set_core_args() gives them.
mla::SetData record_sets(const Rcpp::List& view) {
  mla::SetData d;
  glue::build_record_sets(view, true, d);
  if (d.bad_record >= 0) Rcpp::stop("partial record");
  return d;
}

// One set routine of the glue (glue-sets.cpp) and a summary of its result.
std::vector<double> run_set_routine(const mla::SetData& d, const std::string& routine, int n_labels,
                                    int n_annotators) {
  if (routine == "alpha") {
    const mla::SetAlpha a = mla::set_alpha(d, true, 1);
    return {a.observed_jaccard, a.expected_jaccard, a.observed_masi, a.expected_masi};
  }
  if (routine == "custom") {
    // d(a, b, i) = 1 unless the sets are equal, tabulated by set size
    int largest = 0;
    for (int s : d.size) largest = std::max(largest, s);
    mla::SizeDistances t;
    t.K1 = static_cast<std::size_t>(largest) + 1;
    t.n = 1;
    t.d.assign(t.cells(), 0.0);
    for (int a = 0; a <= largest; ++a)
      for (int b = 0; b <= largest; ++b)
        for (int i = 0; i <= std::min(a, b); ++i) t.d[t.at(a, b, i)] = i < std::max(a, b) ? 1.0 : 0.0;
    const mla::SetAlpha a = mla::set_alpha(d, true, 1, &t);
    return {a.observed_custom[0], a.expected_custom[0]};
  }
  if (routine == "distinct") {
    const mla::SetPairWeights p = mla::set_pair_weights(d);
    double w = 0;
    for (double v : p.w) w += v;
    return {static_cast<double>(p.w.size()), w};
  }
  if (routine == "pairs") {
    const mla::PairMeasures p = mla::pair_measures(d, static_cast<std::size_t>(n_labels),
                                                   static_cast<std::size_t>(n_annotators), n_labels, 20,
                                                   mla::combine_seed(1, 2), 1);
    double f1 = 0;
    for (double v : p.f1_chance) f1 += v;
    return {static_cast<double>(p.a.size()), f1};
  }
  Rcpp::stop("unknown routine");
}

}  // namespace

// ------------------------------------------------------------------ flag ----
// Polls the flag n times, armed with the countdown reporting Ctrl-C at call
// `at` (0: never): each poll's result, the polls of another thread (which
// never run the check), and the flag after disarm.
// [[Rcpp::export]]
Rcpp::List flag_polls(int at, int n) {
  Rcpp::LogicalVector seen(n);
  bool other = false;
  int checks_before_other = 0, checks_after_other = 0;
  {
    Countdown c(at);
    for (int p = 0; p < n; ++p) seen[p] = mla::interrupted();
    checks_before_other = polls;
    std::thread t([&] { other = mla::interrupted(); });
    t.join();
    checks_after_other = polls;
  }
  return Rcpp::List::create(Rcpp::Named("seen") = seen, Rcpp::Named("checks") = checks_before_other,
                            Rcpp::Named("other_thread") = other,
                            Rcpp::Named("other_thread_checks") = checks_after_other - checks_before_other,
                            Rcpp::Named("after_disarm") = mla::interrupt_flag().raised() || mla::interrupted());
}

// interrupted_at(i, every) for i = 0..n-1: which iterations ran the check.
// [[Rcpp::export]]
Rcpp::IntegerVector polled_iterations(int n, int every) {
  Countdown c(0);
  std::vector<int> at;
  for (int i = 0; i < n; ++i) {
    const int before = polls;
    mla::interrupted_at(i, every);
    if (polls > before) at.push_back(i);
  }
  return Rcpp::IntegerVector(at.begin(), at.end());
}

// ------------------------------------------------------------- bootstrap ----
// One chunk of n_rep item replicates (x, m: count tables) with Ctrl-C at
// the at-th poll: the replicates (NA where not computed), replicates done.
// [[Rcpp::export]]
Rcpp::List streams_interrupted(const Rcpp::IntegerMatrix& x, const Rcpp::IntegerMatrix& m,
                               const Rcpp::IntegerVector& seed, int n_rep, int threads, int at) {
  mla::StreamCursor cursor(mla::combine_seed(seed[0], seed[1]), static_cast<std::size_t>(n_rep));
  Rcpp::NumericMatrix out;
  bool raised = false;
  {
    Countdown c(at);
    out = stream_replicates(x, m, n_rep, threads, cursor);
    raised = mla::interrupt_flag().raised();
  }
  for (double& v : out)
    if (std::isnan(v) && !R_IsNA(v)) v = NA_REAL;
  return Rcpp::List::create(Rcpp::Named("t") = out, Rcpp::Named("done") = static_cast<double>(cursor.done()),
                            Rcpp::Named("raised") = raised, Rcpp::Named("polls") = polls);
}

// The annotator jackknife of an mla_boot engine (view, slot, n_drawn) with
// Ctrl-C at the at-th poll.
// [[Rcpp::export]]
Rcpp::List jackknife_interrupted(const Rcpp::List& view, const Rcpp::IntegerVector& slot, int n_drawn,
                                 int threads, int at) {
  const mla::DrawnAnnotators d{slot.begin(), static_cast<std::size_t>(n_drawn)};
  return glue::with_record_view(view, [&](const auto& v, const auto& codes) {
    Rcpp::NumericMatrix out(n_drawn, static_cast<int>(mla::n_boot_stats(v.n_labels)));
    bool failed = false, ok = false, raised = false;
    {
      Countdown c(at);
      ok = mla::jackknife_annotators(v, codes, d, threads, out.begin(), failed);
      raised = mla::interrupt_flag().raised();
    }
    if (failed) Rcpp::stop("jackknife failed");
    glue::nan_to_na(out);
    return Rcpp::List::create(Rcpp::Named("raised") = raised, Rcpp::Named("polls") = polls,
                              Rcpp::Named("complete") = ok, Rcpp::Named("jack") = out);
  });
}

// ----------------------------------------------------------- pairs, sets ----
// The pair pass of annotator_agreement() on annotation_view() with Ctrl-C at
// the at-th poll, polled as the glue does (glue-pairs.cpp).
// [[Rcpp::export]]
Rcpp::List pair_pass_interrupted(const Rcpp::List& view, int at) {
  return glue::with_record_view(view, [&](const auto& v, const auto& codes) {
    mla::PairResult res;
    Countdown c(at);
    const bool complete = mla::pair_sums(v, codes, res, [] { return mla::interrupted(); });
    return Rcpp::List::create(Rcpp::Named("raised") = mla::interrupt_flag().raised(),
                              Rcpp::Named("polls") = polls, Rcpp::Named("complete") = complete,
                              Rcpp::Named("n_pairs") = static_cast<double>(res.a.size()));
  });
}

// A set routine ("alpha", "custom", "distinct", "pairs") on the records of
// set_core_args() with Ctrl-C at the at-th poll: whether it was seen, the
// polls, and a summary of the (discarded when raised) result.
// [[Rcpp::export]]
Rcpp::List set_routine_interrupted(const Rcpp::List& view, std::string routine, int at) {
  const mla::SetData d = record_sets(view);
  const int n_labels = Rcpp::as<int>(view["n_labels"]);
  const int n_annotators = Rcpp::as<int>(view["n_annotators"]);
  Countdown c(at);
  const std::vector<double> value = run_set_routine(d, routine, n_labels, n_annotators);
  return Rcpp::List::create(Rcpp::Named("raised") = mla::interrupt_flag().raised(),
                            Rcpp::Named("polls") = polls,
                            Rcpp::Named("value") = Rcpp::NumericVector(value.begin(), value.end()));
}

// ------------------------------------------------------------------ glue ----
// A glue call end to end, as boot_items_cpp() runs a chunk: InterruptScope
// arms the flag with R's own check, Ctrl-C is pending when `pending` (R's
// SIGINT handler sets the same variable), the streams stop, and rethrow()
// raises R's `interrupt` condition. The replicates done are kept for
// glue_last_done().
namespace {
double last_done = -1;
}

// [[Rcpp::export]]
double glue_chunk(const Rcpp::IntegerMatrix& x, const Rcpp::IntegerMatrix& m,
                  const Rcpp::IntegerVector& seed, int n_rep, int threads, bool pending) {
  mla::StreamCursor cursor(mla::combine_seed(seed[0], seed[1]), static_cast<std::size_t>(n_rep));
  last_done = -1;
  if (pending) R_interrupts_pending = 1;
  glue::InterruptScope interrupts;
  stream_replicates(x, m, n_rep, threads, cursor);
  last_done = static_cast<double>(cursor.done());
  interrupts.rethrow();
  return last_done;
}

// [[Rcpp::export]]
Rcpp::List glue_last_done() {
  return Rcpp::List::create(Rcpp::Named("done") = last_done,
                            Rcpp::Named("pending") = R_interrupts_pending,
                            Rcpp::Named("raised") = mla::interrupt_flag().raised());
}

// ---------------------------------------------------------------- memory ----
// Ctrl-C pending when fresh_vector() collects before a mapping of its own
// (the trigger set to collect): R takes the interrupt at the end of the
// collection; the C++ frames of the call must unwind (a destructor runs)
// before R raises the `interrupt` condition.
namespace {
int unwound = 0;
struct Sentinel {
  ~Sentinel() { ++unwound; }
};
}  // namespace

// [[Rcpp::export]]
double interrupt_in_collection(bool pending) {
  unwound = 0;
  Sentinel frame;
  glue::mapped_bytes().trigger = 0;
  if (pending) R_interrupts_pending = 1;
  Rcpp::NumericVector v = glue::fresh_vector<Rcpp::NumericVector>(R_xlen_t{1} << 18);  // 2 MB
  return static_cast<double>(v.size());
}

// [[Rcpp::export]]
int frames_unwound() { return unwound; }
