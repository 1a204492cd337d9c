// The counting pass: one pass over the records x labels values gives, per
// item i and label j, x[i, j] positives and m[i, j] decisions, validates the
// values and tallies the label tables.
// See DESIGN.md, Algorithms: The counting pass.
#ifndef MLAGREEMENT_COUNTS_H
#define MLAGREEMENT_COUNTS_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "cell_codes.h"
#include "record_view.h"
#include "tally.h"
#include "threads.h"

namespace mlagreement {

// Output buffers owned by the caller (R allocates them: no copy). x, m:
// n_items x n_labels, column-major, zero-filled for the records layout; the
// dense layout accepts nullptr and then produces only the label tables.
struct CountOutput {
  int* x;
  int* m;
  int* item_annotators;       // records with >= 1 decision, per item
  int* annotator_records;     // records with >= 1 decision, per annotator
  // Dense layout, optional: packed class codes (cell_codes.h), label-major;
  // chunk_m (chunks x labels) the chunk's common m or -1, and then m4 holds
  // that chunk's m (the caller completes or drops m4).
  std::uint8_t* x4 = nullptr;
  std::uint8_t* m4 = nullptr;
  std::int8_t* chunk_m = nullptr;
  std::int64_t bad_index = -1;  // first invalid value (flat index), -1 if none
  std::int64_t n_decisions = 0;
  std::int64_t n_nonempty_records = 0;
};

namespace detail {

// Adds kWays annotator blocks (stride apart) of a chunk to its counters;
// non-zero if a value is invalid. Several blocks per pass touch the counters
// once; `omp simd` vectorises the loop whatever the compiler can prove about
// aliasing (the counters escape to the tally, and -O2's cheap vectoriser adds
// no run-time alias checks), with an integer OR-reduction (a bool one would
// block it).
template <std::size_t kLen, std::size_t kWays, typename T, typename Codes>
inline int accumulate_blocks(const T* first, std::size_t stride, std::size_t len,
                             const Codes& codes, int* __restrict xs, int* __restrict ms) {
  const std::size_t n = kLen > 0 ? kLen : len;
  const T* b0 = first;
  const T* b1 = first + (kWays > 1 ? stride : 0);
  const T* b2 = first + (kWays > 2 ? 2 * stride : 0);
  const T* b3 = first + (kWays > 3 ? 3 * stride : 0);
  int bad = 0;
#ifdef _OPENMP
#pragma omp simd reduction(| : bad)
#endif
  for (std::size_t i = 0; i < n; ++i) {
    const T v0 = b0[i];
    int x = codes.positive(v0), m = codes.decided(v0), b = codes.invalid(v0);
    if (kWays > 1) {
      const T v1 = b1[i];
      x += codes.positive(v1);
      m += codes.decided(v1);
      b |= codes.invalid(v1);
    }
    if (kWays > 2) {
      const T v2 = b2[i];
      x += codes.positive(v2);
      m += codes.decided(v2);
      b |= codes.invalid(v2);
    }
    if (kWays > 3) {
      const T v3 = b3[i];
      x += codes.positive(v3);
      m += codes.decided(v3);
      b |= codes.invalid(v3);
    }
    bad |= b;
    xs[i] += x;
    ms[i] += m;
  }
  return bad;
}

// All annotator blocks of one label of a chunk, four at a time.
template <std::size_t kLen, typename T, typename Codes>
inline int accumulate_label(const T* first, std::size_t stride, std::size_t n_blocks,
                            std::size_t len, const Codes& codes, int* xs, int* ms) {
  int bad = 0;
  std::size_t c = 0;
  for (; c + 4 <= n_blocks; c += 4) {
    bad |= accumulate_blocks<kLen, 4>(first + c * stride, stride, len, codes, xs, ms);
  }
  switch (n_blocks - c) {
    case 3: bad |= accumulate_blocks<kLen, 3>(first + c * stride, stride, len, codes, xs, ms); break;
    case 2: bad |= accumulate_blocks<kLen, 2>(first + c * stride, stride, len, codes, xs, ms); break;
    case 1: bad |= accumulate_blocks<kLen, 1>(first + c * stride, stride, len, codes, xs, ms); break;
    default: break;
  }
  return bad;
}

// Records layout: one label column scattered into x/m; the flat index of the
// first invalid value or -1.
template <typename T, typename Codes>
std::int64_t count_label_records(const RecordView<T>& v, const Codes& codes_in, std::size_t j,
                                 int* x_out, int* m_out) {
  const Codes codes = codes_in;  // local copy: stores to x/m cannot alias it
  const T* col = v.column(j);
  for (std::size_t r = 0; r < v.n_records; ++r) {
    const T val = col[r];
    if (codes.invalid(val)) return static_cast<std::int64_t>(v.column_of(j) * v.n_records + r);
    const std::size_t i = static_cast<std::size_t>(v.item[r]);
    x_out[i] += codes.positive(val);
    m_out[i] += codes.decided(val);
  }
  return -1;
}

// The packed codes of one chunk x label (see CountOutput).
inline void store_packed(const int* xs, const int* ms, std::size_t len, std::size_t cell,
                         std::size_t chunk_cell, CountOutput& out) {
  pack_nibbles(xs, len, out.x4 + cell);
  const bool differ = m_differs(ms, len);
  out.chunk_m[chunk_cell] = static_cast<std::int8_t>(differ ? -1 : ms[0]);
  if (differ) pack_nibbles(ms, len, out.m4 + cell);
}

// Items per chunk of the dense pass: each (annotator, label) column is read
// in runs of kDenseChunk values, long enough for the hardware prefetchers
// (bench/README.md, "mla() and page faults"); the packed codes keep their
// kCellChunk sub-chunks.
constexpr std::size_t kDenseChunk = 4 * kCellChunk;

// Records with a decision in a dense chunk where no label is decided in
// every record: the chunk is read again, from cache.
template <typename T, typename Codes>
void count_chunk_records(const RecordView<T>& v, const Codes& codes, std::size_t start,
                         std::size_t len, int* item_annotators, std::int64_t* annotators,
                         int* seen) {
  const std::size_t n_blocks = v.n_records / v.n_items;
  for (std::size_t c = 0; c < n_blocks; ++c) {
    for (std::size_t i = 0; i < len; ++i) seen[i] = 0;
    for (std::size_t j = 0; j < v.n_labels; ++j) {
      const T* block = v.column(j) + c * v.n_items + start;
      for (std::size_t i = 0; i < len; ++i) seen[i] |= codes.decided(block[i]);
    }
    std::int64_t n = 0;
    for (std::size_t i = 0; i < len; ++i) {
      item_annotators[i] += seen[i];
      n += seen[i];
    }
    annotators[c] += n;
  }
}

// Flat index of the first invalid value of label j in items [start, start +
// len) of a dense view, in record order.
template <typename T, typename Codes>
std::int64_t first_invalid_in_chunk(const RecordView<T>& v, const Codes& codes, std::size_t j,
                                    std::size_t start, std::size_t len) {
  const T* col = v.column(j);
  const std::size_t n_blocks = v.n_records / v.n_items;
  for (std::size_t c = 0; c < n_blocks; ++c) {
    for (std::size_t i = 0; i < len; ++i) {
      const std::size_t r = c * v.n_items + start + i;
      if (codes.invalid(col[r])) {
        return static_cast<std::int64_t>(v.column_of(j) * v.n_records + r);
      }
    }
  }
  return std::numeric_limits<std::int64_t>::max();
}

// The chunk's cells of label j as the pass keeps them (each when asked for);
// codes per kCellChunk sub-chunk (start is a multiple of kDenseChunk).
inline void store_label_cells(const int* xs, const int* ms, std::size_t len, std::size_t j,
                              std::size_t start, std::size_t n_labels, std::size_t n_items,
                              CountOutput& out) {
  if (out.x != nullptr) {
    std::copy(xs, xs + len, out.x + j * n_items + start);
    std::copy(ms, ms + len, out.m + j * n_items + start);
  }
  if (out.x4 == nullptr) return;
  for (std::size_t s = 0; s < len; s += kCellChunk) {
    const std::size_t first = start + s;
    store_packed(xs + s, ms + s, std::min(kCellChunk, len - s), j * nibble_bytes(n_items) + first / 2,
                 (first / kCellChunk) * n_labels + j, out);
  }
}

// Dense layout: item chunks in parallel (DESIGN.md); the first invalid index.
template <typename T, typename Codes>
std::int64_t count_dense(const RecordView<T>& v, const Codes& codes_in, int threads,
                         CountOutput& out, TallyOutput& tally) {
  const std::size_t n_items = v.n_items;
  const std::size_t n_blocks = v.n_records / n_items;
  const std::int64_t n_chunks =
      static_cast<std::int64_t>((n_items + kDenseChunk - 1) / kDenseChunk);
  const std::vector<double> factor = pair_factors(tally.table.max_m);
  const std::size_t n_threads = static_cast<std::size_t>(team_size(threads));
  std::vector<IntTable> partial(n_threads);
  for (IntTable& p : partial) p.reset(v.n_labels, tally.table.max_m);
  // records with a decision per annotator, per thread
  std::vector<std::vector<std::int64_t>> per_annotator(n_threads,
                                                       std::vector<std::int64_t>(n_blocks, 0));
  const int all_blocks = static_cast<int>(n_blocks);
  std::int64_t first_bad = std::numeric_limits<std::int64_t>::max();
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
#endif
  {
    const Codes codes = codes_in;
    // distinct arrays (not one buffer): the compiler then knows they do not alias
    int xs[kDenseChunk], ms[kDenseChunk], seen[kDenseChunk];
    const std::size_t me = static_cast<std::size_t>(thread_slot());
    IntTable& mine = partial[me];
    ItemChunk items(kDenseChunk);
    std::int64_t* annotators = per_annotator[me].data();
#ifdef _OPENMP
#pragma omp for schedule(static) reduction(min : first_bad)
#endif
    for (std::int64_t ch = 0; ch < n_chunks; ++ch) {
      const std::size_t start = static_cast<std::size_t>(ch) * kDenseChunk;
      const std::size_t len = std::min(kDenseChunk, n_items - start);
      bool all_records_decided = false;  // some label decided in every record
      items.start(len);
      for (std::size_t j = 0; j < v.n_labels; ++j) {
        const T* col = v.column(j);
        for (std::size_t i = 0; i < len; ++i) xs[i] = ms[i] = 0;
        const T* first = col + start;
        int bad = len == kDenseChunk
                      ? accumulate_label<kDenseChunk>(first, n_items, n_blocks, len, codes, xs, ms)
                      : accumulate_label<0>(first, n_items, n_blocks, len, codes, xs, ms);
        if (bad) {
          first_bad = std::min(first_bad, first_invalid_in_chunk(v, codes, j, start, len));
          continue;
        }
        store_label_cells(xs, ms, len, j, start, v.n_labels, n_items, out);
        tally_label_chunk(xs, ms, len, j, factor.data(), mine, items.d_sum(), items.n_pairable());
        if (!all_records_decided) {
          int all = 1;
#ifdef _OPENMP
#pragma omp simd reduction(& : all)
#endif
          for (std::size_t i = 0; i < len; ++i) all &= static_cast<int>(ms[i] == all_blocks);
          all_records_decided = all != 0;
        }
      }
      items.finish(tally.item_disagreement + start);
      int* item_annotators = out.item_annotators + start;
      if (all_records_decided) {
        for (std::size_t i = 0; i < len; ++i) item_annotators[i] = all_blocks;
        for (std::size_t c = 0; c < n_blocks; ++c) annotators[c] += static_cast<std::int64_t>(len);
      } else {
        count_chunk_records(v, codes, start, len, item_annotators, annotators, seen);
      }
    }
  }
  for (const IntTable& p : partial) tally.table.add(p);
  for (std::size_t c = 0; c < n_blocks; ++c) {
    std::int64_t n = 0;
    for (std::size_t t = 0; t < n_threads; ++t) n += per_annotator[t][c];
    out.annotator_records[c] = static_cast<int>(n);
    out.n_nonempty_records += n;
  }
  return first_bad == std::numeric_limits<std::int64_t>::max() ? -1 : first_bad;
}

}  // namespace detail

template <typename T, typename Codes>
void count_decisions(const RecordView<T>& v, const Codes& codes, int threads, CountOutput& out,
                     TallyOutput& tally) {
  check_view_extents(v);
  // every m[i, j] indexes the label tables, rows 1..max_m
  if (tally.table.max_m == 0 || (v.item == nullptr && tally.table.max_m < v.n_records / v.n_items)) {
    throw std::invalid_argument("Internal error: max_m is below the records of an item.");
  }
  const std::int64_t k = static_cast<std::int64_t>(v.n_labels);
  if (v.item == nullptr) {
    out.bad_index = detail::count_dense(v, codes, threads, out, tally);
    if (out.bad_index >= 0) return;
  } else {
    std::int64_t first_bad = std::numeric_limits<std::int64_t>::max();
    // Labels write disjoint columns of x and m, so they run in parallel safely.
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) schedule(static) reduction(min : first_bad)
#endif
    for (std::int64_t j = 0; j < k; ++j) {
      const std::size_t jj = static_cast<std::size_t>(j);
      const std::int64_t bad = detail::count_label_records(v, codes, jj, out.x + jj * v.n_items,
                                                           out.m + jj * v.n_items);
      if (bad >= 0 && bad < first_bad) first_bad = bad;
    }
    if (first_bad != std::numeric_limits<std::int64_t>::max()) {
      out.bad_index = first_bad;
      return;
    }
    const std::size_t n_cells = v.n_items * v.n_labels;
    if (n_cells > 0 &&
        static_cast<std::size_t>(*std::max_element(out.m, out.m + n_cells)) > tally.table.max_m) {
      throw std::invalid_argument("Internal error: max_m is below the records of an item.");
    }
    tally_counts(out.x, out.m, v.n_items, v.n_labels, tally.table.max_m, threads, tally);
  }

  // decisions: m times the items with that m, over labels and m
  const IntTable& t = tally.table;
  for (std::size_t s = 0; s < t.cnt.size(); ++s) {
    out.n_decisions += t.cnt[s] * static_cast<std::int64_t>(s % t.max_m + 1);
  }
  if (v.item == nullptr) return;  // the dense pass counted the records with decisions
  const std::int64_t full = static_cast<std::int64_t>(v.n_records) * k;
  if (out.n_decisions == full) {
    // complete records: every record has a decision
    for (std::size_t r = 0; r < v.n_records; ++r) {
      ++out.item_annotators[v.item_of(r)];
      ++out.annotator_records[v.annotator_of(r)];
    }
    out.n_nonempty_records = static_cast<std::int64_t>(v.n_records);
    return;
  }
  std::vector<unsigned char> seen(v.n_records, 0);
  for (std::size_t j = 0; j < v.n_labels; ++j) {
    const T* col = v.column(j);
    for (std::size_t r = 0; r < v.n_records; ++r) seen[r] |= static_cast<unsigned char>(codes.decided(col[r]));
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
