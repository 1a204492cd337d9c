// R glue for the bootstrap of Krippendorff's alpha (mlagreement/set_boot.h).
#include <Rcpp.h>

#include <cstdint>
#include <new>
#include <vector>

#include "glue-interrupt.h"
#include "glue-sets.h"
#include "glue-view.h"
#include "mlagreement/set_boot.h"
#include "mlagreement/set_build.h"
#include "mlagreement/set_custom.h"

namespace {

namespace mla = mlagreement;

std::vector<const double*> distance_pointers(const Rcpp::List& D, std::size_t S) {
  std::vector<const double*> out;
  for (R_xlen_t d = 0; d < D.size(); ++d) {
    const Rcpp::NumericMatrix m = D[d];
    if (static_cast<std::size_t>(m.nrow()) != S || static_cast<std::size_t>(m.ncol()) != S)
      Rcpp::stop("Internal error: a distance matrix does not match the distinct sets.");
    out.push_back(m.begin());
  }
  return out;
}

mla::ItemSetCounts item_sets_of(const Rcpp::NumericVector& start, const Rcpp::IntegerVector& set,
                                const Rcpp::NumericVector& count) {
  mla::ItemSetCounts c;
  c.start.assign(start.begin(), start.end());
  c.set.assign(set.begin(), set.end());
  c.count.assign(count.begin(), count.end());
  return c;
}

}  // namespace

// The distinct label sets of the pairable records (incidence: sets x labels),
// the record groups of the pairable items (gstart, 0-based offsets) and the
// distinct set of each of their records (0-based).
// [[Rcpp::export(rng = false)]]
Rcpp::List alpha_record_sets_cpp(const Rcpp::List& view) {
  mla::SetData d;
  try {
    glue::build_record_sets(view, false, d);
  } catch (const std::bad_alloc&) {
    return Rcpp::List::create(Rcpp::Named("bad_record") = -1.0, Rcpp::Named("out_of_memory") = true);
  }
  if (d.bad_record >= 0) {
    return Rcpp::List::create(Rcpp::Named("bad_record") = static_cast<double>(d.bad_record));
  }
  const int k = Rcpp::as<int>(view["n_labels"]);
  const std::size_t S = d.n_sets();
  Rcpp::IntegerMatrix incidence(static_cast<int>(S), k);
  for (std::size_t s = 0; s < S; ++s) {
    for (int j : mla::set_labels(d, s)) incidence(static_cast<int>(s), j) = 1;
  }
  return Rcpp::List::create(
      Rcpp::Named("bad_record") = -1.0, Rcpp::Named("incidence") = incidence,
      Rcpp::Named("gstart") = Rcpp::NumericVector(d.start.begin(), d.start.end()),
      Rcpp::Named("rec_set") = Rcpp::IntegerVector(d.rec_set.begin(), d.rec_set.end()));
}

// Per item (all n_items; 0-based item_of_group): its distinct sets with
// counts and, for each S x S distance matrix in D, c_i' D c_i.
// [[Rcpp::export(rng = false)]]
Rcpp::List alpha_item_sets_cpp(const Rcpp::NumericVector& gstart, const Rcpp::IntegerVector& rec_set,
                               const Rcpp::IntegerVector& item_of_group, int n_items, int n_sets,
                               const Rcpp::List& D) {
  const std::size_t n = static_cast<std::size_t>(n_items), S = static_cast<std::size_t>(n_sets);
  if (gstart.size() != item_of_group.size() + 1)
    Rcpp::stop("Internal error: groups and their items do not match.");
  const mla::ItemSetCounts c = mla::item_set_counts(
      gstart.begin(), static_cast<std::size_t>(item_of_group.size()), rec_set.begin(),
      item_of_group.begin(), n);
  const std::vector<const double*> dp = distance_pointers(D, S);
  Rcpp::NumericMatrix quad(n_items, static_cast<int>(dp.size()));
  for (std::size_t d = 0; d < dp.size(); ++d) mla::item_quadratic_forms(c, dp[d], S, quad.begin() + d * n);
  return Rcpp::List::create(
      Rcpp::Named("start") = Rcpp::NumericVector(c.start.begin(), c.start.end()),
      Rcpp::Named("set") = Rcpp::IntegerVector(c.set.begin(), c.set.end()),
      Rcpp::Named("count") = Rcpp::NumericVector(c.count.begin(), c.count.end()),
      Rcpp::Named("quad") = quad);
}

// Item-bootstrap replicates of streams [s0, s1) (mla_boot()'s item streams):
// sums = W %*% terms and, per distance, quad = n_b' D n_b (set_boot.h).
// [[Rcpp::export(rng = false)]]
Rcpp::List alpha_boot_cpp(const Rcpp::NumericMatrix& terms, const Rcpp::NumericVector& set_start,
                          const Rcpp::IntegerVector& set, const Rcpp::NumericVector& set_count,
                          int n_sets, const Rcpp::List& D, const Rcpp::IntegerVector& seed, int R,
                          int s0, int s1, int threads) {
  Rcpp::checkUserInterrupt();  // main thread, between chunks of streams
  const std::size_t n = static_cast<std::size_t>(terms.nrow());
  const mla::ItemSetCounts c = item_sets_of(set_start, set, set_count);
  mla::AlphaBootInput in;
  in.n_items = n;
  in.n_terms = static_cast<std::size_t>(terms.ncol());
  in.terms = terms.begin();
  in.n_sets = static_cast<std::size_t>(n_sets);
  in.D = distance_pointers(D, in.n_sets);
  if (!in.D.empty()) {
    if (c.start.size() != n + 1) Rcpp::stop("Internal error: set counts do not match the items.");
    in.sets = &c;
  }
  const Rcpp::IntegerVector order = Rcpp::seq(0, static_cast<int>(n) - 1);
  const Rcpp::IntegerVector start = Rcpp::IntegerVector::create(0, static_cast<int>(n));
  const mla::UnitDesign u = glue::unit_design(n, Rcpp::IntegerVector(0), static_cast<int>(n), order, start);
  const std::size_t nr = static_cast<std::size_t>(R);
  const int rows = static_cast<int>(mla::block_begin(s1, nr) - mla::block_begin(s0, nr));
  Rcpp::NumericMatrix sums(rows, terms.ncol()), quad(rows, static_cast<int>(in.D.size()));
  const std::uint64_t s = mla::combine_seed(seed[0], seed[1]);
  glue::InterruptScope interrupts;
  const bool ok = mla::alpha_boot(in, u, s, nr, s0, s1, threads, sums.begin(), quad.begin());
  interrupts.rethrow();
  if (!ok) Rcpp::stop("Internal error: the alpha bootstrap failed (out of memory?).");
  return Rcpp::List::create(Rcpp::Named("sums") = sums, Rcpp::Named("quad") = quad);
}
