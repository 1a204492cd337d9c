// R glue for the set statistics (mlagreement/set_alpha.h, set_pairs.h).
#include <Rcpp.h>

#include <algorithm>
#include <cstdint>
#include <new>

#include "glue-interrupt.h"
#include "glue-sets.h"
#include "mlagreement/set_alpha.h"
#include "mlagreement/set_build.h"
#include "mlagreement/set_custom.h"
#include "mlagreement/rng.h"
#include "mlagreement/set_pairs.h"

namespace {

// The set sizes that occur, ascending.
Rcpp::IntegerVector sizes_present(const mlagreement::SetData& d) {
  std::vector<int> s(d.size.begin(), d.size.end());
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return Rcpp::IntegerVector(s.begin(), s.end());
}

// The built-in distances' results of set_alpha() and the design's size.
Rcpp::List wrap_set_alpha(const mlagreement::SetData& d, const mlagreement::SetAlpha& a) {
  if (a.failed) Rcpp::stop("Internal error: inconsistent pair counts in the expected disagreement.");
  return Rcpp::List::create(
      Rcpp::Named("bad_record") = -1.0,
      Rcpp::Named("n_items") = static_cast<double>(d.n_items()),
      Rcpp::Named("n_values") = static_cast<double>(d.n_values()),
      Rcpp::Named("n_sets") = static_cast<double>(d.n_sets()),
      Rcpp::Named("method") = mlagreement::method_name(a.method),
      Rcpp::Named("observed_jaccard") = a.observed_jaccard,
      Rcpp::Named("expected_jaccard") = a.expected_jaccard,
      Rcpp::Named("observed_masi") = a.observed_masi,
      Rcpp::Named("expected_masi") = a.expected_masi,
      Rcpp::Named("similarity_jaccard") = a.similarity_jaccard,
      Rcpp::Named("similarity_masi") = a.similarity_masi);
}

// Builds the label sets of `view` and runs compute(d) with Ctrl-C armed; a
// partial record or running out of memory gives R's classed-error list;
// compute may return a list to stop early (R_NilValue: carry on).
template <typename Compute, typename Wrap>
Rcpp::List on_record_sets(const Rcpp::List& view, bool annotators, Compute compute, Wrap wrap) {
  mlagreement::SetData d;
  glue::InterruptScope interrupts;
  try {
    glue::build_record_sets(view, annotators, d);
    if (d.bad_record >= 0) return glue::bad_record(d);
    SEXP early = compute(d);
    if (early != R_NilValue) return Rcpp::List(early);
  } catch (const std::bad_alloc&) {
    return glue::out_of_memory();
  }
  interrupts.rethrow();
  return wrap(d);
}

}  // namespace

// Jaccard and MASI alpha and the average similarities, with the
// expected-disagreement method used (chosen by estimated work).
// [[Rcpp::export(rng = false)]]
Rcpp::List set_alpha_cpp(const Rcpp::List& view, bool with_expected, int threads) {
  mlagreement::SetAlpha a;
  return on_record_sets(
      view, false,
      [&](const mlagreement::SetData& d) {
        a = mlagreement::set_alpha(d, with_expected, threads);
        return R_NilValue;
      },
      [&](const mlagreement::SetData& d) {
        return wrap_set_alpha(d, a);
      });
}

// The annotator-pair measures and the average pairwise similarities, from
// one build of the label sets. seed: two integers from R's RNG (2 x 31 bits).
// [[Rcpp::export(rng = false)]]
Rcpp::List pair_measures_cpp(const Rcpp::List& view, int k_used, int R,
                             const Rcpp::IntegerVector& seed, int threads) {
  if (seed.size() != 2) Rcpp::stop("Internal error: `seed` must have length 2.");
  const std::size_t n_labels = static_cast<std::size_t>(Rcpp::as<int>(view["n_labels"]));
  const std::size_t n_annotators = static_cast<std::size_t>(Rcpp::as<int>(view["n_annotators"]));
  const std::uint64_t combined = mlagreement::combine_seed(seed[0], seed[1]);
  mlagreement::PairMeasures p;
  mlagreement::SetAlpha sims;
  return on_record_sets(
      view, true,
      [&](const mlagreement::SetData& d) {
        sims = mlagreement::set_alpha(d, false, threads);
        p = mlagreement::pair_measures(d, n_labels, n_annotators, k_used, R, combined, threads);
        return R_NilValue;
      },
      [&](const mlagreement::SetData& d) {
        Rcpp::IntegerVector a(p.a.begin(), p.a.end()), b(p.b.begin(), p.b.end());
        return Rcpp::List::create(
            Rcpp::Named("bad_record") = -1.0,
            Rcpp::Named("n_items") = static_cast<double>(d.n_items()),
            Rcpp::Named("similarity_jaccard") = sims.similarity_jaccard,
            Rcpp::Named("similarity_masi") = sims.similarity_masi,
            Rcpp::Named("pairs") = Rcpp::DataFrame::create(
                Rcpp::Named("a") = a, Rcpp::Named("b") = b,
                Rcpp::Named("n_shared") = Rcpp::wrap(p.n_shared),
                Rcpp::Named("f1_observed") = Rcpp::wrap(p.f1_observed),
                Rcpp::Named("f1_chance") = Rcpp::wrap(p.f1_chance),
                Rcpp::Named("ak_observed") = Rcpp::wrap(p.ak_observed),
                Rcpp::Named("ak_expected") = Rcpp::wrap(p.ak_expected),
                Rcpp::Named("am_observed") = Rcpp::wrap(p.am_observed),
                Rcpp::Named("am_expected") = Rcpp::wrap(p.am_expected)));
      });
}

// Set alpha with tabulated user distances (custom: see size_distances());
// when a set exceeds max_size nothing is computed and need_max_size says
// how far to tabulate. The built-in distances come along.
// [[Rcpp::export(rng = false)]]
Rcpp::List set_alpha_custom_cpp(const Rcpp::List& view, const Rcpp::NumericVector& custom,
                                int max_size, int n_custom, int threads) {
  const mlagreement::SizeDistances table = glue::size_distances(custom, max_size, n_custom);
  mlagreement::SetAlpha a;
  return on_record_sets(
      view, false,
      [&](const mlagreement::SetData& d) -> SEXP {
        const int largest = d.size.empty() ? 0 : *std::max_element(d.size.begin(), d.size.end());
        if (largest > max_size) {
          return Rcpp::List::create(Rcpp::Named("bad_record") = -1.0,
                                    Rcpp::Named("need_max_size") = largest);
        }
        a = mlagreement::set_alpha(d, true, threads, &table);
        return R_NilValue;
      },
      [&](const mlagreement::SetData& d) {
        Rcpp::List out = wrap_set_alpha(d, a);
        out.push_back(sizes_present(d), "sizes");
        out.push_back(Rcpp::wrap(a.observed_custom), "observed_custom");
        out.push_back(Rcpp::wrap(a.expected_custom), "expected_custom");
        return out;
      });
}

// The distinct label sets of the pairable records (1-based labels), their
// counts and the within-item pair weights of distinct sets s < t (1-based),
// for user distances of two sets evaluated in R.
// [[Rcpp::export(rng = false)]]
Rcpp::List set_distinct_cpp(const Rcpp::List& view) {
  mlagreement::SetPairWeights p;
  return on_record_sets(
      view, false,
      [&](const mlagreement::SetData& d) {
        p = mlagreement::set_pair_weights(d);
        return R_NilValue;
      },
      [&](const mlagreement::SetData& d) {
        Rcpp::IntegerVector s(p.s.begin(), p.s.end()), t(p.t.begin(), p.t.end());
        return Rcpp::List::create(
            Rcpp::Named("bad_record") = -1.0,
            Rcpp::Named("n_items") = static_cast<double>(d.n_items()),
            Rcpp::Named("n_values") = static_cast<double>(d.n_values()),
            Rcpp::Named("sets") = glue::set_label_list(d), Rcpp::Named("count") = Rcpp::wrap(d.count),
            Rcpp::Named("pair_s") = s + 1, Rcpp::Named("pair_t") = t + 1,
            Rcpp::Named("pair_weight") = Rcpp::wrap(p.w));
      });
}
