// The draws side of the bootstrap fuzz target (boot.cpp): resampling units
// (items or clusters, optionally within strata) decoded from the bytes, the
// checks of the item draws, the stream windows and their reference draws,
// and StreamCursor runs in chunks (with an interrupt now and then).
// Included by boot.cpp only.
#ifndef MLA_FUZZ_BOOT_DRAWS_H
#define MLA_FUZZ_BOOT_DRAWS_H

#include <algorithm>
#include <cstdint>
#include <vector>

#include "fuzz_common.h"
#include "mlagreement/boot_streams.h"
#include "mlagreement/boot_units.h"

namespace {

namespace mla = mlagreement;

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

}  // namespace

#endif
