// Label substitution: over items and ordered pairs of different records of
// an item, how often the first selected label j while the second selected
// l, as X'X - V'V. The glue includes RcppArmadillo.h first.
// See DESIGN.md, Algorithms: Annotator pairs.
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
