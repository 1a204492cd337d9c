// Unit-test harness for the bootstrap family of inst/include/mlagreement/:
// the draws of every engine (boot_units.h) and the item replicates from cell
// codes (boot_items.h), with the glue's unit design (glue-view.h). Compiled
// with Rcpp::sourceCpp() against the installed headers by cpp_harness() in
// helper-cpp.R; the checks are in test-cpp-boot.R, and other tests read the
// engines' draws through cpp_boot_draws().
// [[Rcpp::depends(dqrng)]]
#include <Rcpp.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "glue-view.h"
#include "mlagreement/boot_items.h"
#include "mlagreement/boot_units.h"

namespace mla = mlagreement;

// The multiplicities the engines draw for each replicate (mode 0 items,
// 1 annotators, 2 both): item (n_items x n_rep), annotator (n_annotators x n_rep).
// [[Rcpp::export]]
Rcpp::List boot_draws(int mode, int n_items, int n_annotators,
                      const Rcpp::IntegerVector& unit_of_item, int n_units,
                      const Rcpp::IntegerVector& order, const Rcpp::IntegerVector& start,
                      const Rcpp::IntegerVector& seed, int n_rep) {
  const mla::UnitDesign u = glue::unit_design(n_items, unit_of_item, n_units, order, start);
  Rcpp::IntegerMatrix items(mode == 1 ? 0 : n_items, n_rep);
  Rcpp::IntegerMatrix anns(mode == 0 ? 0 : n_annotators, n_rep);
  mla::boot_draws(mode, u, static_cast<std::size_t>(n_annotators), mla::combine_seed(seed[0], seed[1]),
                  static_cast<std::size_t>(n_rep), items.begin(), anns.begin());
  return Rcpp::List::create(Rcpp::Named("item") = items, Rcpp::Named("annotator") = anns);
}

// Item bootstrap replicates (all streams, `threads` threads) from the count
// tables x, m (items x labels), units = items, one stratum.
// [[Rcpp::export]]
Rcpp::NumericMatrix boot_items(const Rcpp::IntegerMatrix& x, const Rcpp::IntegerMatrix& m,
                               const Rcpp::IntegerVector& seed, int n_rep, int threads) {
  const std::size_t n = static_cast<std::size_t>(x.nrow()), k = static_cast<std::size_t>(x.ncol());
  const std::size_t max_m = static_cast<std::size_t>(Rcpp::max(m));
  const mla::ClassTable tab = mla::class_table(x.begin(), m.begin(), n, k);
  std::vector<std::uint32_t> codes(n * k);
  mla::build_codes(x.begin(), m.begin(), n, k, tab, codes.data());
  Rcpp::IntegerVector order = Rcpp::seq(0, static_cast<int>(n) - 1);
  Rcpp::IntegerVector start = Rcpp::IntegerVector::create(0, static_cast<int>(n));
  const mla::UnitDesign u = glue::unit_design(n, Rcpp::IntegerVector(), static_cast<int>(n),
                                        order, start);
  Rcpp::NumericMatrix out(n_rep, static_cast<int>(mla::n_boot_stats(k)));
  const bool ok = mla::boot_items(mla::class_codes(codes.data(), n, k, max_m, tab), u,
                                  mla::combine_seed(seed[0], seed[1]), static_cast<std::size_t>(n_rep),
                                  0, mla::kStreams, threads, out.begin(),
                                  static_cast<std::size_t>(n_rep));
  if (!ok) Rcpp::stop("boot_items failed");
  for (double& v : out)
    if (std::isnan(v)) v = NA_REAL;
  return out;
}

