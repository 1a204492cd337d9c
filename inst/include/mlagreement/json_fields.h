// Field-path extraction from the JSON event parser: the values at given
// paths of each record as flat columns (emissions) that the readers
// assemble with vectorised code. See DESIGN.md, Algorithms: JSON readers.
#ifndef MLAGREEMENT_JSON_FIELDS_H
#define MLAGREEMENT_JSON_FIELDS_H

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "json_number.h"

namespace mlagreement {

enum class JsonValueKind : int { null = 0, false_value, true_value, number, string, array, object };

// The paths as a trie: node 0 is the record itself.
class JsonPathSet {
 public:
  struct Node {
    std::vector<std::pair<std::string, int>> keys;  // literal key children
    int any_key = -1;                               // "*" child
    int element = -1;                               // "[]" child
    int path = -1;                                  // the path ending here
    std::vector<int> captures;                      // segments (1-based depth) that are "*" or "[]"
    int key_segment = 0;                            // depth of the last "*" (0: none)
    bool leaf() const { return keys.empty() && any_key < 0 && element < 0; }
  };

  explicit JsonPathSet(const std::vector<std::vector<std::string>>& paths) : nodes_(1) {
    for (std::size_t p = 0; p < paths.size(); ++p) {
      int at = 0;
      for (const std::string& seg : paths[p]) at = child(at, seg);
      Node& end = nodes_[static_cast<std::size_t>(at)];
      end.path = static_cast<int>(p);
      if (end.captures.size() > max_captures_) max_captures_ = end.captures.size();
      path_captures_.push_back(end.captures.size());
      path_keyed_.push_back(end.key_segment > 0);
    }
  }

  const Node& node(int k) const { return nodes_[static_cast<std::size_t>(k)]; }
  std::size_t max_captures() const { return max_captures_; }
  // The captures an emission of path p holds, and whether it holds a key.
  std::size_t captures_of(int p) const { return path_captures_[static_cast<std::size_t>(p)]; }
  bool keyed(int p) const { return path_keyed_[static_cast<std::size_t>(p)]; }

 private:
  std::vector<Node> nodes_;
  std::size_t max_captures_ = 0;
  std::vector<std::size_t> path_captures_;
  std::vector<bool> path_keyed_;

  int child(int at, const std::string& seg) {
    Node parent = nodes_[static_cast<std::size_t>(at)];
    int found = seg == "[]" ? parent.element : seg == "*" ? parent.any_key : -1;
    if (seg != "[]" && seg != "*") {
      for (const auto& kv : parent.keys) {
        if (kv.first == seg) found = kv.second;
      }
    }
    if (found >= 0) return found;
    Node next;
    next.captures = parent.captures;
    next.key_segment = parent.key_segment;
    const int depth = static_cast<int>(depth_of(at)) + 1;
    if (seg == "[]" || seg == "*") next.captures.push_back(depth);
    if (seg == "*") next.key_segment = depth;
    depths_.push_back(depth);
    nodes_.push_back(next);
    const int id = static_cast<int>(nodes_.size()) - 1;
    Node& p = nodes_[static_cast<std::size_t>(at)];
    if (seg == "[]") {
      p.element = id;
    } else if (seg == "*") {
      p.any_key = id;
    } else {
      p.keys.emplace_back(seg, id);
    }
    return id;
  }
  std::vector<int> depths_;  // depth of node k + 1 at k
  std::size_t depth_of(int k) const { return k == 0 ? 0 : static_cast<std::size_t>(depths_[static_cast<std::size_t>(k) - 1]); }
};

// The emissions, column by column; strings in one buffer. A whole document
// leaves `record` empty. Lengths are 32-bit (R strings are shorter than
// 2^31 bytes): a longer text sets `overlong` and is not stored. `captures`
// and key_at/key_len hold entries only for paths that have them.
struct JsonEmissions {
  enum : std::uint32_t { kNoText = 0xFFFFFFFFu, kMaxText = 0x7FFFFFFFu };
  bool keep_record = true;
  bool overlong = false;
  std::vector<int> record, path;
  std::vector<std::uint8_t> kind;
  std::vector<std::size_t> text_at, key_at;
  std::vector<std::uint32_t> text_len, key_len;  // kNoText: no text (null, containers)
  std::vector<int> captures;                     // serials from 1
  std::string buffer;
  std::size_t size() const { return path.size(); }
  // Appends a text; its (at, len) go to the columns given.
  void add_text(const char* s, std::size_t n, std::vector<std::size_t>& at, std::vector<std::uint32_t>& len) {
    if (s == nullptr || n > kMaxText) {
      overlong = overlong || s != nullptr;
      at.push_back(0);
      len.push_back(kNoText);
      return;
    }
    at.push_back(buffer.size());
    len.push_back(static_cast<std::uint32_t>(n));
    buffer.append(s, n);
  }
};

// The handler of JsonEventParser: follows the paths through the events.
class JsonFieldCollector {
 public:
  JsonFieldCollector(const JsonPathSet& paths, JsonEmissions& out) : paths_(paths), out_(out) {}

  // Emissions that follow belong to record `r` (0-based).
  void set_record(int r) {
    record_ = r;
    top_ = 0;
  }
  // Serial numbers restart (each chunk is wrapped on its own).
  void reset_serials() { std::fill(serials_.begin(), serials_.end(), 0); }

  void null_value() { scalar(JsonValueKind::null, nullptr, 0); }
  void bool_value(bool b) {
    scalar(b ? JsonValueKind::true_value : JsonValueKind::false_value, b ? "TRUE" : "FALSE", b ? 4 : 5);
  }
  void integer_value(int) {}  // not called: numbers come as text (number_text)
  void double_value(double) {}
  void number_text(const char* s, std::size_t n) {
    if (!matching()) {
      skip_element();
      return;
    }
    detail::canonical_number(s, n, number_);
    scalar(JsonValueKind::number, number_.data(), number_.size());
  }
  void string_value(const char* s, std::size_t n) { scalar(JsonValueKind::string, s, n); }
  void begin_object() { open(JsonValueKind::object); }
  void begin_array() { open(JsonValueKind::array); }
  void end_object(std::size_t) { --top_; }
  void end_array(std::size_t) { --top_; }
  void key(const char* s, std::size_t n) {
    Frame& f = frames_[top_ - 1];
    f.serial = ++serials_[top_ - 1];
    pending_.clear();
    if (f.nodes.empty()) return;
    for (int k : f.nodes) {
      const JsonPathSet::Node& node = paths_.node(k);
      for (const auto& kv : node.keys) {
        if (kv.first.size() == n && kv.first.compare(0, n, s, n) == 0) pending_.push_back(kv.second);
      }
      if (node.any_key >= 0) {
        pending_.push_back(node.any_key);
        f.key.assign(s, n);
      }
    }
  }

 private:
  struct Frame {
    std::vector<int> nodes;  // trie nodes with children at this container
    bool array = false;
    int serial = 0;          // member or element being read
    std::string key;         // its key, when a "*" may capture it
  };
  const JsonPathSet& paths_;
  JsonEmissions& out_;
  std::vector<Frame> frames_;
  std::size_t top_ = 0;
  std::vector<int> pending_;  // nodes of the value that comes next (after a key)
  std::vector<int> here_;
  std::string number_;
  std::vector<int> serials_;  // members and elements met so far, by depth
  int record_ = 0;

  // The nodes of the value that starts now.
  const std::vector<int>& current() {
    here_.clear();
    if (top_ == 0) {
      here_.push_back(0);
      return here_;
    }
    Frame& f = frames_[top_ - 1];
    if (!f.array) return pending_;
    f.serial = ++serials_[top_ - 1];
    for (int k : f.nodes) {
      const int e = paths_.node(k).element;
      if (e >= 0) here_.push_back(e);
    }
    return here_;
  }

  // serials count every element at a depth, off every path too
  void skip_element() {
    if (top_ > 0 && frames_[top_ - 1].array) frames_[top_ - 1].serial = ++serials_[top_ - 1];
  }

  // Whether the value that starts now may be on a path (only then numbers
  // are made canonical); does not advance the array ordinal.
  bool matching() const {
    if (top_ == 0) return true;
    const Frame& f = frames_[top_ - 1];
    return f.array ? !f.nodes.empty() : !pending_.empty();
  }

  void emit(int k, JsonValueKind kind, const char* s, std::size_t n) {
    const JsonPathSet::Node& node = paths_.node(k);
    if (out_.keep_record) out_.record.push_back(record_);
    out_.path.push_back(node.path);
    out_.kind.push_back(static_cast<std::uint8_t>(kind));
    out_.add_text(s, n, out_.text_at, out_.text_len);
    if (node.key_segment > 0) {
      const std::string& key = frames_[static_cast<std::size_t>(node.key_segment) - 1].key;
      out_.add_text(key.data(), key.size(), out_.key_at, out_.key_len);
    }
    for (int c : node.captures) out_.captures.push_back(frames_[static_cast<std::size_t>(c) - 1].serial);
  }

  void scalar(JsonValueKind kind, const char* s, std::size_t n) {
    const std::vector<int>& nodes = current();
    for (int k : nodes) {
      if (paths_.node(k).path >= 0) emit(k, kind, s, n);
    }
  }

  void open(JsonValueKind kind) {
    const std::vector<int>& nodes = current();
    if (top_ == frames_.size()) {
      frames_.emplace_back();
      serials_.push_back(0);
    }
    Frame& f = frames_[top_];
    f.nodes.clear();
    f.array = kind == JsonValueKind::array;
    f.serial = 0;
    for (int k : nodes) {
      const JsonPathSet::Node& node = paths_.node(k);
      if (node.path >= 0) emit(k, kind, nullptr, 0);  // reads the frames below f only
      if (!node.leaf()) f.nodes.push_back(k);
    }
    ++top_;
  }
};

}  // namespace mlagreement

#endif  // MLAGREEMENT_JSON_FIELDS_H
