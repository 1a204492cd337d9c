// R glue for the set tables of a summary (R/annotation-counts-sets.R): the
// distinct sets and the within-item pair histogram from the records, and
// Jaccard / MASI alpha from those tables through the set engine.
#include <Rcpp.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <new>
#include <tuple>
#include <vector>

#include "glue-sets.h"
#include "mlagreement/set_alpha.h"
#include "mlagreement/set_build.h"

// The set tables of a summary from the records: distinct sets (1-based
// labels) and their counts over the pairable records; the ordered pairs of
// records within items by (m, size_a, size_b, n_shared), as integer counts.
// [[Rcpp::export(rng = false)]]
Rcpp::List counts_set_tables_cpp(const Rcpp::List& view) {
  mlagreement::SetData d;
  std::map<std::tuple<int, int, int, int>, double> hist;
  try {
    glue::build_record_sets(view, false, d);
    if (d.bad_record >= 0) return glue::bad_record(d);
    for (std::size_t g = 0; g < d.n_items(); ++g) {
      const std::size_t b = d.start[g], e = d.start[g + 1];
      const int m = static_cast<int>(e - b);
      for (std::size_t r = b; r < e; ++r) {
        const int s = d.rec_set[r];
        for (std::size_t q = r + 1; q < e; ++q) {
          const int t = d.rec_set[q];
          const int i = s == t ? d.size[static_cast<std::size_t>(s)] : d.intersect(s, t);
          const int a = d.size[static_cast<std::size_t>(s)], bb = d.size[static_cast<std::size_t>(t)];
          // ordered pairs: (r, q) and (q, r)
          hist[std::make_tuple(m, std::min(a, bb), std::max(a, bb), i)] += a == bb ? 2.0 : 1.0;
          if (a != bb) hist[std::make_tuple(m, std::max(a, bb), std::min(a, bb), i)] += 1.0;
        }
      }
    }
  } catch (const std::bad_alloc&) {
    return glue::out_of_memory();
  }
  const R_xlen_t n = static_cast<R_xlen_t>(hist.size());
  Rcpp::NumericVector m(n), sa(n), sb(n), si(n), np(n);
  R_xlen_t r = 0;
  for (const auto& h : hist) {
    m[r] = std::get<0>(h.first);
    sa[r] = std::get<1>(h.first);
    sb[r] = std::get<2>(h.first);
    si[r] = std::get<3>(h.first);
    np[r] = h.second;
    ++r;
  }
  return Rcpp::List::create(
      Rcpp::Named("bad_record") = -1.0,
      Rcpp::Named("sets") = glue::set_label_list(d),
      Rcpp::Named("count") = Rcpp::wrap(d.count),
      Rcpp::Named("pairs") = Rcpp::DataFrame::create(
          Rcpp::Named("m") = m, Rcpp::Named("size_a") = sa, Rcpp::Named("size_b") = sb,
          Rcpp::Named("n_shared") = si, Rcpp::Named("n_pairs") = np));
}

// Jaccard and MASI alpha from the set tables (sets: 1-based labels, count:
// pairable values, the ordered-pair histogram, custom: set-size distance
// tables over sizes 0..max_size): D_e by the set engine's own code on the
// distinct sets, D_o from the histogram as its counting path sums it.
// [[Rcpp::export(rng = false)]]
Rcpp::List counts_set_alpha_cpp(const Rcpp::List& sets, const Rcpp::NumericVector& count,
                                int n_labels, const Rcpp::NumericVector& pair_m,
                                const Rcpp::IntegerVector& size_a, const Rcpp::IntegerVector& size_b,
                                const Rcpp::IntegerVector& n_shared,
                                const Rcpp::NumericVector& n_pairs, const Rcpp::NumericVector& custom,
                                int n_custom, int threads) {
  mlagreement::SetData d;
  d.n_words = (static_cast<std::size_t>(n_labels) + 63) / 64;
  const std::size_t S = static_cast<std::size_t>(sets.size());
  d.bits.assign(S * d.n_words, 0U);
  d.size.resize(S);
  d.count.assign(count.begin(), count.end());
  double n = 0;
  int max_size = 0;
  for (std::size_t s = 0; s < S; ++s) {
    const Rcpp::IntegerVector lab = sets[static_cast<R_xlen_t>(s)];
    for (int j : lab) {
      const std::size_t b = static_cast<std::size_t>(j - 1);
      d.bits[s * d.n_words + b / 64] |= std::uint64_t{1} << (b % 64);
    }
    d.size[s] = static_cast<int>(lab.size());
    max_size = std::max(max_size, d.size[s]);
    n += d.count[s];
  }
  for (R_xlen_t r = 0; r < size_a.size(); ++r) {
    max_size = std::max(max_size, std::max(size_a[r], size_b[r]));
  }
  const mlagreement::SimTable sim(max_size);
  // user distances in sim's layout, as set_alpha() shrinks them
  const mlagreement::SizeDistances table = glue::size_distances(custom, max_size, n_custom);
  const mlagreement::SizeDistances* cd = n_custom > 0 ? &table : nullptr;
  double oj = 0, om = 0;
  std::vector<double> oc(table.n, 0.0);
  for (R_xlen_t r = 0; r < pair_m.size(); ++r) {
    const double w = n_pairs[r] / (pair_m[r] - 1.0);
    oj += w * (1.0 - sim.jaccard(size_a[r], size_b[r], n_shared[r]));
    om += w * (1.0 - sim.masi_sim(size_a[r], size_b[r], n_shared[r]));
    for (std::size_t t = 0; t < table.n; ++t) oc[t] += w * table.value(t, size_a[r], size_b[r], n_shared[r]);
  }
  mlagreement::SetAlpha a;
  double ej = 0, em = 0;
  try {
    mlagreement::detail::expected_sums(d, sim, cd, threads, a, ej, em);
  } catch (const std::bad_alloc&) {
    return Rcpp::List::create(Rcpp::Named("out_of_memory") = true);
  }
  if (a.failed) Rcpp::stop("Internal error: inconsistent pair counts in the expected disagreement.");
  for (double& o : oc) o /= n;
  std::vector<double> ec(table.n, 0.0);  // empty when expected_sums had no table
  for (std::size_t t = 0; t < a.expected_custom.size(); ++t) ec[t] = a.expected_custom[t] / (n * (n - 1.0));
  return Rcpp::List::create(
      Rcpp::Named("n_values") = n,
      Rcpp::Named("observed_custom") = Rcpp::wrap(oc), Rcpp::Named("expected_custom") = Rcpp::wrap(ec),
      Rcpp::Named("observed_jaccard") = oj / n, Rcpp::Named("observed_masi") = om / n,
      Rcpp::Named("expected_jaccard") = ej / (n * (n - 1.0)),
      Rcpp::Named("expected_masi") = em / (n * (n - 1.0)));
}
