// Exact unsigned 128-bit integers in portable C++ (no compiler extension:
// no -pedantic warning, the same results everywhere), for sums of products
// of counts that may exceed 2^64.
// See DESIGN.md, Algorithms: Expected set disagreement.
#ifndef MLAGREEMENT_UINT128_H
#define MLAGREEMENT_UINT128_H

#include <cstdint>
#include <string>

namespace mlagreement {

struct U128 {
  std::uint64_t lo = 0, hi = 0;
};

// a * b, exact.
inline U128 mul_64x64(std::uint64_t a, std::uint64_t b) noexcept {
  const std::uint64_t a0 = a & 0xffffffffULL, a1 = a >> 32;
  const std::uint64_t b0 = b & 0xffffffffULL, b1 = b >> 32;
  const std::uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  const std::uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffULL) + (p10 & 0xffffffffULL);
  U128 r;
  r.lo = (mid << 32) | (p00 & 0xffffffffULL);
  r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
  return r;
}

// x * m modulo 2^128 (exact when the product is below 2^128).
inline U128 mul_128x64(U128 x, std::uint64_t m) noexcept {
  U128 r = mul_64x64(x.lo, m);
  r.hi += x.hi * m;
  return r;
}

inline void add_to(U128& acc, U128 x) noexcept {
  acc.lo += x.lo;
  acc.hi += x.hi + (acc.lo < x.lo ? 1U : 0U);
}

inline void add_to(U128& acc, std::uint64_t x) noexcept {
  acc.lo += x;
  acc.hi += (acc.lo < x ? 1U : 0U);
}

inline bool less(U128 a, U128 b) noexcept {
  return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
}

// a - b modulo 2^128 (exact when a >= b).
inline U128 sub(U128 a, U128 b) noexcept {
  U128 r;
  r.lo = a.lo - b.lo;
  r.hi = a.hi - b.hi - (a.lo < b.lo ? 1U : 0U);
  return r;
}

// Decimal digits of x (for tests and messages): long division by 10 on
// 32-bit limbs.
inline std::string to_decimal(U128 x) {
  std::uint32_t limb[4] = {static_cast<std::uint32_t>(x.hi >> 32), static_cast<std::uint32_t>(x.hi),
                           static_cast<std::uint32_t>(x.lo >> 32), static_cast<std::uint32_t>(x.lo)};
  std::string digits;
  for (;;) {
    std::uint64_t rem = 0;
    bool zero = true;
    for (int i = 0; i < 4; ++i) {
      const std::uint64_t cur = (rem << 32) | limb[i];
      limb[i] = static_cast<std::uint32_t>(cur / 10U);
      rem = cur % 10U;
      zero = zero && limb[i] == 0U;
    }
    digits.insert(digits.begin(), static_cast<char>('0' + rem));
    if (zero) return digits;
  }
}

// acc += a * b for the two accumulator types: 64 bits when the caller has
// shown that every partial sum stays below 2^64, else 128 bits.
inline void add_product(std::uint64_t& acc, std::uint64_t a, std::uint64_t b) noexcept { acc += a * b; }
inline void add_product(U128& acc, std::uint64_t a, std::uint64_t b) noexcept {
  add_to(acc, mul_64x64(a, b));
}

}  // namespace mlagreement

#endif
