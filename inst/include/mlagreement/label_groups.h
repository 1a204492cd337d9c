// Labels with structure: one pass closes each record under the taxonomy,
// checks the mutually exclusive groups and counts per item the closed labels
// and the groups' categories, as label tables for the kernel.
// See DESIGN.md, Algorithms: Labels with structure.
#ifndef MLAGREEMENT_LABEL_GROUPS_H
#define MLAGREEMENT_LABEL_GROUPS_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "counts.h"
#include "estimators.h"
#include "label_table.h"
#include "tally.h"

// R compiles with -O2, whose cheap vectoriser skips loops with a run-time
// trip count; `omp simd` asks for it (the loops have no carried dependence).
#ifdef _OPENMP
#define MLAGREEMENT_SIMD _Pragma("omp simd")
#else
#define MLAGREEMENT_SIMD
#endif

namespace mlagreement {

// The structure in the kernel's terms (0-based label indices).
struct LabelStructure {
  std::vector<int> parent;             // per label: parent, or -1 (root)
  std::vector<int> closure_order;      // labels with a parent, deepest first
  std::vector<std::vector<int>> groups;  // the labels of each group
  std::vector<int> free;               // labels in no group
  std::vector<double> weight;          // per variable: free labels, then groups
};

struct StructurePass {
  IntTable table;             // k closed labels, then each group's categories
  std::vector<double> item_disagreement;  // weighted, NaN without a pairable variable
  std::int64_t bad_record = -1;  // first record selecting two labels of a group
  int bad_group = -1;
};

// Where the pass keeps each item's counts per column, for the influence
// terms: caller-owned items x columns arrays (column-major; a category's m is
// its group's), or null pointers for none.
struct ItemCounts {
  int* x = nullptr;
  int* m = nullptr;
};

namespace detail {

// Items per chunk (a label's counters stay in L1) and
// records per sub-block of the buffered labels of dense arrays.
constexpr std::size_t kStructureBlock = kCellChunk;
constexpr std::size_t kSubBlock = 256;

// Column of the first category of group g (after the k closed labels).
inline std::vector<std::size_t> group_offsets(const LabelStructure& s, std::size_t k) {
  std::vector<std::size_t> off(s.groups.size() + 1, k);
  for (std::size_t g = 0; g < s.groups.size(); ++g) off[g + 1] = off[g] + s.groups[g].size() + 1;
  return off;
}

// The column holding each column's decisions: its own, or for a group's
// categories the group's first column.
inline std::vector<std::size_t> decision_columns(const std::vector<std::size_t>& off) {
  std::vector<std::size_t> out(off.back());
  for (std::size_t c = 0; c < out.size(); ++c) out[c] = c;
  for (std::size_t g = 0; g + 1 < off.size(); ++g)
    for (std::size_t c = off[g]; c < off[g + 1]; ++c) out[c] = off[g];
  return out;
}

// Work buffers of one block, label-major (row j holds label j's len values).
struct Block {
  std::size_t len = 0;
  std::vector<int> pos, dec, n_pos, answered;
};

// Labels the closure or a group reads (buffered in the block); the others
// go straight to the counters as they are read.
inline std::vector<char> buffered_labels(const LabelStructure& s) {
  std::vector<char> out(s.parent.size(), 0);
  for (int j : s.closure_order) {
    out[static_cast<std::size_t>(j)] = 1;
    out[static_cast<std::size_t>(s.parent[static_cast<std::size_t>(j)])] = 1;
  }
  for (const std::vector<int>& g : s.groups)
    for (int j : g) out[static_cast<std::size_t>(j)] = 1;
  return out;
}

// Reads records [first, first + len): buffered labels into the block; with
// `direct`, the others straight into the counters x, m.
template <typename T, typename Codes>
void read_block(const RecordView<T>& v, const Codes& codes, const std::vector<char>& buffered,
                bool direct, std::size_t first, std::size_t len, Block& b, int* x, int* m) {
  b.len = len;
  for (std::size_t j = 0; j < v.n_labels; ++j) {
    const T* col = v.column(j) + first;
    if (buffered[j]) {
      int* p = b.pos.data() + j * len;
      int* d = b.dec.data() + j * len;
      MLAGREEMENT_SIMD
      for (std::size_t i = 0; i < len; ++i) {
        p[i] = codes.positive(col[i]);
        d[i] = codes.decided(col[i]);
      }
    } else if (direct) {
      int* p = x + j * len;
      int* d = m + j * len;
      MLAGREEMENT_SIMD
      for (std::size_t i = 0; i < len; ++i) {
        p[i] += codes.positive(col[i]);
        d[i] += codes.decided(col[i]);
      }
    }
  }
}

// A selected child selects (and decides) its parent; deepest labels first,
// so one sweep closes every record.
inline void close_block(const LabelStructure& s, Block& b) {
  const std::size_t len = b.len;
  for (int j : s.closure_order) {
    const int* child = b.pos.data() + static_cast<std::size_t>(j) * len;
    const std::size_t p = static_cast<std::size_t>(s.parent[static_cast<std::size_t>(j)]);
    int* pp = b.pos.data() + p * len;
    int* pd = b.dec.data() + p * len;
    MLAGREEMENT_SIMD
    for (std::size_t i = 0; i < len; ++i) {
      pp[i] |= child[i];
      pd[i] |= child[i];
    }
  }
}

// Adds the block's closed labels and group categories to the counters x, m
// (column c at x + c * stride; a group's decisions in its first column).
// Returns the block position of the first record selecting two labels of a
// group (the group in bad_group), or -1.
inline std::ptrdiff_t add_block(const LabelStructure& s, const std::vector<std::size_t>& off,
                                const std::vector<char>& buffered, Block& b, int* x, int* m,
                                std::size_t stride, int& bad_group) {
  const std::size_t len = b.len;
  for (std::size_t j = 0; j < buffered.size(); ++j) {
    if (!buffered[j]) continue;
    const int* p = b.pos.data() + j * len;
    const int* d = b.dec.data() + j * len;
    int* xj = x + j * stride;
    int* mj = m + j * stride;
    MLAGREEMENT_SIMD
    for (std::size_t i = 0; i < len; ++i) {
      xj[i] += p[i];
      mj[i] += d[i];
    }
  }
  std::ptrdiff_t bad = -1;
  for (std::size_t g = 0; g < s.groups.size(); ++g) {
    std::fill(b.n_pos.begin(), b.n_pos.begin() + len, 0);
    std::fill(b.answered.begin(), b.answered.begin() + len, 1);
    for (std::size_t l = 0; l < s.groups[g].size(); ++l) {
      const std::size_t j = static_cast<std::size_t>(s.groups[g][l]);
      const int* p = b.pos.data() + j * len;
      const int* d = b.dec.data() + j * len;
      int* cat = x + (off[g] + l) * stride;
      MLAGREEMENT_SIMD
      for (std::size_t i = 0; i < len; ++i) {
        b.n_pos[i] += p[i];
        b.answered[i] &= d[i];
        cat[i] += p[i];
      }
    }
    int* none = x + (off[g + 1] - 1) * stride;
    int several = 0;
    MLAGREEMENT_SIMD
    for (std::size_t i = 0; i < len; ++i) {
      const int selected = b.n_pos[i] > 0;
      none[i] += b.answered[i] & (selected ^ 1);
      b.answered[i] |= selected;
      several |= b.n_pos[i] > 1;
    }
    int* mg = m + off[g] * stride;  // the group's categories share its first column's m
    MLAGREEMENT_SIMD
    for (std::size_t i = 0; i < len; ++i) mg[i] += b.answered[i];
    if (several && bad < 0) {
      for (std::size_t i = 0; i < len; ++i) {
        if (b.n_pos[i] > 1) {
          bad = static_cast<std::ptrdiff_t>(i);
          bad_group = static_cast<int>(g);
          break;
        }
      }
    }
  }
  return bad;
}

// Tallies a chunk of items column by column: each column's counts into the
// table, and the items' weighted disagreement over their pairable variables
// (a group's term is half the sum of its categories' terms).
class ChunkTally {
 public:
  ChunkTally(const LabelStructure& s, const std::vector<std::size_t>& off, std::size_t max_m)
      : factor_(pair_factors(max_m)), scale_(off.back(), 0.0), pairs_(off.back(), 0.0),
        num_(kStructureBlock), den_(kStructureBlock), d_(kStructureBlock), n_(kStructureBlock) {
    const std::size_t n_free = s.free.size();
    for (std::size_t f = 0; f < n_free; ++f) {
      scale_[static_cast<std::size_t>(s.free[f])] = s.weight[f];
      pairs_[static_cast<std::size_t>(s.free[f])] = s.weight[f];
    }
    for (std::size_t g = 0; g + 1 < off.size(); ++g) {
      for (std::size_t c = off[g]; c < off[g + 1]; ++c) scale_[c] = 0.5 * s.weight[n_free + g];
      pairs_[off[g]] = s.weight[n_free + g];
    }
  }
  // keeps each item's counts in x, m (n_items per column) when not null
  void keep_items(int* x, int* m, std::size_t n_items) {
    keep_x_ = x;
    keep_m_ = m;
    n_items_ = n_items;
  }
  void start(std::size_t first_item, std::size_t len) {
    first_ = first_item;
    len_ = len;
    std::fill(num_.begin(), num_.begin() + len, 0.0);
    std::fill(den_.begin(), den_.begin() + len, 0.0);
  }
  // column c's counts of the chunk's items
  void add(std::size_t c, const int* x, const int* m, IntTable& t) {
    std::fill(d_.begin(), d_.begin() + len_, 0.0);
    std::fill(n_.begin(), n_.begin() + len_, 0);
    tally_label_chunk(x, m, len_, c, factor_.data(), t, d_.data(), n_.data());
    if (keep_x_ != nullptr) {
      std::copy(x, x + len_, keep_x_ + c * n_items_ + first_);
      std::copy(m, m + len_, keep_m_ + c * n_items_ + first_);
    }
    const double u = scale_[c], w = pairs_[c];
    if (u == 0.0 && w == 0.0) return;
    MLAGREEMENT_SIMD
    for (std::size_t i = 0; i < len_; ++i) {
      num_[i] += u * d_[i];
      den_[i] += w * n_[i];
    }
  }
  void finish(double* item_d) const {
    for (std::size_t i = 0; i < len_; ++i) item_d[i] = den_[i] > 0.0 ? num_[i] / den_[i] : kNA;
  }

 private:
  std::vector<double> factor_, scale_, pairs_;  // scale_: of the terms; pairs_: of pairability
  std::vector<double> num_, den_, d_;
  std::vector<int> n_;
  std::size_t len_ = 0, first_ = 0, n_items_ = 0;
  int* keep_x_ = nullptr;
  int* keep_m_ = nullptr;
};

}  // namespace detail

namespace detail {

// What the two layouts of the pass share.
struct PassContext {
  PassContext(const LabelStructure& structure, std::size_t k, std::size_t max_m)
      : s(structure), off(group_offsets(structure, k)), buffered(buffered_labels(structure)),
        m_col(decision_columns(off)), tally(structure, off, max_m),
        x(off.back() * kStructureBlock), m(off.back() * kStructureBlock) {
    block.pos.resize(k * kStructureBlock);
    block.dec.resize(k * kStructureBlock);
    block.n_pos.resize(kStructureBlock);
    block.answered.resize(kStructureBlock);
  }
  void clear() {
    std::fill(x.begin(), x.end(), 0);
    std::fill(m.begin(), m.end(), 0);
  }
  // the block (its first record first_record) into counters xc, mc
  void add(std::size_t first_record, int* xc, int* mc, std::size_t stride, StructurePass& out) {
    int g = -1;
    const std::ptrdiff_t bad = add_block(s, off, buffered, block, xc, mc, stride, g);
    if (bad >= 0 && out.bad_record < 0) {
      out.bad_record = static_cast<std::int64_t>(first_record) + bad;
      out.bad_group = g;
    }
  }
  const LabelStructure& s;
  std::vector<std::size_t> off;
  std::vector<char> buffered;
  std::vector<std::size_t> m_col;
  ChunkTally tally;
  Block block;
  std::vector<int> x, m;
};

// Dense arrays by item chunks: unbuffered labels over all annotators as in
// counts.h, buffered ones in sub-blocks that stay in L1.
template <typename T, typename Codes>
void dense_pass(const RecordView<T>& v, const Codes& codes, PassContext& ctx, StructurePass& out) {
  constexpr std::size_t kB = kStructureBlock;
  const std::size_t k = v.n_labels, n = v.n_items, n_cols = ctx.off.back();
  const std::size_t n_blocks = n > 0 ? v.n_records / n : 0;
  // local counters: the vectoriser of -O2 needs to see they alias nothing
  int xs[kB], ms[kB];
  for (std::size_t start = 0; start < n; start += kB) {
    const std::size_t len = std::min(kB, n - start);
    ctx.tally.start(start, len);
    for (std::size_t j = 0; j < k; ++j) {
      if (ctx.buffered[j]) continue;
      const T* first = v.column(j) + start;
      for (std::size_t i = 0; i < len; ++i) xs[i] = ms[i] = 0;
      if (len == kB) accumulate_label<kB>(first, n, n_blocks, len, codes, xs, ms);
      else accumulate_label<0>(first, n, n_blocks, len, codes, xs, ms);
      ctx.tally.add(j, xs, ms, out.table);
    }
    if (n_cols > k || !ctx.s.closure_order.empty()) {  // else weights only: nothing buffered
      ctx.clear();
      for (std::size_t sub = 0; sub < len; sub += kSubBlock) {
        const std::size_t sl = std::min(kSubBlock, len - sub);
        for (std::size_t c = 0; c < n_blocks; ++c) {
          const std::size_t first = c * n + start + sub;
          read_block(v, codes, ctx.buffered, false, first, sl, ctx.block, nullptr, nullptr);
          close_block(ctx.s, ctx.block);
          ctx.add(first, ctx.x.data() + sub, ctx.m.data() + sub, len, out);
        }
      }
      for (std::size_t c = 0; c < n_cols; ++c) {
        if (c < k && !ctx.buffered[c]) continue;
        ctx.tally.add(c, ctx.x.data() + c * len, ctx.m.data() + ctx.m_col[c] * len, out.table);
      }
    }
    ctx.tally.finish(out.item_disagreement.data() + start);
  }
}

// Records layout: blocks scattered into per-item counters, tallied at the end.
template <typename T, typename Codes>
void records_pass(const RecordView<T>& v, const Codes& codes, PassContext& ctx, StructurePass& out) {
  constexpr std::size_t kB = kStructureBlock;
  const std::size_t n = v.n_items, n_cols = ctx.off.back();
  std::vector<int> xs(n_cols * n, 0), ms(n_cols * n, 0);
  for (std::size_t start = 0; start < v.n_records; start += kB) {
    const std::size_t len = std::min(kB, v.n_records - start);
    ctx.clear();
    read_block(v, codes, ctx.buffered, true, start, len, ctx.block, ctx.x.data(), ctx.m.data());
    close_block(ctx.s, ctx.block);
    ctx.add(start, ctx.x.data(), ctx.m.data(), len, out);
    for (std::size_t c = 0; c < n_cols; ++c) {
      for (std::size_t q = 0; q < len; ++q) {
        const std::size_t at = c * n + static_cast<std::size_t>(v.item[start + q]);
        xs[at] += ctx.x[c * len + q];
        ms[at] += ctx.m[c * len + q];
      }
    }
  }
  for (std::size_t start = 0; start < n; start += kB) {
    ctx.tally.start(start, std::min(kB, n - start));
    for (std::size_t c = 0; c < n_cols; ++c) {
      ctx.tally.add(c, xs.data() + c * n + start, ms.data() + ctx.m_col[c] * n + start, out.table);
    }
    ctx.tally.finish(out.item_disagreement.data() + start);
  }
}

}  // namespace detail

// The pass: label tables of the closed labels and the groups' categories,
// the items' weighted disagreement, the first record breaking a group, and
// and into `items` (when given) the items' counts.
template <typename T, typename Codes>
StructurePass structure_pass(const RecordView<T>& v, const Codes& codes, const LabelStructure& s,
                             std::size_t max_m, ItemCounts items = ItemCounts()) {
  detail::PassContext ctx(s, v.n_labels, max_m);
  StructurePass out;
  out.table.reset(ctx.off.back(), max_m);
  out.item_disagreement.assign(v.n_items, kNA);
  if (items.x != nullptr) ctx.tally.keep_items(items.x, items.m, v.n_items);
  if (v.item == nullptr) {
    detail::dense_pass(v, codes, ctx, out);
  } else {
    detail::records_pass(v, codes, ctx, out);
  }
  return out;
}

}  // namespace mlagreement

#endif
