// Leave-one-annotator-out values of the annotator bootstrap's statistic,
// linear in the records: the full sums less the left-out annotator's cells.
// OpenMP regions touch no R API. See DESIGN.md, Algorithms: Bootstrap.
#ifndef MLAGREEMENT_BOOT_JACKKNIFE_H
#define MLAGREEMENT_BOOT_JACKKNIFE_H

#include <cstddef>
#include <cstdint>
#include <vector>

#include "boot_records.h"
#include "ddouble.h"
#include "estimators.h"
#include "replicate_stats.h"
#include "threads.h"

namespace mlagreement {

namespace detail {

// Rated cells with a positive, with a negative, and pairable mixed cells,
// counted exactly beside the sums: subtraction leaves a residue of about
// 1e-32 in a dd sum whose terms all cancel, and a label left constant would
// get a coefficient from it where the statistic is undefined.
struct CellKinds {
  std::int64_t positive = 0, negative = 0, mixed = 0;
};

// Adds (sign = 1) or removes (sign = -1) a cell with X positives among M
// decisions of M distinct annotators (multiplicities 0 or 1, so Q = M).
inline void shift_cell(LabelSums<dd>& s, CellKinds& kinds, double X, double M, double sign) {
  if (!(M > 0)) return;
  const std::int64_t step = sign > 0 ? 1 : -1;
  kinds.positive += X > 0 ? step : 0;
  kinds.negative += X < M ? step : 0;
  kinds.mixed += M > 1 && X > 0 && X < M ? step : 0;
  s.n_rated += sign;
  s.positives += sign * X;
  s.p_sum = s.p_sum + dd(sign) * (dd(X) / dd(M));
  s.q_sum = s.q_sum + dd(sign) * (dd(M - X) / dd(M));
  if (M > 1) {
    s.n_pairable += sign;
    s.d_sum = s.d_sum + dd(sign) * (dd(2.0 * X * (M - X)) / dd(M * (M - 1.0)));
  }
}

// The sums records_stats() would get: exact where every term is 0 or 1.
inline void exact_sums(LabelSums<dd>& s, const CellKinds& kinds) {
  if (kinds.positive == 0) {
    s.p_sum = dd(0.0);
    s.q_sum = dd(s.n_rated);
  }
  if (kinds.negative == 0) {
    s.p_sum = dd(s.n_rated);
    s.q_sum = dd(0.0);
  }
  if (kinds.mixed == 0) s.d_sum = dd(0.0);
}

// Records of each drawn annotator slot (records layout; counting sort).
struct RecordsBySlot {
  std::vector<std::size_t> start, order;
};

template <typename T>
RecordsBySlot records_by_slot(const RecordView<T>& v, const DrawnAnnotators& d) {
  RecordsBySlot g;
  g.start.assign(d.n_drawn + 1, 0);
  for (std::size_t r = 0; r < v.n_records; ++r) {
    const int s = d.slot[v.annotator[r]];
    if (s >= 0) ++g.start[static_cast<std::size_t>(s) + 1];
  }
  for (std::size_t a = 0; a < d.n_drawn; ++a) g.start[a + 1] += g.start[a];
  g.order.resize(g.start[d.n_drawn]);
  std::vector<std::size_t> fill(g.start.begin(), g.start.end() - 1);
  for (std::size_t r = 0; r < v.n_records; ++r) {
    const int s = d.slot[v.annotator[r]];
    if (s >= 0) g.order[fill[static_cast<std::size_t>(s)]++] = r;
  }
  return g;
}

// f(record) for each record of drawn annotator `slot` (`original`: its
// annotator index, the dense layout's block).
template <typename T, typename F>
void for_records_of(const RecordView<T>& v, const RecordsBySlot& g, std::size_t slot,
                    std::size_t original, F&& f) {
  if (v.item == nullptr) {
    for (std::size_t i = 0; i < v.n_items; ++i) f(i + original * v.n_items);
    return;
  }
  for (std::size_t p = g.start[slot]; p < g.start[slot + 1]; ++p) f(g.order[p]);
}

}  // namespace detail

// out: n_drawn x n_boot_stats(k), row a without the drawn annotator a. False
// when interrupted() or a thread ran out of memory (`failed` set).
template <typename T, typename Codes>
bool jackknife_annotators(const RecordView<T>& v, const Codes& codes, const DrawnAnnotators& d,
                          int threads, double* out, bool& failed) {
  const std::size_t n = v.n_items, k = v.n_labels, J = d.n_drawn;
  RecordScratch full;
  full.init(n, k, v.item == nullptr ? 0 : v.n_records);
  const std::vector<std::uint8_t> ones(J, 1);
  detail::weighted_counts(v, codes, d, ones.data(), full);
  std::vector<LabelSums<dd>> total(k);
  std::vector<detail::CellKinds> total_kinds(k);
  for (std::size_t j = 0; j < k; ++j) {
    for (std::size_t i = 0; i < n; ++i)
      detail::shift_cell(total[j], total_kinds[j], full.X[j * n + i], full.M[j * n + i], 1);
  }
  const detail::RecordsBySlot g = v.item == nullptr ? detail::RecordsBySlot{} : detail::records_by_slot(v, d);
  std::vector<std::size_t> original(J);
  for (std::size_t a = 0; a < v.n_annotators; ++a) {
    if (d.slot[a] >= 0) original[static_cast<std::size_t>(d.slot[a])] = a;
  }
  failed = false;
  const std::int64_t JJ = static_cast<std::int64_t>(J);
#ifdef _OPENMP
#pragma omp parallel num_threads(threads) reduction(|| : failed)
#endif
  {
    std::vector<LabelSums<dd>> sums;
    std::vector<detail::CellKinds> kinds;
    std::vector<LabelSummary> ls;
    const bool ready = guarded(failed, [&] { ls.resize(k); });
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 64)
#endif
    for (std::int64_t ai = 0; ai < JJ; ++ai) {
      if (!ready || interrupted()) continue;
      guarded(failed, [&] {
        const std::size_t a = static_cast<std::size_t>(ai);
        sums = total;
        kinds = total_kinds;
        detail::for_records_of(v, g, a, original[a], [&](std::size_t r) {
          const std::size_t i = v.item_of(r);
          for (std::size_t j = 0; j < k; ++j) {
            const T val = v.column(j)[r];
            if (!codes.decided(val)) continue;
            const double X = full.X[j * n + i], M = full.M[j * n + i];
            detail::shift_cell(sums[j], kinds[j], X, M, -1);
            detail::shift_cell(sums[j], kinds[j], X - codes.positive(val), M - 1, 1);
          }
        });
        for (std::size_t j = 0; j < k; ++j) {
          detail::exact_sums(sums[j], kinds[j]);
          ls[j] = summarise_sums(sums[j]);
        }
        write_replicate(ls, d, out + a, J);
      });
    }
  }
  (void)threads;
  return !failed && !interrupt_flag().raised();
}

}  // namespace mlagreement

#endif
