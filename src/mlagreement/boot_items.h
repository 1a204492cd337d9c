// Item (and cluster) bootstrap and jackknife by class codes (paper section
// 5.5). Item resampling never revisits the records: per label, an item's
// (x, m) pair falls into one of max_m (max_m + 3) / 2 classes, so each cell
// gets a compact class code once and a replicate only adds item
// multiplicities into class bins (one add per cell). The bins give a label
// table (cnt, sx, sdis are integer sums, so they are exact) and the estimator
// kernel runs on it.
// Pure C++: no R headers. OpenMP regions touch no R API.
#ifndef MLAGREEMENT_BOOT_ITEMS_H
#define MLAGREEMENT_BOOT_ITEMS_H

#include <cstddef>
#include <cstdint>
#include <vector>

#include "boot_units.h"
#include "estimators.h"
#include "replicate_stats.h"
#include "label_table.h"
#include "rng.h"
#include "threads.h"

namespace mlagreement {

// Code 0: no decision (a sink bin); otherwise 1 + j * C + (m - 1)(m + 2) / 2 + x.
inline std::size_t class_offset(std::size_t m) { return (m - 1) * (m + 2) / 2; }
inline std::size_t classes_per_label(std::size_t max_m) { return max_m * (max_m + 3) / 2; }

// A non-owning view: the codes live in memory the caller owns (in R, a raw
// vector built once per bootstrap), item-major: codes[i * n_labels + j].
template <typename Code>
struct ClassCodes {
  std::size_t n_items = 0, n_labels = 0, max_m = 0, per_label = 0, n_bins = 0;
  const Code* codes = nullptr;
  // the corpus coefficients the replicates report (single-label designs)
  CorpusStatistic corpus = CorpusStatistic::multi_label;
};

template <typename Code>
ClassCodes<Code> class_codes(const Code* codes, std::size_t n_items, std::size_t k,
                             std::size_t max_m) {
  ClassCodes<Code> cc;
  cc.n_items = n_items;
  cc.n_labels = k;
  cc.max_m = max_m;
  cc.per_label = classes_per_label(max_m);
  cc.n_bins = 1 + k * cc.per_label;
  cc.codes = codes;
  return cc;
}

// Fills out (n_items * k codes) from the count tables x, m (items x labels).
template <typename Code>
void build_codes(const int* x, const int* m, std::size_t n_items, std::size_t k, std::size_t max_m,
                 Code* out) {
  const std::size_t per_label = classes_per_label(max_m);
  for (std::size_t c = 0; c < n_items * k; ++c) out[c] = 0;
  for (std::size_t j = 0; j < k; ++j) {
    const int* xj = x + j * n_items;
    const int* mj = m + j * n_items;
    const std::size_t base = 1 + j * per_label;
    for (std::size_t i = 0; i < n_items; ++i) {
      if (mj[i] <= 0) continue;
      const std::size_t mi = static_cast<std::size_t>(mj[i]);
      out[i * k + j] = static_cast<Code>(base + class_offset(mi) + static_cast<std::size_t>(xj[i]));
    }
  }
}

// Per-thread scratch of the item engines.
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

// Bins -> label table -> kernel -> coefficients into out[s * stride].
template <typename Code, typename Bin>
void stats_from_bins(const ClassCodes<Code>& cc, const Bin* bins, LabelTable& t,
                     std::vector<LabelSummary>& ls, double* out, std::size_t stride) {
  const std::size_t k = cc.n_labels, mm = cc.max_m;
  t.reset(k, mm);
  for (std::size_t j = 0; j < k; ++j) {
    const Bin* bj = bins + 1 + j * cc.per_label;
    for (std::size_t m = 1; m <= mm; ++m) {
      const Bin* bm = bj + class_offset(m);
      double cnt = 0, sx = 0, sdis = 0;
      for (std::size_t x = 0; x <= m; ++x) {
        const double b = static_cast<double>(bm[x]);
        if (b == 0.0) continue;
        const double xd = static_cast<double>(x);
        cnt += b;
        sx += b * xd;
        sdis += b * xd * static_cast<double>(m - x);
      }
      t.cnt[j * mm + m - 1] = cnt;
      t.sx[j * mm + m - 1] = sx;
      t.sdis[j * mm + m - 1] = sdis;
    }
    ls[j] = summarise_label(t, j, /*with_floor=*/false);
  }
  write_stats(ls, out, stride, cc.corpus);
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

// Adds (sign = 1) or removes (sign = -1) the cells of items [first, last) of
// `items` to the bins.
template <typename Code>
void shift_bins(const ClassCodes<Code>& cc, const int* first, const int* last, int sign,
                std::int64_t* bins) {
  const std::size_t k = cc.n_labels;
  for (const int* p = first; p < last; ++p) {
    const Code* c = cc.codes + static_cast<std::size_t>(*p) * k;
    for (std::size_t j = 0; j < k; ++j) bins[c[j]] += sign;
  }
}

// The replicates of stream s. direct: index draws straight into the bins
// (only without clusters/strata; same draws, same replicates).
template <typename Code>
void item_stream(const ClassCodes<Code>& cc, const UnitDesign& u, std::uint64_t seed,
                 std::size_t n_rep, int s, bool direct, ItemScratch& w, double* out,
                 std::size_t row0, std::size_t n_out) {
  const std::size_t k = cc.n_labels;
  Rng rng = stream_rng(seed, s);
  for (std::size_t r = block_begin(s, n_rep); r < block_begin(s + 1, n_rep); ++r) {
    if (direct) {
      for (std::size_t b = 0; b < cc.n_bins; ++b) w.bins[b] = 0;
      const std::uint32_t n = static_cast<std::uint32_t>(cc.n_items);
      for (std::uint32_t d = 0; d < n; ++d) {
        const Code* c = cc.codes + static_cast<std::size_t>(bounded_u32(rng, n)) * k;
        for (std::size_t j = 0; j < k; ++j) ++w.bins[c[j]];
      }
    } else {
      draw_units(rng, u, w.unit_w.data());
      fill_bins(cc, item_weights(u, w.unit_w.data(), w.buf.data()), w.bins.data());
    }
    stats_from_bins(cc, w.bins.data(), w.t, w.ls, out + (r - row0), n_out);
  }
}

// Runs streams [s0, s1) of an item bootstrap with n_rep replicates; writes
// rows block_begin(s0) .. block_begin(s1) - 1 into out (row r at out[r - row0],
// n_out rows, column-major). method 1: index draws (see item_stream()).
template <typename Code>
bool boot_items(const ClassCodes<Code>& cc, const UnitDesign& u, std::uint64_t seed,
                std::size_t n_rep, int s0, int s1, int threads, int method, double* out,
                std::size_t n_out) {
  const std::size_t row0 = block_begin(s0, n_rep);
  bool failed = false;
  const bool direct = method == 1 && u.unit_of_item == nullptr && u.n_strata == 1;
#ifdef _OPENMP
#pragma omp parallel num_threads(threads) reduction(|| : failed)
#endif
  {
    ItemScratch w;
    const bool ready = guarded(failed, [&] { w.init(cc, u); });
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
    for (int s = s0; s < s1; ++s) {
      if (!ready) continue;
      guarded(failed, [&] { item_stream(cc, u, seed, n_rep, s, direct, w, out, row0, n_out); });
    }
  }
  return !failed;
}

// Leave-one-unit-out values by subtraction from the full-data bins:
// out is n_units x n_stats. unit_items lists items grouped by unit
// (unit v owns unit_items[unit_start[v]] .. unit_items[unit_start[v + 1] - 1]).
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
