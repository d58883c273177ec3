#include "step/chain_matrix.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace pivot {

ChainMatrix::ChainMatrix(uint32_t elements, uint32_t node_nv)
    : node_nv_(node_nv), n_((elements + 1) * node_nv) {
    cholmod_start(&common_);
    common_.print = 0;
    common_.nmethods = 1;
    common_.method[0].ordering = CHOLMOD_NATURAL;  // banded: no fill outside the band
    common_.postorder = 0;
    common_.supernodal = CHOLMOD_SIMPLICIAL;
    common_.final_ll = 0;  // LDL^T
    // Column j (node j / node_nv) reaches up to the previous node's first row.
    size_t nnz = 0;
    row_start_.resize(n_);
    for (uint32_t j = 0; j < n_; ++j) {
        const uint32_t node = j / node_nv_;
        row_start_[j] = static_cast<int32_t>(node > 0 ? (node - 1) * node_nv_ : 0);
        nnz += j - row_start_[j] + 1;
    }
    matrix_ = cholmod_allocate_sparse(n_, n_, nnz, 1, 1, 1, CHOLMOD_REAL, &common_);
    if (matrix_ == nullptr) {
        release();
        throw Error("CHOLMOD: cannot allocate a cable's matrix");
    }
    auto* p = static_cast<int*>(matrix_->p);
    auto* i = static_cast<int*>(matrix_->i);
    p[0] = 0;
    for (uint32_t j = 0; j < n_; ++j) {
        int at = p[j];
        for (int r = row_start_[j]; r <= static_cast<int>(j); ++r) i[at++] = r;
        p[j + 1] = at;
    }
    clear();
    factor_ = cholmod_analyze(matrix_, &common_);
    // solve() reads the factor itself: it must be what the settings above
    // ask for (simplicial, LDL^T, natural ordering, int indices, real).
    if (factor_ == nullptr || factor_->is_super || factor_->ordering != CHOLMOD_NATURAL ||
        factor_->itype != CHOLMOD_INT || factor_->xtype != CHOLMOD_PATTERN) {
        release();
        throw Error("CHOLMOD: the analysis of a cable's matrix failed or did not keep the natural ordering");
    }
}

ChainMatrix::~ChainMatrix() { release(); }

void ChainMatrix::release() {
    if (factor_ != nullptr) cholmod_free_factor(&factor_, &common_);
    if (matrix_ != nullptr) cholmod_free_sparse(&matrix_, &common_);
    cholmod_finish(&common_);
}

void ChainMatrix::clear() {
    std::fill_n(static_cast<double*>(matrix_->x), static_cast<int*>(matrix_->p)[n_], 0.0);
}

void ChainMatrix::add_element(uint32_t element, const double* block) {
    const uint32_t nv = 2 * node_nv_, base = element * node_nv_;
    const auto* p = static_cast<const int*>(matrix_->p);
    auto* x = static_cast<double*>(matrix_->x);
    for (uint32_t b = 0; b < nv; ++b) {
        const uint32_t j = base + b;
        double* column = x + p[j] - row_start_[j];  // indexed by row
        for (uint32_t a = 0; a <= b; ++a) column[base + a] += block[a + b * nv];
    }
}

bool ChainMatrix::factorize() {
    cholmod_factorize(matrix_, factor_, &common_);
    if (common_.status != CHOLMOD_OK || factor_->minor != n_ || factor_->is_super || factor_->is_ll ||
        factor_->xtype != CHOLMOD_REAL) {
        return false;
    }
    // LDL^T reports only zero pivots: a negative one (an indefinite matrix,
    // e.g. a plugin's wrong-signed mass) is checked here.
    const auto* p = static_cast<const int*>(factor_->p);
    const auto* d = static_cast<const double*>(factor_->x);
    for (uint32_t j = 0; j < n_; ++j) {
        if (!(d[p[j]] > 0.0)) return false;
    }
    return true;
}

void ChainMatrix::solve(double* x, uint32_t first) const {
    // L D L^T x = b with the simplicial factor: column j holds D_jj first,
    // then the entries of L below the diagonal (natural ordering: no
    // permutation).
    const auto* p = static_cast<const int*>(factor_->p);
    const auto* nz = static_cast<const int*>(factor_->nz);
    const auto* i = static_cast<const int*>(factor_->i);
    const auto* l = static_cast<const double*>(factor_->x);
    for (uint32_t j = first; j < n_; ++j) {
        const double xj = x[j];
        if (xj == 0.0) continue;
        for (int k = p[j] + 1; k < p[j] + nz[j]; ++k) x[i[k]] -= l[k] * xj;
    }
    for (uint32_t j = first; j < n_; ++j) x[j] /= l[p[j]];
    for (uint32_t j = n_; j-- > 0;) {
        double xj = x[j];
        for (int k = p[j] + 1; k < p[j] + nz[j]; ++k) xj -= l[k] * x[i[k]];
        x[j] = xj;
    }
}

}  // namespace pivot
