// Annotator and two-way bootstrap on the records: per-(item, label) sums
// over the drawn annotator copies, read straight from the records; only
// copies of distinct annotators form pairs. OpenMP regions touch no R API.
// See DESIGN.md, Algorithms: Bootstrap.
#ifndef MLAGREEMENT_BOOT_RECORDS_H
#define MLAGREEMENT_BOOT_RECORDS_H

#include <cstddef>
#include <cstdint>
#include <vector>

#include "boot_units.h"
#include "counts.h"
#include "estimators.h"
#include "replicate_stats.h"
#include "rng.h"
#include "structured_estimates.h"
#include "threads.h"

namespace mlagreement {

// The drawn annotators: slot[a] is a's index among the n_drawn annotators
// with a decision on the view's labels, -1 for the others.
struct DrawnAnnotators {
  const int* slot = nullptr;
  std::size_t n_drawn = 0;
  // the corpus coefficients the replicates report (single-label designs)
  CorpusStatistic corpus = CorpusStatistic::multi_label;
  // a structured fit's statistics; the view's columns are then the
  // structure pass's (closed labels, then the groups' categories)
  const StructureStats* structure = nullptr;
};

// A replicate's statistics from its columns' summaries.
inline void write_replicate(const std::vector<LabelSummary>& ls, const DrawnAnnotators& d,
                            double* out, std::size_t stride) {
  if (d.structure != nullptr) {
    write_structure_stats(ls, *d.structure, out, stride);
  } else {
    write_stats(ls, out, stride, d.corpus);
  }
}

// Weighted counts per (item, label), label-major, and one replicate's label
// summaries; copies: each record's annotator multiplicity (records layout).
struct RecordScratch {
  std::vector<double> X, M, Q, copies;
  std::vector<LabelSummary> ls;
  void init(std::size_t n_items, std::size_t k, std::size_t n_records) {
    X.assign(n_items * k, 0);
    M.assign(n_items * k, 0);
    Q.assign(n_items * k, 0);
    copies.resize(n_records);
    ls.assign(k, LabelSummary());
  }
};

namespace detail {

template <typename T, typename Codes>
inline void add_copies(const Codes& codes, T val, double c, std::size_t cell, RecordScratch& s) {
  if (!codes.decided(val)) return;
  s.X[cell] += c * codes.positive(val);
  s.M[cell] += c;
  s.Q[cell] += c * c;
}

// X, M, Q per (item, label) over the annotators with a decision (DESIGN.md),
// accumulated in record order.
template <typename T, typename Codes, typename A>
void weighted_counts(const RecordView<T>& v, const Codes& codes, const DrawnAnnotators& d,
                     const A* ann_w, RecordScratch& s) {
  const std::size_t n = v.n_items;
  auto copies = [&](std::size_t a) {
    const int slot = d.slot[a];
    return slot < 0 ? 0.0 : static_cast<double>(ann_w[slot]);
  };
  for (std::size_t j = 0; j < v.n_labels; ++j) {
    const T* col = v.column(j);
    const std::size_t base = j * n;
    if (v.item == nullptr) {  // dense: record i + n * a
      for (std::size_t a = 0; a < v.n_annotators; ++a) {
        const double c = copies(a);
        if (c == 0.0) continue;
        const T* block = col + a * n;
        for (std::size_t i = 0; i < n; ++i) add_copies(codes, block[i], c, base + i, s);
      }
      continue;
    }
    if (j == 0) {  // each record's copies, looked up once per replicate
      for (std::size_t r = 0; r < v.n_records; ++r) {
        s.copies[r] = copies(static_cast<std::size_t>(v.annotator[r]));
      }
    }
    for (std::size_t r = 0; r < v.n_records; ++r) {
      const double c = s.copies[r];
      if (c == 0.0) continue;
      add_copies(codes, col[r], c, base + static_cast<std::size_t>(v.item[r]), s);
    }
  }
}

}  // namespace detail

// One replicate with annotator multiplicities c_a and item multiplicities
// w_i (nullptr: every item once); pairs and prevalence as DESIGN.md says.
template <typename T, typename Codes, typename A, typename W>
void records_stats(const RecordView<T>& v, const Codes& codes, const DrawnAnnotators& d,
                   const A* ann_w, const W* item_w, RecordScratch& s, double* out,
                   std::size_t stride) {
  const std::size_t n = v.n_items, k = v.n_labels;
  s.init(n, k, v.item == nullptr ? 0 : v.n_records);
  detail::weighted_counts(v, codes, d, ann_w, s);
  for (std::size_t j = 0; j < k; ++j) {
    LabelSums<double> sums;
    for (std::size_t i = 0; i < n; ++i) {
      const double w = item_w ? static_cast<double>(item_w[i]) : 1.0;
      if (w == 0.0) continue;
      const double M = s.M[j * n + i];
      if (!(M > 0)) continue;
      const double X = s.X[j * n + i];
      sums.n_rated += w;
      sums.positives += w * X;
      sums.p_sum += w * X / M;
      sums.q_sum += w * (M - X) / M;
      const double pairs = M * M - s.Q[j * n + i];
      if (pairs > 0) {
        sums.n_pairable += w;
        sums.d_sum += w * 2.0 * X * (M - X) / pairs;
      }
    }
    s.ls[j] = summarise_sums(sums);
  }
  write_replicate(s.ls, d, out, stride);
}

struct RecordReplicateScratch {
  std::vector<std::uint32_t> ann_w, unit_w, buf;
  RecordScratch s;
};

template <typename T>
RecordReplicateScratch record_replicate_scratch(const RecordView<T>& v, const DrawnAnnotators& d,
                                                const UnitDesign& u) {
  RecordReplicateScratch w;
  w.ann_w.resize(d.n_drawn);
  w.unit_w.resize(u.n_units);
  w.buf.resize(u.unit_of_item ? u.n_items : 0);
  w.s.init(v.n_items, v.n_labels, v.item == nullptr ? 0 : v.n_records);
  return w;
}

// One replicate of an annotator (both = false) or two-way bootstrap from its
// stream's rng: annotators first, then units, as boot_draws().
template <typename T, typename Codes>
void records_replicate(const RecordView<T>& v, const Codes& codes, const DrawnAnnotators& d,
                       const UnitDesign& u, bool both, Rng& rng, RecordReplicateScratch& w,
                       double* out_row, std::size_t n_out) {
  draw_annotators(rng, d.n_drawn, w.ann_w.data());
  const std::uint32_t* iw = nullptr;
  if (both) {
    draw_units(rng, u, w.unit_w.data());
    iw = item_weights(u, w.unit_w.data(), w.buf.data());
  }
  records_stats(v, codes, d, w.ann_w.data(), iw, w.s, out_row, n_out);
}

}  // namespace mlagreement

#endif
