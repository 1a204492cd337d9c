// Records to label sets: the distinct sets with their counts and, per
// pairable item, the distinct set of each of its records (SetData, sets.h).
//
// Two paths giving the same SetData (same set ids, same record order):
// * complete dense arrays of at most 32 labels (no missing value, every
//   item pairable; the common case): each block of records is turned into
//   bit words and hashed to the distinct sets while its words are in L1;
//   no missing-value flags, no per-item counting. A missing value met on
//   the way hands over to the general path.
// * the general path: missing flags per record, records of each item
//   counted, only pairable items kept.
//
// Pure C++: no R headers.
#ifndef MLAGREEMENT_SET_BUILD_H
#define MLAGREEMENT_SET_BUILD_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "counts.h"
#include "sets.h"

namespace mlagreement {

namespace detail {

// Slot of x in an open-addressing table of distinct sets (ids into sets,
// n_words words each); -1 slots are empty. Returns the slot holding x, or
// the empty slot where it belongs.
inline std::size_t find_set(const std::vector<int>& table, const std::vector<std::uint64_t>& sets,
                            std::size_t n_words, const std::uint64_t* x) noexcept {
  const std::size_t mask = table.size() - 1;
  std::uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (std::size_t w = 0; w < n_words; ++w) h = mix64(h ^ x[w]);
  std::size_t pos = static_cast<std::size_t>(h) & mask;
  if (n_words == 1) {  // one word: compare it directly
    while (table[pos] >= 0 && sets[static_cast<std::size_t>(table[pos])] != x[0]) pos = (pos + 1) & mask;
    return pos;
  }
  while (table[pos] >= 0 &&
         !std::equal(x, x + n_words, sets.data() + static_cast<std::size_t>(table[pos]) * n_words)) {
    pos = (pos + 1) & mask;
  }
  return pos;
}

}  // namespace detail

// Records to bitsets, a block of records at a time (the block's bit words and
// missing flags stay in L1 while every label column streams through). The
// column loop has no branches (random 0/1 data would mispredict them) and is
// vectorised where OpenMP's simd is available. flag[r]: bit 0 some label
// missing, bit 1 some label decided.
template <typename T, typename Codes>
void build_sets_general(const RecordView<T>& v, const Codes& codes_in, bool annotators, SetData& out) {
  const Codes codes = codes_in;  // local copy: stores cannot alias it
  const std::size_t k = v.n_labels, n = v.n_records, W = (k + 63) / 64;
  out = SetData();
  out.n_words = W;
  // one word: two 32-bit halves (the high one only for k > 32), so the
  // vectorised loop has a single element width
  std::vector<std::uint64_t> rbits(W > 1 ? n * W : 0, 0);
  std::vector<std::uint32_t> lo(W == 1 ? n : 0, 0U), hi(W == 1 && k > 32 ? n : 0, 0U);
  std::vector<std::uint8_t> flag(n, 0);
  constexpr std::size_t kBlock = 2048;
  for (std::size_t r0 = 0; r0 < n; r0 += kBlock) {
    const std::size_t r1 = std::min(n, r0 + kBlock);
    std::uint8_t* fl = flag.data();
    for (std::size_t j = 0; j < k; ++j) {
      const T* col = v.values + j * n;
      if (W == 1) {
        std::uint32_t* hb = j < 32 ? lo.data() : hi.data();
        const unsigned sh = static_cast<unsigned>(j % 32);
#ifdef _OPENMP
#pragma omp simd
#endif
        for (std::size_t r = r0; r < r1; ++r) {
          const T val = col[r];
          fl[r] |= static_cast<std::uint8_t>(codes.is_na(val) ? 1U : 2U);
          hb[r] |= (codes.positive(val) ? 1U : 0U) << sh;
        }
      } else {
        std::uint64_t* rb = rbits.data() + j / 64;
        const unsigned sh = static_cast<unsigned>(j % 64);
        for (std::size_t r = r0; r < r1; ++r) {
          const T val = col[r];
          fl[r] |= static_cast<std::uint8_t>(codes.is_na(val) ? 1U : 2U);
          rb[r * W] |= static_cast<std::uint64_t>(codes.positive(val) ? 1U : 0U) << sh;
        }
      }
    }
  }
  // Records of each item (item_of() without a division for the dense layout).
  const bool dense = v.item == nullptr;
  const std::size_t N = v.n_items;
  std::vector<std::size_t> per_item(N, 0);
  for (std::size_t r = 0, i = 0; r < n; ++r) {
    const std::size_t item = dense ? i : static_cast<std::size_t>(v.item[r]);
    if (dense && ++i == N) i = 0;
    if ((flag[r] & 1U) == 0U) {
      ++per_item[item];
    } else if (flag[r] == 3U) {
      out.bad_record = static_cast<std::int64_t>(r);
      return;
    }
  }
  // Group the complete records of pairable items by item (counting sort).
  std::vector<std::size_t> slot(N, 0);
  std::size_t total = 0, g = 0;
  out.start.push_back(0);
  for (std::size_t i = 0; i < N; ++i) {
    if (per_item[i] >= 2) {
      slot[i] = total;
      total += per_item[i];
      out.start.push_back(total);
      ++g;
    } else {
      slot[i] = static_cast<std::size_t>(-1);
    }
  }
  if (g == 0) out.start.clear();
  // Distinct sets by open addressing on the bit words, records in their
  // own order; each kept record goes to its item's next slot. The table
  // doubles when half full, so it stays about the size of the distinct sets
  // (usually few: it then stays in cache). As in the fast path, the set lists
  // are reserved and the table starts at about half the most distinct sets
  // possible (at most 2^16 slots): fresh pages cost a fault each.
  const std::size_t most = std::min<std::size_t>(total, k < 30 ? std::size_t{1} << k : total);
  out.bits.reserve(most * W);
  out.size.reserve(most);
  out.count.reserve(most);
  unsigned bits = 6;
  while (bits < 16 && (std::size_t{1} << (bits + 1)) < most) ++bits;
  std::vector<int> table(std::size_t{1} << bits, -1);
  out.rec_set.resize(total);
  out.rec_annotator.resize(annotators ? total : 0);
  for (std::size_t r = 0, i = 0, c = 0; r < n; ++r) {
    const std::size_t item = dense ? i : static_cast<std::size_t>(v.item[r]);
    const std::size_t annotator = dense ? c : static_cast<std::size_t>(v.annotator[r]);
    if (dense && ++i == N) {
      i = 0;
      ++c;
    }
    if ((flag[r] & 1U) != 0U || slot[item] == static_cast<std::size_t>(-1)) continue;
    std::uint64_t one = 0;
    const std::uint64_t* x = &one;
    if (W == 1) {
      one = lo[r] | (hi.empty() ? 0ULL : static_cast<std::uint64_t>(hi[r]) << 32);
    } else {
      x = rbits.data() + r * W;
    }
    const std::size_t pos = detail::find_set(table, out.bits, W, x);
    int id = table[pos];
    if (id < 0) {
      id = static_cast<int>(out.size.size());
      table[pos] = id;
      out.bits.insert(out.bits.end(), x, x + W);
      int s = 0;
      for (std::size_t w = 0; w < W; ++w) s += detail::popcount64(x[w]);
      out.size.push_back(s);
      out.count.push_back(0.0);
      if (2 * out.size.size() > table.size()) {
        std::vector<int> bigger(2 * table.size(), -1);
        for (std::size_t t = 0; t < out.size.size(); ++t) {
          bigger[detail::find_set(bigger, out.bits, W, out.bits.data() + t * W)] = static_cast<int>(t);
        }
        table.swap(bigger);
      }
    }
    out.count[static_cast<std::size_t>(id)] += 1.0;
    const std::size_t q = slot[item]++;
    out.rec_set[q] = id;
    if (annotators) out.rec_annotator[q] = static_cast<int>(annotator);
  }
}


namespace detail {

// Distinct sets of at most 32 labels by open addressing, each slot one
// 64-bit word (set id + 1) << 32 | code, 0 when empty: one cache line per
// probe. Multiplicative hashing on the high bits; the table doubles when
// half full.
class CodeTable {
 public:
  // 2^bits slots to start with
  explicit CodeTable(unsigned bits) : slot_(std::size_t{1} << bits, 0U), shift_(64U - bits) {}
  // Id of code, or -1 after storing it with id next_id.
  int find_or_add(std::uint32_t code, int next_id) {
    const std::size_t pos = find(code);
    if (slot_[pos] != 0U) return static_cast<int>((slot_[pos] >> 32) - 1U);
    slot_[pos] = (static_cast<std::uint64_t>(next_id) + 1U) << 32 | code;
    if (2 * static_cast<std::size_t>(next_id + 1) > slot_.size()) grow();
    return -1;
  }

 private:
  std::vector<std::uint64_t> slot_;
  unsigned shift_;
  std::size_t find(std::uint32_t code) const noexcept {
    const std::size_t mask = slot_.size() - 1;
    std::size_t pos = static_cast<std::size_t>((code * 0x9e3779b97f4a7c15ULL) >> shift_);
    while (slot_[pos] != 0U && static_cast<std::uint32_t>(slot_[pos]) != code) pos = (pos + 1) & mask;
    return pos;
  }
  void grow() {
    std::vector<std::uint64_t> old(2 * slot_.size(), 0U);
    slot_.swap(old);
    --shift_;
    for (std::uint64_t e : old) {
      if (e != 0U) slot_[find(static_cast<std::uint32_t>(e))] = e;
    }
  }
};

}  // namespace detail

// The fast path (see the top of the file). Returns false, out undefined, on
// a missing value.
template <typename T, typename Codes>
bool build_sets_complete(const RecordView<T>& v, const Codes& codes_in, bool annotators, SetData& out) {
  const Codes codes = codes_in;  // local copy: stores cannot alias it
  const std::size_t k = v.n_labels, n = v.n_records, N = v.n_items, A = v.n_annotators;
  out = SetData();
  out.n_words = 1;
  constexpr std::size_t kBlock = 2048;
  // one 32-bit word per record (k <= 32)
  std::vector<std::uint32_t> lo(kBlock);
  // every item has A >= 2 complete records: all pairable, records of item i
  // at i * A + annotator (record r is item r % N, annotator r / N)
  out.start.resize(N + 1);
  for (std::size_t i = 0; i <= N; ++i) out.start[i] = i * A;
  out.rec_set.resize(n);
  if (annotators) {
    out.rec_annotator.resize(n);
    for (std::size_t i = 0; i < N; ++i) {
      for (std::size_t c = 0; c < A; ++c) out.rec_annotator[i * A + c] = static_cast<int>(c);
    }
  }
  int* const rec_set = out.rec_set.data();
  std::size_t item = 0, annotator = 0;  // of the next record
  // Memory: fresh pages cost a fault each (about a microsecond), so the set
  // lists are reserved for the worst case (untouched pages cost nothing)
  // rather than grown by copying, and the hash table starts at about half
  // the most distinct sets possible (at most 2^16 slots, 512 KB) rather than
  // doubling from small (a doubling from 2^15 slots costs about 0.4 ms).
  const std::size_t most = std::min<std::size_t>(n, std::size_t{1} << std::min<std::size_t>(k, 30));
  out.bits.reserve(most);
  out.size.reserve(most);
  std::vector<std::uint32_t> count;  // integer counts: no floating-point add chain
  count.reserve(most);
  unsigned bits = 12;
  while (bits < 16 && (std::size_t{1} << (bits + 1)) < most) ++bits;
  detail::CodeTable table(bits);
  for (std::size_t r0 = 0; r0 < n; r0 += kBlock) {
    const std::size_t len = std::min(n, r0 + kBlock) - r0;
    std::fill(lo.begin(), lo.end(), 0U);
    // four columns per pass: one read-modify-write of the bit words per
    // four values; bits by masks (no shifts of the compared values)
    std::uint32_t missing = 0U;
    for (std::size_t j = 0; j < k; j += 4) {
      const std::size_t nj = std::min<std::size_t>(4, k - j);
      std::uint32_t* hb = lo.data();
      const std::uint32_t b0 = std::uint32_t{1} << j;
      const T* c0 = v.values + j * n + r0;
      const T* c1 = nj > 1 ? c0 + n : c0;  // absent columns repeat column j (no new bits)
      const T* c2 = nj > 2 ? c0 + 2 * n : c0;
      const T* c3 = nj > 3 ? c0 + 3 * n : c0;
      const std::uint32_t b1 = nj > 1 ? b0 << 1 : b0, b2 = nj > 2 ? b0 << 2 : b0, b3 = nj > 3 ? b0 << 3 : b0;
#ifdef _OPENMP
#pragma omp simd reduction(| : missing)
#endif
      for (std::size_t r = 0; r < len; ++r) {
        const T x0 = c0[r], x1 = c1[r], x2 = c2[r], x3 = c3[r];
        missing |= (codes.is_na(x0) ? 1U : 0U) | (codes.is_na(x1) ? 1U : 0U) |
                   (codes.is_na(x2) ? 1U : 0U) | (codes.is_na(x3) ? 1U : 0U);
        hb[r] |= (codes.positive(x0) ? b0 : 0U) | (codes.positive(x1) ? b1 : 0U) |
                 (codes.positive(x2) ? b2 : 0U) | (codes.positive(x3) ? b3 : 0U);
      }
    }
    if (missing != 0U) return false;
    for (std::size_t r = 0; r < len; ++r) {
      const std::uint32_t code = lo[r];
      const int next = static_cast<int>(out.size.size());
      int s = table.find_or_add(code, next);
      if (s < 0) {
        s = next;
        out.bits.push_back(code);
        out.size.push_back(detail::popcount64(code));
        count.push_back(0U);
      }
      ++count[static_cast<std::size_t>(s)];
      rec_set[item * A + annotator] = s;
      if (++item == N) {
        item = 0;
        ++annotator;
      }
    }
  }
  out.count.assign(count.begin(), count.end());
  return true;
}

// annotators = false leaves out.rec_annotator empty (alpha does not need it).
template <typename T, typename Codes>
void build_sets(const RecordView<T>& v, const Codes& codes, SetData& out, bool annotators = true) {
  const bool complete_ok = v.item == nullptr && v.n_labels <= 32 && v.n_annotators >= 2 &&
                           v.n_records == v.n_items * v.n_annotators;
  if (complete_ok && build_sets_complete(v, codes, annotators, out)) return;
  build_sets_general(v, codes, annotators, out);
}

}  // namespace mlagreement

#endif
