// Krippendorff's alpha with set distances (Jaccard, MASI) and with
// normalised Hamming distance, and the average pairwise set similarities.
// Pure C++: no R headers.
#ifndef MLAGREEMENT_SET_ALPHA_H
#define MLAGREEMENT_SET_ALPHA_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "sets.h"

namespace mlagreement {

// ---------------------------------------------------------------------------
// Krippendorff's alpha with set distances (coincidence form) and the average
// pairwise set similarities.

struct SetAlpha {
  double observed_jaccard = 0, observed_masi = 0;  // D_o
  double expected_jaccard = 0, expected_masi = 0;  // D_e
  double similarity_jaccard = 0, similarity_masi = 0;  // mean over items of the pair means
  int method = 0;  // how D_e was computed: 1 pairs of distinct sets, 2 binomial moments
};

namespace detail {

// Sum over ordered pairs of pairable values of the Jaccard and MASI
// distances, from all pairs of distinct sets: O(S^2).
inline void expected_by_pairs(const SetData& d, int threads, double& sum_j, double& sum_m) {
  const std::size_t S = d.n_sets();
  std::vector<double> rj(S, 0.0), rm(S, 0.0);
  const std::int64_t SS = static_cast<std::int64_t>(S);
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) schedule(dynamic, 16)
#endif
  for (std::int64_t si = 0; si < SS; ++si) {
    const int s = static_cast<int>(si);
    const int a = d.size[s];
    double accj = 0, accm = 0;
    for (int t = s + 1; t < static_cast<int>(S); ++t) {
      const int i = d.intersect(s, t);
      const double c = d.count[t];
      accj += c * (1.0 - jaccard_similarity(a, d.size[t], i));
      accm += c * (1.0 - masi_similarity(a, d.size[t], i));
    }
    rj[s] = d.count[s] * accj;
    rm[s] = d.count[s] * accm;
  }
  (void)threads;
  sum_j = sum_m = 0;
  for (std::size_t s = 0; s < S; ++s) {
    sum_j += 2.0 * rj[s];
    sum_m += 2.0 * rm[s];
  }
}

// Labels selected in at least one distinct set, as positions 0..k_used-1.
inline std::vector<std::size_t> used_labels(const SetData& d) {
  std::vector<std::uint64_t> any(d.n_words, 0);
  for (std::size_t s = 0; s < d.n_sets(); ++s) {
    for (std::size_t w = 0; w < d.n_words; ++w) any[w] |= d.bits[s * d.n_words + w];
  }
  std::vector<std::size_t> used;
  for (std::size_t w = 0; w < d.n_words; ++w) {
    for (std::size_t b = 0; b < 64; ++b) {
      if ((any[w] >> b) & 1ULL) used.push_back(w * 64 + b);
    }
  }
  return used;
}

constexpr std::size_t kMaxSubsetLabels = 22;  // table of 2^22 counts = 16 MB

// Distinct sets with labels recoded to the positions of the labels in use.
struct CompactSets {
  std::size_t k = 0;                      // labels in use
  std::vector<std::uint32_t> code;        // per distinct set
  std::vector<std::vector<int>> by_size;  // distinct sets of each size 0..k
};

// Calls f(sub, |sub|) for every subset of mask. The subsets are split into
// the low and the high bits of mask, so the inner loop runs over a small
// precomputed list (no popcount) and touches nearby table entries.
struct SubsetEnumerator {
  SubsetEnumerator() : lo(std::size_t{1} << kLoBits), hi(std::size_t{1} << (kMaxSubsetLabels - kLoBits)),
                       lo_size(lo.size()), hi_size(hi.size()) {}
  template <typename F>
  void operator()(std::uint32_t mask, F&& f) {
    std::uint32_t bit[32];
    int a = 0;
    for (std::uint32_t m = mask; m; m &= m - 1) bit[a++] = m & (~m + 1);
    const int h = a < kLoBits ? a : kLoBits;
    const std::size_t nl = fill(bit, 0, h, lo.data(), lo_size.data());
    const std::size_t nh = fill(bit, h, a, hi.data(), hi_size.data());
    for (std::size_t x = 0; x < nh; ++x) {
      const std::uint32_t H = hi[x];
      const int sh = hi_size[x];
      for (std::size_t y = 0; y < nl; ++y) f(H | lo[y], sh + lo_size[y]);
    }
  }

 private:
  static constexpr int kLoBits = 6;
  std::vector<std::uint32_t> lo, hi;
  std::vector<int> lo_size, hi_size;
  static std::size_t fill(const std::uint32_t* bit, int from, int to, std::uint32_t* v, int* sz) {
    v[0] = 0U;
    sz[0] = 0;
    std::size_t n = 1;
    for (int j = from; j < to; ++j) {
      for (std::size_t c = 0; c < n; ++c) {
        v[n + c] = v[c] | bit[j];
        sz[n + c] = sz[c] + 1;
      }
      n *= 2;
    }
    return n;
  }
};

inline CompactSets compact_sets(const SetData& d) {
  CompactSets c;
  const std::vector<std::size_t> used = used_labels(d);
  c.k = used.size();
  c.code.assign(d.n_sets(), 0);
  c.by_size.resize(c.k + 1);
  if (c.k > kMaxSubsetLabels) return c;
  for (std::size_t s = 0; s < d.n_sets(); ++s) {
    for (std::size_t p = 0; p < c.k; ++p) {
      const std::size_t j = used[p];
      if ((d.bits[s * d.n_words + j / 64] >> (j % 64)) & 1ULL) c.code[s] |= std::uint32_t{1} << p;
    }
    c.by_size[static_cast<std::size_t>(d.size[s])].push_back(static_cast<int>(s));
  }
  return c;
}

// Work of expected_by_subsets() (table look-ups plus direct pairs), to choose
// between it and expected_by_pairs().
inline double subsets_cost(const SetData& d, const CompactSets& c) {
  double cost = 0;
  for (std::size_t b = 0; b <= c.k; ++b) {
    const double sb = static_cast<double>(c.by_size[b].size());
    if (sb == 0) continue;
    cost += 2.0 * sb * static_cast<double>(std::uint64_t{1} << b);
    for (std::size_t a = 0; a <= b; ++a) {
      const double sa = static_cast<double>(c.by_size[a].size());
      cost += sa * std::min(static_cast<double>(std::uint64_t{1} << a), sb);
    }
  }
  (void)d;
  return cost;
}

// The same sum without looping over all pairs of sets. Take a set s of size
// a and the sets t of a size b >= a (the other pairs are counted from t's
// side). Let H(i) be the number of values t with |s n t| = i and G(Q) the
// number of values of size b containing Q. Then
//   M(q) = sum over Q in s with |Q| = q of G(Q) = sum_i C(i, q) H(i),
// which inverts to H(i) = sum_q (-1)^(q - i) C(q, i) M(q): 2^a table
// look-ups instead of one comparison per set t. When the size class is
// smaller than 2^a, its sets are compared directly instead. Every sum is a
// sum of integers, so it is exact; each set's total is accumulated in a
// fixed order, so results do not depend on threads.
inline void expected_by_subsets(const SetData& d, const CompactSets& c, int threads,
                                double& sum_j, double& sum_m) {
  const std::size_t S = d.n_sets(), k = c.k;
  const std::size_t K1 = k + 1;
  // signed binomials (-1)^(q - i) C(q, i), and the two distances by (a, b, i)
  std::vector<double> sbinom(K1 * K1, 0.0);
  for (std::size_t q = 0; q <= k; ++q) {
    sbinom[q * K1] = (q % 2 == 0) ? 1.0 : -1.0;
    for (std::size_t i = 1; i <= q; ++i) {
      const double c = std::fabs(sbinom[(q - 1) * K1 + i - 1]) +
                       (i < q ? std::fabs(sbinom[(q - 1) * K1 + i]) : 0.0);
      sbinom[q * K1 + i] = ((q - i) % 2 == 0) ? c : -c;
    }
  }
  std::vector<double> dist_j(K1 * K1 * K1, 0.0), dist_m(K1 * K1 * K1, 0.0);
  for (std::size_t a = 0; a <= k; ++a) {
    for (std::size_t b = 0; b <= k; ++b) {
      for (std::size_t i = 0; i <= std::min(a, b); ++i) {
        const int ia = static_cast<int>(a), ib = static_cast<int>(b), ii = static_cast<int>(i);
        dist_j[(a * K1 + b) * K1 + i] = 1.0 - jaccard_similarity(ia, ib, ii);
        dist_m[(a * K1 + b) * K1 + i] = 1.0 - masi_similarity(ia, ib, ii);
      }
    }
  }
  // Sets in order of size; the sets of size <= b are a prefix.
  std::vector<int> order;
  std::vector<std::size_t> upto(k + 2, 0);
  std::vector<std::size_t> sizes;  // present set sizes
  for (std::size_t b = 0; b <= k; ++b) {
    order.insert(order.end(), c.by_size[b].begin(), c.by_size[b].end());
    upto[b + 1] = order.size();
    if (!c.by_size[b].empty()) sizes.push_back(b);
  }
  // Size classes may share one table (a slot per class), so one look-up
  // serves several; measured on 20 labels, one slot was fastest (the table
  // stays at 2^k counts), so kSlots = 1. The code handles up to 8.
  constexpr std::size_t kSlots = 1;
  const std::size_t slots = kSlots;
  std::vector<std::uint32_t> T((std::size_t{1} << k) * slots, 0);
  std::vector<double> rj(S, 0.0), rm(S, 0.0);
  SubsetEnumerator enumerate;
  for (std::size_t g0 = 0; g0 < sizes.size(); g0 += slots) {
    const std::size_t ng = std::min(slots, sizes.size() - g0);
    const std::size_t* cls_size = sizes.data() + g0;
    // A class is tabled when some smaller set is cheaper to look up than to
    // compare with every member of the class.
    bool tabled[8] = {false};
    bool any_table = false;
    double build_work = 0;
    for (std::size_t x = 0; x < ng; ++x) {
      const std::size_t b = cls_size[x];
      const double sb = static_cast<double>(c.by_size[b].size());
      for (std::size_t a = 0; a <= b && !tabled[x]; ++a) {
        tabled[x] = !c.by_size[a].empty() && static_cast<double>(std::uint64_t{1} << a) < sb;
      }
      if (tabled[x]) {
        any_table = true;
        build_work += static_cast<double>(c.by_size[b].size()) * static_cast<double>(std::uint64_t{1} << b);
        for (int t : c.by_size[b]) {
          const std::uint32_t cnt = static_cast<std::uint32_t>(d.count[static_cast<std::size_t>(t)]);
          enumerate(c.code[static_cast<std::size_t>(t)],
                    [&](std::uint32_t sub, int) { T[sub * slots + x] += cnt; });
        }
      }
    }
    const std::int64_t n_s = static_cast<std::int64_t>(upto[cls_size[ng - 1] + 1]);
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
#endif
    {
      SubsetEnumerator local;
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 64)
#endif
      for (std::int64_t oi = 0; oi < n_s; ++oi) {
        const std::size_t s = static_cast<std::size_t>(order[static_cast<std::size_t>(oi)]);
        const int a = d.size[s];
        const std::uint32_t mask = c.code[s];
        const double pow_a = static_cast<double>(std::uint64_t{1} << a);
        bool use_table[8] = {false};
        bool need = false;
        for (std::size_t x = 0; x < ng; ++x) {
          use_table[x] = tabled[x] && static_cast<int>(cls_size[x]) >= a &&
                         pow_a < static_cast<double>(c.by_size[cls_size[x]].size());
          need = need || use_table[x];
        }
        std::uint64_t M[8][kMaxSubsetLabels + 1];
        if (need) {
          for (std::size_t x = 0; x < ng; ++x) {
            for (int q = 0; q <= a; ++q) M[x][q] = 0;
          }
          local(mask, [&](std::uint32_t sub, int q) {
            const std::uint32_t* row = T.data() + static_cast<std::size_t>(sub) * slots;
            for (std::size_t x = 0; x < ng; ++x) M[x][q] += row[x];
          });
        }
        double accj = 0, accm = 0;
        for (std::size_t x = 0; x < ng; ++x) {
          const int bb = static_cast<int>(cls_size[x]);
          if (bb < a) continue;
          // ordered pairs: both directions when b > a; within a class each
          // direction is met once from each side
          const double weight = a < bb ? 2.0 : 1.0;
          double cj = 0, cm = 0;
          const std::size_t base = (static_cast<std::size_t>(a) * K1 + static_cast<std::size_t>(bb)) * K1;
          const double* dj = dist_j.data() + base;
          const double* dm = dist_m.data() + base;
          if (use_table[x]) {
            for (int i = 0; i <= a; ++i) {
              double h = 0;
              for (int q = i; q <= a; ++q) {
                h += sbinom[static_cast<std::size_t>(q) * K1 + static_cast<std::size_t>(i)] *
                     static_cast<double>(M[x][q]);
              }
              cj += h * dj[i];
              cm += h * dm[i];
            }
          } else {
            for (int t : c.by_size[static_cast<std::size_t>(bb)]) {
              const std::size_t tt = static_cast<std::size_t>(t);
              const int i = popcount64(mask & c.code[tt]);
              cj += d.count[tt] * dj[i];
              cm += d.count[tt] * dm[i];
            }
          }
          accj += weight * cj;
          accm += weight * cm;
        }
        rj[s] += accj;
        rm[s] += accm;
      }
    }  // parallel region
    if (any_table) {
      // reset: undo the entries written, or clear the table if that is cheaper
      if (build_work * 8.0 < static_cast<double>(T.size())) {
        for (std::size_t x = 0; x < ng; ++x) {
          if (!tabled[x]) continue;
          for (int t : c.by_size[cls_size[x]]) {
            enumerate(c.code[static_cast<std::size_t>(t)],
                      [&](std::uint32_t sub, int) { T[sub * slots + x] = 0U; });
          }
        }
      } else {
        std::fill(T.begin(), T.end(), 0U);
      }
    }
  }
  (void)threads;
  sum_j = sum_m = 0;
  for (std::size_t s = 0; s < S; ++s) {
    sum_j += d.count[s] * rj[s];
    sum_m += d.count[s] * rm[s];
  }
}

}  // namespace detail

// method: 0 choose by estimated work, 1 pairs of distinct sets, 2 subset
// counting (only when at most kMaxSubsetLabels labels are in use).
inline int choose_expected_method(const SetData& d, const detail::CompactSets& c, int method) {
  const bool subsets_ok = c.k <= detail::kMaxSubsetLabels && d.n_values() < 4000000000.0;
  if (method == 1 || !subsets_ok) return 1;
  if (method == 2) return 2;
  const double S = static_cast<double>(d.n_sets());
  const double cost_pairs = S * (S - 1.0) / 2.0 * 2.0;  // a pair costs about two look-ups
  const double cost_subsets = detail::subsets_cost(d, c) + static_cast<double>(std::uint64_t{1} << c.k);
  return cost_subsets < cost_pairs ? 2 : 1;
}

// D_o = (1/n) sum_i 1/(m_i - 1) sum_{r != s in i} d(r, s);
// D_e = 1/(n (n - 1)) sum_{r != s over all pairable values} d(r, s), summed
// over distinct sets with their counts. Items are summed in a fixed order
// after the parallel loop, so results do not depend on threads.
// with_expected = false skips D_e (the average similarities need only items).
inline SetAlpha set_alpha(const SetData& d, bool with_expected, int method, int threads) {
  SetAlpha out;
  const std::size_t G = d.n_items();
  const double n = static_cast<double>(d.n_values());
  if (G == 0) return out;
  std::vector<double> ij(G), im(G), sj(G), sm(G);
  const std::int64_t GG = static_cast<std::int64_t>(G);
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) schedule(dynamic, 256)
#endif
  for (std::int64_t gi = 0; gi < GG; ++gi) {
    const std::size_t g = static_cast<std::size_t>(gi);
    const std::size_t b = d.start[g], e = d.start[g + 1];
    double dj = 0, dm = 0, simj = 0, simm = 0;
    for (std::size_t r = b; r < e; ++r) {
      const int s = d.rec_set[r];
      for (std::size_t q = r + 1; q < e; ++q) {
        const int t = d.rec_set[q];
        double jac = 1.0, mas = 1.0;
        if (s != t) {
          const int i = d.intersect(s, t);
          jac = jaccard_similarity(d.size[s], d.size[t], i);
          mas = masi_similarity(d.size[s], d.size[t], i);
        }
        simj += jac;
        simm += mas;
        dj += 1.0 - jac;
        dm += 1.0 - mas;
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
    if (m == 2) {
      detail::expected_by_subsets(d, c, threads, ej, em);
    } else {
      detail::expected_by_pairs(d, threads, ej, em);
    }
    out.method = m;
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


// ---------------------------------------------------------------------------
// Krippendorff's alpha with normalised Hamming distance from the sufficient
// statistics: per label j, over items with m_ij >= 2, n_j = sum m, n1_j = sum x,
// D_o,j = sum 2 x (m - x) / (m - 1) / n_j and
// D_e,j = 2 n1_j (n_j - n1_j) / (n_j (n_j - 1)) (binary coincidences).
// Labels without a pairable item get n_j = 0. pairable_item flags items with
// at least one pairable label.
inline void hamming_alpha(const int* x, const int* m, std::size_t n_items, std::size_t n_labels,
                          double* n_j, double* do_j, double* de_j, int* pairable_item) {
  for (std::size_t i = 0; i < n_items; ++i) pairable_item[i] = 0;
  for (std::size_t j = 0; j < n_labels; ++j) {
    const int* xj = x + j * n_items;
    const int* mj = m + j * n_items;
    double nn = 0, n1 = 0, obs = 0;
    for (std::size_t i = 0; i < n_items; ++i) {
      const int mi = mj[i];
      if (mi < 2) continue;
      const double xi = xj[i];
      nn += mi;
      n1 += xi;
      obs += 2.0 * xi * (mi - xi) / (mi - 1.0);
      pairable_item[i] = 1;
    }
    n_j[j] = nn;
    do_j[j] = nn > 0 ? obs / nn : 0.0;
    de_j[j] = nn > 1 ? 2.0 * n1 * (nn - n1) / (nn * (nn - 1.0)) : 0.0;
  }
}

}  // namespace mlagreement

#endif
