// Labels with structure on a dense array, the part of the touched-label
// pass (structure_touched.h) that closes the taxonomy: the plan of the
// touched labels, each thread's buffers, and the internal nodes' closed
// values, formed deepest first (a node ORs its leaf children's columns and
// its internal children's buffers, then its own column), per annotator
// block or four blocks at a time. Pure C++: no R headers.
#ifndef MLAGREEMENT_STRUCTURE_TOUCHED_NODES_H
#define MLAGREEMENT_STRUCTURE_TOUCHED_NODES_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "label_table.h"
#include "record_view.h"
#include "tally.h"
#include "threads.h"

namespace mlagreement {

// The touched labels (0-based label indices of the view).
struct TouchedPlan {
  std::vector<int> node;                      // internal tree nodes, deepest first
  std::vector<std::vector<int>> leaf_children;  // per node: children without descendants
  std::vector<std::vector<int>> node_children;  // per node: children that are nodes (indices into node)
  std::vector<std::vector<int>> group_label;  // per group: its labels
  std::vector<std::vector<int>> group_node;   // per group label: its node index, or -1
  // output columns: the nodes, then each group's labels and "none"
  std::size_t n_columns() const {
    std::size_t n = node.size();
    for (const std::vector<int>& g : group_label) n += g.size() + 1;
    return n;
  }
};

struct TouchedTables {
  IntTable table;        // n_columns() columns, rows m = 1..max_m
  bool several = false;  // some record selects two labels of a group
};

namespace detail {

// Items per chunk: a chunk's counters and node buffers stay in L2.
constexpr std::size_t kTouchedChunk = 2048;

#ifdef _OPENMP
#define MLAGREEMENT_TOUCHED_SIMD _Pragma("omp simd")
#else
#define MLAGREEMENT_TOUCHED_SIMD
#endif

// One thread's buffers for a chunk: per output column counters x, m (column
// c at c * kTouchedChunk; a group's categories use its first column's m),
// per node and annotator block (four at a time) the closed selections, and
// per node the decisions of the current block (when a group reads the node).
struct TouchedScratch {
  TouchedScratch(std::size_t n_columns, std::size_t n_nodes)
      : x(n_columns * kTouchedChunk), m(n_columns * kTouchedChunk),
        pos(4 * n_nodes * kTouchedChunk), dec(n_nodes * kTouchedChunk), n_pos(kTouchedChunk),
        all_dec(kTouchedChunk), d_sum(kTouchedChunk), n_pairable(kTouchedChunk),
        zero_int(kTouchedChunk, 0), zero_real(kTouchedChunk, 0.0), sink(kTouchedChunk) {}
  std::vector<int> x, m, pos, dec, n_pos, all_dec;
  std::vector<double> d_sum;
  std::vector<int> n_pairable;
  // a decided, unselected column of either storage type (pads a small
  // group to four labels) and the counters of the padding
  std::vector<int> zero_int;
  std::vector<double> zero_real;
  std::vector<int> sink;
  const int* zeros(const int*) const { return zero_int.data(); }
  const double* zeros(const double*) const { return zero_real.data(); }
};

// pos = the OR of node q's children over len records from `first`: its leaf
// children's selections (their columns) and its node children's closed
// selections (child c's at children + c * child_stride). Every node has a
// child.
template <typename T, typename Codes>
void or_children(const RecordView<T>& v, const Codes& codes, const TouchedPlan& p, std::size_t q,
                 std::size_t first, std::size_t len, const int* children, std::size_t child_stride,
                 int* pos) {
  bool started = false;
  for (int l : p.leaf_children[q]) {
    const T* col = v.column(static_cast<std::size_t>(l)) + first;
    if (started) {
      MLAGREEMENT_TOUCHED_SIMD
      for (std::size_t i = 0; i < len; ++i) pos[i] |= codes.positive(col[i]);
    } else {
      MLAGREEMENT_TOUCHED_SIMD
      for (std::size_t i = 0; i < len; ++i) pos[i] = codes.positive(col[i]);
    }
    started = true;
  }
  for (int c : p.node_children[q]) {
    const int* child = children + static_cast<std::size_t>(c) * child_stride;
    if (started) {
      MLAGREEMENT_TOUCHED_SIMD
      for (std::size_t i = 0; i < len; ++i) pos[i] |= child[i];
    } else {
      std::copy(child, child + len, pos);
    }
    started = true;
  }
}

// The closed values of every node for the records of annotator block
// `first` (len items), deepest first, added to the nodes' counters: the
// children's selections ORed first, the node's own column last (one loop
// forms the closed values and counts them).
template <typename T, typename Codes>
void close_nodes(const RecordView<T>& v, const Codes& codes, const TouchedPlan& p,
                 std::size_t first, std::size_t len, TouchedScratch& s) {
  constexpr std::size_t kC = kTouchedChunk;
  for (std::size_t q = 0; q < p.node.size(); ++q) {
    int* pos = s.pos.data() + q * kC;
    or_children(v, codes, p, q, first, len, s.pos.data(), kC, pos);
    const T* own = v.column(static_cast<std::size_t>(p.node[q])) + first;
    int* dec = s.dec.data() + q * kC;
    int* x = s.x.data() + q * kC;
    int* m = s.m.data() + q * kC;
    MLAGREEMENT_TOUCHED_SIMD
    for (std::size_t i = 0; i < len; ++i) {
      const int sel = pos[i] | codes.positive(own[i]);
      const int d = codes.decided(own[i]) | sel;
      pos[i] = sel;
      dec[i] = d;
      x[i] += sel;
      m[i] += d;
    }
  }
}

// The nodes' closed values, kW <= 4 annotator blocks at once (blocks b..,
// starting at item `start`), when no group reads them: per block the
// children's selections are ORed into the node's buffer of that block
// (node q, block w at (4 q + w) * kTouchedChunk), then one loop over the
// node's own columns forms the closed values and counts them, writing the
// counters once per kW records.
template <std::size_t kW, typename T, typename Codes>
void close_nodes_blocks(const RecordView<T>& v, const Codes& codes, const TouchedPlan& p,
                        std::size_t b, std::size_t start, std::size_t len, TouchedScratch& s) {
  constexpr std::size_t kC = kTouchedChunk;
  for (std::size_t q = 0; q < p.node.size(); ++q) {
    int* buf = s.pos.data() + 4 * q * kC;
    for (std::size_t w = 0; w < kW; ++w) {
      const std::size_t first = (b + w) * v.n_items + start;
      or_children(v, codes, p, q, first, len, s.pos.data() + w * kC, 4 * kC, buf + w * kC);
    }
    const T* own = v.column(static_cast<std::size_t>(p.node[q])) + b * v.n_items + start;
    const std::size_t stride = v.n_items;
    int *p0 = buf, *p1 = buf + kC, *p2 = buf + 2 * kC, *p3 = buf + 3 * kC;
    int* x = s.x.data() + q * kC;
    int* m = s.m.data() + q * kC;
    MLAGREEMENT_TOUCHED_SIMD
    for (std::size_t i = 0; i < len; ++i) {
      int sel = p0[i] | codes.positive(own[i]);
      int xs = sel, ms = codes.decided(own[i]) | sel;
      p0[i] = sel;
      if (kW > 1) {
        sel = p1[i] | codes.positive(own[stride + i]);
        xs += sel;
        ms += codes.decided(own[stride + i]) | sel;
        p1[i] = sel;
      }
      if (kW > 2) {
        sel = p2[i] | codes.positive(own[2 * stride + i]);
        xs += sel;
        ms += codes.decided(own[2 * stride + i]) | sel;
        p2[i] = sel;
      }
      if (kW > 3) {
        sel = p3[i] | codes.positive(own[3 * stride + i]);
        xs += sel;
        ms += codes.decided(own[3 * stride + i]) | sel;
        p3[i] = sel;
      }
      x[i] += xs;
      m[i] += ms;
    }
  }
}

inline bool groups_read_nodes(const TouchedPlan& p) {
  for (const std::vector<int>& g : p.group_node)
    for (int q : g)
      if (q >= 0) return true;
  return false;
}

}  // namespace detail
}  // namespace mlagreement

#endif
