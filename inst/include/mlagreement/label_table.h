// Per-label tables of the sufficient statistics by the number of decisions
// m an item has on the label. See DESIGN.md, Algorithms: The counting pass.
#ifndef MLAGREEMENT_LABEL_TABLE_H
#define MLAGREEMENT_LABEL_TABLE_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mlagreement {

// For label j and m = 1..max_m (slot j * max_m + m - 1):
//   cnt  = items with exactly m decisions (or their total weight),
//   sx   = their positive decisions, sum of x,
//   sdis = sum of x * (m - x), half the disagreeing ordered pairs.
// Count: std::int64_t in the counting pass (exact in any reduction order),
// double for weighted or R-held tables (exact to 2^53).
template <typename Count>
struct CountTable {
  std::size_t n_labels = 0, max_m = 0;
  std::vector<Count> cnt, sx, sdis;
  void reset(std::size_t k, std::size_t mm) {
    n_labels = k;
    max_m = mm;
    cnt.assign(k * mm, Count(0));
    sx.assign(k * mm, Count(0));
    sdis.assign(k * mm, Count(0));
  }
  void add(const CountTable& o) {
    for (std::size_t s = 0; s < cnt.size(); ++s) {
      cnt[s] += o.cnt[s];
      sx[s] += o.sx[s];
      sdis[s] += o.sdis[s];
    }
  }
};

using LabelTable = CountTable<double>;
using IntTable = CountTable<std::int64_t>;

}  // namespace mlagreement

#endif
