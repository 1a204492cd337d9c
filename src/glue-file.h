// Glue shared by the JSON readers' glue files: an owned C file and 64-bit
// seeks on every platform. Glue only (not part of the header library).
#ifndef MLAGREEMENT_GLUE_FILE_H
#define MLAGREEMENT_GLUE_FILE_H

#include <sys/types.h>

#include <cstdio>
#include <memory>

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

}  // namespace glue

#endif  // MLAGREEMENT_GLUE_FILE_H
