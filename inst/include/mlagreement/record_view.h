// The records as the core sees them: a non-owning view of R's records x
// labels values, the missing-value codes of its storage types, and guards.
// See DESIGN.md, Algorithms: The counting pass.
#ifndef MLAGREEMENT_RECORD_VIEW_H
#define MLAGREEMENT_RECORD_VIEW_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace mlagreement {

// R's integer and logical NA is INT_MIN, so valid codes are exactly the bit
// patterns 0x0, 0x1 and 0x80000000: bit arithmetic classifies a value
// without branches or compares, so the counting loop runs at memory speed.
struct IntCodes {
  static unsigned bits(int v) noexcept { return static_cast<unsigned>(v); }
  // 1 unless NA (sign bit set)
  int decided(int v) const noexcept { return static_cast<int>((bits(v) >> 31) ^ 1u); }
  // non-zero for anything but 0, 1, NA: bits 1-30 set, or the pattern 0x80000001
  int invalid(int v) const noexcept {
    const unsigned u = bits(v);
    return static_cast<int>((u & 0x7FFFFFFEu) | ((u >> 31) & u & 1u));
  }
  int positive(int v) const noexcept { return static_cast<int>(bits(v) & 1u); }
};
// Doubles: 0, 1 or R's NA_real_ (the NaN whose low word is 1954, R_IsNA()'s
// test); any other NaN is refused like every value other than 0, 1 and NA.
// Conditional expressions become compare-and-mask instructions.
struct RealCodes {
  static std::uint32_t low_word(double v) noexcept {
    std::uint64_t b;
    std::memcpy(&b, &v, sizeof b);
    return static_cast<std::uint32_t>(b);
  }
  int decided(double v) const noexcept { return v == v ? 1 : 0; }  // NA (a NaN) is missing
  int invalid(double v) const noexcept {
    const int r_na = static_cast<int>(v != v) & static_cast<int>(low_word(v) == 1954u);
    return static_cast<int>(v != 0.0) & static_cast<int>(v != 1.0) & (r_na ^ 1);
  }
  int positive(double v) const noexcept { return v == 1.0 ? 1 : 0; }
};

// Non-owning view of the records. Record r belongs to item item[r] (0-based);
// with item == nullptr the layout is dense: record r = i + n_items * c.
template <typename T>
struct RecordView {
  const T* values;
  std::size_t n_records;
  std::size_t n_labels;
  const int* item;
  std::size_t n_items;
  const int* annotator;  // 0-based annotator of each record (nullptr when dense)
  std::size_t n_annotators;
  // Columns of the labels to read (nullptr: every column), so counting a
  // subset of labels reads only their columns.
  const int* label_cols = nullptr;
  std::size_t column_of(std::size_t j) const noexcept {
    return label_cols ? static_cast<std::size_t>(label_cols[j]) : j;
  }
  const T* column(std::size_t j) const noexcept { return values + column_of(j) * n_records; }
  std::size_t item_of(std::size_t r) const noexcept {
    return item ? static_cast<std::size_t>(item[r]) : r % n_items;
  }
  std::size_t annotator_of(std::size_t r) const noexcept {
    return annotator ? static_cast<std::size_t>(annotator[r]) : r / n_items;
  }
};

// The counting pass divides by the numbers of labels and items (record
// layout, pair factors): a view without them is refused, never a SIGFPE.
template <typename T>
void check_view_extents(const RecordView<T>& v) {
  if (v.n_labels == 0) throw std::invalid_argument("Internal error: a view with no labels.");
  if (v.n_items == 0) throw std::invalid_argument("Internal error: a view with no items.");
  if (v.item == nullptr && v.n_records % v.n_items != 0) {
    throw std::invalid_argument("Internal error: dense records are not a multiple of the items.");
  }
}

// Values other than 0, 1 and NA of the labels of v, counted here so that R
// needs no full-size temporary for the message.
template <typename T, typename Codes>
std::int64_t count_invalid(const RecordView<T>& v, const Codes& codes) {
  check_view_extents(v);
  std::int64_t n = 0;
  for (std::size_t j = 0; j < v.n_labels; ++j) {
    const T* col = v.column(j);
    // (IntCodes::invalid() is any non-zero value, not 1)
    for (std::size_t r = 0; r < v.n_records; ++r) n += codes.invalid(col[r]) != 0 ? 1 : 0;
  }
  return n;
}

}  // namespace mlagreement

#endif
