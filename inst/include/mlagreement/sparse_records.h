// The sparse records layout (selected labels over a large universe): the
// counting pass and the label sets, equal to the dense passes' results.
// See DESIGN.md, Algorithms: The counting pass.
#ifndef MLAGREEMENT_SPARSE_RECORDS_H
#define MLAGREEMENT_SPARSE_RECORDS_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "counts.h"
#include "set_build.h"
#include "tally.h"

namespace mlagreement {

struct SparseRecords {
  std::size_t n_records;
  std::size_t n_labels;  // the label universe
  const int* item;       // n_records, 0-based
  std::size_t n_items;
  const int* annotator;  // n_records, 0-based
  std::size_t n_annotators;
  const int* start;  // n_records + 1 offsets into label
  const int* label;  // start[n_records] selected labels, 0-based
};

// Guards every pass relies on (a broken layout is an internal error, never
// an out-of-bounds read).
inline void check_sparse_records(const SparseRecords& s) {
  if (s.n_labels == 0 || s.n_items == 0) {
    throw std::invalid_argument("Internal error: a sparse view with no labels or no items.");
  }
  if (s.start[0] != 0) throw std::invalid_argument("Internal error: sparse offsets must start at 0.");
  for (std::size_t r = 0; r < s.n_records; ++r) {
    if (s.item[r] < 0 || static_cast<std::size_t>(s.item[r]) >= s.n_items ||
        s.annotator[r] < 0 || static_cast<std::size_t>(s.annotator[r]) >= s.n_annotators) {
      throw std::invalid_argument("Internal error: a sparse record's id is out of range.");
    }
    const int b = s.start[r], e = s.start[r + 1];
    if (e < b) throw std::invalid_argument("Internal error: sparse offsets must not decrease.");
    for (int p = b; p < e; ++p) {
      const int j = s.label[p];
      if (j < 0 || static_cast<std::size_t>(j) >= s.n_labels || (p > b && j <= s.label[p - 1])) {
        throw std::invalid_argument("Internal error: sparse labels must be increasing and in range.");
      }
    }
  }
}

namespace detail {

// Records grouped by item (stable counting sort).
struct ItemGroups {
  std::vector<std::size_t> first, order;
};

inline ItemGroups group_by_item(const SparseRecords& s) {
  ItemGroups g;
  g.first.assign(s.n_items + 1, 0);
  for (std::size_t r = 0; r < s.n_records; ++r) ++g.first[static_cast<std::size_t>(s.item[r]) + 1];
  for (std::size_t i = 0; i < s.n_items; ++i) g.first[i + 1] += g.first[i];
  std::vector<std::size_t> next(g.first.begin(), g.first.end() - 1);
  g.order.resize(s.n_records);
  for (std::size_t r = 0; r < s.n_records; ++r) g.order[next[static_cast<std::size_t>(s.item[r])]++] = r;
  return g;
}

}  // namespace detail

// The counting pass over the labels with col_of_label[j] >= 0 (their column
// among n_cols): count_decisions()'s outputs, out.x/out.m optional.
inline void count_sparse(const SparseRecords& s, const int* col_of_label, std::size_t n_cols,
                         CountOutput& out, TallyOutput& tally) {
  check_sparse_records(s);
  const std::size_t max_m = tally.table.max_m;
  if (n_cols == 0 || max_m == 0) throw std::invalid_argument("Internal error: no labels or max_m 0.");
  const detail::ItemGroups g = detail::group_by_item(s);
  const std::vector<double> factor = pair_factors(max_m);
  std::vector<std::int64_t> items_with_m(max_m + 1, 0);
  std::vector<int> x(n_cols, 0);
  std::vector<std::size_t> touched;
  IntTable& t = tally.table;
  for (std::size_t i = 0; i < s.n_items; ++i) {
    const std::size_t m = g.first[i + 1] - g.first[i];
    tally.item_disagreement[i] = item_disagreement(0.0, 0.0);
    if (m == 0) continue;
    if (m > max_m) throw std::invalid_argument("Internal error: max_m is below the records of an item.");
    ++items_with_m[m];
    out.item_annotators[i] = static_cast<int>(m);
    touched.clear();
    for (std::size_t q = g.first[i]; q < g.first[i + 1]; ++q) {
      const std::size_t r = g.order[q];
      for (int p = s.start[r]; p < s.start[r + 1]; ++p) {
        const int c = col_of_label[s.label[p]];
        if (c < 0) continue;
        if (x[static_cast<std::size_t>(c)]++ == 0) touched.push_back(static_cast<std::size_t>(c));
      }
    }
    std::sort(touched.begin(), touched.end());
    const std::int64_t mm = static_cast<std::int64_t>(m);
    double d_sum = 0.0;
    for (const std::size_t c : touched) {
      const std::int64_t xi = x[c];
      const std::int64_t dis = xi * (mm - xi);
      const std::size_t slot = c * max_m + m - 1;
      t.sx[slot] += xi;
      t.sdis[slot] += dis;
      if (m >= 2) d_sum += static_cast<double>(dis) * factor[m];
      if (out.x != nullptr) out.x[c * s.n_items + i] = static_cast<int>(xi);
      x[c] = 0;
    }
    if (m >= 2) tally.item_disagreement[i] = item_disagreement(d_sum, static_cast<double>(n_cols));
    if (out.m != nullptr) {
      for (std::size_t c = 0; c < n_cols; ++c) out.m[c * s.n_items + i] = static_cast<int>(m);
    }
  }
  // every item has the same m on every label: cnt is the histogram of m
  for (std::size_t c = 0; c < n_cols; ++c) {
    for (std::size_t m = 1; m <= max_m; ++m) t.cnt[c * max_m + m - 1] = items_with_m[m];
  }
  for (std::size_t r = 0; r < s.n_records; ++r) ++out.annotator_records[s.annotator[r]];
  out.n_nonempty_records = static_cast<std::int64_t>(s.n_records);
  out.n_decisions = static_cast<std::int64_t>(s.n_records) * static_cast<std::int64_t>(n_cols);
}

// The label sets of the records, as build_sets_general() gives them.
inline void build_sets_sparse(const SparseRecords& s, bool annotators, SetData& out) {
  check_sparse_records(s);
  const std::size_t k = s.n_labels, n = s.n_records, W = (k + 63) / 64, N = s.n_items;
  out = SetData();
  out.n_words = W;
  std::vector<std::size_t> per_item(N, 0);
  for (std::size_t r = 0; r < n; ++r) ++per_item[static_cast<std::size_t>(s.item[r])];
  std::vector<std::size_t> slot(N, detail::kNotPairable);
  std::size_t total = 0;
  out.start.push_back(0);
  for (std::size_t i = 0; i < N; ++i) {
    if (per_item[i] < 2) continue;
    slot[i] = total;
    total += per_item[i];
    out.start.push_back(total);
  }
  if (out.start.size() == 1) out.start.clear();
  std::vector<int> table = detail::start_distinct_sets(out, total, k, W, annotators);
  std::vector<std::uint64_t> words(W, 0);
  for (std::size_t r = 0; r < n; ++r) {
    const std::size_t item = static_cast<std::size_t>(s.item[r]);
    if (slot[item] == detail::kNotPairable) continue;
    for (int p = s.start[r]; p < s.start[r + 1]; ++p) {
      const std::size_t j = static_cast<std::size_t>(s.label[p]);
      words[j / 64] |= std::uint64_t{1} << (j % 64);
    }
    const int id = detail::distinct_set_id(table, out, W, words.data());
    for (int p = s.start[r]; p < s.start[r + 1]; ++p) words[static_cast<std::size_t>(s.label[p]) / 64] = 0;
    out.count[static_cast<std::size_t>(id)] += 1.0;
    const std::size_t q = slot[item]++;
    out.rec_set[q] = id;
    if (annotators) out.rec_annotator[q] = s.annotator[r];
  }
}

}  // namespace mlagreement

#endif
