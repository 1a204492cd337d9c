// Fuzz target: the ingestion of long decision tables (ingest.h). The bytes
// give a table of rows (item, annotator and label as coded columns: raw
// integers x, an offset and a code vector pos, as R's id_coding() and
// label_coding() pass them; values integer or double with NA and invalid
// values), sometimes thousands of rows from a seeded generator. Checks
// against std::map references kept here, walking the rows in their order:
// DecisionIngest throws exactly when a row's item or annotator has no code;
// else its records are the distinct (item, annotator) codes ordered by item
// then annotator, and fill() gives the reason and first row (an uncoded or
// out-of-range label first, at its row; else the first invalid value and
// how many; else the first repeated decision), and, unless a label stopped
// it, every cell (the first or last valid decision of the cell, NA when
// none). distinct_codes(): codes in order of first occurrence and the first
// row of each (keys in runs, few or thousands of distinct keys, so the
// table grows); KeyTable built for any expected size; present_slots().
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "fuzz_common.h"
#include "mlagreement/ingest.h"
#include "mlagreement/record_view.h"

namespace mla = mlagreement;

namespace {

[[noreturn]] void mismatch(const std::string& what) {
  std::fprintf(stderr, "fuzz mismatch: %s\n", what.c_str());
  __builtin_trap();
}
void expect_eq(long long got, long long want, const std::string& what) {
  if (got != want) mismatch(what + ": got " + std::to_string(got) + ", want " + std::to_string(want));
}

// A coded column as R passes it.
struct Column {
  std::vector<int> x;
  std::int64_t offset = 0;
  std::vector<int> pos;
  mla::CodedColumn view() const { return mla::CodedColumn{x.data(), offset, pos.data(), pos.size(), INT_MIN}; }
  // the 1-based code of row r, 0 when none
  int code(std::size_t r) const {
    if (x[r] == INT_MIN) return 0;  // R's NA
    const std::int64_t slot = static_cast<std::int64_t>(x[r]) - offset;
    if (slot < 1 || slot > static_cast<std::int64_t>(pos.size())) return 0;
    return pos[static_cast<std::size_t>(slot - 1)] > 0 ? pos[static_cast<std::size_t>(slot - 1)] : 0;
  }
};

// Codes 1..n (`bad`: also 0, NA, a negative or n + 1), an offset that
// sometimes sits at either end of the integers.
Column decode_column(fuzz::Bytes& in, int n, bool bad) {
  Column c;
  const int o = in.range(0, 9);
  c.offset = o < 7 ? o - 3 : o == 7 ? static_cast<std::int64_t>(INT_MIN) - 1 : o == 8 ? INT_MIN : INT_MAX - 12;
  const int len = in.range(bad ? 0 : 1, 8);
  for (int s = 0; s < len; ++s) {
    const int b = in.byte();
    int code = 1 + b % n;
    if (bad && b >= 224) {
      const int k = b % 4;
      code = k == 0 ? 0 : k == 1 ? INT_MIN : k == 2 ? -7 : n + 1;
    }
    c.pos.push_back(code);
  }
  if (!bad) c.pos[0] = 1 + in.byte() % n;
  return c;
}

// A raw value for a row: mostly a coded slot; with `bad` also outside the
// slots or NA (an int64 offset keeps x within the integers).
int raw_value(const Column& c, std::uint8_t b, bool bad) {
  const std::int64_t len = static_cast<std::int64_t>(c.pos.size());
  std::int64_t slot = len > 0 ? 1 + b % len : 1;
  if (bad && b >= 240) {
    if (b % 3 == 0) return INT_MIN;
    slot = b % 3 == 1 ? 0 : len + 1;
  }
  std::int64_t x = c.offset + slot;
  if (x <= INT_MIN || x > INT_MAX) return INT_MIN;
  return static_cast<int>(x);
}

struct Table {
  int n_items = 1, n_ann = 1, n_labels = 1;
  Column item, ann, label;
  bool real = false, keep_last = false;
  std::vector<int> ival;
  std::vector<double> rval;
  std::size_t n_rows() const { return item.x.size(); }
};

double bits_double(std::uint64_t b) {
  double v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

Table decode_table(fuzz::Bytes& in) {
  Table t;
  t.n_items = in.range(1, 6);
  t.n_ann = in.range(1, 5);
  t.n_labels = in.range(1, 5);
  const int mode = in.byte();
  const bool bad_ids = (mode & 1U) != 0U, bad_labels = (mode & 2U) != 0U;
  t.real = (mode & 4U) != 0U;
  t.keep_last = (mode & 8U) != 0U;
  const bool bulk = (mode & 48U) == 48U;
  t.item = decode_column(in, t.n_items, bad_ids && in.flag());
  t.ann = decode_column(in, t.n_ann, bad_ids && in.flag());
  t.label = decode_column(in, t.n_labels, bad_labels);
  const int p_repeat = in.byte(), p_na = in.byte(), p_bad = in.range(0, 3) * in.range(0, 20);
  const std::size_t n = bulk ? static_cast<std::size_t>(in.range(0, 4000)) : static_cast<std::size_t>(in.range(0, 48));
  fuzz::SplitMix rng{in.u32()};
  auto u8 = [&]() { return !bulk && in.left() ? in.byte() : static_cast<std::uint8_t>(rng.next() & 255U); };
  for (std::size_t r = 0; r < n; ++r) {
    if (r > 0 && u8() < p_repeat) {  // the same record as the row before (rows come grouped)
      t.item.x.push_back(t.item.x.back());
      t.ann.x.push_back(t.ann.x.back());
    } else {
      t.item.x.push_back(raw_value(t.item, u8(), bad_ids));
      t.ann.x.push_back(raw_value(t.ann, u8(), bad_ids));
    }
    t.label.x.push_back(raw_value(t.label, u8(), bad_labels));
    const std::uint8_t b = u8();
    int kind = b < p_na ? 2 : u8() & 1U;  // 0, 1, NA
    if (p_bad > 0 && u8() < p_bad) kind = 3 + u8() % 6;
    if (t.real) {
      const double v[] = {0.0, 1.0, fuzz::r_na_real(), -0.0,
                          bits_double(0xFFF00000000007A2ULL),  // NA with the sign bit: still NA
                          std::nan(""), 0.5, 2.0, INFINITY};
      t.rval.push_back(v[kind]);
    } else {
      const int v[] = {0, 1, INT_MIN, 2, INT_MIN + 1, -1, INT_MAX, 0x40000000, 3};
      t.ival.push_back(v[kind]);
    }
  }
  return t;
}

// 0, 1, or NA (INT_MIN) of a value; -2 when invalid.
int decision(const Table& t, std::size_t r) {
  if (!t.real) {
    const int v = t.ival[r];
    return v == 0 || v == 1 || v == INT_MIN ? v : -2;
  }
  const double v = t.rval[r];
  if (std::isnan(v)) {
    std::uint64_t b;
    std::memcpy(&b, &v, sizeof b);
    return (b & 0xFFFFFFFFULL) == 1954 ? INT_MIN : -2;
  }
  return v == 0 ? 0 : v == 1 ? 1 : -2;
}

// What fill() must give: the rows walked in their order.
struct WantFill {
  mla::IngestStatus status = mla::IngestStatus::ok;
  std::size_t row = 0, count = 0;
  std::map<std::pair<std::size_t, int>, int> cells;  // (record, label) -> 0, 1, NA
};

WantFill reference_fill(const Table& t, std::map<std::pair<int, int>, std::size_t>& rec_of) {
  WantFill w;
  const std::size_t n = t.n_rows();
  std::size_t first_bad = 0, first_repeat = n;
  for (std::size_t r = 0; r < n; ++r) {
    const int lab = t.label.code(r);
    if (lab < 1 || lab > t.n_labels) {
      w.status = mla::IngestStatus::bad_label;
      w.row = r;
      w.count = 0;
      return w;
    }
    const int d = decision(t, r);
    if (d == -2) {
      if (w.count++ == 0) first_bad = r;
      continue;
    }
    const auto key = std::make_pair(rec_of[{t.item.code(r), t.ann.code(r)}], lab);
    const auto it = w.cells.find(key);
    if (it == w.cells.end()) {
      w.cells[key] = d;
    } else {
      if (first_repeat == n) first_repeat = r;
      if (t.keep_last) it->second = d;
    }
  }
  if (w.count > 0) {
    w.status = mla::IngestStatus::bad_value;
    w.row = first_bad;
  } else if (first_repeat < n) {
    w.status = mla::IngestStatus::repeated;
    w.row = first_repeat;
  }
  return w;
}

void print_table(const Table& t, const WantFill& w, std::size_t n_records) {
  const std::size_t n = t.n_rows();
  std::fprintf(stderr, "%zu rows (%s, keep %s), %zu records, %d labels; want status %d row %zu count %zu\n", n,
               t.real ? "double" : "integer", t.keep_last ? "last" : "first", n_records, t.n_labels,
               static_cast<int>(w.status), w.row, w.count);
  for (std::size_t r = 0; r < n && r < 64; ++r) {
    std::fprintf(stderr, "  row %zu: item %d annotator %d label %d (x %d %d %d) value %.17g\n", r,
                 t.item.code(r), t.ann.code(r), t.label.code(r), t.item.x[r], t.ann.x[r], t.label.x[r],
                 t.real ? t.rval[r] : static_cast<double>(t.ival[r]));
  }
}

void check_fill(const Table& t, const mla::DecisionIngest& ing, const WantFill& w) {
  const std::size_t K = static_cast<std::size_t>(t.n_labels), R = ing.n_records();
  std::vector<int> out(R * K + 1, 12345);  // one guard cell
  const mla::IngestResult res =
      t.real ? ing.fill(t.label.view(), K, t.rval.data(), mla::RealCodes{}, INT_MIN, t.keep_last, out.data())
             : ing.fill(t.label.view(), K, t.ival.data(), mla::IntCodes{}, INT_MIN, t.keep_last, out.data());
  expect_eq(static_cast<int>(res.status), static_cast<int>(w.status), "status");
  expect_eq(static_cast<long long>(res.row), static_cast<long long>(w.row), "first offending row");
  expect_eq(static_cast<long long>(res.count),
            static_cast<long long>(w.status == mla::IngestStatus::bad_value ? w.count : 0), "count");
  expect_eq(out[R * K], 12345, "write past the matrix");
  if (w.status == mla::IngestStatus::bad_label) return;  // the matrix is not read then
  for (std::size_t j = 0; j < K; ++j) {
    for (std::size_t rec = 0; rec < R; ++rec) {
      const auto it = w.cells.find({rec, static_cast<int>(j) + 1});
      expect_eq(out[j * R + rec], it == w.cells.end() ? INT_MIN : it->second,
                "cell [" + std::to_string(rec) + ", " + std::to_string(j) + "]");
    }
  }
}

void check_ingest(const Table& t) {
  const std::size_t n = t.n_rows();
  bool want_throw = false;
  std::set<std::pair<int, int>> pairs;
  for (std::size_t r = 0; r < n; ++r) {
    const int i = t.item.code(r), a = t.ann.code(r);
    if (i < 1 || i > t.n_items || a < 1 || a > t.n_ann) want_throw = true;
    pairs.insert({i, a});
  }
  try {
    const mla::DecisionIngest ing(t.item.view(), static_cast<std::size_t>(t.n_items), t.ann.view(),
                                  static_cast<std::size_t>(t.n_ann), n);
    if (want_throw) mismatch("no error for a row without an item or annotator code");
    // records: the distinct pairs in (item, annotator) order
    std::map<std::pair<int, int>, std::size_t> rec_of;
    expect_eq(static_cast<long long>(ing.n_records()), static_cast<long long>(pairs.size()), "n_records");
    std::size_t k = 0;
    for (const auto& p : pairs) {
      expect_eq(ing.record_item()[k], p.first, "record_item[" + std::to_string(k) + "]");
      expect_eq(ing.record_annotator()[k], p.second, "record_annotator[" + std::to_string(k) + "]");
      rec_of[p] = k++;
    }
    std::vector<int> row_rec(n);
    ing.row_records(row_rec.data());
    for (std::size_t r = 0; r < n; ++r) {
      const std::size_t want = rec_of[{t.item.code(r), t.ann.code(r)}] + 1;
      expect_eq(row_rec[r], static_cast<int>(want), "row_records[" + std::to_string(r) + "]");
    }
    const WantFill w = reference_fill(t, rec_of);
    if (std::getenv("MLA_FUZZ_VERBOSE") != nullptr) print_table(t, w, pairs.size());  // what a finding was
    check_fill(t, ing, w);
  } catch (const std::invalid_argument&) {
    if (!want_throw) mismatch("an error for a table whose ids all have codes");
  }
}

// distinct_codes() and KeyTable against a std::map in first-occurrence order.
void check_distinct(fuzz::Bytes& in) {
  const int how = in.range(0, 3);
  const std::size_t n = how == 0 ? static_cast<std::size_t>(in.range(0, 64)) : static_cast<std::size_t>(in.range(0, 6000));
  const std::uint64_t range = how == 0 ? 1 + in.byte() : static_cast<std::uint64_t>(in.range(1, 4000));
  const int p_run = in.byte();
  fuzz::SplitMix rng{in.u32()};
  std::vector<std::uint64_t> keys;
  for (std::size_t r = 0; r < n; ++r) {
    if (r > 0 && static_cast<int>(rng.next() & 255U) < p_run) {
      keys.push_back(keys.back());
      continue;
    }
    const std::uint64_t u = how == 0 && in.left() ? in.byte() : rng.next();
    std::uint64_t k = u % range;
    if (how == 2) k <<= 40;            // integers' and doubles' high bits
    if (how == 3) k = k * 0x1000 + 0x7f0000000000ULL;  // aligned addresses
    keys.push_back(k);
  }
  std::map<std::uint64_t, int> id;
  std::vector<std::size_t> first;
  std::vector<int> want(n);
  for (std::size_t r = 0; r < n; ++r) {
    auto it = id.find(keys[r]);
    if (it == id.end()) {
      it = id.emplace(keys[r], static_cast<int>(first.size()) + 1).first;
      first.push_back(r);
    }
    want[r] = it->second;
  }
  std::vector<int> codes(n + 1, -7);
  const std::vector<std::size_t> got =
      mla::distinct_codes(n, [&](std::size_t r) { return keys[r]; }, codes.data());
  expect_eq(static_cast<long long>(got.size()), static_cast<long long>(first.size()), "distinct keys");
  for (std::size_t j = 0; j < first.size(); ++j) {
    expect_eq(static_cast<long long>(got[j]), static_cast<long long>(first[j]), "first row of a key");
  }
  for (std::size_t r = 0; r < n; ++r) expect_eq(codes[r], want[r], "code of row " + std::to_string(r));
  expect_eq(codes[n], -7, "write past the codes");
  // a table built for any expected size
  mla::KeyTable table(static_cast<std::size_t>(in.range(0, 5000)));
  for (std::size_t r = 0; r < n; ++r) expect_eq(table.find_or_add(keys[r]), want[r] - 1, "KeyTable id");
  expect_eq(static_cast<long long>(table.size()), static_cast<long long>(first.size()), "KeyTable size");
}

void check_present_slots(fuzz::Bytes& in) {
  const std::int64_t offset = in.range(-4, 4);
  const std::size_t span = static_cast<std::size_t>(in.range(0, 12));
  const std::size_t n = static_cast<std::size_t>(in.range(0, 16));
  const bool allow_out = in.flag();
  std::vector<int> x;
  bool out = false;
  std::vector<unsigned char> want(span, 0);
  for (std::size_t r = 0; r < n; ++r) {
    int s = span > 0 ? 1 + in.byte() % static_cast<int>(span) : 1;
    if (allow_out && in.byte() < 32) s = in.flag() ? 0 : static_cast<int>(span) + 1;
    x.push_back(static_cast<int>(offset) + s);
    if (s < 1 || s > static_cast<int>(span)) {
      out = true;
    } else {
      want[static_cast<std::size_t>(s - 1)] = 1;
    }
  }
  try {
    const std::vector<unsigned char> got = mla::present_slots(x.data(), n, offset, span);
    if (out) mismatch("present_slots(): no error for an id outside the range");
    expect_eq(static_cast<long long>(got.size()), static_cast<long long>(span), "present_slots() size");
    for (std::size_t s = 0; s < span; ++s) expect_eq(got[s], want[s], "present_slots()");
  } catch (const std::invalid_argument&) {
    if (!out) mismatch("present_slots(): an error for ids within the range");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Bytes in(data, size);
  const int what = in.byte() % 8;
  if (what == 6) {
    check_distinct(in);
  } else if (what == 7) {
    check_present_slots(in);
  } else {
    check_ingest(decode_table(in));
  }
  return 0;
}
