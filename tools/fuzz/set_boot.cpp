// Fuzz target 6: bootstrap replicates of Krippendorff's alpha from per-item
// summaries (set_boot.h). For any number of items, distinct sets, linear
// terms, distances and replicates (blocks of eight lanes, the last padded),
// on 1 or 2 threads and over any window of streams, every replicate's item
// sums W'terms and quadratic forms n_b' D n_b (n_b = C'w, the reweighted
// distinct-set counts) against plain loops over the replicates'
// multiplicities (boot_draws(), the engines' draws; relative tolerance 1e-9).
// Also item_set_counts() against a sort of each item's records.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "fuzz_common.h"
#include "mlagreement/boot_units.h"
#include "mlagreement/set_boot.h"

namespace mla = mlagreement;

namespace {

struct Summaries {
  std::size_t n = 0, S = 0, p = 0;
  mla::ItemSetCounts sets;
  std::vector<double> terms;           // n x p, column-major
  std::vector<std::vector<double>> D;  // S x S each, symmetric
};

// Item i's records carry distinct sets from the bytes; item_set_counts()
// groups and counts them (checked here against a count per set).
Summaries decode_summaries(fuzz::Bytes& in) {
  Summaries s;
  s.n = static_cast<std::size_t>(in.range(1, 50));
  s.S = static_cast<std::size_t>(in.range(1, 40));
  s.p = static_cast<std::size_t>(in.range(0, 4));
  const int nd = in.range(0, 3);
  std::vector<double> gstart{0.0};
  std::vector<int> rec_set, item_of_group;
  for (std::size_t i = 0; i < s.n; ++i) {
    const int m = in.range(0, 6);
    if (m == 0) continue;  // an item without a group
    for (int r = 0; r < m; ++r) rec_set.push_back(in.range(0, static_cast<int>(s.S) - 1));
    gstart.push_back(static_cast<double>(rec_set.size()));
    item_of_group.push_back(static_cast<int>(i));
  }
  s.sets = mla::item_set_counts(gstart.data(), item_of_group.size(), rec_set.data(),
                                item_of_group.data(), s.n);
  for (std::size_t g = 0; g < item_of_group.size(); ++g) {
    const std::size_t i = static_cast<std::size_t>(item_of_group[g]);
    for (std::size_t e = s.sets.start[i]; e < s.sets.start[i + 1]; ++e) {
      if (e > s.sets.start[i]) fuzz::expect(s.sets.set[e - 1] < s.sets.set[e], "item sets ascending");
      const int want = static_cast<int>(std::count(rec_set.begin() + static_cast<long>(gstart[g]),
                                                   rec_set.begin() + static_cast<long>(gstart[g + 1]),
                                                   s.sets.set[e]));
      fuzz::expect_eq(s.sets.count[e], want, "item set count");
    }
  }
  // the bulk from a generator seeded by the bytes (short inputs still get
  // nonzero terms and distances)
  fuzz::SplitMix gen{in.u32()};
  s.terms.resize(s.n * s.p);
  for (double& t : s.terms) t = static_cast<double>(gen.next() % 41) / 4.0;
  for (int d = 0; d < nd; ++d) {
    std::vector<double> M(s.S * s.S);
    const unsigned zero_diagonal = in.byte() & 1U;  // a distance, or any symmetric matrix
    for (std::size_t a = 0; a < s.S; ++a) {
      for (std::size_t b = 0; b <= a; ++b) {
        const double v = (a == b && zero_diagonal) ? 0.0 : static_cast<double>(gen.next() % 17) / 8.0;
        M[a * s.S + b] = M[b * s.S + a] = v;
      }
    }
    s.D.push_back(M);
  }
  return s;
}

void check_replicates(const Summaries& s, const mla::AlphaBootInput& in, std::uint64_t seed,
                      std::size_t n_rep, int s0, int s1, int threads) {
  std::vector<int> order(s.n), start{0, static_cast<int>(s.n)};
  for (std::size_t i = 0; i < s.n; ++i) order[i] = static_cast<int>(i);
  mla::UnitDesign u;
  u.n_items = u.n_units = s.n;
  u.order = order.data();
  u.start = start.data();
  u.n_strata = 1;
  const std::size_t row0 = mla::block_begin(s0, n_rep), rows = mla::block_begin(s1, n_rep) - row0;
  const std::size_t nd = s.D.size();
  std::vector<double> sums(rows * s.p, -1.0), quad(rows * nd, -1.0);
  fuzz::expect(mla::alpha_boot(in, u, seed, n_rep, s0, s1, threads, sums.data(), quad.data()),
               "alpha_boot succeeds");
  std::vector<int> w(s.n * n_rep);
  mla::boot_draws(0, u, 0, seed, n_rep, w.data(), nullptr);
  for (std::size_t r = 0; r < rows; ++r) {
    const int* wr = w.data() + (row0 + r) * s.n;
    for (std::size_t j = 0; j < s.p; ++j) {
      double want = 0.0;
      for (std::size_t i = 0; i < s.n; ++i) want += wr[i] * s.terms[j * s.n + i];
      fuzz::expect_near(sums[j * rows + r], want, "replicate item sum");
    }
    std::vector<double> n_s(s.S, 0.0);
    for (std::size_t i = 0; i < s.n && nd > 0; ++i) {
      for (std::size_t e = s.sets.start[i]; e < s.sets.start[i + 1]; ++e)
        n_s[static_cast<std::size_t>(s.sets.set[e])] += wr[i] * s.sets.count[e];
    }
    for (std::size_t d = 0; d < nd; ++d) {
      double want = 0.0;
      for (std::size_t a = 0; a < s.S; ++a) {
        for (std::size_t b = 0; b < s.S; ++b) want += n_s[a] * n_s[b] * s.D[d][a * s.S + b];
      }
      fuzz::expect_near(quad[d * rows + r], want, "replicate quadratic form");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Bytes in(data, size);
  const std::uint64_t seed = (static_cast<std::uint64_t>(in.u32()) << 32) | in.u32();
  const std::size_t n_rep = static_cast<std::size_t>(in.range(1, 1200));
  int s0 = in.range(0, mla::kStreams), s1 = in.range(0, mla::kStreams);
  if (s0 > s1) std::swap(s0, s1);
  const int threads = in.threads();
  const Summaries s = decode_summaries(in);
  mla::AlphaBootInput a;
  a.n_items = s.n;
  a.n_terms = s.p;
  a.terms = s.terms.data();
  a.n_sets = s.S;
  for (const auto& M : s.D) a.D.push_back(M.data());
  if (!a.D.empty()) a.sets = &s.sets;
  check_replicates(s, a, seed, n_rep, s0, s1, threads);
  return 0;
}
