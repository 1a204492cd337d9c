// Fuzz target 2: set building (set_build.h).
// Records -> distinct label sets with counts, pairable items and the set id
// and annotator of each kept record, checked against a std::map of sorted
// label vectors and plain loops; the fast path (complete dense arrays) and
// the general path must give identical SetData; a record with some but not
// all labels missing must be reported as the first such record.
#include <climits>
#include <cstdint>
#include <map>
#include <vector>

#include "fuzz_common.h"
#include "mlagreement/set_build.h"

namespace mla = mlagreement;

namespace {

using LabelSet = std::vector<int>;

LabelSet labels_of(const mla::SetData& s, int id) {
  LabelSet out;
  const std::uint64_t* w = s.bits.data() + static_cast<std::size_t>(id) * s.n_words;
  for (std::size_t b = 0; b < 64 * s.n_words; ++b) {
    if ((w[b / 64] >> (b % 64)) & 1U) out.push_back(static_cast<int>(b));
  }
  return out;
}

void expect_same(const mla::SetData& a, const mla::SetData& b) {
  fuzz::expect(a.n_words == b.n_words && a.bits == b.bits && a.size == b.size && a.count == b.count &&
                   a.start == b.start && a.rec_set == b.rec_set && a.rec_annotator == b.rec_annotator &&
                   a.bad_record == b.bad_record,
               "fast and general paths differ");
}

// The reference: kept records of pairable items, item by item in record order.
void check_sets(const fuzz::Design& d, const mla::SetData& s, bool annotators) {
  const std::size_t n = d.n_records(), N = static_cast<std::size_t>(d.N);
  std::int64_t bad = -1;
  std::vector<int> complete(N, 0);
  for (std::size_t r = 0; r < n && bad < 0; ++r) {
    int missing = 0;
    for (int j = 0; j < d.K; ++j) missing += d.at(r, j) == fuzz::kNA ? 1 : 0;
    if (missing > 0 && missing < d.K) bad = static_cast<std::int64_t>(r);
    if (missing == 0) ++complete[static_cast<std::size_t>(d.item[r])];
  }
  fuzz::expect_eq(static_cast<double>(s.bad_record), static_cast<double>(bad), "bad_record");
  if (bad >= 0) return;
  std::map<LabelSet, int> id_of;   // reference set -> id the header gave it
  std::map<int, LabelSet> set_of;  // and back
  std::map<int, double> count;
  std::size_t q = 0, g = 0;
  for (std::size_t i = 0; i < N; ++i) {
    if (complete[i] < 2) continue;
    fuzz::expect(g + 1 < s.start.size() && s.start[g] == q, "start of a pairable item");
    for (std::size_t r = 0; r < n; ++r) {
      if (static_cast<std::size_t>(d.item[r]) != i || d.at(r, 0) == fuzz::kNA) continue;
      LabelSet want;
      for (int j = 0; j < d.K; ++j) {
        if (d.at(r, j) == 1) want.push_back(j);
      }
      fuzz::expect(q < s.rec_set.size(), "kept records");
      const int id = s.rec_set[q];
      fuzz::expect(id >= 0 && static_cast<std::size_t>(id) < s.n_sets(), "set id in range");
      auto seen = id_of.find(want);
      if (seen == id_of.end()) {
        fuzz::expect(set_of.count(id) == 0, "one id for two sets");
        id_of[want] = id;
        set_of[id] = want;
      } else {
        fuzz::expect(seen->second == id, "two ids for one set");
      }
      count[id] += 1.0;
      if (annotators) fuzz::expect_eq(s.rec_annotator[q], d.annotator[r], "rec_annotator");
      ++q;
    }
    ++g;
    fuzz::expect(s.start[g] == q, "end of a pairable item");
  }
  fuzz::expect_eq(static_cast<double>(s.n_items()), static_cast<double>(g), "pairable items");
  fuzz::expect_eq(static_cast<double>(s.n_values()), static_cast<double>(q), "kept records");
  fuzz::expect(annotators ? s.rec_annotator.size() == q : s.rec_annotator.empty(), "rec_annotator size");
  fuzz::expect_eq(static_cast<double>(s.n_sets()), static_cast<double>(id_of.size()), "distinct sets");
  fuzz::expect(s.n_words == static_cast<std::size_t>((d.K + 63) / 64) || (g == 0), "n_words");
  for (const auto& e : set_of) {
    fuzz::expect(labels_of(s, e.first) == e.second, "bits of a set");
    fuzz::expect_eq(s.size[static_cast<std::size_t>(e.first)], static_cast<double>(e.second.size()), "set size");
    fuzz::expect_eq(s.count[static_cast<std::size_t>(e.first)], count[e.first], "set count");
  }
}

template <typename T, typename Codes>
void run(const fuzz::Design& d, const std::vector<T>& values, const Codes& codes, bool annotators) {
  const std::size_t N = static_cast<std::size_t>(d.N), A = static_cast<std::size_t>(d.A);
  const mla::RecordView<T> v{values.data(), d.n_records(), static_cast<std::size_t>(d.K),
                             d.dense ? nullptr : d.item.data(), N, d.dense ? nullptr : d.annotator.data(), A};
  mla::SetData s, general;
  mla::build_sets(v, codes, s, annotators);
  check_sets(d, s, annotators);
  mla::build_sets_general(v, codes, annotators, general);
  expect_same(s, general);
  if (d.dense && d.K <= 32 && d.A >= 2) {
    mla::SetData fast;
    bool any_missing = false;
    for (int val : d.val) any_missing = any_missing || val == fuzz::kNA;
    const bool done = mla::build_sets_complete(v, codes, annotators, fast);
    fuzz::expect(done == !any_missing, "fast path taken exactly on complete data");
    if (done) expect_same(fast, general);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Bytes in(data, size);
  fuzz::DesignLimits lim;
  lim.whole_records = in.flag();
  const int wide = in.range(0, 7);  // now and then more labels: two 32-bit halves, two words
  if (wide == 0) lim.max_labels = 40;
  if (wide == 1) lim.max_labels = 70;
  const bool real = in.flag(), annotators = in.flag();
  const fuzz::Design d = fuzz::decode_design(in, lim);
  if (real) {
    run(d, fuzz::real_values(d, 0), mla::SetRealCodes{}, annotators);
  } else {
    run(d, fuzz::int_values(d, 0), mla::SetIntCodes{INT_MIN}, annotators);
  }
  return 0;
}
