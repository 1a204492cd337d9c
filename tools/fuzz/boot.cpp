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

// Resampling units: items, or clusters of items, optionally within strata.
struct Units {
  std::vector<int> unit_of_item, order, start, unit_items, unit_start;
  mla::UnitDesign u;
};

Units decode_units(fuzz::Bytes& in, int N) {
  Units s;
  const bool clusters = in.flag();
  int U = N;
  if (clusters) {
    const int want = in.range(1, N);
    std::vector<int> raw(static_cast<std::size_t>(N)), id(static_cast<std::size_t>(want), -1);
    U = 0;
    for (int i = 0; i < N; ++i) {  // cluster labels renumbered in order of appearance
      const int c = in.range(0, want - 1);
      if (id[static_cast<std::size_t>(c)] < 0) id[static_cast<std::size_t>(c)] = U++;
      s.unit_of_item.push_back(id[static_cast<std::size_t>(c)]);
    }
  }
  const int H = in.range(1, std::min(U, 4));
  std::vector<int> stratum(static_cast<std::size_t>(U));
  for (int v = 0; v < U; ++v) stratum[static_cast<std::size_t>(v)] = v < H ? v : in.range(0, H - 1);
  for (int h = 0; h < H; ++h) {
    s.start.push_back(static_cast<int>(s.order.size()));
    for (int v = 0; v < U; ++v) {
      if (stratum[static_cast<std::size_t>(v)] == h) s.order.push_back(v);
    }
  }
  s.start.push_back(U);
  for (int v = 0; v < U; ++v) {
    s.unit_start.push_back(static_cast<int>(s.unit_items.size()));
    for (int i = 0; i < N; ++i) {
      if ((clusters ? s.unit_of_item[static_cast<std::size_t>(i)] : i) == v) s.unit_items.push_back(i);
    }
  }
  s.unit_start.push_back(N);
  s.u.n_items = static_cast<std::size_t>(N);
  s.u.n_units = static_cast<std::size_t>(U);
  s.u.unit_of_item = clusters ? s.unit_of_item.data() : nullptr;
  s.u.order = s.order.data();
  s.u.start = s.start.data();
  s.u.n_strata = static_cast<std::size_t>(H);
  return s;
}

// Item draws: units drawn n_h times within each stratum, equal within a unit.
void check_item_draws(const Units& s, const int* w) {
  std::vector<long> unit_w(s.u.n_units, -1);
  for (std::size_t i = 0; i < s.u.n_items; ++i) {
    const std::size_t v = s.u.unit_of_item ? static_cast<std::size_t>(s.u.unit_of_item[i]) : i;
    fuzz::expect(w[i] >= 0, "item weight >= 0");
    fuzz::expect(unit_w[v] < 0 || unit_w[v] == w[i], "one weight per unit");
    unit_w[v] = w[i];
  }
  for (std::size_t h = 0; h < s.u.n_strata; ++h) {
    long sum = 0;
    for (int t = s.start[h]; t < s.start[h + 1]; ++t) sum += unit_w[static_cast<std::size_t>(s.order[t])];
    fuzz::expect_eq(static_cast<double>(sum), s.start[h + 1] - s.start[h], "unit draws per stratum");
  }
}

// Which streams a run checks: [s0, s1), and whether the draws come from
// boot_draws() over every stream (then the engine runs in two calls split
// at s_mid). A stream is seeded by s long jumps, so checking all 64 streams
// costs about 0.1 s under the sanitizers; most runs take a few streams.
struct Streams {
  int s0 = 0, s1 = mla::kStreams, mid = 0;
  bool all = false;
};

Streams decode_streams(fuzz::Bytes& in) {
  Streams st;
  st.all = (in.byte() & 15U) == 15U;
  if (st.all) {
    st.mid = in.range(0, mla::kStreams);
    return st;
  }
  st.s0 = in.range(0, mla::kStreams - 1);
  st.s1 = std::min(mla::kStreams, st.s0 + in.range(1, 3));
  st.mid = in.range(st.s0, st.s1);
  return st;
}

// The multiplicities of replicates block_begin(s0) .. block_begin(s1) - 1 in
// boot_draws()'s layout (the rows of the window), drawn as boot_draws() documents:
// per stream, per replicate, annotators first (mode != 0), then units (mode != 1).
void window_draws(int mode, const Streams& st, const mla::UnitDesign& u, std::size_t n_ann,
                  std::uint64_t seed, std::size_t n_rep, std::vector<int>& item_out,
                  std::vector<int>& ann_out) {
  const std::size_t row0 = mla::block_begin(st.s0, n_rep), rows = mla::block_begin(st.s1, n_rep) - row0;
  item_out.assign(rows * u.n_items, 0);
  ann_out.assign(rows * n_ann, 0);
  if (st.all) {
    mla::boot_draws(mode, u, n_ann, seed, n_rep, item_out.data(), ann_out.data());
    return;
  }
  std::vector<std::uint32_t> ann_w(n_ann), unit_w(u.n_units), buf(u.n_items);
  for (int s = st.s0; s < st.s1; ++s) {
    mla::Rng rng = mla::stream_rng(seed, s);
    for (std::size_t r = mla::block_begin(s, n_rep); r < mla::block_begin(s + 1, n_rep); ++r) {
      const std::size_t row = r - row0;
      if (mode != 0) {
        mla::draw_annotators(rng, n_ann, ann_w.data());
        for (std::size_t a = 0; a < n_ann; ++a) ann_out[row * n_ann + a] = static_cast<int>(ann_w[a]);
      }
      if (mode != 1) {
        mla::draw_units(rng, u, unit_w.data());
        const std::uint32_t* iw = mla::item_weights(u, unit_w.data(), buf.data());
        for (std::size_t i = 0; i < u.n_items; ++i) item_out[row * u.n_items + i] = static_cast<int>(iw[i]);
      }
    }
  }
}

void compare_rows(const std::vector<double>& got, std::size_t n_rows, std::size_t row,
                  const std::vector<double>& want, const char* what) {
  for (std::size_t s = 0; s < want.size(); ++s) fuzz::expect_near(got[row + s * n_rows], want[s], what);
}

// How a StreamCursor run is chunked: per_stream replicates per call, and an
// interrupt raised at the owner's poll number interrupt_at (0: none), after
// which the run resumes (the replicates must not change).
struct Chunks {
  std::size_t per_stream = 1;
  int interrupt_at = 0;
};

Chunks decode_chunks(fuzz::Bytes& in) {
  Chunks c;
  c.per_stream = static_cast<std::size_t>(in.range(1, 8));
  c.interrupt_at = (in.byte() & 3U) == 0U ? in.range(1, 20) : 0;
  return c;
}

int polls_left = 0;
bool interrupt_when_due() { return --polls_left == 0; }

// Runs every stream of a cursor to the end in chunks (make_scratch and
// replicate as advance_streams() takes them); out gets every row.
template <typename MakeScratch, typename Replicate>
void run_cursor(std::uint64_t seed, std::size_t n_rep, const Chunks& ch, int threads,
                MakeScratch&& make_scratch, Replicate&& replicate) {
  mla::StreamCursor cursor(seed, n_rep);
  if (ch.interrupt_at > 0) {
    polls_left = ch.interrupt_at;
    mla::interrupt_flag().arm(interrupt_when_due, 0);
  }
  std::size_t calls = 0;
  while (cursor.done() < n_rep) {
    const std::size_t before = cursor.done();
    fuzz::expect(mla::advance_streams(cursor, ch.per_stream, threads, make_scratch, replicate), "advance_streams");
    if (mla::interrupt_flag().raised()) {
      mla::interrupt_flag().disarm();  // resume: the rows done are kept
    } else {
      fuzz::expect(cursor.done() > before, "a chunk advances");
    }
    fuzz::expect(++calls <= n_rep + 2, "chunks end");
  }
  mla::interrupt_flag().disarm();
  fuzz::expect_eq(static_cast<double>(cursor.done()), static_cast<double>(n_rep), "cursor done");
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
                 std::uint64_t seed, std::size_t n_rep, int method, const Streams& st,
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
  fuzz::expect(mla::boot_items(cc, s.u, seed, n_rep, st.s0, st.mid, threads, method, out.data(), rows), "boot_items");
  fuzz::expect(mla::boot_items(cc, s.u, seed, n_rep, st.mid, st.s1, threads, method,
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
      mla::item_replicate(cc, s.u, rng, false, sc, chunked.data() + row, n_rep);
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
    const int method = in.range(0, 1);
    if (engine == 0) check_items<std::uint16_t>(d, nc, s, seed, n_rep, method, st, ch, threads);
    if (engine == 1) check_items<std::uint32_t>(d, nc, s, seed, n_rep, method, st, ch, threads);
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
