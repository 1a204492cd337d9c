// Reproducible parallel random numbers for the bootstrap.
//
// The replicates are split into a fixed number of streams (kStreams), each a
// contiguous block of replicates. Stream k is dqrng's xoshiro256+ seeded from
// the 64-bit seed and advanced by k long jumps (2^192 draws each), so every
// replicate's draws depend only on (seed, replicate), never on which thread
// runs the stream. Bounded integers use Lemire's multiply-shift rejection
// method on the upper 32 bits (the low bits of xoshiro256+ are weaker), so
// results do not depend on the standard library's distributions.
#ifndef MLAGREEMENT_RNG_H
#define MLAGREEMENT_RNG_H

#include <cstddef>
#include <cstdint>

#include <xoshiro.h>

namespace mlagreement {

using Rng = dqrng::xoshiro256plus;

constexpr int kStreams = 64;

// Two 31-bit seeds from R's RNG -> one 64-bit seed.
inline std::uint64_t combine_seed(int hi, int lo) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(hi)) << 32) |
         static_cast<std::uint64_t>(static_cast<std::uint32_t>(lo));
}

inline Rng stream_rng(std::uint64_t seed, int stream) {
  Rng rng(seed);
  rng.long_jump(static_cast<std::uint64_t>(stream));
  return rng;
}

// First replicate of stream k when n replicates are split into kStreams blocks.
inline std::size_t block_begin(int k, std::size_t n) {
  return (n * static_cast<std::size_t>(k)) / static_cast<std::size_t>(kStreams);
}

// Uniform integer in [0, range), range >= 1 (Lemire 2019, unbiased).
inline std::uint32_t bounded_u32(Rng& rng, std::uint32_t range) {
  std::uint32_t x = static_cast<std::uint32_t>(rng() >> 32);
  std::uint64_t m = static_cast<std::uint64_t>(x) * static_cast<std::uint64_t>(range);
  std::uint32_t l = static_cast<std::uint32_t>(m);
  if (l < range) {
    const std::uint32_t t = static_cast<std::uint32_t>(-range) % range;
    while (l < t) {
      x = static_cast<std::uint32_t>(rng() >> 32);
      m = static_cast<std::uint64_t>(x) * static_cast<std::uint64_t>(range);
      l = static_cast<std::uint32_t>(m);
    }
  }
  return static_cast<std::uint32_t>(m >> 32);
}

}  // namespace mlagreement

#endif
