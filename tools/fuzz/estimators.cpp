// Fuzz target 5: the estimator kernel (estimators.h).
// Label summaries, coefficients, eq. 7 floors, reasons, eq. 6 weights, the
// corpus summary and Krippendorff's alpha with Hamming distance, from the
// label tables (integer and double counts) of a decoded design, against a
// naive computation over the pairs of decisions of each item; the floor's
// greedy maximum against an exact dynamic programme over the items.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "fuzz_common.h"
#include "mlagreement/estimators.h"

namespace mla = mlagreement;

namespace {

// The decisions of one label, item by item.
std::vector<std::vector<int>> decisions_of(const fuzz::Design& d, int j) {
  std::vector<std::vector<int>> out(static_cast<std::size_t>(d.N));
  for (std::size_t r = 0; r < d.n_records(); ++r) {
    const int v = d.at(r, j);
    if (v != fuzz::kNA) out[static_cast<std::size_t>(d.item[r])].push_back(v);
  }
  return out;
}

struct NaiveLabel {
  double n_rated = 0, n_pairable = 0, decisions = 0, positives = 0;
  double p = mla::kNA, d_obs = mla::kNA, d_max = mla::kNA;
  double pos_num = 0, pos_den = 0, neg_num = 0, neg_den = 0;
  double alpha_n = 0, alpha_do = 0, alpha_de = 0;  // Krippendorff, Hamming, this label
};

// Largest sum over pairable items of 2x(m - x)/(m(m - 1)) with sum x = P
// over the rated items, by dynamic programming over items and totals.
double max_disagreement(const std::vector<std::vector<int>>& items, int P) {
  const double none = -1.0;
  std::vector<double> best(static_cast<std::size_t>(P) + 1, none);
  best[0] = 0;
  for (const auto& v : items) {
    const int m = static_cast<int>(v.size());
    if (m == 0) continue;
    std::vector<double> next(best.size(), none);
    for (int t = 0; t <= P; ++t) {
      if (best[static_cast<std::size_t>(t)] < 0) continue;
      for (int x = 0; x <= m && t + x <= P; ++x) {
        const double gain = m >= 2 ? 2.0 * x * (m - x) / (m * (m - 1.0)) : 0.0;
        double& cell = next[static_cast<std::size_t>(t + x)];
        cell = std::max(cell, best[static_cast<std::size_t>(t)] + gain);
      }
    }
    best.swap(next);
  }
  return best[static_cast<std::size_t>(P)];
}

NaiveLabel naive_label(const fuzz::Design& d, int j) {
  const auto items = decisions_of(d, j);
  NaiveLabel s;
  double p_sum = 0, d_sum = 0;
  std::vector<int> pooled;  // pairable values, for Krippendorff's expected part
  for (const auto& v : items) {
    const double m = static_cast<double>(v.size());
    if (v.empty()) continue;
    double x = 0;
    for (int val : v) x += val;
    s.n_rated += 1;
    s.decisions += m;
    s.positives += x;
    p_sum += x / m;
    if (v.size() < 2) continue;
    s.n_pairable += 1;
    double disagree = 0, both_pos = 0, first_pos = 0, both_neg = 0, first_neg = 0;
    for (std::size_t r = 0; r < v.size(); ++r) {
      pooled.push_back(v[r]);
      for (std::size_t q = 0; q < v.size(); ++q) {
        if (q == r) continue;
        disagree += v[r] != v[q] ? 1 : 0;
        first_pos += v[r] == 1 ? 1 : 0;
        both_pos += v[r] == 1 && v[q] == 1 ? 1 : 0;
        first_neg += v[r] == 0 ? 1 : 0;
        both_neg += v[r] == 0 && v[q] == 0 ? 1 : 0;
      }
    }
    d_sum += disagree / (m * (m - 1));
    s.pos_num += both_pos;
    s.pos_den += first_pos;
    s.neg_num += both_neg;
    s.neg_den += first_neg;
    s.alpha_do += disagree / (m - 1);
  }
  if (s.n_rated > 0) s.p = p_sum / s.n_rated;
  if (s.n_pairable > 0) {
    s.d_obs = d_sum / s.n_pairable;
    s.d_max = max_disagreement(items, static_cast<int>(s.positives)) / s.n_pairable;
  }
  s.alpha_n = static_cast<double>(pooled.size());
  if (s.alpha_n > 0) {
    s.alpha_do /= s.alpha_n;
    double dis = 0;
    for (std::size_t r = 0; r < pooled.size(); ++r) {
      for (std::size_t q = 0; q < pooled.size(); ++q) dis += q != r && pooled[r] != pooled[q] ? 1 : 0;
    }
    s.alpha_de = s.alpha_n > 1 ? dis / (s.alpha_n * (s.alpha_n - 1)) : 0;
  }
  return s;
}

double chance(const NaiveLabel& s, int b) {
  const double p = s.p, q = 1 - s.p;
  return b == mla::kFleiss ? 2 * p * q : b == mla::kAc1 ? p * p + q * q : 0.5;
}
double one_minus_ratio(double num, double den) { return den > 0 ? 1 - num / den : mla::kNA; }

template <typename Count>
void check_kernel(const fuzz::Design& d) {
  const fuzz::NaiveCounts nc = fuzz::naive_counts(d);
  const std::size_t N = static_cast<std::size_t>(d.N), k = static_cast<std::size_t>(d.K);
  const std::size_t mm = static_cast<std::size_t>(std::max(nc.max_m, 1));
  mla::CountTable<Count> t;
  t.reset(k, mm);
  for (std::size_t j = 0; j < k; ++j) {
    for (std::size_t i = 0; i < N; ++i) {
      const int x = nc.x[j * N + i], m = nc.m[j * N + i];
      if (m == 0) continue;
      const std::size_t slot = j * mm + static_cast<std::size_t>(m - 1);
      t.cnt[slot] += 1;
      t.sx[slot] += x;
      t.sdis[slot] += static_cast<Count>(x * (m - x));
    }
  }
  std::vector<mla::LabelSummary> ls(k);
  std::vector<NaiveLabel> ref(k);
  double d_total = 0, dmax_total = 0, w_total[3] = {0, 0, 0}, used = 0;
  double a_obs = 0, a_exp = 0, a_used = 0;
  for (std::size_t j = 0; j < k; ++j) {
    ls[j] = mla::summarise_label(t, j, true);
    const NaiveLabel& s = ref[j] = naive_label(d, static_cast<int>(j));
    fuzz::expect_eq(ls[j].n_rated, s.n_rated, "n_rated");
    fuzz::expect_eq(ls[j].n_pairable, s.n_pairable, "n_pairable");
    fuzz::expect_eq(ls[j].decisions, s.decisions, "decisions");
    fuzz::expect_eq(ls[j].positives, s.positives, "positives");
    fuzz::expect_near(ls[j].p, s.p, "p");
    fuzz::expect_near(ls[j].q, s.n_rated > 0 ? 1 - s.p : mla::kNA, "q");
    fuzz::expect_near(ls[j].d_obs, s.d_obs, "d_obs");
    fuzz::expect_near(ls[j].d_max, s.d_max, "d_max (eq. 7 floor)");
    fuzz::expect_eq(ls[j].pos_num, s.pos_num, "pos_num");
    fuzz::expect_eq(ls[j].pos_den, s.pos_den, "pos_den");
    fuzz::expect_eq(ls[j].neg_num, s.neg_num, "neg_num");
    fuzz::expect_eq(ls[j].neg_den, s.neg_den, "neg_den");
    for (int b = 0; b < mla::kBaselines; ++b) {
      const bool pairable = s.n_pairable > 0;
      fuzz::expect_near(mla::label_coefficient(ls[j], b), pairable ? one_minus_ratio(s.d_obs, chance(s, b)) : mla::kNA,
                        "label coefficient");
      fuzz::expect_near(mla::label_floor(ls[j], b), pairable ? one_minus_ratio(s.d_max, chance(s, b)) : mla::kNA,
                        "label floor");
      const int reason = s.n_rated == 0 ? mla::kNotRated
                         : !pairable    ? mla::kNotPairable
                         : chance(s, b) == 0 ? mla::kConstantLabel : mla::kDefined;
      fuzz::expect_eq(mla::label_reason(ls[j], b), reason, "label reason");
    }
    if (s.n_pairable > 0) {
      used += 1;
      d_total += s.d_obs;
      dmax_total += s.d_max;
      for (int b = 0; b < 3; ++b) w_total[b] += chance(s, b);
    }
    if (s.alpha_n > 0) {
      a_used += 1;
      a_obs += s.alpha_do;
      a_exp += s.alpha_de;
    }
  }
  const mla::CorpusSummary c = mla::summarise_corpus(ls);
  fuzz::expect_eq(c.n_labels_used, used, "labels used");
  fuzz::expect_near(c.d_obs, used > 0 ? d_total / used : mla::kNA, "corpus d_obs");
  fuzz::expect_near(c.d_max, used > 0 ? dmax_total / used : mla::kNA, "corpus d_max");
  for (int b = 0; b < 3; ++b) {
    fuzz::expect_near(c.w[b], used > 0 ? w_total[b] / used : mla::kNA, "corpus chance disagreement");
    fuzz::expect_near(c.estimate[b], used > 0 ? one_minus_ratio(d_total, w_total[b]) : mla::kNA, "corpus estimate");
    fuzz::expect_near(c.floor[b], used > 0 ? one_minus_ratio(dmax_total, w_total[b]) : mla::kNA, "corpus floor");
    fuzz::expect_eq(c.reason[b], used > 0 && !(w_total[b] > 0) ? mla::kAllConstant : mla::kDefined, "corpus reason");
    const std::vector<double> wt = mla::label_weights(ls, b);
    for (std::size_t j = 0; j < k; ++j) {
      const bool in = ref[j].n_pairable > 0 && w_total[b] > 0;
      fuzz::expect_near(wt[j], in ? chance(ref[j], b) / w_total[b] : mla::kNA, "eq. 6 weight");
    }
  }
  const mla::HammingAlpha ha = mla::hamming_alpha(t);
  fuzz::expect_eq(ha.n_labels_used, a_used, "alpha labels used");
  fuzz::expect_near(ha.observed, a_used > 0 ? a_obs / a_used : mla::kNA, "hamming alpha observed");
  fuzz::expect_near(ha.expected, a_used > 0 ? a_exp / a_used : mla::kNA, "hamming alpha expected");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Bytes in(data, size);
  fuzz::DesignLimits lim;
  const bool weighted = in.flag();
  const fuzz::Design d = fuzz::decode_design(in, lim);
  if (weighted) {
    check_kernel<double>(d);  // LabelTable: the bootstrap's and R's tables
  } else {
    check_kernel<std::int64_t>(d);  // IntTable: the counting pass's
  }
  return 0;
}
