// Expected set disagreement by postings (more than 64 labels in use,
// built-in distances): only pairs of sets sharing a label are visited.
// See DESIGN.md, Algorithms: Expected set disagreement.
#ifndef MLAGREEMENT_SET_POSTINGS_H
#define MLAGREEMENT_SET_POSTINGS_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

#include "sets.h"
#include "threads.h"

namespace mlagreement {

namespace detail {

// For each label (n_words * 64 slots), the distinct sets holding it, ascending.
struct Postings {
  std::vector<std::size_t> start;  // label l owns sets[start[l]] .. sets[start[l + 1] - 1]
  std::vector<int> sets;
};

inline Postings set_postings(const SetData& d) {
  const std::size_t S = d.n_sets(), nw = d.n_words, L = nw * 64;
  Postings p;
  p.start.assign(L + 1, 0);
  for (std::size_t s = 0; s < S; ++s)
    for (std::size_t w = 0; w < nw; ++w)
      for (std::uint64_t m = d.bits[s * nw + w]; m; m &= m - 1) ++p.start[w * 64 + static_cast<std::size_t>(ctz64(m)) + 1];
  for (std::size_t l = 0; l < L; ++l) p.start[l + 1] += p.start[l];
  std::vector<std::size_t> fill(p.start.begin(), p.start.end() - 1);
  p.sets.resize(p.start[L]);
  for (std::size_t s = 0; s < S; ++s)
    for (std::size_t w = 0; w < nw; ++w)
      for (std::uint64_t m = d.bits[s * nw + w]; m; m &= m - 1)
        p.sets[fill[w * 64 + static_cast<std::size_t>(ctz64(m))]++] = static_cast<int>(s);
  return p;
}

// Pair visits of the postings method (freq: distinct sets per label).
inline double postings_work(const std::vector<std::size_t>& freq) {
  double w = 0;
  for (const std::size_t f : freq) w += static_cast<double>(f) * (static_cast<double>(f) - 1.0) / 2.0;
  return w;
}

// Per set s: sum over t > s sharing a label with s of c_t sim(s, t), with a
// sparse accumulator of the intersections (inter, touched: scratch).
inline void similar_after(const SetData& d, const Postings& p, const SimTable& sim, std::size_t s,
                          std::vector<int>& inter, std::vector<int>& touched, double& accj,
                          double& accm) {
  const std::size_t nw = d.n_words;
  touched.clear();
  for (std::size_t w = 0; w < nw; ++w) {
    for (std::uint64_t m = d.bits[s * nw + w]; m; m &= m - 1) {
      const std::size_t l = w * 64 + static_cast<std::size_t>(ctz64(m));
      const int* first = p.sets.data() + p.start[l];
      const int* last = p.sets.data() + p.start[l + 1];
      for (const int* q = std::upper_bound(first, last, static_cast<int>(s)); q < last; ++q) {
        if (inter[static_cast<std::size_t>(*q)]++ == 0) touched.push_back(*q);
      }
    }
  }
  std::sort(touched.begin(), touched.end());  // a fixed order of the sum
  const int a = d.size[s];
  accj = accm = 0;
  for (const int t : touched) {
    const std::size_t tt = static_cast<std::size_t>(t);
    const int b = d.size[tt], i = inter[tt];
    inter[tt] = 0;
    accj += d.count[tt] * sim.jaccard(a, b, i);
    accm += d.count[tt] * sim.masi_sim(a, b, i);
  }
}

// The sums of D_e over ordered pairs of values, as expected_by_pairs().
inline void expected_by_postings(const SetData& d, const SimTable& sim, int threads, double& sum_j,
                                 double& sum_m) {
  const std::size_t S = d.n_sets();
  const Postings p = set_postings(d);
  std::vector<double> rj(S, 0.0), rm(S, 0.0);
  const std::int64_t SS = static_cast<std::int64_t>(S);
  struct Scratch {
    std::vector<int> inter, touched;
  };
  const bool ok = parallel_for_scratch<Scratch>(
      0, SS, threads, 64, [&](Scratch& w) { w.inter.assign(S, 0); },
      [&](Scratch& w, std::int64_t si) {
        const std::size_t s = static_cast<std::size_t>(si);
        similar_after(d, p, sim, s, w.inter, w.touched, rj[s], rm[s]);
        rj[s] *= d.count[s];
        rm[s] *= d.count[s];
      });
  if (!ok) throw std::bad_alloc();  // outside the parallel region; the glue reports it
  // all pairs of distinct sets, c_s c_t summed in long double (exact integers
  // beyond 2^53), minus the similar ones
  long double n = 0, sq = 0, simj = 0, simm = 0;
  for (std::size_t s = 0; s < S; ++s) {
    n += d.count[s];
    sq += static_cast<long double>(d.count[s]) * d.count[s];
    simj += rj[s];
    simm += rm[s];
  }
  const long double pairs = (n * n - sq) / 2;
  sum_j = static_cast<double>(2 * (pairs - simj));
  sum_m = static_cast<double>(2 * (pairs - simm));
}

}  // namespace detail

}  // namespace mlagreement

#endif
