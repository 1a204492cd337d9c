// The package's look-up tables, one per kind of key (PairIndex, CodeTable,
// StringTable, find_set()). Each gives dense ids in order of first
// insertion, so no result depends on the hash function or the table size.
// See DESIGN.md, Algorithms: Look-up tables.
#ifndef MLAGREEMENT_HASH_TABLES_H
#define MLAGREEMENT_HASH_TABLES_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "rng.h"

namespace mlagreement {

namespace detail {

class PairIndex {
 public:
  explicit PairIndex(std::uint64_t n_ann) : n_ann_(n_ann) {
    if (n_ann <= kDenseMax) dense_.assign(n_ann * n_ann, -1);
  }
  // Returns the index of (a, b), or -1 when the pair is new (then registers `next`).
  std::int64_t find_or_add(std::uint64_t a, std::uint64_t b, std::int64_t next) {
    const std::uint64_t key = a * n_ann_ + b;
    if (!dense_.empty()) {
      std::int64_t& slot = dense_[key];
      if (slot >= 0) return slot;
      slot = next;
      return -1;
    }
    auto found = map_.find(key);
    if (found != map_.end()) return found->second;
    map_.emplace(key, next);
    return -1;
  }

 private:
  static constexpr std::uint64_t kDenseMax = 2048;
  std::uint64_t n_ann_;
  std::vector<std::int64_t> dense_;
  std::unordered_map<std::uint64_t, std::int64_t> map_;
};

// Byte strings -> ids, the strings back to back in one arena; FNV-1a,
// open addressing, doubling when half full.
class StringTable {
 public:
  StringTable() : slots_(1024, -1) {}
  int intern(const std::string& t) {
    const std::uint64_t h = fnv1a(t);
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t s = h & mask;; s = (s + 1) & mask) {
      const int id = slots_[s];
      if (id < 0) break;
      if (hash_[id] == h && size_[id] == t.size() &&
          arena_.compare(start_[id], t.size(), t) == 0) return id;
    }
    const int id = static_cast<int>(start_.size());
    start_.push_back(arena_.size());
    size_.push_back(static_cast<std::uint32_t>(t.size()));
    hash_.push_back(h);
    arena_.append(t);
    if (2 * start_.size() > slots_.size()) {
      slots_.assign(2 * slots_.size(), -1);
      for (std::size_t k = 0; k < start_.size(); ++k) place(static_cast<int>(k));
    } else {
      place(id);
    }
    return id;
  }
  std::size_t size() const { return start_.size(); }
  const char* data(int id) const { return arena_.data() + start_[id]; }
  std::size_t length(int id) const { return size_[id]; }

 private:
  std::string arena_;
  std::vector<std::size_t> start_;  // string k: arena_[start_[k], start_[k] + size_[k])
  std::vector<std::uint32_t> size_;
  std::vector<std::uint64_t> hash_;
  std::vector<int> slots_;          // -1 or an id; size a power of two

  static std::uint64_t fnv1a(const std::string& t) {
    std::uint64_t h = 1469598103934665603ULL;
    for (unsigned char c : t) h = (h ^ c) * 1099511628211ULL;
    return h ^ (h >> 29);
  }
  void place(int id) {
    const std::size_t mask = slots_.size() - 1;
    std::size_t s = hash_[id] & mask;
    while (slots_[s] >= 0) s = (s + 1) & mask;
    slots_[s] = id;
  }
};

// Slots of {code, id + 1} (id + 1 = 0: empty; 8 bytes for 32-bit codes),
// multiplicative hashing on the high bits; the table doubles when half full.
template <typename Code>
class CodeTable {
 public:
  // 2^bits slots to start with
  explicit CodeTable(unsigned bits) : slot_(std::size_t{1} << bits, Slot{0U, 0U}), shift_(64U - bits) {}
  // Id of code, or -1 after storing it with id next_id.
  std::int64_t find_or_add(Code code, std::uint32_t next_id) {
    const std::size_t pos = find(code);
    if (slot_[pos].id1 != 0U) return static_cast<std::int64_t>(slot_[pos].id1 - 1U);
    slot_[pos] = Slot{code, next_id + 1U};
    if (2 * (static_cast<std::size_t>(next_id) + 1) > slot_.size()) grow();
    return -1;
  }
  std::size_t slots() const noexcept { return slot_.size(); }

 private:
  struct Slot {
    Code code;
    std::uint32_t id1;
  };
  std::vector<Slot> slot_;
  unsigned shift_;
  std::size_t find(Code code) const noexcept {
    const std::size_t mask = slot_.size() - 1;
    std::size_t pos = static_cast<std::size_t>((static_cast<std::uint64_t>(code) * 0x9e3779b97f4a7c15ULL) >> shift_);
    while (slot_[pos].id1 != 0U && slot_[pos].code != code) pos = (pos + 1) & mask;
    return pos;
  }
  void grow() {
    std::vector<Slot> old(2 * slot_.size(), Slot{0U, 0U});
    slot_.swap(old);
    --shift_;
    for (const Slot& e : old) {
      if (e.id1 != 0U) slot_[find(e.code)] = e;
    }
  }
};

// Slot of x (n_words words) in an open-addressing table of ids into `sets`
// (-1: empty): the slot holding x, or the empty slot where it belongs.
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

}  // namespace mlagreement

#endif
