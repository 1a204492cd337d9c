// Fuzz target 4: the bootstrap engines (boot_units.h, boot_items.h,
// boot_records.h, boot_streams.h, boot_jackknife.h). The replicates of the
// item (and cluster, stratified) bootstrap by class codes, its
// leave-one-unit-out jackknife, the annotator and two-way bootstrap and the
// leave-one-annotator-out jackknife are recomputed by a naive reweighting
// loop from the same multiplicities (boot_draws(), the engines' documented
// draws) and compared at relative tolerance 1e-9; the class table must hold
// exactly the (m, x) classes that occur, the draws must sum to the resampled
// counts (items or units per stratum, annotators), and streams run in two
// calls, or in chunks of a StreamCursor, must give the rows of one call.
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "boot_draws.h"
#include "fuzz_common.h"
#include "mlagreement/boot_items.h"
#include "mlagreement/boot_jackknife.h"
#include "mlagreement/boot_records.h"
#include "mlagreement/boot_streams.h"

namespace mla = mlagreement;

namespace {

// Per (item, label) cell of a design: does it count as rated / pairable,
// its prevalence x/m and its disagreement (disagreeing / all ordered pairs).
struct Cell {
  bool rated = false, pairable = false;
  double p = 0, d = 0;
};

// The statistics of one replicate from the cells and item weights, in the
// engines' layout: 3 corpus coefficients, then label coefficients baseline-major.
// Chance disagreement: Fleiss 2pq, AC1 p^2 + q^2, PABAK 1/2.
std::vector<double> naive_stats(const std::vector<Cell>& cells, std::size_t N, std::size_t k,
                                const std::vector<double>& w) {
  std::vector<double> out(3 * (1 + k), mla::kNA);
  double d_total = 0, chance_total[3] = {0, 0, 0};
  bool any = false;
  for (std::size_t j = 0; j < k; ++j) {
    double rated = 0, pairable = 0, p_sum = 0, d_sum = 0;
    for (std::size_t i = 0; i < N; ++i) {
      const Cell& c = cells[j * N + i];
      if (c.rated) {
        rated += w[i];
        p_sum += w[i] * c.p;
      }
      if (c.pairable) {
        pairable += w[i];
        d_sum += w[i] * c.d;
      }
    }
    if (!(pairable > 0)) continue;
    const double p = p_sum / rated, q = 1 - p, d = d_sum / pairable;
    const double chance[3] = {2 * p * q, p * p + q * q, 0.5};
    any = true;
    d_total += d;
    for (int b = 0; b < 3; ++b) {
      chance_total[b] += chance[b];
      out[3 + static_cast<std::size_t>(b) * k + j] = chance[b] > 0 ? 1 - d / chance[b] : mla::kNA;
    }
  }
  for (int b = 0; b < 3 && any; ++b) out[static_cast<std::size_t>(b)] = chance_total[b] > 0 ? 1 - d_total / chance_total[b] : mla::kNA;
  return out;
}

void compare_rows(const std::vector<double>& got, std::size_t n_rows, std::size_t row,
                  const std::vector<double>& want, const char* what) {
  for (std::size_t s = 0; s < want.size(); ++s) fuzz::expect_near(got[row + s * n_rows], want[s], what);
}

// The class table from its definition: per label, the (m, x) pairs that
// occur, ascending; every code decodes to its cell's (m, x).
template <typename Code>
void check_class_table(const fuzz::NaiveCounts& nc, std::size_t N, std::size_t k,
                       const mla::ClassTable& tab, const std::vector<Code>& codes) {
  fuzz::expect(tab.start.size() == k + 1 && tab.start[0] == 0, "class table offsets");
  for (std::size_t j = 0; j < k; ++j) {
    std::set<std::pair<int, int>> want;
    for (std::size_t i = 0; i < N; ++i) {
      if (nc.m[j * N + i] > 0) want.insert({nc.m[j * N + i], nc.x[j * N + i]});
    }
    const int g0 = tab.start[j];
    fuzz::expect_eq(tab.start[j + 1] - g0, static_cast<double>(want.size()), "classes per label");
    int g = g0;
    for (const auto& mx : want) {
      fuzz::expect(tab.m[static_cast<std::size_t>(g)] == mx.first && tab.x[static_cast<std::size_t>(g)] == mx.second,
                   "class (m, x)");
      ++g;
    }
    for (std::size_t i = 0; i < N; ++i) {
      const std::size_t code = codes[i * k + j];
      if (nc.m[j * N + i] == 0) {
        fuzz::expect(code == 0, "code 0 without a decision");
        continue;
      }
      fuzz::expect(code >= 1 + static_cast<std::size_t>(g0) && code < 1 + static_cast<std::size_t>(tab.start[j + 1]),
                   "code in its label's classes");
      fuzz::expect(tab.m[code - 1] == nc.m[j * N + i] && tab.x[code - 1] == nc.x[j * N + i], "code decodes");
    }
  }
}

template <typename Code>
void check_items(const fuzz::Design& d, const fuzz::NaiveCounts& nc, const Units& s,
                 std::uint64_t seed, std::size_t n_rep, const Streams& st,
                 const Chunks& ch, int threads) {
  const std::size_t N = static_cast<std::size_t>(d.N), k = static_cast<std::size_t>(d.K);
  const std::size_t mm = static_cast<std::size_t>(nc.max_m);
  const mla::ClassTable tab = mla::class_table(nc.x.data(), nc.m.data(), N, k);
  std::vector<Code> codes(N * k);
  mla::build_codes(nc.x.data(), nc.m.data(), N, k, tab, codes.data());
  check_class_table(nc, N, k, tab, codes);
  const mla::ClassCodes<Code> cc = mla::class_codes(codes.data(), N, k, mm, tab);
  std::vector<Cell> cells(N * k);
  for (std::size_t c = 0; c < N * k; ++c) {
    const double x = nc.x[c], m = nc.m[c];
    cells[c] = Cell{m >= 1, m >= 2, m >= 1 ? x / m : 0, m >= 2 ? 2 * x * (m - x) / (m * (m - 1)) : 0};
  }
  const std::size_t n_stats = mla::n_boot_stats(k);
  const std::size_t row0 = mla::block_begin(st.s0, n_rep), rows = mla::block_begin(st.s1, n_rep) - row0;
  std::vector<double> out(rows * n_stats, -7.0);
  fuzz::expect(mla::boot_items(cc, s.u, seed, n_rep, st.s0, st.mid, threads, out.data(), rows), "boot_items");
  fuzz::expect(mla::boot_items(cc, s.u, seed, n_rep, st.mid, st.s1, threads,
                               out.data() + (mla::block_begin(st.mid, n_rep) - row0), rows),
               "boot_items (second call)");
  std::vector<int> draws, unused;
  window_draws(0, st, s.u, 0, seed, n_rep, draws, unused);
  std::vector<double> w(N);
  for (std::size_t r = 0; r < rows; ++r) {
    check_item_draws(s, draws.data() + r * N);
    for (std::size_t i = 0; i < N; ++i) w[i] = draws[r * N + i];
    compare_rows(out, rows, r, naive_stats(cells, N, k, w), "item bootstrap");
  }
  if (st.all) {  // the chunked run of the glue (item_replicate() per row): the same doubles
    std::vector<double> chunked(n_rep * n_stats, -7.0);
    run_cursor(seed, n_rep, ch, threads, [&] {
      mla::ItemScratch sc;
      sc.init(cc, s.u);
      return sc;
    }, [&](mla::ItemScratch& sc, mla::Rng& rng, std::size_t row) {
      mla::item_replicate(cc, s.u, rng, sc, chunked.data() + row, n_rep);
    });
    for (std::size_t c = 0; c < chunked.size(); ++c) fuzz::expect_eq(chunked[c], out[c], "item bootstrap in chunks");
  }
  // jackknife: unit v left out
  std::vector<double> jk(s.u.n_units * n_stats, -7.0);
  fuzz::expect(mla::jackknife_items(cc, s.u.n_units, s.unit_start.data(), s.unit_items.data(), threads, jk.data()),
               "jackknife_items");
  for (std::size_t v = 0; v < s.u.n_units; ++v) {
    std::fill(w.begin(), w.end(), 1.0);
    for (int t = s.unit_start[v]; t < s.unit_start[v + 1]; ++t) w[static_cast<std::size_t>(s.unit_items[static_cast<std::size_t>(t)])] = 0;
    compare_rows(jk, s.u.n_units, v, naive_stats(cells, N, k, w), "item jackknife");
  }
}

// The cells of a replicate with annotator multiplicities c (by slot): every
// ordered pair of copies of two distinct annotators of an item.
std::vector<Cell> weighted_cells(const fuzz::Design& d, const std::vector<std::vector<std::size_t>>& records_of,
                                 const std::vector<int>& slot, const int* c) {
  const std::size_t N = static_cast<std::size_t>(d.N), k = static_cast<std::size_t>(d.K);
  std::vector<Cell> cells(N * k);
  for (std::size_t j = 0; j < k; ++j) {
    for (std::size_t i = 0; i < N; ++i) {
      double M = 0, X = 0, pairs = 0, disagree = 0;
      for (std::size_t r1 : records_of[i]) {
        const int v1 = d.at(r1, static_cast<int>(j));
        if (v1 == fuzz::kNA) continue;
        const double c1 = c[slot[static_cast<std::size_t>(d.annotator[r1])]];
        M += c1;
        X += c1 * v1;
        for (std::size_t r2 : records_of[i]) {
          const int v2 = d.at(r2, static_cast<int>(j));
          if (r2 == r1 || v2 == fuzz::kNA) continue;
          const double c2 = c[slot[static_cast<std::size_t>(d.annotator[r2])]];
          pairs += c1 * c2;
          disagree += v1 != v2 ? c1 * c2 : 0;
        }
      }
      cells[j * N + i] = Cell{M > 0, pairs > 0, M > 0 ? X / M : 0, pairs > 0 ? disagree / pairs : 0};
    }
  }
  return cells;
}

// Annotator (and two-way) bootstrap on the records, and the
// leave-one-annotator-out jackknife.
template <typename T, typename Codes>
void check_records(const fuzz::Design& d, const std::vector<T>& values, const Codes& codes,
                   const Units& s, bool both, std::uint64_t seed, std::size_t n_rep, const Streams& st,
                   const Chunks& ch, int threads) {
  const std::size_t N = static_cast<std::size_t>(d.N), A = static_cast<std::size_t>(d.A);
  const std::size_t k = static_cast<std::size_t>(d.K), n = d.n_records();
  const mla::RecordView<T> v{values.data(), n, k, d.dense ? nullptr : d.item.data(), N,
                             d.dense ? nullptr : d.annotator.data(), A};
  std::vector<int> slot(A, -1);
  std::size_t n_drawn = 0;
  for (std::size_t a = 0; a < A; ++a) {
    bool any = false;
    for (std::size_t r = 0; r < n; ++r) {
      for (std::size_t j = 0; j < k; ++j) any = any || (static_cast<std::size_t>(d.annotator[r]) == a && d.at(r, static_cast<int>(j)) != fuzz::kNA);
    }
    if (any) slot[a] = static_cast<int>(n_drawn++);
  }
  if (n_drawn == 0) return;
  const mla::DrawnAnnotators drawn{slot.data(), n_drawn};
  const std::size_t n_stats = mla::n_boot_stats(k);
  const std::size_t row0 = mla::block_begin(st.s0, n_rep), rows = mla::block_begin(st.s1, n_rep) - row0;
  std::vector<double> out(rows * n_stats, -7.0);
  const auto make_scratch = [&] { return mla::record_replicate_scratch(v, drawn, s.u); };
  const auto replicate = [&](mla::RecordReplicateScratch& w, mla::Rng& rng, std::size_t row) {
    mla::records_replicate(v, codes, drawn, s.u, both, rng, w, out.data() + (row - row0), rows);
  };
  if (st.all) {
    run_cursor(seed, n_rep, ch, threads, make_scratch, replicate);
  } else {  // a window of streams, replicate by replicate
    mla::RecordReplicateScratch w = make_scratch();
    for (int sn = st.s0; sn < st.s1; ++sn) {
      mla::Rng rng = mla::stream_rng(seed, sn);
      for (std::size_t r = mla::block_begin(sn, n_rep); r < mla::block_begin(sn + 1, n_rep); ++r) replicate(w, rng, r);
    }
  }
  std::vector<int> item_draws, ann_draws;
  window_draws(both ? 2 : 1, st, s.u, n_drawn, seed, n_rep, item_draws, ann_draws);
  std::vector<double> w(N, 1.0);
  std::vector<std::vector<std::size_t>> records_of(N);
  for (std::size_t r = 0; r < n; ++r) records_of[static_cast<std::size_t>(d.item[r])].push_back(r);
  for (std::size_t r = 0; r < rows; ++r) {
    const int* c = ann_draws.data() + r * n_drawn;
    long total = 0;
    for (std::size_t a = 0; a < n_drawn; ++a) total += c[a];
    fuzz::expect_eq(static_cast<double>(total), static_cast<double>(n_drawn), "annotator draws sum");
    if (both) {
      check_item_draws(s, item_draws.data() + r * N);
      for (std::size_t i = 0; i < N; ++i) w[i] = item_draws[r * N + i];
    }
    compare_rows(out, rows, r, naive_stats(weighted_cells(d, records_of, slot, c), N, k, w),
                 both ? "two-way bootstrap" : "annotator bootstrap");
  }
  // jackknife: every drawn annotator once, but slot a none
  std::vector<double> jk(n_drawn * n_stats, -7.0);
  bool failed = true;
  if (ch.interrupt_at == 1) {  // interrupted at the first poll: false (out incomplete), then a rerun
    polls_left = 1;
    mla::interrupt_flag().arm(interrupt_when_due, 0);
    const bool ok = mla::jackknife_annotators(v, codes, drawn, threads, jk.data(), failed);
    fuzz::expect(!failed && ok != mla::interrupt_flag().raised(), "interrupted jackknife");
    mla::interrupt_flag().disarm();
  }
  fuzz::expect(mla::jackknife_annotators(v, codes, drawn, threads, jk.data(), failed) && !failed,
               "jackknife_annotators");
  std::fill(w.begin(), w.end(), 1.0);
  std::vector<int> c(n_drawn);
  for (std::size_t a = 0; a < n_drawn; ++a) {
    std::fill(c.begin(), c.end(), 1);
    c[a] = 0;
    compare_rows(jk, n_drawn, a, naive_stats(weighted_cells(d, records_of, slot, c.data()), N, k, w),
                 "annotator jackknife");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Bytes in(data, size);
  fuzz::DesignLimits lim;
  const std::uint64_t seed = (static_cast<std::uint64_t>(in.u32()) << 32) | in.u32();
  const std::size_t n_rep = static_cast<std::size_t>(in.range(1, 400));
  const Streams st = decode_streams(in);
  const int engine = in.range(0, 3);
  const bool real = in.flag();
  const fuzz::Design d = fuzz::decode_design(in, lim);
  const Units s = decode_units(in, d.N);
  const int threads = in.threads();
  const Chunks ch = decode_chunks(in);
  if (engine <= 1) {
    const fuzz::NaiveCounts nc = fuzz::naive_counts(d);
    if (nc.max_m == 0) return 0;
    if (engine == 0) check_items<std::uint16_t>(d, nc, s, seed, n_rep, st, ch, threads);
    if (engine == 1) check_items<std::uint32_t>(d, nc, s, seed, n_rep, st, ch, threads);
    return 0;
  }
  const bool both = engine == 3;
  if (real) {
    check_records(d, fuzz::real_values(d, 0), mla::RealCodes{}, s, both, seed, n_rep, st, ch, threads);
  } else {
    check_records(d, fuzz::int_values(d, 0), mla::IntCodes{}, s, both, seed, n_rep, st, ch, threads);
  }
  return 0;
}
