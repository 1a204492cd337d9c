// A strict JSON parser (RFC 8259) reporting events to a handler (SAX style):
// null_value(), bool_value(bool), integer_value(int), double_value(double),
// string_value(p, n), begin_object(), key(p, n), end_object(n),
// begin_array(), end_array(n). See DESIGN.md, Algorithms: JSON readers.
#ifndef MLAGREEMENT_JSON_EVENTS_H
#define MLAGREEMENT_JSON_EVENTS_H

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "json_number.h"
#include "utf8.h"

namespace mlagreement {

enum class JsonError { none, empty, bad_utf8, nul_byte, invalid };

struct JsonStatus {
  JsonError error = JsonError::none;
  long line = 0;     // 1-based line of the fault
  char first = 0;    // first character of the value read ('{', '[', '"', ...)
  std::string detail;
};

// What a value holds, from its first character (for messages).
inline const char* json_value_name(char first) {
  return first == '[' ? "an array" : first == '{' ? "an object" : first == '"' ? "a string"
       : first == 'n' ? "null" : (first == 't' || first == 'f') ? "a logical value" : "a number";
}

template <typename Handler>
class JsonEventParser {
 public:
  // `unit` names the input in messages ("line" for JSON lines, "file").
  JsonEventParser(Handler& h, const std::vector<std::string>& id_fields, const char* unit)
      : h_(h), ids_(id_fields), unit_(unit) {}

  // Parses [begin, end) as one value with optional white space around it
  // (first_line: the line of begin; bom: skip a byte-order mark).
  bool parse(const char* begin, const char* end, long first_line, bool bom = false) {
    status_ = JsonStatus();
    if (bom && end - begin >= 3 && std::memcmp(begin, "\xEF\xBB\xBF", 3) == 0) begin += 3;
    begin_ = begin;
    line_ = first_line;
    line_start_ = begin;
    const char* nul = static_cast<const char*>(std::memchr(begin, '\0', static_cast<std::size_t>(end - begin)));
    const char* bad = utf8_invalid_at(begin, nul != nullptr ? nul : end);
    if (nul != nullptr || bad != (nul != nullptr ? nul : end)) {
      const bool is_nul = bad == (nul != nullptr ? nul : end);
      status_.error = is_nul ? JsonError::nul_byte : JsonError::bad_utf8;
      status_.line = first_line + static_cast<long>(std::count(begin, is_nul ? nul : bad, '\n'));
      return false;
    }
    p_ = begin;
    end_ = end;
    skip_ws();
    if (p_ == end_) {
      status_.error = JsonError::empty;
      return false;
    }
    status_.first = *p_;
    if (!value(0, false)) return false;
    skip_ws();
    if (p_ != end_) return error("trailing garbage after the value");
    return true;
  }

  const JsonStatus& status() const { return status_; }

 private:
  Handler& h_;
  const std::vector<std::string>& ids_;
  const char* unit_;
  const char* begin_ = nullptr;
  const char* p_ = nullptr;
  const char* end_ = nullptr;
  const char* line_start_ = nullptr;
  long line_ = 1;
  JsonStatus status_;
  std::string buf_;  // decoded strings with escapes
  std::string key_;
  static constexpr int kMaxDepth = 512;

  bool error(const char* what) {
    status_.error = JsonError::invalid;
    status_.line = line_;
    status_.detail = std::string(what) + " at column " + std::to_string(p_ - line_start_ + 1);
    return false;
  }
  // Named at the line of the last character read (not the blank lines after).
  bool premature_end() {
    status_.error = JsonError::invalid;
    status_.line = line_;
    for (const char* q = p_; q > begin_ && is_space(q[-1]); --q) status_.line -= q[-1] == '\n';
    status_.detail = std::string("premature end of ") + unit_ + " (truncated?)";
    return false;
  }

  static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

  // New lines occur only here: a raw one inside a string is an error.
  void skip_ws() {
    while (p_ < end_) {
      const char c = *p_;
      if (c == '\n') {
        ++line_;
        line_start_ = p_ + 1;
      } else if (c != ' ' && c != '\t' && c != '\r') {
        return;
      }
      ++p_;
    }
  }

  bool is_id_key() const {
    for (const std::string& f : ids_) {
      if (f == key_) return true;
    }
    return false;
  }

  bool value(int depth, bool id) {
    if (p_ >= end_) return premature_end();
    switch (*p_) {
      case '{':
        return object(depth);
      case '[':
        return array(depth);
      case '"':
        return string(false);
      case 't':
        if (!literal("true")) return false;
        h_.bool_value(true);
        return true;
      case 'f':
        if (!literal("false")) return false;
        h_.bool_value(false);
        return true;
      case 'n':
        if (!literal("null")) return false;
        h_.null_value();
        return true;
      default:
        return number(id);
    }
  }

  bool object(int depth) {
    if (depth >= kMaxDepth) return error("nesting deeper than 512 levels");
    ++p_;
    h_.begin_object();
    std::size_t n = 0;
    skip_ws();
    if (p_ < end_ && *p_ == '}') {
      ++p_;
      h_.end_object(0);
      return true;
    }
    for (;;) {
      skip_ws();
      if (p_ >= end_) return premature_end();
      if (*p_ != '"') return error("expected a key (a string)");
      if (!string(true)) return false;
      skip_ws();
      if (p_ >= end_) return premature_end();
      if (*p_ != ':') return error("expected ':' after a key");
      ++p_;
      skip_ws();
      if (!value(depth + 1, !ids_.empty() && is_id_key())) return false;
      ++n;
      skip_ws();
      if (p_ >= end_) return premature_end();
      if (*p_ == '}') {
        ++p_;
        h_.end_object(n);
        return true;
      }
      if (*p_ != ',') return error("expected ',' or '}'");
      ++p_;
    }
  }

  bool array(int depth) {
    if (depth >= kMaxDepth) return error("nesting deeper than 512 levels");
    ++p_;
    h_.begin_array();
    std::size_t n = 0;
    skip_ws();
    if (p_ < end_ && *p_ == ']') {
      ++p_;
      h_.end_array(0);
      return true;
    }
    for (;;) {
      skip_ws();
      if (!value(depth + 1, false)) return false;
      ++n;
      skip_ws();
      if (p_ >= end_) return premature_end();
      if (*p_ == ']') {
        ++p_;
        h_.end_array(n);
        return true;
      }
      if (*p_ != ',') return error("expected ',' or ']'");
      ++p_;
    }
  }

  bool literal(const char* word) {
    const std::size_t n = std::strlen(word);
    const std::size_t left = static_cast<std::size_t>(end_ - p_);
    if (left < n) return std::strncmp(p_, word, left) == 0 ? premature_end() : error("invalid literal");
    if (std::strncmp(p_, word, n) != 0) return error("invalid literal");
    p_ += n;
    return true;
  }

  static bool is_digit(char c) { return c >= '0' && c <= '9'; }

  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  bool number(bool id) {
    const char* start = p_;
    if (*p_ == '-') ++p_;
    if (p_ >= end_) return premature_end();
    if (*p_ == '0') {
      ++p_;
    } else if (is_digit(*p_)) {
      while (p_ < end_ && is_digit(*p_)) ++p_;
    } else {
      return error(start == p_ ? "unexpected character" : "invalid number");
    }
    bool integral = true;
    if (p_ < end_ && *p_ == '.') {
      integral = false;
      ++p_;
      if (p_ >= end_) return premature_end();
      if (!is_digit(*p_)) return error("invalid number");
      while (p_ < end_ && is_digit(*p_)) ++p_;
    }
    if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
      integral = false;
      ++p_;
      if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ >= end_) return premature_end();
      if (!is_digit(*p_)) return error("invalid number");
      while (p_ < end_ && is_digit(*p_)) ++p_;
    }
    const std::size_t n = static_cast<std::size_t>(p_ - start);
    report_number(h_, start, n, id, integral, detail::wants_number_text<Handler>());
    return true;
  }

  template <typename H>
  static void report_number(H& h, const char* s, std::size_t n, bool, bool, std::true_type) {
    h.number_text(s, n);
  }
  template <typename H>
  static void report_number(H& h, const char* s, std::size_t n, bool id, bool integral,
                            std::false_type) {
    int i = 0;
    if (id) {
      h.string_value(s, n);
    } else if (integral && detail::json_integer(s, n, i)) {
      h.integer_value(i);
    } else {
      h.double_value(detail::json_double(s, n));
    }
  }

  bool hex4(unsigned& cp) {
    if (end_ - p_ < 4) return premature_end();
    cp = 0;
    for (int k = 0; k < 4; ++k) {
      const int v = detail::hex_value(p_[k]);
      if (v < 0) return error("invalid \\u escape");
      cp = cp * 16 + static_cast<unsigned>(v);
    }
    p_ += 4;
    return true;
  }

  // p_ just after "\u": a surrogate pair is one code point.
  bool unicode_escape(std::string& out) {
    const char* at = p_ - 2;
    unsigned cp = 0;
    if (!hex4(cp)) return false;
    if (cp >= 0xDC00 && cp <= 0xDFFF) {
      p_ = at;
      return error("lone low surrogate in a \\u escape");
    }
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      unsigned low = 0;
      if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') {
        p_ = at;
        return error("lone high surrogate in a \\u escape");
      }
      p_ += 2;
      if (!hex4(low)) return false;
      if (low < 0xDC00 || low > 0xDFFF) {
        p_ = at;
        return error("lone high surrogate in a \\u escape");
      }
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    if (cp == 0) {
      p_ = at;
      return error("\\u0000 (a NUL character) in a string");
    }
    append_utf8(out, cp);
    return true;
  }

  // A string at p_: a key (kept in key_) or a value; without escapes it is
  // reported as a view into the input.
  bool string(bool is_key) {
    ++p_;
    const char* run = p_;
    while (p_ < end_ && *p_ != '"' && *p_ != '\\' && static_cast<unsigned char>(*p_) >= 0x20) ++p_;
    if (p_ < end_ && *p_ == '"') {
      const std::size_t n = static_cast<std::size_t>(p_ - run);
      ++p_;
      if (is_key) {
        key_.assign(run, n);
        h_.key(run, n);
      } else {
        h_.string_value(run, n);
      }
      return true;
    }
    std::string& out = is_key ? key_ : buf_;
    out.assign(run, static_cast<std::size_t>(p_ - run));
    if (!decode_rest(out)) return false;
    if (is_key) {
      h_.key(out.data(), out.size());
    } else {
      h_.string_value(out.data(), out.size());
    }
    return true;
  }

  // The rest of a string from its first escape (or fault) on, decoded.
  bool decode_rest(std::string& out) {
    for (;;) {
      const char* run = p_;
      while (p_ < end_ && *p_ != '"' && *p_ != '\\' && static_cast<unsigned char>(*p_) >= 0x20) ++p_;
      out.append(run, static_cast<std::size_t>(p_ - run));
      if (p_ >= end_) return premature_end();
      const char c = *p_;
      if (c == '"') {
        ++p_;
        return true;
      }
      if (c != '\\') return error("control character in a string");
      ++p_;
      if (p_ >= end_) return premature_end();
      const char e = *p_++;
      char decoded = 0;
      switch (e) {
        case '"': decoded = '"'; break;
        case '\\': decoded = '\\'; break;
        case '/': decoded = '/'; break;
        case 'b': decoded = '\b'; break;
        case 'f': decoded = '\f'; break;
        case 'n': decoded = '\n'; break;
        case 'r': decoded = '\r'; break;
        case 't': decoded = '\t'; break;
        case 'u':
          if (!unicode_escape(out)) return false;
          continue;
        default:
          --p_;
          return error("invalid escape in a string");
      }
      out += decoded;
    }
  }
};

}  // namespace mlagreement

#endif  // MLAGREEMENT_JSON_EVENTS_H
