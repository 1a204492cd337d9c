// Double-double arithmetic (about 32 digits) for the per-label operations
// where chance-corrected coefficients cancel; O(labels), never per decision.
// See DESIGN.md, Algorithms: The estimator kernel.
#ifndef MLAGREEMENT_DDOUBLE_H
#define MLAGREEMENT_DDOUBLE_H

#include <cmath>

namespace mlagreement {

struct dd {
  double hi = 0.0, lo = 0.0;
  dd() = default;
  dd(double h) : hi(h), lo(0.0) {}  // NOLINT: implicit from double is intended
  dd(double h, double l) : hi(h), lo(l) {}
  double value() const { return hi + lo; }
};

namespace detail {
inline dd quick_two_sum(double a, double b) {
  const double s = a + b;
  return dd(s, b - (s - a));
}
inline dd two_sum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  return dd(s, (a - (s - bb)) + (b - bb));
}
inline dd two_prod(double a, double b) {
  const double p = a * b;
  return dd(p, std::fma(a, b, -p));
}
}  // namespace detail

inline dd operator+(const dd& x, const dd& y) {
  dd s = detail::two_sum(x.hi, y.hi);
  const dd t = detail::two_sum(x.lo, y.lo);
  s.lo += t.hi;
  s = detail::quick_two_sum(s.hi, s.lo);
  s.lo += t.lo;
  return detail::quick_two_sum(s.hi, s.lo);
}
inline dd operator-(const dd& x) { return dd(-x.hi, -x.lo); }
inline dd operator-(const dd& x, const dd& y) { return x + (-y); }
inline dd operator*(const dd& x, const dd& y) {
  dd p = detail::two_prod(x.hi, y.hi);
  p.lo += x.hi * y.lo + x.lo * y.hi;
  return detail::quick_two_sum(p.hi, p.lo);
}
inline dd operator/(const dd& x, const dd& y) {
  const double q1 = x.hi / y.hi;
  dd r = x - dd(q1) * y;
  const double q2 = r.hi / y.hi;
  r = r - dd(q2) * y;
  const double q3 = r.hi / y.hi;
  return detail::quick_two_sum(q1, q2) + dd(q3);
}

}  // namespace mlagreement

#endif
