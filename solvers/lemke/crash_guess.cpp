#include "crash_guess.hpp"

#include <algorithm>
#include <cmath>

namespace pivot::lemke {

namespace {

constexpr uint8_t kAtLower = 0;
constexpr uint8_t kAtUpper = 1;
constexpr uint8_t kBetween = 2;
constexpr uint8_t kUnknown = 3;

}  // namespace

void CrashGuess::reserve(uint32_t n) {
    if (n <= capacity_) return;
    const size_t entries = static_cast<size_t>(n) * n;
    values_.resize(entries);
    rows_.resize(entries);
    column_start_.assign(static_cast<size_t>(n) + 1, 0);
    diagonal_.assign(n, 0.0f);
    x_.assign(n, 0.0f);
    w_.assign(n, 0.0f);
    place_.assign(n, kUnknown);
    capacity_ = n;
}

void CrashGuess::bounds(const pivot_lcp_problem& p, uint32_t i, float* lower, float* upper) const {
    *lower = static_cast<float>(p.lo[i]);
    *upper = static_cast<float>(p.hi[i]);
    if (p.findex != nullptr && p.findex[i] >= 0) {
        const float scale = std::abs(x_[p.findex[i]]);
        *lower *= scale;
        *upper *= scale;
    }
}

bool CrashGuess::start(const pivot_lcp_problem& p, const double* start) {
    const uint32_t n = p.n;
    const auto lda = static_cast<size_t>(p.lda);
    float* values = values_.data();
    uint32_t* rows = rows_.data();
    size_t count = 0;
    for (uint32_t j = 0; j < n; ++j) {
        column_start_[j] = count;
        const double* column = p.dense + j * lda;
        for (uint32_t i = 0; i < n; ++i) {
            const auto value = static_cast<float>(column[i]);
            if (value == 0.0f) continue;  // exact zeros only (also those of rounding to single precision)
            values[count] = value;
            rows[count] = i;
            ++count;
        }
        // Gauss-Seidel divides by A_jj: positive and finite in single
        // precision too (a diagonal below 1e-45 or above 3e38 is not).
        diagonal_[j] = static_cast<float>(column[j]);
        if (!(diagonal_[j] > 0.0f) || !std::isfinite(diagonal_[j])) return false;
    }
    column_start_[n] = count;
    nonzeros_ = count;
    float* x = x_.data();
    float* w = w_.data();
    for (uint32_t i = 0; i < n; ++i) {
        w[i] = static_cast<float>(p.b[i]);
        if (!std::isfinite(w[i])) return false;
    }
    std::fill(place_.begin(), place_.begin() + n, kUnknown);
    if (start == nullptr) {
        std::fill(x, x + n, 0.0f);
        return true;
    }
    // The rows without a friction index first, then the friction rows within
    // the bounds of their (clamped) normal impulse (as sdk::clamp_to_own_bounds).
    for (int pass = 0; pass < 2; ++pass) {
        for (uint32_t i = 0; i < n; ++i) {
            const bool indexed = p.findex != nullptr && p.findex[i] >= 0;
            if (indexed != (pass == 1)) continue;
            const auto given = static_cast<float>(start[i]);
            float lower = 0.0f;
            float upper = 0.0f;
            bounds(p, i, &lower, &upper);
            x[i] = std::min(upper, std::max(lower, std::isfinite(given) ? given : 0.0f));
        }
    }
    for (uint32_t j = 0; j < n; ++j) {
        const float xj = x[j];
        if (xj == 0.0f) continue;
        for (size_t k = column_start_[j]; k < column_start_[j + 1]; ++k) w[rows[k]] += xj * values[k];
    }
    return true;
}

uint32_t CrashGuess::sweep(const pivot_lcp_problem& p) {
    const uint32_t n = p.n;
    const float* values = values_.data();
    const uint32_t* rows = rows_.data();
    float* x = x_.data();
    float* w = w_.data();
    uint32_t changed = 0;
    for (uint32_t i = 0; i < n; ++i) {
        float lower = 0.0f;
        float upper = 0.0f;
        bounds(p, i, &lower, &upper);
        const float updated = std::min(upper, std::max(lower, x[i] - w[i] / diagonal_[i]));
        const uint8_t place = updated == lower ? kAtLower : updated == upper ? kAtUpper : kBetween;
        changed += place != place_[i] ? 1 : 0;
        place_[i] = place;
        const float step = updated - x[i];
        if (step == 0.0f) continue;
        x[i] = updated;
        // w += step A(:, i), over the column's nonzeros.
        const size_t end = column_start_[i + 1];
        for (size_t k = column_start_[i]; k < end; ++k) w[rows[k]] += step * values[k];
    }
    return changed;
}

bool CrashGuess::point(const pivot_lcp_problem& p, double* x) const {
    const uint32_t n = p.n;
    for (uint32_t i = 0; i < n; ++i) {
        // A NaN in w would have been clamped into a finite x: no guess then.
        if (!std::isfinite(x_[i]) || !std::isfinite(w_[i])) return false;
        x[i] = x_[i];
    }
    return true;
}

}  // namespace pivot::lemke
