// Numbers and escapes of the JSON event parser: jsonlite's integer-or-double
// rule and the canonical text of a number.
// See DESIGN.md, Algorithms: JSON readers.
#ifndef MLAGREEMENT_JSON_NUMBER_H
#define MLAGREEMENT_JSON_NUMBER_H

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>

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

// A JSON number (valid syntax) as text that depends on its value only, so
// that ids compare by value ("1.0", "1e0" and "1" are "1") and stay exact
// at any size: digits without leading zeros, a fraction without trailing
// zeros, and scientific notation only beyond 400 digits.
inline void canonical_number(const char* s, std::size_t n, std::string& out) {
  out.clear();
  std::size_t k = 0;
  const bool neg = n > 0 && s[0] == '-';
  if (neg) ++k;
  std::string digits;
  long long exp10 = 0;
  bool fraction = false;
  for (; k < n && s[k] != 'e' && s[k] != 'E'; ++k) {
    if (s[k] == '.') {
      fraction = true;
      continue;
    }
    if (!digits.empty() || s[k] != '0') digits += s[k];
    if (fraction) --exp10;
  }
  if (k < n) {  // exponent
    ++k;
    bool eneg = false;
    if (k < n && (s[k] == '+' || s[k] == '-')) eneg = s[k++] == '-';
    long long e = 0;
    for (; k < n && e < 1000000000LL; ++k) e = e * 10 + (s[k] - '0');
    exp10 += eneg ? -e : e;
  }
  while (!digits.empty() && digits.back() == '0') {
    digits.pop_back();
    ++exp10;
  }
  if (digits.empty()) {
    out = "0";
    return;
  }
  if (neg) out += '-';
  const long long len = static_cast<long long>(digits.size());
  if (exp10 >= 0 && len + exp10 <= 400) {
    out += digits;
    out.append(static_cast<std::size_t>(exp10), '0');
  } else if (exp10 < 0 && -exp10 <= 400) {
    if (len > -exp10) {
      out.append(digits, 0, static_cast<std::size_t>(len + exp10));
      out += '.';
      out.append(digits, static_cast<std::size_t>(len + exp10), std::string::npos);
    } else {
      out += "0.";
      out.append(static_cast<std::size_t>(-exp10 - len), '0');
      out += digits;
    }
  } else {
    out += digits[0];
    if (len > 1) {
      out += '.';
      out.append(digits, 1, std::string::npos);
    }
    out += 'e';
    out += std::to_string(exp10 + len - 1);
  }
}

inline int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Handlers with number_text(const char*, std::size_t) receive every number
// as written instead of integer_value()/double_value().
template <typename... T>
struct make_void {
  using type = void;
};
template <typename H, typename = void>
struct wants_number_text : std::false_type {};
template <typename H>
struct wants_number_text<H, typename make_void<decltype(std::declval<H&>().number_text(
                                static_cast<const char*>(nullptr), std::size_t{0}))>::type>
    : std::true_type {};
}  // namespace detail

}  // namespace mlagreement

#endif  // MLAGREEMENT_JSON_NUMBER_H
