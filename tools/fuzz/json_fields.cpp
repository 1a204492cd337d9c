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
#include "json_tree.h"
#include "mlagreement/json_events.h"
#include "mlagreement/json_fields.h"

namespace mla = mlagreement;

namespace {

using namespace fuzz::json_tree;  // NOLINT: the tree side of this target

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

void compare(const Reference& ref, const mla::JsonEmissions& em, const mla::JsonPathSet& set) {
  const std::size_t max_caps = set.max_captures();
  if (max_caps != ref.max_caps) mismatch("max_captures");
  if (em.size() != ref.out.size()) {
    mismatch("emissions: got " + std::to_string(em.size()) + ", want " + std::to_string(ref.out.size()));
  }
  const std::size_t n = em.size();
  if (em.path.size() != n || em.kind.size() != n || em.text_at.size() != n || em.text_len.size() != n ||
      em.key_at.size() != em.key_len.size()) {
    mismatch("column lengths");
  }
  std::size_t cap_at = 0, key_at = 0;  // captures and keys are held by the paths that have them
  for (std::size_t k = 0; k < n; ++k) {
    const Emission& e = ref.out[k];
    const std::string at = " of emission " + std::to_string(k);
    if (em.record[k] != e.record) mismatch("record" + at);
    if (em.path[k] != e.path) mismatch("path" + at + ": got " + std::to_string(em.path[k]) + ", want " + std::to_string(e.path));
    if (em.kind[k] != e.kind) mismatch("kind" + at);
    const bool has_text = em.text_len[k] != mla::JsonEmissions::kNoText;
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
    const bool has_key = set.keyed(em.path[k]);
    if (has_key != e.has_key) mismatch("key presence" + at);
    if (has_key) {
      if (key_at >= em.key_at.size()) mismatch("keys: too few");
      if (em.key_at[key_at] + em.key_len[key_at] > em.buffer.size()) mismatch("key outside the buffer");
      if (em.buffer.substr(em.key_at[key_at], em.key_len[key_at]) != e.key) mismatch("key" + at);
      ++key_at;
    }
    const std::size_t m = set.captures_of(em.path[k]);
    if (cap_at + m > em.captures.size()) mismatch("captures: too few");
    for (std::size_t c = 0; c < max_caps; ++c) {
      const int got = c < m ? em.captures[cap_at + c] : 0;
      if (got != e.caps[c]) {
        mismatch("capture " + std::to_string(c) + at + ": got " + std::to_string(got) + ", want " +
                 std::to_string(e.caps[c]));
      }
    }
    cap_at += m;
  }
  if (cap_at != em.captures.size() || key_at != em.key_at.size()) mismatch("captures or keys left over");
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
    compare(ref, em, set);
  }
  return 0;
}
