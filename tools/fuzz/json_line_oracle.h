// One line of JSON validated in full (UTF-8 and grammar) while a few of its
// top-level fields are taken as text: strings decoded (\uXXXX escapes with
// surrogate pairs), numbers as written, true/false as "TRUE"/"FALSE". Pure
// C++. The package's scanner of an earlier release, kept only as the fuzz
// target's independent grammar (tools/fuzz/json.cpp), with its own decoders
// of strings, \u escapes and numbers (a state machine); not shipped.
#ifndef MLAGREEMENT_JSON_LINE_ORACLE_H
#define MLAGREEMENT_JSON_LINE_ORACLE_H

#include <cctype>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mlagreement/utf8.h"

// Its own namespace: the oracle shares only the UTF-8 helpers with the package.
namespace json_oracle {

using mlagreement::append_utf8;
using mlagreement::valid_utf8;

enum class JsonKind { absent, null, scalar, array, object };

// One requested field of one line.
struct JsonField {
  JsonKind kind = JsonKind::absent;
  std::string text;
};

enum class LineStatus { ok, blank, bad_utf8, nul_byte, invalid_json, not_object };

// Validates and scans one line (without its newline). `keys` receives the
// top-level keys when not null (for messages that list a record's fields).
class JsonLineParser {
 public:
  LineStatus parse(const char* begin, const char* end, const std::vector<std::string>& fields,
                   std::vector<JsonField>& out, std::vector<std::string>* keys) {
    for (JsonField& f : out) {
      f.kind = JsonKind::absent;
      f.text.clear();
    }
    begin_ = begin;
    p_ = begin;
    end_ = end;
    detail_.clear();
    if (is_blank()) return LineStatus::blank;
    if (std::memchr(begin, '\0', static_cast<std::size_t>(end - begin)) != nullptr) {
      return LineStatus::nul_byte;
    }
    if (!valid_utf8(p_, end_)) return LineStatus::bad_utf8;
    skip_ws();
    if (p_ < end_ && *p_ != '{') {
      const char first = *p_;
      if (!skip_value(0)) return LineStatus::invalid_json;
      skip_ws();
      if (p_ != end_) return fail("trailing garbage after the value");
      detail_ = first == '[' ? "an array" : first == '"' ? "a string"
              : first == 'n' ? "null" : (first == 't' || first == 'f') ? "a logical value"
              : "a number";
      return LineStatus::not_object;
    }
    if (!parse_object(fields, out, keys)) return LineStatus::invalid_json;
    skip_ws();
    if (p_ != end_) return fail("trailing garbage after the object");
    return LineStatus::ok;
  }

  // What was wrong: the parser's message, or what a non-object line holds.
  const std::string& detail() const { return detail_; }

 private:
  const char* begin_ = nullptr;
  const char* p_ = nullptr;
  const char* end_ = nullptr;
  std::string detail_;
  std::string key_;
  static constexpr int kMaxDepth = 512;

  LineStatus fail(const char* what) {
    detail_ = std::string(what) + " at column " + std::to_string(p_ - begin_ + 1);
    return LineStatus::invalid_json;
  }
  bool error(const char* what) {
    fail(what);
    return false;
  }
  bool premature_end() {
    detail_ = "premature end of line (truncated?)";
    return false;
  }

  bool is_blank() const {
    for (const char* q = p_; q < end_; ++q) {
      const char c = *q;
      if (c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != '\v') return false;
    }
    return true;
  }

  void skip_ws() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\r' || *p_ == '\n')) ++p_;
  }

  bool parse_object(const std::vector<std::string>& fields, std::vector<JsonField>& out,
                    std::vector<std::string>* keys) {
    ++p_;  // '{'
    skip_ws();
    if (p_ < end_ && *p_ == '}') {
      ++p_;
      return true;
    }
    for (;;) {
      skip_ws();
      if (p_ >= end_) return premature_end();
      if (*p_ != '"') return error("expected a key");
      if (!parse_string(&key_)) return false;
      if (keys != nullptr) keys->push_back(key_);
      if (!expect(':', "expected ':' after a key")) return false;
      skip_ws();
      if (!take_value(fields, out)) return false;
      skip_ws();
      if (p_ >= end_) return premature_end();
      if (*p_ == '}') {
        ++p_;
        return true;
      }
      if (*p_ != ',') return error("expected ',' or '}'");
      ++p_;
    }
  }

  // The value of key_: kept for every requested field of that name seen for
  // the first time, otherwise only validated.
  bool take_value(const std::vector<std::string>& fields, std::vector<JsonField>& out) {
    std::size_t first = fields.size();
    for (std::size_t k = 0; k < fields.size(); ++k) {
      if (out[k].kind == JsonKind::absent && fields[k] == key_) {
        first = k;
        break;
      }
    }
    if (first == fields.size()) return skip_value(0);
    if (p_ >= end_) return premature_end();
    JsonField& f = out[first];
    const char c = *p_;
    bool ok = true;
    if (c == '"') {
      f.kind = JsonKind::scalar;
      ok = parse_string(&f.text);
    } else if (c == '[' || c == '{') {
      f.kind = c == '[' ? JsonKind::array : JsonKind::object;
      ok = skip_value(0);
    } else if (c == 'n') {
      f.kind = JsonKind::null;
      ok = literal("null");
    } else if (c == 't' || c == 'f') {
      f.kind = JsonKind::scalar;
      ok = literal(c == 't' ? "true" : "false");
      f.text = c == 't' ? "TRUE" : "FALSE";
    } else {
      const char* start = p_;
      f.kind = JsonKind::scalar;
      ok = number();
      f.text.assign(start, static_cast<std::size_t>(p_ - start));
    }
    for (std::size_t k = first + 1; k < fields.size(); ++k) {
      if (out[k].kind == JsonKind::absent && fields[k] == key_) out[k] = f;
    }
    return ok;
  }

  bool skip_value(int depth) {
    if (p_ >= end_) return premature_end();
    if (depth > kMaxDepth) return error("nesting too deep");
    switch (*p_) {
      case '"':
        return parse_string(nullptr);
      case 't':
        return literal("true");
      case 'f':
        return literal("false");
      case 'n':
        return literal("null");
      case '[':
      case '{':
        return skip_container(depth);
      default:
        return number();
    }
  }

  bool skip_container(int depth) {
    const bool object = *p_ == '{';
    const char close = object ? '}' : ']';
    ++p_;
    skip_ws();
    if (p_ < end_ && *p_ == close) {
      ++p_;
      return true;
    }
    for (;;) {
      skip_ws();
      if (object) {
        if (p_ >= end_) return premature_end();
        if (*p_ != '"') return error("expected a key");
        if (!parse_string(nullptr) || !expect(':', "expected ':' after a key")) return false;
        skip_ws();
      }
      if (!skip_value(depth + 1)) return false;
      skip_ws();
      if (p_ >= end_) return premature_end();
      if (*p_ == close) {
        ++p_;
        return true;
      }
      if (*p_ != ',') return error(object ? "expected ',' or '}'" : "expected ',' or ']'");
      ++p_;
    }
  }

  // The next byte after white space must be `c` (then consumed).
  bool expect(char c, const char* what) {
    skip_ws();
    if (p_ >= end_) return premature_end();
    if (*p_ != c) return error(what);
    ++p_;
    return true;
  }

  bool literal(const char* word) {
    const std::size_t n = std::strlen(word);
    if (static_cast<std::size_t>(end_ - p_) < n) {
      return std::strncmp(p_, word, static_cast<std::size_t>(end_ - p_)) == 0 ? premature_end()
                                                                          : error("invalid literal");
    }
    if (std::strncmp(p_, word, n) != 0) return error("invalid literal");
    p_ += n;
    return true;
  }

  static bool is_digit(char c) { return c >= '0' && c <= '9'; }

  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? as a state machine
  // (states: 0 start, 1 sign, 2 leading 0, 3 integer digits, 4 point,
  // 5 fraction digits, 6 e, 7 exponent sign, 8 exponent digits) run to the
  // first byte no state takes; the package's scanner reads it piece by piece.
  bool number() {
    static const bool kFinal[9] = {false, false, true, true, false, true, false, false, true};
    const char* start = p_;
    int st = 0;
    for (; p_ < end_; ++p_) {
      const char c = *p_;
      const bool digit = is_digit(c), e = c == 'e' || c == 'E';
      int next = -1;
      switch (st) {
        case 0: next = c == '-' ? 1 : c == '0' ? 2 : digit ? 3 : -1; break;
        case 1: next = c == '0' ? 2 : digit ? 3 : -1; break;
        case 2: next = c == '.' ? 4 : e ? 6 : -1; break;
        case 3: next = digit ? 3 : c == '.' ? 4 : e ? 6 : -1; break;
        case 4: next = digit ? 5 : -1; break;
        case 5: next = digit ? 5 : e ? 6 : -1; break;
        case 6: next = c == '+' || c == '-' ? 7 : digit ? 8 : -1; break;
        default: next = digit ? 8 : -1; break;
      }
      if (next < 0) break;
      st = next;
    }
    if (kFinal[st]) return true;
    if (p_ == start) return error("unexpected character");
    return p_ >= end_ ? premature_end() : error("invalid number");
  }

  // Four hex digits at q, if there are four, as a number (std::strtoul).
  bool hex_piece(const char* q, unsigned& cp) const {
    if (end_ - q < 4) return false;
    for (int k = 0; k < 4; ++k) {
      if (!std::isxdigit(static_cast<unsigned char>(q[k]))) return false;
    }
    cp = static_cast<unsigned>(std::strtoul(std::string(q, 4).c_str(), nullptr, 16));
    return true;
  }

  // p_ just after the "\u" of an escape: a code point, or a high surrogate
  // followed by "\u" and a low one. Lone surrogates and U+0000 (which R
  // strings cannot hold) are refused. Whole pieces and the ranges of RFC 8259
  // here; the package's scanner reads digit by digit, so the two stay apart.
  bool unicode_escape(std::string* out) {
    const char* at = p_ - 2;
    unsigned cp = 0, low = 0;
    const bool read = hex_piece(p_, cp);
    const bool high = read && cp >= 0xD800 && cp <= 0xDBFF;
    const bool paired = high && end_ - p_ >= 10 && p_[4] == '\\' && p_[5] == 'u' &&
                        hex_piece(p_ + 6, low) && low >= 0xDC00 && low <= 0xDFFF;
    if (!read || cp == 0 || (cp >= 0xDC00 && cp <= 0xDFFF) || (high && !paired)) {
      p_ = at;
      return error("invalid \\u escape");
    }
    p_ += paired ? 10 : 4;
    if (paired) cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    if (out != nullptr) append_utf8(*out, cp);
    return true;
  }

  // A string at p_ ('"'), decoded into *out when not null: byte by byte
  // with a table of escapes, where the package's scanner copies runs and
  // switches, so the two decoders stay independent.
  bool parse_string(std::string* out) {
    static const char kEscaped[] = "\"\\/bfnrt";
    static const char kDecoded[] = "\"\\/\b\f\n\r\t";
    std::string text;
    for (++p_; p_ < end_;) {
      const unsigned char c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        ++p_;
        if (out != nullptr) out->swap(text);
        return true;
      }
      if (c < 0x20) return error("control character in a string");
      if (c != '\\') {
        text += *p_++;
        continue;
      }
      if (++p_ >= end_) break;
      if (*p_ == 'u') {
        ++p_;
        if (!unicode_escape(&text)) return false;
        continue;
      }
      const char* hit = *p_ == '\0' ? nullptr : std::strchr(kEscaped, *p_);
      if (hit == nullptr) return error("invalid escape in a string");
      text += kDecoded[hit - kEscaped];
      ++p_;
    }
    return premature_end();
  }
};

}  // namespace json_oracle

#endif  // MLAGREEMENT_JSON_LINE_ORACLE_H
