// Labels with structure on a dense array, reading only the labels the
// structure touches. A free label without tree
// descendants keeps the table of the counting pass (label_tally() in R), so
// the only new tables are those of
//   * the tree's internal nodes (labels with descendants), closed under the
//     taxonomy: a record selects node p when it selects p or any label of
//     p's subtree, and decides p when it decides p or selects one of them
//     (structure_touched_nodes.h);
//   * each group's categories (its closed labels, then "none"), which share
//     the group's decisions (a label selected, or all decided).
// One read of the columns of the internal nodes, their subtrees and the
// groups' labels, a chunk of items at a time, with nothing allocated per
// record: the nodes' closed values are formed deepest first in per-chunk
// buffers, and a group of at most four labels that are not nodes (the
// common case) is counted in one loop over its columns. Both take four
// annotator blocks at a time, so a chunk's counters are written once per
// four records. Chunks run in parallel; the tables are integer sums,
// identical for any number of threads.
// Pure C++: no R headers.
#ifndef MLAGREEMENT_STRUCTURE_TOUCHED_H
#define MLAGREEMENT_STRUCTURE_TOUCHED_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "structure_touched_nodes.h"

namespace mlagreement {
namespace detail {

// Up to four raw labels of a group at once (kWays of them: columns col,
// category counters cat): adds their selections to the counters, to the
// records' selected count n_pos, and ANDs their decisions into all_dec.
template <std::size_t kWays, typename T, typename Codes>
void add_raw_members(const T* const* col, int* const* cat, std::size_t len, const Codes& codes,
                     int* n_pos, int* all_dec) {
  const T* c0 = col[0];
  const T* c1 = col[kWays > 1 ? 1 : 0];
  const T* c2 = col[kWays > 2 ? 2 : 0];
  const T* c3 = col[kWays > 3 ? 3 : 0];
  int* x0 = cat[0];
  int* x1 = cat[kWays > 1 ? 1 : 0];
  int* x2 = cat[kWays > 2 ? 2 : 0];
  int* x3 = cat[kWays > 3 ? 3 : 0];
  MLAGREEMENT_TOUCHED_SIMD
  for (std::size_t i = 0; i < len; ++i) {
    int sel = codes.positive(c0[i]), d = codes.decided(c0[i]);
    x0[i] += sel;
    if (kWays > 1) {
      const int s1 = codes.positive(c1[i]);
      sel += s1;
      d &= codes.decided(c1[i]);
      x1[i] += s1;
    }
    if (kWays > 2) {
      const int s2 = codes.positive(c2[i]);
      sel += s2;
      d &= codes.decided(c2[i]);
      x2[i] += s2;
    }
    if (kWays > 3) {
      const int s3 = codes.positive(c3[i]);
      sel += s3;
      d &= codes.decided(c3[i]);
      x3[i] += s3;
    }
    n_pos[i] += sel;
    all_dec[i] &= d;
  }
}

// Adds group g's categories of the records of annotator block `first` to
// their counters (first category at column `col`); returns non-zero when a
// record selects two of its labels. Labels that are nodes read the nodes'
// closed values, the others their columns, four at a time.
template <typename T, typename Codes>
int add_group(const RecordView<T>& v, const Codes& codes, const TouchedPlan& p, std::size_t g,
              std::size_t col, std::size_t first, std::size_t len, TouchedScratch& s) {
  constexpr std::size_t kC = kTouchedChunk;
  int* n_pos = s.n_pos.data();
  int* all_dec = s.all_dec.data();
  std::fill(n_pos, n_pos + len, 0);
  std::fill(all_dec, all_dec + len, 1);
  const std::vector<int>& labels = p.group_label[g];
  const T* raw[4];
  int* raw_cat[4];
  std::size_t n_raw = 0;
  const auto flush = [&] {
    switch (n_raw) {
      case 4: add_raw_members<4>(raw, raw_cat, len, codes, n_pos, all_dec); break;
      case 3: add_raw_members<3>(raw, raw_cat, len, codes, n_pos, all_dec); break;
      case 2: add_raw_members<2>(raw, raw_cat, len, codes, n_pos, all_dec); break;
      case 1: add_raw_members<1>(raw, raw_cat, len, codes, n_pos, all_dec); break;
      default: break;
    }
    n_raw = 0;
  };
  for (std::size_t l = 0; l < labels.size(); ++l) {
    int* cat = s.x.data() + (col + l) * kC;
    const int q = p.group_node[g][l];
    if (q < 0) {
      raw[n_raw] = v.column(static_cast<std::size_t>(labels[l])) + first;
      raw_cat[n_raw++] = cat;
      if (n_raw == 4) flush();
      continue;
    }
    const int* pos = s.pos.data() + static_cast<std::size_t>(q) * kC;  // a node: closed values
    const int* dec = s.dec.data() + static_cast<std::size_t>(q) * kC;
    MLAGREEMENT_TOUCHED_SIMD
    for (std::size_t i = 0; i < len; ++i) {
      n_pos[i] += pos[i];
      all_dec[i] &= dec[i];
      cat[i] += pos[i];
    }
  }
  flush();
  int* none = s.x.data() + (col + labels.size()) * kC;
  int* m = s.m.data() + col * kC;
  int several = 0;
#ifdef _OPENMP
#pragma omp simd reduction(| : several)
#endif
  for (std::size_t i = 0; i < len; ++i) {
    // n_pos >= 0 counts a record's labels: arithmetic, not compares, so the
    // loop vectorises with SSE2
    const int selected = static_cast<int>((0u - static_cast<unsigned>(n_pos[i])) >> 31);
    none[i] += all_dec[i] & (selected ^ 1);
    m[i] += all_dec[i] | selected;
    several |= n_pos[i] >> 1;
  }
  return several;
}

// A group of at most four labels that are not nodes, kW <= 4 annotator
// blocks at once: col[l][w] is label l's column in block w (a zero column
// pads the group to four labels, its counter cat[l] a sink). One loop reads
// every value once and keeps each record's count in registers, so the
// category counters are written once per kW records.
// One record's four values of a small group (below): its categories, and
// whether it answers the group ("none" or a label) or selects two labels.
template <typename T, typename Codes>
inline void small_group_record(const T v0, const T v1, const T v2, const T v3, const Codes& codes,
                               int& s0, int& s1, int& s2, int& s3, int& n_none, int& n_dec,
                               int& several) {
  const int p0 = codes.positive(v0), p1 = codes.positive(v1), p2 = codes.positive(v2),
            p3 = codes.positive(v3);
  const int n = p0 + p1 + p2 + p3;
  const int all = codes.decided(v0) & codes.decided(v1) & codes.decided(v2) & codes.decided(v3);
  const int selected = static_cast<int>((0u - static_cast<unsigned>(n)) >> 31);  // n > 0
  s0 += p0;
  s1 += p1;
  s2 += p2;
  s3 += p3;
  n_none += all & (selected ^ 1);
  n_dec += all | selected;
  several |= n >> 1;
}

template <std::size_t kW, typename T, typename Codes>
int add_small_group(const T* const (&col)[4][4], std::size_t len, const Codes& codes,
                    int* const (&cat)[4], int* none, int* m) {
  // named pointers: the vectoriser cannot see through an array of them
  const T *a0 = col[0][0], *a1 = col[1][0], *a2 = col[2][0], *a3 = col[3][0];
  const T *b0 = col[0][1], *b1 = col[1][1], *b2 = col[2][1], *b3 = col[3][1];
  const T *c0 = col[0][2], *c1 = col[1][2], *c2 = col[2][2], *c3 = col[3][2];
  const T *d0 = col[0][3], *d1 = col[1][3], *d2 = col[2][3], *d3 = col[3][3];
  int *x0 = cat[0], *x1 = cat[1], *x2 = cat[2], *x3 = cat[3];
  int several = 0;
#ifdef _OPENMP
#pragma omp simd reduction(| : several)
#endif
  for (std::size_t i = 0; i < len; ++i) {
    int s0 = 0, s1 = 0, s2 = 0, s3 = 0, n_none = 0, n_dec = 0;
    small_group_record(a0[i], a1[i], a2[i], a3[i], codes, s0, s1, s2, s3, n_none, n_dec, several);
    if (kW > 1) {
      small_group_record(b0[i], b1[i], b2[i], b3[i], codes, s0, s1, s2, s3, n_none, n_dec,
                         several);
    }
    if (kW > 2) {
      small_group_record(c0[i], c1[i], c2[i], c3[i], codes, s0, s1, s2, s3, n_none, n_dec,
                         several);
    }
    if (kW > 3) {
      small_group_record(d0[i], d1[i], d2[i], d3[i], codes, s0, s1, s2, s3, n_none, n_dec,
                         several);
    }
    x0[i] += s0;
    x1[i] += s1;
    x2[i] += s2;
    x3[i] += s3;
    none[i] += n_none;
    m[i] += n_dec;
  }
  return several;
}

// Group g (a small group: at most four labels, none a node) over every
// annotator block of the chunk, four blocks at a time.
template <typename T, typename Codes>
int add_small_group_blocks(const RecordView<T>& v, const Codes& codes, const TouchedPlan& p,
                           std::size_t g, std::size_t col, std::size_t start, std::size_t len,
                           TouchedScratch& s) {
  constexpr std::size_t kC = kTouchedChunk;
  const std::vector<int>& labels = p.group_label[g];
  const std::size_t n_blocks = v.n_records / v.n_items;
  const T* zero = s.zeros(static_cast<const T*>(nullptr));
  int* cat[4];
  for (std::size_t l = 0; l < 4; ++l) {
    cat[l] = l < labels.size() ? s.x.data() + (col + l) * kC : s.sink.data();
  }
  int* none = s.x.data() + (col + labels.size()) * kC;
  int* m = s.m.data() + col * kC;
  int several = 0;
  for (std::size_t b = 0; b < n_blocks; b += 4) {
    const T* cols[4][4];
    for (std::size_t l = 0; l < 4; ++l) {
      for (std::size_t w = 0; w < 4; ++w) {
        const std::size_t blk = std::min(b + w, n_blocks - 1);
        cols[l][w] = l < labels.size()
                         ? v.column(static_cast<std::size_t>(labels[l])) + blk * v.n_items + start
                         : zero;
      }
    }
    switch (std::min<std::size_t>(4, n_blocks - b)) {
      case 4: several |= add_small_group<4>(cols, len, codes, cat, none, m); break;
      case 3: several |= add_small_group<3>(cols, len, codes, cat, none, m); break;
      case 2: several |= add_small_group<2>(cols, len, codes, cat, none, m); break;
      default: several |= add_small_group<1>(cols, len, codes, cat, none, m); break;
    }
  }
  return several;
}

inline bool is_small_group(const TouchedPlan& p, std::size_t g) {
  if (p.group_label[g].size() > 4) return false;
  for (int q : p.group_node[g])
    if (q >= 0) return false;
  return true;
}

// One chunk of items: every annotator block, then the chunk's tables.
template <typename T, typename Codes>
bool touched_chunk(const RecordView<T>& v, const Codes& codes, const TouchedPlan& p,
                   const std::vector<std::size_t>& m_col, const double* factor, std::size_t start,
                   std::size_t len, TouchedScratch& s, IntTable& mine) {
  constexpr std::size_t kC = kTouchedChunk;
  const std::size_t n_blocks = v.n_records / v.n_items, n_cols = m_col.size();
  for (std::size_t c = 0; c < n_cols; ++c) {
    std::fill(s.x.begin() + c * kC, s.x.begin() + c * kC + len, 0);
    std::fill(s.m.begin() + c * kC, s.m.begin() + c * kC + len, 0);
  }
  int several = 0;
  const bool per_block = groups_read_nodes(p);  // else the nodes go four blocks at a time
  for (std::size_t b = 0; !per_block && b < n_blocks; b += 4) {
    switch (std::min<std::size_t>(4, n_blocks - b)) {
      case 4: close_nodes_blocks<4>(v, codes, p, b, start, len, s); break;
      case 3: close_nodes_blocks<3>(v, codes, p, b, start, len, s); break;
      case 2: close_nodes_blocks<2>(v, codes, p, b, start, len, s); break;
      default: close_nodes_blocks<1>(v, codes, p, b, start, len, s); break;
    }
  }
  for (std::size_t b = 0; b < n_blocks; ++b) {
    const std::size_t first = b * v.n_items + start;
    if (per_block) close_nodes(v, codes, p, first, len, s);
    std::size_t col = p.node.size();
    for (std::size_t g = 0; g < p.group_label.size(); ++g) {
      if (!is_small_group(p, g)) several |= add_group(v, codes, p, g, col, first, len, s);
      col += p.group_label[g].size() + 1;
    }
  }
  std::size_t col = p.node.size();
  for (std::size_t g = 0; g < p.group_label.size(); ++g) {
    if (is_small_group(p, g)) several |= add_small_group_blocks(v, codes, p, g, col, start, len, s);
    col += p.group_label[g].size() + 1;
  }
  std::fill(s.d_sum.begin(), s.d_sum.begin() + len, 0.0);  // (not used: tables only)
  std::fill(s.n_pairable.begin(), s.n_pairable.begin() + len, 0);
  for (std::size_t c = 0; c < n_cols; ++c) {
    tally_label_chunk(s.x.data() + c * kC, s.m.data() + m_col[c] * kC, len, c, factor, mine,
                      s.d_sum.data(), s.n_pairable.data());
  }
  return several != 0;
}

}  // namespace detail

// The touched tables of a dense view (v.item == nullptr). max_m bounds the
// records of an item (the annotators).
template <typename T, typename Codes>
TouchedTables touched_tables(const RecordView<T>& v, const Codes& codes, const TouchedPlan& p,
                             std::size_t max_m, int threads) {
  check_view_extents(v);
  if (v.item != nullptr || max_m < v.n_records / v.n_items) {
    throw std::invalid_argument("Internal error: touched_tables() needs a dense view.");
  }
  const std::size_t n_cols = p.n_columns();
  // a group's categories count the group's decisions, kept in its first column
  std::vector<std::size_t> m_col(n_cols);
  for (std::size_t c = 0; c < p.node.size(); ++c) m_col[c] = c;
  std::size_t col = p.node.size();
  for (const std::vector<int>& g : p.group_label) {
    for (std::size_t l = 0; l <= g.size(); ++l) m_col[col + l] = col;
    col += g.size() + 1;
  }
  const std::vector<double> factor = pair_factors(max_m);
  const std::size_t n = v.n_items;
  const std::int64_t n_chunks =
      static_cast<std::int64_t>((n + detail::kTouchedChunk - 1) / detail::kTouchedChunk);
  std::vector<IntTable> partial(static_cast<std::size_t>(team_size(threads)));
  for (IntTable& t : partial) t.reset(n_cols, max_m);
  // scratch allocated before the region: nothing in it can throw
  std::vector<detail::TouchedScratch> scratch(partial.size(),
                                              detail::TouchedScratch(n_cols, p.node.size()));
  int several = 0;
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) schedule(static) reduction(| : several)
#endif
  for (std::int64_t ch = 0; ch < n_chunks; ++ch) {
    const std::size_t me = static_cast<std::size_t>(thread_slot());
    const std::size_t start = static_cast<std::size_t>(ch) * detail::kTouchedChunk;
    const std::size_t len = std::min(detail::kTouchedChunk, n - start);
    several |= static_cast<int>(detail::touched_chunk(v, codes, p, m_col, factor.data(), start,
                                                      len, scratch[me], partial[me]));
  }
  TouchedTables out;
  out.table.reset(n_cols, max_m);
  for (const IntTable& t : partial) out.table.add(t);
  out.several = several != 0;
  return out;
}

}  // namespace mlagreement

#endif
