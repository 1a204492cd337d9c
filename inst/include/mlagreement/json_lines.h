// Streaming scanner of JSON-lines files taking a few top-level scalar fields
// of every line as text, each line validated in full by the JSON parser.
// See DESIGN.md, Algorithms: JSON readers.
#ifndef MLAGREEMENT_JSON_LINES_H
#define MLAGREEMENT_JSON_LINES_H

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "json_events.h"
#include "json_number.h"

namespace mlagreement {

// Lines of a file read in blocks: a line is a view into the buffer, valid
// until the next call; the buffer grows only for a line longer than it.
class BlockLineReader {
 public:
  BlockLineReader(std::FILE* file, std::size_t block_bytes)
      : file_(file), block_(block_bytes < 1 ? 1 : block_bytes), buf_(block_) {}

  bool next(const char*& begin, const char*& end) {
    for (;;) {
      const void* nl = filled_ > pos_ ? std::memchr(buf_.data() + pos_, '\n', filled_ - pos_) : nullptr;
      if (nl != nullptr) {
        begin = buf_.data() + pos_;
        end = static_cast<const char*>(nl);
        pos_ = static_cast<std::size_t>(end - buf_.data()) + 1;
        consumed_ += static_cast<std::size_t>(end - begin) + 1;
        return true;
      }
      if (eof_) {
        if (pos_ >= filled_) return false;
        begin = buf_.data() + pos_;
        end = buf_.data() + filled_;
        pos_ = filled_;
        consumed_ += static_cast<std::size_t>(end - begin);
        return true;
      }
      refill();
    }
  }

  bool failed() const { return failed_; }
  // Bytes of the lines returned so far, new lines included.
  std::size_t consumed() const { return consumed_; }

 private:
  std::FILE* file_;
  std::size_t block_;
  std::vector<char> buf_;
  std::size_t pos_ = 0;
  std::size_t filled_ = 0;
  std::size_t consumed_ = 0;
  bool eof_ = false;
  bool failed_ = false;

  void refill() {
    if (pos_ > 0) {
      std::memmove(buf_.data(), buf_.data() + pos_, filled_ - pos_);
      filled_ -= pos_;
      pos_ = 0;
    }
    if (buf_.size() - filled_ < block_) buf_.resize(filled_ + block_);
    const std::size_t want = buf_.size() - filled_;
    const std::size_t got = std::fread(buf_.data() + filled_, 1, want, file_);
    filled_ += got;
    if (got < want) {
      eof_ = true;
      failed_ = std::ferror(file_) != 0;
    }
  }
};

enum class JsonKind { absent, null, scalar, array, object };

// One requested field of one line.
struct JsonField {
  JsonKind kind = JsonKind::absent;
  std::string text;
};

// The handler for scan_json_lines(): the requested top-level fields of one
// object (the first of a repeated key); nested values are not kept.
class TopLevelFields {
 public:
  TopLevelFields(const std::vector<std::string>& fields, std::vector<JsonField>& out)
      : fields_(fields), out_(out) {}

  // Before each line; `keys` receives its top-level keys when not null.
  void reset(std::vector<std::string>* keys) {
    for (JsonField& f : out_) {
      f.kind = JsonKind::absent;
      f.text.clear();
    }
    depth_ = 0;
    target_ = kNone;
    keys_ = keys;
  }

  void null_value() { take(JsonKind::null, nullptr, 0); }
  void bool_value(bool b) { take(JsonKind::scalar, b ? "TRUE" : "FALSE", b ? 4 : 5); }
  void integer_value(int) {}  // not called: numbers come as text (number_text)
  void double_value(double) {}
  void number_text(const char* s, std::size_t n) {
    if (depth_ != 1 || target_ == kNone) return;
    detail::canonical_number(s, n, number_);
    take(JsonKind::scalar, number_.data(), number_.size());
  }
  void string_value(const char* s, std::size_t n) { take(JsonKind::scalar, s, n); }
  void begin_object() { open(JsonKind::object); }
  void begin_array() { open(JsonKind::array); }
  void end_object(std::size_t) { --depth_; }
  void end_array(std::size_t) { --depth_; }
  void key(const char* s, std::size_t n) {
    if (depth_ != 1) return;
    if (keys_ != nullptr) keys_->emplace_back(s, n);
    target_ = kNone;
    for (std::size_t k = 0; k < fields_.size(); ++k) {
      if (out_[k].kind == JsonKind::absent && fields_[k].size() == n &&
          fields_[k].compare(0, n, s, n) == 0) {
        target_ = k;
        return;
      }
    }
  }

 private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  const std::vector<std::string>& fields_;
  std::vector<JsonField>& out_;
  std::vector<std::string>* keys_ = nullptr;
  std::string number_;
  int depth_ = 0;
  std::size_t target_ = kNone;

  void open(JsonKind kind) {
    take(kind, nullptr, 0);
    ++depth_;
  }
  // The value of the member just keyed, for every field of that name.
  void take(JsonKind kind, const char* s, std::size_t n) {
    if (depth_ != 1 || target_ == kNone) return;
    for (std::size_t k = target_; k < fields_.size(); ++k) {
      if (k != target_ && (out_[k].kind != JsonKind::absent || fields_[k] != fields_[target_])) continue;
      out_[k].kind = kind;
      if (s != nullptr) out_[k].text.assign(s, n);
    }
    target_ = kNone;
  }
};

enum class ScanError { none, io, bad_utf8, nul_byte, invalid_json, not_object, field_missing,
                       field_nested, label_guess, empty };

struct ScanResult {
  ScanError error = ScanError::none;
  long line = 0;              // 1-based line of the error
  std::size_t field = 0;      // index of the field at fault
  JsonKind kind = JsonKind::absent;
  long affected = 0;          // records with the same field fault, in the whole file
  std::string detail;
  std::vector<std::string> keys;   // top-level keys of the line (label guess)
  std::vector<std::string> found;  // label candidates present (label guess)
};

// A required field absent or null, or any field not a scalar.
inline ScanError field_fault(JsonKind kind, bool required) {
  if (kind == JsonKind::array || kind == JsonKind::object) return ScanError::field_nested;
  if (required && (kind == JsonKind::absent || kind == JsonKind::null)) return ScanError::field_missing;
  return ScanError::none;
}

inline ScanError line_error(JsonError e) {
  return e == JsonError::bad_utf8 ? ScanError::bad_utf8
       : e == JsonError::nul_byte ? ScanError::nul_byte : ScanError::invalid_json;
}

// Scans every line; sink(line, values) gets the records in order until the
// first error. fields[guess] == "": the label to guess among `candidates`.
template <typename Sink>
ScanResult scan_json_lines(std::FILE* file, std::size_t block_bytes, std::vector<std::string>& fields,
                           const std::vector<bool>& required, std::size_t guess,
                           const std::vector<std::string>& candidates, Sink& sink) {
  BlockLineReader reader(file, block_bytes);
  std::vector<JsonField> values(fields.size());
  TopLevelFields handler(fields, values);
  const std::vector<std::string> no_ids;
  JsonEventParser<TopLevelFields> parser(handler, no_ids, "line");
  std::vector<std::string> keys;
  ScanResult res;
  const char* begin = nullptr;
  const char* end = nullptr;
  long line = 0;
  long records = 0;
  while (reader.next(begin, end)) {
    ++line;
    // a UTF-8 byte order mark (written by some Windows tools) is not content
    if (line == 1 && end - begin >= 3 && std::memcmp(begin, "\xEF\xBB\xBF", 3) == 0) begin += 3;
    const bool guessing = guess < fields.size() && fields[guess].empty();
    keys.clear();
    handler.reset(guessing ? &keys : nullptr);
    const bool parsed = parser.parse(begin, end, line);
    const JsonStatus& st = parser.status();
    if (st.error == JsonError::empty) continue;
    const bool object = parsed && st.first == '{';
    if (res.error != ScanError::none) {  // counting records with the same fault
      if (object && field_fault(values[res.field].kind, required[res.field]) == res.error) {
        ++res.affected;
      }
      continue;
    }
    if (!object) {
      res.error = !parsed ? line_error(st.error) : ScanError::not_object;
      res.line = line;
      res.detail = parsed ? json_value_name(st.first) : st.detail;
      return res;
    }
    if (guessing) {
      for (const std::string& c : candidates) {
        for (const std::string& k : keys) {
          if (k == c) {
            res.found.push_back(c);
            break;
          }
        }
      }
      if (res.found.size() != 1) {
        res.error = ScanError::label_guess;
        res.line = line;
        res.keys = keys;
        return res;
      }
      fields[guess] = res.found[0];
      res.found.clear();
      handler.reset(nullptr);
      parser.parse(begin, end, line);
    }
    for (std::size_t k = 0; k < fields.size(); ++k) {
      const ScanError fault = field_fault(values[k].kind, required[k]);
      if (fault != ScanError::none) {
        res.error = fault;
        res.line = line;
        res.field = k;
        res.kind = values[k].kind;
        res.affected = 1;
        break;
      }
    }
    if (res.error != ScanError::none) continue;
    ++records;
    sink(line, values);
  }
  if (reader.failed() && res.error == ScanError::none) {
    res.error = ScanError::io;
    res.line = line;
  } else if (records == 0 && res.error == ScanError::none) {
    res.error = ScanError::empty;
  }
  return res;
}

// A chunk of JSON lines read as values: each non-blank line one object.
struct ValueLinesResult {
  JsonStatus status;        // the first fault; error none when there is none
  bool io = false;          // the file could not be read
  bool not_object = false;  // status.first tells what the line holds instead
  long line = 0;            // the last line read
  long records = 0;
  bool eof = false;
};

// Lines after `line` until max_records objects are read or the input ends;
// on_record(line) after each. A byte-order mark on line 1 is skipped.
template <typename Handler, typename OnRecord>
ValueLinesResult scan_value_lines(BlockLineReader& reader, JsonEventParser<Handler>& parser,
                                  long line, long max_records, OnRecord&& on_record) {
  ValueLinesResult res;
  const char* begin = nullptr;
  const char* end = nullptr;
  while (res.records < max_records) {
    if (!reader.next(begin, end)) {
      res.eof = true;
      res.io = reader.failed();
      break;
    }
    ++line;
    if (!parser.parse(begin, end, line, line == 1)) {
      if (parser.status().error == JsonError::empty) continue;
      res.status = parser.status();
      break;
    }
    if (parser.status().first != '{') {
      res.status = parser.status();
      res.status.line = line;
      res.not_object = true;
      break;
    }
    ++res.records;
    on_record(line);
  }
  res.line = line;
  return res;
}

}  // namespace mlagreement

#endif  // MLAGREEMENT_JSON_LINES_H
