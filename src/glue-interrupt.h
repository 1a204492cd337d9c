// Ctrl-C for glue functions that run long C++ work: arms the core's
// interrupt flag with R's check for the call and re-raises R's `interrupt`
// condition once the core has returned early and freed its memory.
#ifndef MLAGREEMENT_GLUE_INTERRUPT_H
#define MLAGREEMENT_GLUE_INTERRUPT_H

#include <Rcpp.h>

#include "mlagreement/threads.h"

namespace glue {

namespace detail {

inline void check_user_interrupt(void*) { R_CheckUserInterrupt(); }

// R_CheckUserInterrupt() would longjmp over C++ frames; R_ToplevelExec()
// contains the jump, so the core returns normally and the interrupt is
// re-raised by the glue (InterruptScope::rethrow()).
inline bool r_interrupt_pending() {
  return R_ToplevelExec(check_user_interrupt, nullptr) == FALSE;
}

// R's check is cheap but not free: at most every 20 ms.
constexpr int kPollIntervalMs = 20;

}  // namespace detail

// One per glue call that runs long C++ work, on the main thread:
//   glue::InterruptScope interrupts;
//   ... core work that polls mlagreement::interrupted() ...
//   interrupts.rethrow();  // before wrapping results
class InterruptScope {
 public:
  InterruptScope() {
    mlagreement::interrupt_flag().arm(detail::r_interrupt_pending, detail::kPollIntervalMs);
  }
  ~InterruptScope() { mlagreement::interrupt_flag().disarm(); }
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
  bool interrupted() const { return mlagreement::interrupt_flag().raised(); }
  // Raises R's `interrupt` condition when the user asked to stop (Rcpp's
  // wrapper turns the exception into Rf_onintr() after unwinding C++).
  void rethrow() const {
    if (interrupted()) throw Rcpp::internal::InterruptedException();
  }
};

}  // namespace glue

#endif
