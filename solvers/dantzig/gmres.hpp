// Restarted GMRES (Saad and Schultz, SIAM J. Sci. Stat. Comput. 7 (1986)
// 856-869; Saad, "Iterative Methods for Sparse Linear Systems", 2nd ed.,
// Alg. 6.9, with Givens rotations) for the small nonsymmetric systems of the
// friction-consistency Newton step. Modified Gram-Schmidt with a second
// orthogonalization pass: the systems are small (one unknown per friction row
// at a bound) and each operator application costs a solve with the factor,
// so orthogonality is cheap next to the iterations it saves. No allocation
// after reserve().
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "vector_kernels.hpp"

namespace pivot::dantzig {

class Gmres {
public:
    // Systems up to `size` unknowns, Krylov spaces up to `restart` vectors.
    void reserve(uint32_t size, uint32_t restart) {
        const std::size_t basis = static_cast<std::size_t>(size) * (restart + 1);
        if (basis > basis_.size()) basis_.resize(basis);
        const std::size_t hessenberg = static_cast<std::size_t>(restart + 1) * restart;
        if (hessenberg > hessenberg_.size()) hessenberg_.resize(hessenberg);
        if (restart + 1 > rhs_.size()) {
            rhs_.resize(restart + 1);
            cosines_.resize(restart + 1);
            sines_.resize(restart + 1);
            coefficients_.resize(restart + 1);
        }
        restart_ = restart;
    }

    struct Result {
        uint32_t iterations = 0;  // operator applications
        double residual = 0.0;    // ||c - Op(x)||_2 (the recurrence's value)
    };

    // Solves Op(x) = c for x (a guess on input) of size n (<= the reserved
    // size) until ||c - Op(x)||_2 <= tolerance or max_iterations operator
    // applications. apply(in, out) writes Op(in) to out.
    template <class Apply>
    Result solve(uint32_t n, const double* c, double* x, double tolerance, uint32_t max_iterations, Apply&& apply) {
        Result result;
        if (n == 0) return result;
        const std::size_t stride = restart_ + 1;
        for (;;) {
            double* r = basis_.data();
            apply(x, r);
            ++result.iterations;
            for (uint32_t i = 0; i < n; ++i) r[i] = c[i] - r[i];
            const double beta = std::sqrt(dot(r, r, n));
            result.residual = beta;
            if (beta <= tolerance || result.iterations >= max_iterations) return result;
            for (uint32_t i = 0; i < n; ++i) r[i] /= beta;
            rhs_[0] = beta;
            uint32_t m = 0;  // Krylov vectors used beyond the first
            while (m < restart_ && result.iterations < max_iterations) {
                const uint32_t j = m;
                double* v = basis_.data() + static_cast<std::size_t>(j + 1) * n;
                apply(basis_.data() + static_cast<std::size_t>(j) * n, v);
                ++result.iterations;
                double* h = hessenberg_.data() + static_cast<std::size_t>(j) * stride;
                for (uint32_t i = 0; i <= j; ++i) h[i] = 0.0;
                for (int pass = 0; pass < 2; ++pass) {
                    for (uint32_t i = 0; i <= j; ++i) {
                        const double* vi = basis_.data() + static_cast<std::size_t>(i) * n;
                        const double projection = dot(v, vi, n);
                        h[i] += projection;
                        subtract_scaled(v, vi, projection, n);
                    }
                }
                const double norm = std::sqrt(dot(v, v, n));
                h[j + 1] = norm;
                if (norm > 0.0) {
                    for (uint32_t i = 0; i < n; ++i) v[i] /= norm;
                }
                for (uint32_t i = 0; i < j; ++i) {
                    const double a = h[i];
                    const double b = h[i + 1];
                    h[i] = cosines_[i] * a + sines_[i] * b;
                    h[i + 1] = -sines_[i] * a + cosines_[i] * b;
                }
                const double radius = std::hypot(h[j], h[j + 1]);
                cosines_[j] = radius > 0.0 ? h[j] / radius : 1.0;
                sines_[j] = radius > 0.0 ? h[j + 1] / radius : 0.0;
                h[j] = radius;
                h[j + 1] = 0.0;
                rhs_[j + 1] = -sines_[j] * rhs_[j];
                rhs_[j] = cosines_[j] * rhs_[j];
                ++m;
                result.residual = std::abs(rhs_[j + 1]);
                if (result.residual <= tolerance || norm == 0.0) break;
            }
            // x += V y with H y = g (upper triangular after the rotations).
            for (uint32_t i = m; i-- > 0;) {
                double s = rhs_[i];
                for (uint32_t l = i + 1; l < m; ++l) s -= hessenberg_[l * stride + i] * coefficients_[l];
                const double diagonal = hessenberg_[i * stride + i];
                coefficients_[i] = diagonal != 0.0 ? s / diagonal : 0.0;
            }
            for (uint32_t i = 0; i < m; ++i) {
                subtract_scaled(x, basis_.data() + static_cast<std::size_t>(i) * n, -coefficients_[i], n);
            }
            if (result.residual <= tolerance || result.iterations >= max_iterations) return result;
        }
    }

private:
    std::vector<double> basis_;        // restart + 1 vectors
    std::vector<double> hessenberg_;   // column j at j * (restart + 1), rotated to triangular
    std::vector<double> rhs_;          // g, rotated
    std::vector<double> cosines_;
    std::vector<double> sines_;
    std::vector<double> coefficients_; // y
    uint32_t restart_ = 0;
};

}  // namespace pivot::dantzig
