// Large vectors that a pass fills from scratch. Filled page by page, each
// 4 KB page of them is a page fault, which on some virtual machines costs
// more than the pass (bench/README.md, "mla() and page faults"); so, on
// Linux, they are advised to take transparent huge pages and mapped in one
// call before their first write.
#ifndef MLAGREEMENT_GLUE_MEMORY_H
#define MLAGREEMENT_GLUE_MEMORY_H

#include <Rcpp.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace glue {

// Hints only, for at least 1 MB: the whole 2 MB-aligned blocks inside
// [first, first + bytes) may take huge pages, and its whole pages are mapped
// writable at once (Linux 5.14+). Where the system says no, nothing changes.
inline void prepare_fresh_memory(void* first, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (bytes < (std::size_t{1} << 20)) return;
  const auto down = [](std::uintptr_t p, std::uintptr_t to) { return p & ~(to - 1); };
  const std::uintptr_t huge = std::uintptr_t{1} << 21;
  static const std::uintptr_t page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const std::uintptr_t start = reinterpret_cast<std::uintptr_t>(first), end = start + bytes;
  const std::uintptr_t lo = down(start + huge - 1, huge), hi = down(end, huge);
  if (hi > lo) (void)madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
#ifdef MADV_POPULATE_WRITE  // glibc 2.35+; the kernel answers EINVAL before 5.14
  const std::uintptr_t plo = down(start + page - 1, page), phi = down(end, page);
  if (phi > plo) (void)madvise(reinterpret_cast<void*>(plo), phi - plo, MADV_POPULATE_WRITE);
#else
  (void)page;
#endif
#else
  (void)first;
  (void)bytes;
#endif
}

// v (just allocated, uninitialised) with its memory prepared.
template <typename V>
V prepared(V v) {
  prepare_fresh_memory(static_cast<void*>(v.begin()),
                       static_cast<std::size_t>(v.size()) * sizeof(*v.begin()));
  return v;
}

// An R vector of n elements that the caller writes in full.
template <typename V>
V fresh_vector(R_xlen_t n) {
  return prepared(V(Rcpp::no_init(n)));
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
  return prepared(M(Rcpp::no_init(nrow, ncol)));
}

// A vector as fresh_vector(), zero-filled, for passes that add into it.
template <typename V>
V zeroed_vector(R_xlen_t n) {
  V v = fresh_vector<V>(n);
  std::fill(v.begin(), v.end(), 0);
  return v;
}

}  // namespace glue

#endif
