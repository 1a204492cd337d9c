// R glue for the JSON-lines scanner: unwrap, call the core, wrap. Nothing else.
#include <Rcpp.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "glue-file.h"
#include "mlagreement/json_lines.h"

namespace {

// One column of text kept as ids into its distinct values while the file is
// scanned (open addressing over one byte arena); R's strings are made once per
// distinct value at the end. No R allocation happens during the scan, so no
// garbage collection (which cannot be interrupted) runs inside it.
class InternedColumn {
 public:
  InternedColumn() : slots_(1024, -1) {}
  void push(const mlagreement::JsonField& f) {
    ids_.push_back(f.kind == mlagreement::JsonKind::scalar ? intern(f.text) : -1);
  }
  // Polls for an interrupt every 2^16 cells while filling the R vector.
  SEXP finish() const {
    Rcpp::CharacterVector levels(start_.size());
    for (std::size_t k = 0; k < start_.size(); ++k) {
      SET_STRING_ELT(levels, k, Rf_mkCharLenCE(arena_.data() + start_[k],
                                               static_cast<int>(size_[k]), CE_UTF8));
    }
    Rcpp::CharacterVector out(ids_.size());
    for (std::size_t i = 0; i < ids_.size(); ++i) {
      if ((i & 0xFFFF) == 0xFFFF) Rcpp::checkUserInterrupt();
      SET_STRING_ELT(out, i, ids_[i] < 0 ? NA_STRING : STRING_ELT(levels, ids_[i]));
    }
    return out;
  }

 private:
  std::string arena_;                // the distinct values, back to back
  std::vector<std::size_t> start_;   // value k: arena_[start_[k], start_[k] + size_[k])
  std::vector<std::uint32_t> size_;
  std::vector<std::uint64_t> hash_;
  std::vector<int> slots_;           // -1 or a value id; size a power of two
  std::vector<int> ids_;

  static std::uint64_t fnv1a(const std::string& t) {
    std::uint64_t h = 1469598103934665603ULL;
    for (unsigned char c : t) h = (h ^ c) * 1099511628211ULL;
    return h ^ (h >> 29);
  }
  int intern(const std::string& t) {
    const std::uint64_t h = fnv1a(t);
    std::size_t mask = slots_.size() - 1;
    for (std::size_t s = h & mask;; s = (s + 1) & mask) {
      const int id = slots_[s];
      if (id < 0) break;
      if (hash_[id] == h && size_[id] == t.size() &&
          arena_.compare(start_[id], t.size(), t) == 0) return id;
    }
    const int id = static_cast<int>(start_.size());
    start_.push_back(arena_.size());
    size_.push_back(static_cast<std::uint32_t>(t.size()));
    hash_.push_back(h);
    arena_.append(t);
    if (2 * start_.size() > slots_.size()) rehash();
    else place(id);
    return id;
  }
  void place(int id) {
    const std::size_t mask = slots_.size() - 1;
    std::size_t s = hash_[id] & mask;
    while (slots_[s] >= 0) s = (s + 1) & mask;
    slots_[s] = id;
  }
  void rehash() {
    slots_.assign(2 * slots_.size(), -1);
    for (std::size_t id = 0; id < start_.size(); ++id) place(static_cast<int>(id));
  }
};

struct ColumnSink {
  std::vector<int> line;
  std::vector<InternedColumn> columns;
  explicit ColumnSink(std::size_t n) : columns(n) {}
  void operator()(long line_no, const std::vector<mlagreement::JsonField>& values) {
    if ((line.size() & 0xFFF) == 0xFFF) Rcpp::checkUserInterrupt();  // every 4096 lines
    line.push_back(static_cast<int>(line_no));
    for (std::size_t k = 0; k < values.size(); ++k) columns[k].push(values[k]);
  }
};

const char* const kErrorNames[] = {"none", "io", "bad_utf8", "nul_byte", "invalid_json",
                                   "not_object", "field_missing", "field_nested", "label_guess",
                                   "empty"};
const char* const kKindNames[] = {"absent", "null", "scalar", "array", "object"};

Rcpp::List error_list(const mlagreement::ScanResult& res) {
  return Rcpp::List::create(
      Rcpp::Named("kind") = kErrorNames[static_cast<int>(res.error)],
      Rcpp::Named("line") = static_cast<double>(res.line),
      Rcpp::Named("field") = static_cast<int>(res.field) + 1,
      Rcpp::Named("value") = kKindNames[static_cast<int>(res.kind)],
      Rcpp::Named("affected") = static_cast<double>(res.affected),
      Rcpp::Named("detail") = res.detail,
      Rcpp::Named("keys") = Rcpp::wrap(res.keys),
      Rcpp::Named("found") = Rcpp::wrap(res.found));
}


}  // namespace

// fields: the top-level fields to take, "" at `guess` (1-based, 0 for none)
// for the label to find among `candidates`. Returns list(line, values, fields,
// error), error NULL or a list describing the first fault.
// [[Rcpp::export(rng = false)]]
Rcpp::List read_json_lines_cpp(const std::string& path, Rcpp::CharacterVector fields,
                               Rcpp::LogicalVector required, int guess,
                               Rcpp::CharacterVector candidates, double block_bytes) {
  std::vector<std::string> names = Rcpp::as<std::vector<std::string>>(fields);
  const std::vector<std::string> cand = Rcpp::as<std::vector<std::string>>(candidates);
  std::vector<bool> req(names.size());
  for (std::size_t k = 0; k < names.size(); ++k) req[k] = required[k] == TRUE;
  glue::File file(std::fopen(path.c_str(), "rb"));
  if (!file) {
    mlagreement::ScanResult res;
    res.error = mlagreement::ScanError::io;
    return Rcpp::List::create(Rcpp::Named("error") = error_list(res));
  }
  ColumnSink sink(names.size());
  const std::size_t guess_at = guess > 0 ? static_cast<std::size_t>(guess - 1) : names.size();
  const mlagreement::ScanResult res = mlagreement::scan_json_lines(
      file.get(), static_cast<std::size_t>(block_bytes), names, req, guess_at, cand, sink);
  Rcpp::List values(names.size());
  for (std::size_t k = 0; k < names.size(); ++k) values[k] = sink.columns[k].finish();
  Rcpp::RObject error = R_NilValue;
  if (res.error != mlagreement::ScanError::none) error = error_list(res);
  return Rcpp::List::create(
      Rcpp::Named("line") = Rcpp::IntegerVector(sink.line.begin(), sink.line.end()),
      Rcpp::Named("values") = values, Rcpp::Named("fields") = Rcpp::wrap(names),
      Rcpp::Named("error") = error);
}
