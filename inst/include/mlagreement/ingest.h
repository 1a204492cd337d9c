// Ingestion of long decision tables (annotations_long()): distinct values of
// an id column, and the records x labels matrix from coded rows. Reports the
// first offending row and a reason code; R writes the message.
// See DESIGN.md, Algorithms: The counting pass.
#ifndef MLAGREEMENT_INGEST_H
#define MLAGREEMENT_INGEST_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace mlagreement {

// Open-addressing table of 64-bit keys; ids in order of first insertion.
class KeyTable {
 public:
  explicit KeyTable(std::size_t expected) { rehash(grow_to(expected)); }

  int find_or_add(std::uint64_t key) {
    std::size_t s = slot_of(key);
    while (ids_[s] >= 0) {
      if (keys_[s] == key) return ids_[s];
      s = (s + 1) & mask_;
    }
    const int id = static_cast<int>(size_);
    keys_[s] = key;
    ids_[s] = id;
    if (++size_ * 2 > ids_.size()) rehash(ids_.size() * 2);
    return id;
  }
  std::size_t size() const noexcept { return size_; }

 private:
  static std::size_t grow_to(std::size_t n) {
    std::size_t cap = 1024;
    while (cap < 2 * n) cap *= 2;
    return cap;
  }
  std::size_t slot_of(std::uint64_t key) const noexcept {
    key ^= key >> 33;  // murmur3 finaliser: addresses and small integers spread
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return static_cast<std::size_t>(key) & mask_;
  }
  void rehash(std::size_t cap) {
    std::vector<std::uint64_t> old_keys(cap);
    std::vector<int> old_ids(cap, -1);
    old_keys.swap(keys_);
    old_ids.swap(ids_);
    mask_ = cap - 1;
    for (std::size_t s = 0; s < old_ids.size(); ++s) {
      if (old_ids[s] < 0) continue;
      std::size_t t = slot_of(old_keys[s]);
      while (ids_[t] >= 0) t = (t + 1) & mask_;
      keys_[t] = old_keys[s];
      ids_[t] = old_ids[s];
    }
  }
  std::vector<std::uint64_t> keys_;
  std::vector<int> ids_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

// codes[r] = 1-based id of key_at(r) in order of first occurrence; returns
// each id's first row. A repeat of the previous key skips the look-up.
template <typename KeyAt>
std::vector<std::size_t> distinct_codes(std::size_t n, KeyAt key_at, int* codes) {
  std::vector<std::size_t> first;
  KeyTable table(1024);
  std::uint64_t prev = 0;
  int prev_code = 0;
  for (std::size_t r = 0; r < n; ++r) {
    const std::uint64_t key = key_at(r);
    if (r == 0 || key != prev) {
      const int id = table.find_or_add(key);
      if (static_cast<std::size_t>(id) == first.size()) first.push_back(r);
      prev = key;
      prev_code = id + 1;
    }
    codes[r] = prev_code;
  }
  return first;
}

// Which slots 1..span the whole numbers x[r] - offset occupy (R has checked
// for NA).
inline std::vector<unsigned char> present_slots(const int* x, std::size_t n, std::int64_t offset,
                                                std::size_t span) {
  std::vector<unsigned char> present(span, 0);
  for (std::size_t r = 0; r < n; ++r) {
    const std::int64_t s = static_cast<std::int64_t>(x[r]) - offset - 1;
    if (s < 0 || static_cast<std::size_t>(s) >= span) {
      throw std::invalid_argument("Internal error: an id outside its counted range.");
    }
    present[static_cast<std::size_t>(s)] = 1;
  }
  return present;
}

// A coded column: row r has the 1-based code pos[x[r] - offset - 1], or 0
// (NA, outside pos, or pos NA: an undeclared or missing label).
struct CodedColumn {
  const int* x;
  std::int64_t offset;
  const int* pos;
  std::size_t n_pos;
  int na;  // R's integer NA

  int code(std::size_t r) const noexcept {
    if (x[r] == na) return 0;
    const std::int64_t s = static_cast<std::int64_t>(x[r]) - offset - 1;
    if (s < 0 || static_cast<std::size_t>(s) >= n_pos) return 0;
    const int p = pos[s];
    return p > 0 ? p : 0;
  }
};

// Reason codes, in the order R reports them.
enum class IngestStatus { ok = 0, bad_label = 1, bad_value = 2, repeated = 3 };

// The reason, the 0-based first row with it and (invalid values) how many.
struct IngestResult { IngestStatus status; std::size_t row, count; };

class DecisionIngest {
 public:
  DecisionIngest(CodedColumn item, std::size_t n_items, CodedColumn annotator,
                 std::size_t n_annotators, std::size_t n_rows)
      : item_(item), ann_(annotator), n_items_(n_items), n_ann_(n_annotators), n_rows_(n_rows) {
    // 32-bit row and run indices: a shuffled table has a run per row
    if (n_rows > 0xFFFFFFFFu) throw std::invalid_argument("Internal error: over 2^32 rows.");
    find_runs();
    number_records();
  }

  std::size_t n_records() const noexcept { return rec_item_.size(); }
  // 1-based item and annotator of each record
  const std::vector<int>& record_item() const noexcept { return rec_item_; }
  const std::vector<int>& record_annotator() const noexcept { return rec_ann_; }

  // The 1-based record of every row (out: n_rows values).
  void row_records(int* out) const noexcept {
    for (std::size_t run = 0; run + 1 < run_start_.size(); ++run) {
      std::fill(out + run_start_[run], out + run_start_[run + 1], run_rec_[run] + 1);
    }
  }

  // Fills the records x labels matrix (column-major) with 0/1/NA. Stops at a
  // label without a code; otherwise reports the first invalid value (and
  // counts them), else the first repeated decision (the last kept when
  // keep_last, else the first).
  template <typename V, typename Codes>
  IngestResult fill(const CodedColumn& label, std::size_t n_labels, const V* values,
                    const Codes& codes, int na, bool keep_last, int* out) const {
    const std::size_t n_rec = n_records();
    const int unset = -1;  // never a stored value (0, 1 or NA)
    std::fill(out, out + n_rec * n_labels, unset);
    IngestResult bad_value{IngestStatus::ok, 0, 0}, repeated{IngestStatus::ok, 0, 0};
    for (std::size_t run = 0; run + 1 < run_start_.size(); ++run) {
      int* rec_cells = out + static_cast<std::size_t>(run_rec_[run]);
      for (std::size_t r = run_start_[run]; r < run_start_[run + 1]; ++r) {
        const int lab = label.code(r);
        if (lab == 0 || static_cast<std::size_t>(lab) > n_labels) {
          return IngestResult{IngestStatus::bad_label, r, 0};
        }
        const V v = values[r];
        if (codes.invalid(v)) {
          if (bad_value.count++ == 0) bad_value = {IngestStatus::bad_value, r, 1};
          continue;
        }
        int& cell = rec_cells[static_cast<std::size_t>(lab - 1) * n_rec];
        if (cell != unset) {
          if (repeated.status == IngestStatus::ok) repeated = {IngestStatus::repeated, r, 0};
          if (!keep_last) continue;
        }
        cell = codes.decided(v) ? codes.positive(v) : na;
      }
    }
    std::replace(out, out + n_rec * n_labels, unset, na);
    return bad_value.status != IngestStatus::ok ? bad_value : repeated;
  }

 private:
  // Runs of consecutive rows with the same raw item and annotator values.
  void find_runs() {
    run_start_.reserve(n_rows_ / 4 + 2);
    for (std::size_t r = 0; r < n_rows_; ++r) {
      if (r == 0 || item_.x[r] != item_.x[r - 1] || ann_.x[r] != ann_.x[r - 1]) {
        const int i = item_.code(r), a = ann_.code(r);
        if (i == 0 || a == 0 || static_cast<std::size_t>(i) > n_items_ ||
            static_cast<std::size_t>(a) > n_ann_) {
          throw std::invalid_argument("Internal error: an item or annotator without a code.");
        }
        run_start_.push_back(static_cast<std::uint32_t>(r));
        run_item_.push_back(i - 1);
        run_ann_.push_back(a - 1);
      }
    }
    run_start_.push_back(static_cast<std::uint32_t>(n_rows_));
  }

  // Records in item order (runs counted by item), annotators sorted within
  // an item; run_rec_: the record of each run.
  void number_records() {
    const std::size_t n_runs = run_item_.size();
    std::vector<std::size_t> start(n_items_ + 1, 0);
    for (int i : run_item_) ++start[static_cast<std::size_t>(i) + 1];
    for (std::size_t i = 0; i < n_items_; ++i) start[i + 1] += start[i];
    std::vector<std::uint32_t> by_item(n_runs);
    std::vector<std::size_t> next(start.begin(), start.end() - 1);
    for (std::size_t run = 0; run < n_runs; ++run) {
      by_item[next[run_item_[run]]++] = static_cast<std::uint32_t>(run);
    }
    std::vector<int> seen_in(n_ann_, -1), rec_of(n_ann_, 0), anns;
    run_rec_.assign(n_runs, 0);
    for (std::size_t i = 0; i < n_items_; ++i) {
      anns.clear();
      for (std::size_t p = start[i]; p < start[i + 1]; ++p) {
        const int a = run_ann_[by_item[p]];
        if (seen_in[a] != static_cast<int>(i)) {
          seen_in[a] = static_cast<int>(i);
          anns.push_back(a);
        }
      }
      std::sort(anns.begin(), anns.end());
      for (int a : anns) {
        rec_of[a] = static_cast<int>(rec_item_.size());
        rec_item_.push_back(static_cast<int>(i) + 1);
        rec_ann_.push_back(a + 1);
      }
      for (std::size_t p = start[i]; p < start[i + 1]; ++p) {
        run_rec_[by_item[p]] = rec_of[run_ann_[by_item[p]]];
      }
    }
  }

  CodedColumn item_, ann_;
  std::size_t n_items_, n_ann_, n_rows_;
  std::vector<std::uint32_t> run_start_;
  std::vector<int> run_item_, run_ann_, run_rec_;
  std::vector<int> rec_item_, rec_ann_;
};

}  // namespace mlagreement

#endif  // MLAGREEMENT_INGEST_H
