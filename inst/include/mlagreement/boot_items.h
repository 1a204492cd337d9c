// Item (and cluster) bootstrap and jackknife by class codes: a replicate
// adds item multiplicities into (m, x) class bins, never revisiting the
// records. OpenMP regions touch no R API.
// See DESIGN.md, Algorithms: Bootstrap.
#ifndef MLAGREEMENT_BOOT_ITEMS_H
#define MLAGREEMENT_BOOT_ITEMS_H

#include <algorithm>
#include <cstddef>
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "boot_units.h"
#include "cell_codes.h"
#include "estimators.h"
#include "replicate_stats.h"
#include "label_table.h"
#include "rng.h"
#include "structured_estimates.h"
#include "threads.h"

namespace mlagreement {

// The (m, x) classes that occur, per label ascending (the order bins are
// summed in): label j owns classes start[j] .. start[j + 1] - 1, class g has
// code 1 + g (code 0: no decision, a sink).
struct ClassTable {
  std::vector<int> start, m, x;
  std::size_t n_classes() const { return m.size(); }
};

namespace detail {
inline std::uint64_t class_key(int m, int x) {
  return (static_cast<std::uint64_t>(m) << 32) | static_cast<std::uint32_t>(x);
}
}  // namespace detail

namespace detail {
// The cells of x/m tables, by class when m < kMaxClassSide and the classes
// are not more than the items (presence flags instead of sorting).
constexpr int kMaxClassSide = 256;
inline CountCells count_cells(const int* x, const int* m, std::size_t n_items, std::size_t k) {
  int largest = 0;
  for (std::size_t c = 0; c < n_items * k; ++c) largest = std::max(largest, m[c]);
  const std::size_t side = static_cast<std::size_t>(largest) + 1;
  const bool by_class = largest < kMaxClassSide && side * side <= n_items;
  return CountCells{x, m, n_items, k, by_class ? side : 0};
}
}  // namespace detail

// The classes of cells (cell_codes.h) that occur.
template <typename Cells>
ClassTable class_table(const Cells& c) {
  ClassTable tab;
  tab.start.assign(1, 0);
  std::vector<std::uint64_t> keys;
  std::vector<unsigned char> seen(c.side * c.side);
  for (std::size_t j = 0; j < c.n_labels; ++j) {
    keys.clear();
    if (c.side > 0) {
      // ascending codes m * side + x are ascending (m, x)
      std::fill(seen.begin(), seen.end(), static_cast<unsigned char>(0));
      for (std::size_t i = 0; i < c.n_items; ++i) seen[c.code(j, i)] = 1;
      for (std::size_t code = c.side; code < seen.size(); ++code) {
        if (seen[code]) keys.push_back(detail::class_key(static_cast<int>(code / c.side), static_cast<int>(code % c.side)));
      }
    } else {
      for (std::size_t i = 0; i < c.n_items; ++i)
        if (c.m_at(j, i) > 0) keys.push_back(detail::class_key(c.m_at(j, i), c.x_at(j, i)));
      std::sort(keys.begin(), keys.end());
      keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    }
    if (tab.m.size() + keys.size() >= static_cast<std::size_t>(INT_MAX))
      throw std::length_error("Internal error: more than 2^31 bootstrap classes.");
    for (const std::uint64_t key : keys) {
      tab.m.push_back(static_cast<int>(key >> 32));
      tab.x.push_back(static_cast<int>(key & 0xffffffffu));
    }
    tab.start.push_back(static_cast<int>(tab.m.size()));
  }
  return tab;
}

inline ClassTable class_table(const int* x, const int* m, std::size_t n_items, std::size_t k) {
  return class_table(detail::count_cells(x, m, n_items, k));
}

// A non-owning view of the codes (item-major: codes[i * n_labels + j]) and
// their class table, kept by R as a raw vector with attributes.
template <typename Code>
struct ClassCodes {
  std::size_t n_items = 0, n_labels = 0, max_m = 0, n_bins = 0;
  const Code* codes = nullptr;
  const int* class_start = nullptr;  // n_labels + 1 offsets
  const int* class_m = nullptr;
  const int* class_x = nullptr;
  // the corpus coefficients the replicates report (single-label designs)
  CorpusStatistic corpus = CorpusStatistic::multi_label;
  // a structured fit's statistics (the codes: the structure pass's columns)
  const StructureStats* structure = nullptr;
};

template <typename Code>
ClassCodes<Code> class_codes(const Code* codes, std::size_t n_items, std::size_t k,
                             std::size_t max_m, const int* start, const int* cm, const int* cx) {
  ClassCodes<Code> cc;
  cc.n_items = n_items;
  cc.n_labels = k;
  cc.max_m = max_m;
  cc.n_bins = 1 + static_cast<std::size_t>(start[k]);
  cc.codes = codes;
  cc.class_start = start;
  cc.class_m = cm;
  cc.class_x = cx;
  return cc;
}

template <typename Code>
ClassCodes<Code> class_codes(const Code* codes, std::size_t n_items, std::size_t k,
                             std::size_t max_m, const ClassTable& tab) {
  return class_codes(codes, n_items, k, max_m, tab.start.data(), tab.m.data(), tab.x.data());
}

// Fills out (n_items * k codes, item-major) from cells and their class table.
template <typename Cells, typename Code>
void build_codes(const Cells& c, const ClassTable& tab, Code* out) {
  const std::size_t k = c.n_labels;
  std::vector<std::uint64_t> keys;
  std::vector<Code> code_of(c.side * c.side);
  for (std::size_t j = 0; j < k; ++j) {
    const std::size_t g0 = static_cast<std::size_t>(tab.start[j]);
    const std::size_t g1 = static_cast<std::size_t>(tab.start[j + 1]);
    if (c.side > 0) {
      std::fill(code_of.begin(), code_of.end(), static_cast<Code>(0));
      for (std::size_t g = g0; g < g1; ++g) {
        code_of[static_cast<std::size_t>(tab.m[g]) * c.side + static_cast<std::size_t>(tab.x[g])] =
            static_cast<Code>(1 + g);
      }
      for (std::size_t i = 0; i < c.n_items; ++i) out[i * k + j] = code_of[c.code(j, i)];
      continue;
    }
    keys.resize(g1 - g0);
    for (std::size_t g = g0; g < g1; ++g) keys[g - g0] = detail::class_key(tab.m[g], tab.x[g]);
    for (std::size_t i = 0; i < c.n_items; ++i) {
      Code code = 0;
      const int m = c.m_at(j, i);
      if (m > 0) {
        const auto it = std::lower_bound(keys.begin(), keys.end(), detail::class_key(m, c.x_at(j, i)));
        code = static_cast<Code>(1 + g0 + static_cast<std::size_t>(it - keys.begin()));
      }
      out[i * k + j] = code;
    }
  }
}

// The same from the count tables x, m (items x labels).
template <typename Code>
void build_codes(const int* x, const int* m, std::size_t n_items, std::size_t k,
                 const ClassTable& tab, Code* out) {
  build_codes(detail::count_cells(x, m, n_items, k), tab, out);
}

struct ItemScratch {
  std::vector<std::uint32_t> unit_w, buf;
  std::vector<std::int64_t> bins;
  std::vector<LabelSummary> ls;
  LabelTable t;
  template <typename Code>
  void init(const ClassCodes<Code>& cc, const UnitDesign& u) {
    unit_w.resize(u.n_units);
    buf.resize(u.unit_of_item ? u.n_items : 0);
    bins.resize(cc.n_bins);
    ls.resize(cc.n_labels);
  }
};

// Bins -> label table -> kernel -> coefficients into out[s * stride]; classes
// ascend in (m, x), so each cell sums its bins in the order of dense bins.
template <typename Code, typename Bin>
void stats_from_bins(const ClassCodes<Code>& cc, const Bin* bins, LabelTable& t,
                     std::vector<LabelSummary>& ls, double* out, std::size_t stride) {
  const std::size_t k = cc.n_labels, mm = cc.max_m;
  t.reset(k, mm);
  for (std::size_t j = 0; j < k; ++j) {
    const std::size_t g1 = static_cast<std::size_t>(cc.class_start[j + 1]);
    for (std::size_t g = static_cast<std::size_t>(cc.class_start[j]); g < g1; ++g) {
      const double b = static_cast<double>(bins[1 + g]);
      if (b == 0.0) continue;
      const std::size_t m = static_cast<std::size_t>(cc.class_m[g]);
      const std::size_t x = static_cast<std::size_t>(cc.class_x[g]);
      const double xd = static_cast<double>(x);
      const std::size_t slot = j * mm + m - 1;
      t.cnt[slot] += b;
      t.sx[slot] += b * xd;
      t.sdis[slot] += b * xd * static_cast<double>(m - x);
    }
    ls[j] = summarise_label(t, j, /*with_floor=*/false);
  }
  if (cc.structure != nullptr) {
    write_structure_stats(ls, *cc.structure, out, stride);
  } else {
    write_stats(ls, out, stride, cc.corpus);
  }
}

template <typename Code, typename W>
void fill_bins(const ClassCodes<Code>& cc, const W* w, std::int64_t* bins) {
  const std::size_t k = cc.n_labels;
  for (std::size_t b = 0; b < cc.n_bins; ++b) bins[b] = 0;
  for (std::size_t i = 0; i < cc.n_items; ++i) {
    const std::int64_t wi = static_cast<std::int64_t>(w[i]);
    if (wi == 0) continue;
    const Code* c = cc.codes + i * k;
    for (std::size_t j = 0; j < k; ++j) bins[c[j]] += wi;
  }
}

// Adds (sign = 1) or removes (sign = -1) the cells of items [first, last).
template <typename Code>
void shift_bins(const ClassCodes<Code>& cc, const int* first, const int* last, int sign,
                std::int64_t* bins) {
  const std::size_t k = cc.n_labels;
  for (const int* p = first; p < last; ++p) {
    const Code* c = cc.codes + static_cast<std::size_t>(*p) * k;
    for (std::size_t j = 0; j < k; ++j) bins[c[j]] += sign;
  }
}

// One replicate into a row of out (n_out rows, column-major).
template <typename Code>
void item_replicate(const ClassCodes<Code>& cc, const UnitDesign& u, Rng& rng, ItemScratch& w,
                    double* out, std::size_t n_out) {
  draw_units(rng, u, w.unit_w.data());
  fill_bins(cc, item_weights(u, w.unit_w.data(), w.buf.data()), w.bins.data());
  stats_from_bins(cc, w.bins.data(), w.t, w.ls, out, n_out);
}

// The replicates of stream s (rows block_begin(s) .. block_begin(s + 1) - 1).
template <typename Code>
void item_stream(const ClassCodes<Code>& cc, const UnitDesign& u, std::uint64_t seed,
                 std::size_t n_rep, int s, ItemScratch& w, double* out, std::size_t row0,
                 std::size_t n_out) {
  Rng rng = stream_rng(seed, s);
  for (std::size_t r = block_begin(s, n_rep); r < block_begin(s + 1, n_rep); ++r) {
    item_replicate(cc, u, rng, w, out + (r - row0), n_out);
  }
}

// Runs streams [s0, s1) of an item bootstrap into rows block_begin(s0) ..
// block_begin(s1) - 1 of out (row r at out[r - row0]). The glue runs the
// same replicates in chunks (advance_streams()); this form serves the fuzz
// target and the C++ unit tests.
template <typename Code>
bool boot_items(const ClassCodes<Code>& cc, const UnitDesign& u, std::uint64_t seed,
                std::size_t n_rep, int s0, int s1, int threads, double* out, std::size_t n_out) {
  const std::size_t row0 = block_begin(s0, n_rep);
  return parallel_for_scratch<ItemScratch>(
      s0, s1, threads, 1, [&](ItemScratch& w) { w.init(cc, u); },
      [&](ItemScratch& w, std::int64_t s) {
        item_stream(cc, u, seed, n_rep, static_cast<int>(s), w, out, row0, n_out);
      });
}

// Leave-one-unit-out values by subtraction from the full-data bins (n_units
// x n_stats); unit v owns unit_items[unit_start[v] .. unit_start[v + 1] - 1].
template <typename Code>
bool jackknife_items(const ClassCodes<Code>& cc, std::size_t n_units, const int* unit_start,
                     const int* unit_items, int threads, double* out) {
  std::vector<std::int64_t> full(cc.n_bins);
  std::vector<std::uint32_t> ones(cc.n_items, 1);
  fill_bins(cc, ones.data(), full.data());
  bool failed = false;
#ifdef _OPENMP
#pragma omp parallel num_threads(threads) reduction(|| : failed)
#endif
  {
    std::vector<std::int64_t> bins;
    std::vector<LabelSummary> ls;
    LabelTable t;
    const bool ready = guarded(failed, [&] {
      bins = full;
      ls.resize(cc.n_labels);
    });
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
    for (std::size_t v = 0; v < n_units; ++v) {
      if (!ready) continue;
      guarded(failed, [&] {
        const int* first = unit_items + unit_start[v];
        const int* last = unit_items + unit_start[v + 1];
        shift_bins(cc, first, last, -1, bins.data());
        stats_from_bins(cc, bins.data(), t, ls, out + v, n_units);
        shift_bins(cc, first, last, 1, bins.data());
      });
    }
  }
  return !failed;
}

}  // namespace mlagreement

#endif
