// Krippendorff's alpha with set distances (Jaccard, MASI) and the average
// pairwise set similarities (Hamming alpha comes from the label tables of
// the counting pass, in R/krippendorff-alpha.R).
// The expected set disagreement is in set_expected.h.
// Pure C++: no R headers.
#ifndef MLAGREEMENT_SET_ALPHA_H
#define MLAGREEMENT_SET_ALPHA_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "set_expected.h"
#include "sets.h"

namespace mlagreement {

// ---------------------------------------------------------------------------
// Krippendorff's alpha with set distances (coincidence form) and the average
// pairwise set similarities.

struct SetAlpha {
  double observed_jaccard = 0, observed_masi = 0;  // D_o
  double expected_jaccard = 0, expected_masi = 0;  // D_e
  double similarity_jaccard = 0, similarity_masi = 0;  // mean over items of the pair means
  int method = 0;  // how D_e was computed (choose_expected_method()); -1 internal error
};

// D_o = (1/n) sum_i 1/(m_i - 1) sum_{r != s in i} d(r, s);
// D_e = 1/(n (n - 1)) sum_{r != s over all pairable values} d(r, s), summed
// over distinct sets with their counts (set_expected.h). Items are summed in
// a fixed order after the parallel loop, so results do not depend on threads.
// with_expected = false skips D_e (the average similarities need only items).
inline SetAlpha set_alpha(const SetData& d, bool with_expected, int method, int threads) {
  SetAlpha out;
  const std::size_t G = d.n_items();
  const double n = static_cast<double>(d.n_values());
  if (G == 0) return out;
  int max_size = 0;
  for (int a : d.size) max_size = std::max(max_size, a);
  const SimTable sim(max_size);
  // items of at most kLocal records take the one-word path when the table exists
  constexpr std::size_t kLocal = 64;
  std::vector<double> ij(G), im(G), sj(G), sm(G);
  const std::int64_t GG = static_cast<std::int64_t>(G);
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) schedule(dynamic, 256)
#endif
  for (std::int64_t gi = 0; gi < GG; ++gi) {
    const std::size_t g = static_cast<std::size_t>(gi);
    const std::size_t b = d.start[g], e = d.start[g + 1];
    double dj = 0, dm = 0, simj = 0, simm = 0;
    if (d.n_words == 1 && sim.K1 != 0 && e - b <= kLocal) {
      // one word: the item's codes and sizes gathered once, intersections
      // without a branch (same sums in the same order as below)
      std::uint64_t code[kLocal];
      int size[kLocal];
      for (std::size_t r = b; r < e; ++r) {
        const std::size_t s = static_cast<std::size_t>(d.rec_set[r]);
        code[r - b] = d.bits[s];
        size[r - b] = d.size[s];
      }
      const std::size_t m = e - b;
      for (std::size_t r = 0; r < m; ++r) {
        for (std::size_t q = r + 1; q < m; ++q) {
          const std::size_t at = sim.at(size[r], size[q], detail::popcount64(code[r] & code[q]));
          const double jac = sim.jac[at], mas = sim.masi[at];
          simj += jac;
          simm += mas;
          dj += 1.0 - jac;
          dm += 1.0 - mas;
        }
      }
    } else {
      for (std::size_t r = b; r < e; ++r) {
        const int s = d.rec_set[r];
        const int a = d.size[static_cast<std::size_t>(s)];
        for (std::size_t q = r + 1; q < e; ++q) {
          const int t = d.rec_set[q];
          const int bb = d.size[static_cast<std::size_t>(t)];
          const int i = s == t ? a : d.intersect(s, t);
          const double jac = sim.jaccard(a, bb, i);
          const double mas = sim.masi_sim(a, bb, i);
          simj += jac;
          simm += mas;
          dj += 1.0 - jac;
          dm += 1.0 - mas;
        }
      }
    }
    const double m = static_cast<double>(e - b);
    ij[g] = 2.0 * dj / (m - 1.0);
    im[g] = 2.0 * dm / (m - 1.0);
    sj[g] = simj / (m * (m - 1.0) / 2.0);
    sm[g] = simm / (m * (m - 1.0) / 2.0);
  }
  double ej = 0, em = 0;
  if (with_expected) {
    const detail::CompactSets c = detail::compact_sets(d);
    const int m = choose_expected_method(d, c, method);
    out.method = m;
    if (m == 1) {
      detail::expected_by_pairs(d, sim, threads, ej, em);
    } else {
      const bool wide = m == 4 || m == 5 || m == 7 || !detail::moments_fit_64(n, c.max_size);
      detail::PairHistogram h;
      bool ok;
      if (m == 2 || m == 4) {
        ok = wide ? detail::histogram_sparse<U128>(d, c, threads, h)
                  : detail::histogram_sparse<std::uint64_t>(d, c, threads, h);
      } else if (m == 3 || m == 5) {
        ok = wide ? detail::histogram_dense<U128>(d, c, threads, h)
                  : detail::histogram_dense<std::uint64_t>(d, c, threads, h);
      } else {
        const int status = wide ? detail::histogram_hashed<U128>(d, c, threads, h)
                                : detail::histogram_hashed<std::uint64_t>(d, c, threads, h);
        ok = status != 0;
        if (status < 0) out.method = 1;  // too many subsets: pairs instead
      }
      if (!ok) out.method = -1;
      if (out.method == 1) {
        detail::expected_by_pairs(d, sim, threads, ej, em);
      } else {
        detail::expected_from_histogram(h, c, ej, em);
      }
    }
  }
  double oj = 0, om = 0;
  for (std::size_t g = 0; g < G; ++g) {
    oj += ij[g];
    om += im[g];
    out.similarity_jaccard += sj[g];
    out.similarity_masi += sm[g];
  }
  out.observed_jaccard = oj / n;
  out.observed_masi = om / n;
  out.expected_jaccard = ej / (n * (n - 1.0));
  out.expected_masi = em / (n * (n - 1.0));
  out.similarity_jaccard /= static_cast<double>(G);
  out.similarity_masi /= static_cast<double>(G);
  return out;
}

}  // namespace mlagreement

#endif
