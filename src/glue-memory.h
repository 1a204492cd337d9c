// Large vectors that a pass fills from scratch. Filled page by page, each
// 4 KB page of them is a page fault, which on some virtual machines costs
// more than the pass (bench/README.md, "mla() and page faults"); so, on
// Linux, those of at least 1 MB get a mapping of their own that takes
// transparent huge pages and is mapped in one call before their first write.
#ifndef MLAGREEMENT_GLUE_MEMORY_H
#define MLAGREEMENT_GLUE_MEMORY_H

#include <Rcpp.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <R_ext/Rallocators.h>
#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace glue {

#if defined(__linux__) && defined(MADV_HUGEPAGE)
constexpr std::size_t kHugePage = std::size_t{1} << 21;
constexpr std::size_t kPrefix = 64;  // the mapping's length, before R's block
constexpr std::size_t kOwnMappingMin = std::size_t{1} << 20;  // vectors this large get one
constexpr std::size_t kCollectMin = std::size_t{128} << 20;   // see MappedBytes

// R's collector does not count the mappings of huge_alloc() below, so
// vectors dropped in a loop would stay mapped until R collects for reasons of
// its own: once the live mappings would pass twice what survived the last
// collection (at least 128 MB), R collects before the next one is made.
struct MappedBytes {
  std::size_t live = 0, trigger = kCollectMin;
};
inline MappedBytes& mapped_bytes() {
  static MappedBytes bytes;
  return bytes;
}

inline void collect_if_due(std::size_t need) {
  MappedBytes& m = mapped_bytes();
  if (m.live + need <= m.trigger) return;
  R_gc();
  m.trigger = std::max(kCollectMin, 2 * m.live);
}

// Whether the system gives transparent huge pages to advised mappings (its
// setting is "[always]" or "[madvise]", not "[never]").
inline bool huge_pages_on() {
  static const bool on = [] {
    std::FILE* f = std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (f == nullptr) return false;
    char setting[64] = {0};
    const bool read = std::fgets(setting, sizeof setting, f) != nullptr;
    std::fclose(f);
    return read && std::strstr(setting, "[never]") == nullptr;
  }();
  return on;
}

inline std::size_t mapping_length(std::size_t need) {
  static const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t huge = (need + kHugePage - 1) & ~(kHugePage - 1);
  const bool round_to_huge = huge_pages_on() && 3 * (huge - need) <= need;
  return round_to_huge ? huge : (need + page - 1) / page * page;
}

inline void huge_free(R_allocator_t*, void* p);

// R calls huge_free() when it frees a mapped vector, so this library must stay
// loaded while one lives: once a mapping exists, it holds a reference to
// itself for the rest of the process (g++'s GNU unique symbols already keep
// it loaded); unloading the package (pkgload's load_all()) could otherwise
// leave R's collector calling code that is gone.
inline void keep_library_loaded() {
  static bool kept = false;
  if (kept) return;
  kept = true;
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&huge_free), &info) != 0 && info.dli_fname != nullptr) {
    (void)dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
  }
}

// An R allocator (R-exts, "Custom allocators") for vectors of at least 1 MB:
// a mapping of its own, aligned to 2 MB so that its whole 2 MB blocks take
// transparent huge pages, then mapped in one call (Linux 5.14+). A heap block
// lies anywhere, so fewer of its blocks could take huge pages and the rest
// faulted 4 KB at a time. The mapping is rounded up to whole huge pages where
// that adds at most a third of its size and the system gives them, else to
// whole pages. R's freeing of the vector unmaps it: no memory is kept.
// Where mmap() says no, the block comes from malloc().
inline void* huge_alloc(R_allocator_t* allocator, std::size_t bytes) {
  const std::size_t len = mapping_length(bytes + kPrefix);
  void* raw = mmap(nullptr, len + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) {
    void* heap = std::malloc(bytes + kPrefix);
    if (heap == nullptr) return nullptr;
    *static_cast<std::size_t*>(heap) = 0;
    return static_cast<char*>(heap) + kPrefix;  // not known to be zero
  }
  keep_library_loaded();
  const std::uintptr_t start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (start + kHugePage - 1) & ~(kHugePage - 1);
  if (aligned > start) munmap(raw, aligned - start);
  const std::uintptr_t end = aligned + len, raw_end = start + len + kHugePage;
  if (raw_end > end) munmap(reinterpret_cast<void*>(end), raw_end - end);
  void* block = reinterpret_cast<void*>(aligned);
  if (len >= kHugePage) (void)madvise(block, len & ~(kHugePage - 1), MADV_HUGEPAGE);
#ifdef MADV_POPULATE_WRITE  // glibc 2.35+; the kernel answers EINVAL before 5.14
  (void)madvise(block, len, MADV_POPULATE_WRITE);
#endif
  *static_cast<std::size_t*>(block) = len;
  mapped_bytes().live += len;
  *static_cast<bool*>(allocator->data) = true;  // a new mapping reads zero
  return static_cast<char*>(block) + kPrefix;
}

inline void huge_free(R_allocator_t*, void* p) {
  void* block = static_cast<char*>(p) - kPrefix;
  const std::size_t len = *static_cast<std::size_t*>(block);
  if (len == 0) {
    std::free(block);
  } else {
    munmap(block, len);
    mapped_bytes().live -= len;
  }
}

// A collection ends by taking a pending Ctrl-C, a longjmp that would skip
// the caller's C++ frames (their memory and the vectors Rcpp keeps for
// them): under unwindProtect() it unwinds them as an exception instead,
// and R resumes the interrupt after them.
struct MappedRequest {
  SEXPTYPE type;
  R_xlen_t n;
  std::size_t bytes;
  bool* zero;
};
inline SEXP collect_and_map(void* data) {
  MappedRequest* r = static_cast<MappedRequest*>(data);
  collect_if_due(r->bytes);
  R_allocator_t allocator{huge_alloc, huge_free, nullptr, r->zero};
  return Rf_allocVector3(r->type, r->n, &allocator);
}

// An uninitialised R vector of n elements of `type`; `zero` says whether its
// memory is known to be zero (a new mapping).
inline SEXP fresh_sexp(SEXPTYPE type, R_xlen_t n, std::size_t element_bytes, bool& zero) {
  zero = false;
  const std::size_t bytes = static_cast<std::size_t>(n) * element_bytes;
  if (bytes < kOwnMappingMin) return Rf_allocVector(type, n);
  MappedRequest request{type, n, bytes, &zero};
  return Rcpp::unwindProtect(collect_and_map, &request);
}
#else
inline SEXP fresh_sexp(SEXPTYPE type, R_xlen_t n, std::size_t, bool& zero) {
  zero = false;
  return Rf_allocVector(type, n);
}
#endif

// fresh_sexp() for an Rcpp vector or matrix type V.
template <typename V>
SEXP fresh_sexp_of(R_xlen_t n, bool& zero) {
  using element = typename std::remove_reference<decltype(*std::declval<V&>().begin())>::type;
  return fresh_sexp(V::r_type::value, n, sizeof(element), zero);
}

// An R vector of n elements that the caller writes in full.
template <typename V>
V fresh_vector(R_xlen_t n) {
  bool zero;
  return V(fresh_sexp_of<V>(n, zero));
}

// A copy of a core vector as an R vector.
template <typename V, typename T>
V fresh_copy(const std::vector<T>& x) {
  V v = fresh_vector<V>(static_cast<R_xlen_t>(x.size()));
  std::copy(x.begin(), x.end(), v.begin());
  return v;
}

// An nrow x ncol R matrix that the caller writes in full.
template <typename M>
M fresh_matrix(int nrow, int ncol) {
  bool zero;
  Rcpp::Shield<SEXP> x(fresh_sexp_of<M>(static_cast<R_xlen_t>(nrow) * ncol, zero));
  Rf_setAttrib(x, R_DimSymbol, Rcpp::Dimension(nrow, ncol));
  return M(static_cast<SEXP>(x));
}

// A vector as fresh_vector(), zero-filled, for passes that add into it.
template <typename V>
V zeroed_vector(R_xlen_t n) {
  bool zero;
  V v(fresh_sexp_of<V>(n, zero));
  if (!zero) std::fill(v.begin(), v.end(), 0);
  return v;
}

}  // namespace glue

#endif
