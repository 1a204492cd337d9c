// Fuzz target: the field-path extractor (json_fields.h) driven by the JSON
// event parser (json_events.h). The bytes give 1 to 4 paths (segments: a few
// keys, "*", "[]") and either 1 to 3 documents generated from the bytes
// (keys from a small alphabet, escapes, numbers in many spellings, random
// white space) or the rest of the bytes as JSON lines. Each record is parsed
// twice: into a plain tree (a handler kept here; generated documents must
// give back exactly the tree they were written from) and through
// JsonFieldCollector. The emissions (record, path, kind, text, serials of
// the "*" and "[]" segments, key of the last "*") must equal a walk of the
// tree in document order: every value against every path, serials counted
// per depth over every member and element in document order (across
// records unless reset_serials()), the values at one place ordered as the
// trie does (a literal key before "*"), a repeated path emitting under its
// last index. Numbers: the canonical text has the same decimal value as the
// written one (exact), strtod() of both agree, and its form is the canonical
// one (no leading or trailing zeros, no "-0", scientific only past 400
// digits).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_common.h"
#include "mlagreement/json_events.h"
#include "mlagreement/json_fields.h"

namespace mla = mlagreement;

namespace {

enum Kind { kNull = 0, kFalse, kTrue, kNumber, kString, kArray, kObject };

struct Node {
  int kind = kNull;
  std::string text;  // string (decoded) or number (as written)
  std::vector<std::string> keys;
  std::vector<Node> kids;
};

[[noreturn]] void mismatch(const std::string& what) {
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

bool same_tree(const Node& a, const Node& b) {
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

std::string number_from(fuzz::Bytes& in) {
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

std::string string_from(fuzz::Bytes& in) {
  const int pick = in.range(0, 11);
  if (pick < kNumKeys) return kKeys[pick];
  std::string s;
  const int n = in.range(0, 6);
  const char* const parts[] = {"x", "/", "\\", "\"", "\n", "\t", "\x01", "\xE2\x82\xAC",
                               "\xF0\x9F\x98\x80", " ", "\x7F", "y"};
  for (int k = 0; k < n; ++k) s += parts[in.range(0, 11)];
  return s;
}

Node generate(fuzz::Bytes& in, int depth) {
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

void ws(fuzz::Bytes& in, std::string& out) {
  const int w = in.byte() % 8;
  if (w == 5) out += ' ';
  if (w == 6) out += "\t\r ";
  if (w == 7) out += "\n ";
}

void write_string(fuzz::Bytes& in, const std::string& s, std::string& out) {
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

void write_json(fuzz::Bytes& in, const Node& v, std::string& out, bool one_line) {
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
bool decimal_of(const std::string& s, Decimal& d, std::size_t max_exp_digits) {
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

bool canonical_form(const std::string& c) {
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

void check_number(const std::string& raw, const std::string& canon) {
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

// ---- the reference walk ------------------------------------------------------

struct Emission {
  int record, path, kind;
  bool has_text, has_key;
  std::string text, key;
  std::vector<int> caps;
};

struct Step {
  bool element;
  std::string key;
  int serial;
};

struct Reference {
  const std::vector<std::vector<std::string>>& paths;
  std::vector<int> live;  // paths that emit (the last of equal ones)
  std::size_t max_caps = 0;
  std::vector<int> serials;  // by depth, across records
  std::vector<Emission> out;
  int record = 0;

  explicit Reference(const std::vector<std::vector<std::string>>& p) : paths(p) {
    for (std::size_t i = 0; i < p.size(); ++i) {
      bool later = false;
      for (std::size_t j = i + 1; j < p.size(); ++j) later = later || p[j] == p[i];
      if (!later) live.push_back(static_cast<int>(i));
      std::size_t c = 0;
      for (const std::string& s : p[i]) c += s == "*" || s == "[]";
      if (c > max_caps) max_caps = c;
    }
  }

  bool matches(const std::vector<std::string>& p, const std::vector<Step>& chain) const {
    if (p.size() != chain.size()) return false;
    for (std::size_t d = 0; d < p.size(); ++d) {
      if (p[d] == "[]") {
        if (!chain[d].element) return false;
      } else if (chain[d].element || (p[d] != "*" && p[d] != chain[d].key)) {
        return false;
      }
    }
    return true;
  }
  // trie order of two paths to one value: a literal key before "*"
  bool before(const std::vector<std::string>& p, const std::vector<std::string>& q) const {
    for (std::size_t d = 0; d < p.size(); ++d) {
      if (p[d] != q[d]) return p[d] != "*";
    }
    return false;
  }

  void visit(const Node& v, std::vector<Step>& chain) {
    std::vector<int> hit;
    for (int p : live) {
      if (!matches(paths[static_cast<std::size_t>(p)], chain)) continue;
      std::size_t at = hit.size();
      while (at > 0 && before(paths[static_cast<std::size_t>(p)], paths[static_cast<std::size_t>(hit[at - 1])])) --at;
      hit.insert(hit.begin() + static_cast<long>(at), p);
    }
    for (int p : hit) {
      Emission e{record, p, v.kind, false, false, "", "", {}};
      if (v.kind == kString) {
        e.has_text = true;
        e.text = v.text;
      } else if (v.kind == kFalse || v.kind == kTrue) {
        e.has_text = true;
        e.text = v.kind == kTrue ? "TRUE" : "FALSE";
      } else if (v.kind == kNumber) {
        e.has_text = true;
        e.text = v.text;  // checked by value in compare()
      }
      const std::vector<std::string>& segs = paths[static_cast<std::size_t>(p)];
      for (std::size_t d = 0; d < segs.size(); ++d) {
        if (segs[d] == "*" || segs[d] == "[]") e.caps.push_back(chain[d].serial);
        if (segs[d] == "*") {
          e.has_key = true;
          e.key = chain[d].key;
        }
      }
      e.caps.resize(max_caps, 0);
      out.push_back(e);
    }
    if (v.kind != kArray && v.kind != kObject) return;
    const std::size_t depth = chain.size();
    if (serials.size() <= depth) serials.resize(depth + 1, 0);
    for (std::size_t k = 0; k < v.kids.size(); ++k) {
      const int s = ++serials[depth];
      chain.push_back(Step{v.kind == kArray, v.kind == kObject ? v.keys[k] : "", s});
      visit(v.kids[k], chain);
      chain.pop_back();
    }
  }
};

void compare(const Reference& ref, const mla::JsonEmissions& em, std::size_t max_caps) {
  if (max_caps != ref.max_caps) mismatch("max_captures");
  if (em.size() != ref.out.size()) {
    mismatch("emissions: got " + std::to_string(em.size()) + ", want " + std::to_string(ref.out.size()));
  }
  const std::size_t n = em.size();
  if (em.path.size() != n || em.kind.size() != n || em.text_at.size() != n || em.text_len.size() != n ||
      em.key_at.size() != n || em.key_len.size() != n || em.captures.size() != n * max_caps) {
    mismatch("column lengths");
  }
  for (std::size_t k = 0; k < n; ++k) {
    const Emission& e = ref.out[k];
    const std::string at = " of emission " + std::to_string(k);
    if (em.record[k] != e.record) mismatch("record" + at);
    if (em.path[k] != e.path) mismatch("path" + at + ": got " + std::to_string(em.path[k]) + ", want " + std::to_string(e.path));
    if (em.kind[k] != e.kind) mismatch("kind" + at);
    const bool has_text = em.text_len[k] != std::string::npos;
    if (has_text != e.has_text) mismatch("text presence" + at);
    if (has_text) {
      if (em.text_at[k] + em.text_len[k] > em.buffer.size()) mismatch("text outside the buffer");
      const std::string got = em.buffer.substr(em.text_at[k], em.text_len[k]);
      if (e.kind == kNumber) {
        check_number(e.text, got);
      } else if (got != e.text) {
        mismatch("text" + at + ": got '" + got + "', want '" + e.text + "'");
      }
    }
    const bool has_key = em.key_len[k] != std::string::npos;
    if (has_key != e.has_key) mismatch("key presence" + at);
    if (has_key) {
      if (em.key_at[k] + em.key_len[k] > em.buffer.size()) mismatch("key outside the buffer");
      if (em.buffer.substr(em.key_at[k], em.key_len[k]) != e.key) mismatch("key" + at);
    }
    for (std::size_t c = 0; c < max_caps; ++c) {
      const int got = em.captures[k * max_caps + c];
      if (got != e.caps[c]) {
        mismatch("capture " + std::to_string(c) + at + ": got " + std::to_string(got) + ", want " +
                 std::to_string(e.caps[c]));
      }
    }
  }
}

std::vector<std::vector<std::string>> decode_paths(fuzz::Bytes& in) {
  const char* const segs[] = {"a", "b", "id", "*", "[]", "*", "[]", "\xC3\xA9", "k\"q", ""};
  std::vector<std::vector<std::string>> paths(static_cast<std::size_t>(in.range(1, 4)));
  for (auto& p : paths) {
    const int n = in.range(0, 4);
    for (int k = 0; k < n; ++k) p.emplace_back(segs[in.range(0, 9)]);
  }
  return paths;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Bytes in(data, size);
  const std::vector<std::vector<std::string>> paths = decode_paths(in);
  const bool generated = in.flag();
  const mla::JsonPathSet set(paths);
  mla::JsonEmissions em;
  mla::JsonFieldCollector collector(set, em);
  const std::vector<std::string> no_ids;
  mla::JsonEventParser<mla::JsonFieldCollector> parser(collector, no_ids, "line");
  Reference ref(paths);

  // records: generated documents, or the rest of the bytes split at new lines
  std::vector<std::string> docs;
  std::vector<Node> want;
  std::vector<bool> reset;
  if (generated) {
    const int n = in.range(1, 3);
    for (int r = 0; r < n; ++r) {
      want.push_back(generate(in, 0));
      std::string text;
      write_json(in, want.back(), text, n > 1);
      docs.push_back(text);
      reset.push_back(in.byte() % 8 == 0);
    }
  } else {
    const char* rest = reinterpret_cast<const char*>(data) + in.at;
    const std::size_t left = size - in.at;
    std::size_t a = 0;
    for (std::size_t b = 0; b <= left; ++b) {
      if (b == left || rest[b] == '\n') {
        const std::string line(rest + a, b - a);
        if (line.find_first_not_of(" \t\r") != std::string::npos) {
          docs.push_back(line);
          reset.push_back(false);
        }
        a = b + 1;
      }
    }
  }
  if (std::getenv("MLA_FUZZ_VERBOSE") != nullptr) {  // what a finding was
    for (const auto& p : paths) {
      std::fprintf(stderr, "path:");
      for (const std::string& s : p) std::fprintf(stderr, " '%s'", s.c_str());
      std::fprintf(stderr, "\n");
    }
    for (std::size_t r = 0; r < docs.size(); ++r) {
      std::fprintf(stderr, "record %zu%s: %s\n", r, reset[r] ? " (reset)" : "", docs[r].c_str());
    }
  }
  for (std::size_t r = 0; r < docs.size(); ++r) {
    const char* b = docs[r].data();
    const char* e = b + docs[r].size();
    TreeBuilder tree;
    mla::JsonEventParser<TreeBuilder> tree_parser(tree, no_ids, "line");
    const bool ok = tree_parser.parse(b, e, 1);
    if (reset[r]) {
      collector.reset_serials();
      std::fill(ref.serials.begin(), ref.serials.end(), 0);
    }
    collector.set_record(static_cast<int>(r));
    const bool ok2 = parser.parse(b, e, 1);
    if (ok != ok2) mismatch("the two handlers disagree on validity");
    if (generated && !ok) mismatch("a generated document is refused: " + docs[r].substr(0, 200));
    if (!ok) break;  // the readers stop at the first bad record
    if (!tree.have_root || !tree.stack.empty()) mismatch("unbalanced events");
    if (generated && !same_tree(tree.root, want[r])) mismatch("parsed tree differs from the written one: " + docs[r].substr(0, 200));
    ref.record = static_cast<int>(r);
    std::vector<Step> chain;
    ref.visit(tree.root, chain);
    compare(ref, em, set.max_captures());
  }
  return 0;
}
