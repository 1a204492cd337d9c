// The two OpenMP facts the parallel routines need, with the answers for a
// build without OpenMP, so per-thread scratch is sized and picked in one way,
// and the exception guard every parallel region uses.
// Pure C++: no R headers.
#ifndef MLAGREEMENT_THREADS_H
#define MLAGREEMENT_THREADS_H

#ifdef _OPENMP
#include <omp.h>
#endif

namespace mlagreement {

// Per-thread slots to allocate for a team asked for `threads` threads
// (a team never has more; without OpenMP there is one).
inline int team_size(int threads) noexcept {
#ifdef _OPENMP
  return threads > 0 ? threads : 1;
#else
  (void)threads;
  return 1;
#endif
}

// The calling thread's slot, 0 <= slot < team_size().
inline int thread_slot() noexcept {
#ifdef _OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}

// The one exception guard of every parallel region: exceptions (std::bad_alloc
// above all) must not leave an OpenMP region. Runs `f`; on an exception sets
// `failed` (declare it `reduction(|| : failed)` on the pragma) and returns
// false. The caller rethrows or reports after the region.
template <typename F>
inline bool guarded(bool& failed, F&& f) noexcept {
  try {
    f();
    return true;
  } catch (...) {
    failed = true;
    return false;
  }
}

}  // namespace mlagreement

#endif
