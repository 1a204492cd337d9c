// Sufficient statistics of a multi-label annotation design.
//
// One pass over the record matrix (records x labels, column-major, R's layout)
// gives, for every item i and label j, x[i, j] = positive decisions and
// m[i, j] = non-missing decisions. Values are validated in the same pass.
// Pure C++: no R headers, so the core can be tested and reused outside R.
#ifndef MLAGREEMENT_COUNTS_H
#define MLAGREEMENT_COUNTS_H

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace mlagreement {

// Missing-value conventions of the two storage types R hands us.
struct IntCodes {
  int na;
  bool is_na(int v) const noexcept { return v == na; }
  bool is_valid(int v) const noexcept { return v == 0 || v == 1 || v == na; }
  int positive(int v) const noexcept { return v == 1; }
};
struct RealCodes {
  bool is_na(double v) const noexcept { return std::isnan(v); }
  bool is_valid(double v) const noexcept { return v == 0.0 || v == 1.0 || std::isnan(v); }
  int positive(double v) const noexcept { return v == 1.0; }
};

// Non-owning view of the records. Record r belongs to item item[r] (0-based);
// with item == nullptr the layout is dense: record r = i + n_items * c.
template <typename T>
struct RecordView {
  const T* values;
  std::size_t n_records;
  std::size_t n_labels;
  const int* item;
  std::size_t n_items;
  const int* annotator;  // 0-based annotator of each record (nullptr when dense)
  std::size_t n_annotators;
  std::size_t item_of(std::size_t r) const noexcept {
    return item ? static_cast<std::size_t>(item[r]) : r % n_items;
  }
  std::size_t annotator_of(std::size_t r) const noexcept {
    return annotator ? static_cast<std::size_t>(annotator[r]) : r / n_items;
  }
};

// Output buffers are owned by the caller (R allocates them, so no copy is made):
// x, m: n_items x n_labels, column-major, zero-filled; per-item and
// per-annotator record counts zeroed.
struct CountOutput {
  int* x;
  int* m;
  int* item_annotators;       // records with >= 1 decision, per item
  int* annotator_records;     // records with >= 1 decision, per annotator
  std::int64_t bad_index = -1;  // first invalid value (flat index), -1 if none
  std::int64_t n_decisions = 0;
  std::int64_t n_nonempty_records = 0;
};

namespace detail {

// Counts one label column; returns the flat index of the first invalid value or -1.
template <typename T, typename Codes>
std::int64_t count_label(const RecordView<T>& v, const Codes& codes, std::size_t j,
                         int* x, int* m) {
  const T* col = v.values + j * v.n_records;
  if (v.item == nullptr) {
    // Dense: annotator blocks of n_items consecutive records, streamed in order.
    const std::size_t n_blocks = v.n_records / v.n_items;
    for (std::size_t c = 0; c < n_blocks; ++c) {
      const T* block = col + c * v.n_items;
      bool ok = true;
      for (std::size_t i = 0; i < v.n_items; ++i) {
        const T val = block[i];
        ok &= codes.is_valid(val);
        x[i] += codes.positive(val);
        m[i] += !codes.is_na(val);
      }
      if (!ok) {
        for (std::size_t i = 0; i < v.n_items; ++i) {
          if (!codes.is_valid(block[i])) {
            return static_cast<std::int64_t>(j * v.n_records + c * v.n_items + i);
          }
        }
      }
    }
    return -1;
  }
  for (std::size_t r = 0; r < v.n_records; ++r) {
    const T val = col[r];
    if (!codes.is_valid(val)) return static_cast<std::int64_t>(j * v.n_records + r);
    const std::size_t i = static_cast<std::size_t>(v.item[r]);
    x[i] += codes.positive(val);
    m[i] += !codes.is_na(val);
  }
  return -1;
}

}  // namespace detail

template <typename T, typename Codes>
void count_decisions(const RecordView<T>& v, const Codes& codes, int threads, CountOutput& out) {
  const std::size_t cells = v.n_items * v.n_labels;
  const std::int64_t k = static_cast<std::int64_t>(v.n_labels);
  std::int64_t first_bad = std::numeric_limits<std::int64_t>::max();

  // Labels write disjoint columns of x and m, so they run in parallel safely.
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) schedule(static) reduction(min : first_bad)
#endif
  for (std::int64_t j = 0; j < k; ++j) {
    const std::size_t jj = static_cast<std::size_t>(j);
    const std::int64_t bad = detail::count_label(v, codes, jj, out.x + jj * v.n_items,
                                                 out.m + jj * v.n_items);
    if (bad >= 0 && bad < first_bad) first_bad = bad;
  }
  (void)threads;
  if (first_bad != std::numeric_limits<std::int64_t>::max()) {
    out.bad_index = first_bad;
    return;
  }

  for (std::size_t c = 0; c < cells; ++c) out.n_decisions += out.m[c];
  const std::int64_t full = static_cast<std::int64_t>(v.n_records) * k;
  if (out.n_decisions == full) {
    // Complete records: every record has a decision, no second pass needed.
    for (std::size_t r = 0; r < v.n_records; ++r) {
      ++out.item_annotators[v.item_of(r)];
      ++out.annotator_records[v.annotator_of(r)];
    }
    out.n_nonempty_records = static_cast<std::int64_t>(v.n_records);
    return;
  }
  // Some decisions missing: find the records with at least one decision.
  std::vector<unsigned char> seen(v.n_records, 0);
  for (std::size_t j = 0; j < v.n_labels; ++j) {
    const T* col = v.values + j * v.n_records;
    for (std::size_t r = 0; r < v.n_records; ++r) seen[r] |= !codes.is_na(col[r]);
  }
  for (std::size_t r = 0; r < v.n_records; ++r) {
    if (seen[r]) {
      ++out.item_annotators[v.item_of(r)];
      ++out.annotator_records[v.annotator_of(r)];
      ++out.n_nonempty_records;
    }
  }
}

}  // namespace mlagreement

#endif
