// The tree side of the json_fields fuzz target (tools/fuzz/json_fields.cpp):
// a plain tree built from the JSON event parser's events, documents
// generated from the fuzzer's bytes and written as JSON (escapes, surrogate
// pairs, numbers in many spellings, random white space), and the checks of
// a canonical number (json_number.h) against the number as written: the
// same decimal value exactly, the same strtod() value, the canonical form.
#ifndef MLA_FUZZ_JSON_TREE_H
#define MLA_FUZZ_JSON_TREE_H

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "fuzz_common.h"

namespace fuzz {
namespace json_tree {

enum Kind { kNull = 0, kFalse, kTrue, kNumber, kString, kArray, kObject };

struct Node {
  int kind = kNull;
  std::string text;  // string (decoded) or number (as written)
  std::vector<std::string> keys;
  std::vector<Node> kids;
};

[[noreturn]] inline void mismatch(const std::string& what) {
  std::fprintf(stderr, "fuzz mismatch: %s\n", what.c_str());
  __builtin_trap();
}

// A tree from the parser's events.
struct TreeBuilder {
  Node root;
  std::vector<Node*> stack;
  std::string key_text;
  bool have_root = false;
  Node& add() {
    if (stack.empty()) {
      have_root = true;
      root = Node();
      return root;
    }
    Node* top = stack.back();
    if (top->kind == kObject) top->keys.push_back(key_text);
    top->kids.emplace_back();
    return top->kids.back();
  }
  void scalar(int kind, const char* s, std::size_t n) {
    Node& v = add();
    v.kind = kind;
    if (s != nullptr) v.text.assign(s, n);
  }
  void null_value() { scalar(kNull, nullptr, 0); }
  void bool_value(bool b) { scalar(b ? kTrue : kFalse, nullptr, 0); }
  void integer_value(int) { mismatch("integer_value() with number_text()"); }
  void double_value(double) { mismatch("double_value() with number_text()"); }
  void number_text(const char* s, std::size_t n) { scalar(kNumber, s, n); }
  void string_value(const char* s, std::size_t n) { scalar(kString, s, n); }
  void key(const char* s, std::size_t n) { key_text.assign(s, n); }
  void open(int kind) {
    Node& v = add();
    v.kind = kind;
    stack.push_back(&v);
  }
  void begin_object() { open(kObject); }
  void begin_array() { open(kArray); }
  void close(std::size_t n) {
    if (stack.empty() || stack.back()->kids.size() != n) mismatch("container size in events");
    stack.pop_back();
  }
  void end_object(std::size_t n) { close(n); }
  void end_array(std::size_t n) { close(n); }
};

inline bool same_tree(const Node& a, const Node& b) {
  if (a.kind != b.kind || a.text != b.text || a.keys != b.keys || a.kids.size() != b.kids.size()) return false;
  for (std::size_t k = 0; k < a.kids.size(); ++k) {
    if (!same_tree(a.kids[k], b.kids[k])) return false;
  }
  return true;
}

// ---- generated documents -------------------------------------------------

const char* const kKeys[] = {"a", "b", "id", "*", "[]", "\xC3\xA9", "k\"q", ""};
const int kNumKeys = 8;
const char* const kNumbers[] = {
    "0", "-0", "1", "-1", "10", "2147483647", "2147483648", "-2147483648", "1.0", "1.50",
    "0.001", "-0.0", "1e0", "1E+2", "12.5e-1", "0e10", "1e400", "1e401", "1e-400", "1e-401",
    "123456789012345678901234567890", "1e999999999999", "1e-999999999999", "0.0000e-5",
    "9007199254740993", "4.9e-324", "1.7976931348623157e308", "100e-2", "-12.340e3"};
const int kNumNumbers = 29;

inline std::string number_from(fuzz::Bytes& in) {
  const int pick = in.range(0, kNumNumbers + 1);
  if (pick < kNumNumbers) return kNumbers[pick];
  // digits from the bytes: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
  std::string s;
  if (in.flag()) s += '-';
  const int lead = in.range(0, 12);
  if (lead == 0) {
    s += '0';
  } else {
    s += static_cast<char>('1' + in.byte() % 9);
    for (int k = 1; k < lead; ++k) s += static_cast<char>('0' + in.byte() % 10);
  }
  if (in.flag()) {
    s += '.';
    const int frac = in.range(1, 8);
    for (int k = 0; k < frac; ++k) s += static_cast<char>('0' + in.byte() % 10);
  }
  if (in.flag()) {
    s += in.flag() ? 'e' : 'E';
    const int sign = in.range(0, 2);
    if (sign > 0) s += sign == 1 ? '+' : '-';
    const int ex = in.range(1, pick == kNumNumbers ? 3 : 11);
    for (int k = 0; k < ex; ++k) s += static_cast<char>('0' + in.byte() % 10);
  }
  return s;
}

inline std::string string_from(fuzz::Bytes& in) {
  const int pick = in.range(0, 11);
  if (pick < kNumKeys) return kKeys[pick];
  std::string s;
  const int n = in.range(0, 6);
  const char* const parts[] = {"x", "/", "\\", "\"", "\n", "\t", "\x01", "\xE2\x82\xAC",
                               "\xF0\x9F\x98\x80", " ", "\x7F", "y"};
  for (int k = 0; k < n; ++k) s += parts[in.range(0, 11)];
  return s;
}

inline Node generate(fuzz::Bytes& in, int depth) {
  Node v;
  const int top = depth >= 5 ? 4 : 6;
  v.kind = in.range(0, top);
  if (v.kind == kNumber) v.text = number_from(in);
  if (v.kind == kString) v.text = string_from(in);
  if (v.kind == kArray || v.kind == kObject) {
    const int n = in.range(0, 4);
    for (int k = 0; k < n; ++k) {
      if (v.kind == kObject) v.keys.push_back(string_from(in));
      v.kids.push_back(generate(in, depth + 1));
    }
  }
  return v;
}

inline void ws(fuzz::Bytes& in, std::string& out) {
  const int w = in.byte() % 8;
  if (w == 5) out += ' ';
  if (w == 6) out += "\t\r ";
  if (w == 7) out += "\n ";
}

inline void write_string(fuzz::Bytes& in, const std::string& s, std::string& out) {
  out += '"';
  for (std::size_t k = 0; k < s.size(); ++k) {
    const unsigned char c = static_cast<unsigned char>(s[k]);
    const int how = in.byte() % 4;
    if (c == '"' || c == '\\' || c < 0x20) {
      char buf[8];
      if (how == 0 || c == '\x01') {
        std::snprintf(buf, sizeof buf, "\\u%04X", c);
        out += buf;
      } else {
        out += '\\';
        out += c == '\n' ? 'n' : c == '\t' ? 't' : static_cast<char>(c);
      }
    } else if (c == '/' && how == 1) {
      out += "\\/";
    } else if (c == 0xC3 && how == 2 && k + 1 < s.size()) {  // e-acute as \u00e9
      out += "\\u00e9";
      ++k;
    } else if (c == 0xF0 && how == 2 && k + 3 < s.size()) {  // the emoji as a surrogate pair
      out += "\\ud83d\\uDE00";
      k += 3;
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '"';
}

inline void write_json(fuzz::Bytes& in, const Node& v, std::string& out, bool one_line) {
  auto space = [&]() {
    if (one_line) {
      if (in.byte() % 4 == 0) out += ' ';
    } else {
      ws(in, out);
    }
  };
  switch (v.kind) {
    case kNull: out += "null"; break;
    case kFalse: out += "false"; break;
    case kTrue: out += "true"; break;
    case kNumber: out += v.text; break;
    case kString: write_string(in, v.text, out); break;
    default: {
      out += v.kind == kArray ? '[' : '{';
      space();
      for (std::size_t k = 0; k < v.kids.size(); ++k) {
        if (k > 0) {
          out += ',';
          space();
        }
        if (v.kind == kObject) {
          write_string(in, v.keys[k], out);
          space();
          out += ':';
          space();
        }
        write_json(in, v.kids[k], out, one_line);
        space();
      }
      out += v.kind == kArray ? ']' : '}';
    }
  }
}

// ---- numbers ---------------------------------------------------------------

// Sign, significant digits (no leading or trailing zeros) and exponent of a
// JSON number: value = digits * 10^exp. Returns false for exponents of 10^9
// and more (not compared exactly).
struct Decimal {
  bool neg = false;
  std::string digits;
  long long exp = 0;
};
inline bool decimal_of(const std::string& s, Decimal& d, std::size_t max_exp_digits) {
  std::size_t k = 0;
  d = Decimal();
  if (k < s.size() && s[k] == '-') {
    d.neg = true;
    ++k;
  }
  std::string all;
  long long point = 0;
  bool frac = false;
  for (; k < s.size() && s[k] != 'e' && s[k] != 'E'; ++k) {
    if (s[k] == '.') {
      frac = true;
    } else {
      all += s[k];
      if (frac) --point;
    }
  }
  long long e = 0;
  if (k < s.size()) {
    ++k;
    bool eneg = false;
    if (s[k] == '+' || s[k] == '-') eneg = s[k++] == '-';
    while (k + 1 < s.size() && s[k] == '0') ++k;
    // json_number.h stops reading an exponent at 10^9 (no double is that far)
    if (s.size() - k > max_exp_digits) return false;
    e = std::atoll(s.c_str() + k);
    if (eneg) e = -e;
  }
  std::size_t a = 0, b = all.size();
  while (a < b && all[a] == '0') ++a;
  while (b > a && all[b - 1] == '0') --b;
  d.digits = all.substr(a, b - a);
  d.exp = point + e + static_cast<long long>(all.size() - b);
  if (d.digits.empty()) {
    d.neg = false;
    d.exp = 0;
  }
  return true;
}

inline bool canonical_form(const std::string& c) {
  if (c == "0") return true;
  std::size_t k = c[0] == '-' ? 1 : 0;
  const std::size_t e = c.find('e');
  const std::string mant = c.substr(k, e == std::string::npos ? std::string::npos : e - k);
  const std::size_t dot = mant.find('.');
  const std::string ip = mant.substr(0, dot);
  const std::string fp = dot == std::string::npos ? "" : mant.substr(dot + 1);
  if (ip.empty() || (dot != std::string::npos && (fp.empty() || fp.back() == '0'))) return false;
  for (char ch : ip + fp) {
    if (ch < '0' || ch > '9') return false;
  }
  if (e == std::string::npos) {
    if (ip.size() > 1 && ip[0] == '0') return false;
    if (ip == "0" && fp.empty()) return false;  // "-0"
    // plain only within 400 digits of the point
    return fp.empty() ? ip.size() <= 400 : fp.size() <= 400;
  }
  // scientific: one non-zero digit before the point, and out of plain range
  if (ip.size() != 1 || ip[0] == '0') return false;
  const long long x = std::atoll(c.c_str() + e + 1);
  const long long len = static_cast<long long>(1 + fp.size());
  const long long exp10 = x - (len - 1);  // value = digits * 10^exp10
  return !((exp10 >= 0 && len + exp10 <= 400) || (exp10 < 0 && -exp10 <= 400));
}

inline void check_number(const std::string& raw, const std::string& canon) {
  const std::string what = "number " + raw.substr(0, 60) + " -> " + canon.substr(0, 60);
  Decimal a, b;
  if (decimal_of(raw, a, 9)) {
    if (!decimal_of(canon, b, 12)) mismatch(what + ": canonical exponent too long");
    if (a.neg != b.neg || a.digits != b.digits || a.exp != b.exp) mismatch(what + ": decimal value");
  }
  const double x = std::strtod(raw.c_str(), nullptr), y = std::strtod(canon.c_str(), nullptr);
  if (!(x == y)) mismatch(what + ": strtod");
  if (!canonical_form(canon)) mismatch(what + ": not canonical");
}

}  // namespace json_tree
}  // namespace fuzz

#endif
