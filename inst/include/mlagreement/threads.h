// OpenMP helpers (team size, thread slot, the exception guard), the one
// interrupt flag long loops poll, and the parallel loop of independent
// iterations. See DESIGN.md, Algorithms: Threads and interrupts.
#ifndef MLAGREEMENT_THREADS_H
#define MLAGREEMENT_THREADS_H

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace mlagreement {

// Per-thread slots for a team asked for `threads` (one without OpenMP).
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

// The exception guard of every parallel region (no exception may leave one):
// runs f; on an exception sets `failed` (reduce it with `||`) and returns
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

// Ctrl-C for long loops: worker threads only read an atomic flag; the owner
// thread (R's main thread) runs its check at most once per interval and
// raises the flag. Loops return early; the glue frees and re-raises.
class InterruptFlag {
 public:
  using Check = bool (*)();
  // Makes the calling thread the owner; polls call `check` (nullptr: never
  // interrupted) at most once per interval_ms (0: at every poll).
  void arm(Check check, int interval_ms) noexcept {
    raised_.store(false, std::memory_order_relaxed);
    check_ = check;
    owner_ = std::this_thread::get_id();
    interval_ = std::chrono::milliseconds(interval_ms);
    next_ = std::chrono::steady_clock::now();
  }
  // Also lowers the flag: code run outside an armed call is never interrupted.
  void disarm() noexcept {
    check_ = nullptr;
    raised_.store(false, std::memory_order_relaxed);
  }
  bool raised() const noexcept { return raised_.load(std::memory_order_relaxed); }
  // True once an interrupt was seen; any thread may call it, only the owner
  // runs the check.
  template <typename F>
  bool poll(F&& check) noexcept {
    if (raised()) return true;
    if (std::this_thread::get_id() != owner_) return false;
    const auto now = std::chrono::steady_clock::now();
    if (now < next_) return false;
    next_ = now + interval_;
    if (check()) raised_.store(true, std::memory_order_relaxed);
    return raised();
  }
  bool poll() noexcept {
    return check_ != nullptr && poll(check_);
  }

 private:
  std::atomic<bool> raised_{false};
  Check check_ = nullptr;
  std::thread::id owner_;
  std::chrono::steady_clock::duration interval_{};
  std::chrono::steady_clock::time_point next_{};
};

// The process's one flag (R calls into the package one at a time; the glue
// arms it, src/glue-interrupt.h).
inline InterruptFlag& interrupt_flag() noexcept {
  static InterruptFlag flag;
  return flag;
}

// What long loops call, every few milliseconds of work at most.
inline bool interrupted() noexcept { return interrupt_flag().poll(); }

// Tight loops: a poll every `every`-th i (a power of two), else a read.
inline bool interrupted_at(std::int64_t i, std::int64_t every) noexcept {
  return (i & (every - 1)) == 0 ? interrupted() : interrupt_flag().raised();
}

// body(i) for 0 <= i < n on `threads` threads, `chunk` at a time. With
// poll_every > 0 (a power of two) it stops handing out work once
// interrupted; 0 leaves polling to the body. False if a body threw.
template <typename F>
inline bool parallel_for_each(std::size_t n, int threads, int chunk, std::int64_t poll_every,
                              F&& body) noexcept {
  const std::int64_t N = static_cast<std::int64_t>(n);
  bool failed = false;
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) schedule(dynamic, chunk) reduction(|| : failed)
#endif
  for (std::int64_t i = 0; i < N; ++i) {
    if (poll_every > 0 && interrupted_at(i, poll_every)) continue;  // the result is discarded
    guarded(failed, [&] { body(static_cast<std::size_t>(i)); });
  }
  (void)threads;
  (void)chunk;
  return !failed;
}

// body(scratch, i) for first <= i < last on `threads` threads, `chunk` at a
// time; each thread sets up its own scratch once by init(scratch), in the
// guard (a thread whose init threw does no work). False if anything threw.
template <typename Scratch, typename Init, typename F>
inline bool parallel_for_scratch(std::int64_t first, std::int64_t last, int threads, int chunk,
                                 Init&& init, F&& body) noexcept {
  bool failed = false;
#ifdef _OPENMP
#pragma omp parallel num_threads(threads) reduction(|| : failed)
#endif
  {
    Scratch scratch;
    const bool ready = guarded(failed, [&] { init(scratch); });
#ifdef _OPENMP
#pragma omp for schedule(dynamic, chunk)
#endif
    for (std::int64_t i = first; i < last; ++i) {
      if (!ready) continue;
      guarded(failed, [&] { body(scratch, i); });
    }
  }
  (void)threads;
  (void)chunk;
  return !failed;
}

}  // namespace mlagreement

#endif
