// Fuzz target 1: the counting pass (counts.h, tally.h).
// A decoded design (dense array or records, missing decisions, optionally
// invalid values, a subset of label columns, integer or double storage) is
// counted by count_decisions() and compared with plain loops: x/m tables,
// records with a decision per item and annotator, the per-label tables
// (cnt, sx, sdis by m), per-item disagreement sums and the first invalid
// value's flat index; count_invalid() (record_view.h) against a naive count
// of the cells that are not 0, 1 or missing.
#include <cstdint>
#include <limits>
#include <vector>

#include "fuzz_common.h"
#include "mlagreement/counts.h"

namespace mla = mlagreement;

namespace {

struct Selection {
  std::vector<int> cols;  // original columns of the counted labels
  bool all = true;        // label_cols == nullptr
};

Selection decode_selection(fuzz::Bytes& in, int K) {
  Selection s;
  s.all = in.flag();
  for (int j = 0; j < K; ++j) {
    if (s.all || in.flag()) s.cols.push_back(j);
  }
  if (s.cols.empty()) s.cols.push_back(in.range(0, K - 1));
  if (!s.all && in.flag()) {  // any order, not only increasing
    for (std::size_t t = s.cols.size(); t > 1; --t) std::swap(s.cols[t - 1], s.cols[in.byte() % t]);
  }
  return s;
}

// The design restricted to the selected columns, in their order.
fuzz::Design select_labels(const fuzz::Design& d, const Selection& s) {
  fuzz::Design out = d;
  out.K = static_cast<int>(s.cols.size());
  out.val.clear();
  for (int c : s.cols) {
    for (std::size_t r = 0; r < d.n_records(); ++r) out.val.push_back(d.at(r, c));
  }
  return out;
}

// Records and decisions per item and annotator against the design.
void check_record_totals(const fuzz::Design& d, const fuzz::Design& sub, const mla::CountOutput& out,
                         const std::vector<int>& item_ann, const std::vector<int>& ann_rec) {
  const std::size_t N = static_cast<std::size_t>(d.N), A = static_cast<std::size_t>(d.A);
  const std::size_t n = d.n_records(), k = static_cast<std::size_t>(sub.K);
  // records with at least one decision
  std::vector<int> want_item(N, 0), want_ann(A, 0);
  std::int64_t nonempty = 0, decisions = 0;
  for (std::size_t r = 0; r < n; ++r) {
    bool any = false;
    for (std::size_t j = 0; j < k; ++j) {
      const bool decided = sub.at(r, static_cast<int>(j)) != fuzz::kNA;
      any = any || decided;
      decisions += decided ? 1 : 0;
    }
    if (!any) continue;
    ++want_item[static_cast<std::size_t>(d.item[r])];
    ++want_ann[static_cast<std::size_t>(d.annotator[r])];
    ++nonempty;
  }
  for (std::size_t i = 0; i < N; ++i) fuzz::expect_eq(item_ann[i], want_item[i], "item_annotators");
  for (std::size_t a = 0; a < A; ++a) fuzz::expect_eq(ann_rec[a], want_ann[a], "annotator_records");
  fuzz::expect_eq(static_cast<double>(out.n_nonempty_records), static_cast<double>(nonempty), "n_nonempty_records");
  fuzz::expect_eq(static_cast<double>(out.n_decisions), static_cast<double>(decisions), "n_decisions");
}

// Label tables and item disagreement against the naive counts.
void check_label_tables(const fuzz::NaiveCounts& ref, std::size_t N, std::size_t k, int max_m,
                        const mla::TallyOutput& tally, const std::vector<double>& d_sum,
                        const std::vector<int>& n_pairable) {
  const std::size_t mm = static_cast<std::size_t>(max_m);
  fuzz::expect(tally.table.cnt.size() == k * mm, "table size");
  std::vector<double> want_dsum(N, 0.0);
  std::vector<int> want_pairable(N, 0);
  for (std::size_t j = 0; j < k; ++j) {
    std::vector<std::int64_t> cnt(mm, 0), sx(mm, 0), sdis(mm, 0);
    for (std::size_t i = 0; i < N; ++i) {
      const std::int64_t xi = ref.x[j * N + i], mi = ref.m[j * N + i];
      if (mi == 0) continue;
      cnt[static_cast<std::size_t>(mi - 1)] += 1;
      sx[static_cast<std::size_t>(mi - 1)] += xi;
      sdis[static_cast<std::size_t>(mi - 1)] += xi * (mi - xi);
      if (mi >= 2) {
        want_dsum[i] += 2.0 * static_cast<double>(xi * (mi - xi)) / static_cast<double>(mi * (mi - 1));
        ++want_pairable[i];
      }
    }
    for (std::size_t s = 0; s < mm; ++s) {
      fuzz::expect_eq(static_cast<double>(tally.table.cnt[j * mm + s]), static_cast<double>(cnt[s]), "cnt");
      fuzz::expect_eq(static_cast<double>(tally.table.sx[j * mm + s]), static_cast<double>(sx[s]), "sx");
      fuzz::expect_eq(static_cast<double>(tally.table.sdis[j * mm + s]), static_cast<double>(sdis[s]), "sdis");
    }
  }
  for (std::size_t i = 0; i < N; ++i) {
    fuzz::expect_near(d_sum[i], want_dsum[i], "d_sum", 1e-12);
    fuzz::expect_eq(n_pairable[i], want_pairable[i], "n_pairable");
  }
}

template <typename T, typename Codes>
void check_counts(const fuzz::Design& d, const Selection& sel, const std::vector<T>& values,
                  const Codes& codes, bool with_tables, int threads) {
  const std::size_t N = static_cast<std::size_t>(d.N), A = static_cast<std::size_t>(d.A);
  const std::size_t n = d.n_records(), k = sel.cols.size();
  const fuzz::Design sub = select_labels(d, sel);
  const fuzz::NaiveCounts ref = fuzz::naive_counts(sub);
  const int max_m = d.dense ? d.A : ref.max_m;
  mla::RecordView<T> v{values.data(), n, k, d.dense ? nullptr : d.item.data(), N,
                       d.dense ? nullptr : d.annotator.data(), A};
  if (!sel.all) v.label_cols = sel.cols.data();
  std::vector<int> x(N * k, 0), m(N * k, 0), item_ann(N, 0), ann_rec(A, 0), n_pairable(N, 0);
  std::vector<double> d_sum(N, 0.0);
  const bool tables = with_tables || !d.dense;  // only the dense pass may skip them
  mla::CountOutput out{tables ? x.data() : nullptr, tables ? m.data() : nullptr, item_ann.data(),
                       ann_rec.data()};
  mla::TallyOutput tally{{}, d_sum.data(), n_pairable.data()};
  tally.table.reset(k, static_cast<std::size_t>(max_m));
  mla::count_decisions(v, codes, threads, out, tally);
  std::int64_t n_bad = 0;
  for (int c : sel.cols) {
    for (std::size_t r = 0; r < n; ++r) n_bad += d.at(r, c) == fuzz::kInvalid ? 1 : 0;
  }
  fuzz::expect_eq(static_cast<double>(mla::count_invalid(v, codes)), static_cast<double>(n_bad), "count_invalid");

  // first invalid value, flat index in the full value matrix
  std::int64_t bad = std::numeric_limits<std::int64_t>::max();
  for (int c : sel.cols) {
    for (std::size_t r = 0; r < n; ++r) {
      if (d.at(r, c) == fuzz::kInvalid) {
        bad = std::min<std::int64_t>(bad, static_cast<std::int64_t>(c) * static_cast<std::int64_t>(n) +
                                              static_cast<std::int64_t>(r));
      }
    }
  }
  if (bad != std::numeric_limits<std::int64_t>::max()) {
    fuzz::expect_eq(static_cast<double>(out.bad_index), static_cast<double>(bad), "bad_index");
    return;
  }
  fuzz::expect_eq(static_cast<double>(out.bad_index), -1, "bad_index (none)");
  if (tables) {
    for (std::size_t c = 0; c < N * k; ++c) {
      fuzz::expect_eq(x[c], ref.x[c], "x");
      fuzz::expect_eq(m[c], ref.m[c], "m");
    }
  }
  check_record_totals(d, sub, out, item_ann, ann_rec);
  check_label_tables(ref, N, k, max_m, tally, d_sum, n_pairable);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Bytes in(data, size);
  fuzz::DesignLimits lim;
  lim.invalid_values = in.flag();
  if ((in.byte() & 15U) == 0U) {  // now and then more items than one chunk of the dense pass
    lim.min_items = 2040;
    lim.max_items = 4200;
    lim.max_annotators = 3;
    lim.max_labels = 3;
  }
  const bool real = in.flag(), with_tables = in.flag();
  const int invalid_kind = in.range(0, 2);
  const fuzz::Design d = fuzz::decode_design(in, lim);
  const Selection sel = decode_selection(in, d.K);
  const int threads = in.threads();
  if (real) {
    check_counts(d, sel, fuzz::real_values(d, invalid_kind), mla::RealCodes{}, with_tables, threads);
  } else {
    check_counts(d, sel, fuzz::int_values(d, invalid_kind), mla::IntCodes{}, with_tables, threads);
  }
  return 0;
}
