#include "basis_factorization.hpp"

#include <algorithm>
#include <cmath>

namespace pivot::lemke {

namespace {

using ConstMatrix = Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>>;
using Vector = Eigen::Map<Eigen::VectorXd>;
using ConstVector = Eigen::Map<const Eigen::VectorXd>;

// An LU pivot of C no larger than this fraction of its column's largest
// entry: C is singular to working precision (a condition number beyond about
// 1e14, where a solve keeps at most two correct digits).
constexpr double kSingularTolerance = 1e-14;

// An eta pivot smaller than this relative to max |d| would amplify the
// rounding errors of every later solve by more than 1e6: such a pivot is
// taken, then the basis is factorized afresh (partial pivoting restores a
// stable factorization of the same basis).
constexpr double kEtaStability = 1e-6;

// A row doubleton's pivot below this fraction of its column's largest entry
// is not taken (an entry that is rounding noise of a zero, from the Schur
// complement of eliminated free rows; the friction multipliers' pivots are
// -1 against entries of A).
constexpr double kDoubletonNoise = 1e-8;

}  // namespace

void BasisFactorization::reserve(Index capacity, Index max_etas, size_t nonzeros) {
    capacity_ = std::max<Index>(capacity, 1);
    max_etas_ = std::max<Index>(max_etas, 1);
    const auto c = static_cast<size_t>(capacity_);
    slot_var_.assign(c, 0);
    var_slot_.assign(2 * c + 1, -1);
    reduced_rows_.assign(c, 0);
    z_columns_.assign(c, 0);
    z_slots_.assign(c, 0);
    unit_rows_.assign(c, 0);
    unit_slots_.assign(c, 0);
    // C11's Schur complement, F and E (at most k1^2 <= n^2 numbers); C21
    // and M(W, Z) by their nonzeros (at most those of M and of the covering
    // vector). Only what a basis uses is ever touched.
    factor_storage_.resize(c * c);
    c21_start_.assign(c + 1, 0);
    m_wz_start_.assign(c + 1, 0);
    block_rows_.resize(nonzeros + c);
    block_values_.resize(nonzeros + c);
    reduced_position_.assign(c, -1);
    unit_position_.assign(c, -1);
    c11_row_.assign(c, -1);
    row_first_value_.assign(c, 0.0);
    row_second_value_.assign(c, 0.0);
    row_swaps_.assign(c, 0);
    reduced_work_.assign(c, 0.0);
    unit_work_.assign(c, 0.0);
    column_work_.assign(c, 0.0);
    covering_.assign(c, 1.0);
    kept_columns_.assign(c, 0);
    kept_rows_.assign(c, 0);
    single_columns_.assign(c, 0);
    single_rows_.assign(c, 0);
    single_pivots_.assign(c, 0.0);
    single_work_.assign(c, 0.0);
    first_work_.assign(c, 0.0);
    c11_solution_.assign(c, 0.0);
    pivot_rows_.assign(c, 0);
    pivot_columns_.assign(c, 0);
    rest_rows_.assign(c, 0);
    rest_columns_.assign(c, 0);
    doubleton_pivots_.assign(c, 0.0);
    pivot_work_.assign(c, 0.0);
    pivot_result_.assign(c, 0.0);
    kept_candidates_.assign(2 * c, 0);
    eta_slots_.assign(static_cast<size_t>(max_etas_), 0);
    eta_columns_.resize(c * static_cast<size_t>(max_etas_));
}

void BasisFactorization::reset(MatrixView m) {
    m_ = m;
    n_ = m.size;
    std::fill(var_slot_.begin(), var_slot_.begin() + (2 * n_ + 1), Index{-1});
    for (Index i = 0; i < n_; ++i) {
        slot_var_[i] = i;
        var_slot_[i] = i;
    }
    // B = I: C is empty, every row a unit row.
    k_ = 0;
    k1_ = 0;
    singles_ = 0;
    pivot_count_ = 0;
    z_count_ = 0;
    z0_slot_ = -1;
    for (Index i = 0; i < n_; ++i) {
        unit_rows_[i] = i;
        unit_slots_[i] = i;
    }
    std::fill(covering_.begin(), covering_.begin() + n_, 1.0);
    eta_count_ = 0;
}

bool BasisFactorization::crash(MatrixView m, const uint8_t* basic_z) {
    reset(m);
    const Index n = n_;
    double* c = covering_.data();
    for (Index j = 0; j < n; ++j) {
        if (basic_z[j] == 0) continue;
        // z_j takes slot j (w_j's): B's column there is -M_j.
        slot_var_[j] = n + j;
        var_slot_[j] = -1;
        var_slot_[n + j] = j;
        c[j] = 0.0;
    }
    // c = B 1 = sum of the unit columns of W - sum of the columns M_j of Z.
    for (Index j = 0; j < n; ++j) {
        if (basic_z[j] == 0) continue;
        for (Index e = m.start[j]; e < m.start[j + 1]; ++e) c[m.rows[e]] -= m.values[e];
    }
    return refactorize();
}

bool BasisFactorization::refactorize() {
    eta_count_ = 0;
    const Index n = n_;
    k_ = 0;
    Index unit_count = 0;
    for (Index i = 0; i < n; ++i) {
        const Index slot = var_slot_[i];
        if (slot >= 0) {
            unit_rows_[unit_count] = i;
            unit_slots_[unit_count] = slot;
            ++unit_count;
        } else {
            reduced_rows_[k_++] = i;
        }
    }
    z_count_ = 0;
    for (Index j = 0; j < n; ++j) {
        const Index slot = var_slot_[n + j];
        if (slot >= 0) {
            z_columns_[z_count_] = j;
            z_slots_[z_count_] = slot;
            ++z_count_;
        }
    }
    z0_slot_ = var_slot_[2 * n];
    // An almost-complementary basis has one non-unit column per non-unit row.
    if (z_count_ + (z0_slot_ >= 0 ? 1 : 0) != k_) return false;

    const Index k = k_;
    for (Index r = 0; r < k; ++r) reduced_position_[reduced_rows_[r]] = r;
    for (Index r = 0; r < unit_count; ++r) {
        reduced_position_[unit_rows_[r]] = -1;
        unit_position_[unit_rows_[r]] = r;
    }
    for (Index r = 0; r < k; ++r) unit_position_[reduced_rows_[r]] = -1;
    // Column singletons: a column of C with one nonzero (the multiplier
    // columns of boxed and friction rows, +1 at a primary's row, whenever
    // their other primary is not a unit row). Each is matched with its row,
    // one column per row; the others form C11 (order k1), and with the
    // singleton rows and columns last, C = [C11 0; C21 D], D diagonal:
    // C11 u1 = v1, u2 = D^-1 (v2 - C21 u1) (block triangular solve; Duff,
    // Erisman & Reid, "Direct Methods for Sparse Matrices", 1986, section
    // 8.2: a singleton is a pivot that any elimination order must take, so
    // taking it first costs no stability). On lcp-bench nc333_fric about 40%
    // of C's columns are singletons: the LU of C11 takes a fifth of C's.
    int* row_taken = row_swaps_.data();  // by row position; row_swaps_ is written after
    std::fill(row_taken, row_taken + k, 0);
    Index singles = 0;
    Index kept = 0;
    for (Index t = 0; t < k; ++t) {
        Index row = -1;
        Index nonzeros = 0;
        for_each_c_entry(t, [&](Index r, double) {
            row = r;
            ++nonzeros;
        });
        if (nonzeros == 1 && row_taken[row] == 0) {
            row_taken[row] = 1;
            single_columns_[singles] = t;
            single_rows_[singles] = row;
            ++singles;
        } else {
            kept_columns_[kept++] = t;
        }
    }
    Index kept_row_count = 0;
    for (Index r = 0; r < k; ++r) {
        if (row_taken[r] == 0) kept_rows_[kept_row_count++] = r;
    }
    if (kept_row_count != kept) return false;  // cannot happen: one row per singleton
    k1_ = kept;
    singles_ = singles;
    // C11's row of each row position (-1: a singleton's row), and the
    // singletons' index of theirs (in row_taken, as index + 1).
    for (Index r = 0; r < k; ++r) c11_row_[r] = -1;
    for (Index i = 0; i < kept; ++i) c11_row_[kept_rows_[i]] = i;
    for (Index i = 0; i < singles; ++i) row_taken[single_rows_[i]] = static_cast<int>(i + 1);
    // C21 (singles x kept) and M(W, Z) by columns of nonzeros.
    Index* rows = block_rows_.data();
    double* values = block_values_.data();
    Index count = 0;
    for (Index j = 0; j < kept; ++j) {
        c21_start_[j] = count;
        for_each_c_entry(kept_columns_[j], [&](Index r, double value) {
            if (c11_row_[r] >= 0) return;
            rows[count] = row_taken[r] - 1;
            values[count++] = value;
        });
    }
    c21_start_[kept] = count;
    for (Index i = 0; i < singles; ++i) {
        single_pivots_[i] = 0.0;
        for_each_c_entry(single_columns_[i], [&](Index, double value) { single_pivots_[i] = value; });
    }
    for (Index t = 0; t < z_count_; ++t) {
        m_wz_start_[t] = count;
        const Index j = z_columns_[t];
        for (Index e = m_.start[j]; e < m_.start[j + 1]; ++e) {
            const Index r = unit_position_[m_.rows[e]];
            if (r < 0) continue;
            rows[count] = r;
            values[count++] = m_.values[e];
        }
    }
    m_wz_start_[z_count_] = count;
    return eliminate_row_doubletons(factor_storage_.data());
}

bool BasisFactorization::eliminate_row_doubletons(double* storage) {
    // Row doubletons of C11: a row with at most two nonzeros outside z0's
    // column (the friction multiplier's row, -1 at b+ or b- and hi at the
    // normal impulse's primary, when the multiplier is basic: a sliding
    // contact). Its larger entry (the -1) is the pivot, D; the pivots are
    // chosen so that no chosen row has a nonzero in another's pivot column,
    // so with them first C11 = [D E; F G], D diagonal, and
    //     (G - F D^-1 E) u_G = v_G - F D^-1 v_D,   u_D = D^-1 (v_D - E u_G)
    // (Duff, Erisman & Reid, section 7.2, a Schur complement on a diagonal
    // block). E has at most two nonzeros per row, so forming the Schur
    // complement costs O(|D| order), and the pivot is the largest entry of
    // its row: the multipliers E / D are at most 1 outside z0's column. Each
    // elimination adds at most |F| to a column of G, but several chosen rows
    // can share their other nonzero (one normal impulse for a contact's
    // friction rows), so a column grows by up to 1 + m times (m such rows);
    // the LU judges the result against C11's columns (lu_factorize's
    // column_scales), not against itself. On lcp-bench nc333_fric this takes
    // C11 from order 852 to about 290 at the crash basis.
    // C11's entries are read from M's nonzeros (scattered once into the
    // factor's storage below), so C11 itself is never stored.
    const Index k1 = k1_;
    // C11's column j by its nonzeros: f(i, value) with i its row in C11.
    const auto for_each_c11_entry = [this](Index j, const auto& f) {
        for_each_c_entry(kept_columns_[j], [&](Index r, double value) {
            const Index i = c11_row_[r];
            if (i >= 0) f(i, value);
        });
    };
    Index z0_position = -1;
    for (Index j = 0; j < k1 && z0_slot_ >= 0; ++j) {
        if (kept_columns_[j] == z_count_) z0_position = j;
    }
    // Per row: its nonzeros outside z0's column (counted up to 3) and the
    // first two of them; per column: its largest magnitude. One pass over
    // C11 by columns (M's storage order).
    Index* row_count = rest_rows_.data();
    Index* row_first = pivot_rows_.data();
    Index* row_second = pivot_columns_.data();
    double* column_max = doubleton_pivots_.data();
    double* first_value = row_first_value_.data();
    double* second_value = row_second_value_.data();
    std::fill(row_count, row_count + k1, Index{0});
    for (Index j = 0; j < k1; ++j) {
        double largest = 0.0;
        for_each_c11_entry(j, [&](Index i, double value) {
            if (value == 0.0) return;
            largest = std::max(largest, std::abs(value));
            if (j == z0_position || row_count[i] > 2) return;
            if (row_count[i] == 0) {
                row_first[i] = j;
                first_value[i] = value;
            } else if (row_count[i] == 1) {
                row_second[i] = j;
                second_value[i] = value;
            }
            ++row_count[i];
        });
        column_max[j] = largest;
    }
    // Column states: 0 free, 1 a pivot column, 2 a chosen row's other
    // nonzero (the arrays above are scratch until the choice is made).
    Index* column_state = rest_columns_.data();
    std::fill(column_state, column_state + k1, Index{0});
    Index* chosen = kept_candidates_.data();  // row, then pivot column, per choice
    Index pivots = 0;
    for (Index i = 0; i < k1; ++i) {
        const Index count = row_count[i];
        if (count == 0 || count > 2) continue;
        Index pivot = row_first[i];
        Index other = count == 2 ? row_second[i] : -1;
        double pivot_value = first_value[i];
        if (other >= 0 && std::abs(second_value[i]) > std::abs(first_value[i])) {
            std::swap(pivot, other);
            pivot_value = second_value[i];
        }
        if (column_state[pivot] != 0 || (other >= 0 && column_state[other] == 1)) continue;
        // Against entries that are rounding noise of a zero (eliminated free
        // rows): the pivot must not be negligible in its own column.
        if (!(std::abs(pivot_value) > kDoubletonNoise * column_max[pivot])) continue;
        column_state[pivot] = 1;
        if (other >= 0) column_state[other] = 2;
        chosen[2 * pivots] = i;
        chosen[2 * pivots + 1] = pivot;
        ++pivots;
    }
    for (Index p = 0; p < pivots; ++p) {
        pivot_rows_[p] = chosen[2 * p];
        pivot_columns_[p] = chosen[2 * p + 1];
    }
    const Index k2 = k1 - pivots;
    pivot_count_ = pivots;
    // The rest: columns not pivots, rows not chosen (the pivot rows are in
    // increasing order).
    Index rest = 0;
    for (Index j = 0; j < k1; ++j) {
        if (column_state[j] != 1) column_state[rest++] = j;  // compacts in place: rest <= j
    }
    Index rest_row_count = 0;
    for (Index i = 0, p = 0; i < k1; ++i) {
        if (p < pivots && pivot_rows_[p] == i) {
            ++p;
        } else {
            rest_rows_[rest_row_count++] = i;
        }
    }
    if (rest != k2 || rest_row_count != k2) return false;  // cannot happen
    const Index* rest_columns = rest_columns_.data();
    double* schur = storage;                   // k2 x k2, then its LU
    double* f = schur + k2 * k2;               // F: k2 x pivots
    double* e = f + k2 * pivots;               // E: pivots x k2
    // Each C11 row's place: a rest row's index (>= 0) or a pivot row's
    // (-1 - p), in kept_candidates_ (free again).
    Index* place = kept_candidates_.data();
    for (Index i = 0; i < k2; ++i) place[rest_rows_[i]] = i;
    for (Index p = 0; p < pivots; ++p) place[pivot_rows_[p]] = -1 - p;
    for (Index j = 0; j < k2; ++j) {
        std::fill(schur + j * k2, schur + (j + 1) * k2, 0.0);
        std::fill(e + j * pivots, e + (j + 1) * pivots, 0.0);
        for_each_c11_entry(rest_columns[j], [&](Index i, double value) {
            if (place[i] >= 0) {
                schur[place[i] + j * k2] = value;
            } else {
                e[(-1 - place[i]) + j * pivots] = value;
            }
        });
    }
    for (Index p = 0; p < pivots; ++p) {
        std::fill(f + p * k2, f + (p + 1) * k2, 0.0);
        doubleton_pivots_[p] = 0.0;
        for_each_c11_entry(pivot_columns_[p], [&](Index i, double value) {
            if (place[i] >= 0) {
                f[place[i] + p * k2] = value;
            } else if (-1 - place[i] == p) {
                doubleton_pivots_[p] = value;
            }
        });
    }
    // Each Schur column's scale in C11 (its rows in G and in E), for the LU's
    // singularity test: a column of G - F D^-1 E that cancels to rounding
    // noise must be judged against C11, not against its own noise.
    double* column_scale = first_work_.data();  // base_solve's scratch, free while factoring
    for (Index j = 0; j < k2; ++j) {
        double largest = 0.0;
        for (Index i = 0; i < k2; ++i) largest = std::max(largest, std::abs(schur[i + j * k2]));
        for (Index p = 0; p < pivots; ++p) largest = std::max(largest, std::abs(e[p + j * pivots]));
        column_scale[j] = largest;
    }
    // G - F D^-1 E, by E's nonzeros.
    for (Index p = 0; p < pivots; ++p) {
        const ConstVector f_column(f + p * k2, k2);
        for (Index j = 0; j < k2; ++j) {
            const double factor = e[p + j * pivots];
            if (factor != 0.0) Vector(schur + j * k2, k2).noalias() -= (factor / doubleton_pivots_[p]) * f_column;
        }
    }
    return lu_factorize(LuFactorization{schur, row_swaps_.data(), k2, k2}, kSingularTolerance, column_scale);
}

void BasisFactorization::base_solve(const double* v, double* y) {
    const Index k = k_;
    const Index k1 = k1_;
    const Index singles = singles_;
    const Index unit_count = n_ - k;
    double* u1 = c11_solution_.data();  // by C11 column
    double* u = reduced_work_.data();  // by column t of C
    double* c11 = factor_storage_.data();
    {
        // C11 u1 = v1 through the doubletons' Schur complement.
        const Index pivots = pivot_count_;
        const Index k2 = k1 - pivots;
        double* schur_rhs = first_work_.data();
        double* scaled = pivot_work_.data();
        double* u_pivots = pivot_result_.data();
        for (Index i = 0; i < k2; ++i) schur_rhs[i] = v[reduced_rows_[kept_rows_[rest_rows_[i]]]];
        for (Index p = 0; p < pivots; ++p) {
            scaled[p] = v[reduced_rows_[kept_rows_[pivot_rows_[p]]]] / doubleton_pivots_[p];
        }
        const double* f = c11 + k2 * k2;
        const double* e = f + k2 * pivots;
        if (pivots > 0 && k2 > 0) {
            const ConstMatrix f_block(f, k2, pivots, Eigen::OuterStride<>(k2));
            Vector(schur_rhs, k2).noalias() -= f_block * ConstVector(scaled, pivots);
        }
        lu_solve(LuFactorization{c11, row_swaps_.data(), k2, k2}, schur_rhs);
        if (pivots > 0) {
            Vector(u_pivots, pivots) = ConstVector(scaled, pivots);
            if (k2 > 0) {
                const ConstMatrix e_block(e, pivots, k2, Eigen::OuterStride<>(pivots));
                Vector(scaled, pivots).noalias() = e_block * ConstVector(schur_rhs, k2);
                for (Index p = 0; p < pivots; ++p) u_pivots[p] -= scaled[p] / doubleton_pivots_[p];
            }
        }
        for (Index i = 0; i < k2; ++i) u1[rest_columns_[i]] = schur_rhs[i];
        for (Index p = 0; p < pivots; ++p) u1[pivot_columns_[p]] = u_pivots[p];
    }
    for (Index j = 0; j < k1; ++j) u[kept_columns_[j]] = u1[j];
    if (singles > 0) {
        // u2 = D^-1 (v2 - C21 u1), into u at the singleton columns.
        double* u2 = single_work_.data();
        for (Index i = 0; i < singles; ++i) u2[i] = v[reduced_rows_[single_rows_[i]]];
        for (Index j = 0; j < k1; ++j) {
            const double uj = u1[j];
            if (uj == 0.0) continue;
            for (Index e = c21_start_[j]; e < c21_start_[j + 1]; ++e) {
                u2[block_rows_.data()[e]] -= block_values_.data()[e] * uj;
            }
        }
        for (Index i = 0; i < singles; ++i) u[single_columns_[i]] = u2[i] / single_pivots_[i];
    }
    // y_Z = -u_Z, y_z0 = -u_z0.
    for (Index t = 0; t < z_count_; ++t) y[z_slots_[t]] = -u[t];
    const double u_z0 = z0_slot_ >= 0 ? u[z_count_] : 0.0;
    if (z0_slot_ >= 0) y[z0_slot_] = -u_z0;
    // y_W = v_W - M(W, Z) u_Z - c_W u_z0.
    double* unit = unit_work_.data();
    for (Index r = 0; r < unit_count; ++r) unit[r] = v[unit_rows_[r]] - covering_[unit_rows_[r]] * u_z0;
    for (Index t = 0; t < z_count_; ++t) {
        const double ut = u[t];
        if (ut == 0.0) continue;
        for (Index e = m_wz_start_[t]; e < m_wz_start_[t + 1]; ++e) {
            unit[block_rows_.data()[e]] -= block_values_.data()[e] * ut;
        }
    }
    for (Index r = 0; r < unit_count; ++r) y[unit_slots_[r]] = unit[r];
}

void BasisFactorization::apply_etas(double* y, Index first_eta) const {
    const Index n = n_;
    Vector target(y, n);
    for (Index e = first_eta; e < eta_count_; ++e) {
        const Index p = eta_slots_[e];
        const double* d = eta_columns_.data() + e * capacity_;
        const double yp = y[p] / d[p];
        if (yp == 0.0) continue;  // E^-1 leaves y unchanged (and y[p] is 0)
        target.noalias() -= yp * ConstVector(d, n);
        y[p] = yp;
    }
}

void BasisFactorization::solve(const double* v, double* y) {
    base_solve(v, y);
    apply_etas(y, 0);
}

void BasisFactorization::solve_unit(Index row, double* y) {
    // With w_row basic at the last factorization, B_0 e_slot = e_row.
    const Index n = n_;
    bool unit_row = false;
    Index unit_slot = -1;
    // unit_rows_ is sorted: binary search.
    const Index unit_count = n - k_;
    const Index* first = unit_rows_.data();
    const Index* found = std::lower_bound(first, first + unit_count, row);
    if (found != first + unit_count && *found == row) {
        unit_row = true;
        unit_slot = unit_slots_[found - first];
    }
    if (unit_row) {
        std::fill(y, y + n, 0.0);
        y[unit_slot] = 1.0;
    } else {
        double* v = column_work_.data();
        std::fill(v, v + n, 0.0);
        v[row] = 1.0;
        base_solve(v, y);
    }
    apply_etas(y, 0);
}

void BasisFactorization::solve_column(Index var, double* d) {
    const Index n = n_;
    if (var < n) {
        solve_unit(var, d);
        return;
    }
    if (var < 2 * n) {
        // a = -M_j: solve with M_j, then negate.
        double* v = column_work_.data();
        std::fill(v, v + n, 0.0);
        const Index j = var - n;
        for (Index e = m_.start[j]; e < m_.start[j + 1]; ++e) v[m_.rows[e]] = m_.values[e];
        base_solve(v, d);
        Vector(d, n) = -Vector(d, n);
    } else {
        double* v = column_work_.data();
        for (Index i = 0; i < n; ++i) v[i] = -covering_[i];
        base_solve(v, d);
    }
    apply_etas(d, 0);
}

BasisFactorization::Update BasisFactorization::replace(Index slot, Index entering, const double* d) {
    const Index leaving = slot_var_[slot];
    var_slot_[leaving] = -1;
    slot_var_[slot] = entering;
    var_slot_[entering] = slot;
    const double d_max = ConstVector(d, n_).cwiseAbs().maxCoeff();
    if (eta_count_ == max_etas_ || std::abs(d[slot]) < kEtaStability * d_max) {
        return refactorize() ? Update::refactorized : Update::singular;
    }
    std::copy(d, d + n_, eta_columns_.data() + eta_count_ * capacity_);
    eta_slots_[eta_count_] = slot;
    ++eta_count_;
    return Update::eta_appended;
}

void BasisFactorization::residual(const double* v, const double* y, double* r) const {
    const Index n = n_;
    std::copy(v, v + n, r);
    Vector rv(r, n);
    for (Index s = 0; s < n; ++s) {
        const Index var = slot_var_[s];
        const double ys = y[s];
        if (var < n) {
            r[var] -= ys;                   // column e_i
        } else if (var < 2 * n) {
            if (ys == 0.0) continue;
            const Index j = var - n;  // column -M_j
            for (Index e = m_.start[j]; e < m_.start[j + 1]; ++e) r[m_.rows[e]] += ys * m_.values[e];
        } else {
            rv.noalias() += ys * ConstVector(covering_.data(), n);  // column -c
        }
    }
}

}  // namespace pivot::lemke
