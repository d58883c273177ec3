#pragma once
// Large scratch storage of the solver (matrices of up to (2n)^2 numbers, and
// the crash guess's sparse copy of A: up to n^2 values and row indices).
//
// It holds nothing from one solve to the next, so:
//  - it is allocated uninitialized: the operating system commits only the
//    pages a solve touches (a standard LCP of n rows touches about n^2 of the
//    (2n)^2 reserved for boxed problems; in 2 MiB steps with huge pages);
//  - a copy (clone() of an instance) allocates its own storage of the same
//    size and copies nothing.
//
// On Linux, buffers of 2 MiB or more are aligned to 2 MiB and advised as
// transparent huge pages (madvise(2), MADV_HUGEPAGE; the kernel's
// transparent_hugepage "madvise" mode serves only such regions): the first
// touch of the pages is part of the first solve, and a friction problem of
// 999 rows touches about 80 MB (its standard LCP matrix alone is 2331^2
// numbers). With 4 KiB pages that is 20000 page faults, measured 0.28 s of
// a 0.51 s first solve on lcp-bench nc333_fric (virtual machine, 2 cores);
// with 2 MiB pages, 40.
#include <cstddef>
#include <cstdlib>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>

#if defined(__linux__)
#include <sys/mman.h>
#endif
#if defined(__linux__) && defined(MADV_HUGEPAGE)
#define PIVOT_LEMKE_HUGE_PAGES 1
#endif

namespace pivot::lemke {

template <typename T>
class ScratchArray {
    static_assert(std::is_trivial<T>::value, "the storage is uninitialized: trivial types only");

public:
    ScratchArray() = default;
    ScratchArray(const ScratchArray& other) { resize(other.size_); }
    ScratchArray& operator=(const ScratchArray& other) {
        if (this != &other) resize(other.size_);
        return *this;
    }
    ScratchArray(ScratchArray&&) noexcept = default;
    ScratchArray& operator=(ScratchArray&&) noexcept = default;

    // Contents are indeterminate after a resize. May throw std::bad_alloc.
    void resize(size_t size) {
        if (size == size_) return;
        data_.reset();
        size_ = 0;
        if (size > 0) data_.reset(allocate(size));
        size_ = size;
    }
    T* data() { return data_.get(); }
    const T* data() const { return data_.get(); }
    size_t size() const { return size_; }

private:
    static constexpr size_t kHugePage = size_t{2} << 20;

    struct Free {
        void operator()(T* p) const { std::free(p); }
    };

    static T* allocate(size_t size) {
        if (size > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
        size_t bytes = size * sizeof(T);
        size_t alignment = alignof(std::max_align_t);
#if defined(PIVOT_LEMKE_HUGE_PAGES)
        if (bytes >= kHugePage) {
            alignment = kHugePage;
            bytes = (bytes + kHugePage - 1) / kHugePage * kHugePage;  // aligned_alloc: a multiple of the alignment
        }
#endif
#if defined(_WIN32)
        void* p = std::malloc(bytes);  // no aligned_alloc on MSVC; malloc's alignment suffices without huge pages
#else
        bytes = (bytes + alignment - 1) / alignment * alignment;
        void* p = std::aligned_alloc(alignment, bytes);
#endif
        if (p == nullptr) throw std::bad_alloc();
#if defined(PIVOT_LEMKE_HUGE_PAGES)
        if (alignment == kHugePage) madvise(p, bytes, MADV_HUGEPAGE);  // advice only: failure changes nothing
#endif
        return static_cast<T*>(p);
    }

    std::unique_ptr<T, Free> data_;
    size_t size_ = 0;
};

using ScratchBuffer = ScratchArray<double>;

}  // namespace pivot::lemke
