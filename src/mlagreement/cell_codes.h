// Item x label cells as class codes: an item's counts (m decisions, x
// positives) on one label as the single number m * side + x, side the
// smallest power of two above max_m (a shift and an OR in the counting pass).
// The counting pass of a dense array stores them (counts.h, one byte per cell
// when max_m <= 15, two when max_m <= 255), where the x and m tables
// themselves would cost eight bytes per cell; the influence terms
// (influence.h) and the item bootstrap read cells through the two views here,
// whichever the object keeps. Pure C++: no R headers.
#ifndef MLAGREEMENT_CELL_CODES_H
#define MLAGREEMENT_CELL_CODES_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mlagreement {

// Largest number of classes (side * side) a code table may have.
constexpr std::size_t kMaxCellClasses = 65536;

// The side of the codes for items with at most max_m decisions.
inline std::size_t cell_code_side(std::size_t max_m) {
  std::size_t side = 1;
  while (side <= max_m) side *= 2;
  return side;
}

// Bytes of a stored code for a side: 1, 2, or 0 (not stored).
inline int cell_code_bytes(std::size_t side) {
  if (side * side <= 256) return 1;
  return side * side <= kMaxCellClasses ? 2 : 0;
}

// Cells of the items x labels tables x, m (column-major). side: above every
// m when the classes can be tabulated (at most kMaxCellClasses), else 0, and
// then only x_at()/m_at() may be used.
struct CountCells {
  const int* x;
  const int* m;
  std::size_t n_items, n_labels, side;
  int x_at(std::size_t j, std::size_t i) const { return x[j * n_items + i]; }
  int m_at(std::size_t j, std::size_t i) const { return m[j * n_items + i]; }
  std::size_t code(std::size_t j, std::size_t i) const {
    return static_cast<std::size_t>(m_at(j, i)) * side + static_cast<std::size_t>(x_at(j, i));
  }
};

// Stored codes (uint8 or uint16), one column per label read.
template <typename Code>
struct StoredCells {
  std::vector<const Code*> columns;
  std::size_t n_items = 0, n_labels = 0, side = 0;
  std::size_t code(std::size_t j, std::size_t i) const { return columns[j][i]; }
  int m_at(std::size_t j, std::size_t i) const { return static_cast<int>(code(j, i) / side); }
  int x_at(std::size_t j, std::size_t i) const { return static_cast<int>(code(j, i) % side); }
};

// The x and m tables (items x labels, column-major) of stored cells.
template <typename Code>
void decode_cells(const StoredCells<Code>& c, int* x, int* m) {
  std::vector<int> m_of(c.side * c.side), x_of(c.side * c.side);
  for (std::size_t code = 0; code < m_of.size(); ++code) {
    m_of[code] = static_cast<int>(code / c.side);
    x_of[code] = static_cast<int>(code % c.side);
  }
  for (std::size_t j = 0; j < c.n_labels; ++j) {
    const Code* col = c.columns[j];
    int* xj = x + j * c.n_items;
    int* mj = m + j * c.n_items;
    for (std::size_t i = 0; i < c.n_items; ++i) {
      xj[i] = x_of[col[i]];
      mj[i] = m_of[col[i]];
    }
  }
}

}  // namespace mlagreement

#endif
