#pragma once
// Counting heap allocations in a test program (the per-step path makes none
// after warm-up). Include in ONE translation unit of a test program: it
// replaces the program's global operator new and, on glibc, interposes the C
// allocator (malloc, calloc, realloc, aligned allocations; forwarded to
// glibc's __libc_* entry points), which is what CHOLMOD and any C code in
// the plugins use. The interposed malloc serves the whole process (shared
// libraries and dlopen'ed plugins resolve malloc to the executable's
// definition first); outside a counting window it only forwards.
//
// AddressSanitizer supplies its own allocator: nothing is replaced in such a
// build (PIVOT_COUNTS_ALLOCATIONS 0) and the allocation tests skip.
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <new>

namespace pivot::test {
inline std::atomic<long> cxx_allocations{0};
inline std::atomic<long> c_allocations{0};
inline std::atomic<bool> counting_allocations{false};

// Counts the allocations made while it lives.
class AllocationWindow {
public:
    AllocationWindow() {
        cxx_allocations = 0;
        c_allocations = 0;
        counting_allocations = true;
    }
    ~AllocationWindow() { counting_allocations = false; }
    AllocationWindow(const AllocationWindow&) = delete;
    AllocationWindow& operator=(const AllocationWindow&) = delete;
};
}  // namespace pivot::test

// Not under a sanitizer: it interposes the allocator itself (ThreadSanitizer
// crashes at start-up when the program's malloc is instrumented).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PIVOT_COUNTS_ALLOCATIONS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define PIVOT_COUNTS_ALLOCATIONS 0
#endif
#endif
#ifndef PIVOT_COUNTS_ALLOCATIONS
#define PIVOT_COUNTS_ALLOCATIONS 1
#endif
// The C allocator is interposed on glibc only (its __libc_* entry points).
#if PIVOT_COUNTS_ALLOCATIONS && defined(__GLIBC__)
#define PIVOT_COUNTS_C_ALLOCATIONS 1
#else
#define PIVOT_COUNTS_C_ALLOCATIONS 0
#endif

#if PIVOT_COUNTS_ALLOCATIONS
void* operator new(std::size_t size) {
    if (pivot::test::counting_allocations.load(std::memory_order_relaxed)) pivot::test::cxx_allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
#endif

#if PIVOT_COUNTS_C_ALLOCATIONS
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* p, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);
void __libc_free(void* p);
}
namespace {
void count_c_allocation() {
    if (pivot::test::counting_allocations.load(std::memory_order_relaxed)) pivot::test::c_allocations.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace
extern "C" {
void* malloc(std::size_t size) noexcept {
    count_c_allocation();
    return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) noexcept {
    count_c_allocation();
    return __libc_calloc(count, size);
}
void* realloc(void* p, std::size_t size) noexcept {
    count_c_allocation();
    return __libc_realloc(p, size);
}
void free(void* p) noexcept { __libc_free(p); }
void* memalign(std::size_t alignment, std::size_t size) noexcept {
    count_c_allocation();
    return __libc_memalign(alignment, size);
}
void* aligned_alloc(std::size_t alignment, std::size_t size) noexcept {
    count_c_allocation();
    return __libc_memalign(alignment, size);
}
int posix_memalign(void** out, std::size_t alignment, std::size_t size) noexcept {
    count_c_allocation();
    void* p = __libc_memalign(alignment, size);
    if (p == nullptr) return ENOMEM;
    *out = p;
    return 0;
}
}
#endif

