// Glue shared by the JSON readers' glue files: an owned C file, 64-bit
// seeks on every platform, and the error lists the R side turns into
// classed errors. Glue only (not part of the header library).
#ifndef MLAGREEMENT_GLUE_FILE_H
#define MLAGREEMENT_GLUE_FILE_H

#include <sys/types.h>

#include <Rcpp.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

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

// The whole file at `path` into `buf`; false when it cannot be opened or read.
inline bool read_whole_file(const std::string& path, std::vector<char>& buf) {
  File file(std::fopen(path.c_str(), "rb"));
  if (!file) return false;
  char block[1 << 16];
  std::size_t got = 0;
  while ((got = std::fread(block, 1, sizeof block, file.get())) > 0) buf.insert(buf.end(), block, block + got);
  return std::ferror(file.get()) == 0;
}

// A parser fault as R reads it: kind (see kJsonErrorNames), line, detail.
inline Rcpp::List json_error_list(const char* kind, long line, const std::string& detail) {
  return Rcpp::List::create(Rcpp::Named("kind") = kind,
                            Rcpp::Named("line") = static_cast<double>(line),
                            Rcpp::Named("detail") = detail);
}

// The names of mlagreement::JsonError, in its order.
constexpr const char* kJsonErrorNames[] = {"none", "empty", "bad_utf8", "nul_byte", "invalid_json"};

// What a value that is not an object holds, by its first character.
inline std::string json_value_kind(char first) {
  switch (first) {
    case '[': return "an array";
    case '"': return "a string";
    case 'n': return "null";
    case 't': case 'f': return "a logical value";
    default: return "a number";
  }
}

}  // namespace glue

#endif  // MLAGREEMENT_GLUE_FILE_H
