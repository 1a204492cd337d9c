// Krippendorff's alpha with set distances (Jaccard, MASI, tabulated user
// distances) and the average pairwise set similarities.
// See DESIGN.md, Algorithms: Label sets.
#ifndef MLAGREEMENT_SET_ALPHA_H
#define MLAGREEMENT_SET_ALPHA_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

#include "set_custom.h"
#include "set_expected.h"
#include "set_postings.h"
#include "sets.h"
#include "threads.h"

namespace mlagreement {

struct SetAlpha {
  double observed_jaccard = 0, observed_masi = 0;  // D_o
  double expected_jaccard = 0, expected_masi = 0;  // D_e
  double similarity_jaccard = 0, similarity_masi = 0;  // mean over items of the pair means
  std::vector<double> observed_custom, expected_custom;  // D_o, D_e of tabulated user distances
  ExpectedMethod method = ExpectedMethod::none;  // how D_e was computed
  bool wide_sums = false;  // the counting methods summed in 128 bits (needed for exactness)
  bool failed = false;     // internal error: inconsistent pair counts (cannot happen)
};

namespace detail {

// D_o by counting the within-item pairs by (m, a, b, i) (DESIGN.md); false
// unless the sets are one word, the similarities tabulated and items of at
// most kMaxRecords records.
constexpr std::size_t kMaxRecords = 64;
inline bool observed_by_counts(const SetData& d, const SimTable& sim, const SizeDistances* custom,
                               int threads, double& oj, double& om, double& sj, double& sm,
                               std::vector<double>& oc) {
  const std::size_t G = d.n_items();
  if (d.n_words != 1 || sim.K1 == 0) return false;
  std::vector<int> m_index(kMaxRecords + 1, -1);
  std::vector<std::size_t> m_of;
  for (std::size_t g = 0; g < G; ++g) {
    const std::size_t m = d.start[g + 1] - d.start[g];
    if (m > kMaxRecords) return false;
    if (m_index[m] < 0) {
      m_index[m] = static_cast<int>(m_of.size());
      m_of.push_back(m);
    }
  }
  const std::size_t cells = sim.K1 * sim.K1 * sim.K1, per_thread = m_of.size() * cells;
  if (per_thread > (std::size_t{1} << 19)) return false;  // 4 MB of counts per thread
  const int nt = team_size(threads);
  std::vector<std::uint64_t> count(static_cast<std::size_t>(nt) * per_thread, 0U);
  const std::int64_t GG = static_cast<std::int64_t>(G);
#ifdef _OPENMP
#pragma omp parallel num_threads(nt)
#endif
  {
    std::uint64_t* const mine = count.data() + static_cast<std::size_t>(thread_slot()) * per_thread;
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
    for (std::int64_t gi = 0; gi < GG; ++gi) {
      if (interrupted_at(gi, 256)) continue;  // the result is discarded
      const std::size_t g = static_cast<std::size_t>(gi);
      const std::size_t b = d.start[g], m = d.start[g + 1] - b;
      std::uint64_t* const cm = mine + static_cast<std::size_t>(m_index[m]) * cells;
      std::uint64_t code[kMaxRecords];
      int size[kMaxRecords];
      for (std::size_t r = 0; r < m; ++r) {
        const std::size_t s = static_cast<std::size_t>(d.rec_set[b + r]);
        code[r] = d.bits[s];
        size[r] = d.size[s];
      }
      for (std::size_t r = 0; r < m; ++r) {
        for (std::size_t q = r + 1; q < m; ++q) {
          ++cm[sim.at(size[r], size[q], popcount64(code[r] & code[q]))];
        }
      }
    }
  }
  for (int t = 1; t < nt; ++t) {
    for (std::size_t x = 0; x < per_thread; ++x) count[x] += count[static_cast<std::size_t>(t) * per_thread + x];
  }
  oj = om = sj = sm = 0;
  const std::size_t n_custom = custom != nullptr ? custom->n : 0;
  oc.assign(n_custom, 0.0);
  std::vector<double> dc(n_custom);
  for (std::size_t mi = 0; mi < m_of.size(); ++mi) {
    const double m = static_cast<double>(m_of[mi]);
    double dj = 0, dm = 0, simj = 0, simm = 0;
    std::fill(dc.begin(), dc.end(), 0.0);
    for (std::size_t x = 0; x < cells; ++x) {
      const std::uint64_t c = count[mi * cells + x];
      if (c == 0U) continue;
      const double w = static_cast<double>(c);
      simj += w * sim.jac[x];
      simm += w * sim.masi[x];
      dj += w * (1.0 - sim.jac[x]);
      dm += w * (1.0 - sim.masi[x]);
      for (std::size_t t = 0; t < n_custom; ++t) dc[t] += w * custom->d[t * cells + x];
    }
    oj += 2.0 * dj / (m - 1.0);
    om += 2.0 * dm / (m - 1.0);
    for (std::size_t t = 0; t < n_custom; ++t) oc[t] += 2.0 * dc[t] / (m - 1.0);
    sj += simj / (m * (m - 1.0) / 2.0);
    sm += simm / (m * (m - 1.0) / 2.0);
  }
  return true;
}

// Within-item sums of an item with many records over its distinct sets:
// the work is the distinct sets squared, not the records squared.
struct ItemSums {
  double dj = 0, dm = 0, simj = 0, simm = 0;
};
inline ItemSums item_by_distinct(const SetData& d, const SimTable& sim, const SizeDistances* custom,
                                 std::size_t b, std::size_t e, double* ic) {
  std::vector<int> sets(d.rec_set.begin() + static_cast<std::ptrdiff_t>(b),
                        d.rec_set.begin() + static_cast<std::ptrdiff_t>(e));
  std::sort(sets.begin(), sets.end());
  std::vector<int> set;
  std::vector<double> mult;
  for (std::size_t r = 0; r < sets.size(); ++r) {
    if (r == 0 || sets[r] != sets[r - 1]) {
      set.push_back(sets[r]);
      mult.push_back(0.0);
    }
    mult.back() += 1.0;
  }
  const std::size_t n_custom = custom != nullptr ? custom->n : 0;
  ItemSums out;
  for (std::size_t u = 0; u < set.size(); ++u) {
    const int s = set[u];
    const int a = d.size[static_cast<std::size_t>(s)];
    for (std::size_t v = u; v < set.size(); ++v) {
      const int t = set[v];
      const int bb = d.size[static_cast<std::size_t>(t)];
      const double w = u == v ? mult[u] * (mult[u] - 1.0) / 2.0 : mult[u] * mult[v];
      if (w == 0.0) continue;
      const int i = s == t ? a : d.intersect(s, t);
      const double jac = sim.jaccard(a, bb, i);
      const double mas = sim.masi_sim(a, bb, i);
      out.simj += w * jac;
      out.simm += w * mas;
      out.dj += w * (1.0 - jac);
      out.dm += w * (1.0 - mas);
      for (std::size_t c = 0; c < n_custom; ++c) ic[c] += w * custom->value(c, a, bb, i);
    }
  }
  return out;
}

// The within-item sums of one item, record pair by record pair.
inline ItemSums item_by_pairs(const SetData& d, const SimTable& sim, const SizeDistances* custom,
                              std::size_t b, std::size_t e, double* ic) {
  const std::size_t n_custom = custom != nullptr ? custom->n : 0;
  ItemSums out;
  for (std::size_t r = b; r < e; ++r) {
    const int s = d.rec_set[r];
    const int a = d.size[static_cast<std::size_t>(s)];
    for (std::size_t q = r + 1; q < e; ++q) {
      const int t = d.rec_set[q];
      const int bb = d.size[static_cast<std::size_t>(t)];
      const int i = s == t ? a : d.intersect(s, t);
      const double jac = sim.jaccard(a, bb, i);
      const double mas = sim.masi_sim(a, bb, i);
      out.simj += jac;
      out.simm += mas;
      out.dj += 1.0 - jac;
      out.dm += 1.0 - mas;
      for (std::size_t c = 0; c < n_custom; ++c) ic[c] += custom->value(c, a, bb, i);
    }
  }
  return out;
}

// D_o item by item, summed in item order after the parallel loop.
inline void observed_by_items(const SetData& d, const SimTable& sim, const SizeDistances* custom,
                              int threads, double& oj, double& om, double& sj_sum, double& sm_sum,
                              std::vector<double>& oc) {
  const std::size_t G = d.n_items();
  const std::size_t n_custom = custom != nullptr ? custom->n : 0;
  std::vector<double> ij(G), im(G), sj(G), sm(G), ic(G * n_custom, 0.0);
  const bool done = parallel_for_each(G, threads, 256, 16, [&](std::size_t g) {
    const std::size_t b = d.start[g], e = d.start[g + 1];
    double* icg = ic.data() + g * n_custom;
    const ItemSums t = e - b > kMaxRecords ? item_by_distinct(d, sim, custom, b, e, icg)
                                           : item_by_pairs(d, sim, custom, b, e, icg);
    const double m = static_cast<double>(e - b);
    for (std::size_t c = 0; c < n_custom; ++c) icg[c] *= 2.0 / (m - 1.0);
    ij[g] = 2.0 * t.dj / (m - 1.0);
    im[g] = 2.0 * t.dm / (m - 1.0);
    sj[g] = t.simj / (m * (m - 1.0) / 2.0);
    sm[g] = t.simm / (m * (m - 1.0) / 2.0);
  });
  if (!done) throw std::bad_alloc();  // outside the parallel region; the glue reports it
  oj = om = sj_sum = sm_sum = 0;
  oc.assign(n_custom, 0.0);
  for (std::size_t g = 0; g < G; ++g) {
    for (std::size_t c = 0; c < n_custom; ++c) oc[c] += ic[g * n_custom + c];
    oj += ij[g];
    om += im[g];
    sj_sum += sj[g];
    sm_sum += sm[g];
  }
}

// The pair histogram by counting method m: 1 done, 0 internal error, -1
// hashed counting gave up (pairs instead).
template <typename Cell>
int histogram_by(ExpectedMethod m, const SetData& d, const CompactSets& c, int threads, PairHistogram& h) {
  if (m == ExpectedMethod::sparse) return histogram_sparse<Cell>(d, c, threads, h) ? 1 : 0;
  return histogram_hashed<Cell>(d, c, threads, h);
}

// Postings instead of pairs over more than 64 labels in use (built-in
// distances only) when their estimated work is lower.
inline ExpectedMethod choose_postings(const SetData& d, const SizeDistances* custom,
                                      ExpectedMethod chosen) {
  if (chosen != ExpectedMethod::pairs || custom != nullptr || d.n_words <= 1) return chosen;
  const double S = static_cast<double>(d.n_sets());
  const double cost_pairs = 2.8 * S * (S - 1.0) / 2.0 * static_cast<double>(d.n_words);
  const double cost_postings = 2000.0 + 10.0 * postings_work(label_frequencies(d)) + 50.0 * S;
  return cost_postings < cost_pairs ? ExpectedMethod::postings : chosen;
}

// The sums of D_e over ordered pairs of values from the counts of d, and the
// method used.
inline void expected_sums(const SetData& d, const SimTable& sim, const SizeDistances* custom,
                          int threads, SetAlpha& out, double& ej, double& em) {
  const CompactSets c = compact_sets(d);
  out.method = choose_postings(d, custom, choose_expected_method(d, c));
  if (out.method == ExpectedMethod::postings) {
    expected_by_postings(d, sim, threads, ej, em);
    return;
  }
  if (out.method != ExpectedMethod::pairs) {
    out.wide_sums = !moments_fit_64(total_count(d), c.max_size);
    PairHistogram h;
    const int status = out.wide_sums ? histogram_by<U128>(out.method, d, c, threads, h)
                                     : histogram_by<std::uint64_t>(out.method, d, c, threads, h);
    out.failed = status == 0;
    if (status > 0) {
      expected_from_histogram(h, c, custom, ej, em, out.expected_custom);
      return;
    }
    if (status == 0) return;
    out.method = ExpectedMethod::pairs;  // too many subsets for hashed counting
    out.wide_sums = false;
  }
  expected_by_pairs(d, sim, custom, threads, ej, em, out.expected_custom);
}

}  // namespace detail

// D_o and D_e (DESIGN.md); with_expected = false skips D_e (the similarities
// need only items); custom: user tables over set sizes 0..max, or nullptr.
inline SetAlpha set_alpha(const SetData& d, bool with_expected, int threads,
                          const SizeDistances* custom = nullptr) {
  SetAlpha out;
  const std::size_t G = d.n_items();
  const double n = static_cast<double>(d.n_values());
  if (G == 0) return out;
  int max_size = 0;
  for (int a : d.size) max_size = std::max(max_size, a);
  const SimTable sim(max_size);
  // the user tables in the layout of sim (one cell index for both)
  SizeDistances own;
  if (custom != nullptr) own = shrink_distances(*custom, max_size);
  const SizeDistances* cd = custom != nullptr ? &own : nullptr;
  double oj = 0, om = 0, simj_sum = 0, simm_sum = 0;
  std::vector<double> oc;
  if (!detail::observed_by_counts(d, sim, cd, threads, oj, om, simj_sum, simm_sum, oc)) {
    detail::observed_by_items(d, sim, cd, threads, oj, om, simj_sum, simm_sum, oc);
  }
  double ej = 0, em = 0;
  if (with_expected) detail::expected_sums(d, sim, cd, threads, out, ej, em);
  out.observed_jaccard = oj / n;
  out.observed_masi = om / n;
  out.expected_jaccard = ej / (n * (n - 1.0));
  out.expected_masi = em / (n * (n - 1.0));
  out.similarity_jaccard = simj_sum / static_cast<double>(G);
  out.similarity_masi = simm_sum / static_cast<double>(G);
  out.observed_custom.resize(oc.size());
  for (std::size_t t = 0; t < oc.size(); ++t) out.observed_custom[t] = oc[t] / n;
  out.expected_custom.resize(oc.size(), 0.0);
  for (double& e : out.expected_custom) e /= n * (n - 1.0);
  return out;
}

}  // namespace mlagreement

#endif
