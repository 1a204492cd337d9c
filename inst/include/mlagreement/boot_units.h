// What a bootstrap replicate draws: multiplicities of the resampled units
// (items or clusters, optionally within strata) and of the annotators. Every
// engine draws through these functions. See DESIGN.md, Algorithms: Bootstrap.
#ifndef MLAGREEMENT_BOOT_UNITS_H
#define MLAGREEMENT_BOOT_UNITS_H

#include <cstddef>
#include <cstdint>
#include <vector>

#include "rng.h"

namespace mlagreement {

// Resampled units; stratum h owns units order[start[h] .. start[h + 1] - 1].
struct UnitDesign {
  std::size_t n_items = 0, n_units = 0;
  const int* unit_of_item = nullptr;  // nullptr: unit == item
  const int* order = nullptr;         // units sorted by stratum
  const int* start = nullptr;         // n_strata + 1 offsets
  std::size_t n_strata = 0;
};

// Multiplicities of the units in one replicate (n_h draws in stratum h).
inline void draw_units(Rng& rng, const UnitDesign& u, std::uint32_t* unit_w) {
  for (std::size_t v = 0; v < u.n_units; ++v) unit_w[v] = 0;
  for (std::size_t h = 0; h < u.n_strata; ++h) {
    const std::size_t s0 = static_cast<std::size_t>(u.start[h]);
    const std::uint32_t nh = static_cast<std::uint32_t>(u.start[h + 1] - u.start[h]);
    for (std::uint32_t t = 0; t < nh; ++t) ++unit_w[u.order[s0 + bounded_u32(rng, nh)]];
  }
}

// Item multiplicities from unit multiplicities.
inline const std::uint32_t* item_weights(const UnitDesign& u, const std::uint32_t* unit_w,
                                         std::uint32_t* buf) {
  if (u.unit_of_item == nullptr) return unit_w;
  for (std::size_t i = 0; i < u.n_items; ++i) buf[i] = unit_w[u.unit_of_item[i]];
  return buf;
}

// Calls f(r, item_multiplicities) for the replicates r of one stream of an
// item bootstrap, with the draws every engine makes.
template <typename F>
void for_each_item_draw(const UnitDesign& u, std::uint64_t seed, int stream, std::size_t n_rep,
                        F&& f) {
  std::vector<std::uint32_t> unit_w(u.n_units), buf(u.unit_of_item ? u.n_items : 0);
  Rng rng = stream_rng(seed, stream);
  for (std::size_t r = block_begin(stream, n_rep); r < block_begin(stream + 1, n_rep); ++r) {
    draw_units(rng, u, unit_w.data());
    f(r, item_weights(u, unit_w.data(), buf.data()));
  }
}

inline void draw_annotators(Rng& rng, std::size_t n_annotators, std::uint32_t* ann_w) {
  const std::uint32_t n = static_cast<std::uint32_t>(n_annotators);
  for (std::size_t a = 0; a < n_annotators; ++a) ann_w[a] = 0;
  for (std::uint32_t t = 0; t < n; ++t) ++ann_w[bounded_u32(rng, n)];
}

// The engines' draws, for checks against a reference: mode 0 items, 1
// annotators, 2 both (item_out: n_items x n_rep, ann_out: n_annotators x n_rep).
inline void boot_draws(int mode, const UnitDesign& u, std::size_t n_annotators, std::uint64_t seed,
                       std::size_t n_rep, int* item_out, int* ann_out) {
  std::vector<std::uint32_t> ann_w(n_annotators), unit_w(u.n_units),
      buf(u.unit_of_item ? u.n_items : 0);
  for (int st = 0; st < kStreams; ++st) {
    Rng rng = stream_rng(seed, st);
    for (std::size_t r = block_begin(st, n_rep); r < block_begin(st + 1, n_rep); ++r) {
      if (mode != 0) {
        draw_annotators(rng, n_annotators, ann_w.data());
        for (std::size_t a = 0; a < n_annotators; ++a)
          ann_out[r * n_annotators + a] = static_cast<int>(ann_w[a]);
      }
      if (mode != 1) {
        draw_units(rng, u, unit_w.data());
        const std::uint32_t* iw = item_weights(u, unit_w.data(), buf.data());
        for (std::size_t i = 0; i < u.n_items; ++i) item_out[r * u.n_items + i] = static_cast<int>(iw[i]);
      }
    }
  }
}

}  // namespace mlagreement

#endif
