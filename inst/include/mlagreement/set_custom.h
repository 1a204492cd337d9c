// User distances between label sets for alpha: tabulated set-size distances
// (SizeDistances) and the within-item pair weights for general distances.
// See DESIGN.md, Algorithms: Label sets.
#ifndef MLAGREEMENT_SET_CUSTOM_H
#define MLAGREEMENT_SET_CUSTOM_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "sets.h"
#include "threads.h"

namespace mlagreement {

// n tabulated distances over a, b, i in 0..K1 - 1, cell (a * K1 + b) * K1 + i
// of table t at d[t * K1^3 + cell] (R's column-major K1 x K1 x K1 x n array
// read with i fastest: R fills it as [i, b, a, t]).
struct SizeDistances {
  std::size_t K1 = 0, n = 0;
  std::vector<double> d;
  std::size_t cells() const noexcept { return K1 * K1 * K1; }
  std::size_t at(int a, int b, int i) const noexcept {
    return (static_cast<std::size_t>(a) * K1 + static_cast<std::size_t>(b)) * K1 +
           static_cast<std::size_t>(i);
  }
  double value(std::size_t t, int a, int b, int i) const noexcept { return d[t * cells() + at(a, b, i)]; }
};

// The same tables over sizes 0..max_size, SimTable's layout.
inline SizeDistances shrink_distances(const SizeDistances& from, int max_size) {
  SizeDistances out;
  out.K1 = static_cast<std::size_t>(max_size) + 1;
  out.n = from.n;
  out.d.assign(out.n * out.cells(), 0.0);
  for (std::size_t t = 0; t < out.n; ++t) {
    for (int a = 0; a <= max_size; ++a) {
      for (int b = 0; b <= max_size; ++b) {
        for (int i = 0; i <= std::min(a, b); ++i) out.d[t * out.cells() + out.at(a, b, i)] = from.value(t, a, b, i);
      }
    }
  }
  return out;
}

// Within-item pairs of distinct sets s < t (sorted) with their weight, the
// sum over items of ordered record pairs with sets s, t over m - 1.
struct SetPairWeights {
  std::vector<int> s, t;
  std::vector<double> w;
};

inline SetPairWeights set_pair_weights(const SetData& d) {
  std::vector<std::pair<std::uint64_t, double>> cells;
  const std::uint64_t S = d.n_sets();
  for (std::size_t g = 0; g < d.n_items(); ++g) {
    if (interrupted_at(static_cast<std::int64_t>(g), 16)) return SetPairWeights();  // discarded
    const std::size_t b = d.start[g], e = d.start[g + 1];
    const double w = 2.0 / static_cast<double>(e - b - 1);  // both orders of the pair
    for (std::size_t r = b; r < e; ++r) {
      for (std::size_t q = r + 1; q < e; ++q) {
        std::uint64_t x = static_cast<std::uint64_t>(d.rec_set[r]), y = static_cast<std::uint64_t>(d.rec_set[q]);
        if (x == y) continue;
        if (x > y) std::swap(x, y);
        cells.emplace_back(x * S + y, w);
      }
    }
  }
  std::stable_sort(cells.begin(), cells.end(),
            [](const std::pair<std::uint64_t, double>& u, const std::pair<std::uint64_t, double>& v) {
              return u.first < v.first;
            });
  SetPairWeights out;
  for (std::size_t c = 0; c < cells.size();) {
    const std::uint64_t key = cells[c].first;
    double w = 0;
    for (; c < cells.size() && cells[c].first == key; ++c) w += cells[c].second;
    out.s.push_back(static_cast<int>(key / S));
    out.t.push_back(static_cast<int>(key % S));
    out.w.push_back(w);
  }
  return out;
}

// The labels (0-based) of distinct set s.
inline std::vector<int> set_labels(const SetData& d, std::size_t s) {
  std::vector<int> out;
  for (std::size_t w = 0; w < d.n_words; ++w) {
    for (std::uint64_t m = d.bits[s * d.n_words + w]; m; m &= m - 1) {
      out.push_back(static_cast<int>(w * 64) + detail::ctz64(m));
    }
  }
  return out;
}

}  // namespace mlagreement

#endif
