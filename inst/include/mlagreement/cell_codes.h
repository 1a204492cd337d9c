// Item x label cells as class codes m * side + x, from x/m tables or packed
// nibbles (dense arrays of at most 15 annotators), read through one view.
// See DESIGN.md, Algorithms: The counting pass.
#ifndef MLAGREEMENT_CELL_CODES_H
#define MLAGREEMENT_CELL_CODES_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mlagreement {

// Largest number of classes (side * side) a code table may have.
constexpr std::size_t kMaxCellClasses = 65536;
// Items per chunk of the packed codes (the dense counting pass's chunks).
constexpr std::size_t kCellChunk = 2048;
// The largest m packed codes hold, and their side (code = m * 16 + x).
constexpr int kPackedMaxM = 15;
constexpr std::size_t kPackedSide = 16;

// Bytes of one label's nibbles for n items.
inline std::size_t nibble_bytes(std::size_t n_items) { return (n_items + 1) / 2; }

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
  // Codes of items [start, start + len) of column j into out[i * stride].
  void chunk_codes(std::size_t j, std::size_t start, std::size_t len, std::uint16_t* out,
                   std::size_t stride = 1) const {
    const int* xj = x + j * n_items + start;
    const int* mj = m + j * n_items + start;
    const int s = static_cast<int>(side);
    for (std::size_t i = 0; i < len; ++i) out[i * stride] = static_cast<std::uint16_t>(mj[i] * s + xj[i]);
  }
  // x/m tables have no chunks with a common m (see PackedCells).
  bool common_m(std::size_t, std::size_t, const std::uint8_t**, int*) const { return false; }
  // Adds the items [start, start + len) of column j to the class bins.
  void add_class_counts(std::size_t j, std::size_t start, std::size_t len, std::int64_t* bins) const {
    for (std::size_t i = start; i < start + len; ++i) ++bins[code(j, i)];
  }
};

// Packed codes, one column per label read: x nibbles, and m nibbles or
// (m_cols empty) the chunks' common m, chunk_m[chunk * chunk_stride + label].
struct PackedCells {
  std::vector<const std::uint8_t*> x_cols, m_cols;
  std::vector<std::size_t> label_of;  // column of each label in chunk_m
  const std::int8_t* chunk_m = nullptr;
  std::size_t chunk_stride = 0;
  std::size_t n_items = 0, n_labels = 0, side = kPackedSide;
  static int nibble(const std::uint8_t* col, std::size_t i) {
    return (col[i >> 1] >> ((i & 1) << 2)) & 15;
  }
  int x_at(std::size_t j, std::size_t i) const { return nibble(x_cols[j], i); }
  int m_at(std::size_t j, std::size_t i) const {
    if (!m_cols.empty()) return nibble(m_cols[j], i);
    return chunk_m[(i / kCellChunk) * chunk_stride + label_of[j]];
  }
  std::size_t code(std::size_t j, std::size_t i) const {
    return static_cast<std::size_t>(m_at(j, i)) * kPackedSide + static_cast<std::size_t>(x_at(j, i));
  }
  // Codes of items [start, start + len) of column j into out[i * stride];
  // start a multiple of kCellChunk, len at most kCellChunk.
  void chunk_codes(std::size_t j, std::size_t start, std::size_t len, std::uint16_t* out,
                   std::size_t stride = 1) const {
    const std::uint8_t* xb = x_cols[j] + start / 2;
    const std::size_t pairs = len / 2;
    if (m_cols.empty()) {
      const int high = chunk_m[(start / kCellChunk) * chunk_stride + label_of[j]] << 4;
      for (std::size_t t = 0; t < pairs; ++t) {
        out[2 * t * stride] = static_cast<std::uint16_t>(high | (xb[t] & 15));
        out[(2 * t + 1) * stride] = static_cast<std::uint16_t>(high | (xb[t] >> 4));
      }
      if (len % 2 == 1) out[(len - 1) * stride] = static_cast<std::uint16_t>(high | (xb[pairs] & 15));
      return;
    }
    const std::uint8_t* mb = m_cols[j] + start / 2;
    for (std::size_t t = 0; t < pairs; ++t) {
      out[2 * t * stride] = static_cast<std::uint16_t>(((mb[t] & 15) << 4) | (xb[t] & 15));
      out[(2 * t + 1) * stride] = static_cast<std::uint16_t>((mb[t] & 0xf0) | (xb[t] >> 4));
    }
    if (len % 2 == 1) {
      out[(len - 1) * stride] = static_cast<std::uint16_t>(((mb[pairs] & 15) << 4) | (xb[pairs] & 15));
    }
  }
  // Whether the items of the chunk from `start` share one m on column j;
  // then *x_bytes = their x nibbles, *m = that m.
  bool common_m(std::size_t j, std::size_t start, const std::uint8_t** x_bytes, int* m) const {
    if (!m_cols.empty()) return false;
    *x_bytes = x_cols[j] + start / 2;
    *m = chunk_m[(start / kCellChunk) * chunk_stride + label_of[j]];
    return true;
  }
  // Adds items [start, start + len) of column j to the class bins; a chunk
  // with a common m bins its bytes of x, two items each (four byte bins).
  void add_class_counts(std::size_t j, std::size_t start, std::size_t len, std::int64_t* bins) const {
    if (!m_cols.empty()) {
      for (std::size_t i = start; i < start + len; ++i) ++bins[code(j, i)];
      return;
    }
    const std::size_t high = static_cast<std::size_t>(chunk_m[(start / kCellChunk) * chunk_stride + label_of[j]]) << 4;
    const std::uint8_t* xb = x_cols[j] + start / 2;
    const std::size_t pairs = len / 2;
    std::uint32_t bytes[4][256] = {};
    std::size_t t = 0;
    for (; t + 4 <= pairs; t += 4) {
      ++bytes[0][xb[t]];
      ++bytes[1][xb[t + 1]];
      ++bytes[2][xb[t + 2]];
      ++bytes[3][xb[t + 3]];
    }
    for (; t < pairs; ++t) ++bytes[0][xb[t]];
    for (std::size_t v = 0; v < 256; ++v) {
      const std::int64_t n = static_cast<std::int64_t>(bytes[0][v]) + bytes[1][v] + bytes[2][v] + bytes[3][v];
      if (n == 0) continue;
      bins[high | (v & 15)] += n;
      bins[high | (v >> 4)] += n;
    }
    if (len % 2 == 1) ++bins[high | (xb[pairs] & 15)];
  }
};

// The x and m tables (items x labels, column-major) of cells.
template <typename Cells>
void decode_cells(const Cells& c, int* x, int* m) {
  for (std::size_t j = 0; j < c.n_labels; ++j) {
    int* xj = x + j * c.n_items;
    int* mj = m + j * c.n_items;
    for (std::size_t i = 0; i < c.n_items; ++i) {
      xj[i] = c.x_at(j, i);
      mj[i] = c.m_at(j, i);
    }
  }
}

// Packs len values (each < 16) two to a byte, first in the low nibble.
inline void pack_nibbles(const int* v, std::size_t len, std::uint8_t* dst) {
  const std::size_t pairs = len / 2;
#ifdef _OPENMP
#pragma omp simd
#endif
  for (std::size_t t = 0; t < pairs; ++t) {
    dst[t] = static_cast<std::uint8_t>(v[2 * t] | (v[2 * t + 1] << 4));
  }
  if (len % 2 == 1) dst[pairs] = static_cast<std::uint8_t>(v[len - 1]);
}

}  // namespace mlagreement

#endif
