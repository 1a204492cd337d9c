// Fuzz target 3: subset counting and Krippendorff's alpha with set distances
// (set_alpha.h, set_expected.h, set_sparse.h, set_moments.h, set_custom.h,
// set_postings.h). Every expected-disagreement method (pairs, sparse and
// hashed counting, run directly, and the automatic choice), the counting
// ones in 64- and 128-bit sums, with the built-in Jaccard and MASI
// distances and two tabulated user distances, and the postings method
// (built-in distances only), against brute-force sums over
// all pairs of values of a small design (relative tolerance 1e-9). Some
// designs have items of more than 64 records (the observed part then sums
// over each item's distinct sets).
#include <algorithm>
#include <climits>
#include <cstdint>
#include <iterator>
#include <vector>

#include "fuzz_common.h"
#include "mlagreement/set_alpha.h"
#include "mlagreement/set_build.h"

namespace mla = mlagreement;

namespace {

using LabelSet = std::vector<int>;

// Set similarities from their definitions (sets.h documents the same).
double jaccard(const LabelSet& a, const LabelSet& b, int i) {
  const int u = static_cast<int>(a.size() + b.size()) - i;
  return u == 0 ? 1.0 : static_cast<double>(i) / u;
}
double masi(const LabelSet& a, const LabelSet& b, int i) {
  if (a == b) return 1.0;
  if (i == 0) return 0.0;
  const double jac = jaccard(a, b, i);
  const bool nested = i == static_cast<int>(a.size()) || i == static_cast<int>(b.size());
  return nested ? jac * 2.0 / 3.0 : jac / 3.0;
}
int intersection(const LabelSet& a, const LabelSet& b) {
  LabelSet both;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
  return static_cast<int>(both.size());
}

struct Reference {
  double oj = 0, om = 0, ej = 0, em = 0, sj = 0, sm = 0;
  std::vector<double> oc, ec;
  bool any = false;
  double subset_updates = 0;  // sum over distinct sets of 2^|s|
};

// The pairable values (complete records of items with at least two) item by
// item, and the sums over all their pairs.
Reference brute_force(const fuzz::Design& d, const mla::SizeDistances& custom) {
  std::vector<std::vector<LabelSet>> items(static_cast<std::size_t>(d.N));
  for (std::size_t r = 0; r < d.n_records(); ++r) {
    if (d.at(r, 0) == fuzz::kNA) continue;
    LabelSet s;
    for (int j = 0; j < d.K; ++j) {
      if (d.at(r, j) == 1) s.push_back(j);
    }
    items[static_cast<std::size_t>(d.item[r])].push_back(s);
  }
  Reference ref;
  ref.oc.assign(custom.n, 0.0);
  ref.ec.assign(custom.n, 0.0);
  std::vector<const LabelSet*> all;
  double G = 0;
  for (const auto& vals : items) {
    if (vals.size() < 2) continue;
    G += 1;
    const double m = static_cast<double>(vals.size());
    double dj = 0, dm = 0, simj = 0, simm = 0;
    std::vector<double> dc(custom.n, 0.0);
    for (std::size_t r = 0; r < vals.size(); ++r) {
      all.push_back(&vals[r]);
      for (std::size_t q = 0; q < vals.size(); ++q) {
        if (q == r) continue;
        const int i = intersection(vals[r], vals[q]);
        const double jac = jaccard(vals[r], vals[q], i), mas = masi(vals[r], vals[q], i);
        dj += 1 - jac;
        dm += 1 - mas;
        simj += jac;
        simm += mas;
        for (std::size_t t = 0; t < custom.n; ++t) {
          dc[t] += custom.value(t, static_cast<int>(vals[r].size()), static_cast<int>(vals[q].size()), i);
        }
      }
    }
    ref.oj += dj / (m - 1);
    ref.om += dm / (m - 1);
    for (std::size_t t = 0; t < custom.n; ++t) ref.oc[t] += dc[t] / (m - 1);
    ref.sj += simj / (m * (m - 1));
    ref.sm += simm / (m * (m - 1));
  }
  const double n = static_cast<double>(all.size());
  if (G == 0) return ref;
  std::vector<LabelSet> distinct;
  for (const LabelSet* v : all) distinct.push_back(*v);
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  for (const LabelSet& v : distinct) ref.subset_updates += std::ldexp(1.0, static_cast<int>(v.size()));
  ref.any = true;
  for (std::size_t r = 0; r < all.size(); ++r) {
    for (std::size_t q = 0; q < all.size(); ++q) {
      if (q == r) continue;
      const LabelSet &a = *all[r], &b = *all[q];
      const int i = intersection(a, b);
      ref.ej += 1 - jaccard(a, b, i);
      ref.em += 1 - masi(a, b, i);
      for (std::size_t t = 0; t < custom.n; ++t) {
        ref.ec[t] += custom.value(t, static_cast<int>(a.size()), static_cast<int>(b.size()), i);
      }
    }
  }
  ref.oj /= n;
  ref.om /= n;
  ref.ej /= n * (n - 1);
  ref.em /= n * (n - 1);
  ref.sj /= G;
  ref.sm /= G;
  for (double& v : ref.oc) v /= n;
  for (double& v : ref.ec) v /= n * (n - 1);
  return ref;
}

// Two user distances over sizes 0..K: |A| + |B| - 2|A n B| (the Hamming
// distance) and one from the bytes, symmetric in the sizes and 0 for
// identical sets (a = b = i), as the R side requires of a distance.
mla::SizeDistances user_distances(fuzz::Bytes& in, int K) {
  mla::SizeDistances c;
  c.K1 = static_cast<std::size_t>(K) + 1;
  c.n = 2;
  c.d.assign(c.n * c.cells(), 0.0);
  for (int a = 0; a <= K; ++a) {
    for (int b = a; b <= K; ++b) {
      for (int i = 0; i <= a; ++i) {
        const double ham = a + b - 2 * i;
        const double own = (a == b && i == a) ? 0.0 : in.byte() / 64.0;
        c.d[c.at(a, b, i)] = c.d[c.at(b, a, i)] = ham;
        c.d[c.cells() + c.at(a, b, i)] = c.d[c.cells() + c.at(b, a, i)] = own;
      }
    }
  }
  return c;
}

void check_observed(const mla::SetAlpha& got, const Reference& ref) {
  fuzz::expect(!got.failed, "set_alpha failed");
  fuzz::expect_near(got.observed_jaccard, ref.oj, "observed jaccard");
  fuzz::expect_near(got.observed_masi, ref.om, "observed masi");
  fuzz::expect_near(got.similarity_jaccard, ref.sj, "similarity jaccard");
  fuzz::expect_near(got.similarity_masi, ref.sm, "similarity masi");
  fuzz::expect(got.observed_custom.size() == ref.oc.size(), "custom tables");
  for (std::size_t t = 0; t < ref.oc.size(); ++t) fuzz::expect_near(got.observed_custom[t], ref.oc[t], "observed custom");
}

void check_expected(double ej, double em, const std::vector<double>& ec, const Reference& ref) {
  fuzz::expect_near(ej, ref.ej, "expected jaccard");
  fuzz::expect_near(em, ref.em, "expected masi");
  fuzz::expect(ec.size() == ref.ec.size(), "custom expected tables");
  for (std::size_t t = 0; t < ref.ec.size(); ++t) fuzz::expect_near(ec[t], ref.ec[t], "expected custom");
}

void check_alpha(const mla::SetAlpha& got, const Reference& ref, bool with_expected) {
  check_observed(got, ref);
  if (!with_expected) return;
  fuzz::expect(got.method != mla::ExpectedMethod::none, "method reported");
  check_expected(got.expected_jaccard, got.expected_masi, got.expected_custom, ref);
}

using M = mla::ExpectedMethod;

// D_e by one method of set_expected.h, run directly (the counting ones in
// 64- or 128-bit sums), checked against ref (without user distances when
// custom is null); false when the method does not take the design (or
// hashed counting gave up).
bool expected_by(M method, bool wide, const mla::SetData& s, const mla::SizeDistances* custom,
                 int threads, const Reference& ref) {
  namespace dt = mla::detail;
  int max_size = 0;
  for (int a : s.size) max_size = std::max(max_size, a);
  const mla::SimTable sim(max_size);
  const dt::CompactSets c = dt::compact_sets(s);
  double ej = 0, em = 0;
  std::vector<double> ec;
  if (method == M::pairs) {
    dt::expected_by_pairs(s, sim, custom, threads, ej, em, ec);
  } else if (method == M::postings) {
    dt::expected_by_postings(s, sim, threads, ej, em);
  } else {
    if (c.k > (method == M::sparse ? dt::kMaxSubsetLabels : 64) || c.max_size > dt::kMaxSubsetLabels) return false;
    dt::PairHistogram h;
    const int status = wide ? dt::histogram_by<mla::U128>(method, s, c, threads, h)
                            : dt::histogram_by<std::uint64_t>(method, s, c, threads, h);
    if (status < 0) return false;
    fuzz::expect(status == 1, "subset counting failed");
    dt::expected_from_histogram(h, c, custom, ej, em, ec);
  }
  const double n = static_cast<double>(s.n_values());
  for (double* v : {&ej, &em}) *v /= n * (n - 1);
  for (double& v : ec) v /= n * (n - 1);
  check_expected(ej, em, ec, ref);
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Bytes in(data, size);
  fuzz::DesignLimits lim;
  lim.whole_records = true;  // partly missing records are set_build's error case
  switch (in.range(0, 7)) {
    case 0: lim.max_labels = 24; break;  // more labels in use than sparse counting takes
    case 1: lim.max_labels = 70; break;  // two words per set
    case 2: lim.max_items = 60; lim.max_annotators = 12; break;  // more distinct sets
    case 3:  // items of more than 64 records, few labels: repeated sets
      lim.max_items = 3; lim.min_annotators = 65; lim.max_annotators = 90; lim.max_labels = 4; break;
    case 4:  // items of more than 64 records over two words
      lim.max_items = 2; lim.min_annotators = 65; lim.max_annotators = 80; lim.max_labels = 70; break;
    default: break;
  }
  const bool real = in.flag();
  const fuzz::Design d = fuzz::decode_design(in, lim);
  const mla::SizeDistances custom = user_distances(in, d.K);
  const int threads = in.threads();
  mla::SetData s;
  const std::size_t N = static_cast<std::size_t>(d.N), A = static_cast<std::size_t>(d.A);
  std::vector<int> iv;
  std::vector<double> rv;
  if (real) {
    rv = fuzz::real_values(d, 0);
    const mla::RecordView<double> v{rv.data(), d.n_records(), static_cast<std::size_t>(d.K),
                                    d.dense ? nullptr : d.item.data(), N, d.dense ? nullptr : d.annotator.data(), A};
    mla::build_sets(v, mla::SetRealCodes{}, s, false);
  } else {
    iv = fuzz::int_values(d, 0);
    const mla::RecordView<int> v{iv.data(), d.n_records(), static_cast<std::size_t>(d.K),
                                 d.dense ? nullptr : d.item.data(), N, d.dense ? nullptr : d.annotator.data(), A};
    mla::build_sets(v, mla::SetIntCodes{INT_MIN}, s, false);
  }
  fuzz::expect(s.bad_record < 0, "whole records only");
  const Reference ref = brute_force(d, custom);
  if (!ref.any) {
    fuzz::expect(s.n_items() == 0, "no pairable item");
    return 0;
  }
  // subset counting visits 2^|s| subsets per distinct set (hashed counting
  // gives up on too many only after visiting them)
  const bool counting = ref.subset_updates <= 262144.0;
  expected_by(M::pairs, false, s, &custom, threads, ref);
  for (M method : {M::sparse, M::hashed}) {
    for (int wide = 0; counting && wide < 2; ++wide) expected_by(method, wide == 1, s, &custom, threads, ref);
  }
  check_alpha(mla::set_alpha(s, true, threads, &custom), ref, true);
  // without user distances: postings (run directly, or chosen for > 64 labels)
  Reference builtin = ref;
  builtin.oc.clear();
  builtin.ec.clear();
  expected_by(M::postings, false, s, nullptr, threads, builtin);
  check_alpha(mla::set_alpha(s, true, threads, nullptr), builtin, true);
  check_alpha(mla::set_alpha(s, false, threads, nullptr), builtin, false);
  return 0;
}
