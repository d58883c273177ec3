// Dot product and axpy on contiguous doubles: the inner loops of the
// triangular solves and factor updates, where nearly all the time goes.
//
// The dot product sums in a fixed order (eight partial sums, element i into
// sum i mod 8, combined in a fixed tree), written with SSE2 intrinsics where
// available (every x86-64), as plain C++ with exactly the same operations
// elsewhere, and with AVX2 intrinsics (same sums, same tree: the 256-bit
// lanes hold sums 0-3 and 4-7) for the solves on CPUs that have it, chosen at
// run time. So the result is bitwise the same on every build, CPU and run:
// determinism does not depend on the compiler's auto-vectorizer or on the
// machine. No FMA anywhere (separate multiply and add), so every variant
// rounds identically.
#pragma once

#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

namespace pivot::dantzig {

// sum_{i < count} a[i] * b[i]
inline double dot(const double* a, const double* b, uint32_t count) {
    uint32_t i = 0;
#if defined(__SSE2__)
    __m128d s0 = _mm_setzero_pd();
    __m128d s1 = _mm_setzero_pd();
    __m128d s2 = _mm_setzero_pd();
    __m128d s3 = _mm_setzero_pd();
    for (; i + 8 <= count; i += 8) {
        s0 = _mm_add_pd(s0, _mm_mul_pd(_mm_loadu_pd(a + i), _mm_loadu_pd(b + i)));
        s1 = _mm_add_pd(s1, _mm_mul_pd(_mm_loadu_pd(a + i + 2), _mm_loadu_pd(b + i + 2)));
        s2 = _mm_add_pd(s2, _mm_mul_pd(_mm_loadu_pd(a + i + 4), _mm_loadu_pd(b + i + 4)));
        s3 = _mm_add_pd(s3, _mm_mul_pd(_mm_loadu_pd(a + i + 6), _mm_loadu_pd(b + i + 6)));
    }
    const __m128d s = _mm_add_pd(_mm_add_pd(s0, s2), _mm_add_pd(s1, s3));
    double lanes[2];
    _mm_storeu_pd(lanes, s);
    double sum = lanes[0] + lanes[1];
#else
    double p[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (; i + 8 <= count; i += 8) {
        for (uint32_t k = 0; k < 8; ++k) p[k] += a[i + k] * b[i + k];
    }
    // The same tree as the SSE2 path: lanes (0,1) of s0..s3 are p[0..7].
    double sum = ((p[0] + p[4]) + (p[2] + p[6])) + ((p[1] + p[5]) + (p[3] + p[7]));
#endif
    double tail = 0.0;
    for (; i < count; ++i) tail += a[i] * b[i];
    return sum + tail;
}

// y[i] -= alpha * a[i] for i < count. Element-wise, so any vector width
// rounds the same.
inline void subtract_scaled(double* y, const double* a, double alpha, uint32_t count) {
    uint32_t i = 0;
#if defined(__SSE2__)
    const __m128d s = _mm_set1_pd(alpha);
    for (; i + 4 <= count; i += 4) {
        _mm_storeu_pd(y + i, _mm_sub_pd(_mm_loadu_pd(y + i), _mm_mul_pd(s, _mm_loadu_pd(a + i))));
        _mm_storeu_pd(y + i + 2, _mm_sub_pd(_mm_loadu_pd(y + i + 2), _mm_mul_pd(s, _mm_loadu_pd(a + i + 2))));
    }
#endif
    for (; i < count; ++i) y[i] -= alpha * a[i];
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(PIVOT_DANTZIG_NO_AVX2)
#define PIVOT_DANTZIG_AVX2_KERNELS 1

inline bool cpu_has_avx2() { return __builtin_cpu_supports("avx2") != 0; }

// dot() with 256-bit vectors: sums 0-3 in s0, 4-7 in s1; s0 + s1 gives the
// SSE2 path's (s0 + s2, s1 + s3) pairs in its low and high halves.
__attribute__((target("avx2"))) inline double dot_avx2(const double* a, const double* b, uint32_t count) {
    uint32_t i = 0;
    __m256d s0 = _mm256_setzero_pd();
    __m256d s1 = _mm256_setzero_pd();
    for (; i + 8 <= count; i += 8) {
        s0 = _mm256_add_pd(s0, _mm256_mul_pd(_mm256_loadu_pd(a + i), _mm256_loadu_pd(b + i)));
        s1 = _mm256_add_pd(s1, _mm256_mul_pd(_mm256_loadu_pd(a + i + 4), _mm256_loadu_pd(b + i + 4)));
    }
    const __m256d s = _mm256_add_pd(s0, s1);
    const __m128d pairs = _mm_add_pd(_mm256_castpd256_pd128(s), _mm256_extractf128_pd(s, 1));
    double lanes[2];
    _mm_storeu_pd(lanes, pairs);
    double sum = lanes[0] + lanes[1];
    double tail = 0.0;
    for (; i < count; ++i) tail += a[i] * b[i];
    return sum + tail;
}

__attribute__((target("avx2"))) inline void subtract_scaled_avx2(double* y, const double* a, double alpha,
                                                                   uint32_t count) {
    uint32_t i = 0;
    const __m256d s = _mm256_set1_pd(alpha);
    for (; i + 8 <= count; i += 8) {
        _mm256_storeu_pd(y + i, _mm256_sub_pd(_mm256_loadu_pd(y + i), _mm256_mul_pd(s, _mm256_loadu_pd(a + i))));
        _mm256_storeu_pd(y + i + 4,
                         _mm256_sub_pd(_mm256_loadu_pd(y + i + 4), _mm256_mul_pd(s, _mm256_loadu_pd(a + i + 4))));
    }
    for (; i < count; ++i) y[i] -= alpha * a[i];
}
#endif

}  // namespace pivot::dantzig
