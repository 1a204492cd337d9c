// R glue for the field-path extractor (mlagreement/json_fields.h): a chunk
// of lines or a whole file to columns of emissions.
#include <Rcpp.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "glue-file.h"
#include "mlagreement/json_events.h"
#include "mlagreement/json_fields.h"
#include "mlagreement/json_lines.h"

namespace {

using Parser = mlagreement::JsonEventParser<mlagreement::JsonFieldCollector>;

using glue::File;
using glue::json_error_list;
using glue::seek_to;

std::vector<std::vector<std::string>> unwrap_paths(const Rcpp::List& paths) {
  std::vector<std::vector<std::string>> out;
  for (R_xlen_t p = 0; p < paths.size(); ++p) {
    out.push_back(Rcpp::as<std::vector<std::string>>(paths[p]));
  }
  return out;
}

std::size_t n_paths(const Rcpp::List& paths) { return static_cast<std::size_t>(paths.size()); }

// R strings of the buffer's texts. Emissions repeat few values (ids of a
// field, names, labels): a short text is looked up in R's string cache once
// per slot of a small direct-mapped cache (the CHARSXPs it holds must be
// protected by the caller, as elements of the vector being filled).
class StringCache {
 public:
  explicit StringCache(const std::string& buffer) : buffer_(buffer) {}
  SEXP get(std::size_t at, std::uint32_t len) {
    if (len == mlagreement::JsonEmissions::kNoText) return NA_STRING;
    const char* s = buffer_.data() + at;
    const std::size_t n = len;
    if (n > kShort) return Rf_mkCharLenCE(s, static_cast<int>(n), CE_UTF8);
    std::uint32_t h = 2166136261u;  // FNV-1a
    for (std::size_t j = 0; j < n; ++j) h = (h ^ static_cast<unsigned char>(s[j])) * 16777619u;
    const std::size_t q = h & (kSlots - 1);
    if (slot_len_[q] != n || std::memcmp(buffer_.data() + slot_at_[q], s, n) != 0) {
      slot_[q] = Rf_mkCharLenCE(s, static_cast<int>(n), CE_UTF8);
      slot_at_[q] = at;
      slot_len_[q] = n;
    }
    return slot_[q];
  }

 private:
  static constexpr std::size_t kSlots = 4096, kShort = 48;
  const std::string& buffer_;
  std::vector<std::size_t> slot_at_ = std::vector<std::size_t>(kSlots, 0);
  std::vector<std::size_t> slot_len_ = std::vector<std::size_t>(kSlots, std::string::npos);
  std::vector<SEXP> slot_ = std::vector<SEXP>(kSlots, R_NilValue);
};

// Frees a column's memory now (clear() keeps the capacity).
template <typename T>
void release(T& column) {
  T().swap(column);
}

// record 1-based, captures serials (0: none); kind 0-6 (null, false, true, number, string,
// array, object); key NA off keyed paths; by_path: the 1-based emissions of each path, in
// document order. A whole document (one record, e.keep_record false) has no record column.
// Each column of `e` is released once it is an R vector, so the emissions
// and their R copy are not both held whole.
Rcpp::List wrap_emissions(mlagreement::JsonEmissions& e, const mlagreement::JsonPathSet& set,
                          std::size_t n_paths) {
  const R_xlen_t n = static_cast<R_xlen_t>(e.size());
  std::vector<R_xlen_t> count(n_paths, 0);
  for (int p : e.path) ++count[static_cast<std::size_t>(p)];
  Rcpp::List by_path(static_cast<R_xlen_t>(n_paths));
  std::vector<int*> fill(n_paths, nullptr);
  for (std::size_t p = 0; p < n_paths; ++p) {
    Rcpp::IntegerVector v(count[p]);
    by_path[static_cast<R_xlen_t>(p)] = v;
    fill[p] = INTEGER(v);
  }
  for (std::size_t k = 0; k < e.path.size(); ++k) {
    *fill[static_cast<std::size_t>(e.path[k])]++ = static_cast<int>(k + 1);
  }
  Rcpp::RObject record = R_NilValue;
  if (e.keep_record) {
    Rcpp::IntegerVector r(n);
    for (R_xlen_t k = 0; k < n; ++k) r[k] = e.record[static_cast<std::size_t>(k)] + 1;
    record = r;
  }
  release(e.record);
  const std::size_t n_captures = set.max_captures();
  Rcpp::List caps(static_cast<R_xlen_t>(n_captures));
  std::vector<int*> cap(n_captures, nullptr);
  for (std::size_t c = 0; c < n_captures; ++c) {
    Rcpp::IntegerVector v(n);  // zero: no such capture
    caps[static_cast<R_xlen_t>(c)] = v;
    cap[c] = INTEGER(v);
  }
  for (std::size_t k = 0, at = 0; k < e.path.size(); ++k) {
    const std::size_t m = set.captures_of(e.path[k]);
    for (std::size_t c = 0; c < m; ++c) cap[c][k] = e.captures[at++];
  }
  release(e.captures);
  const Rcpp::IntegerVector kind(e.kind.begin(), e.kind.end());
  release(e.kind);
  StringCache cache(e.buffer);
  Rcpp::CharacterVector text(n);
  for (R_xlen_t k = 0; k < n; ++k) {
    if ((k & 0xFFFFF) == 0xFFFFF) Rcpp::checkUserInterrupt();
    const std::size_t i = static_cast<std::size_t>(k);
    SET_STRING_ELT(text, k, cache.get(e.text_at[i], e.text_len[i]));
  }
  release(e.text_at);
  release(e.text_len);
  Rcpp::CharacterVector key(n, NA_STRING);
  for (std::size_t k = 0, at = 0; k < e.path.size(); ++k) {
    if (!set.keyed(e.path[k])) continue;
    SET_STRING_ELT(key, static_cast<R_xlen_t>(k), cache.get(e.key_at[at], e.key_len[at]));
    ++at;
  }
  return Rcpp::List::create(Rcpp::Named("record") = record, Rcpp::Named("kind") = kind,
                            Rcpp::Named("text") = text, Rcpp::Named("key") = key,
                            Rcpp::Named("cap") = caps, Rcpp::Named("by_path") = by_path);
}

}  // namespace

// Up to `max_records` objects of a JSON-lines file from byte `offset` on
// (first line `line + 1`): list(line, fields, offset, last_line, eof,
// error); emission records are the objects' ordinals in the chunk.
// [[Rcpp::export(rng = false)]]
Rcpp::List extract_json_lines_cpp(const std::string& path, Rcpp::List paths, double offset,
                                  double line, double max_records, double block_bytes) {
  File file(std::fopen(path.c_str(), "rb"));
  if (!file || !seek_to(file.get(), offset)) {
    return Rcpp::List::create(Rcpp::Named("error") = json_error_list("io", static_cast<long>(line), ""));
  }
  const mlagreement::JsonPathSet set(unwrap_paths(paths));
  mlagreement::JsonEmissions em;
  mlagreement::JsonFieldCollector collector(set, em);
  const std::vector<std::string> no_ids;  // the parser keeps a reference
  Parser parser(collector, no_ids, "line");
  mlagreement::BlockLineReader reader(file.get(), static_cast<std::size_t>(block_bytes));
  std::vector<int> lines;
  const mlagreement::ValueLinesResult res = mlagreement::scan_value_lines(
      reader, parser, static_cast<long>(line), static_cast<long>(max_records), [&](long l) {
        lines.push_back(static_cast<int>(l));
        if ((lines.size() & 0x3FFF) == 0) Rcpp::checkUserInterrupt();
        collector.set_record(static_cast<int>(lines.size()));
      });
  const Rcpp::RObject error = glue::value_lines_error(res);
  if (error != R_NilValue) return Rcpp::List::create(Rcpp::Named("error") = error);
  if (em.overlong) return Rcpp::List::create(Rcpp::Named("error") = json_error_list("overlong", 0, ""));
  return Rcpp::List::create(
      Rcpp::Named("line") = Rcpp::IntegerVector(lines.begin(), lines.end()),
      Rcpp::Named("fields") = wrap_emissions(em, set, n_paths(paths)),
      Rcpp::Named("offset") = offset + static_cast<double>(reader.consumed()),
      Rcpp::Named("last_line") = static_cast<double>(res.line), Rcpp::Named("eof") = res.eof,
      Rcpp::Named("error") = R_NilValue);
}

// A whole file as one record: list(fields, first, error); `first` is the
// first character of the document ('[', '{', ...).
// [[Rcpp::export(rng = false)]]
Rcpp::List extract_json_file_cpp(const std::string& path, Rcpp::List paths) {
  std::vector<char> buf;
  const bool failed = !glue::read_whole_file(path, buf);
  if (failed) return Rcpp::List::create(Rcpp::Named("error") = json_error_list("io", 0, ""));
  const mlagreement::JsonPathSet set(unwrap_paths(paths));
  mlagreement::JsonEmissions em;
  em.keep_record = false;
  mlagreement::JsonFieldCollector collector(set, em);
  const std::vector<std::string> no_ids;
  Parser parser(collector, no_ids, "file");
  if (!parser.parse(buf.data(), buf.data() + buf.size(), 1, true)) {
    const mlagreement::JsonStatus& st = parser.status();
    return Rcpp::List::create(Rcpp::Named("error") = glue::status_error(st));
  }
  std::vector<char>().swap(buf);
  if (em.overlong) return Rcpp::List::create(Rcpp::Named("error") = json_error_list("overlong", 0, ""));
  return Rcpp::List::create(Rcpp::Named("fields") =
                                wrap_emissions(em, set, n_paths(paths)),
                            Rcpp::Named("first") = std::string(1, parser.status().first),
                            Rcpp::Named("error") = R_NilValue);
}
