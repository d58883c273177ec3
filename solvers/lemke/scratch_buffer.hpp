#pragma once
// Large scratch storage of the solver (matrices of up to (2n)^2 numbers).
//
// It holds nothing from one solve to the next, so:
//  - it is allocated uninitialized: the operating system commits only the
//    pages a solve touches (a standard LCP of n rows touches about n^2 of the
//    (2n)^2 reserved for boxed problems);
//  - a copy (clone() of an instance) allocates its own storage of the same
//    size and copies nothing.
#include <cstddef>
#include <memory>

namespace pivot::lemke {

class ScratchBuffer {
public:
    ScratchBuffer() = default;
    ScratchBuffer(const ScratchBuffer& other) { resize(other.size_); }
    ScratchBuffer& operator=(const ScratchBuffer& other) {
        if (this != &other) resize(other.size_);
        return *this;
    }
    ScratchBuffer(ScratchBuffer&&) noexcept = default;
    ScratchBuffer& operator=(ScratchBuffer&&) noexcept = default;

    // Contents are indeterminate after a resize. May throw std::bad_alloc.
    void resize(size_t size) {
        if (size == size_) return;
        data_.reset(size > 0 ? new double[size] : nullptr);
        size_ = size;
    }
    double* data() { return data_.get(); }
    const double* data() const { return data_.get(); }
    size_t size() const { return size_; }

private:
    std::unique_ptr<double[]> data_;
    size_t size_ = 0;
};

}  // namespace pivot::lemke
