#include "boxed_to_standard.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pivot::lemke {

namespace {

using Matrix = Eigen::Map<Eigen::MatrixXd, 0, Eigen::OuterStride<>>;
using ConstMatrix = Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>>;
using Vector = Eigen::Map<Eigen::VectorXd>;
using ConstVector = Eigen::Map<const Eigen::VectorXd>;

// A_FF counts as singular (and the free rows are doubled instead of
// eliminated) when an LU pivot is below this fraction of its column: beyond
// a condition number of about 1e10 the eliminated x_F would lose more than
// six of its sixteen digits to the elimination.
constexpr double kFreeBlockSingular = 1e-10;

// Rank-revealing elimination of a singular A_FF: a free row whose Schur
// pivot is at most this fraction of its A_ii depends on the rows eliminated
// before it (the Dantzig solver's default singular_pivot_ratio). Rows of
// redundant joints reach about 1e-16 A_ii; independent rows of a
// well-posed block stay far above.
constexpr double kFreeRowDependent = 1e-10;

}  // namespace

void BoxedToStandard::reserve(Index n) {
    capacity_ = std::max<Index>(n, 1);
    const auto c = static_cast<size_t>(capacity_);
    kind_.assign(c, RowKind::lower);
    kept_rows_.assign(c, 0);
    free_rows_.assign(c, 0);
    rhs_.assign(c, 0.0);
    kept_rhs_.assign(c, 0.0);
    offset_.assign(c, 0.0);
    shifted_rhs_.assign(c, 0.0);
    x_kept_.assign(c, 0.0);
    x_free_.assign(c, 0.0);
    free_storage_.resize(c * c);
    free_swaps_.assign(c, 0);
    free_shift_.assign(c, 0.0);
    var_position_.assign(2 * c, 0);
    var_sign_.assign(2 * c, 0);
    primary_of_position_.assign(c, 0);
    m_storage_.resize(4 * c * c);
    q_.assign(2 * c, 0.0);
}

bool BoxedToStandard::eliminate_free_rows(Index f, Index kept, Index ld) {
    const pivot_lcp_problem& p = *p_;
    const ConstMatrix a(p.dense, p.n, p.n, Eigen::OuterStride<>(p.lda));
    double* lu = free_storage_.data();
    for (Index j = 0; j < f; ++j) {
        for (Index i = 0; i < f; ++i) lu[i + j * f] = a(free_rows_[i], free_rows_[j]);
    }
    const LuFactorization factor{lu, free_swaps_.data(), f, f};
    if (!lu_factorize(factor, kFreeBlockSingular)) return false;
    double* gain = lu + f * f;            // G: f x kept
    double* a_nf_storage = gain + f * kept;  // A_NF: kept x f
    // G(:, j) = A_FF^-1 A(F, N_j)
    for (Index j = 0; j < kept; ++j) {
        double* g = gain + j * f;
        for (Index i = 0; i < f; ++i) g[i] = a(free_rows_[i], kept_rows_[j]);
        lu_solve(factor, g);
    }
    // h = A_FF^-1 b_F'
    for (Index i = 0; i < f; ++i) free_shift_[i] = rhs_[free_rows_[i]];
    lu_solve(factor, free_shift_.data());
    for (Index j = 0; j < f; ++j) {
        for (Index i = 0; i < kept; ++i) a_nf_storage[i + j * kept] = a(kept_rows_[i], free_rows_[j]);
    }
    const ConstMatrix a_nf(a_nf_storage, kept, f, Eigen::OuterStride<>(kept));
    // S = A_NN - A_NF G, into the top-left of M (leading dimension ld).
    Matrix s(m_storage_.data(), kept, kept, Eigen::OuterStride<>(ld));
    for (Index j = 0; j < kept; ++j) {
        for (Index i = 0; i < kept; ++i) s(i, j) = a(kept_rows_[i], kept_rows_[j]);
        s.col(j).noalias() -= a_nf * ConstVector(gain + j * f, f);
    }
    // b_N' = b_N - A_NF h
    Vector b_kept(kept_rhs_.data(), kept);
    b_kept.noalias() -= a_nf * ConstVector(free_shift_.data(), f);
    return true;
}

Index BoxedToStandard::drop_dependent_free_rows(Index f) {
    const pivot_lcp_problem& p = *p_;
    const ConstMatrix a(p.dense, p.n, p.n, Eigen::OuterStride<>(p.lda));
    // Rows F of [A_FF A_FN] (f x (f + kept)), reduced in place: after the
    // steps so far, a remaining row holds its Schur complement row against
    // the rows eliminated. M's storage (4 n^2 >= f (f + kept)) is free until
    // the standard LCP is written.
    Index kept = 0;
    for (Index i = 0; i < p.n; ++i) {
        if (kind_[i] != RowKind::fixed && kind_[i] != RowKind::free_row) ++kept;
    }
    const Index cols = f + kept;
    Matrix work(m_storage_.data(), f, cols, Eigen::OuterStride<>(f));
    double max_diag = 0.0;
    for (Index i = 0; i < f; ++i) max_diag = std::max(max_diag, std::abs(a(free_rows_[i], free_rows_[i])));
    // Column j's scale: |A_jj|, floored so that a zero diagonal does not make
    // rounding look significant.
    double* scale = free_shift_.data();  // f + kept <= n entries; h is computed later
    const double floor = std::numeric_limits<double>::epsilon() * max_diag;
    for (Index j = 0; j < cols; ++j) {
        const Index col = j < f ? free_rows_[j] : kept_rows_[j - f];
        scale[j] = std::max(std::abs(a(col, col)), floor);
        for (Index i = 0; i < f; ++i) work(i, j) = a(free_rows_[i], col);
    }
    if (!(max_diag > 0.0) || !std::isfinite(max_diag)) return -1;
    // pivoted[i]: row i of F was a pivot (independent). free_swaps_
    // serves as the flag array (n ints).
    int* pivoted = free_swaps_.data();
    std::fill(pivoted, pivoted + f, 0);
    Index rank = 0;
    for (;;) {
        Index pivot = -1;
        double best = 0.0;
        for (Index i = 0; i < f; ++i) {
            if (pivoted[i] != 0) continue;
            const double d = std::abs(work(i, i));
            if (d > kFreeRowDependent * scale[i] && d > best) {
                best = d;
                pivot = i;
            }
        }
        if (pivot < 0) break;
        pivoted[pivot] = 1;
        ++rank;
        const double pivot_value = work(pivot, pivot);
        for (Index i = 0; i < f; ++i) {
            if (pivoted[i] != 0) continue;
            const double factor = work(i, pivot) / pivot_value;
            if (factor != 0.0) work.row(i) -= factor * work.row(pivot);
        }
    }
    if (rank == f) return f;
    // A dependent row must be dependent on all of its row, on N too (for a
    // symmetric positive semidefinite A that follows from its small pivot):
    // then its w_i no longer depends on x, and b decides whether w_i = 0.
    for (Index i = 0; i < f; ++i) {
        if (pivoted[i] != 0) continue;
        for (Index j = 0; j < cols; ++j) {
            if (j < f && pivoted[j] != 0) continue;  // eliminated columns are zero
            const double bound = std::sqrt(kFreeRowDependent * scale[i] * scale[j]);
            if (!(std::abs(work(i, j)) <= bound)) return -1;
        }
    }
    Index kept_free = 0;
    for (Index i = 0; i < f; ++i) {
        const Index row = free_rows_[i];
        if (pivoted[i] != 0) {
            free_rows_[kept_free++] = row;
        } else {
            kind_[row] = RowKind::dropped_free_row;
        }
    }
    return kept_free;
}

double BoxedToStandard::dropped_row_violation(const double* w, Index* row) const {
    double worst = 0.0;
    Index worst_row = -1;
    if (dropped_free_ > 0) {
        for (Index i = 0; i < p_->n; ++i) {
            if (kind_[i] != RowKind::dropped_free_row) continue;
            const double v = std::abs(w[i]);
            if (worst_row < 0 || !(v <= worst)) {
                worst = v;
                worst_row = i;
            }
        }
    }
    if (row != nullptr) *row = worst_row;
    return worst;
}

void BoxedToStandard::build(const pivot_lcp_problem& p) {
    p_ = &p;
    const Index n = p.n;
    eliminated_free_ = 0;
    doubled_free_ = 0;
    dropped_free_ = 0;
    const ConstMatrix a(p.dense, n, n, Eigen::OuterStride<>(p.lda));

    bool only_lower = true;
    Index fixed_count = 0;
    Index free_count = 0;
    for (Index i = 0; i < n; ++i) {
        const double l = p.lo[i];
        const double u = p.hi[i];
        RowKind kind = RowKind::lower;
        if (l == u) {
            kind = RowKind::fixed;
            ++fixed_count;
        } else if (std::isfinite(l) && std::isfinite(u)) {
            kind = RowKind::box;
        } else if (std::isfinite(u)) {
            kind = RowKind::upper;
        } else if (!std::isfinite(l)) {
            kind = RowKind::free_row;
            ++free_count;
        }
        kind_[i] = kind;
        only_lower = only_lower && kind == RowKind::lower;
    }

    if (only_lower) {
        // M = A, q = b + A l, y = x - l.
        m_ = MatrixView{p.dense, n, p.lda};
        std::copy(p.b, p.b + n, q_.data());
        Vector q(q_.data(), n);
        for (Index j = 0; j < n; ++j) {
            kept_rows_[j] = j;
            offset_[j] = p.lo[j];
            var_position_[j] = j;
            var_sign_[j] = 1;
            if (p.lo[j] != 0.0) q.noalias() += p.lo[j] * a.col(j);
        }
        return;
    }

    // b' = b + A(:, fixed) l_fixed
    std::copy(p.b, p.b + n, rhs_.data());
    if (fixed_count > 0) {
        Vector rhs(rhs_.data(), n);
        for (Index j = 0; j < n; ++j) {
            if (kind_[j] == RowKind::fixed && p.lo[j] != 0.0) rhs.noalias() += p.lo[j] * a.col(j);
        }
    }
    // Positions: the kept rows N in order; free rows apart while they may
    // still be eliminated.
    Index kept = 0;
    Index free_rows = 0;
    for (Index i = 0; i < n; ++i) {
        if (kind_[i] == RowKind::fixed) continue;
        if (kind_[i] == RowKind::free_row) {
            free_rows_[free_rows++] = i;
        } else {
            kept_rows_[kept++] = i;
        }
    }
    Index box_count = 0;
    for (Index pos = 0; pos < kept; ++pos) box_count += kind_[kept_rows_[pos]] == RowKind::box ? 1 : 0;
    for (Index pos = 0; pos < kept; ++pos) kept_rhs_[pos] = rhs_[kept_rows_[pos]];

    bool eliminated = false;  // S (the Schur complement) is in M's storage
    if (free_count > 0) {
        // With the free rows eliminated, the standard LCP has one primary
        // per kept row and one multiplier per boxed row.
        eliminated = eliminate_free_rows(free_count, kept, kept + box_count);
        bool reduced = eliminated;
        if (!eliminated) {
            // A_FF singular (redundant joints): keep its independent rows.
            const Index independent = drop_dependent_free_rows(free_count);
            if (independent >= 0 && independent < free_count) {
                eliminated = independent > 0 && eliminate_free_rows(independent, kept, kept + box_count);
                reduced = eliminated || independent == 0;
                if (reduced) {
                    dropped_free_ = free_count - independent;
                    free_count = independent;
                } else {
                    // A_RR still singular: undo, the free rows are doubled.
                    for (Index i = 0; i < n; ++i) {
                        if (kind_[i] == RowKind::dropped_free_row) kind_[i] = RowKind::free_row;
                    }
                }
            }
        }
        eliminated_free_ = eliminated ? free_count : 0;
        if (!reduced) {
            // A_FF singular without a reliable split: double the free rows
            // (they join N).
            doubled_free_ = free_count;
            kept = 0;
            for (Index i = 0; i < n; ++i) {
                if (kind_[i] != RowKind::fixed) kept_rows_[kept++] = i;
            }
            for (Index pos = 0; pos < kept; ++pos) kept_rhs_[pos] = rhs_[kept_rows_[pos]];
        }
    }

    // Variables: primaries by position, then a multiplier per boxed row and
    // the second primary (m_i) per doubled free row.
    Index var_count = kept;
    for (Index pos = 0; pos < kept; ++pos) {
        const RowKind kind = kind_[kept_rows_[pos]];
        const Index row = kept_rows_[pos];
        var_position_[pos] = pos;
        var_sign_[pos] = kind == RowKind::upper ? -1 : 1;
        primary_of_position_[pos] = pos;
        offset_[pos] = kind == RowKind::upper ? p.hi[row] : (kind == RowKind::free_row ? 0.0 : p.lo[row]);
    }
    for (Index pos = 0; pos < kept; ++pos) {
        const RowKind kind = kind_[kept_rows_[pos]];
        if (kind == RowKind::box) {
            var_position_[var_count] = pos;
            var_sign_[var_count] = 0;
            ++var_count;
        } else if (kind == RowKind::free_row) {
            var_position_[var_count] = pos;
            var_sign_[var_count] = -1;
            ++var_count;
        }
    }
    const Index size = var_count;
    m_ = MatrixView{m_storage_.data(), size, size};
    double* m = m_storage_.data();

    // S c + b_N', with S in M's top-left (eliminated) or S = A(N, N).
    Vector shifted(shifted_rhs_.data(), kept);
    shifted = ConstVector(kept_rhs_.data(), kept);
    for (Index j = 0; j < kept; ++j) {
        const double c = offset_[j];
        if (c == 0.0) continue;
        if (eliminated) {
            shifted.noalias() += c * ConstVector(m + j * size, kept);
        } else {
            for (Index i = 0; i < kept; ++i) shifted[i] += a(kept_rows_[i], kept_rows_[j]) * c;
        }
    }

    // M(k, k') = sign_k sign_k' S(pos_k, pos_k') between primaries;
    // +1 at (s_i, t_i) and -1 at (t_i, s_i) for a boxed row; 0 elsewhere.
    for (Index col = 0; col < size; ++col) {
        double* m_col = m + col * size;
        const int8_t sign_col = var_sign_[col];
        const Index pos_col = var_position_[col];
        if (sign_col == 0) {
            std::fill(m_col, m_col + size, 0.0);
            m_col[primary_of_position_[pos_col]] = 1.0;
            continue;
        }
        for (Index row = 0; row < size; ++row) {
            const int8_t sign_row = var_sign_[row];
            const Index pos_row = var_position_[row];
            double value = 0.0;
            if (sign_row != 0) {
                const double s = eliminated ? m_col[row] : a(kept_rows_[pos_row], kept_rows_[pos_col]);
                value = static_cast<double>(sign_row * sign_col) * s;
            } else if (col == primary_of_position_[pos_row]) {
                value = -1.0;
            }
            m_col[row] = value;
        }
    }
    for (Index k = 0; k < size; ++k) {
        const Index pos = var_position_[k];
        const Index row = kept_rows_[pos];
        q_[k] = var_sign_[k] != 0 ? var_sign_[k] * shifted_rhs_[pos] : p.hi[row] - p.lo[row];
    }
}

void BoxedToStandard::map_back(const double* y, double* x) {
    const pivot_lcp_problem& p = *p_;
    const Index n = p.n;
    const Index size = m_.size;
    Index kept = 0;
    for (Index i = 0; i < n; ++i) {
        if (kind_[i] == RowKind::fixed) x[i] = p.lo[i];
        if (kind_[i] == RowKind::dropped_free_row) x[i] = 0.0;
    }
    // Positions are 0..kept-1 (every kept row has a primary at its position).
    for (Index k = 0; k < size; ++k) kept = std::max(kept, var_position_[k] + 1);
    std::copy(offset_.data(), offset_.data() + kept, x_kept_.data());
    for (Index k = 0; k < size; ++k) {
        if (var_sign_[k] != 0) x_kept_[var_position_[k]] += var_sign_[k] * y[k];
    }
    for (Index pos = 0; pos < kept; ++pos) x[kept_rows_[pos]] = x_kept_[pos];
    if (eliminated_free_ > 0) {
        // x_F = -(G x_N + h)
        const Index f = eliminated_free_;
        Vector x_free(x_free_.data(), f);
        x_free = ConstVector(free_shift_.data(), f);
        const double* gain = free_storage_.data() + f * f;
        x_free.noalias() += ConstMatrix(gain, f, kept, Eigen::OuterStride<>(f)) * ConstVector(x_kept_.data(), kept);
        for (Index i = 0; i < f; ++i) x[free_rows_[i]] = -x_free[i];
    }
    for (Index i = 0; i < n; ++i) x[i] = std::min(p.hi[i], std::max(p.lo[i], x[i]));
}

}  // namespace pivot::lemke
