// Shared by the fuzz harnesses (tools/fuzz/*.cpp): a small byte decoder, a
// random-but-valid annotation design decoded from the fuzzer's bytes, and the
// comparison helpers. Independent of the package's headers on purpose: the
// references in the harnesses are plain loops over this Design, so they do
// not share code (or bugs) with the headers they check.
#ifndef MLA_FUZZ_COMMON_H
#define MLA_FUZZ_COMMON_H

#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace fuzz {

// Reads the fuzzer's bytes front to back; past the end every read is 0, so
// any input decodes to some design (FuzzedDataProvider-style, without its
// consume-from-the-back layout, so corpus files stay meaningful when the
// decoder grows).
struct Bytes {
  const std::uint8_t* p;
  std::size_t n, at = 0;
  Bytes(const std::uint8_t* data, std::size_t size) : p(data), n(size) {}
  std::uint8_t byte() { return at < n ? p[at++] : 0; }
  std::uint32_t u32() {
    std::uint32_t v = 0;
    for (int b = 0; b < 4; ++b) v = (v << 8) | byte();
    return v;
  }
  // uniform-ish in [lo, hi]
  int range(int lo, int hi) {
    const unsigned span = static_cast<unsigned>(hi - lo + 1);
    const unsigned v = span > 256U ? (static_cast<unsigned>(byte()) << 8) | byte() : byte();
    return lo + static_cast<int>(v % span);
  }
  bool flag() { return (byte() & 1U) != 0U; }
  bool left() const { return at < n; }
  // Threads for the engines: 1 or 2 (results must not depend on it; without
  // -fopenmp the pragmas are ignored and every call runs on one thread).
  int threads() { return 1 + (byte() & 1U); }
};

// Cheap generator for the bulk of the cells once the header is decoded
// (the fuzzer then mutates the seed and the per-cell probabilities rather
// than every cell; small designs still take their cells from the bytes).
struct SplitMix {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
};

constexpr int kNA = -1;       // missing decision in Design::val
constexpr int kInvalid = 2;   // a value the counting pass must refuse

// An annotation design: records (item, annotator) with one value per label,
// column-major val[j * n_records + r] in {0, 1, kNA} (kInvalid only when
// asked for). Dense: record r = i + N * c for every (i, c).
struct Design {
  int N = 1, A = 1, K = 1;
  bool dense = true;
  std::vector<int> item, annotator;  // per record (filled for both layouts)
  std::vector<int> val;
  std::size_t n_records() const { return item.size(); }
  int at(std::size_t r, int j) const { return val[static_cast<std::size_t>(j) * n_records() + r]; }
};

struct DesignLimits {
  int min_items = 1, max_items = 20, max_annotators = 8, max_labels = 6;
  bool invalid_values = false;  // allow kInvalid cells
  bool whole_records = false;   // a missing decision makes the whole record missing
  int min_annotators = 1;
};

// Decodes a design within the limits. Records layout: a subset of the
// (item, annotator) cells in a byte-chosen order (items may have no record).
inline Design decode_design(Bytes& in, const DesignLimits& lim) {
  Design d;
  d.N = in.range(lim.min_items, lim.max_items);
  d.A = in.range(lim.min_annotators, lim.max_annotators);
  d.K = in.range(1, lim.max_labels);
  d.dense = in.flag();
  const int p_na = in.range(0, 255), p_one = in.range(0, 255);
  const int p_bad = lim.invalid_values ? in.range(0, 3) : 0;
  SplitMix rng{in.u32()};
  auto u8 = [&]() { return in.left() ? in.byte() : static_cast<std::uint8_t>(rng.next() & 255U); };
  if (d.dense) {
    for (int c = 0; c < d.A; ++c) {
      for (int i = 0; i < d.N; ++i) {
        d.item.push_back(i);
        d.annotator.push_back(c);
      }
    }
  } else {
    const int keep = in.range(0, 255);
    std::vector<int> cells;
    for (int c = 0; c < d.A; ++c) {
      for (int i = 0; i < d.N; ++i) {
        if (u8() <= keep) cells.push_back(i + d.N * c);
      }
    }
    if (cells.empty()) cells.push_back(0);
    for (std::size_t t = cells.size(); t > 1; --t) {  // Fisher-Yates from the bytes
      const std::size_t s = static_cast<std::size_t>(u8()) % t;
      std::swap(cells[t - 1], cells[s]);
    }
    for (int cell : cells) {
      d.item.push_back(cell % d.N);
      d.annotator.push_back(cell / d.N);
    }
  }
  const std::size_t n = d.n_records();
  d.val.assign(n * static_cast<std::size_t>(d.K), 0);
  std::vector<bool> record_missing(n, false);
  for (std::size_t r = 0; r < n; ++r) record_missing[r] = u8() < p_na;
  for (int j = 0; j < d.K; ++j) {
    for (std::size_t r = 0; r < n; ++r) {
      int v;
      if (lim.whole_records) {
        v = record_missing[r] ? kNA : (u8() < p_one ? 1 : 0);
      } else {
        const std::uint8_t b = u8();
        v = b < p_na ? kNA : (u8() < p_one ? 1 : 0);
      }
      if (p_bad > 0 && (u8() & 63U) < static_cast<unsigned>(p_bad)) v = kInvalid;
      d.val[static_cast<std::size_t>(j) * n + r] = v;
    }
  }
  return d;
}

// R's NA_real_: the NaN whose low word is 1954 (any other NaN is R's NaN,
// an invalid value).
inline double r_na_real() {
  const std::uint64_t bits = 0x7FF00000000007A2ULL;
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

// R's storage of the values: integer (NA = INT_MIN, invalid = 2 or the
// pattern 0x80000001) and double (NA = NA_real_, invalid = 0.5, 2 or NaN).
inline std::vector<int> int_values(const Design& d, int invalid_kind) {
  std::vector<int> out(d.val.size());
  for (std::size_t c = 0; c < d.val.size(); ++c) {
    const int v = d.val[c];
    out[c] = v == kNA ? INT_MIN : v == kInvalid ? (invalid_kind ? INT_MIN + 1 : 2) : v;
  }
  return out;
}
inline std::vector<double> real_values(const Design& d, int invalid_kind) {
  std::vector<double> out(d.val.size());
  for (std::size_t c = 0; c < d.val.size(); ++c) {
    const int v = d.val[c];
    const double bad = invalid_kind == 0 ? 2.0 : invalid_kind == 1 ? 0.5 : std::nan("");
    out[c] = v == kNA ? r_na_real() : v == kInvalid ? bad : v;
  }
  return out;
}

// Aborts the run (libFuzzer saves the input as crash-*) after saying why.
[[noreturn]] inline void fail(const char* what, double got, double want) {
  std::fprintf(stderr, "fuzz mismatch: %s: got %.17g, want %.17g\n", what, got, want);
  __builtin_trap();
}
inline void expect(bool ok, const char* what) {
  if (!ok) fail(what, 0, 1);
}
inline void expect_eq(double got, double want, const char* what) {
  if (!(got == want) && !(std::isnan(got) && std::isnan(want))) fail(what, got, want);
}
// Relative tolerance 1e-9 against max(1, |want|) (coefficients near 0 are
// compared absolutely); NaN only matches NaN.
inline void expect_near(double got, double want, const char* what, double tol = 1e-9) {
  if (std::isnan(got) || std::isnan(want)) {
    if (std::isnan(got) != std::isnan(want)) fail(what, got, want);
    return;
  }
  const double scale = std::fmax(1.0, std::fabs(want));
  if (!(std::fabs(got - want) <= tol * scale)) fail(what, got, want);
}

// x[i, j] positives and m[i, j] decisions by a plain loop (items x labels,
// column-major), the reference every target starts from.
struct NaiveCounts {
  std::vector<int> x, m;
  int max_m = 0;  // most records of one item
};
inline NaiveCounts naive_counts(const Design& d) {
  NaiveCounts c;
  const std::size_t N = static_cast<std::size_t>(d.N), K = static_cast<std::size_t>(d.K);
  c.x.assign(N * K, 0);
  c.m.assign(N * K, 0);
  std::vector<int> per_item(N, 0);
  for (std::size_t r = 0; r < d.n_records(); ++r) {
    const std::size_t i = static_cast<std::size_t>(d.item[r]);
    ++per_item[i];
    for (std::size_t j = 0; j < K; ++j) {
      const int v = d.at(r, static_cast<int>(j));
      if (v == kNA) continue;
      c.m[j * N + i] += 1;
      c.x[j * N + i] += v == 1 ? 1 : 0;
    }
  }
  for (int p : per_item) c.max_m = p > c.max_m ? p : c.max_m;
  return c;
}

}  // namespace fuzz

#endif
