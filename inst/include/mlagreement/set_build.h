// Records to label sets (SetData, sets.h): a fast path for complete dense
// arrays of at most 32 labels and a general path, giving the same SetData.
// See DESIGN.md, Algorithms: Label sets.
#ifndef MLAGREEMENT_SET_BUILD_H
#define MLAGREEMENT_SET_BUILD_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "counts.h"
#include "hash_tables.h"
#include "sets.h"

namespace mlagreement {

namespace detail {

// Bits and missing flags (bit 0 some label missing, bit 1 some decided) of
// every record, a block of records at a time so the block stays in L1. The
// column loop has no branches (random 0/1 data would mispredict them); one
// word is two 32-bit halves so the vectorised loop has one element width.
struct RecordBits {
  std::vector<std::uint64_t> words;   // W > 1: n x W
  std::vector<std::uint32_t> lo, hi;  // W = 1
  std::vector<std::uint8_t> flag;
};

template <typename T, typename Codes>
void record_bits(const RecordView<T>& v, const Codes codes, std::size_t W, RecordBits& rb) {
  const std::size_t k = v.n_labels, n = v.n_records;
  rb.words.assign(W > 1 ? n * W : 0, 0);
  rb.lo.assign(W == 1 ? n : 0, 0U);
  rb.hi.assign(W == 1 && k > 32 ? n : 0, 0U);
  rb.flag.assign(n, 0);
  constexpr std::size_t kBlock = 2048;
  for (std::size_t r0 = 0; r0 < n; r0 += kBlock) {
    const std::size_t r1 = std::min(n, r0 + kBlock);
    std::uint8_t* fl = rb.flag.data();
    for (std::size_t j = 0; j < k; ++j) {
      const T* col = v.values + j * n;
      if (W == 1) {
        std::uint32_t* hb = j < 32 ? rb.lo.data() : rb.hi.data();
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
        std::uint64_t* wb = rb.words.data() + j / 64;
        const unsigned sh = static_cast<unsigned>(j % 64);
        for (std::size_t r = r0; r < r1; ++r) {
          const T val = col[r];
          fl[r] |= static_cast<std::uint8_t>(codes.is_na(val) ? 1U : 2U);
          wb[r * W] |= static_cast<std::uint64_t>(codes.positive(val) ? 1U : 0U) << sh;
        }
      }
    }
  }
}

constexpr std::size_t kNotPairable = static_cast<std::size_t>(-1);

// Complete records of pairable items grouped by item (counting sort): each
// item's first slot, kNotPairable below two records. Returns the kept
// records; sets out.bad_record on a partly missing record.
template <typename T>
std::size_t pairable_slots(const RecordView<T>& v, const std::vector<std::uint8_t>& flag, SetData& out,
                           std::vector<std::size_t>& slot) {
  // item_of() without a division for the dense layout
  const bool dense = v.item == nullptr;
  const std::size_t N = v.n_items, n = v.n_records;
  std::vector<std::size_t> per_item(N, 0);
  for (std::size_t r = 0, i = 0; r < n; ++r) {
    const std::size_t item = dense ? i : static_cast<std::size_t>(v.item[r]);
    if (dense && ++i == N) i = 0;
    if ((flag[r] & 1U) == 0U) {
      ++per_item[item];
    } else if (flag[r] == 3U) {
      out.bad_record = static_cast<std::int64_t>(r);
      return 0;
    }
  }
  slot.assign(N, 0);
  std::size_t total = 0, g = 0;
  out.start.push_back(0);
  for (std::size_t i = 0; i < N; ++i) {
    if (per_item[i] >= 2) {
      slot[i] = total;
      total += per_item[i];
      out.start.push_back(total);
      ++g;
    } else {
      slot[i] = kNotPairable;
    }
  }
  if (g == 0) out.start.clear();
  return total;
}

// Id of the set x among out's distinct sets, added when new; the table
// doubles when half full.
inline int distinct_set_id(std::vector<int>& table, SetData& out, std::size_t W, const std::uint64_t* x) {
  const std::size_t pos = find_set(table, out.bits, W, x);
  int id = table[pos];
  if (id >= 0) return id;
  id = static_cast<int>(out.size.size());
  table[pos] = id;
  out.bits.insert(out.bits.end(), x, x + W);
  int s = 0;
  for (std::size_t w = 0; w < W; ++w) s += popcount64(x[w]);
  out.size.push_back(s);
  out.count.push_back(0.0);
  if (2 * out.size.size() > table.size()) {
    std::vector<int> bigger(2 * table.size(), -1);
    for (std::size_t t = 0; t < out.size.size(); ++t) {
      bigger[find_set(bigger, out.bits, W, out.bits.data() + t * W)] = static_cast<int>(t);
    }
    table.swap(bigger);
  }
  return id;
}

// Reserves the distinct-set lists; the empty table of distinct_set_id()
// starts large (fresh pages cost a fault each).
inline std::vector<int> start_distinct_sets(SetData& out, std::size_t total, std::size_t k,
                                            std::size_t W, bool annotators) {
  const std::size_t most = std::min<std::size_t>(total, k < 30 ? std::size_t{1} << k : total);
  out.bits.reserve(most * W);
  out.size.reserve(most);
  out.count.reserve(most);
  unsigned bits = 6;
  while (bits < 16 && (std::size_t{1} << (bits + 1)) < most) ++bits;
  out.rec_set.resize(total);
  out.rec_annotator.resize(annotators ? total : 0);
  return std::vector<int>(std::size_t{1} << bits, -1);
}

}  // namespace detail

// The general path; each kept record goes to its item's next slot.
template <typename T, typename Codes>
void build_sets_general(const RecordView<T>& v, const Codes& codes, bool annotators, SetData& out) {
  const std::size_t k = v.n_labels, n = v.n_records, W = (k + 63) / 64, N = v.n_items;
  out = SetData();
  out.n_words = W;
  detail::RecordBits rb;
  detail::record_bits(v, codes, W, rb);  // by value: stores cannot alias the codes
  std::vector<std::size_t> slot;
  const std::size_t total = detail::pairable_slots(v, rb.flag, out, slot);
  if (out.bad_record >= 0) return;
  std::vector<int> table = detail::start_distinct_sets(out, total, k, W, annotators);
  const bool dense = v.item == nullptr;
  for (std::size_t r = 0, i = 0, c = 0; r < n; ++r) {
    const std::size_t item = dense ? i : static_cast<std::size_t>(v.item[r]);
    const std::size_t annotator = dense ? c : static_cast<std::size_t>(v.annotator[r]);
    if (dense && ++i == N) {
      i = 0;
      ++c;
    }
    if ((rb.flag[r] & 1U) != 0U || slot[item] == detail::kNotPairable) continue;
    std::uint64_t one = 0;
    const std::uint64_t* x = &one;
    if (W == 1) {
      one = rb.lo[r] | (rb.hi.empty() ? 0ULL : static_cast<std::uint64_t>(rb.hi[r]) << 32);
    } else {
      x = rb.words.data() + r * W;
    }
    const int id = detail::distinct_set_id(table, out, W, x);
    out.count[static_cast<std::size_t>(id)] += 1.0;
    const std::size_t q = slot[item]++;
    out.rec_set[q] = id;
    if (annotators) out.rec_annotator[q] = static_cast<int>(annotator);
  }
}

namespace detail {

// Fast path: 32-bit codes of records r0 .. r0 + len - 1 (k <= 32), four
// columns per pass; false on a missing value.
template <typename T, typename Codes>
bool block_codes(const RecordView<T>& v, const Codes codes, std::size_t r0, std::size_t len,
                 std::uint32_t* lo) {
  const std::size_t k = v.n_labels, n = v.n_records;
  std::fill(lo, lo + len, 0U);
  std::uint32_t missing = 0U;
  for (std::size_t j = 0; j < k; j += 4) {
    const std::size_t nj = std::min<std::size_t>(4, k - j);
    std::uint32_t* hb = lo;
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
  return missing == 0U;
}

// Every item has A >= 2 complete records: item i's at i * A + annotator.
inline void complete_layout(std::size_t N, std::size_t A, bool annotators, SetData& out) {
  out.start.resize(N + 1);
  for (std::size_t i = 0; i <= N; ++i) out.start[i] = i * A;
  out.rec_set.resize(N * A);
  if (!annotators) return;
  out.rec_annotator.resize(N * A);
  for (std::size_t i = 0; i < N; ++i) {
    for (std::size_t c = 0; c < A; ++c) out.rec_annotator[i * A + c] = static_cast<int>(c);
  }
}

}  // namespace detail

// The fast path; false, out undefined, on a missing value.
template <typename T, typename Codes>
bool build_sets_complete(const RecordView<T>& v, const Codes& codes, bool annotators, SetData& out) {
  const std::size_t k = v.n_labels, n = v.n_records, N = v.n_items, A = v.n_annotators;
  out = SetData();
  out.n_words = 1;
  constexpr std::size_t kBlock = 2048;
  std::vector<std::uint32_t> lo(kBlock);  // one 32-bit word per record (k <= 32)
  detail::complete_layout(N, A, annotators, out);
  int* const rec_set = out.rec_set.data();
  std::size_t item = 0, annotator = 0;  // of the next record
  // fresh pages cost a fault each: reserve for the worst case (untouched
  // pages cost nothing) and start the table large instead of doubling
  const std::size_t most = std::min<std::size_t>(n, std::size_t{1} << std::min<std::size_t>(k, 30));
  out.bits.reserve(most);
  out.size.reserve(most);
  std::vector<std::uint32_t> count;  // integer counts: no floating-point add chain
  count.reserve(most);
  unsigned bits = 12;
  while (bits < 16 && (std::size_t{1} << (bits + 1)) < most) ++bits;
  detail::CodeTable<std::uint32_t> table(bits);
  for (std::size_t r0 = 0; r0 < n; r0 += kBlock) {
    const std::size_t len = std::min(n, r0 + kBlock) - r0;
    if (!detail::block_codes(v, codes, r0, len, lo.data())) return false;
    for (std::size_t r = 0; r < len; ++r) {
      const std::uint32_t code = lo[r];
      const std::uint32_t next = static_cast<std::uint32_t>(out.size.size());
      std::int64_t s = table.find_or_add(code, next);
      if (s < 0) {
        s = next;
        out.bits.push_back(code);
        out.size.push_back(detail::popcount64(code));
        count.push_back(0U);
      }
      ++count[static_cast<std::size_t>(s)];
      rec_set[item * A + annotator] = static_cast<int>(s);
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
