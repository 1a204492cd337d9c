// Each record's columns of the structure pass (label_groups.h), for the
// annotator bootstrap and jackknife of structured fits.
// See DESIGN.md, Algorithms: Labels with structure.
#ifndef MLAGREEMENT_STRUCTURE_RECORDS_H
#define MLAGREEMENT_STRUCTURE_RECORDS_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "label_groups.h"

namespace mlagreement {

// Each record's columns of the pass (records x columns, column-major, into
// `out`): its closed labels, then each group's categories and "none", 1/0
// where the record decides them and `undecided` where not. The annotator
// engines weigh these by annotator copies. Returns the first record
// selecting two labels of a group (the group in bad_group), or -1.
template <typename T, typename Codes>
std::int64_t structure_records(const RecordView<T>& v, const Codes& codes, const LabelStructure& s,
                               int undecided, int* out, int& bad_group) {
  constexpr std::size_t kB = detail::kStructureBlock;
  const std::vector<std::size_t> off = detail::group_offsets(s, v.n_labels);
  const std::vector<std::size_t> m_col = detail::decision_columns(off);
  const std::vector<char> buffered = detail::buffered_labels(s);
  const std::size_t n_cols = off.back();
  detail::Block b;
  b.pos.resize(v.n_labels * kB);
  b.dec.resize(v.n_labels * kB);
  b.n_pos.resize(kB);
  b.answered.resize(kB);
  std::vector<int> x(n_cols * kB), m(n_cols * kB);
  std::int64_t bad_record = -1;
  for (std::size_t start = 0; start < v.n_records; start += kB) {
    const std::size_t len = std::min(kB, v.n_records - start);
    std::fill(x.begin(), x.end(), 0);
    std::fill(m.begin(), m.end(), 0);
    detail::read_block(v, codes, buffered, true, start, len, b, x.data(), m.data());
    detail::close_block(s, b);
    int g = -1;
    const std::ptrdiff_t bad = detail::add_block(s, off, buffered, b, x.data(), m.data(), len, g);
    if (bad >= 0 && bad_record < 0) {
      bad_record = static_cast<std::int64_t>(start) + bad;
      bad_group = g;
    }
    for (std::size_t c = 0; c < n_cols; ++c) {
      const int* xc = x.data() + c * len;
      const int* mc = m.data() + m_col[c] * len;
      int* oc = out + c * v.n_records + start;
      for (std::size_t q = 0; q < len; ++q) oc[q] = mc[q] ? xc[q] : undecided;
    }
  }
  return bad_record;
}

}  // namespace mlagreement

#endif
