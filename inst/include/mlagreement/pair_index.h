// The one enumerator of within-item annotator pairs (pairs.h, set_pairs.h).
// See DESIGN.md, Algorithms: Annotator pairs.
#ifndef MLAGREEMENT_PAIR_INDEX_H
#define MLAGREEMENT_PAIR_INDEX_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hash_tables.h"

namespace mlagreement {

namespace detail {

// Item i owns the records order[start[i]] .. order[start[i + 1] - 1].
struct ItemBuckets {
  std::vector<std::size_t> start;
  std::vector<std::size_t> order;
  std::size_t n_items() const noexcept { return start.empty() ? 0 : start.size() - 1; }
};

// The records with keep[r] != 0 bucketed by item (counting sort).
template <typename ItemOf>
ItemBuckets bucket_by_item(std::size_t n_items, const std::vector<unsigned char>& keep, ItemOf item_of) {
  ItemBuckets b;
  b.start.assign(n_items + 1, 0);
  const std::size_t n_rec = keep.size();
  for (std::size_t r = 0; r < n_rec; ++r) {
    if (keep[r]) ++b.start[item_of(r) + 1];
  }
  for (std::size_t i = 0; i < n_items; ++i) b.start[i + 1] += b.start[i];
  std::vector<std::size_t> fill(b.start.begin(), b.start.end() - 1);
  b.order.resize(b.start[n_items]);
  for (std::size_t r = 0; r < n_rec; ++r) {
    if (keep[r]) b.order[fill[item_of(r)]++] = r;
  }
  return b;
}

// For every item and two of its records r, s with annotators a < b:
// visitor.new_pair(a, b) when the pair first appears (its id: the count so
// far), visitor.start_record(r) before r's comparisons, visitor.compare(pair,
// r, s). False when interrupted() (polled about every 2^24 label comparisons).
template <typename Visitor, typename Interrupted>
bool visit_item_pairs(ItemBuckets& items, std::size_t n_annotators, std::size_t k, Visitor& visitor,
                      Interrupted&& interrupted) {
  PairIndex index(n_annotators);
  std::int64_t n_pairs = 0;
  constexpr std::uint64_t kPollWork = std::uint64_t{1} << 24;
  std::uint64_t work = 0;
  for (std::size_t i = 0; i < items.n_items(); ++i) {
    std::size_t* first = items.order.data() + items.start[i];
    std::size_t* last = items.order.data() + items.start[i + 1];
    const std::uint64_t n_i = static_cast<std::uint64_t>(last - first);
    work += n_i * n_i * k / 2 + 1;
    if (work >= kPollWork) {
      work = 0;
      if (interrupted()) return false;
    }
    std::sort(first, last, [&visitor](std::size_t r, std::size_t s) {
      return visitor.annotator(r) < visitor.annotator(s);
    });
    for (std::size_t* p = first; p < last; ++p) {
      const std::size_t r = *p;
      const std::uint64_t ar = visitor.annotator(r);
      visitor.start_record(r);
      for (std::size_t* q = p + 1; q < last; ++q) {
        const std::size_t s = *q;
        const std::uint64_t as = visitor.annotator(s);
        if (as == ar) continue;  // cannot happen: one record per (item, annotator)
        std::int64_t pid = index.find_or_add(ar, as, n_pairs);
        if (pid < 0) {
          pid = n_pairs++;
          visitor.new_pair(ar, as);
        }
        visitor.compare(static_cast<std::size_t>(pid), r, s);
      }
    }
  }
  return true;
}

}  // namespace detail

}  // namespace mlagreement

#endif
