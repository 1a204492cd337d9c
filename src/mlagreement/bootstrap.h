// Bootstrap engines for the Hamming estimators (paper section 5.5).
//
// Item resampling never revisits the records: per label, an item's (x, m)
// pair falls into one of max_m (max_m + 3) / 2 classes, so each cell gets a
// compact class code once and a replicate only adds item multiplicities into
// class bins (one add per cell). The bins give the foundation's LabelTable
// (cnt, sx, sdis are integer sums, so they are exact) and the estimators run
// on it. Annotator resampling needs the records: a replicate accumulates
// per-(item, label) sums over the drawn annotator copies and counts only
// pairs of distinct original annotators as pairs.
//
// Pure C++: no R headers. OpenMP regions touch no R API.
#ifndef MLAGREEMENT_BOOTSTRAP_H
#define MLAGREEMENT_BOOTSTRAP_H

#include <cstddef>
#include <cstdint>
#include <exception>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "estimators.h"
#include "label_table.h"
#include "rng.h"

namespace mlagreement {

// Statistics per replicate: 3 corpus coefficients, then label coefficients
// baseline-major (slot 3 + b * k + j), the row order of tidy(fit, "label").
inline std::size_t n_boot_stats(std::size_t k) { return 3 + 3 * k; }

// Coefficients of one replicate into out[s * stride].
inline void write_stats(const std::vector<LabelSummary>& ls, double* out, std::size_t stride) {
  const CorpusSummary c = summarise_corpus(ls);
  const std::size_t k = ls.size();
  for (int b = 0; b < kBaselines; ++b) {
    out[static_cast<std::size_t>(b) * stride] = c.estimate[b];
    for (std::size_t j = 0; j < k; ++j) {
      out[(3 + static_cast<std::size_t>(b) * k + j) * stride] = label_coefficient(ls[j], b);
    }
  }
}

// ---------------------------------------------------------------- units ----
// Resampled units (items or clusters of items), optionally within strata:
// stratum h owns units order[start[h]], ..., order[start[h + 1] - 1].
struct UnitDesign {
  std::size_t n_items = 0, n_units = 0;
  const int* unit_of_item = nullptr;  // nullptr: unit == item
  const int* order = nullptr;         // units sorted by stratum
  const int* start = nullptr;         // n_strata + 1 offsets
  std::size_t n_strata = 0;
};

// Multiplicities of the units in one replicate (n_h draws in stratum h).
inline void draw_units(Rng& rng, const UnitDesign& u, std::uint32_t* unit_w) {
  for (std::size_t v = 0; v < u.n_units; ++v) unit_w[v] = 0;
  for (std::size_t h = 0; h < u.n_strata; ++h) {
    const std::size_t s0 = static_cast<std::size_t>(u.start[h]);
    const std::uint32_t nh = static_cast<std::uint32_t>(u.start[h + 1] - u.start[h]);
    for (std::uint32_t t = 0; t < nh; ++t) ++unit_w[u.order[s0 + bounded_u32(rng, nh)]];
  }
}

// Item multiplicities from unit multiplicities.
inline const std::uint32_t* item_weights(const UnitDesign& u, const std::uint32_t* unit_w,
                                         std::uint32_t* buf) {
  if (u.unit_of_item == nullptr) return unit_w;
  for (std::size_t i = 0; i < u.n_items; ++i) buf[i] = unit_w[u.unit_of_item[i]];
  return buf;
}

inline void draw_annotators(Rng& rng, std::size_t n_annotators, std::uint32_t* ann_w) {
  const std::uint32_t n = static_cast<std::uint32_t>(n_annotators);
  for (std::size_t a = 0; a < n_annotators; ++a) ann_w[a] = 0;
  for (std::uint32_t t = 0; t < n; ++t) ++ann_w[bounded_u32(rng, n)];
}

// -------------------------------------------------------- class codes -----
// Code 0: no decision (a sink bin); otherwise 1 + j * C + (m - 1)(m + 2) / 2 + x.
inline std::size_t class_offset(std::size_t m) { return (m - 1) * (m + 2) / 2; }
inline std::size_t classes_per_label(std::size_t max_m) { return max_m * (max_m + 3) / 2; }

// A non-owning view: the codes live in memory the caller owns (in R, a raw
// vector built once per bootstrap), item-major: codes[i * n_labels + j].
template <typename Code>
struct ClassCodes {
  std::size_t n_items = 0, n_labels = 0, max_m = 0, per_label = 0, n_bins = 0;
  const Code* codes = nullptr;
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

// Bins -> LabelTable -> summaries -> coefficients.
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
  write_stats(ls, out, stride);
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

// Runs streams [s0, s1) of an item bootstrap with n_rep replicates; writes
// rows block_begin(s0) .. block_begin(s1) - 1 into out (row r at out[r - row0],
// n_out rows, column-major). method 1: index draws straight into the bins
// (only without clusters/strata; same draws, same replicates).
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
    std::vector<std::uint32_t> unit_w, buf;
    std::vector<std::int64_t> bins;
    std::vector<LabelSummary> ls;
    LabelTable t;
    const std::size_t k = cc.n_labels;
    bool ready = true;
    try {
      unit_w.resize(u.n_units);
      buf.resize(u.unit_of_item ? u.n_items : 0);
      bins.resize(cc.n_bins);
      ls.resize(cc.n_labels);
    } catch (...) {
      ready = false;
      failed = true;
    }
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
    for (int s = s0; s < s1; ++s) {
      if (!ready) continue;
      try {
        Rng rng = stream_rng(seed, s);
        for (std::size_t r = block_begin(s, n_rep); r < block_begin(s + 1, n_rep); ++r) {
          if (direct) {
            for (std::size_t b = 0; b < cc.n_bins; ++b) bins[b] = 0;
            const std::uint32_t n = static_cast<std::uint32_t>(cc.n_items);
            for (std::uint32_t d = 0; d < n; ++d) {
              const Code* c = cc.codes + static_cast<std::size_t>(bounded_u32(rng, n)) * k;
              for (std::size_t j = 0; j < k; ++j) ++bins[c[j]];
            }
          } else {
            draw_units(rng, u, unit_w.data());
            fill_bins(cc, item_weights(u, unit_w.data(), buf.data()), bins.data());
          }
          stats_from_bins(cc, bins.data(), t, ls, out + (r - row0), n_out);
        }
      } catch (...) {
        failed = true;
      }
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
  const std::size_t k = cc.n_labels;
#ifdef _OPENMP
#pragma omp parallel num_threads(threads) reduction(|| : failed)
#endif
  {
    std::vector<std::int64_t> bins;
    std::vector<LabelSummary> ls;
    LabelTable t;
    bool ready = true;
    try {
      bins = full;
      ls.resize(k);
    } catch (...) {
      ready = false;
      failed = true;
    }
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
    for (std::size_t v = 0; v < n_units; ++v) {
      if (!ready) continue;
      try {
        for (int p = unit_start[v]; p < unit_start[v + 1]; ++p) {
          const Code* c = cc.codes + static_cast<std::size_t>(unit_items[p]) * k;
          for (std::size_t j = 0; j < k; ++j) --bins[c[j]];
        }
        stats_from_bins(cc, bins.data(), t, ls, out + v, n_units);
        for (int p = unit_start[v]; p < unit_start[v + 1]; ++p) {
          const Code* c = cc.codes + static_cast<std::size_t>(unit_items[p]) * k;
          for (std::size_t j = 0; j < k; ++j) ++bins[c[j]];
        }
      } catch (...) {
        failed = true;
      }
    }
  }
  return !failed;
}

// ----------------------------------------------------------- records -----
// Records view for annotator resampling. values: labels x records
// (record-major), 0/1, -1 = no decision. item/annotator: 0-based.
struct RecordDesign {
  std::size_t n_records = 0, n_items = 0, n_labels = 0, n_annotators = 0;
  const int* item = nullptr;
  const int* annotator = nullptr;
  const int* values = nullptr;
};

struct RecordScratch {
  std::vector<double> X, M, Q, n_rated, n_pair, p_sum, q_sum, d_sum;
  std::vector<LabelSummary> ls;
  void init(const RecordDesign& d) {
    const std::size_t cells = d.n_items * d.n_labels;
    X.assign(cells, 0);
    M.assign(cells, 0);
    Q.assign(cells, 0);
    n_rated.assign(d.n_labels, 0);
    n_pair.assign(d.n_labels, 0);
    p_sum.assign(d.n_labels, 0);
    q_sum.assign(d.n_labels, 0);
    d_sum.assign(d.n_labels, 0);
    ls.assign(d.n_labels, LabelSummary());
  }
};

// One replicate with annotator multiplicities c_a and item multiplicities w_i
// (nullptr: every item once). Per item and label, X = sum c_a v_a,
// M = sum c_a, Q = sum c_a^2 over the annotators with a decision; ordered
// pairs of copies of distinct original annotators number M^2 - Q, of which
// 2 X (M - X) disagree. Prevalence uses every copy (X / M).
template <typename A, typename W>
void records_stats(const RecordDesign& d, const A* ann_w, const W* item_w, RecordScratch& s,
                   double* out, std::size_t stride) {
  const std::size_t k = d.n_labels;
  s.init(d);
  for (std::size_t r = 0; r < d.n_records; ++r) {
    const double c = static_cast<double>(ann_w[d.annotator[r]]);
    if (c == 0.0) continue;
    const std::size_t base = static_cast<std::size_t>(d.item[r]) * k;
    const int* v = d.values + r * k;
    for (std::size_t j = 0; j < k; ++j) {
      if (v[j] < 0) continue;
      s.X[base + j] += c * v[j];
      s.M[base + j] += c;
      s.Q[base + j] += c * c;
    }
  }
  for (std::size_t i = 0; i < d.n_items; ++i) {
    const double w = item_w ? static_cast<double>(item_w[i]) : 1.0;
    if (w == 0.0) continue;
    for (std::size_t j = 0; j < k; ++j) {
      const double M = s.M[i * k + j];
      if (!(M > 0)) continue;
      const double X = s.X[i * k + j];
      s.n_rated[j] += w;
      s.p_sum[j] += w * X / M;
      s.q_sum[j] += w * (M - X) / M;
      const double pairs = M * M - s.Q[i * k + j];
      if (pairs > 0) {
        s.n_pair[j] += w;
        s.d_sum[j] += w * 2.0 * X * (M - X) / pairs;
      }
    }
  }
  for (std::size_t j = 0; j < k; ++j) {
    LabelSummary& l = s.ls[j];
    l = LabelSummary();
    l.n_rated = s.n_rated[j];
    l.n_pairable = s.n_pair[j];
    if (l.n_rated > 0) {
      l.p = s.p_sum[j] / l.n_rated;
      l.q = s.q_sum[j] / l.n_rated;
      l.p_dd = dd(l.p);
      l.q_dd = dd(l.q);
    }
    if (l.n_pairable > 0) {
      l.d_obs = s.d_sum[j] / l.n_pairable;
      l.d_obs_dd = dd(l.d_obs);
    }
  }
  write_stats(s.ls, out, stride);
}

// Annotators (both = false) or annotators and units (both = true).
inline bool boot_records(const RecordDesign& d, const UnitDesign& u, bool both, std::uint64_t seed,
                         std::size_t n_rep, int s0, int s1, int threads, double* out,
                         std::size_t n_out) {
  const std::size_t row0 = block_begin(s0, n_rep);
  bool failed = false;
#ifdef _OPENMP
#pragma omp parallel num_threads(threads) reduction(|| : failed)
#endif
  {
    std::vector<std::uint32_t> ann_w, unit_w, buf;
    RecordScratch s;
    bool ready = true;
    try {
      ann_w.resize(d.n_annotators);
      unit_w.resize(u.n_units);
      buf.resize(u.unit_of_item ? u.n_items : 0);
      s.init(d);
    } catch (...) {
      ready = false;
      failed = true;
    }
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
    for (int st = s0; st < s1; ++st) {
      if (!ready) continue;
      try {
        Rng rng = stream_rng(seed, st);
        for (std::size_t r = block_begin(st, n_rep); r < block_begin(st + 1, n_rep); ++r) {
          draw_annotators(rng, d.n_annotators, ann_w.data());
          const std::uint32_t* iw = nullptr;
          if (both) {
            draw_units(rng, u, unit_w.data());
            iw = item_weights(u, unit_w.data(), buf.data());
          }
          records_stats(d, ann_w.data(), iw, s, out + (r - row0), n_out);
        }
      } catch (...) {
        failed = true;
      }
    }
  }
  return !failed;
}

// The multiplicities the engines draw, for checks against a reference:
// mode 0 items, 1 annotators, 2 both. item_out: n_items x n_rep,
// ann_out: n_annotators x n_rep (either may be null when unused).
inline void boot_draws(int mode, const UnitDesign& u, std::size_t n_annotators, std::uint64_t seed,
                       std::size_t n_rep, int* item_out, int* ann_out) {
  std::vector<std::uint32_t> ann_w(n_annotators), unit_w(u.n_units),
      buf(u.unit_of_item ? u.n_items : 0);
  for (int st = 0; st < kStreams; ++st) {
    Rng rng = stream_rng(seed, st);
    for (std::size_t r = block_begin(st, n_rep); r < block_begin(st + 1, n_rep); ++r) {
      if (mode != 0) {
        draw_annotators(rng, n_annotators, ann_w.data());
        for (std::size_t a = 0; a < n_annotators; ++a)
          ann_out[r * n_annotators + a] = static_cast<int>(ann_w[a]);
      }
      if (mode != 1) {
        draw_units(rng, u, unit_w.data());
        const std::uint32_t* iw = item_weights(u, unit_w.data(), buf.data());
        for (std::size_t i = 0; i < u.n_items; ++i) item_out[r * u.n_items + i] = static_cast<int>(iw[i]);
      }
    }
  }
}

}  // namespace mlagreement

#endif
