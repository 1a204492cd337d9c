// Label substitution: for every item and every ordered pair of different
// annotators (records) of it, how often the first selected label j while the
// second selected label l. Per item with record vectors v_r and sum s,
//   sum_{r != q} v_r v_q' = s s' - sum_r v_r v_r',
// so over the corpus the table is X'X - V'V, X the items x labels positive
// counts and V the records x labels 0/1 values (missing decisions count as
// not selected: a pair counts only decisions both annotators made).
// X'X is one dense product (Armadillo); V'V is summed record by record over
// the selected labels only.
// Pure C++: no R headers (the glue includes RcppArmadillo.h first).
#ifndef MLAGREEMENT_SUBSTITUTION_H
#define MLAGREEMENT_SUBSTITUTION_H

#include <armadillo>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace mlagreement {

// A records x labels column-major view; item: 0-based item of each record.
template <typename T, typename Positive>
arma::mat label_substitution(const T* values, std::size_t n_records, std::size_t k,
                             const int* item, std::size_t n_items, Positive positive) {
  arma::mat X(n_items, k, arma::fill::zeros);
  arma::mat self(k, k, arma::fill::zeros);
  std::vector<arma::uword> chosen;
  chosen.reserve(k);
  for (std::size_t r = 0; r < n_records; ++r) {
    chosen.clear();
    for (std::size_t j = 0; j < k; ++j) {
      if (positive(values[r + j * n_records])) chosen.push_back(j);
    }
    const arma::uword u = static_cast<arma::uword>(item[r]);
    for (const arma::uword j : chosen) {
      X(u, j) += 1.0;
      for (const arma::uword l : chosen) self(j, l) += 1.0;
    }
  }
  return X.t() * X - self;
}

}  // namespace mlagreement

#endif
