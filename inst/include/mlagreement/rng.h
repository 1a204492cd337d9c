// Reproducible parallel random numbers: every draw of the package
// (bootstrap streams, per-pair streams, bounded integers).
// See DESIGN.md, Algorithms: Bootstrap.
#ifndef MLAGREEMENT_RNG_H
#define MLAGREEMENT_RNG_H

#include <cstddef>
#include <cstdint>

#include <xoshiro.h>

namespace mlagreement {

using Rng = dqrng::xoshiro256plus;

// SplitMix64's finalizer: a bijective 64-bit mixer (per-pair seeds here,
// hashing of label sets in hash_tables.h).
inline std::uint64_t mix64(std::uint64_t z) noexcept {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

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

// The stream of unit p of a per-unit scheme (SplitMix64's sequence).
inline Rng pair_stream(std::uint64_t seed, std::size_t p) {
  return Rng(mix64(seed + 0x9e3779b97f4a7c15ULL * (p + 1)));
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
