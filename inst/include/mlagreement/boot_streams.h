// A bootstrap run in chunks of any size, giving the replicates of a run in
// one go whatever the chunks and threads. OpenMP regions touch no R API.
// See DESIGN.md, Algorithms: Bootstrap.
#ifndef MLAGREEMENT_BOOT_STREAMS_H
#define MLAGREEMENT_BOOT_STREAMS_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "rng.h"
#include "threads.h"

namespace mlagreement {

struct StreamCursor {
  std::size_t n_rep = 0;
  std::vector<Rng> rng;
  std::vector<std::size_t> next;  // next replicate of each stream
  StreamCursor(std::uint64_t seed, std::size_t n_rep_) : n_rep(n_rep_) {
    rng.reserve(kStreams);
    for (int s = 0; s < kStreams; ++s) {
      rng.push_back(stream_rng(seed, s));
      next.push_back(block_begin(s, n_rep));
    }
  }
  std::size_t end(int s) const { return block_begin(s + 1, n_rep); }
  // replicates computed so far
  std::size_t done() const {
    std::size_t d = 0;
    for (int s = 0; s < kStreams; ++s) d += next[s] - block_begin(s, n_rep);
    return d;
  }
};

// Up to per_stream more replicates of every stream, streams in parallel.
// False when a replicate threw (out of memory); stops early, returning true,
// when interrupted().
template <typename MakeScratch, typename Replicate>
bool advance_streams(StreamCursor& c, std::size_t per_stream, int threads, MakeScratch&& make_scratch,
                     Replicate&& replicate) {
  using Scratch = std::decay_t<decltype(make_scratch())>;
  return parallel_for_scratch<Scratch>(
      0, kStreams, threads, 1, [&](Scratch& scratch) { scratch = make_scratch(); },
      [&](Scratch& scratch, std::int64_t i) {
        const int s = static_cast<int>(i);
        const std::size_t last = std::min(c.end(s), c.next[s] + per_stream);
        while (c.next[s] < last && !interrupted()) {
          replicate(scratch, c.rng[s], c.next[s]);
          ++c.next[s];
        }
      });
}

}  // namespace mlagreement

#endif
