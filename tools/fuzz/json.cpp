// Fuzz target: the JSON event parser (json_events.h). The fuzzer's bytes are
// one document. Checks: no crash or sanitizer report on any input; a
// document the parser accepts, written back from its events in canonical
// form, parses again to the same canonical text (events are balanced,
// strings decoded once); on one-line inputs that start with '{', the parser
// accepts exactly what the field scanner of an earlier release
// (json_line_oracle.h, kept here as an independent grammar) accepts (below 400 nesting levels, where their limits differ).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "mlagreement/json_events.h"
#include "json_line_oracle.h"

namespace mla = mlagreement;

namespace {

// Canonical text of the events: strings escaped with \uXXXX for control
// characters, numbers printed back as R would hold them.
struct Writer {
  std::string out;
  std::vector<bool> first{true};
  void sep() {
    if (!first.back()) out += ',';
    first.back() = false;
  }
  void str(const char* s, std::size_t n) {
    out += '"';
    for (std::size_t k = 0; k < n; ++k) {
      const unsigned char c = static_cast<unsigned char>(s[k]);
      if (c == '"' || c == '\\') {
        out += '\\';
        out += static_cast<char>(c);
      } else if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out += buf;
      } else {
        out += static_cast<char>(c);
      }
    }
    out += '"';
  }
  bool pending_key = false;
  void value_prefix() {
    if (pending_key) {
      pending_key = false;
    } else {
      sep();
    }
  }
  void null_value() { value_prefix(); out += "null"; }
  void bool_value(bool b) { value_prefix(); out += b ? "true" : "false"; }
  void integer_value(int v) { value_prefix(); out += std::to_string(v); }
  void double_value(double v) {
    value_prefix();
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    // Inf and NaN are not JSON: written as numbers that parse back to them
    const std::string s(buf);
    out += s == "inf" ? "1e999" : s == "-inf" ? "-1e999" : s;
    if (s.find_first_of(".en") == std::string::npos) out += ".0";
  }
  void string_value(const char* s, std::size_t n) { value_prefix(); str(s, n); }
  void begin_object() { value_prefix(); out += '{'; first.push_back(true); }
  void key(const char* s, std::size_t n) { sep(); str(s, n); out += ':'; pending_key = true; }
  void end_object(std::size_t) { first.pop_back(); out += '}'; }
  void begin_array() { value_prefix(); out += '['; first.push_back(true); }
  void end_array(std::size_t) { first.pop_back(); out += ']'; }
};

bool canonical(const char* begin, const char* end, const std::vector<std::string>& ids,
               std::string& out) {
  Writer w;
  mla::JsonEventParser<Writer> parser(w, ids, "input");
  const bool ok = parser.parse(begin, end, 1);
  if (ok && w.first.size() != 1) {
    std::fprintf(stderr, "fuzz mismatch: unbalanced events\n");
    std::abort();
  }
  out = w.out;
  return ok;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const char* begin = reinterpret_cast<const char*>(data);
  const char* end = begin + size;
  const std::vector<std::string> ids = size > 0 && (data[0] & 1U) ? std::vector<std::string>{"id"}
                                                                   : std::vector<std::string>{};
  std::string once;
  const bool ok = canonical(begin, end, ids, once);
  if (ok) {
    std::string twice;
    if (!canonical(once.data(), once.data() + once.size(), ids, twice) || twice != once) {
      std::fprintf(stderr, "fuzz mismatch: canonical text does not parse back to itself\n");
      std::abort();
    }
  }
  // the two count nesting levels differently: deep inputs are left out
  bool one_line = size > 0;
  std::size_t opens = 0;
  for (std::size_t k = 0; k < size; ++k) {
    one_line = one_line && data[k] != '\n';
    opens += data[k] == '[' || data[k] == '{';
  }
  one_line = one_line && opens < 400;
  std::size_t lead = 0;
  while (lead < size && (data[lead] == ' ' || data[lead] == '\t' || data[lead] == '\r')) ++lead;
  if (one_line && lead < size && data[lead] == '{') {
    json_oracle::JsonLineParser scanner;
    std::vector<json_oracle::JsonField> out;
    const bool scanned = scanner.parse(begin, end, {}, out, nullptr) == json_oracle::LineStatus::ok;
    if (scanned != ok) {
      std::fprintf(stderr, "fuzz mismatch: event parser %d, field scanner %d\n", ok, scanned);
      std::abort();
    }
  }
  return 0;
}
