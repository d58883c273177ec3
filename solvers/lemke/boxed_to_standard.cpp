#include "boxed_to_standard.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <pivot/solver_support.hpp>

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

void BoxedToStandard::reserve(Index n, Index variables) {
    capacity_ = std::max<Index>(n, 1);
    variable_capacity_ = std::max(variables, 2 * capacity_);
    const auto c = static_cast<size_t>(capacity_);
    const auto v = static_cast<size_t>(variable_capacity_);
    kind_.assign(c, RowKind::lower);
    lower_.assign(c, 0.0);
    upper_.assign(c, 0.0);
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
    var_kind_.assign(v, VarKind::primary);
    var_position_.assign(v, 0);
    var_sign_.assign(v, 0);
    primary_of_position_.assign(c, 0);
    minus_of_position_.assign(c, -1);
    position_of_row_.assign(c, -1);
    // Dense S of eliminated free rows (kept x size, leading dimension size)
    // and the scratch of drop_dependent_free_rows (f x (f + kept)): n v.
    m_storage_.resize(c * v);
    // S's nonzeros by position (at most n^2), and M's: up to four per entry
    // of S (two primaries per position: a friction row's b+ and b-, a
    // doubled free row's p and m) and, per multiplier, at most two entries
    // in its column, two in its row and its normal impulse's coefficient.
    s_start_.assign(c + 1, 0);
    s_rows_.resize(c * c);
    s_values_.resize(c * c);
    const size_t m_capacity = 4 * c * c + 8 * v;
    m_start_.assign(v + 1, 0);
    m_rows_.resize(m_capacity);
    m_values_.resize(m_capacity);
    position_var_start_.assign(c + 1, 0);
    position_vars_.assign(v, 0);
    normal_multiplier_start_.assign(v + 1, 0);
    normal_multipliers_.assign(v, 0);
    q_.assign(v, 0.0);
}

Index BoxedToStandard::variable_count(const pivot_lcp_problem& p) {
    Index count = 0;
    for (uint32_t i = 0; i < p.n; ++i) {
        const double l = p.lo[i];
        const double u = p.hi[i];
        if (p.findex != nullptr && p.findex[i] >= 0) {
            count += l == -u ? 3 : 4;  // at most (a fixed row j makes it a box or nothing)
        } else if (l != u) {
            count += std::isfinite(l) != std::isfinite(u) ? 1 : 2;  // a free row may be doubled
        }
    }
    return count;
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
    // the rows eliminated. m_storage_ (n variables >= f (f + kept)) is free
    // until S is written.
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

bool BoxedToStandard::classify_rows() {
    const pivot_lcp_problem& p = *p_;
    const Index n = p.n;
    for (Index i = 0; i < n; ++i) {
        const double l = p.lo[i];
        const double u = p.hi[i];
        lower_[i] = l;
        upper_[i] = u;
        if (p.findex != nullptr && p.findex[i] >= 0) continue;  // after its row j
        RowKind kind = RowKind::lower;
        if (l == u) {
            kind = RowKind::fixed;
        } else if (std::isfinite(l) && std::isfinite(u)) {
            kind = RowKind::box;
        } else if (std::isfinite(u)) {
            kind = RowKind::upper;
        } else if (!std::isfinite(l)) {
            kind = RowKind::free_row;
        }
        kind_[i] = kind;
    }
    for (Index i = 0; i < n && p.findex != nullptr; ++i) {
        const int32_t j = p.findex[i];
        if (j < 0) continue;
        if (kind_[j] == RowKind::lower && p.lo[j] >= 0.0) {
            kind_[i] = RowKind::friction;
        } else if (kind_[j] == RowKind::fixed) {
            // Constant bounds: a boxed row, or fixed when they coincide.
            const double scale = std::abs(p.lo[j]);
            lower_[i] = p.lo[i] * scale;
            upper_[i] = p.hi[i] * scale;
            kind_[i] = lower_[i] == upper_[i] ? RowKind::fixed : RowKind::box;
        } else {
            unsupported_row_ = i;
            return false;
        }
    }
    return true;
}

template <typename SAt>
double BoxedToStandard::entry(Index row, Index col, const SAt& s_at) const {
    const VarKind row_kind = var_kind_[row];
    const VarKind col_kind = var_kind_[col];
    const Index pos_row = var_position_[row];
    const Index pos_col = var_position_[col];
    if (row_kind == VarKind::primary) {
        if (col_kind == VarKind::primary) {
            return static_cast<double>(var_sign_[row] * var_sign_[col]) * s_at(pos_row, pos_col);
        }
        if (pos_row != pos_col) return 0.0;
        // A multiplier's column: +1 at the primaries it bounds.
        switch (col_kind) {
            case VarKind::box_multiplier:
            case VarKind::friction_plus: return row == primary_of_position_[pos_col] ? 1.0 : 0.0;
            case VarKind::friction_minus: return row == minus_of_position_[pos_col] ? 1.0 : 0.0;
            case VarKind::friction_both: return 1.0;
            default: return 0.0;
        }
    }
    if (col_kind != VarKind::primary) return 0.0;
    // A multiplier's row: -1 at the primaries it bounds, the coefficient at
    // the normal impulse's primary.
    const Index row_index = kept_rows_[pos_row];
    double value = 0.0;
    if (row_kind != VarKind::box_multiplier) {
        const Index normal = primary_of_position_[position_of_row_[p_->findex[row_index]]];
        if (col == normal) value = row_kind == VarKind::friction_minus ? -lower_[row_index] : upper_[row_index];
    }
    if (pos_col != pos_row) return value;
    switch (row_kind) {
        case VarKind::box_multiplier:
        case VarKind::friction_plus: return col == primary_of_position_[pos_row] ? -1.0 : value;
        case VarKind::friction_minus: return col == minus_of_position_[pos_row] ? -1.0 : value;
        case VarKind::friction_both: return -1.0;
        default: return value;
    }
}

bool BoxedToStandard::build(const pivot_lcp_problem& p) {
    p_ = &p;
    const Index n = p.n;
    eliminated_free_ = 0;
    doubled_free_ = 0;
    dropped_free_ = 0;
    unsupported_row_ = -1;
    const ConstMatrix a(p.dense, n, n, Eigen::OuterStride<>(p.lda));
    if (!classify_rows()) return false;

    bool only_lower = true;
    Index fixed_count = 0;
    Index free_count = 0;
    for (Index i = 0; i < n; ++i) {
        fixed_count += kind_[i] == RowKind::fixed ? 1 : 0;
        free_count += kind_[i] == RowKind::free_row ? 1 : 0;
        only_lower = only_lower && kind_[i] == RowKind::lower;
    }

    if (only_lower) {
        // M = A (its nonzeros), q = b + A l, y = x - l.
        std::copy(p.b, p.b + n, q_.data());
        Vector q(q_.data(), n);
        for (Index j = 0; j < n; ++j) {
            kept_rows_[j] = j;
            position_of_row_[j] = j;
            primary_of_position_[j] = j;
            minus_of_position_[j] = -1;
            offset_[j] = p.lo[j];
            var_kind_[j] = VarKind::primary;
            var_position_[j] = j;
            var_sign_[j] = 1;
            if (p.lo[j] != 0.0) q.noalias() += p.lo[j] * a.col(j);
        }
        build_sparse_matrix(n, n, false);
        return true;
    }

    // b' = b + A(:, fixed) l_fixed
    std::copy(p.b, p.b + n, rhs_.data());
    if (fixed_count > 0) {
        Vector rhs(rhs_.data(), n);
        for (Index j = 0; j < n; ++j) {
            if (kind_[j] == RowKind::fixed && lower_[j] != 0.0) rhs.noalias() += lower_[j] * a.col(j);
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
    // Variables beyond the primaries: a multiplier per boxed row, b- and
    // one or two multipliers per friction row.
    Index extra = 0;
    for (Index pos = 0; pos < kept; ++pos) {
        const Index row = kept_rows_[pos];
        if (kind_[row] == RowKind::box) extra += 1;
        if (kind_[row] == RowKind::friction) extra += lower_[row] == -upper_[row] ? 2 : 3;
    }
    for (Index pos = 0; pos < kept; ++pos) kept_rhs_[pos] = rhs_[kept_rows_[pos]];

    bool eliminated = false;  // S (the Schur complement) is in M's storage
    if (free_count > 0) {
        // With the free rows eliminated, the standard LCP has one primary
        // per kept row and the extra variables above.
        eliminated = eliminate_free_rows(free_count, kept, kept + extra);
        bool reduced = eliminated;
        if (!eliminated) {
            // A_FF singular (redundant joints): keep its independent rows.
            const Index independent = drop_dependent_free_rows(free_count);
            if (independent >= 0 && independent < free_count) {
                eliminated = independent > 0 && eliminate_free_rows(independent, kept, kept + extra);
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

    // Variables: primaries by position, then per position the boxed row's
    // multiplier, the doubled free row's m_i, or the friction row's b- and
    // multipliers.
    std::fill(position_of_row_.begin(), position_of_row_.begin() + n, -1);
    Index var_count = kept;
    for (Index pos = 0; pos < kept; ++pos) {
        const Index row = kept_rows_[pos];
        const RowKind kind = kind_[row];
        position_of_row_[row] = pos;
        var_kind_[pos] = VarKind::primary;
        var_position_[pos] = pos;
        var_sign_[pos] = kind == RowKind::upper ? -1 : 1;
        primary_of_position_[pos] = pos;
        minus_of_position_[pos] = -1;
        offset_[pos] = kind == RowKind::upper ? upper_[row]
                       : (kind == RowKind::free_row || kind == RowKind::friction) ? 0.0
                                                                                   : lower_[row];
    }
    const auto add = [&](VarKind kind, Index pos, int8_t sign) {
        var_kind_[var_count] = kind;
        var_position_[var_count] = pos;
        var_sign_[var_count] = sign;
        return var_count++;
    };
    for (Index pos = 0; pos < kept; ++pos) {
        const Index row = kept_rows_[pos];
        switch (kind_[row]) {
            case RowKind::box: add(VarKind::box_multiplier, pos, 0); break;
            case RowKind::free_row: add(VarKind::primary, pos, -1); break;
            case RowKind::friction:
                minus_of_position_[pos] = add(VarKind::primary, pos, -1);
                if (lower_[row] == -upper_[row]) {
                    add(VarKind::friction_both, pos, 0);
                } else {
                    add(VarKind::friction_plus, pos, 0);
                    add(VarKind::friction_minus, pos, 0);
                }
                break;
            default: break;
        }
    }
    const Index size = var_count;
    const double* m = m_storage_.data();  // S when eliminated (leading dimension size)

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
    build_sparse_matrix(size, kept, eliminated);
    for (Index k = 0; k < size; ++k) {
        const Index pos = var_position_[k];
        const Index row = kept_rows_[pos];
        switch (var_kind_[k]) {
            case VarKind::primary: q_[k] = var_sign_[k] * shifted_rhs_[pos]; break;
            case VarKind::box_multiplier: q_[k] = upper_[row] - lower_[row]; break;
            default: {
                // The bound's coefficient times x_j's offset l_j (x_j = l_j + y).
                const double normal_offset = offset_[position_of_row_[p.findex[row]]];
                q_[k] = (var_kind_[k] == VarKind::friction_minus ? -lower_[row] : upper_[row]) * normal_offset;
                break;
            }
        }
    }
    return true;
}

void BoxedToStandard::build_sparse_matrix(Index size, Index kept, bool eliminated) {
    const pivot_lcp_problem& p = *p_;
    // S's nonzeros by position: from the dense S of eliminated free rows
    // (leading dimension size), else from A(N, N). Exact zeros are left out:
    // they add nothing to M's products (the dense M of 1.2 held them).
    Index count = 0;
    for (Index pc = 0; pc < kept; ++pc) {
        s_start_[pc] = count;
        if (eliminated) {
            const double* column = m_storage_.data() + pc * size;
            for (Index pr = 0; pr < kept; ++pr) {
                if (column[pr] == 0.0) continue;
                s_rows_.data()[count] = pr;
                s_values_.data()[count++] = column[pr];
            }
        } else {
            const double* column = p.dense + kept_rows_[pc] * static_cast<Index>(p.lda);
            for (Index r = 0; r < p.n; ++r) {
                const Index pr = position_of_row_[r];
                if (pr < 0 || column[r] == 0.0) continue;
                s_rows_.data()[count] = pr;
                s_values_.data()[count++] = column[r];
            }
        }
    }
    s_start_[kept] = count;
    // The variables of each position (primaries first, by variable), and
    // the friction multipliers whose bound scales with each normal impulse's
    // primary (M's K block).
    std::fill(position_var_start_.begin(), position_var_start_.begin() + kept + 1, Index{0});
    std::fill(normal_multiplier_start_.begin(), normal_multiplier_start_.begin() + size + 1, Index{0});
    const auto normal_of = [&](Index k) {
        return primary_of_position_[position_of_row_[p.findex[kept_rows_[var_position_[k]]]]];
    };
    const auto is_friction_multiplier = [&](Index k) {
        return var_kind_[k] == VarKind::friction_plus || var_kind_[k] == VarKind::friction_minus ||
               var_kind_[k] == VarKind::friction_both;
    };
    for (Index k = 0; k < size; ++k) {
        ++position_var_start_[var_position_[k] + 1];
        if (is_friction_multiplier(k)) ++normal_multiplier_start_[normal_of(k) + 1];
    }
    for (Index pos = 0; pos < kept; ++pos) position_var_start_[pos + 1] += position_var_start_[pos];
    for (Index k = 0; k < size; ++k) normal_multiplier_start_[k + 1] += normal_multiplier_start_[k];
    for (Index k = 0; k < size; ++k) {
        position_vars_[position_var_start_[var_position_[k]]++] = k;
        if (is_friction_multiplier(k)) normal_multipliers_[normal_multiplier_start_[normal_of(k)]++] = k;
    }
    // The fills moved each start to the next one's: shift back.
    for (Index pos = kept; pos > 0; --pos) position_var_start_[pos] = position_var_start_[pos - 1];
    position_var_start_[0] = 0;
    for (Index k = size; k > 0; --k) normal_multiplier_start_[k] = normal_multiplier_start_[k - 1];
    normal_multiplier_start_[0] = 0;

    // M by columns, with the values entry() gives (the S block as
    // sign_row sign_col S(pos_row, pos_col); entries that are exact zeros
    // left out).
    const auto no_s = [](Index, Index) { return 0.0; };  // entry() of a multiplier's row or column reads no S
    Index* rows = m_rows_.data();
    double* values = m_values_.data();
    count = 0;
    for (Index col = 0; col < size; ++col) {
        m_start_[col] = count;
        const Index pc = var_position_[col];
        const auto add_structural = [&](Index row) {
            const double value = entry(row, col, no_s);
            if (value == 0.0) return;
            rows[count] = row;
            values[count++] = value;
        };
        if (var_kind_[col] == VarKind::primary) {
            for (Index e = s_start_[pc]; e < s_start_[pc + 1]; ++e) {
                const Index pr = s_rows_.data()[e];
                const double s_value = s_values_.data()[e];
                for (Index v = position_var_start_[pr]; v < position_var_start_[pr + 1]; ++v) {
                    const Index row = position_vars_[v];
                    if (var_kind_[row] != VarKind::primary) continue;
                    rows[count] = row;
                    values[count++] = static_cast<double>(var_sign_[row] * var_sign_[col]) * s_value;
                }
            }
            // The multipliers' rows: -1 at the primaries they bound, their
            // coefficient at the normal impulse's primary.
            for (Index v = position_var_start_[pc]; v < position_var_start_[pc + 1]; ++v) {
                if (var_kind_[position_vars_[v]] != VarKind::primary) add_structural(position_vars_[v]);
            }
            for (Index v = normal_multiplier_start_[col]; v < normal_multiplier_start_[col + 1]; ++v) {
                if (var_position_[normal_multipliers_[v]] != pc) add_structural(normal_multipliers_[v]);
            }
        } else {
            // A multiplier's column: +1 at the primaries it bounds.
            for (Index v = position_var_start_[pc]; v < position_var_start_[pc + 1]; ++v) {
                if (var_kind_[position_vars_[v]] == VarKind::primary) add_structural(position_vars_[v]);
            }
        }
    }
    m_start_[size] = count;
    m_ = MatrixView{size, m_start_.data(), rows, values};
}

void BoxedToStandard::map_back(const double* y, double* x) {
    const pivot_lcp_problem& p = *p_;
    const Index n = p.n;
    const Index size = m_.size;
    Index kept = 0;
    for (Index i = 0; i < n; ++i) {
        if (kind_[i] == RowKind::fixed) x[i] = lower_[i];
        if (kind_[i] == RowKind::dropped_free_row) x[i] = 0.0;
    }
    // Positions are 0..kept-1 (every kept row has a primary at its position).
    for (Index k = 0; k < size; ++k) kept = std::max(kept, var_position_[k] + 1);
    std::copy(offset_.data(), offset_.data() + kept, x_kept_.data());
    for (Index k = 0; k < size; ++k) {
        if (var_kind_[k] == VarKind::primary) x_kept_[var_position_[k]] += var_sign_[k] * y[k];
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
    sdk::clamp_to_own_bounds(p, x);  // friction rows within lo |x_j|, hi |x_j| of the x_j just clamped
}

}  // namespace pivot::lemke

namespace pivot::lemke {

void BoxedToStandard::guess_basis(const double* x, double* y, double* v, uint8_t* basic_z) const {
    const Index size = m_.size;
    bool multipliers = false;
    for (Index k = 0; k < size; ++k) {
        const Index pos = var_position_[k];
        if (var_kind_[k] == VarKind::primary) {
            y[k] = std::max(var_sign_[k] * (x[kept_rows_[pos]] - offset_[pos]), 0.0);
        } else {
            y[k] = 0.0;
            multipliers = true;
        }
    }
    std::copy(q_.data(), q_.data() + size, v);
    for (Index j = 0; j < size; ++j) {
        const double yj = y[j];
        if (yj == 0.0) continue;
        for (Index e = m_.start[j]; e < m_.start[j + 1]; ++e) v[m_.rows[e]] += m_.values[e] * yj;
    }
    if (multipliers) {
        for (Index k = 0; k < size; ++k) {
            const Index pos = var_position_[k];
            const Index plus = primary_of_position_[pos];
            const Index minus = minus_of_position_[pos];
            switch (var_kind_[k]) {
                case VarKind::box_multiplier:
                case VarKind::friction_plus: y[k] = std::max(-v[plus], 0.0); break;
                case VarKind::friction_minus: y[k] = std::max(-v[minus], 0.0); break;
                case VarKind::friction_both: y[k] = std::max({-v[plus], -v[minus], 0.0}); break;
                default: break;
            }
        }
        // The multipliers enter v at their primaries' rows only (M's F
        // block, +1); their own rows (-G' + K) do not depend on them.
        for (Index k = 0; k < size; ++k) {
            if (var_kind_[k] == VarKind::primary || y[k] == 0.0) continue;
            const Index pos = var_position_[k];
            const Index plus = primary_of_position_[pos];
            const Index minus = minus_of_position_[pos];
            if (var_kind_[k] != VarKind::friction_minus) v[plus] += y[k];
            if (var_kind_[k] == VarKind::friction_minus || var_kind_[k] == VarKind::friction_both) v[minus] += y[k];
        }
    }
    for (Index k = 0; k < size; ++k) basic_z[k] = y[k] > v[k] ? 1 : 0;
    if (!multipliers) return;
    for (Index k = 0; k < size; ++k) {
        if (var_kind_[k] == VarKind::primary || basic_z[k] == 0) continue;
        const Index pos = var_position_[k];
        const Index plus = primary_of_position_[pos];
        const Index minus = minus_of_position_[pos];
        switch (var_kind_[k]) {
            case VarKind::box_multiplier:
            case VarKind::friction_plus: basic_z[plus] = 1; break;
            case VarKind::friction_minus: basic_z[minus] = 1; break;
            case VarKind::friction_both:
                // The primary whose row the multiplier holds at 0, unless
                // one of them is basic already.
                if (basic_z[plus] == 0 && basic_z[minus] == 0) basic_z[v[plus] <= v[minus] ? plus : minus] = 1;
                break;
            default: break;
        }
    }
}

}  // namespace pivot::lemke
