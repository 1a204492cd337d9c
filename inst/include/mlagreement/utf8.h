// UTF-8 checks and encoding for the JSON parser.
// See DESIGN.md, Algorithms: JSON readers.
#ifndef MLAGREEMENT_UTF8_H
#define MLAGREEMENT_UTF8_H

#include <cstdint>
#include <cstring>
#include <string>

namespace mlagreement {

// RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF. The
// first byte of the first invalid sequence, or `end` when all is valid.
inline const char* utf8_invalid_at(const char* begin, const char* end) {
  const unsigned char* q = reinterpret_cast<const unsigned char*>(begin);
  const unsigned char* e = reinterpret_cast<const unsigned char*>(end);
  while (q < e) {
    // ASCII fast path: eight bytes at a time while no high bit is set
    std::uint64_t word = 0;
    while (e - q >= 8 && (std::memcpy(&word, q, 8), (word & 0x8080808080808080ULL) == 0)) q += 8;
    if (q >= e) break;
    const unsigned char c = *q;
    if (c < 0x80) {
      ++q;
      continue;
    }
    int n = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      n = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 2;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 3;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      return reinterpret_cast<const char*>(q);
    }
    if (e - q <= n) return reinterpret_cast<const char*>(q);
    if (q[1] < lo || q[1] > hi) return reinterpret_cast<const char*>(q);
    for (int k = 2; k <= n; ++k) {
      if (q[k] < 0x80 || q[k] > 0xBF) return reinterpret_cast<const char*>(q);
    }
    q += n + 1;
  }
  return end;
}

inline bool valid_utf8(const char* begin, const char* end) {
  return utf8_invalid_at(begin, end) == end;
}

// The UTF-8 bytes of code point cp.
inline void append_utf8(std::string& s, unsigned cp) {
  if (cp < 0x80) {
    s += static_cast<char>(cp);
  } else if (cp < 0x800) {
    s += static_cast<char>(0xC0 | (cp >> 6));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    s += static_cast<char>(0xE0 | (cp >> 12));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    s += static_cast<char>(0xF0 | (cp >> 18));
    s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace mlagreement

#endif  // MLAGREEMENT_UTF8_H
