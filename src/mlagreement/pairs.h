// Pairwise annotator statistics over the items two annotators share.
//
// One pass over the items: the records of each item (only records with at
// least one decision) are visited pair by pair, and for every pair of
// annotators (a < b) and label j four counts are accumulated:
//   n2   items where both decided on j (pairable),
//   dis  of those, items where they disagree,
//   n1   items where at least one of the two decided on j (rated),
//   psum 2 * x / m summed over the rated items (x positives, m decisions),
// plus the number of items the pair shares. Only pairs that share an item are
// ever created, so sparse designs cost sum_i m_i^2 k, never n_annotators^2.
// Per annotator: positive decisions, decisions and non-empty records.
// Pure C++: no R headers.
#ifndef MLAGREEMENT_PAIRS_H
#define MLAGREEMENT_PAIRS_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "counts.h"

namespace mlagreement {

struct PairResult {
  std::size_t n_labels = 0;
  std::vector<int> a, b;            // 0-based annotators, a < b
  std::vector<double> n_items;      // shared items per pair
  std::vector<double> n2, dis, n1, psum;  // pair-major: pair * n_labels + j
  std::vector<double> ann_positives, ann_decisions, ann_items;
};

template <typename T, typename Codes>
void pair_sums(const RecordView<T>& v, const Codes& codes, PairResult& out) {
  const std::size_t k = v.n_labels;
  const std::size_t n_rec = v.n_records;
  out.n_labels = k;
  out.ann_positives.assign(v.n_annotators, 0.0);
  out.ann_decisions.assign(v.n_annotators, 0.0);
  out.ann_items.assign(v.n_annotators, 0.0);

  // Non-empty records, counted per item (counting sort by item).
  std::vector<std::size_t> start(v.n_items + 1, 0);
  std::vector<unsigned char> keep(n_rec, 0);
  for (std::size_t r = 0; r < n_rec; ++r) {
    const std::size_t c = v.annotator_of(r);
    double pos = 0, dec = 0;
    for (std::size_t j = 0; j < k; ++j) {
      const T val = v.values[j * n_rec + r];
      if (codes.is_na(val)) continue;
      dec += 1;
      pos += codes.positive(val);
    }
    if (dec == 0) continue;
    keep[r] = 1;
    out.ann_positives[c] += pos;
    out.ann_decisions[c] += dec;
    out.ann_items[c] += 1;
    ++start[v.item_of(r) + 1];
  }
  for (std::size_t i = 0; i < v.n_items; ++i) start[i + 1] += start[i];
  std::vector<std::size_t> fill(start.begin(), start.end() - 1);
  std::vector<std::size_t> order(start[v.n_items]);
  for (std::size_t r = 0; r < n_rec; ++r) {
    if (keep[r]) order[fill[v.item_of(r)]++] = r;
  }

  std::unordered_map<std::uint64_t, std::size_t> index;
  const std::uint64_t n_ann = v.n_annotators;
  for (std::size_t i = 0; i < v.n_items; ++i) {
    std::size_t* first = order.data() + start[i];
    std::size_t* last = order.data() + start[i + 1];
    std::sort(first, last, [&v](std::size_t r, std::size_t s) {
      return v.annotator_of(r) < v.annotator_of(s);
    });
    for (std::size_t* p = first; p < last; ++p) {
      const std::size_t r = *p;
      const std::uint64_t ar = v.annotator_of(r);
      for (std::size_t* q = p + 1; q < last; ++q) {
        const std::size_t s = *q;
        const std::uint64_t as = v.annotator_of(s);
        if (as == ar) continue;  // cannot happen: one record per (item, annotator)
        const std::uint64_t key = ar * n_ann + as;
        auto found = index.find(key);
        std::size_t pid;
        if (found == index.end()) {
          pid = out.a.size();
          index.emplace(key, pid);
          out.a.push_back(static_cast<int>(ar));
          out.b.push_back(static_cast<int>(as));
          out.n_items.push_back(0.0);
          out.n2.resize(out.n2.size() + k, 0.0);
          out.dis.resize(out.dis.size() + k, 0.0);
          out.n1.resize(out.n1.size() + k, 0.0);
          out.psum.resize(out.psum.size() + k, 0.0);
        } else {
          pid = found->second;
        }
        out.n_items[pid] += 1;
        double* n2 = out.n2.data() + pid * k;
        double* dis = out.dis.data() + pid * k;
        double* n1 = out.n1.data() + pid * k;
        double* psum = out.psum.data() + pid * k;
        for (std::size_t j = 0; j < k; ++j) {
          const T vr = v.values[j * n_rec + r];
          const T vs = v.values[j * n_rec + s];
          const bool nr = codes.is_na(vr), ns = codes.is_na(vs);
          if (nr && ns) continue;
          n1[j] += 1;
          if (!nr && !ns) {
            const int xr = codes.positive(vr), xs = codes.positive(vs);
            n2[j] += 1;
            dis[j] += (xr != xs);
            psum[j] += xr + xs;
          } else {
            psum[j] += 2 * (nr ? codes.positive(vs) : codes.positive(vr));
          }
        }
      }
    }
  }
}

}  // namespace mlagreement

#endif
