// Shared glue of the JSON readers: an owned C file, 64-bit seeks, and the
// parser's faults as the lists R turns into classed errors.
#ifndef MLAGREEMENT_GLUE_FILE_H
#define MLAGREEMENT_GLUE_FILE_H

#include <sys/types.h>

#include <Rcpp.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "mlagreement/json_lines.h"

namespace glue {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

inline bool seek_to(std::FILE* f, double offset) {
#ifdef _WIN32
  return _fseeki64(f, static_cast<long long>(offset), SEEK_SET) == 0;
#else
  return fseeko(f, static_cast<off_t>(offset), SEEK_SET) == 0;
#endif
}

// The whole file into `buf`, reserved at its size (a buffer grown by doubling
// holds up to 1.5 files); false when it cannot be read.
inline bool read_whole_file(const std::string& path, std::vector<char>& buf) {
  File file(std::fopen(path.c_str(), "rb"));
  if (!file) return false;
  std::FILE* f = file.get();
#ifdef _WIN32
  const bool sized = _fseeki64(f, 0, SEEK_END) == 0;
  const long long size = sized ? _ftelli64(f) : -1;
#else
  const bool sized = fseeko(f, 0, SEEK_END) == 0;
  const long long size = sized ? static_cast<long long>(ftello(f)) : -1;
#endif
  if (!seek_to(f, 0)) return false;
  if (size > 0) buf.reserve(static_cast<std::size_t>(size));
  char block[1 << 16];
  std::size_t got = 0;
  while ((got = std::fread(block, 1, sizeof block, f)) > 0) buf.insert(buf.end(), block, block + got);
  return std::ferror(f) == 0;
}

// A parser fault as R reads it: kind (see kJsonErrorNames), line, detail.
inline Rcpp::List json_error_list(const char* kind, long line, const std::string& detail) {
  return Rcpp::List::create(Rcpp::Named("kind") = kind,
                            Rcpp::Named("line") = static_cast<double>(line),
                            Rcpp::Named("detail") = detail);
}

// The names of mlagreement::JsonError, in its order.
constexpr const char* kJsonErrorNames[] = {"none", "empty", "bad_utf8", "nul_byte", "invalid_json"};

// A parser fault (kind none: no fault gives R_NilValue).
inline SEXP status_error(const mlagreement::JsonStatus& st) {
  if (st.error == mlagreement::JsonError::none) return R_NilValue;
  return json_error_list(kJsonErrorNames[static_cast<int>(st.error)], st.line, st.detail);
}

// The first fault of a chunk of JSON lines, R_NilValue when there is none.
inline SEXP value_lines_error(const mlagreement::ValueLinesResult& res) {
  if (res.io) return json_error_list("io", res.line, "");
  if (res.not_object) return json_error_list("not_object", res.line, mlagreement::json_value_name(res.status.first));
  return status_error(res.status);
}

}  // namespace glue

#endif  // MLAGREEMENT_GLUE_FILE_H
