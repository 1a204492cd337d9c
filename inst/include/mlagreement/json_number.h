// Numbers and escapes of the JSON event parser (json_events.h): the
// integer-or-double rule of jsonlite::parse_json(). Pure C++.
#ifndef MLAGREEMENT_JSON_NUMBER_H
#define MLAGREEMENT_JSON_NUMBER_H

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>

namespace mlagreement {

namespace detail {

// jsonlite's rule: yajl parses digits-only text as a 64-bit integer, and
// jsonlite keeps it as an R integer when within +-INT_MAX (INT_MIN is NA).
inline bool json_integer(const char* s, std::size_t n, int& out) {
  const bool neg = n > 0 && s[0] == '-';
  std::size_t k = neg ? 1 : 0;
  if (n - k > 10 || n == k) return false;
  long long v = 0;
  for (; k < n; ++k) {
    if (s[k] < '0' || s[k] > '9') return false;
    v = v * 10 + (s[k] - '0');
  }
  if (v > 2147483647LL) return false;
  out = static_cast<int>(neg ? -v : v);
  return true;
}

// strtod needs a terminated copy; numbers are short. (R runs with the "C"
// numeric locale, so the decimal point is '.'.) Overflow gives +-Inf and
// underflow 0, as jsonlite.
inline double json_double(const char* s, std::size_t n) {
  char buf[64];
  if (n < sizeof buf) {
    std::memcpy(buf, s, n);
    buf[n] = '\0';
    return std::strtod(buf, nullptr);
  }
  const std::string copy(s, n);
  return std::strtod(copy.c_str(), nullptr);
}

inline int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace detail

}  // namespace mlagreement

#endif  // MLAGREEMENT_JSON_NUMBER_H
