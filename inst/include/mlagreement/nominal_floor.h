// The eq. 7 floor of a nominal variable (a single-label design, a group of
// labels): the largest mean item disagreement that its category totals and
// its items' numbers of decisions allow.
// See DESIGN.md, Algorithms: The floor of a nominal variable.
#ifndef MLAGREEMENT_NOMINAL_FLOOR_H
#define MLAGREEMENT_NOMINAL_FLOOR_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "ddouble.h"
#include "label_table.h"

namespace mlagreement {

struct NominalFloor {
  bool defined = false;
  dd d_max;  // mean over the pairable items
};

namespace detail {

// Categories x classes of items with m decisions. A class holding y units of
// a category costs a_m G(y) with a_m = 1 / (m (m - 1)) and G the sum of
// squares of y spread evenly over its n items: convex, linear between
// multiples of n, slope a_m (2j + 1) on piece j.
class NominalTransport {
 public:
  NominalTransport(std::vector<std::int64_t> m, std::vector<std::int64_t> n,
                   std::vector<std::int64_t> totals)
      : m_(std::move(m)), n_(std::move(n)), supply_(std::move(totals)),
        q_(supply_.size()), k_(m_.size()), y_(q_ * k_, 0) {
    for (std::size_t k = 0; k < k_; ++k) demand_.push_back(m_[k] * n_[k]);
  }

  // Successive shortest paths; false when it would take more than
  // `max_work` arc scans (designs with hundreds of distinct m).
  bool solve(double max_work) {
    double work = 0;
    while (std::any_of(supply_.begin(), supply_.end(), [](std::int64_t s) { return s > 0; })) {
      if (!shortest_paths(work, max_work)) return false;
      if (!augment()) return false;
    }
    return true;
  }

  // Sum over the pairable items of their largest disagreement.
  dd total_disagreement() const {
    dd total;
    for (std::size_t k = 0; k < k_; ++k) {
      if (m_[k] < 2) continue;
      const double mm = static_cast<double>(m_[k]);
      dd squares;
      for (std::size_t c = 0; c < q_; ++c) squares = squares + dd(spread_squares(y_[c * k_ + k], n_[k]));
      total = total + (dd(mm * mm) * dd(static_cast<double>(n_[k])) - squares) / dd(mm * (mm - 1.0));
    }
    return total;
  }

 private:
  static double spread_squares(std::int64_t y, std::int64_t n) {
    const double j = static_cast<double>(y / n), r = static_cast<double>(y % n);
    return (static_cast<double>(n) - r) * j * j + r * (j + 1.0) * (j + 1.0);
  }
  // Path lengths in doubles: a near tie (below kTie) chosen wrongly costs at
  // most that much per unit moved; the floor itself is summed exactly.
  static constexpr double kTie = 1e-13;
  double slope(std::size_t k, std::int64_t piece) const {
    if (m_[k] < 2) return 0.0;
    const double mm = static_cast<double>(m_[k]);
    return (2.0 * static_cast<double>(piece) + 1.0) / (mm * (mm - 1.0));
  }
  static bool less(double a, double b) { return a < b - kTie; }

  // Shortest paths from every category with supply left (a queue of the
  // nodes whose distance fell: categories, then classes). pred_: the node
  // before, or -1 at a source. False beyond the budget or on a cycle.
  bool shortest_paths(double& work, double max_work) {
    const std::size_t v = q_ + k_;
    dist_.assign(v, 0.0);
    reached_.assign(v, 0);
    pred_.assign(v, -1);
    std::vector<char> queued(v, 0);
    std::vector<std::size_t> queue;
    for (std::size_t c = 0; c < q_; ++c) {
      if (supply_[c] > 0) {
        reached_[c] = queued[c] = 1;
        queue.push_back(c);
      }
    }
    std::size_t pops = 0;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const std::size_t u = queue[head];
      queued[u] = 0;
      if (++pops > v * v + v) return false;  // rounding made a negative cycle
      work += static_cast<double>(u < q_ ? k_ : q_);
      if (work > max_work) return false;
      for (std::size_t w = 0; w < (u < q_ ? k_ : q_); ++w) {
        const std::size_t c = u < q_ ? u : w, k = u < q_ ? w : u - q_;
        const std::int64_t y = y_[c * k_ + k];
        const bool open = u < q_ ? y < m_[k] * n_[k] : y > 0;
        if (!open) continue;
        const double d = u < q_ ? dist_[u] + slope(k, y / n_[k]) : dist_[u] - slope(k, (y - 1) / n_[k]);
        const std::size_t to = u < q_ ? q_ + k : c;
        if (reached_[to] && !less(d, dist_[to])) continue;
        dist_[to] = d;
        reached_[to] = 1;
        pred_[to] = static_cast<int>(u);
        if (!queued[to]) {
          queued[to] = 1;
          queue.push_back(to);
        }
      }
    }
    return true;
  }

  // Sends along the shortest path to the nearest class with demand left as
  // much as its pieces, the source's supply and the class's demand allow.
  bool augment() {
    std::size_t best = k_;
    for (std::size_t k = 0; k < k_; ++k) {
      if (demand_[k] > 0 && reached_[q_ + k] && (best == k_ || less(dist_[q_ + k], dist_[q_ + best]))) best = k;
    }
    if (best == k_) return false;
    std::vector<std::size_t> path{q_ + best};
    while (pred_[path.back()] >= 0) {
      path.push_back(static_cast<std::size_t>(pred_[path.back()]));
      if (path.size() > q_ + k_ + 1) return false;  // a cycle: rounding, give up
    }
    std::int64_t amount = std::min(supply_[path.back()], demand_[best]);
    for (std::size_t s = path.size() - 1; s > 0; --s) {
      const std::size_t from = path[s], to = path[s - 1];
      if (from < q_) {  // category -> class: up to the end of the piece
        const std::size_t k = to - q_;
        const std::int64_t y = y_[from * k_ + k];
        amount = std::min(amount, n_[k] * (y / n_[k] + 1) - y);
      } else {  // class -> category: back to the start of the piece
        const std::size_t k = from - q_;
        const std::int64_t y = y_[to * k_ + k];
        amount = std::min(amount, y - n_[k] * ((y - 1) / n_[k]));
      }
    }
    if (amount <= 0) return false;
    for (std::size_t s = path.size() - 1; s > 0; --s) {
      const std::size_t from = path[s], to = path[s - 1];
      if (from < q_) y_[from * k_ + (to - q_)] += amount;
      else y_[to * k_ + (from - q_)] -= amount;
    }
    supply_[path.back()] -= amount;
    demand_[best] -= amount;
    return true;
  }

  std::vector<std::int64_t> m_, n_, supply_, demand_;
  std::size_t q_, k_;
  std::vector<std::int64_t> y_;  // categories x classes
  std::vector<double> dist_;
  std::vector<char> reached_;
  std::vector<int> pred_;
};

}  // namespace detail

// n_items[s]: items with s + 1 decisions; totals: decisions per category.
// Items of one m are exchangeable, and given how many units of each
// category their class holds, spreading each category as evenly as possible
// over them is feasible (round-robin) and least; what is left is a
// categories x classes transportation problem with convex piecewise-linear
// costs, solved exactly. Undefined without pairable items, with totals that
// do not add up to the decisions, or beyond max_work.
inline NominalFloor nominal_floor(const std::vector<double>& n_items, const std::vector<double>& totals,
                                  double max_work = 2e8) {
  NominalFloor f;
  std::vector<std::int64_t> m, n, y;
  double decisions = 0, pairable = 0, total = 0;
  for (std::size_t s = 0; s < n_items.size(); ++s) {
    if (!(n_items[s] > 0)) continue;
    m.push_back(static_cast<std::int64_t>(s + 1));
    n.push_back(static_cast<std::int64_t>(n_items[s]));
    decisions += static_cast<double>(s + 1) * n_items[s];
    if (s > 0) pairable += n_items[s];
  }
  for (double t : totals) {
    y.push_back(static_cast<std::int64_t>(t));
    total += t;
  }
  if (!(pairable > 0) || total != decisions) return f;
  detail::NominalTransport transport(m, n, y);
  if (!transport.solve(max_work)) return f;
  f.defined = true;
  f.d_max = transport.total_disagreement() / dd(pairable);
  return f;
}

// The variable of columns [first, first + q) of a table whose columns share
// the items' numbers of decisions (one-hot categories, a group's columns).
template <typename Count>
NominalFloor nominal_floor(const CountTable<Count>& t, std::size_t first, std::size_t q) {
  const std::size_t mm = t.max_m;
  std::vector<double> n_items(mm), totals(q, 0.0);
  for (std::size_t s = 0; s < mm; ++s) n_items[s] = static_cast<double>(t.cnt[first * mm + s]);
  for (std::size_t c = 0; c < q; ++c) {
    for (std::size_t s = 0; s < mm; ++s) totals[c] += static_cast<double>(t.sx[(first + c) * mm + s]);
  }
  return nominal_floor(n_items, totals);
}

}  // namespace mlagreement

#endif
